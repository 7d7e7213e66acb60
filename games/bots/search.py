"""Level 4, ``strong``: perfect-information Monte Carlo over sampled deals (determinised search).

For each sampled deal of the unseen tiles consistent with the log (``Knowledge.sample``), every
candidate move is applied to the determinised state and the round is played out to its end by fast
heuristic policies (``own_policy`` for the deciding seat, level 3 for the others; the same random
stream for each candidate: common random numbers). A rollout's value for the deciding seat is its
share of the round's win (lowest round score, ties shared) less a small penalty per point it still
holds. The move with the best mean is chosen. Deals are drawn until the time budget (or a fixed
number of deals) is spent: CPU time, so a busy machine slows the bot's answer rather than weakening
it, up to ``WALL_CAP`` times the budget in wall-clock time (then it answers with the deals it has).

``move_values`` gives the same search's value of every legal move (post-game analysis).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from games import engine
from games.engine import CHICKENFOOT, DRAW, PLAY, Move, Tile

from .defaults import best as heaviest_index
from .defaults import chain, chickenfoot_weights, default_weights
from .knowledge import Knowledge
from .position import position, table_from_view

#: A search stops at its budget of CPU time, or at this many times the budget of wall-clock
#: time however little CPU it had (a starved process answers late, never indefinitely late).
WALL_CAP = 10.0
#: Value of one point left in the deciding seat's hand, in round-win shares.
POINT_WEIGHT = 0.004
#: Every this many deals, candidates clearly worse than the best are dropped ...
PRUNE_EVERY = 6
#: ... when their paired difference to the best exceeds this many standard errors.
PRUNE_Z = 2.0
#: The default move is kept unless another beats it by this many standard errors ...
PRIOR_Z = {CHICKENFOOT: 1.0, "mexican_train": 1.5}
#: ... among at most this many candidates (the default's best).
CANDIDATES = {CHICKENFOOT: 12, "mexican_train": 5}
#: Mexican Train rollouts, the deciding seat: what a tile of its own train's planned chain
#: costs (in pips) played there as planned, played elsewhere, and what a tile off the plan
#: costs played on its own train.
MT_PLANNED_ON_OWN, MT_PLANNED, MT_OFF_PLAN_ON_OWN = 200, 400, 300


def rollout_move(moves: Sequence[Move], rng: random.Random) -> Move:
    """The rollout policy: doubles first, then the heaviest tile (level 3), ties at random."""
    if len(moves) == 1:
        return moves[0]
    best: list[Move] = []
    top = -1
    for move in moves:
        tile = move[1]
        if tile is None:
            continue
        a, b = tile
        weight = a + b + 100 if a == b else a + b
        if weight > top:
            top, best = weight, [move]
        elif weight == top:
            best.append(move)
    if not best:
        for move in moves:
            if move[0] == DRAW:
                return move
        return moves[0]
    return best[int(rng.random() * len(best))] if len(best) > 1 else best[0]


def play_out(state: Any, seat: int, rng: random.Random) -> float:
    """Play the round to its end from ``state``; ``seat``'s value of the outcome.

    The other seats play the rollout policy; ``seat`` plays its own (``own_policy``: as it
    would), so a move is judged with the play that follows it.
    """
    legal_moves, apply_move = engine.legal_moves, engine.apply_move
    own = own_policy(state, seat)
    while state.status == "playing":
        turn = state.turn
        moves = legal_moves(state, turn)
        if turn == seat and len(moves) > 1:
            apply_move(state, turn, moves[own(moves)])
        else:
            apply_move(state, turn, rollout_move(moves, rng))
    scores = state.scores[-1]
    mine = scores[seat]
    low = min(scores)
    win = 1.0 / scores.count(low) if mine == low else 0.0
    return win - POINT_WEIGHT * (mine - low)


def own_policy(state: Any, seat: int) -> Callable[[list[Move]], int]:
    """``seat``'s own play in a rollout on a determinised engine state (its hand is its own).

    Chicken Foot: its default choice (``defaults``). Mexican Train: the level-3 rule, but the
    tiles of the longest chain its hand can lay on its own train (``defaults.chain``, planned
    when the rollout starts and again whenever its train's end is not the plan's) are kept for
    that train and laid last, the others shed first: the default's plan, at the rule's cost.
    """
    if state.variant != CHICKENFOOT:
        return _mexican_own_policy(state, seat)
    hand = state.hands[seat]
    double_blank = state.options["double_blank_points"]
    unplayed, mine = state.unplayed, state.pip_tiles[seat]

    def choose(moves: list[Move]) -> int:
        unseen = [unplayed[n] - len(mine[n]) for n in range(len(unplayed))]
        return heaviest_index(chickenfoot_weights(moves, hand, state.ends, unseen, double_blank))

    return choose


#: ``_plan`` by own train end and hand (the seat's hand is the same in every deal), cleared when
#: it holds this many.
PLAN_CACHE = 4096
_PLANS: dict[tuple[int, tuple[Tile, ...]], tuple[Tile, ...]] = {}


def _plan(end: int, hand: list[Tile]) -> list[Tile]:
    """The longest chain of ``hand`` from ``end`` (``defaults.chain``), cached."""
    key = (end, tuple(sorted(hand)))
    found = _PLANS.get(key)
    if found is None:
        if len(_PLANS) >= PLAN_CACHE:
            _PLANS.clear()
        found = _PLANS[key] = tuple(chain(end, list(key[1])))
    return list(found)


def _mexican_own_policy(state: Any, seat: int) -> Callable[[list[Move]], int]:
    hand, ends = state.hands[seat], state.ends
    own = state.target_names[seat]
    plan: list[Tile] = []  # the chain still to lay on the own train, from ``planned_end``
    planned: set[Tile] = set()
    planned_end = [-1]

    def choose(moves: list[Move]) -> int:
        end = ends[seat]
        if end != planned_end[0] or (plan and plan[0] not in hand):
            plan[:] = _plan(end, hand)
            planned.clear()
            planned.update(plan)
            planned_end[0] = end
        nxt = plan[0] if plan else None
        top, pick = -1e9, 0
        for i, move in enumerate(moves):
            tile = move[1]
            if tile is None:
                continue
            a, b = tile
            weight = a + b + 100 if a == b else a + b
            if tile in planned:
                weight -= MT_PLANNED_ON_OWN if tile == nxt and move[2] == own else MT_PLANNED
            elif move[2] == own and plan:
                weight -= MT_OFF_PLAN_ON_OWN
            if weight > top:
                top, pick = weight, i
        if nxt is not None and moves[pick][1] == nxt and moves[pick][2] == own:
            del plan[0]
            planned.discard(nxt)
            a, b = nxt
            planned_end[0] = b if a == end else a
        return pick

    return choose


def _same_game(view: dict[str, Any]) -> Callable[[Move], tuple[Any, Any]]:
    """A key equal for moves that lead to the same game: in Chicken Foot, one tile on two ends
    needing the same number (an end is only the number it needs)."""
    if view["variant"] != CHICKENFOOT:
        return lambda move: (move.kind, move.tile, move.target)
    needs = {end["target"]: end["pip"] for end in view["layout"]["open_ends"]}
    return lambda move: (
        (move.tile, needs.get(move.target)) if move.kind == PLAY else (move.kind, None)
    )


def candidates(view: dict[str, Any], moves: list[Move]) -> list[Move]:
    """The moves worth comparing: one of each group that leads to the same game."""
    key = _same_game(view)
    seen: set[tuple[Any, Any]] = set()
    out = []
    for move in moves:
        k = key(move)
        if k not in seen:
            seen.add(k)
            out.append(move)
    return out


def _search(
    view: dict[str, Any],
    log: Sequence[Sequence[dict[str, Any]]],
    moves: list[Move],
    rng: random.Random,
    *,
    budget_ms: float | None,
    deals: int | None,
    pruning: bool,
) -> tuple[list[list[float]], list[int]]:
    """Each of ``moves``' rollout values, one per sampled deal (the same deals and random
    streams for every move still compared), and the moves still compared at the end.

    Deals are sampled until ``deals`` are done, else until ``budget_ms`` of the thread's CPU
    time is spent, or ``WALL_CAP`` times that of wall-clock time (at least one deal). With
    ``pruning``, moves clearly worse than the best are dropped as deals accumulate (and the
    search ends when one is left, unless ``deals`` is fixed).
    """
    seat = view["seat"]
    budget = (budget_ms or 0.0) / 1000.0
    cpu_deadline = time.thread_time() + budget
    wall_deadline = time.perf_counter() + WALL_CAP * budget
    knowledge = Knowledge(view, log)
    table = table_from_view(view)
    from_json, apply_move = engine.from_json, engine.apply_move
    values: list[list[float]] = [[] for _ in moves]
    alive = list(range(len(moves)))
    sampled = 0
    while True:
        hands, boneyard = knowledge.sample(rng)
        deal = position(table, hands, boneyard)
        stream = rng.getrandbits(64)
        for i in alive:
            state = from_json(deal, trusted=True)  # a consistent position: built from the view
            apply_move(state, seat, moves[i])
            values[i].append(play_out(state, seat, random.Random(stream)))
        sampled += 1
        if deals is not None:
            if sampled >= deals:
                break
        elif time.thread_time() >= cpu_deadline or time.perf_counter() >= wall_deadline:
            break
        if pruning and len(alive) > 1 and sampled % PRUNE_EVERY == 0:
            alive = prune(values, alive)
            if len(alive) == 1 and deals is None:
                break
    return values, alive


def move_values(
    view: dict[str, Any],
    log: Sequence[Sequence[dict[str, Any]]],
    moves: Sequence[Move],
    rng: random.Random,
    *,
    budget_ms: float | None = None,
    deals: int | None = None,
) -> list[float]:
    """The search's value of each of ``moves`` (legal moves of the seat of ``view``, which must
    be on turn) from that seat's knowledge alone: its view and the public ``log``.

    A value is the mean, over deals of the unseen tiles sampled from that knowledge, of the
    seat's share of the round's win after the move, less ``POINT_WEIGHT`` per point it is left
    with (so about 0 to 1; higher is better). Every move is valued on the same deals, and moves
    that lead to the same game get the same value. ``deals`` fixes the number of deals
    (reproducible for a given ``rng``); otherwise deals are sampled for ``budget_ms``.
    """
    if deals is None and budget_ms is None:
        raise ValueError("move_values needs a number of deals or a time budget.")
    key = _same_game(view)
    unique = candidates(view, list(moves))
    values, _ = _search(view, log, unique, rng, budget_ms=budget_ms, deals=deals, pruning=False)
    by_key = {key(m): sum(v) / len(v) for m, v in zip(unique, values, strict=True)}
    return [by_key[key(m)] for m in moves]


def strong_move(
    view: dict[str, Any],
    log: Sequence[Sequence[dict[str, Any]]],
    rng: random.Random,
    *,
    budget_ms: float,
    deals: int | None = None,
) -> Move:
    """The strong bot's move for the seat of ``view``: see the module docstring.

    ``deals`` fixes the number of sampled deals (deterministic for a given ``rng``); otherwise
    deals are sampled until ``budget_ms`` of CPU time is spent (see ``_search``; at least one).
    """
    top = view["options"]["max_pip"]
    legal = [engine.parse_move(m, top) for m in view["legal_moves"]]
    moves = candidates(view, legal)
    if len(moves) == 1:
        return moves[0]
    weights = default_weights(view, moves)
    limit = CANDIDATES[view["variant"]]
    if len(moves) > limit:  # the default's best few
        keep = sorted(range(len(moves)), key=lambda i: (-weights[i], i))[:limit]
        moves = [moves[i] for i in sorted(keep)]
        weights = [weights[i] for i in sorted(keep)]
    values, alive = _search(view, log, moves, rng, budget_ms=budget_ms, deals=deals, pruning=True)
    sampled = len(values[alive[0]])
    best = max(alive, key=lambda i: (sum(values[i]) / sampled, -i))
    default = heaviest_index(weights)
    z = PRIOR_Z[view["variant"]]
    if (
        default in alive
        and default != best
        and not _clearly_better(values[best], values[default], z)
    ):
        return moves[default]  # the search found no clear reason to leave the heuristic's move
    return moves[best]


def prune(values: list[list[float]], alive: list[int]) -> list[int]:
    """Drop the candidates clearly worse than the best so far: the mean of their paired
    difference to it (the same deals) exceeds ``PRUNE_Z`` standard errors."""
    n = min(len(values[i]) for i in alive)
    best = max(alive, key=lambda i: (sum(values[i][-n:]) / n, -i))
    return [
        i
        for i in alive
        if i == best or not _clearly_better(values[best][-n:], values[i][-n:], PRUNE_Z)
    ]


def _clearly_better(a: list[float], b: list[float], z: float) -> bool:
    """Is ``a`` better than ``b`` on the same deals by more than ``z`` standard errors?"""
    n = len(a)
    diffs = [x - y for x, y in zip(a, b, strict=True)]
    mean = sum(diffs) / n
    if n < 2:
        return mean > 0
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean > z * (var / n) ** 0.5
