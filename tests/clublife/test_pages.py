"""The club pages through the Django test client."""

import pytest
from django.test import Client

from clublife.services.season_rows import season_recompute
from clubs.models import Player
from tests.clublife.helpers import day, play_evening
from tests.factories import PlayerFactory
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin(client, director):
    client.force_login(director)
    return client


@pytest.fixture
def evening(club, director):
    players = [PlayerFactory(club=club, name=n) for n in ("Anna", "Bernd", "Carla")]
    evening = play_evening(club, director, day(1), dict(zip(players, (100, 60, 50),
                                                            strict=True)))
    season_recompute(season_id=club.seasons.get().pk)
    return evening


def test_a_new_club_evening_in_a_few_taps(admin, club):
    members = [PlayerFactory(club=club) for _ in range(5)]
    page = admin.get(f"/clubs/{club.slug}/evenings/new/")
    assert page.status_code == 200
    html = page.content.decode()
    assert all(m.name in html for m in members) and "<label" in html
    assert 'type="date" name="date" value="20' in html  # ISO, as the date input needs
    resp = admin.post(f"/clubs/{club.slug}/evenings/new/", {
        "date": "2026-03-05", "game": "skat", "players": [str(m.pk) for m in members],
        "guests": "Gast Eins\nGast Zwei\n", "method": "random"})
    assert resp.status_code == 302
    evening = Tournament.objects.get(club_evening=True)
    assert resp["Location"] == f"/console/t/{evening.pk}/"
    assert evening.participants.count() == 7 and evening.rounds.count() == 1


def test_an_evening_that_cannot_be_seated_shows_why(admin, club):
    members = [PlayerFactory(club=club) for _ in range(5)]
    resp = admin.post(f"/clubs/{club.slug}/evenings/new/", {
        "date": "2026-03-05", "game": "skat", "players": [str(m.pk) for m in members],
        "method": "random"})
    assert resp.status_code == 400 and 'class="field-error"' in resp.content.decode()
    assert not Tournament.objects.filter(club_evening=True).exists()


def test_outsider_cannot_open_the_admin_pages(client, outsider, club):
    client.force_login(outsider)
    for path in ("evenings/new/", "settings/", "members/", "seasons/2026/table-money/"):
        assert client.get(f"/clubs/{club.slug}/{path}").status_code == 403, path


def test_anonymous_is_sent_to_the_login(client, club):
    resp = client.get(f"/clubs/{club.slug}/members/")
    assert resp.status_code == 302 and "login" in resp["Location"]


def test_club_and_season_pages_are_public(client, club, evening):
    assert club.name in client.get("/clubs/").content.decode()
    html = client.get(f"/clubs/{club.slug}/").content.decode()
    assert f"/clubs/{club.slug}/seasons/2026/?game=skat" in html
    season = client.get(f"/clubs/{club.slug}/seasons/2026/?game=skat")
    text = season.content.decode()
    assert season.status_code == 200
    assert text.index("Anna") < text.index("Bernd") < text.index("Carla")
    assert client.get(f"/clubs/{club.slug}/seasons/2026/?game=poker").status_code == 404
    assert client.get("/clubs/no-such-club/").status_code == 404


def test_admin_sets_how_the_season_counts(admin, club, evening):
    resp = admin.post(f"/clubs/{club.slug}/seasons/2026/?game=skat",
                      {"best_n": "3", "min_evenings": "2"})
    assert resp.status_code == 302
    assert club.seasons.get().min_evenings == 2


def test_member_import_preview_then_import(admin, club):
    text = "Name;Mitgliedsnummer\nAnna;1\nBernd;2\n"
    preview = admin.post(f"/clubs/{club.slug}/members/", {"csv": text})
    assert preview.status_code == 200 and 'name="confirm"' in preview.content.decode()
    assert not club.players.exists()
    done = admin.post(f"/clubs/{club.slug}/members/", {"csv": text, "confirm": "1"})
    assert done.status_code == 302 and club.players.count() == 2


def test_member_import_with_bad_lines_shows_them_and_imports_nothing(admin, club):
    text = "Anna;1\n;2\nBernd;1\n"
    preview = admin.post(f"/clubs/{club.slug}/members/", {"csv": text})
    html = preview.content.decode()
    assert 'name="confirm"' not in html and html.count('class="field-error"') >= 2
    forced = admin.post(f"/clubs/{club.slug}/members/", {"csv": text, "confirm": "1"})
    assert forced.status_code == 400 and not club.players.exists()


