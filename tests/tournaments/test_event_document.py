"""The open event document (api.md, "Open results"): a tournament of each game leaves
one server as ``GET /tournaments/{id}/event/`` and comes back through
``POST /tournaments/import/`` with the same deals, sheets and standings; a bad document
is a 400 naming the JSON path, and nothing is stored."""

import json

import pytest
from jsonschema import Draft202012Validator

from api.parsers import DEFAULT_MAX_BODY_BYTES
from archive.event_schema import event_schema
from clubs.models import Club, Player
from games.engines import DealContext, all_engines, get_engine
from tests.event_documents import encoded, largest_skat_event, skat_event
from tests.factories import ParticipantFactory, TournamentFactory
from tests.tournaments.test_doppelkopf_archive import ROUND as DOPPELKOPF_ROUND
from tournaments.models import Deal, Seat, Table, Team, Tournament
from tournaments.services import (
    Actor,
    deals_record,
    round_draw,
    sheet_end,
)

pytestmark = pytest.mark.django_db

IMPORT = "/api/v1/tournaments/import/"


def conformance_deals(game: str, *ids: str) -> list[dict]:
    """The deals of the game's conformance cases ``ids`` (worked examples of games.md)."""
    with open(f"games/conformance/{game}.json", encoding="utf-8") as f:
        cases = {c["id"]: c for c in json.load(f)["cases"]}
    return [deal for case_id in ids for deal in cases[case_id]["deals"]]


def labatarde_deals(count: int) -> list[dict]:
    """``count`` deals as the partie's schedule deals the cards: seat 1 bids one and
    takes every trick."""
    engine = get_engine("labatarde")
    rules = engine.options({})
    out = []
    for number in range(1, count + 1):
        cards = engine.deal_hints(DealContext(number=number, players=4, rules=rules))["cards"]
        bid = 1 if cards != 1 else 0
        out.append({"cards": cards, "trump": "hearts", "bids": [bid, 0, 0, 0],
                    "tricks": [cards, 0, 0, 0]})
    return out


BASLER = [
    {"tricks": [7, 5], "last_trick": "A", "card_points": [24, 16]},
    {"tricks": [3, 9], "last_trick": "B", "card_points": [10, 30],
     "melds": [{"seat": 2, "rank": "king", "count": 3}]},
    {"tricks": [6, 6], "last_trick": "B", "card_points": [20, 20],
     "captured": [{"team": "A", "rank": "seven", "count": 3}]},
]

# each game's sheet of four players: deals of games.md's worked examples where there are
# several, else a few written here
SHEETS = {
    "skat": lambda: conformance_deals("skat", "skat-md-sf-4"),
    "schafkopf": lambda: conformance_deals("schafkopf", *(f"schafkopf-tournament-{n}"
                                                          for n in range(1, 7))),
    "baptistenskat": lambda: conformance_deals("baptistenskat", "baptistenskat-md-1"),
    "basler": lambda: BASLER,
    "labatarde": lambda: labatarde_deals(5),
    "doppelkopf": lambda: DOPPELKOPF_ROUND[:8],
}


def played(game: str, club, director) -> Tournament:
    """A published tournament of ``game`` with eight players at two tables: both play
    the sheet's first deals; one table is ended early (a shortened sheet, which counts as
    submitted), the other is still open."""
    tournament = TournamentFactory(club=club, game=game, rules={}, published=True)
    tournament.directors.add(director)
    for n in range(8):
        ParticipantFactory(tournament=tournament, start_number=n + 1, player__club=club)
    staff, tablet = Actor(user=director), Actor(by_table=True)
    deals = SHEETS[game]()
    first, second = round_draw(tournament_id=tournament.pk, method="random",
                               seed=5).tables.order_by("number")
    deals_record(table_id=first.pk, records=deals, actor=tablet)
    sheet_end(table_id=first.pk, reason="Ein Spieler musste gehen", actor=staff)
    deals_record(table_id=second.pk, records=deals[:2], actor=tablet)
    return tournament


def sheets(tournament: Tournament) -> list:
    """Every table's deals (record and scores) and seats (start number, score, figures)."""
    deals = [(d.table.round.number, d.table.number, d.number, d.record, d.scores)
             for d in Deal.objects.filter(table__round__tournament=tournament)
             .select_related("table__round").order_by("table__round__number",
                                                       "table__number", "number")]
    seats = [(s.table.round.number, s.table.number, s.seat, s.participant.start_number,
              s.score, s.figures, s.table.shortened, s.table.submitted)
             for s in Seat.objects.filter(table__round__tournament=tournament)
             .select_related("table__round", "participant")
             .order_by("table__round__number", "table__number", "seat")]
    return [deals, seats]


