"""The player's own history page ``/me/<token>/history/``: their events of the club,
newest first, each with date, name, place of how many and points; their season; nothing
of another club; a way back to their page; German and English; 404 for a bad token; the
same queries at 1 evening as at 3."""

import datetime
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.clublife.helpers import history_world
from tests.scale import queries_of
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def page_of(participant) -> str:
    return reverse("pages:me-history", args=[participant.personal_token])


def test_the_page_lists_the_events_newest_first_with_place_and_points(client, club, director):
    _member, mine, evenings, foreign = history_world(club, director)
    answer = client.get(page_of(mine))
    assert answer.status_code == 200
    html = answer.content.decode()
    assert page_of(mine) == f"/me/{mine.personal_token}/history/"
    assert f'href="/me/{mine.personal_token}/"' in html
    positions = [html.index(e.name) for e in evenings]
    assert positions == sorted(positions)  # newest first
    assert foreign.name not in html
    assert "1. von 8" in html and "100 Punkte" in html and "8. von 8" in html
    assert "Meine Ergebnisse" in html and "3 Abende gespielt" in html
    season = html[html.index("Jahreswertungen"):]
    rank = re.search(r"(\d+)\. von 8", season)
    assert rank and f"/clubs/{club.slug}/seasons/" in season


def test_the_page_speaks_english(client, club, director):
    _member, mine, _evenings, _foreign = history_world(club, director, evenings=1)
    html = client.get(page_of(mine), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "My results" in html and "Place 1 of 8" in html and "100 points" in html
    assert "1 evening played" in html


@pytest.mark.parametrize("spoil", ["unknown", "expired"])
def test_a_bad_token_is_404(client, club, director, spoil):
    _member, mine, _evenings, _foreign = history_world(club, director, evenings=1)
    url = page_of(mine)
    if spoil == "unknown":
        url = url.replace(mine.personal_token, "x" * len(mine.personal_token))
    else:
        Tournament.objects.filter(pk=mine.tournament_id).update(
            date=timezone.localdate() - datetime.timedelta(days=91))
    assert client.get(url).status_code == 404


def test_the_page_costs_the_same_at_1_and_3_evenings(client, club, director):
    _member, mine, _evenings, _foreign = history_world(club, director, evenings=1)
    one = queries_of(client, page_of(mine))
    history_world(club, director, evenings=3)
    assert queries_of(client, page_of(mine)) == one
