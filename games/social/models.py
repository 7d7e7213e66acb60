"""The rows of friends and blocks: a friend request, a friendship, a block."""

from __future__ import annotations

from django.db import models
from django.db.models import F, Q


class FriendRequest(models.Model):
    """``sender`` asks ``recipient`` to be friends. ``low`` and ``high`` are the two player
    ids in order, so that at most one request of a pair is pending, whichever way it goes (a
    unique constraint: two crossing requests sent at once cannot both be written)."""

    class State(models.TextChoices):
        PENDING = "pending", "Pending"
        ACCEPTED = "accepted", "Accepted"
        DECLINED = "declined", "Declined"
        CANCELLED = "cancelled", "Cancelled (a block ended it)"

    sender = models.ForeignKey("games.Player", on_delete=models.CASCADE, related_name="+")
    recipient = models.ForeignKey("games.Player", on_delete=models.CASCADE, related_name="+")
    low = models.BigIntegerField()
    high = models.BigIntegerField()
    state = models.CharField(max_length=9, choices=State.choices, default=State.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["low", "high"],
                condition=Q(state="pending"),
                name="friend_request_one_pending",
            ),
            models.CheckConstraint(condition=Q(low__lt=F("high")), name="friend_request_pair"),
        ]
        indexes = [
            models.Index(
                fields=["recipient", "-created_at"],
                condition=Q(state="pending"),
                name="friend_request_incoming",
            ),
            models.Index(
                fields=["sender", "-created_at"],
                condition=Q(state="pending"),
                name="friend_request_outgoing",
            ),
        ]

    def __str__(self) -> str:
        return f"Friend request {self.sender_id} -> {self.recipient_id} ({self.state})"


class Friendship(models.Model):
    """Two players are friends: one row a pair, ``low`` the smaller id."""

    low = models.ForeignKey("games.Player", on_delete=models.CASCADE, related_name="+")
    high = models.ForeignKey("games.Player", on_delete=models.CASCADE, related_name="+")
    since = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["low", "high"], name="friendship_unique_pair"),
            models.CheckConstraint(condition=Q(low__lt=F("high")), name="friendship_pair"),
        ]
        indexes = [models.Index(fields=["high"], name="friendship_high")]

    def __str__(self) -> str:
        return f"Friends {self.low_id} and {self.high_id}"


class Block(models.Model):
    """``blocker`` blocked ``blocked``: no invitation, friend request, presence, quick play table
    or chat between them (``games.social.blocks``)."""

    blocker = models.ForeignKey("games.Player", on_delete=models.CASCADE, related_name="+")
    blocked = models.ForeignKey("games.Player", on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="block_unique_pair"),
            models.CheckConstraint(condition=~Q(blocker=F("blocked")), name="block_not_self"),
        ]
        indexes = [models.Index(fields=["blocked"], name="block_blocked")]

    def __str__(self) -> str:
        return f"Player {self.blocker_id} blocked {self.blocked_id}"
