"""Reads of invitations: a player's received or sent ones, one of them."""

from __future__ import annotations

from django.db.models import QuerySet

from games.invitations.models import Invitation
from games.models import Player


def invitations_of(*, player: Player, sent: bool = False) -> QuerySet[Invitation]:
    """The invitations ``player`` received (or, with ``sent``, sent), newest first, with
    both players' avatars."""
    mine = Invitation.objects.filter(inviter=player) if sent else player.invitations.all()
    return (
        mine.select_related("match", "inviter__avatar", "invitee__avatar")
        .defer("match__state", "match__seed")
        .order_by("-created_at", "-pk")
    )


def invitation_get(*, invitation_id: int) -> Invitation:
    return Invitation.objects.select_related("match", "inviter__avatar", "invitee__avatar").get(
        pk=invitation_id
    )
