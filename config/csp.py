"""django-csp's middleware, with the policy built once per process.

The policy (``CONTENT_SECURITY_POLICY`` in the settings) is the same for every answer:
no view changes it (no ``@csp_update``, ``@csp_replace`` or ``@csp_exempt``) and no
template asks for a nonce. django-csp builds the header anew for each response all
the same, a tenth of a millisecond — on every phone's poll of a championship, 304s
and answers from memory included. Here it is built once, and again when a test
changes the setting; an answer that changes it or a request that took a nonce gets
django-csp's own handling.
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


def _forget(setting, **kwargs) -> None:
    if setting in _SETTING.values():
        _policies.cache_clear()


setting_changed.connect(_forget)


class ConstantPolicyCSPMiddleware(CSPMiddleware):
    def process_response(self, request, response):
        if (isinstance(getattr(request, "_csp_nonce", None), str)
                or any(getattr(response, name, None) is not None for name in _PER_RESPONSE)
                or (settings.DEBUG and response.status_code in (404, 500))):
            return super().process_response(request, response)
        for header, policy, prefixes in _policies():
            if (header not in response and not getattr(response, _EXEMPT[header], False)
                    and not request.path_info.startswith(prefixes)):
                response[header] = policy
        # as django-csp: a nonce asked for after the header was written is an error
        request.csp_nonce = CheckableLazyObject(self._csp_nonce_post_response)
        return response
