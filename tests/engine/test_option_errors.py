"""House options are checked every one at once: one ``OptionError`` names each bad field, the
rule each broke, and skips a check that needs an option that is itself wrong (docs/errors.md)."""

from __future__ import annotations

import pytest

from games.engine import CHICKENFOOT, MEXICAN_TRAIN, resolve_options
from games.engine.errors import MalformedMove, OptionError
from games.engine.moves import move_error, parse_move


def refused(variant: str, seats: int, options: dict[str, object]) -> OptionError:
    with pytest.raises(OptionError) as info:
        resolve_options(variant, seats, options)
    return info.value


def test_every_bad_option_is_named_with_its_rule() -> None:
    error = refused(
        CHICKENFOOT,
        3,
        {"spinner_arms": 5, "rounds": 99, "double_blank_points": -1, "turn_seconds": "10"},
    )

    assert error.errors is not None
    assert set(error.errors) == {
        "options.spinner_arms",
        "options.rounds",
        "options.double_blank_points",
        "options.turn_seconds",
    }
    assert error.rules == {
        "options.spinner_arms": "CF-SPINNER",
        "options.rounds": "C-ROUNDS",
        "options.double_blank_points": "C-PIPS",
    }
    assert error.rule == "C-ROUNDS"  # the first rule broken, in the order options are checked
    assert error.detail.startswith("Several house options are wrong: ")


def test_one_bad_option_is_answered_as_before() -> None:
    error = refused(CHICKENFOOT, 3, {"spinner_arms": 5})

    assert error.detail == "Option 'spinner_arms' must be 4 or 6; got 5."
    assert error.rule == "CF-SPINNER"
    assert error.errors == {"options.spinner_arms": [error.detail]}


def test_a_check_that_needs_a_bad_option_is_left_out() -> None:
    # rounds is checked against max_pip; max_pip is wrong, so only its type is
    error = refused(CHICKENFOOT, 3, {"max_pip": 7, "rounds": 99, "hand_size": "many"})

    assert error.errors is not None
    assert set(error.errors) == {"options.max_pip", "options.hand_size"}
    assert error.rules == {"options.max_pip": "C-SET"}


def test_unknown_options_and_a_seat_count_are_fields_too() -> None:
    error = refused(MEXICAN_TRAIN, 13, {"speed": 1, "open_hands": "yes"})

    assert error.errors is not None
    assert set(error.errors) == {"options.speed", "seats", "options.open_hands"}
    assert error.rules == {"seats": "MT-PLAYERS"}


def test_the_defaults_still_fill_in_when_nothing_is_wrong() -> None:
    options = resolve_options(CHICKENFOOT, 3, {"spinner_arms": 6, "turn_seconds": 30})

    assert (options["spinner_arms"], options["max_pip"], options["rounds"]) == (6, 9, 10)
    assert options["turn_seconds"] == 30


def test_a_play_names_its_bad_tile_and_its_missing_target_at_once() -> None:
    with pytest.raises(MalformedMove) as info:
        parse_move({"kind": "play", "tile": [1, 12]}, 9)

    assert info.value.errors is not None
    assert set(info.value.errors) == {"tile", "target"}
    assert info.value.rules == {"tile": "C-SET"}
    assert info.value.rule == "C-SET"


def test_move_error_is_none_for_a_good_move() -> None:
    assert move_error({"kind": "play", "tile": [1, 2], "target": "arm:0"}, 9) is None
    refused_draw = move_error({"kind": "draw", "tile": [1, 2], "target": "arm:0"}, 9)
    assert refused_draw is not None
    assert set(refused_draw.errors or {}) == {"tile", "target"}


def test_errors_combined_name_a_message_once() -> None:
    at_two = refused(CHICKENFOOT, 2, {"spinner_arms": 5})
    at_eight = refused(CHICKENFOOT, 8, {"spinner_arms": 5, "hand_size": 30})

    combined = OptionError.combined([at_two, at_eight])

    assert combined.errors is not None
    assert combined.errors["options.spinner_arms"] == [at_two.detail]
    assert set(combined.errors) == {"options.spinner_arms", "options.hand_size"}
    assert combined.rules == {"options.spinner_arms": "CF-SPINNER", "options.hand_size": "CF-DEAL"}
