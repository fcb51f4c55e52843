"""The player's own page ``/me/<token>/``: where to sit, who deals first, the live score
card (read-only), the standing and earlier rounds; its live part answers 304 while
nothing changed; ``/me/<token>/sheet/`` is the tablet's sheet entering with the personal
token, only while the player sits at an open table. A wrong or expired token is 404."""

import datetime
import json

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.api.test_query_counts import skat_tournament
from tests.factories import PlayerFactory
from tests.scale import queries_of
from tests.tournaments.test_player_phone_services import CLUBS_WON, fill, seated
from tournaments.models import Table
from tournaments.recompute.standings_rows import standings_recompute
from tournaments.services import round_close
from tournaments.services.entries import participant_add

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _changes_commit(requests_commit):
    """The pages are answered from the standings snapshots, which a change drops when it
    commits: each change here counts as committed by the next request."""


def get(url: str, **headers):
    return Client(HTTP_ACCEPT_LANGUAGE="de").get(url, **headers)


def config(resp) -> dict:
    html = resp.content.decode()
    start = html.index('id="sheet-config"')
    return json.loads(html[html.index(">", start) + 1:html.index("</script>", start)])


def test_a_wrong_or_expired_token_is_404(short_skat):
    assert get("/me/" + "x" * 32 + "/").status_code == 404
    assert get("/me/" + "x" * 32 + "/sheet/").status_code == 404
    participant = short_skat.participants.first()
    short_skat.date = datetime.date.today() - datetime.timedelta(days=91)
    short_skat.save()
    for suffix in ("", "live/", "sheet/", "sheet/list/"):
        assert get(f"/me/{participant.personal_token}/{suffix}").status_code == 404


def test_the_page_says_where_to_sit_and_who_deals_first(table, table_client):
    players = seated(table)
    fill(table_client, table, 1)
    resp = get(f"/me/{players[1].personal_token}/")
    assert resp.status_code == 200
    html = resp.content.decode()
    assert f'id="me-table">{table["number"]}<' in html and 'id="me-seat">2<' in html
    assert f"{players[0].player.name} (Platz 1) gibt zuerst." in html
    assert all(p.player.name in html for p in players)
    assert f'href="/me/{players[1].personal_token}/sheet/"' in html
    assert "Zum Spielzettel" in html
    assert f'href="/me/{players[1].personal_token}/history/"' in html  # earlier events
    # the score card is read-only: no delete button, no "tap to correct"
    assert 'class="list paper-list"' in html and "delete-last" not in html
    assert "Die Rangliste ist noch nicht berechnet." in html


def test_standing_and_earlier_rounds_appear(short_skat, table, table_client):
    player = seated(table)[1]
    fill(table_client, table, 1)
    standings_recompute(tournament_id=short_skat.pk)
    rnd = short_skat.rounds.get()
    Table.objects.filter(round=rnd).update(submitted=True)
    round_close(round_id=rnd.pk)
    html = get(f"/me/{player.personal_token}/").content.decode()
    assert 'id="me-rank">1<' in html
    assert "Ihre früheren Runden" in html
    assert "Sie haben gerade keinen Platz." in html
    assert f'href="/p/{short_skat.slug}/"' in html  # published: the public standings


def test_the_live_part_is_304_until_the_sheet_is_amended(table, table_client):
    """A deal added renews the table's card (its own part), not the live part; a
    correction there renews the live part too (the player's changes)."""
    player = seated(table)[0]
    url = f"/me/{player.personal_token}/live/"
    first = get(url)
    assert first.status_code == 200 and first["Cache-Control"] == "private, no-cache"
    assert 'data-seat-key="1-' in first.content.decode()
    assert get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    fill(table_client, table, 2)
    assert get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    deal = f"/api/v1/tables/{table['id']}/deals/1/"
    resp = table_client.put(deal, {**CLUBS_WON, "declarer": 1, "reason": "Falsch eingetragen"},
                            format="json", HTTP_IF_MATCH=table_client.get(deal)["ETag"])
    assert resp.status_code == 200, resp.content
    again = get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200 and again["ETag"] != first["ETag"]
    assert "Falsch eingetragen" in again.content.decode()


