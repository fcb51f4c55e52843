"""Property (issue 14, item 1): whatever JSON — any Unicode including lone surrogates, any
number including huge integers, NaN and infinities, any nesting — reaches the scorer or
a table's deal entry of any game, the answer is a 2xx or a 4xx with a JSON body; never
a 500. Bodies mix the games' real field names with arbitrary ones so that the engines'
checks, not only the parser, are driven."""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from games.engines import all_engines, baptistenskat, basler, labatarde, schafkopf, skat
from tests.conftest import table_client_for
from tests.factories import ParticipantFactory, PlayerFactory, TournamentFactory

pytestmark = pytest.mark.django_db

GAMES = sorted(engine.key for engine in all_engines())
FIELD_NAMES = sorted({
    "number", *skat.DECLARER_FIELDS, *skat.RAMSCH_FIELDS, *skat.PASSED_FIELDS,
    *baptistenskat.FIELDS, *schafkopf.ALL_FIELDS, *basler.REQUIRED, *basler.OPTIONAL,
    *labatarde.REQUIRED, *labatarde.OPTIONAL, "players", "rules", "deals", "summary",
    "game_points", "won", "lost",
})
EDGE_INTS = [0, 1, -1, 2**31 - 1, 2**31, 2**63 - 1, 2**63, -(2**63) - 1, 10**30, -(10**30)]

# any code point, lone surrogates included
text = st.text(st.characters(exclude_categories=()), max_size=12)
numbers = (st.integers() | st.sampled_from(EDGE_INTS)
           | st.integers(min_value=-(10**4000), max_value=10**4000)
           | st.floats(allow_nan=True, allow_infinity=True))
scalars = st.none() | st.booleans() | numbers | text | st.sampled_from(["clubs", "grand", "null",
                                                                        "sauspiel", "solo"])
keys = st.sampled_from(FIELD_NAMES) | text
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=5)
                      | st.dictionaries(keys, inner, max_size=5), max_leaves=25)
deals = st.dictionaries(keys, values, max_size=10)
bodies = (deals | st.fixed_dictionaries({"number": st.integers(0, 5) | numbers}, optional={})
          .flatmap(lambda head: deals.map(lambda rest: {**rest, **head})) | values)
scorer_bodies = (st.fixed_dictionaries(
    {"players": st.integers(2, 8) | numbers},
    optional={"rules": values | st.dictionaries(keys, values, max_size=4),
              "deals": st.lists(deals | values, max_size=6), "summary": values})
    .flatmap(lambda head: st.dictionaries(keys, values, max_size=2)
             .map(lambda rest: {**rest, **head})) | values)
raw_texts = text | st.binary(max_size=40).map(lambda b: b.decode("latin-1"))

PROPERTY = settings(max_examples=60, deadline=None, database=None,
                    suppress_health_check=list(HealthCheck))


def as_json(value) -> str:
    return json.dumps(value)  # NaN/Infinity stay as JS literals, surrogates as \ud800


def assert_answered(resp) -> None:
    assert resp.status_code < 500, resp.content[:500]
    assert resp.status_code < 300 or resp.status_code >= 400
    assert resp["Content-Type"].startswith("application/json"), resp["Content-Type"]
    json.loads(resp.content)


@pytest.fixture
def scorer_client(settings):
    settings.SCORER_RATE = "1000000/min"
    return APIClient(raise_request_exception=False)


@given(game=st.sampled_from(GAMES + ["no-such-game"]), body=scorer_bodies)
@PROPERTY
def test_scorer_answers_any_json_with_2xx_or_4xx(scorer_client, game, body):
    resp = scorer_client.post(f"/api/v1/games/{game}/score/", as_json(body),
                              content_type="application/json")
    assert_answered(resp)


@given(raw=raw_texts)
@PROPERTY
def test_scorer_answers_any_text_with_2xx_or_4xx(scorer_client, raw):
    resp = scorer_client.post("/api/v1/games/skat/score/",
                              raw.encode("utf-8", "surrogatepass"),
                              content_type="application/json")
    assert_answered(resp)


@pytest.fixture
def tables(director, club, director_client):
    """A drawn table of four for every game: {game: table token}."""
    tokens = {}
    for game in GAMES:
        tournament = TournamentFactory(club=club, game=game)
        tournament.directors.add(director)
        for n in range(4):
            ParticipantFactory(tournament=tournament, player=PlayerFactory(club=club),
                               start_number=n + 1, checked_in=True)
        resp = director_client.post(f"/api/v1/tournaments/{tournament.pk}/rounds/",
                                    {"method": "random", "seed": 1}, format="json")
        assert resp.status_code == 201, resp.content
        table = resp.json()["tables"][0]
        tokens[game] = (table["id"], table["entry_token"])
    return tokens


@pytest.mark.parametrize("game", GAMES)
def test_deal_entry_answers_any_json_with_2xx_or_4xx(tables, game):
    table_id, token = tables[game]
    client = table_client_for(token)
    client.raise_request_exception = False

    @given(body=bodies, path=st.sampled_from(["deals/", "preview/", "deals/1/"]),
           key=st.none() | text)
    @PROPERTY
    def run(body, path, key):
        headers = {}
        if key is not None:
            headers["HTTP_IDEMPOTENCY_KEY"] = key.encode("utf-8", "surrogatepass") \
                .decode("latin-1")
        url = f"/api/v1/tables/{table_id}/{path}"
        if path == "deals/1/":
            resp = client.put(url, as_json(body), content_type="application/json",
                              HTTP_IF_MATCH="*", **headers)
        else:
            resp = client.post(url, as_json(body), content_type="application/json",
                               **headers)
        assert_answered(resp)

    run()
