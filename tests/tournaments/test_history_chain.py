"""Each table's history is a hash chain (api.md "Open results"): every entry carries
``hash`` and ``previous``; ``GET /tournaments/{id}/verify/`` and ``manage.py
verify_history`` recompute every chain and name the first entry changed in the database
outside the app."""

import hashlib
import io
import json

import pytest
import rfc8785
from django.apps import apps
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from tournaments.models import SheetEvent

pytestmark = pytest.mark.django_db

CLUBS_WON = {"declarer": 2, "game": "clubs", "matadors": 1, "won": True}
GRAND_LOST = {"declarer": 3, "game": "grand", "matadors": 2, "won": False}
NOT_HASHED = {"id", "hash", "ip", "who", "text"}


def history(client, table) -> list[dict]:
    resp = client.get(f"/api/v1/tables/{table['id']}/history/")
    assert resp.status_code == 200
    return resp.json()


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
    for entry in entries:
        # anyone can recompute it from the answer: SHA-256(previous ‖ JCS(entry))
        shown = {k: v for k, v in entry.items() if k not in NOT_HASHED}
        expected = hashlib.sha256((entry["previous"] or "").encode()
                                  + rfc8785.dumps(shown)).hexdigest()
        assert entry["hash"] == expected and len(expected) == 64


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


def test_the_migration_chains_history_stored_before_it(director_client, short_skat, table):
    play(director_client, table)
    before = [e["hash"] for e in history(director_client, table)]
    SheetEvent.objects.update(hash="", previous="")
    assert verify(director_client, short_skat)["ok"] is False
    migration = __import__("tournaments.migrations.0018_history_chain",
                           fromlist=["chain_stored_history"])
    migration.chain_stored_history(apps, None)
    assert [e["hash"] for e in history(director_client, table)] == before
    assert verify(director_client, short_skat)["ok"] is True


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
