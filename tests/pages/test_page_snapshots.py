"""The pages served from the standings snapshots (``snapshots.Snapshotted``): the public
board (page, standings part, print) and the player's own page (page and live part).

An unchanged page is answered from memory without a query; a deal at one table drops
the pages of that table's players and the board's standings while it shows them current,
not the pages of the other tables; a draw, a publication choice, a language and an
unpublished tournament are each answered as the view would. The staff's full names
never reach an anonymous reader."""

import re
from unittest import mock

import pytest
from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from clublife.services.privacy import player_publish
from tests.tournaments.test_player_phone_services import CLUBS_WON, fill, seated
from tournaments.models import Participant, Table
from tournaments.recompute import snapshots
from tournaments.recompute.standings_rows import standings_recompute
from tournaments.services import round_close
from tournaments.services.entries import tournament_update

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _commits(requests_commit):
    snapshots.forget_all()
    yield
    snapshots.forget_all()


def get(url: str, language: str = "de", **headers):
    return Client(HTTP_ACCEPT_LANGUAGE=language).get(url, **headers)


def remembered(url: str, language: str = "de"):
    """Polled until the middleware keeps it: the first render teaches the scopes, the
    second is remembered."""
    get(url, language)
    return get(url, language)


def from_memory(url, django_assert_num_queries, language="de", **headers):
    with django_assert_num_queries(0):
        return get(url, language, **headers)


def served_by_the_view(url, django_assert_num_queries, language="de", **headers):
    with pytest.raises(pytest.fail.Exception):  # queries: the view answered
        from_memory(url, django_assert_num_queries, language, **headers)
    return get(url, language, **headers)


def shown(resp) -> bytes:
    """The page without its CSRF token (each reader's own)."""
    return re.sub(rb'(name="csrfmiddlewaretoken" value=")[A-Za-z0-9]{64}', rb"\1",
                  resp.content)


def board(tournament, part=""):
    return f"/p/{tournament.slug}/{part}"


def test_an_unchanged_board_is_answered_without_a_query(short_skat, table,
                                                         django_assert_num_queries):
    standings_recompute(tournament_id=short_skat.pk)
    for part in ("", "standings/", "print/", "standings/?round=1"):
        first = remembered(board(short_skat, part))
        again = from_memory(board(short_skat, part), django_assert_num_queries)
        assert again.status_code == 200 and shown(again) == shown(first)
    fragment = get(board(short_skat, "standings/"))
    not_modified = from_memory(board(short_skat, "standings/"), django_assert_num_queries,
                               HTTP_IF_NONE_MATCH=fragment["ETag"])
    assert not_modified.status_code == 304 and not_modified["ETag"] == fragment["ETag"]
    assert not_modified.content == b""


def test_a_deal_drops_its_tables_pages_only(short_skat, table, other_table, table_client,
                                            django_assert_num_queries):
    standings_recompute(tournament_id=short_skat.pk)
    here, there = seated(table)[0], seated(other_table)[0]
    pages = {p: [f"/me/{p.personal_token}/", f"/me/{p.personal_token}/live/"]
             for p in (here, there)}
    before = {url: shown(remembered(url)) for urls in pages.values() for url in urls}
    fragment = remembered(board(short_skat, "standings/"))
    assert "updating" not in fragment.content.decode() and b"aktualisiert" not in (
        fragment.content)
    fill(table_client, table, 1)  # committed when the request ends
    for url in pages[there]:  # another table: still the remembered page
        assert shown(from_memory(url, django_assert_num_queries)) == before[url]
    live = served_by_the_view(pages[here][1], django_assert_num_queries)
    assert shown(live) != before[pages[here][1]]
    assert re.search(r'class="list paper-list"', live.content.decode())
    # the board showed the standings current: the deal makes them stale
    stale = served_by_the_view(board(short_skat, "standings/"), django_assert_num_queries)
    assert stale.content != fragment.content
    remembered(board(short_skat, "standings/"))
    # a second deal: the stale board stays, nothing it shows moved
    resp = table_client.post(f"/api/v1/tables/{table['id']}/deals/",
                             {"number": 2, **CLUBS_WON}, format="json")
    assert resp.status_code == 201, resp.content
    assert from_memory(board(short_skat, "standings/"),
                       django_assert_num_queries).content == stale.content
    standings_recompute(tournament_id=short_skat.pk)  # the computation: every page goes
    computed = served_by_the_view(board(short_skat, "standings/"), django_assert_num_queries)
    assert computed.content != stale.content
    served_by_the_view(pages[there][1], django_assert_num_queries)


