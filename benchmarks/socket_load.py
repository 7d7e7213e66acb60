"""One load generator of ``benchmarks.sockets``: a process holding many phones' sockets.

    python -m benchmarks.socket_load <plan.json>

The plan names the servers' ports, the source address to connect from, the connect rate and the
sockets: ``["me", token]`` (``/ws/me/``) or ``["match", token, match_id]``
(``/ws/matches/{id}``). Each socket behaves as the app does (docs/api.md, "Live"): it authenticates
with ``Authorization: Token``, a ``/ws/me/`` socket says the app is in the foreground, and
it counts on the server's ``heartbeat`` (every ``LIVE_HEARTBEAT_SECONDS``) rather than pings of
its own; a socket silent for two heartbeats and 5 s reconnects, and a failed connection is
tried again after a random wait of up to 1, 2, 4 ... 30 s (``Phone.retry``). A match socket
checks every ``move`` frame's ``seq`` (a gap is a lost frame, a seq already had a duplicate) and
times it from the move's ``created_at`` (written in the transaction that commits it) to its
arrival.

Commands come on standard input, one a line; answers go to standard output as JSON lines:

- (at start) connect every socket at the plan's rate: ``{"ready": n, "failed": f}``;
- ``measure`` / ``idle``: time the move frames from now on, or stop timing them (while they
  are timed, this process's cyclic garbage collector is off: ``timing_begins``);
- ``storm``: drop every socket at once (the connection aborted, as a phone changing network
  does) and reconnect each at a random moment within the plan's ``spread`` seconds, resuming
  with ``?after=<the last seq it has>``: ``{"storm_recovered_s": s, "back": n}`` once every socket
  has its ``hello`` and, for a match, the moves up to the seq that ``hello`` names;
- ``drain <final.json> <seconds>``: wait until each match socket has its match's last seq (the
  file maps match ids to them), at most that long; then ``{"report": ...}`` and exit. A socket
  short of it is a lost frame, unless it is not connected then (``not_back``).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import random
import resource
import socket
import sys
import time
from datetime import datetime
from typing import Any, cast

import uvloop
from websockets.client import ClientProtocol
from websockets.exceptions import InvalidMessage, WebSocketException
from websockets.frames import Opcode
from websockets.http11 import Response
from websockets.uri import parse_uri

#: Close codes after which the app would not reconnect (docs/api.md, "Close codes").
GIVE_UP = {4000, 4400, 4401, 4403, 4404}
#: Seconds a connection may take to open (its TCP connection and handshake).
OPEN_TIMEOUT = 60
#: Seconds a closing connection waits for the server to close it, then drops it.
CLOSE_TIMEOUT = 2
#: Linux's socket option (``<linux/in.h>``): a bound socket's port is picked on connect.
IP_BIND_ADDRESS_NO_PORT = getattr(socket, "IP_BIND_ADDRESS_NO_PORT", 24)


async def tcp_connect(source: str, port: int) -> socket.socket:
    """A TCP connection from ``source`` to the server's ``port`` on loopback, its own port
    picked as it connects (``IP_BIND_ADDRESS_NO_PORT``). Bound to ``source`` with port 0, as
    ``create_connection(local_addr=...)`` binds, the kernel picks a port free for every
    destination, searching the ports in use each time: with 5,000 sockets open and a storm's
    reconnections that search was most of a generator's CPU (kernel time, 0.4 to 0.7 of a
    core, taken from the server it measures)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.setblocking(False)
        sock.setsockopt(socket.SOL_IP, IP_BIND_ADDRESS_NO_PORT, 1)
        sock.bind((source, 0))
        await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
    except BaseException:
        sock.close()
        raise
    return sock


