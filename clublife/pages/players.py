"""A player's public page (his history, as far as ``visible_tournaments`` lets the viewer
see it) and the merge of a duplicate by the club's admins."""

from __future__ import annotations

import datetime

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from clublife.forms import MergeForm
from clublife.selectors import (
    merge_candidates,
    merge_summary,
    player_profile,
)
from clublife.services.players import player_merge
from clubs.models import Player
from clubs.policies import is_staff, may_change_player
from games.choices import game_name
from tournaments.pages.access import (
    allowed_if,
    player_by_pk,
)
from tournaments.pages.form_errors import run_on_form
from tournaments.pages.panels import panels
from tournaments.policies import (
    handles_data_of,
    visible_tournaments,
)
from tournaments.score_changes import public_changes
from tournaments.text_checks import whole_number

# service field → form field, for showing a service's errors next to the right field
FIELD_OF = {"player_ids": "players"}


def player_page(request, pk: int):
    player = get_object_or_404(Player.objects.select_related("club"), pk=pk)
    profile = player_profile(player=player, viewer=request.user)
    if not profile["events"] and not is_staff(request.user):
        raise Http404()
    for game in profile["games"]:
        game["name"] = game_name(game["game"])
    for event in profile["events"]:  # the profile's ISO day, shown as the language writes it
        event["day"] = datetime.date.fromisoformat(event["date"]) if event["date"] else None
    # the changes to his scores after they were shown, in the tournaments the viewer sees
    changes = public_changes(player, visible_tournaments(request.user,
                                                         via="table__round__tournament__"))
    return render(request, "clublife/player.html", {
        "player": player, "profile": profile, "changes": changes,
        "panels": panels("player", request, player),
        "may_merge": may_change_player(request.user, player),
        "may_handle_data": handles_data_of(request.user, player),
        "publication_choices": Player.Publication.choices})


@login_required
@require_http_methods(["GET", "POST"])
@allowed_if(may_change_player, player_by_pk)
def player_merge_page(request, keep: Player, pk: int):
    """Merge a duplicate into ``keep`` in three steps: find the duplicate by name, read
    what moves, confirm (a merge cannot be undone)."""
    query = request.GET.get("q", "").strip()[:120]
    form = MergeForm(request.POST or None,
                     initial={"remove": request.GET.get("remove")} if request.method == "GET"
                     else None)
    remove = None
    raw = request.POST.get("remove") if request.method == "POST" else request.GET.get("remove")
    if whole_number(raw) is not None:
        remove = Player.objects.filter(pk=whole_number(raw)).exclude(pk=keep.pk).first()
    if remove is not None and not may_change_player(request.user, remove):
        form.add_error(None, _("You may only merge players you may change."))
        remove = None
    if request.method == "POST" and form.is_valid():
        if remove is None:
            form.add_error("remove", _("Unknown player."))
        else:
            done, _merged = run_on_form(
                form, lambda: player_merge(keep=keep, remove=remove, by=request.user),
                field_of=FIELD_OF)
            if done:
                messages.success(request, _("Merged: every result now belongs to %(name)s.")
                                 % {"name": keep.name})
                return redirect("clubs:player", keep.pk)
    return render(request, "clublife/merge.html", {
        "player": keep, "form": form, "query": query, "remove": remove,
        "candidates": (merge_candidates(keep=keep, query=query, viewer=request.user)
                       if remove is None else []),
        "summary": (merge_summary(keep=keep, remove=remove, viewer=request.user)
                    if remove else None),
    }, status=400 if form.errors else 200)
