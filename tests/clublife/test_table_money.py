"""Table money (Verlustspielgeld) with a tiered fee: per evening, per season, as CSV."""

import csv
import io

import pytest
from django.utils import translation

from clublife.cash import season_cash_of, tournament_cash
from clublife.models import TableMoneyChange
from clublife.services.evenings import club_evening_create, tournament_table_money_update
from clublife.table_money import (
    FeeSchedule,
    evening_table_money,
    fee_for_losses,
    season_evenings_csv,
    season_table_money,
    season_totals_csv,
)
from clubs.services import club_defaults_update
from tests.clublife.helpers import day, enter_round
from tests.factories import PlayerFactory
from tournaments.services import round_draw
from tournaments.services.entries import participant_add, tournament_create

pytestmark = pytest.mark.django_db
TIERED = FeeSchedule(base=50, from_n=4, high=100)


@pytest.mark.parametrize(("lost", "cents"), [(0, 0), (1, 50), (3, 150), (4, 250), (6, 450)])
def test_from_the_fourth_lost_game_on_the_higher_fee_applies(lost, cents):
    assert fee_for_losses(lost, TIERED) == cents


def test_without_a_higher_tier_every_lost_game_costs_the_same():
    assert fee_for_losses(6, FeeSchedule(base=20)) == 120


@pytest.fixture
def tiered_club(club):
    return club_defaults_update(club=club, loss_fee_cents=50, loss_fee_from=4,
                                loss_fee_high_cents=100)


@pytest.fixture
def trio(tiered_club):
    return [PlayerFactory(club=tiered_club, name=n) for n in ("Anna", "Bernd", "Carla")]


def two_rounds(club, director, trio, date, lost_per_round):
    """An evening of two rounds at one 3-table; ``lost_per_round[i][name]`` lost games."""
    evening = club_evening_create(club=club, date=date, player_ids=[p.pk for p in trio],
                                  director=director)
    for number, lost in enumerate(lost_per_round, start=1):
        rnd = round_draw(tournament_id=evening.pk, method="random", seed=number)
        enter_round(rnd, director,
                    lambda p, lost=lost: {"game_points": -30 * lost[p.name], "won": 0,
                                          "lost": lost[p.name]})
    return evening


def test_lost_games_of_all_rounds_count_towards_the_evening(tiered_club, director, trio):
    evening = two_rounds(tiered_club, director, trio, day(1),
                         [{"Anna": 2, "Bernd": 3, "Carla": 0}, {"Anna": 4, "Bernd": 0,
                                                                 "Carla": 0}])
    money = evening_table_money(evening)
    assert [(r["name"], r["lost"], r["amount_cents"]) for r in money["players"]] == [
        ("Anna", 6, 450), ("Bernd", 3, 150), ("Carla", 0, 0)]
    assert money["total_cents"] == 600 and money["lost"] == 9


def test_a_tournament_may_override_the_clubs_fee(tiered_club, director, trio):
    evening = two_rounds(tiered_club, director, trio, day(1),
                         [{"Anna": 6, "Bernd": 0, "Carla": 0}])
    tournament_table_money_update(tournament=evening, loss_fee_cents=20)
    assert evening_table_money(evening)["players"][0]["amount_cents"] == 120
    tournament_table_money_update(tournament=evening, loss_fee_cents=None)
    evening.refresh_from_db()
    assert evening_table_money(evening)["players"][0]["amount_cents"] == 450  # the club's


def test_an_evening_keeps_the_fee_it_was_played_for(tiered_club, director, trio):
    evening = two_rounds(tiered_club, director, trio, day(1),
                         [{"Anna": 6, "Bernd": 0, "Carla": 0}])
    club_defaults_update(club=tiered_club, loss_fee_cents=10, loss_fee_from=None)
    assert evening_table_money(evening)["total_cents"] == 450


