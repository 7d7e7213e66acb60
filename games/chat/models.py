"""Quick chat's rows: the phrases sent at a match's table, and who muted a match's chat."""

from __future__ import annotations

from django.db import models
from django.utils import timezone


class ChatMessage(models.Model):
    """One phrase a seat sent: append-only. ``seq`` counts the match's chat from 1, without gaps,
    apart from the moves' ``seq`` (a chat frame never moves a match's version or move seq)."""

    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="chat_messages")
    seq = models.PositiveIntegerField(help_text="1, 2, 3… within the match, in commit order.")
    seat = models.PositiveSmallIntegerField(help_text="The sender's seat position.")
    player = models.ForeignKey(
        "games.Player", on_delete=models.CASCADE, related_name="chat_messages"
    )
    phrase = models.CharField(
        max_length=32, help_text="A phrase id of games/chat/phrases.py (docs/api.md, Quick chat)."
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["match", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seq"], name="chat_unique_seq"),
        ]

    def __str__(self) -> str:
        return f"Chat {self.seq} of match {self.match_id}"


class ChatMute(models.Model):
    """``player`` muted ``match``'s chat: they are shown their own phrases only, until they
    unmute (the row is deleted)."""

    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="chat_mutes")
    player = models.ForeignKey("games.Player", on_delete=models.CASCADE, related_name="chat_mutes")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "player"], name="chat_mute_unique"),
        ]

    def __str__(self) -> str:
        return f"Chat of match {self.match_id} muted by {self.player_id}"
