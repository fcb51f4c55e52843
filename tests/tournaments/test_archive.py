"""A tournament as a JSON archive: export, empty the database, import, export again."""

import copy
import io
import json

import pytest
from django.core.management import call_command
from django.db import connection
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from archive.export import tournament_export
from archive.importing import tournament_import
from archive.standings_file import standings_csv
from clubs.models import Club, Player
from games.engines import EngineUserError
from prizes.services import prizes_set
from tests.factories import ClubFactory
from tournaments.models import (
    Deal,
    DirectorCall,
    Objection,
    Participant,
    Seat,
    SheetConfirmation,
    SheetEvent,
    Table,
    Tournament,
)
from tournaments.services import (
    Actor,
    call_raise,
    call_update,
    deal_correct,
    deal_record,
    objection_raise,
    objection_resolve,
    round_close,
    round_draw,
    sheet_confirm,
    sheet_submit,
    summary_record,
)
from tournaments.services.teams import team_create

pytestmark = pytest.mark.django_db

WIN = {"declarer": 2, "game": "clubs", "matadors": 1, "won": True}
LOST = {"declarer": 3, "game": "grand", "matadors": 2, "won": False}


def phone(table: Table, seat: int) -> Actor:
    """The phone of the player in ``seat`` at ``table`` (their personal token)."""
    participant = Seat.objects.get(table=table, seat=seat).participant
    return Actor(by_table=True, participant=participant, ip="192.168.1.30")


@pytest.fixture
def played(short_skat, director):
    """Two rounds of ``short_skat``: deals with a correction at one table, a summary at
    the other; round 1 submitted and closed, round 2 half played. The players' phones
    confirm, object and call: at the 4-table of round 1 two confirmations (a phone, the
    tablet) and an objection the director resolved; in round 2 a deal entered from a
    phone, an open objection of the tablet, a call the director saw and an open one."""
    guest_club = ClubFactory(name="Gäste", slug="gaeste")
    Player.objects.filter(pk=short_skat.participants.last().player_id).update(
        club=guest_club, member_number="G1")
    staff = Actor(user=director, ip="10.0.0.7")
    tablet = Actor(by_table=True, ip="192.168.1.20")
    short_skat.rounds_planned = 5
    short_skat.team_size = 3
    short_skat.save()
    ids = list(short_skat.participants.order_by("start_number").values_list("pk", flat=True))
    team_create(tournament_id=short_skat.pk, name="Asse", members=ids[:3])
    team_create(tournament_id=short_skat.pk, name="Zehner", members=ids[3:5])
    prizes_set(tournament_id=short_skat.pk, data={"entry_fee_cents": 1000,
                                                  "places_percent": [70, 30],
                                                  "places_goods": ["", "Wurstkorb"]})
    rnd = round_draw(tournament_id=short_skat.pk, method="balanced", seed=11)
    four, three = sorted(rnd.tables.all(), key=lambda t: -t.seats.count())
    for number, deal in enumerate([WIN, LOST, {"passed": True}, WIN], start=1):
        deal_record(table_id=four.pk, number=number, record=deal, actor=tablet)
    etag = Deal.objects.get(table=four, number=2).etag
    deal_correct(table_id=four.pk, number=2, record={**LOST, "matadors": 3}, actor=staff,
                 if_match=etag)
    summary_record(table_id=three.pk, seats=[{"game_points": 48, "won": 2, "lost": 0},
                                             {"game_points": -96, "won": 0, "lost": 1},
                                             {"game_points": 0, "won": 0, "lost": 0}],
                   actor=staff)
    sheet_confirm(table_id=four.pk, actor=phone(four, 1))
    sheet_confirm(table_id=four.pk, seat=2, actor=tablet)
    objection = objection_raise(table_id=four.pk, deal=2, note="Es waren 3 Spitzen",
                                actor=phone(four, 3))
    objection_resolve(objection_id=objection.pk, resolution="Schon berichtigt", actor=staff)
    for table in (four, three):
        sheet_submit(table_id=table.pk, actor=staff)
    round_close(round_id=rnd.pk)
    prizes_set(tournament_id=short_skat.pk, data={"entry_fee_cents": 1200,
                                                  "places_percent": [70, 30],
                                                  "places_goods": ["", "Wurstkorb"]})
    rnd2 = round_draw(tournament_id=short_skat.pk, method="ranking", seed=12)
    first = rnd2.tables.order_by("number").first()
    deal_record(table_id=first.pk, number=1, record=WIN, actor=phone(first, 2))
    objection_raise(table_id=first.pk, note="Die Liste stimmt nicht", actor=tablet)
    call, _new = call_raise(table_id=first.pk, reason="Karten fehlen", actor=phone(first, 1))
    call_update(call_id=call.pk, status="seen", actor=staff)
    call_raise(table_id=first.pk, actor=tablet)
    return short_skat


