"""The player's own socket: ``/ws/me/``, each new notification of theirs as it is added.

It authenticates as a match socket does (games/live/access.py): ``Authorization: Token <key>``
(or Bearer), or ``?ticket=`` from ``POST /api/notifications/ticket`` (a ticket for this socket,
good for one connection). On connect it sends ``hello`` with the unread count, then a
``notification`` frame per notification added after commit, and a ``heartbeat`` every
``LIVE_HEARTBEAT_SECONDS`` (which also checks the token: one revoked closes the socket, 4401).
What it missed while closed, the client reads from ``GET /api/notifications``. The client
sends only ``{"type": "foreground"}`` when the app comes to the screen and
``{"type": "background"}`` when it leaves it (a socket opens in the background): while one of
its sockets is in the foreground, the player gets no push, as the socket shows each
notification (``games.notifications.watching``). Anything else sent closes it (4400). A channel
layer out of reach closes it with 1013.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import Any
from urllib.parse import parse_qs

from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.utils.translation import gettext as _

from chickenfoot.i18n.sockets import socket_language_use
from games import rows
from games.live.access import (
    CLOSE_BAD_REQUEST,
    CLOSE_TRY_AGAIN_LATER,
    CLOSE_UNAUTHENTICATED,
    Credential,
    Refused,
    player_for,
)
from games.live.beats import token_holds
from games.live.credentials import socket_credential
from games.live.publish import serving_loop_note
from games.live.socket_metrics import CountedSocket
from games.live.threads import in_db_thread
from games.models import Player
from games.notifications.models import Notification
from games.notifications.services import player_group
from games.notifications.watching import FOREGROUND, watch_begin, watch_end
from games.social.presence import ME, presence_beat, presence_clear, presence_note

logger = logging.getLogger(__name__)

#: The "match" a ticket for ``/ws/me/`` names: no match has id 0.
ME_TICKET = 0


def _unread(player: Player) -> int:
    """The player's unread notifications, in plain SQL (games/rows.py): every ``/ws/me/``
    (re)connection reads it."""
    sql = rows.statement(
        "notifications_unread",
        lambda quote: (
            f"SELECT COUNT(*) FROM {quote(Notification._meta.db_table)} "  # noqa: S608 - names from the models' meta
            f"WHERE {quote(rows.column(Notification, 'player'))} = %s "
            f"AND {quote(rows.column(Notification, 'read_at'))} IS NULL"
        ),
    )
    row = rows.fetchone(sql, [player.pk])
    return row[0] if row else 0


class MeConsumer(CountedSocket, AsyncJsonWebsocketConsumer):
    """One client's socket on its player's notifications."""

    socket_kind = "me"

    credential: Credential | None = None
    group = ""
    player_id = 0
    heartbeat: asyncio.Task[None] | None = None
    #: The app last said it is on the screen (``{"type": "foreground"}``), not that it left it.
    foreground = False

    @classmethod
    async def encode_json(cls, content: Any) -> str:
        return json.dumps(content, cls=DjangoJSONEncoder)

    async def connect(self) -> None:
        socket_language_use(self.scope)
        serving_loop_note()
        await self.accept()  # then a refusal can say why, with its close code
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        try:
            self.credential, player = await socket_credential(
                scope=self.scope, query=query, ticket_for=ME_TICKET
            )
        except Refused as refused:
            await self._close(refused.code, str(refused))
            return
        if player is None:  # a ticket's
            player = await in_db_thread(player_for)(self.credential)
        if player is None:
            await self._close(CLOSE_UNAUTHENTICATED, _("The token is missing, invalid or revoked."))
            return
        socket_language_use(self.scope, player.language)
        try:
            await self.channel_layer.group_add(player_group(player.pk), self.channel_name)
        except Exception:  # a layer out of reach: Redis down
            logger.warning("live: the player's group is unreachable", exc_info=True)
            await self._close(CLOSE_TRY_AGAIN_LATER, _("Live updates are unavailable; try again."))
            return
        self.group = player_group(player.pk)
        self.player_id = player.pk
        unread = await in_db_thread(_unread)(player)
        # noted before the hello: a client that has its hello is counted, and of two sockets the
        # one that had its hello later holds the note
        await presence_note(player_id=player.pk, socket=ME, channel=self.channel_name)
        await self.send_json({"type": "hello", "player": player.pk, "unread": unread})
        self.heartbeat = asyncio.get_running_loop().create_task(self._heartbeats())

    async def _heartbeats(self) -> None:
        while True:
            await asyncio.sleep(settings.LIVE_HEARTBEAT_SECONDS)
            # one answer for all the process's sockets (games/live/beats.py)
            if not await token_holds(self.credential):
                await self._close(CLOSE_UNAUTHENTICATED, _("The token was revoked."))
                return
            await self.send_json({"type": "heartbeat", "time": time.time()})
            await presence_beat(
                player_id=self.player_id,
                socket=ME,
                channel=self.channel_name,
                watched=FOREGROUND if self.foreground else None,
            )

    async def disconnect(self, code: int) -> None:
        if self.heartbeat is not None:
            # Let go of the task: cancelled, its traceback holds this consumer (and through it the
            # connection), a cycle only a full collection would free.
            self.heartbeat.cancel()
            self.heartbeat = None
        watched = FOREGROUND if self.foreground else None
        self.foreground = False
        if self.player_id:
            await presence_clear(
                player_id=self.player_id, socket=ME, channel=self.channel_name, watched=watched
            )
        if self.group:
            group, self.group = self.group, ""
            try:
                await self.channel_layer.group_discard(group, self.channel_name)
            except Exception:  # a layer out of reach: Redis down
                logger.warning("live: could not leave the player's group", exc_info=True)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        try:
            said = json.loads(text_data or "")
        except ValueError:
            said = None
        kind = said.get("type") if isinstance(said, dict) else None
        if kind in ("foreground", "background") and self.player_id:
            await self._foreground(kind == "foreground")
            return
        await self._close(
            CLOSE_BAD_REQUEST,
            _('Send only {"type": "foreground"} or {"type": "background"}.'),
        )

    async def _foreground(self, foreground: bool) -> None:
        """The app came to the screen (``True``) or left it: count this socket in or out."""
        if foreground == self.foreground or not self.player_id:
            return
        self.foreground = foreground
        change = watch_begin if foreground else watch_end
        await change(player_id=self.player_id, match_id=FOREGROUND)

    async def me_notification(self, message: dict[str, Any]) -> None:
        await self.send_json(message["frame"])

    async def _close(self, code: int, reason: str) -> None:
        await self.send_json({"type": "closing", "code": code, "detail": reason})
        await self.close(code=code)
