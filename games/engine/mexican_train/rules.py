"""Legal moves and their effects (MT-AVAILABLE … MT-SCORE).

One turn may hold several actions by the same seat: a double is followed by another play
(MT-DOUBLE), a draw by the play of the drawn tile when it fits (MT-DRAW); a drawn tile that
does not fit passes the turn in the same call. ``state.turn`` stays on the seat until its turn
ends, and ``legal_moves`` always lists exactly what it may do now.
"""

from __future__ import annotations

from bisect import insort
from typing import Any

from games.engine.text import N_

from ..errors import MalformedMove, NotYourTurn, RoundOver, RuleViolation
from ..moves import DRAW, PASS, PLAY, Move
from ..scoring import final_order, match_totals
from ..state_base import OVER, PLAYING
from ..tiles import Tile, hand_points
from .state import MTState, set_markers, start_round

DRAW_MOVE = Move(DRAW)
PASS_MOVE = Move(PASS)


def binding(state: MTState) -> int:
    """The train whose open double must be satisfied next (MT-OPEN), or -1 if none binds.

    Only between turns' doubles: during a run of doubles the player's own run is governed by
    MT-DOUBLE (see ``forced``).
    """
    if state.streak or not state.open:
        return -1
    return state.open[-1] if state.reverse else state.open[0]


def forced(state: MTState) -> int:
    """During a run of doubles: the train a non-double must go on (MT-DOUBLE), or -1 if free.

    After two or more doubles (after one, with ``satisfy_own_double``) the non-double ending the
    turn goes on the first double of the run that is still open (a dead one no longer binds).
    """
    if state.open and (state.streak > 1 or state.own_double):
        return state.open[0]
    return -1


def _plays(state: MTState, seat: int) -> list[Move]:
    """Every legal play from the seat's hand (its turn, no draw pending)."""
    ends = state.ends
    pips = state.by_pip[seat]
    moves = state.moves
    out: list[Move] = []
    if not state.streak:
        opened = state.open
        if opened:
            t = opened[-1] if state.reverse else opened[0]
            return [moves[tile][t] for tile in pips[ends[t]]]
        for t in state.avail[seat]:
            row = pips[ends[t]]
            if row:
                for tile in row:
                    out.append(moves[tile][t])
        return out
    must = forced(state)
    for t in state.avail[seat]:
        for tile in pips[ends[t]]:
            if must < 0 or t == must or tile[0] == tile[1]:
                out.append(moves[tile][t])
    return out


def _plays_of(state: MTState, seat: int, tile: Tile) -> list[Move]:
    """The legal plays of one tile (the one just drawn)."""
    a, b = tile
    ends = state.ends
    moves = state.moves[tile]
    bound = binding(state)
    if bound >= 0:
        e = ends[bound]
        return [moves[bound]] if (a == e or b == e) else []
    must = forced(state) if state.streak and a != b else -1
    out = []
    for t in state.avail[seat]:
        e = ends[t]
        if (a == e or b == e) and (must < 0 or t == must):
            out.append(moves[t])
    return out


def legal_moves(state: MTState, seat: int) -> list[Move]:
    """Every legal move of ``seat`` now, in a fixed order (trains in id order, tiles sorted)."""
    if state.turn != seat or state.status != PLAYING:
        return []
    drawn = state.drawn
    if drawn is not None:
        return _plays_of(state, seat, drawn) or [PASS_MOVE]
    plays = _plays(state, seat)
    if plays:
        return plays
    return [DRAW_MOVE] if state.boneyard else [PASS_MOVE]


def _has_play(state: MTState, seat: int) -> bool:
    if state.drawn is not None:
        return bool(_plays_of(state, seat, state.drawn))
    return bool(_plays(state, seat))


