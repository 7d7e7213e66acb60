"""``benchmarks.sockets`` without PostgreSQL: every key of its JSON line is described in
docs/operations.md (CI's brief run checks each is printed, ``benchmarks.keys``), its targets are
judged as the issue sets them, the load is dealt as the docs say, its default ASGI server is
production's, and every process it starts may open as many files as its hard limit allows."""

from __future__ import annotations

import asyncio
import json
import os
import resource
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml

from benchmarks import socket_load, socket_seed, sockets
from tests.foundation.live_server import load_script
from tests.own_loop import on_own_loop

ROOT = Path(__file__).resolve().parents[2]


def test_every_key_is_described_in_the_docs() -> None:
    docs = (ROOT / "docs" / "operations.md").read_text()
    section = docs[docs.index("## Sockets at scale") : docs.index("### Scaling past one node")]
    for key in sockets.KEYS:
        assert f"`{key.rsplit('.', 1)[-1]}`" in section, f"docs/operations.md lacks {key}"


def test_the_targets_are_the_issues_and_judged() -> None:
    judged = sockets.targets(
        {
            "sockets": 10_000,
            "moves_per_s": 199.0,
            "move_to_frame_p99_ms": 250,
            "socket_rss_mib": 1100.0,
            "reconnect_recovered_s": 12.5,
            "lost_frames": 0,
            "duplicate_frames": 1,
        }
    )
    assert judged["sockets"] == {"value": 10_000, "at_least": 10_000, "met": True}
    assert judged["moves_per_s"]["met"] is False
    assert judged["move_to_frame_p99_ms"] == {"value": 250, "at_most": 250, "met": True}
    assert judged["socket_rss_mib"]["met"] is False
    assert judged["reconnect_recovered_s"]["met"] is True
    assert judged["lost_frames"]["met"] is True
    assert judged["duplicate_frames"]["met"] is False
    assert sockets.targets({})["lost_frames"]["met"] is None


def test_matches_have_two_to_four_seats_and_seat_every_player_they_can() -> None:
    for players in (2, 3, 5, 7, 10, 100, 5000):
        counts = socket_seed.seat_counts(players)
        assert all(2 <= seats <= 4 for seats in counts)
        assert players - sum(counts) <= 1
    assert socket_seed.seat_counts(9) == [2, 3, 4]
    assert sum(socket_seed.seat_counts(5000)) / len(socket_seed.seat_counts(5000)) > 2.9


def test_half_the_sockets_are_players_own_and_half_on_matches() -> None:
    seeded = {
        "tokens": [f"t{i}" for i in range(9)],
        "matches": [
            {"id": 1, "tokens": ["t0", "t1"], "turn": 0},
            {"id": 2, "tokens": ["t2", "t3", "t4"], "turn": 1},
            {"id": 3, "tokens": ["t5", "t6", "t7", "t8"], "turn": 0},
        ],
    }
    args = sockets.build_parser().parse_args(["--load-processes", "2"])
    plans = sockets.plans(seeded, 18, args, [8001, 8002])
    every = [s for plan in plans for s in plan["sockets"]]
    assert sorted(s[1] for s in every if s[0] == "me") == seeded["tokens"]
    assert sorted((s[2], s[1]) for s in every if s[0] == "match") == [
        (m["id"], t) for m in seeded["matches"] for t in m["tokens"]
    ]
    assert {plan["source"] for plan in plans} == {"127.0.0.2", "127.0.0.3"}
    assert all(abs(len(plan["sockets"]) - 9) <= 1 for plan in plans)
    assert all(plan["heartbeat"] == 25 for plan in plans)  # the documented heartbeat


def test_the_api_runs_at_the_cpu_weight_compose_gives_it() -> None:
    """docs/operations.md, "The sockets come first": compose weighs web at 110 against the
    others' 1,024, the kernel's weights of nice 10 and nice 0, and the benchmark starts the API
    at nice 10."""
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    services = compose["services"]
    assert services["web"]["cpu_shares"] == 110  # sched_prio_to_weight[nice 10]
    weighed = {"web", "asgi"}
    assert all(
        "cpu_shares" not in service for name, service in services.items() if name not in weighed
    )
    assert sockets.build_parser().parse_args([]).web_nice == sockets.WEB_NICE == 10
    stack = sockets.SocketStack.__new__(sockets.SocketStack)
    stack.web_nice = sockets.WEB_NICE
    started = subprocess.run(
        [sys.executable, "-c", "import os; print(os.nice(0))"],
        capture_output=True,
        text=True,
        check=True,
        preexec_fn=stack._web_priority,
    )
    assert int(started.stdout) == min(19, os.nice(0) + 10)