def test_season_totals_and_the_treasurers_csv(tiered_club, director, trio):
    two_rounds(tiered_club, director, trio, day(1), [{"Anna": 6, "Bernd": 1, "Carla": 0}])
    two_rounds(tiered_club, director, trio, day(2), [{"Anna": 1, "Bernd": 4, "Carla": 0}])
    money = season_table_money(tiered_club, "skat", 2026)
    assert [(r["name"], r["evenings"], r["lost"], r["amount_cents"])
            for r in money["players"]] == [("Anna", 2, 7, 500), ("Bernd", 2, 5, 300),
                                           ("Carla", 2, 0, 0)]
    assert money["total_cents"] == 800
    with translation.override("de"):
        evenings = list(csv.reader(io.StringIO(season_evenings_csv(money).lstrip("\ufeff")),
                                   delimiter=";"))
        totals = list(csv.reader(io.StringIO(season_totals_csv(money).lstrip("\ufeff")),
                                 delimiter=";"))
    assert len(evenings) == 1 + 6
    assert evenings[1][2:] == ["Anna", "", "6", "4,50"]
    assert totals[1] == ["Anna", "", "2", "7", "5,00"]
    assert totals[-1][-1] == "8,00"


def test_a_formula_in_a_name_is_defused_in_the_csv(tiered_club, director):
    players = [PlayerFactory(club=tiered_club, name=n) for n in ("=HYPERLINK(1)", "B", "C")]
    two_rounds(tiered_club, director, players, day(1),
               [{"=HYPERLINK(1)": 1, "B": 0, "C": 0}])
    text = season_totals_csv(season_table_money(tiered_club, "skat", 2026))
    assert "'=HYPERLINK(1)" in text


def test_table_money_api(director_client, outsider_client, tiered_club, director, trio):
    evening = two_rounds(tiered_club, director, trio, day(1),
                         [{"Anna": 6, "Bernd": 0, "Carla": 0}])
    url = f"/api/v1/tournaments/{evening.pk}/table-money/"
    assert director_client.get(url).json()["total_cents"] == 450
    assert outsider_client.get(url).status_code == 403
    resp = director_client.put(url, {"loss_fee_cents": 10}, format="json")
    assert resp.status_code == 200 and resp.json()["total_cents"] == 60
    season = f"/api/v1/clubs/{tiered_club.pk}/seasons/2026/table-money/"
    assert director_client.get(season).json()["total_cents"] == 60
    assert outsider_client.get(season).status_code == 403
    download = director_client.get(season + "csv/?by=player")
    assert download.status_code == 200 and download["Content-Type"].startswith("text/csv")
    assert "Anna" in download.content.decode("utf-8-sig")
    assert director_client.get(season + "csv/?by=x").status_code == 400


# ------------------------------------------------ one computation, corrections with history


def a_tournament(club, director, trio, lost):
    """A club tournament that is not a club evening, one round at one 3-table."""
    tournament = tournament_create(name="Pokal", game="skat", club=club, date=day(3),
                                   director=director)
    for player in trio:
        participant_add(tournament=tournament, player=player)
    rnd = round_draw(tournament_id=tournament.pk, method="random", seed=1)
    enter_round(rnd, director, lambda p: {"game_points": -30 * lost[p.name], "won": 0,
                                          "lost": lost[p.name]})
    return tournament


def test_the_page_and_both_cash_reports_agree_to_the_cent(admin_client, tiered_club,
                                                          director, trio):
    """A tournament with its own fee (22,00 € on its Verlustspielgeld page) is counted the
    same in its cash report and the season's; so is a club evening the same season."""
    tournament = a_tournament(tiered_club, director, trio, {"Anna": 11, "Bernd": 0,
                                                            "Carla": 0})
    tournament_table_money_update(tournament=tournament, loss_fee_cents=200, by=director)
    evening = two_rounds(tiered_club, director, trio, day(1),
                         [{"Anna": 6, "Bernd": 1, "Carla": 0}])
    page = evening_table_money(tournament)
    assert page["total_cents"] == 2200
    assert tournament_cash(tournament)["table_money_cents"] == 2200
    assert tournament_cash(evening)["table_money_cents"] == 500 == \
        evening_table_money(evening)["total_cents"]
    season = season_cash_of(tiered_club, 2026)
    assert season["table_money_cents"] == 2700
    assert season_table_money(tiered_club, "skat", 2026)["total_cents"] == 2700
    with translation.override("de"):
        html = admin_client.get(f"/clubs/tournaments/{tournament.pk}/table-money/").content
        assert "22,00" in html.decode()
        cash = admin_client.get(f"/clubs/tournaments/{tournament.pk}/cash/").content.decode()
        assert "22,00" in cash
        season_page = admin_client.get(f"/clubs/{tiered_club.slug}/seasons/2026/cash/")
        assert "27,00" in season_page.content.decode()


