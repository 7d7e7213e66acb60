"""What the games views share: token authentication that loads the player, ETags, headers."""

from __future__ import annotations

import re
from functools import cache
from http import HTTPStatus

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.views import APIView

from chickenfoot.openapi import (  # noqa: F401  (re-exported to the games views)
    CODE_GUESSES_REFUSED,
    LOGIN_REFUSED,
    NOT_AUTHENTICATED,
    PROBLEM_CODES,
    REGISTER_REFUSED,
    TOO_MANY_REQUESTS,
    ProblemSerializer,
    problem,
    problem_example,
)
from chickenfoot.problems import InvalidHeader
from games.accounts import auth_scheme  # noqa: F401  (declares the token scheme in the schema)
from games.accounts.authentication import PlayerTokenAuthentication
from games.models import Player
from games.services import player_for_user

#: Choice sets the schema names explicitly (settings.SPECTACULAR_SETTINGS["ENUM_NAME_OVERRIDES"]).
SEAT_KIND_CHOICES = ["human", "bot", "guest", "open"]
SEAT_REQUEST_KIND_CHOICES = ["creator", "open", "bot", "player", "guest"]


class GameApi(APIView):
    """Base of every games endpoint: token authentication, an authenticated caller."""

    authentication_classes = (PlayerTokenAuthentication,)
    permission_classes = (IsAuthenticated,)

    def player(self, request: Request) -> Player:
        return player_for_user(user=request.user)

    @property
    def allowed_methods(self) -> list[str]:
        """The methods the view answers (its answers' ``Allow`` header), worked out once for
        its class rather than on every answer."""
        return list(_allowed_methods(type(self)))


@cache
def _allowed_methods(view: type[APIView]) -> tuple[str, ...]:
    return tuple(m.upper() for m in view.http_method_names if hasattr(view, m))


def etag(version: int) -> str:
    """The ETag of a match at ``version`` (the version, quoted)."""
    return f'"{version}"'


def matches_etag(header: str | None, version: int) -> bool:
    """Does an ``If-None-Match`` header name ``version``'s ETag (or ``*``)?"""
    return names_etag(header, etag(version))


def names_etag(header: str | None, wanted: str) -> bool:
    """Does an ``If-None-Match`` header name the ETag ``wanted`` (weak or strong), or ``*``?"""
    if not header:
        return False
    for part in header.split(","):
        tag = part.strip().removeprefix("W/")
        if tag in ("*", wanted):
            return True
    return False


#: An ETag this API sends (a version: ASCII digits, at most 18 of them), quoted, weak or bare.
_IF_MATCH = re.compile(r'(?:W/)?"?([0-9]{1,18})"?', re.ASCII)
#: The longest ``Idempotency-Key`` kept (the move row's column).
IDEMPOTENCY_KEY_MAX = 128
#: Printable ASCII: what an ``Idempotency-Key`` may hold (a UUID, a counter, a random token).
_IDEMPOTENCY_KEY = re.compile(r"[\x20-\x7e]+")


def version_from_if_match(header: str | None) -> int | None:
    """The version an ``If-Match`` header expects (``"12"``, ``W/"12"`` or ``12``), if any.

    Anything else (other digits than ASCII ones, more digits than a version has) is a 400.
    """
    if header is None or not header.strip():
        return None
    found = _IF_MATCH.fullmatch(header.strip())
    if found is None:
        raise InvalidHeader("If-Match", _('Send the match\'s ETag, like "12".'))
    return int(found[1])


def idempotency_key_from(header: str | None) -> str | None:
    """The ``Idempotency-Key`` header's value, if any: 1 to 128 printable ASCII characters."""
    if not header:
        return None
    if len(header) > IDEMPOTENCY_KEY_MAX or not _IDEMPOTENCY_KEY.fullmatch(header):
        raise InvalidHeader(
            "Idempotency-Key",
            _("Send 1 to %(idempotency_key_max)s printable ASCII characters (a UUID will do).")
            % {"idempotency_key_max": IDEMPOTENCY_KEY_MAX},
        )
    return header


MATCH_ID = OpenApiParameter("match_id", int, OpenApiParameter.PATH, description="The match id.")
ETAG_HEADER = OpenApiParameter(
    "ETag",
    str,
    OpenApiParameter.HEADER,
    required=True,
    response=[200, 201, 304],
    description='The match\'s version, quoted (`"12"`): send it back as `If-None-Match` to poll, '
    "or as `If-Match` with a move.",
)
IF_NONE_MATCH = OpenApiParameter(
    "If-None-Match",
    str,
    OpenApiParameter.HEADER,
    required=False,
    description='The ETag you hold (e.g. `"12"`): unchanged -> 304 without a body.',
)


#: The key and declaration of a JSON answer's 304 (``If-None-Match`` holds the current ETag):
#: an empty text, so that a generated client types it (a string, always empty; the JSON answer
#: otherwise) where a 304 declared without content would be left untyped. The answer has no
#: body and no ``Content-Type`` (RFC 9110, 15.4.5): the schema checks read it so
#: (tests/games/schema_check.py, ``without_304_content``).
NOT_MODIFIED_TEXT = (HTTPStatus.NOT_MODIFIED, "text/plain")
NOT_MODIFIED = OpenApiResponse(
    {"type": "string", "maxLength": 0},
    description="Unchanged since the ETag you sent: an empty body (no content).",
)


# The problem document's schema is shared with the scoring API (chickenfoot/openapi.py).
NOT_FOUND = problem(
    "No such match.",
    (
        "No such match",
        problem_example(404, "match_not_found", "No such match", "There is no match 99."),
    ),
)
NOT_YOUR_MATCH = problem(
    "The caller has no seat at this match.",
    (
        "Not your match",
        problem_example(403, "not_your_match", "Not your match", "You have no seat at match 7."),
    ),
)
#: 503 of the ticket: the database, or the shared cache that holds tickets, is out of reach.
TICKET_UNAVAILABLE = problem(
    "The database or the shared cache (Redis, which holds tickets) cannot be reached; "
    "`Retry-After` says when to try again. A client may meanwhile poll the match over HTTP.",
    (
        "Cache unavailable",
        problem_example(
            503,
            "cache_unavailable",
            "Cache unavailable",
            "The shared cache cannot be reached right now; try again in 5 seconds.",
        ),
    ),
    (
        "Database unavailable",
        problem_example(
            503,
            "database_unavailable",
            "Database unavailable",
            "The database cannot be reached right now; try again in 5 seconds.",
        ),
    ),
)


#: A capability's code left out of a body that needs one (a claim, an invite link's seat).
NO_CODE = problem(
    "No code.",
    (
        "No code",
        problem_example(
            400,
            "invalid",
            "Invalid input",
            "code: This field is required.",
            errors={"code": ["This field is required."]},
        ),
    ),
)