def test_a_new_draw_moves_the_seat(short_skat, table, director_client,
                                   django_assert_num_queries):
    player = seated(table)[0]
    url = f"/me/{player.personal_token}/live/"
    first = remembered(url).content.decode()
    assert f'data-seat-key="1-{table["id"]}-' in first
    rnd = short_skat.rounds.get()
    Table.objects.filter(round=rnd).update(submitted=True)
    round_close(round_id=rnd.pk)
    closed = served_by_the_view(url, django_assert_num_queries).content.decode()
    assert "Sie haben gerade keinen Platz." in closed
    remembered(url)
    resp = director_client.post(f"/api/v1/tournaments/{short_skat.pk}/rounds/",
                                {"method": "random", "seed": 3}, format="json")
    assert resp.status_code == 201, resp.content
    seat = next((t["id"], s["seat"]) for t in resp.json()["tables"] for s in t["seats"]
                if s["participant"] == player.pk)
    drawn = served_by_the_view(url, django_assert_num_queries).content.decode()
    assert f'data-seat-key="2-{seat[0]}-{seat[1]}"' in drawn


def test_a_publication_choice_shows_on_the_next_poll(short_skat, table, table_client,
                                                     django_assert_num_queries):
    fill(table_client, table, 1)
    standings_recompute(tournament_id=short_skat.pk)
    participant = Participant.objects.select_related("player").get(
        pk=seated(table)[0].pk)
    name = participant.player.name
    assert name in remembered(board(short_skat, "standings/")).content.decode()
    player_publish(player=participant.player, publication="number")
    shown = served_by_the_view(board(short_skat, "standings/"), django_assert_num_queries)
    assert name not in shown.content.decode()


def test_each_language_gets_its_own_page(short_skat, table, django_assert_num_queries):
    standings_recompute(tournament_id=short_skat.pk)
    url = board(short_skat, "standings/")
    german = remembered(url, "de")
    assert "Rang" in german.content.decode()
    english = served_by_the_view(url, django_assert_num_queries, "en")
    assert "Rank" in english.content.decode() and "Rang" not in english.content.decode()
    remembered(url, "en")
    assert from_memory(url, django_assert_num_queries, "en").content == english.content
    assert from_memory(url, django_assert_num_queries, "de").content == german.content
    cookie = Client(HTTP_ACCEPT_LANGUAGE="de")
    cookie.cookies["django_language"] = "en"  # the language cookie wins, as for the view
    assert cookie.get(url).content == english.content
    assert english["Content-Language"] == "en"
    # a player's seat, kept rendered between computations, is kept per language too
    live = f"/me/{seated(table)[0].personal_token}/live/"
    german, english = get(live, "de").content.decode(), get(live, "en").content.decode()
    assert "Ihr Platz jetzt" in german and "Your seat now" not in german
    assert "Your seat now" in english and "Ihr Platz jetzt" not in english


def test_an_unpublished_tournament_is_404_even_with_its_snapshot(short_skat, table):
    standings_recompute(tournament_id=short_skat.pk)
    urls = [board(short_skat), board(short_skat, "standings/"), board(short_skat, "print/")]
    etags = {url: remembered(url).get("ETag") for url in urls}
    assert snapshots._snapshots
    tournament_update(tournament=short_skat, published=False)
    for url in urls:
        assert get(url).status_code == 404
        if etags[url]:  # a 304 never tells that the tournament exists
            assert get(url, HTTP_IF_NONE_MATCH=etags[url]).status_code == 404
    assert not snapshots._snapshots
    for url in urls:
        get(url)
    assert not snapshots._snapshots  # never remembered while hidden


