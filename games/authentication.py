"""Token authentication that loads the token's user and their player in one plain query.

Its own module (not games/api/common.py, which imports DRF's views): DRF's settings name it as
the default authentication, and DRF imports its settings while its views are still loading.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection
from rest_framework.authentication import TokenAuthentication
from rest_framework.authtoken.models import Token

from games import rows
from games.models import Player

#: The token's user (the columns the API reads; the rest load on first use) and their player.
_AUTH_SQL = (
    "SELECT u.id, u.is_active, u.is_staff, u.username, "
    "p.id, p.user_id, p.kind, p.bot_level, p.display_name, p.is_organiser, p.created_at "
    "FROM authtoken_token t JOIN auth_user u ON u.id = t.user_id "
    "LEFT JOIN games_player p ON p.user_id = u.id WHERE t.key = %s"
)
_USER_COLUMNS = ("id", "is_active", "is_staff", "username")
_PLAYER_COLUMNS = (
    "id",
    "user_id",
    "kind",
    "bot_level",
    "display_name",
    "is_organiser",
    "created_at",
)


class PlayerTokenAuthentication(TokenAuthentication):
    """``Authorization: Token <key>``: the user and their player in one plain query.

    It is on every request's path, so it skips the ORM's query building; refusals go through
    DRF's own code and messages.
    """

    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        user_model = get_user_model()
        with connection.cursor() as cursor:
            cursor.execute(_AUTH_SQL, [key])
            row = cursor.fetchone()
        if row is None or not row[1]:
            return super().authenticate_credentials(key)  # the standard refusal
        n = len(_USER_COLUMNS)
        user = rows.load(user_model, _USER_COLUMNS, row[:n])
        if row[n] is not None:
            user.player = rows.load(Player, _PLAYER_COLUMNS, row[n:])
        return (user, Token(key=key, user=user))
