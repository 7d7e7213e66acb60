"""Players as others see them: a player's profile, and finding a player by name to invite."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, extend_schema_field, extend_schema_serializer
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from chickenfoot.db_router import replica_reads
from chickenfoot.openapi import AVATAR_SMALL_URL_HELP, AVATAR_URL_HELP
from chickenfoot.throttles import PLAYER_SEARCH_THROTTLES
from games.accounts.authentication import PlayerTokenAuthentication
from games.accounts.names import DISPLAY_NAME_MAX_LENGTH
from games.api.apidocs import profiles as apidocs
from games.api.avatars import avatar_urls
from games.api.common import GameApi
from games.api.paging import PAGE_PARAMETERS, MatchPagination
from games.api.players import PlayerRegisterApi
from games.api.strict import PAGE_PARAMS, QuerySerializer
from games.models import Player
from games.profiles.selectors import SEARCH_MIN_LENGTH, player_profile, player_search
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


@extend_schema_serializer(component_name="FriendRequestRef")
class FriendRequestRefSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="The request's id (to accept or decline it).")
    direction = serializers.ChoiceField(
        choices=["incoming", "outgoing"],
        help_text="incoming: they asked the caller; outgoing: the caller asked them.",
    )


@extend_schema_serializer(component_name="PlayerProfile")
class PlayerProfileSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField(help_text="The display name: plain text, never markup.")
    kind = serializers.ChoiceField(choices=Player.Kind.choices)
    avatar_url = serializers.URLField(help_text=AVATAR_URL_HELP)
    avatar_small_url = serializers.URLField(help_text=AVATAR_SMALL_URL_HELP)
    hidden = serializers.BooleanField(help_text=apidocs.HIDDEN_HELP)
    friend = serializers.BooleanField(help_text="The caller and the player are friends.")
    friend_request = FriendRequestRefSerializer(
        allow_null=True, help_text=apidocs.FRIEND_REQUEST_HELP
    )
    blocked = serializers.BooleanField(help_text=apidocs.BLOCKED_HELP)
    joined = serializers.DateTimeField(allow_null=True, help_text="When the player joined.")
    ratings = ProfileRatingSerializer(many=True, allow_null=True, help_text="One a variant.")
    statistics = ProfileStatisticsSerializer(allow_null=True)
    recent_results = HistoryRowSerializer(
        many=True, allow_null=True, help_text="The latest finished matches, newest first."
    )


@extend_schema_serializer(component_name="PlayerFound")
class PlayerFoundSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField(help_text="The display name: plain text, never markup.")
    kind = serializers.ChoiceField(choices=Player.Kind.choices)
    avatar_url = serializers.URLField(help_text=AVATAR_URL_HELP)
    avatar_small_url = serializers.URLField(help_text=AVATAR_SMALL_URL_HELP)


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
        player = Player.objects.filter(pk=player_id).select_related("avatar").first()
        if player is None:
            raise PlayerNotFound(_("There is no player %(player_id)s.") % {"player_id": player_id})
        body = {
            **player_profile(player=player, viewer=self.player(request)),
            **avatar_urls(request, player),
        }
        return Response(PlayerProfileSerializer(body).data)


class PlayerSearchPagination(MatchPagination):
    """The players found, in pages (50 by default, at most 100)."""


@extend_schema_field(
    {
        "type": "string",
        "minLength": SEARCH_MIN_LENGTH,
        "maxLength": DISPLAY_NAME_MAX_LENGTH,
        "pattern": apidocs.SEARCH_PATTERN,
    }
)
class SearchField(serializers.CharField):
    """The search term: DRF trims the spaces around it before counting its characters, which
    the schema's pattern says (at least 3 once trimmed, no NUL)."""


class PlayerSearchQuerySerializer(QuerySerializer):
    also_known = PAGE_PARAMS
    pagination = PlayerSearchPagination

    search = SearchField(
        min_length=SEARCH_MIN_LENGTH,
        max_length=DISPLAY_NAME_MAX_LENGTH,
        help_text=apidocs.SEARCH_HELP,
    )


class PlayersApi(PlayerRegisterApi):
    """Create an account and its player; the answer carries the API token."""

    # ``/api/players``: register (POST, anyone: the docstring above is its description) or
    # find a player by name (GET, signed in, limited per player).
    pagination_class = PlayerSearchPagination

    def _searching(self) -> bool:
        request = getattr(self, "request", None)  # None in the schema generator's dry run
        return request is not None and request.method in ("GET", "HEAD")

    def get_authenticators(self) -> list[Any]:
        return [PlayerTokenAuthentication()] if self._searching() else super().get_authenticators()

    def get_permissions(self) -> list[Any]:
        return [IsAuthenticated()] if self._searching() else super().get_permissions()

    def get_throttles(self) -> list[Any]:
        searching = PLAYER_SEARCH_THROTTLES if self._searching() else self.throttle_classes
        return [throttle() for throttle in searching]

    @extend_schema(
        operation_id="player_search",
        **apidocs.PLAYER_SEARCH_HEADING,
        parameters=[PlayerSearchQuerySerializer, *PAGE_PARAMETERS],
        responses=apidocs.player_search_responses(PlayerFoundSerializer),
    )
    def get(self, request: Request) -> Response:
        query = PlayerSearchQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        viewer = GameApi.player(self, request)
        found = player_search(text=query.validated_data["search"], viewer=viewer)
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(found, request, view=self) or []
        rows = [
            {"id": p.pk, "name": p.display_name, "kind": p.kind, **avatar_urls(request, p)}
            for p in page
        ]
        return paginator.get_paginated_response(PlayerFoundSerializer(rows, many=True).data)
