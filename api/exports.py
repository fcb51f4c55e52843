"""Exports and imports of a tournament.

- ``GET /api/v1/tournaments/{id}/standings/csv/``: the current standings as CSV (anyone
  who may see the tournament).
- ``GET /api/v1/tournaments/{id}/archive/``: the whole tournament as a JSON archive
  (its directors; see ``tournaments.services.archive``).
- ``POST /api/v1/tournaments/import/``: an archive becomes a new tournament (staff who run
  every existing club the import would add to); 400 names the offending path.
"""

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.exceptions import PermissionDenied
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from api.club_helpers import CSVRenderer
from api.club_schemas import ArchiveSerializer, ImportedSerializer
from api.endpoints import TournamentEndpoint
from api.permissions import StaffOnly
from api.standings import CATEGORY, category_param
from clubs.policies import runs_club
from tournaments.csv_files import csv_download
from tournaments.services.archive import (
    archive_clubs_written,
    archive_read,
    standings_csv,
    tournament_export,
    tournament_import,
)


class StandingsCSV(TournamentEndpoint):
    renderer_classes = [JSONRenderer, CSVRenderer]

    @extend_schema(responses={(200, "text/csv"): OpenApiTypes.STR}, parameters=[CATEGORY])
    def get(self, request, tournament_id: int):
        tournament = self.tournament
        category = category_param(request, tournament)
        return csv_download(standings_csv(tournament, full=self.full_names, category=category),
                            f"{tournament.slug}-standings.csv")


class TournamentArchive(TournamentEndpoint):
    director_reads = True

    @extend_schema(responses=ArchiveSerializer)
    def get(self, request, tournament_id: int):
        tournament = self.tournament
        return Response(tournament_export(tournament=tournament), headers={
            "Content-Disposition": f'attachment; filename="{tournament.slug}.json"'})


class TournamentImport(APIView):
    permission_classes = [StaffOnly]

    @extend_schema(request=ArchiveSerializer, responses={201: ImportedSerializer})
    def post(self, request):
        data = request.data
        archive = archive_read(data)  # a bad archive is 400 before anything else
        for club in archive_clubs_written(archive):
            if not runs_club(request.user, club):
                raise PermissionDenied(_("The archive would add to the club “%(club)s”, "
                                         "which you do not run.") % {"club": club.name})
        tournament = tournament_import(data=data, importer=request.user)
        return Response({"id": tournament.pk, "slug": tournament.slug, "name": tournament.name},
                        status=status.HTTP_201_CREATED)
