"""API tokens: one per device a user logged in from, stored as a hash, expiring, revocable.

django-rest-knox's token (``KNOX_TOKEN_MODEL`` names this one) with an id that is not the
secret, the device name the client gave at login, and when the token was last used. The key a
client holds is never stored: only its SHA-512 digest (the lookup) and its first characters
(``token_key``, which knox's own tools search by).
"""

from __future__ import annotations

from django.db import models
from knox.models import AbstractAuthToken
from knox.settings import CONSTANTS

#: The longest device name a login may give.
DEVICE_MAX_LENGTH = 64


class DeviceToken(AbstractAuthToken):
    """One login's token: ``created``, ``expiry`` (empty: never) and ``user`` come from knox."""

    id = models.BigAutoField(primary_key=True)
    digest = models.CharField(max_length=CONSTANTS.DIGEST_LENGTH, unique=True)
    device = models.CharField(
        max_length=DEVICE_MAX_LENGTH,
        blank=True,
        help_text="The name the client gave when it logged in (e.g. 'Ada's phone').",
    )
    last_used = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the token last authenticated a request (to the minute: "
        "games.accounts.authentication.LAST_USED_EVERY).",
    )

    class Meta:
        ordering = ("-created", "-id")

    def __str__(self) -> str:
        return f"token {self.pk} of {self.user} ({self.device or 'no device name'})"
