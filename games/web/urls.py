"""URLs of the web table, mounted at the site's root."""

from __future__ import annotations

from django.urls import URLPattern, path, register_converter

from games.web.how_to_play import HowToPlayPage
from games.web.table_pages import ScorerPage, StageDashboardPage
from games.web.views import (
    CompetitionIndexPage,
    CompetitionPage,
    FaviconRedirect,
    LeaderboardPage,
    LobbyPage,
    PlayerPage,
    ReplayPage,
    TablePage,
)
from games.web.wall import WallPage
from scoring.models import VARIANT_CHOICES


class VariantConverter:
    """A game's name in a page's path: ``chickenfoot`` or ``mexican_train`` (else a 404)."""

    regex = "|".join(name for name, _ in VARIANT_CHOICES)

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(VariantConverter, "variant")

urlpatterns: list[URLPattern] = [
    path("", LobbyPage.as_view(), name="web-lobby"),
    path("matches/<int:match_id>/", TablePage.as_view(), name="web-table"),
    path("matches/<int:match_id>/replay/", ReplayPage.as_view(), name="web-replay"),
    path("players/<int:player_id>/", PlayerPage.as_view(), name="web-player"),
    path("competitions/", CompetitionIndexPage.as_view(), name="web-competitions"),
    path("competitions/<int:competition_id>/", CompetitionPage.as_view(), name="web-competition"),
    path(
        "competitions/<int:competition_id>/stages/<int:number>/",
        StageDashboardPage.as_view(),
        name="web-stage-dashboard",
    ),
    path("score/", ScorerPage.as_view(), name="web-scorer"),
    # the same page, for a code typed into the path: the page moves it into the fragment
    path("score/<str:code>/", ScorerPage.as_view(), name="web-scorer-code"),
    path("leaderboards/<variant:variant>/", LeaderboardPage.as_view(), name="web-leaderboard"),
    path("events/<int:competition_id>/", WallPage.as_view(), name="web-wall"),
    path("how-to-play/", HowToPlayPage.as_view(), name="web-how-to-play"),
    path(
        "how-to-play/<str:language>/",
        HowToPlayPage.as_view(),
        name="web-how-to-play-language",
    ),
    path("favicon.ico", FaviconRedirect.as_view(), name="favicon"),
]
