"""Forms of the club-life pages. They read input; the services check and write it.

A club evening's *present* players are ticked from the club's members, *guests* are
typed one name per line.
"""

from django import forms
from django.utils.translation import gettext_lazy as _

from clublife.models import Season
from clubs.forms import LossFeeForm
from clubs.models import Player
from games.choices import game_choices
from tournaments.models import Round


class EveningForm(forms.Form):
    # an <input type="date"> takes ISO dates only, whatever the language
    date = forms.DateField(label=_("Date"),
                           widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))
    game = forms.ChoiceField(label=_("Game"), choices=game_choices)
    players = forms.MultipleChoiceField(label=_("Present members"), required=False,
                                       widget=forms.CheckboxSelectMultiple)
    guests = forms.CharField(label=_("Guests, one name per line"), required=False,
                             widget=forms.Textarea(attrs={"rows": 3}))
    method = forms.ChoiceField(label=_("Seating"), choices=Round.Method.choices[:2],
                               initial=Round.Method.RANDOM)

    def __init__(self, *args, members=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["players"].choices = [(str(p.pk), p.name) for p in members]

    def clean_guests(self):
        return [line.strip() for line in self.cleaned_data["guests"].splitlines()
                if line.strip()]

    def clean(self):
        data = super().clean()
        if not data.get("players") and not data.get("guests") and not self.errors:
            raise forms.ValidationError(_("Tick who is present or enter a guest."))
        return data


class SeasonRulesForm(forms.Form):
    best_n = forms.IntegerField(label=_("Best evenings counted (empty: all)"), min_value=1,
                                max_value=366, required=False)
    min_evenings = forms.IntegerField(label=_("Evenings needed to be ranked"), min_value=0,
                                      max_value=366, initial=0)
    ranked_by = forms.ChoiceField(
        label=_("Ranked by"), choices=Season.RANKED_BY_CHOICES, initial="sum", required=False,
        help_text=_("The average per round is the score divided by the rounds played, as "
                    "the DDV's ranking list counts."),
        error_messages={"invalid_choice": _("Ranked by: choose the sum of the points or the "
                                            "average per round.")})

    def clean_ranked_by(self) -> str | None:
        """Left out (an old page, a script): the season keeps how it ranks."""
        return self.cleaned_data["ranked_by"] or None


class MergeForm(forms.Form):
    remove = forms.IntegerField(widget=forms.HiddenInput, min_value=1, max_value=2**63 - 1)
    confirm = forms.BooleanField(
        label=_("I have read what moves and know that a merge cannot be undone."),
        error_messages={"required": _("Tick the box to confirm the merge.")})


class TableMoneyForm(LossFeeForm):
    """A tournament's own table money, in euros; "the club's" uses the club's schedule."""

    field_order = ["use_club"]  # before the table money
    use_club = forms.BooleanField(label=_("Use the club's table money"), required=False)

    @classmethod
    def initial_of(cls, tournament) -> dict:
        if tournament.loss_fee_cents is None:
            return {"use_club": True}
        return cls.loss_fee_initial(tournament)

    def service_fields(self) -> dict:
        data = self.cleaned_data
        if data["use_club"]:
            return {"loss_fee_cents": None}
        return self.loss_fee_fields()


class PublicationForm(forms.Form):
    """How a player's name appears on public pages (``Player.Publication``)."""

    publication = forms.ChoiceField(label=_("Name on public pages"),
                                    choices=Player.Publication.choices,
                                    widget=forms.RadioSelect)
