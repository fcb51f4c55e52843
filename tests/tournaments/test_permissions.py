"""Who may call what: every endpoint against anonymous, an outsider (staff who runs
nothing here), the director (who also runs the club), the table's own token and another
table's token; the table endpoints also against players' personal tokens (the seated
player, a player of another table, of another tournament). A test checks that this matrix
and the leagues' (``tests/leagues/test_permissions.py``) name every route of the API and
every method it serves."""

import datetime

import pytest
from rest_framework.test import APIClient

from ratings.ranking_lists.services import ranking_list_create
from tests.api_routes import api_shapes, served_methods, shape
from tests.conftest import table_client_for
from tests.factories import ParticipantFactory, PlayerFactory
from tests.leagues.test_permissions import LEAGUE_MATRIX
from tournaments.models import Participant, Team

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fast_password_hasher(settings):
    """The callers use tokens, never their passwords: the users are made with a fast
    hasher (the default one's rounds were most of each case's time)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


ACTORS = ["anonymous", "outsider", "director", "own_table", "other_table"]
PASSED = {"number": 2, "passed": True}
SUMMARY = {"seats": [{"game_points": 0, "won": 0, "lost": 0}] * 3}

# (method, path template, body, expected status per actor in ACTORS order)
MATRIX = [
    ("get", "/api/v1/tournaments/{t}/", None, [200, 200, 200, 200, 200]),
    ("post", "/api/v1/tournaments/", {"name": "Neu", "game": "skat"}, [401, 201, 201, 403, 403]),
    ("patch", "/api/v1/tournaments/{t}/", {"name": "Umbenannt"}, [401, 403, 200, 403, 403]),
    ("post", "/api/v1/tournaments/{t}/participants/", "player", [401, 403, 201, 403, 403]),
    ("get", "/api/v1/tournaments/{t}/participants/", None, [200, 200, 200, 200, 200]),
    # one participant with their personal token: the directors' only
    ("get", "/api/v1/tournaments/{t}/participants/{participant}/", None,
     [401, 403, 200, 403, 403]),
    ("get", "/api/v1/tournaments/{t}/rounds/", None, [200, 200, 200, 200, 200]),
    ("post", "/api/v1/tournaments/{t}/rounds/", {"method": "random"}, [401, 403, 409, 403, 403]),
    ("post", "/api/v1/tournaments/{t}/rounds/1/close/", None, [401, 403, 409, 403, 403]),
    ("post", "/api/v1/tournaments/{t}/rounds/1/swap/", {"a": 1, "b": 2}, [401, 403, 409, 403, 403]),
    ("get", "/api/v1/tables/{table}/", None, [401, 403, 200, 200, 404]),
    ("get", "/api/v1/tables/{table}/deals/", None, [401, 403, 200, 200, 404]),
    ("post", "/api/v1/tables/{table}/deals/", PASSED, [401, 403, 201, 201, 404]),
    ("get", "/api/v1/tables/{table}/deals/1/", None, [401, 403, 200, 200, 404]),
    ("put", "/api/v1/tables/{table}/deals/1/", {"passed": True}, [401, 403, 428, 428, 404]),
    ("delete", "/api/v1/tables/{table}/deals/1/", None, [401, 403, 204, 204, 404]),
    ("put", "/api/v1/tables/{table}/summary/", SUMMARY, [401, 403, 200, 403, 404]),
    ("post", "/api/v1/tables/{table}/submit/", None, [401, 403, 400, 400, 404]),
    ("get", "/api/v1/tables/{table}/history/", None, [401, 403, 200, 403, 404]),
    ("post", "/api/v1/tournaments/{t}/rounds/1/reopen/", None, [401, 403, 409, 403, 403]),
    # the round's clock: anyone reads it, the directors set it (a clock never started
    # cannot be paused)
    ("get", "/api/v1/tournaments/{t}/rounds/1/clock/", None, [200, 200, 200, 200, 200]),
    ("post", "/api/v1/tournaments/{t}/rounds/1/clock/", {"action": "pause"},
     [401, 403, 409, 403, 403]),
    # the table has a deal: its draw can no longer be taken back
    ("delete", "/api/v1/tournaments/{t}/rounds/1/", None, [401, 403, 409, 403, 403]),
    ("patch", "/api/v1/tournaments/{t}/participants/{participant}/", {"withdrawn": True},
     [401, 403, 200, 403, 403]),
    ("post", "/api/v1/tables/{table}/end/", {"reason": "Zeit"}, [401, 403, 200, 403, 404]),
    ("post", "/api/v1/tournaments/{t}/finish/", None, [401, 403, 409, 403, 403]),
    ("post", "/api/v1/tournaments/{t}/reopen/", None, [401, 403, 409, 403, 403]),
    ("get", "/api/v1/players/", None, [401, 200, 200, 403, 403]),
    ("post", "/api/v1/clubs/", {"name": "Neu"}, [401, 201, 201, 403, 403]),
    ("get", "/api/v1/clubs/", None, [200, 200, 200, 200, 200]),
    ("post", "/api/v1/games/skat/score/", {"players": 3, "deals": []}, [200] * 5),
    # the rest of every route: public reads, tournaments, tables, players, clubs
    ("get", "/api/v1/tournaments/", None, [200, 200, 200, 200, 200]),
    ("patch", "/api/v1/tournaments/{t}/participants/{participant}/", {"checked_in": False},
     [401, 403, 200, 403, 403]),
    ("get", "/api/v1/tournaments/{t}/rounds/1/", None, [200, 200, 200, 200, 200]),
    ("get", "/api/v1/tournaments/{t}/standings/", None, [200, 200, 200, 200, 200]),
    ("get", "/api/v1/tournaments/{t}/standings/csv/", None, [200, 200, 200, 200, 200]),
    ("get", "/api/v1/tournaments/{t}/archive/", None, [401, 403, 200, 403, 403]),
    ("get", "/api/v1/tournaments/{t}/verify/", None, [401, 403, 200, 403, 403]),
    # the open event document of a published tournament and its schema: anyone
    ("get", "/api/v1/tournaments/{t}/event/", None, [200] * 5),
    ("get", "/api/v1/formats/event/", None, [200] * 5),
    ("get", "/api/v1/tournaments/{t}/lists/{kind}.{suffix}", None, [200] * 5),
    ("get", "/api/v1/tournaments/{t}/table-money/", None, [401, 403, 200, 403, 403]),
    ("put", "/api/v1/tournaments/{t}/table-money/", {"loss_fee_cents": 20},
     [401, 403, 200, 403, 403]),
    ("post", "/api/v1/tournaments/import/", {}, [401, 400, 400, 403, 403]),
    ("post", "/api/v1/tables/{table}/preview/", PASSED, [401, 403, 200, 200, 404]),
    ("get", "/api/v1/games/", None, [200] * 5),
    ("get", "/api/v1/games/skat/", None, [200] * 5),
    ("get", "/api/v1/games/skat/conformance/", None, [200] * 5),
    ("post", "/api/v1/auth/token/", {"username": "nobody", "password": "x"}, [400] * 5),
    ("get", "/api/v1/players/{player}/", None, [401, 200, 200, 403, 403]),
    ("patch", "/api/v1/players/{player}/", {"name": "Neu"}, [401, 403, 200, 403, 403]),
    ("post", "/api/v1/players/", {"name": "Neu"}, [401, 201, 201, 403, 403]),
    ("get", "/api/v1/players/{player}/profile/", None, [200, 200, 200, 200, 200]),
    # ratings: public reads (a player of a published tournament, rated or not)
    ("get", "/api/v1/players/{player}/ratings/", None, [200, 200, 200, 200, 200]),
    ("get", "/api/v1/ratings/", {"game": "skat"}, [200, 200, 200, 200, 200]),
    ("get", "/api/v1/players/{player}/stats/", {"game": "skat"}, [200, 200, 200, 200, 200]),
    # a player's own phone only (its token: tests/api/test_me_history.py)
    ("get", "/api/v1/me/history/", None, [401, 403, 403, 403, 403]),
    ("get", "/api/v1/me/seasons/", None, [401, 403, 403, 403, 403]),
    ("get", "/api/v1/me/stats/", None, [401, 403, 403, 403, 403]),
    ("get", "/api/v1/players/{player}/export/", None, [401, 403, 200, 403, 403]),
    ("post", "/api/v1/players/{player}/erase/", None, [401, 403, 200, 403, 403]),
    ("patch", "/api/v1/players/{player}/", {"publication": "number"}, [401, 403, 200, 403, 403]),
    ("post", "/api/v1/players/{player}/merge/", {"remove": "{guest}"},
     [401, 403, 200, 403, 403]),
    ("get", "/api/v1/clubs/{club}/", None, [200, 200, 200, 200, 200]),
    ("patch", "/api/v1/clubs/{club}/", {"city": "Altenburg"}, [401, 403, 200, 403, 403]),
    ("get", "/api/v1/clubs/{club}/evenings/", None, [200, 200, 200, 200, 200]),
    ("post", "/api/v1/clubs/{club}/evenings/", {"date": "2026-03-05", "player_ids": []},
     [401, 403, 400, 403, 403]),
    ("get", "/api/v1/clubs/{club}/settings/", None, [200, 200, 200, 200, 200]),
    ("patch", "/api/v1/clubs/{club}/settings/", {"loss_fee_cents": 50},
     [401, 403, 200, 403, 403]),
    ("post", "/api/v1/clubs/{club}/members/preview/", {"csv": "Anna;7"},
     [401, 403, 200, 403, 403]),
    ("post", "/api/v1/clubs/{club}/members/import/", {"csv": "Anna;7"},
     [401, 403, 201, 403, 403]),
    ("get", "/api/v1/clubs/{club}/seasons/2026/", None, [200, 200, 200, 200, 200]),
    ("put", "/api/v1/clubs/{club}/seasons/2026/", {"best_n": None, "min_evenings": 0},
     [401, 403, 200, 403, 403]),
    ("get", "/api/v1/clubs/{club}/seasons/2026/table-money/", None, [401, 403, 200, 403, 403]),
    ("get", "/api/v1/clubs/{club}/seasons/2026/table-money/csv/", None,
     [401, 403, 200, 403, 403]),
    ("get", "/api/v1/tournaments/{t}/teams/", None, [200] * 5),
    ("post", "/api/v1/tournaments/{t}/teams/", {"name": "Neu"}, [401, 403, 201, 403, 403]),
    ("get", "/api/v1/tournaments/{t}/teams/{team}/", None, [200] * 5),
    ("patch", "/api/v1/tournaments/{t}/teams/{team}/", {"name": "Neu"},
     [401, 403, 200, 403, 403]),
    ("delete", "/api/v1/tournaments/{t}/teams/{team}/", None, [401, 403, 204, 403, 403]),
    ("get", "/api/v1/tournaments/{t}/teams/standings/", None, [200] * 5),
    ("get", "/api/v1/tournaments/{t}/prizes/", None, [401, 403, 404, 403, 403]),
    ("put", "/api/v1/tournaments/{t}/prizes/", {"entry_fee_cents": 500},
     [401, 403, 200, 403, 403]),
    ("put", "/api/v1/tournaments/{t}/prizes/lots/", {"order": [1]}, [401, 403, 409, 403, 403]),
    ("get", "/api/v1/tournaments/{t}/cash/", None, [401, 403, 200, 403, 403]),
    # the player's own overview: a personal token only (tests/api/test_me_api.py)
    ("get", "/api/v1/me/", None, [401, 403, 403, 403, 403]),
    # sign-up (tests/tournaments/test_registrations_api.py): anyone posts (409 here: the
    # sign-up is not open), the directors read the list, a personal token cancels
    ("post", "/api/v1/tournaments/{t}/registrations/", {"name": "Neu"},
     [409, 409, 409, 409, 409]),
    ("get", "/api/v1/tournaments/{t}/registrations/", None, [401, 403, 200, 403, 403]),
    ("delete", "/api/v1/me/registration/", None, [401, 403, 403, 403, 403]),
    # what the players say (their own tokens: tests/api/test_player_voice_api.py); {call}
    # and {objection} are the tablet's
    ("post", "/api/v1/tables/{table}/confirm/", {"seat": 1}, [401, 403, 400, 400, 404]),
    ("post", "/api/v1/tables/{table}/objections/", {"note": "?"}, [401, 403, 403, 201, 404]),
    ("post", "/api/v1/tables/{table}/calls/", {}, [401, 403, 403, 200, 404]),
    ("get", "/api/v1/tables/{table}/calls/{call}/", None, [401, 403, 404, 200, 404]),
    ("get", "/api/v1/tournaments/{t}/objections/", None, [401, 403, 200, 403, 403]),
    ("patch", "/api/v1/tournaments/{t}/objections/{objection}/", {"resolution": "Gut"},
     [401, 403, 200, 403, 403]),
    ("get", "/api/v1/tournaments/{t}/calls/", None, [401, 403, 200, 403, 403]),
    ("patch", "/api/v1/tournaments/{t}/calls/{call}/", {"status": "seen"},
     [401, 403, 200, 403, 403]),
    # a whole update (PUT) as the partial one (PATCH) above: who may is the same
    ("put", "/api/v1/tournaments/{t}/", {"name": "Umbenannt", "game": "skat"},
     [401, 403, 200, 403, 403]),
    ("put", "/api/v1/clubs/{club}/", {"name": "Umbenannt"}, [401, 403, 200, 403, 403]),
    ("put", "/api/v1/players/{player}/", {"name": "Neu"}, [401, 403, 200, 403, 403]),
    # ranking lists and the club ranking (api.md "Ratings, ranking lists, categories"):
    # anyone reads, the club's admins make and remove a list
    ("get", "/api/v1/clubs/{club}/ranking-lists/", None, [200] * 5),
    ("post", "/api/v1/clubs/{club}/ranking-lists/",
     {"name": "Rangliste", "game": "skat", "first": "2026-01-01", "last": "2026-12-31"},
     [401, 403, 201, 403, 403]),
    ("get", "/api/v1/ranking-lists/{ranking}/", None, [200] * 5),
    ("delete", "/api/v1/ranking-lists/{ranking}/", None, [401, 403, 204, 403, 403]),
    ("get", "/api/v1/tournaments/{t}/clubs/standings/", None, [200] * 5),
]

CASES = [
    pytest.param(method, path, body, actor, expected[i], id=f"{method} {path} as {actor}")
    for method, path, body, expected in MATRIX
    for i, actor in enumerate(ACTORS)
]


@pytest.mark.parametrize("method,path,body,actor,expected", CASES)
def test_permission_matrix(method, path, body, actor, expected, short_skat, table,
                           table_client, actor_clients, director):
    assert table_client.post(f"/api/v1/tables/{table['id']}/deals/",
                             {"number": 1, "passed": True}, format="json").status_code == 201
    clients = actor_clients
    if body == "player":
        body = {"player": PlayerFactory().pk}
    player = short_skat.participants.select_related("player").first().player
    player.created_by = director
    player.save()
    guest = PlayerFactory(club=None, created_by=director)
    if isinstance(body, dict) and body.get("remove") == "{guest}":
        body = {"remove": guest.pk}
    team = Team.objects.create(tournament=short_skat, name="Ohne Mitglieder")
    said = {}
    if "{call}" in path or "{objection}" in path or path.endswith("/calls/"):
        base = f"/api/v1/tables/{table['id']}/"
        said["call"] = table_client.post(f"{base}calls/", {}, format="json").json()["id"]
        said["objection"] = table_client.post(f"{base}objections/", {"note": "?"},
                                              format="json").json()["id"]
    if "{ranking}" in path:
        said["ranking"] = ranking_list_create(
            club=short_skat.club, name="Rangliste", game="skat", user=director,
            first=datetime.date(2026, 1, 1), last=datetime.date(2026, 12, 31)).pk
    url = path.format(t=short_skat.pk, table=table["id"], club=short_skat.club_id, team=team.pk,
                      player=player.pk, participant=short_skat.participants.first().pk,
                      kind="players", suffix="csv", **said)
    resp = getattr(clients[actor], method)(url, body, format="json")
    assert resp.status_code == expected, resp.content


PLAYERS = ["own_player", "other_player", "foreign_player"]
# a player's personal token at the table endpoints: the seated player as the table's own
# token (never the directors' summary, history and end: 403), anyone else 404
PLAYER_MATRIX = [
    ("get", "/api/v1/tables/{table}/", None, [200, 404, 404]),
    ("get", "/api/v1/tables/{table}/deals/", None, [200, 404, 404]),
    ("post", "/api/v1/tables/{table}/deals/", PASSED, [201, 404, 404]),
    ("post", "/api/v1/tables/{table}/preview/", PASSED, [200, 404, 404]),
    ("get", "/api/v1/tables/{table}/deals/1/", None, [200, 404, 404]),
    ("put", "/api/v1/tables/{table}/deals/1/", {"passed": True}, [428, 404, 404]),
    ("delete", "/api/v1/tables/{table}/deals/1/", None, [204, 404, 404]),
    ("put", "/api/v1/tables/{table}/summary/", SUMMARY, [403, 404, 404]),
    ("get", "/api/v1/tables/{table}/history/", None, [403, 404, 404]),
    ("post", "/api/v1/tables/{table}/end/", {"reason": "Zeit"}, [403, 404, 404]),
    ("post", "/api/v1/tables/{table}/submit/", None, [403, 404, 404]),  # phones confirm
    ("get", "/api/v1/tournaments/{t}/archive/", None, [403, 403, 403]),
]


@pytest.mark.parametrize("method,path,body,actor,expected", [
    pytest.param(method, path, body, actor, expected[i], id=f"{method} {path} as {actor}")
    for method, path, body, expected in PLAYER_MATRIX for i, actor in enumerate(PLAYERS)])
def test_player_tokens_at_the_table_endpoints(method, path, body, actor, expected, short_skat,
                                              table, other_table, table_client):
    assert table_client.post(f"/api/v1/tables/{table['id']}/deals/",
                             {"number": 1, "passed": True}, format="json").status_code == 201
    participants = {
        "own_player": Participant.objects.get(pk=table["seats"][0]["participant"]),
        "other_player": Participant.objects.get(pk=other_table["seats"][0]["participant"]),
        "foreign_player": ParticipantFactory(),
    }
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Player {participants[actor].personal_token}")
    url = path.format(t=short_skat.pk, table=table["id"])
    resp = getattr(client, method)(url, body, format="json")
    assert resp.status_code == expected, resp.content


def test_table_token_never_appears_in_public_answers(anon_client, short_skat, table):
    base = f"/api/v1/tournaments/{short_skat.pk}/"
    for path in (base, f"{base}rounds/", "/api/v1/tournaments/"):
        assert table["entry_token"] not in anon_client.get(path).content.decode()


def test_a_garbage_table_token_is_401(anon_client, table):
    resp = table_client_for("not-a-token").get(f"/api/v1/tables/{table['id']}/")
    assert resp.status_code == 401


def test_the_matrix_covers_every_route_of_the_api():
    """Every route of ``/api/v1/`` and every method it serves, in this module's matrix or
    in the leagues' (``tests/leagues/test_permissions.py``)."""
    paths = [(m, path) for m, path, _b, _e in MATRIX + LEAGUE_MATRIX]
    covered = {(m, shape(path)) for m, path in paths}
    covered |= {(m, shape(path).replace("skat", "{}")) for m, path in paths}
    assert api_shapes() - {path for _m, path in covered} == set()
    assert served_methods(("",)) - {("get", "")} - covered == set()