def without_heads(rounds: list[dict]) -> list[dict]:
    """The rounds without each table's history head: the chain hashes the entries' and
    the participants' ids on this server (``services.history.content``), so a copy's
    chains are its own."""
    return [{**r, "tables": [{k: v for k, v in t.items() if k != "history_head"}
                             for t in r["tables"]]} for r in rounds]


def same_document(first: dict, second: dict) -> bool:
    return ({**first, "rounds": without_heads(first["rounds"])}
            == {**second, "rounds": without_heads(second["rounds"])})


def empty_the_database():
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:  # no pending FK checks may block TRUNCATE
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    call_command("flush", interactive=False, verbosity=0)


def test_export_flush_import_export_gives_the_same_archive(played):
    first = json.loads(json.dumps(tournament_export(tournament=played)))
    assert len(first["rounds"]) == 2 and len(first["participants"]) == 7
    assert {e["user"] for r in first["rounds"] for t in r["tables"] for e in t["history"]} == {
        "director", None}
    assert first["standings"][0]["rank"] == 1
    assert "entry_token" not in json.dumps(first)
    assert [(t["name"], t["members"]) for t in first["teams"]] == [("Asse", [1, 2, 3]),
                                                                   ("Zehner", [4, 5])]
    assert [e["entry_fee_cents"] for e in first["prizes"]["fee_events"]] == [1000, 1200]
    assert first["tournament"]["rounds_planned"] == 5 and first["tournament"]["team_size"] == 3
    empty_the_database()
    assert not Tournament.objects.exists() and not Player.objects.exists()
    imported = tournament_import(data=copy.deepcopy(first))
    second = json.loads(json.dumps(tournament_export(tournament=imported)))
    assert same_document(second, first)
    assert Club.objects.count() == 2 and Player.objects.count() == 7
    assert SheetEvent.objects.filter(user__username="director").exists()
    assert all(len(t.entry_token) >= 22 for t in Table.objects.all())


def test_each_players_publication_choice_travels_with_the_archive(played):
    """A copy on another server must not show a name its player withheld; an archive from
    before the choice imports with full names, as they were then."""
    chosen = {1: "initial", 2: "number"}
    for participant in played.participants.filter(start_number__in=chosen):
        Player.objects.filter(pk=participant.player_id).update(
            publication=chosen[participant.start_number])
    archive = json.loads(json.dumps(tournament_export(tournament=played)))
    older = copy.deepcopy(archive)
    for p in older["participants"]:
        del p["player"]["publication"]
    empty_the_database()
    imported = tournament_import(data=archive)
    shown = dict(imported.participants.values_list("start_number", "player__publication"))
    assert shown == {n: chosen.get(n, "full") for n in shown}
    again = tournament_import(data=older)
    assert set(again.participants.values_list("player__publication", flat=True)) == {"full"}