def test_the_default_server_is_the_one_compose_runs() -> None:
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    production = compose["services"]["asgi"]["command"]
    parsed = sockets.build_parser().parse_args([])
    [(port, command)] = sockets.asgi_commands(parsed.server, parsed.asgi_workers)
    # production's script, its options on loopback, as many workers as it runs
    assert production == ["python", "deploy/serve_sockets.py"]
    assert command[1] == str(ROOT / production[1])
    assert command[2:] == ["--host", "127.0.0.1", "--port", str(port), "--workers", "2"]
    options = list(load_script("deploy/serve_sockets.py").OPTIONS)
    assert options[options.index("--workers") + 1] == "2"


def test_a_load_process_raises_its_open_file_limit_to_the_hard_limit() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    code = (
        "import resource; from benchmarks.socket_load import raise_fd_limit; "
        "print(raise_fd_limit(), resource.getrlimit(resource.RLIMIT_NOFILE)[1])"
    )
    lowered = min(soft, 256)

    def lower() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (lowered, hard))

    result = subprocess.run(  # noqa: S603 - our interpreter, a fixed command
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        preexec_fn=lower,
    )
    raised, limit = map(int, result.stdout.split())
    assert raised == limit == hard
    assert {4000, 4401, 4403, 4404} <= socket_load.GIVE_UP


def test_the_storms_time_is_told_apart() -> None:
    """Two load processes' storms: the seconds to the connection open and to being back, and
    how many were back by each 10 s."""
    timing = sockets.storm_timing(
        [
            {"reopened_s": [0.5, 1.0], "back_s": [0.7, 1.2], "back_at_s": [3.0, 12.0]},
            {"reopened_s": [2.0], "back_s": [25.0], "back_at_s": [25.5]},
        ]
    )
    assert timing["reconnect_open_p50_s"] == 1.0
    assert timing["reconnect_open_p99_s"] == 2.0
    assert timing["reconnect_back_p99_s"] == 25.0
    assert timing["reconnect_back_by_s"] == {"10": 1, "20": 2, "30": 3}


def test_the_movers_say_how_many_they_played_when_asked(tmp_path: Path) -> None:
    """``mark`` answers the moves played so far (the benchmark counts those of the timed window
    from two marks); ``stop`` ends the play with the movers' report."""
    plan = tmp_path / "plan.json"
    plan.write_text('{"port": 9, "rate": 10, "threads": 2, "seed": 1, "matches": []}')
    done = subprocess.run(  # noqa: S603 - our interpreter, a fixed command
        [sys.executable, "-m", "benchmarks.socket_moves", str(plan)],
        input="mark\nmark\nstop\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=True,
    )
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert lines[:2] == [{"mark": 0}, {"mark": 0}]
    assert lines[2]["moves"] == 0
    assert lines[2]["errors"] == 0


