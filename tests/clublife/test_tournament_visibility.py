"""An unpublished tournament is seen only by those who direct it — its directors, its
club's admins and superusers — wherever it shows: a player's profile (API and page),
the club's evenings, the tournament lists, the exports and the board. Staff of another
club, or staff of no club, see what the public sees (issue: unpublished tournaments leaked
through player profiles). One rule decides: ``tournaments.policies.can_see_tournament``
for one tournament and ``visible_tournaments`` for lists, and the two agree."""

import pytest
from django.test import Client

from tests.clublife.helpers import day, play_evening
from tests.conftest import token_client
from tests.factories import ClubFactory, PlayerFactory, StaffFactory, TournamentFactory
from tournaments.models import Tournament
from tournaments.policies import can_see_tournament, visible_tournaments

pytestmark = pytest.mark.django_db


@pytest.fixture
def club_b(db):
    return ClubFactory(name="Club B")


@pytest.fixture
def director_b(club_b):
    user = StaffFactory(username="director-b")
    club_b.admins.add(user)
    return user


@pytest.fixture
def superuser(db):
    return StaffFactory(username="root", is_superuser=True)


@pytest.fixture
def hidden(club_b, director_b):
    """A club evening of club B, played and ranked, then unpublished; and its winner."""
    winner, *others = (PlayerFactory(club=club_b) for _ in range(3))
    evening = play_evening(club_b, director_b, day(1),
                           {winner: 120, others[0]: 50, others[1]: 40})
    Tournament.objects.filter(pk=evening.pk).update(published=False, name="Geheimer Abend")
    evening.refresh_from_db()
    return evening, winner


@pytest.fixture
def users(director, outsider, director_b, superuser):
    """director: runs club A (another club); outsider: staff of no club."""
    return {"director of another club": director, "staff of no club": outsider,
            "anonymous": None, "its club's admin": director_b, "superuser": superuser}


SEES = {"director of another club": False, "staff of no club": False, "anonymous": False,
        "its club's admin": True, "superuser": True}


def api_client(user):
    from rest_framework.test import APIClient

    return APIClient() if user is None else token_client(user)


def page_client(user):
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


@pytest.mark.parametrize("who", list(SEES))
def test_the_profile_api_shows_an_unpublished_tournament_only_to_who_directs_it(
        who, users, hidden):
    evening, winner = hidden
    resp = api_client(users[who]).get(f"/api/v1/players/{winner.pk}/profile/")
    if SEES[who]:
        (event,) = resp.json()["events"]
        assert (event["tournament"], event["rank"], event["score"]) == (evening.pk, 1, 120)
        assert resp.json()["games"][0]["events"] == 1
    elif users[who] is None:
        assert resp.status_code == 404  # no published event: the player is not told
    else:
        assert resp.status_code == 200
        body = resp.json()
        assert body["events"] == [] and body["games"] == []
        assert "Geheimer Abend" not in resp.content.decode()


@pytest.mark.parametrize("who", list(SEES))
def test_the_profile_page_shows_an_unpublished_tournament_only_to_who_directs_it(
        who, users, hidden):
    _evening, winner = hidden
    resp = page_client(users[who]).get(f"/clubs/players/{winner.pk}/")
    if SEES[who]:
        assert resp.status_code == 200 and "Geheimer Abend" in resp.content.decode()
    elif users[who] is None:
        assert resp.status_code == 404
    else:
        assert resp.status_code == 200 and "Geheimer Abend" not in resp.content.decode()


@pytest.mark.parametrize("who", list(SEES))
def test_exports_and_board_of_an_unpublished_tournament_only_for_who_directs_it(
        who, users, hidden):
    evening, _winner = hidden
    pages, api = page_client(users[who]), api_client(users[who])
    answers = [
        pages.get(f"/clubs/tournaments/{evening.pk}/standings.csv").status_code,
        pages.get(f"/p/{evening.slug}/print/").status_code,
        pages.get(f"/p/{evening.slug}/").status_code,
        pages.get(f"/p/{evening.slug}/standings/").status_code,
        api.get(f"/api/v1/tournaments/{evening.pk}/standings/csv/").status_code,
        api.get(f"/api/v1/tournaments/{evening.pk}/standings/").status_code,
        api.get(f"/api/v1/tournaments/{evening.pk}/").status_code,
    ]
    assert answers == ([200] * 7 if SEES[who] else [404] * 7)


def test_a_board_etag_does_not_answer_304_for_a_hidden_tournament(users, hidden):
    evening, _winner = hidden
    url = f"/p/{evening.slug}/standings/"
    etag = page_client(users["its club's admin"]).get(url)["ETag"]
    resp = page_client(users["staff of no club"]).get(url, HTTP_IF_NONE_MATCH=etag)
    assert resp.status_code == 404


@pytest.mark.parametrize("who", list(SEES))
def test_club_evenings_and_tournament_lists_follow_the_same_rule(who, users, hidden, club_b):
    evening, _winner = hidden
    shown = SEES[who]
    api = api_client(users[who])
    evenings = api.get(f"/api/v1/clubs/{club_b.pk}/evenings/").json()["results"]
    assert (evening.pk in [e["id"] for e in evenings]) is shown
    listed = api.get("/api/v1/tournaments/").json()["results"]
    assert (evening.pk in [t["id"] for t in listed]) is shown
    page = page_client(users[who]).get(f"/clubs/{club_b.slug}/")
    assert (evening.pk in [t.pk for t in page.context["evenings"]]) is shown


def test_the_merge_page_does_not_name_a_tournament_its_user_may_not_see(director, hidden,
                                                                         club, superuser):
    """A guest whom club A's director entered also played club B's unpublished evening:
    the merge counts it but does not name it."""
    evening, _winner = hidden
    from tournaments.models import Participant

    guest = PlayerFactory(club=None, name="Gast", created_by=director)
    Participant.objects.create(tournament=evening, player=guest, start_number=99)
    keep = PlayerFactory(club=club)
    url = f"/clubs/players/{keep.pk}/merge/?remove={guest.pk}"
    html = page_client(director).get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Geheimer Abend" not in html
    assert "1 tournament with its results" in html
    assert "(1 unpublished tournament you do not direct is not named)" in html
    german = page_client(director).get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "das Sie nicht leiten, wird nicht genannt" in german
    assert "Geheimer Abend" in page_client(superuser).get(url).content.decode()


def test_the_filter_and_the_test_of_one_tournament_agree(users, hidden, club, club_b,
                                                          director):
    """``visible_tournaments`` (lists) and ``can_see_tournament`` (one tournament) give
    the same answer for every user and every kind of tournament."""
    mine_unpublished = TournamentFactory(club=club, published=False)
    directed_elsewhere = TournamentFactory(club=club_b, published=False)
    directed_elsewhere.directors.add(director)
    clubless = TournamentFactory(club=None, published=False)
    TournamentFactory(club=club_b, published=True)
    plain = StaffFactory(username="plain", is_staff=False)
    everyone = {**users, "a user who is not staff": plain}
    for who, user in everyone.items():
        listed = set(Tournament.objects.filter(visible_tournaments(user))
                     .values_list("pk", flat=True))
        judged = {t.pk for t in Tournament.objects.all() if can_see_tournament(user, t)}
        assert listed == judged, who
    mine = set(Tournament.objects.filter(visible_tournaments(director))
               .values_list("pk", flat=True))
    assert {mine_unpublished.pk, directed_elsewhere.pk} <= mine
    assert clubless.pk not in mine and hidden[0].pk not in mine
