"""The leagues' public pages and the group console: what they show, in few queries."""

import datetime

import pytest
from django.test import Client

from clubs.models import Player
from leagues.models import Substitution
from tests.factories import ClubFactory, PlayerFactory, StaffFactory
from tests.leagues.test_league_api import TODAY, paper

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(build):
    league = build.league(scoring="dskv")
    division = build.division(league, series=3)
    teams = build.teams(division)
    md = build.post(f"/divisions/{division['id']}/matchdays/",
                    {"number": 1, "date": TODAY, "kind": "decentral",
                     "venue": {"name": "Gasthof Krone", "address": "Markt 1, Altenburg"},
                     "groups": [[t["id"] for t in teams]]})
    series = [(2959, 2945, 2210, 2210), (1800, 2600, 2400, 2100), (2500, 1900, 2700, 2450)]
    rows = [[[total - 1500, 500, 500, 500] for total in s] for s in series]
    build.put(f"/matchdays/{md['id']}/groups/1/results/", paper(teams, rows))
    return division, md, teams


def test_division_page_shows_the_table_and_the_schedule(played, django_assert_max_num_queries):
    division, md, teams = played
    client = Client(HTTP_ACCEPT_LANGUAGE="de")
    with django_assert_max_num_queries(12):
        html = client.get(f"/leagues/divisions/{division['id']}/").content.decode()
    assert "5,5" in html and "7310" in html and "Gasthof Krone" in html
    assert "vorläufig" in html and "Gastgeber" in html
    assert html.index(">C<") < html.index(">B<") < html.index(">A<")


def test_table_csv_and_print(played):
    division, _md, _teams = played
    client = Client(HTTP_ACCEPT_LANGUAGE="de")
    csv = client.get(f"/leagues/divisions/{division['id']}/table.csv").content.decode()
    lines = csv.lstrip("\ufeff").splitlines()
    assert lines[1] == "1;C;5,5;3,5;7310"
    page = client.get(f"/leagues/divisions/{division['id']}/print/")
    assert page.status_code == 200 and b"print-page" in page.content


def test_matchday_and_team_pages(played, django_assert_max_num_queries):
    _division, md, teams = played
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    with django_assert_max_num_queries(12):
        html = client.get(f"/leagues/matchdays/{md['id']}/").content.decode()
    assert "Series 3" in html and "0.5 : 2.5" in html
    with django_assert_max_num_queries(12):
        team = client.get(f"/leagues/teams/{teams[0]['id']}/").content.decode()
    assert "1459" in team and "Matchday 1" in team  # player 1, series 1: 2959 − 1500
    assert Client().get("/leagues/").status_code == 200