def test_an_archive_from_before_teams_and_prizes_still_imports(played):
    archive = json.loads(json.dumps(tournament_export(tournament=played)))
    for key in ("teams", "prizes"):
        del archive[key]
    for key in ("rounds_planned", "team_size"):
        del archive["tournament"][key]
    imported = tournament_import(data=archive)
    assert not imported.teams.exists() and imported.team_size == 4
    assert imported.rounds_planned is None


def _voices(archive: dict) -> dict[str, list]:
    tables = [t for r in archive["rounds"] for t in r["tables"]]
    return {key: [item for t in tables for item in t[key]]
            for key in ("confirmations", "objections", "calls", "history")}


def test_the_players_phones_survive_the_round_trip(played):
    """Confirmations, objections with their resolutions, calls and the history's players
    (by start number) come back; the personal tokens are not in the archive, and the
    imported participants get new ones."""
    seat = {(s.table.round.number, s.table.number, s.seat): s.participant.start_number
            for s in Seat.objects.filter(table__round__tournament=played)
            .select_related("table__round", "participant")}
    tokens = set(played.participants.values_list("personal_token", flat=True))
    first = json.loads(json.dumps(tournament_export(tournament=played)))
    assert (first["format"], first["version"]) == ("stichliste-event", 1)
    assert not any(token in json.dumps(first) for token in tokens)
    four = next(n for (r, n, s) in seat if r == 1 and s == 4)  # round 1's 4-table
    voices = _voices(first)
    assert [(c["seat"], c["participant"]) for c in voices["confirmations"]] == [
        (1, seat[1, four, 1]), (2, None)]
    resolved, still_open = voices["objections"]
    assert (resolved["status"], resolved["deal_number"], resolved["resolution"],
            resolved["resolved_by"]) == ("resolved", 2, "Schon berichtigt", "director")
    assert resolved["participant"] == seat[1, four, 3] and resolved["resolved_at"]
    assert (still_open["status"], still_open["participant"], still_open["deal_number"]) == (
        "open", None, None)
    seen, waiting = voices["calls"]
    assert (seen["status"], seen["reason"], seen["handled_by"]) == ("seen", "Karten fehlen",
                                                                     "director")
    assert seen["participant"] == seat[2, 1, 1] and seen["seen_at"] is not None
    assert (waiting["status"], waiting["participant"]) == ("open", None)
    from_phones = [e for e in voices["history"] if e["participant"] is not None]
    assert {(e["action"], e["participant"]) for e in from_phones} == {
        ("confirm", seat[1, four, 1]), ("objection", seat[1, four, 3]),
        ("deal_create", seat[2, 1, 2])}
    empty_the_database()
    imported = tournament_import(data=copy.deepcopy(first))
    assert same_document(json.loads(json.dumps(tournament_export(tournament=imported))), first)
    assert (SheetConfirmation.objects.count(), Objection.objects.count(),
            DirectorCall.objects.count()) == (2, 2, 2)
    assert SheetEvent.objects.filter(participant__isnull=False).count() == len(from_phones)
    # every table's chain, stored together with the others', verifies as entered ones do
    out = io.StringIO()
    call_command("verify_history", tournaments=[imported.pk], stdout=out)
    assert "every history chain matches" in out.getvalue()
    assert Table.objects.filter(round__tournament=imported).exclude(history_head="").count() \
        == len({(r["number"], t["number"]) for r in first["rounds"] for t in r["tables"]
                if t["history"]})
    new = set(Participant.objects.values_list("personal_token", flat=True))
    assert len(new) == 7 and not new & tokens


