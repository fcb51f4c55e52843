"""Each table's history is a hash chain (api.md "Open results"): every entry carries
``hash`` and ``previous``, ``hash = SHA-256(previous ‖ the entry's canonical JSON)``, the
entry as ``GET /tables/{id}/history/`` shows it without ``hash`` (RFC 8785); ``GET
/tournaments/{id}/verify/`` and ``manage.py verify_history`` recompute every chain and
name the first entry changed in the database outside the app. The checks here recompute
the hashes as an outsider would: from the endpoint's JSON with hashlib and rfc8785 only."""

import hashlib
import io
import json

import pytest
import rfc8785
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tests.conftest import player_client, seated
from tests.tournaments.test_player_phone_services import CLUBS_WON as PHONE_WON
from tournaments.models import SheetEvent
from tournaments.services import Actor, objection_raise, objection_resolve, sheet_confirm

pytestmark = pytest.mark.django_db

CLUBS_WON = {"declarer": 2, "game": "clubs", "matadors": 1, "won": True}
GRAND_LOST = {"declarer": 3, "game": "grand", "matadors": 2, "won": False}
SHOWN = {"id", "at", "action", "deal", "by", "participant", "before", "after", "previous",
         "hash"}


def outsiders_hash(entry: dict) -> str:
    """api.md to the letter: the entry as shown, without ``hash``, in JCS, after
    ``previous``'s 64 hex digits (nothing for the first entry)."""
    shown = {k: v for k, v in entry.items() if k != "hash"}
    previous = (entry["previous"] or "").encode("ascii")
    return hashlib.sha256(previous + rfc8785.dumps(shown)).hexdigest()


def assert_outsider_recomputes(entries: list[dict]) -> None:
    assert entries and entries[0]["previous"] is None
    for before, entry in zip(entries, entries[1:], strict=False):
        assert entry["previous"] == before["hash"]
    for entry in entries:
        assert set(entry) == SHOWN
        assert entry["hash"] == outsiders_hash(entry), entry["id"]


def history(client, table) -> list[dict]:
    resp = client.get(f"/api/v1/tables/{table['id']}/history/")
    assert resp.status_code == 200
    return json.loads(resp.content)


def play(client, table) -> None:
    """Two deals, a correction of the first and a deletion of the second."""
    base = f"/api/v1/tables/{table['id']}/deals/"
    assert client.post(base, {"number": 1, **CLUBS_WON}, format="json").status_code == 201
    assert client.post(base, {"number": 2, **GRAND_LOST}, format="json").status_code == 201
    etag = client.get(f"{base}1/")["ETag"]
    assert client.put(f"{base}1/", {**CLUBS_WON, "declarer": 3}, format="json",
                      HTTP_IF_MATCH=etag).status_code == 200
    assert client.delete(f"{base}2/").status_code == 204


def verify(client, tournament) -> dict:
    resp = client.get(f"/api/v1/tournaments/{tournament.pk}/verify/")
    assert resp.status_code == 200, resp.content
    return resp.json()


def tamper(event_id: int, after: dict) -> None:
    """An edit in the database outside the app."""
    with connection.cursor() as cursor:
        cursor.execute("UPDATE tournaments_sheetevent SET after = %s WHERE id = %s",
                       [json.dumps(after), event_id])


def test_every_entry_links_to_the_one_before_by_its_hash(director_client, table):
    play(director_client, table)
    entries = history(director_client, table)
    assert [e["action"] for e in entries] == [
        "deal_create", "deal_create", "deal_update", "deal_delete"]
    assert entries[0]["previous"] is None
    for before, entry in zip(entries, entries[1:], strict=False):
        assert entry["previous"] == before["hash"]
    assert_outsider_recomputes(entries)
    assert [e["id"] for e in entries] == sorted(e["id"] for e in entries)