def test_the_staff_answer_never_reaches_the_public(short_skat, table, table_client,
                                                   director_client, anon_client,
                                                   django_assert_max_num_queries):
    fill(table_client, table, 1)
    standings_recompute(tournament_id=short_skat.pk)
    participant = Participant.objects.select_related("player").get(
        pk=seated(table)[0].pk)
    player_publish(player=participant.player, publication="number")
    standings_recompute(tournament_id=short_skat.pk)
    url = f"/api/v1/tournaments/{short_skat.pk}/standings/"
    full = director_client.get(url)
    assert participant.player.name in full.content.decode()
    with django_assert_max_num_queries(8):  # the full names come from the results cache
        assert director_client.get(url).content == full.content
    for _ in range(3):
        public = anon_client.get(url)
        assert public.status_code == 200
        assert participant.player.name not in public.content.decode()
    assert anon_client.get(url, HTTP_IF_NONE_MATCH=full["ETag"]).status_code == 200


def test_each_reader_of_a_remembered_page_gets_a_csrf_token_of_their_own(short_skat,
                                                                         table):
    url = board(short_skat)
    remembered(url)
    field = re.compile(r'name="csrfmiddlewaretoken" value="([A-Za-z0-9]{64})"')
    tokens = []
    for _ in range(2):
        reader = Client(enforce_csrf_checks=True, HTTP_ACCEPT_LANGUAGE="de")
        page = reader.get(url)
        token = field.search(page.content.decode()).group(1)
        assert reader.cookies["csrftoken"].value
        tokens.append(token)
        switched = reader.post("/i18n/setlang/", {"language": "en", "next": url,
                                                  "csrfmiddlewaretoken": token})
        assert switched.status_code == 302  # the token fits the reader's own cookie
    assert tokens[0] != tokens[1]


def test_an_invalidation_message_names_its_scopes():
    from tournaments.recompute.invalidations import invalidation_message, scopes_of

    assert scopes_of(invalidation_message(5)) == ("5",)
    assert scopes_of(invalidation_message(5, 12)) == ("s5", "d12")
    assert scopes_of(invalidation_message(None, 12)) == ("d12",)
    assert scopes_of(invalidation_message(5, computation=True)) == ("c5",)
    assert scopes_of("c") == () and scopes_of("cx") == () and scopes_of("c\u00b2") == ()
    assert scopes_of("nonsense") == () and scopes_of("5:x") == () and scopes_of("a:1") == ()


def test_an_erased_personal_token_opens_nothing_at_once(short_skat, table,
                                                        django_assert_num_queries):
    participant = Participant.objects.get(pk=seated(table)[0].pk)
    url = f"/me/{participant.personal_token}/live/"
    remembered(url)
    assert from_memory(url, django_assert_num_queries).status_code == 200
    participant.personal_token = "y" * 32
    participant.save()
    assert get(url).status_code == 404


