"""Writes of friends and blocks: send, accept and decline a friend request, end a friendship,
block and unblock.

Each write runs in one transaction and first locks the two players' rows, in id order
(``_pair_lock``): a request, an accept and a block of one pair queue up, so none of them acts on
what another is changing (an accept cannot make friends of two players a block is parting). At
most one request of a pair is pending (a unique index on the pair, whichever way it goes): on
a database without row locks (SQLite), the second of two requests sent at once fails on the
index, and reads again. A request sent to someone who
has one pending to the sender accepts theirs: the two become friends at once (docs/api.md,
"Friends and blocks").
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from chickenfoot.problems import InvalidInput
from games.invitations.services import invitations_withdraw_between
from games.models import Player
from games.notifications.services import friend_notify
from games.selectors import MAX_ID
from games.social.blocks import block_refuse
from games.social.friends import are_friends, pair, pending_between
from games.social.models import Block, FriendRequest, Friendship
from games.social.problems import (
    AlreadyFriends,
    BlockNotFound,
    FriendNotFound,
    FriendRequestClosed,
    FriendRequestNotFound,
    TooManyFriendRequests,
)
from scoring.problems import PlayerNotFound


@dataclass(frozen=True)
class Sent:
    """What sending a request did: ``request`` written now (``created``), the same request
    pending already, or the other's pending request accepted (``request.state`` accepted)."""

    request: FriendRequest
    created: bool


def befriendable(*, player_id: int) -> Player | None:
    """The player ``player_id`` if they can have friends: a person with an account, not
    deleted (never a bot or a guest)."""
    if not 0 < player_id <= MAX_ID:
        return None
    return Player.objects.filter(
        pk=player_id, kind=Player.Kind.HUMAN, user__isnull=False, deleted_at__isnull=True
    ).first()


def _recipient(*, sender: Player, player_id: int) -> Player:
    """The player a request names; 400 ``invalid`` naming ``player_id`` when it names nobody
    who can be asked (no player, a bot, a guest, a deleted account, the sender)."""
    if player_id == sender.pk:
        raise InvalidInput({"player_id": [_("You cannot send a friend request to yourself.")]})
    recipient = befriendable(player_id=player_id)
    if recipient is None:
        raise InvalidInput(
            {
                "player_id": [
                    _("There is no player %(player_id)s to be friends with.")
                    % {"player_id": player_id}
                ]
            }
        )
    return recipient


def friend_request_send(*, sender: Player, player_id: int) -> Sent:
    """``sender`` asks ``player_id`` to be friends (the recipient is notified: the inbox row
    in the same transaction, the socket and the push after commit).
    Sent again while it is pending: the same request, nothing written. Crossing a request the
    recipient sent: theirs is accepted, and they are told (``friend_accepted``)."""
    recipient = _recipient(sender=sender, player_id=player_id)
    for attempt in range(2):
        try:
            with transaction.atomic():
                return _send(sender=sender, recipient=recipient)
        except IntegrityError:
            if attempt:  # the pair's pending request was written meanwhile, twice over
                raise
    raise AssertionError("unreachable")


def _pair_lock(a: int, b: int) -> None:
    """Lock the two players' rows, the lower id first, until the transaction ends."""
    list(Player.objects.select_for_update().filter(pk__in=(a, b)).order_by("pk").values("pk"))


def _send(*, sender: Player, recipient: Player) -> Sent:
    _pair_lock(sender.pk, recipient.pk)
    block_refuse(player=sender, other=recipient)
    pending = pending_between(sender.pk, recipient.pk)
    if are_friends(sender.pk, recipient.pk):
        raise AlreadyFriends(
            _("You and %(name)s are friends already.") % {"name": recipient.display_name}
        )
    if pending is not None and pending.sender_id == sender.pk:
        return Sent(request=pending, created=False)
    if pending is not None:
        _accept(request=pending)
        return Sent(request=pending, created=False)
    waiting = FriendRequest.objects.filter(sender=sender, state=FriendRequest.State.PENDING)
    limit = settings.FRIEND_REQUESTS_PENDING_MAX
    if waiting.count() >= limit:
        raise TooManyFriendRequests(
            _(
                "You have %(limit)s friend requests waiting for an answer: wait for some, or "
                "ask again later."
            )
            % {"limit": limit}
        )
    low, high = pair(sender.pk, recipient.pk)
    request = FriendRequest.objects.create(sender=sender, recipient=recipient, low=low, high=high)
    friend_notify(
        kind="friend_request",
        player_id=recipient.pk,
        request_id=request.pk,
        by_player_id=sender.pk,
    )
    return Sent(request=request, created=True)


def _accept(*, request: FriendRequest) -> None:
    """Make the pair friends and mark ``request`` accepted; its sender is told (the inbox row
    with this transaction's writes, the socket and the push after commit)."""
    request.state = FriendRequest.State.ACCEPTED
    request.answered_at = timezone.now()
    request.save(update_fields=["state", "answered_at"])
    Friendship.objects.get_or_create(low_id=request.low, high_id=request.high)
    friend_notify(
        kind="friend_accepted",
        player_id=request.sender_id,
        request_id=request.pk,
        by_player_id=request.recipient_id,
    )


