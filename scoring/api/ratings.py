"""A player's rating changes in one game, newest first, paged by cursor."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.generics import ListAPIView
from rest_framework.request import Request
from rest_framework.response import Response

from chickenfoot.query import page_size_check, serializer_check
from scoring.api.apidocs import ratings as apidocs
from scoring.api.common import RatingChangeCursor, check_known_params
from scoring.api.history import PLAYER_ID
from scoring.api.shown import player_shown_check
from scoring.models import VARIANT_CHOICES, RatingChange
from scoring.selectors import player_rating_changes, rating_change_rows


class RatingsQuerySerializer(serializers.Serializer):
    variant = serializers.ChoiceField(choices=VARIANT_CHOICES, help_text="Which game's rating.")


class RatingChangeRowSerializer(serializers.Serializer):
    match_id = serializers.IntegerField()
    rated_at = serializers.DateTimeField(help_text="When the match was rated.")
    before = serializers.IntegerField(help_text="`display` before the match.")
    after = serializers.IntegerField(help_text="`display` after it.")
    delta = serializers.IntegerField(help_text="`after - before`.")
    mu = serializers.FloatField(help_text="openskill's mu after the match.")
    sigma = serializers.FloatField(help_text="openskill's sigma after the match.")
    ordinal = serializers.FloatField(help_text="mu - 3 sigma after the match.")


class PlayerRatingsApi(ListAPIView):
    """A player's rating changes in one game, newest first (any signed-in player their
    ``profile_visibility`` shows them to may read)."""

    serializer_class = RatingChangeRowSerializer
    pagination_class = RatingChangeCursor
    filter_backends = ()

    def get_queryset(self) -> Any:
        return RatingChange.objects.none()  # the schema generator's dry run; get() reads

    @extend_schema(
        operation_id="player_ratings",
        **apidocs.PLAYER_RATINGS_HEADING,
        description=apidocs.PLAYER_RATINGS_DESCRIPTION,
        parameters=[PLAYER_ID, RatingsQuerySerializer],
        responses=apidocs.player_ratings_responses(RatingChangeRowSerializer),
        examples=apidocs.PLAYER_RATINGS_EXAMPLES,
    )
    def get(self, request: Request, player_id: int) -> Response:
        query = RatingsQuerySerializer(data=request.query_params)
        check_known_params(
            request,
            ["variant", "cursor", "page_size"],
            serializer_check(query),
            page_size_check(self.paginator, request),
        )
        player_shown_check(request, player_id)
        changes = player_rating_changes(
            player_id=player_id, variant=query.validated_data["variant"]
        )
        page = self.paginate_queryset(changes) or []
        body = RatingChangeRowSerializer(rating_change_rows(changes=page), many=True).data
        return self.get_paginated_response(body)
