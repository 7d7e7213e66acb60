"""The OpenAPI declarations of ``games.api.live``'s views: what their ``extend_schema``
calls name."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiResponse,
)

from games.api.common import (
    NOT_AUTHENTICATED,
    NOT_FOUND,
    NOT_YOUR_MATCH,
    TICKET_UNAVAILABLE,
)

LIVE_TICKET_HEADING = {"summary": "A ticket for the match's socket", "tags": ["live"]}

LIVE_TICKET_DESCRIPTION = (
    "Browsers cannot set headers on a WebSocket: they open "
    "`/ws/matches/{id}?ticket=...` with a ticket from here instead. A ticket is signed, "
    "names its match, expires after a minute and opens one socket; the socket then "
    "lives as long as the token it stands for (docs/api.md, Live)."
)


def live_ticket_responses(live_ticket_output_serializer: Any) -> Any:
    """The answers of ``LiveTicketApi``, given the view's own serializer."""
    return {
        HTTPStatus.CREATED: OpenApiResponse(
            live_ticket_output_serializer,
            description="The ticket.",
            examples=[
                OpenApiExample(
                    "Ticket",
                    value={
                        "ticket": "eyJuIjoiWmZ1...:1tG3kQ:Qm9...",
                        "expires_in": 60,
                        "url": "/ws/matches/7?ticket=eyJuIjoiWmZ1...:1tG3kQ:Qm9...",
                    },
                )
            ],
        ),
        HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
        HTTPStatus.FORBIDDEN: NOT_YOUR_MATCH,
        HTTPStatus.NOT_FOUND: NOT_FOUND,
        HTTPStatus.SERVICE_UNAVAILABLE: TICKET_UNAVAILABLE,
    }
