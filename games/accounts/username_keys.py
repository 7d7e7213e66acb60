"""Keeping each account's username key (``username_models.UsernameKey``) with its username.

Connected to the user model's ``post_save`` in ``GamesConfig.ready``, so that accounts made
anywhere (the API, ``createsuperuser``, the admin, a shell) are keyed alike: a username another
account has in another case or form fails to save (``IntegrityError``), and the API's
registration turns that into 409 ``username_taken``.
"""

from __future__ import annotations

from typing import Any

from games.accounts.names import username_key
from games.accounts.username_models import UsernameKey


def username_key_keep(
    sender: Any, instance: Any, created: bool, update_fields: Any = None, **kwargs: Any
) -> None:
    """``post_save`` of a user: write its key when it is new or its username may have changed."""
    if update_fields is not None and "username" not in update_fields:
        return  # e.g. last_login: the username is as it was
    key = username_key(instance.get_username())
    if created:
        UsernameKey.objects.create(user=instance, key=key)
    else:
        UsernameKey.objects.update_or_create(user=instance, defaults={"key": key})
