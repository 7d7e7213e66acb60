"""Passwords: checking the current one, changing it, and resetting it by an e-mailed link.

Changing or resetting a password forgets every known device of the account
(``games.accounts.devices``): their credentials stop counting.

Checking a password (to change it, or to delete the account) goes through Django's
``authenticate``, like a log-in: django-axes counts a wrong one against the username and the
address, and refuses a locked-out attempt before any password is hashed (429 ``locked_out``,
the same lock as logging in). A reset asked for answers the same whether or not an account
matches (no account is revealed); its link goes only to a verified address.
"""

from __future__ import annotations

from django.contrib.auth import authenticate, get_user_model
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import AbstractBaseUser
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models.functions import Lower
from django.http import HttpRequest
from django.utils.translation import gettext as _

from chickenfoot.hashing import password_hashing, refuse_if_busy
from chickenfoot.problems import InvalidInput
from games.accounts.devices import device_remember, devices_forget
from games.accounts.links import reset_user
from games.accounts.mail import RESET, account_mail_on_commit
from games.accounts.names import username_key, username_normalise
from games.models import DeviceToken, Player


def password_check(
    *, user: AbstractBaseUser, password: str, request: HttpRequest, field: str = "password"
) -> None:
    """``InvalidInput`` under ``field`` unless ``password`` is ``user``'s (counted by the
    log-in lockout as a failed log-in; a locked-out account or address is refused as one)."""
    refuse_if_busy()
    checked = authenticate(request, username=user.get_username(), password=password)
    if checked is None or checked.pk != user.pk:
        raise InvalidInput({field: [_("Wrong password.")]})


def _new_password_hashed(password: str, *, user: AbstractBaseUser) -> str:
    try:
        validate_password(password, user=user)
    except ValidationError as weak:
        raise InvalidInput({"new_password": list(weak.messages)}) from None
    with password_hashing():
        return make_password(password)


def password_change(
    *,
    user: AbstractBaseUser,
    current_password: str,
    new_password: str,
    request: HttpRequest,
    keep_token_id: int | None,
) -> tuple[int, str | None]:
    """Set ``user``'s password after checking the current one; every other token of theirs is
    revoked, the one ``keep_token_id`` names (this request's) keeps working. Every known device
    of the account is forgotten (their credentials stop counting), and this client, which has
    just proved the password, is given a new one. How many tokens were revoked, and this
    client's device credential."""
    password_check(user=user, password=current_password, request=request, field="current_password")
    hashed = _new_password_hashed(new_password, user=user)
    with transaction.atomic():
        get_user_model().objects.filter(pk=user.pk).update(password=hashed)
        others = DeviceToken.objects.filter(user_id=user.pk).exclude(pk=keep_token_id)
        revoked, _ = others.delete()
        devices_forget(user_id=user.pk)
        credential = device_remember(user=user, device=None)
    return revoked, credential


def password_reset_request(*, email: str = "", username: str = "", link_base: str) -> None:
    """Mail a reset link to the account ``email`` (verified) or ``username`` names, if there is
    one and its address is verified; nothing otherwise. The caller answers the same either
    way."""
    players = Player.objects.filter(
        email_verified_at__isnull=False, user__isnull=False, user__is_active=True
    )
    if email:
        players = players.annotate(folded=Lower("email")).filter(folded=email.strip().lower())
    else:
        typed = username_normalise(username.strip())
        players = players.filter(user__username_key__key=username_key(typed))
    player = players.only("pk").first()
    if player is not None:
        account_mail_on_commit(kind=RESET, player_id=player.pk, link_base=link_base)


def password_reset_confirm(*, uid: str, token: str, new_password: str) -> int:
    """Set the password of the account a reset link opens, once; every token of that account
    is revoked (every device logs in again), and every known device forgotten (the next log-in
    with the new password makes its client known again). ``InvalidLink`` for a link that does
    not work, ``InvalidInput`` (``new_password``) for a weak password. How many tokens were
    revoked."""
    user = reset_user(uid=uid, token=token)  # before hashing: a bad link costs no hash
    hashed = _new_password_hashed(new_password, user=user)
    with transaction.atomic():
        # under the account's lock, the token checked again: of two uses at once, one works
        user = reset_user(uid=uid, token=token, for_update=True)
        user.password = hashed
        user.save(update_fields=["password"])
        revoked, _ = DeviceToken.objects.filter(user_id=user.pk).delete()
        devices_forget(user_id=user.pk)
    return revoked
