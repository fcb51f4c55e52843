"""What the players say about their table, through the API (api.md, "The player's own
phone"): confirmations (the last one submits), objections (the sheet stays open until the
director resolves them), calls for the director (the caller sees them seen) — who may
call each endpoint, bad input naming the field and storing nothing, and the per-token
rate limit of objections and calls."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.conftest import player_client, seated, table_client_for
from tests.factories import ParticipantFactory
from tournaments.models import DirectorCall, Objection, SheetEvent, Table

pytestmark = pytest.mark.django_db

CLUBS_WON = {"declarer": 2, "game": "clubs", "matadors": 1, "won": True}
ACTORS = ["anonymous", "outsider", "director", "own_table", "other_table", "own_player",
          "other_player", "foreign_player"]


def fill(client, table: dict, count: int = 3) -> None:
    """``count`` deals (at a 4-table, where the dealer sits out, passed ones)."""
    record = CLUBS_WON if len(table["seats"]) == 3 else {"passed": True}
    for number in range(1, count + 1):
        resp = client.post(f"/api/v1/tables/{table['id']}/deals/",
                           {"number": number, **record}, format="json")
        assert resp.status_code == 201, resp.content


@pytest.fixture
def complete(table, table_client):
    """The 3-table with its three deals entered: ready to be confirmed."""
    fill(table_client, table)
    return table


# (method, path, body, expected per actor in ACTORS order); {call} is a call the first
# seated player raised, {objection} one the tablet raised
MATRIX = [
    ("post", "/api/v1/tables/{table}/confirm/", {"seat": 1},
     [401, 403, 200, 200, 404, 200, 404, 404]),
    ("post", "/api/v1/tables/{table}/objections/", {"note": "Spiel 2 stimmt nicht"},
     [401, 403, 403, 201, 404, 201, 404, 404]),
    ("post", "/api/v1/tables/{table}/calls/", {"reason": "Kartenfehler"},
     [401, 403, 403, 201, 404, 200, 404, 404]),
    ("get", "/api/v1/tables/{table}/calls/{call}/", None,
     [401, 403, 404, 404, 404, 200, 404, 404]),
    ("get", "/api/v1/tournaments/{t}/objections/", None,
     [401, 403, 200, 403, 403, 403, 403, 403]),
    ("patch", "/api/v1/tournaments/{t}/objections/{objection}/", {"resolution": "Geprüft"},
     [401, 403, 200, 403, 403, 403, 403, 403]),
    ("get", "/api/v1/tournaments/{t}/calls/", None,
     [401, 403, 200, 403, 403, 403, 403, 403]),
    ("patch", "/api/v1/tournaments/{t}/calls/{call}/", {"status": "seen"},
     [401, 403, 200, 403, 403, 403, 403, 403]),
]
CASES = [pytest.param(method, path, body, actor, expected[i], id=f"{method} {path} as {actor}")
         for method, path, body, expected in MATRIX for i, actor in enumerate(ACTORS)]


@pytest.mark.parametrize("method,path,body,actor,expected", CASES)
def test_who_may_confirm_object_and_call(method, path, body, actor, expected, short_skat,
                                         complete, other_table, table_client, actor_clients):
    players = seated(complete)
    call = player_client(players[0]).post(f"/api/v1/tables/{complete['id']}/calls/", {},
                                          format="json").json()
    objection = table_client.post(f"/api/v1/tables/{complete['id']}/objections/",
                                  {"note": "Bitte prüfen"}, format="json").json()
    foreign = ParticipantFactory()
    clients = {
        **actor_clients,
        "own_player": player_client(players[0]),
        "other_player": player_client(seated(other_table)[0]),
        "foreign_player": player_client(foreign),
    }
    url = path.format(t=short_skat.pk, table=complete["id"], call=call["id"],
                      objection=objection["id"])
    resp = getattr(clients[actor], method)(url, body, format="json")
    assert resp.status_code == expected, resp.content
    assert resp["Content-Type"].startswith("application/json")


def test_four_phones_confirm_and_the_last_submits(other_table):
    """The 4-table, entered and confirmed from the players' own phones: no tablet."""
    players = seated(other_table)
    fill(player_client(players[0]), other_table, 4)
    url = f"/api/v1/tables/{other_table['id']}/confirm/"
    answers = [player_client(p).post(url, {}, format="json").json() for p in players]
    assert [a["confirmed"] for a in answers] == [[1], [1, 2], [1, 2, 3], [1, 2, 3, 4]]
    assert [a["submitted"] for a in answers] == [False, False, False, True]
    again = player_client(players[0]).post(url, {}, format="json")
    assert again.status_code == 200 and again.json() == {"confirmed": [1, 2, 3, 4],
                                                         "submitted": True}
    events = SheetEvent.objects.filter(table_id=other_table["id"],
                                       action=SheetEvent.Action.CONFIRM)
    assert sorted(e.participant_id for e in events) == sorted(p.pk for p in players)


