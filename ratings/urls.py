"""The ratings' pages (namespace ``ratings``), included at ``ratings/``."""

from django.urls import path

from ratings import pages

app_name = "ratings"
urlpatterns = [
    path("<str:game>/", pages.leaderboard_page, name="leaderboard"),
    path("<str:game>/<slug:slug>/", pages.leaderboard_page, name="club-leaderboard"),
]