def test_phones_that_accept_gzip_get_the_remembered_answer_gzipped(
        short_skat, table, django_assert_num_queries):
    """A board part of a championship is a megabyte of HTML polled by every phone: it is
    compressed once per snapshot, by its first reader that accepts gzip, and sent gzipped
    to whoever accepts it (every browser), plain to the others; a page with a CSRF token
    is never compressed (BREACH)."""
    import gzip

    from tournaments.recompute import snapshots

    def kept(body: bytes):
        return [s for s in snapshots._snapshots.values() if s.body == body]

    standings_recompute(tournament_id=short_skat.pk)
    api = f"/api/v1/tournaments/{short_skat.pk}/standings/"
    for url in (board(short_skat, "standings/"), board(short_skat, "standings/?round=1"), api):
        plain = remembered(url)
        # kept plain until a reader asks for gzip: a player's page, rendered anew after
        # nearly every computation and read once, is never compressed for nobody
        assert "Accept-Encoding" in from_memory(url, django_assert_num_queries)["Vary"]
        assert [s.gzipped for s in kept(plain.content)] == [None]
        packed = from_memory(url, django_assert_num_queries,
                             HTTP_ACCEPT_ENCODING="gzip, deflate, br")
        assert packed.status_code == 200 and packed["Content-Encoding"] == "gzip"
        assert gzip.decompress(packed.content) == plain.content
        assert len(packed.content) < len(plain.content) / 3
        assert [s.gzipped for s in kept(plain.content)] == [packed.content]
        assert int(packed["Content-Length"]) == len(packed.content)
        assert "Accept-Encoding" in packed["Vary"]
        # its validator is weak (another representation) and still answers 304, both ways
        assert packed["ETag"] == f"W/{plain['ETag']}"
        for tag in (packed["ETag"], plain["ETag"]):
            again = from_memory(url, django_assert_num_queries,
                                HTTP_ACCEPT_ENCODING="gzip", HTTP_IF_NONE_MATCH=tag)
            assert again.status_code == 304 and again.content == b""
        unpacked = from_memory(url, django_assert_num_queries,
                               HTTP_ACCEPT_ENCODING="identity")
        assert not unpacked.has_header("Content-Encoding")
        assert unpacked.content == plain.content and "Accept-Encoding" in unpacked["Vary"]
    for url in (board(short_skat), board(short_skat, "print/")):  # the language form
        page = remembered(url)
        assert b"csrfmiddlewaretoken" in page.content
        again = from_memory(url, django_assert_num_queries, HTTP_ACCEPT_ENCODING="gzip")
        assert again.status_code == 200 and not again.has_header("Content-Encoding")


def _staff_standings(short_skat, table, table_client):
    """The standings of ``short_skat`` with one player who shows only a number: the
    full name is what a director's answer has and the public's never."""
    fill(table_client, table, 1)
    participant = Participant.objects.select_related("player").get(pk=seated(table)[0].pk)
    player_publish(player=participant.player, publication="number")
    standings_recompute(tournament_id=short_skat.pk)
    return f"/api/v1/tournaments/{short_skat.pk}/standings/", participant.player.name


def test_a_directors_token_poll_is_answered_from_memory_after_one_query(
        short_skat, table, table_client, director, django_assert_max_num_queries):
    from tests.conftest import token_client

    url, name = _staff_standings(short_skat, table, table_client)
    client = token_client(director)
    first = client.get(url)
    client.get(url)
    # the token, its user and the directorship: asked of the database, or trusted while
    # the listener (PostgreSQL + Redis) has heard of no change since it said yes
    with django_assert_max_num_queries(1):
        again = client.get(url)
    assert again.content == first.content and name in again.content.decode()
    with django_assert_max_num_queries(1):
        assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    # the public's snapshot is another: never the director's full names
    assert name not in get(url).content.decode()


@pytest.mark.parametrize("revoke", ["token deleted", "user inactive", "user no staff",
                                    "director removed"])
def test_a_revoked_staff_token_reads_nothing_more_from_the_next_poll(
        short_skat, table, table_client, director, club, revoke):
    from rest_framework.authtoken.models import Token

    from tests.conftest import token_client

    url, name = _staff_standings(short_skat, table, table_client)
    client = token_client(director)
    for _ in range(3):
        assert name in client.get(url).content.decode()
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
    answer = client.get(url)
    if revoke in ("token deleted", "user inactive"):
        assert answer.status_code == 401
    else:  # a reader like any other: the names as their players chose
        assert answer.status_code == 200 and name not in answer.content.decode()


