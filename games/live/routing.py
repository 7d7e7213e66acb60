"""WebSocket routes, mounted under ``/ws/`` by chickenfoot/asgi.py."""

from __future__ import annotations

from django.urls import path

from games.live.consumers import MatchConsumer

websocket_urlpatterns = [
    path("ws/matches/<int:match_id>", MatchConsumer.as_asgi(), name="ws-match"),
]
