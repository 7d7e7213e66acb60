"""Notifying players: ``notify`` writes an inbox row in the caller's transaction, and after
commit the row goes out on the player's socket and, by the delivery task, to their devices.

One function per kind names who gets it (``your_turn_notify`` ... ``result_corrected_notify``);
``notify`` is the one they all call, and what another part of the service calls for a kind of
its own (``invited_notify`` for an invitation). Only human players with an account are
notified: never a bot, a guest, a deleted account or a seat without a player. A ``key`` makes
a notification happen once: the same key for the same player adds nothing (a retried task, a
second finish after a reopening).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import datetime
from functools import partial
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from games import rows
from games.enqueue import enqueue_now
from games.live.publish import publish_group
from games.models import Match, Player, Seat
from games.notifications import kinds
from games.notifications.delivery import push_deliver
from games.notifications.envelope import notification_json
from games.notifications.models import KINDS, Notification, PushDevice
from games.row_values import prepared_value

logger = logging.getLogger(__name__)


def player_group(player_id: int) -> str:
    """The channel-layer group of a player's ``/ws/me/`` sockets."""
    return f"player.{player_id}"


def notify(
    *, player_id: int, kind: str, payload: dict[str, Any], key: str | None = None
) -> Notification | None:
    """Add ``kind`` with ``payload`` to ``player_id``'s inbox (a human's only); after commit,
    publish it on their socket and, if they have a device, queue its push. ``None`` when
    nothing was added: not a human, or ``key`` was notified before.

    ``payload`` holds public facts only (build it with ``games.notifications.kinds``).
    """
    if kind not in KINDS:
        raise ValueError(f"unknown notification kind {kind!r}")
    if not Player.objects.filter(pk=player_id, kind=Player.Kind.HUMAN, user__isnull=False).exists():
        return None
    key = key or f"{kind}:" + ":".join(f"{k}={payload[k]}" for k in sorted(payload))
    pushed = PushDevice.objects.filter(player_id=player_id).exists()
    return _record(player_id=player_id, kind=kind, payload=payload, key=key, pushed=pushed)


def _record(
    *, player_id: int, kind: str, payload: dict[str, Any], key: str, pushed: bool
) -> Notification | None:
    """The write half of ``notify``, for a caller that knows ``player_id`` is a human with an
    account and whether they have a push device (``pushed``)."""
    try:
        with transaction.atomic():
            row = Notification.objects.create(
                player_id=player_id, kind=kind, payload=payload, key=key[:120]
            )
    except IntegrityError:
        return None
    transaction.on_commit(
        lambda: _after_commit(
            pk=row.pk,
            player_id=player_id,
            kind=kind,
            payload=payload,
            created_at=row.created_at,
            pushed=pushed,
        ),
        robust=True,
    )
    return row


def _after_commit(
    *,
    pk: int,
    player_id: int,
    kind: str,
    payload: dict[str, Any],
    created_at: datetime,
    pushed: bool,
) -> None:
    """A committed inbox row goes out on the player's socket and, if they have a device, to
    the delivery task."""
    frame = {
        "type": "notification",
        "notification": notification_json(
            pk=pk, kind=kind, payload=payload, created_at=created_at, read=False
        ),
    }
    publish_group(
        group=player_group(player_id), message={"type": "me.notification", "frame": frame}
    )
    if pushed:
        enqueue_now(push_deliver, pk)


def notify_players(
    *, player_ids: Iterable[int | None], kind: str, payload: dict[str, Any], key: str
) -> None:
    """``notify`` each of ``player_ids`` once (``None`` and repeats skipped)."""
    for player_id in sorted({pid for pid in player_ids if pid is not None}):
        notify(player_id=player_id, kind=kind, payload=payload, key=key)


def _human_seats(match_id: int) -> list[tuple[int, int]]:
    """(position, player id) of the match's seats held by humans."""
    return list(
        Seat.objects.filter(match_id=match_id, player__kind=Player.Kind.HUMAN)
        .order_by("position")
        .values_list("position", "player_id")
    )


# --- one function per kind --------------------------------------------------------------------


#: ``your_turn`` in one statement: the inbox row for the seat's player if a human with an
#: account holds it (none twice for one key), answering its id, the player and whether they
#: have a device to push to. It is on every move's path: no ORM, no savepoint, and its answer
#: is read after commit, so that it reaches the database with the move's own writes.
_YOUR_TURN_SQL = (
    "INSERT INTO games_notification (player_id, kind, payload, key, created_at) "
    "SELECT s.player_id, %s, %s, %s, %s FROM games_seat s "
    "JOIN games_player p ON p.id = s.player_id JOIN auth_user u ON u.id = p.user_id "
    "WHERE s.match_id = %s AND s.position = %s AND p.kind = %s "
    "ON CONFLICT (player_id, key) DO NOTHING "
    "RETURNING id, player_id, EXISTS (SELECT 1 FROM games_pushdevice d "
    "WHERE d.player_id = games_notification.player_id)"
)


def your_turn_notify(*, match: Match, seat: int | None, moved_by_seat: int | None) -> None:
    """After a move (or the start) of ``match`` at its current version: tell ``seat``, the seat
    to move, if a human holds it and did not just move. Once per match version."""
    if seat is None or seat == moved_by_seat or seat in (match.bot_seats or []):
        return
    payload = kinds.your_turn(match_id=match.pk, seat=seat)
    created_at = timezone.now()
    payload_field = Notification._meta.get_field("payload")
    # With the move's writes (games/rows.py), answered by the commit.
    returned = rows.returning(
        Notification._meta.db_table,
        _YOUR_TURN_SQL,
        [
            "your_turn",
            prepared_value(payload_field, payload),
            f"your_turn:{match.pk}:{match.version}",
            created_at,
            match.pk,
            seat,
            Player.Kind.HUMAN,
        ],
    )

    def sent() -> None:
        row = returned.fetchone()
        if row is not None:
            _after_commit(
                pk=row[0],
                player_id=row[1],
                kind="your_turn",
                payload=payload,
                created_at=created_at,
                pushed=bool(row[2]),
            )

    transaction.on_commit(sent, robust=True)


