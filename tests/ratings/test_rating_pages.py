"""The ratings' pages: leaderboards per game and club, the history on the player's
profile and personal page, the club page's links (through the page panels)."""

import pytest
from django.utils import timezone

from ratings.services import ratings_recompute
from tests.factories import ParticipantFactory, PlayerFactory, StaffFactory, TournamentFactory
from tests.ratings.helpers import day, play_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def rated(club):
    boss = StaffFactory(is_superuser=True)
    players = [PlayerFactory(club=club, name=f"Anna Berger-Oberhuber {n}") for n in range(6)]
    for n in range(3):
        play_event(boss, players, date=day(n), club=club, seed=n,
                   scores={p.pk: 200 - 20 * i for i, p in enumerate(players)})
    ratings_recompute(game="skat")
    return players


@pytest.mark.parametrize("language, heading", [("de", "Wertungszahlen"), ("en", "Ratings")])
def test_the_leaderboard_page_in_both_languages(client, club, rated, language, heading):
    resp = client.get(f"/ratings/skat/{club.slug}/?min_sheets=1",
                      HTTP_ACCEPT_LANGUAGE=language)
    assert resp.status_code == 200
    html = resp.content.decode()
    assert heading in html and rated[0].name.split()[0] in html
    assert html.index(f"/clubs/players/{rated[0].pk}/") < html.index(
        f"/clubs/players/{rated[5].pk}/")  # best first


def test_the_default_minimum_hides_players_with_few_sheets(client, rated):
    html = client.get("/ratings/skat/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Nobody has played enough rated sheets yet." in html


@pytest.mark.parametrize("url", ["/ratings/poker/", "/ratings/skat/no-such-club/",
                                 "/ratings/skat/?min_sheets=-1", "/ratings/skat/?min_sheets=x"])
def test_unknown_games_clubs_and_bad_minimums_are_404(client, db, url):
    assert client.get(url).status_code == 404


def test_the_profile_and_the_personal_page_show_the_history(client, club, rated):
    html = client.get(f"/clubs/players/{rated[0].pk}/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Wertungszahl" in html and "<svg" in html and "rating-chart" in html
    today = TournamentFactory(club=club, date=timezone.localdate(), published=True)
    me = ParticipantFactory(tournament=today, player=rated[0])
    page = client.get(f"/me/{me.personal_token}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "My rating" in page and "rating-chart" in page


def test_an_unrated_player_has_no_rating_panel(client, club, rated):
    newcomer = PlayerFactory(club=club)
    today = TournamentFactory(club=club, date=timezone.localdate(), published=True)
    me = ParticipantFactory(tournament=today, player=newcomer)
    page = client.get(f"/me/{me.personal_token}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "My rating" not in page


def test_the_club_page_links_its_leaderboard(client, club, db):
    html = client.get(f"/clubs/{club.slug}/").content.decode()
    assert f"/ratings/{club.default_game}/{club.slug}/" in html


def test_the_leaderboard_pages_queries_do_not_grow_with_players(
        client, club, django_assert_max_num_queries):
    boss = StaffFactory(is_superuser=True)
    players = [PlayerFactory(club=club) for _n in range(8)]
    play_event(boss, players[:3], date=day(0), club=club)
    ratings_recompute(game="skat")
    url = f"/ratings/skat/{club.slug}/?min_sheets=0"
    client.get(url)
    with django_assert_max_num_queries(8) as few:
        client.get(url)
    play_event(boss, players, date=day(1), club=club, rounds=2)
    ratings_recompute(game="skat")
    with django_assert_max_num_queries(len(few.captured_queries)):
        assert client.get(url).content.decode().count("/clubs/players/") == 8
