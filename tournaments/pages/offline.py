"""The service worker that lets a tablet reopen its sheet without a network.

Served from ``/sw.js`` so that its scope covers the sheet pages (``/t/<token>/``, the
staff's ``/console/table/<id>/`` and a player's ``/me/<token>/sheet/``). It keeps the
page's scripts and styles, the sheet page and its list as last seen; while the network
is down it answers from that copy, and the page's own queue (localStorage) keeps the
deals entered meanwhile. Browsers run service workers only on HTTPS or localhost (see the README).
"""

import hashlib

from django.conf import settings
from django.shortcuts import render
from django.templatetags.static import static
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

# Their (hashed, in production) names make the cache's version: a deployment starts afresh.
VERSIONED = ("css/app.css", "js/page.js", "js/sheet/main.js", "js/sheet/api.js",
             "js/sheet/context.js", "js/sheet/form.js", "js/sheet/preview.js",
             "js/sheet/queue.js")


@require_GET
@cache_control(no_cache=True)  # a new worker is fetched as soon as it is deployed
def service_worker(request):
    names = "|".join(static(path) for path in VERSIONED)
    version = hashlib.sha256(names.encode()).hexdigest()[:12]
    # the prefix, not static(""): the manifest of collected files has no entry for ""
    response = render(request, "sheet/sw.js", {"version": version,
                                               "static_prefix": settings.STATIC_URL},
                      content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    return response
