"""Push: the proxy's pub/sub module (nchan, in ``deploy/nginx``; ``docs/operations.md``)
tells the players' phones that what their page shows has changed, so they ask for it then
instead of every few seconds.

Every version ``tournaments.freshness`` bumps of a scope a player's page shows is
published after the commit to that scope's channel on the proxy's publisher
(``PUSH_URL``): the scope and its new version (``"tb42 4f0c…"``), nothing of what changed,
which the page reads from the app with every access check. A channel's name is a keyed
hash of its scope (``SECRET_KEY``), so only a reader of the page knows it. Without
``PUSH_URL`` nothing is published and the phones poll; a publish that fails is logged and
forgotten (the phones' slower poll finds the change).
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
