"""Freshness of the live answers: the one owner of their versions, ETags and caching
headers (RFC 9110 conditional requests, RFC 9111 caching; ``docs/architecture.md``).

A *version* per scope (a tournament, its stored standings, its sheets, a table, what of
a table moves otherwise than by a deal added at its end, the director's calls) is kept
in Django's cache and replaced (``bump``) once the transaction that changes the scope
commits. An ETag is made of the versions of what an answer shows and the view's own key,
never of its body, so a poll whose ``If-None-Match`` holds is answered 304 before the
view renders anything. One decorator per kind of view (``public``, ``personal``,
``staff``) compares it and sets ``Cache-Control`` and ``Vary``; the checks of who may
read run before it (the views put them first), so a revoked token, an erased person or a
removed director get no 304. Writes compare ``If-Match`` under the row lock
(``if_match_holds``).
"""

from __future__ import annotations

import functools
import hashlib
import logging
import secrets
import threading
from collections.abc import Callable, Iterable
from typing import NamedTuple

from django.contrib.messages import get_messages
from django.core.cache import cache
from django.core.signals import request_finished, request_started
from django.db import transaction
from django.http import HttpResponse
from django.utils.cache import (
    get_conditional_response,
    parse_etags,
    patch_cache_control,
    patch_vary_headers,
)
from django.utils.translation import get_language

from tournaments import push

log = logging.getLogger(__name__)

READS = ("GET", "HEAD")
SHARED_SECONDS = 2  # the proxy's lifetime of a public answer
VARY = ("Accept-Language", "Cookie")


def tournament(tournament_id: int) -> str:
    return f"t{tournament_id}"


def computed(tournament_id: int) -> str:
    return f"c{tournament_id}"


def sheets(tournament_id: int) -> str:
    return f"s{tournament_id}"


def table(table_id: int) -> str:
    return f"tb{table_id}"


def amended(table_id: int) -> str:
    """A table's sheet changed otherwise than by deals added at its end."""
    return f"ta{table_id}"


def calls(tournament_id: int) -> str:
    """The director's calls and objections of a tournament (the console's voice panel)."""
    return f"v{tournament_id}"


def standings(tournament_id: int) -> tuple[str, ...]:
    """What a standings answer shows: the tournament, its computation, whether it is stale."""
    return tournament(tournament_id), computed(tournament_id), sheets(tournament_id)


def _key(scope: str) -> str:
    return f"fresh:{scope}"


# Within one request a version is read once: the tag, the reads kept under the versions
# and the answer's parts ask for the same scopes (a player's live part: three times).
# Outside a request (a task, a command) nothing is remembered.
_request = threading.local()


def _request_started(**_kwargs) -> None:
    _request.read = {}


def _request_finished(**_kwargs) -> None:
    _request.read = None


request_started.connect(_request_started, dispatch_uid="freshness.request_started")
request_finished.connect(_request_finished, dispatch_uid="freshness.request_finished")


def versions(scopes: Iterable[str]) -> tuple[str, ...] | None:
    """The scopes' versions (a scope never seen gets one now); None when the cache is
    down (the answer is then rendered and never answered 304)."""
    keys = [_key(scope) for scope in scopes]
    read = getattr(_request, "read", None)
    found = {key: read[key] for key in keys if key in read} if read is not None else {}
    try:
        missing = [key for key in keys if key not in found]
        found.update(cache.get_many(missing) if missing else {})
        for key in keys:
            if key not in found:  # a scope never seen: ours, unless another was first
                version = new_version()
                found[key] = version if cache.add(key, version, None) else cache.get(key)
    except Exception:  # Redis down must not fail a read: no 304, no shared cache
        log.warning("freshness versions unavailable", exc_info=True)
        return None
    if any(found[key] is None for key in keys):
        return None
    if read is not None:
        read.update(found)
    return tuple(found[key] for key in keys)


def new_version() -> str:
    return secrets.token_hex(8)


def bump_now(scopes: Iterable[str], version: str | None = None) -> None:
    """Give ``scopes`` new versions now (``version``: the one a single scope gets), and
    tell the phones subscribed to them."""
    scopes = list(scopes)
    if version is not None and len(scopes) != 1:
        raise ValueError("a given version is one scope's")
    entries = {_key(scope): version or new_version() for scope in scopes}
    read = getattr(_request, "read", None)
    if read is not None:  # this request reads the new versions, not the ones it read
        for key in entries:
            read.pop(key, None)
    try:
        cache.set_many(entries, None)
    except Exception:
        log.warning("freshness versions not bumped", exc_info=True)
        return
    push.publish(dict(zip(scopes, entries.values(), strict=True)))


