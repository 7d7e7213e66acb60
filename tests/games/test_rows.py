"""games/rows.py: plain statements, and a batch of them sent in one round trip."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import rows
from games.models import Match, Move, Round
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


def test_a_batch_s_writes_of_different_tables_reach_the_database_as_one_statement() -> None:
    # given
    match = MatchFactory()
    round_ = Round.objects.create(match=match, number=1, start_double=9)
    moves_before = Move.objects.count()
    row = {
        "match_id": match.pk,
        "round_id": round_.pk,
        "seq": 1,
        "seat": 0,
        "kind": "pass",
        "tile": None,
        "target": "",
        "events": [{"type": "passed", "seat": 0}],
        "version": 1,
        "timed_out": False,
        "created_at": timezone.now(),
        "idempotency_key": "",
        "request_hash": "",
        "response": None,
    }
    # when
    with CaptureQueriesContext(connection) as queries, transaction.atomic(), rows.batch():
        rows.insert(Move, row)
        rows.update(Match, match.pk, {"version": 1, "moves_played": 1})
        returned = rows.returning(
            Match._meta.db_table,  # a second write of games_match: a statement of its own
            'UPDATE games_match SET "version" = %s WHERE id = %s RETURNING id, "version"',
            [2, match.pk],
        )
    # then
    statements = [q["sql"] for q in queries.captured_queries if "games_" in q["sql"]]
    if connection.vendor == "postgresql":
        assert len(statements) == 2
        assert statements[0].startswith("WITH w0 AS (INSERT INTO")
    else:
        assert len(statements) == 3
    assert returned.fetchone() == (match.pk, 2)
    match.refresh_from_db()
    assert (match.version, match.moves_played) == (2, 1)
    assert Move.objects.count() == moves_before + 1
    assert Move.objects.get(match=match).events == [{"type": "passed", "seat": 0}]


def test_nothing_a_batch_kept_is_sent_when_its_block_fails() -> None:
    # given
    match = MatchFactory()

    def fail_inside() -> None:
        with transaction.atomic(), rows.batch():
            rows.update(Match, match.pk, {"version": 5})
            raise RuntimeError("the move could not be finished")

    # when
    with pytest.raises(RuntimeError):
        fail_inside()
    # then
    match.refresh_from_db()
    assert match.version == 0


def test_a_read_gives_the_row_through_whichever_cursor_serves() -> None:
    # given
    match = MatchFactory(version=4)
    sql = "SELECT version FROM games_match WHERE id = %s"
    # when: queries counted (Django's cursor), then not (the driver's, on PostgreSQL)
    with CaptureQueriesContext(connection) as counted:
        logged = rows.fetchone(sql, [match.pk])
    plain = rows.fetchone(sql, [match.pk])
    missing = rows.fetchone(sql, [match.pk + 1000])
    # then
    assert logged == plain == (4,)
    assert missing is None
    assert [q["sql"] for q in counted.captured_queries] == [sql % match.pk]


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the driver's cursor: PostgreSQL")
def test_the_driver_s_cursor_is_kept_per_connection_and_made_again_for_a_new_one() -> None:
    # given
    connection.ensure_connection()
    first = rows._driver_cursor(connection)
    # when
    again = rows._driver_cursor(connection)
    connection.close()
    connection.ensure_connection()
    after = rows._driver_cursor(connection)
    # then
    assert first is again
    assert after is not first
    assert rows.fetchone("SELECT 1", []) == (1,)


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the driver's cursor: PostgreSQL")
def test_a_failing_read_is_raised_as_django_s_error_and_the_next_one_runs() -> None:
    # given
    from django.db import ProgrammingError

    # when
    with pytest.raises(ProgrammingError):
        rows.fetchone("SELECT no_such_column FROM games_match WHERE id = %s", [1])
    # then
    assert rows.fetchone("SELECT 2", []) == (2,)


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the driver's cursor: PostgreSQL")
def test_inside_a_transaction_marked_for_rollback_a_read_is_refused_as_django_refuses_it() -> None:
    # given
    from django.db.transaction import TransactionManagementError

    with transaction.atomic():
        # when: what Django does when an error inside the block was caught
        transaction.set_rollback(True)
        # then
        with pytest.raises(TransactionManagementError):
            rows.fetchone("SELECT 1", [])


def test_fetchall_gives_every_row_in_order_through_whichever_cursor_serves() -> None:
    # given
    first, second = MatchFactory(version=2), MatchFactory(version=3)
    sql = "SELECT id, version FROM games_match WHERE id IN (%s, %s) ORDER BY id"
    # when
    with CaptureQueriesContext(connection):
        logged = rows.fetchall(sql, [first.pk, second.pk])
    plain = rows.fetchall(sql, [first.pk, second.pk])
    # then
    assert [tuple(row) for row in logged] == [tuple(row) for row in plain]
    assert [tuple(row) for row in plain] == [(first.pk, 2), (second.pk, 3)]
