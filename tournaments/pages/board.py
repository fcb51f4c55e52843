"""The public board at ``/p/<tournament slug>/``: standings that refresh themselves,
a full-screen mode for a projector, per-round results, each player's sheet lines and a
chart of the top players' totals after every round.

The standings part is re-fetched every few seconds; it carries an ETag, so the browser
revalidates it and an unchanged board costs a 304.
"""

from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import condition

from api.permissions import directs
from tournaments.models import Participant, Seat, StandingRow, StandingsState, Tournament
from tournaments.pages.chart import cumulative, line_chart
from tournaments.selectors import table_state
from tournaments.services.standings import standings_pending

TOP_IN_CHART = 8


def _tournament(request, slug: str) -> Tournament:
    tournament = get_object_or_404(Tournament, slug=slug)
    if not tournament.published and not directs(request.user, tournament):
        raise Http404()
    return tournament


def _round(request) -> int:
    raw = request.GET.get("round", "")
    return int(raw) if raw.isdigit() and 0 < int(raw) < 10_000 else 0


def _etag(request, slug: str) -> str | None:
    tournament = Tournament.objects.filter(slug=slug).only("pk").first()
    if tournament is None:
        return None
    state = StandingsState.objects.filter(tournament=tournament).only("computed_at").first()
    computed = state.computed_at.timestamp() if state and state.computed_at else 0
    return (f"board-{tournament.pk}-{_round(request)}-{computed}-"
            f"{standings_pending(tournament.pk) or 0}-{get_language()}")


def _standings(tournament: Tournament, round_number: int) -> dict:
    rows = list(StandingRow.objects.filter(tournament=tournament, round_number=round_number)
                .select_related("participant__player").order_by("rank", "participant_id"))
    state = StandingsState.objects.filter(tournament=tournament).first()
    figures = [k for k in (rows[0].figures if rows else {}) if k in ("won", "lost", "game_points")]
    return {"rows": rows, "figures": figures, "round": round_number,
            "computed_at": state.computed_at if state else None,
            "stale": standings_pending(tournament.pk) is not None}


def _chart(tournament: Tournament) -> str:
    numbers = list(tournament.rounds.order_by("number").values_list("number", flat=True))
    top = (StandingRow.objects.filter(tournament=tournament, round_number=0)
           .select_related("participant__player").order_by("rank")[:TOP_IN_CHART])
    series = [(row.participant.player.name, cumulative(row.rounds, numbers)) for row in top]
    labels = [_("R%(n)s") % {"n": n} for n in numbers]
    return mark_safe(line_chart(series, labels))  # built from escaped parts


def board_page(request, slug: str):
    tournament = _tournament(request, slug)
    round_number = _round(request)
    return render(request, "board/page.html", {
        "tournament": tournament,
        "standings": _standings(tournament, round_number),
        "rounds": list(tournament.rounds.order_by("number").values_list("number", flat=True)),
        "chart": _chart(tournament),
    })


@condition(etag_func=_etag)
def board_standings(request, slug: str):
    tournament = _tournament(request, slug)
    response = render(request, "board/_standings.html", {
        "tournament": tournament, "standings": _standings(tournament, _round(request))})
    response["Cache-Control"] = "no-cache"
    return response


def player_page(request, slug: str, participant_id: int):
    tournament = _tournament(request, slug)
    participant = get_object_or_404(Participant.objects.select_related("player"),
                                    tournament=tournament, pk=participant_id)
    sheets = []
    for seat in (Seat.objects.filter(participant=participant)
                 .select_related("table__round").order_by("table__round__number")):
        state = table_state(seat.table)
        sheets.append({"round": seat.table.round.number, "seat": seat.seat, "state": state})
    return render(request, "board/player.html", {"tournament": tournament,
                                                 "participant": participant, "sheets": sheets})


def landing(request):
    """The front page: the published tournaments' boards, and the way in for directors."""
    tournaments = (Tournament.objects.filter(published=True).select_related("club")
                   .order_by("-date", "-id")[:50])
    return render(request, "board/landing.html", {"tournaments": tournaments})
