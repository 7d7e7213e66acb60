"""A player's history: their finished matches, filtered, newest first, paged by cursor."""

from __future__ import annotations

from typing import Any

from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.generics import ListAPIView
from rest_framework.request import Request
from rest_framework.response import Response

from chickenfoot.openapi import NOT_AUTHENTICATED
from chickenfoot.query import page_size_check
from scoring.api.common import BAD_FILTER, PLAYER_NOT_FOUND, HistoryCursor, check_known_params
from scoring.filters import HistoryFilter
from scoring.models import DECIDED_BY_CHOICES, PLAY_CHOICES, VARIANT_CHOICES, MatchResult
from scoring.problems import PlayerNotFound
from scoring.selectors import history_rows, player_exists, player_history

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
    seats = HistorySeatSerializer(many=True, help_text="Everyone at the table, in seat order.")


HISTORY_EXAMPLE = {
    "next": "http://localhost:8000/api/players/3/history?cursor=cD0yMDI2LTExLTMw",
    "previous": None,
    "results": [
        {
            "match_id": 41,
            "variant": "chickenfoot",
            "play": "online",
            "finished_at": "2026-11-30T14:20:11.120000Z",
            "seat": 0,
            "place": 1,
            "total": 37,
            "zero_rounds": 3,
            "lowest_round": 4,
            "rounds_played": 10,
            "decided_by": "total",
            "seats": [
                {"seat": 0, "player_id": 3, "name": "Ada", "place": 1, "total": 37},
                {"seat": 1, "player_id": 8, "name": "Grace", "place": 2, "total": 52},
                {"seat": 2, "player_id": 11, "name": "Shark bot (level 3)", "place": 3,
                 "total": 95},
            ],
        }
    ],
}  # fmt: skip


class PlayerHistoryApi(ListAPIView):
    """A player's finished matches, newest first (any signed-in player may read them)."""

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
        summary="A player's match history",
        description="Filters combine. Paged by an opaque cursor (follow `next`): a page stays "
        "the same while new matches finish. A bad filter value or an unknown parameter is a 400.",
        tags=["history"],
        parameters=[PLAYER_ID, COMPETITION],
        responses={
            200: HistoryRowSerializer(many=True),
            400: BAD_FILTER,
            401: NOT_AUTHENTICATED,
            404: PLAYER_NOT_FOUND,
        },
        examples=[
            OpenApiExample("A match", value=HISTORY_EXAMPLE["results"][0], response_only=True)
        ],
    )
    def get(self, request: Request, player_id: int) -> Response:
        rows = self.get_queryset()
        check_known_params(
            request,
            [*HistoryFilter.base_filters, "cursor", "page_size"],
            lambda: self.filter_queryset(rows),
            page_size_check(self.paginator, request),
        )
        if not player_exists(player_id=player_id):
            raise PlayerNotFound(f"There is no player {player_id}.")
        page = self.paginate_queryset(self.filter_queryset(rows))
        rows = history_rows(results=page or [])
        return self.get_paginated_response(HistoryRowSerializer(rows, many=True).data)
