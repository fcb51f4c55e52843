"""A deal POST loads its table once and changes the standings' versions after its
commit: the write context (``SheetWrite``) is loaded by the one locked load — by the
token's authentication, or by the table endpoint for staff — and shared by the
idempotency check, the service's checks, the scoring and the re-totalling.

Counted for real: the SELECTs on ``tournaments_table`` the request runs; and the ETag a
poller holds, unchanged until the commit and changed after it (on PostgreSQL + Redis in
the ``services`` pass)."""


import pytest
from django.conf import settings
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tournaments.models import Seat, Table, Tournament
from tournaments.services import table_lock
from tournaments.services.sheets import table_lock_by_token

WIN = {"declarer": 1, "game": "clubs", "matadors": 1, "won": True}


def post_deal(client, table, number=1, **headers):
    return client.post(f"/api/v1/tables/{table['id']}/deals/", {"number": number, **WIN},
                       format="json", **headers)


def table_selects(queries) -> list[str]:
    return [q["sql"] for q in queries
            if q["sql"].lstrip().upper().startswith("SELECT")
            and 'FROM "tournaments_table"' in q["sql"]]


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["table_client", "director_client"])
@pytest.mark.parametrize("key", [None, "k-1"])
def test_a_deal_post_loads_its_table_once(request, table, who, key):
    client = request.getfixturevalue(who)
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    with CaptureQueriesContext(connection) as queries:
        resp = post_deal(client, table, **headers)
    assert resp.status_code == 201, resp.content
    loads = table_selects(queries.captured_queries)
    assert len(loads) == 1, loads
    if connection.features.has_select_for_update:
        assert "FOR UPDATE" in loads[0]  # the one load is the row lock


@pytest.mark.django_db
def test_a_refused_deal_loads_its_table_once_too(table_client, table):
    post_deal(table_client, table)
    with CaptureQueriesContext(connection) as queries:
        assert post_deal(table_client, table).status_code == 409  # entered already
    assert len(table_selects(queries.captured_queries)) == 1


def standings_url(table) -> str:
    tournament_id = Table.objects.select_related("round").get(pk=table["id"]).round.tournament_id
    return f"/api/v1/tournaments/{tournament_id}/standings/"


@pytest.mark.django_db
def test_a_deal_post_changes_the_standings_etag_only_after_its_commit(
        table_client, anon_client, table, django_capture_on_commit_callbacks):
    url = standings_url(table)
    first = anon_client.get(url)["ETag"]
    with django_capture_on_commit_callbacks() as callbacks:
        assert post_deal(table_client, table).status_code == 201
        # before the commit every poll still reads the answer before the deal
        assert anon_client.get(url, HTTP_IF_NONE_MATCH=first).status_code == 304
    for callback in callbacks:  # the commit
        callback()
    assert anon_client.get(url, HTTP_IF_NONE_MATCH=first).status_code == 200


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_a_committed_deal_post_changes_the_next_polls_answer(table_client, anon_client,
                                                            table):
    """For real: the request's own transaction commits, and the versions (Redis on the
    PostgreSQL + Redis pass) move after it."""
    url = standings_url(table)
    first = anon_client.get(url)
    assert anon_client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    assert post_deal(table_client, table).status_code == 201  # committed
    changed = anon_client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"]


# The statements of one write, counted so that they cannot grow back (issues 26, 51):
# inside the test's transaction the table endpoint's own transaction is a savepoint
# (opened and released: 2), then the table's locked load, and what the write itself
# needs. On PostgreSQL its reads (the idempotency key's answer, the sheet's deals, the
# keys of the deal and its history entry) go as one text in one round trip, and so do
# its rows (INSERT deal, INSERT history, UPDATE seats, UPDATE table version, INSERT
# outbox, INSERT idempotency key: ``tournaments.statements``); SQLite runs them in turn.
# The keys are taken before the rows (the entry's is hashed, the deal's is in the ETag
# the key's answer stores).
def _rows(count: int) -> int:
    return 1 if connection.vendor == "postgresql" else count


def deal_post() -> int:
    # + key look-up, the sheet's deals, the two keys (SQLite: each an UPDATE); + the rows
    return 2 + 1 + _rows(1 + 1 + 2) + _rows(5 + 1)


