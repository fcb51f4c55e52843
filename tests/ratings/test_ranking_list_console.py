"""The console page of a club's ranking lists (``/clubs/<slug>/ranking-lists/``): its
admins create a list (through the API's service), see a bad points list refused next to
its field in their language with nothing stored, delete a list after a confirmation step;
anyone else gets a 404."""

import datetime

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from ratings.list_models import RankingList
from ratings.ranking_lists.services import ranking_list_create
from tests.factories import ClubFactory, StaffFactory


@pytest.fixture
def admin(club):
    user = StaffFactory()
    club.admins.add(user)
    return user


def console(user, language="de"):
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    if user is not None:
        client.force_login(user)
    return client


def form(**changes):
    data = {"name": "Jahresrangliste 2026", "game": "skat", "first": "2026-01-01",
            "last": "2026-12-31", "best_n": "", "min_events": "2", "points_kind": "list",
            "points": "25, 20, 16, 13"}
    data.update(changes)
    return data


def test_an_admin_creates_a_list_with_other_clubs_and_a_points_list(club, admin):
    other = ClubFactory(name="Nachbarn")
    url = f"/clubs/{club.slug}/ranking-lists/"
    client = console(admin)
    page = client.get(url)
    assert page.status_code == 200
    assert "Nachbarn" in page.content.decode()
    resp = client.post(url, form(clubs=[str(other.pk)]), follow=True)
    assert resp.status_code == 200
    ranking = RankingList.objects.get()
    assert (ranking.club, ranking.name, ranking.points, ranking.best_n, ranking.min_events) \
        == (club, "Jahresrangliste 2026", [25, 20, 16, 13], None, 2)
    assert sorted(c.pk for c in ranking.clubs.all()) == sorted([club.pk, other.pk])
    html = resp.content.decode()
    assert f"/rankings/{ranking.pk}/" in html and "Jahresrangliste 2026" in html
    # the field table, best 3, no other club: the club's own tournaments alone
    client.post(url, form(name="Frühjahr", points_kind="field", points="", best_n="3"))
    spring = RankingList.objects.get(name="Frühjahr")
    assert (spring.points, spring.best_n, [c.pk for c in spring.clubs.all()]) \
        == ("field", 3, [club.pk])
    # the club page's panel links the console for the admin, not for anyone else
    assert url in client.get(f"/clubs/{club.slug}/").content.decode()
    assert url not in Client().get(f"/clubs/{club.slug}/").content.decode()


@pytest.mark.parametrize(("language", "points", "says"), [
    ("de", "25, zwanzig, 16", "ganze Zahlen"),
    ("en", "25, twenty, 16", "whole numbers"),
    ("en", "25, 200000", "whole numbers"),  # beyond the bound, 0..100000
    ("de", "", "ganze Zahlen"),
])
def test_a_bad_points_list_is_refused_next_to_its_field(club, admin, language, points,
                                                        says):
    resp = console(admin, language).post(f"/clubs/{club.slug}/ranking-lists/",
                                         form(points=points, last="2025-12-31"))
    assert resp.status_code == 400
    html = resp.content.decode()
    assert says in html
    field = html.index('name="points"')
    error = html.index('class="field-error"', field)
    assert html[field:error].count("<p>") == 0  # the error in the points field's paragraph
    assert not RankingList.objects.exists()


def test_the_service_names_the_last_day_before_the_first(club, admin):
    resp = console(admin, "en").post(f"/clubs/{club.slug}/ranking-lists/",
                                     form(last="2025-12-31"))
    assert resp.status_code == 400
    assert "The last day must not be before the first." in resp.content.decode()
    assert not RankingList.objects.exists()


def test_an_admin_deletes_a_list_after_confirming(club, admin):
    ranking = ranking_list_create(club=club, name="Alt", game="skat",
                                  first=datetime.date(2025, 1, 1),
                                  last=datetime.date(2025, 12, 31))
    client = console(admin)
    url = f"/clubs/{club.slug}/ranking-lists/{ranking.pk}/delete/"
    assert url in client.get(f"/clubs/{club.slug}/ranking-lists/").content.decode()
    confirm = client.get(url)
    assert confirm.status_code == 200 and "Alt" in confirm.content.decode()
    assert client.post(url).status_code == 200  # without the confirmation: asked again
    assert RankingList.objects.filter(pk=ranking.pk).exists()  # asking deletes nothing
    resp = client.post(url, {"confirm": "yes"})
    assert resp.status_code == 302
    assert resp["Location"] == f"/clubs/{club.slug}/ranking-lists/"
    assert not RankingList.objects.exists()
    assert client.post(url, {"confirm": "yes"}).status_code == 404


def test_outsiders_get_404(club, admin):
    ranking = ranking_list_create(club=club, name="Alt", game="skat",
                                  first=datetime.date(2025, 1, 1),
                                  last=datetime.date(2025, 12, 31))
    other = ClubFactory()
    other_admin = StaffFactory()
    other.admins.add(other_admin)
    urls = [f"/clubs/{club.slug}/ranking-lists/",
            f"/clubs/{club.slug}/ranking-lists/{ranking.pk}/delete/"]
    for user in (None, StaffFactory(), other_admin):
        for url in urls:
            assert console(user).get(url).status_code == 404
            assert console(user).post(url, form()).status_code == 404
    # another club's admin can't reach this club's list through his own club's page
    mine = f"/clubs/{other.slug}/ranking-lists/{ranking.pk}/delete/"
    assert console(other_admin).post(mine, {"confirm": "yes"}).status_code == 404
    assert RankingList.objects.count() == 1


def test_the_page_costs_the_same_queries_for_more_lists_and_clubs(
        club, admin, django_assert_max_num_queries):
    client = console(admin)
    url = f"/clubs/{club.slug}/ranking-lists/"

    def add(n):
        for i in range(n):
            ClubFactory()
            ranking_list_create(club=club, name=f"Liste {i}", game="skat",
                                first=datetime.date(2025, 1, 1),
                                last=datetime.date(2025, 12, 31))

    add(1)
    with CaptureQueriesContext(connection) as few:
        assert client.get(url).status_code == 200
    add(12)
    with django_assert_max_num_queries(len(few)):
        html = client.get(url).content.decode()
    assert html.count("/delete/") == 13


@pytest.mark.parametrize("changes", [
    {"clubs": ["99999999999999999999999"]}, {"clubs": ["x"]}, {"first": "2026-02-30"},
    {"min_events": "-1"}, {"best_n": "1" * 40}, {"points_kind": "both"}, {"name": " "},
    {"points": "9" * 3000}, {"name": None, "game": None, "first": None, "last": None},
])
def test_any_bad_input_is_a_400_with_nothing_stored(club, admin, changes):
    data = {key: value for key, value in form(**changes).items() if value is not None}
    resp = console(admin, "en").post(f"/clubs/{club.slug}/ranking-lists/", data)
    assert resp.status_code == 400
    assert 'class="field-error"' in resp.content.decode()
    assert not RankingList.objects.exists()
