"""The league's public pages on a phone (390 px) and a tablet (800 px), and the table's
printout on A4: nothing scrolls sideways, no number breaks, the print is one page."""

import datetime

import pytest

from leagues.services.matchdays import matchday_create, results_record
from leagues.services.seasons import division_create, league_create, team_create
from leagues.services.table_rows import division_recompute
from tests.browser.conftest import ARTIFACTS, needs_chromium
from tests.browser.test_print_sheets import printed
from tests.browser.test_print_standings import pdf_pages
from tests.factories import ClubFactory, PlayerFactory, StaffFactory

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]

NAMES = ["Herz Dame Schönberg 2", "Skatfreunde Oberhuber-Schwarzenbach 1952",
         "Kreuz Bube Altenburg", "Grand Hand Reken-Maria Veen"]


@pytest.fixture
def league_day(in_process_tasks):
    boss = StaffFactory(username="staffelleiter")
    league = league_create(name="DSkV-Liga", game="skat", year=2026, user=boss)
    division = division_create(league=league, name="Regionalliga Staffel 6", level=4,
                               series_per_matchday=3)
    teams = []
    for name in NAMES:
        club = ClubFactory(name=f"SC {name}")
        roster = [PlayerFactory(club=club, name=f"Mechthild Oberhuber-Schwarzenbach {n}")
                  for n in range(5)]
        teams.append((team_create(division=division, name=name, club=club,
                                  roster=[{"player": p.pk, "role": "regular"} for p in roster]),
                      roster))
    md = matchday_create(division=division, number=1, date=datetime.date.today(),
                         kind="decentral", venue_name="Gaststätte Zur Krone",
                         venue_address="Marktplatz 12, 04600 Altenburg",
                         groups=[[t.pk for t, _r in teams]])
    totals = [(2959, 2945, 2210, 2210), (1800, 2600, 2400, 2100), (2500, 1900, 2700, 2450)]
    results_record(group=md.groups.get(), series=[
        {"number": s, "teams": [{"team": t.pk, "players": [
            {"player": p.pk, "score": score} for p, score in zip(
                roster, [total - 1500, 500, 500, 500], strict=False)]}
            for (t, roster), total in zip(teams, row, strict=True)]}
        for s, row in enumerate(totals, start=1)])
    division_recompute(division_id=division.pk)
    return boss, division, md, teams


NO_SIDEWAYS = "() => document.scrollingElement.scrollWidth <= window.innerWidth"
# a number cell whose text boxes start more than half a line apart (a link, a tap target
# of its own, is measured by the phone-width tests of the links)
BROKEN_NUMBERS = """() => [...document.querySelectorAll('td.num:not(:has(a))')].filter(td => {
    const r = document.createRange(); r.selectNodeContents(td);
    const tops = [...r.getClientRects()].filter(b => b.height > 0).map(b => b.top);
    return tops.length && Math.max(...tops) - Math.min(...tops) > 8;
  }).map(td => td.textContent)"""


@pytest.mark.smoke
@pytest.mark.parametrize("width", [390, 800])
def test_league_pages_fit_phone_and_tablet(live_server, browser, league_day, width):
    _boss, division, md, teams = league_day
    context = browser.new_context(viewport={"width": width, "height": 844}, locale="de-DE")
    page = context.new_page()
    for name, path in [("league-table", f"/leagues/divisions/{division.pk}/"),
                       ("league-matchday", f"/leagues/matchdays/{md.pk}/"),
                       ("league-team", f"/leagues/teams/{teams[1][0].pk}/")]:
        assert page.goto(f"{live_server.url}{path}").status == 200
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"{name}-{width}.png"), full_page=True)
        assert page.evaluate(NO_SIDEWAYS), (name, width)
        assert page.evaluate(BROKEN_NUMBERS) == [], (name, width)
    context.close()


def test_league_table_prints_on_one_a4_page(live_server, browser, league_day):
    boss, division, _md, _teams = league_day
    context, _page, pdf = printed(browser, live_server, boss,
                                  f"/leagues/divisions/{division.pk}/print/", "league-table-print",
                                  press_print=True)
    assert pdf_pages(pdf) == 1
    context.close()


@pytest.mark.parametrize("width", [390, 800])
def test_league_console_fits_phone_and_tablet(live_server, browser, league_day, width):
    from django.test import Client

    boss, division, md, teams = league_day
    client = Client()
    client.force_login(boss)
    context = browser.new_context(viewport={"width": width, "height": 844}, locale="de-DE")
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value,
                          "url": live_server.url}])
    page = context.new_page()
    for name, path in [("league-console", f"/leagues/{division.league_id}/console/"),
                       ("league-division-console", f"/leagues/divisions/{division.pk}/console/"),
                       ("league-group-console", f"/leagues/matchdays/{md.pk}/groups/1/console/"),
                       ("league-team-console", f"/leagues/teams/{teams[0][0].pk}/console/")]:
        assert page.goto(f"{live_server.url}{path}").status == 200
        page.screenshot(path=str(ARTIFACTS / f"{name}-{width}.png"), full_page=True)
        assert page.evaluate(NO_SIDEWAYS), (name, width)
    context.close()
