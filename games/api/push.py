"""Push to devices: the server's VAPID public key, and the caller's devices registered per token."""

from __future__ import annotations

import base64
import binascii
from http import HTTPStatus
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, extend_schema_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from chickenfoot.outside_addresses import OutsideAddressRefused, outside_url_check
from games.api.apidocs import push as docs
from games.api.common import GameApi
from games.api.strict import StrictCharField, StrictSerializer
from games.notifications.devices import device_delete, device_register
from games.notifications.models import DEVICE_KINDS


def _b64url_bytes(text: str) -> bytes | None:
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (ValueError, binascii.Error):
        return None


@extend_schema_serializer(component_name="WebPushKeys")
class KeysSerializer(StrictSerializer):
    p256dh = StrictCharField(
        max_length=200, help_text="The subscription's P-256 public key (base64url, 65 bytes)."
    )
    auth = StrictCharField(
        max_length=100, help_text="The subscription's auth secret (base64url, 16 bytes)."
    )

    def validate_p256dh(self, value: str) -> str:
        raw = _b64url_bytes(value)
        if raw is None or len(raw) != 65 or raw[0] != 4:
            raise serializers.ValidationError(_("Send the key as the browser gives it."))
        return value

    def validate_auth(self, value: str) -> str:
        raw = _b64url_bytes(value)
        if raw is None or len(raw) != 16:
            raise serializers.ValidationError(_("Send the secret as the browser gives it."))
        return value


@extend_schema_serializer(component_name="PushDevice")
class DeviceSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=DEVICE_KINDS)
    created_at = serializers.DateTimeField()


class VapidPublicKeyApi(GameApi):
    """The server's VAPID public key: a browser's ``applicationServerKey``."""

    @extend_schema_serializer(component_name="VapidPublicKey")
    class OutputSerializer(serializers.Serializer):
        public_key = serializers.CharField(
            allow_null=True, help_text="Base64url, uncompressed P-256 point; null: no Web Push."
        )

    @extend_schema(**docs.VAPID_DOCS, responses=docs.vapid_responses(OutputSerializer))
    def get(self, request: Request) -> Response:
        return Response({"public_key": settings.VAPID_PUBLIC_KEY or None})


class PushDeviceRegisterApi(GameApi):
    """Register a device: a Web Push subscription, or an APNs or FCM token."""

    @extend_schema_serializer(component_name="PushDeviceRegistration")
    class InputSerializer(StrictSerializer):
        kind = serializers.ChoiceField(choices=DEVICE_KINDS)
        endpoint = StrictCharField(required=False, max_length=1000, help_text="webpush only.")
        keys = KeysSerializer(required=False, help_text="webpush only.")
        expirationTime = serializers.IntegerField(  # noqa: N815  (PushSubscription.toJSON())
            required=False, allow_null=True, help_text="webpush: ignored."
        )
        token = StrictCharField(required=False, max_length=1000, help_text="apns and fcm only.")

        def validate(self, data: dict[str, Any]) -> dict[str, Any]:
            if data["kind"] != "webpush":
                if "token" not in data:
                    raise serializers.ValidationError({"token": [_("This field is required.")]})
                return data
            missing = {name: [_("This field is required.")] for name in ("endpoint", "keys")}
            errors = {name: why for name, why in missing.items() if name not in data}
            if "endpoint" in data:
                try:  # an outside address: resolved now, and again at each send
                    outside_url_check(data["endpoint"])
                except OutsideAddressRefused as refused:
                    errors["endpoint"] = [str(refused)]
            if errors:
                raise serializers.ValidationError(errors)
            return data

    @extend_schema(
        **docs.REGISTER_DOCS,
        request=InputSerializer,
        responses=docs.register_responses(DeviceSerializer),
    )
    def post(self, request: Request) -> Response:
        body = self.InputSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        keys = data.get("keys", {})
        device = device_register(
            player=self.player(request),
            kind=data["kind"],
            token=data.get("endpoint") or data["token"],
            p256dh=keys.get("p256dh", ""),
            auth=keys.get("auth", ""),
        )
        return Response(DeviceSerializer(device).data, status=HTTPStatus.CREATED)


class PushDeviceDeleteApi(GameApi):
    """Remove one of the caller's devices: it gets no pushes any more."""

    @extend_schema(**docs.DELETE_DOCS, responses=docs.DELETE_RESPONSES)
    def delete(self, request: Request, device_id: int) -> Response:
        device_delete(player=self.player(request), device_id=device_id)
        return Response(status=HTTPStatus.NO_CONTENT)
