"""URLs of the scoring API, mounted under ``/api/`` by the root urls."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path, re_path

from scoring.api.charts import RatingChartApi, StandingsChartApi
from scoring.api.competitions import (
    CloseApi,
    CompetitionDetailApi,
    CompetitionListCreateApi,
    LeagueFinishApi,
    LeagueStartApi,
    RegisterApi,
    WithdrawApi,
)
from scoring.api.crosstable import CrosstableApi, CrosstableCSVApi
from scoring.api.entrants import EntrantApi, EntrantReinstateApi, EntrantsApi
from scoring.api.history import PlayerHistoryApi
from scoring.api.leaderboard import LeaderboardApi
from scoring.api.players import HeadToHeadApi, PlayerStatisticsApi
from scoring.api.ratings import PlayerRatingsApi
from scoring.api.seating_rules import KeepApartApi
from scoring.api.sheets import CrosstablePDFApi, StandingsPDFApi
from scoring.api.stage_clock import StageClockApi
from scoring.api.stage_edits import (
    SeatingChangesApi,
    StageApi,
    StageLockApi,
    StageMoveApi,
    StageReopenApi,
    StageRePairApi,
    StageReplaceApi,
    StageSwapApi,
    StageUndoApi,
)
from scoring.api.stage_paper import StagePairingsApi, StageScorerLinksApi, StageTableCardsApi
from scoring.api.standings import StageListApi, StandingsApi, StandingsCSVApi
from scoring.api.table_events import (
    CheckInApi,
    CheckInCloseApi,
    CheckInListApi,
    DropApi,
    StageDashboardApi,
)
from scoring.api.wall import CompetitionPublishApi, CompetitionUnpublishApi, PublicStandingsApi

urlpatterns: list[URLPattern | URLResolver] = [
    path("players/<int:player_id>/history", PlayerHistoryApi.as_view(), name="player-history"),
    path("players/<int:player_id>/stats", PlayerStatisticsApi.as_view(), name="player-stats"),
    path("players/<int:player_id>/ratings", PlayerRatingsApi.as_view(), name="player-ratings"),
    path("players/<int:player_id>/rating.svg", RatingChartApi.as_view(), name="player-rating-svg"),
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
    path("competitions", CompetitionListCreateApi.as_view(), name="competition-list"),
    path("competitions/<int:competition_id>", CompetitionDetailApi.as_view(), name="competition"),
    path(
        "competitions/<int:competition_id>/register",
        RegisterApi.as_view(),
        name="competition-register",
    ),
    path(
        "competitions/<int:competition_id>/withdraw",
        WithdrawApi.as_view(),
        name="competition-withdraw",
    ),
    path(
        "competitions/<int:competition_id>/entrants",
        EntrantsApi.as_view(),
        name="competition-entrants",
    ),
    path(
        "competitions/<int:competition_id>/entrants/<int:player_id>",
        EntrantApi.as_view(),
        name="competition-entrant",
    ),
    path(
        "competitions/<int:competition_id>/entrants/<int:player_id>/reinstate",
        EntrantReinstateApi.as_view(),
        name="competition-entrant-reinstate",
    ),
    path(
        "competitions/<int:competition_id>/keep-apart",
        KeepApartApi.as_view(),
        name="competition-keep-apart",
    ),
    path("competitions/<int:competition_id>/close", CloseApi.as_view(), name="competition-close"),
    path(
        "competitions/<int:competition_id>/publish",
        CompetitionPublishApi.as_view(),
        name="competition-publish",
    ),
    path(
        "competitions/<int:competition_id>/unpublish",
        CompetitionUnpublishApi.as_view(),
        name="competition-unpublish",
    ),
    path(
        "public/competitions/<int:competition_id>/standings",
        PublicStandingsApi.as_view(),
        name="public-competition-standings",
    ),
    path("competitions/<int:competition_id>/start", LeagueStartApi.as_view(), name="league-start"),
    path(
        "competitions/<int:competition_id>/finish", LeagueFinishApi.as_view(), name="league-finish"
    ),
    path(
        "competitions/<int:competition_id>/stages",
        StageListApi.as_view(),
        name="competition-stages",
    ),
    path(
        "competitions/<int:competition_id>/stages/<int:number>",
        StageApi.as_view(),
        name="competition-stage",
    ),
    *(
        path(
            f"competitions/<int:competition_id>/stages/<int:number>/{action}",
            view.as_view(),
            name=f"competition-stage-{action}",
        )
        for action, view in (
            ("swap", StageSwapApi),
            ("move", StageMoveApi),
            ("replace", StageReplaceApi),
            ("lock", StageLockApi),
            ("re-pair", StageRePairApi),
            ("reopen", StageReopenApi),
            ("undo", StageUndoApi),
        )
    ),
    path(
        "competitions/<int:competition_id>/stages/<int:number>/clock",
        StageClockApi.as_view(),
        name="competition-stage-clock",
    ),
    path(
        "competitions/<int:competition_id>/seating-changes",
        SeatingChangesApi.as_view(),
        name="competition-seating-changes",
    ),
    path(
        "competitions/<int:competition_id>/stages/<int:number>/dashboard",
        StageDashboardApi.as_view(),
        name="competition-stage-dashboard",
    ),
    path(
        "competitions/<int:competition_id>/stages/<int:number>/scorer-links",
        StageScorerLinksApi.as_view(),
        name="competition-stage-scorer-links",
    ),
    path(
        "competitions/<int:competition_id>/stages/<int:number>/table-cards.pdf",
        StageTableCardsApi.as_view(),
        name="competition-stage-table-cards",
    ),
    path(
        "competitions/<int:competition_id>/stages/<int:number>/pairings.pdf",
        StagePairingsApi.as_view(),
        name="competition-stage-pairings",
    ),
    path(
        "competitions/<int:competition_id>/check-in",
        CheckInApi.as_view(),
        name="competition-check-in",
    ),
    path(
        "competitions/<int:competition_id>/check-in/close",
        CheckInCloseApi.as_view(),
        name="competition-check-in-close",
    ),
    path(
        "competitions/<int:competition_id>/check-ins",
        CheckInListApi.as_view(),
        name="competition-check-ins",
    ),
    path("competitions/<int:competition_id>/drop", DropApi.as_view(), name="competition-drop"),
    path(
        "competitions/<int:competition_id>/standings",
        StandingsApi.as_view(),
        name="competition-standings",
    ),
    path(
        "competitions/<int:competition_id>/standings.csv",
        StandingsCSVApi.as_view(),
        name="competition-standings-csv",
    ),
    path(
        "competitions/<int:competition_id>/crosstable",
        CrosstableApi.as_view(),
        name="competition-crosstable",
    ),
    path(
        "competitions/<int:competition_id>/crosstable.csv",
        CrosstableCSVApi.as_view(),
        name="competition-crosstable-csv",
    ),
    path(
        "competitions/<int:competition_id>/crosstable.pdf",
        CrosstablePDFApi.as_view(),
        name="competition-crosstable-pdf",
    ),
    path(
        "competitions/<int:competition_id>/standings.pdf",
        StandingsPDFApi.as_view(),
        name="competition-standings-pdf",
    ),
    path(
        "competitions/<int:competition_id>/standings.svg",
        StandingsChartApi.as_view(),
        name="competition-standings-svg",
    ),
]