def test_the_sheet_on_the_phone_talks_to_the_api_with_the_personal_token(table):
    player = seated(table)[0]
    token = player.personal_token
    resp = get(f"/me/{token}/sheet/")
    assert resp.status_code == 200
    cfg = config(resp)
    assert (cfg["token"], cfg["authScheme"], cfg["tableId"]) == (token, "Player", table["id"])
    assert cfg["sheetUrl"] == f"/me/{token}/sheet/list/" and cfg["staff"] is False
    assert f'href="/me/{token}/"' in resp.content.decode()
    assert table["entry_token"] not in resp.content.decode()
    listed = get(f"/me/{token}/sheet/list/")
    assert listed.status_code == 200 and "paper-list" in listed.content.decode()
    assert get(f"/me/{token}/sheet/list/", HTTP_IF_NONE_MATCH=listed["ETag"]).status_code == 304


def test_the_tablet_keeps_its_table_token(table):
    cfg = config(get(f"/t/{table['entry_token']}/"))
    assert (cfg["token"], cfg["authScheme"]) == (table["entry_token"], "Table")


def test_no_sheet_while_the_player_sits_at_no_open_table(short_skat, table):
    player = seated(table)[0]
    rnd = short_skat.rounds.get()
    Table.objects.filter(round=rnd).update(submitted=True)
    round_close(round_id=rnd.pk)
    assert get(f"/me/{player.personal_token}/sheet/").status_code == 404
    assert get(f"/me/{player.personal_token}/sheet/list/").status_code == 404
    assert get(f"/me/{player.personal_token}/").status_code == 200


def _seated_token(club, director, rounds: int) -> str:
    """The personal token of a player at the last table of a tournament of ``rounds``
    rounds of three tables (``skat_tournament``)."""
    tournament = skat_tournament(club=club, director=director, tables=3, rounds=rounds,
                                 deals=2)
    table = Table.objects.filter(round__tournament=tournament).order_by("round__number",
                                                                         "number").last()
    return table.seats.first().participant.personal_token


def test_the_page_costs_the_same_at_1_and_5_rounds(club, director):
    counts = []
    for rounds in (1, 5):
        counts.append(queries_of(Client(), f"/me/{_seated_token(club, director, rounds)}/"))
    assert counts[0] == counts[1]


def test_a_phones_first_poll_finds_the_player_and_their_seats_in_one_statement(
        short_skat, table):
    """After a draw every phone of a championship polls at once: who the token opens,
    where the player sat and sits, and whether that round is the latest come in one
    statement (read for the answer's tag and used for the answer); a player never drawn is
    found as well, and sits nowhere."""
    player = seated(table)[1]
    with CaptureQueriesContext(connection) as captured:
        resp = get(f"/me/{player.personal_token}/live/")
    assert resp.status_code == 200 and 'id="me-seat">2<' in resp.content.decode()
    sql = [q["sql"] for q in captured.captured_queries]
    found = [q for q in sql if '"personal_token" = ' in q]
    assert len(found) == 1 and all('"tournaments_seat"' in q for q in found), found
    assert not any('"tournaments_participant"."tournament_id" = ' in q
                   and "MAX(" in q.upper() for q in sql)
    never = participant_add(  # registered after the draw
        tournament=short_skat, player=PlayerFactory(club=short_skat.club))
    resp = get(f"/me/{never.personal_token}/live/")
    assert resp.status_code == 200 and 'id="me-seat"' not in resp.content.decode()


def test_a_swapped_players_page_shows_the_new_seat_at_the_next_request(
        short_skat, table, other_table, director_client):
    """A director's swap before the first deal moves the player: no 304 of the old seat,
    and the new table's card names them."""
    player = seated(table)[0]
    url = f"/me/{player.personal_token}/live/"
    first = get(url)
    assert f'id="me-table">{table["number"]}<' in first.content.decode()
    other = other_table["seats"][1]["participant"]
    resp = director_client.post(f"/api/v1/tournaments/{short_skat.pk}/rounds/1/swap/",
                                {"a": player.pk, "b": other}, format="json")
    assert resp.status_code == 200, resp.content
    again = get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200
    assert f'id="me-table">{other_table["number"]}<' in again.content.decode()


