"""A Doppelkopf tournament through the API (games.md §8): creation, 4- and 5-tables drawn
and the sizes refused, the sheet example S1 of §8.9 entered deal by deal by the table
(dealer, Pflichtsoli, Vorführung and the refusals naming the due seat), corrections of an
earlier deal that move the later dealers, the totals and the standings; and the
stateless scorer with every worked example D1–D15."""

import json

import pytest
from django.test import Client

from games.engines import EngineUserError
from tests.conftest import table_client_for
from tests.factories import PlayerFactory
from tournaments.models import Deal, SheetEvent
from tournaments.recompute.standings_rows import standings_recompute

pytestmark = pytest.mark.django_db

API = "/api/v1/tournaments/"


def doppelkopf(director_client, club, players: int) -> int:
    created = director_client.post(API, {"name": "Doko", "game": "doppelkopf",
                                         "published": True}, format="json")
    assert created.status_code == 201, created.content
    tid = created.json()["id"]
    for _ in range(players):
        resp = director_client.post(f"{API}{tid}/participants/",
                                    {"player": PlayerFactory(club=club).pk}, format="json")
        assert resp.status_code == 201, resp.content
    return tid


def draw(director_client, tid, lang="en"):
    return director_client.post(f"{API}{tid}/rounds/", {"method": "random", "seed": 5},
                                format="json", HTTP_ACCEPT_LANGUAGE=lang)


def one_table(director_client, club, players: int) -> dict:
    tid = doppelkopf(director_client, club, players)
    resp = draw(director_client, tid)
    assert resp.status_code == 201, resp.content
    (table,) = resp.json()["tables"]
    return {**table, "tournament": tid}


def post(client, table, number, record):
    return client.post(f"/api/v1/tables/{table['id']}/deals/", {"number": number, **record},
                       format="json", HTTP_ACCEPT_LANGUAGE="en")


def normal(re=(1, 2), points=130, **more) -> dict:
    return {"game": "normal", "re": list(re), "re_points": points, **more}


def solo(seat: int, game: str = "solo_herz", points: int = 130) -> dict:
    return {"game": game, "re": [seat], "re_points": points}


# --------------------------------------------------------------------------- the draw


@pytest.mark.parametrize("count,sizes", [(4, [4]), (5, [5]), (8, [4, 4]), (9, [5, 4]),
                                         (13, [5, 4, 4])])
def test_a_draw_seats_four_tables_and_five_tables_where_needed(director_client, club, count,
                                                              sizes):
    tid = doppelkopf(director_client, club, count)
    resp = draw(director_client, tid)
    assert resp.status_code == 201, resp.content
    assert sorted((len(t["seats"]) for t in resp.json()["tables"]), reverse=True) == sizes


@pytest.mark.parametrize("count", [6, 7, 11])
def test_a_draw_refuses_what_four_and_five_tables_cannot_seat(director_client, club, count):
    tid = doppelkopf(director_client, club, count)
    resp = draw(director_client, tid)
    assert resp.status_code == 400
    assert resp.json()["players"] == [
        f"{count} players cannot be split into tables of 4, 5 players."]
    assert director_client.get(f"{API}{tid}/rounds/").json() in ([], {"results": []}) or \
        not Deal.objects.exists()


# --------------------------------------------------------------------------- S1


def s1_plan() -> list[tuple[dict, dict]]:
    """The sheet S1 of games.md §8.9, each deal with its expected answer: 20 normal games
    dealt by 1, 2, 3, 4, …, seat 4's Pflichtsolo in the game seat 3 deals (seat 3 deals
    again), seat 2's later; then seats 3 and 1 vorgeführt (dealers 1 and 2). Deal 1 is
    D1 (v = −5); every other normal game Re wins with 130 (v = 1); every solo the
    soloist wins with 130 (v = 1, soloist × 3)."""
    pairs = [(1, 3), (1, 2), (2, 4), (3, 4), (1, 4), (2, 3)]
    plan = []

    def one_solo(seat, game, dealer, forced):
        scores = [-1] * 4
        scores[seat - 1] = 3
        plan.append((solo(seat, game), {"scores": scores, "value": 1, "dealer": dealer,
                                        "compulsory": True, "forced": forced}))

    for k in range(20):
        dealer = k % 4 + 1
        if k == 0:
            deal = normal((1, 3), 80, announcements={"kontra": "kontra"})  # D1
            plan.append((deal, {"scores": [-5, 5, -5, 5], "value": -5, "dealer": dealer,
                                "compulsory": False, "forced": False}))
        else:
            re = pairs[k % len(pairs)]
            plan.append((normal(re), {"scores": [1 if s in re else -1 for s in range(1, 5)],
                                      "value": 1, "dealer": dealer, "compulsory": False,
                                      "forced": False}))
        if k == 1:
            one_solo(4, "solo_herz", 3, False)
        if k == 5:
            one_solo(2, "solo_kreuz", 3, False)
    one_solo(3, "solo_damen", 1, True)
    one_solo(1, "solo_fleischlos", 2, True)
    return plan


