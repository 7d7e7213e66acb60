"""The caller's data: all of it as one JSON document (the export)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, extend_schema_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from chickenfoot.openapi import AVATAR_SMALL_URL_HELP, AVATAR_URL_HELP
from games.accounts.export import player_export
from games.api.apidocs import account_data as apidocs
from games.api.common import GameApi
from games.api.notifications import NotificationSerializer
from games.chat.phrases import PHRASE_IDS
from games.models import Match, Player
from games.notifications.models import DEVICE_KINDS
from games.social.export import CLOSED
from scoring.competition_models import Competition

VARIANTS = Match.Variant.choices


class PlayerDataAccountSerializer(serializers.Serializer):
    player_id = serializers.IntegerField()
    username = serializers.CharField()
    display_name = serializers.CharField()
    email = serializers.CharField(allow_blank=True)
    email_verified = serializers.BooleanField()
    email_verified_at = serializers.DateTimeField(allow_null=True)
    is_organiser = serializers.BooleanField()
    language = serializers.CharField(
        allow_blank=True, help_text="The language the player chose; empty: none."
    )
    profile_visibility = serializers.ChoiceField(
        choices=Player.Visibility.choices, help_text="Who sees the player's profile."
    )
    time_zone = serializers.CharField(help_text="The player's IANA time zone; empty: UTC.")
    quiet_hours_start = serializers.TimeField(
        allow_null=True, help_text="When the player's quiet hours start (no push); null: none."
    )
    quiet_hours_end = serializers.TimeField(
        allow_null=True, help_text="When the player's quiet hours end; null: none."
    )
    joined = serializers.DateTimeField()
    last_login = serializers.DateTimeField(allow_null=True)
    avatar_url = serializers.URLField(help_text=AVATAR_URL_HELP)
    avatar_small_url = serializers.URLField(help_text=AVATAR_SMALL_URL_HELP)
    avatar_uploaded_at = serializers.DateTimeField(
        allow_null=True, help_text="When the picture was uploaded; null: the initials."
    )


class PlayerDataTokenSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    device = serializers.CharField(allow_blank=True)
    created = serializers.DateTimeField()
    expiry = serializers.DateTimeField(allow_null=True)
    last_used = serializers.DateTimeField(allow_null=True)


class PlayerDataSeatSerializer(serializers.Serializer):
    match_id = serializers.IntegerField()
    variant = serializers.ChoiceField(choices=VARIANTS)
    play = serializers.ChoiceField(choices=Match.Play.choices)
    status = serializers.ChoiceField(choices=Match.Status.choices)
    position = serializers.IntegerField(help_text="0-based.")
    joined_at = serializers.DateTimeField(allow_null=True)
    left = serializers.CharField(
        allow_blank=True, help_text="Why a bot plays the seat, if one does."
    )
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)


class PlayerDataRoundSerializer(serializers.Serializer):
    match_id = serializers.IntegerField()
    round_number = serializers.IntegerField()
    seat = serializers.IntegerField()
    points = serializers.IntegerField()
    went_out = serializers.BooleanField()


class PlayerDataResultSerializer(serializers.Serializer):
    match_id = serializers.IntegerField()
    variant = serializers.ChoiceField(choices=VARIANTS)
    seat = serializers.IntegerField()
    seat_count = serializers.IntegerField()
    place = serializers.IntegerField()
    total = serializers.IntegerField()
    zero_rounds = serializers.IntegerField()
    rounds_played = serializers.IntegerField()
    finished_at = serializers.DateTimeField()


class PlayerDataRatingSerializer(serializers.Serializer):
    variant = serializers.ChoiceField(choices=VARIANTS)
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    ordinal = serializers.FloatField()
    matches = serializers.IntegerField()
    updated_at = serializers.DateTimeField()


class PlayerDataRatingChangeSerializer(serializers.Serializer):
    match_id = serializers.IntegerField()
    variant = serializers.ChoiceField(choices=VARIANTS)
    mu_before = serializers.FloatField()
    sigma_before = serializers.FloatField()
    mu_after = serializers.FloatField()
    sigma_after = serializers.FloatField()
    ordinal_before = serializers.FloatField()
    ordinal_after = serializers.FloatField()
    created_at = serializers.DateTimeField()


class PlayerDataRegistrationSerializer(serializers.Serializer):
    competition_id = serializers.IntegerField()
    name = serializers.CharField()
    kind = serializers.ChoiceField(choices=Competition.Kind.choices)
    status = serializers.ChoiceField(choices=Competition.Status.choices)
    registered_at = serializers.DateTimeField()
    withdrawn_at = serializers.DateTimeField(allow_null=True)
    dropped_at = serializers.DateTimeField(allow_null=True)


class PlayerDataOrganisedSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    kind = serializers.ChoiceField(choices=Competition.Kind.choices)
    status = serializers.ChoiceField(choices=Competition.Status.choices)
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)


class PlayerDataClaimSerializer(serializers.Serializer):
    match_id = serializers.IntegerField()
    position = serializers.IntegerField(help_text="The guest's seat, now the caller's.")
    redeemed_at = serializers.DateTimeField()


class PlayerDataScoreEntrySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    match_id = serializers.IntegerField()
    number = serializers.IntegerField(help_text="The round's number.")
    reason = serializers.CharField(allow_blank=True, help_text="A correction's reason.")
    created_at = serializers.DateTimeField()


class PlayerDataChatSerializer(serializers.Serializer):
    match_id = serializers.IntegerField()
    seq = serializers.IntegerField(help_text="The phrase's number in the match's chat.")
    seat = serializers.IntegerField()
    phrase = serializers.ChoiceField(choices=PHRASE_IDS)
    created_at = serializers.DateTimeField()


class PlayerDataChatMuteSerializer(serializers.Serializer):
    match_id = serializers.IntegerField()
    created_at = serializers.DateTimeField(help_text="When the caller muted its chat.")


class PlayerDataPushDeviceSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=DEVICE_KINDS)
    created_at = serializers.DateTimeField()


class PlayerDataFriendSerializer(serializers.Serializer):
    player_id = serializers.IntegerField()
    name = serializers.CharField(help_text="The friend's display name.")
    since = serializers.DateTimeField()


class PlayerDataFriendRequestSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    player_id = serializers.IntegerField(help_text="The other player: sender or recipient.")
    name = serializers.CharField(help_text="Their display name.")
    state = serializers.ChoiceField(
        choices=["pending", "accepted", "declined", CLOSED], help_text=apidocs.REQUEST_STATE_HELP
    )
    created_at = serializers.DateTimeField()
    answered_at = serializers.DateTimeField(allow_null=True, help_text="Null: not known to you.")


class PlayerDataFriendRequestsSerializer(serializers.Serializer):
    incoming = PlayerDataFriendRequestSerializer(many=True, help_text="Sent to you, oldest first.")
    outgoing = PlayerDataFriendRequestSerializer(many=True, help_text="You sent, oldest first.")


class PlayerDataBlockSerializer(serializers.Serializer):
    player_id = serializers.IntegerField()
    name = serializers.CharField(help_text="Their display name.")
    created_at = serializers.DateTimeField(help_text="When you blocked them.")


@extend_schema_serializer(component_name="PlayerExport")
class PlayerExportOutputSerializer(serializers.Serializer):
    exported_at = serializers.DateTimeField()
    account = PlayerDataAccountSerializer()
    tokens = PlayerDataTokenSerializer(many=True, help_text="Never a key or its digest.")
    seats = PlayerDataSeatSerializer(many=True, help_text="Every match the caller sat in.")
    rounds = PlayerDataRoundSerializer(many=True, help_text="The caller's own score in each round.")
    results = PlayerDataResultSerializer(many=True)
    ratings = PlayerDataRatingSerializer(many=True)
    rating_changes = PlayerDataRatingChangeSerializer(many=True)
    registrations = PlayerDataRegistrationSerializer(many=True)
    organised = PlayerDataOrganisedSerializer(many=True)
    claims = PlayerDataClaimSerializer(
        many=True, help_text="Guests' seats claimed into the account."
    )
    score_entries = PlayerDataScoreEntrySerializer(
        many=True, help_text="Table scores the caller entered."
    )
    chat = PlayerDataChatSerializer(
        many=True, help_text="The phrases the caller said in matches' quick chat."
    )
    chat_muted = PlayerDataChatMuteSerializer(
        many=True, help_text="The matches whose chat the caller muted."
    )
    notifications = NotificationSerializer(many=True, help_text="The caller's inbox, oldest first.")
    push_devices = PlayerDataPushDeviceSerializer(
        many=True, help_text="The devices pushed to (never a token or its keys)."
    )
    friends = PlayerDataFriendSerializer(many=True, help_text="Your friends, oldest first.")
    friend_requests = PlayerDataFriendRequestsSerializer()
    blocks = PlayerDataBlockSerializer(
        many=True, help_text="The players you blocked (never who blocked you)."
    )


class PlayerExportApi(GameApi):
    """Everything kept about the caller, as one JSON document (no hand, nobody else's data)."""

    @extend_schema(
        operation_id="player_export",
        summary="Export my data",
        tags=["accounts"],
        responses=apidocs.player_export_responses(PlayerExportOutputSerializer),
    )
    def get(self, request: Request) -> Response:
        player = Player.objects.select_related("user", "avatar").get(pk=self.player(request).pk)
        return Response(PlayerExportOutputSerializer(player_export(player=player)).data)