def test_an_erased_persons_page_is_gone_at_the_next_request(table):
    """No 304 of the old answer once the person is erased (their token is renewed)."""
    from clublife.services.privacy import player_erase

    player = seated(table)[0]
    url = f"/me/{player.personal_token}/live/"
    first = get(url)
    assert get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    player_erase(player=player.player)
    assert get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 404
    assert get(f"/me/{player.personal_token}/").status_code == 404


def test_a_withdrawn_players_seat_is_gone_at_the_next_request(table):
    """The seating a phone's polls share is read again once the player withdraws: no
    304 of the old answer, and no seat."""
    from tournaments.services.entries import participant_update

    player = seated(table)[0]
    url = f"/me/{player.personal_token}/live/"
    first = get(url)
    assert get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    assert 'id="me-seat"' in get(url).content.decode()
    participant_update(participant=player, withdrawn=True)
    again = get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200 and 'id="me-seat"' not in again.content.decode()


def test_a_token_expires_by_the_date_alone_at_the_next_request(table, monkeypatch):
    """Nothing is saved when the day passes: the page a phone polled is 404 the day after
    the token's last one, its 304 too."""
    from django.utils import timezone

    from tournaments.policies import PERSONAL_TOKEN_DAYS

    player = seated(table)[0]
    url = f"/me/{player.personal_token}/live/"
    first = get(url)
    assert get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    tournament = player.tournament
    day = tournament.date or tournament.created_at.date()
    after = day + datetime.timedelta(days=PERSONAL_TOKEN_DAYS + 1)
    monkeypatch.setattr(timezone, "localdate", lambda *args, **kwargs: after)
    assert get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 404
    assert get(f"/me/{player.personal_token}/").status_code == 404


def test_the_players_of_a_table_read_the_same_card_and_each_their_own_seat(
        table, table_client):
    """The score card shared by a table's players follows every deal there, in the
    language of each reader."""
    players = seated(table)
    fill(table_client, table, 1)
    pages = [get(f"/me/{p.personal_token}/live/").content.decode() for p in players]
    assert all(f'id="me-seat">{seat}<' in html for seat, html in enumerate(pages, start=1))
    assert all(html.count('class="deal-row') == 1 for html in pages)
    fill_more = table_client.post(f"/api/v1/tables/{table['id']}/deals/",
                                  {"number": 2, **CLUBS_WON}, format="json")
    assert fill_more.status_code == 201
    for player in players:
        html = get(f"/me/{player.personal_token}/live/").content.decode()
        assert html.count('class="deal-row') == 2 and "Spiele und laufende Summen" in html
    english = Client(HTTP_ACCEPT_LANGUAGE="en").get(f"/me/{players[0].personal_token}/live/")
    assert "Deals and running totals" in english.content.decode()


def test_a_players_live_part_at_a_full_table_is_at_most_12_kb(club, director):
    """What a phone polls after every change at its table: the seat, the latest deals of
    a full sheet with its totals (the earlier ones a tap away, on the score sheet) and
    the standing."""
    from tournaments.selectors import table_states
    from tournaments.services import Actor, deal_record

    tournament = skat_tournament(club=club, director=director, tables=1, deals=0)
    table = Table.objects.get(round__tournament=tournament)
    planned = table_states([table])[0]["games_planned"]
    for number in range(1, planned + 1):
        deal_record(table_id=table.pk, number=number, actor=Actor(user=director),
                    record={**CLUBS_WON, "declarer": 1 + number % 4})
    standings_recompute(tournament_id=tournament.pk)
    token = table.seats.first().participant.personal_token
    resp = get(f"/me/{token}/live/")
    html = resp.content.decode()
    assert resp.status_code == 200 and html.count('class="deal-row') == 6
    assert f'{planned - 6} frühere Spiele stehen' in html and f'data-number="{planned}"' in html
    assert len(resp.content) <= 12 * 1024, len(resp.content)