def test_sheet_s1_entered_deal_by_deal_at_a_four_table(director_client, anon_client, club):
    table = one_table(director_client, club, 4)
    client = table_client_for(table["entry_token"])
    plan = s1_plan()
    assert len(plan) == 24
    sheet_url = f"/api/v1/tables/{table['id']}/"
    for number, (record, expected) in enumerate(plan, start=1):
        if number == 23:
            # all normal games are played: a normal game and a solo by seat 1 are refused,
            # naming the due seat 3 (§8.5 no. 9); the tablet is told who is due
            state = client.get(sheet_url).json()
            assert state["next"]["due"] == 3 and state["dealer"] == 1
            assert state["complete"] is False
            refused = post(client, table, 23, normal())
            assert refused.status_code == 400
            assert refused.json()["game"] == [
                "All normal games are played; a Pflichtsolo by seat 3 is due."]
            refused = post(client, table, 23, solo(1))
            assert refused.status_code == 400
            assert refused.json()["re"] == ["A Pflichtsolo by seat 3 is due."]
        if number == 24:
            assert client.get(sheet_url).json()["next"]["due"] == 1
        resp = post(client, table, number, record)
        assert resp.status_code == 201, (number, resp.content)
        body = resp.json()
        assert body["scores"] == expected["scores"], number
        answer = {k: body["extra"][k] for k in ("value", "dealer", "compulsory", "forced")}
        assert answer == {k: expected[k] for k in answer}, number
    state = client.get(sheet_url).json()
    assert len(state["deals"]) == 24 and state["complete"] is True
    assert state["next_deal"] is None
    # the round is complete: any further deal is refused
    assert post(client, table, 25, normal()).status_code == 400
    sums = [sum(e["scores"][i] for _, e in plan) for i in range(4)]
    assert sum(sums) == 0
    totals = {t["seat"]: t for t in state["totals"]}
    assert [totals[s]["score"] for s in range(1, 5)] == sums
    assert all(totals[s]["pflichtsolo"] for s in range(1, 5))
    assert [totals[s]["solos"] for s in range(1, 5)] == [1, 1, 1, 1]

    submitted = client.post(f"{sheet_url}submit/", {}, format="json")
    assert submitted.status_code == 200, submitted.content
    tid = table["tournament"]
    assert director_client.post(f"{API}{tid}/rounds/1/close/").status_code == 200
    standings_recompute(tournament_id=tid)
    results = anon_client.get(f"{API}{tid}/standings/").json()["results"]
    seat_of = {s["participant"]: s["seat"] for s in table["seats"]}
    assert {r["participant"]: r["score"] for r in results} == {
        p: sums[seat - 1] for p, seat in seat_of.items()}
    ranked = sorted(results, key=lambda r: r["rank"])
    assert [r["score"] for r in ranked] == sorted(sums, reverse=True)


def test_an_incomplete_round_cannot_be_submitted(director_client, club):
    table = one_table(director_client, club, 4)
    client = table_client_for(table["entry_token"])
    for number, (record, _) in enumerate(s1_plan()[:22], start=1):
        assert post(client, table, number, record).status_code == 201
    resp = client.post(f"/api/v1/tables/{table['id']}/submit/", {}, format="json",
                       HTTP_ACCEPT_LANGUAGE="en")
    assert resp.status_code == 400, resp.content


def test_annulled_rows_do_not_count_toward_the_round(director_client, club):
    table = one_table(director_client, club, 4)
    client = table_client_for(table["entry_token"])
    plan = s1_plan()
    annulled = {"game": "annulled", "penalties": [{"seat": 2, "kind": "serious"}]}
    records = [record for record, _ in plan[:10]] + [annulled] + \
        [record for record, _ in plan[10:]]
    for number, record in enumerate(records, start=1):
        resp = post(client, table, number, record)
        assert resp.status_code == 201, (number, resp.content)
    assert post(client, table, 11, annulled).status_code == 409
    assert post(client, table, 26, normal()).status_code == 400
    state = client.get(f"/api/v1/tables/{table['id']}/").json()
    assert len(state["deals"]) == 25 and state["complete"] is True
    # the annulled game is dealt again by the same dealer
    deals = state["deals"]
    assert deals[10]["extra"]["dealer"] == deals[11]["extra"]["dealer"]


