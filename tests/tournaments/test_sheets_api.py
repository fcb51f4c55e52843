"""Score entry per table: deals, idempotent retries, corrections with If-Match, deletion,
summary, submission and history (api.md)."""

import pytest

from tests.conftest import table_client_for
from tournaments.models import Deal, IdempotencyKey, Round, SheetEvent, Table

pytestmark = pytest.mark.django_db

CLUBS_WON = {"declarer": 2, "game": "clubs", "matadors": 1, "won": True}   # +24
GRAND_LOST = {"declarer": 3, "game": "grand", "matadors": 2, "won": False}  # -144


def url(table, suffix=""):
    return f"/api/v1/tables/{table['id']}/{suffix}"


def post_deal(client, table, number, record, **headers):
    return client.post(url(table, "deals/"), {"number": number, **record}, format="json",
                       **headers)


def test_table_enters_a_deal_and_gets_its_scores(table_client, table):
    resp = post_deal(table_client, table, 1, CLUBS_WON)
    assert resp.status_code == 201, resp.content
    body = resp.json()
    assert body["scores"] == [0, 24, 0]
    assert resp["ETag"]
    sheet = table_client.get(url(table)).json()
    assert sheet["version"] == 1
    assert [d["scores"] for d in sheet["deals"]] == [[0, 24, 0]]
    totals = {t["seat"]: t for t in sheet["totals"]}
    assert totals[2]["score"] == 24 + 50 and totals[2]["won"] == 1
    assert "entry_token" not in sheet


def test_deal_is_checked_in_its_place_in_the_sheet(table_client, table, other_table,
                                                  director_client):
    # deal 1 at the 4-table is dealt by seat 1, who sits out and cannot declare
    resp = post_deal(director_client, other_table, 1, {**CLUBS_WON, "declarer": 1})
    assert resp.status_code == 400
    assert "declarer" in resp.json()
    assert post_deal(table_client, table, 2, CLUBS_WON).status_code == 400
    assert not Deal.objects.exists()


def test_bad_deal_names_the_field_in_the_requests_language(table_client, table):
    bad = {**CLUBS_WON, "matadors": 0}
    de = post_deal(table_client, table, 1, bad)
    en = post_deal(table_client, table, 1, bad, HTTP_ACCEPT_LANGUAGE="en")
    assert de.status_code == en.status_code == 400
    assert "matadors" in de.json() and "matadors" in en.json()
    assert de.json()["matadors"] != en.json()["matadors"]


def test_deal_without_number_is_400(table_client, table):
    resp = table_client.post(url(table, "deals/"), CLUBS_WON, format="json")
    assert resp.status_code == 400 and "number" in resp.json()


def test_a_deal_number_entered_twice_is_a_conflict(table_client, table):
    post_deal(table_client, table, 1, CLUBS_WON)
    assert post_deal(table_client, table, 1, CLUBS_WON).status_code == 409
    assert Deal.objects.count() == 1


def test_retry_with_the_same_idempotency_key_returns_the_first_answer(table_client, table):
    first = post_deal(table_client, table, 1, CLUBS_WON, HTTP_IDEMPOTENCY_KEY="k-1")
    again = post_deal(table_client, table, 1, CLUBS_WON, HTTP_IDEMPOTENCY_KEY="k-1")
    assert first.status_code == again.status_code == 201
    assert first.json() == again.json()
    assert again["ETag"] == first["ETag"]
    assert again["Idempotent-Replayed"] == "true"
    assert Deal.objects.count() == 1
    assert SheetEvent.objects.filter(action="deal_create").count() == 1


def test_same_idempotency_key_with_another_body_is_refused(table_client, table):
    post_deal(table_client, table, 1, CLUBS_WON, HTTP_IDEMPOTENCY_KEY="k-1")
    resp = post_deal(table_client, table, 2, GRAND_LOST, HTTP_IDEMPOTENCY_KEY="k-1")
    assert resp.status_code == 409
    assert Deal.objects.count() == 1


def test_refused_request_does_not_bind_its_idempotency_key(table_client, table):
    bad = post_deal(table_client, table, 1, {**CLUBS_WON, "matadors": 0},
                    HTTP_IDEMPOTENCY_KEY="k-9")
    assert bad.status_code == 400
    assert not IdempotencyKey.objects.exists()
    fixed = post_deal(table_client, table, 1, CLUBS_WON, HTTP_IDEMPOTENCY_KEY="k-9")
    assert fixed.status_code == 201
    assert IdempotencyKey.objects.get().key == "k-9"


def test_correction_needs_if_match(table_client, table):
    post_deal(table_client, table, 1, CLUBS_WON)
    resp = table_client.put(url(table, "deals/1/"), GRAND_LOST, format="json")
    assert resp.status_code == 428


