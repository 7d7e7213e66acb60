"""House options (docs/rules.md §4), player counts and deal sizes.

Covers CF-PLAYERS, CF-DEAL, MT-PLAYERS and MT-DEAL.

``resolve_options`` validates what a match creator sends and fills in every default, so the
rest of the engine reads a complete, trusted ``dict``.
"""

from __future__ import annotations

import math
from typing import Any

from .errors import OptionError
from .tiles import SUPPORTED_MAX_PIPS, set_size

CHICKENFOOT = "chickenfoot"
MEXICAN_TRAIN = "mexican_train"
VARIANTS = (CHICKENFOOT, MEXICAN_TRAIN)

COMMON_OPTIONS = (
    "max_pip",
    "hand_size",
    "rounds",
    "double_blank_points",
    "turn_seconds",
    "timeouts_to_takeover",
)
VARIANT_OPTIONS: dict[str, tuple[str, ...]] = {
    CHICKENFOOT: (*COMMON_OPTIONS, "spinner_arms", "must_play_drawn", "release_dead_foot"),
    MEXICAN_TRAIN: (*COMMON_OPTIONS, "close_doubles_reverse", "satisfy_own_double", "open_hands"),
}
BOOL_DEFAULTS: dict[str, bool] = {
    "must_play_drawn": False,
    "release_dead_foot": True,
    "close_doubles_reverse": False,
    "satisfy_own_double": False,
    "open_hands": False,
}

#: CF-PLAYERS: "2 or more"; the most a set can seat is bounded by its deal (CF-DEAL).
CF_MIN_SEATS = 2
#: MT-PLAYERS: seat range per set.
MT_SEATS: dict[int, tuple[int, int]] = {9: (2, 4), 12: (2, 8), 15: (9, 12), 18: (9, 12)}
#: CF-DEAL: the published double-9 table.
CF_DEAL_D9: dict[int, int] = {2: 21, 3: 14, 4: 11, 5: 8, 6: 7}
#: CF-DEAL: the chicken yard other sets keep.
CF_YARD = 13
#: MT-DEAL tables.
MT_DEAL: dict[int, dict[int, int]] = {
    12: {2: 16, 3: 16, 4: 15, 5: 14, 6: 12, 7: 10, 8: 9},
    9: {2: 15, 3: 13, 4: 10},
}


def default_max_pip(variant: str, seats: int) -> int:
    """The default set for a seat count (CF-PLAYERS / MT-PLAYERS)."""
    if variant == CHICKENFOOT:
        for top, limit in ((9, 6), (12, 10), (15, 15)):
            if seats <= limit:
                return top
        return 18  # 16-22 by the table; beyond it the largest set, as far as it can deal
    if seats <= 8:
        return 12
    if seats <= 12:
        return 15
    raise OptionError(f"Mexican Train supports 2 to 12 players; got {seats}.", rule="MT-PLAYERS")


def default_hand_size(variant: str, max_pip: int, seats: int) -> int:
    """The deal size when the ``hand_size`` option is not set (CF-DEAL / MT-DEAL)."""
    tiles = set_size(max_pip)
    if variant == CHICKENFOOT:
        if max_pip == 9 and seats in CF_DEAL_D9:
            return CF_DEAL_D9[seats]
        return (tiles - CF_YARD) // seats
    table = MT_DEAL.get(max_pip)
    if table is not None and seats in table:
        return table[seats]
    return math.floor(0.8 * (tiles - 1) / seats)


def _check_seats(variant: str, seats: int, max_pip: int) -> None:
    if variant == CHICKENFOOT:
        if seats < CF_MIN_SEATS:
            raise OptionError(
                f"Chicken Foot needs at least {CF_MIN_SEATS} players; got {seats}.",
                rule="CF-PLAYERS",
            )
        if (set_size(max_pip) - CF_YARD) // seats < 1:
            raise OptionError(
                f"A double-{max_pip} set cannot deal {seats} players a hand and keep a chicken"
                " yard; choose a bigger set or fewer players.",
                rule="CF-PLAYERS",
            )
        return
    if max_pip not in MT_SEATS:
        raise OptionError(
            "Mexican Train is played with a double-9, -12, -15 or -18 set.", rule="MT-PLAYERS"
        )
    low, high = MT_SEATS[max_pip]
    if not low <= seats <= high:
        raise OptionError(
            f"Mexican Train on a double-{max_pip} set takes {low} to {high} players; got {seats}.",
            rule="MT-PLAYERS",
        )


def _int_option(options: dict[str, Any], name: str) -> int | None:
    if name not in options or options[name] is None:
        return None
    value = options[name]
    if isinstance(value, bool) or not isinstance(value, int):
        raise OptionError(f"Option {name!r} must be an integer; got {value!r}.")
    return value


#: Unknown option names an error lists (the rest are counted), and the characters shown of each.
UNKNOWN_LISTED = 10
_NAME_SHOWN = 40


def _shown(name: str) -> str:
    return name if len(name) <= _NAME_SHOWN else name[:_NAME_SHOWN] + "…"


