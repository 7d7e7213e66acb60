"""The serving process's heap, settled once the application is loaded.

Python's cyclic garbage collector looks at every container object it tracks each time a full
collection runs, and a loaded Django project holds about two hundred thousand of them (modules,
classes, functions, URL patterns, serializers, translation catalogs) that live as long as the
process. ``settle`` loads what a first request would (the URLconf and every view module it names),
collects once, and then moves everything alive to the collector's permanent generation
(``gc.freeze``): later collections look only at what requests themselves allocate, and cycles
among those are still found and freed as before. After a fork the frozen objects stay untouched
by the child's collections, so their pages are shared too.

The youngest generation is also collected less often (every ``YOUNG_THRESHOLD`` allocations
rather than Python's 700): a request allocates thousands of containers, nearly all freed by
reference counting when it ends, and each young collection walks those still alive, so 700 meant
a dozen walks over the same live request objects per request. Garbage in cycles is still found
and freed: a young cycle waits for at most that many allocations.

docs/api.md, "Where a move's CPU goes", has what it saves a move.
"""

from __future__ import annotations

import gc

from django.urls import get_resolver

#: Allocations (less deallocations) of containers between two young collections.
YOUNG_THRESHOLD = 10_000


def settle() -> int:
    """Load the URLconf's views, collect, freeze what is alive, collect the young less often;
    how many objects are frozen."""
    get_resolver().url_patterns  # noqa: B018 - imports every module the URLconf names
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_THRESHOLD, *gc.get_threshold()[1:])
    return gc.get_freeze_count()
