"""The serving processes settle their heap once the application is loaded (chickenfoot/heap.py):
what is alive then is frozen out of the collector's passes, and what requests allocate later is
collected as before."""

from __future__ import annotations

import gc
import subprocess
import sys
import weakref
from pathlib import Path

from chickenfoot import heap

ROOT = Path(__file__).resolve().parents[2]


def test_settle_freezes_what_is_alive():
    try:
        frozen = heap.settle()
        assert frozen == gc.get_freeze_count() > 10_000
    finally:
        gc.unfreeze()


def test_a_cycle_made_after_settling_is_still_collected():
    class Node:
        pass

    try:
        heap.settle()
        first, second = Node(), Node()
        first.other, second.other = second, first  # a cycle: refcounting alone never frees it
        gone = weakref.ref(first)
        del first, second
        gc.collect()
        assert gone() is None
    finally:
        gc.unfreeze()


def test_the_wsgi_and_asgi_applications_settle_on_import():
    # in a fresh interpreter: loading the application imports no view by itself, so the views
    # being there proves settling loaded them before the freeze, as a first request would
    views = ("games.urls", "scoring.urls", "games.web.urls", "games.api.moves")
    for module in ("chickenfoot.wsgi", "chickenfoot.asgi"):
        code = (
            f"import gc, sys, {module}; "
            f"print(gc.get_freeze_count(), all(name in sys.modules for name in {views!r}))"
        )
        out = subprocess.run(  # noqa: S603 - this interpreter, this test's own code
            [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
        )
        frozen, loaded = out.stdout.strip().splitlines()[-1].split()
        assert int(frozen) > 10_000, module
        assert loaded == "True", module
