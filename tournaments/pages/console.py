"""The director's console (staff login): tournaments, registration, draws, table cards,
paper sheets, sheets with their history, closing rounds and publishing.

Every change goes through a service; errors of the services are shown next to the form
in the user's language.
"""

from __future__ import annotations

import segno
from django.contrib import messages
from django.contrib.admin.views.decorators import staff_member_required
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Q
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from api.permissions import directs
from clubs.models import Club, Player
from clubs.services import player_create
from games.engines import EngineUserError, get_engine
from games.messages import add_to_form
from tournaments.errors import StateConflict
from tournaments.forms import (
    DrawForm,
    PasteListForm,
    PlayerEntryForm,
    TournamentForm,
    rules_form_class,
)
from tournaments.models import Participant, Round, Tournament
from tournaments.selectors import table_state
from tournaments.services import (
    participant_add,
    participant_update,
    round_close,
    round_draw,
    tournament_create,
    tournament_update,
)

app_name = "console"


def _clubs_run(user):
    return Club.objects.all() if user.is_superuser else Club.objects.filter(admins=user)


def _directed(request, tournament_id) -> Tournament:
    tournament = get_object_or_404(Tournament.objects.select_related("club"), pk=tournament_id)
    if not directs(request.user, tournament):
        raise PermissionDenied()
    return tournament


@staff_member_required
def home(request):
    user = request.user
    tournaments = Tournament.objects.annotate(n=Count("participants", distinct=True))
    if not user.is_superuser:
        tournaments = tournaments.filter(Q(directors=user) | Q(club__admins=user)).distinct()
    form = TournamentForm(request.POST or None, clubs=_clubs_run(user))
    if request.method == "POST" and form.is_valid():
        try:
            tournament = tournament_create(director=user, **form.cleaned_data)
        except EngineUserError as exc:
            add_to_form(form, exc)
        else:
            messages.success(request, _("Tournament created."))
            return redirect("console:tournament", tournament.pk)
    return render(request, "console/home.html", {"tournaments": tournaments[:200], "form": form})


def _tournament_context(request, tournament, **forms):
    engine = get_engine(tournament.game)
    rounds = list(tournament.rounds.order_by("number"))
    for rnd in rounds:
        rnd.table_states = [table_state(t) for t in rnd.tables.order_by("number")]
        rnd.all_submitted = all(t["submitted"] for t in rnd.table_states)
    participants = tournament.participants.select_related("player__club").order_by("start_number")
    rules_form = forms.get("rules_form") or rules_form_class(engine)(
        initial=engine.options(tournament.rules))
    return {
        "tournament": tournament,
        "engine": engine,
        "participants": participants,
        "present": sum(1 for p in participants if p.checked_in and not p.withdrawn),
        "rounds": rounds,
        "player_form": forms.get("player_form") or PlayerEntryForm(),
        "paste_form": forms.get("paste_form") or PasteListForm(),
        "draw_form": forms.get("draw_form") or DrawForm(),
        "rules_form": rules_form,
        "rules_locked": bool(rounds),
        "board_url": request.build_absolute_uri(reverse("pages:board", args=[tournament.slug])),
    }


@staff_member_required
def tournament_page(request, tournament_id: int):
    tournament = _directed(request, tournament_id)
    return render(request, "console/tournament.html", _tournament_context(request, tournament))


def _register(tournament, names, user) -> int:
    added = 0
    for name in names:
        player = (Player.objects.filter(name=name, club=tournament.club).first()
                  or player_create(name=name, club=tournament.club, created_by=user))
        if not tournament.participants.filter(player=player).exists():
            participant_add(tournament=tournament, player=player)
            added += 1
    return added


@staff_member_required
@require_POST
def register(request, tournament_id: int):
    tournament = _directed(request, tournament_id)
    if "names" in request.POST:
        form = PasteListForm(request.POST)
        if not form.is_valid():
            return render(request, "console/tournament.html",
                          _tournament_context(request, tournament, paste_form=form), status=400)
        names = form.cleaned_data["names"]
    else:
        form = PlayerEntryForm(request.POST)
        if not form.is_valid():
            return render(request, "console/tournament.html",
                          _tournament_context(request, tournament, player_form=form), status=400)
        names = [form.cleaned_data["name"]]
    added = _register(tournament, names, request.user)
    messages.success(request, _("%(count)s players registered.") % {"count": added})
    return redirect("console:tournament", tournament.pk)