def test_round_entries_join_each_tables_chain(director_client, short_skat, table, other_table):
    play(director_client, table)
    for each in (table, other_table):
        assert director_client.post(f"/api/v1/tables/{each['id']}/end/", {"reason": "Zeit"},
                                    format="json").status_code == 200
    round_url = f"/api/v1/tournaments/{short_skat.pk}/rounds/1/"
    assert director_client.post(f"{round_url}close/").status_code == 200
    assert director_client.post(f"{round_url}reopen/").status_code == 200
    for each in (table, other_table):
        entries = history(director_client, each)
        assert [e["action"] for e in entries][-3:] == ["end", "round_close", "round_reopen"]
        assert entries[-1]["previous"] == entries[-2]["hash"]
    assert verify(director_client, short_skat)["ok"] is True


def test_verify_finds_the_row_changed_outside_the_app(director_client, short_skat, table,
                                                      other_table):
    play(director_client, table)
    director_client.post(f"/api/v1/tables/{other_table['id']}/deals/",
                         {"number": 1, "passed": True}, format="json")
    answer = verify(director_client, short_skat)
    assert answer["ok"] is True
    rows = {row["table"]: row for row in answer["tables"]}
    entries = history(director_client, table)
    assert rows[table["id"]]["head"] == entries[-1]["hash"]

    changed = entries[1]
    tamper(changed["id"], {**changed["after"], "scores": [0, 0, 0]})
    answer = verify(director_client, short_skat)
    rows = {row["table"]: row for row in answer["tables"]}
    assert answer["ok"] is False
    assert rows[table["id"]]["ok"] is False
    assert rows[table["id"]]["first_bad"] == changed["id"]
    assert rows[other_table["id"]] == {**rows[other_table["id"]], "ok": True}
    assert "first_bad" not in rows[other_table["id"]]

    out = io.StringIO()
    with pytest.raises(CommandError) as exc:
        call_command("verify_history", "--tournament", str(short_skat.pk), stdout=out)
    assert exc.value.returncode == 1
    assert f"entry {changed['id']} does not match" in out.getvalue()


def test_a_forged_hash_breaks_the_link_to_the_next_entry(director_client, short_skat, table):
    play(director_client, table)
    entries = history(director_client, table)
    with connection.cursor() as cursor:
        cursor.execute("UPDATE tournaments_sheetevent SET hash = %s WHERE id = %s",
                       ["0" * 64, entries[0]["id"]])
    row = next(r for r in verify(director_client, short_skat)["tables"]
               if r["table"] == table["id"])
    assert row["first_bad"] == entries[0]["id"]


def test_verify_command_passes_an_untouched_history(director_client, short_skat, table):
    play(director_client, table)
    out = io.StringIO()
    call_command("verify_history", stdout=out)
    assert "every history chain matches" in out.getvalue()


def test_verify_is_for_the_directors(anon_client, outsider_client, short_skat):
    url = f"/api/v1/tournaments/{short_skat.pk}/verify/"
    assert anon_client.get(url).status_code == 401
    assert outsider_client.get(url).status_code == 403


def test_an_entry_deleted_at_the_end_is_found_by_the_tables_head(director_client, short_skat,
                                                                  table):
    play(director_client, table)
    entries = history(director_client, table)
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM tournaments_sheetevent WHERE id = %s", [entries[-1]["id"]])
    row = next(r for r in verify(director_client, short_skat)["tables"]
               if r["table"] == table["id"])
    assert row["ok"] is False and row["first_bad"] == entries[-2]["id"]


def test_values_jcs_cannot_hold_still_hash():
    """An imported archive may bring integers beyond the doubles or lone surrogates."""
    from tournaments.history_chain import digest

    odd = {"after": {"big": 2**60, "huge": 10**400, "text": "\ud800"}, "previous": None}
    assert len(digest(odd)) == 64
    assert digest(odd) != digest({**odd, "after": {**odd["after"], "big": 2**61}})


