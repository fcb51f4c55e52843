"""The live pages as the pollers see them (``tournaments.freshness``): the public board,
its standings part and print, the player's page and its live part, and the API's
standings for a director. Each poll with the ETag it holds is answered 304 while
nothing the answer shows changed, and a new answer after the change commits — a deal
at the player's own table, not at another; a recompute; a draw; a name shown another
way — and a change of who may read it (unpublishing, an erased person, a revoked token,
a director removed) takes effect at the next request, never as a 304."""

import re

import pytest
from django.contrib import messages
from django.contrib.messages.storage.cookie import CookieStorage
from django.http import HttpResponse
from django.test import Client

from clublife.services.privacy import player_publish
from tests.tournaments.test_player_phone_services import CLUBS_WON, fill, seated
from tournaments.models import Participant, Table
from tournaments.recompute.standings_rows import standings_recompute
from tournaments.services import round_close
from tournaments.services.entries import tournament_update

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _commits(requests_commit):
    """Each change here counts as committed (its versions bumped) by the next request."""


def get(url: str, language: str = "de", **headers):
    return Client(HTTP_ACCEPT_LANGUAGE=language).get(url, **headers)


def again(first, language: str = "de"):
    """The next poll of ``first``'s URL with its ETag."""
    return get(first.wsgi_request.get_full_path(), language,
               HTTP_IF_NONE_MATCH=first["ETag"])


def board(tournament, part=""):
    return f"/p/{tournament.slug}/{part}"


def card_url(live) -> str:
    """Where a player's live part fetches the card of their table."""
    return re.search(r'data-card-url="([^"]+)"', live.content.decode()).group(1)


def test_an_unchanged_board_part_is_a_304_a_proxy_may_share(short_skat, table):
    standings_recompute(tournament_id=short_skat.pk)
    first = get(board(short_skat, "standings/"))
    assert first.status_code == 200 and first["Cache-Control"] == "public, max-age=2"
    assert "Accept-Language" in first["Vary"] and not first.cookies
    unchanged = again(first)
    assert unchanged.status_code == 304 and unchanged["ETag"] == first["ETag"]
    assert unchanged.content == b""


def test_a_deal_changes_its_tables_pages_only(short_skat, table, other_table, table_client):
    standings_recompute(tournament_id=short_skat.pk)
    here, there = seated(table)[0], seated(other_table)[0]
    pages = {p: [get(f"/me/{p.personal_token}/"), get(f"/me/{p.personal_token}/live/")]
             for p in (here, there)}
    part = get(board(short_skat, "standings/"))
    assert "aktualisiert" not in part.content.decode()
    card = get(card_url(pages[here][1]))
    assert "deal-row" not in card.content.decode()
    fill(table_client, table, 1)
    for first in pages[there]:  # another table: unchanged
        assert again(first).status_code == 304
    page, live = pages[here]
    changed = again(page)
    assert changed.status_code == 200 and changed["ETag"] != page["ETag"]
    assert 'class="deal-row"' in changed.content.decode()
    # the live part's card is a part of its own, which the deal renews
    assert again(live).status_code == 304
    dealt = again(card)
    assert dealt.status_code == 200 and 'class="deal-row"' in dealt.content.decode()
    stale = again(part)  # the standings turned stale
    assert stale.status_code == 200 and "aktualisiert" in stale.content.decode()
    standings_recompute(tournament_id=short_skat.pk)  # every page shows new ranks
    assert again(stale).status_code == 200
    assert again(pages[there][0]).status_code == 200
    # the live part's standing comes from the shared ranks part (tests/pages/
    # test_ranks_part.py): a recompute alone leaves the part a 304
    assert again(pages[there][1]).status_code == 304


