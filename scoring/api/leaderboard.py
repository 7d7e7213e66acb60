"""The leaderboard of a variant: ratings, best first, paged."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.generics import ListAPIView
from rest_framework.request import Request
from rest_framework.response import Response

from chickenfoot.openapi import NOT_AUTHENTICATED
from chickenfoot.query import page_size_check, serializer_check
from scoring import ratings
from scoring.api.common import BAD_FILTER, PAGE_NOT_FOUND, LeaderboardPages, check_known_params
from scoring.models import VARIANT_CHOICES
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


LEADERBOARD_EXAMPLE = {
    "count": 120,
    "next": "http://localhost:8000/api/leaderboards/chickenfoot?page=2",
    "previous": None,
    "results": [
        {
            "rank": 1,
            "player_id": 3,
            "name": "Ada",
            "kind": "human",
            "display": 1920,
            "ordinal": 22.998,
            "mu": 29.31,
            "sigma": 2.104,
            "matches": 42,
        }
    ],
}


class LeaderboardApi(ListAPIView):
    """A variant's rated players, best first (openskill Plackett-Luce; bots are rated too)."""

    serializer_class = LeaderboardRowSerializer
    pagination_class = LeaderboardPages
    filter_backends = ()

    @extend_schema(
        operation_id="leaderboard",
        summary="The leaderboard of a variant",
        description="Ordered by `ordinal` = mu - 3 sigma (descending), then player id; `display`"
        " = round(1000 + 40 * ordinal), so a new player shows 1000. docs/scoring.md explains.",
        tags=["history"],
        parameters=[
            OpenApiParameter(
                "variant", str, OpenApiParameter.PATH, enum=[v for v, _ in VARIANT_CHOICES]
            ),
            LeaderboardQuerySerializer,
        ],
        responses={200: LeaderboardRowSerializer(many=True), 400: BAD_FILTER,
                   401: NOT_AUTHENTICATED, 404: PAGE_NOT_FOUND},
        examples=[
            OpenApiExample(
                "The leader", value=LEADERBOARD_EXAMPLE["results"][0], response_only=True
            )
        ],
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
