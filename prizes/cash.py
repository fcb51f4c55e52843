"""The cash report (*Kassenbericht*) of a tournament and of a club's season, games.md §6.

Terms:

- *fee event*: one setting of the tournament's entry fee, ``{"at": datetime,
  "entry_fee_cents"}``; the list of them is the fee's history (the first is the fee as
  announced). The fee *in force* at a moment is the one of the latest event at or before
  it (before the first event, the first event's fee).
- *paying participant*: a participant who owes the fee (the caller leaves out free
  entries; a withdrawn player has paid and stays).
- *since*: the moment a participant's fee is fixed: the start of the first round, or his
  registration when he joined later. Before the first round the fee is an announcement
  and a change just replaces it.
- *fee rows*: each paying participant pays the fee in force at his *since* (one ``fee``
  row dated then); every later change of the fee adds one ``fee_change`` row per paying
  participant, dated at the change, for the difference (negative for a refund). So the
  total is the fee in force now, and a change after the first round stays visible.
- *table money*: what the players paid into the kitty (*Verlustspielgeld*), one row each.
- *prizes*: the payout list (``prizes.payout.payouts``), one row per paid
  player, going out.

Every amount is whole cents; a row's ``amount_cents`` is positive for money in and
negative for money out. ``euros`` writes cents as a German treasurer reads them: decimal
comma, two places, no thousands separator (so spreadsheets read the figure as a number).
Standard library only: no Django (the caller translates the labels and writes the CSV).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from games.engines.base import _
from games.errors import InternalError

Row = dict[str, Any]

KINDS = {"fee": _("Entry fee"), "fee_change": _("Entry fee change"),
         "table_money": _("Table money"), "prize": _("Prize")}
TOURNAMENT_CSV_HEADER = (_("Date"), _("Entry"), _("Start number"), _("Name"), _("In (€)"),
                         _("Out (€)"))
SEASON_CSV_HEADER = (_("Date"), _("Tournament"), _("Entry fees (€)"), _("Table money (€)"),
                     _("Prizes (€)"), _("Balance (€)"))
TOTAL = _("Total")
BALANCE = _("Balance")


def euros(cents: int) -> str:
    """``123456`` → ``"1234,56"``, ``-5`` → ``"-0,05"``: German decimal comma, two places."""
    sign = "-" if cents < 0 else ""
    whole, rest = divmod(abs(cents), 100)
    return f"{sign}{whole},{rest:02d}"


def date_de(moment: dt.date | None) -> str:
    """A date (or a datetime's date) as ``23.11.2026``; ``""`` for none."""
    if moment is None:
        return ""
    return f"{moment.day:02d}.{moment.month:02d}.{moment.year:04d}"


# --------------------------------------------------------------------------- fees


def _in_force(events: list[Mapping[str, Any]], moment: dt.datetime | None) -> int:
    """Index of the fee event in force at ``moment`` (None: now, the latest)."""
    if moment is None:
        return len(events) - 1
    index = 0
    for i, event in enumerate(events):
        if event["at"] <= moment:
            index = i
    return index


def fee_changes(fee_events: Iterable[Mapping[str, Any]],
                first_round_at: dt.datetime | None) -> list[Row]:
    """The changes of the fee after the first round started:
    ``[{"at", "from_cents", "to_cents"}]`` in time order."""
    events = sorted(fee_events, key=lambda e: e["at"])
    if first_round_at is None or not events:
        return []
    out = []
    previous = events[_in_force(events, first_round_at)]["entry_fee_cents"]
    for event in events:
        if event["at"] > first_round_at and event["entry_fee_cents"] != previous:
            out.append({"at": event["at"], "from_cents": previous,
                        "to_cents": event["entry_fee_cents"]})
        if event["at"] > first_round_at:
            previous = event["entry_fee_cents"]
    return out


def fee_rows(participants: Iterable[Mapping[str, Any]],
             fee_events: Iterable[Mapping[str, Any]], *,
             first_round_at: dt.datetime | None) -> list[Row]:
    """The fee rows of the paying participants (see the module's terms).

    ``participants``: ``{"participant", "name", "start_number", "paying"?,
    "joined_at"?}`` (``paying`` defaults to True). Rows: ``{"at", "kind",
    "participant", "name", "start_number", "amount_cents"}``.
    """
    events = sorted(fee_events, key=lambda e: e["at"])
    if not events:
        return []
    out: list[Row] = []
    for person in participants:
        if not person.get("paying", True):
            continue
        since = first_round_at
        joined = person.get("joined_at")
        if since is not None and joined is not None and joined > since:
            since = joined
        index = _in_force(events, since)
        base = {"participant": person["participant"], "name": person.get("name", ""),
                "start_number": person.get("start_number")}
        fee = events[index]["entry_fee_cents"]
        out.append({"at": since or events[index]["at"], "kind": "fee", **base,
                    "amount_cents": fee})
        if since is None:
            continue
        for event in events[index + 1:]:
            if event["at"] > since and event["entry_fee_cents"] != fee:
                out.append({"at": event["at"], "kind": "fee_change", **base,
                            "amount_cents": event["entry_fee_cents"] - fee})
                fee = event["entry_fee_cents"]
    return out


# --------------------------------------------------------------------------- reports


def _money_rows(entries: Iterable[Mapping[str, Any]], kind: str, sign: int,
                at: dt.date | None) -> list[Row]:
    out = []
    for entry in entries:
        cents = entry["amount_cents"]
        if cents < 0:
            raise InternalError(f"negative {kind} amount for {entry['participant']}")
        if cents:
            out.append({"at": at, "kind": kind, "participant": entry["participant"],
                        "name": entry.get("name", ""),
                        "start_number": entry.get("start_number"),
                        "amount_cents": sign * cents})
    return out


def cash_report(*, participants: Iterable[Mapping[str, Any]],
                fee_events: Iterable[Mapping[str, Any]],
                first_round_at: dt.datetime | None,
                table_money: Iterable[Mapping[str, Any]] = (),
                prizes: Iterable[Mapping[str, Any]] = (),
                date: dt.date | None = None) -> Row:
    """A tournament's cash report.

    ``table_money``: ``{"participant", "name", "start_number"?, "amount_cents"}`` paid in;
    ``prizes``: the ``payouts`` rows of the payout list; both dated ``date`` (the
    tournament's day). Returns ``{"fees_cents", "table_money_cents", "prizes_cents",
    "balance_cents", "fee_changes", "rows"}``; ``prizes_cents`` is the (positive) sum
    paid out, ``balance_cents`` = fees + table money − prizes; rows in the order fees,
    fee changes, table money, prizes.
    """
    fee_events = list(fee_events)
    fees = fee_rows(participants, fee_events, first_round_at=first_round_at)
    money = _money_rows(table_money, "table_money", 1, date)
    paid = _money_rows(prizes, "prize", -1, date)
    fees_cents = sum(r["amount_cents"] for r in fees)
    money_cents = sum(r["amount_cents"] for r in money)
    prizes_cents = -sum(r["amount_cents"] for r in paid)
    order = {"fee": 0, "fee_change": 1}
    fees.sort(key=lambda r: (order[r["kind"]], r["at"] if r["kind"] == "fee_change" else 0,
                             r["start_number"] or 0, r["participant"]))
    return {"fees_cents": fees_cents, "table_money_cents": money_cents,
            "prizes_cents": prizes_cents,
            "balance_cents": fees_cents + money_cents - prizes_cents,
            "fee_changes": fee_changes(fee_events, first_round_at),
            "rows": fees + money + paid}


def season_cash(tournaments: Iterable[Mapping[str, Any]]) -> Row:
    """A club's season: one line per tournament and the sums.

    ``tournaments``: ``{"tournament", "name", "date", "report"}`` with ``report`` from
    ``cash_report``. Returns ``{"fees_cents", "table_money_cents", "prizes_cents",
    "balance_cents", "rows": [{"tournament", "name", "date", "fees_cents",
    "table_money_cents", "prizes_cents", "balance_cents"}]}``, rows by date, then id.
    """
    names = ("fees_cents", "table_money_cents", "prizes_cents", "balance_cents")
    rows = [{"tournament": t["tournament"], "name": t["name"], "date": t["date"],
             **{n: t["report"][n] for n in names}} for t in tournaments]
    rows.sort(key=lambda r: (r["date"] is None, r["date"] or dt.date.min, r["tournament"]))
    return {**{n: sum(r[n] for r in rows) for n in names}, "rows": rows}


# --------------------------------------------------------------------------- CSV rows


def tournament_csv_rows(report: Mapping[str, Any],
                        translate: Callable[[str], str] = lambda s: s) -> list[list[str]]:
    """The report as CSV lines: the header, one line per row, the totals of the in and
    out columns, and the balance; amounts in euros, dates as ``23.11.2026``."""
    lines = [[translate(h) for h in TOURNAMENT_CSV_HEADER]]
    for row in report["rows"]:
        cents = row["amount_cents"]
        lines.append([date_de(row["at"]), translate(KINDS[row["kind"]]),
                      "" if row["start_number"] is None else str(row["start_number"]),
                      row["name"], euros(cents) if cents >= 0 else "",
                      euros(-cents) if cents < 0 else ""])
    amounts = [row["amount_cents"] for row in report["rows"]]
    lines.append(["", translate(TOTAL), "", "", euros(sum(a for a in amounts if a > 0)),
                  euros(-sum(a for a in amounts if a < 0))])
    lines.append(["", translate(BALANCE), "", "", euros(report["balance_cents"]), ""])
    return lines


def season_csv_rows(season: Mapping[str, Any],
                    translate: Callable[[str], str] = lambda s: s) -> list[list[str]]:
    """The season as CSV lines (header first, totals last), amounts in euros."""
    lines = [[translate(h) for h in SEASON_CSV_HEADER]]
    for row in [*season["rows"], {**season, "date": None, "name": translate(TOTAL)}]:
        lines.append([date_de(row["date"]), row["name"], euros(row["fees_cents"]),
                      euros(row["table_money_cents"]), euros(row["prizes_cents"]),
                      euros(row["balance_cents"])])
    return lines
