"""A socket's texts are in its language: the handshake's cookie or Accept-Language, and once
the socket knows its player, their saved language first (chickenfoot/i18n/sockets.py)."""

from __future__ import annotations

import pytest
from channels.testing import WebsocketCommunicator
from django.utils import translation

from chickenfoot.asgi import application
from chickenfoot.i18n.sockets import handshake_language
from tests.games.live import TIMEOUT, next_frame

REFUSAL = "Send `Authorization: Token <key>` or a ?ticket=."


def translated(language: str) -> str:
    with translation.override(language):
        return translation.gettext(REFUSAL)


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["lo", "th", "hy", "ceb"])
async def test_a_refusal_is_in_the_language_the_handshake_asks_for(language: str) -> None:
    headers = [(b"accept-language", f"{language},en;q=0.5".encode())]
    socket = WebsocketCommunicator(application, "/ws/matches/1", headers=headers)
    connected, _ = await socket.connect(timeout=TIMEOUT)
    assert connected
    closing = await next_frame(socket)
    assert closing["type"] == "closing"
    assert closing["detail"] == translated(language) != REFUSAL
    await socket.disconnect()


def test_the_cookie_comes_before_accept_language_and_english_is_the_default() -> None:
    both = {"headers": [(b"cookie", b"django_language=hy"), (b"accept-language", b"th")]}
    assert handshake_language(both) == "hy"
    assert handshake_language({"headers": [(b"accept-language", b"th-TH,th;q=0.9")]}) == "th"
    assert handshake_language({"headers": [(b"accept-language", b"fr, de;q=0.5")]}) == "en"
    assert handshake_language({"headers": [(b"cookie", b"django_language=xx; a")]}) == "en"
    assert handshake_language({}) == "en"
