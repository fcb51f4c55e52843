"""Entry fee, prize list, lot and cash report through the API (api.md; games.md §6)."""

import pytest

from prizes.models import FeeEvent
from tournaments.models import Participant
from tournaments.recompute.standings_rows import standings_recompute

pytestmark = pytest.mark.django_db

WIN = {"declarer": 1, "game": "clubs", "matadors": 1, "won": True}  # +24 +50


def url(tournament, rest):
    return f"/api/v1/tournaments/{tournament.pk}/{rest}"


def one_winner(director_client, tournament, table):
    """Seat 1 of the 3-table wins one game: he is first, the six others tie at rank 2."""
    resp = director_client.post(f"/api/v1/tables/{table['id']}/deals/", {"number": 1, **WIN},
                                format="json")
    assert resp.status_code == 201, resp.content
    standings_recompute(tournament_id=tournament.pk)
    return table["seats"][0]["participant"]


def test_no_prize_list_is_404_and_only_directors_read_it(director_client, anon_client,
                                                          outsider_client, short_skat):
    assert director_client.get(url(short_skat, "prizes/")).status_code == 404
    assert anon_client.get(url(short_skat, "prizes/")).status_code in (401, 403)
    director_client.put(url(short_skat, "prizes/"), {"entry_fee_cents": 500}, format="json")
    assert outsider_client.get(url(short_skat, "prizes/")).status_code == 403
    assert anon_client.get(url(short_skat, "cash/")).status_code in (401, 403)


@pytest.mark.parametrize("body, field", [
    ({}, "entry_fee_cents"),
    ({"entry_fee_cents": -1}, "entry_fee_cents"),
    ({"entry_fee_cents": 100_001}, "entry_fee_cents"),
    ({"entry_fee_cents": 1000, "payout_percent": 100.001}, "payout_percent"),
    ({"entry_fee_cents": 1000, "places_percent": [60, 30]}, "places_percent"),
    ({"entry_fee_cents": 1000, "places_percent": [100], "places_cents": [5]}, "places_cents"),
    ({"entry_fee_cents": 1000, "places_cents": [5, "x"]}, "places_cents.1"),
    ({"entry_fee_cents": 1000, "places_goods": ["x" * 201]}, "places_goods.0"),
    ({"entry_fee_cents": 1000, "bonus": 1}, "bonus"),
    ([1, 2], ""),
])
def test_bad_prize_list_is_400_naming_the_field(director_client, short_skat, body, field):
    resp = director_client.put(url(short_skat, "prizes/"), body, format="json")
    assert resp.status_code == 400, resp.content
    assert field in {e["field"] for e in resp.json()["errors"]}
    assert not FeeEvent.objects.exists()


def test_tied_players_share_the_last_prize_places_in_whole_cents(director_client, short_skat,
                                                                 table):
    winner = one_winner(director_client, short_skat, table)
    resp = director_client.put(url(short_skat, "prizes/"),
                               {"entry_fee_cents": 1000, "places_percent": [50, 30, 20],
                                "places_goods": ["", "", "Schinken"]}, format="json")
    assert resp.status_code == 200, resp.content
    body = resp.json()
    assert (body["fees_cents"], body["pot_cents"]) == (7000, 7000)
    assert [p["amount_cents"] for p in body["places"]] == [3500, 2100, 1400]
    first, *tied = body["payouts"]
    assert (first["participant"], first["place"], first["amount_cents"]) == (winner, 1, 3500)
    # 3,500 cents for six players: 583 each, the two lowest start numbers get a cent more
    assert len(tied) == 6 and {p["place"] for p in tied} == {2}
    by_start = sorted(tied, key=lambda p: p["start_number"])
    assert [p["amount_cents"] for p in by_start] == [584, 584, 583, 583, 583, 583]
    assert body["paid_cents"] == 7000 and body["undistributed_cents"] == 0
    assert body["ties"] == [[p["participant"] for p in by_start]]
    assert body["lot"] is None


