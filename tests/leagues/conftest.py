"""A league through the API: a staff user who runs it and helpers that build divisions,
teams and matchdays the way a client does."""

import pytest

from tests.conftest import token_client
from tests.factories import ClubFactory, PlayerFactory, StaffFactory


@pytest.fixture
def boss(db):
    return StaffFactory(username="staffelleiter")


@pytest.fixture
def boss_client(boss):
    return token_client(boss)


class Builder:
    """Requests as a client sends them; each write's commit callbacks run (the
    recomputes, in process), as after a real request's commit."""

    def __init__(self, client, committed):
        self.client = client
        self.committed = committed

    def post(self, path, body, code=201):
        with self.committed(execute=True):
            resp = self.client.post(f"/api/v1{path}", body, format="json")
        assert resp.status_code == code, resp.content
        return resp.json()

    def put(self, path, body, code=200):
        with self.committed(execute=True):
            resp = self.client.put(f"/api/v1{path}", body, format="json")
        assert resp.status_code == code, resp.content
        return resp.json()

    def get(self, path, code=200):
        resp = self.client.get(f"/api/v1{path}")
        assert resp.status_code == code, resp.content
        return resp.json()

    def league(self, game="skat", scoring=None, **extra):
        body = {"name": "Liga", "game": game, "year": 2026, **extra}
        if scoring is not None:
            body["scoring"] = scoring
        return self.post("/leagues/", body)

    def division(self, league, series=3, **extra):
        return self.post(f"/leagues/{league['id']}/divisions/",
                         {"name": "Regionalliga Staffel 6", "level": 4,
                          "series_per_matchday": series, **extra})

    def matchday(self, division, teams, number=1, kind="central", date=None, **extra):
        """A matchday whose one group holds ``teams``."""
        import datetime

        return self.post(f"/divisions/{division['id']}/matchdays/", {
            "number": number, "date": date or datetime.date.today().isoformat(),
            "kind": kind, "groups": [[t["id"] for t in teams]], **extra})

    def lineups(self, md, teams, size=4):
        for team in teams:
            self.put(f"/matchdays/{md['id']}/groups/1/lineups/{team['id']}/",
                     {"positions": [e["player"] for e in team["roster"][:size]]})

    def teams(self, division, count=4, players=5, names="ABCDEFGHIJKLMNOP"):
        teams = []
        for i in range(count):
            club = ClubFactory()
            roster = [PlayerFactory(club=club) for _ in range(players)]
            teams.append(self.post(f"/divisions/{division['id']}/teams/", {
                "name": names[i], "club": club.pk, "captain": roster[0].pk,
                "roster": [{"player": p.pk, "role": "regular" if n < 4 else "substitute"}
                           for n, p in enumerate(roster)]}))
        return teams


@pytest.fixture
def build(boss_client, in_process_tasks, django_capture_on_commit_callbacks):
    return Builder(boss_client, django_capture_on_commit_callbacks)
