"""The director stays in control (api.md): reopening a closed round to correct it,
withdrawing players and late entries, ending a sheet early, finishing a tournament."""

import pytest

from tests.conftest import table_client_for
from tests.factories import ParticipantFactory, PlayerFactory
from tournaments.models import Round, SheetEvent, Table, Tournament
from tournaments.recompute.standings_rows import standings_recompute

pytestmark = pytest.mark.django_db

CLUBS_WON = {"declarer": 2, "game": "clubs", "matadors": 1, "won": True}   # +24
GRAND_LOST = {"declarer": 3, "game": "grand", "matadors": 2, "won": False}  # -144


def fill_and_submit(client, table, *, first=None):
    length = len(table["seats"])  # short_skat: 3 deals at a 3-table, 4 at a 4-table
    for number in range(1, length + 1):
        body = {"number": number, "passed": True}
        if number == 1 and first:
            body = {"number": 1, **first}
        resp = client.post(f"/api/v1/tables/{table['id']}/deals/", body, format="json")
        assert resp.status_code == 201, resp.content
    resp = client.post(f"/api/v1/tables/{table['id']}/submit/", format="json")
    assert resp.status_code == 200, resp.content


def play_round(client, tournament, drawn, *, first=None):
    for table in drawn["tables"]:
        fill_and_submit(client, table, first=first if len(table["seats"]) == 3 else None)
    resp = client.post(f"/api/v1/tournaments/{tournament.pk}/rounds/{drawn['number']}/close/")
    assert resp.status_code == 200, resp.content


def standings(client, tournament):
    standings_recompute(tournament_id=tournament.pk)
    body = client.get(f"/api/v1/tournaments/{tournament.pk}/standings/").json()
    return {row["participant"]: row for row in body["results"]}


# ------------------------------------------------------------------ reopen and correct


def test_a_closed_round_is_reopened_corrected_and_closed_again(director_client, short_skat,
                                                               drawn, table, requests_commit):
    play_round(director_client, short_skat, drawn, first=CLUBS_WON)
    declarer = table["seats"][1]["participant"]
    assert standings(director_client, short_skat)[declarer]["score"] == 24 + 50
    base = f"/api/v1/tournaments/{short_skat.pk}/rounds/1/"
    deal_url = f"/api/v1/tables/{table['id']}/deals/1/"
    closed = director_client.put(deal_url, {"number": 1, **GRAND_LOST}, format="json",
                                 HTTP_IF_MATCH="*")
    assert closed.status_code == 409

    resp = director_client.post(f"{base}reopen/")
    assert resp.status_code == 200, resp.content
    body = resp.json()
    assert body["number"] == 1 and body["closed"] is False and body["reopened"] is True
    assert {t["id"] for t in body["tables"]} == {t["id"] for t in drawn["tables"]}
    for t in drawn["tables"]:  # recorded in every table's history
        history = director_client.get(f"/api/v1/tables/{t['id']}/history/").json()
        assert history[-1]["action"] == "round_reopen" and history[-1]["by"] == "director"

    etag = director_client.get(deal_url)["ETag"]
    fixed = director_client.put(deal_url, {"number": 1, **GRAND_LOST}, format="json",
                                HTTP_IF_MATCH=etag)
    assert fixed.status_code == 200, fixed.content
    history = director_client.get(f"/api/v1/tables/{table['id']}/history/").json()
    update = next(e for e in history if e["action"] == "deal_update")
    assert update["before"]["record"]["game"] == "clubs"  # the previous value is kept
    assert update["after"]["record"]["game"] == "grand"

    assert director_client.post(f"{base}close/").status_code == 200
    rows = standings(director_client, short_skat)
    assert rows[declarer]["score"] == 40  # clubs won is gone; 40 as opponent of a lost game
    loser = table["seats"][2]["participant"]
    assert rows[loser]["score"] == -144 - 50
    history = director_client.get(f"/api/v1/tables/{table['id']}/history/").json()
    assert history[-1]["action"] == "round_close"


def test_table_tokens_stay_locked_in_a_reopened_round(director_client, short_skat, drawn,
                                                      table, other_table):
    play_round(director_client, short_skat, drawn)
    director_client.post(f"/api/v1/tournaments/{short_skat.pk}/rounds/1/reopen/")
    own = table_client_for(table["entry_token"])
    assert own.get(f"/api/v1/tables/{table['id']}/").status_code == 401
    resp = own.put(f"/api/v1/tables/{table['id']}/deals/1/", {"number": 1, **CLUBS_WON},
                   format="json", HTTP_IF_MATCH="*")
    assert resp.status_code == 401
    assert own.post(f"/api/v1/tables/{table['id']}/submit/").status_code == 401


