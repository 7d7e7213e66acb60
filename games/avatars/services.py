"""Writes of a player's avatar: an upload replaces it, a removal brings the default back.

The files are written first, then the row that names them, in one transaction; a file that no
row names once it has committed (the one replaced, or the new ones when the row could not be
written) is removed from the storage. Nothing half-written stays behind: a refused upload
writes nothing at all (``games.avatars.images`` decides before anything is stored).
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.db.models import Q

from games.avatars.images import avatar_files
from games.avatars.models import PlayerAvatar
from games.avatars.storage import file_delete, file_save
from games.models import Player


def avatar_set(*, player: Player, body: bytes) -> PlayerAvatar:
    """Make the uploaded picture ``body`` ``player``'s avatar (a problem if it is refused)."""
    files = avatar_files(body)
    large, small = file_save(files.large), file_save(files.small)
    try:
        with transaction.atomic():
            old = PlayerAvatar.objects.select_for_update().filter(player=player).first()
            replaced = [] if old is None else [old.large, old.small]
            avatar, _created = PlayerAvatar.objects.update_or_create(
                player=player, defaults={"large": large, "small": small}
            )
            transaction.on_commit(lambda: unnamed_files_delete(replaced))
    except BaseException:
        unnamed_files_delete([large, small])
        raise
    player.avatar = avatar
    return avatar


def avatar_remove(*, player: Player) -> bool:
    """Remove ``player``'s uploaded avatar (their default one shows again); False when they
    had none."""
    with transaction.atomic():
        old = PlayerAvatar.objects.select_for_update().filter(player=player).first()
        if old is None:
            return False
        old.delete()
        transaction.on_commit(lambda: unnamed_files_delete([old.large, old.small]))
    player._state.fields_cache.pop("avatar", None)  # the row read with the player is gone
    return True


def unnamed_files_delete(digests: Iterable[str]) -> None:
    """Remove from the storage each of ``digests`` that no player's avatar names."""
    wanted = set(digests)
    if not wanted:
        return
    named = PlayerAvatar.objects.filter(Q(large__in=wanted) | Q(small__in=wanted))
    still = {d for row in named.values_list("large", "small") for d in row}
    for digest in sorted(wanted - still):
        file_delete(digest)
