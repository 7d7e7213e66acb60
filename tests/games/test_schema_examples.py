"""Every example in the OpenAPI schema fits the schema it illustrates."""

from __future__ import annotations

from typing import Any

import pytest

from tests.games.schema_check import all_examples, validate

EXAMPLES = all_examples()


def test_there_are_examples_for_every_operation() -> None:
    assert len(EXAMPLES) > 40


@pytest.mark.parametrize(("where", "value", "schema"), EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_each_example_fits_its_schema(where: str, value: Any, schema: dict[str, Any]) -> None:
    validate(schema, value)
