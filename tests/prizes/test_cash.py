"""The cash report without a database (games.md §6): fees, table money, prizes, balance."""

import datetime as dt

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engines import EngineInternalError
from prizes.cash import (
    cash_report,
    date_de,
    euros,
    fee_changes,
    fee_rows,
    season_cash,
    season_csv_rows,
    tournament_csv_rows,
)
from prizes.payout import check_prize_config, payouts

UTC = dt.UTC
ANNOUNCED = dt.datetime(2026, 11, 1, 12, 0, tzinfo=UTC)
START = dt.datetime(2026, 11, 21, 18, 0, tzinfo=UTC)
AFTER_ROUND_1 = dt.datetime(2026, 11, 21, 20, 15, tzinfo=UTC)
DAY = dt.date(2026, 11, 21)


def people(n, **extra):
    return [{"participant": i, "name": f"P{i}", "start_number": i, **extra}
            for i in range(1, n + 1)]


def fees(*events):
    return [{"at": at, "entry_fee_cents": cents} for at, cents in events]


@pytest.mark.parametrize(("cents", "text"), [
    (0, "0,00"), (5, "0,05"), (-5, "-0,05"), (100, "1,00"), (123456, "1234,56"),
    (-120_000, "-1200,00"), (10_000_000_000, "100000000,00"),
])
def test_euros_as_a_german_treasurer_reads_them(cents, text):
    assert euros(cents) == text


def test_dates_in_german_order():
    assert date_de(DAY) == "21.11.2026"
    assert date_de(START) == "21.11.2026"
    assert date_de(None) == ""


def test_every_paying_participant_pays_the_fee():
    rows = fee_rows(people(2) + [{"participant": 3, "name": "Gast", "start_number": 3,
                                  "paying": False}],
                    fees((ANNOUNCED, 1000)), first_round_at=START)
    assert [(r["kind"], r["participant"], r["amount_cents"], r["at"]) for r in rows] == [
        ("fee", 1, 1000, START), ("fee", 2, 1000, START)]


def test_a_fee_changed_before_the_first_round_just_replaces_it():
    events = fees((ANNOUNCED, 1000), (START - dt.timedelta(hours=1), 1200))
    rows = fee_rows(people(2), events, first_round_at=START)
    assert [(r["kind"], r["amount_cents"]) for r in rows] == [("fee", 1200), ("fee", 1200)]
    assert fee_changes(events, START) == []


def test_a_fee_changed_after_the_first_round_is_recorded_and_shown():
    events = fees((ANNOUNCED, 1000), (AFTER_ROUND_1, 1200))
    report = cash_report(participants=people(3), fee_events=events, first_round_at=START)
    assert report["fees_cents"] == 3 * 1200
    assert report["fee_changes"] == [{"at": AFTER_ROUND_1, "from_cents": 1000,
                                      "to_cents": 1200}]
    assert [(r["kind"], r["participant"], r["amount_cents"], r["at"])
            for r in report["rows"]] == [
        ("fee", 1, 1000, START), ("fee", 2, 1000, START), ("fee", 3, 1000, START),
        ("fee_change", 1, 200, AFTER_ROUND_1), ("fee_change", 2, 200, AFTER_ROUND_1),
        ("fee_change", 3, 200, AFTER_ROUND_1)]


def test_a_lowered_fee_is_a_refund_and_a_late_entry_pays_the_fee_of_his_day():
    events = fees((ANNOUNCED, 1000), (AFTER_ROUND_1, 800))
    late = {"participant": 9, "name": "Spät", "start_number": 9,
            "joined_at": AFTER_ROUND_1 + dt.timedelta(minutes=5)}
    between = {"participant": 8, "name": "Mitte", "start_number": 8,
               "joined_at": START + dt.timedelta(minutes=30)}
    rows = fee_rows([*people(1), between, late], events, first_round_at=START)
    assert [(r["kind"], r["participant"], r["amount_cents"]) for r in rows] == [
        ("fee", 1, 1000), ("fee_change", 1, -200), ("fee", 8, 1000), ("fee_change", 8, -200),
        ("fee", 9, 800)]
    assert rows[4]["at"] == late["joined_at"]


def test_before_the_first_round_the_latest_fee_counts():
    events = fees((ANNOUNCED, 1000), (ANNOUNCED + dt.timedelta(days=1), 1500))
    rows = fee_rows(people(1), events, first_round_at=None)
    assert [(r["kind"], r["amount_cents"], r["at"]) for r in rows] == [
        ("fee", 1500, ANNOUNCED + dt.timedelta(days=1))]
    assert fee_changes(events, None) == []


def test_no_fee_no_fee_rows():
    assert fee_rows(people(3), [], first_round_at=START) == []


