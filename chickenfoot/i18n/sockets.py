"""The language of a WebSocket connection: its frames' texts (a refusal's reason, an error).

A socket has no request for ``LocaleMiddleware`` to read: its language is chosen at the
handshake as a request's is, from the ``django_language`` cookie, then ``Accept-Language``,
then English; once the socket knows its player, their saved language comes first. It is
activated for the connection's task, which every frame of the socket is written in.
"""

from __future__ import annotations

from http.cookies import SimpleCookie
from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.translation.trans_real import (
    get_supported_language_variant,
    parse_accept_lang_header,
)

from chickenfoot.i18n.languages import LANGUAGE_CODES


def _header(scope: dict[str, Any], name: bytes) -> str:
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return value.decode("latin-1")
    return ""


def handshake_language(scope: dict[str, Any]) -> str:
    """The language the handshake asks for: the cookie's, else Accept-Language's, else English."""
    cookie = SimpleCookie()
    try:
        cookie.load(_header(scope, b"cookie"))
    except Exception:  # noqa: BLE001 - a cookie header that does not parse names no language
        cookie = SimpleCookie()
    chosen = cookie.get(settings.LANGUAGE_COOKIE_NAME)
    if chosen is not None and chosen.value in LANGUAGE_CODES:
        return chosen.value
    for code, _ in parse_accept_lang_header(_header(scope, b"accept-language")):
        if code == "*":
            break
        try:
            return get_supported_language_variant(code)
        except LookupError:
            continue
    return settings.LANGUAGE_CODE


def socket_language_use(scope: dict[str, Any], saved: str | None = None) -> str:
    """Activate the socket's language (``saved``, a player's choice, when it is one) for the
    connection's task; return it."""
    language = saved if saved in LANGUAGE_CODES else handshake_language(scope)
    translation.activate(language)
    return language
