"""The answer's language: Django's ``LocaleMiddleware``, its choice remembered per request shape.

Without ``i18n_patterns`` (this project's URLs have none), Django's middleware chooses from the
``django_language`` cookie, then ``Accept-Language``, then ``LANGUAGE_CODE``; it also looks for
a language prefix in the path twice a request, and uses neither answer. ``LocaleMiddleware``
here keeps Django's choice per (cookie, ``Accept-Language``) pair, worked out by Django's own
``get_language_from_request`` the first time, and skips the path lookups; with
``i18n_patterns`` in the URLs it is Django's middleware unchanged. What a client sends stays
bounded in memory: pairs longer than ``LONGEST`` characters are not kept, and once
``REMEMBERED`` pairs are kept no more are. A change of the language settings (in tests)
forgets every choice.
"""

from __future__ import annotations

import threading
from typing import Any

from django.conf import settings
from django.conf.urls.i18n import is_language_prefix_patterns_used
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponseBase
from django.middleware import locale
from django.utils import translation
from django.utils.cache import patch_vary_headers

#: The most (cookie, Accept-Language) pairs remembered.
REMEMBERED = 512
#: The longest pair remembered, in characters.
LONGEST = 256
#: What forgets the choices when changed.
LANGUAGE_SETTINGS = frozenset(
    {"LANGUAGES", "LANGUAGE_CODE", "LANGUAGE_COOKIE_NAME", "LOCALE_PATHS"}
)

#: (cookie, Accept-Language) -> (the language chosen, ``get_language()`` once it is active).
_chosen: dict[tuple[str | None, str], tuple[str, str]] = {}
_lock = threading.Lock()


def _prefixed(request: HttpRequest) -> bool:
    """Whether the request's URLs use ``i18n_patterns``."""
    urlconf = getattr(request, "urlconf", settings.ROOT_URLCONF)
    return is_language_prefix_patterns_used(urlconf)[0]


class LocaleMiddleware(locale.LocaleMiddleware):
    """Django's ``LocaleMiddleware``, remembering its choices (see the module)."""

    def process_request(self, request: HttpRequest) -> None:
        if _prefixed(request):
            super().process_request(request)
            return
        cookie = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
        accept = request.META.get("HTTP_ACCEPT_LANGUAGE", "")
        key = (cookie, accept)
        known = _chosen.get(key)
        if known is None:
            language = translation.get_language_from_request(request)
            translation.activate(language)
            known = (language, translation.get_language())
            if len(accept) + len(cookie or "") <= LONGEST and len(_chosen) < REMEMBERED:
                with _lock:
                    _chosen[key] = known
        else:
            translation.activate(known[0])
        request.LANGUAGE_CODE = known[1]

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        if _prefixed(request):
            return super().process_response(request, response)
        if "Vary" in response.headers:
            patch_vary_headers(response, ("Accept-Language",))
        else:  # what patch_vary_headers sets when there is no Vary yet, without parsing one
            response.headers["Vary"] = "Accept-Language"
        response.headers.setdefault("Content-Language", translation.get_language())
        return response


@receiver(setting_changed)
def _forget(*, setting: str, **kwargs: Any) -> None:
    if setting in LANGUAGE_SETTINGS:
        with _lock:
            _chosen.clear()