@staff_member_required
@require_POST
def participant_toggle(request, tournament_id: int, participant_id: int, field: str):
    tournament = _directed(request, tournament_id)
    participant = get_object_or_404(Participant, tournament=tournament, pk=participant_id)
    if field not in ("checked_in", "withdrawn"):
        raise PermissionDenied()
    participant = participant_update(participant=participant,
                                     **{field: not getattr(participant, field)})
    if request.htmx:
        return render(request, "console/_participant.html", {"p": participant,
                                                             "tournament": tournament})
    return redirect("console:tournament", tournament.pk)


@staff_member_required
@require_POST
def rules(request, tournament_id: int):
    tournament = _directed(request, tournament_id)
    engine = get_engine(tournament.game)
    form = rules_form_class(engine)(request.POST)
    if form.is_valid():
        changed = {k: v for k, v in form.cleaned_data.items()
                   if v != engine.OPTIONS[k].default}
        try:
            tournament_update(tournament=tournament, rules=changed)
        except EngineUserError as exc:
            add_to_form(form, exc)
        except StateConflict as exc:
            form.add_error(None, exc.render(_))
        else:
            messages.success(request, _("Rules saved."))
            return redirect("console:tournament", tournament.pk)
    return render(request, "console/tournament.html",
                  _tournament_context(request, tournament, rules_form=form), status=400)


@staff_member_required
@require_POST
def publish(request, tournament_id: int):
    tournament = _directed(request, tournament_id)
    tournament_update(tournament=tournament, published=not tournament.published)
    return redirect("console:tournament", tournament.pk)


@staff_member_required
@require_POST
def draw(request, tournament_id: int):
    tournament = _directed(request, tournament_id)
    form = DrawForm(request.POST)
    if form.is_valid():
        try:
            rnd = round_draw(tournament_id=tournament.pk, **form.cleaned_data)
        except EngineUserError as exc:
            add_to_form(form, exc)
        except StateConflict as exc:
            form.add_error(None, exc.render(_))
        else:
            messages.success(request, _("Round %(number)s drawn.") % {"number": rnd.number})
            return redirect("console:tournament", tournament.pk)
    return render(request, "console/tournament.html",
                  _tournament_context(request, tournament, draw_form=form), status=400)


@staff_member_required
@require_POST
def close(request, tournament_id: int, number: int):
    tournament = _directed(request, tournament_id)
    rnd = get_object_or_404(Round, tournament=tournament, number=number)
    try:
        round_close(round_id=rnd.pk)
    except StateConflict as exc:
        messages.error(request, exc.render(_))
    else:
        messages.success(request, _("Round %(number)s closed.") % {"number": number})
    return redirect("console:tournament", tournament.pk)


def _qr_svg(url: str) -> str:
    return mark_safe(segno.make(url, error="m").svg_inline(scale=4, border=2))


@staff_member_required
def table_cards(request, tournament_id: int, number: int):
    tournament = _directed(request, tournament_id)
    rnd = get_object_or_404(Round, tournament=tournament, number=number)
    cards = []
    for table in rnd.tables.order_by("number"):
        url = request.build_absolute_uri(reverse("pages:sheet", args=[table.entry_token]))
        cards.append({"state": table_state(table), "url": url, "qr": _qr_svg(url)})
    return render(request, "console/table_cards.html",
                  {"tournament": tournament, "round": rnd, "cards": cards})


@staff_member_required
def paper_sheets(request, tournament_id: int, number: int):
    tournament = _directed(request, tournament_id)
    rnd = get_object_or_404(Round, tournament=tournament, number=number)
    sheets = []
    for table in rnd.tables.order_by("number"):
        state = table_state(table)
        sheets.append({"state": state, "rows": range(1, state["sheet_length"] + 1)})
    return render(request, "console/paper_sheets.html",
                  {"tournament": tournament, "round": rnd, "sheets": sheets})


urlpatterns = [
    path("", home, name="home"),
    path("t/<int:tournament_id>/", tournament_page, name="tournament"),
    path("t/<int:tournament_id>/register/", register, name="register"),
    path("t/<int:tournament_id>/participant/<int:participant_id>/<str:field>/",
         participant_toggle, name="participant-toggle"),
    path("t/<int:tournament_id>/rules/", rules, name="rules"),
    path("t/<int:tournament_id>/publish/", publish, name="publish"),
    path("t/<int:tournament_id>/draw/", draw, name="draw"),
    path("t/<int:tournament_id>/rounds/<int:number>/close/", close, name="close"),
    path("t/<int:tournament_id>/rounds/<int:number>/cards/", table_cards, name="cards"),
    path("t/<int:tournament_id>/rounds/<int:number>/paper/", paper_sheets, name="paper"),
]
