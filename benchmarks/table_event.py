"""A whole table tournament driven over HTTP: players register, check in before each stage,
and one scorer per table enters every round through the table's scorer link.

Used by ``benchmarks.tables`` (against gunicorn) and by
``tests/scoring/competitions/test_table_event_worker.py`` (against the test's live server), so
that what the benchmark times is what the test checks. Each stage: every player still in checks
in (the even-numbered by themselves, the others by the organiser), except one no-show at stage
2; one player drops out after stage 2; check-in is closed, the stage started, and the organiser
makes a scorer link per table. Then ``scorers`` threads, each with its own connection and one
table's code, enter every round of their table (random valid scores, every third round's
losing hands as ``tiles``). Each scorer once sends an entry twice with one ``Idempotency-Key``
(the second must answer the first answer again) and once sends a stale version (409
``stale_version``: it reads the match again and goes on). The end-of-match task finishes each
match on a worker; the driver waits for the stage to finish before the next one.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from benchmarks.http_client import Client

API = "/api/competitions"
TABLE_SIZE = 4
#: How long a stage may take to finish once its last round is entered (the worker's tasks).
STAGE_WAIT_SECONDS = 60
#: The stage one player misses (a no-show), and the stage after which one drops out.
NO_SHOW_AT, DROP_AFTER = 2, 2


class DriveError(RuntimeError):
    """An answer the event did not expect."""


def expect(answer: tuple[int, Any, float], wanted: int, what: str) -> Any:
    status, body, _ = answer
    if status != wanted:
        raise DriveError(f"{what}: HTTP {status}: {body}")
    return body


@dataclass
class Person:
    player_id: int
    username: str
    token: str


@dataclass
class Timings:
    """What the scorers measured (ms), and the contract cases they went through."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    entries: list[float] = field(default_factory=list)
    gets: list[float] = field(default_factory=list)
    #: Per entry: (match id, round number, perf_counter when its 201 arrived).
    answered: list[tuple[int, int, float]] = field(default_factory=list)
    replays: int = 0
    stale: int = 0
    #: Seconds spent entering rounds (the stages' scoring, not their check-in or results).
    scoring_seconds: float = 0.0
    errors: list[str] = field(default_factory=list)


@dataclass
class Event:
    """A table tournament and the people in it."""

    port: int
    organiser: Person
    players: list[Person]
    competition_id: int = 0
    stages: int = 4
    options: dict[str, Any] = field(default_factory=dict)
    no_show: int | None = None
    dropped: int | None = None
    #: Stage number -> the match ids of its tables.
    matches: dict[int, list[int]] = field(default_factory=dict)
    #: (stage, table number) -> match id, as the wall names tables.
    tables: dict[tuple[int, int], int] = field(default_factory=dict)
    timings: Timings = field(default_factory=Timings)
    #: Called before each stage starts with its number (e.g. to sample the server's CPU).
    on_stage: Callable[[int], None] | None = None


def register(client: Client, username: str, password: str) -> Person:
    """A player registered over HTTP; a registration answered ``busy`` (passwords hashing) is
    sent again when it says."""
    for _ in range(120):
        answer = client.call("POST", "/api/players", {"username": username, "password": password})
        if answer[0] != 429 or (answer[1] or {}).get("code") != "busy":
            break
        time.sleep(1)
    body = expect(answer, 201, f"register {username}")
    return Person(body["player"]["id"], username, body["token"])


def people(
    port: int, run_id: str, players: int, promote: Callable[[str], None]
) -> tuple[Person, list[Person]]:
    """An organiser (made one by ``promote(username)``) and ``players`` players."""
    client = Client(port)
    password = f"pw-{run_id}-a-long-enough-secret"
    organiser = register(client, f"org{run_id}", password)
    promote(organiser.username)
    return organiser, [register(client, f"p{run_id}n{i}", password) for i in range(players)]


def event_create(event: Event, name: str = "Table cup", **fields: Any) -> int:
    """Create the event (``fields`` added to its body), register its players, close
    registration and publish its wall."""
    client = Client(event.port)
    body = {
        **fields,
        "kind": "tournament",
        "play": "table",
        "name": name,
        "variant": "chickenfoot",
        "table_size": TABLE_SIZE,
        "stage_count": event.stages,
        "options": event.options,
    }
    created = expect(client.call("POST", API, body, event.organiser.token), 201, "create")
    cid = event.competition_id = created["id"]
    for person in event.players:
        expect(client.call("POST", f"{API}/{cid}/register", None, person.token), 200, "register")
    expect(client.call("POST", f"{API}/{cid}/close", None, event.organiser.token), 200, "close")
    expect(client.call("POST", f"{API}/{cid}/publish", None, event.organiser.token), 200, "publish")
    return cid