def test_a_club_admins_token_is_served_as_the_directors(short_skat, table, table_client,
                                                        club, django_assert_max_num_queries):
    from tests.conftest import token_client
    from tests.factories import StaffFactory

    url, name = _staff_standings(short_skat, table, table_client)
    admin = StaffFactory(username="kassenwart")
    club.admins.add(admin)
    client = token_client(admin)
    client.get(url)
    with django_assert_max_num_queries(1):
        assert name in client.get(url).content.decode()
    outsider = token_client(StaffFactory(username="fremd"))
    for _ in range(3):
        assert name not in outsider.get(url).content.decode()


def rendered_templates(url: str, *, fresh: bool = True) -> tuple[list[str], bytes]:
    """The templates the view rendered for ``url`` — with ``fresh``, in a fresh process
    (nothing kept in its memory) — and the answer."""
    from django.test.signals import template_rendered

    names: list[str] = []

    def note(sender, template, **kwargs):
        names.append(template.name)

    if fresh:
        snapshots.forget_all()
    template_rendered.connect(note)
    try:
        resp = get(url)
    finally:
        template_rendered.disconnect(note)
    assert resp.status_code == 200
    return names, resp.content


def test_the_board_part_is_rendered_once_per_computation_for_every_process(
        short_skat, table, table_client):
    """A championship's board is a second's render: the processes share one render of
    each answer through the cache; a deal that changes nothing the board shows (it shows
    the standings stale already) renders nothing, a computation renders once."""
    part = board(short_skat, "standings/")
    standings_recompute(tournament_id=short_skat.pk)
    fill(table_client, table, 1)  # the board turns stale
    names, stale = rendered_templates(part)
    assert "board/_standings.html" in names and b"aktualisiert" in stale
    names, again = rendered_templates(part)
    assert names == [] and again == stale
    resp = table_client.post(f"/api/v1/tables/{table['id']}/deals/",
                             {"number": 2, **CLUBS_WON}, format="json")
    assert resp.status_code == 201, resp.content
    names, after_deal = rendered_templates(part)
    assert names == [] and after_deal == stale
    standings_recompute(tournament_id=short_skat.pk)
    names, computed = rendered_templates(part)
    assert "board/_standings.html" in names and computed != stale
    assert b"aktualisiert" not in computed
    names, _answer = rendered_templates(f"{part}?round=1")  # another answer: its own render
    assert "board/_standings.html" in names


def test_a_poll_while_another_process_renders_the_part_gets_the_one_before(
        short_skat, table, table_client, django_assert_num_queries):
    """One render per answer, however many polls arrive while it runs: while another
    process holds the render, a poll gets the part before it under that part's own ETag
    (a 304 for the phone that has it), and the answer is not remembered as the new one."""
    part = board(short_skat, "standings/")
    standings_recompute(tournament_id=short_skat.pk)
    before = get(part)
    assert before.status_code == 200 and b"aktualisiert" not in before.content
    fill(table_client, table, 1)  # a new answer: the standings are stale
    lock = f"board-standings:{short_skat.pk}:0:rendering"
    assert cache.add(lock, 1, 30)  # another process renders it
    try:
        during = get(part)
        assert during.status_code == 200 and during["ETag"] == before["ETag"]
        assert during.content == before.content
        again = served_by_the_view(part, django_assert_num_queries)  # not remembered
        assert again["ETag"] == before["ETag"]
        unchanged = get(part, HTTP_IF_NONE_MATCH=before["ETag"])
        assert unchanged.status_code == 304 and unchanged["ETag"] == before["ETag"]
    finally:
        cache.delete(lock)
    after = get(part)
    assert after.status_code == 200 and after["ETag"] != before["ETag"]
    assert b"aktualisiert" in after.content


