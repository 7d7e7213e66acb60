"""A table event's stage clock (/api/competitions/{id}/stages/{n}/clock): the organiser starts
it with a duration and stops it; the wall and the scorers read it with the server's time; it is
audited, and refused (problem JSON, nothing written) to anyone else and for bad durations."""

from __future__ import annotations

import csv
import io
import re
from datetime import datetime, timedelta
from http import HTTPStatus
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from scoring.models import SeatingChange, Stage
from tests.games.conftest import client_for
from tests.games.factories import PlayerFactory
from tests.scoring.competitions.event_api import API, add, create_event, start

pytestmark = pytest.mark.django_db


def event(client: APIClient, count: int = 4, **fields: Any) -> int:
    """A table event of ``count`` guests, stage 1 seated."""
    cid = create_event(client, **fields)
    for n in range(count):
        add(client, cid, name=f"P{n}", check_in=True)
    client.post(f"{API}/{cid}/close")
    start(client, cid, 1)
    return cid


def clock_url(cid: int, number: int = 1) -> str:
    return f"{API}/{cid}/stages/{number}/clock"


def at(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def stage_clock(cid: int) -> tuple[Any, Any]:
    stage = Stage.objects.get(competition_id=cid, number=1)
    return stage.clock_started_at, stage.clock_ends_at


def test_the_organiser_starts_the_clock_and_reads_it_with_the_servers_time(
    organiser_client: APIClient,
) -> None:
    # given
    cid = event(organiser_client)
    before = timezone.now()

    # when
    started = organiser_client.post(clock_url(cid), {"minutes": 45}, format="json")

    # then: it runs out 45 minutes from the server's now, which the answer carries
    assert started.status_code == HTTPStatus.OK, started.content
    body = started.json()
    assert (body["stage"], body["state"], body["minutes"]) == (1, "running", 45)
    assert at(body["ends_at"]) - at(body["started_at"]) == timedelta(minutes=45)
    assert before <= at(body["now"]) <= timezone.now()
    read = organiser_client.get(clock_url(cid)).json()
    assert (read["state"], read["ends_at"]) == ("running", body["ends_at"])
    assert at(read["now"]) >= at(body["now"])
    # and it is audited, the seating's version unmoved
    change = SeatingChange.objects.get(competition_id=cid)
    assert (change.kind, change.version, change.clock["action"], change.clock["minutes"]) == (
        "clock",
        0,
        "start",
        45,
    )
    assert organiser_client.get(f"{API}/{cid}/stages/1")["ETag"] == '"0"'


def test_starting_again_restarts_and_stopping_clears_it_once(organiser_client: APIClient) -> None:
    cid = event(organiser_client)
    organiser_client.post(clock_url(cid), {"minutes": 45}, format="json")

    again = organiser_client.post(
        clock_url(cid), {"minutes": 10, "reason": "<b>late</b>"}, format="json"
    ).json()
    stopped = organiser_client.delete(clock_url(cid))
    stopped_twice = organiser_client.delete(clock_url(cid))

    assert again["minutes"] == 10
    assert stopped.status_code == HTTPStatus.OK, stopped.content
    assert stopped.json() | {"now": None} == {
        "stage": 1,
        "state": "off",
        "minutes": None,
        "started_at": None,
        "ends_at": None,
        "now": None,
    }
    assert stopped_twice.json()["state"] == "off"
    assert stage_clock(cid) == (None, None)
    changes = organiser_client.get(f"{API}/{cid}/seating-changes").json()["changes"]
    assert [(c["kind"], c["clock"]["action"], c["reason"]) for c in changes] == [
        ("clock", "start", None),
        ("clock", "start", "<b>late</b>"),
        ("clock", "stop", None),
    ]
    export = organiser_client.get(f"{API}/{cid}/export.json").json()
    assert [c["clock"]["action"] for c in export["seating_changes"]] == ["start", "start", "stop"]
    sheet = organiser_client.get(f"{API}/{cid}/export.csv").content.decode()
    rows = [row for row in csv.DictReader(io.StringIO(sheet)) if "clock" in row["event"]]
    assert [(row["event"], row["reason"]) for row in rows] == [
        ("stage_clock_start", ""),
        ("stage_clock_start", "<b>late</b>"),
        ("stage_clock_stop", ""),
    ]


def test_a_clock_run_out_says_ended(organiser_client: APIClient) -> None:
    cid = event(organiser_client)
    organiser_client.post(clock_url(cid), {"minutes": 1}, format="json")
    Stage.objects.filter(competition_id=cid).update(
        clock_started_at=timezone.now() - timedelta(minutes=2),
        clock_ends_at=timezone.now() - timedelta(minutes=1),
    )

    assert organiser_client.get(clock_url(cid)).json()["state"] == "ended"


@pytest.mark.parametrize(
    ("body", "named"),
    [
        ({"minutes": 0}, {"minutes"}),
        ({"minutes": -5}, {"minutes"}),
        ({"minutes": 721}, {"minutes"}),
        ({"minutes": "soon"}, {"minutes"}),
        ({"minutes": True}, {"minutes"}),
        ({"minutes": None}, {"minutes"}),
        ({"minutes": 1.5}, {"minutes"}),
        ({}, {"minutes"}),
        ({"minutes": 45, "seconds": 3}, {"seconds"}),
        ({"minutes": 0, "reason": "x" * 501}, {"minutes", "reason"}),
    ],
)
def test_a_bad_duration_is_refused_naming_the_field_and_nothing_is_written(
    organiser_client: APIClient, body: dict[str, Any], named: set[str]
) -> None:
    cid = event(organiser_client)

    refused = organiser_client.post(clock_url(cid), body, format="json")

    assert refused.status_code == HTTPStatus.BAD_REQUEST, refused.content
    assert refused["Content-Type"].startswith("application/problem+json")
    assert refused.json()["code"] == "invalid"
    assert set(refused.json()["errors"]) == named
    assert stage_clock(cid) == (None, None)
    assert not SeatingChange.objects.filter(competition_id=cid).exists()


def test_only_the_organiser_may_touch_the_clock(organiser_client: APIClient) -> None:
    # given: a stage with a clock, and a player who is not its organiser
    cid = event(organiser_client)
    organiser_client.post(clock_url(cid), {"minutes": 45}, format="json")
    clock = stage_clock(cid)
    someone = client_for(PlayerFactory())

    # when / then: they are refused as problem JSON; anonymous callers too; nothing changes
    for answer in (
        someone.get(clock_url(cid)),
        someone.post(clock_url(cid), {"minutes": 5}, format="json"),
        someone.delete(clock_url(cid)),
    ):
        assert (answer.status_code, answer.json()["code"]) == (403, "not_organiser")
        assert answer["Content-Type"].startswith("application/problem+json")
    anonymous = APIClient().post(clock_url(cid), {"minutes": 5}, format="json")
    assert anonymous.status_code == HTTPStatus.UNAUTHORIZED
    assert stage_clock(cid) == clock
    assert SeatingChange.objects.filter(competition_id=cid).count() == 1
    # and an unknown competition is not found
    for answer in (
        organiser_client.get(clock_url(cid + 100)),
        organiser_client.post(clock_url(cid + 100), {"minutes": 5}, format="json"),
    ):
        assert (answer.status_code, answer.json()["code"]) == (404, "competition_not_found")


def test_a_stage_not_playing_or_an_online_event_has_no_clock(organiser_client: APIClient) -> None:
    cid = event(organiser_client)
    not_started = organiser_client.post(clock_url(cid, 2), {"minutes": 5}, format="json")
    assert (not_started.status_code, not_started.json()["code"]) == (409, "wrong_stage")

    online = create_event(organiser_client, play="online", allow_bots=True, table_size=2)
    for player in (PlayerFactory(), PlayerFactory()):
        add(organiser_client, online, player_id=player.pk)
    organiser_client.post(f"{API}/{online}/close")
    start(organiser_client, online, 1)
    refused = organiser_client.post(clock_url(online), {"minutes": 5}, format="json")
    assert (refused.status_code, refused.json()["code"]) == (409, "competition_status")


def test_the_public_wall_and_the_scorer_read_the_clock(organiser_client: APIClient) -> None:
    # given: a public event whose stage clock runs
    cid = event(organiser_client)
    organiser_client.post(f"{API}/{cid}/publish")
    started = organiser_client.post(clock_url(cid), {"minutes": 45}, format="json").json()

    # when
    wall = APIClient().get(f"/api/public/competitions/{cid}/standings").json()
    links = organiser_client.get(f"{API}/{cid}/stages/1/scorer-links").json()["tables"]
    scorer = APIClient()
    scorer.credentials(HTTP_AUTHORIZATION=f"Scorer {links[0]['code']}")
    context = scorer.get("/api/scorer").json()

    # then: both carry the clock and the server's time
    (stage,) = wall["stages"]
    assert stage["clock"]["state"] == "running"
    assert at(stage["clock"]["ends_at"]) == at(started["ends_at"])
    assert at(wall["now"]) <= at(stage["clock"]["ends_at"])
    assert at(context["event"]["clock"]["ends_at"]) == at(started["ends_at"])
    assert "now" in context
    # and once the stage has finished, neither shows one
    Stage.objects.filter(competition_id=cid).update(status=Stage.Status.FINISHED)
    wall = APIClient().get(f"/api/public/competitions/{cid}/standings").json()
    assert wall["stages"][0]["clock"] is None
    assert scorer.get("/api/scorer").json()["event"]["clock"] is None
    Stage.objects.filter(competition_id=cid).update(status=Stage.Status.PLAYING)
    # nor once stopped
    organiser_client.delete(clock_url(cid))
    wall = APIClient().get(f"/api/public/competitions/{cid}/standings").json()
    assert wall["stages"][0]["clock"] is None
    assert scorer.get("/api/scorer").json()["event"]["clock"] is None


@pytest.mark.parametrize(
    ("language", "time_left", "last_round"),
    [("en", "Time left: ", "Last round"), ("th", "เวลาที่เหลือ: ", "รอบสุดท้าย")],
)
def test_the_wall_page_draws_the_clock_in_its_language(
    organiser_client: APIClient, language: str, time_left: str, last_round: str
) -> None:
    # given: a public event whose stage clock runs 45 minutes
    cid = event(organiser_client)
    organiser_client.post(f"{API}/{cid}/publish")
    organiser_client.post(clock_url(cid), {"minutes": 45}, format="json")
    page = Client(headers={"accept-language": language})

    # when / then: the page shows the time left as the server counts it
    html = page.get(f"/events/{cid}/").content.decode()
    assert re.search(rf'id="wall-clock" class="wall-clock" data-state="running">'
                     rf"{re.escape(time_left)}(45:00|44:5\d)</p>", html)  # fmt: skip
    # and once it has run out, the last round
    Stage.objects.filter(competition_id=cid).update(clock_ends_at=timezone.now())
    html = page.get(f"/events/{cid}/").content.decode()
    assert f'data-state="ended">{last_round}</p>' in html


def test_an_outsider_with_a_bad_body_is_refused_as_an_outsider(organiser_client: APIClient) -> None:
    cid = event(organiser_client)
    someone = client_for(PlayerFactory())

    refused = someone.post(clock_url(cid), {"minutes": "soon"}, format="json")

    assert (refused.status_code, refused.json()["code"]) == (403, "not_organiser")