def _request_of(*, request_id: int, recipient: Player) -> FriendRequest:
    """The request ``request_id`` sent to ``recipient``, read after its pair's lock (404 for
    any other)."""
    sender_id = None
    if 0 < request_id <= MAX_ID:
        sender_id = (
            FriendRequest.objects.filter(pk=request_id, recipient=recipient)
            .values_list("sender_id", flat=True)
            .first()
        )
    request = None
    if sender_id is not None:
        _pair_lock(sender_id, recipient.pk)
        request = FriendRequest.objects.get(pk=request_id)
    if request is None:
        raise FriendRequestNotFound(
            _("There is no friend request %(request)s to you.") % {"request": request_id}
        )
    if request.state != FriendRequest.State.PENDING:
        raise FriendRequestClosed(
            _("Friend request %(request)s was %(state)s already.")
            % {"request": request.pk, "state": request.state},
            extra={"state": request.state},
        )
    return request


def friend_request_accept(*, request_id: int, player: Player) -> FriendRequest:
    """``player`` accepts the request ``request_id`` sent to them: the two are friends."""
    with transaction.atomic():
        request = _request_of(request_id=request_id, recipient=player)
        _accept(request=request)
    return request


def friend_request_decline(*, request_id: int, player: Player) -> FriendRequest:
    """``player`` declines the request ``request_id`` sent to them (the sender is not told)."""
    with transaction.atomic():
        request = _request_of(request_id=request_id, recipient=player)
        request.state = FriendRequest.State.DECLINED
        request.answered_at = timezone.now()
        request.save(update_fields=["state", "answered_at"])
    return request


def _friendship_end(*, a: int, b: int) -> int:
    low, high = pair(a, b)
    deleted, _rows = Friendship.objects.filter(low_id=low, high_id=high).delete()
    return deleted


def friend_remove(*, player: Player, friend_id: int) -> None:
    """``player`` and ``friend_id`` are friends no more (404 ``friend_not_found`` if not)."""
    if not (0 < friend_id <= MAX_ID) or not _friendship_end(a=player.pk, b=friend_id):
        raise FriendNotFound(
            _("Player %(player_id)s is not your friend.") % {"player_id": friend_id}
        )


def _blockable(*, blocker: Player, player_id: int) -> Player:
    other = Player.objects.filter(pk=player_id).first() if 0 < player_id <= MAX_ID else None
    if other is None:
        raise PlayerNotFound(_("There is no player %(player_id)s.") % {"player_id": player_id})
    if other.pk == blocker.pk:
        raise InvalidInput({"player_id": [_("You cannot block yourself.")]})
    if other.kind != Player.Kind.HUMAN or other.user_id is None:
        only = _("Only a player with an account can be blocked, not a bot or a guest.")
        raise InvalidInput({"player_id": [only]})
    return other


def block_add(*, blocker: Player, player_id: int) -> tuple[Block, bool]:
    """``blocker`` blocks ``player_id``: their friendship and any pending request between them
    end, and so does any invitation to a seat pending between them, either way (withdrawn once
    the block is written: an accept racing it is refused by ``seat_join``'s block check). The
    block, and whether it is new (blocking again changes nothing)."""
    other = _blockable(blocker=blocker, player_id=player_id)
    with transaction.atomic():
        _pair_lock(blocker.pk, other.pk)
        block, created = Block.objects.get_or_create(blocker=blocker, blocked=other)
        _friendship_end(a=blocker.pk, b=other.pk)
        low, high = pair(blocker.pk, other.pk)
        FriendRequest.objects.filter(
            Q(low=low, high=high), state=FriendRequest.State.PENDING
        ).update(state=FriendRequest.State.CANCELLED, answered_at=timezone.now())
    invitations_withdraw_between(blocker.pk, other.pk)
    return block, created


def block_remove(*, blocker: Player, player_id: int) -> None:
    """``blocker`` unblocks ``player_id`` (404 ``block_not_found`` if they had not blocked
    them). The friendship the block ended does not come back."""
    deleted = 0
    if 0 < player_id <= MAX_ID:
        deleted, _rows = Block.objects.filter(blocker=blocker, blocked_id=player_id).delete()
    if not deleted:
        raise BlockNotFound(
            _("You have not blocked player %(player_id)s.") % {"player_id": player_id}
        )


def social_forget(*, player_id: int) -> None:
    """A deleted account's friendships, friend requests and blocks, both ways, go with the
    person (its record stays under an anonymous name: ``games.accounts.deletion``)."""
    Friendship.objects.filter(Q(low_id=player_id) | Q(high_id=player_id)).delete()
    FriendRequest.objects.filter(Q(sender_id=player_id) | Q(recipient_id=player_id)).delete()
    Block.objects.filter(Q(blocker_id=player_id) | Q(blocked_id=player_id)).delete()