def test_a_poll_with_no_part_before_waits_for_the_render_then_renders_it_itself(
        short_skat, table, monkeypatch):
    """A reader with nothing older to show waits for the other process's render, and
    renders the part itself when that render does not come (its process died)."""
    monkeypatch.setattr(snapshots, "RENDER_WAIT_SECONDS", 0.3)
    standings_recompute(tournament_id=short_skat.pk)
    part = board(short_skat, "standings/?round=1")
    lock = f"board-standings:{short_skat.pk}:1:rendering"
    cache.delete(f"board-standings:{short_skat.pk}:1")
    assert cache.add(lock, 1, 30)
    try:
        resp = get(part)
    finally:
        cache.delete(lock)
    assert resp.status_code == 200 and b"aktualisiert" not in resp.content
    assert resp["ETag"] == get(part)["ETag"]


def test_a_computation_costs_a_players_page_its_ranks_only(
        short_skat, table, other_table, table_client, django_assert_num_queries):
    """A championship's computation comes every few seconds and moves everyone's rank,
    so every phone's live part is rendered anew; what the part reads besides the
    standings (the seats, the table, the confirmations) is kept while none of it
    changes, and so is what it renders of them (the seat now with the table's card).
    The first page after a computation reads the computation (two queries), every other
    page nothing; a deal at a player's table makes their page read it all and render
    their seat and card again."""
    standings_recompute(tournament_id=short_skat.pk)
    here = seated(table)[0]
    there, beside = seated(other_table)[:2]
    urls = {p: f"/me/{p.personal_token}/live/" for p in (here, there, beside)}
    before = {p: remembered(url) for p, url in urls.items()}
    assert all(b'id="me-rank">' in r.content for r in before.values())
    fill(table_client, table, 1)
    standings_recompute(tournament_id=short_skat.pk)
    with django_assert_num_queries(2):  # when computed, and its lists
        names, first = rendered_templates(urls[there], fresh=False)
    assert "me/_live.html" in names and "me/_now.html" not in names
    with django_assert_num_queries(0):
        names, second = rendered_templates(urls[beside], fresh=False)
    assert "me/_live.html" in names and "me/_now.html" not in names
    assert b'id="me-rank">' in second
    names, moved = rendered_templates(urls[here], fresh=False)  # their table: read again
    assert "me/_live.html" in names and "me/_now.html" in names
    assert moved.count(b'class="deal-row') == 1
    assert b'id="me-score">' in moved and moved != before[here].content
    # what is kept is what a render in a fresh process makes
    for url, html in ((urls[there], first), (urls[beside], second), (urls[here], moved)):
        assert rendered_templates(url)[1] == html


def test_an_unpublished_tournaments_player_page_reads_everything_each_time(
        short_skat, table):
    """Nobody's poll of an unpublished tournament is remembered (its pages are the
    players' and its directors' alone): what it shows is read on every request."""
    tournament_update(tournament=short_skat, published=False)
    player = seated(table)[0]
    url = f"/me/{player.personal_token}/live/"
    for _ in range(3):
        get(url)
    Participant.objects.filter(pk=player.pk).update(withdrawn=True)  # no invalidation
    assert "Sie haben gerade keinen Platz." in get(url).content.decode()


def test_a_deal_makes_its_tables_players_read_the_table_once_for_all_of_them(
        short_skat, other_table, django_assert_num_queries):
    """A deal at a table changes its players' pages: the first of them to poll reads
    the table again (not their own seats), the others read nothing and all show it."""
    from tests.conftest import table_client_for

    standings_recompute(tournament_id=short_skat.pk)
    players = seated(other_table)
    urls = [f"/me/{p.personal_token}/live/" for p in players]
    for url in urls:
        remembered(url)
    client = table_client_for(other_table["entry_token"])
    resp = client.post(f"/api/v1/tables/{other_table['id']}/deals/",
                       {"number": 1, "declarer": 2, "game": "clubs", "matadors": 1,
                        "won": True}, format="json")
    assert resp.status_code == 201, resp.content
    with CaptureQueriesContext(connection) as first:
        shown = [get(urls[0])]
    tables = [q["sql"] for q in first.captured_queries]
    # the table read again, not the player (found by the token) nor their seats
    assert tables and not any('"tournaments_participant"."personal_token" =' in q
                              for q in tables)
    for url in urls[1:]:
        with django_assert_num_queries(0):
            shown.append(get(url))
    assert all(r.status_code == 200 and r.content.count(b'class="deal-row') == 1
               for r in shown)


