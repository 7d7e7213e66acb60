"""The API's JSON renderer, and the renderers the apps share beyond JSON."""

from __future__ import annotations

from typing import Any

from rest_framework import renderers
from rest_framework.response import Response
from rest_framework.utils.encoders import JSONEncoder as DRFJSONEncoder

from chickenfoot import json_codec

_LINE_SEPARATORS = (("\u2028".encode(), b"\\u2028"), ("\u2029".encode(), b"\\u2029"))


class JSONRenderer(renderers.JSONRenderer):
    """DRF's JSON renderer, writing through ``json_codec`` (orjson): the same compact JSON.

    What orjson does not write itself (a datetime, a ``Decimal``, a lazily translated string)
    DRF's own encoder turns into JSON values, as it does for DRF's renderer; U+2028 and U+2029
    are escaped as there. A client asking for ``indent`` gets DRF's renderer, indented.
    """

    _default = staticmethod(DRFJSONEncoder().default)

    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: Any = None,
    ) -> bytes:
        if data is None:
            return b""
        if (
            not self.compact
            or self.ensure_ascii
            or self.get_indent(accepted_media_type, renderer_context or {}) is not None
        ):
            return super().render(data, accepted_media_type, renderer_context)
        body = json_codec.dumps(data, default=self._default)
        for raw, escaped in _LINE_SEPARATORS:
            if raw in body:
                body = body.replace(raw, escaped)
        return body


#: An example body for an SVG answer in the OpenAPI schema.
SVG_EXAMPLE = '<svg xmlns="http://www.w3.org/2000/svg" ...>...</svg>'


#: The Content-Security-Policy of an SVG answer (docs/web.md, "What a page may run"). A picture
#: draws with SVG presentation attributes only: no script, no style sheet, no font, no image,
#: nothing fetched. Opened on its own it may load nothing at all, runs sandboxed (a unique
#: origin, no script, no form), and no other page may frame it. The site's pages fetch a picture
#: and put its markup in the page, under the page's own policy.
SVG_POLICY = (
    "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'; sandbox"
)


class SVGRenderer(renderers.BaseRenderer):
    """An SVG document, already rendered to text by the view (errors stay problem JSON), under
    its own Content-Security-Policy (``SVG_POLICY``, which the CSP middleware leaves as it is)."""

    media_type = "image/svg+xml"
    format = "svg"
    charset = "utf-8"

    def render(
        self, data: object, accepted_media_type: str | None = None, renderer_context: object = None
    ) -> bytes:
        response = (
            (renderer_context or {}).get("response") if isinstance(renderer_context, dict) else None
        )
        if response is not None:
            response["Content-Security-Policy"] = SVG_POLICY
        if data is None:  # a 304: no body
            return b""
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


class WebPRenderer(renderers.BaseRenderer):
    """A WebP image, already encoded by the view (errors stay problem JSON)."""

    media_type = "image/webp"
    format = "webp"
    charset = None
    render_style = "binary"

    def render(
        self, data: object, accepted_media_type: str | None = None, renderer_context: object = None
    ) -> bytes:
        return data if isinstance(data, bytes) else b""


def pdf_response(body: bytes, filename: str) -> Response:
    """``body`` as a PDF to open in the browser (or save as ``filename``), never cached."""
    headers = {
        "Content-Disposition": f'inline; filename="{filename}"',
        "Cache-Control": "private, no-store",
    }
    return Response(body, headers=headers, content_type="application/pdf")
