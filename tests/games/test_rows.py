"""games/rows.py: plain statements, and a batch of them sent in one round trip."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection, transaction

from games import rows
from games.models import Match
from tests.games.factories import MatchFactory

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_batch_writes_every_statement_in_the_transaction() -> None:
    # given
    first, second = MatchFactory(), MatchFactory()
    # when
    with transaction.atomic(), rows.batch():
        rows.update(Match, first.pk, {"version": 7, "moves_played": 3})
        rows.update(Match, second.pk, {"version": 9})
    # then
    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.version, first.moves_played, second.version) == (7, 3, 9)


def test_a_failing_statement_in_a_batch_raises_and_nothing_is_written() -> None:
    # given
    match = MatchFactory()
    taken = MatchFactory()

    def write_both() -> None:
        with transaction.atomic(), rows.batch():
            rows.update(Match, match.pk, {"version": 5})
            rows.update(Match, match.pk, {"id": taken.pk})  # a primary key already taken

    # when
    with pytest.raises(IntegrityError):
        write_both()
    # then: the first statement was rolled back with the transaction
    match.refresh_from_db()
    assert match.version == 0
    # and the connection is fit for the next request
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)