def stage_check_in(event: Event, number: int) -> list[Person]:
    """Check in everyone still in for stage ``number`` but the stage's no-show; close it."""
    client = Client(event.port)
    cid = event.competition_id
    present = []
    for index, person in enumerate(event.players):
        gone = number > DROP_AFTER and person.player_id == event.dropped
        if gone or (number == NO_SHOW_AT and index == event.no_show):
            continue
        if index % 2 == 0:
            answer = client.call("POST", f"{API}/{cid}/check-in", {}, person.token)
        else:
            body = {"player_id": person.player_id}
            answer = client.call("POST", f"{API}/{cid}/check-in", body, event.organiser.token)
        expect(answer, 200, f"check-in of {person.username}")
        present.append(person)
    listed = expect(
        client.call("GET", f"{API}/{cid}/check-ins", None, event.organiser.token), 200, "check-ins"
    )
    if listed["stage"] != number or len(listed["check_ins"]) != len(present):
        raise DriveError(f"stage {number} check-ins: {listed}")
    close = client.call("POST", f"{API}/{cid}/check-in/close", None, event.organiser.token)
    expect(close, 200, "close check-in")
    return present


def stage_start(event: Event, number: int) -> list[tuple[int, str, int]]:
    """Start stage ``number``; its tables as (match id, scorer code, seats)."""
    client = Client(event.port)
    cid, token = event.competition_id, event.organiser.token
    expect(client.call("POST", f"{API}/{cid}/stages", {"number": number}, token), 201, "stage")
    board = expect(
        client.call("GET", f"{API}/{cid}/stages/{number}/dashboard", None, token), 200, "dashboard"
    )
    tables = []
    for table in board["tables"]:
        match_id = table["match_id"]
        link = expect(
            client.call("POST", f"/api/matches/{match_id}/scorer-links", None, token),
            201,
            "scorer link",
        )
        tables.append((match_id, link["code"], len(table["seats"])))
        event.tables[(number, table["table"])] = match_id
    event.matches[number] = [match_id for match_id, _, _ in tables]
    return tables


def round_scores(
    rng: random.Random, seats: int, max_pip: int, number: int, *, tiles: bool
) -> list[dict[str, Any]]:
    """A valid round: one seat went out, the others hold pips (as ``tiles`` if asked)."""
    out = rng.randrange(seats)
    start = max_pip - (number - 1)
    deck = [
        (a, b)
        for a in range(max_pip + 1)
        for b in range(a, max_pip + 1)
        if (a, b) != (start, start)
    ]
    rng.shuffle(deck)
    scores = []
    for seat in range(seats):
        if seat == out:
            scores.append({"seat": seat, "points": 0, "went_out": True})
        elif tiles:
            hand = [deck.pop() for _ in range(rng.randint(1, 3))]
            scores.append({"seat": seat, "tiles": [list(tile) for tile in hand]})
        else:
            scores.append({"seat": seat, "points": rng.randint(1, 40)})
    return scores


def scorer(event: Event, match_id: int, code: str, seats: int, seed: int) -> None:
    """Enter every round of one table with its scorer code (runs in a thread of its own)."""
    client = Client(event.port)
    auth = {"Authorization": f"Scorer {code}"}
    rng = random.Random(seed)
    timings = event.timings
    entries: list[float] = []
    gets: list[float] = []
    answered: list[tuple[int, int, float]] = []
    replays = stale = 0
    path = f"/api/matches/{match_id}"
    try:
        status, view, elapsed = client.call("GET", path, None, None, auth)
        expect((status, view, elapsed), 200, "the scorer reads the match")
        gets.append(elapsed)
        max_pip = view["options"]["max_pip"]
        rounds = view["options"].get("rounds") or max_pip + 1
        version = view["version"]
        for number in range(1, rounds + 1):
            scores = round_scores(rng, seats, max_pip, number, tiles=number % 3 == 0)
            body = {"version": version, "scores": scores}
            if number == 2 and not stale:  # a stale version first: read again, go on
                old = client.call(
                    "POST",
                    f"{path}/rounds/{number}/scores",
                    {**body, "version": version - 1},
                    None,
                    auth,
                )
                if old[0] != 409 or old[1].get("code") != "stale_version":
                    raise DriveError(f"a stale version: HTTP {old[0]}: {old[1]}")
                stale += 1
                status, view, elapsed = client.call("GET", path, None, None, auth)
                expect((status, view, elapsed), 200, "read again")
                gets.append(elapsed)
                body["version"] = version = view["version"]
            headers = {**auth, "Idempotency-Key": f"{match_id}-{number}-{seed}"}
            status, entered, elapsed = client.call(
                "POST", f"{path}/rounds/{number}/scores", body, None, headers
            )
            if status != 201:
                raise DriveError(f"round {number} of match {match_id}: HTTP {status}: {entered}")
            answered.append((match_id, number, time.perf_counter()))
            entries.append(elapsed)
            if number == 1:  # the same request again: the first answer, replayed
                again = client.call("POST", f"{path}/rounds/{number}/scores", body, None, headers)
                if again[0] != 201 or again[1] != entered:
                    raise DriveError(f"a retried entry: HTTP {again[0]}: {again[1]}")
                replays += 1
            version = entered["version"]
            if number < rounds:  # what the phone shows before the next round
                status, view, elapsed = client.call("GET", path, None, None, auth)
                expect((status, view, elapsed), 200, "the scorer reads the match")
                gets.append(elapsed)
    except Exception as exc:  # noqa: BLE001 - reported, and the run fails
        with timings.lock:
            timings.errors.append(f"scorer of match {match_id}: {type(exc).__name__}: {exc}")
    finally:
        client.close()
        with timings.lock:
            timings.entries += entries
            timings.gets += gets
            timings.answered += answered
            timings.replays += replays
            timings.stale += stale


