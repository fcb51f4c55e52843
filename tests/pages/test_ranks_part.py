"""The players' standing part: the live part of ``/me/<token>/`` names where its rank and
score are polled — for a published tournament a page of ranks shared by every phone of
that page (``/p/<slug>/ranks/<page>/``, public for two seconds, so the proxy renders it
once per computation), else the player's own (``/me/<token>/ranks/``, private). A
recompute reaches the standing part, not the live part; neither ever names a player."""

import re

import pytest
from django.test import Client

from tests.conftest import seated
from tests.tournaments.test_player_phone_services import CLUBS_WON, fill
from tournaments.recompute.standings_rows import standings_recompute
from tournaments.services.entries import tournament_update

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _commits(requests_commit):
    """Each change here counts as committed (its versions bumped) by the next request."""


def get(url: str, language: str = "de", **headers):
    return Client(HTTP_ACCEPT_LANGUAGE=language).get(url, **headers)


def live_and_ranks_url(player):
    live = get(f"/me/{player.personal_token}/live/")
    assert live.status_code == 200
    found = re.search(r'data-ranks-url="([^"]+)"', live.content.decode())
    return live, found.group(1)


def test_a_recompute_reaches_the_standing_part_not_the_live_part(short_skat, table,
                                                                 other_table, table_client):
    fill(table_client, table, 1)
    standings_recompute(tournament_id=short_skat.pk)
    player, declarer = seated(other_table)[0], seated(table)[1]
    live, url = live_and_ranks_url(player)
    assert url == f"/p/{short_skat.slug}/ranks/{player.pk // 128}/"
    first = get(url)
    assert first.status_code == 200 and first["Cache-Control"] == "public, max-age=2"
    assert first["Content-Type"] == "application/json" and not first.cookies
    shown = first.json()
    mine = shown["standings"][str(player.pk)]
    html = live.content.decode()
    assert f'id="me-rank">{mine["rank"]}<' in html and f'id="me-score">{mine["score"]}<' in html
    assert f'data-computation="{shown["computation"]}"' in html
    assert player.player.name not in first.content.decode()  # numbers only: no names
    assert get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304

    resp = table_client.post(f"/api/v1/tables/{table['id']}/deals/",
                             {"number": 2, **CLUBS_WON}, format="json")
    assert resp.status_code == 201
    standings_recompute(tournament_id=short_skat.pk)
    # another table's deal and the recompute: this player's live part is unchanged ...
    assert get(live.wsgi_request.get_full_path(),
               HTTP_IF_NONE_MATCH=live["ETag"]).status_code == 304
    # ... and the standing part shows the new computation, the declarer's new score
    after = get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert after.status_code == 200
    assert after.json()["computation"] > shown["computation"]
    assert (after.json()["standings"][str(declarer.pk)]["score"]
            != shown["standings"][str(declarer.pk)]["score"])


def test_a_hidden_tournaments_standing_is_the_players_own(short_skat, table, table_client):
    fill(table_client, table, 1)
    standings_recompute(tournament_id=short_skat.pk)
    player, other = seated(table)[0], seated(table)[1]
    _live, public_url = live_and_ranks_url(player)
    tournament_update(tournament=short_skat, published=False)
    assert get(public_url).status_code == 404  # no shared page of a hidden tournament
    _live, url = live_and_ranks_url(player)
    assert url == f"/me/{player.personal_token}/ranks/"
    own = get(url)
    assert own.status_code == 200 and own["Cache-Control"] == "private, no-cache"
    assert list(own.json()["standings"]) == [str(player.pk)]  # not the others'
    assert str(other.pk) not in own.json()["standings"]
    assert get(url, HTTP_IF_NONE_MATCH=own["ETag"]).status_code == 304
    assert get("/me/no-such-token/ranks/").status_code == 404


@pytest.mark.parametrize("page", ["9999", "99999999999999999999999"])
def test_a_page_without_players_is_404(short_skat, table, page):
    standings_recompute(tournament_id=short_skat.pk)
    assert get(f"/p/{short_skat.slug}/ranks/{page}/").status_code == 404


def test_before_the_first_computation_the_standing_says_so(short_skat, table):
    player = seated(table)[0]
    live, url = live_and_ranks_url(player)
    html = live.content.decode()
    assert "Die Rangliste ist noch nicht berechnet." in html
    assert re.search(r'<dl class="me-seat" hidden>', html)
    assert get(url).json() == {"computation": 0, "standings": {}}


def test_the_recompute_keeps_the_ranks_its_version_is_read_with(
        short_skat, table, table_client, django_capture_on_commit_callbacks):
    """After its commit the recompute keeps every page of ranks under the stored
    standings' new version before setting it: the first page read after it sorts no
    list, and shows the new computation."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tournaments.selectors import ranks_page, ranks_page_of

    fill(table_client, table, 1)
    player = seated(table)[1]
    with django_capture_on_commit_callbacks(execute=True):
        standings_recompute(tournament_id=short_skat.pk)
    with CaptureQueriesContext(connection) as captured:
        computation, page = ranks_page(short_skat, ranks_page_of(player.pk))
    assert not captured.captured_queries
    assert computation == 1 and page[player.pk][0][0] == 1  # the declarer who won leads
