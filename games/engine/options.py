"""House options (docs/rules.md §4), player counts and deal sizes.

Covers CF-PLAYERS, CF-DEAL, MT-PLAYERS and MT-DEAL.

``resolve_options`` validates what a match creator sends and fills in every default, so the
rest of the engine reads a complete, trusted ``dict``.
"""

from __future__ import annotations

import math
from typing import Any

from games.engine.text import N_, joined

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
    raise OptionError(
        N_("Mexican Train supports 2 to 12 players; got %(seats)s.", seats=seats),
        rule="MT-PLAYERS",
        field="seats",
    )


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


def _check_seats(variant: str, seats: int, max_pip: int) -> OptionError | None:
    if variant == CHICKENFOOT:
        if seats < CF_MIN_SEATS:
            return OptionError(
                N_(
                    "Chicken Foot needs at least %(least)s players; got %(seats)s.",
                    least=CF_MIN_SEATS,
                    seats=seats,
                ),
                rule="CF-PLAYERS",
                field="seats",
            )
        if (set_size(max_pip) - CF_YARD) // seats < 1:
            return OptionError(
                N_(
                    "A double-%(max_pip)s set cannot deal %(seats)s players a hand "
                    "and keep a chicken yard; choose a bigger set or fewer "
                    "players.",
                    max_pip=max_pip,
                    seats=seats,
                ),
                rule="CF-PLAYERS",
                field="seats",
            )
        return None
    if max_pip not in MT_SEATS:
        return OptionError(
            N_("Mexican Train is played with a double-9, -12, -15 or -18 set."),
            rule="MT-PLAYERS",
            field="options.max_pip",
        )
    low, high = MT_SEATS[max_pip]
    if not low <= seats <= high:
        return OptionError(
            N_(
                "Mexican Train on a double-%(max_pip)s set takes %(low)s to "
                "%(high)s players; got %(seats)s.",
                max_pip=max_pip,
                low=low,
                high=high,
                seats=seats,
            ),
            rule="MT-PLAYERS",
            field="seats",
        )
    return None


class _Found:
    """The option errors found so far: every option is checked, then all are raised at once."""

    def __init__(self) -> None:
        self.errors: list[OptionError] = []

    def add(self, error: OptionError | None) -> None:
        if error is not None:
            self.errors.append(error)

    def int_option(self, options: dict[str, Any], name: str) -> int | None:
        """The option's integer, or ``None`` when it is not set or not an integer (found)."""
        try:
            return _int_option(options, name)
        except OptionError as error:
            self.add(error)
            return None

    def raise_any(self) -> None:
        if self.errors:
            raise OptionError.combined(self.errors)


def _int_option(options: dict[str, Any], name: str) -> int | None:
    if name not in options or options[name] is None:
        return None
    value = options[name]
    if isinstance(value, bool) or not isinstance(value, int):
        raise OptionError(
            N_("Option %(name)r must be an integer; got %(value)r.", name=name, value=value),
            field=f"options.{name}",
        )
    return value


#: Unknown option names an error lists (the rest are counted), and the characters shown of each.
UNKNOWN_LISTED = 10
_NAME_SHOWN = 40


def _shown(name: str) -> str:
    return name if len(name) <= _NAME_SHOWN else name[:_NAME_SHOWN] + "…"


def _unknown_options(variant: str, options: dict[str, Any]) -> OptionError | None:
    """Options ``variant`` does not have: one error, each name a field of it (the first
    ``UNKNOWN_LISTED``, and a count of the rest under ``options``)."""
    allowed = VARIANT_OPTIONS[variant]
    unknown = sorted(set(options) - set(allowed))
    if not unknown:
        return None
    listed = ", ".join(_shown(name) for name in unknown[:UNKNOWN_LISTED])
    more = f"{len(unknown) - UNKNOWN_LISTED:,}"
    unknown_text = (
        N_(
            "Unknown option(s) for %(variant)s: %(listed)s and %(more)s more.",
            variant=variant,
            listed=listed,
            more=more,
        )
        if len(unknown) > UNKNOWN_LISTED
        else N_("Unknown option(s) for %(variant)s: %(listed)s.", variant=variant, listed=listed)
    )
    known = N_(
        "Known options: %(options)s (docs/rules.md §4 describes each).",
        options=", ".join(allowed),
    )
    errors: dict[str, list[str]] = {
        f"options.{_shown(name)}": [N_("Unknown option.")] for name in unknown[:UNKNOWN_LISTED]
    }
    if len(unknown) > UNKNOWN_LISTED:
        errors["options"] = [N_("And %(more)s more unknown options.", more=more)]
    return OptionError(joined([unknown_text, known]), errors=errors)


