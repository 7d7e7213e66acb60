"""The API's Swagger UI and ReDoc pages under the site's Content-Security-Policy.

Both run only the service's own scripts: Swagger UI's start-up script is served as a file of its
own (drf-spectacular's split view, ``?script``), not written into the page. What they need beyond
the site's policy is allowed on their pages alone: their styles set inline (the page templates'
``<style>``, and ReDoc's styled components), and ReDoc's search, a worker it starts from a
``blob:`` URL. Neither page shows anything a user wrote: only the schema.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from csp.constants import SELF, UNSAFE_INLINE
from csp.decorators import csp_update
from drf_spectacular.views import SpectacularRedocView, SpectacularSwaggerSplitView

#: What the docs pages add to the site's policy.
DOCS_POLICY = {"style-src": [UNSAFE_INLINE], "worker-src": [SELF, "blob:"]}


def swagger_view(*, url_name: str) -> Callable[..., Any]:
    """Swagger UI, its start-up script a separate request (``?script``)."""
    return csp_update(DOCS_POLICY)(SpectacularSwaggerSplitView.as_view(url_name=url_name))


def redoc_view(*, url_name: str) -> Callable[..., Any]:
    """ReDoc (chickenfoot/templates/drf_spectacular/redoc.html: no web fonts, no inline script)."""
    return csp_update(DOCS_POLICY)(SpectacularRedocView.as_view(url_name=url_name))
