"""django-csp's middleware, with the policy built once per process.

The policy (``CONTENT_SECURITY_POLICY`` in the settings) is the same for every answer:
no view changes it (no ``@csp_update``, ``@csp_replace`` or ``@csp_exempt``) and no
template asks for a nonce. django-csp builds the header anew for each response all
the same, a tenth of a millisecond — on every phone's poll of a championship, 304s
and answers from memory included. Here it is built once, and again when a test
changes the setting; an answer that changes it or a request that took a nonce gets
django-csp's own handling.

What is never a document of its own gets the short policy of ``CSP_PART_DIRECTIVES``
instead (built once too): every JSON answer, and the parts of a page that its script
fetches and puts into itself (``CSP_PART_VIEWS``, by view name). The policy of the page
they are put into governs them; opened alone, they may load nothing and be framed by
nothing. The page's policy is some 330 bytes: a phone's polls of a championship carry it
a dozen times a minute.

A part carries none of the headers that only a document uses (``DOCUMENT_ONLY``:
framing, the opener, the referrer of its links): some 100 bytes of each poll. A 304
carries none of these, no policy and no other metadata of the answer it confirms
(RFC 9110 §15.4.5): its receiver keeps the headers it stored (RFC 9111 §4.3.4). The
middleware stands above Django's ``SecurityMiddleware`` to see the headers that adds.
"""

from functools import cache

from csp.constants import HEADER, HEADER_REPORT_ONLY
from csp.middleware import CheckableLazyObject, CSPMiddleware
from csp.utils import build_policy
from django.conf import settings
from django.core.signals import setting_changed

# what a view or decorator may set on a response to change its policy
_PER_RESPONSE = ("_csp_config", "_csp_update", "_csp_replace", "_csp_config_ro",
                 "_csp_update_ro", "_csp_replace_ro")
_EXEMPT = {HEADER: "_csp_exempt", HEADER_REPORT_ONLY: "_csp_exempt_ro"}
_SETTING = {HEADER: "CONTENT_SECURITY_POLICY",
            HEADER_REPORT_ONLY: "CONTENT_SECURITY_POLICY_REPORT_ONLY"}
# what a document uses and a part does not (a part's policy forbids framing it)
DOCUMENT_ONLY = ("X-Frame-Options", "Cross-Origin-Opener-Policy", "Referrer-Policy")
# … and what a 304 leaves to the answer its receiver stored
STORED = (*DOCUMENT_ONLY, "Content-Language", "X-Content-Type-Options")


@cache
def _policies() -> tuple[tuple[str, str, tuple[str, ...]], ...]:
    """Each header with its policy and the path prefixes it leaves out."""
    out = []
    for header, report_only in ((HEADER, False), (HEADER_REPORT_ONLY, True)):
        policy = build_policy(report_only=report_only)
        if policy:
            prefixes = (getattr(settings, _SETTING[header], None) or {}).get(
                "EXCLUDE_URL_PREFIXES") or ()
            out.append((header, policy, tuple(prefixes)))
    return tuple(out)


@cache
def _part_policy() -> str:
    return build_policy(config=settings.CSP_PART_DIRECTIVES)


def _is_part(request, response) -> bool:
    if response.get("Content-Type", "").startswith("application/json"):
        return True
    match = getattr(request, "resolver_match", None)
    return match is not None and match.view_name in settings.CSP_PART_VIEWS


def _forget(setting, **kwargs) -> None:
    if setting in _SETTING.values() or setting == "CSP_PART_DIRECTIVES":
        _policies.cache_clear()
        _part_policy.cache_clear()


setting_changed.connect(_forget)


class ConstantPolicyCSPMiddleware(CSPMiddleware):
    def process_response(self, request, response):
        if (isinstance(getattr(request, "_csp_nonce", None), str)
                or any(getattr(response, name, None) is not None for name in _PER_RESPONSE)
                or (settings.DEBUG and response.status_code in (404, 500))):
            return super().process_response(request, response)
        if response.status_code == 304:
            for header in STORED:
                del response[header]
            return response
        part = _is_part(request, response)
        if part:
            for header in DOCUMENT_ONLY:
                del response[header]
        for header, policy, prefixes in _policies():
            if header == HEADER and part:
                policy = _part_policy()
            if (header not in response and not getattr(response, _EXEMPT[header], False)
                    and not request.path_info.startswith(prefixes)):
                response[header] = policy
        # as django-csp: a nonce asked for after the header was written is an error
        request.csp_nonce = CheckableLazyObject(self._csp_nonce_post_response)
        return response