def deal_post_without_key() -> int:
    return deal_post() - 2 * (connection.vendor != "postgresql")


# the lock and the reads (SQLite: the key's answer and the sheet; its keys are taken
# only when a deal is written); nothing is written
def replayed() -> int:
    return 2 + 1 + _rows(2)


def correction() -> int:
    return 2 + 1 + 1 + 1 + _rows(5)  # + the sheet's deals (a missing one is 404);
# the entry's key; UPDATE deal, INSERT history, UPDATE seats, UPDATE table version, INSERT
# outbox


def _statements(queries) -> list[str]:
    return [q["sql"].split()[0].upper() for q in queries]


@pytest.mark.django_db
def test_a_deal_post_runs_a_fixed_number_of_statements(table_client, table,
                                                       django_assert_num_queries):
    for number in (1, 2):  # the second deal reads one more deal, not one more query
        with django_assert_num_queries(deal_post()) as queries:
            resp = post_deal(table_client, table, number, HTTP_IDEMPOTENCY_KEY=f"k-{number}")
        assert resp.status_code == 201, resp.content
    statements = _statements(queries.captured_queries)
    # no savepoint of the services' own inside the endpoint's transaction, one SELECT
    # of each kind, one UPDATE of the seats (not a SELECT of them first)
    # (PostgreSQL's keys are SELECTs of nextval with the reads; SQLite's UPDATEs)
    selects = 2 if connection.vendor == "postgresql" else 3
    assert statements.count("SAVEPOINT") == 1 and statements.count("SELECT") == selects
    sqls = [q["sql"] for q in queries.captured_queries]
    assert sum(sql.count('UPDATE "tournaments_seat"') for sql in sqls) == 1
    assert not [sql for sql in sqls if '"tournaments_seat"."id"' in sql]  # no seats read
    rows = [sql for sql in sqls if sql.startswith('INSERT INTO "tournaments_deal"')]
    assert len(rows) == 1
    if connection.vendor == "postgresql":  # the deal's rows in the one round trip
        for row in ('INSERT INTO "tournaments_sheetevent"', 'UPDATE "tournaments_seat"',
                    'UPDATE "tournaments_table"', 'INSERT INTO "tournaments_standingsoutbox"',
                    'INSERT INTO "tournaments_idempotencykey"'):
            assert row in rows[0]
        reads = [sql for sql in sqls if 'FROM "tournaments_idempotencykey"' in sql]
        assert len(reads) == 1  # and its reads in the one before
        for read in ('FROM "tournaments_deal"', "nextval"):
            assert read in reads[0]
    with django_assert_num_queries(deal_post_without_key()):
        assert post_deal(table_client, table, 3).status_code == 201


@pytest.mark.django_db
def test_a_replayed_deal_post_writes_nothing(
        table_client, table, django_assert_num_queries):
    first = post_deal(table_client, table, HTTP_IDEMPOTENCY_KEY="again")
    with django_assert_num_queries(replayed()) as queries:
        replay = post_deal(table_client, table, HTTP_IDEMPOTENCY_KEY="again")
    assert replay.status_code == 201 and replay["Idempotent-Replayed"] == "true"
    assert replay.json() == first.json()
    assert not {"INSERT", "UPDATE", "DELETE"} & set(_statements(queries.captured_queries))


@pytest.mark.django_db
def test_a_correction_runs_a_fixed_number_of_statements(table_client, table,
                                                        django_assert_num_queries):
    etag = post_deal(table_client, table)["ETag"]
    assert post_deal(table_client, table, 2).status_code == 201
    with django_assert_num_queries(correction()):
        resp = table_client.put(f"/api/v1/tables/{table['id']}/deals/1/",
                                {**WIN, "matadors": 2}, format="json", HTTP_IF_MATCH=etag)
    assert resp.status_code == 200, resp.content


