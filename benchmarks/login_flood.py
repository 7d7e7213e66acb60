"""The log-in flood of ``python -m benchmarks.api --login-flood``: an authenticated GET timed
while the server is idle and while anonymous log-ins arrive at a steady rate from rotating
addresses, in alternating windows (so that a drift in the machine's other load falls on both).

Each flood log-in names a username no account has, with a wrong password, from the next of
``ADDRESSES`` client addresses (sent as ``X-Forwarded-For``; the benchmark's server trusts one
proxy, ``NUM_PROXIES=1``, as behind nginx): every attempt would cost the server a password hash
(Django hashes the password of an unknown username too), and neither the per-address throttle
nor the lockout stops it (each address makes one attempt every 50 s at 20 a second).

Both the GETs and the log-ins are sent open-loop: each at its scheduled time, by the next free
connection of a pool, and each GET's time counts from when it was due, so that a server that
stalls is not sampled less while it stalls (a closed loop of clients waiting on their answers
would send fewer GETs exactly when they are slow).
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from benchmarks.http_client import Client

#: Client addresses the flood rotates through (198.18.0.0/15, the benchmarking range).
ADDRESSES = 1000
#: Connections sending the flood: enough that log-ins answered slowly delay no other.
FLOOD_CONNECTIONS = 64
#: Timed GETs a second, and the connections sending them.
GET_RATE = 20.0
GET_CONNECTIONS = 8
#: Length of each idle and each flood window.
WINDOW_S = 5.0

Request = tuple[str, str, Any, "str | None", "dict[str, str] | None"]


def address(number: int) -> str:
    """The ``number``-th of the flood's addresses (0 to 999)."""
    return f"198.18.{number // 250}.{number % 250 + 1}"


class OpenLoop:
    """Requests at ``rate`` a second for ``seconds``, the ``n``-th due ``n / rate`` after the
    start and sent by the first free one of ``connections`` connections. Records each answer
    (status and problem code, or the exception) and its time from when it was due."""

    def __init__(
        self,
        port: int,
        *,
        rate: float,
        seconds: float,
        connections: int,
        request: Callable[[int], Request],
    ) -> None:
        self.port = port
        self.rate = rate
        self.count = max(1, round(rate * seconds))
        self.request = request
        self.lock = threading.Lock()
        self.next = 0
        self.answers: Counter[str] = Counter()
        self.ms_from_due: list[float] = []
        self.threads = [
            threading.Thread(target=self._send, daemon=True) for _ in range(connections)
        ]

    def start(self) -> None:
        self.started = time.perf_counter()
        for thread in self.threads:
            thread.start()

    def finish(self) -> float:
        """Wait for every request to be answered (or to fail); the seconds since the start."""
        for thread in self.threads:
            thread.join(timeout=120)
        return time.perf_counter() - self.started

    def _take(self) -> int | None:
        with self.lock:
            if self.next >= self.count:
                return None
            self.next += 1
            return self.next - 1

    def _send(self) -> None:
        client = Client(self.port)
        try:
            while (number := self._take()) is not None:
                due = self.started + number / self.rate
                if (wait := due - time.perf_counter()) > 0:
                    time.sleep(wait)
                method, path, body, token, headers = self.request(number)
                try:
                    status, answer, _ = client.call(method, path, body, token, headers)
                    code = answer.get("code") if isinstance(answer, dict) else None
                    outcome = f"{status} {code}" if code else str(status)
                except Exception as exc:  # noqa: BLE001 - counted: a stalled server times out
                    client.close()
                    outcome = type(exc).__name__
                elapsed = (time.perf_counter() - due) * 1000
                with self.lock:
                    self.answers[outcome] += 1
                    self.ms_from_due.append(elapsed)
        finally:
            client.close()


def measure(
    port: int,
    token: str,
    *,
    seconds: float,
    rate: float,
    run_id: str,
    percentile: Callable[[list[float], float], float | None],
    server_cpu: Callable[[], float],
) -> tuple[dict[str, Any], list[str]]:
    """``GET /api/players/me`` at ``GET_RATE`` a second for ``seconds`` idle and as long during a
    flood of ``rate`` log-ins a second, in alternating ``WINDOW_S`` windows; the figures
    (JSON-ready) and any errors. ``server_cpu()`` is the CPU seconds the server has used so far:
    each phase's share of a core is reported beside its times."""
    windows = max(1, round(seconds / WINDOW_S))
    window = seconds / windows
    idle: list[float] = []
    during: list[float] = []
    gets: Counter[str] = Counter()
    logins: Counter[str] = Counter()
    login_times: list[float] = []
    cpu = {"idle": 0.0, "flood": 0.0}
    wall = {"idle": 0.0, "flood": 0.0}
    sent = 0

    def get(_: int) -> Request:
        return "GET", "/api/players/me", None, token, None

    def log_in(number: int) -> Request:
        number += sent
        body = {"username": f"f{run_id}n{number}", "password": f"guess-{number}"}
        forwarded = {"X-Forwarded-For": address(number % ADDRESSES)}
        return "POST", "/api/auth/token", body, None, forwarded

    for _ in range(windows):
        for phase in ("idle", "flood"):
            timed = OpenLoop(
                port, rate=GET_RATE, seconds=window, connections=GET_CONNECTIONS, request=get
            )
            flood = OpenLoop(
                port, rate=rate, seconds=window, connections=FLOOD_CONNECTIONS, request=log_in
            )
            before = server_cpu()
            if phase == "flood":
                flood.start()
            timed.start()
            elapsed = timed.finish()
            if phase == "flood":
                elapsed = max(elapsed, flood.finish())
                logins.update(flood.answers)
                login_times += flood.ms_from_due
                sent += flood.count
            cpu[phase] += server_cpu() - before
            wall[phase] += elapsed
            (during if phase == "flood" else idle).extend(timed.ms_from_due)
            gets.update(timed.answers)
    errors = [f"GET /api/players/me: {n} x {what}" for what, n in gets.items() if what != "200"]
    idle_p50, flood_p50 = percentile(idle, 50), percentile(during, 50)
    figures = {
        "idle_get_p50_ms": idle_p50,
        "flood_get_p50_ms": flood_p50,
        "flood_to_idle": round(flood_p50 / idle_p50, 2) if idle_p50 and flood_p50 else None,
        "idle_get_p99_ms": percentile(idle, 99),
        "flood_get_p99_ms": percentile(during, 99),
        "gets_per_s": GET_RATE,
        "idle_gets": len(idle),
        "flood_gets": len(during),
        "idle_server_cores": round(cpu["idle"] / wall["idle"], 2),
        "flood_server_cores": round(cpu["flood"] / wall["flood"], 2),
        "flood_logins_per_s": rate,
        "flood_login_p50_ms": percentile(login_times, 50),
        "flood_answers": dict(sorted(logins.items())),
        "flood_addresses": ADDRESSES,
        "flood_windows": windows,
        "flood_seconds": round(wall["flood"], 1),
    }
    return figures, errors
