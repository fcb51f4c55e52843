"""games.md §11 as pure computation (``ratings.insight``): the worked examples I1–I3 and
the statistics of every game from real sheets, scored by the engines."""

from __future__ import annotations

import datetime

import pytest

from games.engines import get_engine
from ratings.insight import SheetRow, sheet_counts, summarize, table_figures
from ratings.skill import NEW, State

DAY = datetime.date(2026, 3, 5)


def rows_of(scores, states=None, *, lower=False, counts=None):
    """Each seat's sheet row at one table."""
    figures = table_figures(scores, states or [NEW] * len(scores), lower_is_better=lower)
    return [SheetRow(DAY, 1, score, placed, expected,
                     **({} if counts is None else {"deals": counts[i + 1].deals,
                                                   "by_role": counts[i + 1].by_role,
                                                   "by_kind": counts[i + 1].by_kind}))
            for i, (score, (placed, expected)) in enumerate(zip(scores, figures, strict=True))]


def test_i1_four_new_players_expect_2_5_and_first_and_last_read_plus_minus_1_5():
    rows = rows_of([120, 80, 40, -10])
    assert [r.expected_placement for r in rows] == [2.5] * 4
    first, *_middle, last = (summarize("skat", [r]) for r in rows)
    assert first["performance"] == 1.5
    assert last["performance"] == -1.5
    assert first["expected_placement_avg"] == 2.5 and first["placement_avg"] == 1


def test_i2_two_tied_first_share_placement_1_and_the_others_are_3_and_4():
    assert [r.placement for r in rows_of([100, 100, 50, 20])] == [1, 1, 3, 4]


def test_lowest_first_where_the_game_ranks_so():
    assert [r.placement for r in rows_of([3, 0, 3, 7], lower=True)] == [2, 1, 2, 4]


def test_a_stronger_field_expects_the_new_player_lower_and_rewards_beating_it():
    strong = State(mu=35.0, sigma=3.0)
    new, *_others = rows_of([150, 20, 10], [NEW, strong, strong])
    assert new.expected_placement > 2.5
    assert summarize("skat", [new])["performance"] > 1


def skat_sheet():
    """A Skat sheet at a table of three: seat 1 declares 3 suit games (won 2) and 1
    grand (lost); seat 2 a null game (won); one deal passed."""
    engine = get_engine("skat")
    deals = [
        {"declarer": 1, "game": "clubs", "matadors": 1, "won": True},
        {"declarer": 1, "game": "hearts", "matadors": -2, "won": True},
        {"declarer": 1, "game": "spades", "matadors": 1, "won": False},
        {"declarer": 1, "game": "grand", "matadors": 1, "won": False},
        {"declarer": 2, "game": "null", "won": True},
        {"passed": True},
    ]
    return engine, engine.score_sheet(deals, 3)


def test_i3_suit_games_and_a_grand_as_declarer_with_won_and_lost():
    engine, sheet = skat_sheet()
    counts = sheet_counts(engine, [d.record for d in sheet.deals], 3, engine.options({}))
    rows = rows_of([t["score"] for t in sheet.totals], counts=counts)
    one = summarize("skat", [rows[0]])
    assert one["by_kind"]["suit"] == {"declared": 3, "won": 2, "lost": 1}
    assert one["by_kind"]["grand"] == {"declared": 1, "won": 0, "lost": 1}
    assert one["by_role"] == {"declarer": {"deals": 4, "won": 2, "lost": 2},
                              "defender": {"deals": 1, "won": 0, "lost": 1}}
    assert one["deals"] == 6
    two = summarize("skat", [rows[1]])
    assert two["by_kind"] == {"null": {"declared": 1, "won": 1, "lost": 0}}
    assert two["by_role"]["defender"] == {"deals": 4, "won": 2, "lost": 2}