def test_a_new_draw_moves_the_seat(short_skat, table, director_client):
    player = seated(table)[0]
    first = get(f"/me/{player.personal_token}/live/")
    assert f'data-seat-key="1-{table["id"]}-' in first.content.decode()
    rnd = short_skat.rounds.get()
    Table.objects.filter(round=rnd).update(submitted=True)
    round_close(round_id=rnd.pk)
    closed = again(first)
    assert "Sie haben gerade keinen Platz." in closed.content.decode()
    resp = director_client.post(f"/api/v1/tournaments/{short_skat.pk}/rounds/",
                                {"method": "random", "seed": 3}, format="json")
    assert resp.status_code == 201, resp.content
    seat = next((t["id"], s["seat"]) for t in resp.json()["tables"] for s in t["seats"]
                if s["participant"] == player.pk)
    assert f'data-seat-key="2-{seat[0]}-{seat[1]}"' in again(closed).content.decode()


def test_a_publication_choice_shows_on_the_next_poll(short_skat, table, table_client):
    fill(table_client, table, 1)
    standings_recompute(tournament_id=short_skat.pk)
    participant = Participant.objects.select_related("player").get(pk=seated(table)[0].pk)
    first = get(board(short_skat, "standings/"))
    assert participant.player.name in first.content.decode()
    player_publish(player=participant.player, publication="number")
    shown = again(first)
    assert shown.status_code == 200 and participant.player.name not in shown.content.decode()


def test_each_language_gets_its_own_answer(short_skat, table):
    standings_recompute(tournament_id=short_skat.pk)
    url = board(short_skat, "standings/")
    german, english = get(url, "de"), get(url, "en")
    assert "Rang" in german.content.decode()
    assert "Rank" in english.content.decode() and "Rang" not in english.content.decode()
    assert english["ETag"] != german["ETag"] and english["Content-Language"] == "en"
    assert get(url, "en", HTTP_IF_NONE_MATCH=german["ETag"]).status_code == 200
    cookie = Client(HTTP_ACCEPT_LANGUAGE="de")
    cookie.cookies["django_language"] = "en"  # the language cookie wins
    assert cookie.get(url).content == english.content
    live = f"/me/{seated(table)[0].personal_token}/live/"
    german, english = get(live, "de").content.decode(), get(live, "en").content.decode()
    assert "Ihr Platz jetzt" in german and "Your seat now" in english


def test_an_unpublished_tournament_is_404_at_once_and_never_shared(short_skat, table,
                                                                   director):
    standings_recompute(tournament_id=short_skat.pk)
    urls = [board(short_skat), board(short_skat, "standings/"), board(short_skat, "print/")]
    etags = {url: get(url)["ETag"] for url in urls}
    tournament_update(tournament=short_skat, published=False)
    director_client = Client(HTTP_ACCEPT_LANGUAGE="de")
    director_client.force_login(director)
    for url in urls:
        assert get(url).status_code == 404
        # a 304 never tells that the tournament exists
        assert get(url, HTTP_IF_NONE_MATCH=etags[url]).status_code == 404
        hidden = director_client.get(url)  # its director still sees it, kept by nobody
        assert hidden.status_code == 200 and hidden["Cache-Control"] == "private, no-store"


def test_a_page_is_the_same_for_every_reader_who_may_still_switch_the_language(short_skat,
                                                                              table):
    """The language form of every page carries no CSRF token (config/urls.py): the board
    and its print are one answer for every anonymous reader, kept by the proxy, and any
    reader still switches the language, back to the page they were on."""
    standings_recompute(tournament_id=short_skat.pk)
    for url in (board(short_skat), board(short_skat, "print/")):
        for _ in range(2):
            page = Client(enforce_csrf_checks=True, HTTP_ACCEPT_LANGUAGE="de").get(url)
            assert page.status_code == 200 and page["Cache-Control"] == "public, max-age=2"
            assert not page.cookies and "csrfmiddlewaretoken" not in page.content.decode()
    reader = Client(enforce_csrf_checks=True, HTTP_ACCEPT_LANGUAGE="de")
    switched = reader.post("/i18n/setlang/", {"language": "en", "next": board(short_skat)})
    assert switched.status_code == 302 and switched.url == board(short_skat)
    english = reader.get(board(short_skat))
    assert english["Content-Language"] == "en" and "Standings" in english.content.decode()
    away = reader.post("/i18n/setlang/", {"language": "de", "next": "https://example.org/"})
    assert "example.org" not in away.get("Location", "")  # never to another host