def test_reopen_errors(director_client, short_skat, drawn):
    base = f"/api/v1/tournaments/{short_skat.pk}/rounds/"
    resp = director_client.post(f"{base}1/reopen/")
    assert resp.status_code == 409 and "nicht abgeschlossen" in resp.json()["detail"]
    assert director_client.post(f"{base}9/reopen/").status_code == 404
    assert director_client.post("/api/v1/tournaments/999999/rounds/1/reopen/").status_code == 404
    play_round(director_client, short_skat, drawn)
    assert director_client.post(f"{base}1/reopen/").status_code == 200
    assert director_client.post(f"{base}1/reopen/").status_code == 409


def test_an_earlier_round_reopens_while_a_later_one_exists_but_blocks_the_next_draw(
        director_client, short_skat, drawn):
    play_round(director_client, short_skat, drawn)
    base = f"/api/v1/tournaments/{short_skat.pk}/rounds/"
    second = director_client.post(base, {"method": "random", "seed": 3}, format="json").json()
    seating = [[s["participant"] for s in t["seats"]] for t in second["tables"]]
    play_round(director_client, short_skat, second)
    assert director_client.post(f"{base}1/reopen/").status_code == 200
    resp = director_client.post(base, {"method": "random"}, format="json")
    assert resp.status_code == 409 and "Runde 1" in resp.json()["detail"]
    later = director_client.get(f"{base}2/").json()  # the later round keeps its seating
    assert [[s["participant"] for s in t["seats"]] for t in later["tables"]] == seating
    assert director_client.post(f"{base}1/close/").status_code == 200
    assert director_client.post(base, {"method": "random"}, format="json").status_code == 201


# ------------------------------------------------------------------ roster changes


def participant_url(tournament, pid):
    return f"/api/v1/tournaments/{tournament.pk}/participants/{pid}/"


def test_patch_participant_withdraws_and_readmits(director_client, short_skat):
    p = short_skat.participants.first()
    resp = director_client.patch(participant_url(short_skat, p.pk), {"withdrawn": True},
                                 format="json")
    assert resp.status_code == 200, resp.content
    assert resp.json()["withdrawn"] is True and resp.json()["checked_in"] is True
    resp = director_client.patch(participant_url(short_skat, p.pk),
                                 {"withdrawn": False, "checked_in": False}, format="json")
    assert resp.json()["withdrawn"] is False and resp.json()["checked_in"] is False


@pytest.mark.parametrize("body,field", [
    ({"withdrawn": "vielleicht"}, "withdrawn"),
    ({"checked_in": None}, "checked_in"),
    ({"checked_in": [True]}, "checked_in"),
    ({"start_number": 9}, "start_number"),
    ({}, "withdrawn"),
])
def test_patch_participant_names_the_bad_field(director_client, short_skat, body, field):
    p = short_skat.participants.first()
    resp = director_client.patch(participant_url(short_skat, p.pk), body, format="json",
                                 HTTP_ACCEPT_LANGUAGE="de")
    assert resp.status_code == 400, resp.content
    assert field in resp.json()
    p.refresh_from_db()
    assert p.withdrawn is False and p.checked_in is True and p.start_number == 1


def test_patch_participant_of_another_tournament_is_404(director_client, short_skat, club):
    stranger = ParticipantFactory(player=PlayerFactory(club=club))
    resp = director_client.patch(participant_url(short_skat, stranger.pk), {"withdrawn": True},
                                 format="json")
    assert resp.status_code == 404
    assert director_client.patch(participant_url(short_skat, 999999), {"withdrawn": True},
                                 format="json").status_code == 404


