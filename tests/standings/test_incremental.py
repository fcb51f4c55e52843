"""The incremental standings recompute gives exactly the rows of a full recompute: after
each of a long random run of changes (deals entered, corrected and deleted, summaries,
sheets ended early, a round reopened for corrections, a player withdrawn, a new round
drawn) the stored rows equal those computed from every seat from scratch."""

import random

import pytest
from django.core.management import call_command

from games.engines import EngineUserError
from tournaments.errors import StateConflict
from tournaments.models import Deal, Seat, StandingsOutbox, StandingsPage, Table
from tournaments.recompute import standings_rows
from tournaments.recompute.standings_rows import compute_standings, standings_recompute
from tournaments.selectors import standings_lists
from tournaments.services import (
    Actor,
    deal_correct,
    deal_delete,
    deal_record,
    participant_update,
    round_close,
    round_draw,
    round_reopen,
    round_swap,
    sheet_end,
    sheet_submit,
    summary_record,
)

pytestmark = pytest.mark.django_db


def expected_rows(tournament) -> set[tuple]:
    rows = {(0, r["participant"], r["rank"], r["score"], r["won"], r["lost"],
             r["game_points"], tuple((x["round"], x["score"]) for x in r["rounds"]))
            for r in compute_standings(tournament)}
    for number in tournament.rounds.values_list("number", flat=True):
        rows |= {(number, r["participant"], r["rank"], r["score"], r["won"], r["lost"],
                  r["game_points"], tuple((x["round"], x["score"]) for x in r["rounds"]))
                 for r in compute_standings(tournament, round_number=number)}
    return rows


def stored_rows(tournament) -> set[tuple]:
    return {(number, r["participant"], r["rank"], r["score"], r["won"], r["lost"],
             r["game_points"], tuple((x["round"], x["score"]) for x in r["rounds"]))
            for (_tid, number), rows in standings_lists([tournament]).items()
            for r in rows}


def documents(tournament) -> dict[tuple[int, int], str]:
    return {(number, page): rows for number, page, rows in StandingsPage.objects.filter(
        tournament=tournament).values_list("round_number", "page", "rows")}


def a_deal(rng, table, number):
    players = table.seats.count()
    dealer = (number - 1) % players + 1
    seats = [s for s in range(1, players + 1) if players == 3 or s != dealer]
    if rng.random() < 0.2:
        return {"passed": True}
    return {"declarer": rng.choice(seats), "game": rng.choice(["clubs", "grand"]),
            "matadors": rng.choice([1, 2]), "won": rng.random() < 0.6}


def a_summary(rng, table):
    """At most one game per seat, so the games fit any series."""
    seats = []
    for _ in range(table.seats.count()):
        won, lost = rng.choice([(0, 0), (1, 0), (0, 1)])
        seats.append({"game_points": 24 * won - 48 * lost, "won": won, "lost": lost})
    return seats


def change(rng, tournament, director):
    """One random change through the services; refusals (a closed round, a full sheet)
    are part of the game and change nothing."""
    staff = Actor(user=director)
    tables = list(Table.objects.filter(round__tournament=tournament).select_related("round"))
    table = rng.choice(tables)
    deals = list(Deal.objects.filter(table=table).order_by("number"))
    kind = rng.choices(["enter", "correct", "delete", "summary", "end", "reopen", "withdraw",
                        "close", "swap"], weights=[8, 4, 2, 1, 1, 1, 1, 1, 1])[0]
    if kind == "enter":
        deal_record(table_id=table.pk, number=len(deals) + 1,
                    record=a_deal(rng, table, len(deals) + 1), actor=staff)
    elif kind == "correct" and deals:
        deal = rng.choice(deals)
        deal_correct(table_id=table.pk, number=deal.number,
                     record=a_deal(rng, table, deal.number), actor=staff, if_match=deal.etag)
    elif kind == "delete" and deals:
        deal_delete(table_id=table.pk, number=deals[-1].number, actor=staff,
                    if_match=deals[-1].etag)
    elif kind == "summary":
        summary_record(table_id=table.pk, seats=a_summary(rng, table), actor=staff)
    elif kind == "end" and deals:
        sheet_end(table_id=table.pk, reason="Zeit", actor=staff)
    elif kind == "reopen":
        round_reopen(round_id=table.round_id, actor=staff)
    elif kind == "close":
        for other in table.round.tables.filter(submitted=False):
            sheet_submit(table_id=other.pk, actor=staff)
        round_close(round_id=table.round_id)
    elif kind == "swap":
        a, b = rng.sample(list(Seat.objects.filter(table__round=table.round)
                               .values_list("participant_id", flat=True)), 2)
        round_swap(round_id=table.round_id, a=a, b=b, actor=staff)
    elif kind == "withdraw":
        participant = table.seats.order_by("?").first().participant
        participant_update(participant=participant, withdrawn=not participant.withdrawn)
    return kind


