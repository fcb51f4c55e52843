"""Forms of the console's teams page: a team by hand, and teams pasted one player per
line; ``tournaments.services.teams`` validates what they hand it."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.services.teams import NAME_MAX


class TeamForm(forms.Form):
    name = forms.CharField(label=_("Team name"), max_length=NAME_MAX)
    members = forms.MultipleChoiceField(label=_("Members"), required=False,
                                        widget=forms.CheckboxSelectMultiple)

    def __init__(self, *args, participants=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["members"].choices = [(str(p.pk), f"{p.start_number}. {p.player.name}")
                                          for p in participants]

    def member_ids(self) -> list[int]:
        return [int(pid) for pid in self.cleaned_data["members"]]


class TeamImportForm(forms.Form):
    lines = forms.CharField(
        label=_("Teams, one player per line"), max_length=50_000,
        widget=forms.Textarea(attrs={"rows": 8, "placeholder": "Kreuz Buben; 7\nKreuz Buben; "
                                                              "Anna Schmidt"}),
        help_text=_("The team's name, a semicolon and the player's start number or name."))
