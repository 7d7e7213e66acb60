"""The serving processes settle their heap once the application is loaded (chickenfoot/heap.py):
what is alive then is frozen out of the collector's passes, and what requests allocate later is
collected as before."""

from __future__ import annotations

import gc
import os
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


def test_full_collections_on_a_clock_free_an_old_cycle_and_the_rule_takes_none():
    # in a fresh interpreter: the clock changes its collector for good and starts a thread
    code = """
import gc, time, weakref
from chickenfoot import heap

assert heap.old_on_a_clock(0) is None and gc.get_threshold()[2] != heap.NEVER
fulls = []
gc.callbacks.append(lambda phase, info: phase == "stop" and fulls.append(info["generation"]))
clock = heap.old_on_a_clock(2.0)
class Node:
    pass
first, second = Node(), Node()
first.other, second.other = second, first
gone = weakref.ref(first)
gc.collect(1)  # the cycle is old now
del first, second
# half a million containers that live on: Python's rule would take full collections for them
kept = [[] for _ in range(500_000)]
print(gc.get_threshold()[2] == heap.NEVER, clock.daemon, fulls.count(2), gone() is None)
time.sleep(2.5)
print(fulls.count(2) >= 1, gone() is None, len(kept))
"""
    out = subprocess.run(  # noqa: S603 - this interpreter, this test's own code
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    before, after = out.stdout.strip().splitlines()[-2:]
    # the rule's threshold out of reach, the clock a daemon, no full collection yet, the old
    # cycle still there (reference counting never frees it)
    assert before.split() == ["True", "True", "0", "False"]
    # the clock's collection came and freed it
    assert after.split() == ["True", "True", "500000"]


@pytest.mark.parametrize(
    ("environment", "expected"),
    [
        ({}, ["False", "False"]),  # Python's rule, as the tests and runserver run
        # production's sockets (deploy/serve_sockets.py): full collections on a clock of 300 s
        ({"ASGI_OLD_COLLECTION_SECONDS": "300"}, ["True", "True"]),
    ],
)
def test_the_asgi_application_takes_its_full_collections_as_told(
    environment: dict[str, str], expected: list[str]
) -> None:
    code = (
        "import gc, threading, chickenfoot.asgi; from chickenfoot import heap; "
        "print(gc.get_threshold()[2] == heap.NEVER, "
        "any(t.name == 'heap-old-clock' for t in threading.enumerate()))"
    )
    env = {k: v for k, v in os.environ.items() if k != "ASGI_OLD_COLLECTION_SECONDS"}
    out = subprocess.run(  # noqa: S603 - this interpreter, this test's own code
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        env=env | environment,
    )
    assert out.stdout.strip().splitlines()[-1].split() == expected


def test_the_clock_takes_the_young_generation_that_the_count_never_calls_for():
    # Old containers replaced one for one by new ones: Python's count of the young generation
    # (allocations less deallocations, whatever the generation freed) stands still, so the rule
    # never collects while the young generation grows; the clock's young collections do.
    code = """
import gc, time
from chickenfoot import heap

gc.set_threshold(heap.YOUNG_THRESHOLD, 10, 10)
old = [[i] for i in range(100_000)]
gc.collect()
young = []
gc.callbacks.append(lambda phase, info: phase == "stop" and young.append(info["generation"]))
for i in range(100_000):
    old[i] = [i]
print(young.count(0), len(gc.get_objects(0)) >= 100_000)
heap.old_on_a_clock(60.0, young_every=0.2)
time.sleep(0.5)
print(young.count(0) >= 1, len(gc.get_objects(0)) < 1_000, young.count(2))
"""
    out = subprocess.run(  # noqa: S603 - this interpreter, this test's own code
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    before, after = out.stdout.strip().splitlines()[-2:]
    assert before.split() == ["0", "True"]  # the rule took none: all of them young
    assert after.split() == ["True", "True", "0"]  # the clock took them; no full collection