def test_a_lot_orders_the_tied_players(director_client, short_skat, table):
    one_winner(director_client, short_skat, table)
    director_client.put(url(short_skat, "prizes/"),
                        {"entry_fee_cents": 1000, "places_cents": [3000, 2000, 1000]},
                        format="json")
    ties = director_client.get(url(short_skat, "prizes/")).json()["ties"][0]
    partial = director_client.put(url(short_skat, "prizes/lots/"), {"order": ties[:2]},
                                  format="json")
    assert partial.status_code == 400 and partial.json()["errors"][0]["field"] == "order"
    order = list(reversed(ties))
    resp = director_client.put(url(short_skat, "prizes/lots/"), {"order": order},
                               format="json")
    assert resp.status_code == 200, resp.content
    body = resp.json()
    assert body["lot"] == "applied" and body["lot_order"] == order
    paid = {p["participant"]: (p["place"], p["amount_cents"]) for p in body["payouts"]}
    assert paid[order[0]] == (2, 2000) and paid[order[1]] == (3, 1000)
    assert all(paid[pid][1] == 0 for pid in order[2:])


def test_a_lot_needs_a_prize_list(director_client, short_skat):
    resp = director_client.put(url(short_skat, "prizes/lots/"), {"order": [1]}, format="json")
    assert resp.status_code == 409


def test_fee_changed_after_the_first_round_shows_in_the_cash_report(director_client,
                                                                    short_skat, drawn):
    # the fee was set before the draw in reality; here: first setting, draw, change
    FeeEvent.objects.all().delete()
    director_client.put(url(short_skat, "prizes/"), {"entry_fee_cents": 1000,
                                                     "places_percent": [100]},
                        format="json")
    first = FeeEvent.objects.get()
    round_at = short_skat.rounds.get().created_at
    FeeEvent.objects.filter(pk=first.pk).update(at=round_at.replace(year=round_at.year - 1))
    director_client.put(url(short_skat, "prizes/"), {"entry_fee_cents": 1200,
                                                     "places_percent": [100]},
                        format="json")
    assert list(FeeEvent.objects.order_by("at").values_list("entry_fee_cents", flat=True)) \
        == [1000, 1200]
    cash = director_client.get(url(short_skat, "cash/"))
    assert cash.status_code == 200
    report = cash.json()
    assert report["fees_cents"] == 7 * 1200
    assert [(c["from_cents"], c["to_cents"]) for c in report["fee_changes"]] == [(1000, 1200)]
    kinds = [r["kind"] for r in report["rows"]]
    assert kinds.count("fee") == 7 and kinds.count("fee_change") == 7
    # nobody has a result yet: the whole pot is still to be paid
    assert report["prizes_cents"] == 0
    assert report["balance_cents"] == 8400


def test_cash_report_balances_and_is_a_csv_for_the_accounts(director_client, short_skat,
                                                            table):
    one_winner(director_client, short_skat, table)
    director_client.put(url(short_skat, "prizes/"), {"entry_fee_cents": 1000,
                                                     "payout_percent": 80,
                                                     "places_percent": [100]},
                        format="json")
    report = director_client.get(url(short_skat, "cash/")).json()
    assert (report["fees_cents"], report["prizes_cents"], report["balance_cents"]) == \
        (7000, 5600, 1400)
    csv = director_client.get(url(short_skat, "cash/"), {"format": "csv"},
                              HTTP_ACCEPT_LANGUAGE="de")
    assert csv.status_code == 200 and csv["Content-Type"].startswith("text/csv")
    text = csv.content.decode("utf-8-sig")
    assert "Startgeld" in text and "Preis" in text
    assert "56,00" in text and "14,00" in text


def test_payout_follows_a_correction(director_client, short_skat, table):
    winner = one_winner(director_client, short_skat, table)
    director_client.put(url(short_skat, "prizes/"), {"entry_fee_cents": 100,
                                                     "places_cents": [500]}, format="json")
    assert director_client.get(url(short_skat, "prizes/")).json()["payouts"][0][
        "participant"] == winner
    deal = director_client.get(f"/api/v1/tables/{table['id']}/deals/1/")
    resp = director_client.put(f"/api/v1/tables/{table['id']}/deals/1/",
                               {"number": 1, **WIN, "declarer": 2}, format="json",
                               HTTP_IF_MATCH=deal["ETag"])
    assert resp.status_code == 200, resp.content
    standings_recompute(tournament_id=short_skat.pk)
    now_first = director_client.get(url(short_skat, "prizes/")).json()["payouts"][0]
    assert now_first["participant"] == table["seats"][1]["participant"]
    assert Participant.objects.filter(pk=now_first["participant"]).exists()
