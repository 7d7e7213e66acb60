"""Live play over HTTP: a ticket for a match's socket (for clients that cannot set headers)."""

from __future__ import annotations

from http import HTTPStatus

from django.conf import settings
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiResponse,
    extend_schema,
    extend_schema_serializer,
)
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from games.api.common import (
    MATCH_ID,
    NOT_AUTHENTICATED,
    NOT_FOUND,
    NOT_YOUR_MATCH,
    TICKET_UNAVAILABLE,
    GameApi,
)
from games.live.access import ticket_issue
from games.selectors import match_for_player


class LiveTicketApi(GameApi):
    """A one-use ticket to open ``/ws/matches/{id}`` without an ``Authorization`` header."""

    @extend_schema_serializer(component_name="LiveTicket")
    class LiveTicketOutputSerializer(serializers.Serializer):
        ticket = serializers.CharField(help_text="Send it as `?ticket=`; good for one socket.")
        expires_in = serializers.IntegerField(help_text="Seconds the ticket stays valid.")
        url = serializers.CharField(help_text="The socket's path, with the ticket.")

    @extend_schema(
        operation_id="live_ticket",
        summary="A ticket for the match's socket",
        description=(
            "Browsers cannot set headers on a WebSocket: they open "
            "`/ws/matches/{id}?ticket=...` with a ticket from here instead. A ticket is signed, "
            "names its match, expires after a minute and opens one socket; the socket then "
            "lives as long as the token it stands for (docs/api.md, Live)."
        ),
        tags=["live"],
        parameters=[MATCH_ID],
        request=None,
        responses={
            HTTPStatus.CREATED: OpenApiResponse(
                LiveTicketOutputSerializer,
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
        },
    )
    def post(self, request: Request, match_id: int) -> Response:
        match_for_player(match_id=match_id, player=self.player(request))  # 404 / 403 as HTTP
        ticket = ticket_issue(token=request.auth, match_id=match_id)
        body = {
            "ticket": ticket,
            "expires_in": settings.LIVE_TICKET_SECONDS,
            "url": f"/ws/matches/{match_id}?ticket={ticket}",
        }
        return Response(self.LiveTicketOutputSerializer(body).data, status=HTTPStatus.CREATED)
