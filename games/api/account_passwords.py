"""Passwords: ask for a reset link, set a new password with it, change it while logged in."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema, extend_schema_serializer
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from chickenfoot.throttles import (
    PASSWORD_CHECK_THROTTLES,
    PASSWORD_RESET_CONFIRM_THROTTLES,
    PASSWORD_RESET_THROTTLES,
)
from games.accounts.devices import set_cookie
from games.accounts.passwords import password_change, password_reset_confirm, password_reset_request
from games.api.account_email import link_base
from games.api.apidocs import account_passwords as apidocs
from games.api.common import GameApi
from games.api.players import PASSWORD_RULES
from games.api.strict import StrictCharField

#: The one answer to a reset request, whoever it names.
RESET_REQUESTED = gettext_lazy(
    "If an account matches and its e-mail address is verified, a link to reset its password "
    "is on its way there."
)


@extend_schema_serializer(component_name="PasswordResetRequested")
class ResetRequestedOutputSerializer(serializers.Serializer):
    detail = serializers.CharField(help_text="The same answer whether or not an account matches.")


@extend_schema_serializer(component_name="PasswordSet")
class PasswordSetOutputSerializer(serializers.Serializer):
    revoked = serializers.IntegerField(help_text="How many of the account's tokens were revoked.")


@extend_schema_serializer(component_name="PasswordChanged")
class PasswordChangedOutputSerializer(PasswordSetOutputSerializer):
    device_credential = serializers.CharField(
        allow_null=True,
        help_text="This client's new device credential: the change forgot every known device of "
        "the account (their credentials no longer count), and this client has just proved the "
        "password. Keep it as a log-in's `device_credential` is kept; null when the server "
        "gives none.",
    )


class PasswordResetApi(APIView):
    """Ask for a password-reset link, by e-mail address or username: always 202."""

    authentication_classes = ()
    permission_classes = (AllowAny,)
    throttle_classes = PASSWORD_RESET_THROTTLES

    @extend_schema_serializer(component_name="PasswordReset")
    class PasswordResetInputSerializer(serializers.Serializer):
        email = serializers.EmailField(required=False, help_text="A verified address; or:")
        username = StrictCharField(max_length=150, required=False)

        def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
            if bool(attrs.get("email")) == bool(attrs.get("username")):
                raise serializers.ValidationError(_("Send either `email` or `username`."))
            return attrs

    @extend_schema(
        operation_id="password_reset",
        summary="Ask for a password-reset link",
        tags=["accounts"],
        request=PasswordResetInputSerializer,
        examples=apidocs.PASSWORD_RESET_EXAMPLES,
        responses=apidocs.password_reset_responses(ResetRequestedOutputSerializer),
    )
    def post(self, request: Request) -> Response:
        data = self.PasswordResetInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        password_reset_request(**data.validated_data, link_base=link_base(request))
        return Response({"detail": RESET_REQUESTED}, status=HTTPStatus.ACCEPTED)


class PasswordResetConfirmApi(APIView):
    """Set a new password with a reset link's `uid` and `token`: every device logs out."""

    authentication_classes = ()
    permission_classes = (AllowAny,)
    throttle_classes = PASSWORD_RESET_CONFIRM_THROTTLES

    @extend_schema_serializer(component_name="PasswordResetConfirm")
    class PasswordResetConfirmInputSerializer(serializers.Serializer):
        uid = serializers.CharField(max_length=64, help_text="The link's `uid`.")
        token = serializers.CharField(max_length=128, help_text="The link's `token`.")
        new_password = serializers.CharField(max_length=128, help_text=PASSWORD_RULES)

    @extend_schema(
        operation_id="password_reset_confirm",
        summary="Set a new password with a reset link",
        tags=["accounts"],
        request=PasswordResetConfirmInputSerializer,
        examples=apidocs.PASSWORD_RESET_CONFIRM_EXAMPLES,
        responses=apidocs.password_reset_confirm_responses(PasswordSetOutputSerializer),
    )
    def post(self, request: Request) -> Response:
        data = self.PasswordResetConfirmInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        return Response({"revoked": password_reset_confirm(**data.validated_data)})


class PasswordChangeApi(GameApi):
    """Change the caller's password: their other tokens are revoked, this one keeps working;
    every known device is forgotten, and this client is given a new device credential."""

    throttle_classes = PASSWORD_CHECK_THROTTLES

    @extend_schema_serializer(component_name="PasswordChange")
    class PasswordChangeInputSerializer(serializers.Serializer):
        current_password = serializers.CharField(max_length=128)
        new_password = serializers.CharField(max_length=128, help_text=PASSWORD_RULES)

    @extend_schema(
        operation_id="password_change",
        summary="Change my password",
        tags=["accounts"],
        request=PasswordChangeInputSerializer,
        examples=apidocs.PASSWORD_CHANGE_EXAMPLES,
        responses=apidocs.password_change_responses(PasswordChangedOutputSerializer),
    )
    def post(self, request: Request) -> Response:
        data = self.PasswordChangeInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        revoked, credential = password_change(
            user=request.user,
            **data.validated_data,
            request=request._request,
            keep_token_id=request.auth.pk,
        )
        response = Response({"revoked": revoked, "device_credential": credential})
        set_cookie(response, request._request, credential)
        return response