def standings(client, tournament: Tournament) -> list:
    numbers = dict(tournament.participants.values_list("pk", "start_number"))
    rows = client.get(f"/api/v1/tournaments/{tournament.pk}/standings/").json()["results"]
    return [{**row, "participant": numbers[row["participant"]]} for row in rows]


@pytest.mark.parametrize("game", sorted(SHEETS))
def test_a_tournament_of_each_game_round_trips(game, club, director, director_client,
                                               anon_client):
    original = played(game, club, director)
    schema = anon_client.get("/api/v1/formats/event/")
    assert schema.status_code == 200
    assert schema["Content-Type"].startswith("application/schema+json")
    document = anon_client.get(f"/api/v1/tournaments/{original.pk}/event/").json()
    Draft202012Validator(schema.json()).validate(document)
    assert (document["format"], document["version"]) == ("stichliste-event", 1)
    table = document["rounds"][0]["tables"][0]
    assert table["deals"][0] == {"number": 1, **Deal.objects.get(
        table__round__tournament=original, table__round__number=1,
        table__number=table["number"], number=1).record}
    assert len(table["history_head"]) == 64
    assert [t["shortened"] for t in document["rounds"][0]["tables"]] == [True, False]

    resp = director_client.post(IMPORT, document, format="json")
    assert resp.status_code == 201, resp.content
    imported = Tournament.objects.get(pk=resp.json()["id"])
    assert imported.pk != original.pk and imported.game == game
    assert sheets(imported) == sheets(original)
    assert standings(anon_client, imported) == standings(anon_client, original)


def test_anyone_reads_names_as_their_players_chose(club, director, anon_client,
                                                   director_client):
    tournament = played("skat", club, director)
    withheld = tournament.participants.get(start_number=1).player
    withheld.publication = "number"
    withheld.save()
    seen = anon_client.get(f"/api/v1/tournaments/{tournament.pk}/event/").json()
    names = {p["start_number"]: p["player"]["name"] for p in seen["participants"]}
    assert withheld.name not in json.dumps(seen) and names[1] != withheld.name
    assert all(p["player"]["member_number"] == "" for p in seen["participants"])
    assert "history" not in seen["rounds"][0]["tables"][0]
    full = director_client.get(f"/api/v1/tournaments/{tournament.pk}/event/").json()
    assert {p["start_number"]: p["player"]["name"] for p in full["participants"]}[1] == \
        withheld.name
    assert full["rounds"][0]["tables"][0]["history"]


def _table(document):
    return document["rounds"][0]["tables"][0]


def _dealer_declares(document):
    """Deal 2 written as deal 1, whose declarer is seat 2: at a table of four seat 2
    deals deal 2 and sits it out, so the same fields are refused in this place."""
    first, second = _table(document)["deals"][:2]
    first["declarer"] = 2
    second.clear()
    second.update(first, number=2)


BAD = [
    (lambda d: d["tournament"].update(game="poker"), "tournament.game"),
    (_dealer_declares, "rounds[0].tables[0].deals[1].declarer"),
    (lambda d: d["participants"][3].update(start_number=1), "participants[3].start_number"),
    (lambda d: _table(d).update(seats=_table(d)["seats"][:2]), "rounds[0].tables[0].seats"),
    (lambda d: _table(d)["deals"].reverse(), "rounds[0].tables[0].deals[0].number"),
    (lambda d: _table(d)["deals"][1].update(bid=19), "rounds[0].tables[0].deals[1].bid"),
    (lambda d: _table(d)["deals"][1].update(number="2"),
     "rounds[0].tables[0].deals[1].number"),
    (lambda d: d.update(format="stichliste-tournament"), "format"),
    (lambda d: d.update(extra=1), "extra"),
    (lambda d: d["rounds"][0].pop("tables"), "rounds[0].tables"),
    (lambda d: _table(d).update(history_head="x"), "rounds[0].tables[0].history_head"),
]


@pytest.mark.parametrize(("change", "path"), BAD)
def test_a_bad_document_is_a_400_naming_the_path_and_stores_nothing(
        change, path, club, director, director_client):
    original = played("skat", club, director)
    document = director_client.get(f"/api/v1/tournaments/{original.pk}/event/").json()
    change(document)
    count, deals = Tournament.objects.count(), Deal.objects.count()
    resp = director_client.post(IMPORT, document, format="json",
                                HTTP_ACCEPT_LANGUAGE="de")
    assert resp.status_code == 400, resp.content
    body = resp.json()
    assert body["errors"][0]["field"] == path and path in body
    assert body["detail"].startswith(f"{path}: ")
    assert (Tournament.objects.count(), Deal.objects.count()) == (count, deals)


