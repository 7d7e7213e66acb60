"""The log-in flood of ``python -m benchmarks.api --login-flood``: an authenticated GET timed
while the server is idle and while anonymous log-ins arrive at a steady rate from rotating
addresses, in alternating windows (so that a drift in the machine's other load falls on both).

Each flood log-in names a username no account has, with a wrong password, from the next of
``ADDRESSES`` client addresses (sent as ``X-Forwarded-For``; the benchmark's server trusts one
proxy, ``NUM_PROXIES=1``, as behind nginx): every attempt would cost the server a password hash
(Django hashes the password of an unknown username too), and neither the per-address throttle
nor the lockout stops it (each address makes one attempt every 50 s at 20 a second).

During each flood window the benchmark's own players also log in, each from an address of its
own (``home``), with their right passwords, at ``KNOWN_RATE`` a second in all: as known devices
(the device credential their last log-in gave them, sent back as ``device_credential``), and as
many again as unknown clients (none sent). ``known_device_login_success`` is the share of the
known devices' log-ins answered 200, ``known_device_login_p95_ms`` the 95th percentile of their
times (every attempt, from when it was due to its answer); ``unknown_login_success`` is the same
share for the players logging in without a credential.

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
#: The players' own log-ins a second during the flood, as known devices (and as many again
#: without a credential), and the connections sending each kind.
KNOWN_RATE = 0.5
KNOWN_CONNECTIONS = 2
#: The keys this adds to ``benchmarks.api``'s JSON line (docs/reliability.md, "The flood
#: benchmark", describes each; CI's brief run checks them with ``benchmarks.keys``).
KEYS = (
    *("idle_get_p50_ms", "flood_get_p50_ms", "flood_to_idle", "idle_get_p99_ms"),
    *("flood_get_p99_ms", "gets_per_s", "idle_gets", "flood_gets", "idle_server_cores"),
    *("flood_server_cores", "flood_logins_per_s", "flood_login_p50_ms", "flood_answers"),
    *("flood_addresses", "flood_windows", "flood_seconds", "known_device_login_success"),
    *("known_device_login_p95_ms", "known_device_logins", "known_device_answers"),
    *("unknown_login_success", "unknown_logins", "unknown_answers", "hashing_bounds"),
    *("load_avg_after_flood", "targets.flood_to_idle", "targets.known_device_login_success"),
    "targets.known_device_login_p95_ms",
)
#: The issue's targets for the flood: (the key, ``at_most`` or ``at_least``, the bound).
TARGETS = (
    ("flood_to_idle", "at_most", 2),
    ("known_device_login_success", "at_least", 0.95),
    ("known_device_login_p95_ms", "at_most", 2000),
)

Request = tuple[str, str, Any, "str | None", "dict[str, str] | None"]


def address(number: int) -> str:
    """The ``number``-th of the flood's addresses (0 to 999)."""
    return f"198.18.{number // 250}.{number % 250 + 1}"


def home(number: int) -> str:
    """The address the ``number``-th player logs in from (none of the flood's)."""
    return f"198.19.{number // 250}.{number % 250 + 1}"