def raise_fd_limit() -> int:
    """Raise this process's open-file limit to its hard limit (a socket is a file): the new
    soft limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


class Link(asyncio.Protocol):
    """One connection of a phone: websockets' sans-I/O client protocol (the handshake, the
    frames, the closing handshake) over an asyncio transport, the frames handed to the phone as
    they are parsed. The library's asyncio client spends a task, futures and a timeout on each
    connection and each frame; through a storm's first ten seconds the two generators spent half
    a core on it, taken from the server they measure."""

    def __init__(self, phone: Phone) -> None:
        self.phone = phone
        self.ws = ClientProtocol(parse_uri(phone.url()), max_size=None)
        loop = asyncio.get_running_loop()
        self.opened: asyncio.Future[None] = loop.create_future()
        self.closed: asyncio.Future[None] = loop.create_future()
        self.transport: asyncio.Transport | None = None
        #: When the server was last heard (monotonic).
        self.heard = time.monotonic()
        #: Closed for its silence (``Load.sweep``), or for an error of ours: its name.
        self.silent = False
        self.error: str | None = None
        self._parts: list[bytes] = []

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)
        request = self.ws.connect()
        request.headers["Authorization"] = f"Token {self.phone.token}"
        self.ws.send_request(request)
        self._flush()

    def data_received(self, data: bytes) -> None:
        self.heard = time.monotonic()
        self.ws.receive_data(data)
        self._events()

    def eof_received(self) -> bool:
        self.ws.receive_eof()
        self._events()
        return False  # the transport closes

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.opened.done():
            self.opened.set_exception(
                self.ws.handshake_exc
                or exc
                or InvalidMessage("the connection closed during the handshake")
            )
            self.opened.exception()  # retrieved: the phone may have stopped waiting
        if not self.closed.done():
            self.closed.set_result(None)

    @property
    def close_code(self) -> int | None:
        """The code of the close frame the server sent, if it sent one."""
        return self.ws.close_rcvd.code if self.ws.close_rcvd is not None else None

    def send(self, text: str) -> None:
        self.ws.send_text(text.encode())
        self._flush()

    def close(self) -> None:
        """Start the closing handshake; drop the connection if the server does not end it."""
        if self.transport is None or self.transport.is_closing():
            return
        self.ws.send_close()
        self._flush()

    def abort(self) -> None:
        if self.transport is not None:
            self.transport.abort()

    def _events(self) -> None:
        for event in self.ws.events_received():
            if isinstance(event, Response):
                if self.ws.handshake_exc is None and not self.opened.done():
                    self.opened.set_result(None)
                continue
            if event.opcode not in (Opcode.TEXT, Opcode.CONT):
                continue  # pings are answered by the protocol; a close ends in connection_lost
            self._parts.append(event.data)
            if not event.fin:
                continue
            text, self._parts = b"".join(self._parts), []
            try:
                self.phone.frame(json.loads(text))
            except Exception as error:  # noqa: BLE001 - counted; the phone reconnects
                self.error = type(error).__name__
                self.abort()
                return
        self._flush()

    def _flush(self) -> None:
        transport = self.transport
        if transport is None or transport.is_closing():
            return
        for data in self.ws.data_to_send():
            if data:
                transport.write(data)
            elif transport.can_write_eof():
                transport.write_eof()
        if self.ws.close_expected():
            asyncio.get_running_loop().call_later(CLOSE_TIMEOUT, transport.abort)


class Phone:
    """One socket, across its reconnections."""

    def __init__(self, load: Load, kind: str, token: str, *where: int) -> None:
        """``where``: the match's id and the port, or the port alone (``/ws/me/``)."""
        match_id, port = where if len(where) == 2 else (None, where[0])
        self.load, self.kind, self.token, self.match_id, self.port = (
            load,
            kind,
            token,
            match_id,
            port,
        )
        self.last_seq: int | None = None
        self.hello_seq = 0
        self.link: Link | None = None
        self.up = asyncio.Event()  # hello had, caught up
        self.reconnect_at = 0.0
        self.over = False
        self.connects = 0
        self.failures = 0
        #: The storm's moments for this socket: dropped, connected again, back (monotonic).
        self.dropped = self.reopened = self.back = 0.0

    def url(self) -> str:
        if self.kind == "me":
            return f"ws://127.0.0.1:{self.port}/ws/me/"
        after = f"?after={self.last_seq}" if self.last_seq is not None else ""
        return f"ws://127.0.0.1:{self.port}/ws/matches/{self.match_id}{after}"

    async def run(self) -> None:
        load = self.load
        loop = asyncio.get_running_loop()
        while not self.over and not load.stopping:
            if (wait := self.reconnect_at - time.monotonic()) > 0:
                await asyncio.sleep(wait)
            link = None
            try:
                async with asyncio.timeout(OPEN_TIMEOUT):
                    sock = await tcp_connect(load.source, self.port)
                    _, link = await loop.create_connection(lambda: Link(self), sock=sock)
                    self.link = link
                    await link.opened
            except (OSError, WebSocketException, TimeoutError) as error:
                if link is not None:
                    link.abort()
                load.count(load.connect_errors, type(error).__name__)
                self.retry()
                continue
            self.connects += 1
            if self.dropped and not self.reopened:
                self.reopened = time.monotonic()
            await link.closed
            code = link.close_code
            if link.silent:
                load.silent += 1
            elif link.error is not None:
                load.count(load.connect_errors, link.error)
                self.retry()
            elif code in GIVE_UP:
                self.over = True
                if code != 4000:
                    load.count(load.refused, str(code))
            elif not load.storming:
                load.unexpected_closes += 1
                self.retry()
            self.up.clear()

    def retry(self) -> None:
        """Try again after a random wait of up to 1, 2, 4 ... 30 s as failures follow one
        another (exponential backoff with full jitter), so that a server catching up is not
        hammered by every phone at once."""
        self.failures += 1
        self.reconnect_at = time.monotonic() + random.uniform(0, min(30, 2**self.failures))

    def frame(self, frame: dict[str, Any]) -> None:
        kind = frame["type"]
        load = self.load
        if kind == "hello":
            self.failures = 0
            if self.kind == "me":
                if self.link is not None:  # the app is in the foreground
                    self.link.send(json.dumps({"type": "foreground"}))
                self._arrive()
                return
            self.hello_seq = frame["seq"]
            if self.last_seq is None:
                self.last_seq = frame["seq"]
        elif kind == "move":
            seq = frame["seq"]
            if self.last_seq is None or seq <= self.last_seq:
                load.duplicates += 1
                return
            if seq > self.last_seq + 1:
                load.gaps += seq - self.last_seq - 1
            self.last_seq = seq
            if load.measuring:
                arrived = time.time()
                created = datetime.fromisoformat(frame["created_at"]).timestamp()
                if created >= load.measured_from:  # not a move made while timing began
                    load.samples.append(round((arrived - created) * 1000, 2))
        elif kind == "heartbeat":
            load.heartbeats += 1
        if self.kind == "match" and not self.up.is_set() and self.last_seq >= self.hello_seq:
            self._arrive()

    def _arrive(self) -> None:
        self.up.set()
        if self.dropped and not self.back:
            self.back = time.monotonic()