def _check_play(state: MTState, seat: int, tile: Tile, target: str | None) -> int:
    """Validate a play; return its train index or raise (nothing is changed)."""
    t = state.target_index.get(target)  # type: ignore[arg-type]
    if t is None:
        raise MalformedMove(
            N_(
                "Unknown train %(target)r: use seat:0 … seat:%(seats)s or mexican.",
                target=target,
                seats=state.seats - 1,
            ),
            rule="MT-TRAINS",
            field="target",
        )
    if tile not in state.hands[seat]:
        raise RuleViolation("MT-ONE", N_("Tile %(tile)s is not in your hand.", tile=list(tile)))
    drawn = state.drawn
    if drawn is not None and tile != drawn:
        raise RuleViolation(
            "MT-DRAW",
            N_("After drawing you may play only the drawn tile %(drawn)s.", drawn=list(drawn)),
        )
    a, b = tile
    name = state.target_names[t]
    bound = binding(state)
    if bound >= 0:
        if t != bound:
            raise RuleViolation(
                "MT-OPEN",
                N_(
                    "The open double on %(train)s must be satisfied first.",
                    train=state.target_names[bound],
                ),
            )
    else:
        if t != seat and t != state.seats and not state.markers[t]:
            raise RuleViolation(
                "MT-AVAILABLE",
                N_("Train %(name)s is not open to you: it carries no marker.", name=name),
            )
        if state.streak and a != b:
            must = forced(state)
            if must >= 0 and t != must:
                raise RuleViolation(
                    "MT-DOUBLE",
                    N_(
                        "The tile that ends this run of doubles must go on the open "
                        "double on %(train)s.",
                        train=state.target_names[must],
                    ),
                )
    e = state.ends[t]
    if a != e and b != e:
        raise RuleViolation(
            "MT-TRAINS",
            N_(
                "Tile %(tile)s does not match the open end %(end)s of %(name)s.",
                tile=list(tile),
                end=e,
                name=name,
            ),
        )
    return t


def apply_move(state: MTState, seat: int, move: Move) -> list[dict[str, Any]]:
    """Validate ``move`` (nothing changes if it is refused), then apply it in place."""
    if seat != state.turn:  # ``turn`` is None once the match is over
        if state.status != PLAYING:
            raise RoundOver(N_("The match is over."))
        raise NotYourTurn(
            N_("It is seat %(turn)s's turn, not seat %(seat)s's.", turn=state.turn, seat=seat)
        )
    kind = move.kind
    if kind == PLAY:
        tile = move.tile
        if tile is None:
            raise MalformedMove(N_("A play needs a tile."), field="tile")
        t = _check_play(state, seat, tile, move.target)
        state.move_no += 1
        return _play(state, seat, tile, t)
    if kind == DRAW:
        if state.drawn is not None:
            raise RuleViolation("MT-DRAW", N_("You have drawn already: play the drawn tile."))
        if _has_play(state, seat):
            raise RuleViolation("MT-MUST", N_("You can play, so you must: drawing is not allowed."))
        if not state.boneyard:
            raise RuleViolation("MT-DRAW", N_("The boneyard is empty: pass."))
        state.move_no += 1
        return _draw(state, seat)
    if kind == PASS:
        if _has_play(state, seat):
            raise RuleViolation("MT-MUST", N_("You can play, so you must: passing is not allowed."))
        if state.drawn is None and state.boneyard:
            raise RuleViolation("MT-DRAW", N_("Without a play you must draw before passing."))
        state.move_no += 1
        return _pass(state, seat)
    raise MalformedMove(N_("Unknown move kind %(kind)r.", kind=kind), field="kind")


def _play(state: MTState, seat: int, tile: Tile, t: int) -> list[dict[str, Any]]:
    a, b = tile
    hand = state.hands[seat]
    hand.remove(tile)
    pips = state.by_pip[seat]
    pips[a].remove(tile)
    left = state.left
    left[a] -= 1
    if b != a:
        pips[b].remove(tile)
        left[b] -= 1
    train = state.trains[t]
    ends = state.ends
    e = ends[t]
    other = b if a == e else a
    name = state.target_names[t]
    events: list[dict[str, Any]] = [
        {"type": "tile_played", "seat": seat, "tile": [a, b], "target": name}
    ]
    if not train:
        events.append({"type": "train_started", "seat": seat, "target": name})
    train.append((e, other))
    ends[t] = other
    state.drawn = None
    if t == seat and state.markers[seat]:
        state.markers[seat] = False
        set_markers(state, state.markers)
        events.append({"type": "marker_lifted", "seat": seat})
    opened = state.open
    if opened and t in opened:
        opened.remove(t)
        events.append({"type": "double_satisfied", "seat": seat, "target": name, "tile": [e, e]})
    if a == b:
        opened.append(t)
        state.streak += 1
        events.append({"type": "double_opened", "seat": seat, "target": name, "tile": [a, b]})
    if opened and (left[a] == 0 or left[b] == 0):
        _release_dead(state, events)
    hand_left = len(hand)
    if hand_left == 1:
        events.append({"type": "last_tile", "seat": seat})
    elif hand_left == 0:
        events.extend(_end_round(state, "out", seat))
        return events
    if a != b:  # the turn ends (inlined _end_turn: this is the hot path)
        state.turn = seat + 1 if seat + 1 < state.seats else 0
        state.streak = 0
    if not state.boneyard and _blocked(state):
        events.extend(_end_round(state, "blocked", None))
    return events


