"""The OpenAPI declarations of ``games.api.avatars``'s views: what their ``extend_schema`` calls
name. The pictures are binary answers (``format: binary``) and the upload a binary body, so a
generated client hands bytes over both ways; every 200 and 304 of a picture declares its
``ETag`` and ``Cache-Control``."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse

from chickenfoot.openapi import NOT_AUTHENTICATED, TOO_MANY_REQUESTS, problem, problem_example
from chickenfoot.renderers import SVG_EXAMPLE
from games.api.apidocs.profiles import PLAYER_ID

#: A content address: the SHA-256 of the file's bytes, in lower-case hex.
DIGEST_PATTERN = "[0-9a-f]{64}"
DIGEST = OpenApiParameter(
    "digest",
    {"type": "string", "pattern": f"^{DIGEST_PATTERN}$"},
    OpenApiParameter.PATH,
    description="The SHA-256 of the picture's bytes (hex): its address, from `avatar_url`.",
)
IMMUTABLE = "public, max-age=31536000, immutable"
PICTURE_HEADERS = [
    OpenApiParameter(
        "ETag",
        str,
        OpenApiParameter.HEADER,
        required=True,
        response=[200, 304],
        description='The address\'s digest, quoted (`"9f86d0..."`): it never changes.',
    ),
    OpenApiParameter(
        "Cache-Control",
        str,
        OpenApiParameter.HEADER,
        required=True,
        response=[200, 304],
        description=f"`{IMMUTABLE}`: the bytes at an address never change.",
    ),
]
IF_NONE_MATCH = OpenApiParameter(
    "If-None-Match",
    str,
    OpenApiParameter.HEADER,
    required=False,
    description="The ETag you hold: the same picture -> 304 without a body.",
)

LARGE_URL = "https://chickenfoot.example/api/avatars/" + "9f86d081" * 8 + ".webp"
SMALL_URL = "https://chickenfoot.example/api/avatars/" + "60303ae2" * 8 + ".webp"
DEFAULT_URL = "https://chickenfoot.example/api/players/3/avatar/" + "2c26b46b" * 8 + ".svg"
UPLOADED_HELP = "True while the picture is one the player uploaded; false: their initials."

NOT_FOUND = problem(
    "No player's avatar is at this address (never was, or was replaced or removed).",
    (
        "No such avatar",
        problem_example(404, "avatar_not_found", "No such avatar", "No avatar is at this address."),
    ),
)
NOT_MODIFIED = OpenApiResponse(
    OpenApiTypes.BINARY,
    description=(
        "The picture you hold (`If-None-Match`): an empty body, typed as the picture's own "
        "(a generated client hands over empty bytes)."
    ),
)

AVATAR_FILE = {
    "operation_id": "avatar_file",
    "summary": "An uploaded avatar (WebP)",
    "tags": ["accounts"],
    "auth": [],
    "parameters": [DIGEST, IF_NONE_MATCH, *PICTURE_HEADERS],
    "responses": {
        (HTTPStatus.OK, "image/webp"): OpenApiResponse(
            OpenApiTypes.BINARY, description="A WebP image, 256 or 64 pixels a side."
        ),
        (HTTPStatus.NOT_MODIFIED, "image/webp"): NOT_MODIFIED,
        HTTPStatus.NOT_FOUND: NOT_FOUND,
    },
}
AVATAR_INITIALS = {
    "operation_id": "avatar_initials_svg",
    "summary": "A default avatar: the initials (SVG)",
    "tags": ["accounts"],
    "auth": [],
    "parameters": [PLAYER_ID, DIGEST, IF_NONE_MATCH, *PICTURE_HEADERS],
    "responses": {
        (HTTPStatus.OK, "image/svg+xml"): OpenApiResponse(
            OpenApiTypes.BINARY,
            description="An SVG document: the initials on a disc, the name as its title.",
            examples=[OpenApiExample("A picture", value=SVG_EXAMPLE)],
        ),
        (HTTPStatus.NOT_MODIFIED, "image/svg+xml"): NOT_MODIFIED,
        HTTPStatus.NOT_FOUND: NOT_FOUND,
    },
}

AVATAR_EXAMPLE = {"avatar_url": LARGE_URL, "avatar_small_url": SMALL_URL, "uploaded": True}
DEFAULT_EXAMPLE = {"avatar_url": DEFAULT_URL, "avatar_small_url": DEFAULT_URL, "uploaded": False}

_REFUSALS_400 = (
    ("An SVG", "avatar_not_an_image", "Not a PNG, JPEG or WebP image",
     "Only a PNG, a JPEG or a WebP image is taken; this is an SVG document."),
    ("Animated", "avatar_animated", "Animated avatar",
     "An animated image is not taken (this one has 12 frames): send one frame."),
    ("Truncated", "avatar_damaged", "Damaged image",
     "The image could not be decoded to its end: it is truncated or damaged (image file is "
     "truncated)."),
)  # fmt: skip
_REFUSALS_413 = (
    ("Too many bytes", "avatar_too_large", "Avatar too large",
     "The image is larger than the 2,097,152 bytes taken."),
    ("Too many pixels", "avatar_too_many_pixels", "Avatar has too many pixels",
     "The image is 20000 x 20000 pixels; at most 4096 x 4096 are taken."),
)  # fmt: skip


def _refusals(status: int, rows: tuple[tuple[str, str, str, str], ...]) -> Any:
    return [
        (name, problem_example(status, code, title, detail)) for name, code, title, detail in rows
    ]


def avatar_put(serializer: Any) -> dict[str, Any]:
    """The upload's declaration, given the view's serializer of its answer."""
    return {
        "operation_id": "avatar_upload",
        "summary": "Upload your avatar",
        "tags": ["accounts"],
        "description": (
            "The picture is the body, as it is (no form, no JSON), sent as `image/png`, "
            "`image/jpeg` or `image/webp` (or `image/*`: the bytes decide how it is read): a "
            "PNG, a JPEG or a WebP of at most 2 MiB and 4096 x 4096 pixels, one frame. It is "
            "turned upright by its EXIF orientation, cropped to its centre square and kept as "
            "WebP at 256 and 64 pixels, with none of its metadata (EXIF, ICC, XMP). Limited per "
            "player (`THROTTLE_AVATAR_UPLOAD`, 10 an hour by default: 429 `throttled`)."
        ),
        # one media range, not the three types: a generated client takes one body, the bytes
        "request": {"image/*": OpenApiTypes.BINARY},
        "responses": {
            HTTPStatus.OK: OpenApiResponse(
                serializer,
                description="Your avatar's new addresses.",
                examples=[OpenApiExample("Uploaded", value=AVATAR_EXAMPLE)],
            ),
            HTTPStatus.BAD_REQUEST: problem(
                "Not a PNG, JPEG or WebP; animated; truncated or damaged.",
                *_refusals(400, _REFUSALS_400),
            ),
            HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
            HTTPStatus.REQUEST_ENTITY_TOO_LARGE: problem(
                "Over 2 MiB, or over 4096 pixels on a side.", *_refusals(413, _REFUSALS_413)
            ),
            HTTPStatus.TOO_MANY_REQUESTS: TOO_MANY_REQUESTS,
        },
    }


def avatar_delete(serializer: Any) -> dict[str, Any]:
    """The removal's declaration, given the view's serializer of its answer."""
    return {
        "operation_id": "avatar_remove",
        "summary": "Remove your avatar",
        "tags": ["accounts"],
        "description": "Your initials show again (and if you had no upload, nothing changes).",
        "responses": {
            HTTPStatus.OK: OpenApiResponse(
                serializer,
                description="Your avatar's addresses: the default one's.",
                examples=[OpenApiExample("Removed", value=DEFAULT_EXAMPLE)],
            ),
            HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
        },
    }
