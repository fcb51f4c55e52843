"""Forms of the director's console. They validate input; services do the writing."""

import re

from django import forms
from django.utils.translation import gettext_lazy as _

from clubs.models import Club
from games.choices import game_choices
from tournaments.models import (
    MAX_ROUNDS_PLANNED,
    MIN_ROUNDS_PLANNED,
    OBJECTION_NOTE_MAX,
    REASON_MAX,
    Round,
)
from tournaments.text_checks import whole_number

DOOR_KEY = re.compile(r"[A-Za-z0-9_-]{20,64}")


def _no_id(value) -> bool:
    """Whether ``value`` is no id a row can have (``"x"``, ``-1``, ``10**30``): asked of
    the database, such an id is a query it refuses, not a row it does not find."""
    return whole_number(str(value), low=1) is None


class ClubChoiceField(forms.ModelChoiceField):
    """A club chosen by id, the one model choice of every form: an id no row can have is
    an unknown choice, never a query that fails."""

    def to_python(self, value):
        if value not in self.empty_values and _no_id(value):
            raise forms.ValidationError(self.error_messages["invalid_choice"],
                                        code="invalid_choice")
        return super().to_python(value)


class ClubsChoiceField(forms.ModelMultipleChoiceField):
    """Several clubs by id; an id no row can have is an unknown choice (as above)."""

    def _check_values(self, value):
        for pk in value:
            if _no_id(pk):
                raise forms.ValidationError(self.error_messages["invalid_choice"],
                                            code="invalid_choice", params={"value": pk})
        return super()._check_values(value)


class TournamentForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=160)
    game = forms.ChoiceField(label=_("Game"), choices=game_choices)
    date = forms.DateField(label=_("Date"), required=False,
                           widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))
    club = ClubChoiceField(label=_("Club"), queryset=Club.objects.none(), required=False)
    published = forms.BooleanField(label=_("Published (public board)"), required=False)
    avoid_same_club = forms.BooleanField(label=_("Avoid club-mates at a table"), required=False)
    rounds_planned = forms.IntegerField(
        label=_("Rounds planned (empty: the game's default)"), required=False,
        min_value=MIN_ROUNDS_PLANNED, max_value=MAX_ROUNDS_PLANNED,
        help_text=_("Balanced draws plan this many rounds ahead, so that no two players meet "
                    "twice where a schedule allows it."))

    club_evening = forms.BooleanField(
        label=_("Club evening (counts for the club's season)"), required=False,
        help_text=_("Needs the club and the date; a club evening is published."))

    def __init__(self, *args, clubs=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["club"].queryset = clubs if clubs is not None else Club.objects.none()

    def clean(self):
        data = super().clean()
        if data.get("club_evening"):
            if not data.get("club") and "club" not in self.errors:
                self.add_error("club", _("A club evening needs its club."))
            if not data.get("date") and "date" not in self.errors:
                self.add_error("date", _("A date is required."))
        return data

    def clean_name(self):
        name = self.cleaned_data["name"].strip()
        if not name:
            raise forms.ValidationError(_("The name must not be blank."))
        return name


def as_members_field():
    # New names are guests (no club) unless the director takes them into the club.
    return forms.BooleanField(label=_("Add new names as members of the club"),
                              required=False)


def refused_not_cut(form: forms.Form, *names: str) -> None:
    """A text too long is refused with a message naming the field, never cut: without
    the ``maxlength`` attribute a browser does not shorten a pasted name silently; the
    field's own ``max_length`` check stays."""
    for name in names:
        form.fields[name].widget.attrs.pop("maxlength", None)


class PlayerEntryForm(forms.Form):
    name = forms.CharField(label=_("Player's name"), max_length=120)
    as_members = as_members_field()

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        refused_not_cut(self, "name")

    def clean_name(self):
        name = self.cleaned_data["name"].strip()
        if not name:
            raise forms.ValidationError(_("The name must not be blank."))
        return name


class PasteListForm(forms.Form):
    names = forms.CharField(label=_("Names, one per line"),
                            widget=forms.Textarea(attrs={"rows": 6}))
    as_members = as_members_field()

    def clean_names(self):
        names = [line.strip() for line in self.cleaned_data["names"].splitlines()]
        names = [n for n in names if n]
        if not names:
            raise forms.ValidationError(_("Enter at least one name."))
        too_long = [n for n in names if len(n) > 120]
        if too_long:
            raise forms.ValidationError(_("A name is longer than 120 characters: %(name)s"),
                                        params={"name": too_long[0][:40]})
        return names


class EndSheetForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), max_length=REASON_MAX,
                             widget=forms.TextInput(attrs={
                                 "placeholder": _("e.g. a player left, time ran out")}))

    def clean_reason(self):
        reason = " ".join(self.cleaned_data["reason"].split())
        if not reason:
            raise forms.ValidationError(_("Give a reason for ending the sheet early."))
        return reason


