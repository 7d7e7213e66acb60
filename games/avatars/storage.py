"""The avatar files in their storage (``STORAGES["avatars"]``), each named by the SHA-256 of
its bytes: ``<sha256>.webp``. A name is its content, so writing one again writes the same bytes,
and a file is never changed, only removed when no player's avatar names it any more."""

from __future__ import annotations

import hashlib

from django.core.files.base import ContentFile
from django.core.files.storage import Storage, storages

#: The extension of every avatar file.
SUFFIX = ".webp"


def avatar_storage() -> Storage:
    return storages["avatars"]


def digest_of(body: bytes) -> str:
    """The content address of ``body``: its SHA-256, in hex."""
    return hashlib.sha256(body).hexdigest()


def file_name(digest: str) -> str:
    return f"{digest}{SUFFIX}"


def file_save(body: bytes) -> str:
    """Store ``body`` under its content address, which is returned."""
    digest = digest_of(body)
    avatar_storage().save(file_name(digest), ContentFile(body))
    return digest


def file_read(digest: str) -> bytes | None:
    """The bytes stored at ``digest``; None when there are none."""
    try:
        with avatar_storage().open(file_name(digest), "rb") as stored:
            return stored.read()
    except FileNotFoundError:
        return None


def file_delete(digest: str) -> None:
    avatar_storage().delete(file_name(digest))
