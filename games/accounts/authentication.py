"""Token authentication: the token, its user and their player in one plain query.

Tokens are django-rest-knox's (``games.accounts.token_models.DeviceToken``): the key a client
holds is looked up by its digest: one hash and one indexed query, whose row the process keeps for
``TOKEN_CACHE_SECONDS`` (``token_cache``: the next requests with that token skip the query). Both
``Authorization: Token <key>`` and ``Authorization: Bearer <key>`` are accepted; any other scheme
is refused with 401 ``unsupported_auth_scheme``, naming the accepted ones.

Its own module (not games/api/common.py, which imports DRF's views): DRF's settings name it as
the default authentication, and DRF imports its settings while its views are still loading.
"""

from __future__ import annotations

import binascii
from datetime import timedelta
from functools import cache
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from knox.auth import TokenAuthentication
from knox.crypto import hash_token
from rest_framework import HTTP_HEADER_ENCODING, exceptions
from rest_framework.request import Request

from chickenfoot.i18n.choice import use_player_language
from games import rows
from games.accounts import token_cache
from games.models import DeviceToken, Player

#: The schemes a client may name in ``Authorization`` (compared without regard to case).
ACCEPTED_SCHEMES = ("Token", "Bearer")
#: The same, as compared: in lower case.
ACCEPTED_SCHEMES_LOWER = frozenset(scheme.lower() for scheme in ACCEPTED_SCHEMES)
#: ``last_used`` is written at most this often per token (one small UPDATE, not one per request).
LAST_USED_EVERY = timedelta(minutes=1)

_TOKEN_COLUMNS = ("id", "user_id", "created", "expiry", "last_used")
_USER_COLUMNS = ("id", "is_active", "is_staff", "username")
_PLAYER_COLUMNS = (
    "id",
    "user_id",
    "kind",
    "bot_level",
    "display_name",
    "is_organiser",
    "created_at",
    "language",
    "profile_visibility",
    "time_zone",
    "quiet_hours_start",
    "quiet_hours_end",
)
#: The token (by its digest), its user (the columns the API reads; the rest load on first use)
#: and their player.
_AUTH_SQL = (
    "SELECT t.id, t.user_id, t.created, t.expiry, t.last_used, "
    "u.id, u.is_active, u.is_staff, u.username, "
    "p.id, p.user_id, p.kind, p.bot_level, p.display_name, p.is_organiser, p.created_at, "
    "p.language, p.profile_visibility, p.time_zone, p.quiet_hours_start, p.quiet_hours_end "
    "FROM games_devicetoken t JOIN auth_user u ON u.id = t.user_id "
    "LEFT JOIN games_player p ON p.user_id = u.id WHERE t.digest = %s"
)


_LAST_USED = _TOKEN_COLUMNS.index("last_used")
#: The relations the instances of a lookup are joined by (their ids are in the row already).
_USER_OF_TOKEN = DeviceToken._meta.get_field("user")
_USER_OF_PLAYER = Player._meta.get_field("user")
_PLAYER_OF_USER = _USER_OF_PLAYER.remote_field


@cache
def _user_model() -> type[Any]:
    return get_user_model()


def _row_of(digest: str) -> tuple[Any, ...]:
    """The row of the token of ``digest``: kept from a lookup less than ``TOKEN_CACHE_SECONDS``
    ago in this process (``token_cache``), or read now. AuthenticationFailed if there is none."""
    seconds = settings.TOKEN_CACHE_SECONDS
    row = token_cache.kept(digest, seconds) if seconds else None
    if row is not None:
        return row
    since, read_at = token_cache.generation(), token_cache.now()
    with connection.cursor() as cursor:
        cursor.execute(_AUTH_SQL, [digest])
        row = cursor.fetchone()
    if row is None:
        raise exceptions.AuthenticationFailed(_("Invalid token (unknown, or revoked)."))
    if seconds:
        token_cache.keep(digest, row, row[1], read_at=read_at, since=since)
    return row


