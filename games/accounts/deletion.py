"""Deleting an account: the person goes, their record stays under an anonymous name.

The user row goes (and with it the username's key, so the username is free again, every token,
every known device, the notifications, their preferences and the push devices, their
friendships, friend requests and blocks, and the log-in lockout's entries for the username),
and so does the uploaded avatar; the player row stays, with no user, no address and the display
name ``Deleted player <id>``, so that every result, standing and rating it holds is as it was,
and nobody else's changes. An organiser of a competition not yet finished is refused (409
``still_organising``): its players need it run to the end (hand it over, or finish it, first).
"""

from __future__ import annotations

import unicodedata

from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext as _

from games.accounts.passwords import password_check
from games.avatars.services import avatar_remove
from games.models import (
    DeviceToken,
    Notification,
    NotificationPreference,
    Player,
    PushDevice,
)
from games.problems import StillOrganising
from games.social.services import social_forget
from scoring.models import Competition


def deleted_name(player_id: int) -> str:
    """The name a deleted account's player shows under."""
    return f"Deleted player {player_id}"


def player_delete(*, user: AbstractBaseUser, password: str, request: HttpRequest) -> Player:
    """Delete ``user``'s account, its password checked first; its player, anonymised."""
    password_check(user=user, password=password, request=request)
    username = user.get_username()
    folded = unicodedata.normalize("NFKC", username).casefold()  # as the lockout counts it
    with transaction.atomic():
        player = Player.objects.select_for_update().get(user_id=user.pk)
        running = list(
            Competition.objects.filter(organiser=player)
            .exclude(status=Competition.Status.FINISHED)
            .order_by("pk")
            .values_list("pk", flat=True)
        )
        if running:
            raise StillOrganising(
                _(
                    "You organise competitions that have not finished (ids %(ids)s): "
                    "finish them before deleting your account."
                )
                % {"ids": ", ".join(str(pk) for pk in running)},
                extra={"competitions": running},
            )
        player.user = None
        player.display_name = deleted_name(player.pk)
        player.email, player.email_verified_at = "", None
        player.is_organiser = False
        player.deleted_at = timezone.now()
        player.save()
        DeviceToken.objects.filter(user_id=user.pk).delete()
        avatar_remove(player=player)  # the person's picture; the record keeps the initials
        # the inbox, its preferences and the push devices: the person's, not the record's
        for kept in (PushDevice, Notification, NotificationPreference):
            kept.objects.filter(player=player).delete()
        social_forget(player_id=player.pk)  # friends, friend requests and blocks, both ways
        for model in (AccessAttempt, AccessFailureLog, AccessLog):
            model.objects.filter(username__in={username, folded}).delete()
        type(user).objects.filter(pk=user.pk).delete()
    return player
