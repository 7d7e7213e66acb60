"""The refusals of friends and blocks (docs/errors.md)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy

from chickenfoot.problems import ConflictError, ForbiddenError, NotFoundError


class Blocked(ForbiddenError):
    """One of the two blocked the other: no invitation or friend request between them."""

    code = "blocked"
    title = gettext_lazy("Blocked")


class FriendRequestNotFound(NotFoundError):
    """No friend request of that id was sent to the caller (or by them)."""

    code = "friend_request_not_found"
    title = gettext_lazy("No such friend request")


class FriendRequestClosed(ConflictError):
    """The request was answered already (accepted, declined) or a block ended it; carries
    ``state``."""

    code = "friend_request_closed"
    title = gettext_lazy("Friend request closed")


class AlreadyFriends(ConflictError):
    code = "already_friends"
    title = gettext_lazy("Friends already")


class TooManyFriendRequests(ConflictError):
    """The caller has as many requests waiting for an answer as they may."""

    code = "too_many_friend_requests"
    title = gettext_lazy("Too many friend requests waiting")


class FriendNotFound(NotFoundError):
    code = "friend_not_found"
    title = gettext_lazy("Not a friend")


class BlockNotFound(NotFoundError):
    code = "block_not_found"
    title = gettext_lazy("Not blocked")
