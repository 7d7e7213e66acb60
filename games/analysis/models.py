"""Rows of the analysis: one per analysed match, and one per hint a seat asked for."""

from __future__ import annotations

from django.db import models


class MatchAnalysis(models.Model):
    """The analysis of a finished online match: every human move valued (``games.analysis``).

    Written slice by slice by the analysis task: ``moves`` grows, ``done`` counts the moves of
    the log looked at, until ``status`` is ``done``.
    """

    class Status(models.TextChoices):
        RUNNING = "running", "Running"
        DONE = "done", "Done"

    match = models.OneToOneField(
        "games.Match", on_delete=models.CASCADE, primary_key=True, related_name="analysis"
    )
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.RUNNING)
    total = models.PositiveIntegerField(help_text="Moves in the match's log.")
    done = models.PositiveIntegerField(default=0, help_text="Moves of the log looked at so far.")
    moves = models.JSONField(
        default=list, blank=True, help_text="Each human move's analysis, in order (its seq)."
    )
    queued_at = models.DateTimeField(help_text="When its task was last queued (the sweeper's).")
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    cpu_seconds = models.FloatField(default=0.0, help_text="Worker CPU time spent on it.")

    class Meta:
        indexes = [
            models.Index(
                fields=["queued_at"],
                condition=models.Q(status="running"),
                name="analysis_running_queued",
            )
        ]

    def __str__(self) -> str:
        return f"Analysis of match {self.match_id} ({self.status})"


class HintUse(models.Model):
    """A hint a seat was given: one per seat and position (``move_no``, the moves played)."""

    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="hint_uses")
    seat = models.PositiveSmallIntegerField()
    move_no = models.PositiveIntegerField(help_text="The match's moves played when it was asked.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["match", "seat", "move_no"], name="hint_use_one_per_position"
            )
        ]

    def __str__(self) -> str:
        return f"Hint for seat {self.seat} of match {self.match_id} at move {self.move_no}"
