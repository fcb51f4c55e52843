"""Forms of the console's prize page. They read what a director types (euros with a
decimal comma, one prize per line) and hand the services the API's shapes; the services
validate (``prizes.payout``) and their errors are shown next to the fields."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from django import forms
from django.utils.translation import gettext_lazy as _

from prizes.payout import PLACE_CENTS_MAX

MAX_LINES = 500


def _number(text: str) -> Decimal:
    """``"12,50"``, ``"12.50"``, ``"12"`` (spaces and a trailing € or % allowed)."""
    cleaned = text.strip().rstrip("€%").strip().replace(" ", "").replace(",", ".")
    try:
        value = Decimal(cleaned)
    except InvalidOperation:
        raise ValueError(text) from None
    if not value.is_finite():
        raise ValueError(text)
    return value


def _cents(value: Decimal) -> int:
    return int((value * 100).to_integral_value())


def _plain(value: Decimal) -> int | float:
    return int(value) if value == value.to_integral_value() else float(value)


class PrizeForm(forms.Form):
    KIND = [("percent", _("Shares of the pot in percent")),
            ("fixed", _("Fixed amounts in euros"))]
    entry_fee = forms.CharField(label=_("Entry fee (€)"), max_length=20, initial="0")
    payout_percent = forms.CharField(label=_("Share of the fees paid out (%)"), max_length=20,
                                     initial="100")
    kind = forms.ChoiceField(label=_("Prizes as"), choices=KIND, initial="percent")
    places = forms.CharField(
        label=_("Prizes, one line per place"), required=False, max_length=50_000,
        widget=forms.Textarea(attrs={"rows": 6, "placeholder": "40\n25\n15; Präsentkorb"}),
        help_text=_("Per place the share in percent or the amount in euros and, after a "
                    "semicolon, a goods prize if any."))

    def clean_entry_fee(self):
        try:
            return _cents(_number(self.cleaned_data["entry_fee"]))
        except ValueError:
            raise forms.ValidationError(_("Enter an amount in euros, e.g. 15 or 12,50.")) \
                from None

    def clean_payout_percent(self):
        try:
            return _plain(_number(self.cleaned_data["payout_percent"]))
        except ValueError:
            raise forms.ValidationError(_("Enter a percentage, e.g. 100 or 90,5.")) from None

    def __init__(self, *args, categories=(), **kwargs):
        super().__init__(*args, **kwargs)
        # games.md §10.3: one prize list per category of the tournament, fixed amounts
        # and goods only; the fields are numbered, a label may hold any character
        self.categories = list(categories)
        for index, label in enumerate(self.categories):
            self.fields[f"category_{index}"] = forms.CharField(
                label=_("Prizes: %(label)s") % {"label": label}, required=False,
                max_length=50_000,
                widget=forms.Textarea(attrs={"rows": 3, "placeholder": "20\n10; Schinken"}))

    def overall_fields(self):
        return [self[name] for name in self.fields if not name.startswith("category_")]

    def category_fields(self):
        return [self[f"category_{index}"] for index in range(len(self.categories))]

    def clean_places(self):
        return _lines(self.cleaned_data["places"])

    def clean(self):
        data = super().clean()
        for index in range(len(self.categories)):
            name = f"category_{index}"
            if name not in data:
                continue
            try:
                data[name] = _lines(data[name], euros=True)
            except forms.ValidationError as error:
                self.add_error(name, error)
        return data

    def prize_list(self) -> dict:
        """The ``PUT …/prizes/`` body of the form's values."""
        data = self.cleaned_data
        money, goods = data["places"]
        body = {"entry_fee_cents": data["entry_fee"], "payout_percent": data["payout_percent"],
                "places_goods": goods}
        if money:
            if data["kind"] == "fixed":
                body["places_cents"] = [_cents(value) for value in money]
            else:
                body["places_percent"] = [_plain(value) for value in money]
        categories = {}
        for index, label in enumerate(self.categories):
            money, goods = data[f"category_{index}"]
            if money:
                categories[label] = {"places_cents": [_cents(value) for value in money],
                                     "places_goods": goods}
        if categories:
            body["categories"] = categories
        return body

    def field_of_category(self, label: str) -> str | None:
        """The form field of a category's prize list (a service error names the label)."""
        if label in self.categories:
            return f"category_{self.categories.index(label)}"
        return None


def _lines(text: str, *, euros: bool = False) -> tuple[list[Decimal], list[str]]:
    """One prize place per line: a number, then a semicolon and a goods prize if any.
    ``euros``: each number an amount from 0 to the highest fixed prize."""
    rows = [line for line in text.splitlines() if line.strip()]
    if len(rows) > MAX_LINES:
        raise forms.ValidationError(_("At most %(max)s prize places.") % {"max": MAX_LINES})
    money, goods = [], []
    for number, line in enumerate(rows, start=1):
        value, _sep, prize = line.partition(";")
        try:
            amount = _number(value) if value.strip() else Decimal(0)
        except ValueError:
            raise forms.ValidationError(
                _("Line %(line)s: a number first, then a semicolon and a goods prize.")
                % {"line": number}) from None
        if euros and not 0 <= amount <= Decimal(PLACE_CENTS_MAX) / 100:
            raise forms.ValidationError(
                _("Line %(line)s: an amount in euros from 0 to %(max)s.")
                % {"line": number, "max": PLACE_CENTS_MAX // 100})
        money.append(amount)
        goods.append(prize.strip())
    return money, goods


class LotForm(forms.Form):
    order = forms.CharField(label=_("Start numbers in the order the lot gave"),
                            max_length=5_000,
                            widget=forms.TextInput(attrs={"placeholder": "7, 3, 12"}))

    def clean_order(self) -> list[int]:
        parts = self.cleaned_data["order"].replace(";", ",").replace(" ", ",").split(",")
        numbers = [part for part in parts if part.strip()]
        if not numbers or not all(part.isascii() and part.isdigit() for part in numbers):
            raise forms.ValidationError(_("Give the start numbers separated by commas."))
        return [int(part) for part in numbers]
