"""A table round's confirmation, dispute and resolution, and who must confirm (docs/tables.md)."""

from __future__ import annotations

from http import HTTPStatus

from drf_spectacular.utils import extend_schema, extend_schema_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from games.api.apidocs import round_reviews as docs
from games.api.common import GameApi
from games.api.strict import StrictCharField, StrictSerializer
from games.tables.api_types import RoundReviewFields
from games.tables.models import TableSettings
from games.tables.reviews import (
    review_right_check,
    round_confirm,
    round_dispute,
    round_resolve,
    table_settings_set,
)

#: The longest dispute reason or resolution note.
MAX_REASON = 500


@extend_schema_serializer(component_name="RoundReviewed")
class RoundReviewedSerializer(RoundReviewFields):
    version = serializers.IntegerField(help_text="The match's version after the review.")
    round = serializers.IntegerField()


class TableSettingsApi(GameApi):
    """Who must confirm each round: `nobody` (the default, unless the match's table competition
    sets another), `any_other_seat` (one seat with an account other than the one who entered
    it) or `every_seat` (every seat with an account). The match's creator only."""

    @extend_schema_serializer(component_name="TableSettings")
    class InputSerializer(StrictSerializer):
        confirmation = serializers.ChoiceField(choices=TableSettings.Confirmation.values)

    @extend_schema(
        **docs.SETTINGS_DOCS,
        request=InputSerializer,
        responses=docs.settings_responses(InputSerializer),
    )
    def patch(self, request: Request, match_id: int) -> Response:
        review_right_check(match_id=match_id, player=self.player(request), action="settings")
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        rule = table_settings_set(
            match_id=match_id,
            player=self.player(request),
            confirmation=data.validated_data["confirmation"],
        )
        return Response({"confirmation": rule})


class RoundConfirmApi(GameApi):
    """Confirm round `number`'s scores as last entered: a seated player with an account, not the
    one who entered them. A second confirmation by the same seat is refused (409)."""

    @extend_schema(**docs.CONFIRM_DOCS, responses=docs.confirm_responses(RoundReviewedSerializer))
    def post(self, request: Request, match_id: int, number: int) -> Response:
        body = round_confirm(match_id=match_id, player=self.player(request), number=number)
        return Response(RoundReviewedSerializer(body).data, status=HTTPStatus.CREATED)


class RoundDisputeApi(GameApi):
    """Dispute round `number`'s scores, with a reason (a seated player with an account). The
    round still counts; the match view flags it until the creator resolves it."""

    @extend_schema_serializer(component_name="RoundDispute")
    class InputSerializer(StrictSerializer):
        reason = StrictCharField(min_length=1, max_length=MAX_REASON)

    @extend_schema(
        **docs.DISPUTE_DOCS,
        request=InputSerializer,
        responses=docs.dispute_responses(RoundReviewedSerializer),
    )
    def post(self, request: Request, match_id: int, number: int) -> Response:
        review_right_check(match_id=match_id, player=self.player(request), action="dispute")
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        body = round_dispute(
            match_id=match_id,
            player=self.player(request),
            number=number,
            reason=data.validated_data["reason"],
        )
        return Response(RoundReviewedSerializer(body).data, status=HTTPStatus.CREATED)


class RoundResolveApi(GameApi):
    """Resolve round `number`'s open dispute with a note (the match's creator). Correct the
    scores first, if they need it, through score entry."""

    @extend_schema_serializer(component_name="RoundResolve")
    class InputSerializer(StrictSerializer):
        note = StrictCharField(min_length=1, max_length=MAX_REASON)

    @extend_schema(
        **docs.RESOLVE_DOCS,
        request=InputSerializer,
        responses=docs.resolve_responses(RoundReviewedSerializer),
    )
    def post(self, request: Request, match_id: int, number: int) -> Response:
        review_right_check(match_id=match_id, player=self.player(request), action="resolve")
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        body = round_resolve(
            match_id=match_id,
            player=self.player(request),
            number=number,
            note=data.validated_data["note"],
        )
        return Response(RoundReviewedSerializer(body).data, status=HTTPStatus.CREATED)
