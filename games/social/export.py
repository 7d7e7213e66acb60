"""A player's friends, friend requests and blocks as their export holds them
(``games.accounts.export``): what is the player's own, never the other side's.

- ``friends``: each friend's id and display name (what every list shows) and since when.
- ``friend_requests``: ``incoming`` and ``outgoing``, every one kept, oldest first. The state
  is what the player knows of it: ``pending``, ``accepted`` (both were told), ``declined`` for
  a request the player declined themselves. A request the other declined (nobody is told) and
  one a block cancelled (either way) read ``closed``, without when: whether the other declined,
  or blocked, is theirs.
- ``blocks``: the players the player blocked. Never who blocked them.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q

from games.social.models import Block, FriendRequest, Friendship

#: The state an export shows for a request the other side closed, or a block cancelled.
CLOSED = "closed"


def _request_row(request: FriendRequest, *, incoming: bool) -> dict[str, Any]:
    other = request.sender if incoming else request.recipient
    state = request.state
    theirs = state == FriendRequest.State.CANCELLED or (
        state == FriendRequest.State.DECLINED and not incoming
    )
    return {
        "id": request.pk,
        "player_id": other.pk,
        "name": other.display_name,
        "state": CLOSED if theirs else state,
        "created_at": request.created_at,
        "answered_at": None if theirs else request.answered_at,
    }


def social_export(*, player_id: int) -> dict[str, Any]:
    """``friends``, ``friend_requests`` (``incoming``, ``outgoing``) and ``blocks`` of
    ``player_id``, as the module's docstring says (four queries)."""
    friendships = (
        Friendship.objects.filter(Q(low_id=player_id) | Q(high_id=player_id))
        .select_related("low", "high")
        .order_by("since", "pk")
    )
    friends = []
    for friendship in friendships:
        friend = friendship.high if friendship.low_id == player_id else friendship.low
        friends.append(
            {"player_id": friend.pk, "name": friend.display_name, "since": friendship.since}
        )
    requests = FriendRequest.objects.select_related("sender", "recipient").order_by(
        "created_at", "pk"
    )
    blocks = (
        Block.objects.filter(blocker_id=player_id)
        .select_related("blocked")
        .order_by("created_at", "pk")
    )
    return {
        "friends": friends,
        "friend_requests": {
            "incoming": [
                _request_row(r, incoming=True) for r in requests.filter(recipient_id=player_id)
            ],
            "outgoing": [
                _request_row(r, incoming=False) for r in requests.filter(sender_id=player_id)
            ],
        },
        "blocks": [
            {"player_id": b.blocked_id, "name": b.blocked.display_name, "created_at": b.created_at}
            for b in blocks
        ],
    }
