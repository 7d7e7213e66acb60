"""The avatar upload's body: the picture's bytes as they came (``image/png``, ``image/jpeg``,
``image/webp``; any other ``image/`` type is read too, and refused by its content with a
problem that names it), at most ``AVATAR_MAX_BYTES``, the rest left unread."""

from __future__ import annotations

from typing import IO, Any

from django.utils.translation import gettext as _
from rest_framework.parsers import BaseParser

from games.avatars.images import AVATAR_MAX_BYTES
from games.avatars.problems import AvatarTooLarge


def too_large() -> AvatarTooLarge:
    return AvatarTooLarge(
        _("The image is larger than the %(limit)s bytes taken.")
        % {"limit": f"{AVATAR_MAX_BYTES:,}"}
    )


class ImageBodyParser(BaseParser):
    """The body as bytes, refused past ``AVATAR_MAX_BYTES`` (by its ``Content-Length`` before
    anything is read, else as soon as one byte more has come)."""

    media_type = "image/*"

    def parse(
        self, stream: IO[bytes], media_type: str | None = None, parser_context: Any = None
    ) -> bytes:
        request = (parser_context or {}).get("request")
        declared = request.META.get("CONTENT_LENGTH") if request is not None else None
        if declared and declared.isdigit() and int(declared) > AVATAR_MAX_BYTES:
            raise too_large()
        body = stream.read(AVATAR_MAX_BYTES + 1)
        if len(body) > AVATAR_MAX_BYTES:
            raise too_large()
        return body
