"""Rows of table matches: each round's score entry (append-only), guests' claim codes, and
scorer links."""

from __future__ import annotations

from typing import Any

from django.db import models
from django.db.models import Q


class ScoreEntry(models.Model):
    """One round's scores as someone entered them at the table: append-only.

    ``seats`` is what was entered, per seat in seat order: ``{"seat", "points", "went_out",
    "tiles"}`` (``tiles`` is the hand left, when it was given instead of the points; ``points``
    is then its C-PIPS sum). The round's ``Round.scores`` and scoring's round rows are written
    from it in the same transaction. ``idempotency_key``, ``request_hash`` and ``response``
    answer a retry with the first answer, as a move's do.

    A correction is one more entry for the same round (``before``: the seats it replaces;
    ``reason``: why, as the scorer wrote it): the latest entry of a round is current. Rows are
    never changed nor deleted one by one (``save`` of a stored row and ``delete`` refuse); they
    go only with their match. ``entered_by`` is the player who entered it, null when another
    kind of author did.
    """

    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="score_entries")
    round = models.ForeignKey("games.Round", on_delete=models.CASCADE, related_name="entries")
    number = models.PositiveSmallIntegerField(help_text="The round's number (1-based).")
    entered_by = models.ForeignKey(
        "games.Player",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="score_entries",
        help_text="The player who entered it; empty when a scorer link did.",
    )
    scorer_link = models.ForeignKey(
        "games.ScorerLink",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="entries",
        help_text="The scorer link it was entered with; empty when a player did.",
    )
    seats = models.JSONField(help_text="Per seat: points, went_out, and tiles when given.")
    before = models.JSONField(
        null=True, blank=True, help_text="A correction: the round's seats it replaces."
    )
    reason = models.TextField(blank=True, default="", help_text="A correction: why, as written.")
    version = models.PositiveIntegerField(help_text="The match's version after this entry.")
    created_at = models.DateTimeField(auto_now_add=True)
    idempotency_key = models.CharField(max_length=128, blank=True, default="")
    request_hash = models.CharField(max_length=64, blank=True, default="")
    response = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["match", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["match", "entered_by", "idempotency_key"],
                condition=~Q(idempotency_key=""),
                name="scoreentry_unique_idempotency_key",
            ),
            models.UniqueConstraint(
                fields=["match", "scorer_link", "idempotency_key"],
                condition=~Q(idempotency_key=""),
                name="scoreentry_unique_link_idempotency_key",
            ),
            models.CheckConstraint(
                condition=Q(entered_by__isnull=False, scorer_link__isnull=True)
                | Q(entered_by__isnull=True, scorer_link__isnull=False),
                name="scoreentry_entered_by_player_or_link",
            ),
        ]

    def __str__(self) -> str:
        return f"Scores of round {self.number} of match {self.match_id}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None and not self._state.adding:
            raise TypeError("A score entry is append-only: enter a correction instead.")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise TypeError("A score entry is append-only: it goes only with its match.")


class MatchReopening(models.Model):
    """A competition's organiser reopened a locked table match for corrections (append-only)."""

    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="reopenings")
    reopened_by = models.ForeignKey(
        "games.Player", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    reason = models.TextField(help_text="Why, as the organiser wrote it.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "pk"]

    def __str__(self) -> str:
        return f"Match {self.match_id} reopened"


class GuestClaim(models.Model):
    """A one-time code that moves a guest's seats, entries and history into an account.

    Only the code's SHA-256 is kept. It works once (``redeemed_at``) and until ``expires_at``.
    A code asked for at a seat names the seat (``match``, ``position``); one a competition's
    organiser asked for a guest entrant names neither.
    """

    guest = models.ForeignKey("games.Player", on_delete=models.CASCADE, related_name="claims")
    match = models.ForeignKey(
        "games.Match", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    position = models.PositiveSmallIntegerField(null=True, blank=True)
    code_hash = models.CharField(max_length=64, unique=True, help_text="SHA-256 of the code.")
    created_by = models.ForeignKey("games.Player", on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    redeemed_at = models.DateTimeField(null=True, blank=True)
    redeemed_by = models.ForeignKey(
        "games.Player", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    def __str__(self) -> str:
        return f"Claim of seat {self.position} of match {self.match_id}"


class ScorerLink(models.Model):
    """A capability to score one table match: whoever holds its code may enter and read that
    match's scores, and nothing else, until it is revoked (``revoked_at``).

    Only the code's SHA-256 is kept (the claim codes' hash: games/tables/claims.py). A link of
    an event's table has a ``salt``: its code is derived from the server's secret, the link's
    id and the salt, so that the organiser can print it again (games/tables/scorer_links.py);
    a link without one was shown once.
    """

    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="scorer_links")
    code_hash = models.CharField(max_length=64, unique=True, help_text="SHA-256 of the code.")
    salt = models.CharField(
        max_length=32,
        blank=True,
        default="",
        help_text="An event table's link: the code is derived from it (empty: shown once).",
    )
    created_by = models.ForeignKey("games.Player", on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    last_used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["match", "pk"]

    def __str__(self) -> str:
        return f"Scorer link {self.pk} of match {self.match_id}"


class TableSettings(models.Model):
    """A table match's own settings: who must confirm each round (``confirmation``).

    A match without a row has the defaults (``nobody``).
    """

    class Confirmation(models.TextChoices):
        NOBODY = "nobody", "Nobody"
        ANY_OTHER_SEAT = "any_other_seat", "Any seat with an account but the one who entered it"
        EVERY_SEAT = "every_seat", "Every seat with an account"

    match = models.OneToOneField(
        "games.Match", on_delete=models.CASCADE, related_name="table_settings"
    )
    confirmation = models.CharField(
        max_length=16, choices=Confirmation.choices, default=Confirmation.NOBODY
    )

    def __str__(self) -> str:
        return f"Table settings of match {self.match_id}: {self.confirmation}"


class RoundReview(models.Model):
    """A confirmation, dispute or resolution of a table round's scores: append-only.

    ``entry`` is the score entry it was about (the round's latest when it was made: a
    correction needs confirming again). ``reason`` is a dispute's reason or a resolution's note,
    the user's text as they wrote it (escaped wherever it is shown).
    """

    class Kind(models.TextChoices):
        CONFIRM = "confirm", "Confirmed"
        DISPUTE = "dispute", "Disputed"
        RESOLVE = "resolve", "Resolved"

    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="reviews")
    number = models.PositiveSmallIntegerField(help_text="The round's number (1-based).")
    entry = models.ForeignKey(ScoreEntry, on_delete=models.PROTECT, related_name="reviews")
    kind = models.CharField(max_length=8, choices=Kind.choices)
    player = models.ForeignKey("games.Player", on_delete=models.PROTECT, related_name="+")
    seat = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The reviewer's seat; empty for a creator without one."
    )
    reason = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "number", "pk"]

    def __str__(self) -> str:
        return f"{self.kind} of round {self.number} of match {self.match_id}"
