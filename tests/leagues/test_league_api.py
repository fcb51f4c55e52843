"""Leagues through the API (api.md "Leagues"): L1–L4 as a client plays them, the checks of
games.md §9.6 as 400s naming the field, binding tables as 409."""

import datetime

import pytest
from django.test import Client

from leagues.models import SeriesResult
from tests.conftest import token_client
from tests.factories import ClubFactory, PlayerFactory, StaffFactory
from tournaments.models import Seat

pytestmark = pytest.mark.django_db

TODAY = datetime.date.today().isoformat()


def fields(resp):
    return {e["field"] for e in resp.json()["errors"]}


def paper(teams, rows):
    """Paper series: ``rows`` per series the per-team list of scores (None: absent)."""
    return {"series": [
        {"number": s, "teams": [
            {"team": t["id"], "players": [
                {"player": e["player"], "score": score}
                for e, score in zip(t["roster"], scores, strict=False)]}
            for t, scores in zip(teams, row, strict=True) if scores is not None]}
        for s, row in enumerate(rows, start=1)]}


def test_l2_paper_matchday_gives_the_table_of_the_example(build):
    league = build.league(scoring="dskv")
    division = build.division(league)
    teams = build.teams(division)
    md = build.post(f"/divisions/{division['id']}/matchdays/",
                    {"number": 1, "date": TODAY, "kind": "central",
                     "venue": {"name": "Gasthof Krone", "address": "Markt 1"},
                     "groups": [[t["id"] for t in teams]]})
    series = [(2959, 2945, 2210, 2210), (1800, 2600, 2400, 2100), (2500, 1900, 2700, 2450)]
    # each team's total split over four players
    rows = [[[total - 3 * 500, 500, 500, 500] for total in s] for s in series]
    answer = build.put(f"/matchdays/{md['id']}/groups/1/results/", paper(teams, rows))
    first = answer["groups"][0]["series"][0]["totals"]
    assert [(t["total"], t["points"], t["minus_points"]) for t in first] == [
        (2959, 3, 0), (2945, 2, 1), (2210, 0.5, 2.5), (2210, 0.5, 2.5)]
    table = build.get(f"/divisions/{division['id']}/table/")
    assert table["status"] == "provisional" and table["stale"] is False
    names = {t["id"]: t["name"] for t in teams}
    assert [(r["rank"], names[r["team"]], r["points"], r["minus_points"], r["game_points"])
            for r in table["results"]] == [
        (1, "C", 5.5, 3.5, 7310), (2, "B", 5, 4, 7445), (3, "A", 5, 4, 7259),
        (4, "D", 2.5, 6.5, 6760)]
    assert sum(r["points"] for r in table["results"]) == 18
    assert table["results"][0]["matchdays"][0]["number"] == 1


def test_l3_ddv_day_from_paper(build):
    league = build.league(game="doppelkopf")
    assert league["scoring"]["preset"] == "ddv"
    division = build.division(league, series=4)
    assert division["min_players"] == 4
    teams = build.teams(division, players=4)
    md = build.post(f"/divisions/{division['id']}/matchdays/",
                    {"number": 1, "date": TODAY, "kind": "decentral",
                     "groups": [[t["id"] for t in teams]]})
    assert md["groups"][0]["host"] == teams[0]["id"]
    # M, Wuppertal, Berlin, Münster: after three rounds −38, +26, +68, −56; round 4 M +106
    rounds = [(-20, 10, 30, -20), (-10, 10, 20, -20), (-8, 6, 18, -16), (106, 12, -40, -78)]
    rows = [[[score, 0, 0, 0] for score in r] for r in rounds]
    answer = build.put(f"/matchdays/{md['id']}/groups/1/results/", paper(teams, rows))
    day = answer["groups"][0]["day"]
    assert [(d["total"], d["points"]) for d in day] == [(68, 4), (38, 3), (28, 2), (-134, 1)]
    assert answer["groups"][0]["series"][0]["totals"][0]["points"] is None
    table = build.get(f"/divisions/{division['id']}/table/")
    assert [(r["points"], r["minus_points"], r["game_points"]) for r in table["results"]] == [
        (4, None, 68), (3, None, 38), (2, None, 28), (1, None, -134)]


