"""A person's data (DSGVO): the publication choice, the export of everything stored
about a player, and the erasure of a person.

- ``player_publish``: how the player's name appears to the public ("full", "initial",
  "number"; ``clubs.publication``). The stored standings carry no names (they are named
  when read), so the choice shows on the next read; the standings and seasons that show
  the player are marked changed, which renews their cached answers and ETags.
- ``player_export``: every row that names the player or one of his participations (the
  registrations' e-mail addresses and the mails sent to them included), as JSON-ready
  data (the ``personal_token`` itself is left out: it is a key, not a fact).
- ``player_erase``: the name becomes ``"Gelöschte Person <id>"`` (the player's id: stable,
  unique, no counter to keep), the member number is cleared, the publication set to
  "number", ``erased_at`` set; the registrations' e-mail addresses are deleted, the
  person's mails not yet sent cancelled and the address removed from every outbox row
  (``signup.mails.mails_cancel``); the personal tokens are replaced (the old links
  are dead, and ``personal_token_valid`` refuses an erased player's anyway); the name is
  replaced wherever the history kept it as text (sheet events, team events, merges, the
  admin's change log) and the IP addresses of his phone's changes are cleared; the
  hash chains of the sheets' histories whose entries held the name are made anew
  (``tournaments.services.history.reseal``), as the app itself changed them. Results
  stay, so the other players' standings do not change. The admin's change log records the
  erasure (who, when) without the old name. Erasing twice changes nothing.

It lives in ``clublife``, the floor that may write both the club's and the tournaments'
rows.
"""

from __future__ import annotations

from typing import Any

from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop as _

from clublife.models import PlayerMerge, SeasonRow
from clublife.services.players import names_changed
from clublife.table_money import evening_table_money
from clubs.models import Player
from games.errors import user_error
from signup.mails import mails_cancel
from signup.models import Mail
from tournaments.models import (
    DirectorCall,
    Objection,
    Participant,
    Seat,
    SheetConfirmation,
    SheetEvent,
    TeamEvent,
)
from tournaments.selectors import standings_lists
from tournaments.services import history
from tournaments.tokens import new_token

ERASED_NAME = "Gelöschte Person {n}"
CHOICES = tuple(Player.Publication.values)


def _names_changed(player: Player) -> None:
    """Have the standings and seasons that show ``player`` renewed."""
    names_changed(list(Participant.objects.filter(player=player)
                       .values_list("tournament_id", flat=True)))


@transaction.atomic
def player_publish(*, player: Player, publication: Any) -> Player:
    """Set the publication choice (``UserError`` on ``publication`` for anything else
    than "full", "initial", "number")."""
    if publication not in CHOICES:
        raise user_error("publication", _("Choose one of: %(choices)s."),
                         choices=", ".join(CHOICES))
    if publication == player.publication:
        return player
    player.publication = publication
    player.save(update_fields=["publication"])
    _names_changed(player)
    return player


# ---------------------------------------------------------------------------- export


def _at(value) -> str | None:
    return value.isoformat() if value is not None else None


def _log_of(player: Player):
    return LogEntry.objects.filter(content_type=ContentType.objects.get_for_model(Player),
                                   object_id=str(player.pk))