class Players:
    """The benchmark's players, (username, password) each, with the device credential each was
    last given (``None``: none yet, or a server that gives none)."""

    def __init__(self, accounts: list[tuple[str, str]]) -> None:
        self.accounts = accounts
        self.lock = threading.Lock()
        self.credentials: dict[int, str | None] = dict.fromkeys(range(len(accounts)))

    def log_in(self, number: int, *, known: bool) -> Request:
        """The ``number``-th log-in of its kind: the next player, from their own address."""
        player = number % len(self.accounts)
        username, password = self.accounts[player]
        body: dict[str, str] = {"username": username, "password": password, "device": "bench"}
        with self.lock:
            credential = self.credentials[player]
        if known and credential:
            body["device_credential"] = credential
        return "POST", "/api/auth/token", body, None, {"X-Forwarded-For": home(player)}

    def keep(self, number: int, answer: Any) -> None:
        """Keep the credential a log-in's answer gave (the app stores it for the next)."""
        if isinstance(answer, dict) and answer.get("device_credential"):
            with self.lock:
                self.credentials[number % len(self.accounts)] = answer["device_credential"]

    def first_log_ins(self, port: int) -> None:
        """Each player logs in once, before the flood, as a device does; a log-in answered
        ``busy`` is sent again when it says."""
        client = Client(port)
        try:
            for player in range(len(self.accounts)):
                for _ in range(120):
                    method, path, body, _, headers = self.log_in(player, known=True)
                    status, answer, _ = client.call(method, path, body, None, headers)
                    if status != 429 or answer.get("code") != "busy":
                        break
                    time.sleep(1)
                if status != 200:
                    raise RuntimeError(f"log-in of {body['username']}: HTTP {status}: {answer}")
                self.keep(player, answer)
        finally:
            client.close()


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
        on_answer: Callable[[int, Any], None] | None = None,
    ) -> None:
        self.port = port
        self.on_answer = on_answer
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
                    if self.on_answer is not None and status == 200:
                        self.on_answer(number, answer)
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
    accounts: list[tuple[str, str]],
    *,
    seconds: float,
    rate: float,
    run_id: str,
    percentile: Callable[[list[float], float], float | None],
    server_cpu: Callable[[], float],
) -> tuple[dict[str, Any], list[str]]:
    """``GET /api/players/me`` at ``GET_RATE`` a second for ``seconds`` idle and as long during a
    flood of ``rate`` log-ins a second, in alternating ``WINDOW_S`` windows, while ``accounts``
    (the benchmark's players) log in during the flood as known devices and as unknown clients;
    the figures (JSON-ready) and any errors. ``server_cpu()`` is the CPU seconds the server has
    used so far: each phase's share of a core is reported beside its times."""
    windows = max(1, round(seconds / WINDOW_S))
    window = seconds / windows
    idle: list[float] = []
    during: list[float] = []
    gets: Counter[str] = Counter()
    logins: Counter[str] = Counter()
    login_times: list[float] = []
    people = {"known": Counter[str](), "unknown": Counter[str]()}
    known_times: list[float] = []
    cpu = {"idle": 0.0, "flood": 0.0}
    wall = {"idle": 0.0, "flood": 0.0}
    sent = {"flood": 0, "known": 0, "unknown": 0}
    players = Players(accounts)
    players.first_log_ins(port)

    def get(_: int) -> Request:
        return "GET", "/api/players/me", None, token, None

    def log_in(number: int) -> Request:
        number += sent["flood"]
        body = {"username": f"f{run_id}n{number}", "password": f"guess-{number}"}
        forwarded = {"X-Forwarded-For": address(number % ADDRESSES)}
        return "POST", "/api/auth/token", body, None, forwarded

    def person(known: bool) -> OpenLoop:
        kind = "known" if known else "unknown"
        return OpenLoop(
            port,
            rate=KNOWN_RATE,
            seconds=window,
            connections=KNOWN_CONNECTIONS,
            request=lambda n: players.log_in(n + sent[kind], known=known),
            on_answer=lambda n, answer: players.keep(n + sent[kind], answer),
        )

    for _ in range(windows):
        for phase in ("idle", "flood"):
            timed = OpenLoop(
                port, rate=GET_RATE, seconds=window, connections=GET_CONNECTIONS, request=get
            )
            flood = OpenLoop(
                port, rate=rate, seconds=window, connections=FLOOD_CONNECTIONS, request=log_in
            )
            known, unknown = person(known=True), person(known=False)
            before = server_cpu()
            if phase == "flood":
                for loop in (flood, known, unknown):
                    loop.start()
            timed.start()
            elapsed = timed.finish()
            if phase == "flood":
                elapsed = max(elapsed, flood.finish(), known.finish(), unknown.finish())
                logins.update(flood.answers)
                login_times += flood.ms_from_due
                people["known"].update(known.answers)
                people["unknown"].update(unknown.answers)
                known_times += known.ms_from_due
                sent["flood"] += flood.count
                sent["known"] += known.count
                sent["unknown"] += unknown.count
            cpu[phase] += server_cpu() - before
            wall[phase] += elapsed
            (during if phase == "flood" else idle).extend(timed.ms_from_due)
            gets.update(timed.answers)
    errors = [f"GET /api/players/me: {n} x {what}" for what, n in gets.items() if what != "200"]
    idle_p50, flood_p50 = percentile(idle, 50), percentile(during, 50)

    def success(kind: str) -> float | None:
        total = sum(people[kind].values())
        return round(people[kind]["200"] / total, 3) if total else None

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
        "known_device_login_success": success("known"),
        "known_device_login_p95_ms": percentile(known_times, 95),
        "known_device_logins": sum(people["known"].values()),
        "known_device_answers": dict(sorted(people["known"].items())),
        "unknown_login_success": success("unknown"),
        "unknown_logins": sum(people["unknown"].values()),
        "unknown_answers": dict(sorted(people["unknown"].items())),
    }
    return figures, errors


def targets(figures: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The flood's targets (``TARGETS``), each with its value, its bound and whether it is met."""
    met: dict[str, dict[str, Any]] = {}
    for key, bound, limit in TARGETS:
        value = figures.get(key)
        ok = None if value is None else (value <= limit if bound == "at_most" else value >= limit)
        met[key] = {"value": value, bound: limit, "met": ok}
    return met
