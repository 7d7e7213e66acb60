"""The OpenAPI declarations of ``scoring.api.competitions``'s views: what their ``extend_schema``
calls name."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from drf_spectacular.utils import OpenApiExample, OpenApiResponse

from chickenfoot.openapi import NOT_AUTHENTICATED, problem, problem_example
from scoring.api.common import PAGE_NOT_FOUND
from scoring.api.competition_base import (
    COMPETITION_ID,
    LEAGUE_EXAMPLE,
    NOT_FOUND,
    NOT_ORGANISER,
    PAIRS_EXAMPLE,
    TOURNAMENT_EXAMPLE,
    CompetitionSerializer,
)

DETAIL_EXAMPLE = {
    **TOURNAMENT_EXAMPLE,
    "registered": 2,
    "players": [
        {"id": 2, "name": "Grace", "registered_at": "2025-03-01T10:05:00Z"},
        {"id": 5, "name": "Alan", "registered_at": "2025-03-01T10:07:00Z"},
    ],
}

COMPETITION_LIST_CREATE_GET_RESPONSES = {
    HTTPStatus.OK: OpenApiResponse(
        CompetitionSerializer(many=True),
        description="A page of competitions, newest first.",
        examples=[
            OpenApiExample(
                "A page of one league",
                value=LEAGUE_EXAMPLE,
            )
        ],
    ),
    HTTPStatus.BAD_REQUEST: problem(
        "A bad filter value.",
        (
            "Bad kind",
            problem_example(
                400,
                "invalid",
                "Invalid input",
                "kind: Select a valid choice. cup is not one of the available choices.",
                errors={
                    "kind": ["Select a valid choice. cup is not one of the available choices."]
                },
            ),
        ),
    ),
    HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
    HTTPStatus.NOT_FOUND: PAGE_NOT_FOUND,
}

COMPETITION_LIST_CREATE_POST_EXAMPLES = [
    OpenApiExample(
        "A 3-stage tournament at tables of 4, bots filling",
        value={
            "kind": "tournament",
            "name": "Spring open",
            "variant": "chickenfoot",
            "options": {"rounds": 4},
            "table_size": 4,
            "allow_bots": True,
            "stage_count": 3,
            "starts_on": "2025-03-08",
        },
        request_only=True,
    ),
    OpenApiExample(
        "A Swiss at tables of 4 ranked by points, then Buchholz, then wins",
        value={
            "kind": "tournament",
            "name": "Autumn Swiss",
            "variant": "chickenfoot",
            "table_size": 4,
            "stage_count": 5,
            "tie_breaks": ["placement_points", "buchholz", "median_buchholz", "wins"],
        },
        request_only=True,
    ),
    OpenApiExample(
        "A Swiss at tables of 4 whose best four play a final table",
        value={
            "kind": "tournament",
            "play": "table",
            "name": "Club final night",
            "variant": "chickenfoot",
            "options": {"rounds": 4},
            "table_size": 4,
            "stage_count": 4,
            "final_table": {"size": 4},
        },
        request_only=True,
    ),
    OpenApiExample(
        "A round robin of pairs",
        value={
            "kind": "tournament",
            "play": "table",
            "name": "Pairs round robin",
            "variant": "chickenfoot",
            "options": {"rounds": 4},
            "table_size": 2,
            "stage_count": 5,
            "pairing": "round_robin",
        },
        request_only=True,
    ),
    OpenApiExample(
        "A league season, 3 matches to rank",
        value={
            "kind": "league",
            "name": "Thursday league",
            "variant": "mexican_train",
            "table_size": 4,
            "min_matches": 3,
            "starts_on": "2025-03-01",
            "ends_on": "2025-06-30",
        },
        request_only=True,
    ),
]

COMPETITION_LIST_CREATE_POST_RESPONSES = {
    HTTPStatus.CREATED: OpenApiResponse(
        CompetitionSerializer,
        description="The new competition, open for registration.",
        examples=[
            OpenApiExample("Created", value={**TOURNAMENT_EXAMPLE, "registered": 0}),
            OpenApiExample("Created, with warnings", value=PAIRS_EXAMPLE),
        ],
    ),
    HTTPStatus.BAD_REQUEST: problem(
        "Bad input: a bad option for some table size, a bad points scheme, no stages.",
        (
            "Bad points scheme",
            problem_example(
                400,
                "invalid_competition",
                "Invalid competition",
                "Table size 4: a better place never earns fewer points.",
                problems=["Table size 4: a better place never earns fewer points."],
            ),
        ),
        (
            "Bad order of tie-breaks",
            problem_example(
                400,
                "invalid_competition",
                "Invalid competition",
                "tie_breaks names each key once; wins more than once.",
                problems=["tie_breaks names each key once; wins more than once."],
                errors={"tie_breaks": ["tie_breaks names each key once; wins more than once."]},
            ),
        ),
        (
            "Bad option",
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
    ),
    HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
    HTTPStatus.FORBIDDEN: problem(
        "Only organisers create competitions.",
        (
            "Not an organiser",
            problem_example(
                403,
                "not_organiser",
                "Not an organiser",
                "Only organisers create tournaments and leagues.",
            ),
        ),
    ),
}


def competition_detail_responses(competition_detail_serializer: Any) -> Any:
    """The answers of ``CompetitionDetailApi``, given the view's own serializer."""
    return {
        HTTPStatus.OK: OpenApiResponse(
            competition_detail_serializer,
            description="The competition and its players.",
            examples=[OpenApiExample("Registering", value=DETAIL_EXAMPLE)],
        ),
        HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
        HTTPStatus.NOT_FOUND: NOT_FOUND,
    }


