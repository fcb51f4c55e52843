"""The leagues' pages (namespace ``leagues``), included at ``leagues/``."""

from django.urls import path

from leagues import console, pages

app_name = "leagues"
urlpatterns = [
    path("", pages.league_list, name="list"),
    path("divisions/<int:pk>/", pages.division_page, name="division"),
    path("divisions/<int:pk>/print/", pages.division_print, name="division-print"),
    path("divisions/<int:pk>/table.csv", pages.division_csv, name="division-csv"),
    path("matchdays/<int:pk>/", pages.matchday_page, name="matchday"),
    path("matchdays/<int:pk>/groups/<int:g>/console/", pages.group_console,
         name="group-console"),
    path("teams/<int:pk>/", pages.team_page, name="team"),
    path("new/", console.league_new, name="new"),
    path("<int:pk>/console/", console.league_console, name="console"),
    path("divisions/<int:pk>/console/", console.division_console, name="division-console"),
    path("teams/<int:pk>/console/", console.team_console, name="team-console"),
]
