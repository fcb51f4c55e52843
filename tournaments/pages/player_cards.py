"""Player cards: a printed card per participant with the QR code of the player's own page
(``/me/<token>/``, issue #24), for the director to hand out at the desk.

A card carries the player's name (big), start number and tournament, the QR code of the
personal link (33 mm: a cheap phone camera reads it at arm's length), the link written out
for typing, and "only for you – do not pass on": whoever holds the card sees and enters
as that player. Eight cards fit an A4 page (two columns of four, 95 × 68 mm each, a
little larger than a business card), with dashed cut lines; a page holds whole cards
only. The link is absolute on the address the players' phones reach (``SITE_URL`` under
``make venue``, ``tournaments.links``).

All cards: every participant not withdrawn and not erased (an erased person's link opens
nothing); one card: any participant, on demand (a lost card, a late registration), but
not an erased one. The directors of the tournament only, as the console.
"""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.urls import path

from tournaments.links import personal_path, personal_url
from tournaments.models import RegistrationStatus, Tournament
from tournaments.pages.access import console_page
from tournaments.pages.qr import qr_svg

CARDS_PER_PAGE = 8  # two columns of four on A4 (app.css, "Player cards")


def _card(request, participant) -> dict:
    url = personal_url(request, participant)
    path = personal_path(participant.personal_token)
    # written out in two parts: the address on a line of its own (never broken inside a
    # number, unless it is wider than the card), then the path with the token
    return {"participant": participant, "url": url, "qr": qr_svg(url),
            "address": url.removesuffix(path), "path": path}


def _render(request, tournament: Tournament, participants, *, one: bool):
    cards = [_card(request, p) for p in participants]
    pages = [cards[i:i + CARDS_PER_PAGE] for i in range(0, len(cards), CARDS_PER_PAGE)]
    return render(request, "console/player_cards.html", {
        "tournament": tournament, "pages": pages, "count": len(cards), "one": one})


def _participants(tournament: Tournament):
    return tournament.participants.select_related("player").order_by("start_number")


@console_page
def player_cards(request, tournament: Tournament, tournament_id: int):
    participants = _participants(tournament).filter(withdrawn=False,
                                                    player__erased_at__isnull=True,
                                                    status=RegistrationStatus.REGISTERED)
    return _render(request, tournament, participants, one=False)


@console_page
def player_card(request, tournament: Tournament, tournament_id: int, participant_id: int):
    participant = get_object_or_404(_participants(tournament), pk=participant_id)
    if participant.player.erased:
        raise Http404()
    return _render(request, tournament, [participant], one=True)


urlpatterns = [
    path("t/<int:tournament_id>/player-cards/", player_cards, name="player-cards"),
    path("t/<int:tournament_id>/player-cards/<int:participant_id>/", player_card,
         name="player-card"),
]