COMPETITION_UPDATE_EXAMPLES = [
    OpenApiExample("Seeded by rating", value={"seeding": "rating"}, request_only=True),
    OpenApiExample(
        "Late entrants score a bye's points", value={"late_entry": "bye"}, request_only=True
    ),
    OpenApiExample(
        "The best four play a final table", value={"final_table": {"size": 4}}, request_only=True
    ),
    OpenApiExample("No final table", value={"final_table": None}, request_only=True),
    OpenApiExample("A round robin", value={"pairing": "round_robin"}, request_only=True),
    OpenApiExample(
        "Two divisions by rating",
        value={"divisions": [{"name": "Open", "min_rating": 1600}, {"name": "Club"}]},
        request_only=True,
    ),
    OpenApiExample("No divisions", value={"divisions": None}, request_only=True),
]


def competition_update_responses(competition_detail_serializer: Any) -> Any:
    """The answers of ``CompetitionDetailApi.patch``, given the view's own serializer."""
    return {
        HTTPStatus.OK: OpenApiResponse(
            competition_detail_serializer,
            description="The competition as it is now.",
            examples=[OpenApiExample("Changed", value={**DETAIL_EXAMPLE, "seeding": "rating"})],
        ),
        HTTPStatus.BAD_REQUEST: problem(
            "A value it does not take, or a field it cannot change.",
            (
                "Bad seeding",
                problem_example(
                    400,
                    "invalid",
                    "Invalid input",
                    'seeding: "elo" is not a valid choice.',
                    errors={"seeding": ['"elo" is not a valid choice.']},
                ),
            ),
            (
                "A final table too big",
                problem_example(
                    400,
                    "invalid",
                    "Invalid input",
                    "final_table: final_table's size is one of 2, 3, 4 at tables of 4; got 6.",
                    errors={
                        "final_table": [
                            "final_table's size is one of 2, 3, 4 at tables of 4; got 6."
                        ]
                    },
                ),
            ),
            (
                "A chosen division left out",
                problem_example(
                    400,
                    "invalid",
                    "Invalid input",
                    "divisions: These entrants are in a division the list no longer has, by "
                    "your choice: Ann (player 12) in Masters. Move them to a division the list "
                    "keeps first, or keep the name.",
                    errors={
                        "divisions": [
                            "These entrants are in a division the list no longer has, by your "
                            "choice: Ann (player 12) in Masters. Move them to a division the "
                            "list keeps first, or keep the name."
                        ]
                    },
                ),
            ),
        ),
        HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
        HTTPStatus.FORBIDDEN: NOT_ORGANISER,
        HTTPStatus.NOT_FOUND: NOT_FOUND,
        HTTPStatus.CONFLICT: problem(
            "Finished, late entrants scored by the rule in force, the final table seated, or "
            "(divisions) a stage seated.",
            (
                "Entered late already",
                problem_example(
                    409,
                    "competition_status",
                    "Not now",
                    "Competition 3 has late entrants scored by late_entry zero: it stays.",
                ),
            ),
            (
                "The final table is seated",
                problem_example(
                    409,
                    "competition_status",
                    "Not now",
                    "Competition 3's final table is seated: it stays as it is.",
                ),
            ),
            (
                "A stage is seated: the divisions stay",
                problem_example(
                    409,
                    "divisions_seated",
                    "Divisions seated",
                    "Competition 3 has a stage seated: its divisions stay as they are.",
                ),
            ),
        ),
    }


#: Changing a competition's rules: the operation's name, words, parameter and examples.
COMPETITION_UPDATE: dict[str, Any] = {
    "operation_id": "competition_update",
    "summary": "Change a competition's seeding, late entry, final table, pairing or divisions "
    "(organiser)",
    "description": "The organiser sets `seeding` (how stage 1 orders the field: it counts "
    "whenever stage 1 is seated or re-paired), `late_entry` (what an entrant added once "
    "stages were seated scores for each stage missed; it stays once someone has entered "
    'late) and `final_table` (`{"size": n}` or null: the best n play a final table after '
    "the last Swiss stage; it stays once the final is seated, and is not removed once the "
    "Swiss stages are over) and `pairing` (`swiss` or `round_robin` at tables of 2, 3 or 4, "
    "until stage 1 is seated) and `divisions` (as at creation, or null or [] for none, until "
    "a stage is seated: the entrants the organiser placed keep their division by name, the "
    "others join the new rating bands; a placed entrant whose division is left out is a 400). "
    "Until the competition finishes; nothing is written when a field is refused.",
    "tags": ["competitions"],
    "parameters": [COMPETITION_ID],
    "examples": COMPETITION_UPDATE_EXAMPLES,
}
