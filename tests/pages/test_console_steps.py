"""The director's console as a new director meets it, through the test client: the app's
own login page, a confirmation before every step that is hard to undo (without
JavaScript), the current round first and the older ones folded, the buttons grouped,
a club evening without teams or prizes it does not have, the finish message naming the
kind of event, and the prize page naming players tied for a goods prize."""

import re

import pytest

from prizes.services import prizes_set
from tests.factories import UserFactory
from tests.scale import queries_of, skat_tournament
from tournaments.models import Participant, Round, Table, Tournament
from tournaments.services import round_draw

pytestmark = pytest.mark.django_db

YES = {"confirm": "yes"}


@pytest.fixture
def console(client, director):
    client.force_login(director)
    return client


@pytest.mark.parametrize("path", ["/console/", "/console/t/{pk}/", "/console/t/{pk}/teams/",
                                  "/console/t/{pk}/prizes/", "/clubs/tournaments/{pk}/cash/"])
def test_pages_needing_a_login_send_to_the_apps_own_login_page(client, short_skat, path):
    url = path.format(pk=short_skat.pk)
    resp = client.get(url)
    assert resp.status_code == 302
    assert resp["Location"].startswith("/accounts/login/?next=") and "admin" not in resp["Location"]
    page = client.get(resp["Location"]).content.decode()
    assert "Django" not in page and 'name="next"' in page


def test_a_logged_in_player_account_is_told_to_log_in_as_a_director(client, short_skat):
    client.force_login(UserFactory(username="gast"))
    resp = client.get("/console/", follow=True)
    html = resp.content.decode()
    assert resp.redirect_chain[0][0].startswith("/accounts/login/")
    assert "Sie sind als gast angemeldet" in html and "Turnierleitung" in html


def test_after_logging_in_the_director_is_back_on_the_console(client, director, short_skat):
    director.set_password("geheim-123")
    director.save()
    resp = client.post("/accounts/login/", {"username": director.username,
                                            "password": "geheim-123",
                                            "next": f"/console/t/{short_skat.pk}/"})
    assert resp.status_code == 302 and resp["Location"] == f"/console/t/{short_skat.pk}/"


def _form_posting_yes(html: str, action: str) -> bool:
    form = re.search(r'<form method="post" action="' + re.escape(action) + r'"(.*?)</form>',
                     html, re.S)
    return bool(form) and 'name="confirm" value="yes"' in form.group(1)


def test_withdrawing_asks_first_and_changes_nothing_until_confirmed(console, short_skat):
    p = short_skat.participants.order_by("start_number").first()
    url = f"/console/t/{short_skat.pk}/participant/{p.pk}/withdrawn/"
    ask = console.post(url)
    html = ask.content.decode()
    assert ask.status_code == 200
    assert f"{p.player.name} zurückziehen?" in html and _form_posting_yes(html, url)
    assert f'href="/console/t/{short_skat.pk}/"' in html  # cancel goes back
    assert not Participant.objects.get(pk=p.pk).withdrawn
    console.post(url, YES)
    assert Participant.objects.get(pk=p.pk).withdrawn
    console.post(url)  # re-admitting is the undo: no question
    assert not Participant.objects.get(pk=p.pk).withdrawn


def test_closing_and_reopening_a_round_ask_first(console, short_skat):
    rnd = round_draw(tournament_id=short_skat.pk, method="random", seed=2)
    Table.objects.filter(round=rnd).update(submitted=True)
    url = f"/console/t/{short_skat.pk}/rounds/1/close/"
    ask = console.post(url)
    assert "Runde 1 abschließen?" in ask.content.decode()
    assert _form_posting_yes(ask.content.decode(), url)
    assert not Round.objects.get(pk=rnd.pk).closed
    console.post(url, YES)
    assert Round.objects.get(pk=rnd.pk).closed
    url = f"/console/t/{short_skat.pk}/rounds/1/reopen/"
    assert "Runde 1 wieder öffnen?" in console.post(url).content.decode()
    assert not Round.objects.get(pk=rnd.pk).reopened
    console.post(url, YES)
    assert Round.objects.get(pk=rnd.pk).reopened