def test_deep_nesting_is_a_400_naming_where(director_client):
    nested: dict = {"x": 1}
    for _ in range(40):
        nested = {"rules": nested}
    resp = director_client.post(IMPORT, {"format": "stichliste-event", "tournament": nested},
                                format="json")
    assert resp.status_code == 400
    assert "$.tournament.rules.rules" in resp.json()["detail"]
    deeper = "[" * 100_000 + "]" * 100_000
    resp = director_client.post(IMPORT, deeper, content_type="application/json")
    assert resp.status_code == 400 and "$" in resp.json()["detail"]


def test_a_huge_document_is_refused_unread(director_client):
    """A 50 MB document: 413 from the announced length, before anything parses it."""
    body = b'{"format": "stichliste-event", "participants": [' + b'1,' * (25 * 2**20) + b'1]}'
    count = Tournament.objects.count()
    resp = director_client.generic("POST", IMPORT, body, content_type="application/json")
    assert resp.status_code == 413 and resp.json()["detail"]
    assert Tournament.objects.count() == count


def test_a_document_far_over_the_default_body_bound_is_imported(club, director,
                                                                director_client):
    """The import takes a whole tournament (``MAX_BODY_BYTES``), where an ordinary
    write takes 64 KB: a played tournament with 600 more participants comes back."""
    tournament = played("skat", club, director)
    ParticipantFactory.create_batch(600, tournament=tournament, player__club=club)
    body = director_client.get(f"/api/v1/tournaments/{tournament.pk}/event/").content
    assert len(body) > 2 * DEFAULT_MAX_BODY_BYTES
    resp = director_client.generic("POST", IMPORT, body, content_type="application/json")
    assert resp.status_code == 201, resp.content[:500]
    imported = Tournament.objects.get(pk=resp.json()["id"])
    assert imported.participants.count() == 608
    assert sheets(imported) == sheets(tournament)


def _last_deal(document):
    return document["rounds"][-1]["tables"][-1]["deals"][-1]


# a large document (60 players, 3 rounds of 20 tables, 2,160 deals) damaged where the
# check comes last: the answer names the value, as for a small one
LATE = [
    (lambda d: _last_deal(d).update(number="36"), "rounds[2].tables[19].deals[35].number",
     "Muss eine ganze Zahl sein."),
    (lambda d: d["participants"][-1].update(nickname="x"), "participants[59].nickname",
     "Unbekanntes Feld „nickname“."),
    (lambda d: d["rounds"][-1]["tables"][-1]["seats"][-1].update(seat=101),
     "rounds[2].tables[19].seats[2].seat", "Muss eine ganze Zahl von 1 bis 100 sein."),
    (lambda d: _last_deal(d).update(game="poker"), "rounds[2].tables[19].deals[35].game",
     None),  # the game's own check, after the schema's
    # the fields of deals met before at every table, but 0 for false: refused all the same
    (lambda d: _last_deal(d).update(won=0), "rounds[2].tables[19].deals[35].won",
     "Muss wahr oder falsch sein."),
    (lambda d: _last_deal(d).update(game="spades\x00"), "rounds[2].tables[19].deals[35].game",
     "Der Text darf keine NUL-Zeichen enthalten."),
    # two errors: the first in the document's order is named
    (lambda d: (_last_deal(d).update(number=0), d["participants"][0].update(withdrawn=1)),
     "participants[0].withdrawn", "Muss wahr oder falsch sein."),
    # neither null nor prizes: named as the prizes (jsonschema's best match of the two)
    (lambda d: d.update(prizes={"config": {}, "lot": ["1"], "fee_events": []}),
     "prizes", "Muss ein Objekt sein."),
]


@pytest.mark.parametrize(("change", "path", "message"), LATE)
def test_a_large_document_damaged_at_its_end_is_a_400_naming_the_value(
        change, path, message, director_client):
    document = skat_event(players=60, rounds=3)
    change(document)
    count = Tournament.objects.count()
    resp = director_client.generic("POST", IMPORT, encoded(document),
                                   content_type="application/json", HTTP_ACCEPT_LANGUAGE="de")
    assert resp.status_code == 400, resp.content[:300]
    error = resp.json()["errors"][0]
    assert error["field"] == path
    if message is not None:
        assert error["message"] == message
    assert Tournament.objects.count() == count


