"""``GET /api/v1/tournaments/{id}/standings/``: the stored standings, cheap to poll.

The answer carries the standings cache's ETag (``snapshots.etag``: when the standings
were computed and the newest change not yet in them); a poll with a matching
``If-None-Match`` gets 304 after two indexed look-ups. The ``results`` list is rendered
once per computation and kept by the cache's owner (``snapshots.results``), and the
answer is spliced from it without DRF's renderer. ``?round=N`` gives the standings of one round.
``stale`` is true while a change is not yet in them. Each result carries
``rounds_played`` (the rounds the player sat at a table, a shortened sheet included) and
``withdrawn``; withdrawing or re-admitting a player has the standings recomputed, so the
cached bytes follow. Names are shown as their players chose (``clubs.publication``), in
the site's language for everybody ("Nr. 17": the bytes are shared by all pollers); those
who direct the tournament get the full names under their own ETag, rendered once per
computation too but kept apart (``snapshots.results``' ``full`` variant), given only
after the permission check and never remembered for the public's polls.
"""

import hashlib
import logging

import orjson
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.http import HttpResponse
from django.utils import translation
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.exceptions import ValidationError
from rest_framework.renderers import JSONRenderer

from api.conditional import precondition_answer
from api.endpoints import TournamentEndpoint
from api.query import ROUND
from tournaments.models import Tournament
from tournaments.policies import directing_users
from tournaments.recompute import snapshots
from tournaments.recompute.invalidations import tournament_scope
from tournaments.selectors import category_members, category_standings, named_standings

log = logging.getLogger(__name__)
CACHE_SECONDS = 3600  # _cached (also used by api/seasons.py)
_RENDERER = JSONRenderer()


def _round_param(request) -> int:
    return ROUND.read(request, default=0)


def _cached(key: str, build):
    try:
        value = cache.get(key)
    except Exception:  # the cache is an optimisation; Redis down must not fail a read
        log.warning("standings cache unavailable", exc_info=True)
        return build()
    if value is None:
        value = build()
        try:
            cache.set(key, value, CACHE_SECONDS)
        except Exception:
            log.warning("standings cache unavailable", exc_info=True)
    return value


def results_bytes(tournament: Tournament, round_number: int, version: str, *,
                  full: bool = False) -> bytes:
    """The rendered ``results`` list of one computation, from the owner's cache: names as
    their players chose. With ``full`` (a director's answer) the full names, kept apart
    from the public's and never remembered for the public's polls."""
    if full:
        return snapshots.results(
            tournament.pk, round_number, version,
            lambda: _RENDERER.render(named_standings(tournament, round_number, full=True)),
            variant="full")

    def build() -> bytes:
        # one answer for every poller, whatever its language (the snapshots are shared):
        # "Nr. 17" in the site's language
        with translation.override(settings.LANGUAGE_CODE):
            return _RENDERER.render(named_standings(tournament, round_number))

    return snapshots.results(tournament.pk, round_number, version, build)


def render_answer(computed_at, stale: bool, round_number: int, results: bytes) -> bytes:
    """The JSON body, byte for byte what DRF's renderer makes of the whole dict."""
    head = _RENDERER.render({"computed_at": computed_at, "stale": stale,
                             "round": round_number or None, "results": []})
    assert head.endswith(b"[]}")
    return head[:-3] + results + b"}"


STANDINGS_ANSWER = inline_serializer("Standings", {
    "computed_at": serializers.DateTimeField(allow_null=True),
    "stale": serializers.BooleanField(),
    "round": serializers.IntegerField(allow_null=True),
    "results": serializers.ListField(child=serializers.DictField()),
})


def directs_by_token(token: str, arguments: dict) -> bool:
    """Whether a staff token's user (active, staff) directs the tournament: what lets the
    snapshot middleware give a director's poll the full names it remembered for that
    token. One query, asked whenever the middleware holds no yes it may still trust."""
    return get_user_model().objects.filter(
        directing_users(arguments["tournament_id"]), auth_token__key=token).exists()


