"""Exports and imports of a tournament.

- ``GET /api/v1/tournaments/{id}/standings/csv/``: the current standings as CSV (anyone
  who may see the tournament).
- ``GET /api/v1/formats/event/``: the JSON Schema of the open event document (anyone),
  as ``application/schema+json`` (or ``application/json`` when asked for).
- ``GET /api/v1/tournaments/{id}/event/``: the whole tournament as an open event document
  (anyone who may see the tournament; players named as they chose, unless the caller
  directs it); see ``archive``.
- ``GET /api/v1/tournaments/{id}/archive/``: the directors' copy of the same document
  (with each table's history, confirmations, objections and calls).
- ``POST /api/v1/tournaments/import/``: an event document becomes a new tournament (staff
  who run every existing club the import would add to); a bad document is a 400 naming
  the JSON path of the offending value (``rounds[0].tables[2].deals[5].bid``), and
  nothing is stored. The body may have ``MAX_BODY_BYTES`` (``api.parsers``, where other
  endpoints have 64 KB): a larger document is a 413 before it is read.
"""

from django.utils.decorators import method_decorator
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import AllowAny
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from api.club_helpers import CSVRenderer
from api.club_schemas import ImportedSerializer
from api.endpoints import TournamentEndpoint
from api.errors import path_error_response
from api.openapi import EVENT_DOCUMENT
from api.parsers import LARGEST_BODY, collection_paused
from api.permissions import StaffOnly
from api.standings import CATEGORY, category_param
from archive.event_schema import MEDIA_TYPE, event_schema
from archive.export import tournament_export
from archive.importing import archive_clubs_written, archive_store
from archive.reading import archive_read
from archive.standings_file import standings_csv
from clubs.policies import runs_club
from games.errors import UserError
from tournaments.csv_files import csv_download


class StandingsCSV(TournamentEndpoint):
    renderer_classes = [JSONRenderer, CSVRenderer]

    @extend_schema(responses={(200, "text/csv"): OpenApiTypes.STR}, parameters=[CATEGORY])
    def get(self, request, tournament_id: int):
        tournament = self.tournament
        category = category_param(request, tournament)
        return csv_download(standings_csv(tournament, full=self.full_names, category=category),
                            f"{tournament.slug}-standings.csv")


class SchemaJSONRenderer(JSONRenderer):
    media_type = MEDIA_TYPE


FORMAT_ANSWER = {
    "type": "object", "required": ["$schema", "title", "version", "type", "properties", "$defs"],
    "description": "A JSON Schema, draft 2020-12 (https://json-schema.org/draft/2020-12)",
    "properties": {
        "$schema": {"type": "string", "enum": ["https://json-schema.org/draft/2020-12/schema"]},
        "$id": {"type": "string"},
        "title": {"type": "string", "enum": ["stichliste-event"]},
        "description": {"type": "string"},
        "version": {"type": "integer", "minimum": 1,
                    "description": "the document's version (its `version` field)"},
        "type": {"type": "string", "enum": ["object"]},
        "required": {"type": "array", "items": {"type": "string"}},
        "additionalProperties": {"type": "boolean"},
        "properties": {"type": "object", "additionalProperties": {"type": "object"}},
        "$defs": {"type": "object", "additionalProperties": {"type": "object"}},
    },
}


class EventFormat(APIView):
    """The JSON Schema (draft 2020-12) of the open event document, as the repository
    keeps it (``archive/event.schema.json``), with its ``version``."""

    permission_classes = [AllowAny]
    authentication_classes: list = []
    renderer_classes = [SchemaJSONRenderer, JSONRenderer]

    @extend_schema(summary="The event document's JSON Schema",
                   responses={(200, MEDIA_TYPE): FORMAT_ANSWER,
                              (200, "application/json"): FORMAT_ANSWER})
    @method_decorator(cache_control(public=True, max_age=3600))
    def get(self, request):
        return Response(event_schema())


class TournamentEvent(TournamentEndpoint):
    """The tournament as an open event document, valid against ``GET /formats/event/``:
    players named as they chose to be published, unless the caller directs the
    tournament (then it is the directors' copy, as ``…/archive/``)."""

    @extend_schema(summary="The tournament as an open event document",
                   responses={200: EVENT_DOCUMENT})
    def get(self, request, tournament_id: int):
        tournament = self.tournament
        return Response(tournament_export(tournament=tournament, full=self.full_names),
                        headers={"Content-Disposition":
                                 f'inline; filename="{tournament.slug}.event.json"'})


class TournamentArchive(TournamentEndpoint):
    director_reads = True

    @extend_schema(summary="The directors' copy of the event document",
                   responses={200: EVENT_DOCUMENT})
    def get(self, request, tournament_id: int):
        tournament = self.tournament
        return Response(tournament_export(tournament=tournament), headers={
            "Content-Disposition": f'attachment; filename="{tournament.slug}.json"'})


class TournamentImport(APIView):
    permission_classes = [StaffOnly]
    max_body_bytes = LARGEST_BODY  # a whole tournament

    @extend_schema(summary="Import an event document as a new tournament",
                   request={"application/json": EVENT_DOCUMENT},
                   responses={201: ImportedSerializer})
    def post(self, request):
        try:
            # the collector paused as while parsing: it would walk the document's values
            # again and again as the reader makes its own (a fifth of a maximal read)
            with collection_paused():
                archive = archive_read(request.data)  # a bad document is 400 before all else
        except UserError as exc:
            return path_error_response(exc)
        for club in archive_clubs_written(archive):
            if not runs_club(request.user, club):
                raise PermissionDenied(_("The archive would add to the club “%(club)s”, "
                                         "which you do not run.") % {"club": club.name})
        tournament = archive_store(archive, importer=request.user)
        return Response({"id": tournament.pk, "slug": tournament.slug, "name": tournament.name},
                        status=status.HTTP_201_CREATED)
