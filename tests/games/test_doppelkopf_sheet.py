"""A Doppelkopf sheet's "n of m" and its blank rows (games.md 8.1): annulled games and the
time-up marker are no games of the round, so the count never passes the round's games;
after time up the round is the normal games played plus every Pflichtsolo."""

from games.engines import DealContext, get_engine
from games.presentation import presentation_of

ENGINE = get_engine("doppelkopf")
RULES = ENGINE.options({})
NORMAL = {"game": "normal", "re": [1, 2], "re_points": 130}
ANNULLED = {"game": "annulled", "penalties": [{"seat": 2, "kind": "serious"}]}


def solo(seat):
    return {"game": "solo_herz", "re": [seat], "re_points": 130}


def progress(records, players=4, rules=RULES):
    validated = []
    for number, record in enumerate(records, start=1):
        ctx = DealContext(number, players, rules, previous=tuple(validated))
        validated.append(ENGINE.validate_deal(record, ctx))
    return (ENGINE.sheet_progress(validated, players, rules),
            ENGINE.sheet_complete(validated, players, rules))


def test_a_round_with_an_annulled_game_counts_24_of_24():
    records = [NORMAL] * 5 + [ANNULLED] + [solo(1), solo(2), solo(3), solo(4)] + [NORMAL] * 15
    assert progress(records[:6]) == ((5, 24), False)
    assert progress(records) == ((24, 24), True)  # 25 rows, 24 games


def test_time_up_shortens_the_round_to_the_games_played_and_the_pflichtsoli():
    records = [NORMAL] * 10 + [solo(2)] + [{"game": "time_up"}]
    assert progress(records) == ((11, 14), False)
    # the vorgeführte Pflichtsoli follow (seat 3 deals: 4, then 1, then 3)
    assert progress(records + [solo(4), solo(1), solo(3)]) == ((14, 14), True)
    # time up first: only the four Pflichtsoli are the round
    assert progress([{"game": "time_up"}]) == ((0, 4), False)


def test_without_pflichtsoli_and_at_a_5_table():
    rules = ENGINE.options({"compulsory_solos": False})
    assert progress([NORMAL] * 3 + [{"game": "time_up"}], rules=rules) == ((3, 3), True)
    five = [{"game": "normal", "re": [2, 3], "re_points": 130}]
    assert progress(five, players=5) == ((1, 30), False)


def test_the_other_games_count_every_row():
    skat = get_engine("skat")
    rules = skat.options({"series_deals_3": 3})
    assert skat.sheet_progress([{"passed": True}], 3, rules) == (1, 3)


def test_a_blank_spielliste_has_a_usable_row_for_every_game():
    """The first dealer is known; later ones follow from what is played (a Pflichtsolo
    keeps the dealer), so the rows leave the dealer to be written in, and there is a row
    more per seat for annulled games."""
    shown = presentation_of("doppelkopf")
    state = {"seats": [{"seat": s} for s in range(1, 5)], "rules": RULES}
    rows = shown.blank_rows(state)
    assert len(rows) == 24 + 4
    assert rows[0] == {"number": 1, "dealer": 1, "cards": None}
    assert all(r["dealer"] is None for r in rows[1:])
    assert [str(c) for c in shown.sheet_columns_after] == ["Pflichtsolo"]
    skat = presentation_of("skat")
    skat_state = {"seats": [{"seat": s} for s in range(1, 4)],
                  "rules": get_engine("skat").options({"series_deals_3": 6})}
    assert [r["dealer"] for r in skat.blank_rows(skat_state)] == [1, 2, 3, 1, 2, 3]
