"""The public sign-up form (``/p/<slug>/register/``, linked from the tournament's board
and the club's calendar while registration is open) and the cancel step of the
player's own page (``/me/<token>/cancel/``).

The form takes a name, a club (one of the list, another club's name, or none: "ohne
Verein"), an optional e-mail and the publication choice; it has a honeypot field
(``website``, hidden from people: a bot that fills it gets the form again and nothing is
stored) and shares the limit with the API (``registration_rate``: per address, per
tournament while it takes walk-ins); ``sign_up_posted`` answers it and the door's form. A sign-up
leads to the registrant's own page, which shows the status and the waiting position.
These pages are not snapshotted: they carry a CSRF token.
"""

from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from clubs.models import Club
from signup.forms import SignUpForm
from signup.registration_rate import registration_allowed
from signup.services.registrations import (
    CANCELLED,
    registration_cancel,
    registration_refusal,
    registration_submit,
    waiting_position,
)
from tournaments.links import personal_path
from tournaments.pages.access import tournament_by_slug
from tournaments.pages.form_errors import run_on_form, run_or_say
from tournaments.player_view import participant_by_token
from tournaments.policies import can_see_tournament


def register_page(request, slug: str):
    tournament = tournament_by_slug(slug=slug)
    if not can_see_tournament(request.user, tournament):
        raise Http404()
    refusal = registration_refusal(tournament)
    clubs = Club.objects.order_by("name")
    form = SignUpForm(request.POST or None, clubs=clubs,
                      initial={"club": tournament.club_id})
    status = 200
    if refusal is not None:
        form = None
        status = 409 if request.method == "POST" else 200
    elif request.method == "POST":
        return sign_up_posted(request, tournament, form, template="board/register.html",
                              context={"tournament": tournament, "refusal": None})
    return render(request, "board/register.html", {
        "tournament": tournament, "form": form,
        "refusal": _(refusal) if refusal else None}, status=status)


def door_session_key(tournament) -> str:
    """Where a phone's session keeps the personal token it signed up at this door."""
    return f"door-{tournament.pk}"


def sign_up_posted(request, tournament, form, *, template: str, context: dict,
                   at_door: bool = False):
    """The answer to a posted sign-up form, the sign-up page's and the door's (``at_door``:
    checked in at once, and remembered by the phone's session): 429 past the limit (per
    address; per tournament while it takes walk-ins), the form again (400) for bad
    input, a filled honeypot or a refusal, else the registrant's own page."""
    allowed, wait = registration_allowed(request, tournament)
    if not allowed:
        response = render(request, template, {
            **context, "form": form, "wait_minutes": max(1, (wait + 59) // 60)}, status=429)
        response["Retry-After"] = str(wait)
        return response
    if form.is_valid():
        data = form.cleaned_data
        if data["website"]:  # the honeypot: a person never sees the field
            form.add_error(None, _("Please leave the last field empty."))
        else:
            done, participant = run_on_form(form, lambda: registration_submit(
                tournament_id=tournament.pk, name=data["name"], club=data["club"],
                club_name=data["club_name"], email=data["email"],
                publication=data["publication"], language=get_language() or "",
                at_door=at_door, door_key=data.get("door_key", "")))
            if done:
                if at_door:
                    request.session[door_session_key(tournament)] = participant.personal_token
                return redirect(personal_path(participant.personal_token))
    return render(request, template, {**context, "form": form}, status=400)


def registration_of(token: str):
    participant = participant_by_token(token)
    if participant is None:
        raise Http404()
    return participant


def registration_part(participant) -> dict | None:
    """What the player's own page says about the registration (status and position):
    its ``registration`` part (``tournaments.pages.parts``), None for a participant the
    director entered."""
    if not participant.self_registered:
        return None
    return {"status": participant.status, "checked_in": participant.checked_in,
            "position": waiting_position(participant),
            "cancelled": participant.status == CANCELLED}


def cancel_page(request, token: str):
    """Asks first; the POST cancels (twice is harmless) and goes back to the page."""
    participant = registration_of(token)
    if request.method == "POST" and request.POST.get("confirm") == "yes":
        # refused when finished, or seated in a round being played
        run_or_say(request, lambda: registration_cancel(participant_id=participant.pk))
        return redirect(personal_path(token))
    return render(request, "me/cancel.html", {
        "tournament": participant.tournament, "name": participant.player.name,
        "token": token, "cancelled": participant.status == CANCELLED})
