"""The bodies of the invitation endpoints: what is sent, what comes back."""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

from chickenfoot.openapi import AVATAR_SMALL_URL_HELP, AVATAR_URL_HELP
from games.api.strict import (
    StrictBooleanField,
    StrictCharField,
    StrictIntegerField,
    StrictSerializer,
)
from games.avatars.urls import avatar_urls_of
from games.invitations.models import Invitation
from games.models import Match, Player


@extend_schema_serializer(component_name="InvitationCreate")
class InvitationCreateInputSerializer(StrictSerializer):
    seat = StrictIntegerField(
        min_value=0, required=False, help_text="The seat to hold; left out: the first open one."
    )
    player_id = StrictIntegerField(min_value=1, required=False, help_text="Who is invited.")
    username = StrictCharField(max_length=150, required=False, help_text="Who is invited.")
    link = StrictBooleanField(
        default=False, help_text="`true`: a link whose code (shown once) takes the seat."
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        named = [name for name in ("player_id", "username") if name in attrs]
        if attrs["link"] and named:
            raise serializers.ValidationError({"link": [_("A link invites nobody by name.")]})
        if len(named) > 1:
            raise serializers.ValidationError({"username": [_("Name the player once.")]})
        if not attrs["link"] and not named:
            raise serializers.ValidationError(
                {"player_id": [_("Invite a player (player_id or username) or ask for a link.")]}
            )
        return attrs


@extend_schema_serializer(component_name="InvitationCodeAccept")
class InvitationCodeInputSerializer(StrictSerializer):
    code = StrictCharField(max_length=32, help_text="The link's code.")
    match_id = StrictIntegerField(
        min_value=1,
        required=False,
        help_text="The match the link names, if the client knows it: a code of another "
        "match's link is refused.",
    )


@extend_schema_serializer(component_name="InvitationPlayer")
class InvitationPlayerSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    avatar_url = serializers.URLField(help_text=AVATAR_URL_HELP)
    avatar_small_url = serializers.URLField(help_text=AVATAR_SMALL_URL_HELP)


@extend_schema_serializer(component_name="Invitation")
class InvitationOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    match_id = serializers.IntegerField()
    variant = serializers.ChoiceField(choices=Match.Variant.choices)
    seat = serializers.IntegerField(help_text="The seat held.")
    state = serializers.ChoiceField(
        choices=Invitation.State.choices, help_text="A pending one past `expires_at` is `expired`."
    )
    link = serializers.BooleanField(help_text="A link: whoever holds its code takes the seat.")
    inviter = InvitationPlayerSerializer()
    invitee = InvitationPlayerSerializer(allow_null=True, help_text="`null` for a link.")
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField()
    closed_at = serializers.DateTimeField(allow_null=True)


@extend_schema_serializer(component_name="InvitationIssued")
class InvitationIssuedSerializer(InvitationOutputSerializer):
    code = serializers.CharField(
        allow_null=True, help_text="A link's code, shown once; `null` for a player's."
    )
    url = serializers.URLField(
        allow_null=True,
        help_text="A link's address for the app: `<base>/invite/#<code>`; `null` for a player's.",
    )


def _person(player: Player) -> dict[str, Any]:
    return {"id": player.pk, "name": player.display_name, **avatar_urls_of(player)}


def invitation_body(invitation: Invitation) -> dict[str, Any]:
    """What an invitation shows: its match, seat and people; never the match's state or a
    link's code."""
    state = invitation.state
    if state == Invitation.State.PENDING and invitation.expires_at <= timezone.now():
        state = Invitation.State.EXPIRED
    invitee = invitation.invitee
    return {
        "id": invitation.pk,
        "match_id": invitation.match_id,
        "variant": invitation.match.variant,
        "seat": invitation.position,
        "state": state,
        "link": bool(invitation.code_hash),
        "inviter": _person(invitation.inviter),
        "invitee": None if invitee is None else _person(invitee),
        "created_at": invitation.created_at,
        "expires_at": invitation.expires_at,
        "closed_at": invitation.closed_at,
    }
