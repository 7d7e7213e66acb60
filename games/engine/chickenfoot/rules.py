"""Legal moves and their application: CF-SPINNER, CF-MATCH, CF-ONE, CF-MUST, CF-DRAW, CF-FOOT,
CF-FOOT-DEAD, CF-END.

``apply_move`` validates first and raises before touching anything; then it mutates the state
in place: one tile moves from a hand to the end of one chain, and the open-end index
(``ends``/``avail``) and the per-pip counters (``unplayed``) are patched. Nothing is copied.
"""

from __future__ import annotations

from typing import Any

from games.engine.text import N_

from ..errors import MalformedMove, NotYourTurn, RoundOver, RuleViolation
from ..moves import DRAW, PASS, PLAY, Move
from ..state_base import PLAYING
from ..tiles import SUPPORTED_MAX_PIPS, Tile, full_set
from .rounds import end_round, is_blocked
from .state import ARM_IDS, TARGET_RE, ChickenFootState, toe_ids

Event = dict[str, Any]

DRAW_MOVE = Move(DRAW)
PASS_MOVE = Move(PASS)
_new_move = tuple.__new__
#: Play moves are immutable, so each (tile, target) Move is built once and then reused:
#: a dict lookup costs a fraction of building a NamedTuple, and legal_moves is the hot path.
_MOVES: dict[Tile, dict[str, Move]] = {t: {} for t in full_set(max(SUPPORTED_MAX_PIPS))}


def _move(t: Tile, end: str) -> Move:
    by_end = _MOVES[t]
    move = by_end.get(end)
    if move is None:
        move = by_end[end] = _new_move(Move, (PLAY, t, end))
    return move


def _plays(t: Tile, avail: dict[int, list[str]], out: list[Move]) -> None:
    a, b = t
    for pip in (a, b) if b != a else (a,):
        for end in avail.get(pip, ()):
            out.append(_move(t, end))


def legal_moves(s: ChickenFootState, seat: int) -> list[Move]:
    """Every legal move of ``seat`` now, in a fixed order: plays grouped by the open pip they
    match (in ``by_pip`` order, which ``to_json`` preserves), then by hand order, then by end;
    or the one ``draw`` / ``pass``.

    After a draw (CF-DRAW) only the drawn tile may be played, and ``pass`` declines it unless
    ``must_play_drawn``. Without a play: ``draw``, or ``pass`` when the boneyard is empty.
    """
    if seat != s.turn or seat is None:  # None: the match is over (``turn`` is None then)
        return []
    avail = s.avail
    out: list[Move] = []
    drawn = s.drawn
    if drawn is not None:
        _plays(drawn, avail, out)
        if not s.must_play_drawn:
            out.append(PASS_MOVE)
        return out
    per_pip = s.pip_tiles[seat]
    moves = _MOVES
    for pip, ids in avail.items():
        tiles = per_pip[pip]
        if tiles:
            for t in tiles:
                by_end = moves[t]
                for end in ids:
                    move = by_end.get(end)
                    if move is None:
                        move = by_end[end] = _new_move(Move, (PLAY, t, end))
                    out.append(move)
    if out:
        return out
    return [DRAW_MOVE] if s.boneyard else [PASS_MOVE]


def can_play(s: ChickenFootState, seat: int) -> bool:
    """Does ``seat`` hold a tile that some end accepts now? (CF-MUST)"""
    per_pip = s.pip_tiles[seat]
    for pip in s.avail:  # noqa: SIM110 - a plain loop is cheaper than any() over a generator
        if per_pip[pip]:
            return True
    return False