class Load:
    """Every phone of this process and what they saw."""

    def __init__(self, plan: dict[str, Any]) -> None:
        self.source: str = plan["source"]
        self.heartbeat: float = plan["heartbeat"]
        self.rate: float = plan["connect_rate"]
        self.spread: float = plan["spread"]
        ports = plan["ports"]
        self.phones = [
            Phone(self, kind, token, *rest, ports[i % len(ports)])
            for i, (kind, token, *rest) in enumerate(plan["sockets"])
        ]
        self.samples: list[float] = []
        self.duplicates = self.gaps = self.heartbeats = self.silent = self.unexpected_closes = 0
        self.connect_errors: dict[str, int] = {}
        self.refused: dict[str, int] = {}
        self.measuring = self.storming = self.stopping = False
        #: Moves made from this moment on are timed (``measure``).
        self.measured_from = 0.0
        self.tasks: list[asyncio.Task[None]] = []

    @staticmethod
    def count(tally: dict[str, int], name: str) -> None:
        """One more ``name`` in ``tally`` (``connect_errors``, ``refused``)."""
        tally[name] = tally.get(name, 0) + 1

    async def all_up(self, timeout: float) -> int:
        """Wait until every phone still meant to be connected is up: how many are."""
        live = [p for p in self.phones if not p.over]
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.gather(*(p.up.wait() for p in live)), timeout)
        return sum(p.up.is_set() for p in self.phones)

    async def start(self) -> None:
        began = time.monotonic()
        loop = asyncio.get_running_loop()
        for index, phone in enumerate(self.phones):
            phone.reconnect_at = began + index / self.rate
            self.tasks.append(loop.create_task(phone.run()))
        self.tasks.append(loop.create_task(self.sweep()))
        ready = await self.all_up(len(self.phones) / self.rate + 120)
        say({"ready": ready, "failed": len(self.phones) - ready})

    async def sweep(self) -> None:
        """Every second, close the connections silent for two heartbeats and 5 s (each phone
        then reconnects), as the app does."""
        silence = self.heartbeat * 2 + 5
        while not self.stopping:
            await asyncio.sleep(1)
            quiet_since = time.monotonic() - silence
            for phone in self.phones:
                link = phone.link
                if (
                    link is not None
                    and link.opened.done()
                    and not link.closed.done()
                    and not link.silent
                    and link.heard < quiet_since
                ):
                    link.silent = True
                    link.close()

    async def storm(self) -> None:
        self.storming = True
        began = time.monotonic()
        dropped = []
        for phone in self.phones:
            if phone.over or phone.link is None:
                continue
            phone.up.clear()
            phone.reconnect_at = began + random.uniform(0, self.spread)
            phone.dropped, phone.reopened, phone.back = phone.reconnect_at, 0.0, 0.0
            phone.link.abort()
            dropped.append(phone)
        back = await self.all_up(self.spread + 120)
        self.storming = False
        say(
            {
                "storm_recovered_s": round(time.monotonic() - began, 2),
                "back": back,
                # from each socket's reconnection moment: its connection open, its hello had
                # and caught up (seconds); and how many were back by each 10 s of the storm
                "reopened_s": [round(p.reopened - p.dropped, 3) for p in dropped if p.reopened],
                "back_s": [round(p.back - p.dropped, 3) for p in dropped if p.back],
                "back_at_s": [round(p.back - began, 2) for p in dropped if p.back],
            }
        )

    async def drain(self, final_path: str, seconds: float) -> None:
        with open(final_path) as file:
            final = {int(k): v for k, v in json.load(file).items()}
        deadline = time.monotonic() + seconds
        matches = [p for p in self.phones if p.kind == "match"]
        while time.monotonic() < deadline:
            back = [p for p in matches if not p.over and p.up.is_set()]
            if all((p.last_seq or 0) >= final.get(p.match_id or 0, 0) for p in back):
                break
            await asyncio.sleep(0.25)
        # a socket not back at the end lost nothing it could be sent: it is counted apart
        back = [p for p in matches if not p.over and p.up.is_set()]
        short = sum(max(0, final.get(p.match_id or 0, 0) - (p.last_seq or 0)) for p in back)
        self.stopping = True
        say(
            {
                "report": {
                    "samples": self.samples,
                    "duplicates": self.duplicates,
                    "lost": self.gaps + short,
                    "gaps": self.gaps,
                    "short_at_end": short,
                    "heartbeats": self.heartbeats,
                    "silent": self.silent,
                    "unexpected_closes": self.unexpected_closes,
                    "connect_errors": self.connect_errors,
                    "refused": self.refused,
                    "over": sum(p.over for p in self.phones),
                    "not_back": sum(not p.over and not p.up.is_set() for p in self.phones),
                }
            }
        )
        for phone in self.phones:
            if phone.link is not None:
                phone.link.abort()
        for task in self.tasks:
            task.cancel()