@pytest.fixture
def admin_client(client, director):
    client.force_login(director)
    return client


def test_a_played_evenings_fee_is_corrected_and_the_old_one_is_kept(admin_client, tiered_club,
                                                                    director, trio):
    evening = two_rounds(tiered_club, director, trio, day(1),
                         [{"Anna": 6, "Bernd": 0, "Carla": 0}])
    url = f"/clubs/tournaments/{evening.pk}/table-money/"
    with translation.override("de"):
        resp = admin_client.post(url, {"loss_fee": "0,20", "loss_fee_from": "",
                                       "loss_fee_high": ""}, HTTP_ACCEPT_LANGUAGE="de")
    assert resp.status_code == 302
    evening.refresh_from_db()
    assert (evening.loss_fee_cents, evening.loss_fee_from) == (20, None)
    assert evening_table_money(evening)["total_cents"] == 120
    assert tournament_cash(evening)["table_money_cents"] == 120
    change = TableMoneyChange.objects.get(tournament=evening)
    assert change.by == director and change.before == {
        "loss_fee_cents": 50, "loss_fee_from": 4, "loss_fee_high_cents": 100}
    assert change.after["loss_fee_cents"] == 20
    html = admin_client.get(url).content.decode()
    assert "0,50 € je verlorenes Spiel · 1,00 € ab dem 4. verlorenen Spiel" in html
    assert "0,20 € je verlorenes Spiel" in html
    assert director.get_username() in html


def test_a_bad_fee_names_the_field_and_stores_nothing(admin_client, tiered_club, director,
                                                     trio):
    evening = two_rounds(tiered_club, director, trio, day(1),
                         [{"Anna": 6, "Bernd": 0, "Carla": 0}])
    url = f"/clubs/tournaments/{evening.pk}/table-money/"
    resp = admin_client.post(url, {"loss_fee": "abc", "loss_fee_from": "0"})
    assert resp.status_code == 400
    html = resp.content.decode()
    assert html.count('class="field-error"') == 2
    evening.refresh_from_db()
    assert evening.loss_fee_cents == 50 and not TableMoneyChange.objects.exists()


def test_only_the_director_corrects_the_fee(client, outsider, tiered_club, director, trio):
    evening = two_rounds(tiered_club, director, trio, day(1),
                         [{"Anna": 6, "Bernd": 0, "Carla": 0}])
    client.force_login(outsider)
    resp = client.post(f"/clubs/tournaments/{evening.pk}/table-money/", {"loss_fee": "9"})
    assert resp.status_code == 403
    evening.refresh_from_db()
    assert evening.loss_fee_cents == 50 and not TableMoneyChange.objects.exists()


def test_the_same_schedule_again_is_no_change(tiered_club, director, trio):
    evening = two_rounds(tiered_club, director, trio, day(1),
                         [{"Anna": 6, "Bernd": 0, "Carla": 0}])
    tournament_table_money_update(tournament=evening, loss_fee_cents=50, loss_fee_from=4,
                                  loss_fee_high_cents=100, by=director)
    assert not TableMoneyChange.objects.exists()
    tournament_table_money_update(tournament=evening, loss_fee_cents=None, by=director)
    tournament_table_money_update(tournament=evening, loss_fee_cents=30, by=director)
    assert [c.after["loss_fee_cents"] for c in TableMoneyChange.objects.order_by("id")] == [
        None, 30]


def test_the_api_correction_is_kept_too(director_client, tiered_club, director, trio):
    evening = two_rounds(tiered_club, director, trio, day(1),
                         [{"Anna": 6, "Bernd": 0, "Carla": 0}])
    resp = director_client.put(f"/api/v1/tournaments/{evening.pk}/table-money/",
                               {"loss_fee_cents": 10}, format="json")
    assert resp.status_code == 200
    change = TableMoneyChange.objects.get()
    assert change.before["loss_fee_cents"] == 50 and change.by == director
