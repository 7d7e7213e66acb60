"""The leaderboard of a variant: ratings, best first, paged."""

from __future__ import annotations

from collections.abc import Callable

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.generics import ListAPIView
from rest_framework.request import Request
from rest_framework.response import Response

from chickenfoot.db_router import replica_reads
from chickenfoot.openapi import AVATAR_SMALL_URL_HELP, AVATAR_URL_HELP
from chickenfoot.query import page_size_check, serializer_check
from scoring import ratings
from scoring.api.apidocs import leaderboard as apidocs
from scoring.api.common import LeaderboardPages, check_known_params
from scoring.ports import games_port
from scoring.problems import NotOnLeaderboard
from scoring.selectors import leaderboard, leaderboard_position

PLAYER_KINDS = [("human", "Human"), ("bot", "Bot")]


class LeaderboardQuerySerializer(serializers.Serializer):
    min_matches = serializers.IntegerField(
        min_value=1, default=1, help_text="Only players with at least this many rated matches."
    )
    bots = serializers.BooleanField(
        default=False, help_text="List the bots too (one player per level); off by default."
    )
    player = serializers.IntegerField(
        min_value=1,
        required=False,
        help_text="Answer the page that holds this player (not with `page`); a player the "
        "list does not hold is a 404 `not_on_leaderboard`.",
    )


class LeaderboardRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField(help_text="1 = best; equal ordinals share a rank.")
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    kind = serializers.ChoiceField(choices=PLAYER_KINDS)
    display = serializers.IntegerField(help_text="round(1000 + 40 * ordinal).")
    ordinal = serializers.FloatField(help_text="mu - 3 sigma.")
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    matches = serializers.IntegerField()
    avatar_url = serializers.URLField(help_text=AVATAR_URL_HELP)
    avatar_small_url = serializers.URLField(help_text=AVATAR_SMALL_URL_HELP)


def player_or_page_check(request: Request) -> Callable[[], None]:
    """``player`` picks the page: both it and ``page`` is a 400."""

    def check() -> None:
        if "player" in request.query_params and "page" in request.query_params:
            raise serializers.ValidationError({"player": [_("Give player or page, not both.")]})

    return check


def player_position(*, variant: str, player_id: int, min_matches: int, bots: bool) -> int:
    """The 0-based position of ``player_id`` on the leaderboard asked for (404 if absent)."""
    position = leaderboard_position(
        variant=variant, player_id=player_id, min_matches=min_matches, bots=bots
    )
    if position is None:
        raise NotOnLeaderboard(
            _("Player %(player_id)s is not on this leaderboard.") % {"player_id": player_id}
        )
    return position


class LeaderboardApi(ListAPIView):
    """A variant's rated players, best first (openskill Plackett-Luce; bots, rated too, with
    ``bots``); ``player`` answers the page that holds them."""

    serializer_class = LeaderboardRowSerializer
    pagination_class = LeaderboardPages
    filter_backends = ()

    @extend_schema(
        operation_id="leaderboard",
        **apidocs.LEADERBOARD_HEADING,
        description=apidocs.LEADERBOARD_DESCRIPTION,
        parameters=apidocs.leaderboard_parameters(LeaderboardQuerySerializer),
        responses=apidocs.leaderboard_responses(LeaderboardRowSerializer),
        examples=apidocs.LEADERBOARD_EXAMPLES,
    )  # fmt: skip
    @replica_reads()
    def get(self, request: Request, variant: str) -> Response:
        query = LeaderboardQuerySerializer(data=request.query_params)
        check_known_params(
            request,
            ["min_matches", "bots", "player", "page", "page_size"],
            serializer_check(query),
            page_size_check(self.paginator, request),
            player_or_page_check(request),
        )
        board = {k: query.validated_data[k] for k in ("min_matches", "bots")}
        if "player" in query.validated_data:
            self.paginator.at_position = player_position(  # type: ignore[union-attr]
                variant=variant, player_id=query.validated_data["player"], **board
            )
        page = self.paginate_queryset(leaderboard(variant=variant, **board)) or []
        avatars = games_port().avatar_urls(player_ids={row.player_id for row in page})
        body = [
            {
                "rank": row.rank,
                "player_id": row.player_id,
                "name": row.name,
                "kind": row.kind,
                "display": ratings.display_rating(row.ordinal),
                "ordinal": round(row.ordinal, 4),
                "mu": round(row.mu, 4),
                "sigma": round(row.sigma, 4),
                "matches": row.matches,
                **avatars[row.player_id],
            }
            for row in page
        ]
        return self.get_paginated_response(LeaderboardRowSerializer(body, many=True).data)