def test_ending_a_sheet_early_needs_the_yes_box(console, short_skat):
    rnd = round_draw(tournament_id=short_skat.pk, method="random", seed=2)
    table = rnd.tables.get(number=1)
    url = f"/console/t/{short_skat.pk}/tables/{table.pk}/end/"
    page = console.get(f"/console/t/{short_skat.pk}/").content.decode()
    assert 'name="confirm" value="yes" required' in page and "Ja, diese Liste jetzt beenden" in page
    resp = console.post(url, {"reason": "Spieler krank"})
    assert resp.status_code == 400
    assert "Ja, diese Liste jetzt beenden" in resp.content.decode()
    assert "Tisch 1" in resp.content.decode()
    assert 'value="Spieler krank"' in resp.content.decode()  # the reason is kept
    assert not Table.objects.get(pk=table.pk).submitted
    console.post(url, {"reason": "Spieler krank", **YES})
    assert Table.objects.get(pk=table.pk).shortened


@pytest.mark.parametrize("evening,title,done,reopened", [
    (True, "Den Abend beenden?", "Der Abend ist beendet.", "Der Abend ist wieder für Änderungen"),
    (False, "Das Turnier beenden?", "Das Turnier ist beendet.",
     "Das Turnier ist wieder für Änderungen"),
])
def test_finishing_asks_first_and_names_the_kind_of_event(console, short_skat, evening, title,
                                                          done, reopened):
    Tournament.objects.filter(pk=short_skat.pk).update(club_evening=evening)
    url = f"/console/t/{short_skat.pk}/finish/"
    ask = console.post(url)
    assert title in ask.content.decode() and _form_posting_yes(ask.content.decode(), url)
    assert Tournament.objects.get(pk=short_skat.pk).status != "finished"
    html = console.post(url, YES, follow=True).content.decode()
    assert Tournament.objects.get(pk=short_skat.pk).status == "finished"
    assert done in html
    wrong = "Das Turnier ist beendet." if evening else "Der Abend ist beendet."
    assert wrong not in html
    assert "wieder öffnen?" in console.post(url).content.decode()
    assert reopened in console.post(url, YES, follow=True).content.decode()


def test_english_confirmation(console, short_skat):
    resp = console.post(f"/console/t/{short_skat.pk}/finish/", HTTP_ACCEPT_LANGUAGE="en")
    html = resp.content.decode()
    assert "Finish the tournament?" in html and "Yes, finish the tournament" in html


def test_the_current_round_comes_first_and_older_rounds_are_folded(console, club, director):
    tournament = skat_tournament(club=club, director=director, tables=2, rounds=3)
    html = console.get(f"/console/t/{tournament.pk}/").content.decode()
    current = html.index('id="round-3"')
    assert current < html.index('id="older-rounds"') < html.index('id="round-2"') \
        < html.index('id="round-1"')
    assert re.search(r'<details class="older-round" id="round-2">', html)
    assert re.search(r'<details class="older-round" id="round-1">', html)
    assert '<details class="older-round" id="round-3"' not in html
    # the steps in groups, the next one first: round 3 is being played
    groups = re.findall(r'<h2 id="group-(\w+)-title">([^<]+)</h2>', html)
    assert [name for name, _title in groups] == ["now", "round", "print", "finish"]
    assert [title for _name, title in groups] == ["Jetzt", "Runde 3", "Drucken und Export",
                                                  "Veröffentlichen und Abschluss"]
    assert "Runde 3 wird gespielt." in html and "Runde 3 abschließen" in html
    assert f'action="/console/t/{tournament.pk}/draw/"' not in html  # not while it runs
    # an older round reopened for corrections is not hidden in the fold
    Round.objects.filter(tournament=tournament, number=1).update(closed=False, reopened=True)
    html = console.get(f"/console/t/{tournament.pk}/").content.decode()
    assert '<details class="older-round" id="round-1" open>' in html
    assert '<details class="older-round" id="round-2">' in html


def test_the_console_costs_the_same_at_1_and_5_rounds(console, club, director):
    one = skat_tournament(club=club, director=director, tables=2, rounds=1)
    five = skat_tournament(club=club, director=director, tables=2, rounds=5)
    counts = [queries_of(console, f"/console/t/{t.pk}/") for t in (one, five)]
    assert counts[0] == counts[1], counts
    evening = skat_tournament(club=club, director=director, tables=2, rounds=5)
    Tournament.objects.filter(pk=evening.pk).update(club_evening=True)
    assert queries_of(console, f"/console/t/{evening.pk}/") <= counts[0] + 2


