"""Content negotiation: DRF's, its answers remembered per ``Accept`` header and renderers.

DRF's negotiation parses the ``Accept`` header and matches it against each renderer on every
request, though a client sends the same header each time and a view offers the same renderers.
``RememberingNegotiation`` keeps what DRF's chose for an ``Accept`` header and a view's renderer
classes, and works it out by DRF's own code the first time, when the URL names a format
(``?format=``, a suffix), and whenever DRF refuses (406). What a client sends stays bounded in
memory: headers longer than ``LONGEST`` are not kept, and once ``REMEMBERED`` pairs are kept no
more are (the rest are worked out each time, as DRF does).
"""

from __future__ import annotations

import threading

from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request

#: The most (Accept header, renderer classes) pairs remembered.
REMEMBERED = 512
#: The longest Accept header remembered, in characters.
LONGEST = 256

_chosen: dict[tuple[str, tuple[type, ...]], tuple[int, str]] = {}
_lock = threading.Lock()


class RememberingNegotiation(DefaultContentNegotiation):
    """DRF's ``DefaultContentNegotiation``, remembering its choices (see the module)."""

    def select_renderer(
        self, request: Request, renderers: list[BaseRenderer], format_suffix: str | None = None
    ) -> tuple[BaseRenderer, str]:
        # the query string read only when there is one (a request without builds no QueryDict)
        if format_suffix or (
            request.META.get("QUERY_STRING")
            and self.settings.URL_FORMAT_OVERRIDE in request.query_params
        ):
            return super().select_renderer(request, renderers, format_suffix)
        accept = request.META.get("HTTP_ACCEPT", "*/*")
        key = (accept, tuple(renderer.__class__ for renderer in renderers))
        known = _chosen.get(key)
        if known is not None:
            index, media_type = known
            return renderers[index], media_type
        renderer, media_type = super().select_renderer(request, renderers, format_suffix)
        if len(accept) <= LONGEST and len(_chosen) < REMEMBERED:
            with _lock:
                _chosen[key] = (renderers.index(renderer), media_type)
        return renderer, media_type
