"""An uploaded picture made into the avatar's two files: decoded with Pillow, under limits
checked before any pixel is decoded, turned upright by its EXIF orientation, brought to sRGB by
its ICC profile, cropped square and re-encoded as WebP at 256 and 64 pixels, with no metadata.

What is refused, each with its own problem (``games.avatars.problems``):

- a body over ``AVATAR_MAX_BYTES`` (2 MiB): 413 ``avatar_too_large``, unread past the limit
  (the view's parser, ``games.avatars.parsers``);
- anything but a PNG, a JPEG or a WebP (an SVG, a GIF, text, ...): 400 ``avatar_not_an_image``;
  only those three decoders are ever asked to read it;
- more than ``AVATAR_MAX_SIDE`` (4096) pixels on a side, as its header declares them, a
  decompression bomb included: 413 ``avatar_too_many_pixels``, before decoding;
- an animated picture (an APNG, an animated WebP): 400 ``avatar_animated``;
- a file that cannot be decoded to its end (truncated, damaged): 400 ``avatar_damaged``.
"""

from __future__ import annotations

import io
import warnings
from dataclasses import dataclass

from django.utils.translation import gettext as _
from PIL import Image, ImageCms, ImageOps, UnidentifiedImageError

from games.avatars.problems import (
    AvatarAnimated,
    AvatarDamaged,
    AvatarNotAnImage,
    AvatarTooManyPixels,
)

#: The largest body taken, in bytes.
AVATAR_MAX_BYTES = 2 * 1024 * 1024
#: The longest side taken, in pixels (so at most 4096 x 4096).
AVATAR_MAX_SIDE = 4096
#: The decoders a body is offered to.
FORMATS = ("PNG", "JPEG", "WEBP")
#: The two sizes served, in pixels a side.
LARGE = 256
SMALL = 64
#: WebP quality of both files (lossy; the alpha channel kept whole).
QUALITY = 85

_SRGB = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB"))


@dataclass(frozen=True)
class AvatarFiles:
    """The two WebP files of an avatar."""

    large: bytes
    small: bytes


def avatar_files(body: bytes) -> AvatarFiles:
    """The avatar files of ``body``, an uploaded PNG, JPEG or WebP (else a problem, above)."""
    picture = _opened(body)
    side = max(picture.size)
    if picture.format == "JPEG" and side > 2 * LARGE:
        # decode at a reduced scale (a power of two, never under 2 x 256): far less work
        picture.draft("RGB", (2 * LARGE, 2 * LARGE))
    try:
        picture.load()
    except (OSError, SyntaxError, ValueError, Image.DecompressionBombError) as error:
        raise AvatarDamaged(
            _("The image could not be decoded to its end: it is truncated or damaged (%(why)s).")
            % {"why": error}
        ) from error
    upright = _in_srgb(ImageOps.exif_transpose(picture))
    return AvatarFiles(large=_webp(upright, LARGE), small=_webp(upright, SMALL))


def _opened(body: bytes) -> Image.Image:
    """``body`` opened (its header read, no pixel decoded) by one of ``FORMATS``, its size and
    frames checked."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            picture = Image.open(io.BytesIO(body), formats=FORMATS)
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as error:
        raise AvatarTooManyPixels(_too_many_pixels_detail(None)) from error
    except UnidentifiedImageError as error:
        raise AvatarNotAnImage(_not_an_image_detail(body)) from error
    except (OSError, SyntaxError, ValueError) as error:
        raise AvatarDamaged(
            _("The image's header could not be read: it is truncated or damaged (%(why)s).")
            % {"why": error}
        ) from error
    width, height = picture.size
    if width > AVATAR_MAX_SIDE or height > AVATAR_MAX_SIDE or width < 1 or height < 1:
        raise AvatarTooManyPixels(_too_many_pixels_detail((width, height)))
    if getattr(picture, "is_animated", False) or getattr(picture, "n_frames", 1) > 1:
        raise AvatarAnimated(
            _("An animated image is not taken (this one has %(frames)s frames): send one frame.")
            % {"frames": getattr(picture, "n_frames", 2)}
        )
    return picture


def _too_many_pixels_detail(size: tuple[int, int] | None) -> str:
    limit = {"side": AVATAR_MAX_SIDE}
    if size is None:
        return _("The image is larger than %(side)s x %(side)s pixels.") % limit
    return _(
        "The image is %(width)s x %(height)s pixels; at most %(side)s x %(side)s are taken."
    ) % {
        "width": size[0],
        "height": size[1],
        **limit,
    }


def _not_an_image_detail(body: bytes) -> str:
    """Why ``body`` is refused, naming what it looks like when that is plain."""
    head = body[:512].lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    if head.startswith(b"gif8"):
        seen = _("a GIF image")
    elif head.startswith((b"<svg", b"<?xml", b"<!doctype svg")) or b"<svg" in head:
        seen = _("an SVG document")
    elif not body:
        seen = _("an empty body")
    else:
        seen = _("something else")
    return _("Only a PNG, a JPEG or a WebP image is taken; this is %(seen)s.") % {"seen": seen}


def _in_srgb(picture: Image.Image) -> Image.Image:
    """``picture`` in RGB or RGBA, its colours brought from its ICC profile (if any) to sRGB."""
    mode = (
        "RGBA" if picture.mode in ("RGBA", "LA", "PA") or "transparency" in picture.info else "RGB"
    )
    converted = picture.convert(mode)
    icc = picture.info.get("icc_profile")
    if icc:
        try:
            source = ImageCms.ImageCmsProfile(io.BytesIO(icc))
            converted = ImageCms.profileToProfile(converted, source, _SRGB, outputMode=mode) or (
                converted
            )
        except (ImageCms.PyCMSError, OSError, ValueError):
            pass  # a profile that cannot be read: the pixels as they are
    return converted


def _webp(picture: Image.Image, side: int) -> bytes:
    """``picture`` cropped to its centre square, ``side`` pixels a side, as a WebP file with no
    metadata: the pixels are copied to a new image, so nothing the upload carried (EXIF, ICC,
    XMP, comments) can follow them."""
    square = ImageOps.fit(picture, (side, side), method=Image.Resampling.LANCZOS)
    bare = Image.frombytes(square.mode, square.size, square.tobytes())
    out = io.BytesIO()
    bare.save(out, "WEBP", quality=QUALITY, method=4, exif=b"", icc_profile=None, xmp=b"")
    return out.getvalue()
