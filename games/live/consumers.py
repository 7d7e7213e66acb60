"""The match socket: ``/ws/matches/{id}``, every change of a match as one seat may see it.

On connect: authenticate (games/live/access.py), join the match's group and its audience's (the
seat's, or the watchers': ``publish.audience_group``), send ``hello``, then everything after
``?after=<seq>`` from the database, then live frames. A move within a round comes to the
audience's group as the frames that audience sees: a socket that sent the move before sends
them as they are. Any other change (or a move the socket cannot follow on from) is a nudge: the
socket reads what it has not sent yet from the move log and redacts it for its seat. So frames
go out in ``seq`` order, never twice, with no gap at the seam between the catch-up and live
frames. The socket closes with 4000 after the ``match_over`` frame.

A seat's socket also sends the match's quick chat (``chat`` frames, games/chat/), by the same
pattern with a cursor of its own: a ``match.chat`` nudge says "the chat is at phrase N"; the
socket reads the phrases after the last it sent (``?chat_after=<seq>`` on connect), as its
player is shown them, in their language. Chat frames never take a move ``seq``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import parse_qs

from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.utils.translation import gettext as _

from chickenfoot.i18n.sockets import socket_language_use
from chickenfoot.numbers import whole_number
from games.avatars.urls import socket_host
from games.live import frames
from games.live.access import (
    CLOSE_BAD_REQUEST,
    CLOSE_FORBIDDEN,
    CLOSE_MATCH_OVER,
    CLOSE_UNAUTHENTICATED,
    Credential,
    Refused,
    Viewer,
    viewer_for,
)
from games.live.beats import marks, token_holds
from games.live.chat_frames import chat_frames, chat_start
from games.live.credentials import credential_of
from games.live.publish import PRESENCE, audience_group, match_group, serving_loop_note
from games.live.socket_metrics import CountedSocket
from games.live.threads import in_db_thread
from games.models import Match
from games.notifications.watching import watch_begin
from games.social.presence import MATCH, presence_beat, presence_clear, presence_note

logger = logging.getLogger(__name__)

#: Heartbeats a seat may miss before the others stop counting it as present.
PRESENCE_MISSES = 3
#: Seconds after joining a socket reads its match again (``_heartbeats``).
SETTLE_SECONDS = 0.5


def _arrival(
    *, headers: list[tuple[bytes, bytes]], query: dict[str, list[str]], match_id: int
) -> tuple[Credential, Viewer]:
    """A socket's credential and its viewer (``Refused`` with the close code to close with), in
    one trip to the sockets' threads."""
    credential, player = credential_of(headers=headers, query=query, ticket_for=match_id)
    return credential, viewer_for(credential=credential, match_id=match_id, player=player)


class _Recent:
    """The reads of the move log this process made lately, for the sockets that stand where
    they stood.

    The seats and spectators of a match told of one move read the database once: the first
    starts the read (``frames.log_read``: the moves whole), the others await the same one, and
    each redacts it for its own seat. A read is reused only by a socket at the same seq, only
    for a nudge it covers (it reached the nudged seq), and for a second at most; anything else
    reads afresh.
    """

    TTL = 1.0

    def __init__(self) -> None:
        self.entries: dict[tuple[Any, ...], tuple[float, asyncio.Future[frames.LogRead]]] = {}

    async def read(
        self, key: tuple[Any, ...], seen: int | None, fresh: Callable[[], Awaitable[frames.LogRead]]
    ) -> frames.LogRead:
        now = time.monotonic()
        entry = self.entries.get(key) if seen is not None else None
        if entry is not None and entry[0] >= now:
            with contextlib.suppress(Exception):
                result = await asyncio.shield(entry[1])
                if result.last_seq >= seen:
                    return result
        future: asyncio.Future[frames.LogRead] = asyncio.get_running_loop().create_future()
        if len(self.entries) > 1000:
            self.entries = {k: v for k, v in self.entries.items() if v[0] >= now}
        self.entries[key] = (now + self.TTL, future)
        try:
            result = await fresh()
        except BaseException as error:
            # Those waiting on this read read for themselves (a cancellation stays ours).
            self.entries.pop(key, None)
            future.set_exception(RuntimeError(f"the shared read failed: {error!r}"))
            future.exception()  # retrieved: nobody need be waiting
            raise
        future.set_result(result)
        return result


