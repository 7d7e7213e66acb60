"""Pictures for the avatar tests, made with Pillow (and one PNG header written by hand)."""

from __future__ import annotations

import io
import random
import struct
import zlib

from PIL import Image, ImageCms

XMP = (
    b'<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-'
    b'syntax-ns#"><rdf:Description GPSLatitude="51,30N"/></rdf:RDF></x:xmpmeta>'
)


def encoded(picture: Image.Image, kind: str = "PNG", **options: object) -> bytes:
    out = io.BytesIO()
    picture.save(out, kind, **options)
    return out.getvalue()


def halves(size: tuple[int, int] = (400, 200)) -> Image.Image:
    """Left half red, right half blue."""
    picture = Image.new("RGB", size, (220, 0, 0))
    picture.paste((0, 0, 220), (size[0] // 2, 0, size[0], size[1]))
    return picture


def noise(size: tuple[int, int]) -> Image.Image:
    """Pixels that do not compress."""
    return Image.frombytes(
        "RGB", size, random.Random(size[0] * 7919 + size[1]).randbytes(size[0] * size[1] * 3)
    )


def jpeg_with_metadata(orientation: int = 6) -> bytes:
    """``halves()`` as a JPEG carrying an EXIF orientation and a camera, an ICC profile and
    XMP."""
    picture = halves()
    exif = Image.Exif()
    exif[0x0112] = orientation  # Orientation
    exif[0x010F] = "SpyCam"  # Make
    exif[0x0131] = "secret-tool 1.0"  # Software
    icc = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
    return encoded(picture, "JPEG", exif=exif.tobytes(), icc_profile=icc, xmp=XMP, quality=95)


def animated(kind: str) -> bytes:
    frames = [Image.new("RGB", (32, 32), colour) for colour in ("red", "green", "blue")]
    return encoded(frames[0], kind, save_all=True, append_images=frames[1:], duration=100, loop=0)


def png_header_only(width: int, height: int) -> bytes:
    """A PNG that declares ``width`` x ``height`` pixels and holds a few bytes of them: a
    decompression bomb's shape, whatever its size."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)  # 8-bit grey
    pixels = zlib.compress(b"\x00" * 1024 * 64, 9)
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")
    )


def riff_chunks(webp: bytes) -> list[bytes]:
    """The ids of a WebP file's chunks (RIFF), the extended header's included."""
    assert webp[:4] == b"RIFF"
    assert webp[8:12] == b"WEBP"
    found, at = [], 12
    while at + 8 <= len(webp):
        kind, size = webp[at : at + 4], struct.unpack("<I", webp[at + 4 : at + 8])[0]
        found.append(kind)
        at += 8 + size + (size & 1)
    return found
