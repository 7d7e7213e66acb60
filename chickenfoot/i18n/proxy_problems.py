"""The problem documents nginx answers itself, in every language the service speaks.

nginx refuses some requests before the application sees them
(deploy/nginx/chickenfoot.conf.template: a request line or a header too long, a malformed
request, ``/admin/`` from outside its networks, a body too large, ``/metrics``, a worker gone).
It answers each from
``deploy/nginx/problem_texts.js``, which ``write_texts`` makes from the messages below and their
translations in the catalogs (``make messages`` runs it after extracting); deploy/nginx/refusals.js
picks the language from ``Accept-Language``, as Django's LocaleMiddleware does for a request
with no player. ``type``, ``code`` and ``status`` are the same in every language.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from babel import numbers
from babel.messages.catalog import Catalog
from django.utils.translation import gettext_noop

from chickenfoot.i18n.catalogs import BASE_DIR, LOCALE_DIR, po_path, read_catalog
from chickenfoot.i18n.formats import locale_for
from chickenfoot.i18n.languages import DEFAULT_LANGUAGE, LANGUAGE_CODES
from chickenfoot.problem_types import problem_type

#: The generated file deploy/nginx/refusals.js imports.
TEXTS_FILE = BASE_DIR / "deploy" / "nginx" / "problem_texts.js"

#: The limits the details name (chickenfoot.conf.template's buffers, refusals.js's MAX_FIELDS).
LINE_BYTES = 4096
HEADERS_KIB = 16
MAX_FIELDS = 64


@dataclass(frozen=True)
class ProxyProblem:
    """One document: ``name`` is its path under ``/_problems/`` in the nginx configuration."""

    name: str
    status: int
    code: str
    title: str
    detail: str
    #: numbers the detail names, formatted in each language
    numbers: tuple[tuple[str, int], ...] = ()


PROXY_PROBLEMS: tuple[ProxyProblem, ...] = (
    ProxyProblem(
        "bad-request",
        400,
        "bad_request",
        gettext_noop("Bad request"),
        gettext_noop(
            "The request is malformed: control characters or spaces where none may be, or a "
            "request line or header that is not HTTP."
        ),
    ),
    ProxyProblem(
        "network-not-allowed",
        403,
        "network_not_allowed",
        gettext_noop("Network not allowed"),
        gettext_noop("The admin is reachable from the operators' networks only."),
    ),
    ProxyProblem(
        "not-found",
        404,
        "not_found",
        gettext_noop("Not found"),
        gettext_noop("Nothing is served at this address."),
    ),
    ProxyProblem(
        "metrics",
        404,
        "not_found",
        gettext_noop("Not found"),
        gettext_noop("Nothing is served at /metrics."),
    ),
    ProxyProblem(
        "body-too-large",
        413,
        "body_too_large",
        gettext_noop("Body too large"),
        gettext_noop("The request body is larger than the server accepts."),
    ),
    ProxyProblem(
        "uri-too-long",
        414,
        "uri_too_long",
        gettext_noop("URI too long"),
        gettext_noop("The request line is longer than the %(bytes)s bytes the server accepts."),
        (("bytes", LINE_BYTES),),
    ),
    ProxyProblem(
        "header-too-large",
        431,
        "header_too_large",
        gettext_noop("Header too large"),
        gettext_noop(
            "A request header is longer than the %(bytes)s bytes the server accepts, the "
            "headers together are longer than %(kib)s KiB, or there are more than %(fields)s "
            "of them."
        ),
        (("bytes", LINE_BYTES), ("kib", HEADERS_KIB), ("fields", MAX_FIELDS)),
    ),
    ProxyProblem(
        "bad-gateway",
        502,
        "bad_gateway",
        gettext_noop("Bad gateway"),
        gettext_noop("The API server ended the request without an answer. Try again."),
    ),
    ProxyProblem(
        "http-version-not-supported",
        505,
        "http_version_not_supported",
        gettext_noop("HTTP version not supported"),
        gettext_noop("The server speaks HTTP/1.0 and HTTP/1.1."),
    ),
)


def _catalog(language: str, locale_dir: Path) -> Catalog | None:
    if language == DEFAULT_LANGUAGE:
        return None
    return read_catalog(po_path(language, "django", locale_dir), language, "django")


def _translated(catalog: Catalog | None, message: str) -> str:
    found = catalog.get(message) if catalog is not None else None
    return str(found.string) if found is not None and found.string else message


def document(problem: ProxyProblem, language: str, catalog: Catalog | None) -> dict[str, object]:
    """``problem`` as a problem document in ``language`` (``catalog`` holds its translations)."""
    values = {
        name: numbers.format_decimal(value, locale=locale_for(language))
        for name, value in problem.numbers
    }
    detail = _translated(catalog, problem.detail)
    return {
        "type": problem_type(problem.code),
        "title": _translated(catalog, problem.title),
        "status": problem.status,
        "detail": detail % values if values else detail,
        "code": problem.code,
    }


def table(locale_dir: Path = LOCALE_DIR) -> dict[str, Any]:
    """What ``problem_texts.js`` holds: the languages, the fallback, and each problem's status
    and its body (the document as JSON text) in each language, by name."""
    catalogs = {language: _catalog(language, locale_dir) for language in LANGUAGE_CODES}
    return {
        "languages": list(LANGUAGE_CODES),
        "fallback": DEFAULT_LANGUAGE,
        "problems": {
            problem.name: {
                "status": problem.status,
                "bodies": {
                    language: json.dumps(document(problem, language, catalog), ensure_ascii=False)
                    for language, catalog in catalogs.items()
                },
            }
            for problem in PROXY_PROBLEMS
        },
    }


def texts(locale_dir: Path = LOCALE_DIR) -> str:
    """The source of ``problem_texts.js``."""
    return (
        "// The problem documents nginx answers itself, in each language: written by\n"
        "// `make messages` from chickenfoot/i18n/proxy_problems.py and the catalogs in locale/.\n"
        "// deploy/nginx/refusals.js answers with them.\n"
        f"export default {json.dumps(table(locale_dir), ensure_ascii=False, indent=2)};\n"
    )


def write_texts(path: Path = TEXTS_FILE, locale_dir: Path = LOCALE_DIR) -> Path:
    """``problem_texts.js`` written from the catalogs (``make messages``)."""
    path.write_text(texts(locale_dir), encoding="utf-8")
    return path
