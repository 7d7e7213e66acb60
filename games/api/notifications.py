"""The caller's notifications: the inbox in pages, marking read, preferences, a socket ticket."""

from __future__ import annotations

from http import HTTPStatus

from django.conf import settings
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, extend_schema_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from chickenfoot.query import StrictCursor, check_query_params, page_size_check
from games.api.apidocs import notifications as docs
from games.api.common import GameApi
from games.api.strict import ID_MAX, StrictBooleanField, StrictSerializer
from games.live.access import ticket_issue
from games.notifications.inbox import (
    inbox_json,
    inbox_rows,
    notifications_read,
    preferences_get,
    preferences_set,
    unread_count,
)
from games.notifications.models import KINDS
from games.notifications.socket import ME_TICKET

INBOX_PAGE_MAX = 100


@extend_schema_serializer(component_name="NotificationPayload")
class PayloadSerializer(serializers.Serializer):
    """Public facts only: which match (a friend request's: which request), and for some kinds
    a seat, a round or who did it."""

    match_id = serializers.IntegerField(
        required=False, help_text="Every kind but friend_request and friend_accepted."
    )
    seat = serializers.IntegerField(required=False, help_text="your_turn, round_disputed.")
    round = serializers.IntegerField(required=False, help_text="round_disputed, result_corrected.")
    by_player_id = serializers.IntegerField(
        required=False,
        help_text="Who invited (invited), asked (friend_request) or accepted (friend_accepted).",
    )
    request_id = serializers.IntegerField(
        required=False, help_text="friend_request, friend_accepted: the friend request."
    )


@extend_schema_serializer(component_name="Notification")
class NotificationSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=KINDS)
    payload = PayloadSerializer()
    created_at = serializers.DateTimeField()
    read = serializers.BooleanField()


@extend_schema_serializer(component_name="InboxNotification")
class InboxNotificationSerializer(NotificationSerializer):
    title = serializers.CharField(
        help_text="What its push says, in the caller's language: a short line (at most 80 "
        "characters), names as they were written (plain text)."
    )
    body = serializers.CharField(
        help_text="What its push says below the title (at most 240 characters)."
    )


@extend_schema_serializer(component_name="NotificationPreference")
class PreferenceSerializer(StrictSerializer):
    kind = serializers.ChoiceField(choices=KINDS)
    inbox = serializers.BooleanField(read_only=True, help_text="Always: every kind is kept.")
    push = StrictBooleanField(help_text="Pushed to the caller's devices.")


@extend_schema_serializer(component_name="NotificationPreferences")
class PreferencesSerializer(StrictSerializer):
    preferences = PreferenceSerializer(many=True)


class InboxCursor(StrictCursor):
    """Keyset paging of the inbox, newest first (by id: the order they were written): a page
    does not shift when new notifications come (they come before the first page)."""

    ordering = ("-id",)
    page_size = 50
    max_page_size = INBOX_PAGE_MAX


class NotificationListApi(GameApi):
    """The caller's notifications, newest first, in pages by a cursor; the unread count."""

    @extend_schema_serializer(component_name="NotificationPage")
    class OutputSerializer(serializers.Serializer):
        next = serializers.URLField(allow_null=True, help_text="The next (older) page.")
        previous = serializers.URLField(allow_null=True, help_text="The page before.")
        results = InboxNotificationSerializer(many=True)
        unread = serializers.IntegerField(help_text="Unread notifications of the caller, all.")

    @extend_schema(**docs.LIST_DOCS, responses=docs.list_responses(OutputSerializer))
    def get(self, request: Request) -> Response:
        paginator = InboxCursor()
        check_query_params(
            request.query_params,
            (paginator.cursor_query_param, "page_size"),
            page_size_check(paginator, request),
        )
        player = self.player(request)
        rows = paginator.paginate_queryset(inbox_rows(player=player), request, view=self) or []
        page = {
            "next": paginator.get_next_link(),
            "previous": paginator.get_previous_link(),
            "results": inbox_json(list(rows), player=player),
            "unread": unread_count(player=player),
        }
        return Response(self.OutputSerializer(page).data)


class NotificationReadApi(GameApi):
    """Mark notifications read: those ``ids``, or every one up to the id ``up_to``."""

    @extend_schema_serializer(component_name="NotificationsRead")
    class InputSerializer(StrictSerializer):
        ids = serializers.ListField(
            child=serializers.IntegerField(min_value=1, max_value=ID_MAX),
            required=False,
            max_length=500,
        )
        up_to = serializers.IntegerField(required=False, min_value=1, max_value=ID_MAX)

        def validate(self, data: dict[str, object]) -> dict[str, object]:
            if ("ids" in data) == ("up_to" in data):
                raise serializers.ValidationError({"ids": [_("Send `ids` or `up_to`, one.")]})
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
