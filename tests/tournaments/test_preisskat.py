"""A 40-player Preisskat with 10 teams of 4 and a prize list, end to end through the API:
registration, teams, prize list, a balanced draw that keeps teammates apart, every
table's sheet, the close, the standings, the team ranking, the payout and the cash."""

import pytest

from tests.factories import PlayerFactory
from tournaments.recompute.standings_rows import standings_recompute

pytestmark = pytest.mark.django_db

WIN = {"declarer": 2, "game": "grand", "matadors": 1, "won": True}  # 2 × 24 + 50 = 98


def test_preisskat_with_ten_teams_of_four(director_client, anon_client, club):
    api = "/api/v1/tournaments/"
    created = director_client.post(api, {"name": "Preisskat", "game": "skat",
                                         "published": True, "team_size": 4,
                                         "rules": {"series_deals_3": 3, "series_deals_4": 4}},
                                   format="json")
    assert created.status_code == 201, created.content
    tid = created.json()["id"]
    people = []
    for _ in range(40):
        resp = director_client.post(f"{api}{tid}/participants/",
                                    {"player": PlayerFactory(club=club).pk}, format="json")
        assert resp.status_code == 201
        people.append(resp.json()["id"])
    teams = []
    for n in range(10):
        resp = director_client.post(f"{api}{tid}/teams/", {"name": f"Team {n + 1}",
                                                           "members": people[4 * n:4 * n + 4]},
                                    format="json")
        assert resp.status_code == 201, resp.content
        teams.append(resp.json())
    prizes = director_client.put(f"{api}{tid}/prizes/",
                                 {"entry_fee_cents": 1500, "payout_percent": 90,
                                  "places_percent": [40, 25, 15, 10, 10]}, format="json")
    assert prizes.status_code == 200, prizes.content
    drawn = director_client.post(f"{api}{tid}/rounds/", {"method": "balanced", "seed": 3},
                                 format="json")
    assert drawn.status_code == 201
    team_of = {m["participant"]: t["id"] for t in teams for m in t["members"]}
    tables = drawn.json()["tables"]
    assert len(tables) == 10
    for table in tables:
        seated = [team_of[s["participant"]] for s in table["seats"]]
        assert len(set(seated)) == len(seated), "teammates seated together"
        for number, deal in enumerate([WIN, {"passed": True}, {"passed": True},
                                       {"passed": True}], start=1):
            resp = director_client.post(f"/api/v1/tables/{table['id']}/deals/",
                                        {"number": number, **deal}, format="json")
            assert resp.status_code == 201, resp.content
        assert director_client.post(f"/api/v1/tables/{table['id']}/submit/", {},
                                    format="json").status_code == 200
    assert director_client.post(f"{api}{tid}/rounds/1/close/").status_code == 200
    standings_recompute(tournament_id=tid)

    results = anon_client.get(f"{api}{tid}/standings/").json()["results"]
    score = {r["participant"]: r["score"] for r in results}
    assert sorted(score.values(), reverse=True)[:10] == [98] * 10
    team_rows = anon_client.get(f"{api}{tid}/teams/standings/").json()["results"]
    assert len(team_rows) == 10
    for row in team_rows:
        assert row["score"] == sum(score[m["participant"]] for m in row["members"])
        assert row["complete"] is True
    assert [r["rank"] for r in team_rows] == sorted(r["rank"] for r in team_rows)

    payout = director_client.get(f"{api}{tid}/prizes/").json()
    assert payout["fees_cents"] == 40 * 1500 and payout["pot_cents"] == 54000
    assert payout["paid_cents"] == 54000
    # ten winners tie at place 1 and share places 1 to 5 (100 % of the pot)
    assert {p["place"] for p in payout["payouts"]} == {1}
    assert sum(p["amount_cents"] for p in payout["payouts"]) == 54000
    cash = director_client.get(f"{api}{tid}/cash/").json()
    assert (cash["fees_cents"], cash["prizes_cents"], cash["balance_cents"]) == \
        (60000, 54000, 6000)