def test_l4_absent_team_on_paper(build):
    league = build.league()
    division = build.division(league, series=1)
    teams = build.teams(division)
    md = build.matchday(division, teams)
    answer = build.put(f"/matchdays/{md['id']}/groups/1/results/",
                       paper(teams, [[[300] * 4, [200] * 4, [100] * 4, None]]))
    totals = answer["groups"][0]["series"][0]["totals"]
    assert [(t["total"], t["points"], t["minus_points"]) for t in totals] == [
        (1200, 3, 0), (800, 2, 1), (400, 1, 2), (None, 0, 3)]
    table = build.get(f"/divisions/{division['id']}/table/")
    assert table["results"][-1]["game_points"] == 0


def summary_for(table, seed):
    return {"seats": [{"game_points": 60 + 7 * seed + 13 * i, "won": 2 + (i + seed) % 2,
                       "lost": (i + seed) % 2} for i, _s in enumerate(table["seats"])]}


def play_series(build, md, group, seed):
    rnd = build.post(f"/matchdays/{md['id']}/groups/{group}/series/", None)
    for n, table in enumerate(rnd["tables"]):
        build.put(f"/tables/{table['id']}/summary/", summary_for(table, seed + n))
        build.post(f"/tables/{table['id']}/submit/",
                   {"unconfirmed_reason": "paper list"}, code=200)
    return rnd


def test_regionalliga_matchday_on_the_app_with_a_three_player_team(build):
    league = build.league()
    division = build.division(league, series=3)
    teams = build.teams(division)
    md = build.matchday(division, teams)
    for n, team in enumerate(teams):
        players = [e["player"] for e in team["roster"][:4]]
        if n == 3:
            players[3] = None
        build.put(f"/matchdays/{md['id']}/groups/1/lineups/{team['id']}/",
                  {"positions": players})
    rounds = [play_series(build, md, 1, seed) for seed in range(3)]
    first = rounds[0]
    assert sorted(len(t["seats"]) for t in first["tables"]) == [3, 4, 4, 4]
    assert first["series"] == 1 and first["tables"][0]["entry_token"]
    # a fourth series of a three-series matchday
    resp = build.client.post(f"/api/v1/matchdays/{md['id']}/groups/1/series/")
    assert resp.status_code == 400 and "series" in fields(resp)
    # the totals are the sums of the seats' Seeger-Fabian scores
    tournament = rounds[0]["tournament"]
    expected = {}
    for number in (1, 2, 3):
        for player, score in Seat.objects.filter(
                table__round__tournament_id=tournament, table__round__number=number
        ).values_list("participant__player_id", "score"):
            team = next(t["id"] for t in teams if player in [e["player"] for e in t["roster"]])
            expected[(number, team)] = expected.get((number, team), 0) + score
    detail = build.get(f"/matchdays/{md['id']}/")
    got = {(s["number"], t["team"]): t["total"] for s in detail["groups"][0]["series"]
           for t in s["totals"]}
    assert got == expected
    for s in detail["groups"][0]["series"]:
        assert sum(t["points"] for t in s["totals"]) == 6
        d_players = next(t for t in s["totals"] if t["team"] == teams[3]["id"])["players"]
        assert len(d_players) == 3
    table = build.get(f"/divisions/{division['id']}/table/")
    assert sum(r["points"] for r in table["results"]) == 18
    assert sum(r["game_points"] for r in table["results"]) == sum(expected.values())
    ranks = [(r["points"], r["game_points"]) for r in table["results"]]
    assert ranks == sorted(ranks, reverse=True)


