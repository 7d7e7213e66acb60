"""Round start (C-ROUNDS, C-SHUFFLE, CF-DEAL, CF-START) and round end (CF-END, CF-SCORE, C-WIN)."""

from __future__ import annotations

from typing import Any

from ..options import round_doubles
from ..scoring import final_order, match_totals, round_scores
from ..shuffle import commitment, deal, round_seed, shuffled
from ..state_base import OVER
from ..tiles import full_set, tile_json
from .state import ChickenFootState, index_ends, index_hands, restrict

Event = dict[str, Any]

_SETS: dict[int, list[tuple[int, int]]] = {}


def _canonical_set(max_pip: int) -> list[tuple[int, int]]:
    tiles = _SETS.get(max_pip)
    if tiles is None:
        tiles = _SETS[max_pip] = full_set(max_pip)
    return tiles


def new_match(seats: int, options: dict[str, Any], seed: str) -> ChickenFootState:
    """A match with round 1 dealt and its start double placed (CF-START, drawing from seat 0)."""
    s = ChickenFootState(seats, options, seed)
    events: list[Event] = []
    start_round(s, 1, 0, events)
    return s


def start_round(s: ChickenFootState, round_no: int, draw_from: int, events: list[Event]) -> None:
    """Deal round ``round_no`` from its own seed and place its start double (CF-START).

    If nobody holds the start double, seats draw one tile each in turn from ``draw_from`` until
    one draws it. Its holder places it (that is their turn); play goes on with the next seat.
    A round may end at once here (a one-tile hand that was the start double): then the next
    round starts too, and so on.
    """
    while True:
        rseed = round_seed(s.seed, round_no)
        opts = s.options
        top = opts["max_pip"]
        double = round_doubles(opts)[round_no - 1]
        hands, boneyard = deal(shuffled(_canonical_set(top), rseed), s.seats, opts["hand_size"])
        s.round_no = round_no
        s.hands, s.boneyard = hands, boneyard
        s.reset_round(double)
        s.commitments.append(commitment(rseed))

        centre = (double, double)
        holder = next((seat for seat, hand in enumerate(hands) if centre in hand), None)
        draws: list[Event] = []
        seat = draw_from
        while holder is None:
            t = boneyard.pop()
            hands[seat].append(t)
            draws.append(
                {
                    "type": "drew",
                    "seat": seat,
                    "tile": tile_json(t),
                    "count": 1,
                    "boneyard": len(boneyard),
                }
            )
            if t == centre:
                holder = seat
            else:
                seat = (seat + 1) % s.seats
        hands[holder].remove(centre)
        s.unplayed[double] -= 1
        s.starter = holder
        s.turn = (holder + 1) % s.seats
        index_hands(s)
        index_ends(s)
        restrict(s)
        opening: list[Event] = [
            {
                "type": "round_started",
                "round": round_no,
                "start_double": [double, double],
                "commitment": s.commitments[-1],
                "starter": holder,
                "turn": s.turn,
            },
            *draws,
            {"type": "start_double_placed", "seat": holder, "tile": [double, double]},
        ]
        s.opening = opening
        events.extend(opening)
        if hands[holder]:
            # Not blocked: every tile carrying the start double's number is still in play.
            return
        if end_round(s, "out", holder, events, start_next=False):
            return
        round_no, draw_from = round_no + 1, (holder + 1) % s.seats


def is_blocked(s: ChickenFootState) -> bool:
    """With the boneyard empty: can no seat ever play again? (CF-END)

    Every tile not on the table is then in some hand, so a seat can play exactly when some
    end that accepts a tile now needs a pip of which a tile is still unplayed.
    """
    unplayed = s.unplayed
    for pip in s.avail:  # noqa: SIM110 - a plain loop is cheaper than all() over a generator
        if unplayed[pip]:
            return False
    return True


def end_round(
    s: ChickenFootState, reason: str, seat: int | None, events: list[Event], start_next: bool = True
) -> bool:
    """Score the round (CF-SCORE), reveal its seed, then start the next one or end the match.

    Returns True when the match is over. With ``start_next=False`` the caller starts the next
    round itself.
    """
    rseed = round_seed(s.seed, s.round_no)
    scores = round_scores(s.hands, s.options["double_blank_points"])
    s.scores.append(scores)
    s.revealed_seeds.append(rseed)
    s.drawn = None
    events.append(
        {
            "type": "round_ended",
            "round": s.round_no,
            "reason": reason,
            "seat": seat,
            "hands": [[[a, b] for a, b in sorted(hand)] for hand in s.hands],
            "seed": rseed,
        }
    )
    events.append(
        {
            "type": "round_scores",
            "round": s.round_no,
            "scores": list(scores),
            "totals": match_totals(s.scores),
        }
    )
    if s.round_no >= s.options["rounds"]:
        s.status = OVER
        s.turn = None
        events.append({"type": "match_over", "standings": final_order(s.scores)})
        return True
    if start_next:
        start_round(s, s.round_no + 1, (s.starter + 1) % s.seats, events)
    return False
