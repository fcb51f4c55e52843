"""The changes to a player's own score on their phone (the latest on ``/me/<token>/``, all
on its ``changes/``) and on the public player pages (the club's and the tournament's), in
a real Chromium at 390 and 800 px:
every change's numbers apart and on the screen, no sideways scroll, a long reason
wrapping."""

import pytest

from tests.browser.conftest import ARTIFACTS, needs_chromium
from tests.browser.test_readable_lists import NAMES, players
from tests.factories import ClubFactory, StaffFactory
from tournaments.models import Deal, Table
from tournaments.player_view import player_overview
from tournaments.services import (
    Actor,
    deal_correct,
    deal_delete,
    deal_record,
    objection_raise,
    objection_resolve,
    round_draw,
    tournament_create,
)

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]

GRAND = {"declarer": 1, "game": "grand", "matadors": 4, "won": True, "schneider": True,
         "hand": True}


def with_changes():
    """Seat 1 of a Skat table declares three grands; the director corrects the first with
    a long reason, the second after an objection, and the table deletes the third."""
    club = ClubFactory()
    director = StaffFactory(username="leitung")
    club.admins.add(director)
    tournament = tournament_create(name="Herbstpokal der Skatfreunde", game="skat", club=club,
                                   published=True, director=director)
    players(tournament, club, NAMES[:3])
    table = Table.objects.get(round=round_draw(tournament_id=tournament.pk, method="random",
                                               seed=1))
    staff, at_table = Actor(user=director), Actor(by_table=True)
    for number in (1, 2, 3):
        deal_record(table_id=table.pk, number=number, record=GRAND, actor=at_table)

    def etag(number):
        return Deal.objects.get(table=table, number=number).etag

    deal_correct(table_id=table.pk, number=1, actor=staff, if_match=etag(1),
                 record={**GRAND, "won": False, "schneider": False},
                 reason="Die Gegenpartei hatte 61 Augen; beim Nachzählen der Stiche "
                        "festgestellt, nicht Schneider")
    first = table.seats.get(seat=2).participant
    objection = objection_raise(table_id=table.pk, deal=2, note="Mit 2, nicht mit 4",
                                actor=Actor(by_table=True, participant=first))
    deal_correct(table_id=table.pk, number=2, actor=staff, if_match=etag(2),
                 record={**GRAND, "matadors": 2})
    objection_resolve(objection_id=objection.pk, resolution="Mit 2 – berichtigt",
                      actor=staff)
    deal_delete(table_id=table.pk, number=3, actor=at_table)
    return table.seats.get(seat=1).participant


@pytest.mark.parametrize("width", [390, 800])
def test_the_changes_read_at_phone_and_tablet_width(live_server, browser, width):
    participant = with_changes()
    context = browser.new_context(viewport={"width": width, "height": 900}, locale="de-DE")
    page = context.new_page()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    # the phone's page shows the latest change and the way to all of them
    page.goto(f"{live_server.url}/me/{participant.personal_token}/")
    assert page.locator(".change-list li").count() == 1
    assert "Tablet von Tisch 1" in page.locator(".change-list").inner_text()  # the newest
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.locator(".score-changes").screenshot(
        path=str(ARTIFACTS / f"score-changes-me-live-{width}.png"))
    page.get_by_role("link", name="Alle 3 Änderungen").click()
    page.wait_for_url(f"**/me/{participant.personal_token}/changes/")
    for name, path in (("me", f"/me/{participant.personal_token}/changes/"),
                       ("player", f"/clubs/players/{participant.player_id}/"),
                       ("board", f"/p/{participant.tournament.slug}/player/{participant.pk}/")):
        page.goto(live_server.url + path)
        items = page.locator(".change-list li")
        assert items.count() == 3
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        for n in range(3):
            numbers = items.nth(n).locator(".change-scores dd")
            left, right = (numbers.nth(i).bounding_box() for i in (0, 1))
            assert left["x"] + left["width"] < right["x"]  # apart, never run together
            assert right["x"] + right["width"] <= width
        text = page.locator(".change-list").inner_text()
        assert "Einspruch entschieden: Mit 2 – berichtigt" in text
        assert "gelöscht" in text and "Turnierleitung" in text
        page.locator(".score-changes").screenshot(
            path=str(ARTIFACTS / f"score-changes-{name}-{width}.png"))
        page.screenshot(path=str(ARTIFACTS / f"score-changes-{name}-page-{width}.png"),
                        full_page=True)
    context.close()


def test_the_tablet_sends_the_reason_of_a_correction(live_server, browser):
    club = ClubFactory()
    director = StaffFactory(username="leitung")
    club.admins.add(director)
    tournament = tournament_create(name="Abendrunde", game="skat", club=club, published=True,
                                   director=director)
    players(tournament, club, NAMES[:3])
    table = Table.objects.get(round=round_draw(tournament_id=tournament.pk, method="random",
                                               seed=1))
    deal_record(table_id=table.pk, number=1, record=GRAND, actor=Actor(by_table=True))
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="de-DE")
    page = context.new_page()
    page.goto(f"{live_server.url}/t/{table.entry_token}/")
    page.click("#sheet tr.deal-row[data-number='1']")
    reason = page.locator("#correction-reason")
    reason.wait_for(state="visible")
    page.check("[data-field=won] input[value=false]")
    reason.fill("Gegner hatten 61 Augen")
    page.locator("#entry").screenshot(path=str(ARTIFACTS / "correction-reason-390.png"))
    page.wait_for_function("() => document.querySelector('#preview').textContent.length > 0")
    page.click("#save-deal")
    page.wait_for_function("() => document.querySelector('#cancel-edit').hidden")
    assert reason.is_hidden() and reason.input_value() == ""
    page.wait_for_function("() => document.querySelector('#sheet table')"
                           ".dataset.version != '1'")
    context.close()
    declarer = table.seats.get(seat=1).participant
    (change,) = player_overview(declarer).body["changes"]
    assert change["why"] == "Gegner hatten 61 Augen"
    assert change["before"] > 0 > change["after"]
