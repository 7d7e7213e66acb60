"""Account mails: verifying an address, resetting a password. Sent by a Celery task, queued
after commit.

The task takes the player's id and the links' base URL, never a token: it makes the token as
it sends (``games.accounts.links``), so no token is in a queue, a log line or a retry's
arguments. It looks at the player as it is *now*: an address changed or verified meanwhile, or
an account deleted, sends nothing (a late or duplicate run is harmless). An SMTP server that
fails or does not answer (``EMAIL_TIMEOUT``) is retried by a worker, 5 times with a backoff.

Each mail has a plain-text body and an HTML alternative, both Django templates
(``games/templates/accounts/email/``): the HTML one escapes what players wrote (their display
name) as every template does.
"""

from __future__ import annotations

import logging
import smtplib
from typing import Any

from celery import Task, shared_task
from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext_lazy, ngettext

from games.accounts.language import player_language
from games.accounts.links import (
    RESET_PATH,
    VERIFY_PATH,
    link,
    reset_token_make,
    reset_uid,
    verify_token_make,
)
from games.enqueue import enqueue_on_commit
from games.models import Player

logger = logging.getLogger(__name__)

VERIFY = "verify_email"
RESET = "password_reset"
SUBJECTS = {
    VERIFY: gettext_lazy("Confirm your e-mail address"),
    RESET: gettext_lazy("Reset your password"),
}


def account_mail_on_commit(*, kind: str, player_id: int, link_base: str) -> None:
    """Send the ``kind`` mail (``VERIFY``, ``RESET``) to ``player_id`` once this commits."""
    enqueue_on_commit(account_mail_send, kind, player_id, link_base)


def account_mail_message(*, kind: str, player: Player, link_base: str) -> EmailMultiAlternatives:
    """The mail of ``kind`` for ``player`` (its token made now), text and HTML, in the player's
    language (``player_language``)."""
    with translation.override(player_language(player)):
        return _message(kind=kind, player=player, link_base=link_base)


def _message(*, kind: str, player: Player, link_base: str) -> EmailMultiAlternatives:
    if kind == VERIFY:
        url = link(link_base, VERIFY_PATH, token=verify_token_make(player=player))
        hours = int(settings.EMAIL_VERIFY_HOURS)
        valid_for = ngettext("%(count)s hour", "%(count)s hours", hours) % {"count": hours}
    else:
        user = player.user
        url = link(link_base, RESET_PATH, uid=reset_uid(user), token=reset_token_make(user=user))
        minutes = int(settings.PASSWORD_RESET_TIMEOUT) // 60
        valid_for = ngettext("%(count)s minute", "%(count)s minutes", minutes) % {"count": minutes}
    context: dict[str, Any] = {
        "name": player.display_name,
        "username": player.user.get_username() if player.user else "",
        "url": url,
        "valid_for": valid_for,
    }
    message = EmailMultiAlternatives(
        subject=str(SUBJECTS[kind]),
        body=render_to_string(f"accounts/email/{kind}.txt", context),
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[player.email],
    )
    message.attach_alternative(
        render_to_string(f"accounts/email/{kind}.html", context), "text/html"
    )
    return message


def _due(kind: str, player: Player | None) -> bool:
    """Is the mail still to be sent to the player as they are now?"""
    if player is None or player.user_id is None or player.deleted_at or not player.email:
        return False
    if kind == VERIFY:
        return player.email_verified_at is None
    return player.email_verified_at is not None and player.user.is_active


@shared_task(bind=True, acks_late=True, max_retries=5)
def account_mail_send(self: Task, kind: str, player_id: int, link_base: str) -> bool:
    """Send the ``kind`` mail to ``player_id`` if it is still due; whether one was sent.

    An SMTP server that fails or does not answer is retried by a worker (a countdown that
    doubles, up to ``COUNTDOWN_MAX_SECONDS``); run eagerly (the embedded default) the failure is
    logged, so the request that committed neither fails nor waits for retries.
    """
    if kind not in SUBJECTS:
        raise ValueError(f"unknown account mail {kind!r}")
    player = Player.objects.select_related("user").filter(pk=player_id).first()
    if not _due(kind, player):
        logger.info("Account mail %s to player %s: no longer due", kind, player_id)
        return False
    try:
        account_mail_message(kind=kind, player=player, link_base=link_base).send()
    except (smtplib.SMTPException, OSError) as error:
        # the error's type only: an SMTP server's reply may repeat what it was sent
        logger.warning(
            "Account mail %s to player %s not sent (%s); %s",
            kind,
            player_id,
            type(error).__name__,
            "not retried (run in-process)" if self.request.is_eager else "retrying",
        )
        if self.request.is_eager:
            return False
        countdown = min(int(settings.COUNTDOWN_MAX_SECONDS), 2**self.request.retries)
        raise self.retry(countdown=max(1, countdown)) from None
    logger.info("Account mail %s sent to player %s", kind, player_id)
    return True
