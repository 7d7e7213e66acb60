"""What each seat may see (C-HIDDEN, with MT ``open_hands``), and events redacted per seat."""

from __future__ import annotations

from typing import Any

from ..scoring import final_order, match_totals
from ..state_base import OVER
from .rules import binding, forced, legal_moves
from .state import MTState


def _tiles(tiles: list[tuple[int, int]]) -> list[list[int]]:
    return [[a, b] for a, b in tiles]


def view(state: MTState, seat: int | None) -> dict[str, Any]:
    """The JSON-ready view of ``seat`` (``None``: a spectator).

    Never the boneyard's contents or order, the match seed, or another seat's hand (unless the
    match is played with ``open_hands``, when every hand is face up for everyone).
    """
    n = state.seats
    names = state.target_names
    bound = binding(state)
    must = forced(state) if state.streak else -1
    trains = []
    for t, tiles in enumerate(state.trains):
        trains.append(
            {
                "id": names[t],
                "owner": t if t < n else None,
                "tiles": _tiles(tiles),
                "open_end": state.ends[t],
                "marker": state.markers[t] if t < n else None,
                "open_double": t in state.open,
            }
        )
    out: dict[str, Any] = {
        "variant": state.variant,
        "seats": n,
        "seat": seat,
        "options": dict(state.options),
        "status": state.status,
        "round": state.round_no,
        "rounds": state.options["rounds"],
        "start_double": [state.engine, state.engine],
        "starter": state.first_seat(),
        "turn": state.turn,
        "move_no": state.move_no,
        "hand_counts": [len(h) for h in state.hands],
        "boneyard": len(state.boneyard),
        "layout": {
            "engine": [state.engine, state.engine],
            "trains": trains,
            "markers": [s for s in range(n) if state.markers[s]],
            "open_doubles": [names[t] for t in state.open],
        },
        "must_satisfy": names[bound] if bound >= 0 else None,
        "must_play_again": state.streak > 0,
        "doubles_this_turn": state.streak,
        "double_run_target": names[must] if must >= 0 else None,
        "has_drawn": state.drawn is not None,
        "commitment": state.commitments[-1] if state.commitments else None,
        "commitments": list(state.commitments),
        "revealed_seeds": list(state.revealed_seeds),
        "scores": [list(r) for r in state.scores],
        "totals": match_totals(state.scores) if state.scores else [0] * n,
    }
    if seat is not None:
        out["hand"] = _tiles(sorted(state.hands[seat]))
        drawn = state.drawn if seat == state.turn else None
        out["drawn"] = list(drawn) if drawn is not None else None
        out["legal_moves"] = [m.to_json() for m in legal_moves(state, seat)]
    if state.options["open_hands"]:
        out["hands"] = [_tiles(sorted(h)) for h in state.hands]
    if state.status == OVER:
        out["standings"] = final_order(state.scores)
    return out


def redact_event(event: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """``event`` as ``seat`` may see it: a drawn tile is shown to its drawer only.

    With ``open_hands`` the ``drew`` event carries ``"open": true`` (the tile goes into a hand
    that lies face up) and is shown whole to everyone; the event says so itself, so redacting
    needs no options.
    """
    if event.get("type") == "drew" and event.get("seat") != seat and not event.get("open"):
        return {k: v for k, v in event.items() if k != "tile"}
    return event


def opening_events(state: MTState) -> list[dict[str, Any]]:
    """The events of the current round's automatic start (MT-ENGINE), as emitted."""
    return list(state.opening)
