"""Forms of a club's own pages. They read input; the services check and write it.

Money is entered in euros (``1,50``) and stored in cents.
"""

from decimal import Decimal

from django import forms
from django.utils.translation import gettext_lazy as _

from clubs.member_csv import MAX_BYTES
from games.choices import game_choices

MAX_EUROS = Decimal("1000")


def euros_field(label):
    return forms.DecimalField(label=label, min_value=0, max_value=MAX_EUROS, decimal_places=2,
                              max_digits=6, localize=True, required=False)


def cents(value) -> int:
    return int((value or 0) * 100)


class LossFeeForm(forms.Form):
    """The table money: a fee per lost game, and a higher one from the n-th lost game of an
    evening (a club's, or a tournament's own)."""

    loss_fee = euros_field(_("Table money per lost game (€)"))
    loss_fee_from = forms.IntegerField(label=_("Higher fee from the n-th lost game of an "
                                               "evening (empty: never)"),
                                       min_value=1, max_value=1000, required=False)
    loss_fee_high = euros_field(_("Higher fee per lost game (€)"))

    def loss_fee_fields(self) -> dict:
        """The table money as the services take it, in cents."""
        data = self.cleaned_data
        return {"loss_fee_cents": cents(data["loss_fee"]), "loss_fee_from": data["loss_fee_from"],
                "loss_fee_high_cents": cents(data["loss_fee_high"])}

    @staticmethod
    def loss_fee_initial(owner) -> dict:
        """The fields' initial values: the table money of ``owner`` (a club or a tournament)."""
        return {"loss_fee": Decimal(owner.loss_fee_cents or 0) / 100,
                "loss_fee_from": owner.loss_fee_from,
                "loss_fee_high": Decimal(owner.loss_fee_high_cents or 0) / 100}


class ClubSettingsForm(LossFeeForm):
    field_order = ["default_game"]  # before the table money
    default_game = forms.ChoiceField(label=_("Game of the club evenings"), choices=game_choices)
    season_best_n = forms.IntegerField(label=_("Season ranking: best evenings counted (empty: "
                                               "all)"), min_value=1, max_value=366,
                                       required=False)
    season_min_evenings = forms.IntegerField(label=_("Season ranking: evenings needed to be "
                                                     "ranked"), min_value=0, max_value=366,
                                             initial=0)

    def service_fields(self) -> dict:
        data = self.cleaned_data
        return {"default_game": data["default_game"], **self.loss_fee_fields(),
                "season_best_n": data["season_best_n"],
                "season_min_evenings": data["season_min_evenings"] or 0}

    @classmethod
    def initial_of(cls, club) -> dict:
        return {"default_game": club.default_game, **cls.loss_fee_initial(club),
                "season_best_n": club.season_best_n,
                "season_min_evenings": club.season_min_evenings}


class MembersForm(forms.Form):
    file = forms.FileField(label=_("Member list (CSV: name; member number)"), required=False)
    csv = forms.CharField(label=_("… or paste the list"), required=False,
                          max_length=MAX_BYTES, strip=False,
                          widget=forms.Textarea(attrs={"rows": 6}))

    def clean(self):
        data = super().clean()
        if not self.errors and not data.get("file") and not (data.get("csv") or "").strip():
            raise forms.ValidationError(_("Choose a file or paste the list."))
        return data
