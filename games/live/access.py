"""Who may open a match's socket: the same token and the same rules as the HTTP API.

A socket authenticates with ``Authorization: Bearer <key>`` or ``Token <key>`` (whatever the
games API's authentication classes accept: the socket follows them), or with a ticket from
``POST /api/matches/{id}/ticket`` for clients that cannot set headers (browsers). A ticket is
signed, names its match, expires after ``LIVE_TICKET_SECONDS`` and is good for one connection.
Either way the socket keeps a ``Credential``: the token's database id and its user's, never the
key (the cache holds no more for a ticket). Each heartbeat checks that token row again, so a
token revoked (logout) or expired closes the socket.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.core.cache import cache
from django.db.models import Q
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext as _
from rest_framework.exceptions import APIException
from rest_framework.request import Request

from chickenfoot.cache_outage import CACHE_ERRORS, CacheUnavailable
from games.accounts.authentication import LAST_USED_EVERY
from games.live.threads import thread_cache
from games.models import DeviceToken, Match, Player
from games.problems import MatchNotFound, NotYourMatch
from games.selectors import match_for_player, may_watch
from games.services import player_for_user

logger = logging.getLogger(__name__)

#: Close codes (RFC 6455 leaves 4000-4999 to applications). docs/api.md, "Live", lists them.
CLOSE_MATCH_OVER = 4000
CLOSE_BAD_REQUEST = 4400
CLOSE_UNAUTHENTICATED = 4401
CLOSE_FORBIDDEN = 4403
CLOSE_NO_MATCH = 4404
#: RFC 6455's registered "Try Again Later": the cache holding tickets cannot be reached.
CLOSE_TRY_AGAIN_LATER = 1013

_TICKET_SALT = "games.live.ticket"


class Refused(Exception):
    """The socket is refused (or closed) with ``code``."""

    def __init__(self, code: int, reason: str) -> None:
        super().__init__(reason)
        self.code = code


@dataclass(frozen=True)
class Viewer:
    """Who holds a socket: the player, their seat (``None``: a spectator) and their rights."""

    player: Player
    seat: int | None
    #: May follow the match in play without a seat (an organiser, or the match's creator).
    watches: bool
    #: Read while the match was open: a seat taken since, or the start, may change the view.
    lobby: bool = False


@dataclass(frozen=True)
class Credential:
    """What a socket authenticated with: a token's database id and its user's, never its key."""

    token_id: int
    user_id: int


def authenticated(authorization: str) -> tuple[Credential, Player] | None:
    """The token an ``Authorization`` header names and its player, as the games API would
    authenticate them (one read: the player comes with the token)."""
    from games.api.common import GameApi  # the API imports the live package's ticket service

    if not authorization:
        return None
    http = HttpRequest()
    http.method = "GET"
    http.META["HTTP_AUTHORIZATION"] = authorization
    request = Request(http)
    for authentication in GameApi.authentication_classes:
        try:
            result = authentication().authenticate(request)
        except APIException:
            return None
        if result is not None:
            user, token = result
            if not isinstance(token, DeviceToken):
                return None
            credential = Credential(token_id=token.pk, user_id=user.pk)
            return credential, player_for_user(user=user)
    return None


def tokens_holding(credentials: Iterable[Credential]) -> dict[Credential, bool]:
    """Which credentials' tokens still hold: the row is there (not revoked), for the same user,
    not expired, its user active; in one statement, whatever their number. Marks those not
    marked in ``LAST_USED_EVERY`` as used, as an HTTP request would."""
    wanted = {credential.token_id: credential for credential in credentials}
    now = timezone.now()
    rows = (
        DeviceToken.objects.filter(pk__in=wanted, user__is_active=True)
        .filter(Q(expiry__isnull=True) | Q(expiry__gt=now))
        .values_list("pk", "user_id", "last_used")
    )
    holding: dict[Credential, bool] = dict.fromkeys(wanted.values(), False)
    stale = []
    for token_id, user_id, last_used in rows:
        credential = wanted[token_id]
        if credential.user_id != user_id:
            continue
        holding[credential] = True
        if last_used is None or now - last_used >= LAST_USED_EVERY:
            stale.append(token_id)
    if stale:
        DeviceToken.objects.filter(pk__in=stale).update(last_used=now)
    return holding


def player_for(credential: Credential | None) -> Player | None:
    """The credential's player while its token still holds (``tokens_holding``)."""
    if credential is None or not tokens_holding([credential])[credential]:
        return None
    user = get_user_model().objects.select_related("player").filter(pk=credential.user_id).first()
    return player_for_user(user=user) if user is not None else None


