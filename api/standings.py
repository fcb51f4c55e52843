"""``GET /api/v1/tournaments/{id}/standings/``: the stored standings, cheap to poll.

The answer is tagged by ``tournaments.freshness`` from the versions of the tournament,
its stored standings and its sheets (``freshness.standings``): a poll with a matching
``If-None-Match`` gets 304 before anything is read but the versions. An anonymous
reader's answer of a published tournament is ``public`` for a short while (the proxy
keeps it, ``deploy/nginx``); a director's (with the full names) is ``private``.
``?round=N`` gives the standings of one round. ``stale`` is true while a change is not
yet in them. Each result carries ``rounds_played`` (the rounds the player sat at a
table, a shortened sheet included) and ``withdrawn``. Names are shown as their players
chose (``clubs.publication``), in the site's language for everybody ("Nr. 17": the
bytes are shared by all pollers); those who direct the tournament get the full names.
"""

import logging

from django.conf import settings
from django.core.cache import cache
from django.http import HttpResponse
from django.utils import translation
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.exceptions import ValidationError
from rest_framework.renderers import JSONRenderer

from api.endpoints import TournamentEndpoint
from api.query import ROUND
from tournaments import freshness
from tournaments.models import Tournament
from tournaments.selectors import (
    category_members,
    category_standings,
    named_standings,
    standings_version,
)

log = logging.getLogger(__name__)
CACHE_SECONDS = 3600  # _cached (used by api/seasons.py)
_RENDERER = JSONRenderer()
VARY = ("Authorization", "Cookie")


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


def results_bytes(tournament: Tournament, round_number: int, *, full: bool = False) -> bytes:
    """The rendered ``results`` list: names as their players chose (in the site's
    language, one answer for every poller), or with ``full`` the full names."""
    if full:
        return _RENDERER.render(named_standings(tournament, round_number, full=True))
    with translation.override(settings.LANGUAGE_CODE):
        return _RENDERER.render(named_standings(tournament, round_number))


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


def category_answer(tournament: Tournament, category: str, round_number: int, full: bool):
    """The standings of one category: ``named_standings`` restricted and ranked again."""
    computed_at, pending = standings_version(tournament)
    rows = category_standings(named_standings(tournament, round_number, full=full),
                              category_members(tournament, category), tournament.game)
    body = {"computed_at": computed_at, "stale": pending is not None,
            "round": round_number or None, "category": category, "results": rows}
    return HttpResponse(_RENDERER.render(body), content_type="application/json")


def _tag(view, request, tournament_id: int) -> freshness.Tag:
    """The answer's tag, after the permission checks: the standings' versions (a
    category's members change with the tournament's), the round, the category and
    whether the names are full."""
    tournament = view.tournament
    category = category_param(request, tournament)
    full = view.full_names
    return freshness.tournament_tag(request, tournament, freshness.standings(tournament.pk),
                                    "api-standings", _round_param(request), category, full,
                                    shareable=not full)


class TournamentStandings(TournamentEndpoint):
    @extend_schema(responses={200: STANDINGS_ANSWER, 304: None},
                   parameters=[ROUND.parameter(), CATEGORY])
    @freshness.public(_tag, vary=VARY)
    def get(self, request, tournament_id: int):
        tournament = self.tournament
        round_number = _round_param(request)
        category = category_param(request, tournament)
        if category is not None:
            return category_answer(tournament, category, round_number, self.full_names)
        computed_at, pending = standings_version(tournament)
        body = render_answer(computed_at, pending is not None, round_number,
                             results_bytes(tournament, round_number, full=self.full_names))
        return HttpResponse(body, content_type="application/json")
