"""C-HIDDEN over HTTP: no answer to a seat shows another seat's hand or the boneyard."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Iterator
from http import HTTPStatus
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.models import Match, Player
from games.notifications import kinds
from games.notifications.services import notify
from tests.games.helpers import play_turn, submit
from tests.games.push_service import PushService

pytestmark = pytest.mark.django_db

#: What a chat frame carries (docs/api.md, "Live"): a phrase id, its text, who said it, when.
CHAT_KEYS = {"type", "chat_seq", "seat", "player_id", "phrase", "kind", "emoji", "text", "sent_at"}
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
    """C-HIDDEN on the socket: each seat's frames, checked against the secrets of the moment;
    the seats' quick chat among them, which carries no tile and reaches no spectator."""
    from channels.db import database_sync_to_async as db

    from games.chat.services import chat_send
    from tests.games.helpers import play_turn
    from tests.games.live import frames_until, open_socket

    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    match = await db(started_match)(variant, 3, options)
    organiser = players[3]
    organiser.is_organiser = True
    await db(organiser.save)()
    sockets = [await open_socket(match.pk, players[i], after=0) for i in range(4)]
    rng = random.Random(17)
    checked = own_seen = chatted = turns = 0
    while True:
        if turns % 5 == 0:
            await db(chat_send)(match_id=match.pk, player=players[turns % 3], phrase="oops")
        turns += 1
        if await db(play_turn)(clients, match.pk, rng) is None:
            break
        await db(match.refresh_from_db)()
        over = match.status != Match.Status.PLAYING
        for seat, socket in enumerate(sockets):
            frames = await frames_until(socket, lambda f: f["type"] in ("turn", "match_over"))
            for chat in (f for f in frames if f["type"] == "chat"):
                assert seat < 3, f"the spectator was sent {chat}"
                assert set(chat) == CHAT_KEYS, chat
                assert not list(tiles_in(chat)), chat
                chatted += 1
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
    assert chatted > 10


BOT_SEATS = [{"kind": "bot", "level": 1}, {"kind": "bot", "level": 2}, {"kind": "bot", "level": 3}]


def _bot_match_started_by(client: APIClient, variant: str, options: dict[str, Any]) -> Any:
    created = client.post(
        "/api/matches", {"variant": variant, "options": options, "seats": BOT_SEATS}, format="json"
    )
    assert created.status_code == HTTPStatus.CREATED, created.content
    return client.post(f"/api/matches/{created.json()['id']}/start")


@pytest.mark.parametrize(
    ("variant", "options"),
    [("chickenfoot", {"rounds": 2}), ("mexican_train", {"max_pip": 9, "rounds": 2})],
)
def test_the_creator_of_a_bot_match_starts_it_and_watches_without_a_hand(
    clients: list[APIClient], variant: str, options: dict[str, Any]
) -> None:
    """A match of bots only: its creator has no seat, starts it, and follows it as a spectator
    (as an organiser would), shown no hand and no boneyard at any point of the match."""
    from games.services import bot_turn_play

    creator = clients[0]

    started = _bot_match_started_by(creator, variant, options)

    assert started.status_code == HTTPStatus.OK, started.content
    body = started.json()
    assert (body["status"], body["your_seat"]) == ("playing", None)
    match = Match.objects.get(pk=body["id"])
    checked = 0
    while match.status == Match.Status.PLAYING:
        running = match.state["round_no"]
        hidden = secrets_from(match, seat=-1)  # a spectator holds no hand: every tile is secret
        after = max(0, match.moves_played - 5)
        for path in ("", f"/log?after={after}", "/rounds"):
            response = creator.get(f"/api/matches/{match.pk}{path}")
            assert response.status_code == HTTPStatus.OK, (path, response.content)
            leaked = visible(response.json(), running) & hidden if path != "/rounds" else set()
            assert not leaked, f"the creator was shown {sorted(leaked)} at {path}"
            checked += 1
        for picture in ("board.svg", "scores.svg"):
            assert creator.get(f"/api/matches/{match.pk}/{picture}").status_code == HTTPStatus.OK
        assert not creator.get(f"/api/matches/{match.pk}").json()["state"].get("hand")
        assert bot_turn_play(match_id=match.pk) is not None
        match.refresh_from_db()
    # nobody else may watch it while it played; the creator may not move for a bot
    assert checked > 100
    assert creator.get(f"/api/matches/{match.pk}/legal-moves").status_code == HTTPStatus.FORBIDDEN


