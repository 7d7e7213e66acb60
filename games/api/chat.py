"""Quick chat at a match's table: say a phrase, read the chat, mute it, list the phrases
(docs/api.md, "Quick chat")."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema, extend_schema_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from chickenfoot.throttles import ChatThrottle
from games.api.apidocs import chat as apidocs
from games.api.common import MATCH_ID, GameApi
from games.api.strict import ID_MAX, QuerySerializer, StrictSerializer
from games.chat.access import seated_match
from games.chat.phrases import PHRASE_IDS, PHRASE_KINDS, phrases_json
from games.chat.reading import chat_muted, chat_read
from games.chat.services import chat_mute, chat_send


@extend_schema_serializer(component_name="ChatPhrase")
class PhraseOutputSerializer(serializers.Serializer):
    id = serializers.ChoiceField(choices=PHRASE_IDS, help_text="What the chat takes and keeps.")
    kind = serializers.ChoiceField(choices=PHRASE_KINDS)
    emoji = serializers.CharField()
    text = serializers.CharField(help_text="In the caller's language.")


@extend_schema_serializer(component_name="ChatMessage")
class MessageOutputSerializer(serializers.Serializer):
    seq = serializers.IntegerField(
        min_value=1, help_text="The phrase's number in the match's chat (not a move `seq`)."
    )
    seat = serializers.IntegerField(min_value=0, help_text="The sender's seat.")
    player_id = serializers.IntegerField(help_text="The sender.")
    phrase = serializers.ChoiceField(choices=PHRASE_IDS)
    kind = serializers.ChoiceField(choices=PHRASE_KINDS)
    emoji = serializers.CharField()
    text = serializers.CharField(help_text="The phrase in the reader's language.")
    sent_at = serializers.DateTimeField()


class PhraseField(serializers.ChoiceField):
    """A phrase id: a JSON string of the list, nothing turned into one; a refusal names the
    list."""

    default_error_messages = {
        "invalid_choice": gettext_lazy('"{input}" is not a phrase: send one of {allowed}.')
    }

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str) or data not in self.choices:
            self.fail("invalid_choice", input=data, allowed=apidocs.ALLOWED)
        return data


class ChatApi(GameApi):
    """The chat of a match: its seats say phrases (`POST`) and read them (`GET`)."""

    @extend_schema_serializer(component_name="ChatSend")
    class ChatSendInputSerializer(StrictSerializer):
        """What a seat says: one phrase id of the list, never text."""

        phrase = PhraseField(choices=PHRASE_IDS, help_text="A phrase id (`GET /api/chat/phrases`).")

    class ChatFilterSerializer(QuerySerializer):
        after = serializers.IntegerField(
            min_value=0, max_value=ID_MAX, required=False, default=0, help_text="A chat `seq`."
        )

    @extend_schema_serializer(component_name="MatchChat")
    class ChatOutputSerializer(serializers.Serializer):
        muted = serializers.BooleanField(help_text="Whether the caller muted this chat.")
        last_seq = serializers.IntegerField(
            min_value=0, help_text="Pass as `after` to read on (the last phrase read, or `after`)."
        )
        messages = MessageOutputSerializer(many=True)

    def get_throttles(self) -> list[Any]:
        return [ChatThrottle()] if self.request.method == "POST" else []

    @extend_schema(
        operation_id="chat_send",
        **apidocs.CHAT_SEND_HEADING,
        parameters=[MATCH_ID],
        request=ChatSendInputSerializer,
        responses=apidocs.chat_send_responses(MessageOutputSerializer),
    )
    def post(self, request: Request, match_id: int) -> Response:
        player = self.player(request)
        seated_match(match_id=match_id, player=player)  # an outsider learns nothing of the body
        data = self.ChatSendInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        message = chat_send(match_id=match_id, player=player, phrase=data.validated_data["phrase"])
        said = chat_read(match_id=match_id, viewer=player, after=message.seq - 1, limit=1)
        return Response(said.messages[0], status=HTTPStatus.CREATED)

    @extend_schema(
        operation_id="chat_read",
        **apidocs.CHAT_READ_HEADING,
        parameters=[MATCH_ID, ChatFilterSerializer],
        responses=apidocs.chat_read_responses(ChatOutputSerializer),
    )
    def get(self, request: Request, match_id: int) -> Response:
        filters = self.ChatFilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        player = self.player(request)
        seated_match(match_id=match_id, player=player)
        page = chat_read(match_id=match_id, viewer=player, after=filters.validated_data["after"])
        muted = chat_muted(match_id=match_id, player=player)
        return Response({"muted": muted, "last_seq": page.last_seq, "messages": page.messages})


@extend_schema_serializer(component_name="ChatMute")
class MuteOutputSerializer(serializers.Serializer):
    muted = serializers.BooleanField()


class ChatMuteApi(GameApi):
    """Mute a match's chat for yourself (`POST`), or unmute it (`DELETE`)."""

    @extend_schema(
        operation_id="chat_mute",
        summary="Mute the table's chat for me",
        **apidocs.CHAT_MUTE_HEADING,
        parameters=[MATCH_ID],
        request=None,
        responses=apidocs.chat_mute_responses(MuteOutputSerializer, muted=True),
    )
    def post(self, request: Request, match_id: int) -> Response:
        muted = chat_mute(match_id=match_id, player=self.player(request), muted=True)
        return Response({"muted": muted})

    @extend_schema(
        operation_id="chat_unmute",
        summary="Unmute the table's chat for me",
        **apidocs.CHAT_MUTE_HEADING,
        parameters=[MATCH_ID],
        request=None,
        responses=apidocs.chat_mute_responses(MuteOutputSerializer, muted=False),
    )
    def delete(self, request: Request, match_id: int) -> Response:
        muted = chat_mute(match_id=match_id, player=self.player(request), muted=False)
        return Response({"muted": muted})


class ChatPhrasesApi(GameApi):
    """The quick chat's phrases and emotes, their texts in the caller's language."""

    @extend_schema(
        operation_id="chat_phrases",
        **apidocs.CHAT_PHRASES_HEADING,
        responses=apidocs.chat_phrases_responses(PhraseOutputSerializer),
    )
    def get(self, request: Request) -> Response:
        return Response(phrases_json())


__all__ = ["ChatApi", "ChatMuteApi", "ChatPhrasesApi"]
