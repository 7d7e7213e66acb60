"""The OpenAPI declarations of ``games.api.matches``'s views: what their ``extend_schema``
calls name."""

from __future__ import annotations

from http import HTTPStatus

from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiResponse,
)

from games.api.apidocs import examples
from games.api.apidocs.table_scores import TABLE_CREATE_EXAMPLE, TABLE_VIEW_EXAMPLE
from games.api.common import (
    NOT_AUTHENTICATED,
    NOT_FOUND,
    NOT_MODIFIED,
    NOT_MODIFIED_TEXT,
    NOT_YOUR_MATCH,
    TOO_MANY_REQUESTS,
    problem,
    problem_example,
)
from games.api.match_types import (
    MatchMineOutputSerializer,
    MatchSummaryOutputSerializer,
    MatchViewOutputSerializer,
)

PAGE_NOT_FOUND = problem(
    "A page past the last one.",
    ("No such page", problem_example(404, "not_found", "Not found", "Invalid page.")),
)

MATCH_NOT_OPEN = (
    "Not open",
    problem_example(
        409, "match_not_open", "Match not open", "Match 7 is playing: it takes no more players."
    ),
)

MATCH_CREATE_HEADING = {"summary": "Create a match", "tags": ["matches"]}

MATCH_CREATE_EXAMPLES = [
    OpenApiExample(
        "Chicken Foot: me, one open seat, a level-2 bot",
        value={
            "variant": "chickenfoot",
            "options": {"spinner_arms": 4},
            "seats": [{"kind": "creator"}, {"kind": "open"}, {"kind": "bot", "level": 2}],
        },
        request_only=True,
    ),
    OpenApiExample(
        "Mexican Train on a double-9 set, short",
        value={
            "variant": "mexican_train",
            "options": {"max_pip": 9, "rounds": 3},
            "seats": [{"kind": "creator"}, {"kind": "open"}],
        },
        request_only=True,
    ),
    OpenApiExample(
        "A match of league 4 (its options apply)",
        value={
            "variant": "mexican_train",
            "league": 4,
            "seats": [{"kind": "creator"}, {"kind": "open"}, {"kind": "open"}],
        },
        request_only=True,
    ),
    TABLE_CREATE_EXAMPLE,
    OpenApiExample(
        "Mexican Train: me against three strong bots",
        value={
            "variant": "mexican_train",
            "seats": [
                {"kind": "creator"},
                {"kind": "bot", "level": 4},
                {"kind": "bot", "level": 4},
                {"kind": "bot", "level": 4},
            ],
        },
        request_only=True,
    ),
]

MATCH_CREATE_RESPONSES = {
    HTTPStatus.CREATED: OpenApiResponse(
        MatchSummaryOutputSerializer,
        description="The new match, open for players to join.",
        examples=[OpenApiExample("Created", value=examples.SUMMARY)],
    ),
    HTTPStatus.BAD_REQUEST: problem(
        "Bad input: an unknown or out-of-range option (`invalid_option`), bad seats "
        "(`invalid_seats`, naming any bad option with them).",
        (
            "Unknown option",
            problem_example(
                400,
                "invalid_option",
                "Invalid option",
                "Unknown option(s) for chickenfoot: speed. Known options: max_pip, "
                "hand_size, rounds, double_blank_points, turn_seconds, timeouts_to_takeover, "
                "spinner_arms, must_play_drawn, release_dead_foot (docs/rules.md §4 describes "
                "each).",
                errors={"options.speed": ["Unknown option."]},
            ),
        ),
        (
            "Out of range",
            problem_example(
                400,
                "invalid_option",
                "Invalid option",
                "Option 'spinner_arms' must be 4 or 6; got 5.",
                rule="CF-SPINNER",
                errors={"options.spinner_arms": ["Option 'spinner_arms' must be 4 or 6; got 5."]},
                rules={"options.spinner_arms": "CF-SPINNER"},
            ),
        ),
        (
            "A bad seat and a bad option",
            problem_example(
                400,
                "invalid_seats",
                "Invalid seats",
                "Invalid input in: seats.1.kind, options.rounds.",
                errors={
                    "seats.1.kind": ['"ghost" is not a valid choice.'],
                    "options.rounds": [
                        "Option 'rounds' must be 1 to 10 for a double-9 set; got 99."
                    ],
                },
                rules={"options.rounds": "C-ROUNDS"},
            ),
        ),
        (
            "Not the league's game",
            problem_example(
                400,
                "league_refused",
                "Not a league match",
                "League 4 plays mexican_train, not chickenfoot.",
            ),
        ),
    ),
    HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
    HTTPStatus.FORBIDDEN: problem(
        "Not registered for the league.",
        (
            "Not registered",
            problem_example(
                403,
                "not_league_player",
                "Not in this league",
                "You are not registered for league 4.",
            ),
        ),
    ),
    HTTPStatus.NOT_FOUND: problem(
        "No such league.",
        (
            "No league",
            problem_example(
                404, "competition_not_found", "No such competition", "There is no league 9."
            ),
        ),
    ),
    HTTPStatus.CONFLICT: problem(
        "The league is not running; or a match of bots only while the caller has as "
        "many open or in play as one may (`BOT_ONLY_MATCHES_PER_PLAYER`): `bot_matches` "
        "lists them.",
        (
            "Not running",
            problem_example(
                409, "competition_status", "Not now", "League 4 is closed: no matches now."
            ),
        ),
        (
            "Too many matches of bots",
            problem_example(
                409,
                "bot_match_limit",
                "Too many matches of bots",
                "You have 3 matches of bots only open or in play, and 3 is the most at "
                "once: let one finish, or abandon one, before you create another.",
                limit=3,
                bot_matches=[12, 15, 16],
            ),
        ),
    ),
    HTTPStatus.TOO_MANY_REQUESTS: TOO_MANY_REQUESTS,
}

