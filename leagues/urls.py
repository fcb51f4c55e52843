"""The leagues' pages (namespace ``leagues``), included at ``leagues/``."""

from django.urls import include, path

from leagues import console, pages

app_name = "leagues"
urlpatterns = [
    path("", pages.league_list, name="list"),
    path("new/", console.league_new, name="new"),
    path("<int:pk>/console/", console.league_console, name="console"),
    path("divisions/<int:pk>/", include([
        path("", pages.division_page, name="division"),
        path("print/", pages.division_print, name="division-print"),
        path("table.csv", pages.division_csv, name="division-csv"),
        path("console/", console.division_console, name="division-console"),
    ])),
    path("matchdays/<int:pk>/", pages.matchday_page, name="matchday"),
    path("matchdays/<int:pk>/groups/<int:g>/console/", pages.group_console,
         name="group-console"),
    path("teams/<int:pk>/", pages.team_page, name="team"),
    path("teams/<int:pk>/console/", console.team_console, name="team-console"),
]