def _authorization(request: Request) -> bytes:
    """``Authorization`` as bytes, as DRF's ``get_authorization_header`` gives it, read from
    ``META`` (so that a request whose views read no other header builds no ``request.headers``)."""
    header = request.META.get("HTTP_AUTHORIZATION", b"")
    return header.encode(HTTP_HEADER_ENCODING) if isinstance(header, str) else header


class UnsupportedAuthScheme(exceptions.AuthenticationFailed):
    """An ``Authorization`` header with a scheme other than ``Token`` or ``Bearer``."""

    default_code = "unsupported_auth_scheme"
    title = gettext_lazy("Unsupported authorization scheme")
    extra = {"accepted_schemes": list(ACCEPTED_SCHEMES)}


class PlayerTokenAuthentication(TokenAuthentication):
    """``Authorization: Token <key>`` or ``Bearer <key>``: the user and their player, one query.

    It is on every request's path, so it skips the ORM's query building, and a row kept in the
    process skips the query (its expiry is checked on every request all the same). Each request
    gets instances of its own. ``request.auth`` is the ``DeviceToken`` (its id, user, created,
    expiry and last_used loaded): logout revokes it.
    """

    def authenticate(self, request: Request) -> tuple[Any, DeviceToken] | None:
        header = _authorization(request).split()
        if not header:
            return None
        scheme = header[0].decode("latin-1")
        if scheme.lower() not in ACCEPTED_SCHEMES_LOWER:
            raise UnsupportedAuthScheme(
                _(
                    "The %(scheme)r authorization scheme is not accepted: send "
                    "`Authorization: Bearer <token>` or `Authorization: Token "
                    "<token>`."
                )
                % {"scheme": scheme}
            )
        if len(header) != 2:
            raise exceptions.AuthenticationFailed(
                _("Invalid %(scheme)s header: send the scheme, one space and the token.")
                % {"scheme": scheme}
            )
        return self.authenticate_credentials(header[1], request)

    def authenticate_credentials(
        self, token: bytes, request: Request | None = None
    ) -> tuple[Any, DeviceToken]:
        try:
            digest = hash_token(token.decode("utf-8"))
        except (UnicodeDecodeError, TypeError, binascii.Error):
            raise exceptions.AuthenticationFailed(_("Invalid token.")) from None
        row = _row_of(digest)
        db = connections[DEFAULT_DB_ALIAS]  # ``connection``, looked up once for the three
        t, u = len(_TOKEN_COLUMNS), len(_TOKEN_COLUMNS) + len(_USER_COLUMNS)
        device_token = rows.load(DeviceToken, _TOKEN_COLUMNS, row[:t], db)
        now = timezone.now()
        if device_token.expiry is not None and device_token.expiry <= now:
            DeviceToken.objects.filter(pk=device_token.pk).delete()
            raise exceptions.AuthenticationFailed(_("The token has expired: log in again."))
        if not row[t + 1]:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        user = rows.load(_user_model(), _USER_COLUMNS, row[t:u], db)
        if row[u] is not None:
            player = rows.load(Player, _PLAYER_COLUMNS, row[u:], db)
            # ``user.player = player``, ``player.user = user``: the instances each other's
            _PLAYER_OF_USER.set_cached_value(user, player)
            _USER_OF_PLAYER.set_cached_value(player, user)
            # the player's saved language comes before what the request asked for
            use_player_language(request, player.language)
        _USER_OF_TOKEN.set_cached_value(device_token, user)  # ``device_token.user = user``
        if device_token.last_used is None or now - device_token.last_used >= LAST_USED_EVERY:
            DeviceToken.objects.filter(pk=device_token.pk).update(last_used=now)
            device_token.last_used = now
            # the value as the database gives it back (SQLite: a string) for the kept row
            stored = DeviceToken._meta.get_field("last_used").get_db_prep_value(now, connection)
            token_cache.replace(digest, (*row[:_LAST_USED], stored, *row[_LAST_USED + 1 :]))
        return (user, device_token)

    def authenticate_header(self, request: Request) -> str:
        """The 401 challenge: both schemes (RFC 9110 allows a list)."""
        return ", ".join(ACCEPTED_SCHEMES)
