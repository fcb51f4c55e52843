"""Club evenings in a few taps: the club's defaults, members and guests, the draw."""

import datetime

import pytest

from clublife.services.evenings import club_evening_create
from clubs.models import Player
from clubs.services import club_defaults_update
from games.engines import EngineUserError
from tests.factories import PlayerFactory
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db
DATE = datetime.date(2026, 3, 5)


def test_an_evening_takes_the_clubs_game_and_rules_and_checks_everyone_in(club, director):
    club_defaults_update(club=club, default_game="skat", default_rules={"series_deals_4": 4})
    members = [PlayerFactory(club=club) for _ in range(5)]
    evening = club_evening_create(club=club, date=DATE, player_ids=[m.pk for m in members],
                                  guests=["Gast Eins", "  Gast Zwei "], director=director,
                                  method="random")
    assert evening.club_evening and evening.published and evening.club == club
    assert (evening.game, evening.rules, evening.date) == ("skat", {"series_deals_4": 4}, DATE)
    assert evening.directors.filter(pk=director.pk).exists()
    participants = list(evening.participants.select_related("player"))
    assert len(participants) == 7 and all(p.checked_in for p in participants)
    guests = Player.objects.filter(name__in=["Gast Eins", "Gast Zwei"])
    assert guests.count() == 2 and all(g.club is None for g in guests)
    (rnd,) = evening.rounds.all()
    assert sorted(t.seats.count() for t in rnd.tables.all()) == [3, 4]


def test_another_game_starts_from_its_own_defaults(club, director):
    club_defaults_update(club=club, default_rules={"kontra_re": True})
    players = [PlayerFactory(club=club).pk for _ in range(4)]
    evening = club_evening_create(club=club, date=DATE, player_ids=players, game="schafkopf",
                                  director=director)
    assert (evening.game, evening.rules) == ("schafkopf", {})


def test_an_evening_that_cannot_be_seated_is_not_created(club, director):
    players = [PlayerFactory(club=club).pk for _ in range(5)]
    with pytest.raises(EngineUserError):
        club_evening_create(club=club, date=DATE, player_ids=players, director=director,
                            method="random")
    assert not Tournament.objects.filter(club_evening=True).exists()


def test_bad_players_and_guests_are_named(club, director):
    player = PlayerFactory(club=club)
    with pytest.raises(EngineUserError) as exc:
        club_evening_create(club=club, date=DATE, player_ids=[player.pk, 999999, player.pk],
                            guests=["", "ok"], director=director)
    assert {e.field for e in exc.value.errors} == {"player_ids.1", "player_ids.2", "guests.0"}


def test_club_defaults_are_checked_by_the_engine(club):
    with pytest.raises(EngineUserError) as exc:
        club_defaults_update(club=club, default_rules={"kontra_re": "ja"})
    assert exc.value.errors[0].field == "default_rules.kontra_re"
    with pytest.raises(EngineUserError):
        club_defaults_update(club=club, default_game="poker")
    club.refresh_from_db()
    assert club.default_rules == {} and club.default_game == "skat"


# ---------------------------------------------------------------- API


def test_director_opens_an_evening_through_the_api(director_client, club):
    members = [PlayerFactory(club=club).pk for _ in range(6)]
    resp = director_client.post(f"/api/v1/clubs/{club.pk}/evenings/", {
        "date": "2026-03-05", "player_ids": members, "guests": ["Gast"], "method": "balanced",
    }, format="json")
    assert resp.status_code == 201, resp.content
    body = resp.json()
    assert body["club_evening"] is True and len(body["participants"]) == 7
    assert sorted(len(t["seats"]) for t in body["round"]["tables"]) == [3, 4]
    assert all(t["entry_token"] for t in body["round"]["tables"])
    listed = director_client.get(f"/api/v1/clubs/{club.pk}/evenings/?year=2026").json()
    assert [e["id"] for e in listed["results"]] == [body["id"]]


def test_outsider_cannot_open_an_evening_for_a_club_he_does_not_run(outsider_client, club):
    members = [PlayerFactory(club=club).pk for _ in range(4)]
    resp = outsider_client.post(f"/api/v1/clubs/{club.pk}/evenings/",
                                {"date": "2026-03-05", "player_ids": members}, format="json")
    assert resp.status_code == 403
    assert not Tournament.objects.filter(club_evening=True).exists()


def test_bad_evening_input_is_400_naming_the_field(director_client, club):
    resp = director_client.post(f"/api/v1/clubs/{club.pk}/evenings/",
                                {"date": "2026-03-05", "player_ids": [999999]}, format="json")
    assert resp.status_code == 400 and "player_ids" in resp.json()
    resp = director_client.post(f"/api/v1/clubs/{club.pk}/evenings/",
                                {"date": "2026-03-05", "player_ids": [
                                    PlayerFactory(club=club).pk], "rules": {"x": 1}},
                                format="json")
    assert resp.status_code == 400 and "rules" in resp.json()


def test_club_settings_through_the_api(director_client, outsider_client, anon_client, club):
    url = f"/api/v1/clubs/{club.pk}/settings/"
    change = {"loss_fee_cents": 50, "loss_fee_from": 4, "loss_fee_high_cents": 100,
              "default_rules": {"kontra_re": True}}
    assert outsider_client.patch(url, change, format="json").status_code == 403
    resp = director_client.patch(url, change, format="json")
    assert resp.status_code == 200, resp.content
    assert anon_client.get(url).json()["loss_fee_from"] == 4
    bad = director_client.patch(url, {"default_rules": {"kontra_re": 3}}, format="json")
    assert bad.status_code == 400 and "default_rules" in bad.json()


def test_a_finished_evening_refuses_a_deal_as_an_evening_and_a_tournament_as_a_tournament(
        club, director):
    from django.utils import translation

    from games.errors import StateConflict
    from tournaments.services import Actor, deal_record
    from tournaments.services.lifecycle import check_not_finished

    club_defaults_update(club=club, default_game="skat", default_rules={"series_deals_3": 3})
    members = [PlayerFactory(club=club) for _ in range(3)]
    evening = club_evening_create(club=club, date=DATE, player_ids=[m.pk for m in members],
                                  guests=[], director=director, method="random")
    Tournament.objects.filter(pk=evening.pk).update(status=Tournament.Status.FINISHED)
    table = evening.rounds.get().tables.get()
    with pytest.raises(StateConflict) as refused:
        deal_record(table_id=table.pk, number=1, record={"passed": True},
                    actor=Actor(by_table=True))
    with translation.override("de"):
        assert refused.value.render(translation.gettext) == (
            "Der Abend ist beendet; öffnen Sie ihn wieder, um etwas zu ändern.")
    evening.refresh_from_db()
    evening.club_evening = False  # the same event as a tournament
    with pytest.raises(StateConflict) as refused:
        check_not_finished(evening)
    assert refused.value.message.startswith("The tournament is finished")
