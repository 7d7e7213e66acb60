"""Known devices: the clients that have logged in to an account with its password.

OWASP's "device cookies": each successful log-in gives its client a signed credential naming
one row here (``games.accounts.devices``). The row is what makes the credential count: deleting
it (a password change or reset deletes every row of the account, and deleting the account
deletes them with it) revokes the credential, whatever its signature says. It also holds the
device's own failed log-ins, which lock that device, and only it, out.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class KnownDevice(models.Model):
    """One client (a browser, an app install) that logged in to ``user`` with the password."""

    id = models.BigAutoField(primary_key=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="known_devices"
    )
    created = models.DateTimeField(auto_now_add=True)
    last_login = models.DateTimeField(
        help_text="Its last successful log-in: the device is forgotten LOGIN_KNOWN_DEVICE_DAYS "
        "after it."
    )
    failures = models.PositiveIntegerField(
        default=0,
        help_text="Failed log-ins with its credential since failed_since; at LOGIN_FAILURE_LIMIT "
        "within the cool-off the device is locked (treated as unknown) until the cool-off ends.",
    )
    failed_since = models.DateTimeField(
        null=True, blank=True, help_text="The first of those failures."
    )

    class Meta:
        ordering = ("-last_login", "-id")

    def __str__(self) -> str:
        return f"device {self.pk} of {self.user}"