def test_stale_if_match_is_412_and_changes_nothing(table_client, table):
    etag = post_deal(table_client, table, 1, CLUBS_WON)["ETag"]
    ok = table_client.put(url(table, "deals/1/"), GRAND_LOST, format="json", HTTP_IF_MATCH=etag)
    assert ok.status_code == 200 and ok.json()["scores"] == [0, 0, -144]
    assert ok["ETag"] != etag
    stale = table_client.put(url(table, "deals/1/"), CLUBS_WON, format="json", HTTP_IF_MATCH=etag)
    assert stale.status_code == 412
    assert Deal.objects.get().scores == [0, 0, -144]


def test_correction_keeps_the_previous_value_in_the_history(table_client, table, director_client):
    etag = post_deal(table_client, table, 1, CLUBS_WON)["ETag"]
    table_client.put(url(table, "deals/1/"), GRAND_LOST, format="json", HTTP_IF_MATCH=etag)
    history = director_client.get(url(table, "history/")).json()
    assert [e["action"] for e in history] == ["deal_create", "deal_update"]
    update = history[1]
    assert update["before"]["scores"] == [0, 24, 0]
    assert update["after"]["scores"] == [0, 0, -144]
    assert update["by"] == "table" and "ip" not in update  # the address is not hashed
    assert SheetEvent.objects.get(pk=update["id"]).ip == "127.0.0.1"  # but kept


def test_history_is_for_staff_only(table_client, table, outsider_client):
    assert table_client.get(url(table, "history/")).status_code == 403
    assert outsider_client.get(url(table, "history/")).status_code == 403


def test_only_the_last_deal_can_be_deleted(table_client, table):
    post_deal(table_client, table, 1, CLUBS_WON)
    post_deal(table_client, table, 2, GRAND_LOST)
    assert table_client.delete(url(table, "deals/1/")).status_code == 409
    assert table_client.delete(url(table, "deals/2/")).status_code == 204
    assert list(Deal.objects.values_list("number", flat=True)) == [1]
    sheet = table_client.get(url(table)).json()
    assert {t["seat"]: t["score"] for t in sheet["totals"]}[3] == 0


def fill(client, table, count):
    for number in range(1, count + 1):
        assert post_deal(client, table, number, {"passed": True}).status_code == 201


def test_incomplete_sheet_cannot_be_submitted(table_client, table):
    fill(table_client, table, 2)
    resp = table_client.post(url(table, "submit/"))
    assert resp.status_code == 400 and "deals" in resp.json()


def test_submit_locks_the_table_out_but_staff_may_still_correct(table_client, table,
                                                               director_client):
    fill(table_client, table, 3)
    assert post_deal(table_client, table, 4, {"passed": True}).status_code == 400  # series full
    assert table_client.post(url(table, "submit/")).json()["status"] == "submitted"
    etag = table_client.get(url(table, "deals/3/"))["ETag"]
    assert table_client.put(url(table, "deals/3/"), CLUBS_WON, format="json",
                            HTTP_IF_MATCH=etag).status_code == 409
    assert table_client.delete(url(table, "deals/3/")).status_code == 409
    resp = director_client.put(url(table, "deals/3/"), CLUBS_WON, format="json",
                               HTTP_IF_MATCH=etag)
    assert resp.status_code == 200
    assert SheetEvent.objects.filter(action="deal_update", user__username="director").exists()
    assert table_client.post(url(table, "submit/")).status_code == 409


def test_a_table_token_writes_while_it_may_and_is_refused_once_it_may_not(
        table_client, table, director_client, short_skat):
    """The token's one question to the policy per write: its answer decides (201, then
    409 once the sheet is submitted, 401 once the round is closed), whether the director
    changed the sheet's state through another request or not."""
    assert post_deal(table_client, table, 1, CLUBS_WON).status_code == 201
    Table.objects.filter(pk=table["id"]).update(submitted=True)
    refused = post_deal(table_client, table, 2, CLUBS_WON)
    assert refused.status_code == 409
    assert not Deal.objects.filter(table_id=table["id"], number=2).exists()
    Table.objects.filter(pk=table["id"]).update(submitted=False)
    assert post_deal(table_client, table, 2, CLUBS_WON).status_code == 201
    Round.objects.filter(tournament=short_skat).update(closed=True)
    assert post_deal(table_client, table, 3, CLUBS_WON).status_code == 401
    assert Deal.objects.filter(table_id=table["id"]).count() == 2


