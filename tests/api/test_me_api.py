"""``GET /api/v1/me/``: the player's own overview with their personal token — where they
sit now (round, table, seat, who deals first, the others), their score and rank, their
rounds, the sheets they still have to confirm; ETag and 304; nobody else's data, and
the same number of queries at 1 round as at 5 (api.md, "The player's own phone")."""

import datetime

import pytest
from rest_framework.test import APIClient

from tests.api.test_query_counts import skat_tournament
from tests.conftest import table_client_for
from tests.scale import queries_of
from tests.tournaments.test_player_phone_services import CLUBS_WON, fill, player_client, seated
from tournaments.models import Participant, Round, Table
from tournaments.recompute.standings_rows import standings_recompute
from tournaments.services import Actor, round_close, round_draw, sheet_confirm

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _changes_commit(requests_commit):
    """The overview keeps its reads under the versions a change bumps when it commits:
    each change here counts as committed by the next request."""

ME = "/api/v1/me/"


def me(participant: Participant) -> dict:
    resp = player_client(participant).get(ME)
    assert resp.status_code == 200, resp.content
    return resp.json()


def next_round(tournament, seed: int = 11) -> Round:
    """Every sheet of the open round submitted and the round closed, then a new draw."""
    rnd = tournament.rounds.order_by("number").last()
    Table.objects.filter(round=rnd).update(submitted=True)
    round_close(round_id=rnd.pk)
    return round_draw(tournament_id=tournament.pk, method="random", seed=seed)


def test_nobody_without_a_player_token_gets_the_page(drawn, director_client, table_client):
    assert APIClient().get(ME).status_code == 401
    stranger = APIClient()
    stranger.credentials(HTTP_AUTHORIZATION="Player " + "x" * 32)
    resp = stranger.get(ME)
    assert resp.status_code == 404 and resp["Content-Type"] == "application/json"
    assert director_client.get(ME).status_code == 403
    assert table_client.get(ME).status_code == 403


def test_an_expired_token_is_404(short_skat):
    participant = short_skat.participants.first()
    short_skat.date = datetime.date.today() - datetime.timedelta(days=91)
    short_skat.save()
    assert player_client(participant).get(ME).status_code == 404


def test_before_the_draw_the_player_sits_nowhere_yet(short_skat):
    participant = short_skat.participants.select_related("player").first()
    body = me(participant)
    assert body == {
        "participant": participant.pk, "name": participant.player.name,
        "tournament": {"id": short_skat.pk, "name": short_skat.name, "slug": short_skat.slug},
        "now": None, "score": None, "rank": None, "rounds": [], "confirmations_due": [],
        "changes": []}


def test_after_the_draw_the_player_sees_their_seat_and_the_others(table):
    players = seated(table)
    body = me(players[1])
    assert body["participant"] == players[1].pk
    assert body["now"] == {
        "round": 1, "table": table["number"], "seat": 2, "first_dealer": 1,
        "players": [{"seat": n + 1, "name": p.player.name} for n, p in enumerate(players)],
        "table_id": table["id"], "clock": None}
    assert body["rounds"] == [{"round": 1, "table": table["number"], "score": 0, "rank": None}]


def test_rank_and_score_follow_each_computation(short_skat, table, table_client):
    """The ranks a player's page reads are those of the latest computation, not of the
    first one read (each computation's ranks are kept apart)."""
    fill(table_client, table, 1)  # seat 2 wins a clubs game
    standings_recompute(tournament_id=short_skat.pk)
    winner = seated(table)[1]
    assert me(winner)["rank"] == 1 and me(winner)["score"] > 0
    assert table_client.delete(f"/api/v1/tables/{table['id']}/deals/1/").status_code == 204
    standings_recompute(tournament_id=short_skat.pk)
    assert me(winner)["score"] == 0
    assert {me(p)["rank"] for p in seated(table)} == {1}  # all level again


def test_each_token_answers_its_own_player_only(table, other_table):
    mine, theirs = seated(table)[0], seated(other_table)[0]
    assert me(mine)["now"]["table_id"] == table["id"]
    assert me(theirs)["now"]["table_id"] == other_table["id"]
    assert me(theirs)["participant"] == theirs.pk


def test_score_and_rank_come_from_the_stored_standings(short_skat, table, table_client):
    fill(table_client, table, 1)  # seat 2 wins a clubs game
    winner = seated(table)[1]
    assert me(winner)["score"] is None  # not computed yet
    standings_recompute(tournament_id=short_skat.pk)
    body = me(winner)
    assert body["rank"] == 1 and body["score"] > 0
    assert body["rounds"][0]["rank"] == 1 and body["rounds"][0]["score"] > 0
    loser = me(seated(table)[0])
    assert loser["rank"] > 1 and loser["rounds"][0]["rank"] == loser["rank"]