@pytest.mark.parametrize("value", [
    {"id": 7, "at": "2026-12-06T19:00:00.123456Z", "action": "deal_create", "deal": 3,
     "by": "table", "participant": None, "previous": "ab" * 32, "before": None,
     "after": {"number": 3, "record": {"game": "grand", "hand": True, "matadors": -4},
               "scores": [0, -96, 0, 0], "extra": {}}},
    {"text": "".join(chr(c) for c in range(0x180)) + "\u2028\u2029\ufeff\U0001f600",
     "é": ["ü", "\x7f", "a\"b\\c"], "Z": 1, "a": -(2**53 - 1), "nested": [[{}], []]},
    {"\U0001f600": 1, "\ufb01": 2},  # keys JCS and Python order apart: not plain
    {"float": 1.0, "small": 1e-7, "large": 1e21, "neg": -0.0},
    {"big": 2**53, "huge": 10**400, "lone": "\ud800x", "tuple": (1, 2)},
    {"deep": [[[[[["x", {"k": [True, False, None]}]]]]]]},
])
def test_the_canonical_json_is_jcs_whichever_writer_writes_it(value):
    """Python's writer takes a plain entry (the hot path of a deal POST), the JCS writer
    everything else: the bytes, and so the hashes, are RFC 8785's either way."""
    from tournaments.history_chain import _as_jcs, _canonical

    assert _canonical(value) == rfc8785.dumps(_as_jcs(value))


# --------------------------------------------------------------- every kind of entry


@pytest.fixture
def lived(director_client, short_skat, table):
    """The 3-table's whole life: seat 1's own phone enters the deals (from an address),
    the director corrects one, deletes one and the phone enters it again, seat 1 objects,
    every seat confirms (the last one submits), the director decides the objection, and
    then seat 1's player is erased (DSGVO). Returns (erased participant, history)."""
    players = seated(table)
    anna = players[0]
    phone = player_client(anna)
    base = f"/api/v1/tables/{table['id']}/deals/"
    for number in (1, 2, 3):
        resp = phone.post(base, {"number": number, **PHONE_WON}, format="json",
                          REMOTE_ADDR="10.0.0.7")
        assert resp.status_code == 201, resp.content
    etag = director_client.get(f"{base}1/")["ETag"]
    assert director_client.put(f"{base}1/", {**PHONE_WON, "won": False, "reason": "Zählfehler"},
                               format="json", HTTP_IF_MATCH=etag).status_code == 200
    assert director_client.delete(f"{base}3/").status_code == 204
    assert phone.post(base, {"number": 3, **PHONE_WON}, format="json").status_code == 201
    objection = objection_raise(table_id=table["id"], deal=2, note="Zu viele Matadore",
                                actor=Actor(by_table=True, participant=anna))
    for player in players:
        sheet_confirm(table_id=table["id"], actor=Actor(by_table=True, participant=player))
    objection_resolve(objection_id=objection.pk, resolution="Richtig gezählt.",
                      actor=Actor(user=short_skat.directors.get()))
    assert director_client.post(f"/api/v1/players/{anna.player_id}/erase/").status_code == 200
    return anna, history(director_client, table)


def test_an_outsider_recomputes_every_hash_of_every_kind_of_entry(lived, short_skat,
                                                                  director_client):
    anna, entries = lived
    assert {e["action"] for e in entries} == {
        "deal_create", "deal_update", "deal_delete", "objection", "confirm", "submit",
        "objection_resolve"}
    # the erased player's entries: her phone's, with her name replaced and no address
    hers = [e for e in entries if e["participant"] == anna.pk]
    assert {e["action"] for e in hers} >= {"deal_create", "confirm", "objection"}
    anna.player.refresh_from_db()
    assert any(e["after"].get("name") == anna.player.name for e in hers)
    assert "10.0.0.7" not in json.dumps(entries)
    assert {e["by"] for e in entries} == {"table", "director"}
    assert_outsider_recomputes(entries)
    assert verify(director_client, short_skat)["ok"] is True


