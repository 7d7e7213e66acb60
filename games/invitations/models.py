"""An invitation: one seat of one open online match, held for one player or for a link's code."""

from __future__ import annotations

from django.db import models
from django.db.models import Q


class Invitation(models.Model):
    """A seat held for an invitee (``invitee``) or for whoever holds a link's code
    (``code_hash``), until it is accepted, declined, withdrawn or expires (``expires_at``).

    A pending invitation past ``expires_at`` holds nothing: it is marked expired when next
    touched, and by the sweep (``games.invitations.services.invitations_expire``).
    """

    class State(models.TextChoices):
        PENDING = "pending", "Pending"
        ACCEPTED = "accepted", "Accepted"
        DECLINED = "declined", "Declined"
        WITHDRAWN = "withdrawn", "Withdrawn"
        EXPIRED = "expired", "Expired"

    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="invitations")
    position = models.PositiveSmallIntegerField(help_text="The seat held, 0-based.")
    inviter = models.ForeignKey("games.Player", on_delete=models.PROTECT, related_name="+")
    invitee = models.ForeignKey(
        "games.Player",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="invitations",
        help_text="Who is invited; empty for a link (whoever holds its code).",
    )
    code_hash = models.CharField(
        max_length=64, blank=True, default="", help_text="A link's: SHA-256 of its code."
    )
    state = models.CharField(max_length=10, choices=State.choices, default=State.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    closed_at = models.DateTimeField(null=True, blank=True)
    accepted_by = models.ForeignKey(
        "games.Player",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="Who took the seat (a link's taker, or the invitee).",
    )

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            # one hold per seat, one pending invitation per player and match
            models.UniqueConstraint(
                fields=["match", "position"],
                condition=Q(state="pending"),
                name="invitation_one_hold_per_seat",
            ),
            models.UniqueConstraint(
                fields=["match", "invitee"],
                condition=Q(state="pending", invitee__isnull=False),
                name="invitation_one_pending_per_invitee",
            ),
            models.UniqueConstraint(
                fields=["code_hash"], condition=~Q(code_hash=""), name="invitation_code_unique"
            ),
            models.CheckConstraint(
                condition=Q(invitee__isnull=False, code_hash="")
                | Q(invitee__isnull=True) & ~Q(code_hash=""),
                name="invitation_invitee_or_code",
            ),
        ]
        indexes = [
            models.Index(fields=["invitee", "-created_at"], name="invitation_invitee"),
            models.Index(fields=["inviter", "-created_at"], name="invitation_inviter"),
            models.Index(
                fields=["expires_at"],
                condition=Q(state="pending"),
                name="invitation_pending_expiry",
            ),
        ]

    def __str__(self) -> str:
        return f"Invitation {self.pk} to seat {self.position} of match {self.match_id}"
