"""The table endpoints a scorer link opens: they accept ``Authorization: Scorer <code>`` too."""

from __future__ import annotations

from rest_framework.request import Request

from games.accounts.authentication import PlayerTokenAuthentication
from games.accounts.scorer_authentication import ScorerAuthentication, scorer_of
from games.api.common import GameApi
from games.models import Player
from games.tables.scorer_links import ScorerPrincipal


class ScorerOrPlayerApi(GameApi):
    """A view a player's token or a scorer link's code opens (the link only for its match:
    the view asks ``scorer_check`` or ``match_for_scorer``)."""

    authentication_classes = (ScorerAuthentication, PlayerTokenAuthentication)

    def caller(self, request: Request) -> Player | ScorerPrincipal:
        """The scorer principal, or the signed-in player."""
        scorer = scorer_of(request)
        return scorer if scorer is not None else self.player(request)
