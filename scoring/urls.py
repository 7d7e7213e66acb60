"""URLs of the scoring API, mounted under ``/api/`` by the root urls."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path, re_path

from scoring.api.history import PlayerHistoryApi
from scoring.api.leaderboard import LeaderboardApi
from scoring.api.players import HeadToHeadApi, PlayerStatisticsApi

urlpatterns: list[URLPattern | URLResolver] = [
    path("players/<int:player_id>/history", PlayerHistoryApi.as_view(), name="player-history"),
    path("players/<int:player_id>/stats", PlayerStatisticsApi.as_view(), name="player-stats"),
    path(
        "players/<int:player_id>/head-to-head/<int:opponent_id>",
        HeadToHeadApi.as_view(),
        name="head-to-head",
    ),
    re_path(
        r"^leaderboards/(?P<variant>chickenfoot|mexican_train)$",
        LeaderboardApi.as_view(),
        name="leaderboard",
    ),
]