@pytest.mark.django_db
def test_a_refused_deal_post_leaves_nothing_behind(table_client, table):
    from tournaments.models import Deal, IdempotencyKey, SheetEvent, StandingsOutbox

    assert post_deal(table_client, table, HTTP_IDEMPOTENCY_KEY="one").status_code == 201
    counts = [m.objects.count() for m in (Deal, IdempotencyKey, SheetEvent, StandingsOutbox)]
    # refused by the service after the lock, without a savepoint of its own: the
    # endpoint's transaction is rolled back as a whole, and the request's answer is JSON
    resp = post_deal(table_client, table, 1, HTTP_IDEMPOTENCY_KEY="two")
    assert resp.status_code == 409 and resp.json()["detail"]
    bad = table_client.post(f"/api/v1/tables/{table['id']}/deals/",
                            {"number": 2, "declarer": 9, "game": "clubs"}, format="json",
                            HTTP_IDEMPOTENCY_KEY="four")
    assert bad.status_code == 400
    assert [m.objects.count() for m in (Deal, IdempotencyKey, SheetEvent,
                                        StandingsOutbox)] == counts
    # and the table takes the next deal as before (the refused request's key was not kept)
    assert post_deal(table_client, table, 2, HTTP_IDEMPOTENCY_KEY="four").status_code == 201


@pytest.mark.django_db
@pytest.mark.parametrize("body", [{**WIN, "matadors": 2}, {**WIN, "number": 2}, ["not", "a"],
                                  {"number": 9, "declarer": 9}])
def test_a_correction_of_a_missing_deal_is_404_whatever_its_body(table_client, table, body):
    assert post_deal(table_client, table).status_code == 201
    resp = table_client.put(f"/api/v1/tables/{table['id']}/deals/2/", body, format="json",
                            HTTP_IF_MATCH='"1.1"')
    assert resp.status_code == 404 and resp.json()["code"] == "not_found", resp.content
    gone = table_client.delete(f"/api/v1/tables/{table['id']}/deals/2/")
    assert gone.status_code == 404 and gone.json()["code"] == "not_found"


def _fields(instance) -> dict:
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}


@pytest.mark.django_db
def test_the_locked_load_reads_table_round_and_tournament_as_the_orm_does(table):
    """The lock's statement is written from the models' fields with their database
    converters (JSON, dates and times, booleans on SQLite): every value equals the
    ORM's, and the round and tournament come with the table, no further query."""
    Table.objects.filter(pk=table["id"]).update(
        submitted=True, submitted_at=timezone.now(), shortened=True,
        summary=[{"game_points": 12, "won": 1, "lost": 0}], end_reason="time")
    stored = Table.objects.select_related("round__tournament").get(pk=table["id"])
    Tournament.objects.filter(pk=stored.round.tournament_id).update(
        rules={**stored.round.tournament.rules, "note": "ä ü"})
    stored = Table.objects.select_related("round__tournament").get(pk=table["id"])
    seats = Seat.objects.filter(table_id=table["id"]).count()
    with transaction.atomic():
        by_id = table_lock(table["id"])
        with CaptureQueriesContext(connection) as queries:
            by_token = table_lock_by_token(table["entry_token"])
            for locked in (by_id, by_token):
                assert _fields(locked) == _fields(stored)
                assert _fields(locked.round) == _fields(stored.round)
                assert _fields(locked.round.tournament) == _fields(stored.round.tournament)
                assert locked.seat_count == seats
                assert not locked._state.adding
    assert len(queries.captured_queries) == 1  # the token's lock; nothing lazy after it
    assert by_token.round.tournament.rules["note"] == "ä ü"


@pytest.mark.django_db
def test_the_lock_of_no_table():
    with transaction.atomic():
        assert table_lock_by_token("no-such-token") is None
        with pytest.raises(Table.DoesNotExist):
            table_lock(987654)


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql",
                    reason="SQLite has no row locks: there is nothing to refuse")
def test_a_table_is_locked_only_inside_a_transaction(table):
    with pytest.raises(transaction.TransactionManagementError):
        table_lock(table["id"])


@pytest.mark.django_db
def test_the_lock_of_a_table_number_beyond_the_database_integers_is_no_table():
    with transaction.atomic():
        with pytest.raises(Table.DoesNotExist):
            table_lock(2 ** 70)
        with pytest.raises(Table.DoesNotExist):
            table_lock(-(2 ** 70))


