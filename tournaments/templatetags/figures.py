"""``{{ n|num }}`` and ``{{ n|signed }}``: a number as people read it on a page, with the
minus sign (U+2212) — ``games.figures``, the one place the app writes a signed figure."""

from django import template

from games import figures

register = template.Library()

num = register.filter("num", figures.num)
signed = register.filter("signed", figures.signed)
