"""Renderers the apps share beyond JSON."""

from __future__ import annotations

from rest_framework import renderers

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
