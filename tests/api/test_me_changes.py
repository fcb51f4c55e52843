"""``GET /api/v1/me/`` ``changes``: every change to the player's own score after it was
first shown — a correction (with its reason), an objection's decision, a penalty, a
deletion — with when, which deal, before and after, by whom and why (api.md, "Open
results"); another player's deal never; the same queries at any number of rounds and
deals."""

import pytest

from tests.api.test_me_api import ME, me
from tests.conftest import player_client, seated, table_client_for
from tests.factories import ParticipantFactory, PlayerFactory, TournamentFactory
from tests.scale import queries_of
from tests.tournaments.test_doppelkopf_tournament import normal, one_table, post
from tests.tournaments.test_player_phone_services import CLUBS_WON, fill
from tournaments.models import Deal, SheetEvent, Table
from tournaments.services import (
    Actor,
    deal_correct,
    deal_record,
    objection_raise,
    objection_resolve,
    round_close,
    round_draw,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _changes_commit(requests_commit):
    """The overview keeps its reads under the versions a change bumps when it commits:
    each change here counts as committed by the next request."""

CLUBS_LOST = {**CLUBS_WON, "won": False}


def etag(table_id: int, number: int) -> str:
    return Deal.objects.get(table_id=table_id, number=number).etag


def correct(client, table, number, record, **more):
    return client.put(f"/api/v1/tables/{table['id']}/deals/{number}/", {**record, **more},
                      format="json", HTTP_IF_MATCH=etag(table["id"], number),
                      HTTP_ACCEPT_LANGUAGE="en")


def deal_scores(table_id: int, number: int) -> list[int]:
    return Deal.objects.get(table_id=table_id, number=number).scores


def english(participant) -> dict:
    resp = player_client(participant).get(ME, HTTP_ACCEPT_LANGUAGE="en")
    assert resp.status_code == 200, resp.content
    return resp.json()


def test_a_correction_with_its_reason_is_listed_with_before_and_after(
        table, table_client, director_client, client, director):
    declarer = seated(table)[1]  # seat 2 declares every game of ``fill``
    fill(table_client, table, 2)
    assert me(declarer)["changes"] == []  # entered and shown: no change yet
    was = deal_scores(table["id"], 2)[1]
    resp = correct(director_client, table, 2, CLUBS_LOST, reason="Gegner hatten 61 Augen")
    assert resp.status_code == 200, resp.content
    now = deal_scores(table["id"], 2)[1]
    assert was > 0 > now
    (change,) = english(declarer)["changes"]
    assert change["deal"] == {"round": 1, "table": table["number"], "number": 2}
    assert (change["before"], change["after"]) == (was, now)
    assert change["kind"] == "correction"
    assert change["by"] == "Tournament director"
    assert change["why"] == "Gegner hatten 61 Augen"
    assert change["at"].startswith("20")
    # the reason stays in the table's history with the corrected deal
    event = SheetEvent.objects.filter(table_id=table["id"],
                                      action=SheetEvent.Action.DEAL_UPDATE).get()
    assert event.after["reason"] == "Gegner hatten 61 Augen"
    assert event.before["record"]["won"] is True
    history = director_client.get(f"/api/v1/tables/{table['id']}/history/").json()
    (entry,) = [e for e in history if e["action"] == "deal_update"]
    assert entry["after"]["reason"] == "Gegner hatten 61 Augen"
    client.force_login(director)  # and the staff's sheet says it in words
    page = client.get(f"/console/table/{table['id']}/", HTTP_ACCEPT_LANGUAGE="en")
    assert "; reason: Gegner hatten 61 Augen" in page.content.decode()


def test_a_correction_at_the_table_says_which_device_and_that_no_reason_was_given(
        table, table_client):
    declarer = seated(table)[1]
    fill(table_client, table, 1)
    assert correct(table_client, table, 1, CLUBS_LOST).status_code == 200
    (change,) = english(declarer)["changes"]
    assert change["by"] == f"tablet of table {table['number']}"
    assert change["why"] == "no reason given"
    german = me(declarer)["changes"][0]
    assert german["by"] == f"Tablet von Tisch {table['number']}"
    assert german["why"] == "ohne angegebene Begründung"


def test_a_correction_from_a_phone_names_whose_phone_to_the_players_it_changed(
        table, table_client):
    players = seated(table)
    declarer, other = players[1], players[0]
    fill(table_client, table, 2)
    assert correct(player_client(other), table, 1, CLUBS_LOST).status_code == 200
    assert correct(player_client(declarer), table, 2, CLUBS_LOST).status_code == 200
    own, by_other = english(declarer)["changes"]  # newest first
    assert (own["deal"]["number"], own["by"]) == (2, "own phone")
    assert (by_other["deal"]["number"], by_other["by"]) == (
        1, f"phone of {other.player.name}")


def test_an_objection_decision_that_changed_the_score_gives_the_decision(
        table, table_client, director, director_client):
    players = seated(table)
    fill(table_client, table, 3)
    objection = objection_raise(table_id=table["id"], deal=3, note="Das Spiel war verloren",
                                actor=Actor(by_table=True, participant=players[0]))
    assert english(players[1])["changes"] == []  # an objection alone changes nothing
    was = deal_scores(table["id"], 3)[1]
    assert correct(director_client, table, 3, CLUBS_LOST).status_code == 200
    open_now = english(players[1])["changes"][0]
    assert open_now["why"] == "Objection still open: Das Spiel war verloren"
    objection_resolve(objection_id=objection.pk, resolution="Verloren, korrigiert",
                      actor=Actor(user=director))
    (change,) = english(players[1])["changes"]
    assert change["deal"]["number"] == 3
    assert (change["before"], change["after"]) == (was, deal_scores(table["id"], 3)[1])
    assert change["why"] == "Objection decided: Verloren, korrigiert"
    assert change["by"] == "Tournament director"


def test_a_penalty_is_listed_for_the_player_it_is_on(director_client, club):
    table = one_table(director_client, club, 4)
    players = seated(table)
    assert post(director_client, table, 1, normal((1, 3), 140)).status_code == 201
    resp = correct(director_client, table, 1,
                   normal((1, 3), 140, penalties=[{"seat": 2, "kind": "minor"}]),
                   reason="Karte aufgedeckt")
    assert resp.status_code == 200, resp.content
    (change,) = english(players[1])["changes"]
    assert change["kind"] == "penalty"
    # games.md D13: the game gives seat 2 −1, the minor penalty −3 more
    assert deal_scores(table["id"], 1) == [2, -4, 2, 0]
    assert (change["before"], change["after"]) == (-1, -4)
    # the penalty point goes to the others: their scores changed too
    assert [(c["before"], c["after"]) for c in english(players[3])["changes"]] == [(-1, 0)]
    assert change["why"].startswith("Karte aufgedeckt; ")
    # a penalty entered as a deal of its own: before is no deal at all
    resp = post(director_client, table, 2,
                normal((2, 4), 140, penalties=[{"seat": 2, "kind": "minor"}]))
    assert resp.status_code == 201, resp.content
    newest = english(players[1])["changes"][0]
    assert newest["deal"]["number"] == 2 and newest["kind"] == "penalty"
    assert newest["before"] is None and newest["after"] == deal_scores(table["id"], 2)[1]


def test_a_deleted_deal_is_listed_with_no_score_after(table, table_client):
    declarer = seated(table)[1]
    fill(table_client, table, 2)
    was = deal_scores(table["id"], 2)[1]
    resp = table_client.delete(f"/api/v1/tables/{table['id']}/deals/2/")
    assert resp.status_code == 204
    (change,) = english(declarer)["changes"]
    assert (change["kind"], change["before"], change["after"]) == ("deletion", was, None)


def test_another_players_deal_is_not_listed(table, other_table, table_client,
                                            director_client):
    fill(table_client, table, 1)
    other = table_client_for(other_table["entry_token"])
    fill(other, other_table, 1)
    assert correct(director_client, other_table, 1, CLUBS_LOST).status_code == 200
    assert all(me(p)["changes"] == [] for p in seated(table))
    # at the player's own table: a correction that leaves their score in it alone
    assert correct(director_client, table, 1, {**CLUBS_WON, "matadors": 2}).status_code == 200
    scores = deal_scores(table["id"], 1)
    for seat, player in enumerate(seated(table), start=1):
        listed = me(player)["changes"]
        assert (listed != []) == (scores[seat - 1] != 0), (seat, scores)


def test_a_reason_over_its_bound_is_refused_and_nothing_is_stored(
        table, table_client, director_client):
    fill(table_client, table, 1)
    resp = correct(director_client, table, 1, CLUBS_LOST, reason="x" * 201)
    assert resp.status_code == 400 and "reason" in resp.content.decode()
    assert deal_scores(table["id"], 1)[1] > 0
    assert not SheetEvent.objects.filter(action=SheetEvent.Action.DEAL_UPDATE).exists()


def _corrected_tournament(*, club, director, rounds: int, deals: int):
    """A Skat tournament of two tables of four over ``rounds`` rounds, every deal
    entered and then corrected by the director; the last round open."""
    tournament = TournamentFactory(club=club)
    tournament.directors.add(director)
    for n in range(8):
        ParticipantFactory(tournament=tournament, player=PlayerFactory(club=club),
                           start_number=n + 1)
    staff = Actor(user=director)
    for number in range(1, rounds + 1):
        rnd = round_draw(tournament_id=tournament.pk, method="random", seed=number)
        for table in Table.objects.filter(round=rnd):
            for deal in range(1, deals + 1):
                declared = {**CLUBS_WON, "declarer": 1 + deal % 4}
                deal_record(table_id=table.pk, number=deal, record=declared, actor=staff)
                deal_correct(table_id=table.pk, number=deal, actor=staff,
                             record={**declared, "won": False}, if_match=etag(table.pk, deal),
                             reason=f"Runde {number}")
        if number < rounds:
            Table.objects.filter(round=rnd).update(submitted=True)
            round_close(round_id=rnd.pk)
    return tournament


def test_the_changes_cost_the_same_queries_at_any_number_of_rounds_and_deals(club, director):
    counts = []
    for rounds, deals in ((1, 4), (3, 8)):
        tournament = _corrected_tournament(club=club, director=director, rounds=rounds,
                                           deals=deals)
        player = tournament.participants.first()
        listed = me(player)["changes"]
        # every seat declares one deal of four, and each correction turns it into a loss
        assert len(listed) == rounds * deals // 4
        assert all(c["before"] > 0 > c["after"] for c in listed)
        counts.append(queries_of(player_client(player), ME))
    assert counts[0] == counts[1]
