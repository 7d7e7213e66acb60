"""Accounts: registering a human player, logging in, and the bot players seats are given."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib.auth import authenticate, get_user_model
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import AbstractBaseUser
from django.contrib.auth.password_validation import validate_password
from django.contrib.auth.signals import user_logged_in
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.http import HttpRequest
from django.utils.translation import gettext as _

from chickenfoot.hashing import password_hashing, refuse_if_busy
from chickenfoot.problems import ConflictError, InvalidInput
from games.accounts import token_cache
from games.accounts.addresses import email_set
from games.accounts.devices import claims_of, device_remember, known_device
from games.accounts.names import (
    BOT_NAMES,
    DISPLAY_NAME_MAX_LENGTH,
    USERNAME_MAX_LENGTH,
    bot_display_name,
    display_name_problem,
    looks_like_a_bot,
    username_key,
    username_normalise,
)
from games.accounts.tokens import token_issue
from games.models import DeviceToken, Player
from games.problems import InvalidCredentials

__all__ = ["BOT_NAMES", "bot_player", "player_for_user", "player_register", "token_obtain"]


def _names_checked(username: str, display_name: str) -> tuple[str, str, dict[str, list[str]]]:
    """The username and display name as they will be stored (NFKC), and what is wrong with them.

    The display name defaults to the username; either may not pass for a bot's name.
    """
    errors: dict[str, list[str]] = {}
    username = username_normalise(username)
    if len(username) > USERNAME_MAX_LENGTH:
        errors["username"] = [
            _(
                "Ensure this field has no more than %(max_length)s characters "
                "(it has %(length)s once normalised)."
            )
            % {"max_length": USERNAME_MAX_LENGTH, "length": len(username)}
        ]
    else:
        try:
            UnicodeUsernameValidator()(username)
        except ValidationError as bad:
            errors["username"] = bad.messages
    shown = username_normalise(display_name.strip()) or username
    if shown == username and "username" in errors:
        pass  # the username's own error says it
    elif len(shown) > DISPLAY_NAME_MAX_LENGTH:
        errors["display_name"] = [
            _("Ensure this field has no more than %(max_length)s characters.")
            % {"max_length": DISPLAY_NAME_MAX_LENGTH}
        ]
    elif problem := display_name_problem(shown):
        errors["display_name"] = [problem]
    elif looks_like_a_bot(shown):
        errors["display_name"] = [
            _("%(name)r looks like a bot's name (bots are %(bots)s): choose another display name.")
            % {
                "name": shown,
                "bots": ", ".join(f"'{bot_display_name(level)}'" for level in BOT_NAMES),
            }
        ]
    return username, shown, errors


def player_register_refused(
    *, body: Mapping[str, Any], errors: dict[str, list[str]]
) -> InvalidInput:
    """400 ``invalid`` for a registration whose own validation found ``errors``, with what the
    name and password checks find in the rest of it, so that every field is answered at once
    (a field keeps the request validation's messages)."""
    found = {name: list(messages) for name, messages in errors.items()}

    def given(name: str) -> str | None:
        value = body.get(name)
        return value if isinstance(value, str) and name not in errors else None

    username, password, display_name = given("username"), given("password"), given("display_name")
    if username is not None or display_name is not None:
        *_, more = _names_checked(username or "", display_name or "")
        if username is None:
            more.pop("username", None)
        for name, messages in more.items():
            found.setdefault(name, messages)
    if password is not None and "password" not in found:
        candidate = get_user_model()(username=username_normalise(username or ""))
        try:
            validate_password(password, user=candidate)
        except ValidationError as weak:
            found["password"] = weak.messages
    return InvalidInput(found)


def player_register(
    *,
    username: str,
    password: str,
    display_name: str = "",
    device: str = "",
    email: str = "",
    link_base: str = "",
) -> tuple[Player, DeviceToken, str, str | None]:
    """Create a user account and its player; the player, a token for ``device`` and its key,
    and the client's device credential (``games.accounts.devices``: it has just set the
    password, so it is a known device of the account from now on).

    The username is stored NFKC-normalised and is unique without regard to case or form
    (``games.accounts.names.username_key``); the display name may not pass for a bot's. Raises
    Django's ``ValidationError`` for a bad name or a weak password (by field), ``ConflictError``
    for a taken name (``EmailTaken`` for an address another account verified), and
    ``chickenfoot.hashing.Busy`` before hashing the password when the
    server is hashing as many as it allows (nothing is written then).
    """
    user_model = get_user_model()
    username, shown, errors = _names_checked(username, display_name)
    candidate = user_model(username=username)
    try:
        validate_password(password, user=candidate)
    except ValidationError as weak:  # the password's own problems, under its name
        errors["password"] = weak.messages
    if errors:
        raise ValidationError(errors)
    with password_hashing():  # before any transaction: the hash holds no lock
        hashed = make_password(password)
    try:
        with transaction.atomic():
            # the account's username key is written with it (games.accounts.username_keys)
            user = user_model(username=username, password=hashed)
            user.save()
            player = Player.objects.create(user=user, kind=Player.Kind.HUMAN, display_name=shown)
            if email:  # unverified until its link is opened: a mail goes out after commit
                email_set(player_id=player.pk, email=email, link_base=link_base)
            token, key = token_issue(user=user, device=device)
            credential = device_remember(user=user, device=None)
    except IntegrityError:
        raise ConflictError(
            _("The username %(username)r is taken.") % {"username": username},
            code="username_taken",
            title=_("Username taken"),
        ) from None
    return player, token, key, credential


def player_for_user(*, user: AbstractBaseUser) -> Player:
    """The player of ``user``; accounts made outside the API (``createsuperuser``) get one now."""
    try:
        return user.player  # type: ignore[attr-defined,no-any-return]
    except Player.DoesNotExist:
        player, _ = Player.objects.get_or_create(
            user=user,
            defaults={
                "kind": Player.Kind.HUMAN,
                "display_name": user.get_username()[:DISPLAY_NAME_MAX_LENGTH],
            },
        )
        return player


def token_obtain(
    *,
    username: str,
    password: str,
    request: HttpRequest,
    device: str = "",
    device_credentials: Sequence[str] = (),
) -> tuple[Player, DeviceToken, str, str | None]:
    """Log in: the player, a new token for ``device`` and its key (one per login), and the
    client's device credential (renewed, or new).

    ``request`` is the HTTP request the attempt came in on: the log-in lockout counts failures
    by its address, and refuses a locked-out attempt before the password is checked
    (docs/reliability.md), and ``chickenfoot.hashing.Busy`` before it when the server is
    hashing as many passwords as it allows. ``device_credentials`` are those the client
    presents: one that is valid for the account named makes the attempt a known device's
    (``games.accounts.devices``), which the account's lockout does not refuse and which hashes
    from the known devices' reserve. A success is announced as Django's ``user_logged_in``. The
    username may be typed in any case or Unicode form.
    """
    claims = claims_of(device_credentials)  # signatures only: a forged one costs no query
    refuse_if_busy(known_device=bool(claims))  # no budget left: refused before any query
    stored, user_id = _username_stored(username)
    known = known_device(claims, user_id=user_id)
    if claims and known is None:
        refuse_if_busy()  # none of them this account's: an unknown client's share
    request.known_device = known  # type: ignore[attr-defined]  (the lockout and the bounds)
    user = authenticate(request, username=stored, password=password)
    if user is None or not user.is_active:
        raise InvalidCredentials(_("Wrong username or password."))
    user_logged_in.send(sender=type(user), request=request, user=user)
    token, key = token_issue(user=user, device=device)
    credential = device_remember(user=user, device=known)
    return player_for_user(user=user), token, key, credential


def _username_stored(typed: str) -> tuple[str, int | None]:
    """The username of the account ``typed`` names (exactly as typed if one has it, else the
    one whose key it shares) and its id; as typed and ``None`` when none does (the password
    check then fails as usual)."""
    typed = username_normalise(typed)
    names = list(
        get_user_model()
        .objects.filter(Q(username=typed) | Q(username_key__key=username_key(typed)))
        .values_list("username", "pk")[:2]
    )
    for name, pk in names:
        if name == typed:
            return name, pk
    return names[0] if names else (typed, None)


def bot_player(*, level: int) -> Player:
    """The one player of bot ``level``: every bot seat at that level sits it (at any number of
    matches at once, and at several seats of one match). Created on first use; the unique
    ``player_one_per_bot_level`` makes two first uses at once end with one row (the loser of
    the insert reads the winner's, in a savepoint of the caller's transaction)."""
    player, _ = Player.objects.get_or_create(
        kind=Player.Kind.BOT,
        bot_level=level,
        defaults={"display_name": f"{BOT_NAMES[level]} (level {level})"},
    )
    return player


def player_language_set(*, player: Player, language: str) -> None:
    """Save the language ``player`` chose (a code of settings.LANGUAGES, or "" for none)."""
    Player.objects.filter(pk=player.pk).update(language=language)
    player.language = language
    if player.user_id is not None:
        token_cache.evict_user(player.user_id)  # the cached lookups carry the player's language