def test_settings_in_euros_are_stored_in_cents(admin, club):
    resp = admin.post(f"/clubs/{club.slug}/settings/", {
        "default_game": "skat", "loss_fee": "0,50", "loss_fee_from": "4",
        "loss_fee_high": "1,00", "season_best_n": "", "season_min_evenings": "0"})
    assert resp.status_code == 302, resp.content.decode()
    club.refresh_from_db()
    assert (club.loss_fee_cents, club.loss_fee_from, club.loss_fee_high_cents) == (50, 4, 100)


def test_table_money_pages_and_csv(admin, club, evening):
    assert admin.get(f"/clubs/{club.slug}/seasons/2026/table-money/").status_code == 200
    for kind in ("evenings", "totals"):
        resp = admin.get(f"/clubs/{club.slug}/seasons/2026/table-money/{kind}.csv")
        assert resp.status_code == 200 and resp["Content-Type"].startswith("text/csv")
    assert admin.get(f"/clubs/tournaments/{evening.pk}/table-money/").status_code == 200


def test_tournament_downloads(admin, evening):
    client = Client()
    assert "Anna" in client.get(
        f"/clubs/tournaments/{evening.pk}/standings.csv").content.decode("utf-8-sig")
    assert client.get(f"/clubs/tournaments/{evening.pk}/archive.json").status_code == 302
    archive = admin.get(f"/clubs/tournaments/{evening.pk}/archive.json")
    assert archive.status_code == 200 and archive.json()["format"] == "stichliste-event"


def test_player_profile_and_merge(admin, club, evening):
    anna = Player.objects.get(name="Anna")
    html = Client().get(f"/clubs/players/{anna.pk}/").content.decode()
    assert evening.name in html
    duplicate = PlayerFactory(club=None, name="Anna", created_by=None)
    page = admin.get(f"/clubs/players/{anna.pk}/merge/")
    assert page.status_code == 200 and str(duplicate.pk) in page.content.decode()
    # a guest without results, made by nobody: only a superuser may merge it
    resp = admin.post(f"/clubs/players/{anna.pk}/merge/", {"remove": duplicate.pk})
    assert resp.status_code == 400 and Player.objects.filter(pk=duplicate.pk).exists()
    bernd = Player.objects.get(name="Bernd")
    conflict = admin.post(f"/clubs/players/{anna.pk}/merge/", {"remove": bernd.pk})
    assert conflict.status_code == 400 and Player.objects.filter(pk=bernd.pk).exists()


def test_member_import_asks_about_names_alike_before_it_imports(admin, club):
    PlayerFactory(club=club, name="Walter Zeller", member_number="101")
    text = "Walter Zeller;104\nKarl-Heinz Müller;201\nkarl heinz mueller;202\nEmil Berg;3\n"
    preview = admin.post(f"/clubs/{club.slug}/members/", {"csv": text})
    html = preview.content.decode()
    assert preview.status_code == 200
    assert "Ähnlich wie das Mitglied Walter Zeller (101)." in html
    assert html.count('value="keep" required') == 3 and 'name="suspect-1"' in html
    undecided = admin.post(f"/clubs/{club.slug}/members/", {"csv": text, "confirm": "1"})
    assert undecided.status_code == 400 and club.players.count() == 1
    assert "Bitte entscheiden" in undecided.content.decode()
    done = admin.post(f"/clubs/{club.slug}/members/", {
        "csv": text, "confirm": "1", "suspect-1": "keep", "suspect-2": "keep",
        "suspect-3": "drop"})
    assert done.status_code == 302
    assert sorted(club.players.values_list("member_number", flat=True)) == [
        "101", "104", "201", "3"]


def test_the_player_page_prints_a_negative_score_with_the_minus_sign(club, director):
    """A lost evening's score in the player's list of events reads "−68", never with a
    hyphen ("-68") that runs into the rank before it on a phone."""
    players = [PlayerFactory(club=club, name=n) for n in ("Anna", "Bernd", "Carla")]
    play_evening(club, director, day(1), dict(zip(players, (100, 60, -68), strict=True)))
    html = Client(HTTP_ACCEPT_LANGUAGE="de").get(
        f"/clubs/players/{players[2].pk}/").content.decode()
    assert "\u221268</td>" in html and "-68</td>" not in html
