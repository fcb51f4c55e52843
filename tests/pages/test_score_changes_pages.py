"""The changes to a player's own score after they were shown, on the player's own page
``/me/<token>/`` and on the public player page ``/clubs/players/<pk>/``: when (German
date and time), which deal, before and after, by whom and why; the public page only of
the tournaments it shows, naming no other player."""

import pytest
from django.test import Client
from django.utils import timezone

from clubs.models import Player
from tests.factories import ParticipantFactory, PlayerFactory, TournamentFactory
from tests.scale import queries_of
from tournaments.models import Deal, SheetEvent
from tournaments.services import Actor, deal_correct, deal_record, round_draw

pytestmark = pytest.mark.django_db

WON = {"game": "clubs", "matadors": 1, "won": True}


@pytest.fixture(autouse=True)
def _changes_commit(requests_commit):
    """The pages are read after the changes have committed."""


def get(url: str):
    return Client(HTTP_ACCEPT_LANGUAGE="de").get(url)


def played(club, director, player, *, published: bool, reason: str, by_phone=False):
    """A tournament of ``player`` and three others at one table: one deal that ``player``
    declares and wins, then corrected to a loss with ``reason`` (by the director, or by
    the phone of the player in seat 1 — or 2 when ``player`` sits there)."""
    tournament = TournamentFactory(club=club, published=published)
    tournament.directors.add(director)
    ParticipantFactory(tournament=tournament, player=player, start_number=1)
    for n in range(3):
        ParticipantFactory(tournament=tournament, player=PlayerFactory(club=club),
                           start_number=n + 2)
    rnd = round_draw(tournament_id=tournament.pk, method="random", seed=1)
    table = rnd.tables.get()
    seat = table.seats.get(participant__player=player).seat
    record = {**WON, "declarer": seat}
    deal_record(table_id=table.pk, number=1, record=record, actor=Actor(user=director))
    actor = Actor(user=director)
    if by_phone:
        other = table.seats.exclude(seat=seat).order_by("seat").first().participant
        actor = Actor(by_table=True, participant=other)
    deal_correct(table_id=table.pk, number=1, record={**record, "won": False}, actor=actor,
                 if_match=Deal.objects.get(table=table).etag, reason=reason)
    return tournament, table


def test_the_own_page_lists_the_change_in_german(club, director):
    player = PlayerFactory(club=club, name="Anna Berger")
    tournament, table = played(club, director, player, published=True,
                               reason="Gegner hatten 61 Augen")
    participant = tournament.participants.get(player=player)
    scores = Deal.objects.get(table=table).scores[table.seats.get(participant=participant)
                                                    .seat - 1]
    html = get(f"/me/{participant.personal_token}/").content.decode()
    assert "Änderungen an Ihrem Ergebnis" in html
    assert f"Runde 1, Tisch {table.number}, Spiel 1" in html
    at = timezone.localtime(SheetEvent.objects.get(
        table=table, action=SheetEvent.Action.DEAL_UPDATE).at)
    assert at.strftime("%d.%m.%Y %H:%M") in html
    assert "Turnierleitung" in html and "Gegner hatten 61 Augen" in html
    assert f"{scores}".replace("-", "\u2212") in html  # the loss as the page writes it
    # the live part, polled, carries it too
    live = get(f"/me/{participant.personal_token}/live/").content.decode()
    assert "Gegner hatten 61 Augen" in live


def test_without_a_change_the_own_page_has_no_such_section(club, director):
    player = PlayerFactory(club=club)
    tournament, _table = played(club, director, player, published=True, reason="x")
    others = tournament.participants.exclude(player=player)
    for participant in others:  # they defended: their deal score stays 0
        html = get(f"/me/{participant.personal_token}/").content.decode()
        assert "Änderungen an Ihrem Ergebnis" not in html


def test_the_public_page_shows_published_tournaments_only(club, director):
    player = PlayerFactory(club=club, name="Bernd Hidden")
    shown, _ = played(club, director, player, published=True, reason="Augen nachgezählt")
    hidden, _ = played(club, director, player, published=False, reason="Geheime Korrektur")
    html = get(f"/clubs/players/{player.pk}/").content.decode()
    assert "Änderungen am Ergebnis" in html
    assert "Augen nachgezählt" in html and shown.name in html
    assert "Geheime Korrektur" not in html
    # the tournament's own page of the player: the published one lists it, the hidden
    # one is not there at all
    mine = shown.participants.get(player=player)
    board = get(f"/p/{shown.slug}/player/{mine.pk}/").content.decode()
    assert "Änderungen am Ergebnis" in board and "Augen nachgezählt" in board
    hidden_one = hidden.participants.get(player=player)
    assert get(f"/p/{hidden.slug}/player/{hidden_one.pk}/").status_code == 404


def test_the_public_page_names_no_other_player_and_keeps_a_number_a_number(club, director):
    player = PlayerFactory(club=club, name="Clara Nummer")
    tournament, table = played(club, director, player, published=True, reason="Vergessen",
                               by_phone=True)
    Player.objects.filter(pk=player.pk).update(publication=Player.Publication.NUMBER)
    html = get(f"/clubs/players/{player.pk}/").content.decode()
    section = html[html.index("Änderungen am Ergebnis"):]
    assert "Handy eines Spielers" in section and "Vergessen" in section
    for seat in table.seats.select_related("participant__player"):
        assert seat.participant.player.name not in html
    # on her own page the phone is named: she sits with that player
    own = get(f"/me/{tournament.participants.get(player=player).personal_token}/")
    assert "Handy von " in own.content.decode()


def test_the_public_page_costs_the_same_queries_at_one_and_three_tournaments(club, director):
    counts = []
    for events in (1, 3):
        player = PlayerFactory(club=club)
        for n in range(events):
            played(club, director, player, published=True, reason=f"Korrektur {n}")
        html = get(f"/clubs/players/{player.pk}/").content.decode()
        assert html.count('class="change-scores"') == events
        counts.append(queries_of(Client(HTTP_ACCEPT_LANGUAGE="de"), f"/clubs/players/{player.pk}/"))
    assert counts[0] == counts[1]