def test_standard_plan_seats_the_group_and_substitutes_take_the_seat(build):
    league = build.league()
    division = build.division(league, series=4)
    teams = build.teams(division)
    md = build.matchday(division, teams)
    build.lineups(md, teams)
    rnd = play_series(build, md, 1, 0)
    a, b = teams[0], teams[1]
    # series 1: table 1 holds A1 B1 C1 D1
    assert {s["name"] for s in rnd["tables"][0]["seats"]} == {
        t["roster"][0]["name"] for t in teams}
    # lineup is fixed once the first series is drawn
    resp = build.client.put(f"/api/v1/matchdays/{md['id']}/groups/1/lineups/{a['id']}/",
                            {"positions": [e["player"] for e in a["roster"][:4]]},
                            format="json")
    assert resp.status_code == 409
    sub = a["roster"][4]["player"]
    out = a["roster"][1]["player"]
    build.post(f"/matchdays/{md['id']}/groups/1/substitutions/",
               {"team": a["id"], "position": 2, "player": sub})
    resp = build.client.post(f"/api/v1/matchdays/{md['id']}/groups/1/substitutions/",
                             {"team": a["id"], "position": 3, "player": out}, format="json")
    assert resp.status_code == 400 and fields(resp) == {"player"}
    rnd2 = build.post(f"/matchdays/{md['id']}/groups/1/series/", None)
    # series 2: A2 sits at table 2 with B1 (standard plan) — now the substitute
    table2 = {s["name"] for s in rnd2["tables"][1]["seats"]}
    assert a["roster"][4]["name"] in table2 and b["roster"][0]["name"] in table2


def test_roster_checks_name_the_field(build, boss_client):
    league = build.league()
    division = build.division(league)
    team = build.teams(division, count=1)[0]
    club = ClubFactory()
    taken = team["roster"][0]["player"]
    fresh = PlayerFactory(club=club)
    resp = boss_client.post(f"/api/v1/divisions/{division['id']}/teams/", {
        "name": "X", "club": club.pk,
        "roster": [{"player": taken}, {"player": fresh.pk}, {"player": fresh.pk}]},
        format="json", HTTP_ACCEPT_LANGUAGE="en")
    assert resp.status_code == 400
    assert {"roster.0.player", "roster.2.player", "roster"} <= fields(resp)
    resp_de = boss_client.post(f"/api/v1/divisions/{division['id']}/teams/", {
        "name": "X", "club": club.pk, "roster": [{"player": fresh.pk}]},
        format="json", HTTP_ACCEPT_LANGUAGE="de")
    assert resp_de.status_code == 400
    assert "mindestens" in resp_de.json()["errors"][0]["message"]


def test_lineup_and_group_checks(build, boss_client):
    league = build.league()
    division = build.division(league)
    teams = build.teams(division)
    ids = [t["id"] for t in teams]
    resp = boss_client.post(f"/api/v1/divisions/{division['id']}/matchdays/", {
        "number": 1, "date": TODAY, "kind": "central", "groups": [ids[:3]]}, format="json")
    assert resp.status_code == 400 and "groups" in fields(resp)
    resp = boss_client.post(f"/api/v1/divisions/{division['id']}/matchdays/", {
        "number": 1, "date": TODAY, "kind": "decentral", "groups": [ids],
        "hosts": [999999]}, format="json")
    assert resp.status_code == 400 and "hosts.0" in fields(resp)
    md = build.post(f"/divisions/{division['id']}/matchdays/",
                    {"number": 1, "date": TODAY, "kind": "central", "groups": [ids]})
    stranger = teams[1]["roster"][0]["player"]
    resp = boss_client.put(f"/api/v1/matchdays/{md['id']}/groups/1/lineups/{ids[0]}/",
                           {"positions": [stranger, None, None, None]}, format="json")
    assert resp.status_code == 400 and "positions.0" in fields(resp)


def test_captain_sends_the_lineup_and_nobody_else(build, anon_client):
    league = build.league()
    division = build.division(league)
    teams = build.teams(division)
    md = build.matchday(division, teams)
    url = f"/api/v1/matchdays/{md['id']}/groups/1/lineups/{teams[0]['id']}/"
    body = {"positions": [e["player"] for e in teams[0]["roster"][:4]]}
    assert anon_client.put(url, body, format="json").status_code == 401
    assert token_client(StaffFactory()).put(url, body, format="json").status_code == 403
    captain = anon_client
    captain.credentials(HTTP_AUTHORIZATION=f"Captain {teams[1]['captain_token']}")
    assert captain.put(url, body, format="json").status_code == 403
    captain.credentials(HTTP_AUTHORIZATION=f"Captain {teams[0]['captain_token']}")
    assert captain.put(url, body, format="json").status_code == 200
    public = build.get(f"/teams/{teams[0]['id']}/")
    assert "captain_token" in public  # the builder runs the league
    from rest_framework.test import APIClient
    assert "captain_token" not in APIClient().get(f"/api/v1/teams/{teams[0]['id']}/").json()