def test_closed_round_makes_the_token_useless(table_client, table, other_table, director_client,
                                              short_skat):
    fill(table_client, table, 3)
    table_client.post(url(table, "submit/"))
    close = f"/api/v1/tournaments/{short_skat.pk}/rounds/1/close/"
    assert director_client.post(close).status_code == 409  # the 4-table is still open
    other = table_client_for(other_table["entry_token"])
    fill(other, other_table, 4)
    other.post(url(other_table, "submit/"))
    assert director_client.post(close).status_code == 200
    assert table_client.get(url(table)).status_code == 401
    assert director_client.post(close).status_code == 409


def test_summary_replaces_the_deals_and_completes_the_sheet(table_client, table,
                                                            director_client):
    post_deal(table_client, table, 1, CLUBS_WON)
    summary = {"seats": [{"game_points": 0, "won": 0, "lost": 0},
                         {"game_points": 120, "won": 2, "lost": 0},
                         {"game_points": -48, "won": 0, "lost": 1}]}
    assert table_client.put(url(table, "summary/"), summary, format="json").status_code == 403
    resp = director_client.put(url(table, "summary/"), summary, format="json")
    assert resp.status_code == 200, resp.content
    totals = {t["seat"]: t["score"] for t in resp.json()["totals"]}
    assert totals == {1: 40, 2: 120 + 100 + 40, 3: -48 - 50}
    assert not Deal.objects.exists()
    assert post_deal(table_client, table, 1, CLUBS_WON).status_code == 409
    assert table_client.post(url(table, "submit/")).status_code == 200
    event = SheetEvent.objects.get(action="summary")
    assert event.before["deals"][0]["scores"] == [0, 24, 0]


def test_bad_summary_is_400(director_client, table):
    resp = director_client.put(url(table, "summary/"), {"seats": [{"game_points": 5}]},
                               format="json")
    assert resp.status_code == 400


def test_submit_keeps_who_confirmed_by_name(table_client, table, director_client):
    fill(table_client, table, 3)
    resp = table_client.post(url(table, "submit/"), {"confirmed_by": [3, 1]}, format="json")
    assert resp.status_code == 200, resp.content
    event = SheetEvent.objects.get(action="submit")
    names = {s["seat"]: s["name"] for s in table["seats"]}
    assert event.after["confirmed_by"] == [{"seat": 1, "name": names[1]},
                                           {"seat": 3, "name": names[3]}]
    history = director_client.get(url(table, "history/")).json()
    assert history[-1]["after"]["confirmed_by"][1]["name"] == names[3]


@pytest.mark.parametrize("confirmed_by", [[4], [1, 1], ["1"], [True], [1.5], "1", {"seat": 1},
                                          [0], [-2], [10**30]])
def test_submit_refuses_seats_not_at_the_table_and_stores_nothing(table_client, table,
                                                                  confirmed_by):
    fill(table_client, table, 3)
    resp = table_client.post(url(table, "submit/"), {"confirmed_by": confirmed_by},
                             format="json", HTTP_ACCEPT_LANGUAGE="de")
    assert resp.status_code == 400, resp.content
    assert resp.json()["errors"][0]["field"] == "confirmed_by"
    assert not SheetEvent.objects.filter(action="submit").exists()
    assert table_client.get(url(table)).json()["status"] != "submitted"


def test_submit_without_a_body_names_nobody(table_client, table):
    fill(table_client, table, 3)
    assert table_client.post(url(table, "submit/")).status_code == 200
    assert SheetEvent.objects.get(action="submit").after["confirmed_by"] == []


def test_director_submits_an_unconfirmed_sheet_with_a_reason_kept_in_the_history(
        table_client, table, director_client, client, director):
    fill(table_client, table, 3)
    resp = director_client.post(url(table, "submit/"), {
        "confirmed_by": [1], "unconfirmed_reason": "Spieler 3 musste gehen"}, format="json")
    assert resp.status_code == 200, resp.content
    after = SheetEvent.objects.get(action="submit").after
    assert after["unconfirmed_reason"] == "Spieler 3 musste gehen"
    entry = director_client.get(url(table, "history/")).json()[-1]
    assert entry["after"]["unconfirmed_reason"] == "Spieler 3 musste gehen"
    client.force_login(director)  # and the staff's sheet says it in words
    page = client.get(f"/console/table/{table['id']}/").content.decode()
    assert "Spieler 3 musste gehen" in page


def test_only_the_director_submits_without_every_confirmation(table_client, table):
    fill(table_client, table, 3)
    resp = table_client.post(url(table, "submit/"), {"unconfirmed_reason": "egal"},
                             format="json")
    assert resp.status_code == 400
    assert resp.json()["errors"][0]["field"] == "unconfirmed_reason"
    assert not SheetEvent.objects.filter(action="submit").exists()
