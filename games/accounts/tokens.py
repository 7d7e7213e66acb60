"""API tokens: issued at each login (one per device), listed, revoked one by one or all at once."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from games.models import DeviceToken
from games.problems import TokenNotFound


def token_issue(*, user: AbstractBaseUser, device: str = "") -> tuple[DeviceToken, str]:
    """A new token for one device of ``user``: the row and the key (shown once, kept hashed).

    The user's expired tokens go at the same time, so the list stays short without a sweep.
    """
    DeviceToken.objects.filter(user=user, expiry__lte=timezone.now()).delete()
    # "Used" at issue, so the first requests need not write it.
    token, key = DeviceToken.objects.create(user=user, device=device, last_used=timezone.now())
    return token, key


def tokens_of(*, user: AbstractBaseUser) -> QuerySet[DeviceToken]:
    """The user's tokens still valid, newest first."""
    now = timezone.now()
    return DeviceToken.objects.filter(Q(expiry__isnull=True) | Q(expiry__gt=now), user=user)


def token_revoke(*, user: AbstractBaseUser, token_id: int) -> None:
    """Revoke one of ``user``'s tokens; ``TokenNotFound`` for an id that is not theirs."""
    deleted, _by_model = DeviceToken.objects.filter(user=user, pk=token_id).delete()
    if not deleted:
        raise TokenNotFound(_("You have no token %(token_id)s.") % {"token_id": token_id})


def tokens_revoke_all(*, user: AbstractBaseUser) -> int:
    """Revoke every token of ``user`` (log out everywhere); the number revoked."""
    deleted, _by_model = DeviceToken.objects.filter(user=user).delete()
    return deleted