def test_binding_table_refuses_a_change_until_reopened(build, boss_client):
    league = build.league(binding_after_days=14)
    division = build.division(league, series=1)
    teams = build.teams(division)
    old = (datetime.date.today() - datetime.timedelta(days=30)).isoformat()
    md = build.post(f"/divisions/{division['id']}/matchdays/",
                    {"number": 1, "date": old, "kind": "central",
                     "groups": [[t["id"] for t in teams]]})
    url = f"/matchdays/{md['id']}/groups/1/results/"
    build.put(url, paper(teams, [[[1] * 4, [2] * 4, [3] * 4, [4] * 4]]))
    assert build.get(f"/divisions/{division['id']}/table/")["status"] == "binding"
    resp = boss_client.put(f"/api/v1{url}", paper(teams, [[[4] * 4, [3] * 4, [2] * 4,
                                                         [1] * 4]]), format="json")
    assert resp.status_code == 409
    build.post(f"/matchdays/{md['id']}/reopen/", None, code=200)
    build.put(url, paper(teams, [[[4] * 4, [3] * 4, [2] * 4, [1] * 4]]))
    table = build.get(f"/divisions/{division['id']}/table/")
    assert table["status"] == "provisional" and table["results"][0]["team"] == teams[0]["id"]
    polled = f"/api/v1/divisions/{division['id']}/table/"
    first = boss_client.get(polled)
    assert first["Cache-Control"] == "private, no-cache" and first["ETag"]
    same = boss_client.get(polled, HTTP_IF_NONE_MATCH=first["ETag"])
    assert same.status_code == 304 and same["Cache-Control"] == "private, no-cache"
    build.post(f"/matchdays/{md['id']}/close/", None, code=200)
    assert build.get(f"/divisions/{division['id']}/table/")["status"] == "binding"
    closed = boss_client.get(polled, HTTP_IF_NONE_MATCH=first["ETag"])
    assert closed.status_code == 200 and closed["ETag"] != first["ETag"]
    assert SeriesResult.objects.count() == 4


def test_sixteen_teams_get_the_schedule_and_hosts(build, django_assert_max_num_queries):
    league = build.league(game="doppelkopf")
    division = build.division(league, series=4)
    teams = build.teams(division, count=16, players=4)
    ids = [t["id"] for t in teams]
    hosts = []
    for number in range(1, 5):
        md = build.post(f"/divisions/{division['id']}/matchdays/",
                        {"number": number, "date": TODAY, "kind": "decentral"})
        hosts += [g["host"] for g in md["groups"]]
        if number == 3:
            assert [sorted(ids.index(t) + 1 for t in g["teams"]) for g in md["groups"]] == [
                [1, 6, 11, 16], [2, 5, 12, 15], [3, 8, 9, 14], [4, 7, 10, 13]]
    assert sorted(hosts) == sorted(ids)
    md5 = build.post(f"/divisions/{division['id']}/matchdays/",
                     {"number": 5, "date": TODAY, "kind": "central"})
    assert all(g["host"] is None for g in md5["groups"])
    # the public page of 16 teams and 5 matchdays costs what the one of 4 teams costs
    with django_assert_max_num_queries(12):
        assert Client().get(f"/leagues/divisions/{division['id']}/").status_code == 200


def test_a_change_left_in_the_outbox_reaches_the_table_through_the_sweep(build):
    from leagues.models import LeagueOutbox, TableRow
    from leagues.tasks import sweep_leagues

    league = build.league()
    division = build.division(league, series=1)
    build.teams(division, count=2)
    TableRow.objects.all().delete()
    LeagueOutbox.objects.create(division_id=division["id"])  # its enqueue was lost
    assert sweep_leagues() == 1
    assert TableRow.objects.filter(division_id=division["id"]).count() == 2
    assert not LeagueOutbox.objects.exists()


