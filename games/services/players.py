"""Accounts: registering a human player, logging in, and the bot players seats are given."""

from __future__ import annotations

from django.contrib.auth import authenticate, get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.contrib.auth.password_validation import validate_password
from django.contrib.auth.signals import user_logged_in
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.http import HttpRequest

from chickenfoot.problems import ConflictError
from games.models import DeviceToken, Player
from games.problems import InvalidCredentials
from games.services.tokens import token_issue

BOT_NAMES = {1: "Rookie bot", 2: "Greedy bot", 3: "Shark bot", 4: "Strong bot"}


def player_register(
    *, username: str, password: str, display_name: str = "", device: str = ""
) -> tuple[Player, DeviceToken, str]:
    """Create a user account and its player; the player, and a token for ``device`` and its key.

    Raises Django's ``ValidationError`` for a weak password, ``ConflictError`` for a taken name.
    """
    user_model = get_user_model()
    candidate = user_model(username=username)
    try:
        validate_password(password, user=candidate)
    except ValidationError as weak:  # the password's own problems, under its name
        raise ValidationError({"password": weak.messages}) from None
    try:
        with transaction.atomic():
            user = user_model.objects.create_user(username=username, password=password)
            player = Player.objects.create(
                user=user, kind=Player.Kind.HUMAN, display_name=display_name or username
            )
            token, key = token_issue(user=user, device=device)
    except IntegrityError:
        raise ConflictError(
            f"The username {username!r} is taken.", code="username_taken", title="Username taken"
        ) from None
    return player, token, key


def player_for_user(*, user: AbstractBaseUser) -> Player:
    """The player of ``user``; accounts made outside the API (``createsuperuser``) get one now."""
    try:
        return user.player  # type: ignore[attr-defined,no-any-return]
    except Player.DoesNotExist:
        player, _ = Player.objects.get_or_create(
            user=user, defaults={"kind": Player.Kind.HUMAN, "display_name": user.get_username()}
        )
        return player


def token_obtain(
    *, username: str, password: str, request: HttpRequest, device: str = ""
) -> tuple[Player, DeviceToken, str]:
    """Log in: the player, and a new token for ``device`` and its key (one per login).

    ``request`` is the HTTP request the attempt came in on: the log-in lockout counts failures
    by its address, and refuses a locked-out attempt before the password is checked
    (docs/reliability.md). A success is announced as Django's ``user_logged_in``.
    """
    user = authenticate(request, username=username, password=password)
    if user is None or not user.is_active:
        raise InvalidCredentials("Wrong username or password.")
    user_logged_in.send(sender=type(user), request=request, user=user)
    token, key = token_issue(user=user, device=device)
    return player_for_user(user=user), token, key


def bot_create(*, level: int) -> Player:
    """A bot player for one seat."""
    return Player.objects.create(
        kind=Player.Kind.BOT, bot_level=level, display_name=f"{BOT_NAMES[level]} (level {level})"
    )
