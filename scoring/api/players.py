"""A player's statistics and their head-to-head record against another player."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_serializer
from rest_framework import serializers
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from chickenfoot.db_router import replica_reads
from chickenfoot.openapi import (
    AVATAR_SMALL_URL_HELP,
    AVATAR_URL_HELP,
    example_avatars,
    problem,
    problem_example,
)
from chickenfoot.query import serializer_check
from scoring.api.apidocs import players as apidocs
from scoring.api.common import BAD_FILTER, check_known_params
from scoring.api.history import PLAYER_ID
from scoring.api.shown import player_shown_check
from scoring.models import VARIANT_CHOICES
from scoring.ports import games_port
from scoring.selectors import head_to_head, player_names, player_statistics


class VariantQuerySerializer(serializers.Serializer):
    variant = serializers.ChoiceField(
        choices=VARIANT_CHOICES, required=False, help_text="Only this game (default: both)."
    )


def _variant(request: Request) -> str | None:
    query = VariantQuerySerializer(data=request.query_params)
    check_known_params(request, ["variant"], serializer_check(query))
    return query.validated_data.get("variant")


class PlayerRatingSerializer(serializers.Serializer):
    variant = serializers.ChoiceField(choices=VARIANT_CHOICES)
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    ordinal = serializers.FloatField(help_text="mu - 3 sigma: what the leaderboard orders by.")
    display = serializers.IntegerField(help_text="round(1000 + 40 * ordinal).")
    matches = serializers.IntegerField(help_text="Rated matches in this variant.")
    trend = serializers.FloatField(help_text="Change of the ordinal over the last matches.")
    display_trend = serializers.IntegerField(
        help_text="The same change on the scale of `display` (what a page shows beside it)."
    )
    trend_matches = serializers.IntegerField(help_text="How many matches the trend spans (≤ 10).")
    recent = serializers.ListField(
        child=serializers.FloatField(), help_text="The ordinal after each of those, oldest first."
    )


class PlayerStatisticsSerializer(serializers.Serializer):
    player_id = serializers.IntegerField()
    variant = serializers.ChoiceField(choices=VARIANT_CHOICES, allow_null=True)
    matches = serializers.IntegerField()
    wins = serializers.IntegerField(help_text="First places, shared ones included.")
    win_share = serializers.FloatField(allow_null=True, help_text="wins / matches.")
    mean_place = serializers.FloatField(allow_null=True)
    rounds = serializers.IntegerField()
    mean_round_score = serializers.FloatField(allow_null=True, help_text="points / rounds.")
    rounds_at_zero = serializers.IntegerField()
    best_round = serializers.IntegerField(
        allow_null=True,
        help_text="Lowest non-zero round score (rounds at zero: rounds_at_zero); null: none.",
    )
    ratings = PlayerRatingSerializer(many=True)


STATS_EXAMPLE = {
    "player_id": 3,
    "variant": "chickenfoot",
    "matches": 42,
    "wins": 13,
    "win_share": 0.3095,
    "mean_place": 2.119,
    "rounds": 420,
    "mean_round_score": 6.212,
    "rounds_at_zero": 97,
    "best_round": 1,
    "ratings": [
        {
            "variant": "chickenfoot",
            "mu": 29.31,
            "sigma": 2.104,
            "ordinal": 22.998,
            "display": 1920,
            "matches": 42,
            "trend": 1.87,
            "display_trend": 75,
            "trend_matches": 10,
            "recent": [21.1, 21.6, 21.2, 22.0, 22.3, 21.9, 22.4, 22.8, 22.6, 22.998],
        }
    ],
}


class PlayerStatisticsApi(APIView):
    """A player's figures over their finished matches, and their rating with its trend."""

    @extend_schema(
        operation_id="player_statistics",
        summary="A player's statistics",
        tags=["history"],
        parameters=[PLAYER_ID, VariantQuerySerializer],
        responses=apidocs.player_statistics_responses(PlayerStatisticsSerializer),
        examples=[OpenApiExample("Statistics", value=STATS_EXAMPLE, response_only=True)],
    )
    @replica_reads()
    def get(self, request: Request, player_id: int) -> Response:
        variant = _variant(request)
        player_shown_check(request, player_id)
        body = player_statistics(player_id=player_id, variant=variant)
        return Response(PlayerStatisticsSerializer(body).data)


