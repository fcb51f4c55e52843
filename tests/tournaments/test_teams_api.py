"""Teams through the API (api.md; games.md §6): writes, history, team standings."""

import pytest

from tournaments.models import Participant, TeamEvent
from tournaments.recompute.standings_rows import standings_recompute

pytestmark = pytest.mark.django_db

WIN = {"declarer": 1, "game": "clubs", "matadors": 1, "won": True}  # +24 +50


def teams_url(tournament, rest=""):
    return f"/api/v1/tournaments/{tournament.pk}/teams/{rest}"


def participant_ids(tournament):
    return list(Participant.objects.filter(tournament=tournament)
                .order_by("start_number").values_list("pk", flat=True))


def test_director_creates_a_team_anyone_reads_it(director_client, anon_client, short_skat):
    short_skat.published = True
    short_skat.save()
    ids = participant_ids(short_skat)
    resp = director_client.post(teams_url(short_skat), {"name": " Herz  Dame ",
                                                         "members": ids[:2]}, format="json")
    assert resp.status_code == 201, resp.content
    team = resp.json()
    assert team["name"] == "Herz Dame"
    assert [m["participant"] for m in team["members"]] == ids[:2]
    listed = anon_client.get(teams_url(short_skat))
    assert listed.status_code == 200 and listed.json() == [team]
    assert anon_client.post(teams_url(short_skat), {"name": "x"}, format="json"
                            ).status_code == 401


@pytest.mark.parametrize("body, field", [
    ({"members": []}, "name"),
    ({"name": "", "members": []}, "name"),
    ({"name": "x" * 81}, "name"),
    ({"name": 7}, "name"),
    ({"name": "A", "members": "1"}, "members"),
    ({"name": "A", "members": [999999]}, "members.0"),
    ({"name": "A", "members": [True]}, "members.0"),
    ({"name": "A", "members": [10**30]}, "members.0"),
    ({"name": "A", "members": [2**63]}, "members.0"),
    ({"name": "A", "members": [-1]}, "members.0"),
    ({"name": "A", "extra": 1}, "extra"),
])
def test_bad_team_is_400_naming_the_field_and_stores_nothing(director_client, short_skat,
                                                             body, field):
    resp = director_client.post(teams_url(short_skat), body, format="json")
    assert resp.status_code == 400, resp.content
    assert field in {e["field"] for e in resp.json()["errors"]}
    assert not short_skat.teams.exists()


def test_team_size_and_one_team_per_participant(director_client, short_skat):
    short_skat.team_size = 2
    short_skat.save()
    ids = participant_ids(short_skat)
    too_big = director_client.post(teams_url(short_skat), {"name": "A", "members": ids[:3]},
                                   format="json")
    assert too_big.status_code == 400
    assert director_client.post(teams_url(short_skat), {"name": "A", "members": ids[:2]},
                                format="json").status_code == 201
    twice = director_client.post(teams_url(short_skat), {"name": "B", "members": [ids[1]]},
                                 format="json")
    assert twice.status_code == 400
    assert twice.json()["errors"][0]["field"] == "members.0"
    same_name = director_client.post(teams_url(short_skat), {"name": "a"}, format="json")
    assert same_name.status_code == 400


def test_members_move_before_the_first_round_only(director_client, short_skat):
    ids = participant_ids(short_skat)
    a = director_client.post(teams_url(short_skat), {"name": "A", "members": ids[:2]},
                             format="json").json()
    b = director_client.post(teams_url(short_skat), {"name": "B", "members": [ids[2]]},
                             format="json").json()
    # before round 1: take ids[1] out of A and put him into B
    assert director_client.patch(teams_url(short_skat, f"{a['id']}/"), {"members": [ids[0]]},
                                 format="json").status_code == 200
    moved = director_client.patch(teams_url(short_skat, f"{b['id']}/"),
                                  {"members": [ids[2], ids[1]]}, format="json")
    assert moved.status_code == 200
    assert {m["participant"] for m in moved.json()["members"]} == {ids[1], ids[2]}
    director_client.post(f"/api/v1/tournaments/{short_skat.pk}/rounds/",
                         {"method": "balanced", "seed": 1}, format="json")
    out = director_client.patch(teams_url(short_skat, f"{b['id']}/"), {"members": [ids[2]]},
                                format="json")
    assert out.status_code == 409
    assert director_client.delete(teams_url(short_skat, f"{b['id']}/")).status_code == 409
    # a player in no team still joins a team with room; a rename is fine
    joined = director_client.patch(teams_url(short_skat, f"{a['id']}/"),
                                   {"members": [ids[0], ids[5]], "name": "Asse"},
                                   format="json")
    assert joined.status_code == 200 and joined.json()["name"] == "Asse"
    actions = list(TeamEvent.objects.filter(tournament=short_skat).values_list("action",
                                                                                flat=True))
    assert actions == ["create", "create", "update", "update", "update"]
    last = TeamEvent.objects.filter(tournament=short_skat).last()
    assert last.before == {"name": "A", "members": [ids[0]]}
    assert last.after == {"name": "Asse", "members": sorted([ids[0], ids[5]])}


