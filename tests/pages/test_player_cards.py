"""Player cards in the console: all cards (eight to a page) and one card on demand, each
with the QR code of the player's own page on the address the phones reach; the
participant list links each card but never shows a token (issue #24, point 1)."""

import re

import pytest
from django.test import Client
from django.utils import timezone

from tests.factories import ParticipantFactory, TournamentFactory
from tournaments.links import personal_path
from tournaments.pages.qr import qr_svg

pytestmark = pytest.mark.django_db

CARD = re.compile(r'<article class="player-card" id="card-(\d+)"')


@pytest.fixture
def director_browser(director):
    client = Client()
    client.force_login(director)
    return client


def text_of(html: str) -> str:
    return re.sub(r"<[^>]+>", "", html)


def cards_of(html: str) -> list[int]:
    return [int(pk) for pk in CARD.findall(html)]


def test_all_cards_of_the_players_still_playing_in_start_order(director_browser, short_skat):
    participants = list(short_skat.participants.select_related("player")
                        .order_by("start_number"))
    withdrawn, erased = participants[2], participants[4]
    withdrawn.withdrawn = True
    withdrawn.save()
    erased.player.erased_at = timezone.now()
    erased.player.save()
    resp = director_browser.get(f"/console/t/{short_skat.pk}/player-cards/")
    assert resp.status_code == 200
    html = resp.content.decode()
    shown = [p for p in participants if p not in (withdrawn, erased)]
    assert cards_of(html) == [p.pk for p in shown]
    for p in shown:
        url = f"http://testserver{personal_path(p.personal_token)}"
        card = html.split(f'id="card-{p.pk}"', 1)[1].split("</article>", 1)[0]
        assert p.player.name.split()[-1] in card and f"Nr. {p.start_number}" in card
        assert url in text_of(card)  # written out to type in
        assert str(qr_svg(url)) in card  # and the code holds that link
        assert "Nur für Sie – nicht weitergeben" in card
    assert withdrawn.personal_token not in html and erased.personal_token not in html
    assert html.count('class="card-sheet"') == 1  # six cards: one page


def test_cards_go_eight_to_a_page(director_browser, director, club):
    tournament = TournamentFactory(club=club)
    tournament.directors.add(director)
    for n in range(17):
        ParticipantFactory(tournament=tournament, start_number=n + 1)
    html = director_browser.get(f"/console/t/{tournament.pk}/player-cards/").content.decode()
    pages = html.split('<div class="card-sheet">')[1:]
    assert [len(cards_of(page)) for page in pages] == [8, 8, 1]


def test_one_card_on_demand(director_browser, short_skat, tournament):
    p = short_skat.participants.get(start_number=3)
    resp = director_browser.get(f"/console/t/{short_skat.pk}/player-cards/{p.pk}/")
    assert resp.status_code == 200 and cards_of(resp.content.decode()) == [p.pk]
    # another tournament's participant under this tournament: not found
    stranger = ParticipantFactory(tournament=tournament, start_number=1)
    assert director_browser.get(
        f"/console/t/{short_skat.pk}/player-cards/{stranger.pk}/").status_code == 404
    p.player.erased_at = timezone.now()  # an erased person's link opens nothing
    p.player.save()
    assert director_browser.get(
        f"/console/t/{short_skat.pk}/player-cards/{p.pk}/").status_code == 404


def test_the_cards_link_to_the_venue_address(director_browser, short_skat, settings):
    settings.SITE_URL = "http://192.168.1.20:8000"
    p = short_skat.participants.get(start_number=1)
    html = director_browser.get(f"/console/t/{short_skat.pk}/player-cards/{p.pk}/").content.decode()
    assert f"http://192.168.1.20:8000/me/{p.personal_token}/" in text_of(html)
    assert "testserver" not in html


@pytest.mark.parametrize("path", ["player-cards/", "player-cards/{pid}/"])
def test_only_the_directors_print_cards(client, outsider, short_skat, path):
    url = f"/console/t/{short_skat.pk}/" + path.format(
        pid=short_skat.participants.first().pk)
    resp = client.get(url)
    assert resp.status_code == 302 and "/login/" in resp["Location"]
    client.force_login(outsider)  # staff who direct something else
    resp = client.get(url)
    assert resp.status_code == 403
    assert short_skat.participants.first().personal_token not in resp.content.decode()


def test_the_console_links_every_card_and_shows_no_token(director_browser, short_skat):
    html = director_browser.get(f"/console/t/{short_skat.pk}/").content.decode()
    assert f'href="/console/t/{short_skat.pk}/player-cards/"' in html
    for p in short_skat.participants.all():
        assert f'href="/console/t/{short_skat.pk}/player-cards/{p.pk}/"' in html
        assert p.personal_token not in html
