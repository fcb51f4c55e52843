"""A guest types her own club at sign-up (issue 53, item 1): the form keeps the host club
preselected, she types "SV Nachbarort" beside it; the director's desk lists her with that
club at 390 and 800 px, and she is no member of the host club."""

import pytest

from clubs.models import Player
from tests.browser.conftest import needs_chromium, shot
from tests.browser.test_director_console import no_sideways_scroll
from tests.browser.test_sign_up_and_check_in import PHONE, TABLET, new_page, open_event

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]

CLUB = "SV Nachbarort-Kreuz-Ass 1921 e. V."


def test_a_typed_club_is_kept_and_shown_at_the_desk(browser, live_server):
    from django.test import Client

    tournament, director = open_event("Skatclub Grün-Weiß")
    host = tournament.club

    context, phone, errors = new_page(browser, PHONE)
    phone.goto(f"{live_server.url}/p/{tournament.slug}/register/")
    assert phone.input_value("#id_club") == str(host.pk)  # the host club preselected
    phone.fill("#id_name", "Gerda Gast")
    phone.fill("#id_club_name", CLUB)
    phone.click("#register-submit")
    phone.wait_for_url("**/me/*/")
    context.close()
    assert errors == []
    guest = Player.objects.get(name="Gerda Gast")
    assert guest.club is None

    client = Client()
    client.force_login(director)
    for viewport in (PHONE, TABLET):
        context, desk, errors = new_page(browser, viewport)
        context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value,
                              "url": live_server.url}])
        desk.goto(f"{live_server.url}/console/t/{tournament.pk}/check-in/")
        assert CLUB in desk.locator("main").inner_text()
        no_sideways_scroll(desk)
        shot(desk, "guest-club-check-in")
        row = f"#registrant-{guest.participations.get().pk}"
        if desk.get_attribute(f"{row} .checkin-toggle", "aria-pressed") != "true":
            counts = desk.inner_text("#checkin-counts")
            assert counts == "1 Platz belegt · 0 eingecheckt · 0 bezahlt"
            desk.click(f"{row} .checkin-toggle")
            desk.wait_for_selector(f'{row} .checkin-toggle[aria-pressed="true"]')
            # the counters move with the tick, without a reload (issue 53, item 10)
            desk.wait_for_function("() => document.querySelector('#checked-count')"
                                   ".textContent.startsWith('1 ')")
            desk.click(f"{row} .paid-toggle")
            desk.wait_for_function("() => document.querySelector('#paid-count')"
                                   ".textContent.startsWith('1 ')")
            shot(desk, "guest-club-checked-in")
        desk.goto(f"{live_server.url}/console/t/{tournament.pk}/")
        # the list's club column makes room on a phone (as for every member)
        listed = desk.locator("#participants")
        assert CLUB in (listed.inner_text() if viewport is TABLET else listed.text_content())
        no_sideways_scroll(desk)
        shot(desk, "guest-club-console")
        context.close()
        assert errors == []
