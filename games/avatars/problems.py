"""The refusals of an avatar upload and of an avatar's address, each a problem type with its
own code and HTTP status (docs/errors.md)."""

from __future__ import annotations

from http import HTTPStatus

from django.utils.translation import gettext_lazy

from chickenfoot.problems import NotFoundError, ProblemError


class AvatarTooLarge(ProblemError):
    """413: the body is over ``AVATAR_MAX_BYTES``; the rest of it was not read."""

    status = HTTPStatus.REQUEST_ENTITY_TOO_LARGE
    code = "avatar_too_large"
    title = gettext_lazy("Avatar too large")


class AvatarTooManyPixels(ProblemError):
    """413: more than 4096 pixels on a side, as the image's header says (nothing decoded)."""

    status = HTTPStatus.REQUEST_ENTITY_TOO_LARGE
    code = "avatar_too_many_pixels"
    title = gettext_lazy("Avatar has too many pixels")


class AvatarNotAnImage(ProblemError):
    """400: not a PNG, JPEG or WebP (an SVG, a GIF, text, an empty body)."""

    code = "avatar_not_an_image"
    title = gettext_lazy("Not a PNG, JPEG or WebP image")


class AvatarAnimated(ProblemError):
    """400: an image of more than one frame."""

    code = "avatar_animated"
    title = gettext_lazy("Animated avatar")


class AvatarDamaged(ProblemError):
    """400: an image that cannot be decoded to its end."""

    code = "avatar_damaged"
    title = gettext_lazy("Damaged image")


class AvatarNotFound(NotFoundError):
    """404: no player's avatar is at this address (never was, or no longer is)."""

    code = "avatar_not_found"
    title = gettext_lazy("No such avatar")
