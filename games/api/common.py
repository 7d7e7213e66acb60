"""What the games views share: token authentication that loads the player, ETags, headers."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    extend_schema_serializer,
)
from rest_framework import serializers
from rest_framework.authentication import TokenAuthentication
from rest_framework.authtoken.models import Token
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.views import APIView

from games import rows
from games.models import Player
from games.services import player_for_user

#: Choice sets the schema names explicitly (settings.SPECTACULAR_SETTINGS["ENUM_NAME_OVERRIDES"]).
SEAT_KIND_CHOICES = ["human", "bot", "open"]
SEAT_REQUEST_KIND_CHOICES = ["creator", "open", "bot"]


#: The token's user (the columns the API reads; the rest load on first use) and their player.
_AUTH_SQL = (
    "SELECT u.id, u.is_active, u.is_staff, u.username, "
    "p.id, p.user_id, p.kind, p.bot_level, p.display_name, p.is_organiser, p.created_at "
    "FROM authtoken_token t JOIN auth_user u ON u.id = t.user_id "
    "LEFT JOIN games_player p ON p.user_id = u.id WHERE t.key = %s"
)
_USER_COLUMNS = ("id", "is_active", "is_staff", "username")
_PLAYER_COLUMNS = (
    "id",
    "user_id",
    "kind",
    "bot_level",
    "display_name",
    "is_organiser",
    "created_at",
)


class PlayerTokenAuthentication(TokenAuthentication):
    """``Authorization: Token <key>``: the user and their player in one plain query.

    It is on every request's path, so it skips the ORM's query building; refusals go through
    DRF's own code and messages.
    """

    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        user_model = get_user_model()
        with connection.cursor() as cursor:
            cursor.execute(_AUTH_SQL, [key])
            row = cursor.fetchone()
        if row is None or not row[1]:
            return super().authenticate_credentials(key)  # the standard refusal
        n = len(_USER_COLUMNS)
        user = rows.load(user_model, _USER_COLUMNS, row[:n])
        if row[n] is not None:
            user.player = rows.load(Player, _PLAYER_COLUMNS, row[n:])
        return (user, Token(key=key, user=user))


class GameApi(APIView):
    """Base of every games endpoint: token authentication, an authenticated caller."""

    authentication_classes = (PlayerTokenAuthentication,)
    permission_classes = (IsAuthenticated,)

    def player(self, request: Request) -> Player:
        return player_for_user(user=request.user)


def etag(version: int) -> str:
    """The ETag of a match at ``version`` (the version, quoted)."""
    return f'"{version}"'


def matches_etag(header: str | None, version: int) -> bool:
    """Does an ``If-None-Match`` header name ``version``'s ETag (or ``*``)?"""
    if not header:
        return False
    wanted = etag(version)
    for part in header.split(","):
        tag = part.strip().removeprefix("W/")
        if tag in ("*", wanted):
            return True
    return False


def version_from_if_match(header: str | None) -> int | None:
    """The version an ``If-Match`` header expects (``"12"``, ``W/"12"`` or ``12``), if any."""
    if header is None or not header.strip():
        return None
    tag = header.strip().removeprefix("W/").strip('"')
    if not tag.isdigit():
        raise ValidationError({"If-Match": ['Send the match\'s ETag, like "12".']})
    return int(tag)


MATCH_ID = OpenApiParameter("match_id", int, OpenApiParameter.PATH, description="The match id.")
ETAG_HEADER = OpenApiParameter(
    "ETag",
    str,
    OpenApiParameter.HEADER,
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


#: Every problem ``code`` the API sends: docs/errors.md's table (a test keeps them equal).
PROBLEM_CODES = [
    "invalid",
    "parse_error",
    "malformed_move",
    "invalid_option",
    "bad_request",
    "invalid_seats",
    "not_authenticated",
    "authentication_failed",
    "invalid_credentials",
    "permission_denied",
    "not_your_match",
    "not_creator",
    "not_found",
    "match_not_found",
    "round_not_found",
    "move_not_found",
    "method_not_allowed",
    "not_acceptable",
    "not_your_turn",
    "stale_version",
    "version_ahead",
    "match_not_open",
    "match_full",
    "seat_taken",
    "already_seated",
    "seats_open",
    "match_not_started",
    "match_not_playing",
    "username_taken",
    "unsupported_media_type",
    "rule_violation",
    "idempotency_key_reused",
    "version_required",
    "throttled",
    "internal_error",
]


@extend_schema_serializer(component_name="Problem")
class ProblemSerializer(serializers.Serializer):
    """An RFC 9457 problem document (``application/problem+json``): docs/errors.md."""

    type = serializers.URLField(help_text="`https://chickenfoot.dev/problems/<code>`.")
    title = serializers.CharField()
    status = serializers.IntegerField()
    detail = serializers.CharField(help_text="What went wrong with this request, for a human.")
    code = serializers.ChoiceField(choices=PROBLEM_CODES, help_text="The code to switch on.")
    rule = serializers.CharField(
        required=False, help_text="The broken rule's id (docs/rules.md), when a rule was broken."
    )
    errors = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()),
        required=False,
        help_text="On validation errors: messages by field (nested fields joined with dots).",
    )
    current_version = serializers.IntegerField(
        required=False, help_text="`stale_version`, `version_ahead`, `version_required`."
    )
    open_seats = serializers.ListField(
        child=serializers.IntegerField(), required=False, help_text="`seats_open`."
    )


def problem(description: str, *examples: tuple[str, dict[str, Any]]) -> OpenApiResponse:
    """A documented problem response with its examples."""
    return OpenApiResponse(
        ProblemSerializer,
        description=description,
        examples=[OpenApiExample(name, value=value) for name, value in examples],
    )


def problem_example(status: int, code: str, title: str, detail: str, **extra: Any) -> dict:
    return {
        "type": "https://chickenfoot.dev/problems/" + code.replace("_", "-"),
        "title": title,
        "status": status,
        "detail": detail,
        "code": code,
        **extra,
    }


NOT_AUTHENTICATED = problem(
    "No or a bad token.",
    (
        "No token",
        problem_example(
            401,
            "not_authenticated",
            "Not authenticated",
            "Authentication credentials were not provided.",
        ),
    ),
)
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