def test_group_console_sets_lineups_and_draws(build, boss, client):
    league = build.league()
    division = build.division(league, series=3)
    teams = build.teams(division)
    md = build.post(f"/divisions/{division['id']}/matchdays/",
                    {"number": 1, "date": datetime.date.today().isoformat(),
                     "kind": "central", "groups": [[t["id"] for t in teams]]})
    url = f"/leagues/matchdays/{md['id']}/groups/1/console/"
    assert client.get(url).status_code == 302  # to the login
    client.force_login(boss)
    for team in teams:
        body = {"team": team["id"], **{f"position-{n}": e["player"]
                                       for n, e in enumerate(team["roster"][:4], start=1)}}
        assert client.post(url, body).status_code == 302
    client.post(url, {"draw": "1"})
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "1 of 3 series drawn" in page
    a = teams[0]
    client.post(url, {"substitute": "1", "team": a["id"], "position": "2",
                      "player": a["roster"][4]["player"]})
    sub = Substitution.objects.get()
    assert (sub.position, sub.player_id, sub.from_series) == (2, a["roster"][4]["player"], 2)
    page = client.post(url, {"substitute": "1", "team": a["id"], "position": "3",
                             "player": a["roster"][1]["player"]}, follow=True,
                       HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "does not return" in page


def test_console_creates_league_division_teams_and_a_matchday(boss, client):
    client.force_login(boss)
    resp = client.post("/leagues/new/", {"name": "Bezirksliga", "game": "skat",
                                         "year": "2026", "scoring": "dskv"})
    league = resp.url.split("/")[-3]
    resp = client.post(f"/leagues/{league}/console/", {
        "name": "Staffel 1", "level": "3", "series_per_matchday": "3", "team_size": "4",
        "matchdays": "5"})
    division = resp.url.split("/")[-3]
    url = f"/leagues/divisions/{division}/console/"
    club = ClubFactory(name="Skatclub Altenburg")
    PlayerFactory(club=club, name="Erika Mustermann")
    names = []
    for n in range(4):
        names.append(f"Team {n}")
        resp = client.post(url, {"add_team": "1", "team-name": f"Team {n}",
                                 "team-club": club.pk,
                                 "team-regulars": "\n".join(
                                     f"Spieler {n}-{k}" for k in range(4)) if n else
                                 "Erika Mustermann\nA\nB\nC"})
        assert resp.status_code == 302, resp.content.decode()[-600:]
    # a roster that repeats a player: the error stands at the field
    page = client.post(url, {"add_team": "1", "team-name": "Doppelt", "team-club": club.pk,
                             "team-regulars": "X\nX\nY\nZ"}, HTTP_ACCEPT_LANGUAGE="en")
    assert b"twice" in page.content
    resp = client.post(url, {"add_matchday": "1", "day-number": "1", "day-date": "2026-03-01",
                             "day-kind": "central", "day-venue_name": "Krone",
                             "day-groups": ", ".join(names)})
    assert resp.status_code == 302
    page = client.get(url).content.decode()
    assert "Gruppe 1" in page or "Group 1" in page
    assert Player.objects.filter(name="Erika Mustermann").count() == 1


def test_console_changes_a_team_and_reopens_a_matchday(played, boss, client):
    """A mistyped roster is mended in the console (as a whole, by names), the captain is
    one of the team's players, a withdrawal is dated; a matchday reopens and closes."""
    from leagues.models import LeagueTeam, Matchday

    division, md, teams = played
    client.force_login(boss)
    team = LeagueTeam.objects.select_related("club").get(pk=teams[0]["id"])
    url = f"/leagues/teams/{team.pk}/console/"
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    regulars = [e.player.name for e in team.roster.select_related("player").order_by("id")]
    assert regulars[0] in page
    form = {"name": "Kreuz Bube 2", "club": team.club_id,
            "regulars": "\n".join([*regulars[:3], "Neue Spielerin"]), "substitutes": "",
            "captain": "Jemand Fremdes", "withdrawn_on": ""}
    refused = client.post(url, form, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "The captain must be one of the team" in refused
    team.refresh_from_db()
    assert team.name != "Kreuz Bube 2"  # nothing stored
    assert not Player.objects.filter(name="Neue Spielerin").exists()
    resp = client.post(url, {**form, "captain": "Neue Spielerin",
                             "withdrawn_on": "2026-12-01"})
    assert resp.status_code == 302
    team.refresh_from_db()
    names = sorted(team.roster.values_list("player__name", flat=True))
    assert team.name == "Kreuz Bube 2" and names == sorted([*regulars[:3], "Neue Spielerin"])
    assert team.captain.name == "Neue Spielerin"
    assert team.withdrawn_on == datetime.date(2026, 12, 1)
    console = f"/leagues/divisions/{division['id']}/console/"
    assert client.post(console, {"matchday": md["id"], "reopen": "1"}).status_code == 302
    assert Matchday.objects.get(pk=md["id"]).reopened
    page = client.get(console, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Für Korrekturen schließen" in page or "Close for corrections" in page
    assert client.post(console, {"matchday": md["id"], "reopen": "0"}).status_code == 302
    assert not Matchday.objects.get(pk=md["id"]).reopened
    # someone who does not run the league sees nothing of it
    client.force_login(StaffFactory())
    assert client.get(url).status_code == 404
