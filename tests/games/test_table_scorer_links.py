"""Scorer links: a code that opens exactly one table match's score entry and reading, issued
and revoked by the match's creator, kept only as a hash, with failed codes throttled per
address (and the throttle failing open when the cache is down)."""

from __future__ import annotations

import uuid
from http import HTTPStatus
from typing import Any

import pytest
from rest_framework.test import APIClient

from chickenfoot.env import env_rate
from games.tables.claims import code_hash
from games.tables.models import ScoreEntry, ScorerLink
from tests.caches import cache_of_own
from tests.games.test_table_scores import GOOD, create, post
from tests.processes import redis_cache, refusing_port

pytestmark = pytest.mark.django_db


def issue(client: APIClient, match_id: int) -> dict[str, Any]:
    response = client.post(f"/api/matches/{match_id}/scorer-links")
    assert response.status_code == HTTPStatus.CREATED, response.content
    return response.json()


def scorer(code: str, address: str = "192.0.2.10") -> APIClient:
    client = APIClient(REMOTE_ADDR=address)
    client.credentials(HTTP_AUTHORIZATION=f"Scorer {code}")
    return client


@pytest.fixture
def table(clients: list[APIClient]) -> dict[str, Any]:
    return create(clients[0])


def test_the_creator_issues_a_link_shown_once_and_kept_as_a_hash(
    table: dict, clients: list[APIClient], settings: Any
) -> None:
    # when
    link = issue(clients[0], table["id"])

    # then: a 10-character code from the unambiguous alphabet, a URL on the request's host
    assert len(link["code"]) == 10
    assert set(link["code"]) <= set("ABCDEFGHJKMNPQRSTUVWXYZ23456789")
    assert link["url"] == f"http://testserver/score/#{link['code']}"
    row = ScorerLink.objects.get(pk=link["id"])
    assert row.code_hash == code_hash(link["code"])
    assert link["code"] not in str(ScorerLink.objects.values().get(pk=row.pk))
    listed = clients[0].get(f"/api/matches/{table['id']}/scorer-links").json()
    assert listed == {
        "links": [
            {
                "id": link["id"],
                "created_at": listed["links"][0]["created_at"],
                "revoked_at": None,
                "last_used_at": None,
            }
        ]
    }
    settings.SCORER_LINK_BASE_URL = "https://score.example/"
    other = issue(clients[0], table["id"])
    assert other["url"] == f"https://score.example/score/#{other['code']}"


def test_only_the_creator_manages_links_and_only_of_a_table_match(
    table: dict, clients: list[APIClient], started_match: Any
) -> None:
    link = issue(clients[0], table["id"])
    online = started_match(n=2)
    answers = [
        clients[1].post(f"/api/matches/{table['id']}/scorer-links"),  # seated, not the creator
        clients[1].get(f"/api/matches/{table['id']}/scorer-links"),
        clients[1].delete(f"/api/matches/{table['id']}/scorer-links/{link['id']}"),
        clients[0].post(f"/api/matches/{online.pk}/scorer-links"),
        clients[0].delete(f"/api/matches/{table['id']}/scorer-links/999999"),
        clients[0].post("/api/matches/999999/scorer-links"),
    ]

    assert [(a.status_code, a.json()["code"]) for a in answers] == [
        (HTTPStatus.FORBIDDEN, "not_creator"),
        (HTTPStatus.FORBIDDEN, "not_creator"),
        (HTTPStatus.FORBIDDEN, "not_creator"),
        (HTTPStatus.CONFLICT, "not_table_match"),
        (HTTPStatus.NOT_FOUND, "scorer_link_not_found"),
        (HTTPStatus.NOT_FOUND, "match_not_found"),
    ]
    assert all(a["Content-Type"] == "application/problem+json" for a in answers)