def test_staff_of_another_league_cannot_write(build, outsider_client):
    league = build.league()
    resp = outsider_client.post(f"/api/v1/leagues/{league['id']}/divisions/",
                                {"name": "X", "level": 1, "series_per_matchday": 3},
                                format="json")
    assert resp.status_code == 403
    assert outsider_client.get(f"/api/v1/leagues/{league['id']}/").status_code == 200


def test_bad_scoring_names_its_fields(boss_client):
    resp = boss_client.post("/api/v1/leagues/", {
        "name": "L", "game": "skat", "year": 2026,
        "scoring": {"unit": "week", "base": -1, "per_win": 1}}, format="json")
    assert resp.status_code == 400
    assert {"scoring.unit", "scoring.base"} <= fields(resp)
    resp = boss_client.post("/api/v1/leagues/", {"name": "L", "game": "basler", "year": 2026},
                            format="json")
    assert resp.status_code == 400 and "game" in fields(resp)


def test_a_team_without_a_lineup_plays_its_regulars_and_an_empty_one_stays_out(build):
    league = build.league()
    division = build.division(league, series=2)
    teams = build.teams(division)
    md = build.matchday(division, teams)
    build.put(f"/matchdays/{md['id']}/groups/1/lineups/{teams[3]['id']}/",
              {"positions": [None] * division["team_size"]})
    rnd = build.post(f"/matchdays/{md['id']}/groups/1/series/", None)
    # 4-4-4-0: D did not appear, four 3-tables with one player of A, B and C each
    assert [len(t["seats"]) for t in rnd["tables"]] == [3, 3, 3, 3]
    seated = {s["name"] for t in rnd["tables"] for s in t["seats"]}
    assert seated == {e["name"] for t in teams[:3] for e in t["roster"][:4]}


def test_a_series_counts_once_its_sheets_are_complete_even_before_submission(build):
    league = build.league()
    division = build.division(league, series=1)
    teams = build.teams(division)
    md = build.matchday(division, teams)
    rnd = build.post(f"/matchdays/{md['id']}/groups/1/series/", None)
    for n, table in enumerate(rnd["tables"][:-1]):
        build.put(f"/tables/{table['id']}/summary/", summary_for(table, n))
    assert build.get(f"/divisions/{division['id']}/table/")["results"][0]["points"] == 0
    build.put(f"/tables/{rnd['tables'][-1]['id']}/summary/", summary_for(rnd["tables"][-1], 9))
    table = build.get(f"/divisions/{division['id']}/table/")
    assert sum(r["points"] for r in table["results"]) == 6


def test_leagues_list_in_pages_as_the_other_lists(build, anon_client):
    league = build.league()
    answer = anon_client.get("/api/v1/leagues/?limit=1").json()
    assert answer["count"] == 1 and answer["results"][0]["id"] == league["id"]
    assert anon_client.get("/api/v1/leagues/?limit=0").status_code == 400


def test_ddv_day_played_on_the_app_gives_siegpunkte_by_the_day_totals(build):
    league = build.league(game="doppelkopf")
    division = build.division(league, series=2)
    teams = build.teams(division, players=4)
    md = build.matchday(division, teams, kind="decentral")
    for series in range(2):
        rnd = build.post(f"/matchdays/{md['id']}/groups/1/series/", None)
        assert [len(t["seats"]) for t in rnd["tables"]] == [4, 4, 4, 4]
        for n, table in enumerate(rnd["tables"]):
            re = [1 + (n + series) % 4, 1 + (n + series + 1) % 4]
            build.post(f"/tables/{table['id']}/deals/",
                       {"number": 1, "game": "normal", "re": sorted(re),
                        "re_points": 130 + 30 * n})
            build.post(f"/tables/{table['id']}/end/", {"reason": "Probe"}, code=200)
    tournament = rnd["tournament"]
    day = {}
    for player, score in Seat.objects.filter(table__round__tournament_id=tournament) \
            .values_list("participant__player_id", "score"):
        team = next(t["id"] for t in teams if player in [e["player"] for e in t["roster"]])
        day[team] = day.get(team, 0) + score
    assert sum(day.values()) == 0  # a group's day totals sum to zero (games.md §9.3)
    detail = build.get(f"/matchdays/{md['id']}/")
    assert {d["team"]: d["total"] for d in detail["groups"][0]["day"]} == day
    table = build.get(f"/divisions/{division['id']}/table/")
    assert sum(r["points"] for r in table["results"]) == 4 + 6
    assert all(r["minus_points"] is None for r in table["results"])
    ranked = sorted(day.values(), reverse=True)
    assert [r["game_points"] for r in table["results"]] == ranked


