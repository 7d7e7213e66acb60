"""EMAIL_URL and EMAIL_HOST: Django's e-mail settings from the environment."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from chickenfoot.email_settings import CONSOLE, DUMMY, LOCMEM, SMTP, email_settings_from_url


def test_an_smtp_url_names_the_server_its_account_and_its_tls() -> None:
    assert email_settings_from_url("smtp+tls://ada%40example.com:p%3Ass@mail.example:2525") == {
        "EMAIL_BACKEND": SMTP,
        "EMAIL_HOST": "mail.example",
        "EMAIL_PORT": 2525,
        "EMAIL_HOST_USER": "ada@example.com",
        "EMAIL_HOST_PASSWORD": "p:ss",
        "EMAIL_USE_TLS": True,
        "EMAIL_USE_SSL": False,
    }
    ssl = email_settings_from_url("smtp+ssl://mail.example")
    assert (ssl["EMAIL_PORT"], ssl["EMAIL_USE_SSL"], ssl["EMAIL_USE_TLS"]) == (465, True, False)
    plain = email_settings_from_url("smtp://127.0.0.1")
    assert (plain["EMAIL_PORT"], plain["EMAIL_USE_TLS"]) == (25, False)
    assert email_settings_from_url("smtp://h?tls=1")["EMAIL_PORT"] == 587


@pytest.mark.parametrize(
    ("url", "backend"), [("console://", CONSOLE), ("locmem://", LOCMEM), ("dummy://", DUMMY)]
)
def test_other_schemes_name_a_backend(url: str, backend: str) -> None:
    assert email_settings_from_url(url) == {"EMAIL_BACKEND": backend}


@pytest.mark.parametrize("url", ["http://mail.example", "smtp://", "smtp://h:port"])
def test_a_bad_url_stops_the_settings(url: str) -> None:
    with pytest.raises(ImproperlyConfigured, match="EMAIL_URL"):
        email_settings_from_url(url)


def _backend_with(**env: str) -> dict[str, object]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("EMAIL_", "DJANGO_ENV"))}
    probe = (
        "import json, django; django.setup(); from django.conf import settings as s; "
        "print(json.dumps([s.EMAIL_BACKEND, s.EMAIL_HOST, s.EMAIL_PORT]))"
    )
    done = subprocess.run(  # noqa: S603 - our own interpreter and code
        [sys.executable, "-c", probe],
        cwd=settings.BASE_DIR,
        env={**clean, "DJANGO_SETTINGS_MODULE": "chickenfoot.settings", **env},
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    backend, host, port = json.loads(done.stdout.strip().splitlines()[-1])
    return {"backend": backend, "host": host, "port": port}


def test_the_embedded_default_prints_mails_and_the_environment_picks_a_server() -> None:
    assert _backend_with()["backend"] == CONSOLE
    assert _backend_with(EMAIL_HOST="mail.example", EMAIL_PORT="2525") == {
        "backend": SMTP,
        "host": "mail.example",
        "port": 2525,
    }
    assert _backend_with(EMAIL_URL="smtp://other.example:26", EMAIL_HOST="mail.example") == {
        "backend": SMTP,
        "host": "other.example",
        "port": 26,
    }