def test_skat_dealer_at_a_four_table_is_out_of_the_deal_and_ramsch_counts_by_kind():
    engine = get_engine("skat")
    rules = engine.options({"ramsch": True})
    # deal 1: seat 1 deals and sits out; deal 2: seat 2 deals
    deals = [{"declarer": 2, "game": "diamonds", "matadors": 1, "won": True},
             {"passed": True, "ramsch": True, "points": [60, None, 30, 20],
              "skat_points": 10}]
    sheet = engine.score_sheet(deals, 4, {"ramsch": True})
    counts = sheet_counts(engine, [d.record for d in sheet.deals], 4, rules)
    assert [counts[s].deals for s in (1, 2, 3, 4)] == [1, 1, 2, 2]
    assert counts[1].by_kind == {"ramsch": {"played": 1, "won": 0, "lost": 1}}
    assert counts[3].by_kind == {"ramsch": {"played": 1, "won": 1, "lost": 0}}
    assert counts[2].by_role == {"declarer": {"deals": 1, "won": 1, "lost": 0}}


def test_schafkopf_by_game_as_declarer_or_partner():
    engine = get_engine("schafkopf")
    deals = [
        {"game": "rufspiel", "declarer": 1, "partner": 3, "called_ace": "acorns",
         "declarer_points": 70},
        {"game": "rufspiel", "declarer": 3, "partner": 1, "called_ace": "bells",
         "declarer_points": 40},
        {"game": "wenz", "declarer": 1, "declarer_points": 80},
        {"game": "solo", "declarer": 2, "suit": "hearts", "declarer_points": 61},
        {"game": "passed"},
    ]
    sheet = engine.score_sheet(deals, 4)
    counts = sheet_counts(engine, [d.record for d in sheet.deals], 4, engine.options({}))
    one = counts[1]
    assert one.deals == 5
    assert one.by_kind == {"rufspiel": {"declared": 1, "partner": 1, "won": 1, "lost": 1},
                           "wenz": {"declared": 1, "won": 1, "lost": 0}}
    assert one.by_role == {"declarer": {"deals": 2, "won": 2, "lost": 0},
                           "partner": {"deals": 1, "won": 0, "lost": 1},
                           "opponent": {"deals": 1, "won": 0, "lost": 1}}
    assert counts[4].by_kind == {}
    assert counts[4].by_role == {"opponent": {"deals": 4, "won": 1, "lost": 3}}


def test_doppelkopf_re_kontra_and_solos_by_kind():
    engine = get_engine("doppelkopf")
    deals = [
        {"game": "normal", "re": [1, 3], "re_points": 131},
        {"game": "normal", "re": [2, 4], "re_points": 131},
        {"game": "solo_herz", "re": [1], "re_points": 130},
        {"game": "solo_damen", "re": [2], "re_points": 100},
    ]
    sheet = engine.score_sheet(deals, 4)
    counts = sheet_counts(engine, [d.record for d in sheet.deals], 4, engine.options({}))
    one = counts[1]
    assert one.deals == 4
    assert one.by_role == {"re": {"deals": 1, "won": 1, "lost": 0},
                           "kontra": {"deals": 2, "won": 1, "lost": 1},
                           "solo": {"deals": 1, "won": 1, "lost": 0}}
    assert one.by_kind == {"solo_herz": {"declared": 1, "won": 1, "lost": 0}}
    assert counts[2].by_kind == {"solo_damen": {"declared": 1, "won": 0, "lost": 1}}


def test_doppelkopf_five_table_dealer_sits_out():
    engine = get_engine("doppelkopf")
    deals = [{"game": "normal", "re": [2, 3], "re_points": 131}]
    sheet = engine.score_sheet(deals, 5)
    counts = sheet_counts(engine, [d.record for d in sheet.deals], 5, engine.options({}))
    assert sorted(s for s, c in counts.items() if c.deals == 0) == [1]


