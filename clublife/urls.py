"""The club pages under ``clubs/`` (one URL namespace, ``clubs``): a club's own pages
(``clublife.club_pages``) and its club life (``clublife.views``). They live here, one floor above
``clubs``, because the lower app may not import the higher one.

Included at ``clubs/`` in ``config/urls.py``; the fixed first segments (``players``,
``tournaments``) come before the club's slug. ``me_urlpatterns`` are the player's own
pages that need club life (the history with the seasons): ``config/urls.py`` adds them to
the ``pages`` namespace, beside ``/me/<token>/``.
"""

from django.urls import include, path

from clublife import calendar, cash_pages, me_history, privacy_pages, views
from clublife import club_pages as club_views

app_name = "clubs"
urlpatterns = [
    path("", club_views.club_list, name="list"),
    path("players/<int:pk>/", include([
        path("", views.player_page, name="player"),
        path("merge/", views.player_merge_page, name="player-merge"),
        path("publication/", privacy_pages.publication_page, name="player-publication"),
        path("data.json", privacy_pages.data_download, name="player-data"),
        path("erase/", privacy_pages.erase_page, name="player-erase"),
    ])),
    path("tournaments/<int:pk>/", include([
        path("standings.csv", views.tournament_standings_csv, name="standings-csv"),
        path("archive.json", views.tournament_archive, name="archive"),
        path("table-money/", views.tournament_table_money, name="tournament-table-money"),
        path("cash/", cash_pages.tournament_cash_page, name="tournament-cash"),
        path("cash.csv", cash_pages.tournament_cash_csv_file, name="tournament-cash-csv"),
    ])),
    path("<slug:slug>/", include([
        path("", views.club_page, name="club"),
        path("evenings/new/", views.evening_new, name="evening-new"),
        path("events/", calendar.events_page, name="events"),
        path("events.ics", calendar.events_ics, name="events-ics"),
        path("settings/", club_views.settings_page, name="settings"),
        path("members/", club_views.members_page, name="members"),
        path("member-list/", club_views.member_list, name="member-list"),
        path("member-list.csv", club_views.member_list_csv, name="member-list-csv"),
        path("seasons/<int:year>/", include([
            path("", views.season_page, name="season"),
            path("cash/", cash_pages.season_cash_page, name="season-cash"),
            path("cash.csv", cash_pages.season_cash_csv_file, name="season-cash-csv"),
            path("table-money/", views.table_money_page, name="table-money"),
            path("table-money/evenings.csv", views.table_money_csv, {"kind": "evenings"},
                 name="table-money-evenings-csv"),
            path("table-money/totals.csv", views.table_money_csv, {"kind": "totals"},
                 name="table-money-totals-csv"),
        ])),
    ])),
]

me_urlpatterns = [
    path("me/<str:token>/history/", me_history.me_history_page, name="me-history"),
]