@pytest.mark.parametrize("seed", range(6))
def test_incremental_recompute_equals_a_full_one(short_skat, director, seed, monkeypatch):
    # pages of 3 participants: a table's players spread over several pages, and most
    # pages stay untouched by a change
    monkeypatch.setattr(StandingsPage, "PAGE_SIZE", 3)
    monkeypatch.setattr(standings_rows, "FULL_BATCH_PAGES", 2)  # a full one writes in batches
    rng = random.Random(seed)
    round_draw(tournament_id=short_skat.pk, method="random", seed=seed)
    standings_recompute(tournament_id=short_skat.pk)
    incremental = by_table = 0
    for step in range(40):
        if step == 20:  # a second round: the first is completed and closed first
            for table in Table.objects.filter(round__tournament=short_skat,
                                              submitted=False):
                summary_record(table_id=table.pk, seats=a_summary(rng, table),
                               actor=Actor(user=director))
                sheet_submit(table_id=table.pk, actor=Actor(user=director))
            first = short_skat.rounds.get(number=1)
            if not first.closed:
                round_close(round_id=first.pk)
            for participant in short_skat.participants.filter(withdrawn=True):
                participant_update(participant=participant, withdrawn=False)
            round_draw(tournament_id=short_skat.pk, method="balanced", seed=seed)
        try:
            change(rng, short_skat, director)
        except (EngineUserError, StateConflict):
            pass
        pending = set(StandingsOutbox.objects.filter(tournament=short_skat)
                      .values_list("round_number", flat=True))
        incremental += bool(pending) and None not in pending
        by_table += StandingsOutbox.objects.filter(tournament=short_skat,
                                                   table_id__isnull=False).exists()
        standings_recompute(tournament_id=short_skat.pk)
        assert stored_rows(short_skat) == expected_rows(short_skat), (seed, step)
        # the very documents a full recompute writes, row order and keys included
        stored = documents(short_skat)
        standings_recompute(tournament_id=short_skat.pk, full=True)
        assert documents(short_skat) == stored, (seed, step)
    assert incremental >= 5  # the incremental way was taken, not only the full one
    assert by_table >= 5  # and the tables' way within it


def test_a_full_recompute_can_be_forced(short_skat, director):
    round_draw(tournament_id=short_skat.pk, method="random", seed=1)
    standings_recompute(tournament_id=short_skat.pk)
    StandingsPage.objects.filter(tournament=short_skat).update(rows="[]")
    standings_recompute(tournament_id=short_skat.pk, full=True)
    assert stored_rows(short_skat) == expected_rows(short_skat)


def test_the_command_recomputes_in_full(short_skat, director):
    round_draw(tournament_id=short_skat.pk, method="random", seed=1)
    standings_recompute(tournament_id=short_skat.pk)
    StandingsPage.objects.filter(tournament=short_skat, round_number=0).delete()
    call_command("recompute_standings", "--tournament", str(short_skat.pk))
    assert stored_rows(short_skat) == expected_rows(short_skat)
