"""The language to write to a player in when no request says (a mail, a push): their saved
preference (``Player.language``, blank for none), else the site's default."""

from __future__ import annotations

from django.conf import settings

from games.models import Player


def player_language(player: Player | None) -> str:
    """``player``'s saved language, or ``settings.LANGUAGE_CODE``."""
    return getattr(player, "language", "") or settings.LANGUAGE_CODE
