"""C-HIDDEN over HTTP: no answer to a seat shows another seat's hand or the boneyard."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from http import HTTPStatus
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.models import Match
from tests.games.helpers import submit

pytestmark = pytest.mark.django_db

#: Lists of two numbers that are not tiles.
NOT_TILES = frozenset({"hand_counts", "totals", "scores", "markers", "commitments"})


def tiles_in(node: Any, key: str = "") -> Iterator[tuple[int, int]]:
    """Every ``[a, b]`` pair of integers in a JSON document, normalised."""
    if key in NOT_TILES:
        return
    if isinstance(node, dict):
        for k, v in node.items():
            yield from tiles_in(v, k)
    elif isinstance(node, list):
        if len(node) == 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in node):
            yield (min(node), max(node))
        else:
            for item in node:
                yield from tiles_in(item, key)


def running_round_events(move: dict[str, Any], running: int) -> list[dict[str, Any]]:
    """The events of ``move`` that belong to the round still running."""
    out, current = [], move["round"]
    for event in move["events"]:
        if event.get("type") == "round_started":
            current = event["round"]
        if current == running:
            out.append(event)
    return out


def secrets_from(match: Match, seat: int) -> set[tuple[int, int]]:
    """Other seats' hands and the boneyard, from the stored snapshot."""
    state = match.state
    hidden = [tuple(t) for t in state["boneyard"]]
    for other, hand in enumerate(state["hands"]):
        if other != seat:
            hidden += [tuple(t) for t in hand]
    return {(min(t), max(t)) for t in hidden}


def visible(body: dict[str, Any], running: int) -> set[tuple[int, int]]:
    """Tiles in an answer, leaving out what finished rounds reveal (old deals, not secrets)."""
    seen: set[tuple[int, int]] = set()
    if "move" in body:  # a submitted move: its events and the new view
        seen |= set(tiles_in(running_round_events(body["move"], running)))
        seen |= set(tiles_in(body["state"]))
    elif "next_after" in body:  # the log
        for move in body["moves"]:
            seen |= set(tiles_in(running_round_events(move, running)))
            if move["round"] == running and move["tile"] is not None:
                seen.add((min(move["tile"]), max(move["tile"])))
    else:  # the match view, legal moves
        seen |= set(tiles_in(body))
    return seen


@pytest.mark.parametrize(
    ("variant", "options"),
    [("chickenfoot", {"rounds": 2}), ("mexican_train", {"max_pip": 9, "rounds": 2})],
)
def test_no_answer_shows_another_seats_tiles_or_the_boneyard(
    clients: list[APIClient],
    started_match: Callable[..., Match],
    variant: str,
    options: dict[str, Any],
) -> None:
    match = started_match(variant, 3, options)
    rng = random.Random(7)
    checked = own_seen = 0

    def check(seat: int, response: Any) -> None:
        nonlocal checked, own_seen
        assert response.status_code in (HTTPStatus.OK, HTTPStatus.CREATED), response.content
        match.refresh_from_db()
        if match.status != Match.Status.PLAYING:
            return
        body = response.json()
        seen = visible(body, match.state["round_no"])
        leaked = seen & secrets_from(match, seat)
        assert not leaked, f"seat {seat} was shown {sorted(leaked)} in {body}"
        checked += 1
        own_seen += bool(seen & {tuple(t) for t in match.state["hands"][seat]})

    while True:
        match.refresh_from_db()
        if match.status != Match.Status.PLAYING:
            break
        turn = match.state["turn"]
        for seat in range(3):
            check(seat, clients[seat].get(f"/api/matches/{match.pk}"))
            check(seat, clients[seat].get(f"/api/matches/{match.pk}/legal-moves"))
            after = max(0, match.moves_played - 5)
            check(seat, clients[seat].get(f"/api/matches/{match.pk}/log?after={after}"))
        legal = clients[turn].get(f"/api/matches/{match.pk}/legal-moves").json()
        move = rng.choice(legal["moves"])
        check(turn, submit(clients[turn], match.pk, {**move, "version": legal["version"]}))

    assert checked > 300
    assert own_seen > 100  # the check does see tiles: a seat's own hand shows


def test_the_log_shows_a_finished_rounds_draws_to_everyone(
    clients: list[APIClient], started_match: Callable[..., Match]
) -> None:
    match = started_match("chickenfoot", 3, {"rounds": 1})
    rng = random.Random(3)
    while match.status == Match.Status.PLAYING:
        turn = match.state["turn"]
        legal = clients[turn].get(f"/api/matches/{match.pk}/legal-moves").json()
        running_log = clients[(turn + 1) % 3].get(f"/api/matches/{match.pk}/log").json()
        for move in running_log["moves"]:
            for event in move["events"]:
                if event["type"] == "drew" and event["seat"] != (turn + 1) % 3:
                    assert "tile" not in event
        submit(clients[turn], match.pk, {**rng.choice(legal["moves"]), "version": legal["version"]})
        match.refresh_from_db()

    log = clients[0].get(f"/api/matches/{match.pk}/log").json()
    draws = [e for m in log["moves"] for e in m["events"] if e["type"] == "drew"]
    assert draws
    assert all("tile" in e for e in draws)


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("variant", "options"),
    [("chickenfoot", {"rounds": 2}), ("mexican_train", {"max_pip": 9, "rounds": 2})],
)
async def test_no_socket_frame_shows_another_seats_tiles_or_the_boneyard(
    settings: Any,
    players: list[Any],
    clients: list[APIClient],
    started_match: Callable[..., Match],
    variant: str,
    options: dict[str, Any],
) -> None:
    """C-HIDDEN on the socket: each seat's frames, checked against the secrets of the moment."""
    from channels.db import database_sync_to_async as db

    from tests.games.helpers import play_turn
    from tests.games.live import frames_until, open_socket

    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    match = await db(started_match)(variant, 3, options)
    organiser = players[3]
    organiser.is_organiser = True
    await db(organiser.save)()
    sockets = [await open_socket(match.pk, players[i], after=0) for i in range(4)]
    rng = random.Random(17)
    checked = own_seen = 0
    while await db(play_turn)(clients, match.pk, rng) is not None:
        await db(match.refresh_from_db)()
        over = match.status != Match.Status.PLAYING
        for seat, socket in enumerate(sockets):
            frames = await frames_until(socket, lambda f: f["type"] in ("turn", "match_over"))
            if over:
                continue
            moves = [f for f in frames if f["type"] in ("move", "match_started")]
            for frame in moves:
                frame.setdefault("round", 1)
                frame.setdefault("tile", None)
            seen = visible({"next_after": None, "moves": moves}, match.state["round_no"])
            hidden = secrets_from(match, seat)  # seat 3, the organiser, has no hand: all secret
            leaked = seen & hidden
            assert not leaked, f"seat {seat} was sent {sorted(leaked)} in {frames}"
            checked += 1
            if seat < 3:
                own_seen += bool(seen & {tuple(t) for t in match.state["hands"][seat]})
        if over:
            break
    for socket in sockets:
        await socket.disconnect()
    assert checked > 100
    assert own_seen > 10  # the check does see tiles: a seat's own draws show