def test_a_player_confirms_only_their_own_seat(complete):
    first = seated(complete)[0]
    resp = player_client(first).post(f"/api/v1/tables/{complete['id']}/confirm/", {"seat": 2},
                                     format="json")
    assert resp.status_code == 400 and resp.json()["errors"][0]["field"] == "seat"
    assert not Table.objects.get(pk=complete["id"]).confirmations.exists()


@pytest.mark.parametrize("body, field", [
    ({}, "seat"), ({"seat": 9}, "seat"), ({"seat": "1"}, "seat"), ({"seat": 1, "x": 1}, "x"),
])
def test_the_tablet_names_a_seat_of_the_table(complete, table_client, body, field):
    resp = table_client.post(f"/api/v1/tables/{complete['id']}/confirm/", body, format="json")
    assert resp.status_code == 400
    assert field in [e["field"] for e in resp.json()["errors"]]
    assert not Table.objects.get(pk=complete["id"]).confirmations.exists()


def test_the_table_shows_who_confirmed_and_the_open_objections(complete, table_client,
                                                              director_client):
    first = seated(complete)[0]
    url = f"/api/v1/tables/{complete['id']}/"
    player_client(first).post(f"{url}confirm/", {}, format="json")
    raised = player_client(first).post(f"{url}objections/", {"deal": 2, "note": "Zu hoch"},
                                       format="json")
    assert raised.status_code == 201
    body = raised.json()
    assert body["status"] == "open" and body["deal"] == 2 and body["by"] == first.player.name
    state = table_client.get(url).json()
    assert state["confirmed"] == [1]
    assert [(o["deal"], o["note"], o["status"]) for o in state["objections"]] == [
        (2, "Zu hoch", "open")]
    director_client.patch(f"/api/v1/tournaments/{state['tournament']}/objections/"
                          f"{body['id']}/", {"resolution": "Richtig so"}, format="json")
    assert table_client.get(url).json()["objections"] == []


def test_submit_is_409_while_an_objection_is_open(complete, table_client, director_client):
    url = f"/api/v1/tables/{complete['id']}/"
    table_client.post(f"{url}objections/", {"note": "Falsch"}, format="json")
    resp = director_client.post(f"{url}submit/", {"unconfirmed_reason": "Spieler weg"},
                                format="json")
    assert resp.status_code == 409 and resp.json()["code"] == "conflict"
    assert not Table.objects.get(pk=complete["id"]).submitted


