"""``GET /api/v1/tournaments/{id}/lists/{kind}.csv`` and ``….pdf``: the standings as a
federation list (``tournaments.federation_lists``): ``players``, ``clubs`` or ``teams``;
anyone who may see the tournament (a published one: anyone)."""

from django.http import HttpResponse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework.exceptions import NotFound
from rest_framework.renderers import BaseRenderer, JSONRenderer

from api.club_helpers import CSVRenderer
from api.endpoints import TournamentEndpoint
from tournaments.csv_files import csv_download, write_csv
from tournaments.federation_lists import KINDS, federation_list
from tournaments.pdf_lists import list_pdf


class PDFRenderer(BaseRenderer):
    """Lets a client ask for ``application/pdf``; the view answers with the file itself."""

    media_type = "application/pdf"
    format = "pdf"
    charset = None

    def render(self, data, accepted_media_type=None, renderer_context=None):
        return data if isinstance(data, bytes) else b""


class FederationListFile(TournamentEndpoint):
    renderer_classes = [JSONRenderer, CSVRenderer, PDFRenderer]

    @extend_schema(responses={(200, "text/csv"): OpenApiTypes.STR,
                              (200, "application/pdf"): OpenApiTypes.BINARY},
                   summary="The standings as a federation list")
    def get(self, request, tournament_id: int, kind: str, suffix: str):
        """`kind` is `players` (place, start number, name, club, each round's score,
        total; Skat also won and lost games), `clubs` or `teams`; `.csv` is UTF-8 with a
        byte-order mark, `;`-separated; `.pdf` has one page per 30 rows."""
        if kind not in KINDS or suffix not in ("csv", "pdf"):
            raise NotFound(_("There is no such list."))
        tournament = self.tournament
        listing = federation_list(tournament, kind, full=self.full_names)
        name = f"{tournament.slug}-{kind}.{suffix}"
        if suffix == "csv":
            return csv_download(write_csv(listing.header, listing.rows), name)
        heading = tournament.name + (f", {tournament.date:%d.%m.%Y}" if tournament.date else "")
        return HttpResponse(list_pdf(listing, heading), content_type="application/pdf",
                            headers={"Content-Disposition": f'attachment; filename="{name}"'})
