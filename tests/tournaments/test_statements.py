"""The hand-written SQL of the tournaments app (``tournaments.statements``) gives what the
ORM would: each statement run on the database of the pass — SQLite in the quick start's
pass, PostgreSQL in CI's second. (The lock, ``lock_table``, and ``Writes`` are checked
in ``test_one_write``.)"""

import json

import pytest
from django.db import transaction

from tests.factories import ParticipantFactory, TournamentFactory
from tournaments.models import (
    Deal,
    Participant,
    Seat,
    SheetEvent,
    StandingsPage,
    Table,
    Tournament,
)
from tournaments.services import round_close, round_draw
from tournaments.statements import (
    Writes,
    insert_rows,
    next_keys,
    participant_seats,
    related,
    seats_update,
    select,
    select_in,
)


@pytest.mark.django_db
def test_the_seats_update_writes_each_seats_score_and_figures_and_no_other_seat(
        table, other_table):
    seats = sorted(s["seat"] for s in table["seats"])
    others = {s.pk: (s.score, s.figures) for s in Seat.objects.filter(table_id=other_table["id"])}
    totals = [{"seat": n, "score": 10 * n - 25, "won": n, "note": "ä"} for n in seats]
    with transaction.atomic():
        writes = Writes()
        seats_update(table["id"], totals, writes)
        writes.send()
    stored = {s.seat: (s.score, s.figures) for s in Seat.objects.filter(table_id=table["id"])}
    assert stored == {n: (10 * n - 25, {"won": n, "note": "ä"}) for n in seats}
    assert {s.pk: (s.score, s.figures)
            for s in Seat.objects.filter(table_id=other_table["id"])} == others


@pytest.mark.django_db
def test_the_seats_update_of_no_totals_writes_nothing(table):
    writes = Writes()
    seats_update(table["id"], [], writes)
    assert len(writes) == 0


@pytest.mark.django_db
def test_keys_taken_ahead_are_new_ascending_and_not_taken_again(table):
    with transaction.atomic():
        first = next_keys(SheetEvent, 3)
        second = next_keys(SheetEvent, 2)
    assert first == sorted(first) and len(set(first + second)) == 5
    assert min(second) > max(first)
    assert next_keys(SheetEvent, 0) == []
    stored = Table.objects.get(pk=table["id"])
    with transaction.atomic():
        [key] = next_keys(SheetEvent, 1)
        SheetEvent.objects.create(pk=key, table=stored, action=SheetEvent.Action.DEAL_CREATE)
        assert min(next_keys(SheetEvent, 1)) > key


@pytest.mark.django_db
def test_rows_inserted_together_read_back_as_the_orm_reads_them(table):
    tournament_id = Table.objects.select_related("round").get(pk=table["id"]).round.tournament_id
    document = json.dumps([{"participant": 1, "name": "Jörg \"J\" 50 %"}])
    insert_rows(StandingsPage, ("tournament", "round_number", "page", "rows"),
                [(tournament_id, 0, 0, document), (tournament_id, 1, 3, "[]")])
    stored = {(p.round_number, p.page): p.rows
              for p in StandingsPage.objects.filter(tournament_id=tournament_id)}
    assert stored == {(0, 0): document, (1, 3): "[]"}


@pytest.mark.django_db
def test_the_selects_answer_as_values_list_does(table, other_table):
    stored = Table.objects.get(pk=table["id"])
    for number in (2, 1):
        Deal.objects.create(table=stored, number=number, record={"n": number, "s": "ä"},
                            scores=[number, 0, -number], extra={"x": None})
    assert select(Deal, ("number", "record", "scores", "extra"), {"table": stored.pk},
                  order_by="number") == [
        list(row) for row in Deal.objects.filter(table=stored).order_by("number")
        .values_list("number", "record", "scores", "extra")]
    tables = [table["id"], other_table["id"]]
    names = ("table", "seat", "participant__player__name", "score")
    assert select_in(Seat, names, "table", tables, order_by=("table", "seat")) == [
        list(row) for row in Seat.objects.filter(table__in=tables).order_by("table", "seat")
        .values_list("table", "seat", "participant__player__name", "score")]
    assert select_in(Seat, names, "table", []) == []
    # a nullable key followed: the row stays, with None for what it points to
    seat = Seat.objects.filter(table=stored).select_related("participant").first()
    SheetEvent.objects.create(table=stored, action="deal_create", deal_number=1)
    SheetEvent.objects.create(table=stored, action="deal_create", deal_number=2,
                              participant=seat.participant)
    names = ("deal_number", "participant", "participant__player__name")
    assert select_in(SheetEvent, names, "table", [stored.pk], order_by=("id",)) == [
        list(row) for row in SheetEvent.objects.filter(table=stored).order_by("id")
        .values_list(*names)] == [[1, None, None],
                                  [2, seat.participant_id, seat.participant.player.name]]


def _fields(obj) -> dict:
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields}


@pytest.mark.django_db
def test_a_participants_read_gives_what_the_orm_gives_with_the_latest_round(
        short_skat, table):
    rnd = short_skat.rounds.get()
    Table.objects.filter(round=rnd).update(submitted=True)
    round_close(round_id=rnd.pk)
    round_draw(tournament_id=short_skat.pk, method="random", seed=3)
    later = ParticipantFactory(tournament=short_skat, start_number=99, checked_in=True)
    for participant in Participant.objects.filter(tournament=short_skat):
        for column, value in (("id", participant.pk),
                              ("personal_token", participant.personal_token)):
            found, seats = participant_seats(column, value)
            assert found.tournament.club.pk == short_skat.club_id
            assert found.player.name == participant.player.name
            assert [s.table.round.tournament.pk for s in seats] == [short_skat.pk] * len(seats)
            assert _fields(found) == _fields(participant)
            assert _fields(found.tournament) == _fields(Tournament.objects.get(pk=short_skat.pk))
            orm = list(Seat.objects.filter(participant=participant)
                       .order_by("table__round__number").select_related("table__round"))
            assert [_fields(s) for s in seats] == [_fields(s) for s in orm]
            assert [_fields(s.table) for s in seats] == [_fields(s.table) for s in orm]
            assert [_fields(s.table.round) for s in seats] == [
                _fields(s.table.round) for s in orm]
            assert {s.latest_round for s in seats} <= {2}
            assert len(seats) == (0 if participant.pk == later.pk else 2)
    assert participant_seats("personal_token", "no such token") is None
    assert participant_seats("id", later.pk + 1000) is None


@pytest.mark.django_db
def test_related_loads_what_select_related_loads_a_null_key_as_none(short_skat, table):
    without = TournamentFactory(club=None)
    for tournament in (short_skat, without):
        [found] = related(Tournament, ("club",), "slug", [tournament.slug])
        orm = Tournament.objects.select_related("club").get(pk=tournament.pk)
        assert _fields(found) == _fields(orm)
        assert (found.club and _fields(found.club)) == (orm.club and _fields(orm.club))
    [stored] = related(Table, ("round",), "id", [table["id"]])
    orm = Table.objects.select_related("round").get(pk=table["id"])
    assert (_fields(stored), _fields(stored.round)) == (_fields(orm), _fields(orm.round))
    assert related(Tournament, ("club",), "slug", ["no-such-slug"]) == []