def apply_move(s: ChickenFootState, seat: int, move: Move) -> list[Event]:
    """Apply ``move`` for ``seat`` in place and return the events; raise before any change.

    A play (the hot path, inlined here) moves one tile from the hand to the end of one chain
    and patches ``ends``, ``by_pip``/``avail``, ``pip_tiles`` and ``unplayed``: O(1) work
    whatever the size of the table.
    """
    if seat != s.turn or seat is None:
        if s.status != PLAYING:
            raise RoundOver(N_("The match is over: no more moves."))
        raise NotYourTurn(
            N_("It is seat %(turn)s's turn, not seat %(seat)s's.", turn=s.turn, seat=seat)
        )
    kind, t, target = move
    if kind != PLAY:
        if kind == DRAW:
            return _draw(s, seat)
        if kind == PASS:
            return _pass(s, seat)
        raise MalformedMove(N_("Unknown move kind %(kind)r.", kind=kind), field="kind")

    # --- validate the play (CF-ONE, CF-DRAW, CF-MATCH, CF-SPINNER, CF-FOOT).
    per_pip = s.pip_tiles[seat]
    a, b = t  # type: ignore[misc]
    if t not in per_pip[a]:
        raise RuleViolation(
            "CF-ONE",
            N_("You do not hold %(tile)s: a play is a tile from your hand.", tile=f"{a}|{b}"),
        )
    drawn = s.drawn
    if drawn is not None and t != drawn:
        raise RuleViolation(
            "CF-DRAW",
            N_(
                "After drawing you may only play the drawn tile %(tile)s (or pass).",
                tile=f"{drawn[0]}|{drawn[1]}",
            )
            if not s.must_play_drawn
            else N_(
                "After drawing you may only play the drawn tile %(tile)s.",
                tile=f"{drawn[0]}|{drawn[1]}",
            ),
        )
    ends = s.ends
    pip = ends.get(target)  # type: ignore[arg-type]
    if pip is None:
        _refuse_closed_target(s, target)  # type: ignore[arg-type]
    avail = s.avail
    ids = avail.get(pip)  # type: ignore[arg-type]
    if ids is None or target not in ids:
        _refuse_restricted(s, target)  # type: ignore[arg-type]
    if a != pip and b != pip:
        _refuse_mismatch(s, t, target, pip)  # type: ignore[arg-type]

    # --- valid: patch in place.
    hand = s.hands[seat]
    hand.remove(t)
    per_pip[a].remove(t)
    unplayed = s.unplayed
    unplayed[a] -= 1
    if b != a:
        per_pip[b].remove(t)
        unplayed[b] -= 1
    outer = b if a == pip else a
    s.chains[target].append((pip, outer))  # type: ignore[arg-type, index]
    by_pip = s.by_pip
    same = by_pip[pip]  # type: ignore[index]
    same.remove(target)
    if not same:
        del by_pip[pip]  # type: ignore[arg-type]
    if drawn is not None:
        s.drawn = None
    s.move_no += 1
    events: list[Event] = [{"type": "tile_played", "seat": seat, "tile": [a, b], "target": target}]

    if a == b:
        del ends[target]  # type: ignore[arg-type]
        if _open_foot(s, seat, a, target, events):  # type: ignore[arg-type]
            return events
    else:
        ends[target] = outer  # type: ignore[index]
        ids_out = by_pip.get(outer)
        if ids_out is None:
            by_pip[outer] = [target]  # type: ignore[list-item]
        else:
            ids_out.append(target)  # type: ignore[arg-type]
        if avail is not by_pip:  # a restricted phase: ``ids`` is its own list
            ids.remove(target)  # type: ignore[union-attr, arg-type]
            if s.foot is not None:
                k = s.foot
                s.toes_left -= 1
                if not s.toes_left:
                    s.feet[k]["status"] = "completed"
                    s.foot = None
                    s.avail = by_pip
                    events.append({"type": "foot_completed", "foot": f"foot:{k}", "seat": seat})
                elif not unplayed[s.feet[k]["double"]] and _dead_foot(s, events) and hand:
                    end_round(s, "blocked", None, events)
                    return events
            else:
                s.arms_left -= 1
                if not s.arms_left:
                    s.avail = by_pip

    if not hand:
        end_round(s, "out", seat, events)
        return events
    nxt = seat + 1
    s.turn = nxt if nxt < s.seats else 0
    if not s.boneyard and is_blocked(s):
        end_round(s, "blocked", None, events)
    return events


def _open_foot(s: ChickenFootState, seat: int, n: int, target: str, events: list[Event]) -> bool:
    """CF-FOOT: the double just played on ``target`` opens a foot; its toes take the next tiles.

    Returns True when the round ended here (a dead foot with ``release_dead_foot`` off).
    """
    k = len(s.feet)
    toes = toe_ids(k)
    s.feet.append({"double": n, "on": target, "status": "open"})
    ends, chains, by_pip = s.ends, s.chains, s.by_pip
    for toe in toes:
        ends[toe] = n
        chains[toe] = []
    ids = by_pip.get(n)
    if ids is None:
        by_pip[n] = list(toes)
    else:
        ids.extend(toes)
    s.foot = k
    s.toes_left = 3
    s.avail = {n: list(toes)}
    events.append(
        {
            "type": "foot_opened",
            "foot": f"foot:{k}",
            "seat": seat,
            "target": target,
            "tile": [n, n],
            "toes": list(toes),
        }
    )
    if not s.unplayed[n] and _dead_foot(s, events) and s.hands[seat]:
        end_round(s, "blocked", None, events)
        return True
    return False


def _dead_foot(s: ChickenFootState, events: list[Event]) -> bool:
    """CF-FOOT-DEAD: the open foot can never be completed. Release it, or (option off) report
    that the round is blocked (returns True; the caller ends the round)."""
    if not s.release_dead_foot:
        return True
    k = s.foot
    s.feet[k]["status"] = "released"  # type: ignore[index]
    s.foot = None
    s.toes_left = 0
    s.avail = s.by_pip
    events.append({"type": "foot_released", "foot": f"foot:{k}"})
    return False


