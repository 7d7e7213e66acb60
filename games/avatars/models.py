"""A player's uploaded avatar: the content addresses of its two WebP files in the avatar
storage (``games.avatars.storage``). A player without a row has the default avatar, drawn from
their initials (``games.avatars.initials``)."""

from __future__ import annotations

from django.db import models


class PlayerAvatar(models.Model):
    """The picture ``player`` uploaded, as served: each size's SHA-256 (hex), which is also its
    file's name and its URL's last segment. Two players who upload the same picture share its
    files; a file goes when no row names it any more."""

    player = models.OneToOneField(
        "games.Player", on_delete=models.CASCADE, primary_key=True, related_name="avatar"
    )
    large = models.CharField(
        max_length=64, db_index=True, help_text="SHA-256 of the 256-pixel WebP file."
    )
    small = models.CharField(
        max_length=64, db_index=True, help_text="SHA-256 of the 64-pixel WebP file."
    )
    uploaded_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"Avatar of player {self.player_id}"
