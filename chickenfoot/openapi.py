"""What every app's OpenAPI description shares: the problem document and its examples.

Here, in the project package, so that both ``games`` and ``scoring`` (which never imports games)
document their refusals with the one ``Problem`` component.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema_serializer
from rest_framework import serializers

from chickenfoot.problem_types import problem_type

#: Every problem ``code`` the API sends: docs/errors.md's table (a test keeps them equal).
PROBLEM_CODES = [
    "invalid",
    "parse_error",
    "body_too_deep",
    "too_many_items",
    "invalid_header",
    "malformed_move",
    "invalid_option",
    "bad_request",
    "invalid_seats",
    "avatar_not_an_image",
    "avatar_animated",
    "avatar_damaged",
    "not_authenticated",
    "authentication_failed",
    "unsupported_auth_scheme",
    "invalid_credentials",
    "permission_denied",
    "not_your_match",
    "not_creator",
    "not_organiser",
    "profile_hidden",
    "not_found",
    "match_not_found",
    "player_not_found",
    "not_on_leaderboard",
    "round_not_found",
    "move_not_found",
    "token_not_found",
    "push_device_not_found",
    "avatar_not_found",
    "method_not_allowed",
    "not_acceptable",
    "not_your_turn",
    "stale_version",
    "version_ahead",
    "match_not_open",
    "match_full",
    "bot_match_limit",
    "seat_taken",
    "already_seated",
    "seats_open",
    "match_not_started",
    "match_not_playing",
    "already_left",
    "seat_left",
    "match_not_finished",
    "results_incomplete",
    "chat_closed",
    "username_taken",
    "email_taken",
    "invalid_link",
    "still_organising",
    "unsupported_media_type",
    "body_too_large",
    "avatar_too_large",
    "avatar_too_many_pixels",
    "uri_too_long",
    "header_too_large",
    "http_version_not_supported",
    "network_not_allowed",
    "bad_gateway",
    "rule_violation",
    "idempotency_key_reused",
    "version_required",
    "throttled",
    "locked_out",
    "busy",
    "internal_error",
    "database_unavailable",
    "cache_unavailable",
    "invalid_competition",
    "league_refused",
    "not_league_player",
    "competition_not_found",
    "registration_closed",
    "already_registered",
    "not_registered",
    "competition_status",
    "wrong_stage",
    "too_few_players",
    "invalid_csv",
    "stage_scoring_started",
    "division_not_found",
    "division_fixed",
    "division_mismatch",
    "divisions_seated",
    "table_match",
    "not_table_match",
    "not_scorer",
    "not_score_reader",
    "match_locked",
    "scorer_link_not_found",
    "already_confirmed",
    "own_entry",
    "no_dispute",
    "not_guest_seat",
    "claim_code_unknown",
    "claim_conflict",
    "invalid_scores",
    "seat_held",
    "invitation_not_found",
    "invitation_expired",
    "invitation_closed",
    "not_in_queue",
    "already_queued",
    "queue_matched",
    "blocked",
    "friend_request_not_found",
    "friend_request_closed",
    "already_friends",
    "too_many_friend_requests",
    "friend_not_found",
    "block_not_found",
    "hints_off",
    "hint_limit",
]


#: How an ``invitation_closed`` invitation or a ``friend_request_closed`` request ended.
INVITATION_CLOSED_STATES = ["accepted", "declined", "withdrawn", "cancelled"]


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
        help_text="On validation errors: messages by field (nested fields joined with dots), "
        "every bad field of the request at once.",
    )
    rules = serializers.DictField(
        child=serializers.CharField(),
        required=False,
        help_text="With `errors`: the rule id (docs/rules.md) each field broke, for the fields "
        "that broke one.",
    )
    current_version = serializers.IntegerField(
        required=False,
        help_text="`stale_version`, `version_ahead`, `version_required`: the match's version "
        "(or, for a change to a stage's seating, the stage's).",
    )
    open_seats = serializers.ListField(
        child=serializers.IntegerField(), required=False, help_text="`seats_open`."
    )
    limit = serializers.IntegerField(
        required=False,
        help_text="`bot_match_limit`: the matches of bots only one may have; `hint_limit`: "
        "the hints a seat may have a position.",
    )
    bot_matches = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        help_text="`bot_match_limit`: the ids of one's matches of bots only, open or in play.",
    )
    problems = serializers.ListField(
        child=serializers.CharField(), required=False, help_text="`invalid_competition`."
    )
    next_stage = serializers.IntegerField(required=False, help_text="`wrong_stage`.")
    tables = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        help_text="`stage_scoring_started`: the numbers of the stage's tables with scores.",
    )
    match_id = serializers.IntegerField(
        required=False, help_text="`queue_matched`: the match quick play found you."
    )
    divisions = serializers.DictField(
        child=serializers.CharField(),
        required=False,
        help_text="`division_mismatch`: each entrant's division, by player id.",
    )
    division = serializers.CharField(
        required=False, help_text="`division_fixed`: the division the entrant played in."
    )
    competitions = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        help_text="`still_organising`: the competitions not yet finished the caller organises.",
    )
    accepted_schemes = serializers.ListField(
        child=serializers.CharField(), required=False, help_text="`unsupported_auth_scheme`."
    )
    held_seats = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        help_text="`seat_held`, `seats_open`: the seats held for invited players.",
    )
    state = serializers.ChoiceField(
        choices=INVITATION_CLOSED_STATES,
        required=False,
        help_text="`invitation_closed`: how the invitation was answered (accepted, declined, "
        "withdrawn); `friend_request_closed`: how the request ended (accepted, declined, or "
        "cancelled by a block).",
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
        "type": problem_type(code),
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


_THROTTLED = (
    "Too many requests",
    problem_example(
        429,
        "throttled",
        "Too many requests",
        "Request was throttled. Expected available in 12 seconds.",
    ),
)
_BUSY = (
    "Busy",
    problem_example(
        429,
        "busy",
        "Busy",
        "The server is checking too many passwords right now: try again in 1 second.",
    ),
)
#: 429 of an operation with request limits (docs/reliability.md, "Limits").
TOO_MANY_REQUESTS = problem(
    "Too many requests of this kind from this player or address (docs/reliability.md); "
    "`Retry-After` says how many seconds to wait.",
    _THROTTLED,
)
#: 429 of an operation that takes a code (a claim code, an invite link's): too many failed ones.
CODE_GUESSES_REFUSED = problem(
    "Too many codes that opened nothing from this player or this address (docs/reliability.md): "
    "every code is refused, a right one too, until `Retry-After` seconds have passed.",
    _THROTTLED,
)
#: 429 of a registration: too many requests, or too many passwords being hashed (busy).
REGISTER_REFUSED = problem(
    "Too many registrations from this address, or the server is hashing as many passwords as it "
    "allows (`busy`; nothing was written) (docs/reliability.md); `Retry-After` says how many "
    "seconds to wait.",
    _THROTTLED,
    _BUSY,
)
#: 429 of a log-in: too many requests, too many failed log-ins (the lockout), or busy.
LOGIN_REFUSED = problem(
    "Too many log-in requests from this address, too many failed log-ins for this username or "
    "from this address, or the server is checking as many passwords as it allows (`busy`; the "
    "password was not checked and the attempt is not counted as a failure) "
    "(docs/reliability.md); `Retry-After` says how many seconds to wait.",
    _THROTTLED,
    _BUSY,
    (
        "Locked out",
        problem_example(
            429,
            "locked_out",
            "Locked out",
            "Too many failed log-ins for this username or from this address: try again in 15 "
            "minutes.",
        ),
    ),
)
#: 429 of the API's log-in: as ``LOGIN_REFUSED``, and a known device's own lock.
TOKEN_OBTAIN_REFUSED = problem(
    "Too many log-in requests from this address, too many failed log-ins for this username or "
    "from this address (for a known device: with its credential), or the server is checking as "
    "many passwords as it allows (`busy`; the password was not checked and the attempt is not "
    "counted as a failure) (docs/reliability.md); `Retry-After` says how many seconds to wait.",
    *[(example.name, example.value) for example in LOGIN_REFUSED.examples or []],
    (
        "Device locked out",
        problem_example(
            429,
            "locked_out",
            "Locked out",
            "Too many failed log-ins from this device: try again in 15 minutes.",
        ),
    ),
)


#: What every ``avatar_url`` and ``avatar_small_url`` is, wherever a player is shown.
AVATAR_URL_HELP = (
    "The player's picture, 256 pixels a side: an absolute, content-addressed URL (cache it as "
    "long as you like: a new picture has a new URL). Their upload as WebP, or without one their "
    "initials as an SVG."
)
AVATAR_SMALL_URL_HELP = (
    "The same picture at 64 pixels a side (a list's row, a seat): the same SVG when it is the "
    "default one."
)
_AVATAR_EXAMPLE = "https://chickenfoot.example/api/players/{player_id}/avatar/" + "2c26b46b" * 8


def example_avatars(player_id: int) -> dict[str, str]:
    """An example player's ``avatar_url`` and ``avatar_small_url``: their default avatar (the
    initials' SVG, one URL for both sizes)."""
    url = _AVATAR_EXAMPLE.format(player_id=player_id) + ".svg"
    return {"avatar_url": url, "avatar_small_url": url}
