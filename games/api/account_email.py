"""The caller's e-mail address: read it, set it (a verification mail goes out), verify it."""

from __future__ import annotations

from django.conf import settings
from drf_spectacular.utils import extend_schema, extend_schema_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from chickenfoot.throttles import EMAIL_SEND_THROTTLES, EMAIL_VERIFY_THROTTLES
from games.accounts.addresses import email_set, email_verify
from games.api.apidocs import account_email as apidocs
from games.api.common import GameApi
from games.models import Player


def link_base(request: Request) -> str:
    """Where the links of a mail sent for ``request`` point (``ACCOUNT_LINK_BASE_URL``)."""
    return str(settings.ACCOUNT_LINK_BASE_URL) or request.build_absolute_uri("/").rstrip("/")


@extend_schema_serializer(component_name="EmailAddress")
class EmailOutputSerializer(serializers.Serializer):
    email = serializers.EmailField(allow_blank=True, help_text="Empty: none.")
    verified = serializers.BooleanField()
    verified_at = serializers.DateTimeField(allow_null=True)
    verification_sent = serializers.BooleanField(
        help_text="Did this request send a verification mail (to `email`)?"
    )


def email_json(player: Player, *, sent: bool = False) -> dict[str, object]:
    return EmailOutputSerializer(
        {
            "email": player.email,
            "verified": player.email_verified_at is not None,
            "verified_at": player.email_verified_at,
            "verification_sent": sent,
        }
    ).data


class EmailApi(GameApi):
    """The caller's address: read it, or set it (unverified until its link is opened)."""

    def get_throttles(self) -> list:
        return [t() for t in EMAIL_SEND_THROTTLES] if self.request.method == "PUT" else []

    @extend_schema_serializer(component_name="EmailSet")
    class EmailSetInputSerializer(serializers.Serializer):
        email = serializers.EmailField(allow_blank=True, help_text=apidocs.EMAIL_HELP)

    @extend_schema(
        operation_id="email_read",
        summary="My e-mail address",
        tags=["accounts"],
        responses=apidocs.email_read_responses(EmailOutputSerializer),
    )
    def get(self, request: Request) -> Response:
        return Response(email_json(Player.objects.get(pk=self.player(request).pk)))

    @extend_schema(
        operation_id="email_set",
        summary="Set my e-mail address",
        tags=["accounts"],
        request=EmailSetInputSerializer,
        examples=apidocs.EMAIL_SET_EXAMPLES,
        responses=apidocs.email_set_responses(EmailOutputSerializer),
    )
    def put(self, request: Request) -> Response:
        data = self.EmailSetInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        player, sent = email_set(
            player_id=self.player(request).pk,
            email=data.validated_data["email"],
            link_base=link_base(request),
        )
        return Response(email_json(player, sent=sent))


class EmailVerifyApi(GameApi):
    """Verify the caller's address with the token of the link mailed to it."""

    throttle_classes = EMAIL_VERIFY_THROTTLES

    @extend_schema_serializer(component_name="EmailVerify")
    class EmailVerifyInputSerializer(serializers.Serializer):
        token = serializers.CharField(max_length=500, help_text=apidocs.TOKEN_HELP)

    @extend_schema(
        operation_id="email_verify",
        summary="Verify my e-mail address",
        tags=["accounts"],
        request=EmailVerifyInputSerializer,
        examples=apidocs.EMAIL_VERIFY_EXAMPLES,
        responses=apidocs.email_verify_responses(EmailOutputSerializer),
    )
    def post(self, request: Request) -> Response:
        data = self.EmailVerifyInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        player = email_verify(player_id=self.player(request).pk, token=data.validated_data["token"])
        return Response(email_json(player))