def test_a_club_evening_shows_no_teams_or_prizes_it_does_not_have(console, short_skat):
    url = f"/console/t/{short_skat.pk}/"
    tournament = console.get(url).content.decode()
    assert "Mannschaften" in tournament and "Startgeld und Preise" in tournament
    Tournament.objects.filter(pk=short_skat.pk).update(club_evening=True)
    evening = console.get(url).content.decode()
    assert "Vereinsabend" in evening
    assert f"/console/t/{short_skat.pk}/teams/" not in evening
    assert f"/console/t/{short_skat.pk}/prizes/" not in evening
    assert "Kassenbericht" in evening  # the table money is the evening's cash
    assert "Abend beenden" in evening and "Turnier beenden" not in evening
    prizes_set(tournament_id=short_skat.pk, data={"entry_fee_cents": 0,
                                                  "places_goods": ["Wein"]})
    assert f"/console/t/{short_skat.pk}/prizes/" in console.get(url).content.decode()


def test_a_goods_prize_among_tied_players_is_explained(console, club, director):
    tournament = skat_tournament(club=club, director=director, tables=1, deals=2)
    for p in tournament.participants.select_related("player"):
        p.player.name = f"P{p.start_number - 1}"
        p.player.save()
    # every deal passed: all four tie for places 1–4
    prizes_set(tournament_id=tournament.pk, data={
        "entry_fee_cents": 1000, "places_percent": [60, 40],
        "places_goods": ["Präsentkorb", "Flasche Wein"]})
    html = console.get(f"/console/t/{tournament.pk}/prizes/").content.decode()
    note = html[html.index('class="tie-notes"'):]
    assert "Plätze 1–4" in note
    assert all(f"{n + 1}.&nbsp;P{n}" in note for n in range(4))
    assert "zu gleichen Teilen geteilt" in note
    assert "Sachpreis lässt sich nicht teilen" in note
    assert "„Präsentkorb“&nbsp;→ 1.&nbsp;P0" in note and "„Flasche Wein“&nbsp;→ 2.&nbsp;P1" in note
    assert '<sup class="footnote-mark">*</sup>' in html
    assert "Sachpreis unter Gleichplatzierten: nach Startnummer, noch kein Los." in html
    # the director records the order (a lot or the players' agreement): it then stands
    by_number = {p.start_number: p for p in tournament.participants.all()}
    resp = console.post(f"/console/t/{tournament.pk}/prizes/lot/", {"order": "3, 1, 2, 4"},
                        follow=True)
    html = resp.content.decode()
    assert "Entschieden durch das eingetragene Los" in html
    assert "Sachpreis lässt sich nicht teilen" not in html
    assert "noch kein Los" not in html and "footnote-mark" not in html
    assert by_number[3].player.name in html
    english = console.get(f"/console/t/{tournament.pk}/prizes/",
                          HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Decided by the recorded lot" in english


def test_tie_notes_say_how_each_tie_was_decided():
    from prizes.payout import check_prize_config, payouts
    from prizes.ties import tie_notes

    config = check_prize_config({"entry_fee_cents": 1000, "places_percent": [50, 30, 20],
                                 "places_goods": ["", "Wein", ""]})
    standings = [{"participant": 10, "rank": 1, "start_number": 4, "name": "Anna"},
                 {"participant": 11, "rank": 2, "start_number": 2, "name": "Bernd"},
                 {"participant": 12, "rank": 2, "start_number": 1, "name": "Cora"},
                 {"participant": 13, "rank": 4, "start_number": 3, "name": "Dora"}]
    shared = tie_notes(payouts(config, standings, fees_cents=4000))
    assert len(shared) == 1
    note = shared[0]
    assert (note["first"], note["last"], note["prize_places"]) == (2, 3, [2, 3])
    assert [row["name"] for row in note["players"]] == ["Cora", "Bernd"]  # start numbers
    assert note["decided"] == "shared"
    assert [(g["goods"], g["to"]["name"]) for g in note["goods"]] == [("Wein", "Cora")]
    by_lot = tie_notes(payouts(config, standings, fees_cents=4000, lot=[11, 12]))
    assert by_lot[0]["decided"] == "lot"
    assert [(g["goods"], g["to"]["name"]) for g in by_lot[0]["goods"]] == [("Wein", "Bernd")]
    assert tie_notes(payouts(config, standings[:1] + standings[3:], fees_cents=4000)) == []
