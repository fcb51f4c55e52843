"""API routes for club evenings, season rankings, table money, player histories and
imports/exports (issue 8); included from ``api/urls.py`` before the router, so these
paths win over the router's ``{pk}`` routes."""

from django.urls import path

from api.club_evenings import ClubEvenings, ClubSettings
from api.exports import StandingsCSV, TournamentArchive, TournamentImport
from api.insight import PlayerStats
from api.members import MembersImport, MembersPreview
from api.player_data import PlayerErase, PlayerExport
from api.player_profiles import PlayerMergeView, PlayerProfile
from api.ratings import PlayerRatings, RatingList
from api.seasons import ClubSeason
from api.table_money import SeasonTableMoney, SeasonTableMoneyCSV, TournamentTableMoney

urlpatterns = [
    path("clubs/<int:club_id>/evenings/", ClubEvenings.as_view(), name="club-evenings"),
    path("clubs/<int:club_id>/settings/", ClubSettings.as_view(), name="club-settings"),
    path("clubs/<int:club_id>/members/preview/", MembersPreview.as_view(),
         name="club-members-preview"),
    path("clubs/<int:club_id>/members/import/", MembersImport.as_view(),
         name="club-members-import"),
    path("clubs/<int:club_id>/seasons/<str:year>/", ClubSeason.as_view(), name="club-season"),
    path("clubs/<int:club_id>/seasons/<str:year>/table-money/", SeasonTableMoney.as_view(),
         name="club-season-table-money"),
    path("clubs/<int:club_id>/seasons/<str:year>/table-money/csv/",
         SeasonTableMoneyCSV.as_view(), name="club-season-table-money-csv"),
    path("tournaments/import/", TournamentImport.as_view(), name="tournament-import"),
    path("tournaments/<int:tournament_id>/standings/csv/", StandingsCSV.as_view(),
         name="standings-csv"),
    path("tournaments/<int:tournament_id>/archive/", TournamentArchive.as_view(),
         name="tournament-archive"),
    path("tournaments/<int:tournament_id>/table-money/", TournamentTableMoney.as_view(),
         name="tournament-table-money"),
    path("players/<int:player_id>/profile/", PlayerProfile.as_view(), name="player-profile"),
    path("players/<int:player_id>/ratings/", PlayerRatings.as_view(), name="player-ratings"),
    path("ratings/", RatingList.as_view(), name="rating-list"),
    path("players/<int:player_id>/stats/", PlayerStats.as_view(), name="player-stats"),
    path("players/<int:player_id>/merge/", PlayerMergeView.as_view(), name="player-merge"),
    path("players/<int:player_id>/export/", PlayerExport.as_view(), name="player-export"),
    path("players/<int:player_id>/erase/", PlayerErase.as_view(), name="player-erase"),
]
