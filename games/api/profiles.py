"""Players as others see them: a player's profile."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, extend_schema_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from chickenfoot.db_router import replica_reads
from games.api.apidocs import profiles as apidocs
from games.api.common import GameApi
from games.models import Player
from games.profiles.selectors import player_profile
from scoring.api.history import HistoryRowSerializer
from scoring.models import VARIANT_CHOICES
from scoring.problems import PlayerNotFound


class ProfileRatingSerializer(serializers.Serializer):
    variant = serializers.ChoiceField(choices=VARIANT_CHOICES)
    display = serializers.IntegerField(help_text="round(1000 + 40 * ordinal): as shown.")
    ordinal = serializers.FloatField(help_text="mu - 3 sigma: what the leaderboard orders by.")
    matches = serializers.IntegerField(help_text="Rated matches in this variant.")
    rank = serializers.IntegerField(allow_null=True, help_text=apidocs.RANK_HELP)


class ProfileStatisticsSerializer(serializers.Serializer):
    matches = serializers.IntegerField(help_text="Finished matches, both games.")
    wins = serializers.IntegerField(help_text="First places, shared ones included.")
    rounds_at_zero = serializers.IntegerField()
    best_round = serializers.IntegerField(
        allow_null=True, help_text="Lowest non-zero round score; null: none."
    )


@extend_schema_serializer(component_name="PlayerProfile")
class PlayerProfileSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField(help_text="The display name: plain text, never markup.")
    kind = serializers.ChoiceField(choices=Player.Kind.choices)
    avatar_url = serializers.URLField(allow_null=True, help_text=apidocs.AVATAR_URL_HELP)
    hidden = serializers.BooleanField(help_text=apidocs.HIDDEN_HELP)
    joined = serializers.DateTimeField(allow_null=True, help_text="When the player joined.")
    ratings = ProfileRatingSerializer(many=True, allow_null=True, help_text="One a variant.")
    statistics = ProfileStatisticsSerializer(allow_null=True)
    recent_results = HistoryRowSerializer(
        many=True, allow_null=True, help_text="The latest finished matches, newest first."
    )


class PlayerProfileApi(GameApi):
    """A player as the caller may see them (``GET /api/players/{player_id}``)."""

    @extend_schema(
        operation_id="player_profile",
        summary="A player's profile",
        tags=["accounts"],
        parameters=[apidocs.PLAYER_ID],
        responses=apidocs.player_profile_responses(PlayerProfileSerializer),
    )
    @replica_reads()
    def get(self, request: Request, player_id: int) -> Response:
        player = Player.objects.filter(pk=player_id).first()
        if player is None:
            raise PlayerNotFound(_("There is no player %(player_id)s.") % {"player_id": player_id})
        body = player_profile(player=player, viewer=self.player(request))
        return Response(PlayerProfileSerializer(body).data)