@pytest.mark.parametrize("game", ["baptistenskat", "labatarde"])
def test_bid_games_count_bids_met_and_missed_with_no_roles(game):
    engine = get_engine(game)
    rules = engine.options({})
    deals = [{"cards": 5, "trump": "red" if game == "baptistenskat" else "spades",
              "bids": [2, 1, 0, 1], "tricks": [2, 2, 0, 1]}]
    sheet = engine.score_sheet(deals, 4)
    counts = sheet_counts(engine, [d.record for d in sheet.deals], 4, rules)
    assert counts[1].by_role == {}
    assert counts[1].by_kind == {"bid": {"played": 1, "won": 1, "lost": 0}}
    assert counts[2].by_kind == {"bid": {"played": 1, "won": 0, "lost": 1}}
    assert counts[3].by_kind == {"zero": {"played": 1, "won": 1, "lost": 0}}
    first, *_others = rows_of([t["score"] for t in sheet.totals],
                              lower=engine.standing_order == "asc", counts=counts)
    row = summarize(game, [first])
    assert row["sheets"] == 1 and row["deals"] == 1
    assert row["by_kind"] == {"bid": {"played": 1, "won": 1, "lost": 0}}


def test_basler_counts_the_deals_the_team_won():
    engine = get_engine("basler")
    deals = [{"tricks": [7, 5], "last_trick": "A", "card_points": [25, 15]},
             {"tricks": [3, 9], "last_trick": "B", "card_points": [10, 30]}]
    sheet = engine.score_sheet(deals, 4)
    counts = sheet_counts(engine, [d.record for d in sheet.deals], 4, engine.options({}))
    assert counts[1].by_role == {}
    assert counts[1].by_kind == {"team": {"played": 2, "won": 1, "lost": 1}}
    assert counts[3].by_kind == counts[1].by_kind


def test_summary_over_several_sheets_adds_counts_and_keeps_the_series_in_order():
    a = SheetRow(DAY, 1, 100, 1, 2.5, 10, {"declarer": {"deals": 2, "won": 1, "lost": 1}})
    b = SheetRow(DAY + datetime.timedelta(days=7), 2, 40, 3, 2.0, 12,
                 {"declarer": {"deals": 1, "won": 1, "lost": 0}})
    answer = summarize("skat", [a, b])
    assert answer["sheets"] == 2 and answer["deals"] == 22
    assert answer["score_avg"] == 70 and answer["placement_avg"] == 2
    assert answer["expected_placement_avg"] == 2.25 and answer["performance"] == 0.25
    assert answer["by_role"] == {"declarer": {"deals": 3, "won": 2, "lost": 1}}
    assert [s["tournament"] for s in answer["series"]] == [1, 2]


def test_no_sheets_answers_nulls_not_zeroes():
    answer = summarize("skat", [])
    assert answer["sheets"] == 0 and answer["performance"] is None
    assert answer["placement_avg"] is None and answer["series"] == []


def test_every_role_and_kind_an_engine_counts_has_its_words():
    """The pages name each count in the game's words, never by its key."""
    sheets = {
        "skat": (skat_sheet()[1], 3, {}),
        "schafkopf": (get_engine("schafkopf").score_sheet([
            {"game": "rufspiel", "declarer": 1, "partner": 3, "called_ace": "acorns",
             "declarer_points": 70},
            {"game": "wenz", "declarer": 2, "declarer_points": 80}], 4), 4, {}),
        "doppelkopf": (get_engine("doppelkopf").score_sheet([
            {"game": "normal", "re": [1, 3], "re_points": 131},
            {"game": "solo_herz", "re": [1], "re_points": 130}], 4), 4, {}),
        "basler": (get_engine("basler").score_sheet([
            {"tricks": [7, 5], "last_trick": "A", "card_points": [25, 15]}], 4), 4, {}),
    }
    for game, (sheet, players, rules) in sheets.items():
        engine = get_engine(game)
        counts = sheet_counts(engine, [d.record for d in sheet.deals], players,
                              engine.options(rules))
        keys = {key for c in counts.values() for key in (*c.by_role, *c.by_kind)}
        assert keys and keys <= set(engine.INSIGHT_LABELS), (game, keys)
    for game in ("baptistenskat", "labatarde"):
        assert set(get_engine(game).INSIGHT_LABELS) == {"bid", "zero"}
