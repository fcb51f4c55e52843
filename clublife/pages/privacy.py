"""A person's data in the console (DSGVO), on the player's page: the publication choice
("Name auf öffentlichen Seiten"), the JSON download of everything stored about him, and
the erasure behind a page that says what happens. For those who may change the player
(``may_change_player``; the export and the erasure also for the directors of a
self-registered guest's tournaments, ``handles_data_of``); the services decide
(``clublife.services.privacy``)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from clublife.forms import PublicationForm
from clublife.services.privacy import player_erase, player_export, player_publish
from clubs.models import Player
from clubs.policies import may_change_player
from tournaments.csv_files import json_download
from tournaments.pages.access import allowed_if, player_by_pk
from tournaments.pages.form_errors import run_on_form
from tournaments.policies import handles_data_of


@login_required
@require_POST
@allowed_if(may_change_player, player_by_pk)
def publication_page(request, player: Player, pk: int):
    form = PublicationForm(request.POST)
    if form.is_valid():
        done, _player = run_on_form(form, lambda: player_publish(
            player=player, publication=form.cleaned_data["publication"]))
        if done:
            messages.success(request, _("Saved: the public pages show the name as chosen."))
            return redirect("clubs:player", player.pk)
    messages.error(request, " ".join(str(e) for errors in form.errors.values()
                                     for e in errors))
    return redirect("clubs:player", player.pk)


@login_required
@allowed_if(handles_data_of, player_by_pk)
def data_download(request, player: Player, pk: int):
    return json_download(player_export(player=player), f"player-{player.pk}.json")


@login_required
@require_http_methods(["GET", "POST"])
@allowed_if(handles_data_of, player_by_pk)
def erase_page(request, player: Player, pk: int):
    """Say what erasing does, then erase on the button (a POST)."""
    if request.method == "POST" and not player.erased:
        player_erase(player=player, by=request.user)
        messages.success(request, _("The person was erased; the results stay."))
        return redirect("clubs:player", player.pk)
    return render(request, "clublife/erase.html", {"player": player})