def test_the_event_documents_head_is_the_endpoints_last_hash(lived, table, short_skat,
                                                             director_client):
    _anna, entries = lived
    resp = director_client.get(f"/api/v1/tournaments/{short_skat.pk}/event/")
    assert resp.status_code == 200
    (shown,) = [t for r in resp.json()["rounds"] for t in r["tables"]
                if (r["number"], t["number"]) == (1, table["number"])]
    assert shown["history_head"] == entries[-1]["hash"]


def test_a_changed_after_is_named_by_its_id(lived, table, short_skat, director_client):
    _anna, entries = lived
    changed = next(e for e in entries if e["action"] == "confirm")
    tamper(changed["id"], {**changed["after"], "seat": 3})
    row = next(r for r in verify(director_client, short_skat)["tables"]
               if r["table"] == table["id"])
    assert row["ok"] is False and row["first_bad"] == changed["id"]
    # the outsider finds the same entry from the endpoint's answer
    shown = history(director_client, table)
    assert [e["id"] for e in shown if e["hash"] != outsiders_hash(e)] == [changed["id"]]
    out = io.StringIO()
    with pytest.raises(CommandError):
        call_command("verify_history", "--tournament", str(short_skat.pk), stdout=out)
    assert f"entry {changed['id']} does not match" in out.getvalue()


# --------------------------------------------------------------- the migration


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    executor.loader.build_graph()


def old_rule(entry: dict, previous: str | None) -> str:
    """The hash as 0018 made it: without ``id`` (and the words the endpoint showed)."""
    shown = {k: v for k, v in entry.items() if k not in ("id", "hash")}
    shown["previous"] = previous
    return hashlib.sha256((previous or "").encode() + rfc8785.dumps(shown)).hexdigest()


@pytest.mark.django_db(transaction=True)
def test_the_migration_reseals_history_written_under_the_old_rule(
        director_client, short_skat, table, other_table):
    play(director_client, table)
    director_client.post(f"/api/v1/tables/{other_table['id']}/deals/",
                         {"number": 1, "passed": True}, format="json")
    leaves = MigrationExecutor(connection).loader.graph.leaf_nodes()
    _migrate([("tournaments", "0021_game_from_registry")])
    # the rows as the old rule sealed them (the shown entries' ids stay the rows' keys)
    for each in (table, other_table):
        previous = None
        for entry in history(director_client, each):
            previous_hash, previous = previous, old_rule(entry, previous)
            with connection.cursor() as cursor:
                cursor.execute("UPDATE tournaments_sheetevent SET previous = %s, hash = %s "
                               "WHERE id = %s", [previous_hash or "", previous, entry["id"]])
        with connection.cursor() as cursor:
            cursor.execute("UPDATE tournaments_table SET history_head = %s WHERE id = %s",
                           [previous, each["id"]])
    assert verify(director_client, short_skat)["ok"] is False

    _migrate(leaves)

    assert verify(director_client, short_skat)["ok"] is True
    for each in (table, other_table):
        entries = history(director_client, each)
        assert_outsider_recomputes(entries)
        assert SheetEvent.objects.filter(table_id=each["id"]).count() == len(entries)


def test_keys_are_taken_where_sqlite_never_gave_one(director_client, table):
    """SQLite keeps a table's highest key in ``sqlite_sequence`` from its first row on (the
    migration makes the row); without it the writer starts after the highest stored key."""
    play(director_client, table)
    if connection.vendor == "sqlite":
        with connection.cursor() as cursor:
            cursor.execute("DELETE FROM sqlite_sequence WHERE name = 'tournaments_sheetevent'")
    base = f"/api/v1/tables/{table['id']}/deals/"
    assert director_client.post(base, {"number": 2, **GRAND_LOST},
                                format="json").status_code == 201
    entries = history(director_client, table)
    assert [e["id"] for e in entries] == sorted({e["id"] for e in entries})
    assert_outsider_recomputes(entries)
