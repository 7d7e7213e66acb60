"""Charts of the scoring records, as SVG: a player's rating over their matches."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from chickenfoot.charts import Series, line_chart
from chickenfoot.openapi import NOT_AUTHENTICATED
from chickenfoot.renderers import SVG_EXAMPLE, SVGRenderer
from scoring.api.common import BAD_FILTER, PLAYER_NOT_FOUND, check_known_params
from scoring.api.history import PLAYER_ID
from scoring.models import VARIANT_CHOICES
from scoring.problems import PlayerNotFound
from scoring.selectors import player_exists, rating_series

VARIANT_NAMES = dict(VARIANT_CHOICES)


class RatingChartQuerySerializer(serializers.Serializer):
    variant = serializers.ChoiceField(choices=VARIANT_CHOICES, help_text="Which game's rating.")
    matches = serializers.IntegerField(
        min_value=1, max_value=200, default=50, help_text="How many of the latest rated matches."
    )


class RatingChartApi(APIView):
    """A player's displayed rating (round(1000 + 40 * ordinal)) after each of their latest rated
    matches of one game, oldest first, starting from the rating before the first of them."""

    renderer_classes = (SVGRenderer,)

    @extend_schema(
        operation_id="player_rating_chart",
        summary="A player's rating over their matches, as a chart",
        tags=["history"],
        parameters=[PLAYER_ID, RatingChartQuerySerializer],
        responses={
            (200, "image/svg+xml"): OpenApiResponse(
                OpenApiTypes.STR,
                description="An SVG line chart; each point carries `data-step` (`#<match id>`) "
                "and `data-value` (the rating after that match).",
                examples=[OpenApiExample("A chart", value=SVG_EXAMPLE)],
            ),
            400: BAD_FILTER,
            401: NOT_AUTHENTICATED,
            404: PLAYER_NOT_FOUND,
        },
    )
    def get(self, request: Request, player_id: int) -> Response:
        check_known_params(request, ["variant", "matches"])
        query = RatingChartQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        if not player_exists(player_id=player_id):
            raise PlayerNotFound(f"There is no player {player_id}.")
        variant = query.validated_data["variant"]
        series = rating_series(
            player_id=player_id, variant=variant, limit=query.validated_data["matches"]
        )
        steps = ["before" if match_id == 0 else f"#{match_id}" for match_id, _ in series]
        chart = line_chart(
            f"Rating in {VARIANT_NAMES[variant]}",
            steps,
            [Series("rating", [value for _, value in series])] if series else [],
            y_label="rating",
            x_label="match",
            from_zero=False,
        )
        return Response(chart, content_type="image/svg+xml", headers={"Cache-Control": "no-cache"})
