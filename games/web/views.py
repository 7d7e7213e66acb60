"""Page shells. Each page's script reads and writes through the JSON API with the player's token
(kept in the browser's local storage), so the web table sees exactly what an app would."""

from __future__ import annotations

from typing import Any

from django.templatetags.static import static
from django.utils.translation import gettext_lazy
from django.views.generic import RedirectView, TemplateView

from scoring.models import VARIANT_CHOICES

#: The games by name, in the page's language.
VARIANT_NAMES = {
    "chickenfoot": gettext_lazy("Chicken Foot"),
    "mexican_train": gettext_lazy("Mexican Train"),
}


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


class ReplayPage(TemplateView):
    """A finished match move by move: the board, every hand face up, each move's mark."""

    template_name = "games/web/replay.html"

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


class CompetitionIndexPage(TemplateView):
    """Every tournament and league, newest first: its game, kind and status, a link to each."""

    template_name = "games/web/competitions.html"


class LeaderboardPage(TemplateView):
    """A game's rated players, best first (``/api/leaderboards/{variant}``), page by page."""

    template_name = "games/web/leaderboard.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        context["variant"] = kwargs["variant"]
        context["variant_name"] = VARIANT_NAMES[kwargs["variant"]]
        context["variants"] = [(value, VARIANT_NAMES[value]) for value, _ in VARIANT_CHOICES]
        return context


class FaviconRedirect(RedirectView):
    """``/favicon.ico``, which browsers ask for on their own: the site's SVG icon."""

    permanent = True

    def get_redirect_url(self, *args: Any, **kwargs: Any) -> str:
        return static("games/web/favicon.svg")
