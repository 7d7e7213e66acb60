"""The generated-client check: clients generated from /api/schema/ play whole matches.

    .venv/bin/python clients/check.py [--skip-typescript]

0. Refuses a cast, an ``any`` or a silenced type error in either client's source (comments and
   strings aside): the clients must use the generated types as they are.
1. Starts the API on a free loopback port, on the embedded default (a throwaway SQLite database,
   bots playing in-process), and reads its schema from /api/schema/.
   Beside it run a phone's Web Push service (tests/games/push_service.py: it checks the VAPID
   signature and decrypts each push, RFC 8291) and an SMTP server (aiosmtpd), each writing what
   it received to a folder the apps read.
2. Python: generates a client with openapi-python-client, type-checks clients/python/play_match.py
   and clients/python/mobile_app.py against it with ``mypy --strict``, plays a Chicken Foot and a
   Mexican Train match with it, then runs the mobile app's story: an invitation pushed to a phone,
   accepted and played to the end; quick play; a password reset by mail; an export and a
   deletion that leaves the standings as they were.
3. TypeScript: ``npm ci`` in clients/ts (openapi-typescript, openapi-fetch and typescript, pinned
   by its package-lock.json), generates the types, checks clients/ts/play.ts with
   ``tsc --noEmit --strict`` (no casts, no ``any``), builds it and plays both games with it.

Everything generated goes to build/clients/ (ignored by git). Exits non-zero on any failure.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from aiosmtpd.controller import Controller

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # for tests/games/push_service.py and games/notifications/

from games.notifications.vapid_keys import vapid_key_pair  # noqa: E402
from tests.games.push_service import PushService  # noqa: E402

BUILD = ROOT / "build" / "clients"
BIN = Path(sys.executable).parent
VARIANTS = ["chickenfoot", "mexican_train"]


#: What would make a client compile without the schema's types: a cast or an ``any`` (looked for
#: in the code, comments and strings blanked), or a directive that silences the type checker
#: (looked for everywhere, since it lives in a comment).
TS_ESCAPES = re.compile(r"\bas\s+(?!const\b)[A-Za-z{(\[]|\bany\b")
TS_DIRECTIVES = re.compile(r"@ts-(?:ignore|expect-error|nocheck)")
PY_ESCAPES = re.compile(r"\bcast\(|\bAny\b")
PY_DIRECTIVES = re.compile(r"#\s*type:\s*ignore|#\s*mypy:")
TS_NOISE = re.compile(
    r"//[^\n]*|/\*.*?\*/|`(?:\\.|[^`\\])*`|\"(?:\\.|[^\"\\])*\"|'(?:\\.|[^'\\])*'", re.S
)
PY_NOISE = re.compile(r"#[^\n]*|\"\"\".*?\"\"\"|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'", re.S)
TS = (TS_NOISE, TS_ESCAPES, TS_DIRECTIVES)
PY = (PY_NOISE, PY_ESCAPES, PY_DIRECTIVES)


def escapes(text: str, language: tuple[re.Pattern[str], ...]) -> list[str]:
    """The lines of ``text`` that cast, use ``any`` or silence the type checker."""
    noise, code_pattern, directive = language
    code = noise.sub(lambda m: re.sub(r"[^\n]", " ", m.group()), text)
    return [
        f"{number}: {line.strip()}"
        for number, (line, bare) in enumerate(
            zip(text.splitlines(), code.splitlines(), strict=True), start=1
        )
        if code_pattern.search(bare) or directive.search(line)
    ]


def refuse_escapes() -> None:
    """The clients use the generated types as they are: no cast, no ``any``, nothing ignored."""
    found = [
        f"{path.relative_to(ROOT)}:{line}"
        for path, language in (
            (ROOT / "clients" / "ts" / "play.ts", TS),
            (ROOT / "clients" / "python" / "play_match.py", PY),
            (ROOT / "clients" / "python" / "mobile_app.py", PY),
        )
        for line in escapes(path.read_text(), language)
    ]
    if found:
        raise SystemExit("a client steps around the generated types:\n" + "\n".join(found))


def step(message: str) -> None:
    print(f"\n--> {message}", flush=True)


def run(*command: str | Path, cwd: Path = ROOT, env: dict[str, str] | None = None) -> None:
    print("$", " ".join(str(part) for part in command), flush=True)
    subprocess.run([str(part) for part in command], cwd=cwd, env=env, check=True)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def tool_env() -> dict[str, str]:
    """The environment for the generators: the venv's tools (ruff formats the client) first."""
    return {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}


class Maildir:
    """An SMTP server's handler (aiosmtpd) that writes each message to ``folder`` as .eml."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802
        name = f"{time.monotonic_ns():020d}.eml"
        (self.folder / f"{name}.part").write_bytes(envelope.content)
        (self.folder / f"{name}.part").rename(self.folder / name)
        return "250 Message accepted for delivery"


class Device:
    """The phone (a Web Push service of our own, on loopback) and the mail server the mobile app
    reads, each writing into ``folder`` (clients/python/mobile_app.py says how)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.vapid_private, self.vapid_public = vapid_key_pair()
        self.push = PushService(vapid_public_key=self.vapid_public, inbox=folder / "pushes")
        self.smtp_port = free_port()
        self.smtp = Controller(Maildir(folder / "mail"), hostname="127.0.0.1", port=self.smtp_port)

    def __enter__(self) -> Device:
        self.push.start()
        self.smtp.start()
        for name, phone in (("subscription.json", "phone"), ("subscription-ts.json", "ts-phone")):
            subscription = self.push.subscription(phone)
            (self.folder / name).write_text(json.dumps(subscription))
        return self

    def __exit__(self, *exc: object) -> None:
        self.smtp.stop()
        self.push.stop()
        if self.push.errors:
            raise SystemExit(f"the phone refused a push: {self.push.errors}")

    def server_env(self) -> dict[str, str]:
        return {
            "EMAIL_HOST": "127.0.0.1",
            "EMAIL_PORT": str(self.smtp_port),
            "VAPID_PRIVATE_KEY": self.vapid_private,
            "VAPID_PUBLIC_KEY": self.vapid_public,
            # the phone's push service is on loopback, without TLS
            "OUTSIDE_LOOPBACK_FOR_TESTS": "1",
        }


