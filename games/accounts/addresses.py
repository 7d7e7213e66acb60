"""Each player's e-mail address: set (a verification mail goes out), verified by its link.

An address is the player's to use once verified: for password resets, and unique then among
verified addresses without regard to case (a partial unique index, ``player_verified_email_
unique``, holds it in the database). An unverified address is only a request to verify it.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext as _

from games.accounts.links import address_key, verify_token_read
from games.accounts.mail import VERIFY, account_mail_on_commit
from games.models import Player
from games.problems import EmailTaken, InvalidLink


def _taken(email: str, *, other_than: int | None) -> bool:
    verified = Player.objects.annotate(folded=Lower("email")).filter(
        folded=email.lower(), email_verified_at__isnull=False
    )
    if other_than is not None:
        verified = verified.exclude(pk=other_than)
    return verified.exists()


def _refused(email: str) -> EmailTaken:
    return EmailTaken(_("Another account has verified the address %(email)r.") % {"email": email})


def email_set(*, player_id: int, email: str, link_base: str) -> tuple[Player, bool]:
    """Give ``player_id`` the address ``email`` (empty: none), unverified, and send it a
    verification mail after commit; the player and whether a mail goes out. The address the
    player has verified already is left as it is (no mail). ``EmailTaken`` when another account
    has verified it."""
    email = email.strip()
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player_id)
        if email and address_key(email) == address_key(player.email) and player.email_verified_at:
            return player, False
        if email and _taken(email, other_than=player.pk):
            raise _refused(email)
        player.email, player.email_verified_at = email, None
        player.save(update_fields=["email", "email_verified_at"])
        if email:
            account_mail_on_commit(kind=VERIFY, player_id=player.pk, link_base=link_base)
    return player, bool(email)


def email_verify(*, player_id: int, token: str) -> Player:
    """Mark ``player_id``'s address verified by the link's ``token``: ``InvalidLink`` for a
    token that is not for this player and their current address (or has expired),
    ``EmailTaken`` if another account verified the address meanwhile. Twice is once."""
    token_player, folded = verify_token_read(token)
    try:
        with transaction.atomic():
            player = Player.objects.select_for_update().get(pk=player_id)
            if token_player != player.pk or folded != address_key(player.email) or not folded:
                raise InvalidLink(
                    _(
                        "This verification link is not for your account's current "
                        "address: set the address again for a new one."
                    )
                )
            if player.email_verified_at is None:
                if _taken(player.email, other_than=player.pk):
                    raise _refused(player.email)
                player.email_verified_at = timezone.now()
                player.save(update_fields=["email_verified_at"])
    except IntegrityError:  # verified elsewhere between the check and the write
        raise _refused(folded) from None
    return player
