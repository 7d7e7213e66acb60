"""Friends, friend requests, blocks and presence show a player as a card (id, display name,
kind, avatar) and nothing else of theirs: no e-mail address, username, token, language,
visibility setting or anything of another player's private profile, in any answer, inbox row
or socket frame; a hostile name is returned as the same plain text."""

from __future__ import annotations

import json
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from chickenfoot.asgi import application
from games.models import Player
from tests.foundation.hostile import STORABLE
from tests.games.conftest import client_for
from tests.games.factories import PlayerFactory, token_for
from tests.games.live import TIMEOUT, next_frame

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

db = database_sync_to_async
CARD = {"id", "name", "kind", "avatar_url", "avatar_small_url"}


def private_player(name: str, display: str) -> tuple[Player, str, set[str]]:
    """A player with every private field set to something recognisable, their token's key,
    and the strings that must not reach anyone else."""
    player = PlayerFactory(
        user__username=f"secret-{name}",
        user__email=f"{name}@private.example",
        display_name=display,
        email=f"{name}-verified@private.example",
        language="hy",
        profile_visibility=Player.Visibility.NOBODY,
    )
    key = token_for(player)
    return player, key, {f"secret-{name}", f"{name}@private.example", f"{name}-verified@", key}


def cards_in(node: Any) -> list[dict[str, Any]]:
    """Every object of an answer that names a player by ``name``."""
    found = []
    if isinstance(node, dict):
        if "name" in node:
            found.append(node)
        for value in node.values():
            found += cards_in(value)
    elif isinstance(node, list):
        for item in node:
            found += cards_in(item)
    return found


def answers_of(ada: Player, grace: Player, alan: Player) -> list[Any]:
    """Every friends and blocks answer there is, as ada, grace and alan see them."""
    a, g, al = client_for(ada), client_for(grace), client_for(alan)
    out: list[Any] = []
    sent = a.post("/api/friends/requests", {"player_id": grace.pk}, format="json")
    out += [sent, a.get("/api/friends/requests"), g.get("/api/friends/requests")]
    out.append(g.post(f"/api/friends/requests/{sent.json()['id']}/accept"))
    declined = al.post("/api/friends/requests", {"player_id": ada.pk}, format="json")
    out += [declined, a.post(f"/api/friends/requests/{declined.json()['id']}/decline")]
    out += [a.get("/api/friends"), g.get("/api/friends")]
    out += [g.get(f"/api/players/{ada.pk}"), al.get(f"/api/players/{ada.pk}")]
    out += [al.post(f"/api/players/{ada.pk}/block"), al.get("/api/players/me/blocks")]
    out += [g.get("/api/notifications"), a.get("/api/notifications")]
    return out


async def test_no_private_field_reaches_another_player(players: list[Player]) -> None:
    ada, ada_key, ada_secrets = await db(private_player)("ada2", STORABLE[0])
    grace, grace_key, grace_secrets = await db(private_player)("grace2", STORABLE[1])
    alan, _alan_key, alan_secrets = await db(private_player)("alan2", "Alan")
    socket = WebsocketCommunicator(
        application, "/ws/me/", headers=[(b"authorization", f"Token {grace_key}".encode())]
    )
    assert (await socket.connect(timeout=TIMEOUT))[0]
    assert (await next_frame(socket))["type"] == "hello"
    other_socket = WebsocketCommunicator(
        application, "/ws/me/", headers=[(b"authorization", f"Token {ada_key}".encode())]
    )
    assert (await other_socket.connect(timeout=TIMEOUT))[0]
    await next_frame(other_socket)

    answers = await db(answers_of)(ada, grace, alan)
    frames = [await next_frame(socket)]  # grace: ada's request

    everything = [answer.json() for answer in answers] + frames
    assert all(answer.status_code < 300 for answer in answers)
    text = json.dumps(everything, ensure_ascii=False)
    for secret in ada_secrets | grace_secrets | alan_secrets:
        assert secret not in text
    for key in ("hy", "nobody"):
        assert f'"{key}"' not in text
    profiles = [card for card in cards_in(everything) if "hidden" in card]
    assert len(profiles) == 2
    for profile in profiles:  # ada's, hidden from everyone ("nobody"), a friend included
        assert profile["hidden"] is True
        hidden = ("joined", "ratings", "statistics", "recent_results")
        assert all(profile[name] is None for name in hidden)
    for card in cards_in(everything):
        if "hidden" not in card:
            assert set(card) == CARD
        if card.get("id") == ada.pk:
            assert card["name"] == STORABLE[0]  # the same text, never escaped or markup
    presence = [
        row
        for answer in everything
        if isinstance(answer, dict)
        for row in answer.get("results", [])
    ]
    assert {row.get("presence") for row in presence if "presence" in row} <= {
        "offline",
        "online",
        "in_match",
    }
    await socket.disconnect()
    await other_socket.disconnect()
