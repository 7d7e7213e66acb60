"""Every player's ``avatar_url`` and ``avatar_small_url`` wherever a player is shown (a match's
seats, invitations, the leaderboards, histories, head-to-head), absolute, on the host of the
request being answered.

``AvatarBaseMiddleware`` notes the request for the reads below it, and a match socket its own
host for its ``hello`` (``socket_host``): a context variable, each request, thread and task its
own. Outside both (a task, a test calling a selector) the URLs are the paths alone. The URLs
are ``games.avatars.selectors.avatar_paths``: the uploaded picture's content address, else the
default avatar drawn from the initials.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.http.request import split_domain_port, validate_host

from games.avatars.selectors import avatar_paths
from games.models import Player

#: Makes a path absolute on the host being answered.
_ABSOLUTE: ContextVar[Callable[[str], str] | None] = ContextVar("avatar_absolute", default=None)


class AvatarBaseMiddleware:
    """Notes the request being answered, for the avatar URLs its answer carries."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        token = _ABSOLUTE.set(request.build_absolute_uri)
        try:
            return self.get_response(request)
        finally:
            _ABSOLUTE.reset(token)


@contextmanager
def socket_host(scope: Mapping[str, Any]) -> Iterator[None]:
    """Within: avatar URLs on the host a socket (its ASGI ``scope``) was opened on, when
    ``ALLOWED_HOSTS`` allows it (else the paths alone), ``https`` for a ``wss`` socket."""
    headers = dict(scope.get("headers", []))
    host = headers.get(b"host", b"").decode("latin-1")
    domain, _port = split_domain_port(host)
    if not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
        yield
        return
    scheme = "https" if scope.get("scheme") == "wss" else "http"
    token = _ABSOLUTE.set(lambda path: f"{scheme}://{host}{path}")
    try:
        yield
    finally:
        _ABSOLUTE.reset(token)


def _absolute(path: str) -> str:
    absolute = _ABSOLUTE.get()
    return absolute(path) if absolute is not None else path


def avatar_urls_of(player: Player) -> dict[str, str]:
    """``player``'s ``avatar_url`` and ``avatar_small_url`` (their avatar row read with them,
    by ``select_related("avatar")``, where many are shown: no query here)."""
    large, small = avatar_paths(player)
    return {"avatar_url": _absolute(large), "avatar_small_url": _absolute(small)}


#: What a seat without a player shows.
NO_AVATAR: dict[str, Any] = {"avatar_url": None, "avatar_small_url": None}


def avatar_urls_by_id(player_ids: Iterable[int]) -> dict[int, dict[str, str]]:
    """``avatar_urls_of`` for each of ``player_ids`` that names a player, in one query (the
    lists that hold ids and names, not players: the leaderboards, histories, head-to-head)."""
    ids = set(player_ids)
    if not ids:
        return {}
    players = (
        Player.objects.filter(pk__in=ids)
        .select_related("avatar")
        .only("pk", "display_name", "avatar__large", "avatar__small")
    )
    return {player.pk: avatar_urls_of(player) for player in players}
