"""The match socket: frames in order, redacted per seat, resumable, and its refusals."""

from __future__ import annotations

import os
import random
import uuid
from collections.abc import Callable
from http import HTTPStatus
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.core.cache import cache
from rest_framework.test import APIClient

from chickenfoot.asgi import application
from games.live.access import (
    CLOSE_BAD_REQUEST,
    CLOSE_FORBIDDEN,
    CLOSE_MATCH_OVER,
    CLOSE_NO_MATCH,
    CLOSE_TRY_AGAIN_LATER,
    CLOSE_UNAUTHENTICATED,
)
from games.models import DeviceToken, Match, Player
from tests.games.factories import PlayerFactory, token_for
from tests.games.helpers import play_turn
from tests.games.live import (
    close_code,
    drain,
    frames_until,
    moves_in,
    next_frame,
    open_socket,
)
from tests.processes import redis_cache, refusing_port

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

db = database_sync_to_async


@pytest.fixture(autouse=True)
def _in_memory_layer(settings: Any) -> None:
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


async def play(clients: list[APIClient], match: Match, n: int, seed: int = 1) -> list[dict]:
    """Play ``n`` random legal moves over HTTP; their answers."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        body = await db(play_turn)(clients, match.pk, rng)
        assert body is not None
        out.append(body)
    return out


async def log_for(client: APIClient, match_id: int, after: int = 0) -> list[dict]:
    response = await db(client.get)(f"/api/matches/{match_id}/log?after={after}&limit=200")
    assert response.status_code == HTTPStatus.OK
    return response.json()["moves"]


def same_as_log(frame: dict, logged: dict) -> bool:
    keys = ("seq", "round", "seat", "kind", "tile", "target", "events")
    return all(frame[k] == logged[k] for k in keys)


async def test_each_seat_gets_every_move_in_order_redacted_as_its_log(
    players: list[Player], clients: list[APIClient], started_match: Callable[..., Match]
) -> None:
    # given: three seats listening from the start
    match = await db(started_match)("chickenfoot", 3, {"rounds": 2})
    sockets = [await open_socket(match.pk, players[i], after=0) for i in range(3)]
    for seat, socket in enumerate(sockets):
        hello = await next_frame(socket)
        assert hello["type"] == "hello"
        assert hello["your_seat"] == seat
        started = await next_frame(socket)
        assert started["type"] == "match_started"
        assert started["seq"] == 0

    # when: 25 moves over HTTP
    await play(clients, match, 25)

    # then: each seat has moves 1..25 once, in order, as its own log shows them
    for seat, socket in enumerate(sockets):
        frames = await frames_until(socket, lambda f: f.get("type") == "turn" and f["seq"] == 25)
        moves = moves_in(frames)
        assert [m["seq"] for m in moves] == list(range(1, 26))
        versions = [m["version"] for m in moves]
        assert versions == sorted(versions)
        assert len(set(versions)) == 25
        logged = await log_for(clients[seat], match.pk)
        assert all(same_as_log(f, m) for f, m in zip(moves, logged, strict=True))
        assert not moves_in(await drain(socket))
        await socket.disconnect()


async def test_a_drawn_tile_reaches_only_its_drawer(
    players: list[Player], clients: list[APIClient], started_match: Callable[..., Match]
) -> None:
    match = await db(started_match)("chickenfoot", 3, {"rounds": 3})
    sockets = [await open_socket(match.pk, players[i]) for i in range(3)]
    for socket in sockets:
        await next_frame(socket)  # hello
    draws = 0
    rng = random.Random(5)
    for _ in range(60):
        body = await db(play_turn)(clients, match.pk, rng)
        if body is None:
            break
        mover = body["move"]["seat"]
        for seat, socket in enumerate(sockets):
            frames = await frames_until(socket, lambda f: f["type"] in ("turn", "match_over"))
            for frame in moves_in(frames):
                if any(e["type"] == "round_ended" for e in frame["events"]):
                    continue  # a finished round's draws are shown whole
                for event in frame["events"]:
                    if event["type"] == "drew":
                        draws += seat != mover
                        assert ("tile" in event) == (seat == event["seat"]), (seat, event)
    assert draws > 0


async def test_resume_after_any_seq_gives_exactly_the_rest_then_live(
    players: list[Player], clients: list[APIClient], started_match: Callable[..., Match]
) -> None:
    # given: 12 moves played
    match = await db(started_match)("mexican_train", 3, {"max_pip": 9, "rounds": 2})
    await play(clients, match, 12)

    for after in range(13):
        # when: a client resumes after ``after``
        socket = await open_socket(match.pk, players[1], after=after)
        hello = await next_frame(socket)
        assert hello["seq"] == 12
        frames = [] if after == 12 else await frames_until(socket, lambda f: f["type"] == "turn")
        # then: exactly the moves after it, the opening only from the very start
        assert [m["seq"] for m in moves_in(frames)] == list(range(after + 1, 13))
        assert any(f["type"] == "match_started" for f in frames) == (after == 0)
        await socket.disconnect()

    # and: a seq the match has not reached is refused, not taken to mean "skip the next moves"
    ahead = await open_socket(match.pk, players[1], after=13)
    assert await close_code(ahead) == CLOSE_BAD_REQUEST

    # and: the seam: moves committed while the catch-up is still queued come once each
    socket = await open_socket(match.pk, players[2], after=5)
    await play(clients, match, 4, seed=9)
    frames = await frames_until(socket, lambda f: f["type"] == "turn" and f["seq"] == 16)
    assert [m["seq"] for m in moves_in(frames)] == list(range(6, 17))
    assert not moves_in(await drain(socket))
    await socket.disconnect()


async def test_refusals_close_with_their_codes(
    players: list[Player], started_match: Callable[..., Match]
) -> None:
    match = await db(started_match)("chickenfoot", 3, {"rounds": 1})
    stranger = await db(PlayerFactory)(user__username="mallory")

    assert await close_code(await open_socket(match.pk)) == CLOSE_UNAUTHENTICATED
    assert (
        await close_code(await open_socket(match.pk, authorization="Token not-a-token"))
        == CLOSE_UNAUTHENTICATED
    )
    assert await close_code(await open_socket(match.pk, stranger)) == CLOSE_FORBIDDEN
    assert await close_code(await open_socket(999_999, players[0])) == CLOSE_NO_MATCH
    # a seq that is not ASCII digits: a superscript, other scripts' digits, a number too long
    for after in ("-1", "%C2%B2", "%D9%A3", "1" * 5000, "", "+1", "1.0"):
        bad = await open_socket(match.pk, players[0], query=f"after={after}")
        assert await close_code(bad) == CLOSE_BAD_REQUEST, after


async def test_an_organiser_watches_without_hands(
    players: list[Player], clients: list[APIClient], started_match: Callable[..., Match]
) -> None:
    match = await db(started_match)("chickenfoot", 3, {"rounds": 2})
    organiser = await db(PlayerFactory)(user__username="olga", is_organiser=True)
    socket = await open_socket(match.pk, organiser, after=0)
    hello = await next_frame(socket)
    assert hello["your_seat"] is None
    await play(clients, match, 15)
    frames = await frames_until(socket, lambda f: f["type"] == "turn" and f["seq"] == 15)
    for frame in moves_in(frames):
        for event in frame["events"]:
            if event["type"] == "drew":
                assert "tile" not in event
    await socket.disconnect()


async def test_a_revoked_token_closes_the_socket_at_the_next_heartbeat(
    settings: Any, players: list[Player], started_match: Callable[..., Match]
) -> None:
    settings.LIVE_HEARTBEAT_SECONDS = 0.05
    match = await db(started_match)("chickenfoot", 3, {"rounds": 1})
    socket = await open_socket(match.pk, players[0])
    assert (await next_frame(socket))["type"] == "hello"
    beat = await frames_until(socket, lambda f: f["type"] == "heartbeat")
    assert beat[-1]["type"] == "heartbeat"

    await db(DeviceToken.objects.filter(user=players[0].user).delete)()

    assert await close_code(socket) == CLOSE_UNAUTHENTICATED


@pytest.mark.parametrize("scheme", ["Token", "Bearer"])
async def test_logging_out_closes_that_tokens_socket_and_refuses_it_after(
    settings: Any, players: list[Player], started_match: Callable[..., Match], scheme: str
) -> None:
    # given: a socket on this device's token, another on the same player's other device
    settings.LIVE_HEARTBEAT_SECONDS = 0.05
    match = await db(started_match)("chickenfoot", 3, {"rounds": 1})
    phone = await db(token_for)(players[0], "phone")
    laptop = await db(token_for)(players[0], "laptop")
    on_phone = await open_socket(match.pk, authorization=f"{scheme} {phone}")
    on_laptop = await open_socket(match.pk, authorization=f"{scheme} {laptop}")
    assert (await next_frame(on_phone))["type"] == "hello"
    assert (await next_frame(on_laptop))["type"] == "hello"

    # when: the phone logs out
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"{scheme} {phone}")
    response = await db(client.post)("/api/auth/logout")
    assert response.status_code == HTTPStatus.NO_CONTENT

    # then: the phone's socket closes at its next heartbeat; the laptop's goes on
    assert await close_code(on_phone) == CLOSE_UNAUTHENTICATED
    beats = await frames_until(on_laptop, lambda f: f["type"] == "heartbeat")
    assert beats[-1]["type"] == "heartbeat"
    # and: a new socket with the revoked token is refused
    refused = await open_socket(match.pk, authorization=f"{scheme} {phone}")
    assert await close_code(refused) == CLOSE_UNAUTHENTICATED
    await on_laptop.disconnect()


async def test_an_unknown_scheme_is_refused_on_the_socket(
    players: list[Player], started_match: Callable[..., Match]
) -> None:
    match = await db(started_match)("chickenfoot", 3, {"rounds": 1})
    key = await db(token_for)(players[0])

    socket = await open_socket(match.pk, authorization=f"Basic {key}")

    assert await close_code(socket) == CLOSE_UNAUTHENTICATED


async def test_ping_pong_and_junk(
    players: list[Player], started_match: Callable[..., Match]
) -> None:
    match = await db(started_match)("chickenfoot", 3, {"rounds": 1})
    socket = await open_socket(match.pk, players[0])
    await next_frame(socket)
    await drain(socket)
    await socket.send_json_to({"type": "ping"})
    assert (await next_frame(socket))["type"] == "pong"
    await socket.send_to(text_data="not json")
    assert (await next_frame(socket))["type"] == "error"
    await socket.send_json_to({"type": "move"})
    assert (await next_frame(socket))["type"] == "error"
    await socket.send_json_to(["ping"])
    assert (await next_frame(socket))["type"] == "error"
    await socket.disconnect()


async def test_presence_lists_the_seats_connected(
    players: list[Player], started_match: Callable[..., Match]
) -> None:
    match = await db(started_match)("chickenfoot", 3, {"rounds": 1})
    first = await open_socket(match.pk, players[0])
    await frames_until(first, lambda f: f["type"] == "presence" and f["seats"] == [0])

    second = await open_socket(match.pk, players[2])
    await frames_until(first, lambda f: f["type"] == "presence" and f["seats"] == [0, 2])
    await frames_until(second, lambda f: f["type"] == "presence" and f["seats"] == [0, 2])

    await second.disconnect()
    await frames_until(first, lambda f: f["type"] == "presence" and f["seats"] == [0])
    await first.disconnect()


async def test_lobby_joins_and_the_start_reach_the_creator(players: list[Player]) -> None:
    from games.services import SeatSpec, match_create, match_start, seat_join

    match = await db(match_create)(
        creator=players[0],
        variant="chickenfoot",
        seats=[SeatSpec(kind="creator"), SeatSpec(kind="open")],
        options={"rounds": 1},
    )
    socket = await open_socket(match.pk, players[0])
    hello = await next_frame(socket)
    assert hello["match"]["status"] == "open"

    await db(seat_join)(match_id=match.pk, player=players[1])
    joined = await frames_until(socket, lambda f: f["type"] == "seat_joined")
    assert joined[-1]["seat"] == 1
    assert joined[-1]["name"] == players[1].display_name

    await db(match_start)(match_id=match.pk, player=players[0])
    frames = await frames_until(socket, lambda f: f["type"] == "turn")
    frames = [f for f in frames if f["type"] != "presence"]  # who is here: any time
    assert frames[0]["type"] == "match_started"
    assert frames[0]["events"][0]["type"] == "round_started"
    await socket.disconnect()


async def test_a_finished_match_closes_after_its_last_frames(
    players: list[Player], clients: list[APIClient], started_match: Callable[..., Match]
) -> None:
    match = await db(started_match)("chickenfoot", 2, {"rounds": 1})
    socket = await open_socket(match.pk, players[0], after=0)
    rng = random.Random(2)
    played = 0
    while await db(play_turn)(clients, match.pk, rng) is not None:
        played += 1
    frames = await frames_until(socket, lambda f: f["type"] == "match_over")
    assert [m["seq"] for m in moves_in(frames)] == list(range(1, played + 1))
    assert frames[-1]["standings"]
    assert await close_code(socket) == CLOSE_MATCH_OVER

    # a socket opened later gets the whole log, then the same close
    late = await open_socket(match.pk, players[1], after=0)
    frames = await frames_until(late, lambda f: f["type"] == "match_over")
    assert len(moves_in(frames)) == played
    assert await close_code(late) == CLOSE_MATCH_OVER


async def test_tickets_open_one_socket_for_one_match_for_a_minute(
    settings: Any,
    players: list[Player],
    clients: list[APIClient],
    started_match: Callable[..., Match],
) -> None:
    match = await db(started_match)("chickenfoot", 3, {"rounds": 1})
    other = await db(started_match)("chickenfoot", 3, {"rounds": 1})

    response = await db(clients[1].post)(f"/api/matches/{match.pk}/ticket")
    assert response.status_code == HTTPStatus.CREATED
    body = response.json()
    assert body["expires_in"] == settings.LIVE_TICKET_SECONDS
    assert body["url"] == f"/ws/matches/{match.pk}?ticket={body['ticket']}"

    # for another match: refused, and the ticket is still good for its own
    wrong = await open_socket(other.pk, ticket=body["ticket"])
    assert await close_code(wrong) == CLOSE_UNAUTHENTICATED
    socket = await open_socket(match.pk, ticket=body["ticket"])
    hello = await next_frame(socket)
    assert hello["your_seat"] == 1
    await socket.disconnect()

    # used once: refused the second time; forged: refused
    again = await open_socket(match.pk, ticket=body["ticket"])
    assert await close_code(again) == CLOSE_UNAUTHENTICATED
    forged = await open_socket(match.pk, ticket=body["ticket"][:-2] + "xx")
    assert await close_code(forged) == CLOSE_UNAUTHENTICATED

    # expired
    fresh = (await db(clients[1].post)(f"/api/matches/{match.pk}/ticket")).json()["ticket"]
    settings.LIVE_TICKET_SECONDS = -1
    assert await close_code(await open_socket(match.pk, ticket=fresh)) == CLOSE_UNAUTHENTICATED


def stored_bytes(cache: Any) -> list[bytes]:
    """Every value the cache holds, as it holds it (pickled, or Redis' own bytes)."""
    if isinstance(getattr(cache, "_cache", None), dict):  # local memory
        return list(cache._cache.values())
    client = cache._cache.get_client()
    return [client.get(key) for key in client.scan_iter(f"{cache.make_key('')}*")]


def forget_all(cache: Any) -> None:
    """Empty the test's own cache (on Redis: its keys only)."""
    if isinstance(getattr(cache, "_cache", None), dict):
        cache.clear()
        return
    client = cache._cache.get_client(write=True)
    for key in client.scan_iter(f"{cache.make_key('')}*"):
        client.delete(key)


TICKET_CACHES = ["locmem"] + (["redis"] if os.environ.get("REDIS_URL") else [])


@pytest.mark.parametrize("backend", TICKET_CACHES)
async def test_the_cache_keeps_no_part_of_the_token_key_for_a_ticket(
    settings: Any, players: list[Player], started_match: Callable[..., Match], backend: str
) -> None:
    # given: a cache of this test's own
    prefix = f"test-ticket-{uuid.uuid4().hex}"
    if backend == "redis":
        caches = redis_cache(os.environ["REDIS_URL"])
    else:
        caches = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    caches["default"]["KEY_PREFIX"] = prefix
    settings.CACHES = caches
    match = await db(started_match)("chickenfoot", 3, {"rounds": 1})
    key = await db(token_for)(players[1])
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")

    # when: a ticket is issued
    response = await db(client.post)(f"/api/matches/{match.pk}/ticket")
    assert response.status_code == HTTPStatus.CREATED

    # then: what the cache holds for it has no piece of the key (any 6 characters of it)
    try:
        stored = await db(stored_bytes)(cache)
        assert stored, "the ticket left nothing in the cache"
        pieces = {key[i : i + 6] for i in range(len(key) - 5)}
        assert not [piece for piece in pieces for raw in stored if piece.encode() in raw]
        # and: the ticket still opens the socket, as the token's player
        socket = await open_socket(match.pk, ticket=response.json()["ticket"])
        assert (await next_frame(socket))["your_seat"] == 1
        await socket.disconnect()
    finally:
        await db(forget_all)(cache)


async def test_a_ticket_while_the_cache_cannot_be_reached_closes_1013_try_again_later(
    settings: Any, clients: list[APIClient], started_match: Callable[..., Match]
) -> None:
    match = await db(started_match)("chickenfoot", 3, {"rounds": 1})
    ticket = (await db(clients[1].post)(f"/api/matches/{match.pk}/ticket")).json()["ticket"]

    with refusing_port() as port:
        settings.CACHES = redis_cache(f"redis://127.0.0.1:{port}/0")
        socket = await open_socket(match.pk, ticket=ticket)

        closing = await next_frame(socket)
        assert closing["type"] == "closing"
        assert closing["code"] == CLOSE_TRY_AGAIN_LATER
        assert str(port) not in closing["detail"]
        assert await close_code(socket) == CLOSE_TRY_AGAIN_LATER


async def test_a_ticket_of_a_token_revoked_before_it_is_used_is_refused(
    players: list[Player], started_match: Callable[..., Match]
) -> None:
    match = await db(started_match)("chickenfoot", 3, {"rounds": 1})
    key = await db(token_for)(players[1])
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    ticket = (await db(client.post)(f"/api/matches/{match.pk}/ticket")).json()["ticket"]

    assert (await db(client.post)("/api/auth/logout")).status_code == HTTPStatus.NO_CONTENT

    assert await close_code(await open_socket(match.pk, ticket=ticket)) == CLOSE_UNAUTHENTICATED


async def test_a_socket_opened_by_ticket_closes_when_its_token_is_revoked(
    settings: Any, players: list[Player], started_match: Callable[..., Match]
) -> None:
    settings.LIVE_HEARTBEAT_SECONDS = 0.05
    match = await db(started_match)("chickenfoot", 3, {"rounds": 1})
    key = await db(token_for)(players[1])
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    ticket = (await db(client.post)(f"/api/matches/{match.pk}/ticket")).json()["ticket"]
    socket = await open_socket(match.pk, ticket=ticket)
    assert (await next_frame(socket))["type"] == "hello"
    beat = await frames_until(socket, lambda f: f["type"] == "heartbeat")
    assert beat[-1]["type"] == "heartbeat"

    assert (await db(client.post)("/api/auth/logout")).status_code == HTTPStatus.NO_CONTENT

    assert await close_code(socket) == CLOSE_UNAUTHENTICATED


async def test_a_ticket_needs_a_seat_or_an_organiser(
    started_match: Callable[..., Match],
) -> None:
    from tests.games.conftest import client_for

    match = await db(started_match)("chickenfoot", 3, {"rounds": 1})
    stranger = await db(PlayerFactory)(user__username="mallory")
    client = await db(client_for)(stranger)
    response = await db(client.post)(f"/api/matches/{match.pk}/ticket")
    assert response.status_code == HTTPStatus.FORBIDDEN
    assert response["Content-Type"] == "application/problem+json"
    missing = await db(client.post)("/api/matches/999999/ticket")
    assert missing.status_code == HTTPStatus.NOT_FOUND


async def test_resign_and_abandon_reach_the_sockets(
    players: list[Player], clients: list[APIClient], started_match: Callable[..., Match]
) -> None:
    match = await db(started_match)("chickenfoot", 3, {"rounds": 2})
    socket = await open_socket(match.pk, players[0])
    await next_frame(socket)  # hello

    response = await db(clients[2].post)(f"/api/matches/{match.pk}/resign")
    assert response.status_code == HTTPStatus.OK
    left = await frames_until(socket, lambda f: f["type"] == "seat_left")
    assert left[-1]["seat"] == 2
    assert left[-1]["reason"] == "resigned"
    assert left[-1]["bot_level"] == 2

    response = await db(clients[0].post)(f"/api/matches/{match.pk}/abandon")
    assert response.status_code == HTTPStatus.OK
    frames = await frames_until(socket, lambda f: f["type"] == "match_over")
    assert any(f["type"] == "match_abandoned" for f in frames)
    assert frames[-1]["status"] == "abandoned"
    assert frames[-1]["standings"] is None
    assert await close_code(socket) == CLOSE_MATCH_OVER


@pytest.mark.parametrize("variant", ["chickenfoot", "mexican_train"])
async def test_a_human_and_three_bots_play_a_whole_match_from_socket_frames(
    players: list[Player], clients: list[APIClient], variant: str
) -> None:
    """The client acts only on what its socket says: a `turn` frame for its seat -> a move."""
    from games.services import SeatSpec, match_create

    # given: a human and three bots (levels 1-3), the human's socket open from the start
    specs = [SeatSpec("creator"), SeatSpec("bot", 1), SeatSpec("bot", 2), SeatSpec("bot", 3)]
    options = {"rounds": 2} if variant == "chickenfoot" else {"max_pip": 9, "rounds": 2}
    match = await db(match_create)(
        creator=players[0], variant=variant, seats=specs, options=options
    )
    socket = await open_socket(match.pk, players[0], after=0)
    assert (await next_frame(socket))["type"] == "hello"
    response = await db(clients[0].post)(f"/api/matches/{match.pk}/start")
    assert response.status_code == HTTPStatus.OK

    # when: the client answers every turn frame that names its seat
    rng = random.Random(8)
    seqs: list[int] = []
    human_moves = 0
    while True:
        frame = await next_frame(socket, timeout=30)
        if frame["type"] == "move":
            seqs.append(frame["seq"])
        elif frame["type"] == "turn" and frame["seat"] == 0:
            legal = await db(clients[0].get)(f"/api/matches/{match.pk}/legal-moves")
            body = legal.json()
            assert body["version"] == frame["version"]  # the frame is the match as it is
            move = {**rng.choice(body["moves"]), "version": frame["version"]}
            answer = await db(clients[0].post)(
                f"/api/matches/{match.pk}/moves", move, format="json"
            )
            assert answer.status_code == HTTPStatus.CREATED, answer.content
            human_moves += 1
        elif frame["type"] == "match_over":
            break

    # then: the match is over, every move came once and in order, and bots did move
    assert await close_code(socket) == CLOSE_MATCH_OVER
    finished = await db(Match.objects.get)(pk=match.pk)
    assert finished.status == Match.Status.FINISHED
    assert seqs == list(range(1, finished.moves_played + 1))
    assert 0 < human_moves < finished.moves_played
    http = (await db(clients[0].get)(f"/api/matches/{match.pk}")).json()["standings"]
    assert frame["standings"] == http
    engine = [(row["seat"], row["place"], row["total"]) for row in finished.standings]
    assert [(row["seat"], row["place"], row["total"]) for row in frame["standings"]] == engine


async def test_on_the_embedded_default_a_clock_runs_out_in_the_serving_process(
    settings: Any, players: list[Player]
) -> None:
    """No broker: the process's own timers warn, play the timed-out turn, and tell the socket."""
    from games.services import SeatSpec, match_create, match_start, seat_join

    settings.CLOCK_IN_PROCESS = True
    match = await db(match_create)(
        creator=players[0],
        variant="chickenfoot",
        seats=[SeatSpec("creator"), SeatSpec("open")],
        options={"rounds": 1, "turn_seconds": 1, "timeouts_to_takeover": 5},
    )
    await db(seat_join)(match_id=match.pk, player=players[1])
    socket = await open_socket(match.pk, players[0])
    await next_frame(socket)  # hello

    await db(match_start)(match_id=match.pk, player=players[0])

    frames = await frames_until(socket, lambda f: f["type"] == "move", timeout=20)
    kinds = [f["type"] for f in frames]
    assert "clock_warning" in kinds
    assert frames[-1]["timed_out"] is True
    await socket.disconnect()


async def test_the_hello_gives_each_seat_its_players_avatar_on_the_sockets_host(
    players: list[Player], clients: list[APIClient], started_match: Callable[..., Match]
) -> None:
    match = await db(started_match)("chickenfoot", 2)
    token = await database_sync_to_async(token_for)(players[0])
    headers = [(b"authorization", f"Token {token}".encode()), (b"host", b"testserver")]
    socket = WebsocketCommunicator(application, f"/ws/matches/{match.pk}", headers=headers)
    assert (await socket.connect(timeout=5))[0]
    hello = await next_frame(socket)
    await socket.disconnect()
    bare = await open_socket(match.pk, players[0])  # no Host header: the paths alone
    paths = (await next_frame(bare))["match"]["seats"]
    await bare.disconnect()

    for seat, bare_seat in zip(hello["match"]["seats"], paths, strict=True):
        profile = await db(clients[1].get)(f"/api/players/{seat['player_id']}")
        assert seat["avatar_url"] == profile.json()["avatar_url"]
        assert seat["avatar_url"].startswith("http://testserver/")
        assert bare_seat["avatar_url"] == seat["avatar_url"].removeprefix("http://testserver")