def test_the_document_anyone_reads_imports_without_the_directors_parts(played):
    """Without history, confirmations, objections and calls (what anyone may read), the
    deals, summaries and standings come over all the same."""
    archive = json.loads(json.dumps(tournament_export(tournament=played, full=False)))
    assert not any(key in t for r in archive["rounds"] for t in r["tables"]
                   for key in ("history", "confirmations", "objections", "calls"))
    imported = tournament_import(data=archive)
    assert imported.rounds.count() == 2
    again = tournament_export(tournament=imported, full=False)
    assert [[t["deals"] for t in r["tables"]] for r in again["rounds"]] == [
        [t["deals"] for t in r["tables"]] for r in archive["rounds"]]
    assert again["standings"] == archive["standings"]
    assert not SheetConfirmation.objects.filter(table__round__tournament=imported).exists()
    assert not SheetEvent.objects.filter(table__round__tournament=imported,
                                         participant__isnull=False).exists()


@pytest.mark.parametrize(("key", "field", "value"), [
    ("confirmations", "seat", 9),
    ("confirmations", "participant", 999),
    ("confirmations", "version", -1),
    ("objections", "status", "maybe"),
    ("objections", "note", " "),
    ("objections", "note", "x" * 501),
    ("objections", "resolved_by", ""),
    ("calls", "reason", "x" * 201),
    ("calls", "status", "answered"),
    ("calls", "participant", "1"),
    ("history", "participant", 0),
])
def test_a_bad_voice_names_its_path_and_stores_nothing(played, key, field, value):
    archive = json.loads(json.dumps(tournament_export(tournament=played)))
    r, i = next((r, i) for r, rnd in enumerate(archive["rounds"])
                for i, t in enumerate(rnd["tables"]) if t[key])
    archive["rounds"][r]["tables"][i][key][0][field] = value
    count = Tournament.objects.count()
    with pytest.raises(EngineUserError) as exc:
        tournament_import(data=archive)
    assert exc.value.errors[0].field == f"rounds[{r}].tables[{i}].{key}[0].{field}"
    assert Tournament.objects.count() == count


def test_a_seat_confirms_a_version_once(played):
    archive = json.loads(json.dumps(tournament_export(tournament=played)))
    r, i = next((r, i) for r, rnd in enumerate(archive["rounds"])
                for i, t in enumerate(rnd["tables"]) if t["confirmations"])
    confirmations = archive["rounds"][r]["tables"][i]["confirmations"]
    confirmations.append(dict(confirmations[0]))
    with pytest.raises(EngineUserError) as exc:
        tournament_import(data=archive)
    assert exc.value.errors[0].field == f"rounds[{r}].tables[{i}].confirmations[2].seat"


def test_an_import_beside_the_original_is_a_second_tournament(played, director):
    archive = tournament_export(tournament=played)
    copy_ = tournament_import(data=archive, importer=director)
    assert copy_.pk != played.pk and copy_.slug != played.slug
    # players are found again by club and member number, never doubled there
    assert Player.objects.filter(member_number="G1").count() == 1
    assert without_heads(tournament_export(tournament=copy_)["rounds"]) == without_heads(
        archive["rounds"])


