"""Whether a player's record may be shown to the caller: the check every view of one player's
figures makes first (history, statistics, rating changes and their chart, head-to-head)."""

from __future__ import annotations

from typing import Any

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


def seat_ratings_shown(request: Request, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """History rows (``history_rows``) with the rating change of each seat whose player does
    not show their record to the caller taken out (null): their name and result at the table
    stay, their rating does not."""
    seated = {seat["player_id"] for row in rows for seat in row["seats"]}
    hidden = games_port().hidden_profiles(player_ids=seated, user=request.user)
    for row in rows:
        for seat in row["seats"]:
            if seat["player_id"] in hidden:
                seat["rating"] = None
    return rows
