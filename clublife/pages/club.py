"""Pages of a club itself: the list of clubs, the member list import and the club's
defaults. The club's evenings, seasons and table money are ``clublife.pages.evenings``',
its players ``clublife.pages.players``'.
(Pages sit above the domain apps, so these live here rather than in ``clubs``.)

Anyone sees the list; the club's admins do the rest. Every change goes through a service,
whose errors are shown next to the form in the user's language.
"""

from __future__ import annotations

from urllib.parse import quote

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count, Q
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from clublife.services.players import player_rename
from clubs.forms import ClubSettingsForm, MembersForm
from clubs.member_csv import FileProblem, decode
from clubs.models import Club
from clubs.policies import runs_club
from clubs.services import (
    MembersInvalid,
    MembersUnconfirmed,
    club_defaults_update,
    members_import,
    members_preview,
)
from games.choices import game_name
from games.engines import get_engine
from games.forms import initial_of, rules_form_class
from games.messages import render as error_text
from tournaments.csv_files import csv_download, write_csv
from tournaments.pages.access import allowed_if, club_by_slug
from tournaments.pages.form_errors import run_on, run_on_form
from tournaments.text_checks import whole_number

# service field → form field, for showing a service's errors next to the right field
FIELD_OF = {"loss_fee_cents": "loss_fee", "loss_fee_high_cents": "loss_fee_high"}


def club_list(request):
    clubs = Club.objects.annotate(n=Count("players")).order_by("name")[:500]
    return render(request, "clubs/list.html", {"clubs": clubs})


def _lines_chosen(post, prefix: str, choice: str) -> list[int]:
    """The line numbers whose radio ``<prefix><line>`` says ``choice``."""
    return [int(key[len(prefix):]) for key, value in post.items()
            if key.startswith(prefix) and whole_number(key[len(prefix):]) is not None
            and value == choice]


def _preview(lines) -> dict:
    return {"lines": lines, "valid": not any(line.errors for line in lines),
            "new": sum(line.status == "new" for line in lines),
            "exists": sum(line.status == "exists" for line in lines),
            "suspects": sum(line.suspect for line in lines)}


@login_required
@require_http_methods(["GET", "POST"])
@allowed_if(runs_club, club_by_slug)
def members_page(request, club: Club, slug: str):
    form = MembersForm(request.POST or None, request.FILES or None)
    context = {"club": club, "form": form, "lines": None, "text": "", "undecided": set()}
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data.get("file")
        try:
            text = decode(upload.read()) if upload else form.cleaned_data["csv"]
            if not request.POST.get("confirm"):
                context.update(_preview(members_preview(club=club, text=text)), text=text)
            else:  # refused: a member number given meanwhile to someone else
                done, created = run_on_form(form, lambda: members_import(
                    club=club, text=text, created_by=request.user,
                    as_new=_lines_chosen(request.POST, "line-", "new"),
                    keep=_lines_chosen(request.POST, "suspect-", "keep"),
                    drop=_lines_chosen(request.POST, "suspect-", "drop")))
                if done:
                    messages.success(request, _("%(count)s members imported.")
                                     % {"count": len(created)})
                    return redirect("clubs:club", club.slug)
        except FileProblem as exc:
            form.add_error(None, exc.render())
        except MembersUnconfirmed as exc:
            form.add_error(None, _("Nothing was imported: decide for each name marked "
                                   "“alike” whether to import it or leave it out."))
            context.update(_preview(exc.lines), text=text,
                           undecided={line.number for line in exc.undecided})
        except MembersInvalid as exc:
            form.add_error(None, _("Nothing was imported: some lines have errors."))
            context.update(lines=exc.lines, text=text, valid=False)
    return render(request, "clubs/members.html", context,
                  status=400 if form.errors else 200)


@login_required
@require_http_methods(["GET", "POST"])
@allowed_if(runs_club, club_by_slug)
def settings_page(request, club: Club, slug: str):
    form = ClubSettingsForm(request.POST or None, initial=ClubSettingsForm.initial_of(club))
    # the house rules of the club's game, as generated fields (a new game starts afresh);
    # a post without rule fields (a client that only changes money) keeps the rules
    engine = get_engine(club.default_game)
    sent = any(key.startswith("rules-") for key in request.POST)
    rules_form = rules_form_class(engine)(request.POST if sent else None, prefix="rules",
                                          initial=initial_of(engine, club.default_rules))
    if request.method == "POST" and form.is_valid() and (not sent or rules_form.is_valid()):
        fields = form.service_fields()
        if sent and fields["default_game"] == club.default_game:
            fields["default_rules"] = rules_form.rules()
        done, _club = run_on_form(
            form, lambda: club_defaults_update(club=club, **fields), field_of=FIELD_OF,
            form_of=lambda field: rules_form if field.startswith("default_rules") else form)
        if done:
            messages.success(request, _("Settings saved."))
            return redirect("clubs:club", club.slug)
    return render(request, "clubs/settings.html",
                  {"club": club, "form": form, "rules_form": rules_form,
                   "game_name": game_name(club.default_game)},
                  status=400 if form.errors or rules_form.errors else 200)


def _member_rows(club: Club, query: str):
    players = club.players.annotate(tournaments=Count("participations")).order_by("name", "pk")
    if query:
        players = players.filter(Q(name__icontains=query) | Q(member_number__icontains=query))
    return players


@login_required
@require_http_methods(["GET", "POST"])
@allowed_if(runs_club, club_by_slug)
def member_list(request, club: Club, slug: str):
    """The club's members: search by name or number, correct a name, export the list."""
    query = request.GET.get("q", "").strip()[:120]
    errors: dict[int, str] = {}
    if request.method == "POST":
        raw = request.POST.get("player", "")
        pk = whole_number(raw)
        player = club.players.filter(pk=pk).first() if pk is not None else None
        if player is None:
            messages.error(request, _("That member is not in this club."))
        else:
            said: list[str] = []  # shown at the member's line
            done, _renamed = run_on(
                lambda: player_rename(player=player, name=request.POST.get("name", ""),
                                      by=request.user),
                field=lambda error: said.append(error_text(error)), conflict=said.append)
            if done:
                messages.success(request, _("Renamed to %(name)s.") % {"name": player.name})
                return redirect(f"{request.path}?q={quote(query)}" if query else request.path)
            errors[player.pk] = " ".join(said)
    return render(request, "clubs/member_list.html",
                  {"club": club, "query": query, "members": _member_rows(club, query),
                   "errors": errors}, status=400 if errors else 200)


@login_required
@allowed_if(runs_club, club_by_slug)
def member_list_csv(request, club: Club, slug: str):
    rows = [[p.name, p.member_number, p.tournaments] for p in _member_rows(club, "")]
    body = write_csv([_("Name"), _("Member number"), _("Tournaments")], rows)
    return csv_download(body, f"{club.slug}-members.csv")