def test_a_phone_connects_from_its_generators_address_its_port_picked_on_connect() -> None:
    """``tcp_connect``: the connection comes from the generator's own loopback address, its
    port left to the connect (``IP_BIND_ADDRESS_NO_PORT``: no search of the ports in use at
    bind); a port nobody listens on is an ``OSError``, the socket closed."""

    async def go() -> dict[str, Any]:
        seen: list[tuple[str, int]] = []

        async def accepted(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            seen.append(writer.get_extra_info("peername"))
            writer.close()

        server = await asyncio.start_server(accepted, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        sock = await socket_load.tcp_connect("127.0.0.2", port)
        try:
            option = sock.getsockopt(socket.SOL_IP, socket_load.IP_BIND_ADDRESS_NO_PORT)
            local = sock.getsockname()
        finally:
            sock.close()
        for _ in range(100):
            if seen:
                break
            await asyncio.sleep(0.01)
        server.close()
        await server.wait_closed()
        refused = False
        try:
            await socket_load.tcp_connect("127.0.0.2", port)
        except OSError:
            refused = True
        return {"local": local, "peer": seen[0], "option": option, "refused": refused}

    found = on_own_loop(go)
    assert found["local"][0] == "127.0.0.2"
    assert found["local"][1] > 0
    assert found["peer"] == found["local"]  # the server saw it from that address and port
    assert found["option"] == 1
    assert found["refused"]


def test_a_phone_speaks_websocket_to_a_server_of_the_librarys_own() -> None:
    """``socket_load.Link`` against websockets' own asyncio server: the phone sends its token,
    counts a seq had twice and a seq skipped, times nothing while not measuring, reconnects
    resuming with ``?after=`` once dropped, and gives up on 4403, counted as refused."""
    from websockets.asyncio.server import ServerConnection, serve

    async def go() -> dict[str, Any]:
        seen: list[tuple[str, str | None]] = []

        async def handler(connection: ServerConnection) -> None:
            request = connection.request
            assert request is not None
            seen.append((request.path, request.headers.get("Authorization")))
            if len(seen) == 1:
                await connection.send(json.dumps({"type": "hello", "seq": 3}))
                for seq in (4, 4, 6):  # a duplicate, then a gap of one
                    frame = {"type": "move", "seq": seq, "created_at": "2026-01-01T00:00:00Z"}
                    await connection.send(json.dumps(frame))
                await connection.send(json.dumps({"type": "heartbeat", "seq": 6}))
                await asyncio.sleep(0.2)
                connection.transport.abort()  # dropped, as a storm drops it
                return
            await connection.send(json.dumps({"type": "hello", "seq": 6}))
            await connection.close(code=4403, reason="no seat")

        async with serve(handler, "127.0.0.1", 0) as server:
            port = server.sockets[0].getsockname()[1]
            plan = {
                "source": "127.0.0.1",
                "heartbeat": 25,
                "connect_rate": 100,
                "spread": 1,
                "ports": [port],
                "sockets": [["match", "the-token", 7]],
            }
            load = socket_load.Load(plan)
            phone = load.phones[0]
            load.storming = True  # the drop is the storm's: no unexpected close
            await asyncio.wait_for(phone.run(), 10)
        return {"seen": seen, "load": load, "phone": phone}

    found = on_own_loop(go)
    load, phone = found["load"], found["phone"]
    assert found["seen"] == [
        ("/ws/matches/7", "Token the-token"),
        ("/ws/matches/7?after=6", "Token the-token"),
    ]
    assert (load.duplicates, load.gaps, load.heartbeats) == (1, 1, 1)
    assert load.samples == []
    assert phone.over
    assert load.refused == {"4403": 1}
    assert load.connect_errors == {}
    assert load.unexpected_closes == 0


def test_the_sockets_run_at_the_cpu_weight_compose_gives_them() -> None:
    """docs/operations.md, "The sockets come first": compose weighs asgi at 3,121 against the
    others' 1,024, the kernel's weights of nice -5 and nice 0, and the benchmark starts the
    sockets' processes at nice -5 where it may (``CAP_SYS_NICE``), else at its own."""
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    assert compose["services"]["asgi"]["cpu_shares"] == 3121  # sched_prio_to_weight[nice -5]
    assert sockets.build_parser().parse_args([]).sockets_nice == sockets.SOCKETS_NICE == -5
    may_lower = subprocess.run(
        [sys.executable, "-c", "import os; os.nice(-1)"], capture_output=True, check=False
    )
    stack = sockets.SocketStack.__new__(sockets.SocketStack)
    stack.sockets_nice = sockets.SOCKETS_NICE
    started = subprocess.run(
        [
            sys.executable,
            "-c",
            "import os, resource; print(os.nice(0), resource.getrlimit(resource.RLIMIT_NOFILE))",
        ],
        capture_output=True,
        text=True,
        check=True,
        preexec_fn=stack._sockets_priority,
    )
    nice, limits = started.stdout.split(" ", 1)
    expected = max(-20, os.nice(0) - 5) if may_lower.returncode == 0 else os.nice(0)
    assert int(nice) == expected
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    assert limits.strip() == str((hard, hard))  # the open-file limit raised as well