def test_a_scorer_code_opens_exactly_its_match(table: dict, clients: list[APIClient]) -> None:
    # given: a link for one table match, and another table match of the same creator
    code = issue(clients[0], table["id"])["code"]
    other = create(clients[0])
    phone = scorer(code)

    # when / then: its match's score entry, match view and rounds are open
    entered = post(phone, table["id"], 1, GOOD)
    assert entered.status_code == HTTPStatus.CREATED, entered.content
    view = phone.get(f"/api/matches/{table['id']}")
    assert view.status_code == HTTPStatus.OK
    assert view.json()["your_seat"] is None
    assert view.json()["table_rounds"][0]["scores"][1]["points"] == 25
    assert phone.get(f"/api/matches/{table['id']}/rounds").status_code == HTTPStatus.OK

    # and nothing else is
    refused = {
        "other scores": post(phone, other["id"], 1, GOOD),
        "other view": phone.get(f"/api/matches/{other['id']}"),
        "other rounds": phone.get(f"/api/matches/{other['id']}/rounds"),
        "no match": phone.get("/api/matches/999999"),
        "me": phone.get("/api/players/me"),
        "moves": phone.post(f"/api/matches/{table['id']}/moves", {}, format="json"),
        "legal moves": phone.get(f"/api/matches/{table['id']}/legal-moves"),
        "links": phone.get(f"/api/matches/{table['id']}/scorer-links"),
        "new link": phone.post(f"/api/matches/{table['id']}/scorer-links"),
        "mine": phone.get("/api/matches/mine"),
        "claim code": phone.post(f"/api/matches/{table['id']}/seats/2/claim-code"),
    }
    elsewhere = ("me", "moves", "legal moves", "links", "new link", "mine", "claim code")
    assert {name: (a.status_code, a.json()["code"]) for name, a in refused.items()} == {
        "other scores": (HTTPStatus.FORBIDDEN, "not_scorer"),
        "other view": (HTTPStatus.FORBIDDEN, "not_scorer"),
        "other rounds": (HTTPStatus.FORBIDDEN, "not_scorer"),
        "no match": (HTTPStatus.NOT_FOUND, "match_not_found"),
        **dict.fromkeys(elsewhere, (HTTPStatus.UNAUTHORIZED, "unsupported_auth_scheme")),
    }


def test_an_entry_records_the_link_or_the_player_that_made_it(
    table: dict, clients: list[APIClient], players: list[Any]
) -> None:
    link = issue(clients[0], table["id"])
    post(scorer(link["code"]), table["id"], 1, GOOD, HTTP_IDEMPOTENCY_KEY="r1")
    again = post(scorer(link["code"]), table["id"], 1, GOOD, HTTP_IDEMPOTENCY_KEY="r1")
    post(clients[1], table["id"], 2, GOOD, version=1)

    assert again.status_code == HTTPStatus.CREATED
    assert again["Idempotent-Replayed"] == "true"
    entries = list(ScoreEntry.objects.filter(match_id=table["id"]).order_by("pk"))
    assert [(e.scorer_link_id, e.entered_by_id) for e in entries] == [
        (link["id"], None),
        (None, players[1].pk),
    ]
    assert ScorerLink.objects.get(pk=link["id"]).last_used_at is not None


def test_a_revoked_link_is_refused_at_once(table: dict, clients: list[APIClient]) -> None:
    link = issue(clients[0], table["id"])
    phone = scorer(link["code"])
    assert phone.get(f"/api/matches/{table['id']}").status_code == HTTPStatus.OK

    revoked = clients[0].delete(f"/api/matches/{table['id']}/scorer-links/{link['id']}")
    again = clients[0].delete(f"/api/matches/{table['id']}/scorer-links/{link['id']}")

    assert (revoked.status_code, again.status_code) == (HTTPStatus.NO_CONTENT,) * 2
    refused = post(phone, table["id"], 1, GOOD)
    assert (refused.status_code, refused.json()["code"]) == (
        HTTPStatus.UNAUTHORIZED,
        "authentication_failed",
    )
    assert phone.get(f"/api/matches/{table['id']}").status_code == HTTPStatus.UNAUTHORIZED
    listed = clients[0].get(f"/api/matches/{table['id']}/scorer-links").json()["links"]
    assert listed[0]["revoked_at"] is not None


