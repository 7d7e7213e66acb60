"""The bodies of the friends and blocks endpoints: what is sent, what comes back."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

from chickenfoot.openapi import AVATAR_SMALL_URL_HELP, AVATAR_URL_HELP
from games.api.paging import MatchPagination
from games.api.strict import (
    ID_MAX,
    PAGE_PARAMS,
    QuerySerializer,
    StrictIntegerField,
    StrictSerializer,
)
from games.models import Player
from games.social.models import FriendRequest
from games.social.presence import PRESENCE_STATES

PLAYER_HELP = "The display name: plain text, never markup."


@extend_schema_serializer(component_name="PlayerCard")
class PlayerCardSerializer(serializers.Serializer):
    """A player as a list shows them: nothing else of theirs."""

    id = serializers.IntegerField()
    name = serializers.CharField(help_text=PLAYER_HELP)
    kind = serializers.ChoiceField(choices=Player.Kind.choices)
    avatar_url = serializers.URLField(help_text=AVATAR_URL_HELP)
    avatar_small_url = serializers.URLField(help_text=AVATAR_SMALL_URL_HELP)


@extend_schema_serializer(component_name="FriendRequestCreate")
class FriendRequestInputSerializer(StrictSerializer):
    player_id = StrictIntegerField(
        min_value=1, max_value=ID_MAX, help_text="Who is asked: a person with an account."
    )


@extend_schema_serializer(component_name="FriendRequest")
class FriendRequestSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    sender = PlayerCardSerializer()
    recipient = PlayerCardSerializer()
    state = serializers.ChoiceField(
        choices=FriendRequest.State.choices,
        help_text="pending; accepted or declined by the recipient; cancelled by a block.",
    )
    created_at = serializers.DateTimeField()
    answered_at = serializers.DateTimeField(allow_null=True)


@extend_schema_serializer(component_name="FriendRequests")
class FriendRequestsSerializer(serializers.Serializer):
    incoming = FriendRequestSerializer(
        many=True, help_text="Pending requests to the caller, newest first (the newest 100)."
    )
    incoming_count = serializers.IntegerField(help_text="All pending requests to the caller.")
    outgoing = FriendRequestSerializer(
        many=True, help_text="Pending requests the caller sent, newest first."
    )


@extend_schema_serializer(component_name="Friend")
class FriendSerializer(serializers.Serializer):
    player = PlayerCardSerializer()
    since = serializers.DateTimeField(help_text="When the two became friends.")
    presence = serializers.ChoiceField(
        choices=PRESENCE_STATES,
        help_text="offline; online (a socket open: the app, or a match's page); in_match "
        "(seated at a match in play, its socket open).",
    )


@extend_schema_serializer(component_name="BlockedPlayer")
class BlockSerializer(serializers.Serializer):
    player = PlayerCardSerializer()
    created_at = serializers.DateTimeField(help_text="When the caller blocked them.")


class SocialPagination(MatchPagination):
    """Friends and blocked players, in pages (50 by default, at most 100)."""


class PageQuerySerializer(QuerySerializer):
    """The paging parameters only."""

    also_known = PAGE_PARAMS
    pagination = SocialPagination