def _refuse_closed_target(s: ChickenFootState, target: str) -> None:
    match = TARGET_RE.match(target) if isinstance(target, str) else None
    if match is None:
        raise MalformedMove(
            N_(
                'Unknown target %(target)r: targets are arm ids ("arm:0") or '
                'toe ids ("foot:0:toe:1").',
                target=target,
            ),
            field="target",
        )
    if target not in s.chains:  # an arm this spinner lacks, a foot not opened yet
        raise MalformedMove(
            N_(
                "Unknown target %(target)r: this table has arm:0 … arm:%(arms)s and the "
                "toes of foot:0 … foot:%(feet)s.",
                target=target,
                arms=s.arms - 1,
                feet=len(s.feet) - 1,
            )
            if s.feet
            else N_(
                "Unknown target %(target)r: this table has arm:0 … arm:%(arms)s.",
                target=target,
                arms=s.arms - 1,
            ),
            field="target",
        )
    # A chain on the table without an open end ends in a double: its foot continues it.
    foot = next((k for k, f in enumerate(s.feet) if f["on"] == target), None)
    if foot is None:  # pragma: no cover - every closed chain carries a foot
        raise RuleViolation(
            "CF-MATCH", N_("There is no open end %(target)s on the table.", target=target)
        )
    raise RuleViolation(
        "CF-FOOT",
        N_(
            "%(target)s ends in a double that opened foot:%(foot)s: play on its toes (%(toes)s).",
            target=target,
            foot=foot,
            toes=", ".join(toe_ids(foot)),
        ),
    )


def _refuse_restricted(s: ChickenFootState, target: str) -> None:
    if s.foot is not None:
        toes = [t for t in toe_ids(s.foot) if not s.chains[t]]
        raise RuleViolation(
            "CF-FOOT",
            N_(
                "The chicken foot foot:%(foot)s must be completed first: the "
                "next tiles go on %(toes)s.",
                foot=s.foot,
                toes=", ".join(toes),
            ),
        )
    empty = [a for a in ARM_IDS[: s.arms] if not s.chains[a]]
    raise RuleViolation(
        "CF-SPINNER",
        N_(
            "Every arm needs its first tile before any arm takes a second: play on %(arms)s.",
            arms=", ".join(empty),
        ),
    )


def _refuse_mismatch(s: ChickenFootState, t: Tile, target: str, pip: int) -> None:
    if not s.chains[target]:
        if target.startswith("arm:"):
            raise RuleViolation(
                "CF-SPINNER",
                N_(
                    "An arm's first tile must carry the centre double's %(pip)s; "
                    "%(tile)s does not.",
                    pip=pip,
                    tile=f"{t[0]}|{t[1]}",
                ),
            )
        raise RuleViolation(
            "CF-FOOT",
            N_(
                "A toe's first tile must carry the foot's %(pip)s; %(tile)s does not.",
                pip=pip,
                tile=f"{t[0]}|{t[1]}",
            ),
        )
    raise RuleViolation(
        "CF-MATCH",
        N_(
            "%(tile)s does not match the %(pip)s open on %(target)s.",
            tile=f"{t[0]}|{t[1]}",
            pip=pip,
            target=target,
        ),
    )


# --------------------------------------------------------------------------- draw / pass


def _draw(s: ChickenFootState, seat: int) -> list[Event]:
    if s.drawn is not None:
        raise RuleViolation(
            "CF-ONE", N_("You have already drawn this turn: play the drawn tile or pass.")
        )
    boneyard = s.boneyard
    if not boneyard:
        raise RuleViolation("CF-DRAW", N_("The boneyard is empty: without a play you pass."))
    if can_play(s, seat):
        raise RuleViolation(
            "CF-MUST", N_("You have a legal play, so you must play: drawing is not allowed.")
        )
    t = boneyard.pop()
    s.hands[seat].append(t)
    a, b = t
    per_pip = s.pip_tiles[seat]
    per_pip[a].append(t)
    if b != a:
        per_pip[b].append(t)
    s.move_no += 1
    events: list[Event] = [
        {"type": "drew", "seat": seat, "tile": [a, b], "count": 1, "boneyard": len(boneyard)}
    ]
    avail = s.avail
    if a in avail or b in avail:
        s.drawn = t
        return events
    # CF-DRAW: the drawn tile cannot be played, so the turn passes.
    events.append({"type": "passed", "seat": seat})
    _next_turn(s, seat, events)
    return events


def _pass(s: ChickenFootState, seat: int) -> list[Event]:
    if s.drawn is not None:
        if s.must_play_drawn:
            raise RuleViolation(
                "CF-DRAW", N_("House rule must_play_drawn: a playable drawn tile must be played.")
            )
    elif can_play(s, seat):
        raise RuleViolation(
            "CF-MUST", N_("You have a legal play, so you must play: passing is not allowed.")
        )
    elif s.boneyard:
        raise RuleViolation(
            "CF-DRAW", N_("Without a play you draw a tile first; you may pass only after.")
        )
    s.drawn = None
    s.move_no += 1
    events: list[Event] = [{"type": "passed", "seat": seat}]
    _next_turn(s, seat, events)
    return events


def _next_turn(s: ChickenFootState, seat: int, events: list[Event]) -> None:
    nxt = seat + 1
    s.turn = nxt if nxt < s.seats else 0
    if not s.boneyard and is_blocked(s):
        end_round(s, "blocked", None, events)
