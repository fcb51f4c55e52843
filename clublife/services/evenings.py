"""Club evenings, started from their club's defaults (``clubs.services``).

A *club evening* is a club's weekly routine served by the tournament machinery: a
published tournament of the club flagged ``club_evening``, played in the club's default
game and house rules unless others are picked, with the present players registered and
checked in. *Guests* are typed by name: a guest who came before (or a member typed by
name) is found again, a new name becomes a player without a club — never a member
(``tournaments.services.entries.player_for_name``). ``round_draw`` then draws (and may
be asked to at once).
"""

from __future__ import annotations

import datetime
from typing import Any

from django.db import transaction
from django.utils import formats
from django.utils.translation import gettext
from django.utils.translation import gettext_noop as _

from clublife.models import TableMoneyChange
from clubs.models import Club, Player
from clubs.services import check_table_money
from games.choices import check_game
from games.engines.base import is_int
from games.errors import FieldError, UserError, user_error
from tournaments.models import Tournament
from tournaments.services.entries import (
    participant_add,
    player_for_name,
    tournament_create,
    tournament_update,
)
from tournaments.services.rounds import round_draw

MAX_PRESENT = 500
MAX_NAME = 120


def _check_date(date: Any) -> datetime.date:
    if not isinstance(date, datetime.date) or isinstance(date, datetime.datetime):
        raise user_error("date", _("A date is required."))
    return date


def _present_players(player_ids: Any, guests: Any) -> tuple[list[Player], list[str]]:
    errors: list[FieldError] = []
    if not isinstance(player_ids, (list, tuple)):
        raise user_error("player_ids", _("Must be a list of player ids."))
    if not isinstance(guests, (list, tuple)):
        raise user_error("guests", _("Must be a list of names."))
    if len(player_ids) + len(guests) > MAX_PRESENT:
        raise user_error("player_ids", _("At most %(max)s players can be present."),
                         max=MAX_PRESENT)
    ids = [pid for pid in player_ids if is_int(pid)]
    known = Player.objects.in_bulk(ids)
    seen: set[int] = set()
    players: list[Player] = []
    for index, pid in enumerate(player_ids):
        where = f"player_ids.{index}"
        if not is_int(pid) or pid not in known:
            errors.append(FieldError(where, _("Unknown player “%(player)s”."),
                                     {"player": str(pid)[:40]}))
        elif pid in seen:
            errors.append(FieldError(where, _("Player %(player)s is named twice."),
                                     {"player": pid}))
        else:
            seen.add(pid)
            players.append(known[pid])
    names: list[str] = []
    for index, name in enumerate(guests):
        where = f"guests.{index}"
        if not isinstance(name, str) or not name.strip():
            errors.append(FieldError(where, _("A guest needs a name.")))
        elif len(name.strip()) > MAX_NAME:
            errors.append(FieldError(where, _("At most %(max)s characters."), {"max": MAX_NAME}))
        else:
            names.append(name.strip())
    if errors:
        raise UserError(errors)
    if not players and not names:
        raise user_error("player_ids", _("Pick who is present."))
    return players, names


def evening_name(club: Club, date: datetime.date) -> str:
    label = gettext("Club evening %(date)s") % {"date": formats.date_format(date,
                                                                           "SHORT_DATE_FORMAT")}
    return f"{club.name} – {label}"[:160]


@transaction.atomic
def club_evening_create(*, club: Club, date: datetime.date, player_ids: list[int],
                        guests: list[str] = (), game: str | None = None,
                        rules: dict | None = None, director=None,
                        method: str | None = None) -> Tournament:
    """Create the club's evening of ``date`` with the present players checked in and the
    club's table money copied in.

    ``game`` defaults to the club's game; ``rules`` to the club's house rules when the
    game is the club's (else the game's defaults). With ``method`` the first round is
    drawn too, in the same transaction: an evening that cannot be seated is not created.
    """
    _check_date(date)
    if game is None:
        game = club.default_game
    check_game(game)
    if rules is None:
        rules = dict(club.default_rules) if game == club.default_game else {}
    players, guest_names = _present_players(player_ids, guests)
    # The evening keeps the table money it was played for, whatever the club sets later.
    tournament = tournament_create(name=evening_name(club, date), game=game, rules=rules,
                                   club=club, date=date, director=director,
                                   club_evening=True)
    for name in guest_names:
        # a returning guest (or a member typed as a guest) is that player, not a new one
        players.append(player_for_name(tournament=tournament, name=name, by=director))
    for player in dict.fromkeys(players):  # a name typed and ticked: registered once
        participant_add(tournament=tournament, player=player, checked_in=True)
    if method is not None:
        round_draw(tournament_id=tournament.pk, method=method)
    return tournament


TABLE_MONEY_FIELDS = ("loss_fee_cents", "loss_fee_from", "loss_fee_high_cents")


def _schedule_of(tournament: Tournament) -> dict[str, int | None]:
    return {name: getattr(tournament, name) for name in TABLE_MONEY_FIELDS}


@transaction.atomic
def tournament_table_money_update(*, tournament: Tournament, loss_fee_cents: int | None,
                                  loss_fee_from: int | None = None,
                                  loss_fee_high_cents: int | None = None,
                                  by=None) -> Tournament:
    """Set or correct one tournament's table money, also after it was played
    (``loss_fee_cents`` None: use the club's again). Every change is kept in a
    ``TableMoneyChange`` with the schedule before and after, who and when; a "change"
    to the same schedule stores nothing."""
    fields = {"loss_fee_cents": loss_fee_cents, "loss_fee_from": loss_fee_from,
              "loss_fee_high_cents": loss_fee_high_cents}
    check_table_money(fields)
    if loss_fee_cents is None:
        fields = dict.fromkeys(fields)
    # the schedule as stored (locked: two corrections at once each record their "before")
    before = (Tournament.objects.select_for_update().filter(pk=tournament.pk)
              .values(*TABLE_MONEY_FIELDS).get())
    if before == fields:
        return tournament
    tournament = tournament_update(tournament=tournament, **fields)
    TableMoneyChange.objects.create(tournament=tournament, before=before,
                                    after=_schedule_of(tournament),
                                    by=by if getattr(by, "pk", None) else None)
    return tournament