def test_the_live_part_shows_the_latest_changes_and_the_page_all(club, director):
    """However often a table's deals are corrected, a phone's poll stays within 12 KB:
    the live part shows the latest change and a way to all of them."""
    from tournaments.models import Deal
    from tournaments.selectors import table_states
    from tournaments.services import Actor, deal_correct, deal_record
    from tournaments.services.sheets import REASON_MAX

    tournament = skat_tournament(club=club, director=director, tables=1, deals=0)
    table = Table.objects.get(round__tournament=tournament)
    planned = table_states([table])[0]["games_planned"]
    staff = Actor(user=director)
    for number in range(1, planned + 1):
        deal_record(table_id=table.pk, number=number, actor=staff,
                    record={**CLUBS_WON, "declarer": 1 + number % 4})
    for number in range(1, planned + 1):  # every deal corrected, each with a long reason
        deal_correct(table_id=table.pk, number=number, actor=staff,
                     if_match=Deal.objects.get(table=table, number=number).etag,
                     record={**CLUBS_WON, "declarer": 1 + number % 4, "won": False},
                     reason=(f"Nachgezählt bei Spiel {number}: " + "x" * REASON_MAX)[:REASON_MAX])
    token = table.seats.get(seat=1).participant.personal_token
    own = [n for n in range(1, planned + 1) if 1 + n % 4 == 1]  # seat 1's score changed
    resp = get(f"/me/{token}/live/")
    html = resp.content.decode()
    assert resp.status_code == 200 and html.count('class="change-head"') == 1
    assert f"Runde 1, Tisch {table.number}, Spiel {own[-1]}<" in html  # the newest
    assert f'href="/me/{token}/changes/">Alle {len(own)} Änderungen →<' in html
    assert len(resp.content) <= 12 * 1024, len(resp.content)
    page = get(f"/me/{token}/changes/")
    assert page.status_code == 200 and page["Cache-Control"] == "private, no-cache"
    assert page.content.decode().count('class="change-head"') == len(own)
    assert get(f"/me/{token}/changes/", HTTP_IF_NONE_MATCH=page["ETag"]).status_code == 304


def test_the_changes_page_without_changes_says_so_and_a_wrong_token_is_404(table):
    token = seated(table)[0].personal_token
    html = get(f"/me/{token}/changes/").content.decode()
    assert "kein Spiel nach der Eingabe geändert" in html
    assert get("/me/kein-gueltiger-token/changes/").status_code == 404


class _CacheReads:
    """Counts the reads of Django's cache (each one round trip to Redis), the real cache
    answering them; a read within a read (the local-memory cache's ``get_many`` asks
    ``get`` per key) is not another."""

    READS = ("get", "get_many", "has_key")

    def __init__(self, monkeypatch):
        from django.core.cache import cache

        self.calls: list[str] = []
        self.depth = 0
        backend = cache._connections[cache._alias]  # this thread's backend, not the proxy
        for name in self.READS:
            method = getattr(backend, name)

            def counted(*args, _name=name, _method=method, **kwargs):
                if not self.depth:
                    self.calls.append(_name)
                self.depth += 1
                try:
                    return _method(*args, **kwargs)
                finally:
                    self.depth -= 1

            monkeypatch.setattr(backend, name, counted)


def test_a_live_poll_reads_the_cache_in_three_round_trips_at_1_and_5_rounds(
        club, director, monkeypatch):
    """A phone's poll of its live part, a 200 or a 304: the seating, the versions, and
    what is kept under them (the player's page of ranks, the tables shown, the changes,
    the card), one read each — whatever the number of rounds — and no query once they
    are kept. A 304 in the first round needs no third (no earlier rounds' ranks in its
    tag)."""
    reads = _CacheReads(monkeypatch)
    found = []
    for rounds in (1, 5):
        url = f"/me/{_seated_token(club, director, rounds)}/live/"
        client = Client(HTTP_ACCEPT_LANGUAGE="de")
        for _warm in range(2):  # the first read of a token notes its tournament only
            etag = client.get(url)["ETag"]
        for headers, status in (({}, 200), ({"HTTP_IF_NONE_MATCH": etag}, 304)):
            reads.calls.clear()
            with CaptureQueriesContext(connection) as captured:
                assert client.get(url, **headers).status_code == status
            assert not captured.captured_queries
            found.append(len(reads.calls))
    assert found == [3, 2, 3, 3], found  # a 304 of round 1 has no earlier ranks to read