def test_a_page_with_a_message_for_its_reader_is_theirs_alone(short_skat, table, rf):
    """A message waiting for its reader (Django's messages) makes the page theirs: shown
    once, kept by no cache; the next page is everyone's again."""
    standings_recompute(tournament_id=short_skat.pk)
    storage = CookieStorage(rf.get("/"))
    storage.add(messages.INFO, "Willkommen, Anna Beispiel!")
    carrier = HttpResponse()
    storage.update(carrier)
    reader = Client(HTTP_ACCEPT_LANGUAGE="de")
    reader.cookies["messages"] = carrier.cookies["messages"].value
    page = reader.get(board(short_skat))
    assert page["Cache-Control"] == "private, no-store"
    assert "Willkommen, Anna Beispiel!" in page.content.decode()
    after = reader.get(board(short_skat))
    assert after["Cache-Control"] == "public, max-age=2"
    assert "Willkommen" not in after.content.decode()


def _staff_standings(short_skat, table, table_client):
    """The standings of ``short_skat`` with one player who shows only a number: the
    full name is what a director's answer has and the public's never."""
    fill(table_client, table, 1)
    participant = Participant.objects.select_related("player").get(pk=seated(table)[0].pk)
    player_publish(player=participant.player, publication="number")
    standings_recompute(tournament_id=short_skat.pk)
    return f"/api/v1/tournaments/{short_skat.pk}/standings/", participant.player.name


def test_the_staff_answer_never_reaches_the_public(short_skat, table, table_client,
                                                   director_client, anon_client):
    url, name = _staff_standings(short_skat, table, table_client)
    full = director_client.get(url)
    assert name in full.content.decode() and full["Cache-Control"] == "private, no-cache"
    assert director_client.get(url, HTTP_IF_NONE_MATCH=full["ETag"]).status_code == 304
    public = anon_client.get(url, HTTP_IF_NONE_MATCH=full["ETag"])
    assert public.status_code == 200 and name not in public.content.decode()


@pytest.mark.parametrize("revoke", ["token deleted", "user inactive", "user no staff",
                                    "director removed"])
def test_a_revoked_staff_token_reads_nothing_more_from_the_next_poll(
        short_skat, table, table_client, director, club, revoke):
    from rest_framework.authtoken.models import Token

    from tests.conftest import token_client

    url, name = _staff_standings(short_skat, table, table_client)
    client = token_client(director)
    first = client.get(url)
    assert name in first.content.decode()
    if revoke == "token deleted":
        Token.objects.filter(user=director).delete()
    elif revoke == "user inactive":
        director.is_active = False
        director.save()
    elif revoke == "user no staff":
        director.is_staff = False
        director.save()
    else:
        short_skat.directors.remove(director)
        club.admins.remove(director)
    answer = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    if revoke in ("token deleted", "user inactive"):
        assert answer.status_code == 401
    else:  # a reader like any other: the names as their players chose
        assert answer.status_code == 200 and name not in answer.content.decode()


def test_a_club_admins_token_is_answered_as_the_directors(short_skat, table, table_client,
                                                          club):
    from tests.conftest import token_client
    from tests.factories import StaffFactory

    url, name = _staff_standings(short_skat, table, table_client)
    admin = StaffFactory(username="kassenwart")
    club.admins.add(admin)
    assert name in token_client(admin).get(url).content.decode()
    outsider = token_client(StaffFactory(username="fremd"))
    assert name not in outsider.get(url).content.decode()


def test_a_corrected_earlier_round_shows_on_the_players_page(short_skat, table, table_client):
    from tournaments.models import Seat
    from tournaments.recompute.outbox import sheet_changed

    player = seated(table)[1]
    fill(table_client, table, 1)
    rnd = short_skat.rounds.get()
    Table.objects.filter(round=rnd).update(submitted=True)
    round_close(round_id=rnd.pk)
    first = get(f"/me/{player.personal_token}/live/")
    assert '<td class="num">\u22121234</td>' not in first.content.decode()  # minus sign
    # what a correction writes: the seat's total, and the sheet's change
    Seat.objects.filter(table_id=table["id"], participant=player).update(score=-1234)
    sheet_changed(short_skat.pk, round_number=1, table_id=table["id"])
    standings_recompute(tournament_id=short_skat.pk)
    assert '<td class="num">\u22121234</td>' in again(first).content.decode()