class ResolutionForm(forms.Form):
    """The director's decision on an objection; the service checks the text and its
    bound (``clean_note``)."""

    resolution = forms.CharField(label=_("Decision"), required=False, strip=False,
                                 widget=forms.TextInput(attrs={"maxlength": OBJECTION_NOTE_MAX}))


class CallStatusForm(forms.Form):
    """Seen or closed: the buttons carry it; the service refuses anything else."""

    status = forms.CharField(required=False)


class DrawForm(forms.Form):
    method = forms.ChoiceField(label=_("Seating"), choices=Round.Method.choices)
    seed = forms.IntegerField(label=_("Seed (optional, for a reproducible draw)"), required=False,
                              min_value=0, max_value=2**63 - 1)


class RegistrationSettingsForm(forms.Form):
    """Sign-up settings of a tournament (``services.registrations.registration_configure``)."""

    open = forms.BooleanField(label=_("Registration open (on the public page)"),
                              required=False)
    cap = forms.IntegerField(label=_("Places (empty: no limit)"), required=False,
                             min_value=1, max_value=10_000)
    deadline = forms.DateTimeField(
        label=_("Registration deadline"), required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"))
    check_in = forms.BooleanField(label=_("Check-in at the door: only checked-in players "
                                          "are drawn"), required=False)
    release_at = forms.DateTimeField(
        label=_("Release the places of those not checked in at"), required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"))
    walk_in = forms.BooleanField(label=_("Walk-ins: a sign-up at the door (door poster) "
                                         "is checked in at once"), required=False)


class SignUpForm(forms.Form):
    """The public sign-up form. ``website`` is a honeypot: hidden from people, a bot
    that fills it is refused."""

    name = forms.CharField(label=_("Your name"), max_length=120)
    club = ClubChoiceField(label=_("Club"), queryset=Club.objects.none(),
                                  required=False, empty_label=_("no club (ohne Verein)"))
    club_name = forms.CharField(label=_("or another club"), max_length=120, required=False)
    email = forms.EmailField(label=_("E-mail (optional, for the confirmation)"),
                             required=False, max_length=254)
    publication = forms.ChoiceField(label=_("Name on public pages"), choices=[])
    website = forms.CharField(required=False, max_length=200, label=_("Leave this empty"))

    def __init__(self, *args, clubs=None, **kwargs):
        from clubs.models import Player

        super().__init__(*args, **kwargs)
        self.fields["club"].queryset = clubs if clubs is not None else Club.objects.none()
        self.fields["publication"].choices = Player.Publication.choices
        self.fields["publication"].initial = Player.Publication.FULL
        refused_not_cut(self, "name", "club_name")

    def clean_name(self):
        name = self.cleaned_data["name"].strip()
        if not name:
            raise forms.ValidationError(_("The name must not be blank."))
        return name

    def clean(self):
        data = super().clean()
        # the list starts on the host club: a club typed beside it is the one meant
        # ("or another club"), and makes no one a member of the host club
        if (data.get("club_name") or "").strip():
            data["club"] = None
        return data


class DoorForm(SignUpForm):
    """The door form: the sign-up form with a one-time key (``door_key``, hidden, new with
    every page) that tells a double tap of the same form from another phone's sign-up."""

    door_key = forms.CharField(required=False, max_length=64, widget=forms.HiddenInput)

    def clean_door_key(self):
        key = self.cleaned_data["door_key"]
        # a key the page did not make is no key (the field is nobody's to fill in)
        return key if DOOR_KEY.fullmatch(key) else ""