def stage_score(event: Event, number: int, tables: list[tuple[int, str, int]]) -> None:
    """One thread per table enters every round of it."""
    threads = [
        threading.Thread(
            target=scorer,
            args=(event, match_id, code, seats, number * 1000 + index),
            daemon=True,
        )
        for index, (match_id, code, seats) in enumerate(tables)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=600)
    if event.timings.errors:
        raise DriveError("; ".join(event.timings.errors))


def stage_wait(event: Event, number: int) -> dict[str, Any]:
    """Wait until stage ``number`` has finished (every table's results in, by the worker)."""
    client = Client(event.port)
    cid, token = event.competition_id, event.organiser.token
    deadline = time.monotonic() + STAGE_WAIT_SECONDS
    while time.monotonic() < deadline:
        board = expect(
            client.call("GET", f"{API}/{cid}/stages/{number}/dashboard", None, token),
            200,
            "dashboard",
        )
        if board["status"] == "finished":
            return board
        time.sleep(0.1)
    raise DriveError(f"stage {number} did not finish in {STAGE_WAIT_SECONDS} s: {board}")


def event_play(event: Event) -> None:
    """Every stage of the event: check-in, start, score every table, wait for the results."""
    client = Client(event.port)
    for number in range(1, event.stages + 1):
        if event.on_stage is not None:
            event.on_stage(number)
        stage_check_in(event, number)
        tables = stage_start(event, number)
        began = time.perf_counter()
        stage_score(event, number, tables)
        event.timings.scoring_seconds += time.perf_counter() - began
        stage_wait(event, number)
        if number == DROP_AFTER and event.dropped is not None:
            body = {"player_id": event.dropped}
            answer = client.call(
                "POST", f"{API}/{event.competition_id}/drop", body, event.organiser.token
            )
            expect(answer, 200, "drop")


def event_new(
    port: int,
    run_id: str,
    promote: Callable[[str], None],
    *,
    players: int = 40,
    stages: int = 4,
    options: dict[str, Any] | None = None,
) -> Event:
    """Register the people and create the event (registration closed, the wall published)."""
    organiser, persons = people(port, run_id, players, promote)
    event = Event(
        port=port,
        organiser=organiser,
        players=persons,
        stages=stages,
        options=options or {},
        no_show=3 if stages >= NO_SHOW_AT else None,
        dropped=persons[5].player_id if stages > DROP_AFTER else None,
    )
    event_create(event)
    return event


def event_run(port: int, run_id: str, promote: Callable[[str], None], **kwargs: Any) -> Event:
    """A new event (``event_new``), played through; the event as played."""
    event = event_new(port, run_id, promote, **kwargs)
    event_play(event)
    return event


def correct_round(
    event: Event, match_id: int, number: int, reason: str
) -> tuple[dict[str, Any], float]:
    """The organiser reopens finished match ``match_id`` and corrects its round ``number``:
    the first seat that did not go out holds 5 points more. The correction's answer, and the
    ``perf_counter`` when it was sent."""
    client = Client(event.port)
    token = event.organiser.token
    path = f"/api/matches/{match_id}"
    expect(client.call("POST", f"{path}/reopen", {"reason": reason}, token), 201, "reopen")
    view = expect(client.call("GET", path, None, token), 200, "read the match")
    scores = [
        {"seat": seat, "points": points, "went_out": points == 0 and seat == row.index(0)}
        for row in [view["round_scores"][number - 1]]
        for seat, points in enumerate(row)
    ]
    loser = next(s for s in scores if not s["went_out"])
    loser["points"] += 5
    body = {"version": view["version"], "scores": scores, "reason": reason}
    sent = time.perf_counter()
    answer = client.call("PUT", f"{path}/rounds/{number}/scores", body, token)
    return expect(answer, 200, "correct"), sent
