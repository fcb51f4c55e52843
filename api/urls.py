"""Routes of ``/api/v1/``."""

from django.urls import include, path
from rest_framework.authtoken.views import obtain_auth_token
from rest_framework.routers import DefaultRouter

from api.clubs import ClubViewSet
from api.games import GameDetail, GameList, Scorer
from api.players import PlayerViewSet

router = DefaultRouter()
router.register("clubs", ClubViewSet, basename="club")
router.register("players", PlayerViewSet, basename="player")

urlpatterns = [
    path("auth/token/", obtain_auth_token, name="auth-token"),
    path("games/", GameList.as_view(), name="game-list"),
    path("games/<str:game>/", GameDetail.as_view(), name="game-detail"),
    path("games/<str:game>/score/", Scorer.as_view(), name="game-score"),
    path("", include(router.urls)),
]
