"""What a socket authenticates with, read on the sockets' threads (games/live/threads.py)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.utils.translation import gettext as _

from games.live.access import (
    CLOSE_UNAUTHENTICATED,
    Credential,
    Refused,
    authenticated,
    ticket_redeem,
)
from games.live.threads import in_db_thread
from games.models import Player


def credential_of(
    *, headers: Iterable[tuple[bytes, bytes]], query: dict[str, list[str]], ticket_for: int
) -> tuple[Credential, Player | None]:
    """The socket's credential: a ``?ticket=`` for ``ticket_for`` (a match's id, or the player's
    own socket's), or its ``Authorization`` header; with the header, its player too (read with
    the token). ``Refused`` (4401) without either, or with one that does not hold. Blocking: on
    the sockets' threads, alone (``socket_credential``) or with what the socket reads next."""
    ticket = query.get("ticket", [None])[0]
    if ticket is not None:
        credential = ticket_redeem(ticket=ticket, match_id=ticket_for)
        if credential is None:
            raise Refused(
                CLOSE_UNAUTHENTICATED, _("The ticket is invalid, expired or already used.")
            )
        return credential, None
    for name, value in headers:
        if name == b"authorization":
            found = authenticated(value.decode("latin-1"))
            if found is None:
                raise Refused(CLOSE_UNAUTHENTICATED, _("The token is missing, invalid or revoked."))
            return found
    raise Refused(CLOSE_UNAUTHENTICATED, _("Send `Authorization: Token <key>` or a ?ticket=."))


async def socket_credential(
    *, scope: dict[str, Any], query: dict[str, list[str]], ticket_for: int
) -> tuple[Credential, Player | None]:
    """``credential_of`` the socket's headers and query, on the sockets' threads."""
    return await in_db_thread(credential_of)(
        headers=scope.get("headers", []), query=query, ticket_for=ticket_for
    )
