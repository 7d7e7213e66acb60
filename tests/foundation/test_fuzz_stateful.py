"""Fuzzing sequences of calls (schemathesis's stateful phase): what one answer creates, the next
request uses.

schemathesis infers the links between operations from the schema (an answer's ``id`` feeds the
``{match_id}`` or ``{competition_id}`` of the operations on it) and draws sequences of calls
along them, in-process on the test database as ``tests/foundation/test_fuzz.py`` calls them, as
the same signed-in organiser. Every answer passes every check of that module, and the stateful
ones: a resource just created is there (``ensure_resource_availability``), one just deleted is
gone (``use_after_free``).

``FUZZ_STATEFUL_CASES`` (default 40) bounds the sequences, ``FUZZ_STATEFUL_STEPS`` (default 6)
their length; derandomised as the stateless run is (``FUZZ_RANDOM=1`` explores).
"""

from __future__ import annotations

import os
from typing import Any

import pytest
import schemathesis
from django.db import transaction
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.checks import ensure_resource_availability, use_after_free

from tests.foundation.test_fuzz import (
    CHECKS,
    RANDOM,
    auth_headers,
    connection_kept,
    schema,
    whole_numbers_as_integers,
    world,
)

pytestmark = pytest.mark.django_db

CASES = int(os.environ.get("FUZZ_STATEFUL_CASES", "40"))
STEPS = int(os.environ.get("FUZZ_STATEFUL_STEPS", "6"))
STATEFUL_CHECKS = [*CHECKS, ensure_resource_availability, use_after_free]

__all__ = ["schema", "world"]  # the fixtures this module shares with the stateless run


def test_sequences_of_calls_get_no_5xx_and_every_answer_fits_the_schema(
    world: dict[str, Any], schema: schemathesis.BaseSchema
) -> None:
    machine = schema.as_state_machine()
    headers = auth_headers(world)
    sent: list[str] = []

    class Calls(machine):  # type: ignore[misc, valid-type]
        """Each sequence starts from the same world: what one sequence wrote is rolled back
        (a savepoint in the test's transaction), so that the same draws make the same calls."""

        def setup(self) -> None:
            self.savepoint = transaction.savepoint()

        def teardown(self) -> None:
            transaction.savepoint_rollback(self.savepoint)

        def before_call(self, case: schemathesis.Case) -> None:
            whole_numbers_as_integers(case)

        def get_call_kwargs(self, case: schemathesis.Case) -> dict[str, Any]:
            return {"headers": headers}

        def validate_response(self, response: Any, case: schemathesis.Case, **kwargs: Any) -> None:
            sent.append(f"{case.method} {case.path}")
            case.validate_response(response, checks=STATEFUL_CHECKS, headers=headers)

    with connection_kept():
        Calls.run(
            settings=settings(
                max_examples=CASES,
                stateful_step_count=STEPS,
                deadline=None,
                derandomize=not RANDOM,
                database=None,
                suppress_health_check=list(HealthCheck),
                report_multiple_bugs=False,
            )
        )

    print(  # noqa: T201 - the figures docs/api.md quotes (run with -s)
        f"\nstateful: {len(sent)} calls over {len(set(sent))} operations"
    )
    assert len(set(sent)) > 1, sent  # sequences, not one call over and over