def test_a_complete_sheet_is_due_until_the_player_confirms_it(table, table_client):
    first, second, _third = seated(table)
    fill(table_client, table, 2)
    assert me(first)["confirmations_due"] == []  # not complete yet
    resp = table_client.post(f"/api/v1/tables/{table['id']}/deals/",
                             {"number": 3, **CLUBS_WON}, format="json")
    assert resp.status_code == 201
    assert me(first)["confirmations_due"] == [table["id"]]
    sheet_confirm(table_id=table["id"], actor=Actor(participant=first, by_table=True))
    assert me(first)["confirmations_due"] == []
    assert me(second)["confirmations_due"] == [table["id"]]


def test_the_etag_gives_304_until_something_the_player_sees_changes(short_skat, table,
                                                                    table_client):
    first, second, _third = seated(table)
    client = player_client(first)
    resp = client.get(ME)
    etag = resp["ETag"]
    assert resp["Cache-Control"] == "private, no-cache"
    again = client.get(ME, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again["ETag"] == etag
    assert client.get(ME, HTTP_IF_NONE_MATCH=f"W/{etag}").status_code == 304

    def changed() -> str:
        nonlocal etag
        answer = client.get(ME, HTTP_IF_NONE_MATCH=etag)
        assert answer.status_code == 200
        etag = answer["ETag"]
        return etag

    # a passed game changes no score the player sees, but the sheet changed
    resp = table_client.post(f"/api/v1/tables/{table['id']}/deals/",
                             {"number": 1, "passed": True}, format="json")
    assert resp.status_code == 201
    changed()
    standings_recompute(tournament_id=short_skat.pk)
    changed()
    # a computation that changes nothing the player sees (their score and ranks): 304
    standings_recompute(tournament_id=short_skat.pk, full=True)
    assert client.get(ME, HTTP_IF_NONE_MATCH=etag).status_code == 304
    for number in (2, 3):
        table_client.post(f"/api/v1/tables/{table['id']}/deals/",
                          {"number": number, **CLUBS_WON}, format="json")
    changed()
    # another player's confirmation: nothing in this player's body, but their sheet's
    sheet_confirm(table_id=table["id"], actor=Actor(participant=second, by_table=True))
    changed()
    next_round(short_skat)
    assert client.get(ME, HTTP_IF_NONE_MATCH=etag).json()["now"]["round"] == 2


def test_the_seat_moves_with_a_new_draw_and_the_rounds_list_grows(short_skat, table):
    player = seated(table)[0]
    next_round(short_skat)
    body = me(player)
    seat = Participant.objects.get(pk=player.pk).seats.get(table__round__number=2)
    assert body["now"]["round"] == 2
    assert (body["now"]["table_id"], body["now"]["seat"]) == (seat.table_id, seat.seat)
    assert [r["round"] for r in body["rounds"]] == [1, 2]


def test_nobody_sits_now_while_the_round_is_closed_or_after_a_withdrawal(short_skat, table):
    player = seated(table)[0]
    Participant.objects.filter(pk=player.pk).update(withdrawn=True)
    assert me(player)["now"] is None
    Participant.objects.filter(pk=player.pk).update(withdrawn=False)
    rnd = short_skat.rounds.get()
    Table.objects.filter(round=rnd).update(submitted=True)
    round_close(round_id=rnd.pk)
    body = me(player)
    assert body["now"] is None and [r["round"] for r in body["rounds"]] == [1]


def test_a_player_not_drawn_in_the_latest_round_sits_nowhere(short_skat, table):
    player = seated(table)[0]
    rnd = short_skat.rounds.get()
    Table.objects.filter(round=rnd).update(submitted=True)
    round_close(round_id=rnd.pk)
    Participant.objects.filter(pk=player.pk).update(withdrawn=True)
    round_draw(tournament_id=short_skat.pk, method="random", seed=3)
    Participant.objects.filter(pk=player.pk).update(withdrawn=False)
    assert me(player)["now"] is None


def test_the_overview_costs_the_same_at_1_and_5_rounds(club, director):
    counts = []
    for rounds in (1, 5):
        tournament = skat_tournament(club=club, director=director, tables=3, rounds=rounds)
        table = Table.objects.filter(round__tournament=tournament).order_by("round__number",
                                                                             "number").last()
        player = table.seats.first().participant
        client = player_client(player)
        assert len(client.get(ME).json()["rounds"]) == rounds
        counts.append(queries_of(client, ME))
    assert counts[0] == counts[1]


def test_the_table_answer_gives_a_player_no_entry_token(table):
    """A player's phone acts as the table's token does, but is never given it."""
    body = player_client(seated(table)[0]).get(f"/api/v1/tables/{table['id']}/").json()
    assert "entry_token" not in body and "entry_url" not in body
    assert table_client_for(table["entry_token"]).get(ME).status_code == 403