def test_a_stranger_may_not_watch_a_bot_match_in_play(clients: list[APIClient]) -> None:
    started = _bot_match_started_by(clients[0], "chickenfoot", {"rounds": 1})
    match_id = started.json()["id"]

    for path in ("", "/log", "/rounds", "/board.svg"):
        response = clients[1].get(f"/api/matches/{match_id}{path}")
        assert response.status_code == HTTPStatus.FORBIDDEN, path
        assert response.json()["code"] == "not_your_match"
    assert clients[1].post(f"/api/matches/{match_id}/start").status_code == HTTPStatus.FORBIDDEN


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_creator_of_a_bot_match_watches_its_socket_without_a_hand(
    settings: Any, players: list[Any], clients: list[APIClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The socket follows the HTTP rules: the creator is let in as a spectator, shown no hand;
    a stranger is refused."""
    from channels.db import database_sync_to_async as db

    import games.tasks
    from games.live.access import CLOSE_FORBIDDEN
    from games.services import bot_turn_play
    from tests.games.live import close_code, frames_until, next_frame, open_socket

    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    # No worker runs the bots' turns: this test plays them one by one, checking between moves.
    monkeypatch.setattr(games.tasks, "enqueue_on_commit", lambda *args, **kwargs: None)
    started = await db(_bot_match_started_by)(clients[0], "chickenfoot", {"rounds": 2})
    assert started.status_code == HTTPStatus.OK, started.content
    match = await db(Match.objects.get)(pk=started.json()["id"])

    assert await close_code(await open_socket(match.pk, players[1])) == CLOSE_FORBIDDEN
    socket = await open_socket(match.pk, players[0], after=0)
    assert (await next_frame(socket))["your_seat"] is None
    checked = 0
    while await db(bot_turn_play)(match_id=match.pk) is not None:
        await db(match.refresh_from_db)()
        frames = await frames_until(socket, lambda f: f["type"] in ("turn", "match_over"))
        if match.status != Match.Status.PLAYING:
            break
        moves = [f for f in frames if f["type"] in ("move", "match_started")]
        for frame in moves:
            frame.setdefault("round", 1)
            frame.setdefault("tile", None)
        seen = visible({"next_after": None, "moves": moves}, match.state["round_no"])
        leaked = seen & secrets_from(match, seat=-1)
        assert not leaked, f"the creator was sent {sorted(leaked)} in {frames}"
        checked += 1
    await socket.disconnect()
    assert checked > 50


@pytest.mark.django_db(transaction=True)  # pushes go after commit, as they would
def test_no_push_or_inbox_text_carries_a_tile_an_email_or_the_seed(
    service: PushService, players: list[Player], clients: list[APIClient], started_match: Any
) -> None:
    # given: players with e-mail addresses, grace's browser subscribed, a match played a while
    for player in players:
        Player.objects.filter(pk=player.pk).update(email=f"{player.user.username}@example.org")
    answer = clients[1].post("/api/push/devices", service.subscription(), format="json")
    assert answer.status_code == HTTPStatus.CREATED
    match: Match = started_match("chickenfoot", 3)
    rng = random.Random(4)
    for _ in range(12):
        play_turn(clients[:3], match.pk, rng)
    notify(player_id=players[1].pk, kind="match_over", payload=kinds.match_over(match_id=match.pk))
    assert service.wait("match_over") is not None
    match.refresh_from_db()

    # then: no tile, address, seed or word of the hidden state is in anything she was sent
    listed = clients[1].get("/api/notifications?page_size=100").json()["results"]
    sent = [r.message for r in service.received] + listed
    assert len(sent) > 2
    for message in sent:
        assert list(tiles_in(message)) == []
        text = json.dumps(message, ensure_ascii=False)
        assert "@example.org" not in text
        assert match.seed not in text
        assert not any(word in text.lower() for word in ("hand", "tile", "boneyard", "seed"))
        assert message.get("title")
        assert message.get("body")


def _swap_hidden(match: Match, seat: int) -> None:
    """Give the other seats other tiles (swapped with the boneyard's, counts kept): what
    ``seat`` may know is unchanged, the hidden truth is not."""
    state = match.state
    hidden = [tuple(t) for t in state["boneyard"]]
    others = [s for s in range(len(state["hands"])) if s != seat]
    for other in others:
        hidden += [tuple(t) for t in state["hands"][other]]
    shuffled = list(reversed(hidden))
    for other in others:
        count = len(state["hands"][other])
        state["hands"][other], shuffled = [list(t) for t in shuffled[:count]], shuffled[count:]
    state["boneyard"] = [list(t) for t in shuffled]
    Match.objects.filter(pk=match.pk).update(state=state)


def test_a_hint_names_only_the_askers_own_move_from_its_own_view(
    clients: list[APIClient], players: list[Any]
) -> None:
    from games.analysis.models import HintUse

    body = {"variant": "chickenfoot", "hints": True, "options": {"rounds": 1},
            "seats": [{"kind": "creator"}, {"kind": "open"}, {"kind": "open"}]}  # fmt: skip
    match_id = clients[0].post("/api/matches", body, format="json").json()["id"]
    for seat in (1, 2):
        clients[seat].post(f"/api/matches/{match_id}/join", {}, format="json")
    clients[0].post(f"/api/matches/{match_id}/start")
    rng = random.Random(5)
    hints = 0
    for _ in range(12):
        match = Match.objects.get(pk=match_id)
        if match.status != Match.Status.PLAYING:
            break
        turn = match.state["turn"]
        for seat in range(3):
            if seat == turn:
                continue
            refused = clients[seat].get(f"/api/matches/{match_id}/hint")
            assert refused.status_code == HTTPStatus.CONFLICT
            assert not set(tiles_in(refused.json()))
        answer = clients[turn].get(f"/api/matches/{match_id}/hint")
        assert answer.status_code == HTTPStatus.OK, answer.content
        shown = set(tiles_in(answer.json()))
        own = {(min(t), max(t)) for t in match.state["hands"][turn]}
        assert shown <= own, f"the hint showed {sorted(shown - own)}"
        # the same hint whatever the other hands hold: it is worked out from the seat's view
        HintUse.objects.filter(match_id=match_id).delete()
        _swap_hidden(match, turn)
        again = clients[turn].get(f"/api/matches/{match_id}/hint")
        assert again.json()["move"] == answer.json()["move"]
        assert again.json()["reason"] == answer.json()["reason"]
        hints += 1
        legal = clients[turn].get(f"/api/matches/{match_id}/legal-moves").json()
        move = rng.choice(legal["moves"])
        submit(clients[turn], match_id, {**move, "version": legal["version"]})
    assert hints >= 6


def test_analysis_and_replay_show_nothing_before_the_end(
    clients: list[APIClient], started_match: Callable[..., Match]
) -> None:
    match = started_match("chickenfoot", 3, {"rounds": 1})
    for client in clients:  # the three players and a stranger
        for path in ("analysis", "replay?seq=0", "replay?seq=1"):
            answer = client.get(f"/api/matches/{match.pk}/{path}")
            assert answer.status_code in (HTTPStatus.CONFLICT, HTTPStatus.FORBIDDEN)
            assert not set(tiles_in(answer.json())), answer.json()
    anonymous = APIClient()
    for path in ("analysis", "replay?seq=0"):
        answer = anonymous.get(f"/api/matches/{match.pk}/{path}")
        assert answer.status_code == HTTPStatus.UNAUTHORIZED
        assert not set(tiles_in(answer.json()))
    # the page is a frame its script fills from the replay API (refused above): it carries no
    # tile of its own
    page = clients[0].get(f"/matches/{match.pk}/replay/")
    assert page.status_code == HTTPStatus.OK
    html = page.content.decode()
    assert f'data-match-id="{match.pk}"' in html
    assert not re.search(r"\[\s*\d+\s*,\s*\d+\s*\]", html)