def test_withdrawn_mid_round_then_sheet_ended_early_and_round_closed(
        director_client, short_skat, drawn, table, other_table, requests_commit):
    leaver = table["seats"][0]["participant"]
    resp = director_client.patch(participant_url(short_skat, leaver), {"withdrawn": True},
                                 format="json")
    assert resp.status_code == 200
    assert director_client.post(f"/api/v1/tables/{table['id']}/deals/",
                                {"number": 1, **CLUBS_WON}, format="json").status_code == 201
    fill_and_submit(director_client, other_table)
    close = f"/api/v1/tournaments/{short_skat.pk}/rounds/1/close/"
    assert director_client.post(close).status_code == 409  # the short table blocks it

    end = director_client.post(f"/api/v1/tables/{table['id']}/end/",
                               {"reason": "Spieler musste gehen"}, format="json")
    assert end.status_code == 200, end.content
    body = end.json()
    assert body["shortened"] is True and body["submitted"] is True
    assert body["end_reason"] == "Spieler musste gehen" and len(body["deals"]) == 1
    history = director_client.get(f"/api/v1/tables/{table['id']}/history/").json()
    assert history[-1]["action"] == "end"
    assert history[-1]["after"]["reason"] == "Spieler musste gehen"
    assert history[-1]["after"]["deals"] == 1 and history[-1]["by"] == "director"
    rounds = director_client.get(f"/api/v1/tournaments/{short_skat.pk}/rounds/1/").json()
    assert {t["id"]: t["shortened"] for t in rounds["tables"]} == {
        table["id"]: True, other_table["id"]: False}
    assert director_client.post(close).status_code == 200

    rows = standings(director_client, short_skat)
    declarer = table["seats"][1]["participant"]
    assert rows[declarer]["score"] == 24 + 50  # the one deal played counts, nothing added
    assert rows[leaver]["withdrawn"] is True and rows[leaver]["rounds_played"] == 1
    assert rows[declarer]["withdrawn"] is False and rows[declarer]["rounds_played"] == 1

    second = director_client.post(f"/api/v1/tournaments/{short_skat.pk}/rounds/",
                                  {"method": "random", "seed": 1}, format="json")
    assert second.status_code == 201  # six players left: two 3-tables, the leaver out
    seated = [s["participant"] for t in second.json()["tables"] for s in t["seats"]]
    assert leaver not in seated and len(seated) == 6
    play_round(director_client, short_skat, second.json())
    rows = standings(director_client, short_skat)
    assert rows[leaver]["rounds_played"] == 1 and rows[declarer]["rounds_played"] == 2


def test_withdrawing_flags_the_cached_standings_at_once(director_client, anon_client,
                                                        short_skat, drawn, table,
                                                        requests_commit):
    # requests_commit: the withdrawal's invalidation runs after its commit, as in production
    play_round(director_client, short_skat, drawn)
    pid = table["seats"][0]["participant"]
    assert standings(anon_client, short_skat)[pid]["withdrawn"] is False
    director_client.patch(participant_url(short_skat, pid), {"withdrawn": True}, format="json")
    url = f"/api/v1/tournaments/{short_skat.pk}/standings/"
    assert anon_client.get(url).json()["stale"] is True  # a recompute is due
    assert standings(anon_client, short_skat)[pid]["withdrawn"] is True


def test_a_late_entry_is_drawn_from_the_next_round(director_client, short_skat, drawn, club):
    late = PlayerFactory(club=club)
    resp = director_client.post(f"/api/v1/tournaments/{short_skat.pk}/participants/",
                                {"player": late.pk}, format="json")
    assert resp.status_code == 201
    late_id = resp.json()["id"]
    first = director_client.get(f"/api/v1/tournaments/{short_skat.pk}/rounds/1/").json()
    assert late_id not in [s["participant"] for t in first["tables"] for s in t["seats"]]
    play_round(director_client, short_skat, drawn)
    second = director_client.post(f"/api/v1/tournaments/{short_skat.pk}/rounds/",
                                  {"method": "balanced", "seed": 2}, format="json").json()
    assert late_id in [s["participant"] for t in second["tables"] for s in t["seats"]]
    play_round(director_client, short_skat, second)
    rows = standings(director_client, short_skat)
    assert rows[late_id]["rounds_played"] == 1
    assert all(row["rounds_played"] == 2 for pid, row in rows.items() if pid != late_id)


# ------------------------------------------------------------------ ending a sheet early


@pytest.mark.parametrize("body", [{}, {"reason": ""}, {"reason": "   "}, {"reason": None},
                                  {"reason": 5}, {"reason": "x" * 201}, [1, 2]])
def test_end_needs_a_reason(director_client, drawn, table, body):
    resp = director_client.post(f"/api/v1/tables/{table['id']}/end/", body, format="json",
                                HTTP_ACCEPT_LANGUAGE="en")
    assert resp.status_code == 400, resp.content
    assert "reason" in resp.json() or "non_field_errors" in resp.json()
    assert not Table.objects.get(pk=table["id"]).submitted


def test_end_names_reason_in_german(director_client, drawn, table):
    resp = director_client.post(f"/api/v1/tables/{table['id']}/end/", {"reason": " "},
                                format="json", HTTP_ACCEPT_LANGUAGE="de")
    assert resp.status_code == 400 and "reason" in resp.json()
    assert "leer" in str(resp.json()["reason"]) or "Grund" in str(resp.json()["reason"])


