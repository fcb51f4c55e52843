"""API routes of open results (issue 55, api.md "Open results"): the event document's
schema and export (its import is ``tournaments/import/``), the conformance suite, the
history chains' check and the federation lists; included from ``api/urls.py``
before the router."""

from django.urls import path

from api.conformance import Conformance
from api.exports import EventFormat, TournamentEvent
from api.federation_lists import FederationListFile
from api.verify import TournamentVerify

urlpatterns = [
    path("formats/event/", EventFormat.as_view(), name="format-event"),
    path("tournaments/<int:tournament_id>/event/", TournamentEvent.as_view(),
         name="tournament-event"),
    path("games/<str:game>/conformance/", Conformance.as_view(), name="game-conformance"),
    path("tournaments/<int:tournament_id>/verify/", TournamentVerify.as_view(),
         name="tournament-verify"),
    path("tournaments/<int:tournament_id>/lists/<str:kind>.<str:suffix>",
         FederationListFile.as_view(), name="tournament-federation-list"),
]