def test_time_up_ends_the_normal_games_and_the_due_pflichtsoli_complete_it(director_client,
                                                                           club):
    table = one_table(director_client, club, 4)
    client = table_client_for(table["entry_token"])
    sheet_url = f"/api/v1/tables/{table['id']}/"
    for number in range(1, 6):
        assert post(client, table, number, normal()).status_code == 201
    assert post(client, table, 6, {"game": "time_up"}).status_code == 201
    number, due = 7, []
    while not (state := client.get(sheet_url).json())["complete"]:
        due.append(state["next"]["due"])
        resp = post(client, table, number, solo(due[-1]))
        assert resp.status_code == 201, resp.content
        assert resp.json()["extra"]["forced"] is True
        number += 1
    assert due == [3, 4, 1, 2]
    assert len(state["deals"]) == 10 and state["next_deal"] is None
    assert client.post(f"{sheet_url}submit/", {}, format="json").status_code == 200


def test_the_preview_checks_the_deal_in_its_place(director_client, club):
    table = one_table(director_client, club, 4)
    client = table_client_for(table["entry_token"])
    for number, (record, _) in enumerate(s1_plan()[:22], start=1):
        assert post(client, table, number, record).status_code == 201
    preview = f"/api/v1/tables/{table['id']}/preview/"
    refused = client.post(preview, {"number": 23, **normal()}, format="json",
                          HTTP_ACCEPT_LANGUAGE="en")
    assert refused.status_code == 400
    assert refused.json()["game"] == [
        "All normal games are played; a Pflichtsolo by seat 3 is due."]
    shown = client.post(preview, {"number": 23, **solo(3)}, format="json")
    assert shown.status_code == 200, shown.content
    assert shown.json()["extra"]["forced"] is True and shown.json()["extra"]["dealer"] == 1
    assert Deal.objects.count() == 22


def test_a_paper_sheet_typed_in_at_once_has_room_for_annulled_rows(director_client, club,
                                                                  director):
    from tournaments.models import Table
    from tournaments.services import deals_record
    from tournaments.services.actors import Actor

    table = one_table(director_client, club, 4)
    annulled = {"game": "annulled", "penalties": [{"seat": 2, "kind": "serious"}]}
    records = [record for record, _ in s1_plan()]
    records.insert(4, annulled)
    deals = deals_record(table_id=table["id"], records=records, actor=Actor(user=director))
    assert len(deals) == 25
    assert [d.extra["dealer"] for d in deals[3:6]] == [3, 4, 4]  # annulled: dealt again
    with pytest.raises(EngineUserError) as exc:
        deals_record(table_id=table["id"], records=[normal()], actor=Actor(user=director))
    assert exc.value.errors[0].field == "deals"
    assert Table.objects.get(pk=table["id"]).seats.get(seat=2).figures["pflichtsolo"] is True


# --------------------------------------------------------------------------- corrections


def test_a_correction_moves_the_later_dealers(director_client, club):
    table = one_table(director_client, club, 4)
    client = table_client_for(table["entry_token"])
    etags = {}
    for number in range(1, 5):
        resp = post(client, table, number, normal())
        assert resp.status_code == 201
        etags[number] = resp["ETag"]
    assert [d.extra["dealer"] for d in Deal.objects.order_by("number")] == [1, 2, 3, 4]
    # deal 2 was seat 1's Pflichtsolo: seat 2 keeps dealing
    resp = client.put(f"/api/v1/tables/{table['id']}/deals/2/", solo(1), format="json",
                      HTTP_IF_MATCH=etags[2])
    assert resp.status_code == 200, resp.content
    assert resp.json()["extra"]["compulsory"] is True
    assert resp.json()["scores"] == [3, -1, -1, -1]
    deals = list(Deal.objects.order_by("number"))
    assert [d.extra["dealer"] for d in deals] == [1, 2, 2, 3]
    assert [d.version for d in deals] == [1, 2, 2, 2]
    updates = SheetEvent.objects.filter(action="deal_update").order_by("pk")
    assert [e.deal_number for e in updates] == [2, 3, 4]
    assert updates[1].before["record"] == updates[1].after["record"]
    state = client.get(f"/api/v1/tables/{table['id']}/").json()
    assert state["dealer"] == 4  # the next deal
    totals = {t["seat"]: t for t in state["totals"]}
    assert totals[1]["pflichtsolo"] is True
    assert [totals[s]["score"] for s in range(1, 5)] == [6, 2, -4, -4]