def bump(tournament_id: int | None, table_id: int | None = None, *,
         computation: bool = False, version: str | None = None,
         appended: bool = False) -> None:
    """Give what changed new versions once the current transaction commits (at once
    outside one): the tournament (alone), its stored standings (``computation``; with
    ``version``, that one: its caller keeps what it computed under it first), or a
    sheet — the tournament's sheets and that table (only the table without a
    tournament), and the table's ``amended`` unless deals were only ``appended``."""
    if computation:
        scopes = [computed(tournament_id)]
    elif table_id is not None:
        scopes = ([table(table_id)] + ([] if appended else [amended(table_id)])
                  + ([sheets(tournament_id)] if tournament_id else []))
    else:
        scopes = [tournament(tournament_id)]
    transaction.on_commit(functools.partial(bump_now, scopes, version if computation else None),
                          robust=True)


def etag(*parts) -> str:
    """The strong ETag (RFC 9110 §8.8.3, quoted) of an answer keyed by ``parts``."""
    key = "|".join(map(str, parts))
    return f'"{hashlib.blake2b(key.encode(), digest_size=12).hexdigest()}"'


class Tag(NamedTuple):
    """What a view's answer is tagged with: its ETag (None: never answered 304) and
    whether it may be kept by a shared cache (``shared``) or by no cache at all
    (``hidden``: an unpublished tournament's)."""

    etag: str | None
    shared: bool = False
    hidden: bool = False


def tag(scopes: Iterable[str], *parts, shared: bool = False, hidden: bool = False) -> Tag:
    """The Tag of an answer showing ``scopes``, keyed by ``parts`` and the language."""
    found = versions(scopes)
    if found is None:
        return Tag(None)
    return Tag(etag(*found, *parts, get_language()), shared and not hidden, hidden)


def tournament_tag(request, tournament, scopes: Iterable[str], *parts,
                   shareable: bool = True) -> Tag:
    """The Tag of a tournament's public answer (the board, the standings, the ranks
    part): shared when an anonymous reader reads a published tournament (and the answer
    is ``shareable``: no full names), kept by no cache while the tournament is hidden."""
    published = tournament.published
    return tag(scopes, *parts, shared=shareable and published
               and not request.user.is_authenticated, hidden=not published)


def cache_control(response: HttpResponse, request, found: Tag, *, vary=VARY) -> HttpResponse:
    """Set the answer's ETag, ``Cache-Control`` and ``Vary`` as ``found`` says."""
    if found.etag is not None:
        response["ETag"] = found.etag
    # a page carrying the reader's own CSRF token is theirs alone
    shared = found.shared and not request.META.get("CSRF_COOKIE_NEEDS_UPDATE")
    if found.hidden or found.etag is None:
        patch_cache_control(response, private=True, no_store=True)
    elif shared:
        patch_cache_control(response, public=True, max_age=SHARED_SECONDS)
    else:
        patch_cache_control(response, private=True, no_cache=True)
    patch_vary_headers(response, vary)
    return response


def _request(args):
    return next(a for a in args if hasattr(a, "META"))


def _conditional(tag_of: Callable[..., Tag | None], vary=VARY):
    """Decorate a view (a function, or a method: ``request`` is the first argument that
    has ``META``): ``tag_of`` (given the view's arguments, after its access checks)
    tags the answer; a read whose preconditions hold gets 304 without the view."""

    def decorate(view):
        @functools.wraps(view)
        def wrapped(*args, **kwargs):
            request = _request(args)
            found = tag_of(*args, **kwargs)
            if found is None:  # nothing to tag (the view answers 404)
                return view(*args, **kwargs)
            response = None
            if found.etag is not None and request.method in READS:
                response = get_conditional_response(request, etag=found.etag)
            if response is None:
                response = view(*args, **kwargs)
            if response.status_code in (200, 304):
                cache_control(response, request, found, vary=vary)
            return response

        return wrapped

    return decorate


