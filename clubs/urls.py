"""Pages of clubs: club evenings, season rankings, table money, player profiles.

Included at ``clubs/`` in ``config/urls.py``; the fixed first segments (``players``,
``tournaments``) come before the club's slug.
"""

from django.urls import path

from clubs import views

app_name = "clubs"
urlpatterns = [
    path("", views.club_list, name="list"),
    path("players/<int:pk>/", views.player_page, name="player"),
    path("players/<int:pk>/merge/", views.player_merge_page, name="player-merge"),
    path("tournaments/<int:pk>/standings.csv", views.tournament_standings_csv,
         name="standings-csv"),
    path("tournaments/<int:pk>/archive.json", views.tournament_archive, name="archive"),
    path("tournaments/<int:pk>/table-money/", views.tournament_table_money,
         name="tournament-table-money"),
    path("<slug:slug>/", views.club_page, name="club"),
    path("<slug:slug>/evenings/new/", views.evening_new, name="evening-new"),
    path("<slug:slug>/settings/", views.settings_page, name="settings"),
    path("<slug:slug>/members/", views.members_page, name="members"),
    path("<slug:slug>/seasons/<int:year>/", views.season_page, name="season"),
    path("<slug:slug>/seasons/<int:year>/table-money/", views.table_money_page,
         name="table-money"),
    path("<slug:slug>/seasons/<int:year>/table-money/evenings.csv", views.table_money_csv,
         {"kind": "evenings"}, name="table-money-evenings-csv"),
    path("<slug:slug>/seasons/<int:year>/table-money/totals.csv", views.table_money_csv,
         {"kind": "totals"}, name="table-money-totals-csv"),
]
