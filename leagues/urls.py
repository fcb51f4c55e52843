"""The leagues' pages (namespace ``leagues``), included at ``leagues/``."""

from django.urls import include, path

from leagues.pages import console, public

app_name = "leagues"
urlpatterns = [
    path("", public.league_list, name="list"),
    path("new/", console.league_new, name="new"),
    path("<int:pk>/console/", console.league_console, name="console"),
    path("divisions/<int:pk>/", include([
        path("", public.division_page, name="division"),
        path("print/", public.division_print, name="division-print"),
        path("table.csv", public.division_csv, name="division-csv"),
        path("console/", console.division_console, name="division-console"),
    ])),
    path("matchdays/<int:pk>/", public.matchday_page, name="matchday"),
    path("matchdays/<int:pk>/groups/<int:g>/console/", console.group_console,
         name="group-console"),
    path("teams/<int:pk>/", public.team_page, name="team"),
    path("teams/<int:pk>/console/", console.team_console, name="team-console"),
]
