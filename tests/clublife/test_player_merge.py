"""Merging a duplicate player keeps every result; profiles show a player's history."""

import pytest

from clublife.models import PlayerMerge, SeasonOutbox
from clublife.selectors import player_profile
from clublife.services.players import player_merge
from clubs.models import Player
from tests.clublife.helpers import day, play_evening
from tests.factories import ClubFactory, PlayerFactory, StaffFactory
from tournaments.errors import StateConflict
from tournaments.models import Participant, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def pair(club, director):
    """Hans the member (evening 1, 100) and a guest "Hans M." (evening 2, 60)."""
    hans = PlayerFactory(club=club, name="Hans Müller", member_number="17")
    others = [PlayerFactory(club=club) for _ in range(2)]
    play_evening(club, director, day(1), {hans: 100, others[0]: 50, others[1]: 50})
    play_evening(club, director, day(2), {others[0]: 50, others[1]: 50}, {"Hans M.": 60})
    return hans, Player.objects.get(name="Hans M.")


def test_a_merge_moves_every_participation_and_removes_the_duplicate(pair, director):
    hans, guest = pair
    guest_id = guest.pk
    SeasonOutbox.objects.all().delete()
    record = player_merge(keep=hans, remove=guest, by=director)
    assert not Player.objects.filter(pk=guest_id).exists()
    assert Participant.objects.filter(player=hans).count() == 2
    assert (record.kept, record.removed_id, record.removed_name, record.participations,
            record.by) == (hans, guest_id, "Hans M.", 1, director)
    assert SeasonOutbox.objects.exists()  # the season is redone with the merged player
    profile = player_profile(player=hans)
    assert [e["score"] for e in profile["events"]] == [60, 100]
    (skat,) = profile["games"]
    assert (skat["events"], skat["series"], skat["average"], skat["won"], skat["lost"]) == (
        2, 2, 80.0, 2, 0)


def test_a_guest_kept_takes_over_the_members_membership(pair):
    hans, guest = pair
    player_merge(keep=guest, remove=hans)
    guest.refresh_from_db()
    assert (guest.club, guest.member_number) == (hans.club, "17")


def test_players_of_one_tournament_cannot_be_merged(club, director):
    a, b, c = (PlayerFactory(club=club) for _ in range(3))
    play_evening(club, director, day(1), {a: 100, b: 60, c: 50})
    with pytest.raises(StateConflict):
        player_merge(keep=a, remove=b)
    assert Participant.objects.filter(player=b).count() == 1
    assert not PlayerMerge.objects.exists()


def test_a_refused_merge_names_only_tournaments_the_merging_user_may_see(club, director):
    a, b, c = (PlayerFactory(club=club) for _ in range(3))
    evening = play_evening(club, director, day(1), {a: 100, b: 60, c: 50})
    Tournament.objects.filter(pk=evening.pk).update(published=False, name="Geheimer Abend")
    other_club_admin = StaffFactory(username="elsewhere")
    with pytest.raises(StateConflict) as refused:
        player_merge(keep=a, remove=b, by=other_club_admin)
    assert "Geheimer Abend" not in str(refused.value.render())
    with pytest.raises(StateConflict) as refused:
        player_merge(keep=a, remove=b, by=director)
    assert "Geheimer Abend" in str(refused.value.render())


def test_members_of_different_clubs_are_not_merged(club):
    a = PlayerFactory(club=club)
    b = PlayerFactory(club=ClubFactory())
    with pytest.raises(StateConflict):
        player_merge(keep=a, remove=b)
    assert Player.objects.filter(pk=b.pk).exists()


def test_merge_api(director_client, outsider_client, pair):
    hans, guest = pair
    url = f"/api/v1/players/{hans.pk}/merge/"
    assert outsider_client.post(url, {"remove": guest.pk}, format="json").status_code == 403
    assert director_client.post(url, {"remove": hans.pk}, format="json").status_code == 400
    assert director_client.post(url, {"remove": 999999}, format="json").status_code == 400
    resp = director_client.post(url, {"remove": guest.pk}, format="json")
    assert resp.status_code == 200, resp.content
    assert resp.json()["participations"] == 1 and len(resp.json()["profile"]["events"]) == 2


def test_merge_of_table_mates_is_409(director_client, club, director):
    a, b, c = (PlayerFactory(club=club) for _ in range(3))
    play_evening(club, director, day(1), {a: 100, b: 60, c: 50})
    resp = director_client.post(f"/api/v1/players/{a.pk}/merge/", {"remove": b.pk},
                                format="json")
    assert resp.status_code == 409


def test_profile_api_shows_published_events_only_to_the_public(anon_client, director_client,
                                                               pair):
    hans, _guest = pair
    body = anon_client.get(f"/api/v1/players/{hans.pk}/profile/").json()
    assert len(body["events"]) == 1 and body["events"][0]["club_evening"] is True
    assert (body["events"][0]["rank"], body["events"][0]["participants"]) == (1, 3)
    nobody = PlayerFactory(club=hans.club)
    assert anon_client.get(f"/api/v1/players/{nobody.pk}/profile/").status_code == 404
    assert director_client.get(f"/api/v1/players/{nobody.pk}/profile/").status_code == 200
