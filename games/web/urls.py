"""URLs of the web table, mounted at the site's root."""

from __future__ import annotations

from django.urls import URLPattern, path, re_path

from games.web.views import (
    CompetitionIndexPage,
    CompetitionPage,
    FaviconRedirect,
    LeaderboardPage,
    LobbyPage,
    PlayerPage,
    TablePage,
)

urlpatterns: list[URLPattern] = [
    path("", LobbyPage.as_view(), name="web-lobby"),
    path("matches/<int:match_id>/", TablePage.as_view(), name="web-table"),
    path("players/<int:player_id>/", PlayerPage.as_view(), name="web-player"),
    path("competitions/", CompetitionIndexPage.as_view(), name="web-competitions"),
    path("competitions/<int:competition_id>/", CompetitionPage.as_view(), name="web-competition"),
    re_path(
        r"^leaderboards/(?P<variant>chickenfoot|mexican_train)/$",
        LeaderboardPage.as_view(),
        name="web-leaderboard",
    ),
    path("favicon.ico", FaviconRedirect.as_view(), name="favicon"),
]