def test_resolving_the_objection_submits_a_sheet_every_player_confirmed(
        short_skat, complete, table_client, director_client):
    url = f"/api/v1/tables/{complete['id']}/"
    raised = table_client.post(f"{url}objections/", {"note": "Falsch"}, format="json").json()
    for seat in (1, 2, 3):
        answer = table_client.post(f"{url}confirm/", {"seat": seat}, format="json").json()
    assert answer == {"confirmed": [1, 2, 3], "submitted": False}
    listed = director_client.get(f"/api/v1/tournaments/{short_skat.pk}/objections/?status=open")
    assert [o["id"] for o in listed.json()] == [raised["id"]]
    assert listed.json()[0]["table_number"] == complete["number"]
    resp = director_client.patch(f"/api/v1/tournaments/{short_skat.pk}/objections/"
                                 f"{raised['id']}/", {"resolution": "Geprüft"}, format="json")
    assert resp.status_code == 200 and resp.json()["status"] == "resolved"
    assert resp.json()["resolution"] == "Geprüft"
    assert Table.objects.get(pk=complete["id"]).submitted
    assert director_client.get(f"/api/v1/tournaments/{short_skat.pk}/objections/"
                               "?status=open").json() == []


@pytest.mark.parametrize("body, field", [
    ({}, "note"), ({"note": "   "}, "note"), ({"note": "x" * 501}, "note"),
    ({"note": 5}, "note"), ({"note": "a\x00b"}, "note"), ({"note": "ok", "deal": 9}, "deal"),
    ({"note": "ok", "deal": "zwei"}, "deal"), ({"note": "ok", "extra": 1}, "extra"),
])
def test_bad_objections_name_the_field_and_store_nothing(complete, table_client, body, field):
    resp = table_client.post(f"/api/v1/tables/{complete['id']}/objections/", body,
                             format="json")
    assert resp.status_code == 400, resp.content
    assert field in [e["field"] for e in resp.json()["errors"]]
    assert not Objection.objects.exists()


@pytest.mark.parametrize("body, field", [
    ({"resolution": ""}, "resolution"), ({"resolution": "x" * 501}, "resolution"),
    ({}, "resolution"), ({"resolution": ["a"]}, "resolution"),
])
def test_a_bad_resolution_names_the_field(short_skat, complete, table_client, director_client,
                                         body, field):
    raised = table_client.post(f"/api/v1/tables/{complete['id']}/objections/", {"note": "?"},
                               format="json").json()
    resp = director_client.patch(f"/api/v1/tournaments/{short_skat.pk}/objections/"
                                 f"{raised['id']}/", body, format="json")
    assert resp.status_code == 400 and resp.json()["errors"][0]["field"] == field
    assert Objection.objects.get().status == "open"


def test_the_objection_list_refuses_an_unknown_status(short_skat, director_client):
    resp = director_client.get(f"/api/v1/tournaments/{short_skat.pk}/objections/?status=x")
    assert resp.status_code == 400 and resp.json()["errors"][0]["field"] == "status"


def test_an_objection_of_another_tournament_is_404(short_skat, complete, table_client,
                                                   director_client, director):
    raised = table_client.post(f"/api/v1/tables/{complete['id']}/objections/", {"note": "?"},
                               format="json").json()
    other = ParticipantFactory().tournament
    other.directors.add(director)
    resp = director_client.patch(f"/api/v1/tournaments/{other.pk}/objections/{raised['id']}/",
                                 {"resolution": "x"}, format="json")
    assert resp.status_code == 404
    resp = director_client.patch(f"/api/v1/tournaments/{other.pk}/calls/999999/",
                                 {"status": "seen"}, format="json")
    assert resp.status_code == 404


