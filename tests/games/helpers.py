"""Playing matches through the HTTP API in tests."""

from __future__ import annotations

import random
from http import HTTPStatus
from typing import Any

from rest_framework.test import APIClient

from games.models import Match, Move
from games.services.replay import match_replay_verify


def submit(client: APIClient, match_id: int, move: dict[str, Any], **headers: str) -> Any:
    return client.post(f"/api/matches/{match_id}/moves", move, format="json", **headers)


def play_turn(
    clients: list[APIClient], match_id: int, rng: random.Random, seen: list[Any] | None = None
) -> dict[str, Any] | None:
    """Play one move for whoever's turn it is (a random legal move); ``None`` once it is over."""
    match = Match.objects.get(pk=match_id)
    if match.status != Match.Status.PLAYING:
        return None
    turn = match.state["turn"]
    client = clients[turn]
    legal = client.get(f"/api/matches/{match_id}/legal-moves")
    assert legal.status_code == HTTPStatus.OK, legal.content
    body = legal.json()
    move = rng.choice(body["moves"])
    response = submit(client, match_id, {**move, "version": body["version"]})
    assert response.status_code == HTTPStatus.CREATED, response.content
    if seen is not None:
        seen.append((turn, legal))
        seen.append((turn, response))
    return response.json()


def play_to_end(clients: list[APIClient], match_id: int, seed: int = 0, limit: int = 20000) -> int:
    """Play random legal moves until the match is over; return how many were played."""
    rng = random.Random(seed)
    for played in range(limit):
        if play_turn(clients, match_id, rng) is None:
            return played
    raise AssertionError(f"match {match_id} did not end in {limit} moves")


def assert_played_exactly_once(match: Match) -> None:
    """Every move is in the log once: seq 1..n without gaps, and the log replays from the seed."""
    match.refresh_from_db()
    seqs = list(Move.objects.filter(match=match).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, match.moves_played + 1))
    report = match_replay_verify(match_id=match.pk)
    assert report.ok, report.problems


def moves_of(match: Match) -> int:
    return Match.objects.values_list("moves_played", flat=True).get(pk=match.pk)


def avatars_of(client: APIClient, player_id: int) -> dict[str, str]:
    """``player_id``'s ``avatar_url`` and ``avatar_small_url`` as their profile gives them: what
    every other place that shows the player must give too."""
    body = client.get(f"/api/players/{player_id}").json()
    return {key: body[key] for key in ("avatar_url", "avatar_small_url")}
