"""Page shells. Each page's script reads and writes through the JSON API with the player's token
(kept in the browser's local storage), so the web table sees exactly what an app would."""

from __future__ import annotations

from typing import Any

from django.views.generic import TemplateView


class LobbyPage(TemplateView):
    """Register or log in; open matches to join; your matches; create a match."""

    template_name = "games/web/lobby.html"


class TablePage(TemplateView):
    """One match: the board picture, your hand as buttons, legal targets, scores, standings."""

    template_name = "games/web/table.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        context["match_id"] = kwargs["match_id"]
        return context


class PlayerPage(TemplateView):
    """A player's figures, rating trend per game and recent matches."""

    template_name = "games/web/player.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        context["player_id"] = kwargs["player_id"]
        return context


class CompetitionPage(TemplateView):
    """A tournament's or league's standings (for the wall) and its points by stage."""

    template_name = "games/web/competition.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        context["competition_id"] = kwargs["competition_id"]
        return context
