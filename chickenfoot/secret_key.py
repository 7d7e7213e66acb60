"""Django's signing key: from the environment in production, kept in a local file otherwise.

Production (``DJANGO_ENV=production``) refuses to start without a real ``SECRET_KEY``: one that
is set, is none of the placeholders this project ever shipped, and passes Django's own deploy
check (at least 50 characters, at least 5 different ones, no ``django-insecure-`` prefix).

Anywhere else (the embedded default, development, the test suite) a ``SECRET_KEY`` from the
environment is used as it is; without one, a key is generated once and kept in a file
(``.secret_key`` in the project root, readable by its owner only, ignored by git and Docker), so
sessions and signed values survive restarts and no two checkouts share a key.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from django.core.checks.security.base import (
    SECRET_KEY_INSECURE_PREFIX,
    SECRET_KEY_MIN_LENGTH,
    SECRET_KEY_MIN_UNIQUE_CHARACTERS,
)
from django.core.exceptions import ImproperlyConfigured
from django.core.management.utils import get_random_secret_key

#: Keys that were public defaults or examples of this project: never accepted in production.
KNOWN_DEFAULTS = frozenset(
    {
        "django-insecure-embedded-default-set-SECRET_KEY-in-production",
        "django-insecure-compose-default-change-me",
        "a long random string",
        "change-me",
        "changeme",
        "secret",
    }
)
#: How to make a key, for the messages below.
GENERATE_HINT = (
    "Generate one with: python3 -c 'import secrets; print(secrets.token_urlsafe(50))' "
    '(README.md, "Production").'
)


def secret_key_problem(key: str) -> str | None:
    """Why ``key`` is not fit for production, or ``None`` when it is."""
    if not key:
        return "SECRET_KEY is not set."
    if key.strip() in KNOWN_DEFAULTS:
        return "SECRET_KEY is a published default or example, not a secret."
    if key.startswith(SECRET_KEY_INSECURE_PREFIX):
        return f"SECRET_KEY starts with {SECRET_KEY_INSECURE_PREFIX!r}: it is a development key."
    if len(key) < SECRET_KEY_MIN_LENGTH:
        return (
            f"SECRET_KEY has {len(key)} characters; production needs at least "
            f"{SECRET_KEY_MIN_LENGTH}."
        )
    if len(set(key)) < SECRET_KEY_MIN_UNIQUE_CHARACTERS:
        return f"SECRET_KEY has fewer than {SECRET_KEY_MIN_UNIQUE_CHARACTERS} different characters."
    return None


def production_secret_key(key: str) -> str:
    """``key`` if it is fit for production; otherwise ``ImproperlyConfigured`` saying why."""
    problem = secret_key_problem(key)
    if problem is not None:
        raise ImproperlyConfigured(
            f"DJANGO_ENV=production refuses to start: {problem} Set SECRET_KEY in the "
            f"environment to a long random value of your own. {GENERATE_HINT}"
        )
    return key


def local_secret_key(path: Path) -> str:
    """The key kept at ``path``, generated and written there (mode 0600) the first time.

    Several processes may start at once: the key is written to a temporary file and linked into
    place, so the first to link wins and every process reads the whole of the same key.
    """
    key = _read_key(path)
    if key is not None:
        return key
    try:
        descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=f"{path.name}.")
        try:
            # mkstemp creates the file readable and writable by its owner only.
            with os.fdopen(descriptor, "w", encoding="utf-8") as out:
                out.write(get_random_secret_key() + "\n")
            with contextlib.suppress(FileExistsError):  # another process was first: use its key
                os.link(temporary, path)
        finally:
            os.unlink(temporary)
    except OSError as error:
        raise ImproperlyConfigured(
            f"No SECRET_KEY in the environment, and a local key cannot be kept at {path} "
            f"({error.strerror}). Set SECRET_KEY, or SECRET_KEY_FILE to a writable path."
        ) from error
    key = _read_key(path)
    if key is None:
        raise ImproperlyConfigured(f"The local key file {path} vanished while it was written.")
    return key


def _read_key(path: Path) -> str | None:
    try:
        text = path.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        return None
    if not text:
        raise ImproperlyConfigured(
            f"The local key file {path} is empty: delete it and a new key is generated."
        )
    return text
