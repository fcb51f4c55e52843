"""The prize pages of the director's console (``console`` namespace, added in
``config/urls.py`` beside the tournament console's routes)."""

from django.urls import path

from prizes.pages.prizes import prize_lot, prizes_page, prizes_print

console_urlpatterns = [
    path("t/<int:tournament_id>/prizes/", prizes_page, name="prizes"),
    path("t/<int:tournament_id>/prizes/lot/", prize_lot, name="prize-lot"),
    path("t/<int:tournament_id>/prizes/print/", prizes_print, name="prizes-print"),
]