@pytest.mark.parametrize("positions", [[], [None], "A", None])
def test_a_lineup_of_another_length_is_refused_and_the_old_one_kept(build, positions):
    """Issue 52: ``{"positions": []}`` wiped a line-up. A line-up has one entry per
    position (all null: the team does not appear)."""
    from leagues.models import LineUp

    league = build.league()
    division = build.division(league)
    teams = build.teams(division)
    md = build.matchday(division, teams)
    url = f"/api/v1/matchdays/{md['id']}/groups/1/lineups/{teams[0]['id']}/"
    sent = [e["player"] for e in teams[0]["roster"][:division["team_size"]]]
    assert build.client.put(url, {"positions": sent}, format="json").status_code == 200
    resp = build.client.put(url, {"positions": positions}, format="json")
    assert resp.status_code == 400 and "positions" in fields(resp), resp.content
    assert LineUp.objects.get(team_id=teams[0]["id"]).positions == sent


@pytest.mark.parametrize("value", ['"1"', "1.5", "1.0", "-1e-400", "true"])
def test_league_integers_are_json_integers(build, value):
    league = build.league()
    resp = build.client.post(f"/api/v1/leagues/{league['id']}/divisions/",
                             f'{{"name": "X", "level": {value}, "series_per_matchday": 3}}',
                             content_type="application/json")
    assert resp.status_code == 400 and fields(resp) == {"level"}, resp.content
    resp = build.client.post("/api/v1/leagues/",
                             '{"name": "L2", "game": "skat", "year": 2026, '
                             f'"binding_after_days": {value}}}',
                             content_type="application/json")
    assert resp.status_code == 400 and fields(resp) == {"binding_after_days"}, resp.content
    assert [lg["id"] for lg in build.get("/leagues/")["results"]] == [league["id"]]


def test_roster_and_lineup_errors_name_the_player(build, boss_client):
    """A director reads "Spieler Anna Berg steht zweimal …", not a database id."""
    from clubs.models import Player

    league = build.league()
    division = build.division(league)
    teams = build.teams(division)
    club = ClubFactory()
    fresh = PlayerFactory(club=club, name="Agathe Zwiebel")
    taken = Player.objects.get(pk=teams[0]["roster"][0]["player"])
    resp = boss_client.post(f"/api/v1/divisions/{division['id']}/teams/", {
        "name": "X", "club": club.pk,
        "roster": [{"player": taken.pk}, {"player": fresh.pk}, {"player": fresh.pk}]},
        format="json", HTTP_ACCEPT_LANGUAGE="de")
    messages = {e["field"]: e["message"] for e in resp.json()["errors"]}
    assert messages["roster.2.player"] == "Spieler Agathe Zwiebel steht zweimal im Kader."
    assert taken.name in messages["roster.0.player"]
    ids = [t["id"] for t in teams]
    md = build.post(f"/divisions/{division['id']}/matchdays/",
                    {"number": 1, "date": TODAY, "kind": "central", "groups": [ids]})
    own = [e["player"] for e in teams[0]["roster"][:3]]
    stranger = Player.objects.get(pk=teams[1]["roster"][0]["player"])
    resp = boss_client.put(f"/api/v1/matchdays/{md['id']}/groups/1/lineups/{ids[0]}/",
                           {"positions": [own[0], own[0], stranger.pk, own[2]]},
                           format="json", HTTP_ACCEPT_LANGUAGE="de")
    messages = {e["field"]: e["message"] for e in resp.json()["errors"]}
    twice = Player.objects.get(pk=own[0]).name
    assert messages["positions.1"] == f"Spieler {twice} steht zweimal in der Aufstellung."
    assert messages["positions.2"].startswith(f"Spieler {stranger.name} ")
