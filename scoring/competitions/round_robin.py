"""A round robin at tables of 2: every two entrants meet exactly once (docs/scoring.md, "Round
robin"). Pure functions over player ids, and the checks a competition must pass for one (at
tables of 3 and 4 the schedule is ``round_robin_groups``'s).

The circle method: the field in its order (``order``; with an odd number, a bye, ``None``,
added last) is laid out in two rows; the first player stays put and the others turn one place
each round. ``n`` players make ``n - 1`` rounds when ``n`` is even and ``n`` when it is odd (each
player sitting one of them out with a bye). Round ``r`` pairs position ``0`` with the player
the turn brought to position ``r``, and position ``i`` with position ``n - i`` around it.
Stage ``k`` plays round ``(k - 1) mod rounds``, so more stages than rounds play it again (a
double round robin at twice the rounds).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _

#: The table sizes a round robin is played at (2: this module; 3 and 4: ``round_robin_groups``).
GROUP_TABLE_SIZES = (2, 3, 4)

#: One round: its pairs (a player id, or ``None`` for the bye).
Round = list[tuple[int | None, int | None]]


def rounds_needed(players: int) -> int:
    """How many rounds a full round robin of ``players`` takes."""
    return players - 1 if players % 2 == 0 else players


def circle_rounds(order: Sequence[int]) -> list[Round]:
    """Every round of the circle method over ``order`` (the module says how)."""
    ring: list[int | None] = list(order)
    if len(ring) % 2:
        ring.append(None)
    size = len(ring)
    if size < 2:
        return []
    rounds: list[Round] = []
    for _round in range(size - 1):
        rounds.append([(ring[i], ring[size - 1 - i]) for i in range(size // 2)])
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return rounds


def stage_round(order: Sequence[int], stage: int) -> Round:
    """The pairs stage ``stage`` (1-based) plays."""
    rounds = circle_rounds(order)
    return rounds[(stage - 1) % len(rounds)] if rounds else []


def seat_round(pairs: Round, present: set[int]) -> tuple[list[list[int | None]], list[int]]:
    """The tables and byes of a round for the players ``present`` (in the stage's field): a
    pair both present plays; a player whose opponent is the bye, or is absent (dropped out, not
    checked in), has a bye; a pair neither of whom is present is no table."""
    tables: list[list[int | None]] = []
    byes: list[int] = []
    for a, b in pairs:
        here = [p for p in (a, b) if p is not None and p in present]
        if len(here) == 2:
            tables.append(list(here))
        elif here:
            byes.append(here[0])
    return tables, byes


def pairing_problems(values: Mapping[str, Any]) -> list[str]:
    """What keeps a competition of ``values`` from a round robin (``pairing: round_robin``):
    a league, tables of more than 4, bots filling tables."""
    if values.get("pairing") != "round_robin":
        return []
    if values.get("kind") == "league":
        return [_("A league has no stages to pair: leave pairing out.")]
    problems = []
    if "table_size" in values and values["table_size"] not in GROUP_TABLE_SIZES:
        problems.append(
            _("A round robin is played at tables of 2, 3 or 4: table_size must be one of them.")
        )
    if values.get("allow_bots"):
        problems.append(_("A round robin seats no bots: an odd field has a bye each stage."))
    return problems


def schedule_order(player_ids: Sequence[int], seed: str) -> list[int]:
    """The field in the schedule's order: by player id, shuffled with the competition's
    seed (the same field and seed give the same schedule at every stage)."""
    order = sorted(player_ids)
    random.Random(f"{seed}:round_robin").shuffle(order)
    return order
