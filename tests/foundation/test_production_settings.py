"""The signing key and the HTTPS settings: the embedded default needs no setup, production
(``DJANGO_ENV=production``) refuses to start without a real key and is clean under
``check --deploy``."""

from __future__ import annotations

import json
import os
import secrets
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from chickenfoot.secret_key import KNOWN_DEFAULTS, local_secret_key, production_secret_key
from tests.foundation.doc_commands import all_commands

ROOT = Path(__file__).resolve().parents[2]
#: What a deployment, CI or another test may have set that these tests set themselves (or leave
#: unset): the browser tests allow async-unsafe calls in this process, which no deployment may.
VARIABLES = (
    "DJANGO_ALLOW_ASYNC_UNSAFE",
    "DJANGO_ENV",
    "SECRET_KEY",
    "SECRET_KEY_FILE",
    "DEBUG",
    "DATABASE_URL",
    "REDIS_URL",
    "SECURE_PROXY_SSL_HEADER",
    "SECURE_SSL_REDIRECT",
    "SESSION_COOKIE_SECURE",
    "CSRF_COOKIE_SECURE",
    "SECURE_HSTS_SECONDS",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS",
    "SECURE_HSTS_PRELOAD",
    "OUTSIDE_LOOPBACK_FOR_TESTS",
)
PROBE = """
import json
from django.conf import settings
print(json.dumps({
    "secret": settings.SECRET_KEY,
    "proxy_header": getattr(settings, "SECURE_PROXY_SSL_HEADER", None),
    "ssl_redirect": settings.SECURE_SSL_REDIRECT,
    "redirect_exempt": settings.SECURE_REDIRECT_EXEMPT,
    "session_secure": settings.SESSION_COOKIE_SECURE,
    "csrf_secure": settings.CSRF_COOKIE_SECURE,
    "hsts": [settings.SECURE_HSTS_SECONDS, settings.SECURE_HSTS_INCLUDE_SUBDOMAINS,
             settings.SECURE_HSTS_PRELOAD],
}))
"""


def strong_key() -> str:
    return secrets.token_urlsafe(50)


