"""Reads of players as others see them: the profile (``player_profile``) and the search
(``player_search``).

The figures are scoring's own selectors, unchanged: the leaderboard's rank
(``leaderboard_rank``), the statistics (``player_statistics``) and the history rows
(``player_history``, ``history_rows``), so that a profile never disagrees with the leaderboard,
the statistics or the history it summarises.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet
from django.db.models.functions import Lower

from games.accounts.names import username_key
from games.models import Player
from games.profiles.visibility import hidden_profiles_of, profile_hidden
from games.social.friends import relationship
from scoring.selectors import history_rows, leaderboard_rank, player_history, player_statistics

#: How many of a player's latest results a profile shows (their history has the rest).
RECENT_RESULTS = 5
#: The shortest text a search takes: shorter would list half the players.
SEARCH_MIN_LENGTH = 3


def player_profile(*, player: Player, viewer: Player) -> dict[str, Any]:
    """``player`` as ``viewer`` may see them: name, kind, avatar, how the viewer stands with
    them (friends, a pending request, blocked), when they joined, and (unless the profile is
    hidden from ``viewer``) their ratings with their ranks, their figures and their latest
    results, newest first."""
    hidden = profile_hidden(player=player, viewer_id=viewer.pk)
    profile: dict[str, Any] = {
        "id": player.pk,
        "name": player.display_name,
        "kind": player.kind,
        "hidden": hidden,
        **relationship(viewer_id=viewer.pk, player_id=player.pk),
        "joined": None if hidden else player.created_at,
        "ratings": None,
        "statistics": None,
        "recent_results": None,
    }
    if hidden:
        return profile
    figures = player_statistics(player_id=player.pk)
    bots = player.kind == Player.Kind.BOT
    profile["ratings"] = [
        {
            "variant": rating["variant"],
            "display": rating["display"],
            "ordinal": rating["ordinal"],
            "matches": rating["matches"],
            "rank": leaderboard_rank(variant=rating["variant"], player_id=player.pk, bots=bots),
        }
        for rating in figures["ratings"]
    ]
    profile["statistics"] = {
        name: figures[name] for name in ("matches", "wins", "rounds_at_zero", "best_round")
    }
    latest = player_history(player_id=player.pk).order_by("-finished_at", "-id")[:RECENT_RESULTS]
    rows = history_rows(results=latest)
    seated = {seat["player_id"] for row in rows for seat in row["seats"]}
    hidden_seats = hidden_profiles_of(player_ids=seated, viewer_id=viewer.pk)
    for row in rows:
        for seat in row["seats"]:
            if seat["player_id"] in hidden_seats:
                seat["rating"] = None  # their name and result stay; their rating is theirs
    profile["recent_results"] = rows
    return profile


def player_search(*, text: str, viewer: Player) -> QuerySet[Player]:
    """The people ``viewer`` may invite whose username or display name starts with ``text``
    (without regard to case: the username by its folded key, the display name by ``LOWER``),
    by display name, then id. Only people with an account: no guest, no bot (a seat asks for a
    bot by its level), no deleted account, and not the viewer. A player whose profile is not
    shown to everyone is found by their display name only: their username, which they log in
    with, is not confirmed to anyone who guesses it."""
    folded = text.strip()
    by_username = Q(
        user__username_key__key__startswith=username_key(folded),
        profile_visibility=Player.Visibility.EVERYONE,
    )
    return (
        Player.objects.filter(kind=Player.Kind.HUMAN, user__isnull=False, deleted_at__isnull=True)
        .filter(by_username | Q(display_name__istartswith=folded))
        .exclude(pk=viewer.pk)
        .select_related("avatar")
        .order_by(Lower("display_name"), "pk")
    )
