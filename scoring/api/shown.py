"""Whether a player's record may be shown to the caller: the check every view of one player's
figures makes first (history, statistics, rating changes and their chart, head-to-head)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from rest_framework.request import Request

from scoring.ports import games_port
from scoring.problems import PlayerNotFound, ProfileHidden
from scoring.selectors import player_exists


def player_shown_check(request: Request, player_id: int) -> None:
    """404 ``player_not_found`` when ``player_id`` names no player; 403 ``profile_hidden``
    when their ``profile_visibility`` does not show their record to the caller (the games
    app decides: ``games.profiles.visibility``). A player always sees their own."""
    if not player_exists(player_id=player_id):
        raise PlayerNotFound(_("There is no player %(player_id)s.") % {"player_id": player_id})
    if games_port().profile_hidden(player_id=player_id, user=request.user):
        raise ProfileHidden(
            _("Player %(player_id)s does not show their record to you.") % {"player_id": player_id}
        )
