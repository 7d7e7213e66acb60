"""A stage's table matches are written together (``pairing.table_matches_create``: each kind of
row in one statement) and come out as they did a table at a time (``table_match_create``): the
same matches, seats, scorer links and inbox rows, field for field but ids and times, the same
frames and pushes after commit and none before, and a number of statements that does not grow
with the tables."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import Match, Player, Seat
from games.notifications import services as notifications
from games.notifications.models import Notification, PushDevice
from games.tables.claims import code_hash
from games.tables.models import ScorerLink
from games.tables.scorer_links import scorer_link_code
from scoring.competitions import pairing
from scoring.models import Competition
from tests.games.factories import PlayerFactory
from tests.scoring.competitions.conftest import make_competition

pytestmark = pytest.mark.django_db(transaction=False)

#: Set by the database, or drawn at random: compared by what they are for, not their values.
VARYING = {"id", "created_at", "started_at", "joined_at", "match_id", "salt", "code_hash"}


def fields(row: Any) -> dict[str, Any]:
    return {
        f.attname: getattr(row, f.attname)
        for f in row._meta.concrete_fields
        if f.attname not in VARYING
    }


def snapshot(match_ids: list[int]) -> list[dict[str, Any]]:
    """Every row the tables made, table by table, their match ids as table numbers."""
    tables = []
    for number, match_id in enumerate(match_ids, start=1):
        links = list(ScorerLink.objects.filter(match_id=match_id).order_by("pk"))
        for link in links:  # each link's code is derived again, and is what its hash is of
            code = scorer_link_code(link)
            assert code is not None
            assert code_hash(code) == link.code_hash
            assert len(link.salt) == 32
        tables.append(
            {
                "match": fields(Match.objects.get(pk=match_id)),
                "seats": [
                    fields(s) for s in Seat.objects.filter(match_id=match_id).order_by("position")
                ],
                "links": [fields(link) for link in links],
                "inbox": [
                    {
                        **fields(n),
                        "key": n.key.replace(str(match_id), f"#{number}"),
                        "payload": {**n.payload, "match_id": f"#{number}"},
                    }
                    for n in Notification.objects.filter(key=f"table_assigned:{match_id}").order_by(
                        "pk"
                    )
                ],
            }
        )
    return tables


def sent(match_ids: list[int], published: list[Any], pushed: list[Any]) -> list[Any]:
    """The frames and pushes after commit, their match ids as table numbers."""
    numbers = {match_id: f"#{n}" for n, match_id in enumerate(match_ids, start=1)}
    players = dict(Notification.objects.values_list("pk", "player_id"))
    out = []
    for group, message in published:
        frame = message["frame"]["notification"]
        out.append((group, frame["kind"], numbers[frame["payload"]["match_id"]], frame["read"]))
    out += [("push", players[pk]) for pk in pushed]
    return out


@pytest.fixture
def field(organiser: Player) -> tuple[Competition, list[list[int]]]:
    """A table event and 12 entrants at three tables of four and one of three: players with
    accounts (one with a phone to push to) and guests."""
    competition = make_competition(
        organiser, play="table", table_size=4, options={"rounds": 2}, name="Club night"
    )
    humans = [PlayerFactory(display_name=f"P{i}") for i in range(9)]
    guests = [Player.objects.create(kind=Player.Kind.GUEST, display_name=f"G{i}") for i in range(6)]
    PushDevice.objects.create(player=humans[0], kind="webpush", token="https://push.example/1")
    ids = [p.pk for p in [*humans, *guests]]
    return competition, [ids[0:4], ids[4:8], ids[8:12], ids[12:15]]


def seat(
    django_capture_on_commit_callbacks: Any,
    monkeypatch: pytest.MonkeyPatch,
    create: Any,
) -> tuple[list[int], list[Any], list[Any]]:
    published: list[Any] = []
    pushed: list[Any] = []
    monkeypatch.setattr(
        notifications, "publish_group", lambda *, group, message: published.append((group, message))
    )
    monkeypatch.setattr(notifications, "enqueue_now", lambda task, pk: pushed.append(pk))
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        match_ids = create()
    assert (published, pushed) == ([], [])  # nothing goes out before the commit
    for callback in callbacks:
        callback()
    return match_ids, published, pushed


def test_tables_written_together_are_the_tables_written_one_at_a_time(
    field: tuple[Competition, list[list[int]]],
    django_capture_on_commit_callbacks: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    competition, tables = field
    # given: the stage's tables written a table at a time, as they were
    old_ids, old_published, old_pushed = seat(
        django_capture_on_commit_callbacks,
        monkeypatch,
        lambda: [pairing.table_match_create(competition, table) for table in tables],
    )
    # when: the same tables written together
    new_ids, new_published, new_pushed = seat(
        django_capture_on_commit_callbacks,
        monkeypatch,
        lambda: pairing.table_matches_create(competition, tables),
    )
    # then: the same rows, field for field, and the same frames and pushes after commit
    assert len(set(new_ids) | set(old_ids)) == 2 * len(tables)
    assert snapshot(new_ids) == snapshot(old_ids)
    assert sent(new_ids, new_published, new_pushed) == sent(old_ids, old_published, old_pushed)
    assert len(new_published) == 9
    assert len(new_pushed) == 1


def test_the_statements_do_not_grow_with_the_tables(
    field: tuple[Competition, list[list[int]]],
) -> None:
    competition, tables = field
    counts = []
    for some in (tables[:1], tables):
        with CaptureQueriesContext(connection) as queries:
            pairing.table_matches_create(competition, some)
        counts.append(len(queries))
    assert counts[0] == counts[1] <= 20, counts  # savepoints included