_recent = _Recent()


class MatchConsumer(CountedSocket, AsyncJsonWebsocketConsumer):
    """One client's socket on one match."""

    socket_kind = "match"

    match_id: int
    group: str
    viewer: Viewer | None = None
    seat: int | None = None
    credential: Credential | None = None
    last_seq = 0
    #: The last chat phrase read for this socket (sent, or left out for its player).
    chat_last = 0
    language = "en"
    #: The match's status when this socket last read it.
    status_seen = ""
    opening_sent = False
    closing = False
    heartbeat: asyncio.Task[None] | None = None
    #: The player counted as watching the match (``games.notifications.watching``); 0: none.
    watcher = 0

    @classmethod
    async def encode_json(cls, content: Any) -> str:
        return json.dumps(content, cls=DjangoJSONEncoder)

    # --- connecting -------------------------------------------------------------------------

    async def connect(self) -> None:
        socket_language_use(self.scope)
        self._catching = asyncio.Lock()
        self._chatting = asyncio.Lock()
        self.match_id = int(self.scope["url_route"]["kwargs"]["match_id"])
        self.group = match_group(self.match_id)
        #: channel name -> (seat, when last heard): the seats with a socket open.
        self.peers: dict[str, tuple[int, float]] = {}
        serving_loop_note()
        await self.accept()  # then a refusal can say why, with its close code
        query = parse_qs(
            self.scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True
        )
        after_raw = query.get("after", [None])[0]
        after = whole_number(after_raw)
        if after_raw is not None and after is None:
            await self._close(CLOSE_BAD_REQUEST, "`after` must be a move seq: 0 or more.")
            return
        chat_after_raw = query.get("chat_after", [None])[0]
        chat_after = whole_number(chat_after_raw)
        if chat_after_raw is not None and chat_after is None:
            await self._close(CLOSE_BAD_REQUEST, "`chat_after` must be a chat seq: 0 or more.")
            return
        try:
            self.credential, self.viewer = await in_db_thread(_arrival)(
                headers=self.scope.get("headers", []), query=query, match_id=self.match_id
            )
        except Refused as refused:
            await self._close(refused.code, str(refused))
            return
        self.seat = self.viewer.seat
        self.language = socket_language_use(self.scope, self.viewer.player.language)
        # Join the groups (one subscription) before reading: a change committed from now on
        # reaches this socket, and the catch-up skips what it already sent.
        await asyncio.gather(
            self.channel_layer.group_add(self.group, self.channel_name), self._audience_join()
        )
        with socket_host(self.scope):  # the seats' avatar URLs, on the socket's host
            hello, resumed = await in_db_thread(frames.greeting)(
                match_id=self.match_id, viewer=self.viewer, after=after
            )
        chat_seq = hello["chat_seq"]
        past = ""
        if after is not None and after > hello["seq"]:
            past = f"`after` is {after}, past the match's last move ({hello['seq']})."
        elif chat_seq is not None and chat_after is not None and chat_after > chat_seq:
            past = f"`chat_after` is {chat_after}, past the chat's last phrase ({chat_seq})."
        if past:
            # A seq the match (or its chat) has not reached: resuming from it would skip what
            # comes next for good.
            await self.channel_layer.group_discard(self.group, self.channel_name)
            await self._audience_leave()
            self.viewer = None  # never arrived: nothing to announce on leaving
            await self._close(CLOSE_BAD_REQUEST, past)
            return
        self.last_seq = after if after is not None else hello["seq"]
        self.status_seen = hello["match"]["status"]
        self.chat_last = (
            chat_after if chat_seq is not None and chat_after is not None else chat_seq or 0
        )
        await self.send_json(hello)
        # What the hello says was said or played after where the client stands, if anything
        # (a reconnection that resumes where it left off reads nothing more).
        if chat_seq is not None and self.chat_last < chat_seq:
            await self._chat_catch_up()
        status = hello["match"]["status"]
        if resumed is not None:  # read with the hello: what the socket missed since `after`
            async with self._catching:
                await self._deliver(
                    frames.redact(resumed, viewer=self.viewer, opening_sent=self.opening_sent)
                )
        elif (
            self.last_seq < hello["seq"]
            or status in frames.OVER
            or (
                status != Match.Status.OPEN
                and frames.needs_opening(last_seq=self.last_seq, opening_sent=self.opening_sent)
            )
        ):
            await self._catch_up()
        if self.closing:
            return
        if self.seat is not None:
            await self._presence_broadcast("arrived")
        # the viewer watches the match live: no push about it while this socket is open
        self.watcher = self.viewer.player.pk
        await watch_begin(player_id=self.watcher, match_id=self.match_id)
        await self._presence_note()
        self.heartbeat = asyncio.get_running_loop().create_task(self._heartbeats())

    async def disconnect(self, code: int) -> None:
        if self.heartbeat is not None:
            # Let go of the task: cancelled, its traceback holds this consumer (and through it the
            # connection), a cycle only a full collection would free.
            self.heartbeat.cancel()
            self.heartbeat = None
        watched, self.watcher = self.watcher, 0
        if self.viewer is None:  # never arrived (a watcher always has a viewer)
            return
        await presence_clear(
            player_id=self.viewer.player.pk,
            socket=MATCH,
            channel=self.channel_name,
            watched=self.match_id if watched else None,
        )
        await self.channel_layer.group_discard(self.group, self.channel_name)
        await self._audience_leave()
        if self.seat is not None:
            await self._presence_broadcast("left")

    async def _close(self, code: int, reason: str) -> None:
        self.closing = True
        await self.send_json({"type": "closing", "code": code, "detail": reason})
        await self.close(code=code)

    # --- frames -----------------------------------------------------------------------------

    async def _catch_up(self, seen: int | None = None) -> None:
        """Send what the database holds after the last frame sent; close once it is over.

        ``seen``: the seq a nudge announced. The sockets of one process that stand at the same
        place share one read of the database (``_recent``) when it reaches that seq.
        """
        async with self._catching:  # the heartbeats' reads and the nudges' one at a time
            await self._catch_up_now(seen)

    async def _catch_up_now(self, seen: int | None) -> None:
        if self.closing or self.viewer is None:
            return
        if frames.needs_opening(last_seq=self.last_seq, opening_sent=self.opening_sent):
            # Nothing sent yet: the opening is the seat's own read.
            result = await in_db_thread(frames.catch_up)(
                match_id=self.match_id,
                viewer=self.viewer,
                last_seq=self.last_seq,
                opening_sent=self.opening_sent,
            )
        else:
            after = self.last_seq
            read = await _recent.read(
                (self.match_id, after),
                seen,
                lambda: in_db_thread(frames.log_read)(match_id=self.match_id, after=after),
            )
            result = frames.redact(read, viewer=self.viewer, opening_sent=self.opening_sent)
        await self._deliver(result)

    async def _deliver(self, result: frames.CatchUp) -> None:
        """Send a catch-up's frames (under ``_catching``); close once the match is over, or if
        the socket may no longer follow it."""
        if result.forbidden:
            await self._close(
                CLOSE_FORBIDDEN, _("The match has started: its seats, creator and organisers only.")
            )
            return
        for frame in result.frames:
            await self.send_json(frame)
        self.last_seq, self.opening_sent = result.last_seq, result.opening_sent
        if result.over:
            await self._chat_catch_up()  # what was said before the end, before closing
            await self._close(CLOSE_MATCH_OVER, _("The match is over."))

    async def _chat_catch_up(self) -> None:
        """Send the chat phrases after the last one read, as this seat's player is shown them
        (spectators get none)."""
        async with self._chatting:
            if self.closing or self.viewer is None or self.seat is None:
                return
            sent, self.chat_last = await in_db_thread(chat_frames)(
                match_id=self.match_id,
                viewer=self.viewer.player,
                after=self.chat_last,
                language=self.language,
            )
            for frame in sent:
                await self.send_json(frame)

    async def match_chat(self, message: dict[str, Any]) -> None:
        """A phrase was said at the table: send what this seat has not had yet."""
        if message.get("seq", 0) > self.chat_last:
            await self._chat_catch_up()

    async def match_moved(self, message: dict[str, Any]) -> None:
        """The match changed (a move, a start, a seat taken over): send what is new."""
        await self._view_again()  # opened in the lobby: the seat may be this socket's now
        if message.get("always"):
            await self._catch_up()
        elif message.get("seq", 0) > self.last_seq:
            await self._catch_up(seen=message["seq"])

    async def match_frames(self, message: dict[str, Any]) -> None:
        """A move, as this socket's audience sees it (``publish.on_commit_move_frames``): sent
        as it is when the socket sent the move before it; otherwise the log is read."""
        async with self._catching:
            if self.closing or self.viewer is None or message["seq"] <= self.last_seq:
                return
            if message["seq"] == self.last_seq + 1 and not frames.needs_opening(
                last_seq=self.last_seq, opening_sent=self.opening_sent
            ):
                for text in message["frames"]:
                    await self.send(text_data=text)
                self.last_seq = message["seq"]
                return
            await self._catch_up_now(message["seq"])

    async def _audience_join(self) -> None:
        """Join the group of the sockets that see the match as this one does (a seat's, or the
        watchers'); a lobby visitor has none."""
        group = self._audience()
        if group is not None:
            await self.channel_layer.group_add(group, self.channel_name)

    async def _audience_leave(self) -> None:
        group = self._audience()
        if group is not None:
            await self.channel_layer.group_discard(group, self.channel_name)

    def _audience(self) -> str | None:
        if self.viewer is None or (self.viewer.seat is None and not self.viewer.watches):
            return None
        return audience_group(self.match_id, self.viewer.seat)

    async def match_notice(self, message: dict[str, Any]) -> None:
        """A public fact (a join, a resignation, a clock warning): forward it, then catch up."""
        if self.closing:
            return
        await self.send_json(message["frame"])
        await self._view_again()
        await self._catch_up()

    async def _view_again(self) -> None:
        """Read the socket's access again while it was read in the lobby (before the start).

        A player who opened the socket before taking a seat holds one now: from here on the
        socket sends that seat's frames (its hand), says so in a ``view_changed`` frame and
        counts in presence. Once the match has started the view is fixed: only the lobby's
        seats change. A token revoked since closes the socket (4401); a visitor without a seat
        at a match that started is closed by the catch-up (4403).
        """
        if self.closing or self.viewer is None or not self.viewer.lobby:
            return
        try:
            viewer = await in_db_thread(viewer_for)(
                credential=self.credential, match_id=self.match_id
            )
        except Refused as refused:
            if refused.code != CLOSE_FORBIDDEN:
                await self._close(refused.code, str(refused))
            return  # forbidden: the catch-up that follows refuses, with its own reason
        changed = (viewer.seat, viewer.watches) != (self.seat, self.viewer.watches)
        if changed:
            await self._audience_leave()
        self.viewer = viewer
        if not changed:
            return
        await self._audience_join()
        if self.seat is None and viewer.seat is not None:
            # seated now: the chat is theirs from here on
            self.chat_last = await in_db_thread(chat_start)(match_id=self.match_id)
        self.seat = viewer.seat
        await self._presence_note()
        await self.send_json({"type": "view_changed", "your_seat": viewer.seat})
        if self.seat is not None:
            await self._presence_broadcast("arrived")

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if isinstance(content, dict) and content.get("type") == "ping":
            await self.send_json({"type": "pong", "time": time.time()})
            return
        await self.send_json(
            {
                "type": "error",
                "detail": _('A client sends only {"type": "ping"}; moves go over HTTP.'),
            }
        )

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        try:
            await super().receive(text_data=text_data, bytes_data=bytes_data)
        except (ValueError, TypeError):
            await self.send_json({"type": "error", "detail": _("Frames are JSON objects.")})

    # --- heartbeats and presence ------------------------------------------------------------

    async def _heartbeats(self) -> None:
        """``SETTLE_SECONDS`` after joining, look at the match again: Redis takes a subscription
        on its own connection, so a nudge published as the socket joined may have reached Redis
        first. Then every ``LIVE_HEARTBEAT_SECONDS``: check the token still holds, look at the
        match again (a nudge lost while Redis was out of reach), say we are here. Each look is
        one answer for all the process's sockets (games/live/beats.py); the socket reads its
        match only when that answer says it is behind."""
        await asyncio.sleep(SETTLE_SECONDS)
        await self._look_again()
        period = settings.LIVE_HEARTBEAT_SECONDS
        while not self.closing:
            await asyncio.sleep(period)
            if not await token_holds(self.credential):
                await self._close(CLOSE_UNAUTHENTICATED, _("The token was revoked."))
                return
            await self._look_again()
            if self.closing:
                return
            await self.send_json({"type": "heartbeat", "time": time.time(), "seq": self.last_seq})
            await self._presence_note(beat=True)
            if self.seat is not None:
                await self._presence_broadcast("here")
            stale = time.monotonic() - PRESENCE_MISSES * period
            gone = [name for name, (_, seen) in self.peers.items() if seen < stale]
            for name in gone:
                del self.peers[name]
            if gone:
                await self._send_presence()

    async def _look_again(self) -> None:
        """Catch up on the moves and the chat if the match went past what this socket sent."""
        try:
            mark = await marks.get(self.match_id)
        except Exception:  # the database out of reach: the next heartbeat looks again
            logger.warning("live: match %s could not be looked at", self.match_id, exc_info=True)
            return
        if mark is None or mark.seq > self.last_seq or mark.status != self.status_seen:
            await self._catch_up()
            if mark is not None:
                self.status_seen = mark.status
        if self.seat is not None and (mark is None or mark.chat_seq > self.chat_last):
            await self._chat_catch_up()  # a chat nudge lost on the way

    async def _presence_note(self, *, beat: bool = False) -> None:
        """Note the player's socket for their friends' lists (``games.social.presence``): at
        this match if they hold a seat here. ``beat``: a heartbeat's note, which also renews the
        socket's count as watching the match (``games.notifications.watching``)."""
        if self.viewer is None:
            return
        noted = {
            "player_id": self.viewer.player.pk,
            "socket": MATCH,
            "channel": self.channel_name,
            "match_id": self.match_id if self.seat is not None else None,
        }
        if beat:
            await presence_beat(**noted, watched=self.match_id if self.watcher else None)
        else:
            await presence_note(**noted)

    async def _presence_broadcast(self, op: str) -> None:
        with contextlib.suppress(Exception):  # presence is best effort; frames are not
            await self.channel_layer.group_send(
                self.group,
                {"type": PRESENCE, "op": op, "channel": self.channel_name, "seat": self.seat},
            )

    async def match_presence(self, message: dict[str, Any]) -> None:
        """Seats announce themselves (``arrived``), answer (``here``) and say goodbye (``left``)."""
        if self.closing:
            return
        channel, seat, op = message["channel"], message["seat"], message["op"]
        before = self._seats()
        if op == "left":
            self.peers.pop(channel, None)
        else:
            self.peers[channel] = (seat, time.monotonic())
        if op == "arrived" and channel != self.channel_name and self.seat is not None:
            with contextlib.suppress(Exception):
                await self.channel_layer.send(
                    channel,
                    {
                        "type": PRESENCE,
                        "op": "here",
                        "channel": self.channel_name,
                        "seat": self.seat,
                    },
                )
        if self._seats() != before:
            await self._send_presence()

    def _seats(self) -> list[int]:
        return sorted({seat for seat, _ in self.peers.values()})

    async def _send_presence(self) -> None:
        await self.send_json({"type": "presence", "seats": self._seats()})