def test_a_correction_that_breaks_a_later_deals_place_is_refused(director_client, club):
    table = one_table(director_client, club, 4)
    client = table_client_for(table["entry_token"])
    plan = s1_plan()
    etag = None
    for number, (record, _) in enumerate(plan[:22], start=1):
        resp = post(client, table, number, record)
        assert resp.status_code == 201
        if number == 3:
            etag = resp["ETag"]
    # deal 3 (seat 4's Pflichtsolo) made a normal game: the 21st normal game (deal 22)
    # no longer fits
    before = list(Deal.objects.order_by("number").values_list("record", "scores", "extra"))
    resp = client.put(f"/api/v1/tables/{table['id']}/deals/3/", normal(), format="json",
                      HTTP_IF_MATCH=etag, HTTP_ACCEPT_LANGUAGE="en")
    assert resp.status_code == 400, resp.content
    body = resp.json()
    assert body["number"] == ["After this correction deal 22 no longer fits its place in "
                              "the sheet."]
    assert body["deals"]["21"]["game"] == [
        "All normal games are played; a Pflichtsolo by seat 3 is due."]
    after = list(Deal.objects.order_by("number").values_list("record", "scores", "extra"))
    assert after == before


# --------------------------------------------------------------------------- 5-table


def test_a_five_table_sits_the_dealer_out(director_client, club):
    table = one_table(director_client, club, 5)
    client = table_client_for(table["entry_token"])
    refused = post(client, table, 1, normal((1, 2)))
    assert refused.status_code == 400 and "re" in refused.json()
    for number, re in enumerate([(2, 3), (3, 4), (4, 5), (1, 5)], start=1):
        assert post(client, table, number, normal(re)).status_code == 201
    state = client.get(f"/api/v1/tables/{table['id']}/").json()
    assert state["dealer"] == 5 and state["next"]["active_seats"] == [1, 2, 3, 4]
    resp = post(client, table, 5, normal((1, 3), 150, announcements={"re": "re"}))  # D12
    assert resp.status_code == 201
    assert resp.json()["scores"] == [3, -3, 3, -3, 0]
    assert resp.json()["extra"]["dealer"] == 5


# --------------------------------------------------------------------------- the scorer


EXAMPLES = [
    ("D1", [normal((1, 3), 80, announcements={"kontra": "kontra"})], [-5, 5, -5, 5]),
    ("D2", [normal((1, 2), 130, announcements={"re": "no60"})], [-7, -7, 7, 7]),
    ("D3", [normal((2, 4), 120)], [2, -2, 2, -2]),
    ("D4", [normal((2, 4), 120, announcements={"kontra": "kontra"})], [-3, 3, -3, 3]),
    ("D5", [normal((1, 4), 125, extras={"kontra": {"fuchs": 2, "karlchen": True}})],
     [-2, 2, 2, -2]),
    ("D6", [normal((1, 2), 131, announcements={"re": "re"},
                   extras={"kontra": {"fuchs": 2, "karlchen": True}})], [0, 0, 0, 0]),
    ("D7", [normal((3, 4), 95, announcements={"kontra": "no60"})], [-6, -6, 6, 6]),
    ("D8", [normal((1, 3), 240, schwarz="kontra", announcements={"re": "schwarz"},
                   extras={"re": {"doppelkopf": 2, "fuchs": 1, "karlchen": True}})],
     [15, -15, 15, -15]),
    ("D9", [{"game": "solo_damen", "re": [2], "re_points": 185,
             "announcements": {"re": "no90", "kontra": "kontra"}}], [-8, 24, -8, -8]),
    ("D10", [{"game": "hochzeit", "re": [3], "re_points": 140}], [-1, -1, 3, -1]),
    ("D11", [normal((1, 2), 130, announcements={"re": "no90", "kontra": "no90"})],
     [1, 1, -1, -1]),
    ("D12", [normal((2, 3)), normal((3, 4)), normal((4, 5)), normal((1, 5)),
             normal((1, 3), 150, announcements={"re": "re"})], [3, -3, 3, -3, 0]),
    ("D13", [normal((1, 3), 140, penalties=[{"seat": 2, "kind": "minor"}])], [2, -4, 2, 0]),
    ("D14", [{"game": "solo_buben", "re": [1], "announcements": {"re": "no90"},
              "penalties": [{"seat": 3, "kind": "serious", "absagen": 1}]}],
     [15, 0, -15, 0]),
    ("D15", [{"game": "normal", "re": [1, 3], "value": -5}], [-5, 5, -5, 5]),
]


@pytest.mark.parametrize("name,deals,scores", EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_the_scorer_answers_every_worked_example(name, deals, scores):
    players = len(scores)
    resp = Client().post("/api/v1/games/doppelkopf/score/",
                         data=json.dumps({"players": players, "deals": deals}),
                         content_type="application/json")
    assert resp.status_code == 200, resp.content
    assert resp.json()["deals"][-1]["scores"] == scores
