"""A person's data (DSGVO): ``GET /players/{id}/export/`` gives everything stored about
the person, ``POST /players/{id}/erase/`` replaces the name everywhere (the sheets'
history too), keeps the results — the standings are the same but for the name — and
records who erased when; ``PATCH`` sets the publication choice. Only staff who may change
the player; anyone else 401/403, an unknown player 404."""

import pytest
from django.contrib.admin.models import LogEntry
from rest_framework.test import APIClient

from clubs.models import Player
from tests.conftest import token_client
from tests.factories import StaffFactory
from tests.tournaments.test_player_phone_services import CLUBS_WON, player_client
from tournaments.models import Participant, SheetEvent
from tournaments.recompute.standings_rows import standings_recompute
from tournaments.services import (
    Actor,
    call_raise,
    objection_raise,
    objection_resolve,
    sheet_confirm,
)

pytestmark = pytest.mark.django_db

@pytest.fixture
def played(table, director, short_skat):
    """The 3-table played from the players' phones: Anna Berger (seat 1) enters the
    deals, objects to deal 2 and calls the director; everyone confirms; standings
    computed. Returns Anna's participant."""
    ids = [s["participant"] for s in sorted(table["seats"], key=lambda s: s["seat"])]
    players = [Participant.objects.select_related("player").get(pk=i) for i in ids]
    anna = players[0]
    Player.objects.filter(pk=anna.player_id).update(name="Anna Berger", member_number="M-17")
    anna.player.refresh_from_db()
    phone = player_client(anna)
    for number in range(1, 4):
        resp = phone.post(f"/api/v1/tables/{table['id']}/deals/",
                          {"number": number, **CLUBS_WON}, format="json", REMOTE_ADDR="10.0.0.7")
        assert resp.status_code == 201, resp.content
    objection = objection_raise(table_id=table["id"], deal=2, note="Zu viele Matadore",
                                actor=Actor(by_table=True, participant=anna))
    call_raise(table_id=table["id"], reason="Kartenfehler",
               actor=Actor(by_table=True, participant=anna))
    for p in players:
        sheet_confirm(table_id=table["id"], actor=Actor(by_table=True, participant=p))
    objection_resolve(objection_id=objection.pk, resolution="Richtig.",
                      actor=Actor(user=director))
    standings_recompute(tournament_id=short_skat.pk)
    return anna


def test_the_export_holds_everything_stored_about_the_person(played, director_client):
    resp = director_client.get(f"/api/v1/players/{played.player_id}/export/")
    assert resp.status_code == 200
    assert "attachment" in resp["Content-Disposition"]
    data = resp.json()
    assert data["player"]["name"] == "Anna Berger"
    assert data["player"]["member_number"] == "M-17"
    assert data["player"]["publication"] == "full"
    [entry] = data["participations"]
    assert entry["start_number"] == played.start_number and entry["rank"] is not None
    assert entry["score"] is not None and played.personal_token not in resp.content.decode()
    assert len(data["seats"]) == 1
    assert {e["action"] for e in data["sheet_history"]} >= {"deal_create", "objection",
                                                            "confirm"}
    assert "10.0.0.7" in {e["ip"] for e in data["sheet_history"]}
    assert data["confirmations"] and data["objections"][0]["note"] == "Zu viele Matadore"
    assert data["calls"][0]["reason"] == "Kartenfehler"


def test_erasing_replaces_the_name_everywhere_and_keeps_every_result(
        played, director, director_client, anon_client, short_skat, requests_commit):
    standings = f"/api/v1/tournaments/{short_skat.pk}/standings/"
    before = director_client.get(standings).json()["results"]
    resp = director_client.post(f"/api/v1/players/{played.player_id}/erase/")
    assert resp.status_code == 200
    erased = f"Gelöschte Person {played.player_id}"
    assert resp.json()["name"] == erased and resp.json()["member_number"] == ""
    assert resp.json()["publication"] == "number" and resp.json()["erased_at"]
    standings_recompute(tournament_id=short_skat.pk)
    after = director_client.get(standings).json()["results"]
    assert ([{**r, "name": None} for r in after] == [{**r, "name": None} for r in before])
    assert [r["name"] for r in after if r["participant"] == played.pk] == [erased]
    # the sheets' history, the change log and every answer: the old name is gone
    history = list(SheetEvent.objects.filter(table__round__tournament=short_skat)
                   .values_list("after", flat=True))
    assert "Anna Berger" not in str(history) and erased in str(history)
    assert not SheetEvent.objects.filter(participant=played).exclude(ip=None).exists()
    assert not LogEntry.objects.filter(change_message__contains="Anna Berger").exists()
    assert LogEntry.objects.filter(object_id=str(played.player_id), user=director,
                                   change_message="erased (DSGVO)").exists()
    export = director_client.get(f"/api/v1/players/{played.player_id}/export/")
    assert "Anna Berger" not in export.content.decode()
    assert "M-17" not in export.content.decode()
    # the personal link is dead
    old_token = played.personal_token
    played.refresh_from_db()
    assert played.personal_token != old_token
    dead = APIClient()
    dead.credentials(HTTP_AUTHORIZATION=f"Player {old_token}")
    assert dead.get(f"/api/v1/tables/{played.seats.get().table_id}/").status_code == 404
    # erasing twice is harmless
    again = director_client.post(f"/api/v1/players/{played.player_id}/erase/")
    assert again.status_code == 200 and again.json() == resp.json()
    assert LogEntry.objects.filter(change_message="erased (DSGVO)").count() == 1


def test_only_staff_who_may_change_the_player_reach_the_data(played, anon_client,
                                                             outsider_client):
    pid = played.player_id
    for path in (f"/api/v1/players/{pid}/export/", f"/api/v1/players/{pid}/erase/"):
        call = anon_client.get if path.endswith("export/") else anon_client.post
        assert call(path).status_code == 401
        call = outsider_client.get if path.endswith("export/") else outsider_client.post
        assert call(path).status_code == 403
    assert not Player.objects.get(pk=pid).erased
    other_club_admin = token_client(StaffFactory(username="nachbar"))
    assert other_club_admin.get(f"/api/v1/players/{pid}/export/").status_code == 403


def test_unknown_players_are_404(director_client):
    assert director_client.get("/api/v1/players/999999/export/").status_code == 404
    assert director_client.post("/api/v1/players/999999/erase/").status_code == 404


def test_the_publication_is_set_by_patch_and_a_bad_value_names_the_field(
        played, director_client):
    url = f"/api/v1/players/{played.player_id}/"
    assert director_client.get(url).json()["publication"] == "full"
    bad = director_client.patch(url, {"publication": "secret"}, format="json")
    assert bad.status_code == 400 and "publication" in bad.content.decode()
    for bad_value in (None, 3, ["initial"]):
        assert director_client.patch(url, {"publication": bad_value},
                                     format="json").status_code == 400
    ok = director_client.patch(url, {"publication": "initial"}, format="json")
    assert ok.status_code == 200 and ok.json()["publication"] == "initial"
    assert Player.objects.get(pk=played.player_id).publication == "initial"