MAXIMAL = 2_600_000  # just under the body bound (MAX_BODY_BYTES, 2.5 MiB)


@pytest.mark.parametrize(("body", "path"), [
    (b"[" + b",".join([b'{"a":1}'] * 300_000) + b"]", "document"),
    (b"[" + b",".join([b"[]"] * 800_000) + b"]", "document"),
    (largest_skat_event(MAXIMAL)[:-1] + b"".join(b',"k%07d":1' % n for n in range(5)) + b"}",
     "k0000000"),
    (b'{"format":"stichliste-event","version":1,"tournament":{},"clubs":[],'
     b'"participants":[],"standings":[],"rounds":[' + b",".join([b"[]"] * 800_000) + b"]}",
     "tournament.name"),
])
def test_a_maximal_body_of_the_wrong_shape_is_a_400_naming_where(body, path,
                                                                  director_client):
    assert len(body) < MAXIMAL
    count = Tournament.objects.count()
    resp = director_client.generic("POST", IMPORT, body, content_type="application/json")
    assert resp.status_code == 400, resp.content[:300]
    assert resp.json()["errors"][0]["field"] == path
    assert Tournament.objects.count() == count


def test_a_large_played_tournament_imports_with_every_sheet_scored(director_client,
                                                                   anon_client):
    document = skat_event(players=60, rounds=3)
    resp = director_client.generic("POST", IMPORT, encoded(document),
                                   content_type="application/json")
    assert resp.status_code == 201, resp.content[:300]
    imported = Tournament.objects.get(pk=resp.json()["id"])
    assert imported.participants.count() == 60
    back = anon_client.get(f"/api/v1/tournaments/{imported.pk}/event/").json()
    # every deal comes back as written (with the record's defaults filled in)
    assert [[[{k: d[k] for k in sent} for d, sent in zip(t["deals"], s["deals"], strict=True)]
             for t, s in zip(r["tables"], sr["tables"], strict=True)]
            for r, sr in zip(back["rounds"], document["rounds"], strict=True)] == \
        [[t["deals"] for t in r["tables"]] for r in document["rounds"]]
    # declarer of deal n sits at seat 1 + n % 3; each sheet's scores are computed
    assert all(sum(s["score"] for s in t["seats"]) != 0 for r in back["rounds"]
               for t in r["tables"])


def test_only_staff_imports(anon_client, outsider_client, club, director, director_client):
    document = director_client.get(
        f"/api/v1/tournaments/{played('basler', club, director).pk}/event/").json()
    assert anon_client.post(IMPORT, document, format="json").status_code == 401
    # the outsider runs no club the document would add to
    assert outsider_client.post(IMPORT, document, format="json").status_code == 403


def test_the_openapi_schema_states_the_documents_bounds(anon_client):
    schema = anon_client.get("/api/schema/?format=json").json()
    components = schema["components"]["schemas"]
    table = components["EventTable"]
    assert table["properties"]["number"]["maximum"] == 10_000
    assert components["EventTournament"]["properties"]["name"]["maxLength"] == 160
    imports = schema["paths"]["/api/v1/tournaments/import/"]["post"]
    body = imports["requestBody"]["content"]["application/json"]["schema"]
    assert body == {"$ref": "#/components/schemas/EventDocument"}
    assert "413" in imports["responses"]


def test_the_schema_keeps_the_models_bounds():
    """The schema file is written by hand: its text lengths and choices are the model
    fields' (a change to a model must change the schema too)."""
    defs = event_schema()["$defs"]
    for part, key, model, name in [
            ("tournament", "name", Tournament, "name"), ("club", "name", Club, "name"),
            ("club", "city", Club, "city"), ("table", "end_reason", Table, "end_reason"),
            ("team", "name", Team, "name")]:
        assert defs[part]["properties"][key]["maxLength"] == \
            model._meta.get_field(name).max_length, (part, key)
    player = defs["participant"]["properties"]["player"]["properties"]
    assert player["name"]["maxLength"] == Player._meta.get_field("name").max_length
    assert set(player["publication"]["enum"]) == set(Player.Publication.values)
    assert set(defs["tournament"]["properties"]["status"]["enum"]) == set(
        Tournament.Status.values)
    assert set(defs["tournament"]["properties"]["game"]["enum"]) == {
        e.key for e in all_engines()}