def test_a_call_is_seen_by_its_caller(short_skat, table, director_client):
    player = seated(table)[1]
    phone = player_client(player)
    url = f"/api/v1/tables/{table['id']}/calls/"
    first = phone.post(url, {"reason": "  Karten  fehlen "}, format="json")
    assert first.status_code == 201
    call = first.json()
    assert call["status"] == "open" and call["reason"] == "Karten fehlen"
    assert call["by"] == player.player.name and call["table_number"] == table["number"]
    again = phone.post(url, {}, format="json")
    assert again.status_code == 200 and again.json()["id"] == call["id"]
    tablet = table_client_for(table["entry_token"]).post(url, {}, format="json").json()
    listed = director_client.get(f"/api/v1/tournaments/{short_skat.pk}/calls/").json()
    assert [(c["id"], c["by"]) for c in listed] == [(call["id"], player.player.name),
                                                   (tablet["id"], None)]
    seen = director_client.patch(f"/api/v1/tournaments/{short_skat.pk}/calls/{call['id']}/",
                                 {"status": "seen"}, format="json")
    assert seen.status_code == 200 and seen.json()["status"] == "seen"
    assert phone.get(f"{url}{call['id']}/").json()["status"] == "seen"
    # the tablet's token does not read the player's call, nor the player the tablet's
    assert table_client_for(table["entry_token"]).get(f"{url}{call['id']}/").status_code == 404
    assert phone.get(f"{url}{tablet['id']}/").status_code == 404
    director_client.patch(f"/api/v1/tournaments/{short_skat.pk}/calls/{call['id']}/",
                          {"status": "closed"}, format="json")
    listed = director_client.get(f"/api/v1/tournaments/{short_skat.pk}/calls/").json()
    assert [c["id"] for c in listed] == [tablet["id"]]


@pytest.mark.parametrize("body, field", [
    ({"reason": "x" * 201}, "reason"), ({"reason": 3}, "reason"), ({"why": "x"}, "why"),
])
def test_bad_calls_name_the_field_and_store_nothing(table, table_client, body, field):
    resp = table_client.post(f"/api/v1/tables/{table['id']}/calls/", body, format="json")
    assert resp.status_code == 400 and field in [e["field"] for e in resp.json()["errors"]]
    assert not DirectorCall.objects.exists()


@pytest.mark.parametrize("status", ["open", "", None, 1])
def test_a_call_goes_only_to_seen_or_closed(short_skat, table, table_client, director_client,
                                            status):
    call = table_client.post(f"/api/v1/tables/{table['id']}/calls/", {}, format="json").json()
    resp = director_client.patch(f"/api/v1/tournaments/{short_skat.pk}/calls/{call['id']}/",
                                 {"status": status}, format="json")
    assert resp.status_code == 400 and resp.json()["errors"][0]["field"] == "status"
    assert DirectorCall.objects.get().status == "open"


def test_objections_and_calls_are_limited_per_token(settings, complete, table_client):
    settings.VOICE_RATE = "3/hour"
    player = seated(complete)[0]
    phone = player_client(player)
    base = f"/api/v1/tables/{complete['id']}/"
    codes = [phone.post(f"{base}objections/", {"note": f"Nr. {n}"}, format="json").status_code
             for n in range(2)]
    codes.append(phone.post(f"{base}calls/", {}, format="json").status_code)
    limited = phone.post(f"{base}calls/", {}, format="json")
    assert codes == [201, 201, 201] and limited.status_code == 429
    assert int(limited["Retry-After"]) > 0 and limited.json()["detail"]
    assert Objection.objects.count() == 2
    # reading the call's status is not limited; another token has its own count
    call = DirectorCall.objects.get()
    assert phone.get(f"{base}calls/{call.pk}/").status_code == 200
    assert table_client.post(f"{base}calls/", {}, format="json").status_code == 201


def test_the_directors_lists_cost_the_same_at_1_and_4_tables(short_skat, complete,
                                                            other_table, director_client):
    def queries() -> tuple[int, int]:
        counts = []
        for path in ("objections/", "calls/"):
            with CaptureQueriesContext(connection) as ctx:
                resp = director_client.get(f"/api/v1/tournaments/{short_skat.pk}/{path}")
                assert resp.status_code == 200
            counts.append(len(ctx))
        return tuple(counts)

    def raise_at(table):
        for p in seated(table):
            client = player_client(p)
            client.post(f"/api/v1/tables/{table['id']}/calls/", {}, format="json")
        table_client_for(table["entry_token"]).post(
            f"/api/v1/tables/{table['id']}/objections/", {"note": "?"}, format="json")

    raise_at(complete)
    few = queries()
    raise_at(other_table)
    assert queries() == few
    assert len(director_client.get(f"/api/v1/tournaments/{short_skat.pk}/calls/").json()) == 7
