"""Where an invitee hears of an invitation."""

from __future__ import annotations

from games.invitations.models import Invitation
from games.notifications.services import invited_notify


def notify_invited(invitation: Invitation) -> None:
    """Tell ``invitation``'s invitee that a seat is held for them (an ``invited`` notification:
    their inbox, ``/ws/me/`` and their push devices). Called once the invitation is committed;
    a link's invitation has nobody to tell."""
    if invitation.invitee_id is None:
        return
    invited_notify(
        player_id=invitation.invitee_id,
        match_id=invitation.match_id,
        by_player_id=invitation.inviter_id,
    )
