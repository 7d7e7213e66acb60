"""Reading a PDF back as a test does: its pages' text, each page as a picture, a QR code."""

from __future__ import annotations

import io
from pathlib import Path

import pypdfium2
import zxingcpp
from PIL import Image
from pypdf import PdfReader

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"


def page_texts(pdf: bytes) -> list[str]:
    return [page.extract_text() or "" for page in PdfReader(io.BytesIO(pdf)).pages]


def viewer_texts(pdf: bytes) -> list[str]:
    """Each page's text as a PDF viewer reads it (pdfium, Chromium's): a shaped name reads back
    whole, where pypdf takes a mark set back to its letter for a space after it."""
    document = pypdfium2.PdfDocument(pdf)
    try:
        return [page.get_textpage().get_text_range().replace("\r\n", "\n") for page in document]
    finally:
        document.close()


def pictures(pdf: bytes, scale: float = 2.0) -> list[Image.Image]:
    document = pypdfium2.PdfDocument(pdf)
    try:
        return [page.render(scale=scale).to_pil() for page in document]
    finally:
        document.close()


def qr_codes(picture: Image.Image) -> list[str]:
    return [found.text for found in zxingcpp.read_barcodes(picture) if found.valid]


def keep(picture: Image.Image, name: str) -> Path:
    """Save ``picture`` in tests/artifacts/ (not tracked), for a reviewer to look at."""
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / name
    picture.save(path)
    return path
