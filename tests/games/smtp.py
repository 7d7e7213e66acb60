"""A real SMTP server on a free loopback port (aiosmtpd), and Django's SMTP backend pointed at it.

The mail tasks run eagerly in tests (``tests/conftest.py``), in the test's own process, so the
server the test started is the one they reach, on the embedded default and under CI alike.
"""

from __future__ import annotations

import email
import email.policy
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from email.message import EmailMessage
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from aiosmtpd.controller import Controller

from tests.processes import free_port


@dataclass
class Mailbox:
    """What the server received, in order, parsed."""

    messages: list[EmailMessage] = field(default_factory=list)
    recipients: list[list[str]] = field(default_factory=list)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        parsed = email.message_from_bytes(envelope.content, policy=email.policy.default)
        self.messages.append(parsed)  # type: ignore[arg-type]
        self.recipients.append(list(envelope.rcpt_tos))
        return "250 Message accepted for delivery"


def text_of(message: EmailMessage) -> str:
    body = message.get_body(preferencelist=("plain",)).get_content()  # type: ignore[union-attr]
    return str(body).replace("\r\n", "\n")


def html_of(message: EmailMessage) -> str:
    body = message.get_body(preferencelist=("html",)).get_content()  # type: ignore[union-attr]
    return str(body).replace("\r\n", "\n")


def link_in(message: EmailMessage) -> tuple[str, dict[str, str]]:
    """The link of an account mail (its plain text), and its query's parameters."""
    url = re.search(r"https?://\S+", text_of(message))
    assert url, text_of(message)
    parts = urlsplit(url[0])
    return parts.path, {name: values[0] for name, values in parse_qs(parts.query).items()}


@pytest.fixture(name="smtp")
def smtp_server(settings: Any) -> Iterator[Mailbox]:
    """A running SMTP server; Django sends through it (SMTP backend, no TLS)."""
    mailbox = Mailbox()
    port = free_port()
    controller = Controller(mailbox, hostname="127.0.0.1", port=port)
    controller.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", port
    settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    settings.EMAIL_TIMEOUT = 5
    try:
        yield mailbox
    finally:
        controller.stop()
