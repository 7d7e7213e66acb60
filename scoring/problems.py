"""Refusals of the scoring API, rendered as RFC 9457 problem documents by the project's handler.

DRF's exceptions with a code of our own: scoring never imports ``chickenfoot.problems`` (which
imports the engine's errors, i.e. games).
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy
from rest_framework.exceptions import NotFound, PermissionDenied


class PlayerNotFound(NotFound):
    default_code = "player_not_found"
    title = gettext_lazy("No such player")

    def __init__(self, detail: str) -> None:
        super().__init__(detail, code=self.default_code)


class NotOnLeaderboard(NotFound):
    """``?player=`` names a player the leaderboard asked for does not list (unrated in the
    variant, fewer rated matches than ``min_matches``, a guest, or a bot without ``bots``)."""

    default_code = "not_on_leaderboard"
    title = gettext_lazy("Not on this leaderboard")

    def __init__(self, detail: str) -> None:
        super().__init__(detail, code=self.default_code)


class ProfileHidden(PermissionDenied):
    """A player's figures asked by someone their ``profile_visibility`` does not show them to."""

    default_code = "profile_hidden"
    title = gettext_lazy("Profile hidden")

    def __init__(self, detail: str) -> None:
        super().__init__(detail, code=self.default_code)