@pytest.mark.django_db
def test_the_rows_written_together_are_stored_as_the_orm_stores_them(table):
    """``Writes`` prepares each value by its field (JSON, ``None`` as SQL NULL, the
    ``auto_now`` times, foreign keys) and sets the returned key: the rows read back equal
    rows the ORM saved with the same values."""
    from django.db.models import signals

    from tournaments.models import Deal, SheetEvent, StandingsOutbox
    from tournaments.statements import WRITTEN, Writes

    stored = Table.objects.select_related("round").get(pk=table["id"])
    record = {"declarer": 1, "game": "grand", "note": "50 % ä"}
    writes = Writes()
    deal = writes.insert(Deal(table=stored, number=7, record=record, scores=[1, -2, 0],
                              extra={"x": None}), returning=True)
    writes.insert(SheetEvent(table=stored, action=SheetEvent.Action.DEAL_CREATE,
                             deal_number=7, before=None, after={"number": 7}))
    writes.insert(StandingsOutbox(tournament_id=stored.round.tournament_id,
                                  round_number=None, table_id=stored.pk))
    stored.version += 1
    writes.update(stored, ["version"])
    with CaptureQueriesContext(connection) as queries:
        writes.send()
    assert len(queries.captured_queries) == (1 if connection.vendor == "postgresql" else 4)
    assert len(writes) == 0 and deal.pk is not None and not deal._state.adding
    again = Deal.objects.get(pk=deal.pk)
    orm = Deal.objects.create(table=stored, number=8, record=record, scores=[1, -2, 0],
                              extra={"x": None})
    orm = Deal.objects.get(pk=orm.pk)
    for name in ("table_id", "record", "scores", "extra", "version"):
        assert getattr(again, name) == getattr(orm, name), name
    assert again.created_at is not None and again.updated_at is not None
    assert again.created_at == deal.created_at
    event = SheetEvent.objects.filter(table_id=stored.pk, deal_number=7).get()
    assert event.before is None and event.after == {"number": 7}
    assert SheetEvent.objects.filter(table_id=stored.pk, deal_number=7,
                                     before__isnull=True).exists()  # SQL NULL, not JSON null
    assert StandingsOutbox.objects.filter(table_id=stored.pk, round_number=None).exists()
    assert Table.objects.get(pk=stored.pk).version == stored.version
    # what is written here must have no receiver of its saves: it sends no signal
    from django.apps import apps

    for label in WRITTEN:
        model = apps.get_model(label)
        assert not signals.pre_save.has_listeners(model), label
        assert not signals.post_save.has_listeners(model), label


@pytest.mark.django_db
def test_a_failing_row_fails_the_write_and_keeps_none_of_its_rows(table):
    """The rows go in order; when one is refused by the database (here a second deal of
    the same number), the error reaches the caller and the transaction keeps none."""
    from django.db import IntegrityError

    from tournaments.models import Deal, SheetEvent
    from tournaments.statements import Writes

    stored = Table.objects.get(pk=table["id"])
    Deal.objects.create(table=stored, number=1, record={}, scores=[0, 0, 0])
    events = SheetEvent.objects.count()
    writes = Writes()
    writes.insert(SheetEvent(table=stored, action=SheetEvent.Action.DEAL_CREATE,
                             deal_number=1, after={"number": 1}))
    writes.insert(Deal(table=stored, number=1, record={}, scores=[0, 0, 0]))
    with pytest.raises(IntegrityError), transaction.atomic():
        writes.send()
    assert SheetEvent.objects.count() == events
    assert Deal.objects.filter(table=stored).count() == 1
    late = Writes()
    late.insert(SheetEvent(table=stored, action=SheetEvent.Action.DEAL_CREATE))
    with pytest.raises(ValueError):  # the returned key is the first statement's only
        late.insert(Deal(table=stored, number=2, record={}, scores=[]), returning=True)


@pytest.mark.django_db
def test_a_written_once_select_reads_what_values_list_reads(table_client, table):
    """``select`` converts each value by its field (JSON, times, on either database) and
    finds rows by a foreign key's id and a text with characters beyond ASCII."""
    from tournaments.models import Deal, IdempotencyKey
    from tournaments.statements import select

    for number in (1, 2, 3):
        assert post_deal(table_client, table, number,
                         HTTP_IDEMPOTENCY_KEY=f"schlüssel-{number}").status_code == 201
    names = ("number", "record", "scores", "extra", "created_at", "version")
    assert select(Deal, names, {"table": table["id"]}, order_by="number") == [
        list(row) for row in Deal.objects.filter(table_id=table["id"]).order_by("number")
        .values_list(*names)]
    names = ("request_hash", "status", "body", "headers")
    found = select(IdempotencyKey, names, {"table": table["id"], "key": "schlüssel-2"})
    assert found == [list(IdempotencyKey.objects.filter(
        table_id=table["id"], key="schlüssel-2").values_list(*names).get())]
    assert found[0][2]["number"] == 2 and found[0][1] == 201
    assert select(IdempotencyKey, names, {"table": table["id"], "key": "schlüssel"}) == []


