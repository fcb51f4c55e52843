"""The door in walk-in mode (api.md "Rounds, corrections and the door"; issue 56).

- ``/p/<slug>/door/``: the one-screen form behind the door poster's QR code. Name, club
  (from the list or typed), optional e-mail and publication choice; it registers and
  checks in at once (``sign_up_posted(at_door=True)``) and lands on the player's own
  page. A known player is matched (``registration_submit``); the phone remembers whom
  it registered (the session), so a second submit of the same name lands on the same
  page again instead of an error, and the form links that page. A double tap (both
  requests at once, before the session knows) is told by the form's one-time key
  (``DoorForm.door_key``) and lands on the same page too.
- ``/console/t/<id>/door-poster/`` (``?size=a3``): the poster to print, A4 or A3: the
  tournament, a big QR code of the door form and its address written out.
- ``/console/t/<id>/door/``: the director's door desk for players without a phone, made
  for a phone too: one name field with suggestions (the club's members and earlier
  guests), a tap checks in (``door_check_in``); the counts checked in, expected and
  missing, and the missing ones, each checked in with one tap.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from clubs.models import Club
from clubs.names import name_key
from signup.forms import DoorForm
from signup.pages.registration import door_session_key, sign_up_posted
from signup.services.door import door_check_in, door_suggestions
from signup.services.registrations import registration_refusal
from tournaments.links import absolute_url, personal_path
from tournaments.models import Participant, RegistrationStatus, Tournament
from tournaments.pages.access import (
    console_page,
    console_post,
    staff_actor,
    tournament_by_slug,
)
from tournaments.pages.form_errors import run_or_say
from tournaments.pages.qr import qr_svg
from tournaments.player_view import participant_by_token
from tournaments.policies import can_see_tournament
from tournaments.services import participant_update
from tournaments.tokens import new_token


def _remembered(request, tournament: Tournament) -> Participant | None:
    """The participant this phone registered at this door, while their link works."""
    token = request.session.get(door_session_key(tournament))
    participant = participant_by_token(token) if isinstance(token, str) else None
    if participant is None or participant.tournament_id != tournament.pk:
        return None
    return participant


def door_refusal(tournament: Tournament) -> str | None:
    """Why the door form takes no sign-up now (a msgid), or None."""
    refusal = registration_refusal(tournament)
    if refusal is None and not tournament.registration_walk_in:
        return gettext_noop("This tournament takes no sign-ups at the door.")
    if refusal is None and tournament.registration_cap is not None and (
            tournament.participants.filter(status=RegistrationStatus.REGISTERED).count()
            >= tournament.registration_cap):
        return gettext_noop("All places are taken.")
    return refusal


def door_page(request, slug: str):
    tournament = tournament_by_slug(slug=slug)
    if not can_see_tournament(request.user, tournament):
        raise Http404()
    refusal = door_refusal(tournament)
    remembered = _remembered(request, tournament)
    form = DoorForm(request.POST or None, clubs=Club.objects.order_by("name"),
                    initial={"club": tournament.club_id, "door_key": new_token()})
    context = {"tournament": tournament, "remembered": remembered}
    if (request.method == "POST" and remembered is not None
            and name_key(request.POST.get("name", "")) == name_key(remembered.player.name)):
        # the same phone sends the same name again: a harmless repeat (even once the
        # door is closed or the last place taken, by this very sign-up)
        return redirect(personal_path(remembered.personal_token))
    if refusal is not None:
        return render(request, "board/door.html", {**context, "form": None,
                                                   "refusal": _(refusal)},
                      status=409 if request.method == "POST" else 200)
    if request.method == "POST":
        return sign_up_posted(request, tournament, form, template="board/door.html",
                              context=context, at_door=True)
    return render(request, "board/door.html", {**context, "form": form})


SIZES = {"a4": "A4", "a3": "A3"}


@console_page
def door_poster(request, tournament: Tournament, tournament_id: int):
    """The door poster to print (``?size=a3``; A4 otherwise)."""
    size = request.GET.get("size", "a4")
    size = size if size in SIZES else "a4"
    url = absolute_url(request, reverse("pages:door", args=[tournament.slug]))
    return render(request, "console/door_poster.html", {
        "tournament": tournament, "url": url, "qr": qr_svg(url), "size": size,
        "sizes": SIZES, "refusal": door_refusal(tournament)})


def _desk_context(tournament: Tournament) -> dict:
    placed = list(tournament.participants.filter(status=RegistrationStatus.REGISTERED)
                  .select_related("player").order_by("start_number"))
    missing = [p for p in placed if not p.checked_in and not p.withdrawn]
    return {"tournament": tournament, "expected": len(placed),
            "checked": sum(1 for p in placed if p.checked_in), "missing": missing,
            "suggestions": door_suggestions(tournament),
            "refusal": door_refusal(tournament)}


@console_page
def door_desk(request, tournament: Tournament, tournament_id: int):
    return render(request, "console/door_desk.html", _desk_context(tournament))


@console_post
def door_desk_check_in(request, tournament: Tournament, tournament_id: int):
    """The desk's one field (``name``) or a missing player's tap (``participant``)."""
    if request.POST.get("participant"):
        participant = get_object_or_404(Participant, tournament=tournament,
                                        pk=_number(request.POST["participant"]),
                                        status=RegistrationStatus.REGISTERED)
        done, participant = run_or_say(request, lambda: participant_update(
            participant=participant, checked_in=True))
        added = False
    else:
        done, answer = run_or_say(request, lambda: door_check_in(
            tournament_id=tournament.pk, name=request.POST.get("name", "")[:1000],
            by=staff_actor(request).user), label=_("Name"))
        participant, added = answer if done else (None, False)
    if done:
        name = participant.player.name
        messages.success(request, (_("%(name)s is registered and checked in.") if added
                                   else _("%(name)s is checked in.")) % {"name": name})
    return redirect("console:door", tournament.pk)


def _number(text: str) -> int:
    return int(text) if text.isdigit() and len(text) < 19 else 0


urlpatterns = [
    path("t/<int:tournament_id>/door/", door_desk, name="door"),
    path("t/<int:tournament_id>/door/check-in/", door_desk_check_in, name="door-check-in"),
    path("t/<int:tournament_id>/door-poster/", door_poster, name="door-poster"),
]
