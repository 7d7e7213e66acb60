"""A table round's confirmation (each rule), disputes and their resolution: who may, what the
match view shows, idempotency of a confirmation (409 the second time), hostile reasons kept as
data, and the socket frame after commit."""

from __future__ import annotations

from collections.abc import Callable
from http import HTTPStatus
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.tables.models import RoundReview
from tests.games.test_table_scorer_links import issue, scorer
from tests.games.test_table_scores import GOOD, post

pytestmark = pytest.mark.django_db

HOSTILE = '<script>alert("x")</script> & "quotes" \u202e'


@pytest.fixture
def four(clients: list[APIClient]) -> dict[str, Any]:
    """A table match of ada (creator), grace and alan (accounts) and a guest; round 1 entered by
    ada."""
    response = clients[0].post(
        "/api/matches",
        {
            "variant": "chickenfoot",
            "play": "table",
            "options": {"max_pip": 6, "rounds": 3},
            "seats": [
                {"kind": "creator"},
                {"kind": "player", "username": "grace"},
                {"kind": "player", "username": "alan"},
                {"kind": "guest", "name": "Bea"},
            ],
        },
        format="json",
    )
    assert response.status_code == HTTPStatus.CREATED, response.content
    match = response.json()
    scores = [*GOOD, {"seat": 3, "points": 4}]
    assert post(clients[0], match["id"], 1, scores).status_code == HTTPStatus.CREATED
    return match


def rule(client: APIClient, match_id: int, confirmation: str) -> Any:
    return client.patch(
        f"/api/matches/{match_id}/table-settings", {"confirmation": confirmation}, format="json"
    )


def act(client: APIClient, match_id: int, kind: str, number: int = 1, **body: str) -> Any:
    return client.post(f"/api/matches/{match_id}/rounds/{number}/{kind}", body, format="json")


def round_view(client: APIClient, match_id: int, number: int = 1) -> dict[str, Any]:
    rounds = client.get(f"/api/matches/{match_id}").json()["table_rounds"]
    return next(r for r in rounds if r["number"] == number)


def test_by_default_nobody_need_confirm(four: dict, clients: list[APIClient]) -> None:
    shown = round_view(clients[1], four["id"])

    assert (shown["status"], shown["confirmed_by"], shown["disputed"]) == ("entered", [], False)


def test_any_other_seat_awaits_one_other_seat_and_still_counts(
    four: dict, clients: list[APIClient]
) -> None:
    assert rule(clients[0], four["id"], "any_other_seat").json() == {
        "confirmation": "any_other_seat"
    }
    assert round_view(clients[0], four["id"])["status"] == "awaiting_confirmation"
    # the next round is not blocked
    scores = [*GOOD, {"seat": 3, "points": 4}]
    version = clients[0].get(f"/api/matches/{four['id']}").json()["version"]
    assert post(clients[1], four["id"], 2, scores, version=version).status_code == 201

    own = act(clients[0], four["id"], "confirm")
    done = act(clients[1], four["id"], "confirm")
    twice = act(clients[1], four["id"], "confirm")

    assert (own.status_code, own.json()["code"]) == (HTTPStatus.FORBIDDEN, "own_entry")
    assert done.status_code == HTTPStatus.CREATED, done.content
    assert (done.json()["status"], done.json()["confirmed_by"]) == ("confirmed", [1])
    assert (twice.status_code, twice.json()["code"]) == (HTTPStatus.CONFLICT, "already_confirmed")
    assert round_view(clients[2], four["id"])["status"] == "confirmed"
    assert round_view(clients[2], four["id"], 2)["status"] == "awaiting_confirmation"


def test_every_seat_awaits_each_seat_with_an_account(four: dict, clients: list[APIClient]) -> None:
    rule(clients[0], four["id"], "every_seat")

    first = act(clients[1], four["id"], "confirm").json()
    second = act(clients[2], four["id"], "confirm").json()

    # ada entered it (her seat counts), the guest has no account: grace and alan are needed
    assert (first["status"], first["confirmed_by"]) == ("awaiting_confirmation", [1])
    assert (second["status"], second["confirmed_by"]) == ("confirmed", [1, 2])


