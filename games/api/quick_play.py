"""Quick play: join a queue, leave it, and see the caller's entry (matched: the match's id)."""

from __future__ import annotations

from http import HTTPStatus

from django.utils.translation import gettext as _
from rest_framework.request import Request
from rest_framework.response import Response

from games.api.apidocs import quick_play as apidocs
from games.api.common import GameApi
from games.api.queue_types import QueueEntryOutputSerializer, QueueJoinInputSerializer
from games.quick_play.problems import NotInQueue
from games.quick_play.selectors import queue_entry_of
from games.quick_play.services import entry_json, queue_join, queue_leave


class QueueApi(GameApi):
    """The caller's place in the quick play queue: join, read, leave."""

    @apidocs.QUEUE_READ_SCHEMA
    def get(self, request: Request) -> Response:
        entry = queue_entry_of(player_id=self.player(request).pk)
        if entry is None:
            raise NotInQueue(_("You are in no queue."))
        return Response(QueueEntryOutputSerializer(entry_json(entry)).data)

    @apidocs.QUEUE_JOIN_SCHEMA
    def post(self, request: Request) -> Response:
        data = QueueJoinInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        entry, created = queue_join(
            player=self.player(request),
            variant=data.validated_data["variant"],
            seat_count=data.validated_data["seats"],
            preset=data.validated_data["preset"],
            bots_after_seconds=data.validated_data["bots_after_seconds"],
        )
        entry.refresh_from_db()  # pairing may have run as the join committed
        status = HTTPStatus.CREATED if created else HTTPStatus.OK
        return Response(QueueEntryOutputSerializer(entry_json(entry)).data, status=status)

    @apidocs.QUEUE_LEAVE_SCHEMA
    def delete(self, request: Request) -> Response:
        queue_leave(player=self.player(request))
        return Response(status=HTTPStatus.NO_CONTENT)
