"""A whole paper sheet of deals typed in from the console, one row per deal, any game.

Each row has every field of the game's deal record that applies under the rules at this
table as labelled inputs (seats by name, games and trumps by their names, numbers with
their bounds), made from the record description (``games.presentation.grid``); a row
left empty ends the list. The rows go to ``deals_record`` together: the engine checks each
in its place, and nothing is stored while any row is refused — the errors
are shown at their row and field.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from games.engines import DealContext, get_engine
from games.messages import render as error_text
from games.presentation import presentation_of
from games.presentation.grid import Input, grid_inputs, grid_record, input_at
from tournaments.models import Table
from tournaments.pages.access import allowed_if, staff_actor, staff_required, table_by_pk
from tournaments.pages.form_errors import run_on
from tournaments.policies import directs_table
from tournaments.selectors import table_state
from tournaments.services import deals_record


class Row:
    """One deal's inputs as posted (``d<row>-<input>``, ``d<row>-<input>-<seat>``)."""

    def __init__(self, index: int, number: int, data, fields: list[Input], seats: list[int]):
        self.index, self.number, self.fields, self.seats = index, number, fields, seats
        self.values: dict[str, Any] = {}
        for f in fields:
            if f.kind == "per_seat":
                self.values[f.name] = [data.get(f"d{index}-{f.name}-{s}", "") for s in seats]
            elif f.kind == "bool":
                self.values[f.name] = "on" if data.get(f"d{index}-{f.name}") == "on" else ""
            else:
                self.values[f.name] = data.get(f"d{index}-{f.name}", "")
        self.errors: dict[str, list[str]] = {}
        self.hints: dict[str, Any] = {}
        self.cards: int | None = None

    def empty(self) -> bool:
        return not any(x.strip() for v in self.values.values() if isinstance(v, list)
                       for x in v) and not any(v for v in self.values.values()
                                               if not isinstance(v, list))

    def add_error(self, path: str, message: str) -> None:
        """Put an engine error at its input (see ``input_at``), else on the row."""
        name = input_at(path, self.fields) or "deal"
        self.errors.setdefault(name, []).append(message)

    def cells(self):
        """The inputs for the template: (input, value, errors) in order."""
        return [(f, self.values.get(f.name), self.errors.get(f.name, [])) for f in self.fields]


def _rows(state: dict[str, Any], data) -> list[Row]:
    engine = get_engine(state["game"])
    players, rules = len(state["seats"]), state["rules"]
    fields = grid_inputs(engine, rules, players,
                         presentation_of(state["game"]).form_choice_labels)
    seats = [s["seat"] for s in state["seats"]]
    first = state["deal_count"] + 1
    records = tuple(d["record"] for d in state.get("deals") or [])
    # the rows up to the last number the sheet may take (the engine's room); where no
    # fixed number does (rows that are no game, like Doppelkopf's annulled games), the
    # games still to come and a row more per seat
    last = state["last_number"]
    if not state["complete"] and engine.sheet_room(records, players, rules) is None:
        last = state["deal_count"] + state["games_planned"] - state["games_played"] + players
    # the hints the engine knows ahead (every deal's in most games; where a deal's place
    # depends on what is played, only the next one's): a later row shows no dealer
    plan = {h["number"]: h for h in engine.deal_plan(records, players, rules)}
    rows = []
    for index, number in enumerate(range(first, last + 1)):
        row = Row(index, number, data, fields, seats)
        hints = plan.get(number) or engine.deal_hints(DealContext(number, players, rules))
        row.hints, row.cards = hints, hints.get("cards")
        row.dealer = next((s["name"] for s in state["seats"]
                           if number in plan and s["seat"] == hints["dealer"]), "")
        rows.append(row)
    return rows


@staff_required
@allowed_if(directs_table, table_by_pk)
def paper_grid_page(request, table: Table, table_id: int):
    state = table_state(table)
    rows = _rows(state, request.POST if request.method == "POST" else {})
    problem = None
    if request.method == "POST":
        filled = []
        for row in rows:
            if row.empty():
                break
            filled.append(row)
        actor = staff_actor(request)
        engine, players = get_engine(state["game"]), len(state["seats"])
        said: list[str] = []

        def at_row(error) -> None:  # at its row and input, else above the grid
            if error.deal is not None and error.deal < len(filled):
                filled[error.deal].add_error(error.field, error_text(error))
            else:
                said.append(error_text(error))

        done, _stored = run_on(lambda: deals_record(
            table_id=table.pk, actor=actor,
            records=[grid_record(engine, state["rules"], players, r.values, r.hints)
                     for r in filled]), field=at_row, conflict=said.append)
        if done:
            messages.success(request, _("%(count)s deals of table %(number)s are entered.")
                             % {"count": len(filled), "number": table.number})
            return redirect("console:tournament", table.round.tournament_id)
        problem = said[-1] if said else _("Nothing was stored: correct the marked deals.")
    return render(request, "console/paper_grid.html", {
        "table": table, "state": state, "rows": rows, "problem": problem,
        "fields": rows[0].fields if rows else [],
    }, status=400 if problem else 200)