def test_a_scorer_links_entry_is_confirmed_by_any_seat(
    four: dict, clients: list[APIClient]
) -> None:
    rule(clients[0], four["id"], "any_other_seat")
    phone = scorer(issue(clients[0], four["id"])["code"])
    scores = [*GOOD, {"seat": 3, "points": 4}]
    version = clients[0].get(f"/api/matches/{four['id']}").json()["version"]
    assert post(phone, four["id"], 2, scores, version=version).status_code == 201

    done = act(clients[0], four["id"], "confirm", number=2)

    assert done.json()["status"] == "confirmed"
    refused = act(phone, four["id"], "confirm")
    assert (refused.status_code, refused.json()["code"]) == (401, "unsupported_auth_scheme")


def test_who_may_set_confirm_dispute_and_resolve(
    four: dict, clients: list[APIClient], players: list[Any]
) -> None:
    outsider = clients[3]  # edsger: no seat
    answers = {
        "rule by a seat": rule(clients[1], four["id"], "every_seat"),
        "bad rule": rule(clients[0], four["id"], "everyone"),
        "confirm without a seat": act(outsider, four["id"], "confirm"),
        "dispute without a seat": act(outsider, four["id"], "dispute", reason="no"),
        "round not entered": act(clients[1], four["id"], "confirm", number=2),
        "resolve with none open": act(clients[0], four["id"], "resolve", note="fine"),
        "empty reason": act(clients[1], four["id"], "dispute", reason="   "),
        "long reason": act(clients[1], four["id"], "dispute", reason="x" * 501),
        "no match": act(clients[1], 999999, "confirm"),
    }
    act(clients[1], four["id"], "dispute", reason="wrong")
    answers["resolve by a seat"] = act(clients[1], four["id"], "resolve", note="mine")

    assert {name: (a.status_code, a.json()["code"]) for name, a in answers.items()} == {
        "rule by a seat": (HTTPStatus.FORBIDDEN, "not_creator"),
        "bad rule": (HTTPStatus.BAD_REQUEST, "invalid"),
        "confirm without a seat": (HTTPStatus.FORBIDDEN, "not_your_match"),
        "dispute without a seat": (HTTPStatus.FORBIDDEN, "not_your_match"),
        "round not entered": (HTTPStatus.NOT_FOUND, "round_not_found"),
        "resolve with none open": (HTTPStatus.CONFLICT, "no_dispute"),
        "empty reason": (HTTPStatus.BAD_REQUEST, "invalid"),
        "long reason": (HTTPStatus.BAD_REQUEST, "invalid"),
        "no match": (HTTPStatus.NOT_FOUND, "match_not_found"),
        "resolve by a seat": (HTTPStatus.FORBIDDEN, "not_creator"),
    }
    assert all(a["Content-Type"] == "application/problem+json" for a in answers.values())


def test_a_dispute_is_flagged_then_resolved_and_every_review_is_kept(
    four: dict, clients: list[APIClient], players: list[Any]
) -> None:
    disputed = act(clients[1], four["id"], "dispute", reason=HOSTILE)

    assert disputed.status_code == HTTPStatus.CREATED, disputed.content
    shown = round_view(clients[2], four["id"])
    assert shown["disputed"] is True
    assert shown["dispute"]["reason"] == HOSTILE  # the text as written, as JSON data
    assert shown["dispute"]["seat"] == 1
    assert RoundReview.objects.get(kind="dispute").reason == HOSTILE  # stored as data

    resolved = act(clients[0], four["id"], "resolve", note="Counted again: 25 stands.")

    assert resolved.status_code == HTTPStatus.CREATED
    shown = round_view(clients[1], four["id"])
    assert (shown["disputed"], shown["dispute"]) == (False, None)
    assert shown["resolution"]["reason"] == "Counted again: 25 stands."
    kept = list(RoundReview.objects.filter(match_id=four["id"]).values_list("kind", "player_id"))
    assert kept == [("dispute", players[1].pk), ("resolve", players[0].pk)]


def test_each_review_is_published_after_commit(
    four: dict,
    clients: list[APIClient],
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    sent: list[dict[str, Any]] = []
    monkeypatch.setattr(
        "games.live.publish.publish", lambda *, match_id, message: sent.append(message["frame"])
    )

    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        act(clients[1], four["id"], "dispute", reason="wrong")
        act(clients[2], four["id"], "confirm")
        act(clients[0], four["id"], "resolve", note="ok")
        assert sent == []
    for callback in callbacks:
        callback()

    assert [(f["type"], f["round"], f["seat"], f["disputed"]) for f in sent] == [
        ("round_disputed", 1, 1, True),
        ("round_confirmed", 1, 2, True),
        ("round_resolved", 1, 0, False),
    ]
    assert sent[0]["reason"] == "wrong"
