"""A round's scores entered at a table (real tiles, no deal), checked against the rules.

The server saw nothing of the round, so only the rules a score sheet can break are checked:
C-PIPS (points are never negative; a hand's tiles are summed, the double blank at the match's
``double_blank_points``), C-SET (tiles of the set, each in one hand at most, no more points than
the set holds), C-ROUNDS (rounds in order, the round's start double in no hand), C-SEATS (one
entry per seat) and CF-SCORE / MT-SCORE (at most one seat went out, and it scores 0).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import EngineError
from .options import CHICKENFOOT
from .text import N_
from .tiles import Tile, full_set, hand_points, pips, tile


class ScoreSheetError(EngineError):
    """A round's entered scores that break a rule: every bad entry at once, by field
    (``scores.2.points``), with the rule each broke (``rules``). The API answers 422."""

    status = 422
    code = "invalid_scores"
    title = N_("Invalid scores")


@dataclass(frozen=True)
class TableRound:
    """A round's checked scores: points per seat, who went out (``None``: nobody, the round
    was blocked) and the hand each seat gave as tiles (``None`` where points were given)."""

    scores: list[int]
    went_out: int | None
    hands: list[list[Tile] | None]


def start_double(options: dict[str, Any], number: int) -> int:
    """The start double of round ``number`` (C-ROUNDS: N, N-1, ... from round 1)."""
    return options["max_pip"] - (number - 1)


def most_points(options: dict[str, Any], number: int) -> int:
    """The most points the set's tiles can make in round ``number``: every tile but the start
    double (C-SET, C-PIPS)."""
    double = start_double(options, number)
    points = options["double_blank_points"]
    return sum(pips(t, points) for t in full_set(options["max_pip"]) if t != (double, double))


def table_round_check(
    *,
    variant: str,
    options: dict[str, Any],
    seat_count: int,
    number: int,
    rounds_done: int,
    entries: list[dict[str, Any]],
) -> TableRound:
    """Check round ``number``'s entries (each ``{"seat", "points" or "tiles", "went_out"}``,
    well-formed) and return the round's scores in seat order; raise ``ScoreSheetError`` naming
    every bad entry. ``rounds_done`` is how many rounds are already scored."""
    errors: dict[str, list[str]] = {}
    rules: dict[str, str] = {}
    score_rule = "CF-SCORE" if variant == CHICKENFOOT else "MT-SCORE"

    def refuse(name: str, rule: str, message: str) -> None:
        errors.setdefault(name, []).append(message)
        rules.setdefault(name, rule)

    if number != rounds_done + 1:
        refuse(
            "round",
            "C-ROUNDS",
            N_(
                "Round %(next)s is the next to score, not round %(number)s.",
                next=rounds_done + 1,
                number=number,
            )
            if number <= options["rounds"]
            else N_(
                "This match plays %(rounds)s rounds; there is no round %(number)s.",
                rounds=options["rounds"],
                number=number,
            ),
        )
    if len(entries) != seat_count:
        refuse(
            "scores",
            "C-SEATS",
            N_(
                "Send one entry for each of the %(seats)s seats; got %(count)s.",
                seats=seat_count,
                count=len(entries),
            ),
        )
    max_pip = options["max_pip"]
    double = start_double(options, number) if 1 <= number <= options["rounds"] else None
    highest = most_points(options, number) if double is not None else None
    blank_points = options["double_blank_points"]
    seen_seats: set[int] = set()
    held: dict[Tile, int] = {}  # tile -> the seat holding it
    scores: dict[int, int] = {}
    hands: dict[int, list[Tile] | None] = {}
    went_out: list[int] = []
    for index, entry in enumerate(entries):
        seat = entry["seat"]
        field = f"scores.{index}"
        if not 0 <= seat < seat_count:
            refuse(
                f"{field}.seat",
                "C-SEATS",
                N_(
                    "This match has seats 0 to %(last)s; got seat %(seat)s.",
                    last=seat_count - 1,
                    seat=seat,
                ),
            )
            continue
        if seat in seen_seats:
            refuse(f"{field}.seat", "C-SEATS", N_("Seat %(seat)s has an entry already.", seat=seat))
            continue
        seen_seats.add(seat)
        hand: list[Tile] | None = None
        if entry.get("tiles") is not None:
            hand = []
            for position, value in enumerate(entry["tiles"]):
                name = f"{field}.tiles.{position}"
                a, b = value
                if not (0 <= a <= max_pip and 0 <= b <= max_pip):
                    refuse(
                        name,
                        "C-SET",
                        N_(
                            "Seat %(seat)s: %(tile)s is not in a double-%(max_pip)s set.",
                            seat=seat,
                            tile=f"{a}|{b}",
                            max_pip=max_pip,
                        ),
                    )
                    continue
                found = tile(a, b)
                if double is not None and found == (double, double):
                    refuse(
                        name,
                        "C-ROUNDS",
                        N_(
                            "Seat %(seat)s: %(tile)s started round %(number)s; it is in no hand.",
                            seat=seat,
                            tile=f"{double}|{double}",
                            number=number,
                        ),
                    )
                    continue
                if found in held:
                    other = held[found]
                    refuse(
                        name,
                        "C-SET",
                        N_(
                            "Seat %(seat)s: %(tile)s is in seat %(other)s's hand too; "
                            "a set has one.",
                            seat=seat,
                            tile=f"{a}|{b}",
                            other=other,
                        )
                        if other != seat
                        else N_(
                            "Seat %(seat)s: %(tile)s is twice in this hand; a set has one.",
                            seat=seat,
                            tile=f"{a}|{b}",
                        ),
                    )
                    continue
                held[found] = seat
                hand.append(found)
            points = hand_points(hand, blank_points)
            points_field = f"{field}.tiles"
        else:
            points = entry["points"]
            points_field = f"{field}.points"
            if points < 0:
                refuse(
                    points_field,
                    "C-PIPS",
                    N_("Seat %(seat)s: points are never negative.", seat=seat),
                )
            elif highest is not None and points > highest:
                refuse(
                    points_field,
                    "C-SET",
                    N_(
                        "Seat %(seat)s: %(points)s points is more than a double-%(max_pip)s "
                        "set's tiles make in round %(number)s (%(highest)s).",
                        seat=seat,
                        points=points,
                        max_pip=max_pip,
                        number=number,
                        highest=highest,
                    ),
                )
        if entry.get("went_out"):
            if went_out:
                refuse(
                    f"{field}.went_out",
                    score_rule,
                    N_(
                        "Seat %(seat)s: seat %(other)s went out already; one seat goes out.",
                        seat=seat,
                        other=went_out[0],
                    ),
                )
            went_out.append(seat)
            if points != 0:
                refuse(
                    points_field,
                    score_rule,
                    N_(
                        "Seat %(seat)s went out: it holds no tile and scores 0, not %(points)s.",
                        seat=seat,
                        points=points,
                    ),
                )
        scores[seat] = points
        hands[seat] = hand
    if highest is not None and not errors and sum(scores.values()) > highest:
        refuse(
            "scores",
            "C-SET",
            N_(
                "The seats' points add up to %(total)s, more than a double-%(max_pip)s "
                "set's tiles make in round %(number)s (%(highest)s).",
                total=sum(scores.values()),
                max_pip=max_pip,
                number=number,
                highest=highest,
            ),
        )
    if errors:
        first = next(iter(errors.values()))[0]
        detail = (
            first
            if len(errors) == 1
            else N_("%(count)s entries break a rule: %(first)s", count=len(errors), first=first)
        )
        raise ScoreSheetError(detail, rule=next(iter(rules.values())), errors=errors, rules=rules)
    return TableRound(
        scores=[scores[seat] for seat in range(seat_count)],
        went_out=went_out[0] if went_out else None,
        hands=[hands[seat] for seat in range(seat_count)],
    )
