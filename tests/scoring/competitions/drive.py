"""Driving competitions through the HTTP API in tests: players' moves, waiting for the bots."""

from __future__ import annotations

import random
import time
from http import HTTPStatus
from typing import Any

from rest_framework.test import APIClient

from games.models import Match, Seat
from scoring.models import CompetitionMatch

#: How long the worker variant waits for bots and the end-of-match task.
WAIT_SECONDS = 120


def play_matches(match_ids: list[int], clients: dict[int, APIClient], rng: random.Random) -> None:
    """Play every human seat's turns through the API (a random legal move) until every match
    is over and its results are in; bots move through Celery between the human moves."""
    humans = {
        (seat.match_id, seat.position): seat.player_id
        for seat in Seat.objects.filter(match_id__in=match_ids, player__kind="human")
    }
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        moved = False
        for match in Match.objects.filter(pk__in=match_ids, status=Match.Status.PLAYING):
            player_id = humans.get((match.pk, match.state["turn"]))
            if player_id is not None:
                play_one(clients[player_id], match.pk, rng)
                moved = True
        if not moved:
            done = CompetitionMatch.objects.filter(match_id__in=match_ids, finished=True).count()
            if done == len(match_ids):
                return
            time.sleep(0.05)  # a worker is playing a bot or finalising a match
    raise AssertionError(f"matches {match_ids} did not finish in {WAIT_SECONDS} s")


def play_one(client: APIClient, match_id: int, rng: random.Random) -> None:
    legal = client.get(f"/api/matches/{match_id}/legal-moves")
    if legal.status_code != HTTPStatus.OK:
        return  # the turn moved on under us (a bot's or the end): look again
    body: dict[str, Any] = legal.json()
    if not body["moves"]:
        return
    move = rng.choice(body["moves"])
    response = client.post(
        f"/api/matches/{match_id}/moves", {**move, "version": body["version"]}, format="json"
    )
    assert response.status_code in (HTTPStatus.CREATED, HTTPStatus.CONFLICT), response.content
