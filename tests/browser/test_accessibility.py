"""Accessibility for players of every age (issue #23), checked on every page a person sees
at 390 px (a phone) and 800 px (a tablet):

- axe-core (pinned in package.json, installed by `make install` through `npm ci`) reports
  no violation of impact *serious* or *critical*;
- the body text is at least 16 px, and so is every paragraph, list item, label, table cell,
  help text (small), link and form control in the page's main part that carries text of its
  own (headings are larger anyway; badges and the sheet's per-deal deltas are not checked).
  The score tables too (a sheet's deal list, `table.list`, and the standings,
  `table.standings`): on a phone they fit 390 px at 16 px by a compact layout (the deal's
  value under its game words, won and lost under the player's name), see
  test_phone_width.py and test_readable_lists.py;
- every visible interactive element (a, button, input, select, textarea, summary,
  [role=button]) is a tap target of at least 44 × 44 px. Two exemptions, both from
  WCAG 2.5.5/2.5.8: a text link inside a running sentence of a paragraph or list item
  (the "inline" exception: its size is set by the line of text around it), and a checkbox or
  radio button inside its label, whose tap target is the whole label (it is the label that
  is measured).

The pages are the ones the routes in config/urls.py, tournaments/pages/urls.py and
clublife/urls.py serve to a browser (GET, HTML): the landing page, the sign-in page, the
console, the tablet sheet of every game, the closed sheet, the staff sheet and its paper
grid and summary, the print pages, the public board with a player's page, the club and
clublife pages, the player's own history and the API docs. Not visited: Django's own admin
(not our templates), the JSON/CSV downloads and the POST-only actions.

Without node_modules (no npm on a developer's machine) the test skips; under CI=true it
fails instead, as a missing Chromium does (tests/browser/conftest.py).
"""

import datetime
import os
from pathlib import Path

import pytest
from django.test import Client

from games.engines import all_engines
from prizes.services import prizes_set
from tests.browser.conftest import needs_chromium, shot
from tests.browser.test_director_console import setup_evening
from tests.factories import ParticipantFactory, PlayerFactory
from tournaments.models import Table
from tournaments.recompute.standings_rows import standings_recompute
from tournaments.services import round_draw, tournament_create
from tournaments.services.teams import team_create

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"

needs_axe = pytest.mark.skipif(
    not AXE.exists() and os.environ.get("CI", "").lower() != "true",
    reason=f"no axe-core at {AXE} (`make install` runs `npm ci` where npm is installed)")

pytestmark = [needs_chromium, needs_axe, pytest.mark.browser,
              pytest.mark.django_db(transaction=True)]

WIDTHS = {"phone": {"width": 390, "height": 844}, "tablet": {"width": 800, "height": 1280}}
MIN_TEXT_PX = 16
MIN_TARGET_PX = 44

AXE_RUN = """async () => {
  const result = await axe.run(document, {resultTypes: ['violations']});
  return result.violations
    .filter(v => v.impact === 'serious' || v.impact === 'critical')
    .map(v => ({id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.slice(0, 6).map(n => n.target.join(' ') + ' :: '
                  + (n.failureSummary || '').replace(/\\s+/g, ' ').slice(0, 160))}));
}"""

# The body's size, and every element in <main> that carries text of its own (paragraphs,
# list items, labels, table cells, links, form controls) and reads smaller than 16 px.
FONT_SIZES = """min => {
  const body = parseFloat(getComputedStyle(document.body).fontSize);
  const small = [];
  const texts = 'p, li, label, dd, td, th, caption, small, input, select, textarea, button, '
    + 'summary, a';
  for (const el of document.querySelectorAll(texts.split(', ').map(t => 'main ' + t).join(', '))) {
    if (!el.getClientRects().length || getComputedStyle(el).visibility === 'hidden') continue;
    const own = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    if (!own && !['INPUT', 'SELECT', 'TEXTAREA'].includes(el.tagName)) continue;
    if (el.closest('.visually-hidden')) continue;
    const size = parseFloat(getComputedStyle(el).fontSize);
    if (size < min - 0.01) small.push(el.tagName.toLowerCase() + '.' + el.className + ' '
        + Math.round(size * 10) / 10 + 'px "' + el.textContent.trim().slice(0, 30) + '"');
  }
  return {body, small: small.slice(0, 30)};
}"""

TAP_TARGETS = """min => {
  const visible = el => {
    const style = getComputedStyle(el);
    return el.getClientRects().length && style.visibility !== 'hidden' && style.display !== 'none';
  };
  // WCAG's inline exception: a link inside a sentence of a paragraph or list item.
  const inSentence = el => {
    if (el.tagName !== 'A' || getComputedStyle(el).display !== 'inline') return false;
    const block = el.closest('p, li, dd, figcaption, blockquote');
    if (!block) return false;
    const letters = node => node.textContent.replace(/\\s+/g, '').length;
    return letters(block) > letters(el);
  };
  const small = [];
  for (const el of document.querySelectorAll(
      'a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button]')) {
    if (!visible(el) || inSentence(el)) continue;
    let target = el;
    if (el.tagName === 'INPUT' && ['checkbox', 'radio'].includes(el.type)) {
      target = el.closest('label')
        || (el.id && document.querySelector(`label[for="${el.id}"]`)) || el;
    }
    const box = target.getBoundingClientRect();
    if (box.width < min - 0.5 || box.height < min - 0.5) {
      small.push(el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + '.' + el.className
                 + ' ' + Math.round(box.width) + 'x' + Math.round(box.height)
                 + ' "' + (el.textContent || el.value || '').trim().slice(0, 30) + '"');
    }
  }
  return small.slice(0, 30);
}"""


