"""The organiser's hand on a tournament's seating: the pairs kept apart, and every change to a
stage's seating (re-exported by ``scoring.models``).

``KeepApart`` names two entrants who are not seated together when an equally good seating
keeps them apart (docs/scoring.md, "Keep-apart"). ``SeatingChange`` is the audit of a stage's
seating: one row per change the organiser made (who, when, what, why), kept when the stage
itself is undone, and shown in the competition's export.
"""

from __future__ import annotations

from django.db import models
from django.db.models import F, Q


class KeepApart(models.Model):
    """Two entrants the organiser keeps apart (``player_a`` < ``player_b``)."""

    competition = models.ForeignKey(
        "scoring.Competition", on_delete=models.CASCADE, related_name="keep_apart"
    )
    player_a = models.ForeignKey("games.Player", on_delete=models.PROTECT, related_name="+")
    player_b = models.ForeignKey("games.Player", on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["competition", "player_a", "player_b"]
        constraints = [
            models.UniqueConstraint(
                fields=["competition", "player_a", "player_b"], name="keep_apart_once"
            ),
            models.CheckConstraint(
                condition=Q(player_a__lt=F("player_b")), name="keep_apart_ordered_pair"
            ),
        ]

    def __str__(self) -> str:
        return f"Players {self.player_a_id} and {self.player_b_id} apart"


class SeatingChange(models.Model):
    """One change the organiser made to a stage's seating: append-only.

    ``tables`` holds the tables the change touched, before and after (``[{"table", "match_id",
    "before", "after"}]``, seats as player ids in seat order; a table made or deleted has an
    empty side); ``players`` the entrants it was about; ``byes`` the stage's byes before and
    after when they changed; ``clock`` the stage clock's start or stop (a change to the stage,
    not to its seating: the version stays). ``stage_number`` (not a key) keeps the row when
    the stage is undone.
    """

    class Kind(models.TextChoices):
        SWAP = "swap", "Two entrants changed seats"
        MOVE = "move", "An entrant moved to another table"
        REPLACE = "replace", "An entrant took a no-show's seat"
        RE_PAIR = "re_pair", "The stage was paired again"
        LOCK = "lock", "A table was locked"
        UNLOCK = "unlock", "A table was unlocked"
        REOPEN = "reopen", "The seating was reopened after scores were entered"
        UNDO = "undo", "The stage was undone"
        CLOCK = "clock", "The stage clock was started or stopped"

    competition = models.ForeignKey(
        "scoring.Competition", on_delete=models.CASCADE, related_name="seating_changes"
    )
    stage_number = models.PositiveSmallIntegerField()
    version = models.PositiveIntegerField(help_text="The stage's seating version after it.")
    kind = models.CharField(max_length=8, choices=Kind.choices)
    by = models.ForeignKey("games.Player", on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField()
    reason = models.TextField(blank=True, default="", help_text="As the organiser wrote it.")
    players = models.JSONField(default=list, help_text="The entrants it was about.")
    tables = models.JSONField(default=list, help_text="The tables it touched, before and after.")
    byes = models.JSONField(
        null=True, blank=True, help_text="The stage's byes before and after, when they changed."
    )
    clock = models.JSONField(
        null=True,
        blank=True,
        help_text="A clock change: its action (start, stop), minutes and end; else null.",
    )

    class Meta:
        ordering = ["competition", "pk"]
        indexes = [
            models.Index(fields=["competition", "stage_number"], name="seating_change_stage")
        ]

    def __str__(self) -> str:
        return f"{self.kind} of stage {self.stage_number} of competition {self.competition_id}"
