"""Reads of friendships and friend requests: who are friends, and how two players stand."""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet
from django.db.models.functions import Lower

from games.models import Player
from games.social.blocks import blockers_of, has_blocked
from games.social.cards import Card, player_card
from games.social.models import FriendRequest, Friendship
from games.social.presence import OFFLINE, presence_of


def pair(a: int, b: int) -> tuple[int, int]:
    """The two ids in order: how a pair's rows store it."""
    return (a, b) if a < b else (b, a)


def are_friends(a: int, b: int) -> bool:
    low, high = pair(a, b)
    return Friendship.objects.filter(low_id=low, high_id=high).exists()


def friend_ids_of(player: int) -> set[int]:
    """The ids of ``player``'s friends."""
    rows = Friendship.objects.filter(Q(low_id=player) | Q(high_id=player)).values_list(
        "low_id", "high_id"
    )
    return {high if low == player else low for low, high in rows}


def friends_among(*, player_ids: set[int], viewer_id: int) -> set[int]:
    """Which of ``player_ids`` are ``viewer_id``'s friends (one query)."""
    others = set(player_ids) - {viewer_id}
    if not others:
        return set()
    rows = Friendship.objects.filter(
        Q(low_id=viewer_id, high_id__in=others) | Q(high_id=viewer_id, low_id__in=others)
    ).values_list("low_id", "high_id")
    return {high if low == viewer_id else low for low, high in rows}


def friendships_of(player: int) -> QuerySet[Friendship]:
    """``player``'s friendships, the newest first (each with both players loaded)."""
    return (
        Friendship.objects.filter(Q(low_id=player) | Q(high_id=player))
        .select_related("low", "high")
        .order_by("-since", "-pk")
    )


def pending_between(a: int, b: int) -> FriendRequest | None:
    """The pending request between ``a`` and ``b``, whichever way it goes."""
    low, high = pair(a, b)
    return FriendRequest.objects.filter(low=low, high=high, state="pending").first()


def requests_pending(*, player: int, incoming: bool) -> QuerySet[FriendRequest]:
    """``player``'s pending requests, received (``incoming``) or sent, the newest first."""
    mine = Q(recipient_id=player) if incoming else Q(sender_id=player)
    return (
        FriendRequest.objects.filter(mine, state=FriendRequest.State.PENDING)
        .select_related("sender__avatar", "recipient__avatar")
        .order_by("-created_at", "-pk")
    )


def relationship(*, viewer_id: int, player_id: int) -> dict[str, Any]:
    """How ``viewer_id`` stands with ``player_id``, as the profile shows it: ``friend``, a
    pending ``friend_request`` (its id and whether it is ``incoming`` or ``outgoing``), and
    ``blocked`` (the viewer blocked them; whether they blocked the viewer is theirs to keep).
    Nothing for the viewer's own profile."""
    if viewer_id == player_id:
        return {"friend": False, "friend_request": None, "blocked": False}
    pending = pending_between(viewer_id, player_id)
    request = None
    if pending is not None:
        direction = "outgoing" if pending.sender_id == viewer_id else "incoming"
        request = {"id": pending.pk, "direction": direction}
    return {
        "friend": are_friends(viewer_id, player_id),
        "friend_request": request,
        "blocked": has_blocked(blocker=viewer_id, blocked=player_id),
    }


def request_json(request: FriendRequest, card: Card = player_card) -> dict[str, Any]:
    """A friend request as the API shows it (each player by ``card``)."""
    return {
        "id": request.pk,
        "sender": card(request.sender),
        "recipient": card(request.recipient),
        "state": request.state,
        "created_at": request.created_at,
        "answered_at": request.answered_at,
    }


def requests_json(*, player: int, card: Card = player_card, listed: int = 100) -> dict[str, Any]:
    """``player``'s pending requests, both ways, the newest ``listed`` of each."""
    incoming = requests_pending(player=player, incoming=True)
    outgoing = requests_pending(player=player, incoming=False)
    return {
        "incoming": [request_json(r, card) for r in incoming[:listed]],
        "incoming_count": incoming.count(),
        "outgoing": [request_json(r, card) for r in outgoing[:listed]],
    }


def friends_by_name(player: int) -> QuerySet[Player]:
    """``player``'s friends by display name, then id."""
    return (
        Player.objects.filter(pk__in=friend_ids_of(player))
        .select_related("avatar")
        .order_by(Lower("display_name"), "pk")
    )


def friends_json(
    *, player: int, page: list[Player], card: Card = player_card
) -> list[dict[str, Any]]:
    """A page of ``player``'s friends: each with when they became friends and their presence
    (``games.social.presence``; never of a player who blocked ``player``, whose friendship the
    block ended)."""
    ids = [friend.pk for friend in page]
    since = {
        (high if low == player else low): at
        for low, high, at in Friendship.objects.filter(
            Q(low_id=player, high_id__in=ids) | Q(high_id=player, low_id__in=ids)
        ).values_list("low_id", "high_id", "since")
    }
    hidden = blockers_of(player)
    presence = presence_of([pid for pid in ids if pid not in hidden])
    return [
        {
            "player": card(friend),
            "since": since.get(friend.pk),
            "presence": presence.get(friend.pk, OFFLINE),
        }
        for friend in page
    ]