def server_env(database: Path, device: Device, base_url: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env["DATABASE_URL"] = f"sqlite:///{database}"
    env["RATE_LIMITS"] = "off"  # the clients play as fast as they can, all from 127.0.0.1
    env["ACCOUNT_LINK_BASE_URL"] = base_url
    env.update(device.server_env())
    return env


def start_server(database: Path, port: int, device: Device) -> subprocess.Popen[bytes]:
    env = server_env(database, device, f"http://127.0.0.1:{port}")
    run(BIN / "python", "manage.py", "migrate", "--noinput", "-v", "0", env=env)
    server = subprocess.Popen(
        [str(BIN / "python"), "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"the server exited ({server.returncode}) during startup")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=2):
                return server
        except OSError:
            time.sleep(0.3)
    server.kill()
    raise SystemExit("the server did not answer /api/health within a minute")


def fetch_schema(base_url: str) -> Path:
    request = urllib.request.Request(
        f"{base_url}/api/schema/", headers={"Accept": "application/vnd.oai.openapi+json"}
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        schema = json.load(answer)
    BUILD.mkdir(parents=True, exist_ok=True)
    path = BUILD / "schema.json"
    path.write_text(json.dumps(schema, indent=1))
    return path


def generate_python_client(schema: Path, target: Path) -> Path:
    """Generate the ``chickenfoot_client`` package into ``target``; return ``target``."""
    package = target / "chickenfoot_client"
    shutil.rmtree(package, ignore_errors=True)
    target.mkdir(parents=True, exist_ok=True)
    config = ROOT / "clients" / "python" / "config.yaml"
    command = [
        str(BIN / "openapi-python-client"),
        "generate",
        "--path",
        str(schema),
        "--meta",
        "none",
        "--output-path",
        str(package),
        "--config",
        str(config),
    ]
    subprocess.run(command, cwd=target, env=tool_env(), check=True, stdout=subprocess.DEVNULL)
    return target


def check_python(schema: Path, base_url: str, device: Device) -> None:
    step("Python: openapi-python-client")
    target = generate_python_client(schema, BUILD / "python")
    # MYPYPATH: mypy reads the package as source (it ships no py.typed marker)
    env = {**tool_env(), "MYPYPATH": str(target), "MYPY_CACHE_DIR": str(BUILD / ".mypy_cache")}
    scripts = ("clients/python/play_match.py", "clients/python/mobile_app.py")
    step("Python: mypy --strict " + " ".join(scripts))
    run(BIN / "mypy", "--strict", *scripts, env=env)
    env = {**tool_env(), "PYTHONPATH": str(target)}
    step("Python: a match of each game")
    run(BIN / "python", "clients/python/play_match.py", base_url, *VARIANTS, env=env)
    step("Python: the mobile app (invitation and push, quick play, reset, export, deletion)")
    run(BIN / "python", "clients/python/mobile_app.py", base_url, device.folder, env=env)


def check_typescript(schema: Path, base_url: str, device: Device) -> None:
    folder = ROOT / "clients" / "ts"
    npm = shutil.which("npm")
    if npm is None:
        raise SystemExit("npm is missing: install Node.js 20 and npm")
    step("TypeScript: npm ci, openapi-typescript")
    run(npm, "ci", "--no-audit", "--no-fund", cwd=folder)
    npx = shutil.which("npx") or "npx"
    run(npx, "openapi-typescript", schema, "-o", "generated/schema.d.ts", cwd=folder)
    step("TypeScript: tsc --noEmit --strict play.ts")
    run(npx, "tsc", "--noEmit", "--strict", "-p", ".", cwd=folder)
    run(npx, "tsc", "-p", ".", cwd=folder)
    step("TypeScript: a match of each game")
    step("TypeScript: friends, an invitation pushed to a phone, the quick chat, a match")
    run("node", "build/play.js", base_url, device.folder, *VARIANTS, cwd=folder)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skip-typescript", action="store_true")
    args = parser.parse_args()
    step("No casts, no any, nothing ignored in the clients' sources")
    refuse_escapes()
    port = free_port()
    base_url = f"http://127.0.0.1:{port}"
    with (
        tempfile.TemporaryDirectory(prefix="chickenfoot-clients-") as scratch,
        Device(Path(scratch) / "device") as device,
    ):
        step(f"Starting the API at {base_url} (embedded default), a phone and an SMTP server")
        server = start_server(Path(scratch) / "db.sqlite3", port, device)
        try:
            schema = fetch_schema(base_url)
            check_python(schema, base_url, device)
            if not args.skip_typescript:
                check_typescript(schema, base_url, device)
        finally:
            server.terminate()
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
    print("\nclients: both generated clients played whole matches")
    return 0


if __name__ == "__main__":
    sys.exit(main())
