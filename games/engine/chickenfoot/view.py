"""What each seat may see (C-HIDDEN): per-seat and spectator views, and redacted events."""

from __future__ import annotations

from typing import Any

from ..scoring import final_order, match_totals
from ..state_base import OVER
from ..tiles import tile_json
from .rules import legal_moves
from .state import ARM_IDS, ChickenFootState, toe_ids


def _chain(s: ChickenFootState, cid: str) -> dict[str, Any]:
    return {
        "id": cid,
        "tiles": [[x, y] for x, y in s.chains[cid]],
        "open": s.ends.get(cid),
    }


def layout_view(s: ChickenFootState) -> dict[str, Any]:
    """The table, drawable: arms and feet as chains of oriented tiles ``[touching, outer]``.

    ``open`` is the pip a chain's end needs (``None`` when a double closed it: see the foot
    whose ``on`` is that chain). ``open_ends`` lists the targets that accept a tile right now.
    """
    avail = s.avail
    return {
        "start_double": [s.start_double, s.start_double],
        "arms": [_chain(s, a) for a in ARM_IDS[: s.arms]],
        "feet": [
            {
                "id": f"foot:{k}",
                "double": [f["double"], f["double"]],
                "on": f["on"],
                "status": f["status"],
                "toes": [_chain(s, t) for t in toe_ids(k)],
            }
            for k, f in enumerate(s.feet)
        ],
        "open_ends": [
            {"target": cid, "pip": pip} for cid, pip in s.ends.items() if cid in avail.get(pip, ())
        ],
    }


def view(s: ChickenFootState, seat: int | None) -> dict[str, Any]:
    """The JSON-ready view of ``seat`` (``None``: a spectator, who sees no hand at all)."""
    out: dict[str, Any] = {
        "variant": s.variant,
        "seats": s.seats,
        "seat": seat,
        "options": dict(s.options),
        "status": s.status,
        "round": s.round_no,
        "rounds": s.options["rounds"],
        "move_no": s.move_no,
        "turn": s.turn,
        "start_double": [s.start_double, s.start_double],
        "starter": s.starter,
        "hand_counts": [len(h) for h in s.hands],
        "boneyard": len(s.boneyard),
        "layout": layout_view(s),
        "open_foot": None,
        "spinner_complete": not s.arms_left,
        "has_drawn": s.drawn is not None,
        "commitment": s.commitments[-1] if s.commitments else None,
        "commitments": list(s.commitments),
        "revealed_seeds": list(s.revealed_seeds),
        "scores": [list(r) for r in s.scores],
        "totals": match_totals(s.scores) or [0] * s.seats,
    }
    if s.foot is not None:
        k = s.foot
        out["open_foot"] = {
            "id": f"foot:{k}",
            "double": [s.feet[k]["double"]] * 2,
            "on": s.feet[k]["on"],
            "toes_left": [t for t in toe_ids(k) if not s.chains[t]],
        }
    if seat is not None:
        out["hand"] = sorted(tile_json(t) for t in s.hands[seat])
        out["drawn"] = tile_json(s.drawn) if s.drawn is not None and seat == s.turn else None
        out["legal_moves"] = [m.to_json() for m in legal_moves(s, seat)]
    if s.status == OVER:
        out["standings"] = final_order(s.scores)
    return out


def redact_event(event: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """``event`` as ``seat`` may see it: a drawn tile only to its drawer (others get the count)."""
    if event.get("type") == "drew" and event.get("seat") != seat:
        return {k: v for k, v in event.items() if k != "tile"}
    return event


def opening_events(s: ChickenFootState) -> list[dict[str, Any]]:
    """The events of the current round's automatic start (CF-START), as emitted."""
    return list(s.opening)
