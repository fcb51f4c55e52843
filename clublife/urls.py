"""The club pages under ``clubs/`` (one URL namespace, ``clubs``): a club's own pages
(``clublife.pages.club``) and its club life (the other modules of ``clublife.pages``).
They live here, one floor above ``clubs``, because the lower app may not import the
higher one.

Included at ``clubs/`` in ``config/urls.py``; the fixed first segments (``players``,
``tournaments``) come before the club's slug. ``me_urlpatterns`` are the player's own
pages that need club life (the history with the seasons): ``config/urls.py`` adds them to
the ``pages`` namespace, beside ``/me/<token>/``.
"""

from django.urls import include, path

from clublife.pages import (
    calendar,
    cash,
    club,
    evenings,
    me_history,
    players,
    privacy,
    tournaments,
)

app_name = "clubs"
urlpatterns = [
    path("", club.club_list, name="list"),
    path("players/<int:pk>/", include([
        path("", players.player_page, name="player"),
        path("merge/", players.player_merge_page, name="player-merge"),
        path("publication/", privacy.publication_page, name="player-publication"),
        path("data.json", privacy.data_download, name="player-data"),
        path("erase/", privacy.erase_page, name="player-erase"),
    ])),
    path("tournaments/<int:pk>/", include([
        path("standings.csv", tournaments.tournament_standings_csv, name="standings-csv"),
        path("archive.json", tournaments.tournament_archive, name="archive"),
        path("table-money/", tournaments.tournament_table_money, name="tournament-table-money"),
        path("cash/", cash.tournament_cash_page, name="tournament-cash"),
        path("cash.csv", cash.tournament_cash_csv_file, name="tournament-cash-csv"),
    ])),
    path("<slug:slug>/", include([
        path("", evenings.club_page, name="club"),
        path("evenings/new/", evenings.evening_new, name="evening-new"),
        path("events/", calendar.events_page, name="events"),
        path("events.ics", calendar.events_ics, name="events-ics"),
        path("settings/", club.settings_page, name="settings"),
        path("members/", club.members_page, name="members"),
        path("member-list/", club.member_list, name="member-list"),
        path("member-list.csv", club.member_list_csv, name="member-list-csv"),
        path("seasons/<int:year>/", include([
            path("", evenings.season_page, name="season"),
            path("cash/", cash.season_cash_page, name="season-cash"),
            path("cash.csv", cash.season_cash_csv_file, name="season-cash-csv"),
            path("table-money/", evenings.table_money_page, name="table-money"),
            path("table-money/evenings.csv", evenings.table_money_csv, {"kind": "evenings"},
                 name="table-money-evenings-csv"),
            path("table-money/totals.csv", evenings.table_money_csv, {"kind": "totals"},
                 name="table-money-totals-csv"),
        ])),
    ])),
]

me_urlpatterns = [
    path("me/<str:token>/history/", me_history.me_history_page, name="me-history"),
]
