"""The caller's notifications: the inbox in pages, marking read, preferences, a socket ticket."""

from __future__ import annotations

from http import HTTPStatus

from django.conf import settings
from drf_spectacular.utils import extend_schema, extend_schema_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from games.api.apidocs import notifications as docs
from games.api.common import GameApi
from games.api.strict import QuerySerializer, StrictBooleanField, StrictSerializer
from games.live.access import ticket_issue
from games.notifications.inbox import (
    inbox_page,
    notifications_read,
    preferences_get,
    preferences_set,
)
from games.notifications.models import KINDS
from games.notifications.socket import ME_TICKET

INBOX_PAGE_MAX = 100


@extend_schema_serializer(component_name="NotificationPayload")
class PayloadSerializer(serializers.Serializer):
    """Public facts only: which match, and for some kinds a seat or a round."""

    match_id = serializers.IntegerField()
    seat = serializers.IntegerField(required=False, help_text="your_turn, round_disputed.")
    round = serializers.IntegerField(required=False, help_text="round_disputed, result_corrected.")
    by_player_id = serializers.IntegerField(required=False, help_text="invited: who invited.")


@extend_schema_serializer(component_name="Notification")
class NotificationSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=KINDS)
    payload = PayloadSerializer()
    created_at = serializers.DateTimeField()
    read = serializers.BooleanField()


@extend_schema_serializer(component_name="NotificationPreference")
class PreferenceSerializer(StrictSerializer):
    kind = serializers.ChoiceField(choices=KINDS)
    inbox = serializers.BooleanField(read_only=True, help_text="Always: every kind is kept.")
    push = StrictBooleanField(help_text="Pushed to the caller's devices.")


@extend_schema_serializer(component_name="NotificationPreferences")
class PreferencesSerializer(StrictSerializer):
    preferences = PreferenceSerializer(many=True)


class NotificationListApi(GameApi):
    """The caller's notifications, newest first, in pages by a cursor; the unread count."""

    class ListQuerySerializer(QuerySerializer):
        after = serializers.IntegerField(required=False, min_value=0)
        limit = serializers.IntegerField(
            required=False, min_value=1, max_value=INBOX_PAGE_MAX, default=50
        )

    @extend_schema_serializer(component_name="NotificationPage")
    class OutputSerializer(serializers.Serializer):
        notifications = NotificationSerializer(many=True)
        next = serializers.IntegerField(allow_null=True, help_text="The next page's `after`.")
        unread = serializers.IntegerField(help_text="Unread notifications of the caller, all.")

    @extend_schema(**docs.LIST_DOCS, responses=docs.list_responses(OutputSerializer))
    def get(self, request: Request) -> Response:
        query = self.ListQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        page = inbox_page(
            player=self.player(request),
            after=query.validated_data.get("after"),
            limit=query.validated_data["limit"],
        )
        return Response(self.OutputSerializer(page).data)


class NotificationReadApi(GameApi):
    """Mark notifications read: those ``ids``, or every one up to the id ``up_to``."""

    @extend_schema_serializer(component_name="NotificationsRead")
    class InputSerializer(StrictSerializer):
        ids = serializers.ListField(
            child=serializers.IntegerField(min_value=1), required=False, max_length=500
        )
        up_to = serializers.IntegerField(required=False, min_value=1)

        def validate(self, data: dict[str, object]) -> dict[str, object]:
            if ("ids" in data) == ("up_to" in data):
                raise serializers.ValidationError({"ids": ["Send `ids` or `up_to`, one."]})
            return data

    @extend_schema_serializer(component_name="NotificationsUnread")
    class OutputSerializer(serializers.Serializer):
        unread = serializers.IntegerField(help_text="Unread notifications left.")

    @extend_schema(
        **docs.READ_DOCS, request=InputSerializer, responses=docs.read_responses(OutputSerializer)
    )
    def post(self, request: Request) -> Response:
        body = self.InputSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        unread = notifications_read(
            player=self.player(request),
            ids=body.validated_data.get("ids"),
            up_to=body.validated_data.get("up_to"),
        )
        return Response({"unread": unread})


class NotificationPreferencesApi(GameApi):
    """Per kind, the channels it goes out on: the inbox always, push as the caller chooses."""

    @extend_schema(
        **docs.PREFERENCES_GET_DOCS, responses=docs.preferences_responses(PreferencesSerializer)
    )
    def get(self, request: Request) -> Response:
        body = {"preferences": preferences_get(player=self.player(request))}
        return Response(PreferencesSerializer(body).data)

    @extend_schema(
        **docs.PREFERENCES_PUT_DOCS,
        request=PreferencesSerializer,
        responses=docs.preferences_responses(PreferencesSerializer, put=True),
    )
    def put(self, request: Request) -> Response:
        body = PreferencesSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        preferences = preferences_set(
            player=self.player(request), preferences=body.validated_data["preferences"]
        )
        return Response(PreferencesSerializer({"preferences": preferences}).data)


class NotificationTicketApi(GameApi):
    """A one-use ticket to open ``/ws/me/`` without an ``Authorization`` header."""

    @extend_schema_serializer(component_name="NotificationTicket")
    class OutputSerializer(serializers.Serializer):
        ticket = serializers.CharField(help_text="Send it as `?ticket=`; good for one socket.")
        expires_in = serializers.IntegerField(help_text="Seconds the ticket stays valid.")
        url = serializers.CharField(help_text="The socket's path, with the ticket.")

    @extend_schema(
        **docs.TICKET_DOCS, request=None, responses=docs.ticket_responses(OutputSerializer)
    )
    def post(self, request: Request) -> Response:
        ticket = ticket_issue(token=request.auth, match_id=ME_TICKET)
        body = {
            "ticket": ticket,
            "expires_in": settings.LIVE_TICKET_SECONDS,
            "url": f"/ws/me/?ticket={ticket}",
        }
        return Response(self.OutputSerializer(body).data, status=HTTPStatus.CREATED)
