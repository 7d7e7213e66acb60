"""Who sees a player's profile: the player's ``profile_visibility``, read by every view that
shows a player's figures to someone else (the profile, the history, the statistics, the
rating changes and their chart, and head-to-head).

- ``everyone``: every signed-in player (the default).
- ``friends``: the player and their friends (``games.social``): not their other opponents,
  who could otherwise read a record the player chose to keep to few.
- ``nobody``: the player alone.

A hidden profile still shows its name and avatar (``games.profiles.selectors``); the refusals
elsewhere are 403 ``profile_hidden``. A deleted account's record is hidden from everyone: its
anonymous name only. A player always sees their own.
"""

from __future__ import annotations

from games.models import Player
from games.social.friends import are_friends, friends_among


def profile_hidden(*, player: Player, viewer_id: int | None) -> bool:
    """Does the viewer (a player id; ``None``: nobody signed in) see only ``player``'s name
    and avatar?"""
    if viewer_id is not None and player.pk == viewer_id:
        return False
    if player.deleted_at is not None:
        return True
    if player.profile_visibility == Player.Visibility.FRIENDS and viewer_id is not None:
        return not are_friends(player.pk, viewer_id)
    return player.profile_visibility != Player.Visibility.EVERYONE


def profile_hidden_by_id(*, player_id: int, viewer_id: int | None) -> bool:
    """``profile_hidden`` of the player ``player_id`` (one narrow read); an id that names no
    player is not hidden (the caller answers its own 404)."""
    if viewer_id is not None and player_id == viewer_id:
        return False
    row = Player.objects.filter(pk=player_id).only("pk", "deleted_at", "profile_visibility").first()
    return row is not None and profile_hidden(player=row, viewer_id=viewer_id)


def hidden_profiles_of(*, player_ids: set[int], viewer_id: int | None) -> set[int]:
    """Which of ``player_ids`` hide their profile from the viewer (two queries at most): the
    seats of a history whose rating change is not shown."""
    others = set(player_ids) - {viewer_id}
    if not others:
        return set()
    rows = (
        Player.objects.filter(pk__in=others)
        .exclude(profile_visibility=Player.Visibility.EVERYONE, deleted_at__isnull=True)
        .values_list("pk", "profile_visibility", "deleted_at")
    )
    hidden = {
        pk: visibility == Player.Visibility.FRIENDS and not gone for pk, visibility, gone in rows
    }
    to_friends = {pk for pk, friends_only in hidden.items() if friends_only}
    if to_friends and viewer_id is not None:
        hidden_to = to_friends - friends_among(player_ids=to_friends, viewer_id=viewer_id)
        return {pk for pk, friends_only in hidden.items() if not friends_only} | hidden_to
    return set(hidden)
