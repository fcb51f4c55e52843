"""Every page on a 390 px phone, in German and English: nothing scrolls sideways.

One browser context per language visits the tablet sheet (Skat with the Seeger-Fabian rows,
a four-seat Schafkopf sheet), the director's console and its printouts, the public board,
the club pages and the sign-in page."""

import datetime

import pytest

from prizes.services import prizes_set
from tests.browser.conftest import needs_chromium
from tests.browser.test_director_console import logged_in, no_sideways_scroll, setup_evening
from tests.factories import ParticipantFactory, PlayerFactory
from tournaments.models import Table
from tournaments.recompute.standings_rows import standings_recompute
from tournaments.services import Actor, deal_record, round_draw, tournament_create
from tournaments.services.teams import team_create

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]

RUFSPIEL = {"game": "rufspiel", "declarer": 2, "partner": 3, "called_ace": "acorns",
            "declarer_points": 64, "laufende": 3, "doublings": 1}


def schafkopf_table(club, director):
    tournament = tournament_create(name="Schafkopfrunde mit langem Namen", game="schafkopf",
                                   club=club, published=True, director=director)
    for n in range(4):
        ParticipantFactory(tournament=tournament, start_number=n + 1,
                           player=PlayerFactory(club=club, name=f"Maximiliane Oberhuber-{n}"))
    rnd = round_draw(tournament_id=tournament.pk, method="random", seed=2)
    table = Table.objects.get(round=rnd)
    for number in (1, 2):
        deal_record(table_id=table.pk, number=number, record=RUFSPIEL, actor=Actor(user=director))
    return table


@pytest.mark.smoke
@pytest.mark.parametrize("language", ["de", "en"])
def test_no_page_scrolls_sideways_on_a_phone(live_server, browser, in_process_tasks, language):
    # players named "Spieler 5000" and on, as late in a full run: their initials ("S5000")
    # are the widest column heads the list meets; the test must not depend on its order
    PlayerFactory.reset_sequence(5000)
    tournament, director, done, short = setup_evening()
    club = tournament.club
    schafkopf = schafkopf_table(club, director)
    players = list(tournament.participants.order_by("start_number"))
    team_create(tournament_id=tournament.pk, name="Kreuz Buben mit einem langen Namen",
                members=[p.pk for p in players[:2]])
    prizes_set(tournament_id=tournament.pk, data={
        "entry_fee_cents": 1250, "places_percent": [60, 40],
        "places_goods": ["", "Präsentkorb mit regionalen Spezialitäten"]})
    standings_recompute(tournament_id=tournament.pk)
    player = done.seats.get(seat=2).participant
    other = done.seats.get(seat=3).participant
    phone = schafkopf.seats.get(seat=2).participant
    year = datetime.date.today().year
    context, page, errors = logged_in(browser, live_server, director, "phone")
    context.add_cookies([{"name": "django_language", "value": language,
                          "url": live_server.url}])
    paths = [
        "/", f"/t/{done.entry_token}/", f"/t/{short.entry_token}/",
        f"/t/{schafkopf.entry_token}/", f"/console/table/{short.pk}/",
        f"/console/table/{short.pk}/paper/", f"/console/table/{done.pk}/summary/",
        f"/console/table/{schafkopf.pk}/paper/",
        "/console/", f"/console/t/{tournament.pk}/",
        f"/console/t/{tournament.pk}/rounds/1/cards/",
        f"/console/t/{tournament.pk}/rounds/1/paper/",
        f"/console/t/{tournament.pk}/player-cards/",
        f"/console/t/{tournament.pk}/player-cards/{player.pk}/",
        f"/p/{tournament.slug}/", f"/p/{tournament.slug}/?round=1",
        f"/p/{tournament.slug}/print/", f"/p/{tournament.slug}/player/{player.pk}/",
        "/clubs/", f"/clubs/{club.slug}/", f"/clubs/{club.slug}/members/",
        f"/clubs/{club.slug}/settings/", f"/clubs/{club.slug}/member-list/",
        f"/clubs/{club.slug}/evenings/new/",
        f"/clubs/{club.slug}/seasons/{year}/", f"/clubs/{club.slug}/seasons/{year}/table-money/",
        f"/clubs/players/{player.player_id}/", f"/clubs/players/{player.player_id}/merge/",
        f"/clubs/players/{player.player_id}/merge/?remove={other.player_id}",
        f"/clubs/tournaments/{tournament.pk}/table-money/",
        f"/console/t/{tournament.pk}/teams/", f"/console/t/{tournament.pk}/prizes/",
        f"/console/t/{tournament.pk}/prizes/print/",
        f"/clubs/tournaments/{tournament.pk}/cash/", f"/clubs/{club.slug}/seasons/{year}/cash/",
        f"/me/{player.personal_token}/history/",
        # a player's own phone at the open Schafkopf table (long double names)
        f"/me/{phone.personal_token}/", f"/me/{phone.personal_token}/sheet/",
    ]
    for path in paths:
        response = page.goto(f"{live_server.url}{path}")
        assert response.status == 200, (path, response.status)
        assert page.evaluate("() => document.documentElement.lang") == language, path
        no_sideways_scroll(page)
    page.goto("about:blank")
    context.close()
    login = browser.new_context(viewport={"width": 390, "height": 844})
    login.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    sign_in = login.new_page()
    sign_in.goto(f"{live_server.url}/accounts/login/")
    no_sideways_scroll(sign_in)
    login.close()
    assert errors == []
