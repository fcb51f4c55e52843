"""Public board and tablet sheet pages without a browser: access, ETag, language, budget."""

import json
import os
import re

import pytest
from django.contrib.staticfiles import finders

from tests.conftest import table_client_for
from tournaments.models import Round
from tournaments.pages.chart import line_chart
from tournaments.recompute.standings_rows import standings_recompute

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _changes_commit(requests_commit):
    """The pages are answered from the standings snapshots, which a change drops when it
    commits: each change here counts as committed by the next request."""


def test_tablet_sheet_opens_with_its_token_only(client, table, drawn):
    assert client.get(f"/t/{table['entry_token']}/").status_code == 200
    assert client.get("/t/not-a-token/").status_code == 404


def test_sheet_page_is_german_by_default_and_english_on_request(client, table):
    de = client.get(f"/t/{table['entry_token']}/").content.decode()
    en = client.get(f"/t/{table['entry_token']}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert '<html lang="de">' in de and '<html lang="en">' in en


def test_every_form_field_has_a_label(client, table):
    html = client.get(f"/t/{table['entry_token']}/").content.decode()
    for input_id in re.findall(r'<input id="([^"]+)"', html):
        assert f'for="{input_id}"' in html, input_id


def with_imports(scripts):
    """The files of the scripts and of the ES modules they import, each once."""
    seen, todo = set(), [finders.find(path) for path in scripts]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        for name in re.findall(r'from "\./([\w.-]+\.js)"', open(path).read()):
            todo.append(os.path.join(os.path.dirname(path), name))
    return seen


def test_pages_ship_at_most_100_kb_of_javascript(client, table, short_skat):
    total = 0
    for url in (f"/t/{table['entry_token']}/", f"/p/{short_skat.slug}/"):
        html = client.get(url).content.decode()
        scripts = re.findall(r'<script src="/static/([^"]+)"', html)
        size = sum(len(open(path, "rb").read()) for path in with_imports(scripts))
        assert scripts and size <= 100 * 1024, (url, scripts, size)
        total = max(total, size)
    assert total > 0


def test_closed_round_sheet_page_says_so(client, director_client, short_skat, table, other_table):
    Round.objects.filter(tournament=short_skat).update(closed=True)
    assert client.get(f"/t/{table['entry_token']}/").status_code == 410


def test_board_is_public_only_when_published(client, short_skat):
    assert client.get(f"/p/{short_skat.slug}/").status_code == 200
    short_skat.published = False
    short_skat.save()
    assert client.get(f"/p/{short_skat.slug}/").status_code == 404


def test_board_standings_revalidate_with_304(client, director_client, short_skat, table):
    director_client.post(f"/api/v1/tables/{table['id']}/deals/",
                         {"number": 1, "declarer": 1, "game": "grand", "matadors": 1,
                          "won": True}, format="json")
    standings_recompute(tournament_id=short_skat.pk)
    url = f"/p/{short_skat.slug}/standings/"
    first = client.get(url)
    assert first.status_code == 200 and "98" in first.content.decode()  # 48 + 50
    again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304


def test_board_chart_and_player_sheet(client, director_client, short_skat, table):
    director_client.post(f"/api/v1/tables/{table['id']}/deals/",
                         {"number": 1, "declarer": 1, "game": "grand", "matadors": 1,
                          "won": True}, format="json")
    standings_recompute(tournament_id=short_skat.pk)
    page = client.get(f"/p/{short_skat.slug}/").content.decode()
    assert "<svg" in page and "<polyline" in page
    participant = table["seats"][0]["participant"]
    sheet = client.get(f"/p/{short_skat.slug}/player/{participant}/").content.decode()
    assert "+48" in sheet


@pytest.mark.parametrize("game,players,fields", [
    ("skat", 3, ["declarer", "game", "matadors", "won", "hand"]),
    ("schafkopf", 4, ["game", "declarer", "partner", "called_ace", "laufende", "doublings"]),
    ("baptistenskat", 4, ["trump", "bids", "tricks", "cards"]),
    ("basler", 4, ["tricks", "last_trick", "card_points", "melds", "captured"]),
    ("labatarde", 5, ["trump", "preference", "bids", "tricks", "mechoune", "choune"]),
])
def test_every_game_has_its_entry_form(client, director, club, game, players, fields):
    from tests.factories import ParticipantFactory, TournamentFactory
    from tournaments.models import Table
    from tournaments.services import round_draw

    tournament = TournamentFactory(club=club, game=game)
    for n in range(players):
        ParticipantFactory(tournament=tournament, start_number=n + 1)
    rnd = round_draw(tournament_id=tournament.pk, method="random", seed=1)
    html = client.get(f"/t/{Table.objects.get(round=rnd).entry_token}/").content.decode()
    for field in fields:
        assert f'data-field="{field}"' in html, field


def test_front_page_lists_published_tournaments_only(client, short_skat, club):
    from tests.factories import TournamentFactory

    TournamentFactory(club=club, published=False, name="Geheimturnier")
    html = client.get("/").content.decode()
    assert short_skat.name in html and "Geheimturnier" not in html
    assert f"/p/{short_skat.slug}/" in html


def test_sheet_list_revalidates_with_304_until_the_sheet_changes(client, table):
    url = f"/t/{table['entry_token']}/sheet/"
    first = client.get(url)
    assert first.status_code == 200 and first["ETag"]
    again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and again.content == b""
    api = table_client_for(table["entry_token"])
    assert api.post(f"/api/v1/tables/{table['id']}/deals/", {"number": 1, "passed": True},
                    format="json").status_code == 201
    changed = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"]
    assert 'data-count="1"' in changed.content.decode()
    english = client.get(url, HTTP_IF_NONE_MATCH=changed["ETag"], HTTP_ACCEPT_LANGUAGE="en")
    assert english.status_code == 200  # another language is another document


def _page_tag(page) -> str:
    config = re.search(r'<script id="sheet-config" type="application/json">(.*?)</script>',
                       page.content.decode(), re.S)
    return json.loads(config.group(1))["listTag"]


def test_a_sheet_page_carries_its_lists_tag_so_its_first_poll_is_a_304(client, table):
    """The page embeds the list: its script asks with the page's tag and keeps the rows
    it shows (a row tapped during the first poll is not replaced under the finger), while
    a page older than its list (a deal stored since, an offline copy) is answered anew."""
    url = f"/t/{table['entry_token']}/"
    tag = _page_tag(client.get(url))
    assert client.get(url + "sheet/", HTTP_IF_NONE_MATCH=tag).status_code == 304
    api = table_client_for(table["entry_token"])
    assert api.post(f"/api/v1/tables/{table['id']}/deals/", {"number": 1, "passed": True},
                    format="json").status_code == 201
    moved = client.get(url + "sheet/", HTTP_IF_NONE_MATCH=tag)
    assert moved.status_code == 200 and 'data-count="1"' in moved.content.decode()
    assert _page_tag(client.get(url)) == moved["ETag"]
    english = _page_tag(client.get(url, HTTP_ACCEPT_LANGUAGE="en"))
    assert english != moved["ETag"]  # the page in English embeds the English list


def test_the_charts_scale_reads_a_negative_total_with_the_minus_sign():
    svg = line_chart([("Anna", [0, 80]), ("Ben", [0, -196])], ["Start", "R1"])
    assert ">\u2212196</text>" in svg and ">-196<" not in svg


def test_chart_draws_lines_after_one_round_and_keeps_names_apart():
    svg = line_chart([("Anna", [0, 40]), ("Ben", [0, 40]), ("Cleo", [0, 39])],
                     ["Start", "R1"])
    points = re.findall(r'points="([^"]+)"', svg)
    assert len(points) == 3 and all(len(p.split()) == 2 for p in points)  # real lines
    ys = sorted(float(y) for y in re.findall(r'<text x="516" y="([\d.]+)"', svg))
    assert len(ys) == 3 and all(b - a >= 14 for a, b in zip(ys, ys[1:], strict=False))
