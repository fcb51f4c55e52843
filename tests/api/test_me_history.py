"""``GET /api/v1/me/history/`` (api.md, "The player's own phone"): with their personal
token a player reads their events in the club of the token's event — the finished ones
and the published ones, newest first, with rank, score and participants — and their
seasons there; nothing of another club; 401 without credentials, 404 for a token that is
unknown, expired or of an erased person; the same queries at 1 evening as at 3."""

import datetime

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from clublife.models import SeasonRow
from tests.clublife.helpers import day, history_world
from tests.factories import ParticipantFactory, TournamentFactory
from tests.scale import queries_of
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

URL = "/api/v1/me/history/"  # and /me/seasons/ for the seasons


def phone(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Player {token}")
    return client


def test_a_player_reads_their_events_and_season_in_this_club(club, director):
    member, mine, evenings, foreign = history_world(club, director)
    answer = phone(mine.personal_token).get(URL)
    assert answer.status_code == 200, answer.content
    # the page of the same history is the player's alone, asked again at each visit
    page = phone(mine.personal_token).get(f"/me/{mine.personal_token}/history/")
    assert page.status_code == 200 and page["Cache-Control"] == "private, no-cache"
    events = answer.json()  # the contract's list of events
    # newest first; the other club's evening and today's unpublished running event absent
    assert [e["tournament"] for e in events] == [e.pk for e in evenings]
    assert foreign.pk not in {e["tournament"] for e in events}
    first = events[-1]
    assert first["date"] == day(0).isoformat()
    assert (first["rank"], first["score"], first["participants"]) == (1, 100, 8)
    assert first["club_evening"] is True and first["game"] == "skat"
    assert [(e["rank"], e["score"]) for e in events[:2]] == [(8, 42), (8, 41)]
    season = SeasonRow.objects.get(player=member, season__club=club)
    seasons = phone(mine.personal_token).get("/api/v1/me/seasons/")
    assert seasons.status_code == 200
    assert seasons.json() == [{
        "year": day(0).year, "game": "skat", "rank": season.rank, "players": 8,
        "score": 100 + 41 + 42, "average": season.average, "ranked_by": "sum",
        "attended": 3, "counted": 3, "evenings": 3}]


def test_a_finished_unpublished_event_is_the_players_own_a_draft_is_not(club, director):
    member, mine, evenings, _foreign = history_world(club, director, evenings=1)
    finished = TournamentFactory(club=club, date=day(5), published=False,
                                 status=Tournament.Status.FINISHED)
    ParticipantFactory(tournament=finished, player=member)
    ParticipantFactory(tournament=finished)
    draft = TournamentFactory(club=club, date=day(6), published=True,
                              status=Tournament.Status.DRAFT)
    ParticipantFactory(tournament=draft, player=member)
    events = phone(mine.personal_token).get(URL).json()
    assert [e["tournament"] for e in events] == [finished.pk, evenings[0].pk]
    assert (events[0]["rank"], events[0]["score"], events[0]["participants"]) == (None, 0, 2)


def test_another_player_of_the_same_evening_sees_only_their_own(club, director):
    member, _mine, evenings, _foreign = history_world(club, director, evenings=1)
    neighbour = evenings[0].participants.exclude(player=member).order_by("pk").first()
    # the evening's own token expired long ago; the token of a fresh event of the club
    fresh = ParticipantFactory(tournament=TournamentFactory(
        club=club, date=timezone.localdate(), status=Tournament.Status.RUNNING),
        player=neighbour.player)
    events = phone(fresh.personal_token).get(URL).json()
    assert [e["tournament"] for e in events] == [fresh.tournament_id, evenings[0].pk]
    assert events[1]["score"] != 100


def test_without_credentials_401_and_staff_or_a_table_are_not_a_player(club, director,
                                                                        director_client,
                                                                        table_client):
    for url in (URL, "/api/v1/me/seasons/"):
        assert APIClient().get(url).status_code == 401
        assert director_client.get(url).status_code == 403
        assert table_client.get(url).status_code == 403


@pytest.mark.parametrize("spoil", ["unknown", "expired", "erased"])
def test_a_bad_token_is_404(club, director, spoil):
    member, mine, _evenings, _foreign = history_world(club, director, evenings=1)
    token = mine.personal_token
    if spoil == "unknown":
        token = token[:-2] + ("aa" if not token.endswith("aa") else "bb")
    elif spoil == "expired":
        Tournament.objects.filter(pk=mine.tournament_id).update(
            date=timezone.localdate() - datetime.timedelta(days=91))
    else:
        member.erased_at = timezone.now()
        member.save(update_fields=["erased_at"])
    answer = phone(token).get(URL)
    assert answer.status_code == 404
    assert answer["Content-Type"].startswith("application/json")


def test_the_history_costs_the_same_at_1_and_3_evenings(club, director):
    _member, mine, _evenings, _foreign = history_world(club, director, evenings=1)
    one = queries_of(phone(mine.personal_token), URL)
    _member, _mine, evenings, _foreign = history_world(club, director, evenings=3)
    client = phone(mine.personal_token)
    assert len(client.get(URL).json()) == 1 + 3  # the first world's, and these
    assert queries_of(client, URL) == one