def public(tag_of: Callable[..., Tag | None], vary=VARY):
    """A public answer: shared by anonymous readers of a published tournament — but a
    page with a message waiting for its reader (a sign-up's, say) is theirs alone,
    rendered now (it shows the message once)."""

    def unless_message(*args, **kwargs):
        found = tag_of(*args, **kwargs)
        if found is not None and found.shared and len(get_messages(_request(args))):
            return Tag(None)
        return found

    return _conditional(unless_message, vary)


def personal(tag_of: Callable[..., Tag | None], vary=VARY):
    """A reader's own answer (a player's page, a director's): never in a shared cache."""

    def private(*args, **kwargs):
        found = tag_of(*args, **kwargs)
        return found and found._replace(shared=False)

    return _conditional(private, vary)


def staff(tag_of: Callable[..., Tag | None], vary=VARY):
    """A director's answer: private, keyed also by the reader (the user, and the CSRF
    secret its forms carry: a new login renders anew), never 304 without that secret
    (the answer sets it) nor while a message waits (the page that renders shows it
    once)."""

    def reader(*args, **kwargs):
        found = tag_of(*args, **kwargs)
        if found is None or found.etag is None:
            return found
        request = _request(args)
        secret = request.META.get("CSRF_COOKIE")  # none yet: this answer sets one
        if not secret or len(get_messages(request)):
            return Tag(None)
        user = getattr(request, "user", None)
        return found._replace(etag=etag(found.etag, getattr(user, "pk", ""), secret),
                              shared=False)

    return _conditional(reader, vary)


def precondition_answer(request, etag: str, private: bool = True) -> HttpResponse | None:
    """For the answers tagged by their own content (not live: a season, a rating list):
    the 304 (or 412) that a read's preconditions call for, with its headers, else None."""
    if request.method not in READS:
        return None
    answer = get_conditional_response(request, etag=etag)
    return answer and tagged(answer, etag, private)


def tagged(response: HttpResponse, etag: str, private: bool = True) -> HttpResponse:
    """``response`` with its ETag and ``Cache-Control: private, no-cache``."""
    response["ETag"] = etag
    patch_cache_control(response, private=private, no_cache=True)
    return response


def if_match_holds(header: str, etag: str) -> bool:
    """RFC 9110 §13.1.1: a strong comparison (a weak tag never matches), a list matches
    when one of its tags does, ``*`` matches any current representation."""
    tags = parse_etags(header)
    return tags == ["*"] or etag in tags


def _tournament_saved(sender, instance, **kwargs) -> None:
    bump(instance.pk)


def _part_saved(sender, instance, **kwargs) -> None:
    """A draw, a round closed or reopened, a participant's change (a withdrawal, a
    personal token renewed or erased)."""
    bump(instance.tournament_id)


def _confirmation_saved(sender, instance, **kwargs) -> None:
    bump(None, instance.table_id)


def _call_saved(sender, instance, **kwargs) -> None:
    """A call or an objection: the console's voice panel of its tournament."""
    from tournaments.models import Table

    found = Table.objects.filter(pk=instance.table_id).values_list("round__tournament_id")
    scopes = [calls(tournament_id) for (tournament_id,) in found]
    transaction.on_commit(functools.partial(bump_now, scopes), robust=True)


def _connect(model: str, handler) -> None:
    from django.db.models.signals import post_delete, post_save

    for signal in (post_save, post_delete):
        signal.connect(handler, sender=model,
                       dispatch_uid=f"freshness.{model.split('.')[-1]}.{signal is post_save}")


def connect() -> None:
    """Every save or delete of these bumps what shows them (``TournamentsConfig.ready``)."""
    for model, handler in (("Tournament", _tournament_saved), ("Round", _part_saved),
                           ("Participant", _part_saved),
                           ("TeamEvent", _part_saved), ("Team", _part_saved),
                           ("SheetConfirmation", _confirmation_saved),
                           ("DirectorCall", _call_saved), ("Objection", _call_saved)):
        _connect(f"tournaments.{model}", handler)


def follow(model: str) -> None:
    """Every save or delete of ``model`` (``"app_label.Model"``, a row with a
    ``tournament_id``) bumps its tournament: how an app above tournaments (the prize
    list, say) has the tournament's live answers follow its rows."""
    _connect(model, _part_saved)
