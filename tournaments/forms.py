"""Forms of the director's console. They validate input; services do the writing."""

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
