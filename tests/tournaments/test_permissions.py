"""Who may call what: every endpoint against anonymous, an outsider (staff who runs
nothing here), the director, the table's own token and another table's token."""

import pytest

from tests.conftest import table_client_for
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db

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
    ("get", "/api/v1/players/", None, [401, 200, 200, 403, 403]),
    ("post", "/api/v1/clubs/", {"name": "Neu"}, [401, 201, 201, 403, 403]),
    ("get", "/api/v1/clubs/", None, [200, 200, 200, 200, 200]),
    ("post", "/api/v1/games/skat/score/", {"players": 3, "deals": []}, [200] * 5),
]

CASES = [
    pytest.param(method, path, body, actor, expected[i], id=f"{method} {path} as {actor}")
    for method, path, body, expected in MATRIX
    for i, actor in enumerate(ACTORS)
]


@pytest.mark.parametrize("method,path,body,actor,expected", CASES)
def test_permission_matrix(method, path, body, actor, expected, short_skat, table, other_table,
                           table_client, anon_client, outsider_client, director_client):
    assert table_client.post(f"/api/v1/tables/{table['id']}/deals/",
                             {"number": 1, "passed": True}, format="json").status_code == 201
    clients = {
        "anonymous": anon_client,
        "outsider": outsider_client,
        "director": director_client,
        "own_table": table_client,
        "other_table": table_client_for(other_table["entry_token"]),
    }
    if body == "player":
        body = {"player": PlayerFactory().pk}
    url = path.format(t=short_skat.pk, table=table["id"])
    resp = getattr(clients[actor], method)(url, body, format="json")
    assert resp.status_code == expected, resp.content


def test_table_token_never_appears_in_public_answers(anon_client, short_skat, table):
    base = f"/api/v1/tournaments/{short_skat.pk}/"
    for path in (base, f"{base}rounds/", "/api/v1/tournaments/"):
        assert table["entry_token"] not in anon_client.get(path).content.decode()


def test_a_garbage_table_token_is_401(anon_client, table):
    resp = table_client_for("not-a-token").get(f"/api/v1/tables/{table['id']}/")
    assert resp.status_code == 401