@pytest.mark.skipif(not settings.REDIS_URL, reason="processes share through Redis only "
                    "(the suite's PostgreSQL and Redis run)")
def test_a_table_read_after_a_deal_is_shared_with_the_other_processes(
        short_skat, other_table):
    """After a deal the table is read once for its players in all processes, and after a
    computation the ranks read and ranked once: a process that keeps nothing of them
    (here: this one, after forgetting all) takes what the first reader shared — without
    the table's queries or the standings' lists — and the card the first reader
    rendered, in the same round trip, without rendering it. The next deal makes what
    was shared unreachable: the table is read again, and the card rendered again, with
    both deals."""
    from tests.conftest import table_client_for
    from tournaments.pages import me

    standings_recompute(tournament_id=short_skat.pk)
    urls = [f"/me/{p.personal_token}/live/" for p in seated(other_table)]
    client = table_client_for(other_table["entry_token"])

    def deal(number):  # the dealer of a table of four sits out
        resp = client.post(f"/api/v1/tables/{other_table['id']}/deals/",
                           {**CLUBS_WON, "number": number, "declarer": number % 4 + 1},
                           format="json")
        assert resp.status_code == 201, resp.content

    def polled(url) -> tuple[str, str]:
        with CaptureQueriesContext(connection) as captured:
            resp = get(url)
        assert resp.status_code == 200
        html = resp.content.decode()
        start = html.index('class="me-card"')
        return (html[start:html.index("</section>", start)],
                " ".join(q["sql"] for q in captured.captured_queries))

    deal(1)
    first, read = polled(urls[0])
    assert 'FROM "tournaments_deal"' in read and first.count('class="deal-row') == 1
    assert 'FROM "tournaments_standingspage"' in read
    snapshots.forget_all()  # another process
    me._ROWS.clear()
    with mock.patch.object(me, "_card_now", wraps=me._card_now) as rendered:
        second, read = polled(urls[1])
    assert second == first and not rendered.called
    assert 'FROM "tournaments_deal"' not in read
    assert 'FROM "tournaments_standingspage"' not in read
    deal(2)
    snapshots.forget_all()
    with mock.patch.object(me, "_card_now", wraps=me._card_now) as rendered:
        third, read = polled(urls[2])
    assert 'FROM "tournaments_deal"' in read and third.count('class="deal-row') == 2
    assert rendered.call_count == 1


def test_a_corrected_earlier_round_shows_on_the_players_page(short_skat, table, table_client):
    """An earlier round's table is not read per poll; a change of its sheet (a
    correction while the round is reopened) drops what the page kept of the player, so
    the corrected score shows with the recompute it causes (the page shows the round's
    rank from it)."""
    from tournaments.models import Seat
    from tournaments.recompute.outbox import sheet_changed

    player = seated(table)[1]
    fill(table_client, table, 1)
    rnd = short_skat.rounds.get()
    Table.objects.filter(round=rnd).update(submitted=True)
    round_close(round_id=rnd.pk)
    url = f"/me/{player.personal_token}/live/"
    remembered(url)
    before = remembered(url).content.decode()
    assert '<td class="num">\u22121234</td>' not in before
    # what a correction writes: the seat's total, and the sheet's change
    Seat.objects.filter(table_id=table["id"], participant=player).update(score=-1234)
    sheet_changed(short_skat.pk, round_number=1, table_id=table["id"])
    standings_recompute(tournament_id=short_skat.pk)
    assert '<td class="num">\u22121234</td>' in get(url).content.decode()