def game_tables(club):
    """One fresh table of every registered game, so each game's tablet form is checked."""
    tables = []
    for engine in all_engines():
        tournament = tournament_create(name=f"Abend {engine.key}", game=engine.key, club=club,
                                       published=True)
        for n in range(engine.preferred_table_size):
            ParticipantFactory(tournament=tournament, start_number=n + 1,
                               player=PlayerFactory(club=club))
        rnd = round_draw(tournament_id=tournament.pk, method="random", seed=3)
        tables.append((engine.key, Table.objects.filter(round=rnd).first()))
    return tables


def every_page():
    """The data and the paths: a Skat evening with a played and an open table, teams,
    prizes and standings, one table of every game."""
    tournament, director, done, short = setup_evening()
    club = tournament.club
    players = list(tournament.participants.order_by("start_number"))
    team_create(tournament_id=tournament.pk, name="Kreuz Buben",
                members=[p.pk for p in players[:2]])
    prizes_set(tournament_id=tournament.pk, data={
        "entry_fee_cents": 1250, "places_percent": [60, 40],
        "places_goods": ["", "Präsentkorb"]})
    standings_recompute(tournament_id=tournament.pk)
    player = done.seats.get(seat=2).participant
    other = done.seats.get(seat=3).participant
    year = datetime.date.today().year
    tid, slug = tournament.pk, tournament.slug
    paths = [
        "/", "/console/", f"/console/t/{tid}/",
        f"/console/t/{tid}/rounds/1/cards/", f"/console/t/{tid}/rounds/1/paper/",
        f"/console/t/{tid}/teams/", f"/console/t/{tid}/prizes/",
        f"/console/t/{tid}/prizes/print/", f"/console/t/{tid}/player-cards/",
        f"/console/table/{short.pk}/", f"/console/table/{short.pk}/paper/",
        f"/console/table/{done.pk}/summary/",
        f"/t/{short.entry_token}/", f"/t/{done.entry_token}/",
        f"/p/{slug}/", f"/p/{slug}/?round=1", f"/p/{slug}/print/",
        f"/p/{slug}/player/{player.pk}/",
        "/clubs/", f"/clubs/{club.slug}/", f"/clubs/{club.slug}/members/",
        f"/clubs/{club.slug}/settings/", f"/clubs/{club.slug}/member-list/",
        f"/clubs/{club.slug}/evenings/new/", f"/clubs/{club.slug}/seasons/{year}/",
        f"/clubs/{club.slug}/seasons/{year}/table-money/",
        f"/clubs/{club.slug}/seasons/{year}/cash/",
        f"/clubs/tournaments/{tid}/table-money/", f"/clubs/tournaments/{tid}/cash/",
        f"/clubs/players/{player.player_id}/", f"/clubs/players/{player.player_id}/merge/",
        f"/clubs/players/{player.player_id}/merge/?remove={other.player_id}",
        f"/me/{player.personal_token}/history/", f"/me/{player.personal_token}/changes/",
        "/api/docs/",
    ]
    pages = [(path, path.strip("/").replace("/", "-").replace("?", "-") or "landing")
             for path in paths]
    pages[paths.index(f"/t/{short.entry_token}/")] = (f"/t/{short.entry_token}/", "sheet-open")
    pages[paths.index(f"/t/{done.entry_token}/")] = (f"/t/{done.entry_token}/", "sheet-closed")
    pages += [(f"/t/{table.entry_token}/", f"sheet-{key}") for key, table in game_tables(club)]
    return director, pages


def check(page, path, name):
    """The findings on the page now open, as lines of text (empty: nothing found)."""
    page.add_script_tag(path=str(AXE))
    found = [f"{path}: axe {v['impact']} {v['id']} ({v['help']}): " + " | ".join(v["nodes"])
             for v in page.evaluate(AXE_RUN)]
    sizes = page.evaluate(FONT_SIZES, MIN_TEXT_PX)
    if sizes["body"] < MIN_TEXT_PX:
        found.append(f"{path}: body text {sizes['body']}px")
    found += [f"{path}: text under {MIN_TEXT_PX}px: {s}" for s in sizes["small"]]
    found += [f"{path}: tap target under {MIN_TARGET_PX}px: {s}"
              for s in page.evaluate(TAP_TARGETS, MIN_TARGET_PX)]
    shot(page, f"a11y-{name}")
    return found


@pytest.mark.parametrize("viewport", list(WIDTHS))
def test_every_page_passes_axe_reads_at_16px_and_taps_at_44px(
        live_server, browser, in_process_tasks, viewport):
    assert AXE.exists(), f"{AXE} is missing: run `make install` (npm ci)"
    director, pages = every_page()
    # axe comes in as an inline script tag, which the app's Content-Security-Policy
    # (rightly) refuses: the test's browser alone bypasses it.
    client = Client()
    client.force_login(director)
    context = browser.new_context(viewport=WIDTHS[viewport], locale="de-DE", bypass_csp=True)
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value,
                          "url": live_server.url}])
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    found = []
    for path, name in pages:
        response = page.goto(f"{live_server.url}{path}")
        assert response.status == 200, (path, response.status)
        if path == "/api/docs/":
            page.wait_for_selector(".swagger-ui .info")
        found += check(page, path, name)
    page.goto("about:blank")
    context.close()

    # the sign-in page, as a visitor sees it
    visitor = browser.new_context(viewport=WIDTHS[viewport], locale="de-DE", bypass_csp=True)
    sign_in = visitor.new_page()
    sign_in.goto(f"{live_server.url}/accounts/login/")
    found += check(sign_in, "/accounts/login/", "login")
    visitor.close()

    assert errors == []
    assert not found, f"{len(found)} accessibility findings at {viewport}:\n" + "\n".join(found)