def test_a_finished_match_is_read_only_for_its_link(table: dict, clients: list[APIClient]) -> None:
    phone = scorer(issue(clients[0], table["id"])["code"])
    for number in (1, 2, 3):
        assert post(phone, table["id"], number, GOOD, version=number - 1).status_code == 201

    late = post(phone, table["id"], 4, GOOD, version=3)
    fixed = [{**GOOD[0]}, {"seat": 1, "points": 14}, {**GOOD[2]}]
    correction = phone.put(
        f"/api/matches/{table['id']}/rounds/1/scores",
        {"version": 3, "scores": fixed, "reason": "Seat 1 counted 14"},
        format="json",
    )

    assert (late.status_code, late.json()["code"]) == (HTTPStatus.CONFLICT, "match_not_playing")
    assert (correction.status_code, correction.json()["code"]) == (
        HTTPStatus.CONFLICT,
        "match_not_playing",
    )
    assert ScoreEntry.objects.filter(match_id=table["id"]).count() == 3
    assert phone.get(f"/api/matches/{table['id']}").json()["status"] == "finished"
    # the match's creator may still correct it
    by_creator = clients[0].put(
        f"/api/matches/{table['id']}/rounds/1/scores",
        {"version": 3, "scores": fixed, "reason": "Seat 1 counted 14"},
        format="json",
    )
    assert by_creator.status_code == HTTPStatus.OK, by_creator.content


def test_failed_codes_are_throttled_per_address_even_a_right_one_after(
    table: dict, clients: list[APIClient], settings: Any
) -> None:
    # given: 3 failed codes a minute per address, counted in a cache of this test's own
    settings.CACHES = cache_of_own("locmem", f"scorer-guess-{uuid.uuid4().hex}")
    settings.THROTTLE_RATES = {"scorer_guess": env_rate("UNUSED", "3/min")}
    code = issue(clients[0], table["id"])["code"]
    url = f"/api/matches/{table['id']}"

    # when: a guesser tries four wrong codes, then the right one
    guesses = [scorer(f"WRONG{n:05d}").get(url) for n in range(4)]
    right = scorer(code).get(url)

    # then: three 401s, then 429 with Retry-After, the right code refused too from that address
    assert [g.status_code for g in guesses] == [HTTPStatus.UNAUTHORIZED] * 3 + [
        HTTPStatus.TOO_MANY_REQUESTS
    ]
    assert (right.status_code, right.json()["code"]) == (HTTPStatus.TOO_MANY_REQUESTS, "throttled")
    assert int(right["Retry-After"]) >= 1
    # another address is not held back
    assert scorer(code, address="192.0.2.20").get(url).status_code == HTTPStatus.OK


def test_the_guess_throttle_fails_open_when_the_cache_is_down(
    table: dict, clients: list[APIClient], settings: Any, caplog: pytest.LogCaptureFixture
) -> None:
    code = issue(clients[0], table["id"])["code"]
    settings.THROTTLE_RATES = {"scorer_guess": env_rate("UNUSED", "1/hour")}
    url = f"/api/matches/{table['id']}"
    with refusing_port() as port:
        settings.CACHES = redis_cache(f"redis://127.0.0.1:{port}/0")
        answers = [scorer(f"WRONG{n:05d}").get(url).status_code for n in range(3)]
        right = scorer(code).get(url).status_code

    assert answers == [HTTPStatus.UNAUTHORIZED] * 3
    assert right == HTTPStatus.OK
    said = [r.getMessage() for r in caplog.records if r.name == "chickenfoot.throttles"]
    assert any(m.startswith("Throttle scorer_guess not applied") for m in said), said


def test_a_link_corrects_a_round_and_the_correction_records_the_link(
    table: dict, clients: list[APIClient]
) -> None:
    link = issue(clients[0], table["id"])
    phone = scorer(link["code"])
    post(phone, table["id"], 1, GOOD)
    fixed = [{**GOOD[0]}, {"seat": 1, "points": 14}, {**GOOD[2]}]

    corrected = phone.put(
        f"/api/matches/{table['id']}/rounds/1/scores",
        {"version": 1, "scores": fixed, "reason": "Seat 1 counted 14"},
        format="json",
    )
    elsewhere = create(clients[0])
    other = phone.put(
        f"/api/matches/{elsewhere['id']}/rounds/1/scores",
        {"version": 0, "scores": fixed, "reason": "not mine"},
        format="json",
    )

    assert corrected.status_code == HTTPStatus.OK, corrected.content
    latest = ScoreEntry.objects.filter(match_id=table["id"]).order_by("-pk").first()
    assert latest is not None
    assert (latest.scorer_link_id, latest.entered_by_id, latest.reason) == (
        link["id"],
        None,
        "Seat 1 counted 14",
    )
    assert [seat["points"] for seat in latest.seats] == [0, 14, 9]
    assert other.status_code == HTTPStatus.FORBIDDEN
    assert other.json()["code"] == "not_scorer"
