"""Personal tokens (issue #24, point 1): the directors read one participant with their
token and link; every way a participant comes to be gives them a token of their own; no
anonymous answer and no public page ever shows one."""

import datetime
import json

import pytest
from django.test import Client

from archive.export import tournament_export
from archive.importing import tournament_import
from clublife.services.evenings import club_evening_create
from tests.factories import ParticipantFactory, PlayerFactory
from tournaments.models import Participant
from tournaments.services import participant_add
from tournaments.services.entries import participants_register

pytestmark = pytest.mark.django_db


def detail_url(tournament, participant) -> str:
    return f"/api/v1/tournaments/{tournament.pk}/participants/{participant.pk}/"


def test_the_directors_read_a_participant_with_token_and_link(director_client, short_skat):
    p = short_skat.participants.select_related("player").get(start_number=2)
    resp = director_client.get(detail_url(short_skat, p))
    assert resp.status_code == 200
    assert resp.json() == {
        "id": p.pk, "player": p.player_id, "name": p.player.name,
        "club_name": p.player.club.name, "start_number": 2,
        "checked_in": True, "withdrawn": False, "paid": False, "status": "registered",
        "categories": [],
        "personal_token": p.personal_token,
        "personal_url": f"http://testserver/me/{p.personal_token}/"}
    # a change answers the same, token included
    changed = director_client.patch(detail_url(short_skat, p), {"checked_in": False},
                                    format="json")
    assert changed.status_code == 200 and changed.json()["personal_token"] == p.personal_token


def test_the_link_is_on_the_venue_address(director_client, short_skat, settings):
    settings.SITE_URL = "http://192.168.1.20:8000"
    p = short_skat.participants.first()
    assert director_client.get(detail_url(short_skat, p)).json()["personal_url"] == (
        f"http://192.168.1.20:8000/me/{p.personal_token}/")


def test_nobody_else_reads_a_participant(anon_client, outsider_client, table_client,
                                         short_skat, table):
    p = short_skat.participants.first()
    assert anon_client.get(detail_url(short_skat, p)).status_code == 401
    assert outsider_client.get(detail_url(short_skat, p)).status_code == 403
    assert table_client.get(detail_url(short_skat, p)).status_code == 403
    player = APIPlayer(p)
    assert player.get(detail_url(short_skat, p)).status_code == 403  # not even their own
    short_skat.published = False
    short_skat.save()
    assert outsider_client.get(detail_url(short_skat, p)).status_code == 404
    assert anon_client.get(detail_url(short_skat, p)).status_code == 404


def test_a_participant_of_another_tournament_is_not_found(director_client, short_skat,
                                                          tournament):
    stranger = ParticipantFactory(tournament=tournament, start_number=1)
    assert director_client.get(detail_url(short_skat, stranger)).status_code == 404


def test_the_list_of_participants_never_carries_tokens(director_client, anon_client,
                                                       short_skat):
    tokens = list(short_skat.participants.values_list("personal_token", flat=True))
    for client in (director_client, anon_client):
        text = client.get(f"/api/v1/tournaments/{short_skat.pk}/participants/").content.decode()
        assert not any(token in text for token in tokens)


def APIPlayer(participant):  # noqa: N802 - reads as the client it makes
    from rest_framework.test import APIClient

    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Player {participant.personal_token}")
    return client


def test_every_way_a_participant_comes_to_be_gives_a_token_of_their_own(
        director, director_client, club, short_skat, tournament):
    """The factories (``short_skat``), ``participant_add``, the desk's list, the API, a
    club evening and an archive import: every participant a token, all of them distinct,
    an imported participant a new one (tokens are not archived)."""
    participant_add(tournament=tournament, player=PlayerFactory(club=club))
    participants_register(tournament=tournament, names=["Anna Alt", "Bernd Bauer"], by=director)
    resp = director_client.post(f"/api/v1/tournaments/{tournament.pk}/participants/",
                                {"player": PlayerFactory(club=club).pk}, format="json")
    assert resp.status_code == 201 and "personal_token" not in resp.json()
    club_evening_create(club=club, date=datetime.date(2026, 3, 5),
                        player_ids=list(club.players.values_list("pk", flat=True)[:4]),
                        guests=["Gisela Gast"], director=director)
    archive = json.loads(json.dumps(tournament_export(tournament=short_skat)))
    assert not any(p.personal_token in json.dumps(archive)
                   for p in short_skat.participants.all())
    imported = tournament_import(data=archive)
    tokens = list(Participant.objects.values_list("personal_token", flat=True))
    assert len(tokens) == Participant.objects.count() >= 7 + 4 + 5 + 7
    assert all(len(t) >= 32 for t in tokens) and len(set(tokens)) == len(tokens)
    assert imported.participants.count() == 7


def test_no_anonymous_answer_nor_public_page_shows_a_token(anon_client, director_client,
                                                          short_skat, table, other_table):
    """A drawn, published tournament with deals and standings: every public API answer
    and every public page, read anonymously, holds none of the personal tokens."""
    assert director_client.post(f"/api/v1/tables/{table['id']}/deals/",
                                {"number": 1, "passed": True}, format="json").status_code == 201
    t = short_skat
    participants = list(t.participants.all())
    tokens = [p.personal_token for p in participants]
    api = [f"/api/v1/tournaments/{t.pk}/", "/api/v1/tournaments/",
           f"/api/v1/tournaments/{t.pk}/participants/", f"/api/v1/tournaments/{t.pk}/rounds/",
           f"/api/v1/tournaments/{t.pk}/rounds/1/", f"/api/v1/tournaments/{t.pk}/standings/",
           f"/api/v1/tournaments/{t.pk}/standings/csv/", f"/api/v1/tournaments/{t.pk}/teams/",
           f"/api/v1/tournaments/{t.pk}/teams/standings/", f"/api/v1/clubs/{t.club_id}/",
           f"/api/v1/clubs/{t.club_id}/evenings/",
           *(f"/api/v1/players/{p.player_id}/profile/" for p in participants)]
    pages = [f"/p/{t.slug}/", f"/p/{t.slug}/?round=1", f"/p/{t.slug}/standings/",
             f"/p/{t.slug}/print/", "/", f"/clubs/{t.club.slug}/",
             *(f"/p/{t.slug}/player/{p.pk}/" for p in participants)]
    browser = Client()
    for path in api + pages:
        resp = (anon_client if path.startswith("/api/") else browser).get(path)
        assert resp.status_code in (200, 302), (path, resp.status_code)
        text = resp.content.decode()
        assert not any(token in text for token in tokens), path