def test_end_conflicts(director_client, short_skat, drawn, table, other_table):
    url = f"/api/v1/tables/{table['id']}/end/"
    fill_and_submit(director_client, table)
    resp = director_client.post(url, {"reason": "Zeit"}, format="json")
    assert resp.status_code == 409  # submitted already
    for number in range(1, 5):
        director_client.post(f"/api/v1/tables/{other_table['id']}/deals/",
                             {"number": number, "passed": True}, format="json")
    resp = director_client.post(f"/api/v1/tables/{other_table['id']}/end/", {"reason": "Zeit"},
                                format="json")
    assert resp.status_code == 409  # complete: submit it instead
    director_client.post(f"/api/v1/tables/{other_table['id']}/submit/")
    director_client.post(f"/api/v1/tournaments/{short_skat.pk}/rounds/1/close/")
    assert director_client.post(url, {"reason": "Zeit"}, format="json").status_code == 409
    assert director_client.post("/api/v1/tables/999999/end/", {"reason": "Zeit"},
                                format="json").status_code == 404


def test_a_shortened_sheet_is_locked_for_its_token(director_client, drawn, table):
    director_client.post(f"/api/v1/tables/{table['id']}/end/", {"reason": "Zeit"},
                         format="json")
    own = table_client_for(table["entry_token"])
    resp = own.post(f"/api/v1/tables/{table['id']}/deals/", {"number": 1, "passed": True},
                    format="json")
    assert resp.status_code == 409
    assert own.get(f"/api/v1/tables/{table['id']}/").json()["shortened"] is True
    assert SheetEvent.objects.filter(table_id=table["id"], action="end").count() == 1


# ------------------------------------------------------------------ finishing


def test_finish_and_reopen_a_tournament(director_client, anon_client, short_skat, drawn, club):
    base = f"/api/v1/tournaments/{short_skat.pk}/"
    resp = director_client.post(f"{base}finish/")
    assert resp.status_code == 409 and "1" in resp.json()["detail"]
    play_round(director_client, short_skat, drawn)
    resp = director_client.post(f"{base}finish/")
    assert resp.status_code == 200, resp.content
    assert resp.json()["status"] == "finished"
    assert anon_client.get(base).json()["status"] == "finished"
    assert director_client.post(f"{base}finish/").status_code == 409

    # closed for changes: no round, no entry, no reopened round, no roster change
    assert director_client.post(f"{base}rounds/", {"method": "random"},
                                format="json").status_code == 409
    assert director_client.post(f"{base}participants/", {"player": PlayerFactory(club=club).pk},
                                format="json").status_code == 409
    pid = short_skat.participants.first().pk
    assert director_client.patch(f"{base}participants/{pid}/", {"withdrawn": True},
                                 format="json").status_code == 409
    assert director_client.post(f"{base}rounds/1/reopen/").status_code == 409
    assert short_skat.participants.count() == 7 and Round.objects.count() == 1

    resp = director_client.post(f"{base}reopen/")
    assert resp.status_code == 200 and resp.json()["status"] == "running"
    assert director_client.post(f"{base}reopen/").status_code == 409
    assert director_client.post(f"{base}rounds/", {"method": "random"},
                                format="json").status_code == 201


def test_a_tournament_without_rounds_reopens_as_draft(director_client, short_skat):
    base = f"/api/v1/tournaments/{short_skat.pk}/"
    assert director_client.post(f"{base}finish/").json()["status"] == "finished"
    assert director_client.post(f"{base}reopen/").json()["status"] == "draft"
    assert Tournament.objects.get(pk=short_skat.pk).status == "draft"


def test_unpublished_tournaments_lifecycle_is_404_for_outsiders(outsider_client, short_skat):
    short_skat.published = False
    short_skat.save()
    assert outsider_client.post(f"/api/v1/tournaments/{short_skat.pk}/finish/").status_code == 404


def test_the_schema_describes_the_new_endpoints(anon_client):
    paths = anon_client.get("/api/schema/", HTTP_ACCEPT="application/json").json()["paths"]
    for path in ("/api/v1/tournaments/{id}/finish/", "/api/v1/tournaments/{id}/reopen/",
                 "/api/v1/tournaments/{tournament_id}/rounds/{number}/reopen/",
                 "/api/v1/tables/{table_id}/end/",
                 "/api/v1/tournaments/{id}/participants/{participant_id}/"):
        assert "post" in paths[path] or "patch" in paths[path], path
    end = paths["/api/v1/tables/{table_id}/end/"]["post"]
    assert "requestBody" in end
