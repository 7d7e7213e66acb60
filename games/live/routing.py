"""WebSocket routes, mounted under ``/ws/`` by chickenfoot/asgi.py."""

from __future__ import annotations

from django.urls import path

from games.live.consumers import MatchConsumer
from games.live.wall_consumer import PublicWallConsumer
from games.notifications.socket import MeConsumer

websocket_urlpatterns = [
    path("ws/matches/<int:match_id>", MatchConsumer.as_asgi(), name="ws-match"),
    path("ws/me/", MeConsumer.as_asgi(), name="ws-me"),
    path(
        "ws/public/competitions/<int:competition_id>/",
        PublicWallConsumer.as_asgi(),
        name="ws-public-competition",
    ),
]
