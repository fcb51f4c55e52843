"""Taking back a draw at the console (issue 53, item 3): a player withdrawn a moment too
late was drawn; the director taps "Auslosung zurücknehmen", reads the confirm page, says
yes, withdraws the player and draws again — at 390 and 800 px."""

import pytest

from tests.browser.conftest import needs_chromium, shot
from tests.browser.test_director_console import confirm, logged_in, no_sideways_scroll
from tests.factories import ClubFactory, ParticipantFactory, PlayerFactory, StaffFactory
from tournaments.models import Participant, Seat
from tournaments.services import round_draw, tournament_create

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("viewport", ["phone", "tablet"])  # 390 and 800 px
def test_a_draw_is_taken_back_and_drawn_again(live_server, browser, viewport):
    club = ClubFactory()
    director = StaffFactory(username="leitung")
    club.admins.add(director)
    tournament = tournament_create(name="Donnerstag", game="skat", club=club, published=True,
                                   director=director)
    for n in range(7):
        ParticipantFactory(tournament=tournament, player=PlayerFactory(club=club),
                           start_number=n + 1)
    round_draw(tournament_id=tournament.pk, method="random", seed=4)
    late = Participant.objects.get(tournament=tournament, start_number=7)

    context, page, errors = logged_in(browser, live_server, director, viewport)
    if viewport == "tablet":
        page.set_viewport_size({"width": 800, "height": 1280})
    page.goto(f"{live_server.url}/console/t/{tournament.pk}/")
    no_sideways_scroll(page)
    shot(page, f"undo-draw-console-{viewport}")
    page.click("#undo-draw")
    shot(page, f"undo-draw-confirm-{viewport}")
    no_sideways_scroll(page)
    confirm(page, "bleibt in der Turnierhistorie")
    assert "Die Auslosung der Runde 1 wurde zurückgenommen." in page.inner_text("main")
    shot(page, f"undo-draw-done-{viewport}")
    assert page.locator("#undo-draw").count() == 0
    Participant.objects.filter(pk=late.pk).update(withdrawn=True)
    page.reload()
    page.click(".draw-form button[type=submit]")
    page.wait_for_selector("text=Runde 1")
    assert page.locator("#undo-draw").count() == 1
    context.close()
    assert errors == []
    seated = set(Seat.objects.filter(table__round__tournament=tournament)
                 .values_list("participant_id", flat=True))
    assert len(seated) == 6 and late.pk not in seated
