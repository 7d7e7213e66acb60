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

A process holding thousands of sockets may also take its full collections on a clock
(``old_on_a_clock``, the sockets' processes: ``ASGI_OLD_COLLECTION_SECONDS``) rather than when
Python's rule calls for one. That rule runs a full collection whenever the objects that reached
the oldest generation since the last grew by a quarter: a reconnect storm renews every socket's
objects, so it ran full collections in the storm, each walking every live socket's objects
while no socket was served (up to 0.8 s each at 4,000 sockets). A closed socket is freed by
reference counting (games/live/consumers.py), so little waits for them; what does waits for the
clock.

The same clock takes a young collection every second (``YOUNG_SECONDS``). Python counts the
young generation's containers as allocations less deallocations, and a deallocation counts
whatever the generation of what it frees: where new objects replace old ones one for one (ten
thousand sockets renewing their state at each heartbeat and frame), the count stands still while
the young generation grows, and the collection that comes at last walks all of it (130 to 260
ms of CPU each in the sockets' processes at ten thousand sockets, every frame waiting). On the
clock a young collection walks at most a second's worth.
docs/operations.md, "Sockets at scale", has the measurements.
"""

from __future__ import annotations

import gc
import threading
import time

from django.urls import get_resolver

#: Allocations (less deallocations) of containers between two young collections.
YOUNG_THRESHOLD = 10_000
#: Seconds between the young collections of the clock (``old_on_a_clock``).
YOUNG_SECONDS = 1.0
#: The oldest generation's threshold that Python's rule never reaches (a C int's largest).
NEVER = 2**31 - 1


def settle() -> int:
    """Load the URLconf's views, collect, freeze what is alive, collect the young less often;
    how many objects are frozen."""
    get_resolver().url_patterns  # noqa: B018 - imports every module the URLconf names
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_THRESHOLD, *gc.get_threshold()[1:])
    return gc.get_freeze_count()


def old_on_a_clock(every: float, young_every: float = YOUNG_SECONDS) -> threading.Thread | None:
    """Take the full collections every ``every`` seconds, on a thread of their own, and never
    by Python's rule, and a young one every ``young_every`` seconds besides the rule's; ``every``
    0 or less: leave them to the rule. The thread, if started."""
    if every <= 0:
        return None
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, NEVER)

    def collect() -> None:
        last_full = time.monotonic()
        while True:
            time.sleep(min(every, young_every))
            if time.monotonic() - last_full >= every:
                gc.collect()
                last_full = time.monotonic()
            else:
                gc.collect(0)

    clock = threading.Thread(target=collect, name="heap-old-clock", daemon=True)
    clock.start()
    return clock
