"""The OpenAPI declarations of ``games.api.account_data``'s view and of deleting an account."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from drf_spectacular.utils import OpenApiExample, OpenApiResponse

from chickenfoot.openapi import example_avatars
from games.api.common import NOT_AUTHENTICATED

REQUEST_STATE_HELP = (
    "What you know of it: pending; accepted; declined (by you); closed: the other declined it "
    "(nobody is told) or a block cancelled it, either way (whose is theirs to say)."
)

EXPORT_EXAMPLE = {
    "exported_at": "2026-12-01T12:00:00Z",
    "account": {
        "player_id": 3,
        "username": "ada",
        "display_name": "Ada",
        "email": "ada@example.com",
        "email_verified": True,
        "email_verified_at": "2026-11-02T09:00:00Z",
        "is_organiser": False,
        "language": "lo",
        "profile_visibility": "everyone",
        "time_zone": "Asia/Vientiane",
        "quiet_hours_start": "22:00:00",
        "quiet_hours_end": "07:00:00",
        "joined": "2026-11-02T08:55:00Z",
        "last_login": "2026-11-30T19:00:00Z",
        **example_avatars(3),
        "avatar_uploaded_at": None,
    },
    "tokens": [
        {
            "id": 12,
            "device": "Ada's phone",
            "created": "2026-11-30T19:00:00Z",
            "expiry": "2026-12-30T19:00:00Z",
            "last_used": "2026-12-01T11:59:00Z",
        }
    ],
    "seats": [
        {
            "match_id": 41,
            "variant": "chickenfoot",
            "play": "online",
            "status": "finished",
            "position": 0,
            "joined_at": "2026-11-30T19:01:00Z",
            "left": "",
            "created_at": "2026-11-30T19:01:00Z",
            "finished_at": "2026-11-30T19:40:00Z",
        }
    ],
    "rounds": [{"match_id": 41, "round_number": 1, "seat": 0, "points": 0, "went_out": True}],
    "results": [
        {
            "match_id": 41,
            "variant": "chickenfoot",
            "seat": 0,
            "seat_count": 2,
            "place": 1,
            "total": 37,
            "zero_rounds": 4,
            "rounds_played": 10,
            "finished_at": "2026-11-30T19:40:00Z",
        }
    ],
    "ratings": [
        {
            "variant": "chickenfoot",
            "mu": 27.6,
            "sigma": 7.2,
            "ordinal": 5.9,
            "matches": 1,
            "updated_at": "2026-11-30T19:40:01Z",
        }
    ],
    "rating_changes": [
        {
            "match_id": 41,
            "variant": "chickenfoot",
            "mu_before": 25.0,
            "sigma_before": 8.333,
            "mu_after": 27.6,
            "sigma_after": 7.2,
            "ordinal_before": 0.0,
            "ordinal_after": 5.9,
            "created_at": "2026-11-30T19:40:01Z",
        }
    ],
    "registrations": [
        {
            "competition_id": 5,
            "name": "Spring league",
            "kind": "league",
            "status": "running",
            "registered_at": "2026-11-01T10:00:00Z",
            "withdrawn_at": None,
            "dropped_at": None,
        }
    ],
    "organised": [],
    "claims": [{"match_id": 38, "position": 2, "redeemed_at": "2026-11-20T21:30:00Z"}],
    "score_entries": [
        {
            "id": 90,
            "match_id": 38,
            "number": 1,
            "reason": "",
            "created_at": "2026-11-20T20:10:00Z",
        }
    ],
    "chat": [
        {
            "match_id": 38,
            "seq": 4,
            "seat": 1,
            "phrase": "good_game",
            "created_at": "2026-11-20T21:10:00Z",
        }
    ],
    "chat_muted": [],
    "notifications": [
        {
            "id": 41,
            "kind": "your_turn",
            "payload": {"match_id": 38, "seat": 1},
            "created_at": "2026-11-20T20:05:00Z",
            "read": True,
        }
    ],
    "push_devices": [{"id": 3, "kind": "webpush", "created_at": "2026-11-01T09:00:00Z"}],
    "friends": [{"player_id": 8, "name": "Grace", "since": "2026-11-03T18:00:00Z"}],
    "friend_requests": {
        "incoming": [
            {
                "id": 21,
                "player_id": 8,
                "name": "Grace",
                "state": "accepted",
                "created_at": "2026-11-03T17:00:00Z",
                "answered_at": "2026-11-03T18:00:00Z",
            }
        ],
        "outgoing": [
            {
                "id": 25,
                "player_id": 11,
                "name": "Alan",
                "state": "closed",
                "created_at": "2026-11-10T10:00:00Z",
                "answered_at": None,
            }
        ],
    },
    "blocks": [{"player_id": 14, "name": "Mallory", "created_at": "2026-11-12T08:00:00Z"}],
}


def player_export_responses(output: Any) -> Any:
    return {
        HTTPStatus.OK: OpenApiResponse(
            output,
            description="Everything kept about the caller.",
            examples=[OpenApiExample("Export", value=EXPORT_EXAMPLE)],
        ),
        HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
    }
