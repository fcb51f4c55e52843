"""Who may call what in a league (api.md "Leagues"): every route and method of the
leagues' API against

- anonymous;
- an outsider (staff who runs nothing here);
- the league's director (``League.directors``);
- an admin of the league's club (who runs the league too: ``leagues.policies.runs_league``);
- a table's entry token of one of the league's own series (a round of a group's tournament);
- the captain's token (``Authorization: Captain …``) of the team a path names (``{team}``:
  team A), and of another team of the same group (team B).

Anyone reads a league; staff who run it write; a captain sends his own team's line-up and
nothing else (his token is a credential for line-ups only: elsewhere it counts as none, so
a write is 401). ``tests/tournaments/test_permissions.py`` checks that this matrix and its
own name every route of the API, and ``test_every_method_of_a_league_route_is_in_the_matrix``
that this one names every method a league route serves.

One league per test: a division of four teams (five players each, four regulars and a
substitute), matchday 1 with nothing played and matchday 2 whose first series is drawn and
which a director reopened. Each caller's request runs in a savepoint rolled back after it,
so every caller meets the same league and a director's write succeeds.
"""

import datetime

import pytest
from django.db import transaction
from rest_framework.test import APIClient

from leagues.models import Group, LeagueTeam
from leagues.services.matchdays import matchday_create, matchday_reopen, series_draw
from leagues.services.seasons import division_create, league_create, team_create
from tests.api_routes import served_methods, shape
from tests.conftest import table_client_for, token_client
from tests.factories import ClubFactory, PlayerFactory, StaffFactory
from tournaments.models import Table

pytestmark = pytest.mark.django_db

ACTORS = ["anonymous", "outsider", "director", "club_admin", "table", "captain",
          "other_captain"]
TODAY = datetime.date.today().isoformat()
ANYONE = [200] * len(ACTORS)


def runners(code: int) -> list[int]:
    """A write of those who run the league: ``code`` for its director and its club's
    admin, 403 for other credentials, 401 without (a captain's token is none here)."""
    return [401, 403, code, code, 403, 401, 401]


def new_team(w):
    return {"name": "E", "club": w["club"], "captain": w["free"][0],
            "roster": [{"player": p, "role": "regular"} for p in w["free"]]}


def paper(w):
    """Matchday 1 keyed in from paper: both series, every team with four players."""
    return {"series": [
        {"number": n, "teams": [{"team": team, "players": [
            {"player": p, "score": 500 + 10 * i} for i, p in enumerate(roster[:4])]}
            for team, roster in zip(w["teams"], w["rosters"], strict=True)]}
        for n in (1, 2)]}


# (method, path template, body or a function of the league's ids, status per ACTORS)
LEAGUE_MATRIX = [
    ("get", "/api/v1/leagues/", None, ANYONE),
    # any staff user starts a league of his own (and directs it)
    ("post", "/api/v1/leagues/", {"name": "Neu", "game": "skat", "year": 2026},
     [401, 201, 201, 201, 403, 401, 401]),
    ("get", "/api/v1/leagues/{league}/", None, ANYONE),
    ("get", "/api/v1/leagues/{league}/divisions/", None, ANYONE),
    ("post", "/api/v1/leagues/{league}/divisions/",
     {"name": "Staffel 7", "level": 4, "series_per_matchday": 3}, runners(201)),
    ("get", "/api/v1/divisions/{division}/", None, ANYONE),
    ("get", "/api/v1/divisions/{division}/teams/", None, ANYONE),
    ("post", "/api/v1/divisions/{division}/teams/", new_team, runners(201)),
    ("get", "/api/v1/teams/{team}/", None, ANYONE),
    ("patch", "/api/v1/teams/{team}/", {"name": "Umbenannt"}, runners(200)),
    ("get", "/api/v1/divisions/{division}/matchdays/", None, ANYONE),
    ("post", "/api/v1/divisions/{division}/matchdays/",
     lambda w: {"number": 3, "date": TODAY, "kind": "central", "groups": [w["teams"]]},
     runners(201)),
    ("get", "/api/v1/divisions/{division}/table/", None, ANYONE),
    ("get", "/api/v1/matchdays/{matchday}/", None, ANYONE),
    ("post", "/api/v1/matchdays/{matchday}/reopen/", None, runners(200)),
    ("post", "/api/v1/matchdays/{played}/close/", None, runners(200)),
    # the line-up of team A: its captain too, another team's captain not
    ("put", "/api/v1/matchdays/{matchday}/groups/1/lineups/{team}/",
     lambda w: {"positions": w["rosters"][0][:4]}, [401, 403, 200, 200, 403, 200, 403]),
    ("post", "/api/v1/matchdays/{matchday}/groups/1/series/", None, runners(201)),
    ("post", "/api/v1/matchdays/{played}/groups/1/substitutions/",
     lambda w: {"team": w["teams"][0], "position": 1, "player": w["rosters"][0][4]},
     runners(201)),
    ("put", "/api/v1/matchdays/{matchday}/groups/1/results/", paper, runners(200)),
]