def test_a_second_deal_shows_on_the_players_card(short_skat, table, table_client):
    player = seated(table)[0]
    fill(table_client, table, 1)
    live = get(f"/me/{player.personal_token}/live/")
    assert live.content.decode().count('class="deal-row') == 1
    first = get(card_url(live))
    assert first.content.decode().count('class="deal-row') == 1
    resp = table_client.post(f"/api/v1/tables/{table['id']}/deals/",
                             {"number": 2, **CLUBS_WON}, format="json")
    assert resp.status_code == 201
    assert again(first).content.decode().count('class="deal-row') == 2
    # the URL of the table's push message (its version) reaches past what a proxy kept
    assert get(card_url(live) + "?v=4f0c").content.decode().count('class="deal-row') == 2


def test_the_card_is_one_public_answer_for_the_table(short_skat, table, other_table,
                                                     table_client, monkeypatch):
    """A published tournament's card part is the same for every phone at the table (a
    proxy may keep it), shows the names as the players chose, and is 404 for a table of
    another tournament or none."""
    monkeypatch.setattr("tournaments.pages.me.LIVE_DEALS", 2)  # a sheet here has 3
    fill(table_client, table, 3)
    players = seated(table)
    url = card_url(get(f"/me/{players[0].personal_token}/live/"))
    assert url == card_url(get(f"/me/{players[1].personal_token}/live/"))
    first = get(url)
    assert first.status_code == 200 and first["Cache-Control"] == "public, max-age=2"
    assert set(first["Content-Security-Policy"].split("; ")) == {
        "default-src 'none'", "frame-ancestors 'none'"}  # a part: the page's policy governs
    html = first.content.decode()
    assert html.count('class="deal-row') == 2  # the latest two; the first on the sheet
    assert "1 früheres Spiel steht auf dem Spielzettel." in html
    assert players[1].player.name in html
    assert players[0].personal_token not in html
    assert again(first).status_code == 304
    player_publish(player=players[1].player, publication="initial")
    hidden = again(first)
    assert hidden.status_code == 200 and players[1].player.name not in hidden.content.decode()
    assert get(f"/p/{short_skat.slug}/tables/{10**6}/card/").status_code == 404
    assert get(f"/p/{short_skat.slug}/tables/{10**30}/card/").status_code == 404
    assert get(f"/p/{short_skat.slug}/tables/{other_table['id']}/card/").status_code == 200


def test_a_hidden_tournaments_card_is_the_players_own(short_skat, table, table_client):
    """Unpublished, the card comes from the player's own URL (private, the table's own
    names); the public one is 404, and so is the player's without a seat now."""
    fill(table_client, table, 1)
    player = seated(table)[0]
    public = card_url(get(f"/me/{player.personal_token}/live/"))
    tournament_update(tournament=short_skat, published=False)
    live = get(f"/me/{player.personal_token}/live/")
    own = card_url(live)
    assert own == f"/me/{player.personal_token}/card/"
    assert get(public).status_code == 404
    first = get(own)
    assert first.status_code == 200 and first["Cache-Control"] == "private, no-cache"
    assert 'class="deal-row' in first.content.decode()
    assert again(first).status_code == 304
    rnd = short_skat.rounds.get()
    Table.objects.filter(round=rnd).update(submitted=True)
    round_close(round_id=rnd.pk)
    assert get(own).status_code == 404


