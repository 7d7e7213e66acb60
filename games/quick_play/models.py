"""The quick play queue's rows: one entry per player at a time."""

from __future__ import annotations

from django.db import models
from django.db.models import Q


class QueueEntry(models.Model):
    """A player in a quick play queue (``variant``, ``seat_count``, ``preset``), or matched.

    One row per player (the unique ``player``): joining again while the entry is current answers
    it; once the match it was matched into is over, joining replaces it. ``rating`` is the
    player's display rating in the variant when they joined (1000 unrated: ``presets``);
    ``bots_after_seconds`` is their consent to bots filling the table after that wait (``None``:
    no bots). Pairing sets ``status`` matched, ``match`` and ``matched_at`` under the queue's
    lock (``pairing``).
    """

    class Status(models.TextChoices):
        WAITING = "waiting", "Waiting"
        MATCHED = "matched", "Matched"

    player = models.OneToOneField(
        "games.Player", on_delete=models.CASCADE, related_name="queue_entry"
    )
    variant = models.CharField(max_length=16)
    seat_count = models.PositiveSmallIntegerField()
    preset = models.CharField(max_length=16)
    rating = models.FloatField()
    bots_after_seconds = models.PositiveIntegerField(null=True, blank=True)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.WAITING)
    joined_at = models.DateTimeField()
    match = models.ForeignKey(
        "games.Match", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    matched_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            # A queue's waiting entries, longest waiting first: what pairing and the sweep read.
            models.Index(
                fields=["variant", "seat_count", "preset", "joined_at"],
                condition=Q(status="waiting"),
                name="queue_waiting",
            ),
        ]

    def __str__(self) -> str:
        return f"Queue entry of player {self.player_id} ({self.status})"
