"""A player's history: their finished matches, filtered, newest first, paged by cursor."""

from __future__ import annotations

from typing import Any

from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.generics import ListAPIView
from rest_framework.request import Request
from rest_framework.response import Response

from chickenfoot.db_router import replica_reads
from chickenfoot.openapi import AVATAR_SMALL_URL_HELP, AVATAR_URL_HELP
from chickenfoot.query import page_size_check
from scoring.api.apidocs import history as apidocs
from scoring.api.common import (
    HistoryCursor,
    RatingChangeFiguresSerializer,
    check_known_params,
    unrated_reason_field,
)
from scoring.api.shown import player_shown_check, seat_ratings_shown
from scoring.filters import HistoryFilter
from scoring.models import DECIDED_BY_CHOICES, PLAY_CHOICES, VARIANT_CHOICES, MatchResult
from scoring.selectors import history_rows, player_history

PLAYER_ID = OpenApiParameter("player_id", int, OpenApiParameter.PATH, description="A player id.")
COMPETITION = OpenApiParameter(
    "competition",
    int,
    OpenApiParameter.QUERY,
    description="Only matches that count for this tournament or league (its id). An id that "
    "names no competition is a 400.",
    examples=[OpenApiExample("The matches of tournament 3", value=3)],
)


class HistorySeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    place = serializers.IntegerField()
    total = serializers.IntegerField()
    avatar_url = serializers.URLField(help_text=AVATAR_URL_HELP)
    avatar_small_url = serializers.URLField(help_text=AVATAR_SMALL_URL_HELP)
    rating = RatingChangeFiguresSerializer(
        allow_null=True,
        help_text="What the match did to this seat's rating in its game (`display` scale); "
        "null while it is not rated, and for a player whose profile is not shown to the "
        "caller (`profile_visibility`).",
    )


class HistoryRowSerializer(serializers.Serializer):
    match_id = serializers.IntegerField()
    variant = serializers.ChoiceField(choices=VARIANT_CHOICES)
    play = serializers.ChoiceField(
        choices=PLAY_CHOICES,
        help_text="`online` (the server dealt) or `table` (real tiles, scores entered).",
    )
    finished_at = serializers.DateTimeField()
    seat = serializers.IntegerField(help_text="The player's seat.")
    place = serializers.IntegerField(help_text="The player's place (shared places repeat).")
    total = serializers.IntegerField()
    zero_rounds = serializers.IntegerField()
    lowest_round = serializers.IntegerField(allow_null=True)
    rounds_played = serializers.IntegerField()
    decided_by = serializers.ChoiceField(choices=[value for value, _ in DECIDED_BY_CHOICES])
    rating = RatingChangeFiguresSerializer(
        allow_null=True,
        help_text="What the match did to the player's rating in its game (`display` scale); "
        "null while it is not rated.",
    )
    unrated_reason = unrated_reason_field()
    seats = HistorySeatSerializer(many=True, help_text="Everyone at the table, in seat order.")


class PlayerHistoryApi(ListAPIView):
    """A player's finished matches, newest first (any signed-in player their
    ``profile_visibility`` shows them to may read them)."""

    serializer_class = HistoryRowSerializer
    filter_backends = (DjangoFilterBackend,)
    filterset_class = HistoryFilter
    pagination_class = HistoryCursor

    def get_queryset(self) -> Any:
        if getattr(self, "swagger_fake_view", False):  # the schema generator's dry run
            return MatchResult.objects.none()
        return player_history(player_id=self.kwargs["player_id"])

    @extend_schema(
        operation_id="player_history",
        **apidocs.PLAYER_HISTORY_HEADING,
        description=apidocs.PLAYER_HISTORY_DESCRIPTION,
        parameters=[PLAYER_ID, COMPETITION],
        responses=apidocs.player_history_responses(HistoryRowSerializer),
        examples=apidocs.PLAYER_HISTORY_EXAMPLES,
    )
    @replica_reads()
    def get(self, request: Request, player_id: int) -> Response:
        rows = self.get_queryset()
        check_known_params(
            request,
            [*HistoryFilter.base_filters, "cursor", "page_size"],
            lambda: self.filter_queryset(rows),
            page_size_check(self.paginator, request),
        )
        player_shown_check(request, player_id)
        page = self.paginate_queryset(self.filter_queryset(rows))
        rows = seat_ratings_shown(request, history_rows(results=page or []))
        return self.get_paginated_response(HistoryRowSerializer(rows, many=True).data)