def viewer_for(
    *, credential: Credential | None, match_id: int, player: Player | None = None
) -> Viewer:
    """The socket's viewer, or ``Refused`` with the close code the HTTP API's answer maps to.
    ``player``: the credential's, when it was authenticated just now (``authenticated``)."""
    if player is None:
        player = player_for(credential)
    if player is None:
        raise Refused(CLOSE_UNAUTHENTICATED, _("The token is missing, invalid or revoked."))
    try:
        match, seat = match_for_player(match_id=match_id, player=player)
    except MatchNotFound:
        raise Refused(
            CLOSE_NO_MATCH, _("There is no match %(match_id)s.") % {"match_id": match_id}
        ) from None
    except NotYourMatch:
        raise Refused(
            CLOSE_FORBIDDEN, _("You have no seat at match %(match_id)s.") % {"match_id": match_id}
        ) from None
    return Viewer(
        player=player,
        seat=seat,
        watches=may_watch(match=match, player=player),
        lobby=match.status == Match.Status.OPEN,
    )


def ticket_issue(*, token: DeviceToken, match_id: int) -> str:
    """A ticket for one socket of ``match_id``, standing for ``token`` for a minute.

    The cache keeps the token's id and its user's for the ticket, never the key. Raises
    ``CacheUnavailable`` (503) when the cache cannot be reached.
    """
    nonce = secrets.token_urlsafe(18)
    held = {"token": token.pk, "user": token.user_id}
    try:
        cache.set(f"live:ticket:{nonce}", held, timeout=settings.LIVE_TICKET_SECONDS + 5)
    except CACHE_ERRORS as error:
        raise CacheUnavailable from error
    return signing.dumps({"n": nonce, "m": match_id}, salt=_TICKET_SALT)


def ticket_redeem(*, ticket: str, match_id: int) -> Credential | None:
    """The credential a ticket stands for, once; ``None`` if forged, expired, used or
    misdirected. ``Refused`` (1013, try again later) when the cache cannot be reached."""
    try:
        data: dict[str, Any] = signing.loads(
            ticket, salt=_TICKET_SALT, max_age=settings.LIVE_TICKET_SECONDS
        )
    except signing.BadSignature:  # SignatureExpired is a BadSignature
        return None
    if data.get("m") != match_id:
        return None
    nonce = data.get("n")
    key = f"live:ticket:{nonce}"
    try:
        # The claim is atomic (Redis SET NX): of two connections racing with one ticket, one wins.
        shared = thread_cache()  # on the sockets' threads (games/live/threads.py)
        if not shared.add(f"live:ticket-used:{nonce}", 1, timeout=settings.LIVE_TICKET_SECONDS + 5):
            return None
        held = shared.get(key)
        shared.delete(key)
    except CACHE_ERRORS as error:
        logger.error(
            "Ticket not redeemed: the cache is unavailable: %s: %s", type(error).__name__, error
        )
        raise Refused(
            CLOSE_TRY_AGAIN_LATER, _("Tickets cannot be checked right now: try again later.")
        ) from error
    if not isinstance(held, dict):
        return None
    return Credential(token_id=int(held["token"]), user_id=int(held["user"]))
