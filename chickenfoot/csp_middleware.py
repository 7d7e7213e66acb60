"""django-csp's middleware, with the policy of settings built once.

``csp.middleware.CSPMiddleware`` builds the header from the settings on every answer, which costs
as much as a small view. An answer that asked for nothing of its own (no nonce, no ``csp_update``
and the like, no header set) gets the same policy every time: this middleware builds it once per
process and sets it as it is; every other answer goes through django-csp unchanged.
"""

from __future__ import annotations

from typing import Any

from csp.constants import HEADER
from csp.middleware import CheckableLazyObject, CSPMiddleware
from csp.utils import build_policy
from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.http import HttpRequest
from django.http.response import HttpResponseBase

#: What a view or a template can ask of the policy of its own answer.
_OWN_POLICY = ("_csp_config", "_csp_update", "_csp_replace", "_csp_exempt")


class StaticPolicyCSPMiddleware(CSPMiddleware):
    """``CSPMiddleware`` for answers that take the settings' policy as it is."""

    #: The settings' policy, built once; ``False`` where the settings make it differ between
    #: answers (a report-only policy as well, URLs left out, ``DEBUG``).
    _header: str | bool | None = None

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        plain = (
            getattr(request, "_csp_nonce", None) is None
            and not any(hasattr(response, name) for name in _OWN_POLICY)
            and HEADER not in response
        )
        if not plain:
            return super().process_response(request, response)
        header = type(self)._header
        if header is None:
            header = type(self)._header = _settings_policy()
        if header is False:
            return super().process_response(request, response)
        if header:
            response[HEADER] = header
        request.csp_nonce = CheckableLazyObject(self._csp_nonce_post_response)  # type: ignore[attr-defined]
        return response


def _settings_policy() -> str | bool:
    """The header of the settings' policy, or ``False`` if it is not the same for each answer."""
    if (
        getattr(settings, "CONTENT_SECURITY_POLICY_REPORT_ONLY", None)
        or (settings.CONTENT_SECURITY_POLICY or {}).get("EXCLUDE_URL_PREFIXES")
        or settings.DEBUG
    ):
        return False
    return build_policy()


@receiver(setting_changed)
def _policy_forget(*, setting: str, **_: Any) -> None:
    """A test changed the policy's settings: build it again."""
    if setting.startswith("CONTENT_SECURITY_POLICY") or setting == "DEBUG":
        StaticPolicyCSPMiddleware._header = None
