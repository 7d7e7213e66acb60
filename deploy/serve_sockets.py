"""``python deploy/serve_sockets.py [uvicorn options]``: the sockets (``/ws/``) on uvicorn.

The ASGI application (Channels: the match sockets, the players' own, the public walls) on
uvicorn with Python's own event loop, httptools and its sans-I/O ``websockets`` protocol, in two
worker processes (one a core; docs/operations.md, "Sockets at scale", compares the servers). Like
``deploy/serve.py``, a script outside the ``chickenfoot`` package that prepares
``PROMETHEUS_MULTIPROC_DIR`` (each worker counts its sockets there, and ``/metrics`` adds them
up) before ``uvicorn`` replaces this process. The options below are production's; any given on
the command line come after them, and win.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path

# deploy/serve.py beside this script (on the path when run as a script; not when loaded)
sys.path.insert(0, str(Path(__file__).resolve().parent))
from serve import prepare_metrics_directory

#: uvicorn's options for production: behind nginx (which sends ``X-Forwarded-*``), a listen
#: backlog of 4,096 so that a reconnect storm's connections wait in the kernel's queue rather
#: than being refused, no lifespan (Channels' router has none), the workers' open sockets
#: closed within 10 s of a stop.
#: asyncio's loop, not uvloop: libuv (since 1.45) takes one connection from the kernel's queue a
#: turn of its loop, and a busy process's turns are long, so in a reconnect storm the queue
#: filled and phones were dropped and reset; asyncio's takes every connection waiting.
OPTIONS = (
    *("--host", "0.0.0.0", "--port", "8001"),  # noqa: S104 - inside the stack, behind nginx
    *("--workers", "2", "--loop", "asyncio", "--http", "httptools", "--ws", "websockets-sansio"),
    # a phone gone without a word is found by the protocol's ping within 90 s (the presence it
    # noted lapses after three 25 s heartbeats); uvicorn's default pings every 20 s
    *("--ws-ping-interval", "60", "--ws-ping-timeout", "30"),
    *("--backlog", "4096", "--lifespan", "off"),
    *("--proxy-headers", "--forwarded-allow-ips", "*"),
    *("--timeout-graceful-shutdown", "10", "--log-level", "warning"),
)
TARGET = "chickenfoot.asgi:application"


def uvicorn_command(python: str, extra: Sequence[str] = ()) -> list[str]:
    """The uvicorn command this module runs: production's options, then ``extra``."""
    return [python, "-m", "uvicorn", *OPTIONS, *extra, TARGET]


def main(argv: Sequence[str] | None = None) -> None:
    """Prepare, then become uvicorn."""
    extra = list(sys.argv[1:] if argv is None else argv)
    prepare_metrics_directory(os.environ)
    # Two malloc arenas, not glibc's eight a core: the sockets' database threads
    # (games/live/threads.py) would otherwise each grow an arena of their own and keep it.
    os.environ.setdefault("MALLOC_ARENA_MAX", "2")
    # Full collections every five minutes, not whenever a storm renews a quarter of the heap,
    # and a young one every second (chickenfoot/heap.py, ``old_on_a_clock``).
    os.environ.setdefault("ASGI_OLD_COLLECTION_SECONDS", "300")
    command = uvicorn_command(sys.executable, extra)
    os.execv(command[0], command)  # noqa: S606 - our own interpreter, running uvicorn


if __name__ == "__main__":
    main()
