"""The generated-client check refuses a client that steps around the generated types."""

from __future__ import annotations

from types import ModuleType

import pytest

from tests.foundation.live_server import load_script


@pytest.fixture(scope="module")
def check() -> ModuleType:
    return load_script("clients/check.py")


def test_the_clients_use_the_generated_types_as_they_are(check: ModuleType) -> None:
    check.refuse_escapes()  # raises SystemExit naming the lines otherwise


@pytest.mark.parametrize(
    ("source", "found"),
    [
        ("const view = body as MatchView;", ["1: const view = body as MatchView;"]),
        ("let seat: any = 1;", ["1: let seat: any = 1;"]),
        ("// @ts-ignore\nrun();", ["1: // @ts-ignore"]),  # a directive, though a comment
        ("/* x */ // @ts-expect-error\n", ["1: /* x */ // @ts-expect-error"]),
        ("f(); /* @ts-nocheck */", ["1: f(); /* @ts-nocheck */"]),
        ("// no `any`, no cast\nrun();", []),
        ("const kinds = ['a', 'b'] as const;", []),
        ('const text = "play as you like";', []),
        ("// the clients never cast\nconst n = 1;", []),
    ],
)
def test_typescript_casts_and_any_are_found_outside_comments_and_strings(
    check: ModuleType, source: str, found: list[str]
) -> None:
    assert check.escapes(source, check.TS) == found


@pytest.mark.parametrize(
    ("source", "found"),
    [
        ("x = cast(int, y)", ["1: x = cast(int, y)"]),
        ("def f(a: Any) -> None: ...", ["1: def f(a: Any) -> None: ..."]),
        ("x = f()  # type: ignore", ["1: x = f()  # type: ignore"]),
        ("# mypy: ignore-errors", ["1: # mypy: ignore-errors"]),
        ("# no Any, no cast(...) here", []),
        ('note = "cast(it)"', []),
    ],
)
def test_python_casts_and_any_are_found_outside_comments_and_strings(
    check: ModuleType, source: str, found: list[str]
) -> None:
    assert check.escapes(source, check.PY) == found
