"""The director's console (staff login): tournaments, registration, draws, table cards,
paper sheets, sheets with their history, closing and reopening rounds, withdrawing
players, ending a sheet early, finishing the tournament and publishing.

Every change goes through a service; errors of the services are shown next to the form
in the user's language.

A step that is hard to undo (withdrawing a player, closing or reopening a round, ending
a sheet early, finishing or reopening the event) is *confirmed*: its POST without
``confirm=yes`` changes nothing and answers a page that says what will happen, with a
button posting the same step again with ``confirm=yes`` (no JavaScript needed). Ending a
sheet early has its own form, so there a checkbox "Yes, end …" carries ``confirm=yes``.

The tournament page shows the current round (the last drawn) first and the older ones
folded, and the director's buttons in groups by what comes next: *now* (draw or close),
*round*, *print*, *finish*. A club evening (``Tournament.club_evening``) shows teams and
the prize page only when it has any.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.db.models import Count
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from clubs.models import Club
from games.engines import get_engine
from games.forms import initial_of, rules_form_class
from tournaments import freshness
from tournaments.forms import (
    CallStatusForm,
    DrawForm,
    EndSheetForm,
    PasteListForm,
    PlayerEntryForm,
    ResolutionForm,
    TournamentForm,
)
from tournaments.history_words import round_history_rows
from tournaments.links import board_url, entry_url
from tournaments.models import (
    DirectorCall,
    Objection,
    Participant,
    RegistrationStatus,
    Round,
    RoundEvent,
    Table,
    Tournament,
)
from tournaments.pages.access import (
    console_page,
    console_post,
    staff_actor,
    staff_required,
)
from tournaments.pages.clock import clock_context, clock_set, unfinished_tables
from tournaments.pages.form_errors import run_on_form, run_or_say
from tournaments.pages.paper_sheets import paper_sheet
from tournaments.pages.parts import page_parts
from tournaments.pages.qr import qr_svg
from tournaments.policies import directed_tournaments
from tournaments.selectors import round_sheets, teammates_together
from tournaments.services import (
    call_update,
    objection_resolve,
    participant_update,
    round_close,
    round_draw,
    round_reopen,
    round_undo,
    sheet_end,
    tournament_create,
    tournament_finish,
    tournament_reopen,
    tournament_update,
)
from tournaments.services.entries import participants_register

app_name = "console"


def _clubs_run(user):
    return Club.objects.all() if user.is_superuser else Club.objects.filter(admins=user)


def _present(participants) -> int:
    return sum(1 for p in participants if p.checked_in and not p.withdrawn)


def _confirmed(request) -> bool:
    return request.POST.get("confirm") == "yes"


def ask_first(request, tournament: Tournament, *, title: str, what: str, button: str,
              back: str | None = None):
    """The confirmation page of a step that is hard to undo: it posts the same step again
    with ``confirm=yes``; "Cancel" goes back (to ``back``, else the console) unchanged."""
    return render(request, "console/confirm.html", {
        "tournament": tournament, "title": title, "what": what, "button": button,
        "action": request.path,
        "back": back or reverse("console:tournament", args=[tournament.pk])})


@staff_required
def home(request):
    user = request.user
    tournaments = (Tournament.objects.filter(directed_tournaments(user))
                   .annotate(n=Count("participants")))
    form = TournamentForm(request.POST or None, clubs=_clubs_run(user))
    if request.method == "POST" and form.is_valid():
        done, tournament = run_on_form(
            form, lambda: tournament_create(director=user, **form.cleaned_data))
        if done:
            messages.success(request, _("Tournament created."))
            return redirect("console:tournament", tournament.pk)
    return render(request, "console/home.html", {"tournaments": tournaments[:200], "form": form})


def _tournament_context(request, tournament, **forms):
    engine = get_engine(tournament.game)
    rounds = round_sheets(tournament)
    # the waiting list and cancelled sign-ups are the check-in page's (pages.checkin)
    participants = (tournament.participants.filter(status=RegistrationStatus.REGISTERED)
                    .select_related("player__club").order_by("start_number"))
    rules_form = forms.get("rules_form") or rules_form_class(engine)(
        initial=initial_of(engine, tournament.rules))
    current = rounds[-1] if rounds else None
    finished = tournament.status == Tournament.Status.FINISHED
    evening = tournament.club_evening
    return {
        "current": current,
        "clock": clock_context(current),
        "unfinished": unfinished_tables(current) if current is not None else [],
        "round_history": round_history_rows(RoundEvent.objects.filter(
            tournament=tournament, number=current.number).select_related("user")
        ) if current is not None else [],
        "older": rounds[-2::-1],  # newest first, folded
        "can_draw": not finished and (current is None or current.closed),
        # "Auslosung zurücknehmen" while no sheet of the round has an entry (the service
        # decides; a version counts every change of a sheet)
        "can_undo": (current is not None and not current.closed and not finished
                     and all(t.version == 0 and not t.submitted and t.summary is None
                             for t, _state in current.sheets)),
        "show_teams": not evening or tournament.teams.exists(),
        "tournament": tournament,
        "engine": engine,
        "participants": participants,
        "present": _present(participants),
        "finished": finished,
        "can_finish": all(rnd.closed for rnd in rounds),
        "finish_next": bool(rounds) and all(rnd.closed for rnd in rounds)
                       and len(rounds) >= tournament.planned_rounds,
        "end_error": forms.get("end_error"),
        "rounds": rounds,
        "player_form": forms.get("player_form") or PlayerEntryForm(),
        "paste_form": forms.get("paste_form") or PasteListForm(),
        "draw_form": forms.get("draw_form") or DrawForm(),
        "rules_form": rules_form,
        "rules_locked": bool(rounds),
        "board_url": board_url(request, tournament),
        **_voice_context(tournament, forms.get("voice_error")),
        **page_parts("console", tournament),
    }


def _voice_context(tournament: Tournament, error: dict | None = None) -> dict:
    """The calls not closed and the open objections of ``tournament``, oldest first,
    for the console's panel (two queries whatever their number); ``error``: the form
    of the call or objection whose change a service refused."""
    calls = list(DirectorCall.objects.filter(table__round__tournament=tournament)
                 .exclude(status=DirectorCall.Status.CLOSED)
                 .select_related("table__round", "participant__player").order_by("at", "id"))
    objections = list(Objection.objects.filter(table__round__tournament=tournament,
                                               status=Objection.Status.OPEN)
                      .select_related("table__round", "participant__player")
                      .order_by("at", "id"))
    error = error or {}
    for item in objections:
        item.form = (error["form"] if error.get("objection") == item.pk
                     else ResolutionForm(auto_id=f"id_%s_{item.pk}"))
    for item in calls:
        item.error = error["form"] if error.get("call") == item.pk else None
    return {"voice_calls": calls, "voice_objections": objections}


def _voice_tag(request, tournament: Tournament, tournament_id: int) -> freshness.Tag:
    return freshness.tag([freshness.tournament(tournament.pk), freshness.calls(tournament.pk)],
                         "voice")


@console_page
@freshness.staff(_voice_tag)
def voice_panel(request, tournament: Tournament, tournament_id: int):
    """The panel of calls and objections alone: the console polls it every 5 s."""
    return render(request, "console/_voice.html",
                  {"tournament": tournament, **_voice_context(tournament)})


@console_post
def call_handle(request, tournament: Tournament, tournament_id: int, call_id: int):
    """The director has seen a call (the caller's screen says so) or closed it."""
    call = get_object_or_404(DirectorCall, table__round__tournament=tournament, pk=call_id)
    form = CallStatusForm(request.POST)
    form.is_valid()
    done, _call = run_on_form(form, lambda: call_update(
        call_id=call.pk, status=form.cleaned_data.get("status"), actor=staff_actor(request)))
    if done:
        return redirect(reverse("console:tournament", args=[tournament.pk]) + "#voice-panel")
    return render(request, "console/tournament.html", _tournament_context(
        request, tournament, voice_error={"call": call.pk, "form": form}), status=400)


@console_post
def objection_decide(request, tournament: Tournament, tournament_id: int, objection_id: int):
    """The director decides an objection in a few words (kept in the sheet's history)."""
    objection = get_object_or_404(Objection, table__round__tournament=tournament,
                                  pk=objection_id)
    form = ResolutionForm(request.POST, auto_id=f"id_%s_{objection.pk}")
    form.is_valid()
    done, _decided = run_on_form(form, lambda: objection_resolve(
        objection_id=objection.pk, resolution=form.cleaned_data.get("resolution"),
        actor=staff_actor(request)))
    if done:
        messages.success(request, _("The objection at table %(number)s is decided.")
                         % {"number": objection.table.number})
        return redirect(reverse("console:tournament", args=[tournament.pk]) + "#voice-panel")
    return render(request, "console/tournament.html", _tournament_context(
        request, tournament, voice_error={"objection": objection.pk, "form": form}), status=400)


def _console_tag(request, tournament: Tournament, tournament_id: int) -> freshness.Tag:
    """The page shows the tournament, its sheets and calls, and the current round's clock,
    whose state also turns (to "over") with the time alone."""
    current = tournament.rounds.order_by("-number").first()
    clock = clock_context(current)
    return freshness.tag([freshness.tournament(tournament.pk), freshness.sheets(tournament.pk),
                          freshness.calls(tournament.pk)],
                         "console", clock and clock["state"])


@console_page
@freshness.staff(_console_tag)
def tournament_page(request, tournament: Tournament, tournament_id: int):
    """The page, polled every 15 s while a round is open (its ``#live`` part): 304 while
    nothing it shows changed."""
    return render(request, "console/tournament.html", _tournament_context(request, tournament))


@console_post
def register(request, tournament: Tournament, tournament_id: int):
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
    done, answer = run_or_say(request, lambda: participants_register(
        tournament=tournament, names=names, by=request.user,
        as_members=form.cleaned_data.get("as_members", False)))
    if not done:
        return redirect("console:tournament", tournament.pk)
    added, skipped = answer
    messages.success(request, _("%(count)s players registered.") % {"count": added})
    if skipped:
        messages.warning(request, _("Not registered again (listed twice or registered "
                                    "already): %(names)s") % {"names": ", ".join(skipped)})
    return redirect("console:tournament", tournament.pk)


@console_post
def participant_toggle(request, tournament: Tournament, tournament_id: int,
                       participant_id: int, field: str):
    participant = get_object_or_404(Participant, tournament=tournament, pk=participant_id)
    if field not in ("checked_in", "withdrawn"):
        raise PermissionDenied()
    if field == "withdrawn" and not participant.withdrawn and not _confirmed(request):
        name = participant.player.name
        return ask_first(request, tournament,
                         title=_("Withdraw %(name)s?") % {"name": name},
                         what=_("%(name)s plays no further round: the next draw leaves them "
                                "out. The rounds played keep their scores. You can re-admit "
                                "them later.") % {"name": name},
                         button=_("Yes, withdraw %(name)s") % {"name": name})
    done, participant = run_or_say(request, lambda: participant_update(
        participant=participant, **{field: not getattr(participant, field)}))
    if not done:
        if request.htmx:
            return HttpResponse(status=204, headers={"HX-Refresh": "true"})
        return redirect("console:tournament", tournament.pk)
    if request.htmx:  # the row, and the present count out of band
        present = _present(tournament.participants.filter(status=RegistrationStatus.REGISTERED)
                           .only("checked_in", "withdrawn"))
        return render(request, "console/_participant.html", {
            "p": participant, "tournament": tournament, "present": present, "oob": True})
    return redirect(reverse("console:tournament", args=[tournament.pk])
                    + f"#participant-{participant.pk}")


@console_post
def rules(request, tournament: Tournament, tournament_id: int):
    engine = get_engine(tournament.game)
    form = rules_form_class(engine)(request.POST)
    if form.is_valid():
        done, _saved = run_on_form(form, lambda: tournament_update(tournament=tournament,
                                                                   rules=form.rules()))
        if done:
            messages.success(request, _("Rules saved."))
            return redirect("console:tournament", tournament.pk)
    return render(request, "console/tournament.html",
                  _tournament_context(request, tournament, rules_form=form), status=400)


@console_post
def publish(request, tournament: Tournament, tournament_id: int):
    tournament_update(tournament=tournament, published=not tournament.published)
    return redirect("console:tournament", tournament.pk)


@console_post
def draw(request, tournament: Tournament, tournament_id: int):
    form = DrawForm(request.POST)
    if form.is_valid():
        done, rnd = run_on_form(form, lambda: round_draw(tournament_id=tournament.pk,
                                                         **form.cleaned_data))
        if done:
            messages.success(request, _("Round %(number)s drawn.") % {"number": rnd.number})
            for a, b in teammates_together(rnd):
                messages.warning(request, _("Teammates at one table (the field left no other "
                                            "way): %(a)s and %(b)s.")
                                 % {"a": a["name"], "b": b["name"]})
            return redirect("console:tournament", tournament.pk)
    return render(request, "console/tournament.html",
                  _tournament_context(request, tournament, draw_form=form), status=400)


# what closing or reopening a round asks first and says when done (msgids with the number)
ROUND_CHANGES = {
    "close": (round_close, gettext_noop("Round %(number)s closed."), {
        "title": gettext_noop("Close round %(number)s?"),
        "what": gettext_noop("Its sheets can no longer be changed and the standings count "
                             "the round. To correct a sheet afterwards, the round must be "
                             "reopened."),
        "button": gettext_noop("Yes, close round %(number)s")}),
    "reopen": (round_reopen, gettext_noop("Round %(number)s reopened: correct its sheets, "
                                          "then close it again."), {
        "title": gettext_noop("Reopen round %(number)s?"),
        "what": gettext_noop("Its sheets can be corrected again; every correction is kept "
                             "in the history. Close the round again afterwards."),
        "button": gettext_noop("Yes, reopen round %(number)s")}),
}


def _round_change(request, tournament: Tournament, number: int, kind: str):
    """Close or reopen a round once confirmed; a conflict is shown as a message on the
    console."""
    rnd = get_object_or_404(Round, tournament=tournament, number=number)
    change, done, ask = ROUND_CHANGES[kind]
    if not _confirmed(request):
        return ask_first(request, tournament, **{key: _(text) % {"number": number}
                                                  for key, text in ask.items()})
    if run_or_say(request, lambda: change(round_id=rnd.pk, actor=staff_actor(request)))[0]:
        messages.success(request, _(done) % {"number": number})
    return redirect("console:tournament", tournament.pk)


@console_post
def close(request, tournament: Tournament, tournament_id: int, number: int):
    return _round_change(request, tournament, number, "close")


@console_post
def reopen_round(request, tournament: Tournament, tournament_id: int, number: int):
    return _round_change(request, tournament, number, "reopen")


@console_post
def undo_round(request, tournament: Tournament, tournament_id: int, number: int):
    """Take back the draw of the last round once confirmed; a round with entries is
    refused with a message naming the tables."""
    get_object_or_404(Round, tournament=tournament, number=number)
    if not _confirmed(request):
        return ask_first(
            request, tournament,
            title=_("Take back the draw of round %(number)s?") % {"number": number},
            what=_("The tables and seats of round %(number)s are removed; the players can "
                   "be changed and the round drawn again. The draw as it was stays in the "
                   "tournament's history. Only while no table has entered anything.")
            % {"number": number},
            button=_("Yes, take back the draw"))
    if run_or_say(request, lambda: round_undo(tournament_id=tournament.pk, number=number,
                                              actor=staff_actor(request)))[0]:
        messages.success(request, _("The draw of round %(number)s was taken back.")
                         % {"number": number})
    return redirect("console:tournament", tournament.pk)


@console_post
def end_sheet(request, tournament: Tournament, tournament_id: int, table_id: int):
    """End a table's sheet early with a reason; a bad reason is shown at that table."""
    table = get_object_or_404(Table, round__tournament=tournament, pk=table_id)
    form = EndSheetForm(request.POST)
    if not _confirmed(request):
        form.add_error(None, _("Tick “Yes, end this sheet now” to end the sheet of table "
                               "%(number)s.") % {"number": table.number})
    if form.is_valid():
        done, _ended = run_on_form(form, lambda: sheet_end(
            table_id=table.pk, reason=form.cleaned_data["reason"], actor=staff_actor(request)),
            conflicts_to=request)
        if done:
            messages.success(request, _("The sheet of table %(number)s was ended early.")
                             % {"number": table.number})
        if not form.errors:  # ended, or a conflict said on the console
            return redirect("console:tournament", tournament.pk)
    return render(request, "console/tournament.html", _tournament_context(
        request, tournament, end_error={"table": table.pk, "form": form}), status=400)


@console_post
def finish(request, tournament: Tournament, tournament_id: int):
    """Finish the tournament, or reopen a finished one."""
    finished = tournament.status == Tournament.Status.FINISHED
    evening = tournament.club_evening
    if not _confirmed(request):
        if finished:
            return ask_first(
                request, tournament,
                title=_("Reopen the evening?") if evening else _("Reopen the tournament?"),
                what=_("Rounds can be drawn, players registered and sheets corrected again; "
                       "the final standings may change."),
                button=(_("Yes, reopen the evening") if evening
                        else _("Yes, reopen the tournament")))
        return ask_first(
            request, tournament,
            title=_("Finish the evening?") if evening else _("Finish the tournament?"),
            what=_("The standings become final and nothing can be changed any more: no draw, "
                   "no registration, no correction, until it is reopened."),
            button=_("Yes, finish the evening") if evening else _("Yes, finish the tournament"))
    change = tournament_reopen if finished else tournament_finish
    if run_or_say(request, lambda: change(tournament_id=tournament.pk))[0]:
        if evening:
            done = (_("The evening is open for changes again.") if finished
                    else _("The evening is finished."))
        else:
            done = (_("The tournament is open for changes again.") if finished
                    else _("The tournament is finished."))
        messages.success(request, done)
    return redirect("console:tournament", tournament.pk)


def _round_with_sheets(tournament, number: int) -> Round:
    rounds = round_sheets(tournament, number=number)
    if not rounds:
        raise Http404()
    return rounds[0]


def _with_links(request, rnd: Round, row) -> list[dict]:
    """Each table of the round as ``row(its state)`` with its entry link and QR code
    (``url``, ``qr``): the table cards and the paper sheets."""
    rows = []
    for table, state in rnd.sheets:
        url = entry_url(request, table)
        rows.append({**row(state), "url": url, "qr": qr_svg(url)})
    return rows


@console_page
def table_cards(request, tournament: Tournament, tournament_id: int, number: int):
    rnd = _round_with_sheets(tournament, number)
    return render(request, "console/table_cards.html", {
        "tournament": tournament, "round": rnd,
        "cards": _with_links(request, rnd, lambda state: {"state": state})})


@console_page
def paper_sheets(request, tournament: Tournament, tournament_id: int, number: int):
    rnd = _round_with_sheets(tournament, number)
    return render(request, "console/paper_sheets.html", {
        "tournament": tournament, "round": rnd,
        "sheets": _with_links(request, rnd, paper_sheet)})


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
    path("t/<int:tournament_id>/rounds/<int:number>/reopen/", reopen_round, name="reopen"),
    path("t/<int:tournament_id>/rounds/<int:number>/clock/", clock_set, name="clock"),
    path("t/<int:tournament_id>/rounds/<int:number>/undo/", undo_round, name="undo-round"),
    path("t/<int:tournament_id>/tables/<int:table_id>/end/", end_sheet, name="end-sheet"),
    path("t/<int:tournament_id>/finish/", finish, name="finish"),
    path("t/<int:tournament_id>/voice/", voice_panel, name="voice"),
    path("t/<int:tournament_id>/calls/<int:call_id>/", call_handle, name="call"),
    path("t/<int:tournament_id>/objections/<int:objection_id>/", objection_decide,
         name="objection"),
    path("t/<int:tournament_id>/rounds/<int:number>/cards/", table_cards, name="cards"),
    path("t/<int:tournament_id>/rounds/<int:number>/paper/", paper_sheets, name="paper"),
]