def invited_notify(*, player_id: int, match_id: int, by_player_id: int) -> None:
    """``by_player_id`` invited ``player_id`` to ``match_id`` (the invitations' call)."""
    notify(
        player_id=player_id,
        kind="invited",
        payload=kinds.invited(match_id=match_id, by_player_id=by_player_id),
        key=f"invited:{match_id}:{by_player_id}",
    )


def friend_notify(*, kind: str, player_id: int, request_id: int, by_player_id: int) -> None:
    """Friend request ``request_id``: ``by_player_id`` sent it to ``player_id``
    (``friend_request``), or accepted the one ``player_id`` sent (``friend_accepted``)."""
    build = {"friend_request": kinds.friend_request, "friend_accepted": kinds.friend_accepted}
    notify(
        player_id=player_id,
        kind=kind,
        payload=build[kind](request_id=request_id, by_player_id=by_player_id),
        key=f"{kind}:{request_id}",
    )


def match_started_notify(*, match: Match, started_by: int | None) -> None:
    """``match`` started: every human seat but the one who started it."""
    notify_players(
        player_ids=[pid for _, pid in _human_seats(match.pk) if pid != started_by],
        kind="match_started",
        payload=kinds.match_started(match_id=match.pk),
        key=f"match_started:{match.pk}",
    )


def match_over_notify(*, match_id: int) -> None:
    """``match_id`` finished (or finished again after a reopening): every human seat."""
    version = Match.objects.filter(pk=match_id).values_list("version", flat=True).first()
    notify_players(
        player_ids=[pid for _, pid in _human_seats(match_id)],
        kind="match_over",
        payload=kinds.match_over(match_id=match_id),
        key=f"match_over:{match_id}:{version}",
    )


def table_assigned_notify(*, match_id: int, player_ids: Iterable[int | None]) -> None:
    """A stage of an event seated ``player_ids`` at ``match_id``'s table."""
    notify_players(
        player_ids=player_ids,
        kind="table_assigned",
        payload=kinds.table_assigned(match_id=match_id),
        key=f"table_assigned:{match_id}",
    )


def seated_notifications_withdraw(*, match_ids: list[int]) -> None:
    """Take out of their players' inboxes the ``table_assigned`` and ``match_started`` entries
    of ``match_ids``: a stage's tables deleted before they counted (their seating changed)."""
    keys = [f"{kind}:{match_id}" for match_id in match_ids for kind in SEATED_KINDS]
    Notification.objects.filter(key__in=keys).delete()


#: The notifications that send a player to a match they were seated at.
SEATED_KINDS = ("table_assigned", "match_started")


def tables_assigned_notify(*, tables: list[tuple[int, list[int | None]]]) -> None:
    """``table_assigned_notify`` for each (match id, player ids) of a stage's new tables, in
    three statements: who is a human with an account, who has a device, and the inbox rows.
    The keys name matches just made, so none was notified before (no row is skipped, as
    ``_record`` skips a repeat); each row goes out after commit, as ``_record``'s does."""
    everyone = {pid for _match, player_ids in tables for pid in player_ids if pid is not None}
    humans = set(
        Player.objects.filter(
            pk__in=everyone, kind=Player.Kind.HUMAN, user__isnull=False
        ).values_list("pk", flat=True)
    )
    devices = set(
        PushDevice.objects.filter(player_id__in=humans).values_list("player_id", flat=True)
    )
    rows = [
        Notification(
            player_id=player_id,
            kind="table_assigned",
            payload=kinds.table_assigned(match_id=match_id),
            key=f"table_assigned:{match_id}"[:120],
        )
        for match_id, player_ids in tables
        for player_id in sorted({pid for pid in player_ids if pid in humans})
    ]
    with transaction.atomic():
        Notification.objects.bulk_create(rows)
    for row in rows:
        transaction.on_commit(
            partial(
                _after_commit,
                pk=row.pk,
                player_id=row.player_id,
                kind=row.kind,
                payload=row.payload,
                created_at=row.created_at,
                pushed=row.player_id in devices,
            ),
            robust=True,
        )


def round_disputed_notify(*, match: Match, round_number: int, seat: int, by: int) -> None:
    """Seat ``seat`` disputed round ``round_number``: the match's creator and, for an event's
    table, its organiser (not the player who disputed)."""
    from scoring.models import CompetitionMatch

    organisers = CompetitionMatch.objects.filter(match_id=match.pk).values_list(
        "competition__organiser_id", flat=True
    )
    notify_players(
        player_ids=[pid for pid in [match.created_by_id, *organisers] if pid != by],
        kind="round_disputed",
        payload=kinds.round_disputed(match_id=match.pk, round_number=round_number, seat=seat),
        key=f"round_disputed:{match.pk}:{match.version}",
    )


def result_corrected_notify(*, match: Match, round_number: int, by: int | None) -> None:
    """Round ``round_number`` of ``match`` was corrected: its players (not who corrected it)."""
    notify_players(
        player_ids=[pid for _, pid in _human_seats(match.pk) if pid != by],
        kind="result_corrected",
        payload=kinds.result_corrected(match_id=match.pk, round_number=round_number),
        key=f"result_corrected:{match.pk}:{match.version}",
    )
