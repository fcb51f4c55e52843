"""A deal in words, as the paper list's game column reads, in German and English."""

import pytest
from django.utils import translation

from games.presentation import presentation_of
from games.words import deal_in_words


@pytest.mark.parametrize("game,record,de,en", [
    ("doppelkopf", {"game": "normal", "re": [1, 3], "re_points": 131,
                    "announcements": {"re": "no90", "kontra": None}},
     "Normalspiel, Re: Platz 1 + 3, Re 131 Augen, Re-Partei: keine 90",
     "Normal game, Re: seat 1 + 3, Re 131 Augen, Re party: keine 90"),
    ("doppelkopf", {"game": "solo_damen", "re": [2], "value": -3},
     "Damensolo, Re: Platz 2, Spielwert \u22123", "Damen solo, Re: seat 2, value \u22123"),
    ("doppelkopf", {"game": "time_up"}, "Zeit abgelaufen", "Time up"),
    ("skat", {"passed": True}, "eingepasst", "passed"),
    ("skat", {"passed": True, "ramsch": True, "points": [60, 40, 20]}, "Ramsch", "Ramsch"),
    ("skat", {"declarer": 1, "game": "clubs", "matadors": 2, "hand": True, "won": True},
     "Kreuz mit 2, Hand, gewonnen", "Clubs with 2, hand, won"),
    ("skat", {"declarer": 2, "game": "grand", "matadors": -3, "won": False, "schneider": True},
     "Grand ohne 3, Schneider, verloren", "Grand without 3, Schneider, lost"),
    ("skat", {"declarer": 3, "game": "hearts", "matadors": 1, "hand": True,
              "schneider_announced": True, "schneider": True, "won": True},
     "Herz mit 1, Hand, Schneider angesagt, Schneider, gewonnen",
     "Hearts with 1, hand, Schneider announced, Schneider, won"),
    ("skat", {"declarer": 1, "game": "null", "ouvert": True, "won": False},
     "Null ouvert, verloren", "Null ouvert, lost"),
    ("schafkopf", {"game": "passed"}, "zusammengeworfen", "thrown in"),
    ("schafkopf", {"game": "rufspiel", "declarer": 1, "partner": 2, "called_ace": "acorns",
                   "declarer_points": 64, "laufende": 3},
     "Rufspiel auf die Eichel-Sau, 64 Augen, gewonnen, 3 Laufende",
     "Rufspiel on the Acorn Ace, 64 points, won, 3 Laufende"),
    ("schafkopf", {"game": "solo", "declarer": 3, "suit": "hearts", "declarer_points": 40,
                   "doublings": 1},
     "Herz-Solo, 40 Augen, verloren, 1× gedoppelt", "Hearts Solo, 40 points, lost, doubled 1×"),
    ("schafkopf", {"game": "wenz_tout", "declarer": 2, "declarer_points": 120, "schwarz": True},
     "Wenz Tout, 120 Augen, gewonnen, Schwarz", "Wenz Tout, 120 points, won, Schwarz"),
    ("baptistenskat", {"cards": 5, "trump": "green", "bids": [1, 1, 1, 1], "tricks": [2, 1, 1, 1]},
     "5 Karten, Trumpf Grün", "5 cards, green trump"),
    ("labatarde", {"cards": 5, "trump": "clubs", "bids": [2, 2, 0, 3], "tricks": [1, 2, 1, 1],
                   "mechoune": 2, "choune": True},
     "5 Karten, Trumpf Kreuz, Choune", "5 cards, clubs trump, choune"),
    ("labatarde", {"cards": 5, "trump": "none", "bids": [2, 2, 0, 3], "tricks": [1, 2, 1, 1],
                   "mechoune": None, "choune": False},
     "5 Karten, ohne Trumpf", "5 cards, no trump"),
    ("basler", {"tricks": [7, 5], "last_trick": "A", "card_points": [22, 18]},
     "Stiche 7 : 5, letzter Stich Team A", "tricks 7 : 5, last trick team A"),
])
def test_a_deal_reads_like_the_paper_list(game, record, de, en):
    with translation.override("de"):
        assert deal_in_words(game, record) == de
    with translation.override("en"):
        assert deal_in_words(game, record) == en


@pytest.mark.parametrize("game,record,de,en", [
    ("doppelkopf", {"game": "normal", "re": [1, 3], "re_points": 125,
                    "announcements": {"re": "re", "kontra": "no90"},
                    "extras": {"re": {"fuchs": 1, "doppelkopf": 0, "karlchen": True},
                               "kontra": {"fuchs": 0, "doppelkopf": 2, "karlchen": False}},
                    "penalties": [{"seat": 2, "kind": "minor"},
                                  {"seat": 4, "kind": "deduction", "points": 5}]},
     "Normalspiel, Re: Platz 1 + 3, Re 125 Augen, Re-Partei: Re, Kontra-Partei: keine 90, "
     "Re: Fuchs, Re: Karlchen, Kontra: 2× Doppelkopf, "
     "Strafe für Bert: leichter Verstoß, −3 Punkte, Strafe für Dora: Punktabzug, −5 Punkte",
     "Normal game, Re: seat 1 + 3, Re 125 Augen, Re party: Re, Kontra party: keine 90, "
     "Re: Fuchs, Re: Karlchen, Kontra: 2× Doppelkopf, "
     "penalty for Bert: minor violation, −3 points, penalty for Dora: deduction, −5 points"),
    ("doppelkopf", {"game": "annulled",
                    "penalties": [{"seat": 3, "kind": "serious", "absagen": 1}]},
     "Annulliert, Strafe für Cleo: schwerer Verstoß, −15 Punkte",
     "Annulled, penalty for Cleo: serious violation, −15 points"),
    ("basler", {"tricks": [7, 5], "last_trick": "A", "card_points": [22, 18],
                "melds": [{"seat": 2, "rank": "king", "count": 4}],
                "captured": [{"team": "B", "rank": "ober", "count": 3}]},
     "Stiche 7 : 5, letzter Stich Team A, Weis von Bert: 4 Könige, "
     "in den Stichen von Team B: 3 Ober",
     "tricks 7 : 5, last trick team A, meld of Bert: 4 kings, "
     "in the tricks of team B: 3 Ober"),
])
def test_extras_and_penalties_are_named_in_words(game, record, de, en):
    """What scores beside the game itself — the Sonderpunkte, the melds, each penalty with
    its offender, reason and points — is on the row the players confirm."""
    names = {1: "Anna", 2: "Bert", 3: "Cleo", 4: "Dora"}
    with translation.override("de"):
        assert deal_in_words(game, record, names) == de
    with translation.override("en"):
        assert deal_in_words(game, record, names) == en
    with translation.override("en"):  # without names, the seat
        assert "seat" in deal_in_words(game, record) or "melds" not in record


def test_a_summary_in_words_writes_a_negative_figure_with_the_minus_sign():
    """Totals from paper in the sheet's history: "−48 Spielpunkte", never "-48"."""
    entry = {"game_points": -48, "won": 0, "lost": 1}
    with translation.override("de"):
        assert presentation_of("skat").summary_words("Bert", entry) == (
            "Bert: \u221248 Spielpunkte, 0 gewonnen, 1 verloren")
