"""The public wall's socket: ``/ws/public/competitions/{id}/``, no token, read-only.

On connect: a competition that is not public (or none) is closed with 4404, as its page
answers 404. Else the socket joins the wall's group (games/live/wall.py), sends ``hello`` with
the whole wall, then forwards each ``table_updated`` and ``standings_changed`` frame. The client
sends nothing: anything it sends closes the socket with 4400. When the organiser makes the
competition private again its sockets are closed with 4404. A channel layer that cannot be
reached closes it with 1013 (try again later): the page still reads the wall over HTTP.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.core.serializers.json import DjangoJSONEncoder
from django.utils.translation import gettext as _

from chickenfoot.i18n.sockets import socket_language_use
from games.live.access import CLOSE_BAD_REQUEST, CLOSE_NO_MATCH, CLOSE_TRY_AGAIN_LATER
from games.live.publish import serving_loop_note
from games.live.socket_metrics import CountedSocket
from games.live.threads import in_db_thread
from games.live.wall import wall_group
from scoring.competitions.problems import CompetitionNotFound
from scoring.competitions.wall import public_competition_get, wall_body

logger = logging.getLogger(__name__)


def _hello(competition_id: int) -> dict[str, Any]:
    competition = public_competition_get(competition_id=competition_id)
    return {"type": "hello", "wall": wall_body(competition=competition)}


class PublicWallConsumer(CountedSocket, AsyncJsonWebsocketConsumer):
    """One anonymous reader of a public competition's wall."""

    socket_kind = "wall"

    competition_id: int
    joined = False

    @classmethod
    async def encode_json(cls, content: Any) -> str:
        return json.dumps(content, cls=DjangoJSONEncoder)

    async def connect(self) -> None:
        socket_language_use(self.scope)
        self.competition_id = int(self.scope["url_route"]["kwargs"]["competition_id"])
        serving_loop_note()
        await self.accept()  # then a refusal can say why, with its close code
        try:
            hello = await in_db_thread(_hello)(self.competition_id)
        except CompetitionNotFound:
            await self._close(
                CLOSE_NO_MATCH,
                _("There is no public competition %(competition)s.")
                % {"competition": self.competition_id},
            )
            return
        try:
            await self.channel_layer.group_add(wall_group(self.competition_id), self.channel_name)
        except Exception:
            logger.warning("live: the wall's group is unreachable", exc_info=True)
            await self._close(
                CLOSE_TRY_AGAIN_LATER, _("Live updates are unavailable; try again later.")
            )
            return
        self.joined = True
        await self.send_json(hello)

    async def disconnect(self, code: int) -> None:
        if self.joined:
            self.joined = False
            try:
                await self.channel_layer.group_discard(
                    wall_group(self.competition_id), self.channel_name
                )
            except Exception:
                logger.warning("live: could not leave the wall's group", exc_info=True)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        await self._close(CLOSE_BAD_REQUEST, _("The wall is read-only: send nothing."))

    async def wall_frame(self, message: dict[str, Any]) -> None:
        await self.send_json(message["frame"])

    async def wall_closed(self, message: dict[str, Any]) -> None:
        await self._close(CLOSE_NO_MATCH, _("The competition is no longer public."))

    async def _close(self, code: int, reason: str) -> None:
        await self.send_json({"type": "closing", "code": code, "detail": reason})
        await self.close(code=code)