@pytest.fixture
def league_world(db, settings):
    """The league of the module's docstring: its ids (``w``) and the callers' clients."""
    # the callers use tokens, never their passwords: a fast hasher for the users' creation
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    league_club = ClubFactory()
    director = StaffFactory(username="staffelleiter")
    club_admin = StaffFactory(username="vereinsadmin")
    league_club.admins.add(club_admin)
    # naming a club takes one of its admins; the league's director is someone else
    league = league_create(name="Liga", game="skat", year=2026, user=club_admin,
                           club=league_club)
    league.directors.set([director])
    division = division_create(league=league, name="Staffel 6", level=4,
                               series_per_matchday=2)
    teams, rosters = [], []
    for name in "ABCD":
        club = ClubFactory()
        roster = [PlayerFactory(club=club).pk for _ in range(5)]
        teams.append(team_create(
            division=division, name=name, club=club, captain=roster[0],
            roster=[{"player": p, "role": "regular" if n < 4 else "substitute"}
                    for n, p in enumerate(roster)]))
        rosters.append(roster)
    ids = [t.pk for t in teams]
    today = datetime.date.today()
    first = matchday_create(division=division, number=1, date=today, kind="central",
                            groups=[ids])
    played = matchday_create(division=division, number=2, date=today, kind="central",
                             groups=[ids])
    series = series_draw(group=Group.objects.get(matchday=played, number=1))
    matchday_reopen(matchday=played, reopened=True)
    captain = APIClient()
    captain.credentials(HTTP_AUTHORIZATION=f"Captain {teams[0].captain_token}")
    other_captain = APIClient()
    other_captain.credentials(HTTP_AUTHORIZATION=f"Captain {teams[1].captain_token}")
    w = {"league": league.pk, "division": division.pk, "team": ids[0], "teams": ids,
         "rosters": rosters, "matchday": first.pk, "played": played.pk,
         "club": league_club.pk, "free": [PlayerFactory().pk for _ in range(4)]}
    clients = {
        "anonymous": APIClient(),
        "outsider": token_client(StaffFactory(username="outsider")),
        "director": token_client(director),
        "club_admin": token_client(club_admin),
        "table": table_client_for(series.tables.first().entry_token),
        "captain": captain,
        "other_captain": other_captain,
    }
    return w, clients


def answers(clients, method, url, body) -> dict:
    """Each caller's status, every request undone after it (a savepoint)."""
    got = {}
    for actor in ACTORS:
        point = transaction.savepoint()
        try:
            resp = getattr(clients[actor], method)(url, body, format="json")
            got[actor] = resp.status_code
            assert resp["Content-Type"].startswith("application/json"), (actor, resp)
        finally:
            transaction.savepoint_rollback(point)
    return got


@pytest.mark.parametrize("method,path,body,expected", [
    pytest.param(method, path, body, expected, id=f"{method} {path}")
    for method, path, body, expected in LEAGUE_MATRIX])
def test_league_permission_matrix(method, path, body, expected, league_world):
    w, clients = league_world
    url = path.format(**{k: v for k, v in w.items() if isinstance(v, int)})
    if callable(body):
        body = body(w)
    assert answers(clients, method, url, body) == dict(zip(ACTORS, expected, strict=True))


def test_tokens_are_shown_to_those_who_run_the_league_only(league_world):
    """Captains' tokens reach the league's director and its club's admin only; the
    series' entry tokens no league answer at all."""
    w, clients = league_world
    captains = set(LeagueTeam.objects.filter(pk__in=w["teams"])
                   .values_list("captain_token", flat=True))
    tables = set(Table.objects.filter(round__tournament__league_group__matchday=w["played"])
                 .values_list("entry_token", flat=True))
    assert len(captains) == 4 and tables
    paths = [f"/api/v1/teams/{w['team']}/", f"/api/v1/divisions/{w['division']}/teams/",
             f"/api/v1/divisions/{w['division']}/", f"/api/v1/leagues/{w['league']}/divisions/",
             f"/api/v1/matchdays/{w['matchday']}/", f"/api/v1/matchdays/{w['played']}/",
             f"/api/v1/divisions/{w['division']}/matchdays/",
             f"/api/v1/divisions/{w['division']}/table/", "/api/v1/leagues/"]
    for actor in ACTORS:
        secret = tables if actor in ("director", "club_admin") else tables | captains
        for path in paths:
            text = clients[actor].get(path).content.decode()
            assert not any(token in text for token in secret), (actor, path)
    for actor in ("director", "club_admin"):
        team = clients[actor].get(f"/api/v1/teams/{w['team']}/").json()
        assert team["captain_token"] == LeagueTeam.objects.get(pk=w["team"]).captain_token


def test_a_garbage_captain_token_is_401(league_world):
    w, _clients = league_world
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Captain not-a-token")
    resp = client.put(f"/api/v1/matchdays/{w['matchday']}/groups/1/lineups/{w['team']}/",
                      {"positions": w["rosters"][0][:4]}, format="json")
    assert resp.status_code == 401


LEAGUE_ROUTES = ("leagues/", "divisions/", "teams/", "matchdays/")


def test_every_method_of_a_league_route_is_in_the_matrix():
    served = served_methods(LEAGUE_ROUTES)
    assert len(served) == len(LEAGUE_MATRIX)
    assert served == {(m, shape(p)) for m, p, _b, _e in LEAGUE_MATRIX}


def test_a_read_of_a_matchdays_action_is_405(league_world):
    """The matchday's actions and group paths serve their own methods only (they used to
    answer ``GET`` with the matchday)."""
    w, clients = league_world
    base = f"/api/v1/matchdays/{w['played']}/"
    for path in ("reopen/", "close/", f"groups/1/lineups/{w['team']}/", "groups/1/series/",
                 "groups/1/substitutions/", "groups/1/results/"):
        resp = clients["director"].get(base + path)
        assert resp.status_code == 405 and resp.json()["detail"], path
