"""The links account mails carry: what each token says, how long it works, where it points.

- A **verification** token is Django's signing of ``{"p": player id, "e": address folded}``
  (``django.core.signing.dumps``: HMAC-SHA256 with ``SECRET_KEY`` and a salt of its own, and a
  timestamp): it works for ``EMAIL_VERIFY_HOURS`` and only while the address it names is still
  the player's; verifying twice is verifying once.
- A **password-reset** link carries the account's id (``uid``, base64) and a token of Django's
  ``default_token_generator``: it hashes the account's password hash and last log-in, so it
  stops working once the password has changed (it works once), and after
  ``PASSWORD_RESET_TIMEOUT`` seconds.

Neither token is stored: they are checked by recomputing them. Neither is ever logged.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.contrib.auth.tokens import default_token_generator
from django.core import signing
from django.utils.encoding import force_bytes, force_str
from django.utils.http import urlsafe_base64_decode, urlsafe_base64_encode
from django.utils.translation import gettext as _

from games.models import Player
from games.problems import InvalidLink

VERIFY_SALT = "games.accounts.links.verify-email"
VERIFY_PATH = "/account/verify-email"
RESET_PATH = "/account/reset-password"


def address_key(email: str) -> str:
    """An address as compared: without regard to case."""
    return email.strip().casefold()


def verify_token_make(*, player: Player) -> str:
    """A token that verifies ``player``'s current address."""
    payload = {"p": player.pk, "e": address_key(player.email)}
    return signing.dumps(payload, salt=VERIFY_SALT)


def verify_token_read(token: str) -> tuple[int, str]:
    """The player id and folded address ``token`` verifies; ``InvalidLink`` for a token that is
    not one of ours, was altered, or is older than ``EMAIL_VERIFY_HOURS``."""
    try:
        payload = signing.loads(
            token, salt=VERIFY_SALT, max_age=int(settings.EMAIL_VERIFY_HOURS) * 3600
        )
    except signing.SignatureExpired:
        raise InvalidLink(
            _("This verification link has expired: set the address again for a new one.")
        ) from None
    except signing.BadSignature:
        raise InvalidLink(
            _("This is not a verification link of ours (or it was cut short).")
        ) from None
    if not isinstance(payload, dict) or not isinstance(payload.get("p"), int):
        raise InvalidLink(_("This is not a verification link of ours."))
    return payload["p"], str(payload.get("e", ""))


def reset_uid(user: AbstractBaseUser) -> str:
    return urlsafe_base64_encode(force_bytes(user.pk))


def reset_token_make(*, user: AbstractBaseUser) -> str:
    return default_token_generator.make_token(user)


def reset_user(*, uid: str, token: str, for_update: bool = False) -> AbstractBaseUser:
    """The account a reset link's ``uid`` and ``token`` open; ``InvalidLink`` otherwise (an
    unknown account, an altered, expired or used token: one answer for all)."""
    refused = InvalidLink(
        _(
            "This password-reset link does not work (it has expired, or "
            "was used already): ask for a new one."
        )
    )
    try:
        pk = int(force_str(urlsafe_base64_decode(uid)))
    except (ValueError, TypeError, OverflowError):
        raise refused from None
    users = get_user_model().objects.filter(pk=pk, is_active=True)
    user = (users.select_for_update() if for_update else users).first()
    if user is None or not default_token_generator.check_token(user, token):
        raise refused
    return user


def link(base: str, path: str, **params: str) -> str:
    """``<base><path>?<params>``: ``base`` is ``ACCOUNT_LINK_BASE_URL`` or the request's host."""
    return f"{base.rstrip('/')}{path}?{urlencode(params)}"
