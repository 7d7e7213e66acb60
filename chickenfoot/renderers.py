"""Renderers the apps share beyond JSON."""

from __future__ import annotations

from rest_framework import renderers
from rest_framework.response import Response

#: An example body for an SVG answer in the OpenAPI schema.
SVG_EXAMPLE = '<svg xmlns="http://www.w3.org/2000/svg" ...>...</svg>'


class SVGRenderer(renderers.BaseRenderer):
    """An SVG document, already rendered to text by the view (errors stay problem JSON)."""

    media_type = "image/svg+xml"
    format = "svg"
    charset = "utf-8"

    def render(
        self, data: object, accepted_media_type: str | None = None, renderer_context: object = None
    ) -> bytes:
        return str(data).encode(self.charset)


#: An example body for a PDF answer in the OpenAPI schema.
PDF_EXAMPLE = "%PDF-1.4 ..."


class PDFRenderer(renderers.BaseRenderer):
    """A PDF document, already built as bytes by the view (errors stay problem JSON)."""

    media_type = "application/pdf"
    format = "pdf"
    charset = None
    render_style = "binary"

    def render(
        self, data: object, accepted_media_type: str | None = None, renderer_context: object = None
    ) -> bytes:
        return data if isinstance(data, bytes) else bytes(str(data), "utf-8")


def pdf_response(body: bytes, filename: str) -> Response:
    """``body`` as a PDF to open in the browser (or save as ``filename``), never cached."""
    headers = {
        "Content-Disposition": f'inline; filename="{filename}"',
        "Cache-Control": "private, no-store",
    }
    return Response(body, headers=headers, content_type="application/pdf")