def run(args: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    """``args`` in a fresh interpreter with the deployment variables unset but for ``env``."""
    clean = {k: v for k, v in os.environ.items() if k not in VARIABLES}
    clean |= {"DJANGO_SETTINGS_MODULE": "chickenfoot.settings", **env}
    return subprocess.run(  # noqa: S603 - our own interpreter and arguments
        [sys.executable, *args],
        cwd=ROOT,
        env=clean,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


def load(**env: str) -> dict[str, object]:
    result = run(["-c", PROBE], **env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def refusal(**env: str) -> str:
    """Start the service's settings (``manage.py check``) with ``env``: the message it refuses
    with (the test fails if it starts)."""
    result = run(["manage.py", "check"], **env)
    assert result.returncode != 0, result.stdout
    return result.stderr.strip().splitlines()[-1]


# --- The embedded default: a local key, made once ------------------------------------------


def test_without_environment_a_key_is_generated_once_and_kept(tmp_path: Path) -> None:
    # given no SECRET_KEY and no key file yet
    key_file = tmp_path / ".secret_key"

    # when the settings load twice
    first = load(SECRET_KEY_FILE=str(key_file))["secret"]
    second = load(SECRET_KEY_FILE=str(key_file))["secret"]

    # then one strong key was made, kept for its owner only, and reused
    assert first == second == key_file.read_text().strip()
    assert production_secret_key(str(first)) == first
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert list(tmp_path.iterdir()) == [key_file]  # no temporary file left behind


def test_the_default_key_file_is_in_the_project_root_and_never_committed_or_shipped() -> None:
    probe = "from django.conf import settings; print(settings.SECRET_KEY)"
    key = run(["-c", probe]).stdout.strip()
    assert key == (ROOT / ".secret_key").read_text().strip()
    ignored = subprocess.run(
        ["git", "check-ignore", "-q", ".secret_key"],  # noqa: S607
        cwd=ROOT,
        check=False,
    )
    assert ignored.returncode == 0, ".gitignore must list .secret_key"
    dockerignore = (ROOT / ".dockerignore").read_text().split()
    assert ".secret_key" in dockerignore


def test_processes_starting_at_once_agree_on_one_key(tmp_path: Path) -> None:
    key_file = tmp_path / "key"
    keys: list[str] = []
    barrier = threading.Barrier(8)

    def start() -> None:
        barrier.wait()
        keys.append(local_secret_key(key_file))

    threads = [threading.Thread(target=start) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert len(keys) == 8
    assert set(keys) == {key_file.read_text().strip()}


def test_a_key_from_the_environment_wins_outside_production(tmp_path: Path) -> None:
    loaded = load(SECRET_KEY="short is fine here", SECRET_KEY_FILE=str(tmp_path / "k"))
    assert loaded["secret"] == "short is fine here"
    assert not (tmp_path / "k").exists()


def test_an_empty_or_unwritable_key_file_is_a_clear_error(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.write_text("\n")
    with pytest.raises(ImproperlyConfigured, match="is empty: delete it"):
        local_secret_key(empty)
    with pytest.raises(ImproperlyConfigured, match="cannot be kept at"):
        local_secret_key(tmp_path / "no-such-directory" / "key")


def test_development_leaves_the_https_settings_off(tmp_path: Path) -> None:
    loaded = load(SECRET_KEY_FILE=str(tmp_path / "k"))
    assert loaded["proxy_header"] is None
    assert loaded["ssl_redirect"] is False
    assert loaded["session_secure"] is loaded["csrf_secure"] is False
    assert loaded["hsts"] == [0, False, False]


# --- Production: a real key or no start ---------------------------------------------------


@pytest.mark.parametrize(
    ("key", "reason"),
    [
        ("", "SECRET_KEY is not set"),
        ("django-insecure-embedded-default-set-SECRET_KEY-in-production", "published default"),
        ("django-insecure-compose-default-change-me", "published default"),
        ("a long random string", "published default"),
        ("django-insecure-" + "x" * 60, "development key"),
        ("Zq3" * 10, "has 30 characters; production needs at least 50"),
        ("ab" * 40, "fewer than 5 different characters"),
    ],
    ids=[
        "missing",
        "old-settings-default",
        "old-compose-default",
        "readme-example",
        "insecure",
        "short",
        "repetitive",
    ],
)
def test_production_refuses_to_start_without_a_real_key(
    tmp_path: Path, key: str, reason: str
) -> None:
    message = refusal(DJANGO_ENV="production", SECRET_KEY=key, SECRET_KEY_FILE=str(tmp_path / "k"))
    assert message.startswith("django.core.exceptions.ImproperlyConfigured: DJANGO_ENV=production")
    assert reason in message
    assert "Set SECRET_KEY" in message
    # and no local key is made in its place
    assert not (tmp_path / "k").exists()


def test_every_published_default_is_refused() -> None:
    for key in KNOWN_DEFAULTS:
        with pytest.raises(ImproperlyConfigured):
            production_secret_key(key)


def test_production_refuses_debug() -> None:
    message = refusal(DJANGO_ENV="production", SECRET_KEY=strong_key(), DEBUG="true")
    assert "refuses to start with DEBUG on" in message


def test_production_refuses_the_tests_loopback_setting() -> None:
    """The tests' push services are on loopback; a server that could post there could be made
    to post to itself."""
    message = refusal(
        DJANGO_ENV="production", SECRET_KEY=strong_key(), OUTSIDE_LOOPBACK_FOR_TESTS="1"
    )
    assert "refuses to start with OUTSIDE_LOOPBACK_FOR_TESTS on" in message


def test_an_unknown_environment_name_is_refused() -> None:
    assert "DJANGO_ENV='prod' is not one of development, production" in refusal(DJANGO_ENV="prod")


def test_production_turns_the_https_settings_on() -> None:
    key = strong_key()
    loaded = load(DJANGO_ENV="production", SECRET_KEY=key)
    assert loaded["secret"] == key
    assert loaded["proxy_header"] == ["HTTP_X_FORWARDED_PROTO", "https"]
    assert loaded["ssl_redirect"] is True
    assert loaded["redirect_exempt"] == [r"^api/health(/live|/ready)?$", r"^metrics$"]
    assert loaded["session_secure"] is loaded["csrf_secure"] is True
    assert loaded["hsts"] == [31_536_000, True, True]


def test_each_https_setting_can_be_set_on_its_own() -> None:
    loaded = load(
        DJANGO_ENV="production",
        SECRET_KEY=strong_key(),
        SECURE_PROXY_SSL_HEADER="false",
        SECURE_SSL_REDIRECT="false",
        SECURE_HSTS_SECONDS="3600",
        SECURE_HSTS_PRELOAD="false",
    )
    assert loaded["proxy_header"] is None
    assert loaded["ssl_redirect"] is False
    assert loaded["hsts"] == [3600, True, False]


def test_check_deploy_is_clean_in_production() -> None:
    result = run(
        ["manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        DJANGO_ENV="production",
        SECRET_KEY=strong_key(),
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_check_deploy_warns_outside_production(tmp_path: Path) -> None:
    """The check is not blind: the development settings fail it, naming what production fixes."""
    result = run(
        ["manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        SECRET_KEY_FILE=str(tmp_path / "k"),
    )
    assert result.returncode != 0
    for warning in ("security.W004", "security.W008", "security.W012", "security.W016"):
        assert warning in result.stderr


def test_the_readme_makes_a_key_production_accepts(tmp_path: Path) -> None:
    # given the README's command that writes a key into .env, run twice as a reader might
    (command,) = [c.text for c in all_commands() if "SECRET_KEY=" in c.text and ">> .env" in c.text]
    for _ in range(2):
        subprocess.run(  # noqa: S603 - the README's command, as it shows it
            ["bash", "-c", command],  # noqa: S607
            cwd=tmp_path,
            check=True,
            timeout=60,
        )

    # then .env holds keys (docker compose takes the last), each one production accepts
    lines = (tmp_path / ".env").read_text().splitlines()
    assert len(lines) == 2
    assert all(line.startswith("SECRET_KEY=") for line in lines)
    key = lines[-1].removeprefix("SECRET_KEY=")
    assert lines[0] != lines[1]
    assert load(DJANGO_ENV="production", SECRET_KEY=key)["secret"] == key


@pytest.mark.parametrize("seconds", ["6", "-1"])
def test_a_token_cache_past_the_revocation_bound_is_refused(seconds: str) -> None:
    message = refusal(TOKEN_CACHE_SECONDS=seconds)
    assert f"TOKEN_CACHE_SECONDS={seconds} is out of range" in message
    assert "within 5 s" in message