def test_what_a_proxy_may_keep_is_compressed_once_by_the_app(short_skat, table, director):
    """config/compression.py: the public answers the proxy keeps come gzip-compressed for
    a client that accepts it (the same bytes each time: no random padding), with their
    ETag still answered 304; a reader's own answer and a hidden tournament's are not."""
    import gzip

    standings_recompute(tournament_id=short_skat.pk)
    part = board(short_skat, "standings/")
    plain = get(part)
    assert "Content-Encoding" not in plain and "Accept-Encoding" in plain["Vary"]
    packed = get(part, HTTP_ACCEPT_ENCODING="gzip, deflate")
    assert packed["Content-Encoding"] == "gzip" and packed["Cache-Control"] == \
        "public, max-age=2"
    assert gzip.decompress(packed.content) == plain.content
    assert len(packed.content) < len(plain.content) / 5
    assert get(part, HTTP_ACCEPT_ENCODING="gzip").content == packed.content
    assert packed["ETag"] == f"W/{plain['ETag']}"
    assert get(part, HTTP_ACCEPT_ENCODING="gzip",
               HTTP_IF_NONE_MATCH=packed["ETag"]).status_code == 304
    player = seated(table)[0]
    mine = get(f"/me/{player.personal_token}/live/", HTTP_ACCEPT_ENCODING="gzip")
    assert mine.status_code == 200 and "Content-Encoding" not in mine  # the proxy's
    tournament_update(tournament=short_skat, published=False)
    director_client = Client(HTTP_ACCEPT_LANGUAGE="de", HTTP_ACCEPT_ENCODING="gzip")
    director_client.force_login(director)
    hidden = director_client.get(part)
    assert hidden.status_code == 200 and "Content-Encoding" not in hidden


def test_a_part_of_a_page_and_json_carry_the_short_policy(short_skat, table):
    """config/csp.py: what a page's script fetches into itself, and JSON, is no document of
    its own: it may load nothing and be framed by nothing; the pages keep their policy."""
    standings_recompute(tournament_id=short_skat.pk)
    player = seated(table)[0]
    short = "default-src 'none'; frame-ancestors 'none'"
    for url in (board(short_skat, "standings/"), f"/me/{player.personal_token}/live/",
                board(short_skat, f"ranks/{player.pk // 128}/"),
                f"/api/v1/tournaments/{short_skat.pk}/standings/",
                "/api/v1/tournaments/999999999/standings/"):
        answer = get(url)
        assert answer.status_code in (200, 404), url
        policy = sorted(p.strip() for p in answer["Content-Security-Policy"].split(";"))
        assert policy == sorted(short.split("; ")), url
    for url in (board(short_skat), f"/me/{player.personal_token}/", board(short_skat, "print/")):
        policy = get(url)["Content-Security-Policy"]
        assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy, url


DOCUMENT_ONLY = ("X-Frame-Options", "Cross-Origin-Opener-Policy", "Referrer-Policy")


def test_a_part_carries_no_document_header_and_a_304_no_stored_one(short_skat, table):
    """config/csp.py: framing, the opener and the referrer are a document's (a part's
    policy already forbids framing it); a 304 carries what RFC 9110 lets it carry — its
    receiver keeps the rest of what it stored."""
    standings_recompute(tournament_id=short_skat.pk)
    player = seated(table)[0]
    parts = (board(short_skat, "standings/"), f"/me/{player.personal_token}/live/",
             board(short_skat, f"ranks/{player.pk // 128}/"),
             f"/api/v1/tournaments/{short_skat.pk}/standings/", "/api/v1/")
    for url in parts:
        answer = get(url)
        assert answer.status_code == 200, url
        assert not [h for h in DOCUMENT_ONLY if h in answer], url
        assert answer["X-Content-Type-Options"] == "nosniff", url
    pages = (board(short_skat), f"/me/{player.personal_token}/", board(short_skat, "print/"))
    for url in pages:
        answer = get(url)
        assert answer["X-Frame-Options"] == "DENY", url
        assert answer["Cross-Origin-Opener-Policy"] == answer["Referrer-Policy"] == "same-origin"
    for url in (*parts[:4], *pages):
        first = get(url)
        confirmed = again(first)
        assert confirmed.status_code == 304, url
        assert confirmed["ETag"] == first["ETag"], url
        assert confirmed["Cache-Control"] == first["Cache-Control"], url
        assert "Accept-Language" in confirmed["Vary"], url
        assert not [h for h in (*DOCUMENT_ONLY, "Content-Security-Policy", "Content-Language",
                                "X-Content-Type-Options") if h in confirmed], url