def test_a_deal_renders_one_new_row_of_the_score_card_and_a_correction_the_rows_it_moves(
        short_skat, other_table):
    """The card on the player's page is assembled from rows rendered once per process:
    a deal renders its own row (not the whole sheet again), a correction of deal 1
    renders the rows whose running totals it moved; and the card reads as one rendered
    whole would, in either language."""
    from django.test.signals import template_rendered

    from tests.conftest import table_client_for
    from tournaments.pages import me

    standings_recompute(tournament_id=short_skat.pk)
    client = table_client_for(other_table["entry_token"])
    url = f"/me/{seated(other_table)[0].personal_token}/live/"
    rows = []

    def deal(number, **changed):  # the dealer of a table of four sits out
        return {**CLUBS_WON, "number": number, "declarer": number % 4 + 1, **changed}

    def rendered(sender, template, **kwargs):
        if template.name == "sheet/_deal_row.html":
            rows.append(kwargs["context"]["d"]["number"])

    def card(language="de"):
        rows.clear()
        template_rendered.connect(rendered)
        try:
            page = get(url, language).content.decode()
        finally:
            template_rendered.disconnect(rendered)
        return page[page.index('<div class="sheet-lists'):page.index("</table>")], list(rows)

    etags = []
    for number in (1, 2):
        resp = client.post(f"/api/v1/tables/{other_table['id']}/deals/",
                           deal(number), format="json")
        assert resp.status_code == 201, resp.content
        etags.append(resp["ETag"])
    assert card()[1] == [1, 2]
    assert client.post(f"/api/v1/tables/{other_table['id']}/deals/",
                       deal(3), format="json").status_code == 201
    three, drawn = card()
    assert drawn == [3]
    me._ROWS.clear()
    snapshots.forget_all()
    # (and what this process shared of the table out of reach: a process that renders)
    snapshots.invalidate_now(None, other_table["id"])
    assert card() == (three, [1, 2, 3])  # the same card, every row rendered anew
    english, drawn = card("en")
    assert drawn == [1, 2, 3] and "dealer" in english and english != three
    correction = {k: v for k, v in deal(1, matadors=3).items() if k != "number"}
    assert client.put(f"/api/v1/tables/{other_table['id']}/deals/1/", correction,
                      format="json", HTTP_IF_MATCH=etags[0]).status_code == 200
    corrected, drawn = card()
    assert drawn == [1, 2, 3] and corrected != three  # every running total moved
    assert card("en")[1] == [1, 2, 3]
    assert client.post(f"/api/v1/tables/{other_table['id']}/deals/",
                       deal(4), format="json").status_code == 201
    assert card("en")[1] == [4]  # each language's rows are kept
    assert card()[1] == [4]


def test_the_stale_board_part_reuses_the_rows_of_its_computation(short_skat, table,
                                                                   table_client):
    """The part is rendered current after a computation and stale at the next deal:
    the stale render reads no standings row again (only the notice differs); the next
    computation reads them anew, as does a change of the tournament (a name)."""
    part = board(short_skat, "standings/")
    standings_recompute(tournament_id=short_skat.pk)

    def poll():
        with CaptureQueriesContext(connection) as captured:
            resp = get(part)
        participants = sum('FROM "tournaments_participant"' in q["sql"]
                           for q in captured.captured_queries)
        return resp.content.decode(), participants

    current, read = poll()
    assert read and "aktualisiert" not in current
    fill(table_client, table, 1)  # the board turns stale
    stale, read = poll()
    assert not read and "aktualisiert" in stale
    assert current.split("<tbody>")[1].split("</tbody>")[0] == \
        stale.split("<tbody>")[1].split("</tbody>")[0]
    standings_recompute(tournament_id=short_skat.pk)
    computed, read = poll()
    assert read and "aktualisiert" not in computed
    fill_next = {"number": 2, **CLUBS_WON}
    assert table_client.post(f"/api/v1/tables/{table['id']}/deals/", fill_next,
                             format="json").status_code == 201
    player = Participant.objects.filter(tournament=short_skat).first().player
    player_publish(player=player, publication="number")
    shown, read = poll()
    assert read and shown != computed  # the tournament's scope moved: read again
