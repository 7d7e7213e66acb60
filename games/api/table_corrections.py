"""Table matches: correct a round's scores (PUT on the entry's path), reopen a locked match,
and read the score log."""

from __future__ import annotations

from http import HTTPStatus

from drf_spectacular.utils import extend_schema, extend_schema_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from chickenfoot.throttles import MOVE_THROTTLES
from games.api.apidocs import table_corrections as docs
from games.api.common import GameApi, idempotency_key_from
from games.api.scorer_access import ScorerOrPlayerApi
from games.api.strict import ID_MAX, StrictCharField, StrictIntegerField, StrictSerializer
from games.api.table_scores import (
    RoundScoresApi,
    SeatScoreInputSerializer,
    scores_answer,
    scores_submitted,
)
from games.tables.api_types import TableRoundOutputSerializer, TableSeatScoreOutputSerializer
from games.tables.corrections import (
    REASON_MAX,
    match_reopen,
    reopen_right_check,
    round_scores_amend,
)
from games.tables.score_log import LOG_PAGE_MAX, score_log_read
from games.tables.services import scores_right_check


class RoundScoresCorrectionApi(RoundScoresApi):
    """Enter round `number`'s scores (POST), or correct them (PUT, with a reason) until the
    match is locked: the same body, version and `Idempotency-Key` contract (docs/tables.md)."""

    @extend_schema_serializer(component_name="RoundScoresAmend")
    class AmendSerializer(StrictSerializer):
        version = StrictIntegerField(required=False, min_value=0)
        reason = StrictCharField(min_length=1, max_length=REASON_MAX, help_text="Why: kept.")
        scores = SeatScoreInputSerializer(many=True, min_length=1, max_length=22)

    @extend_schema_serializer(component_name="RoundScoresAmended")
    class AmendedSerializer(serializers.Serializer):
        version = serializers.IntegerField(help_text="The match's version after the correction.")
        status = serializers.ChoiceField(choices=["playing", "finished"])
        round = TableRoundOutputSerializer()
        reason = serializers.CharField()

    @extend_schema(
        **docs.AMEND_DOCS,
        request=AmendSerializer,
        responses=docs.amend_responses(AmendedSerializer),
    )
    def put(self, request: Request, match_id: int, number: int) -> Response:
        scores_right_check(match_id=match_id, player=self.caller(request))
        values, version = scores_submitted(request, self.AmendSerializer)
        outcome = round_scores_amend(
            match_id=match_id,
            player=self.caller(request),
            number=number,
            entries=[dict(entry) for entry in values["scores"]],
            reason=values["reason"],
            expected_version=version,
            idempotency_key=idempotency_key_from(request.headers.get("Idempotency-Key")),
        )
        return scores_answer(outcome, HTTPStatus.OK)


class MatchReopenApi(GameApi):
    """Reopen a locked table match for corrections, with a reason (its organiser only)."""

    throttle_classes = MOVE_THROTTLES

    @extend_schema_serializer(component_name="MatchReopen")
    class InputSerializer(StrictSerializer):
        reason = StrictCharField(min_length=1, max_length=REASON_MAX)

    @extend_schema_serializer(component_name="MatchReopened")
    class OutputSerializer(serializers.Serializer):
        match_id = serializers.IntegerField()
        reason = serializers.CharField()
        reopened_at = serializers.DateTimeField()

    @extend_schema(
        **docs.REOPEN_DOCS,
        request=InputSerializer,
        responses=docs.reopen_responses(OutputSerializer),
    )
    def post(self, request: Request, match_id: int) -> Response:
        reopen_right_check(match_id=match_id, player=self.player(request))
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        reopening = match_reopen(
            match_id=match_id, player=self.player(request), reason=data.validated_data["reason"]
        )
        body = {
            "match_id": reopening.match_id,
            "reason": reopening.reason,
            "reopened_at": reopening.created_at,
        }
        return Response(self.OutputSerializer(body).data, status=HTTPStatus.CREATED)


class ScoreAuthorSerializer(serializers.Serializer):
    player_id = serializers.IntegerField()
    name = serializers.CharField()


@extend_schema_serializer(component_name="ScoreLogEntry")
class ScoreLogEntrySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    round = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=["entry", "correction"])
    version = serializers.IntegerField(help_text="The match's version after it.")
    at = serializers.DateTimeField()
    author = ScoreAuthorSerializer(allow_null=True, help_text="Null: not entered by a player.")
    before = TableSeatScoreOutputSerializer(
        many=True, allow_null=True, help_text="The seats it replaced (null for a first entry)."
    )
    after = TableSeatScoreOutputSerializer(many=True, help_text="The seats as entered.")
    reason = serializers.CharField(allow_null=True)


@extend_schema_serializer(component_name="ScoreLogReopening")
class ScoreLogReopeningSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    at = serializers.DateTimeField()
    author = ScoreAuthorSerializer(allow_null=True, help_text="The organiser who reopened it.")
    reason = serializers.CharField(help_text="Why, as the organiser wrote it.")


class ScoreLogApi(ScorerOrPlayerApi):
    """A table match's score log: every entry and correction, oldest first, with who, when,
    the round's seats before and after, and a correction's reason, and every reopening of the
    match by its organiser: who, when and why (docs/tables.md). Its
    creator, its seated players, its organiser and its scorer links read it."""

    class QuerySerializer(StrictSerializer):
        after = serializers.IntegerField(required=False, min_value=0, max_value=ID_MAX)
        limit = serializers.IntegerField(
            required=False, min_value=1, max_value=LOG_PAGE_MAX, default=50
        )

    @extend_schema_serializer(component_name="ScoreLog")
    class OutputSerializer(serializers.Serializer):
        entries = ScoreLogEntrySerializer(many=True)
        next = serializers.IntegerField(allow_null=True)
        reopenings = ScoreLogReopeningSerializer(
            many=True, help_text="Every reopening of the match, oldest first (on each page)."
        )

    @extend_schema(**docs.SCORE_LOG_DOCS, responses=docs.score_log_responses(OutputSerializer))
    def get(self, request: Request, match_id: int) -> Response:
        query = self.QuerySerializer(data=request.query_params.dict())
        query.is_valid(raise_exception=True)
        page = score_log_read(
            match_id=match_id,
            player=self.caller(request),
            after=query.validated_data.get("after"),
            limit=query.validated_data["limit"],
        )
        return Response(self.OutputSerializer(page).data)
