"""``/api/v1/clubs/{id}/members/preview/`` and ``…/members/import/``: a member list as CSV.

Both take ``{"csv": "<the file's text>"}`` (name and member number per line; see
``clubs.member_csv``). The preview says per line what an import would do, stores nothing;
the import stores all lines or none: with any bad line it answers 400 naming each bad
line's number and column (``{"lines": {"3": {"member_number": ["…"]}}}``). A *suspect*
line (its name alike another line's or a member's: same name under another number,
case, hyphen or umlaut variants; the preview lists why in ``alike``) is imported only
when its number is in ``keep``, left out when in ``drop``; a suspect in neither answers
400 the same way and nothing is stored.
Only the club's admins may do either.
"""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response

from api.club_schemas import MembersImportedSerializer, MembersPreviewSerializer
from api.endpoints import ClubEndpoint
from api.parsers import LARGEST_BODY
from api.strict import StrictCharField, StrictSerializer
from clubs.member_csv import MAX_BYTES, MAX_LINE_NUMBER, MAX_LINES
from clubs.services import MembersInvalid, MembersUnconfirmed, members_import, members_preview


def _line_numbers(label) -> serializers.ListField:
    """Numbers of lines of the file, as the preview gives them (``line``)."""
    return serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_LINE_NUMBER),
        max_length=MAX_LINES, required=False, label=label)


class MemberListSerializer(StrictSerializer):
    csv = StrictCharField(max_length=MAX_BYTES, trim_whitespace=False, multiline=True,
                          label=gettext_lazy("member list (CSV)"))
    # Lines whose name is already a member's but who are someone else (preview: "exists").
    as_new = _line_numbers(gettext_lazy("lines to import as new members"))
    # Suspects (preview: "alike" not empty): each must be kept or dropped.
    keep = _line_numbers(gettext_lazy("alike lines to import anyway"))
    drop = _line_numbers(gettext_lazy("lines to leave out"))


def line_json(line) -> dict:
    errors: dict[str, list[str]] = {}
    for column, message in line.messages:
        errors.setdefault(column, []).append(message)
    body = {"line": line.number, "name": line.name, "member_number": line.member_number,
            "status": line.status, "errors": errors, "alike": line.alike_messages}
    if line.status == "exists":
        body["existing"] = {"id": line.match.pk, "name": line.match.name,
                            "member_number": line.match.member_number}
    return body


def _lines(club, text, reader):
    # a file that cannot be read raises FileProblem, a UserError on "csv": api/errors.py
    # answers it with 400 like any other
    return reader(club=club, text=text)


def _csv(request) -> str:
    serializer = MemberListSerializer(data=request.data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data["csv"]


class MembersPreview(ClubEndpoint):
    max_body_bytes = LARGEST_BODY  # a file of up to MAX_BYTES characters, escaped

    @extend_schema(request=MemberListSerializer, responses=MembersPreviewSerializer)
    def post(self, request, club_id: int):
        club = self.club
        lines = _lines(club, _csv(request), members_preview)
        return Response({
            "valid": not any(line.errors for line in lines),
            "new": sum(line.status == "new" for line in lines),
            "unchanged": sum(line.status == "unchanged" for line in lines),
            "exists": sum(line.status == "exists" for line in lines),
            "suspects": sum(line.suspect for line in lines),
            "lines": [line_json(line) for line in lines]})


class MembersImport(ClubEndpoint):
    max_body_bytes = LARGEST_BODY

    @extend_schema(request=MemberListSerializer, responses={201: MembersImportedSerializer})
    def post(self, request, club_id: int):
        club = self.club
        serializer = MemberListSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        choices = {name: data.get(name, []) for name in ("as_new", "keep", "drop")}
        try:
            players = _lines(club, data["csv"], lambda **kw: members_import(
                created_by=request.user, **choices, **kw))
        except MembersUnconfirmed as exc:
            message = _("A name alike another's: send this line's number in keep (import "
                        "it anyway) or in drop (leave it out).")
            return Response({
                "detail": _("Nothing was imported: %(count)s lines are alike other names; "
                            "decide for each.") % {"count": len(exc.undecided)},
                "lines": {str(line.number): {"name": [message, *line.alike_messages]}
                          for line in exc.undecided},
                "errors": [{"line": line.number, "field": "name", "message": message}
                           for line in exc.undecided]},
                status=status.HTTP_400_BAD_REQUEST)
        except MembersInvalid as exc:
            bad = [line_json(line) for line in exc.lines if line.errors]
            return Response({
                "detail": _("Nothing was imported: %(count)s lines have errors.")
                % {"count": len(bad)},
                "lines": {str(line["line"]): line["errors"] for line in bad},
                "errors": [{"line": line["line"], "field": column, "message": message}
                           for line in bad for column, messages in line["errors"].items()
                           for message in messages]},
                status=status.HTTP_400_BAD_REQUEST)
        return Response({"created": len(players),
                         "players": [{"id": p.pk, "name": p.name,
                                      "member_number": p.member_number} for p in players]},
                        status=status.HTTP_201_CREATED)