@pytest.mark.parametrize(("change", "field"), [
    (lambda a: a.update(format="x"), "format"),
    (lambda a: a["tournament"].update(game="poker"), "tournament.game"),
    (lambda a: a["tournament"].update(rules={"kontra_re": "ja"}), "tournament.rules.kontra_re"),
    (lambda a: a["rounds"][0]["tables"][0]["deals"][1].update(matadors=99),
     "rounds[0].tables[0].deals[1].matadors"),
    (lambda a: a["rounds"][0]["tables"][0]["deals"][1].update(number=3),
     "rounds[0].tables[0].deals[1].number"),
    (lambda a: a["rounds"][0]["tables"][0]["seats"][0].update(participant=999),
     "rounds[0].tables[0].seats[0].participant"),
    (lambda a: a["rounds"][0]["tables"][0].update(seats=a["rounds"][0]["tables"][0]["seats"][:2]),
     "rounds[0].tables[0].seats"),
    (lambda a: a["participants"][1].update(start_number=1), "participants[1].start_number"),
    (lambda a: a["rounds"][0]["tables"][0]["history"][0].update(ip="not an ip"),
     "rounds[0].tables[0].history[0].ip"),
    (lambda a: a["participants"][0]["player"].update(name="Nul\x00"),
     "participants[0].player.name"),
    (lambda a: a["rounds"][0]["tables"][0]["deals"][1].update(bid=float("nan")),
     "rounds[0].tables[0].deals[1].bid"),
    (lambda a: a["rounds"][0]["tables"][0]["deals"][1].update(bid=float("-inf")),
     "rounds[0].tables[0].deals[1].bid"),
    (lambda a: a["participants"][0]["player"].update(publication="secret"),
     "participants[0].player.publication"),
    (lambda a: a["rounds"][1].update(number=5), "rounds[1].number"),
    (lambda a: a["teams"][1]["members"].append(1), "teams[1].members[2]"),
    (lambda a: a["teams"][1].update(name="asse"), "teams[1].name"),
    (lambda a: a["prizes"]["config"].update(places_percent=[70, 20]),
     "prizes.config.places_percent"),
    (lambda a: a["tournament"].update(team_size=1), "tournament.team_size"),
    (lambda a: a["tournament"].update(rules=None), "tournament.rules"),
])
def test_a_bad_archive_names_the_path_and_stores_nothing(played, change, field):
    archive = json.loads(json.dumps(tournament_export(tournament=played)))
    change(archive)
    count = Tournament.objects.count()
    with pytest.raises(EngineUserError) as exc:
        tournament_import(data=archive)
    assert exc.value.errors[0].field == field
    assert Tournament.objects.count() == count


def test_archive_api(director_client, outsider_client, played):
    url = f"/api/v1/tournaments/{played.pk}/archive/"
    assert outsider_client.get(url).status_code == 403
    archive = director_client.get(url).json()
    refused = outsider_client.post("/api/v1/tournaments/import/", archive, format="json")
    assert refused.status_code == 403  # names the director's club
    resp = director_client.post("/api/v1/tournaments/import/", archive, format="json")
    assert resp.status_code == 201, resp.content
    assert Tournament.objects.filter(pk=resp.json()["id"]).exists()
    bad = director_client.post("/api/v1/tournaments/import/", {"format": 1}, format="json")
    assert bad.status_code == 400


def test_standings_csv(anon_client, played):
    text = standings_csv(played)
    lines = text.lstrip("\ufeff").splitlines()
    # rank, no., name, club, team, score, game points, won, lost, rounds 1 and 2
    assert len(lines) == 8 and lines[0].count(";") == 10
    header = lines[0].split(";")
    assert header[4] == "Mannschaft"
    teams = {line.split(";")[2]: line.split(";")[4] for line in lines[1:]}
    first = played.participants.get(start_number=1)
    assert teams[first.player.name] == "Asse"
    resp = anon_client.get(f"/api/v1/tournaments/{played.pk}/standings/csv/")
    assert resp.status_code == 200 and resp["Content-Type"].startswith("text/csv")
    assert Player.objects.filter(name=lines[1].split(";")[2]).exists()


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner,
                                                                max_size=3),
    max_leaves=6)


def _nodes(value, path=()):
    yield path
    if isinstance(value, dict):
        for key, child in value.items():
            yield from _nodes(child, (*path, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from _nodes(child, (*path, index))


def test_any_damaged_archive_is_imported_or_refused_naming_a_path(played):
    archive = json.loads(json.dumps(tournament_export(tournament=played)))
    paths = [p for p in _nodes(archive) if p]

    @given(st.sampled_from(paths), JSON_VALUES)
    @settings(max_examples=150, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    def damage(path, value):
        broken = copy.deepcopy(archive)
        node = broken
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
        try:
            tournament_import(data=broken)
        except EngineUserError as exc:
            assert all(isinstance(e.field, str) for e in exc.errors)

    damage()
