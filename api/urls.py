"""Routes of ``/api/v1/``."""

from django.urls import include, path
from rest_framework.routers import DefaultRouter

from api.auth_token import ThrottledTokenLogin
from api.club_standings import ClubStandings
from api.clubs import ClubViewSet
from api.games import GameDetail, GameList, Scorer
from api.insight import MyStats
from api.leagues import (
    DivisionDetail,
    DivisionList,
    LeagueDetail,
    LeagueList,
)
from api.leagues import TeamDetail as LeagueTeamDetail
from api.leagues import TeamList as LeagueTeamList
from api.matchdays import (
    DivisionMatchdays,
    DivisionTable,
    LineupDetail,
    MatchdayClose,
    MatchdayDetail,
    MatchdayReopen,
    Results,
    SeriesDraw,
    Substitutions,
)
from api.me import Me
from api.me_history import MyHistory, MySeasons
from api.players import PlayerViewSet
from api.prizes import Cash, PrizeLot, Prizes
from api.ranking_lists import ClubRankingLists, RankingListDetail
from api.registrations import MyRegistration, TournamentRegistrations
from api.rounds import (
    RoundClock,
    RoundClose,
    RoundDetail,
    RoundList,
    RoundReopen,
    RoundSwap,
)
from api.standings import TournamentStandings
from api.tables import (
    DealDetail,
    DealList,
    DealPreview,
    TableDetail,
    TableEnd,
    TableHistory,
    TableSubmit,
    TableSummary,
)
from api.teams import TeamDetail, TeamList, TeamStandings
from api.tournaments import TournamentViewSet
from api.voice import (
    TableCallDetail,
    TableCalls,
    TableConfirm,
    TableObjections,
    TournamentCallDetail,
    TournamentCalls,
    TournamentObjectionDetail,
    TournamentObjections,
)

router = DefaultRouter()
router.register("clubs", ClubViewSet, basename="club")
router.register("players", PlayerViewSet, basename="player")
router.register("tournaments", TournamentViewSet, basename="tournament")

# a resource's routes stand once under its prefix (``include`` of a list adds no namespace)
tournament_routes = [
    path("registrations/", TournamentRegistrations.as_view(), name="registration-list"),
    path("rounds/", RoundList.as_view(), name="round-list"),
    path("rounds/<int:number>/", include([
        path("", RoundDetail.as_view(), name="round-detail"),
        path("close/", RoundClose.as_view(), name="round-close"),
        path("reopen/", RoundReopen.as_view(), name="round-reopen"),
        path("swap/", RoundSwap.as_view(), name="round-swap"),
        path("clock/", RoundClock.as_view(), name="round-clock"),
    ])),
    path("standings/", TournamentStandings.as_view(), name="standings"),
    path("clubs/standings/", ClubStandings.as_view(), name="club-standings"),
    path("teams/", TeamList.as_view(), name="team-list"),
    path("teams/standings/", TeamStandings.as_view(), name="team-standings"),
    path("teams/<int:team_id>/", TeamDetail.as_view(), name="team-detail"),
    path("prizes/", Prizes.as_view(), name="prizes"),
    path("prizes/lots/", PrizeLot.as_view(), name="prize-lot"),
    path("cash/", Cash.as_view(), name="cash"),
    path("objections/", TournamentObjections.as_view(), name="objection-list"),
    path("objections/<int:objection_id>/", TournamentObjectionDetail.as_view(),
         name="objection-detail"),
    path("calls/", TournamentCalls.as_view(), name="call-list"),
    path("calls/<int:call_id>/", TournamentCallDetail.as_view(), name="call-detail"),
]

table_routes = [
    path("", TableDetail.as_view(), name="table-detail"),
    path("confirm/", TableConfirm.as_view(), name="table-confirm"),
    path("objections/", TableObjections.as_view(), name="table-objections"),
    path("calls/", TableCalls.as_view(), name="table-calls"),
    path("calls/<int:call_id>/", TableCallDetail.as_view(), name="table-call-detail"),
    path("deals/", DealList.as_view(), name="deal-list"),
    path("preview/", DealPreview.as_view(), name="deal-preview"),
    path("deals/<int:number>/", DealDetail.as_view(), name="deal-detail"),
    path("summary/", TableSummary.as_view(), name="table-summary"),
    path("submit/", TableSubmit.as_view(), name="table-submit"),
    path("end/", TableEnd.as_view(), name="table-end"),
    path("history/", TableHistory.as_view(), name="table-history"),
]

matchday_routes = [
    path("", MatchdayDetail.as_view(), name="matchday-detail"),
    path("reopen/", MatchdayReopen.as_view(), name="matchday-reopen"),
    path("close/", MatchdayClose.as_view(), name="matchday-close"),
    path("groups/<int:g>/", include([
        path("lineups/<int:team_id>/", LineupDetail.as_view(), name="lineup-detail"),
        path("series/", SeriesDraw.as_view(), name="series-draw"),
        path("substitutions/", Substitutions.as_view(), name="substitutions"),
        path("results/", Results.as_view(), name="paper-results"),
    ])),
]

urlpatterns = [
    path("auth/token/", ThrottledTokenLogin.as_view(), name="auth-token"),
    path("me/", Me.as_view(), name="me"),
    path("me/registration/", MyRegistration.as_view(), name="me-registration"),
    path("me/history/", MyHistory.as_view(), name="me-history"),
    path("me/seasons/", MySeasons.as_view(), name="me-seasons"),
    path("me/stats/", MyStats.as_view(), name="me-stats"),
    path("games/", GameList.as_view(), name="game-list"),
    path("games/<str:game>/", GameDetail.as_view(), name="game-detail"),
    path("games/<str:game>/score/", Scorer.as_view(), name="game-score"),
    path("tournaments/<int:tournament_id>/", include(tournament_routes)),
    path("clubs/<int:club_id>/ranking-lists/", ClubRankingLists.as_view(),
         name="club-ranking-lists"),
    path("ranking-lists/<int:rid>/", RankingListDetail.as_view(), name="ranking-list-detail"),
    path("tables/<int:table_id>/", include(table_routes)),
    path("leagues/", LeagueList.as_view(), name="league-list"),
    path("leagues/<int:league_id>/", LeagueDetail.as_view(), name="league-detail"),
    path("leagues/<int:league_id>/divisions/", DivisionList.as_view(), name="division-list"),
    path("divisions/<int:division_id>/", DivisionDetail.as_view(), name="division-detail"),
    path("divisions/<int:division_id>/teams/", LeagueTeamList.as_view(),
         name="league-team-list"),
    path("divisions/<int:division_id>/matchdays/", DivisionMatchdays.as_view(),
         name="matchday-list"),
    path("divisions/<int:division_id>/table/", DivisionTable.as_view(), name="league-table"),
    path("teams/<int:team_id>/", LeagueTeamDetail.as_view(), name="league-team-detail"),
    path("matchdays/<int:matchday_id>/", include(matchday_routes)),
    path("", include("api.urls_clubs")),
    path("", include("api.urls_open")),
    path("", include(router.urls)),
]