def say(line: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(line) + "\n")
    sys.stdout.flush()


def timing_begins() -> None:
    """Stop the cyclic collector while frames are timed. Its collections of this process's
    thousands of sockets' objects stopped the process for up to 0.8 s (a full one) or 0.3 s (a
    middle one), and every frame that arrived meanwhile was timed that much late: the
    generator's pause, not the server's. What is alive now is collected once and set aside
    (``gc.freeze``), and only moves made after that are timed (frames that waited for that
    collection would be late by it); the collector runs again from ``idle`` on."""
    gc.collect()
    gc.freeze()
    gc.disable()


async def commands(load: Load) -> None:
    loop = asyncio.get_running_loop()
    await load.start()
    while True:
        line = (await loop.run_in_executor(None, sys.stdin.readline)).split()
        if not line:
            return
        if line[0] == "measure":
            timing_begins()
            load.measured_from, load.measuring = time.time(), True
        elif line[0] == "idle":
            load.measuring = False
            gc.enable()
        elif line[0] == "storm":
            await load.storm()
        elif line[0] == "drain":
            await load.drain(line[1], float(line[2]))
            return


def main(argv: list[str]) -> int:
    raise_fd_limit()
    with open(argv[0]) as file:
        plan = json.load(file)
    # uvloop, as the serving has: the generators share the machine's two cores with the server
    # they measure, and the standard loop's own work per connection was theirs to spend.
    uvloop.run(commands(Load(plan)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