def resolve_options(
    variant: str, seats: int, options: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Validate house options and return them complete, every default filled in.

    Raises ``OptionError`` (the API answers 400) for an unknown variant or option, a bad value,
    or a seat count the set cannot seat: one error naming every field that is wrong (its
    ``errors``, and the rule each broke in its ``rules``). A check that needs another option
    (``rounds`` needs ``max_pip``) is skipped while that one is wrong.
    """
    if variant not in VARIANTS:
        raise OptionError(
            N_(
                "Unknown game %(variant)r; choose one of %(variants)s.",
                variant=variant,
                variants=", ".join(VARIANTS),
            ),
            field="variant",
        )
    options = dict(options or {})
    found = _Found()
    seats_known = isinstance(seats, int) and not isinstance(seats, bool) and seats >= 2
    if not seats_known:
        found.add(
            OptionError(
                N_("A game needs at least 2 players; got %(seats)r.", seats=seats),
                rule="CF-PLAYERS" if variant == CHICKENFOOT else "MT-PLAYERS",
                field="seats",
            )
        )
    allowed = VARIANT_OPTIONS[variant]
    found.add(_unknown_options(variant, options))

    max_pip: int | None = found.int_option(options, "max_pip")
    if max_pip is None and "max_pip" not in _fields(found) and seats_known:
        try:
            max_pip = default_max_pip(variant, seats)
        except OptionError as error:
            found.add(error)
    elif max_pip is not None and max_pip not in SUPPORTED_MAX_PIPS:
        found.add(
            OptionError(
                N_(
                    "Option 'max_pip' must be one of %(sizes)s; got %(max_pip)s.",
                    sizes=", ".join(map(str, SUPPORTED_MAX_PIPS)),
                    max_pip=max_pip,
                ),
                rule="C-SET",
                field="options.max_pip",
            )
        )
        max_pip = None
    if max_pip is not None and seats_known:
        seat_error = _check_seats(variant, seats, max_pip)
        found.add(seat_error)
        if seat_error is not None:
            seats_known = False

    hand_size = found.int_option(options, "hand_size")
    deal_rule = "CF-DEAL" if variant == CHICKENFOOT else "MT-DEAL"
    if hand_size is not None and hand_size < 1:
        found.add(
            OptionError(
                N_(
                    "Option 'hand_size' must be at least 1; got %(hand_size)s.", hand_size=hand_size
                ),
                rule=deal_rule,
                field="options.hand_size",
            )
        )
    elif max_pip is not None and seats_known and "hand_size" not in _fields(found):
        # MT-ENGINE: the engine is in no hand
        in_deal = set_size(max_pip) - (1 if variant == MEXICAN_TRAIN else 0)
        if hand_size is None:
            hand_size = default_hand_size(variant, max_pip, seats)
        if hand_size < 1 or seats * hand_size >= in_deal:
            found.add(
                OptionError(
                    N_(
                        "%(seats)s hands of %(hand_size)s from a double-%(max_pip)s "
                        "set leave no boneyard.",
                        seats=seats,
                        hand_size=hand_size,
                        max_pip=max_pip,
                    ),
                    rule=deal_rule,
                    field="seats" if options.get("hand_size") is None else "options.hand_size",
                )
            )

    rounds = found.int_option(options, "rounds")
    if rounds is not None and max_pip is not None and not 1 <= rounds <= max_pip + 1:
        found.add(
            OptionError(
                N_(
                    "Option 'rounds' must be 1 to %(most)s for a "
                    "double-%(max_pip)s set; got %(rounds)s.",
                    most=max_pip + 1,
                    max_pip=max_pip,
                    rounds=rounds,
                ),
                rule="C-ROUNDS",
                field="options.rounds",
            )
        )

    double_blank = found.int_option(options, "double_blank_points")
    if double_blank is None:
        double_blank = 50
    elif not 0 <= double_blank <= 100:
        found.add(
            OptionError(
                N_(
                    "Option 'double_blank_points' must be 0 to 100; got %(double_blank)s.",
                    double_blank=double_blank,
                ),
                rule="C-PIPS",
                field="options.double_blank_points",
            )
        )

    clock = _clock_options(options, found)
    arms = 4
    if variant == CHICKENFOOT:
        chosen = found.int_option(options, "spinner_arms")
        arms = 4 if chosen is None else chosen
        if arms not in (4, 6):
            found.add(
                OptionError(
                    N_("Option 'spinner_arms' must be 4 or 6; got %(arms)s.", arms=arms),
                    rule="CF-SPINNER",
                    field="options.spinner_arms",
                )
            )
    flags: dict[str, bool] = {}
    for name in allowed:
        if name in BOOL_DEFAULTS:
            value = options.get(name)
            if value is None:
                value = BOOL_DEFAULTS[name]
            elif not isinstance(value, bool):
                found.add(
                    OptionError(
                        N_(
                            "Option %(name)r must be true or false; got %(value)r.",
                            name=name,
                            value=value,
                        ),
                        field=f"options.{name}",
                    )
                )
            flags[name] = value
    found.raise_any()
    # no error found: the set and the deal are known
    assert max_pip is not None  # noqa: S101
    assert hand_size is not None  # noqa: S101
    resolved: dict[str, Any] = {
        "max_pip": max_pip,
        "hand_size": hand_size,
        "rounds": max_pip + 1 if rounds is None else rounds,
        "double_blank_points": double_blank,
        **clock,
    }
    if variant == CHICKENFOOT:
        resolved["spinner_arms"] = arms
    resolved.update(flags)
    return resolved


def _fields(found: _Found) -> set[str]:
    """The option names ``found`` has an error for."""
    return {
        name.removeprefix("options.") for error in found.errors for name in (error.errors or {})
    }


#: Turn clocks: the longest a clock may run, and the default number of timeouts in a row after
#: which a bot takes the seat over.
MAX_TURN_SECONDS = 7 * 24 * 3600
DEFAULT_TIMEOUTS_TO_TAKEOVER = 3


def _clock_options(options: dict[str, Any], found: _Found) -> dict[str, Any]:
    """``turn_seconds`` (off: ``None``) and ``timeouts_to_takeover`` (1 to 100, default 3).

    They change no rule: the server plays a human's turn when their clock runs out (the level-2
    bot's choice), and a bot takes the seat over after that many timeouts in a row.
    """
    seconds = found.int_option(options, "turn_seconds")
    if seconds is not None and not 1 <= seconds <= MAX_TURN_SECONDS:
        found.add(
            OptionError(
                N_(
                    "Option 'turn_seconds' must be 1 to %(max_turn_seconds)s (or "
                    "null: no clock); got %(seconds)s.",
                    max_turn_seconds=MAX_TURN_SECONDS,
                    seconds=seconds,
                ),
                field="options.turn_seconds",
            )
        )
    limit = found.int_option(options, "timeouts_to_takeover")
    if limit is None:
        limit = DEFAULT_TIMEOUTS_TO_TAKEOVER
    elif not 1 <= limit <= 100:
        found.add(
            OptionError(
                N_("Option 'timeouts_to_takeover' must be 1 to 100; got %(limit)s.", limit=limit),
                field="options.timeouts_to_takeover",
            )
        )
    return {"turn_seconds": seconds, "timeouts_to_takeover": limit}


def round_doubles(options: dict[str, Any]) -> list[int]:
    """The start double of each round, high to low (C-ROUNDS): N, N-1, ... for ``rounds`` rounds."""
    top = options["max_pip"]
    return [top - i for i in range(options["rounds"])]
