"""The console's "Neues Turnier oder neuer Vereinsabend" (issue 53, item 10): a club
evening made there is the club's evening, and once played it stands in the club's
season, as one made on the club's page."""

import pytest
from django.contrib.auth import get_user_model

from tests.browser.conftest import needs_chromium, shot
from tests.browser.test_director_console import logged_in, no_sideways_scroll
from tests.clublife.helpers import enter_round, score
from tests.factories import ClubFactory, PlayerFactory
from tournaments.models import Tournament
from tournaments.recompute.standings_rows import standings_recompute
from tournaments.services import participant_add, round_draw

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("width", [390, 800])
def test_an_evening_from_the_console_reaches_the_season(live_server, browser, width,
                                                        in_process_tasks):
    club = ClubFactory(name="Skatfreunde Kreuz Bube")
    members = [PlayerFactory(club=club, name=n) for n in
               ("Anna Berger", "Bernd Ott", "Dieter Sommer", "Carla Ruf")]
    director = get_user_model().objects.create_user(f"evening-{width}", is_staff=True,
                                                   is_superuser=True)
    context, page, errors = logged_in(browser, live_server, director, "phone")
    page.set_viewport_size({"width": width, "height": 844})
    page.goto(f"{live_server.url}/console/")
    page.fill("#id_name", "Donnerstagsabend")
    page.select_option("#id_game", "skat")
    page.fill("#id_date", "2026-03-05")
    page.select_option("#id_club", str(club.pk))
    page.check("#id_club_evening")
    no_sideways_scroll(page)
    shot(page, "console-new-evening")
    page.click("form.stacked button.primary")
    page.wait_for_url("**/console/t/*/")
    evening = Tournament.objects.get(name="Donnerstagsabend")
    assert evening.club_evening and evening.published
    # the evening is played: one table of four, its sheet submitted
    for player in members:
        participant_add(tournament=evening, player=player, checked_in=True)
    rnd = round_draw(tournament_id=evening.pk, method="random", seed=1)
    values = {p.pk: 100 - 10 * i for i, p in enumerate(members)}
    enter_round(rnd, director, lambda player: score(values[player.pk]))
    standings_recompute(tournament_id=evening.pk)
    page.goto(f"{live_server.url}/clubs/{club.slug}/seasons/2026/?game=skat")
    ranking = page.locator("main").inner_text()
    assert "1 Abend" in ranking and "Anna Berger" in ranking, ranking[:800]
    no_sideways_scroll(page)
    shot(page, "season-with-console-evening")
    assert errors == []
    context.close()
