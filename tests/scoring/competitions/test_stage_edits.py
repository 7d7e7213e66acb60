"""The organiser's hand on a stage's seating (POST /api/competitions/{id}/stages/{n}/...):
swap, move, replace a no-show, lock and re-pair, versioned with If-Match, audited, refused
once scores are in unless reopened."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from http import HTTPStatus
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.models import Match, Seat
from scoring.models import Bye, CheckIn, Registration, SeatingChange
from tests.games.conftest import client_for
from tests.games.factories import PlayerFactory
from tests.scoring.competitions.event_api import API, add, create_event, seated, start

pytestmark = pytest.mark.django_db


def event(client: APIClient, count: int, **fields: Any) -> tuple[int, list[int]]:
    """A table event of ``count`` guests, checked in, stage 1 seated."""
    cid = create_event(client, **fields)
    ids = [add(client, cid, name=f"P{n}", check_in=True)["player_id"] for n in range(count)]
    client.post(f"{API}/{cid}/close")
    start(client, cid, 1)
    return cid, ids


def post(client: APIClient, cid: int, action: str, body: dict, version: Any = 0) -> Any:
    headers = {} if version is None else {"HTTP_IF_MATCH": f'"{version}"'}
    return client.post(f"{API}/{cid}/stages/1/{action}", body, format="json", **headers)


def seats_of(match_id: int) -> list[int]:
    return list(
        Seat.objects.filter(match_id=match_id)
        .order_by("position")
        .values_list("player_id", flat=True)
    )


def enter(client: APIClient, match_id: int, capture: Callable[..., Any]) -> None:
    count = Match.objects.get(pk=match_id).seat_count
    scores = [{"seat": i, "points": 0 if i == 0 else 5, "went_out": i == 0} for i in range(count)]
    with capture(execute=True):
        answer = client.post(
            f"/api/matches/{match_id}/rounds/1/scores",
            {"version": Match.objects.get(pk=match_id).version, "scores": scores},
            format="json",
        )
    assert answer.status_code == HTTPStatus.CREATED, answer.content


def test_a_swap_changes_seats_moves_the_version_on_and_is_audited(
    organiser_client: APIClient,
) -> None:
    # given: four guests at two tables of 2
    cid, _ids = event(organiser_client, 4)
    stage = organiser_client.get(f"{API}/{cid}/stages/1")
    assert stage["ETag"] == '"0"'
    (one, two) = stage.json()["tables"]
    a, b = one["seats"][0]["player_id"], two["seats"][1]["player_id"]

    # when
    swapped = post(organiser_client, cid, "swap", {"players": [a, b], "reason": "<b>car</b>"})

    # then: they changed tables and seat positions; the version moved on; the change is kept
    assert swapped.status_code == HTTPStatus.OK, swapped.content
    assert swapped["ETag"] == '"1"'
    assert swapped.json()["version"] == 1
    assert seats_of(one["match_id"])[0] == b
    assert seats_of(two["match_id"])[1] == a
    change = SeatingChange.objects.get(competition_id=cid)
    assert (change.kind, change.version, change.reason, change.players) == (
        "swap",
        1,
        "<b>car</b>",
        [a, b],
    )
    assert [t["table"] for t in change.tables] == [1, 2]
    audit = organiser_client.get(f"{API}/{cid}/seating-changes").json()["changes"]
    assert audit[0]["kind"] == "swap"
    assert audit[0]["reason"] == "<b>car</b>"
    assert audit[0]["by"]["player_id"] == change.by_id
    assert client_for(PlayerFactory()).get(f"{API}/{cid}/seating-changes").status_code == 403


def test_every_change_answers_the_version_it_was_made_against(organiser_client: APIClient) -> None:
    cid, _ids = event(organiser_client, 4)
    tables = seated(organiser_client, cid, 1)
    pair = [tables[0][0], tables[1][0]]

    missing = post(organiser_client, cid, "swap", {"players": pair}, version=None)
    ahead = post(organiser_client, cid, "swap", {"players": pair}, version=5)
    garbled = organiser_client.post(
        f"{API}/{cid}/stages/1/swap", {"players": pair}, format="json", HTTP_IF_MATCH="v1"
    )
    done = post(organiser_client, cid, "swap", {"players": pair}, version=0)
    stale = post(organiser_client, cid, "swap", {"players": pair}, version=0)

    assert (missing.status_code, missing.json()["code"]) == (428, "version_required")
    assert missing.json()["current_version"] == 0
    assert (ahead.status_code, ahead.json()["code"]) == (409, "version_ahead")
    assert (garbled.status_code, garbled.json()["code"]) == (400, "invalid_header")
    assert done.status_code == HTTPStatus.OK
    assert (stale.status_code, stale.json()["code"]) == (409, "stale_version")
    assert stale.json()["current_version"] == 1
    assert SeatingChange.objects.filter(competition_id=cid).count() == 1


def test_refusals_name_each_field_and_change_nothing(organiser_client: APIClient) -> None:
    cid, ids = event(organiser_client, 4)
    before = seated(organiser_client, cid, 1)
    stranger = PlayerFactory()

    bad = post(organiser_client, cid, "swap", {"players": [stranger.pk, stranger.pk + 999]})
    same = post(organiser_client, cid, "swap", {"players": [ids[0], ids[0]]})
    shape = post(organiser_client, cid, "swap", {"players": [ids[0]], "why": "x"})
    outsider = client_for(stranger).post(
        f"{API}/{cid}/stages/1/swap", {"players": ids[:2]}, format="json", HTTP_IF_MATCH='"0"'
    )
    no_stage = organiser_client.post(
        f"{API}/{cid}/stages/2/swap", {"players": ids[:2]}, format="json", HTTP_IF_MATCH='"0"'
    )

    assert bad.status_code == HTTPStatus.BAD_REQUEST
    assert set(bad.json()["errors"]) == {"players.0", "players.1"}
    assert set(same.json()["errors"]) == {"players"}
    assert set(shape.json()["errors"]) == {"players", "why"}
    assert outsider.status_code == HTTPStatus.FORBIDDEN
    assert (no_stage.status_code, no_stage.json()["code"]) == (409, "wrong_stage")
    assert seated(organiser_client, cid, 1) == before
    assert not SeatingChange.objects.filter(competition_id=cid).exists()


def test_scores_stop_changes_until_the_organiser_reopens(
    organiser_client: APIClient, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    # given: three tables of 2; table 1 has entered its round
    cid, _ids = event(organiser_client, 6, options={"rounds": 2})
    tables = organiser_client.get(f"{API}/{cid}/stages/1").json()["tables"]
    enter(organiser_client, tables[0]["match_id"], django_capture_on_commit_callbacks)
    t1, t2, t3 = ([s["player_id"] for s in t["seats"]] for t in tables)

    # when / then: every change is refused, naming table 1
    refused = post(organiser_client, cid, "swap", {"players": [t2[0], t3[0]]})
    assert (refused.status_code, refused.json()["code"]) == (409, "stage_scoring_started")
    assert refused.json()["tables"] == [1]
    for action, body in (("re-pair", {}), ("undo", {}), ("lock", {"tables": [2], "locked": True})):
        assert post(organiser_client, cid, action, body).status_code == HTTPStatus.CONFLICT

    # once reopened (a reason is required), the tables without scores may change, not table 1
    assert post(organiser_client, cid, "reopen", {}).status_code == HTTPStatus.BAD_REQUEST
    reopened = post(organiser_client, cid, "reopen", {"reason": "Table 1 began early"})
    assert reopened.status_code == HTTPStatus.OK, reopened.content
    assert reopened.json()["seating_reopened_at"] is not None
    swapped = post(organiser_client, cid, "swap", {"players": [t2[0], t3[0]]}, version=1)
    assert swapped.status_code == HTTPStatus.OK, swapped.content
    touching = post(organiser_client, cid, "swap", {"players": [t1[0], t3[0]]}, version=2)
    assert (touching.status_code, touching.json()["tables"]) == (409, [1])
    undo = post(organiser_client, cid, "undo", {}, version=2)
    assert (undo.status_code, undo.json()["code"]) == (409, "stage_scoring_started")
    again = post(organiser_client, cid, "reopen", {"reason": "twice"}, version=2)
    assert again.status_code == HTTPStatus.CONFLICT
    repaired = post(organiser_client, cid, "re-pair", {}, version=2)
    assert repaired.status_code == HTTPStatus.OK, repaired.content
    assert seated(organiser_client, cid, 1)[0] == t1  # table 1 stays as it was


def test_a_move_to_an_empty_seat_and_its_refusals(organiser_client: APIClient) -> None:
    # given: five at tables of 3: a table of 3 and a table of 2
    cid, _ids = event(organiser_client, 5, table_size=3)
    three, two = seated(organiser_client, cid, 1)
    assert (len(three), len(two)) == (3, 2)

    full = post(organiser_client, cid, "move", {"player": two[0], "table": 1})
    lonely = post(organiser_client, cid, "move", {"player": two[0], "table": 9})
    alone = post(organiser_client, cid, "move", {"player": two[0], "table": 2, "position": 1})
    moved = post(organiser_client, cid, "move", {"player": three[2], "table": 2, "position": 0},
                 version=1)  # fmt: skip

    assert set(full.json()["errors"]) == {"table", "player"}  # full; and table 2 left with one
    assert set(lonely.json()["errors"]) == {"table", "player"}
    assert alone.status_code == HTTPStatus.OK  # the same table: another seat
    assert moved.status_code == HTTPStatus.OK, moved.content
    after = seated(organiser_client, cid, 1)
    assert after[0] == three[:2]
    assert after[1] == [three[2], two[1], two[0]]


def test_a_late_entrant_takes_an_empty_seat_and_their_bye_goes(organiser_client: APIClient) -> None:
    # given: five at tables of 3, late entries scoring a bye; Larry walks in during stage 1
    cid, _ids = event(organiser_client, 5, table_size=3, late_entry="bye")
    larry = add(organiser_client, cid, name="Larry")["player_id"]
    assert Bye.objects.filter(registration__player_id=larry).count() == 1

    moved = post(organiser_client, cid, "move", {"player": larry, "table": 2})

    assert moved.status_code == HTTPStatus.OK, moved.content
    assert larry in seated(organiser_client, cid, 1)[1]
    assert not Bye.objects.filter(registration__player_id=larry).exists()
    registration = Registration.objects.get(competition_id=cid, player_id=larry)
    assert registration.first_stage == 1
    assert CheckIn.objects.filter(registration=registration, stage_number=1).exists()
    rows = organiser_client.get(f"{API}/{cid}/standings").json()["standings"]
    assert next(r for r in rows if r["player_id"] == larry)["placement_points"] == 0.0
    change = SeatingChange.objects.get(competition_id=cid)
    assert change.byes == {"before": [larry], "after": []}


def test_a_late_entrant_takes_a_no_shows_seat(organiser_client: APIClient) -> None:
    cid, _ids = event(organiser_client, 4)
    larry = add(organiser_client, cid, name="Larry")["player_id"]
    tables = seated(organiser_client, cid, 1)
    noshow = tables[1][1]

    taken = post(organiser_client, cid, "replace", {"player": larry, "replaces": noshow})
    twice = post(organiser_client, cid, "replace", {"player": larry, "replaces": 999999},
                 version=1)  # fmt: skip

    assert taken.status_code == HTTPStatus.OK, taken.content
    assert seated(organiser_client, cid, 1)[1] == [tables[1][0], larry]
    assert not CheckIn.objects.filter(
        registration__player_id=noshow, stage_number=1
    ).exists()  # a no-show for stage 1
    assert set(twice.json()["errors"]) == {"player", "replaces"}


def test_locked_tables_stay_through_a_re_pair(organiser_client: APIClient) -> None:
    # given: eight at tables of 2, table 2 locked, then two entrants swapped
    cid, ids = event(organiser_client, 8)
    tables = seated(organiser_client, cid, 1)
    locked = post(organiser_client, cid, "lock", {"tables": [2], "locked": True})
    assert locked.json()["tables"][1]["locked"] is True
    post(organiser_client, cid, "swap", {"players": [tables[0][0], tables[2][0]]}, version=1)
    bad = post(organiser_client, cid, "lock", {"tables": [2, 9], "locked": True}, version=2)
    assert set(bad.json()["errors"]) == {"tables.1"}

    # when: the stage is paired again
    repaired = post(organiser_client, cid, "re-pair", {"reason": "again"}, version=2)

    # then: table 2 is as it was; the others are drawn again, each seated once
    assert repaired.status_code == HTTPStatus.OK, repaired.content
    assert repaired.json()["version"] == 3
    after = seated(organiser_client, cid, 1)
    assert after[1] == tables[1]
    assert sorted(p for t in after for p in t) == sorted(ids)
    assert [len(t) for t in after] == [2, 2, 2, 2]
    kinds = list(SeatingChange.objects.filter(competition_id=cid).values_list("kind", flat=True))
    assert kinds == ["lock", "swap", "re_pair"]


def test_the_export_trail_shows_each_change_and_hostile_text_stays_data(
    organiser_client: APIClient,
) -> None:
    # given: guests with names a spreadsheet would run, swapped with such a reason
    cid = create_event(organiser_client)
    names = ["=cmd|' /C calc'!A0", "+SUM(1)", "<script>x</script>", "@A1"]
    ids = [add(organiser_client, cid, name=name, check_in=True)["player_id"] for name in names]
    organiser_client.post(f"{API}/{cid}/close")
    start(organiser_client, cid, 1)
    (a, _), (b, _) = seated(organiser_client, cid, 1)
    reason = '=HYPERLINK("http://evil.example/")\r\n<b>bold</b>'
    post(organiser_client, cid, "swap", {"players": [a, b], "reason": reason})

    # when
    document = organiser_client.get(f"{API}/{cid}/export.json").json()
    sheet = organiser_client.get(f"{API}/{cid}/export.csv")

    # then: the JSON holds the change as written; the CSV's cells never run as formulas
    (change,) = document["seating_changes"]
    assert (change["kind"], change["reason"], change["players"]) == ("swap", reason, [a, b])
    assert {e["name"] for e in change["entrants"]} == set(names)
    rows = list(csv.DictReader(io.StringIO(sheet.content.decode(), newline="")))
    swapped = [row for row in rows if row["event"] == "seating_swap"]
    assert len(swapped) == 4  # two tables of two
    assert {row["reason"] for row in swapped} == {"'" + reason}
    for row in swapped:
        assert row["kind"] == "guest"
        assert row["player_id"] == ""  # a guest's id, as in the seat rows
        shown = dict(zip(ids, names, strict=True))
        assert row["name"] in {("'" + n if n[:1] in "=+-@" else n) for n in shown.values()}