def _release_dead(state: MTState, events: list[dict[str, Any]]) -> None:
    """MT-OPEN-DEAD: drop every open double whose number has no tile left off the table."""
    left = state.left
    ends = state.ends
    for t in [t for t in state.open if left[ends[t]] == 0]:
        state.open.remove(t)
        events.append(
            {
                "type": "double_released",
                "target": state.target_names[t],
                "tile": [ends[t], ends[t]],
            }
        )


def _draw(state: MTState, seat: int) -> list[dict[str, Any]]:
    tile = state.boneyard.pop()
    a, b = tile
    state.hands[seat].append(tile)
    pips = state.by_pip[seat]
    insort(pips[a], tile)
    if b != a:
        insort(pips[b], tile)
    state.drawn = tile
    drew: dict[str, Any] = {
        "type": "drew",
        "seat": seat,
        "tile": [a, b],
        "count": 1,
        "boneyard": len(state.boneyard),
    }
    if state.options["open_hands"]:
        drew["open"] = True  # the tile joins a face-up hand: every seat may see it
    events: list[dict[str, Any]] = [drew]
    if _plays_of(state, seat, tile):
        return events  # MT-MUST: the drawer stays on turn and plays it
    # MT-DRAW: the drawn tile cannot be played, so the same call passes and puts the marker.
    _pass(state, seat, events)
    return events


def _pass(
    state: MTState, seat: int, events: list[dict[str, Any]] | None = None
) -> list[dict[str, Any]]:
    """End the turn without a play: ``passed``, the marker up (MT-DRAW), blocked check (MT-END)."""
    if events is None:
        events = []
    events.append({"type": "passed", "seat": seat})
    if not state.markers[seat]:
        state.markers[seat] = True
        set_markers(state, state.markers)
        events.append({"type": "marker_put", "seat": seat})
    _end_turn(state, seat)
    if not state.boneyard and _blocked(state):
        events.extend(_end_round(state, "blocked", None))
    return events


def _end_turn(state: MTState, seat: int) -> None:
    state.turn = seat + 1 if seat + 1 < state.seats else 0
    state.streak = 0
    state.drawn = None


def _blocked(state: MTState) -> bool:
    """MT-END with an empty boneyard: no tile off the table matches any train's open end.

    Then nobody can ever play, even with every marker up; otherwise somebody can (a live open
    double's number is in some hand, and a full circle of passes puts every marker up).
    """
    left = state.left
    return all(not left[e] for e in state.ends)


def _end_round(state: MTState, reason: str, seat: int | None) -> list[dict[str, Any]]:
    """Score the round (MT-SCORE), reveal its seed, then deal the next one or end the match."""
    dbp = state.options["double_blank_points"]
    scores = [hand_points(h, dbp) for h in state.hands]
    state.scores.append(scores)
    seed = state.round_seed()
    state.revealed_seeds.append(seed)
    round_no = state.round_no
    events: list[dict[str, Any]] = [
        {
            "type": "round_ended",
            "round": round_no,
            "reason": reason,
            "seat": seat,
            "hands": [[[a, b] for a, b in sorted(h)] for h in state.hands],
            "seed": seed,
        },
        {
            "type": "round_scores",
            "round": round_no,
            "scores": scores,
            "totals": match_totals(state.scores),
        },
    ]
    state.streak = 0
    state.drawn = None
    if round_no < state.options["rounds"]:
        events.extend(start_round(state, round_no + 1))
    else:
        state.status = OVER
        state.turn = None
        events.append({"type": "match_over", "standings": final_order(state.scores)})
    return events
