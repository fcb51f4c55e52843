"""Push: the proxy's pub/sub module (nchan, in ``deploy/nginx``) tells the players'
phones that what their page shows has changed, so they ask for it then instead of every
few seconds.

Every version ``tournaments.freshness`` bumps of a scope a player's page shows (the
tournament, its calls, a table, what of a table moves otherwise than by a deal added) is
published, after the commit, to that scope's
channel on the proxy's publisher (``PUSH_URL``: a port of the proxy that only the app
reaches). A player's live part names the channels of its scopes (``subscription``);
``static/js/me.js`` subscribes to them with an ``EventSource`` on ``/push/`` (nginx holds
the connections and sends each message to every subscriber) and fetches the live part
with its ETag when a message comes — or, for a message of the table the player sits at,
that table's score card at the URL of the message's version (a part of its own, which
a deal renews: ``tournaments.pages.me``). A message carries nothing but the scope (its
kind and id: ``t`` the tournament, ``v`` its calls, ``tb`` a table, ``ta`` a table's
amendments) and its new version: ``"tb42 4f0c…"``; what changed is read from the app as
before, with every access check. A message of the whole tournament reaches every phone in
the hall at once, so the page spreads its fetches over a few seconds; a table's reaches
its few players.

A channel's name is a keyed hash of its scope (``SECRET_KEY``), so only a reader of the
page knows it. Without ``PUSH_URL`` (the embedded default, ``make venue``: no proxy)
nothing is published, the page names no channels and the phones poll. A publish that
fails (the proxy restarting) is logged and forgotten: the phones' slower poll and their
reconnect's fetch find the change.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
from collections.abc import Iterable

import urllib3
from django.conf import settings

log = logging.getLogger(__name__)

# the scopes a player's live part and card show (``tournaments.freshness``): tournament,
# calls, table, a table's amendments
PUSHED = ("t", "v", "tb", "ta")
PUBLISH_SECONDS = 0.5  # a publish waits no longer for the proxy (the deal is stored)
SUBSCRIBE_PATH = "/push/"

_pool = urllib3.PoolManager(maxsize=2, retries=False,
                            timeout=urllib3.Timeout(total=PUBLISH_SECONDS))
_HEADERS = {"Content-Type": "text/plain"}


def kind(scope: str) -> str:
    """A scope's kind: its name without the id (``"tb"`` of ``"tb42"``)."""
    return scope.rstrip("0123456789")


def channel(scope: str) -> str:
    return hmac.new(settings.SECRET_KEY.encode(), f"push:{scope}".encode(),
                    hashlib.blake2b).hexdigest()[:24]


def subscription(scopes: Iterable[str]) -> str:
    """Where a page subscribes to the channels of ``scopes``, or "" without push."""
    if not settings.PUSH_URL:
        return ""
    return SUBSCRIBE_PATH + ",".join(channel(scope) for scope in scopes
                                     if kind(scope) in PUSHED)


def publish(versions: dict[str, str]) -> None:
    """Publish each pushed scope's new version (``{scope: version}``) to its channel."""
    if not settings.PUSH_URL:
        return
    pool = path = None
    for scope, version in versions.items():
        name = kind(scope)
        if name not in PUSHED:
            continue
        try:
            if pool is None:  # the publisher's kept connections, asked once a change
                url = urllib3.util.parse_url(settings.PUSH_URL)
                pool = _pool.connection_from_host(url.host, url.port, url.scheme)
                path = (url.path or "").rstrip("/")
            # the pool's own request: the manager's would parse the URL and build the
            # request anew for each message (a deal's on the entry's hot path)
            answer = pool.urlopen("POST", f"{path}/pub/{channel(scope)}",
                                  body=f"{scope} {version}".encode(), headers=_HEADERS)
        except urllib3.exceptions.HTTPError:
            log.warning("push to %s failed", scope, exc_info=True)
            continue
        if answer.status >= 300:
            log.warning("push to %s answered %s", scope, answer.status)
