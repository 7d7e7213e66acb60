"""Driving a table event through the API in tests: create it, add entrants, start and score
stages (each table's one round: the first of ``winners`` at the table goes out)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from http import HTTPStatus
from typing import Any

from rest_framework.test import APIClient

API = "/api/competitions"


def event_body(**fields: Any) -> dict[str, Any]:
    """A table tournament's creation body: a club night of three stages at tables of 2, with
    ``fields`` given or changed."""
    return {
        "kind": "tournament",
        "play": "table",
        "name": "Club night",
        "variant": "chickenfoot",
        "table_size": 2,
        "stage_count": 3,
        "options": {"rounds": 1},
        **fields,
    }


def create_event(client: APIClient, **fields: Any) -> int:
    response = client.post(API, event_body(**fields), format="json")
    assert response.status_code == HTTPStatus.CREATED, response.content
    return int(response.json()["id"])


def add(client: APIClient, cid: int, **body: Any) -> dict[str, Any]:
    response = client.post(f"{API}/{cid}/entrants", body, format="json")
    assert response.status_code == HTTPStatus.CREATED, response.content
    (entrant,) = response.json()["entrants"]
    return dict(entrant)


def check_in_all(client: APIClient, cid: int, player_ids: Iterable[int]) -> None:
    for player_id in player_ids:
        response = client.post(f"{API}/{cid}/check-in", {"player_id": player_id}, format="json")
        assert response.status_code == HTTPStatus.OK, response.content


def start(client: APIClient, cid: int, number: int) -> dict[str, Any]:
    response = client.post(f"{API}/{cid}/stages", {"number": number}, format="json")
    assert response.status_code == HTTPStatus.CREATED, response.content
    return dict(response.json())


def score_stage(
    client: APIClient,
    cid: int,
    number: int,
    capture: Callable[..., Any],
    winners: Iterable[int] = (),
) -> list[dict[str, Any]]:
    """Enter every table of stage ``number``: at each, the first seated player of ``winners``
    (else seat 0) goes out and the others keep 10 + their seat's number of points."""
    first = list(winners)
    board = client.get(f"{API}/{cid}/stages/{number}/dashboard").json()
    for table in board["tables"]:
        ids = [seat["player_id"] for seat in table["seats"]]
        out = min(
            (i for i, pid in enumerate(ids) if pid in first),
            key=lambda i: first.index(ids[i]),
            default=0,
        )
        scores = [
            {"seat": i, "points": 0 if i == out else 10 + i, "went_out": i == out}
            for i in range(len(ids))
        ]
        with capture(execute=True):
            entered = client.post(
                f"/api/matches/{table['match_id']}/rounds/1/scores",
                {"version": 0, "scores": scores},
                format="json",
            )
        assert entered.status_code == HTTPStatus.CREATED, entered.content
    return list(board["tables"])


def seated(client: APIClient, cid: int, number: int) -> list[list[int]]:
    """Stage ``number``'s tables: the player ids at each, in seat order."""
    stages = client.get(f"{API}/{cid}/stages").json()["stages"]
    stage = next(s for s in stages if s["number"] == number)
    return [[seat["player_id"] for seat in table["seats"]] for table in stage["tables"]]
