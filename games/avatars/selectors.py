"""Where a player's avatar is: the addresses the API gives (``avatar_url``,
``avatar_small_url``) and the reads behind them."""

from __future__ import annotations

from django.core.exceptions import ObjectDoesNotExist
from django.db.models import Q
from django.urls import reverse

from games.avatars.initials import initials_digest, initials_svg
from games.avatars.models import PlayerAvatar
from games.avatars.storage import file_read
from games.models import Player


def uploaded_avatar(player: Player) -> PlayerAvatar | None:
    """``player``'s uploaded avatar (read with the player by ``select_related("avatar")``
    where many are listed), or None."""
    try:
        return player.avatar
    except ObjectDoesNotExist:
        return None


def avatar_paths(player: Player) -> tuple[str, str]:
    """The paths of ``player``'s avatar at 256 and at 64 pixels: their uploaded files, else
    their default one (an SVG, which draws at any size) at both."""
    uploaded = uploaded_avatar(player)
    if uploaded is not None:
        return (
            reverse("avatar-file", kwargs={"digest": uploaded.large}),
            reverse("avatar-file", kwargs={"digest": uploaded.small}),
        )
    digest = initials_digest(player.display_name, player.pk)
    path = reverse("avatar-initials", kwargs={"player_id": player.pk, "digest": digest})
    return path, path


def avatar_file(*, digest: str) -> bytes | None:
    """The avatar file at ``digest`` while a player's avatar names it; else None (the address
    of an avatar replaced or removed answers nothing, whatever the storage still holds)."""
    named = PlayerAvatar.objects.filter(Q(large=digest) | Q(small=digest)).exists()
    return file_read(digest) if named else None


def initials_avatar(*, player_id: int, digest: str) -> str | None:
    """The default avatar of ``player_id`` when ``digest`` is its address now; else None."""
    player = Player.objects.filter(pk=player_id).only("pk", "display_name").first()
    if player is None or initials_digest(player.display_name, player.pk) != digest:
        return None
    return initials_svg(player.display_name, player.pk)