@pytest.mark.parametrize("body", [{"actor": 1}, {"team_id": 2}, {"fields": {}}, [1]])
def test_a_patch_with_a_strange_body_is_400(director_client, short_skat, body):
    team = director_client.post(teams_url(short_skat), {"name": "A"}, format="json").json()
    resp = director_client.patch(teams_url(short_skat, f"{team['id']}/"), body, format="json")
    assert resp.status_code == 400, resp.content
    assert resp.json()["errors"]


def test_team_size_cannot_shrink_below_a_team(director_client, short_skat):
    ids = participant_ids(short_skat)
    director_client.post(teams_url(short_skat), {"name": "A", "members": ids[:3]},
                         format="json")
    resp = director_client.patch(f"/api/v1/tournaments/{short_skat.pk}/", {"team_size": 2},
                                 format="json")
    assert resp.status_code == 400
    assert resp.json()["errors"][0]["field"] == "team_size"


def test_team_standings_sum_members_and_show_withdrawn_and_short_teams(
        director_client, anon_client, short_skat, table):
    short_skat.published = True
    short_skat.save()
    seats = [s["participant"] for s in table["seats"]]
    others = [pid for pid in participant_ids(short_skat) if pid not in seats]
    full = director_client.post(teams_url(short_skat), {"name": "Full", "members":
                                                        [seats[0], *others[:3]]},
                                format="json").json()
    short = director_client.post(teams_url(short_skat), {"name": "Short", "members":
                                                         [seats[1]]}, format="json").json()
    resp = director_client.post(f"/api/v1/tables/{table['id']}/deals/",
                                {"number": 1, **WIN}, format="json")
    assert resp.status_code == 201, resp.content
    director_client.patch(f"/api/v1/tournaments/{short_skat.pk}/participants/{seats[0]}/",
                          {"withdrawn": True}, format="json")
    standings_recompute(tournament_id=short_skat.pk)
    answer = anon_client.get(teams_url(short_skat, "standings/"))
    assert answer.status_code == 200
    body = answer.json()
    assert body["stale"] is False
    first, second = body["results"]
    assert (first["team"], first["score"], first["complete"]) == (full["id"], 74, True)
    withdrawn = next(m for m in first["members"] if m["participant"] == seats[0])
    assert withdrawn["withdrawn"] is True and withdrawn["score"] == 74
    assert (second["team"], second["complete"], second["missing"]) == (short["id"], False, 3)
    etag = answer["ETag"]
    assert anon_client.get(teams_url(short_skat, "standings/"),
                           HTTP_IF_NONE_MATCH=etag).status_code == 304
    director_client.patch(teams_url(short_skat, f"{short['id']}/"), {"name": "Kurz"},
                          format="json")
    renamed = anon_client.get(teams_url(short_skat, "standings/"), HTTP_IF_NONE_MATCH=etag)
    assert renamed.status_code == 200 and renamed.json()["results"][1]["name"] == "Kurz"


def test_balanced_draw_keeps_teammates_apart(director_client, short_skat):
    ids = participant_ids(short_skat)
    director_client.post(teams_url(short_skat), {"name": "A", "members": ids[:2]},
                         format="json")
    for seed in range(5):
        short_skat.rounds.all().delete()
        resp = director_client.post(f"/api/v1/tournaments/{short_skat.pk}/rounds/",
                                    {"method": "balanced", "seed": seed}, format="json")
        assert resp.status_code == 201
        tables = [{s["participant"] for s in t["seats"]} for t in resp.json()["tables"]]
        assert not any({ids[0], ids[1]} <= members for members in tables)


def test_teams_of_a_hidden_tournament_are_404(anon_client, short_skat):
    short_skat.published = False
    short_skat.save()
    assert anon_client.get(teams_url(short_skat)).status_code == 404
    assert anon_client.get(teams_url(short_skat, "standings/")).status_code == 404


def test_the_draw_reports_teammates_it_could_not_keep_apart(director_client, short_skat):
    ids = participant_ids(short_skat)
    director_client.post(teams_url(short_skat), {"name": "Vier", "members": ids[:4]},
                         format="json")
    resp = director_client.post(f"/api/v1/tournaments/{short_skat.pk}/rounds/",
                                {"method": "balanced", "seed": 4}, format="json")
    body = resp.json()
    table_of = {s["participant"]: t["number"] for t in body["tables"] for s in t["seats"]}
    pairs = body["teammates_together"]
    # four teammates at two tables: at least two pairs share a table, and each reported
    # pair really does
    assert len(pairs) >= 2
    for a, b in pairs:
        assert {a["participant"], b["participant"]} <= set(ids[:4])
        assert table_of[a["participant"]] == table_of[b["participant"]]
    together = sum(1 for i, a in enumerate(ids[:4]) for b in ids[i + 1:4]
                   if table_of[a] == table_of[b])
    assert together == len(pairs)
