"""Each account's username key: what makes usernames unique without regard to case or form.

``auth_user.username`` is unique only as typed ("Ada" and "ada" could both exist, and so could
"ada" and its full-width form). Each account has one ``UsernameKey`` row whose ``key`` (NFKC,
case-folded: ``games.accounts.names.username_key``) is unique in the database, on PostgreSQL and
SQLite alike; logging in looks the key up, so any case works.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class UsernameKey(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        primary_key=True,
        on_delete=models.CASCADE,
        related_name="username_key",
    )
    key = models.CharField(
        max_length=500,
        unique=True,
        help_text=(
            "The username, NFKC-normalised and case-folded (games.accounts.names.username_key)."
        ),
    )

    def __str__(self) -> str:
        return self.key
