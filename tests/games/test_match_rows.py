"""``match_rows.match_with_seats``: the ORM's instances, from two plain statements."""

from __future__ import annotations

from typing import Any

import pytest
from django.db.models import Model, Prefetch

from games.match_rows import MAX_ID, match_with_seats
from games.models import Match, Seat
from tests.games.factories import BotFactory, MatchFactory, PlayerFactory

pytestmark = pytest.mark.django_db


def values(instance: Model | None) -> dict[str, Any] | None:
    if instance is None:
        return None
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}


def test_the_match_its_creator_seats_and_players_are_the_orms(
    django_assert_num_queries: Any,
) -> None:
    # given: a match of three seats, two taken (a person and a bot), one open
    match = MatchFactory(seat_count=3)
    Seat.objects.filter(match=match, position=2).update(player=PlayerFactory())
    Seat.objects.filter(match=match, position=0).update(player=BotFactory())
    orm = (
        Match.objects.select_related("created_by")
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("position"))
        )
        .get(pk=match.pk)
    )

    # when
    with django_assert_num_queries(2):
        loaded = match_with_seats(match_id=match.pk)

    # then: the same values, every relation loaded, no query more to read them
    assert loaded is not None
    with django_assert_num_queries(0):
        assert values(loaded) == values(orm)
        assert values(loaded.created_by) == values(orm.created_by)
        seats = list(loaded.seats.all())
        assert [values(s) for s in seats] == [values(s) for s in orm.seats.all()]
        assert [values(s.player) for s in seats] == [values(s.player) for s in orm.seats.all()]
        assert all(seat.match is loaded for seat in seats)
    assert [s.position for s in seats] == [0, 1, 2]
    assert seats[1].player is None
    assert loaded._state.adding is False
    assert loaded._state.db == orm._state.db


@pytest.mark.parametrize("match_id", [0, -1, MAX_ID, MAX_ID + 1, 10**30])
def test_no_such_match_is_none(match_id: int) -> None:
    assert match_with_seats(match_id=match_id) is None