def test_the_report_balances_fees_and_table_money_against_prizes():
    config = check_prize_config({"entry_fee_cents": 1000, "payout_percent": 90,
                                 "places_percent": [60, 40]})
    standings = [{"participant": p, "start_number": p, "rank": p, "name": f"P{p}"}
                 for p in (1, 2, 3)]
    prize_list = payouts(config, standings, fees_cents=3000)
    report = cash_report(
        participants=people(3), fee_events=fees((ANNOUNCED, 1000)), first_round_at=START,
        table_money=[{"participant": 1, "name": "P1", "start_number": 1, "amount_cents": 150},
                     {"participant": 2, "name": "P2", "start_number": 2, "amount_cents": 0},
                     {"participant": 3, "name": "P3", "start_number": 3, "amount_cents": 450}],
        prizes=prize_list["payouts"], date=DAY)
    assert (report["fees_cents"], report["table_money_cents"], report["prizes_cents"],
            report["balance_cents"]) == (3000, 600, 2700, 900)
    assert [(r["kind"], r["participant"], r["amount_cents"]) for r in report["rows"][3:]] == [
        ("table_money", 1, 150), ("table_money", 3, 450), ("prize", 1, -1620),
        ("prize", 2, -1080)]


def test_a_negative_amount_is_a_caller_bug():
    with pytest.raises(EngineInternalError):
        cash_report(participants=[], fee_events=[], first_round_at=None,
                    table_money=[{"participant": 1, "amount_cents": -5}])


def test_the_tournament_csv_in_german_euros():
    report = cash_report(
        participants=people(2), fee_events=fees((ANNOUNCED, 1000), (AFTER_ROUND_1, 900)),
        first_round_at=START,
        table_money=[{"participant": 2, "name": "P2", "start_number": 2, "amount_cents": 250}],
        prizes=[{"participant": 1, "name": "P1", "start_number": 1, "amount_cents": 1234}],
        date=DAY)
    german = {"Entry fee": "Startgeld", "Total": "Summe"}
    lines = tournament_csv_rows(report, lambda s: german.get(s, s))
    assert lines == [
        ["Date", "Entry", "Start number", "Name", "In (€)", "Out (€)"],
        ["21.11.2026", "Startgeld", "1", "P1", "10,00", ""],
        ["21.11.2026", "Startgeld", "2", "P2", "10,00", ""],
        ["21.11.2026", "Entry fee change", "1", "P1", "", "1,00"],
        ["21.11.2026", "Entry fee change", "2", "P2", "", "1,00"],
        ["21.11.2026", "Table money", "2", "P2", "2,50", ""],
        ["21.11.2026", "Prize", "1", "P1", "", "12,34"],
        ["", "Summe", "", "", "22,50", "14,34"],
        ["", "Balance", "", "", "8,16", ""],
    ]
    assert report["balance_cents"] == 1800 + 250 - 1234


def test_a_season_sums_its_tournaments_by_date():
    def report(fee, money, prizes):
        return {"fees_cents": fee, "table_money_cents": money, "prizes_cents": prizes,
                "balance_cents": fee + money - prizes}
    season = season_cash([
        {"tournament": 2, "name": "Preisskat", "date": dt.date(2026, 12, 5),
         "report": report(40_000, 0, 40_000)},
        {"tournament": 1, "name": "Clubabend", "date": dt.date(2026, 11, 7),
         "report": report(0, 1_250, 0)},
        {"tournament": 3, "name": "Undatiert", "date": None, "report": report(500, 0, 700)},
    ])
    assert [r["tournament"] for r in season["rows"]] == [1, 2, 3]
    assert (season["fees_cents"], season["table_money_cents"], season["prizes_cents"],
            season["balance_cents"]) == (40_500, 1_250, 40_700, 1_050)
    assert season_csv_rows(season) == [
        ["Date", "Tournament", "Entry fees (€)", "Table money (€)", "Prizes (€)",
         "Balance (€)"],
        ["07.11.2026", "Clubabend", "0,00", "12,50", "0,00", "12,50"],
        ["05.12.2026", "Preisskat", "400,00", "0,00", "400,00", "0,00"],
        ["", "Undatiert", "5,00", "0,00", "7,00", "-2,00"],
        ["", "Total", "405,00", "12,50", "407,00", "10,50"],
    ]


def test_an_empty_season():
    assert season_cash([]) == {"fees_cents": 0, "table_money_cents": 0, "prizes_cents": 0,
                               "balance_cents": 0, "rows": []}


# --------------------------------------------------------------------------- properties

moments = st.integers(0, 10_000).map(lambda m: ANNOUNCED + dt.timedelta(minutes=m))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(moments, st.integers(0, 100_000)), min_size=1, max_size=6),
       st.one_of(st.none(), moments),
       st.lists(st.tuples(st.booleans(), st.one_of(st.none(), moments)), max_size=12))
def test_every_paying_participant_ends_up_paying_the_current_fee(events, start, entries):
    events = fees(*events)
    current = sorted(events, key=lambda e: e["at"])[-1]  # equal moments: the later entry
    participants = [{"participant": i, "name": "", "start_number": i, "paying": paying,
                     "joined_at": joined} for i, (paying, joined) in enumerate(entries)]
    report = cash_report(participants=participants, fee_events=events, first_round_at=start)
    paying = sum(1 for paying, _ in entries if paying)
    assert report["fees_cents"] == paying * current["entry_fee_cents"]
    assert report["balance_cents"] == sum(r["amount_cents"] for r in report["rows"])
    for change in report["fee_changes"]:
        assert start is not None and change["at"] > start
