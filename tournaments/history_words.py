"""A sheet's history in words, in the request's language: "Deal 3: Herz mit 2, gewonnen
(+40) → Grand mit 1, verloren (−96)", with who and when beside it. The stored history
keeps the raw before/after values; this is how a person reads them. A round's history
(its clock, its draws taken back) reads the same way (``round_history_rows``)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from games.engines.words import declarer_of
from games.figures import signed
from games.presentation import presentation_of
from games.words import deal_in_words
from tournaments.models import RoundEvent, SheetEvent


class HistoryReader:
    """Reads the events of one table: ``game`` is the tournament's game, ``names`` the
    players' names by seat."""

    def __init__(self, game: str, names: dict[int, str]):
        self.game = game
        self.names = names

    def deal(self, state: Any) -> str:
        """A stored deal state (``{"number", "record", "scores"}``) in words with its value."""
        if not isinstance(state, dict) or not isinstance(state.get("record"), dict):
            return ""
        record, scores = state["record"], state.get("scores") or []
        words = deal_in_words(self.game, record, self.names)
        declarer = declarer_of(record)
        if declarer and declarer <= len(scores):
            return f"{words} ({signed(scores[declarer - 1])})"
        shares = [f"{self.names.get(seat, seat)} {signed(score)}"
                  for seat, score in enumerate(scores, start=1) if score]
        return f"{words} ({', '.join(shares)})" if shares else words

    def summary(self, seats: Any) -> str:
        if not isinstance(seats, list):
            return ""
        shown = presentation_of(self.game)
        return "; ".join(shown.summary_words(self.names.get(seat, seat), entry)
                         for seat, entry in enumerate(seats, start=1) if isinstance(entry, dict))

    def sides(self, event: SheetEvent) -> tuple[str, str]:
        """What was there before and what is there after, in words."""
        before, after = event.before or {}, event.after or {}
        action = event.action
        if action in (SheetEvent.Action.DEAL_CREATE, SheetEvent.Action.DEAL_UPDATE,
                      SheetEvent.Action.DEAL_DELETE):
            now = self.deal(after)
            if after.get("reason"):  # why a correction was made (``deal_correct``)
                now = _("%(deal)s; reason: %(reason)s") % {"deal": now,
                                                          "reason": after["reason"]}
            return self.deal(before), now
        if action == SheetEvent.Action.SUMMARY:
            deals = before.get("deals") or []
            was = (self.summary(before.get("summary")) if before.get("summary")
                   else _("%(count)s deals") % {"count": len(deals)})
            return was, self.summary(after.get("summary"))
        if action == SheetEvent.Action.SUBMIT:
            names = [c.get("name", "") for c in after.get("confirmed_by") or []
                     if isinstance(c, dict)]
            words = [_("confirmed by %(names)s") % {"names": ", ".join(names)}] if names else []
            if after.get("unconfirmed_reason"):
                words.append(_("submitted without every confirmation: %(reason)s")
                             % {"reason": after["unconfirmed_reason"]})
            return "", "; ".join(words)
        if action == SheetEvent.Action.END:
            return "", _("%(reason)s (%(deals)s of %(length)s deals)") % {
                "reason": after.get("reason", ""), "deals": after.get("deals"),
                "length": after.get("sheet_length")}
        if action == SheetEvent.Action.CONFIRM:
            name = after.get("name") or self.names.get(after.get("seat"), after.get("seat"))
            return "", _("%(name)s confirms the sheet") % {"name": name}
        if action == SheetEvent.Action.OBJECTION:
            return "", _("Objection: %(note)s") % {"note": after.get("note", "")}
        if action == SheetEvent.Action.OBJECTION_RESOLVE:
            return (_("Objection: %(note)s") % {"note": before.get("note", "")},
                    _("Decision: %(resolution)s") % {"resolution": after.get("resolution", "")})
        if action == SheetEvent.Action.SWAP:
            return (_("table %(table)s, seat %(seat)s") % _where(before.get("a")),
                    _("table %(table)s, seat %(seat)s") % _where(after.get("a")))
        return "", ""

    def who(self, event: SheetEvent) -> str:
        """Who made the change: the player whose phone it was (load the events with
        ``participant__player``), the table's tablet, or the staff user."""
        if event.participant_id is not None:
            return _("%(name)s (own phone)") % {"name": event.participant.player.name}
        if event.by_table:
            return _("the table")
        if event.user is None:
            return "–"
        return event.user.get_full_name() or event.user.username


def _where(pair: Any) -> dict[str, Any]:
    if isinstance(pair, list) and len(pair) == 2:
        return {"table": pair[0], "seat": pair[1]}
    return {"table": "?", "seat": "?"}


def history_rows(events, *, game: str, names: dict[int, str]) -> list[dict[str, Any]]:
    """The events as rows for a page: when, who, what, before and after in words."""
    reader = HistoryReader(game, names)
    rows = []
    for event in events:
        before, after = reader.sides(event)
        rows.append({"event": event, "at": event.at, "who": reader.who(event),
                     "action": event.get_action_display(), "number": event.deal_number,
                     "before": before, "after": after})
    return rows


def _clock_words(state: Any) -> str:
    """A stored clock (``{"ends_at", "paused_seconds", "minutes"}``) in words: its end,
    or what was left while paused."""
    if not isinstance(state, dict):
        return ""
    if isinstance(state.get("paused_seconds"), int):
        minutes, seconds = divmod(state["paused_seconds"], 60)
        return _("paused, %(left)s left") % {"left": f"{minutes}:{seconds:02d}"}
    if isinstance(state.get("ends_at"), str):
        ends = timezone.localtime(datetime.fromisoformat(state["ends_at"]))
        return _("ends %(time)s") % {"time": date_format(ends, "TIME_FORMAT")}
    return _("not started")


def round_history_rows(events) -> list[dict[str, Any]]:
    """A round's history (``RoundEvent``: the clock's actions, draws taken back) as rows
    for a page: when, who, what, and the clock before and after in words."""
    rows = []
    for event in events:
        clock_action = event.action != RoundEvent.Action.UNDO
        rows.append({"at": event.at, "action": event.get_action_display(),
                     "who": (event.user.get_full_name() or event.user.username)
                     if event.user is not None else "–",
                     "before": _clock_words(event.before) if clock_action else "",
                     "after": _clock_words(event.after) if clock_action else ""})
    return rows
