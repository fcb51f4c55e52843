"""The statistics section (games.md §11) on the public player page and the player's own
page: figures in words, counts by role and kind in the game's words, the placements
chart as inline SVG; published results only for the public; queries that do not grow
with the history."""

import re

import pytest
from django.utils import timezone

from ratings.services import ratings_recompute
from tests.factories import ParticipantFactory, PlayerFactory, TournamentFactory
from tests.ratings.helpers import GRAND_LOST, SUIT_WON, day, dealt_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def players(club):
    return [PlayerFactory(club=club, name=f"Anna Berger-Oberhuber {n}") for n in range(4)]


def profile(client, player, language="en"):
    return client.get(f"/clubs/players/{player.pk}/",
                      HTTP_ACCEPT_LANGUAGE=language).content.decode()


@pytest.mark.parametrize("language, words", [
    ("en", ["Statistics", "2 sheets with", "Declarer", "Suit games", "as declarer",
            "Mean placement at the table"]),
    ("de", ["Statistik", "2 Listen mit", "Farbspiele", "als Alleinspieler",
            "Mittlere Platzierung am Tisch"]),
])
def test_the_public_page_shows_the_figures_in_words_and_the_chart(client, boss, players,
                                                                  language, words):
    for n in range(2):
        _t, table = dealt_event(boss, players, date=day(n))
    ratings_recompute(game="skat")
    declarer = table.seats.get(seat=2).participant.player
    html = profile(client, declarer, language)
    for word in words:
        assert word in html, word
    assert "insight-chart" in html and "<svg" in html
    assert "None" not in html.split("insight-panel")[1]


def test_the_public_sees_published_sheets_only_the_player_sees_all(client, boss, players,
                                                                   club):
    dealt_event(boss, players, date=day(0))
    dealt_event(boss, players, date=day(1), published=False)
    ratings_recompute(game="skat")
    assert "1 sheet with" in profile(client, players[0])
    today = TournamentFactory(club=club, date=timezone.localdate(), published=True)
    me = ParticipantFactory(tournament=today, player=players[0])
    page = client.get(f"/me/{me.personal_token}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "My statistics" in page and "2 sheets with" in page


def test_a_player_without_a_published_sheet_has_no_section(client, boss, players):
    dealt_event(boss, players, date=day(0), published=False)
    ratings_recompute(game="skat")
    assert "insight-panel" not in profile(client, players[0])


def test_the_pages_queries_do_not_grow_with_the_history(client, boss, players,
                                                        django_assert_max_num_queries):
    dealt_event(boss, players, date=day(0))
    ratings_recompute(game="skat")
    profile(client, players[0])
    with django_assert_max_num_queries(60) as few:
        profile(client, players[0])
    for n in range(1, 5):
        dealt_event(boss, players, date=day(n), records=(SUIT_WON, GRAND_LOST))
    ratings_recompute(game="skat")
    with django_assert_max_num_queries(len(few.captured_queries)):
        profile(client, players[0])


@pytest.mark.parametrize("language, label, gone", [
    ("en", "Average per sheet", ("Mean score per sheet", "Average per series")),
    ("de", "Schnitt je Liste", ("Mittlere Punktzahl", "Schnitt je Serie"))])
def test_the_average_score_is_said_once_with_one_label_and_one_format(client, boss, players,
                                                                     club, language, label,
                                                                     gone):
    """The public page says the average per sheet in its per-game table only (with what
    events and sheets count), the own page — which has no such table — in the section;
    both with one label and one decimal."""
    for n in range(2):
        dealt_event(boss, players, date=day(n))
    ratings_recompute(game="skat")
    html = profile(client, players[0], language)
    panel = html.split("insight-panel")[1]
    assert label in html and label not in panel
    assert ("Sheets" if language == "en" else "Listen") in html.split("insight-panel")[0]
    today = TournamentFactory(club=club, date=timezone.localdate(), published=True)
    me = ParticipantFactory(tournament=today, player=players[0])
    own = client.get(f"/me/{me.personal_token}/",
                     HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert re.search(re.escape(label) + r": \u2212?\d+[.,]\d\.", own), own
    for page in (html, own):
        for word in gone:
            assert word not in page