MATCH_OPEN_LIST_RESPONSES = {
    HTTPStatus.OK: OpenApiResponse(
        MatchSummaryOutputSerializer(many=True),
        description="A page of open matches.",
        examples=[OpenApiExample("Lobby", value=examples.SUMMARY)],
    ),
    HTTPStatus.BAD_REQUEST: problem(
        "A query parameter other than the paging ones, or one given empty or twice.",
        (
            "Unknown parameter",
            problem_example(
                400,
                "invalid",
                "Invalid input",
                "status: Unknown query parameter. Known ones: page, page_size.",
                errors={"status": ["Unknown query parameter. Known ones: page, page_size."]},
            ),
        ),
    ),
    HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
    HTTPStatus.NOT_FOUND: PAGE_NOT_FOUND,
}

MATCH_MINE_LIST_RESPONSES = {
    HTTPStatus.OK: OpenApiResponse(
        MatchMineOutputSerializer(many=True),
        description="A page of your matches.",
        examples=[OpenApiExample("Playing", value=examples.MINE_ROW)],
    ),
    HTTPStatus.BAD_REQUEST: problem(
        "Unknown status.",
        (
            "Bad status",
            problem_example(
                400,
                "invalid",
                "Invalid input",
                'status: "won" is not a valid choice.',
                errors={"status": ['"won" is not a valid choice.']},
            ),
        ),
    ),
    HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
    HTTPStatus.NOT_FOUND: PAGE_NOT_FOUND,
}

MATCH_DETAIL_RESPONSES = {
    HTTPStatus.OK: OpenApiResponse(
        MatchViewOutputSerializer,
        description="The match; its `ETag` header is the version.",
        examples=[
            OpenApiExample("Round 1 under way", value=examples.MATCH_VIEW),
            TABLE_VIEW_EXAMPLE,
        ],
    ),
    NOT_MODIFIED_TEXT: NOT_MODIFIED,
    HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
    HTTPStatus.FORBIDDEN: NOT_YOUR_MATCH,
    HTTPStatus.NOT_FOUND: NOT_FOUND,
    # a scorer code, after too many failed ones from the address (docs/tables.md)
    HTTPStatus.TOO_MANY_REQUESTS: TOO_MANY_REQUESTS,
}

SEAT_JOIN_HEADING = {"summary": "Join a match", "tags": ["matches"]}

SEAT_JOIN_EXAMPLES = [
    OpenApiExample("Any seat", value={}, request_only=True),
    OpenApiExample("Seat 1", value={"position": 1}, request_only=True),
]

#: Who may not take a seat: the 403s of joining, of accepting an invitation and of a link's code.
SEAT_REFUSED = problem(
    "A league's match you are not registered for; or you blocked a player seated there, or one "
    "of them blocked you (the detail names the player only to the one who blocked them).",
    (
        "Not registered",
        problem_example(
            403, "not_league_player", "Not in this league", "You are not registered for league 4."
        ),
    ),
    (
        "You blocked a seated player",
        problem_example(
            403, "blocked", "Blocked", "You blocked Ada, who sits at match 7: unblock them first."
        ),
    ),
    (
        "A seated player blocked you",
        problem_example(
            403, "blocked", "Blocked", "A player seated at match 7 takes no requests from you."
        ),
    ),
)

SEAT_JOIN_RESPONSES = {
    HTTPStatus.OK: OpenApiResponse(
        MatchSummaryOutputSerializer,
        description="The match with you seated.",
        examples=[
            OpenApiExample(
                "Joined",
                value={
                    **examples.SUMMARY,
                    "version": 1,
                    "open_seats": 0,
                    "seats": examples.SEATS,
                },
            )
        ],
    ),
    HTTPStatus.BAD_REQUEST: problem(
        "A bad `position`: not an integer, or no seat of this match.",
        (
            "No such seat",
            problem_example(
                400,
                "invalid_seats",
                "Invalid seats",
                "Match 7 has seats 0 to 2; got 5.",
            ),
        ),
        (
            "Not an integer",
            problem_example(
                400,
                "invalid",
                "Invalid input",
                "position: A valid integer is required.",
                errors={"position": ["A valid integer is required."]},
            ),
        ),
    ),
    HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
    HTTPStatus.FORBIDDEN: SEAT_REFUSED,
    HTTPStatus.NOT_FOUND: NOT_FOUND,
    HTTPStatus.CONFLICT: problem(
        "Not open, full, the seat taken, or you are seated already.",
        MATCH_NOT_OPEN,
        (
            "Full",
            problem_example(409, "match_full", "Match full", "Every seat of match 7 is taken."),
        ),
    ),
}

MATCH_START_RESPONSES = {
    HTTPStatus.OK: OpenApiResponse(
        MatchViewOutputSerializer,
        description="The match, dealt, as your seat sees it.",
        examples=[OpenApiExample("Started", value=examples.MATCH_VIEW)],
    ),
    HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
    HTTPStatus.FORBIDDEN: problem(
        "Only the creator or an organiser may start a match.",
        (
            "Not the creator",
            problem_example(
                403,
                "not_creator",
                "Not the creator",
                "Only the match's creator or an organiser can start it.",
            ),
        ),
    ),
    HTTPStatus.NOT_FOUND: NOT_FOUND,
    HTTPStatus.CONFLICT: problem(
        "Started already, or seats still open.",
        MATCH_NOT_OPEN,
        (
            "Seats open",
            problem_example(
                409,
                "seats_open",
                "Seats still open",
                "Seats 1 and 2 are still open.",
                open_seats=[1, 2],
            ),
        ),
    ),
}
