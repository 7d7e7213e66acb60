"""The leaderboard of a variant: ratings, best first, paged."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.generics import ListAPIView
from rest_framework.request import Request
from rest_framework.response import Response

from chickenfoot.query import page_size_check, serializer_check
from scoring import ratings
from scoring.api.apidocs import leaderboard as apidocs
from scoring.api.common import LeaderboardPages, check_known_params
from scoring.selectors import leaderboard

PLAYER_KINDS = [("human", "Human"), ("bot", "Bot")]


class LeaderboardQuerySerializer(serializers.Serializer):
    min_matches = serializers.IntegerField(
        min_value=1, default=1, help_text="Only players with at least this many rated matches."
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


class LeaderboardApi(ListAPIView):
    """A variant's rated players, best first (openskill Plackett-Luce; bots are rated too)."""

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
    def get(self, request: Request, variant: str) -> Response:
        query = LeaderboardQuerySerializer(data=request.query_params)
        check_known_params(
            request,
            ["min_matches", "page", "page_size"],
            serializer_check(query),
            page_size_check(self.paginator, request),
        )
        rows = leaderboard(variant=variant, min_matches=query.validated_data["min_matches"])
        page = self.paginate_queryset(rows) or []
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
            }
            for row in page
        ]
        return self.get_paginated_response(LeaderboardRowSerializer(body, many=True).data)