@extend_schema_serializer(component_name="HeadToHeadPlayer")
class HeadToHeadPlayerSerializer(serializers.Serializer):
    """One of the two, as any list shows a player: nothing else of theirs."""

    id = serializers.IntegerField()
    name = serializers.CharField(help_text="The display name: plain text, never markup.")
    avatar_url = serializers.URLField(help_text=AVATAR_URL_HELP)
    avatar_small_url = serializers.URLField(help_text=AVATAR_SMALL_URL_HELP)


class HeadToHeadSerializer(serializers.Serializer):
    player_id = serializers.IntegerField()
    opponent_id = serializers.IntegerField()
    player = HeadToHeadPlayerSerializer(help_text="`player_id`'s name and avatar.")
    opponent = HeadToHeadPlayerSerializer(help_text="`opponent_id`'s name and avatar.")
    variant = serializers.ChoiceField(choices=VARIANT_CHOICES, allow_null=True)
    matches = serializers.IntegerField(help_text="Finished matches both sat at.")
    player_placed_higher = serializers.IntegerField()
    opponent_placed_higher = serializers.IntegerField()
    level = serializers.IntegerField(help_text="Matches where they shared a place.")
    player_points = serializers.IntegerField()
    opponent_points = serializers.IntegerField()
    player_wins = serializers.IntegerField()
    opponent_wins = serializers.IntegerField()


H2H_EXAMPLE = {
    "player_id": 3,
    "opponent_id": 8,
    "player": {"id": 3, "name": "Ada", **example_avatars(3)},
    "opponent": {"id": 8, "name": "Grace", **example_avatars(8)},
    "variant": None,
    "matches": 12,
    "player_placed_higher": 7,
    "opponent_placed_higher": 4,
    "level": 1,
    "player_points": 611,
    "opponent_points": 702,
    "player_wins": 5,
    "opponent_wins": 3,
}


SAME_PLAYER = gettext_noop("A player has no head-to-head with themselves.")
BAD_HEAD_TO_HEAD = problem(
    "A filter value (or parameter) is not valid, or both ids name the same player.",
    *((example.name, example.value) for example in BAD_FILTER.examples),
    (
        "Same player",
        problem_example(
            400,
            "invalid",
            "Invalid input",
            f"opponent_id: {SAME_PLAYER}",
            errors={"opponent_id": [SAME_PLAYER]},
        ),
    ),
)


class HeadToHeadApi(APIView):
    """Two players' record in the finished matches they both sat at."""

    @extend_schema(
        operation_id="head_to_head",
        summary="Head-to-head between two players",
        tags=["history"],
        parameters=apidocs.head_to_head_parameters(VariantQuerySerializer),
        responses=apidocs.head_to_head_responses(BAD_HEAD_TO_HEAD, HeadToHeadSerializer),
        examples=[OpenApiExample("Head-to-head", value=H2H_EXAMPLE, response_only=True)],
    )
    @replica_reads()
    def get(self, request: Request, player_id: int, opponent_id: int) -> Response:
        variant = _variant(request)
        player_shown_check(request, player_id)
        player_shown_check(request, opponent_id)
        if opponent_id == player_id:
            raise ValidationError({"opponent_id": [_(SAME_PLAYER)]})
        body = head_to_head(player_id=player_id, opponent_id=opponent_id, variant=variant)
        avatars = games_port().avatar_urls(player_ids={player_id, opponent_id})
        names = player_names(player_ids=[player_id, opponent_id])
        for side, pk in (("player", player_id), ("opponent", opponent_id)):
            body[side] = {"id": pk, "name": names[pk], **avatars[pk]}
        return Response(HeadToHeadSerializer(body).data)
