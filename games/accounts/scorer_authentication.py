"""``Authorization: Scorer <code>``: a scorer link's code, for the table endpoints of its match.

Only the views that list ``ScorerAuthentication`` accept the scheme (score entry and correction,
the match view, the round list, the score log, ``GET /api/scorer``); every other view's token
authentication refuses it (401 ``unsupported_auth_scheme``). A code that opens no live link is
401 and counts against the address (throttle scope ``scorer_guess``); past the limit every scorer
code from that address is 429 before it is looked up.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication, get_authorization_header
from rest_framework.request import Request

from chickenfoot.throttles import ScorerGuessThrottle, guesses_counted
from games.tables.scorer_links import ScorerPrincipal, scorer_principal_for

SCHEME = "Scorer"
#: No code is longer (the claim codes' hash ignores blanks and dashes).
MAX_CODE = 32


class ScorerAuthentication(BaseAuthentication):
    """``request.user`` is a ``ScorerPrincipal`` (no player), ``request.auth`` its link's id."""

    def authenticate(self, request: Request) -> tuple[ScorerPrincipal, int] | None:
        header = get_authorization_header(request).split()
        if not header or header[0].decode("latin-1").lower() != SCHEME.lower():
            return None
        with guesses_counted(
            request, (ScorerGuessThrottle,), failures=(exceptions.AuthenticationFailed,)
        ):
            principal = None
            if len(header) == 2 and len(header[1]) <= MAX_CODE:
                try:
                    principal = scorer_principal_for(code=header[1].decode("ascii"))
                except UnicodeDecodeError:
                    principal = None
            if principal is None:
                raise exceptions.AuthenticationFailed(
                    _("Unknown or revoked scorer code: ask the match's creator for a new link.")
                )
        return (principal, principal.link_id)

    def authenticate_header(self, request: Request) -> str:
        return ", ".join(("Token", "Bearer", SCHEME))


def scorer_of(request: Request) -> ScorerPrincipal | None:
    """The scorer principal of a request authenticated with a scorer code, if it was."""
    user: Any = request.user
    return user if isinstance(user, ScorerPrincipal) else None