def resolve_options(
    variant: str, seats: int, options: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Validate house options and return them complete, every default filled in.

    Raises ``OptionError`` (the API answers 400) for an unknown variant or option, a bad value,
    or a seat count the set cannot seat.
    """
    if variant not in VARIANTS:
        raise OptionError(f"Unknown game {variant!r}; choose one of {', '.join(VARIANTS)}.")
    options = dict(options or {})
    if not isinstance(seats, int) or isinstance(seats, bool) or seats < 2:
        raise OptionError(
            f"A game needs at least 2 players; got {seats!r}.",
            rule="CF-PLAYERS" if variant == CHICKENFOOT else "MT-PLAYERS",
        )
    allowed = VARIANT_OPTIONS[variant]
    unknown = sorted(set(options) - set(allowed))
    if unknown:
        listed = ", ".join(_shown(name) for name in unknown[:UNKNOWN_LISTED])
        if len(unknown) > UNKNOWN_LISTED:
            listed += f" and {len(unknown) - UNKNOWN_LISTED:,} more"
        raise OptionError(
            f"Unknown option(s) for {variant}: {listed}. "
            f"Known options: {', '.join(allowed)} (docs/rules.md §4 describes each)."
        )

    max_pip = _int_option(options, "max_pip")
    if max_pip is None:
        max_pip = default_max_pip(variant, seats)
    elif max_pip not in SUPPORTED_MAX_PIPS:
        raise OptionError(
            f"Option 'max_pip' must be one of {', '.join(map(str, SUPPORTED_MAX_PIPS))};"
            f" got {max_pip}.",
            rule="C-SET",
        )
    _check_seats(variant, seats, max_pip)

    tiles = set_size(max_pip)
    in_deal = tiles - (1 if variant == MEXICAN_TRAIN else 0)  # MT-ENGINE: the engine is in no hand
    hand_size = _int_option(options, "hand_size")
    deal_rule = "CF-DEAL" if variant == CHICKENFOOT else "MT-DEAL"
    if hand_size is None:
        hand_size = default_hand_size(variant, max_pip, seats)
    elif hand_size < 1:
        raise OptionError(
            f"Option 'hand_size' must be at least 1; got {hand_size}.", rule=deal_rule
        )
    if hand_size < 1 or seats * hand_size >= in_deal:
        raise OptionError(
            f"{seats} hands of {hand_size} from a double-{max_pip} set leave no boneyard.",
            rule=deal_rule,
        )

    rounds = _int_option(options, "rounds")
    if rounds is None:
        rounds = max_pip + 1
    elif not 1 <= rounds <= max_pip + 1:
        raise OptionError(
            f"Option 'rounds' must be 1 to {max_pip + 1} for a double-{max_pip} set; got {rounds}.",
            rule="C-ROUNDS",
        )

    double_blank = _int_option(options, "double_blank_points")
    if double_blank is None:
        double_blank = 50
    elif not 0 <= double_blank <= 100:
        raise OptionError(
            f"Option 'double_blank_points' must be 0 to 100; got {double_blank}.", rule="C-PIPS"
        )

    resolved: dict[str, Any] = {
        "max_pip": max_pip,
        "hand_size": hand_size,
        "rounds": rounds,
        "double_blank_points": double_blank,
        **_clock_options(options),
    }
    if variant == CHICKENFOOT:
        arms = _int_option(options, "spinner_arms")
        if arms is None:
            arms = 4
        elif arms not in (4, 6):
            raise OptionError(
                f"Option 'spinner_arms' must be 4 or 6; got {arms}.", rule="CF-SPINNER"
            )
        resolved["spinner_arms"] = arms
    for name in allowed:
        if name in BOOL_DEFAULTS:
            value = options.get(name)
            if value is None:
                value = BOOL_DEFAULTS[name]
            elif not isinstance(value, bool):
                raise OptionError(f"Option {name!r} must be true or false; got {value!r}.")
            resolved[name] = value
    return resolved


#: Turn clocks: the longest a clock may run, and the default number of timeouts in a row after
#: which a bot takes the seat over.
MAX_TURN_SECONDS = 7 * 24 * 3600
DEFAULT_TIMEOUTS_TO_TAKEOVER = 3


def _clock_options(options: dict[str, Any]) -> dict[str, Any]:
    """``turn_seconds`` (off: ``None``) and ``timeouts_to_takeover`` (1 to 100, default 3).

    They change no rule: the server plays a human's turn when their clock runs out (the level-2
    bot's choice), and a bot takes the seat over after that many timeouts in a row.
    """
    seconds = _int_option(options, "turn_seconds")
    if seconds is not None and not 1 <= seconds <= MAX_TURN_SECONDS:
        raise OptionError(
            f"Option 'turn_seconds' must be 1 to {MAX_TURN_SECONDS} (or null: no clock); "
            f"got {seconds}."
        )
    limit = _int_option(options, "timeouts_to_takeover")
    if limit is None:
        limit = DEFAULT_TIMEOUTS_TO_TAKEOVER
    elif not 1 <= limit <= 100:
        raise OptionError(f"Option 'timeouts_to_takeover' must be 1 to 100; got {limit}.")
    return {"turn_seconds": seconds, "timeouts_to_takeover": limit}


def round_doubles(options: dict[str, Any]) -> list[int]:
    """The start double of each round, high to low (C-ROUNDS): N, N-1, ... for ``rounds`` rounds."""
    top = options["max_pip"]
    return [top - i for i in range(options["rounds"])]