@pytest.mark.django_db
def test_a_written_once_select_in_reads_what_values_list_reads(table_client, table,
                                                               other_table):
    """``select_in`` finds the rows whose key is one of several values, follows required
    foreign keys to the rows they point to (a seat's player's name) and converts each
    value by its field, as ``values_list`` does; a nullable link is read as an outer
    join, not as an inner join that would drop rows."""
    from tournaments.models import Deal, Seat, SheetEvent
    from tournaments.statements import columns, select_in

    for number in (1, 2):
        assert post_deal(table_client, table, number).status_code == 201
    ids = [table["id"], other_table["id"]]
    names = ("table", "seat", "participant__player__name", "participant__start_number",
             "score", "figures")
    assert select_in(Seat, names, "table", ids, order_by=("table", "seat")) == [
        list(row) for row in Seat.objects.filter(table_id__in=ids)
        .order_by("table_id", "seat").values_list(*names)]
    deals = select_in(Deal, columns(Deal), "table", ids, order_by=("table", "number"))
    assert deals == [list(row) for row in Deal.objects.filter(table_id__in=ids)
                     .order_by("table_id", "number").values_list(*columns(Deal))]
    assert [Deal.from_db("default", columns(Deal), row).record for row in deals] == [
        d.record for d in Deal.objects.filter(table_id__in=ids).order_by("number")]
    assert select_in(Deal, ("number",), "table", [other_table["id"]]) == []
    assert select_in(Deal, ("number",), "table", []) == []
    # a nullable link is an outer join: the rows where it is null stay (None)
    names = ("id", "participant", "participant__player__name")
    assert select_in(SheetEvent, names, "table", ids, order_by=("id",)) == [
        list(row) for row in SheetEvent.objects.filter(table_id__in=ids).order_by("id")
        .values_list(*names)]


@pytest.mark.django_db
def test_the_reads_give_what_values_list_and_the_sequences_give(table):
    """``Reads`` sends its statements together (PostgreSQL: one text): the JSON fields
    read as one array equal the ORM's values (floats, texts beyond ASCII, null inside a
    document, nesting), in order; ``select`` as ``values_list``; the keys are new and
    ascending, and the ORM's next row gets a key after them."""
    from tournaments.models import Deal, IdempotencyKey, SheetEvent
    from tournaments.statements import Reads

    stored = Table.objects.get(pk=table["id"])
    for number, record in ((2, {"a": 1.5, "b": "ä €", "c": None, "d": [1, {"e": -0.25}]}),
                           (1, {"x": True, "y": "\\n\"", "z": 10**15})):
        Deal.objects.create(table=stored, number=number, record=record,
                            scores=[number, -number, 0], extra={"v": number / 4})
    with transaction.atomic():
        reads = Reads()
        empty = reads.select(IdempotencyKey, ("status",), {"table": stored.pk, "key": "k"})
        rows = reads.json_rows(Deal, ("record", "scores", "extra"), {"table": stored.pk},
                               order_by="number")
        none = reads.json_rows(Deal, ("record",), {"table": 0}, order_by="number")
        keys = reads.keys(Deal, SheetEvent)
        found = reads.send()
        deal_key, entry_key = found[keys]
    assert found[empty] == [] and found[none] == []
    assert found[rows] == [list(row) for row in Deal.objects.filter(table=stored)
                           .order_by("number").values_list("record", "scores", "extra")]
    assert deal_key > max(Deal.objects.values_list("pk", flat=True))
    later = Deal.objects.create(table=stored, number=3, record={}, scores=[0, 0, 0])
    assert later.pk > deal_key and entry_key >= 1
    if connection.vendor == "postgresql":  # a field that JSON would not give back alike
        with pytest.raises(ValueError, match="JSON fields"):
            Reads().json_rows(Deal, ("number",), {"table": stored.pk}, order_by="number")