def category_param(request, tournament: Tournament) -> str | None:
    """``?category=`` as one of the tournament's labels; None when absent; else a 400
    naming ``category``."""
    raw = request.query_params.get("category")
    if raw is None:
        return None
    if raw not in (tournament.categories or []):
        raise ValidationError({"category": [
            _("Unknown category “%(label)s”; the tournament has: %(known)s.")
            % {"label": raw[:40], "known": ", ".join(tournament.categories or []) or "–"}]})
    return raw


CATEGORY = OpenApiParameter(
    "category", str, OpenApiParameter.QUERY,
    description="Only the participants of this category (one of the tournament's "
                "categories), with their own ranks by the game's tie-break; an unknown "
                "one is a 400 naming category.")


def category_answer(request, tournament: Tournament, category: str, round_number: int,
                    full: bool):
    """The standings of one category: ``named_standings`` restricted and ranked again;
    its ETag follows the standings and who is in the category."""
    fresh = snapshots.etag(tournament, round_number)
    members = category_members(tournament, category)
    digest = hashlib.blake2b(orjson.dumps([category, sorted(members)]),
                             digest_size=8).hexdigest()
    etag = f'{fresh.etag[:-1]}-c{digest}{"-full" if full else ""}"'
    headers = {"ETag": etag, "Cache-Control": "no-cache"}
    answer = precondition_answer(request, etag, headers)
    if answer is not None:
        return answer
    rows = category_standings(named_standings(tournament, round_number, full=full), members,
                              tournament.game)
    body = {"computed_at": fresh.computed_at, "stale": fresh.pending is not None,
            "round": round_number or None, "category": category, "results": rows}
    return HttpResponse(_RENDERER.render(body), content_type="application/json",
                        headers=headers)


class TournamentStandings(TournamentEndpoint):
    # the snapshot middleware answers its anonymous polls, and a director's token's polls
    # while the token, its user and the directorship hold
    snapshot = snapshots.Snapshotted(
        "api-standings", scopes=lambda kwargs: snapshots.standings_scopes(
            kwargs["tournament_id"]), staff=directs_by_token)

    @extend_schema(responses={200: STANDINGS_ANSWER, 304: None},
                   parameters=[ROUND.parameter(), CATEGORY])
    def get(self, request, tournament_id: int):
        tournament = self.tournament
        round_number = _round_param(request)
        category = category_param(request, tournament)
        if category is not None:
            return category_answer(request, tournament, category, round_number,
                                   self.full_names)
        token = snapshots.current_token(tournament_scope(tournament.pk))  # before the reads
        fresh = snapshots.etag(tournament, round_number)
        full = self.full_names
        etag = f'{fresh.etag[:-1]}-full"' if full else fresh.etag
        headers = {"ETag": etag, "Cache-Control": "no-cache"}
        answer = precondition_answer(request, etag, headers)
        # the results change with a computation and with how a name is shown: a rename or
        # a publication choice (``names_changed``) drops the tournament's scope, so the
        # cached names follow it before the next computation — a deal does neither (a
        # championship's 573 kB were rebuilt for every deal). Without the cache's token,
        # every change renews them.
        version = (f"{fresh.version}|{token}" if token is not None
                   else f"{fresh.version}-{fresh.pending or 0}")
        scopes = snapshots.standings_scopes(tournament.pk)
        if full:  # a director's answer is never remembered for the public's polls
            return snapshots.mark(answer or HttpResponse(
                render_answer(fresh.computed_at, fresh.pending is not None, round_number,
                              results_bytes(tournament, round_number, version, full=True)),
                content_type="application/json", headers=headers),
                scopes, tournament.published, staff=True)
        if answer is not None:
            return snapshots.mark(answer, scopes, tournament.published)
        body = render_answer(fresh.computed_at, fresh.pending is not None, round_number,
                             results_bytes(tournament, round_number, version))
        response = HttpResponse(body, content_type="application/json", headers=headers)
        return snapshots.mark(response, scopes, tournament.published)
