"""OpenAPI examples of requests with several bad fields: every one is answered at once.

Each is built by the code that answers it (the engine's option and move checks, the seat
checks, the problem renderer), so it shows what the API sends. ``games.api.schema_hooks`` adds
them to their operations' responses, beside the examples the views declare.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from chickenfoot.problems import InvalidInput, problem_from_exception
from games import engine
from games.problems import MalformedMoveBody
from games.services.matches import CREATOR, SeatSpec, seat_errors, seats_refused
from games.tables.options import table_options_resolve

INTEGER_REQUIRED = "A valid integer is required."


def _body(error: Exception) -> dict[str, Any]:
    problem = problem_from_exception(error)
    if problem is None:  # pragma: no cover - every error here is a problem
        raise TypeError(error)
    return problem.as_dict()


def _option_error(options: dict[str, Any], seats: int = 3) -> engine.OptionError:
    try:
        engine.resolve_options(engine.CHICKENFOOT, seats, options)
    except engine.OptionError as error:
        return error
    raise AssertionError(options)  # pragma: no cover - the options are bad


def _table_options() -> dict[str, Any]:
    try:
        table_options_resolve(
            variant=engine.CHICKENFOOT, seat_count=3, options={"spinner_arms": 6, "rounds": 99}
        )
    except engine.OptionError as error:
        return _body(error)
    raise AssertionError("refused")  # pragma: no cover - the options are bad


def _several_options() -> dict[str, Any]:
    return _body(_option_error({"spinner_arms": 5, "rounds": 99, "speed": 2}))


def _seats_and_options() -> dict[str, Any]:
    seats = [SeatSpec(kind=CREATOR), SeatSpec(kind="bot"), SeatSpec(kind=CREATOR)]
    return _body(seats_refused(seat_errors(seats=seats), _option_error({"spinner_arms": 5})))


def _move() -> dict[str, Any]:
    refused = engine.move_error({"kind": "play", "tile": [3, 12], "target": "arm:0"}, 9)
    errors = {"version": [INTEGER_REQUIRED], **(refused.errors if refused else {})}
    return _body(MalformedMoveBody(errors, rules=refused.rules if refused else None))


def _history() -> dict[str, Any]:
    unknown = (
        "Unknown query parameter. Known ones: competition, cursor, finished_after, "
        "finished_before, opponent, page_size, place, status, variant."
    )
    return _body(
        InvalidInput(
            {
                "varaint": [unknown],
                "place": [_("Enter a whole number.")],
                "page_size": [_("A whole number from 1 up is required.")],
            }
        )
    )


#: By operation id and status: (example name, the problem document).
EXAMPLES: dict[tuple[str, int], list[tuple[str, dict[str, Any]]]] = {
    ("match_create", 400): [
        ("Several bad options", _several_options()),
        ("Options that mean nothing at a table", _table_options()),
        ("Bad seats and a bad option", _seats_and_options()),
    ],
    ("move_submit", 400): [("A bad tile and a bad version", _move())],
    ("player_history", 400): [("Several bad parameters", _history())],
}
