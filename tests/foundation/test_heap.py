"""The serving processes settle their heap once the application is loaded (chickenfoot/heap.py):
what is alive then is frozen out of the collector's passes, and what requests allocate later is
collected as before."""

from __future__ import annotations

import gc
import subprocess
import sys
import weakref
from pathlib import Path

import pytest

from chickenfoot import heap

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _collector_restored():
    """This process's collector as it was: thawed, its thresholds Python's."""
    thresholds = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)


def test_settle_freezes_what_is_alive_and_collects_the_young_less_often():
    older = gc.get_threshold()[1:]
    frozen = heap.settle()
    # a frozen object that another thread frees later leaves the permanent generation, so in a
    # process with other threads running the count can only have fallen since settle counted it
    assert frozen > 10_000
    assert frozen - 100 < gc.get_freeze_count() <= frozen
    assert gc.get_threshold() == (heap.YOUNG_THRESHOLD, *older)


def test_a_cycle_made_after_settling_is_still_collected():
    class Node:
        pass

    heap.settle()
    first, second = Node(), Node()
    first.other, second.other = second, first  # a cycle: reference counting never frees it
    gone = weakref.ref(first)
    del first, second
    gc.collect()
    assert gone() is None


def test_the_wsgi_and_asgi_applications_settle_on_import():
    # in a fresh interpreter: loading the application imports no view by itself, so the views
    # being there proves settling loaded them before the freeze, as a first request would
    views = ("games.urls", "scoring.urls", "games.web.urls", "games.api.moves")
    for module in ("chickenfoot.wsgi", "chickenfoot.asgi"):
        code = (
            f"import gc, sys, {module}; "
            f"print(gc.get_freeze_count(), gc.get_threshold()[0], "
            f"all(name in sys.modules for name in {views!r}))"
        )
        out = subprocess.run(  # noqa: S603 - this interpreter, this test's own code
            [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
        )
        frozen, young, loaded = out.stdout.strip().splitlines()[-1].split()
        assert int(frozen) > 10_000, module
        assert int(young) == heap.YOUNG_THRESHOLD, module
        assert loaded == "True", module
