"""``{{ cents|euros }}``: an amount in cents shown in euros the active language's way (the
same function formats the CSV amounts of table money and the console's form values)."""

from django import template
from django.utils import formats

register = template.Library()


@register.filter
def euros(cents) -> str:
    try:
        value = int(cents or 0) / 100
    except (TypeError, ValueError):
        return ""
    return formats.number_format(value, decimal_pos=2, use_l10n=True)