def player_export(*, player: Player) -> dict[str, Any]:
    """Everything stored about ``player`` (see the module's docstring)."""
    participations = list(Participant.objects.filter(player=player)
                          .select_related("tournament__club", "team")
                          .order_by("tournament__date", "tournament_id"))
    ids = [p.pk for p in participations]
    ranked = standings_lists([p.tournament for p in participations], 0)
    standing = {row["participant"]: row for rows in ranked.values() for row in rows}
    evenings = {}
    for p in participations:
        if p.tournament.club_evening:
            money = evening_table_money(p.tournament)
            evenings[p.pk] = next((r for r in money["players"] if r["player"] == player.pk),
                                  None)
    return {
        "player": {
            "id": player.pk, "name": player.name,
            "club": ({"id": player.club_id, "name": player.club.name}
                     if player.club_id else None),
            "member_number": player.member_number, "publication": player.publication,
            "created_at": _at(player.created_at),
            "created_by": player.created_by.get_username() if player.created_by else None,
            "erased_at": _at(player.erased_at),
        },
        "participations": [{
            "participant": p.pk, "tournament": p.tournament_id,
            "tournament_name": p.tournament.name, "date": _at(p.tournament.date),
            "club": p.tournament.club.name if p.tournament.club else None,
            "club_evening": p.tournament.club_evening,
            "start_number": p.start_number, "checked_in": p.checked_in,
            "registration": ({"status": p.status, "email": p.email, "language": p.language,
                              "registered_at": _at(p.registered_at), "paid": p.paid}
                             if p.self_registered else None),
            "withdrawn": p.withdrawn, "team": p.team.name if p.team_id else None,
            "rank": standing.get(p.pk, {}).get("rank"),
            "score": standing.get(p.pk, {}).get("score"),
            "personal_link": bool(p.personal_token),
            "table_money": evenings.get(p.pk),
        } for p in participations],
        "seats": [{"participant": s.participant_id, "tournament": s.table.round.tournament_id,
                   "round": s.table.round.number, "table": s.table.number, "seat": s.seat,
                   "score": s.score, "figures": s.figures}
                  for s in Seat.objects.filter(participant_id__in=ids)
                  .select_related("table__round").order_by("table__round_id", "table_id")],
        "sheet_history": [{"table": e.table_id, "at": _at(e.at), "action": e.action,
                           "deal": e.deal_number, "ip": e.ip, "after": e.after}
                          for e in SheetEvent.objects.filter(participant_id__in=ids)],
        "confirmations": [{"table": c.table_id, "seat": c.seat, "version": c.version,
                           "at": _at(c.at)}
                          for c in SheetConfirmation.objects.filter(participant_id__in=ids)],
        "objections": [{"table": o.table_id, "deal": o.deal_number, "note": o.note,
                        "at": _at(o.at), "status": o.status, "resolution": o.resolution,
                        "resolved_at": _at(o.resolved_at)}
                       for o in Objection.objects.filter(participant_id__in=ids)],
        "calls": [{"table": c.table_id, "reason": c.reason, "at": _at(c.at),
                   "status": c.status, "seen_at": _at(c.seen_at),
                   "closed_at": _at(c.closed_at)}
                  for c in DirectorCall.objects.filter(participant_id__in=ids)],
        "season_rankings": [{"club": r.season.club_id, "game": r.season.game,
                             "year": r.season.year, "rank": r.rank, "score": r.score,
                             "attended": r.attended, "counted": r.counted}
                            for r in SeasonRow.objects.filter(player=player)
                            .select_related("season").order_by("season__year")],
        "merges": [{"at": _at(m.at), "removed_id": m.removed_id,
                    "removed_name": m.removed_name,
                    "removed_member_number": m.removed_member_number,
                    "participations": m.participations}
                   for m in PlayerMerge.objects.filter(kept=player)],
        "change_log": [{"at": _at(e.action_time), "change": e.change_message}
                       for e in _log_of(player).order_by("action_time")],
        "mails": [{"tournament": m.tournament_id, "kind": m.kind, "to": m.to,
                   "status": m.status, "queued_at": _at(m.created_at),
                   "sent_at": _at(m.sent_at)}
                  for m in Mail.objects.filter(participant_id__in=ids).order_by("id")],
    }


# ----------------------------------------------------------------------------- erase


def _replace(value: Any, old: str, new: str) -> Any:
    """``value`` (JSON) with every string that is ``old`` replaced by ``new``."""
    if isinstance(value, str):
        return new if value == old else value
    if isinstance(value, list):
        return [_replace(v, old, new) for v in value]
    if isinstance(value, dict):
        return {k: _replace(v, old, new) for k, v in value.items()}
    return value


def _scrub_json(rows, old: str, new: str) -> list:
    """Replace the name in the rows' ``before`` and ``after``; the rows changed."""
    changed = []
    for row in rows:
        before, after = _replace(row.before, old, new), _replace(row.after, old, new)
        if (before, after) != (row.before, row.after):
            row.before, row.after = before, after
            row.save(update_fields=["before", "after"])
            changed.append(row)
    return changed


@transaction.atomic
def player_erase(*, player: Player, by=None) -> Player:
    """Erase the person (see the module's docstring); harmless when done already."""
    player = Player.objects.select_for_update().get(pk=player.pk)
    if player.erased:
        return player
    old, new = player.name, ERASED_NAME.format(n=player.pk)
    player.name, player.member_number = new, ""
    player.publication, player.erased_at = Player.Publication.NUMBER, timezone.now()
    player.save(update_fields=["name", "member_number", "publication", "erased_at"])
    participations = list(Participant.objects.filter(player=player))
    ids = [p.pk for p in participations]
    for p in participations:
        p.personal_token, p.email = new_token(), ""
        p.save(update_fields=["personal_token", "email"])
    mails_cancel(ids)  # nothing queued goes out; no row keeps the address
    tournament_ids = {p.tournament_id for p in participations}
    scrubbed = _scrub_json(SheetEvent.objects.filter(
        table__round__tournament_id__in=tournament_ids).only("table_id", "before", "after"),
        old, new)
    # the app itself changed what those entries hold: their tables' chains are made anew
    # (the hash chain finds changes made outside the app; api.md "Open results")
    history.reseal({row.table_id for row in scrubbed})
    _scrub_json(TeamEvent.objects.filter(tournament_id__in=tournament_ids)
                .only("before", "after"), old, new)
    SheetEvent.objects.filter(participant_id__in=ids).update(ip=None)
    PlayerMerge.objects.filter(kept=player).update(kept_name=new)
    PlayerMerge.objects.filter(kept=player, removed_name=old).update(removed_name=new)
    _log_of(player).update(change_message="", object_repr=new)  # the renames kept old names
    if by is not None and getattr(by, "pk", None):
        LogEntry.objects.log_actions(user_id=by.pk, queryset=[player], action_flag=CHANGE,
                                     change_message="erased (DSGVO)", single_object=True)
    _names_changed(player)
    return player
