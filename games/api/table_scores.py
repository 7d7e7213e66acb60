"""Table matches: enter a round's scores, and a guest's claim code and its redemption."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, extend_schema_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from chickenfoot.throttles import CODE_GUESS_THROTTLES, MOVE_THROTTLES, guesses_counted
from games.api.apidocs import table_scores as docs
from games.api.common import GameApi, etag, idempotency_key_from, version_from_if_match
from games.api.scorer_access import ScorerOrPlayerApi
from games.api.strict import (
    StrictBooleanField,
    StrictCharField,
    StrictIntegerField,
    StrictSerializer,
    TileField,
)
from games.problems import ClaimCodeUnknown
from games.tables.api_types import TableRoundOutputSerializer
from games.tables.claims import claim_code_issue, claim_redeem
from games.tables.services import ScoresOutcome, round_scores_enter, scores_right_check

#: The most tiles one hand can hold (a double-18 set has 190).
MAX_HAND = 190


def scores_submitted(
    request: Request, serializer_class: type[serializers.Serializer]
) -> tuple[dict[str, Any], int | None]:
    """A round's scores as sent (checked by ``serializer_class``), and the version they answer:
    the body's ``version``, or ``If-Match``."""
    data = serializer_class(data=request.data)
    data.is_valid(raise_exception=True)
    version = data.validated_data.get("version")
    if version is None:
        version = version_from_if_match(request.headers.get("If-Match"))
    return data.validated_data, version


def scores_answer(outcome: ScoresOutcome, status: HTTPStatus) -> Response:
    """The answer to an entry or a correction: ``ETag`` the new version, and
    ``Idempotent-Replayed`` when it is a first answer sent again."""
    headers = {"ETag": etag(outcome.version)}
    if outcome.replayed:
        headers["Idempotent-Replayed"] = "true"
    return Response(outcome.body, status=status, headers=headers)


@extend_schema_serializer(component_name="SeatScore")
class SeatScoreInputSerializer(StrictSerializer):
    seat = StrictIntegerField(min_value=0, max_value=21)
    points = StrictIntegerField(
        required=False, help_text="The seat's points (C-PIPS); or send `tiles`."
    )
    tiles = serializers.ListField(
        child=TileField(),
        required=False,
        max_length=MAX_HAND,
        help_text="The tiles left in the hand, `[[a, b], ...]`: the server sums them (C-PIPS).",
    )
    went_out = StrictBooleanField(required=False, default=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("points" in attrs) == ("tiles" in attrs):
            message = (
                _("Give `points` or `tiles`, not both.")
                if "points" in attrs
                else _("Give `points` or `tiles`.")
            )
            raise serializers.ValidationError({"points": [message]})
        return attrs


class RoundScoresApi(ScorerOrPlayerApi):
    """Enter round `number`'s scores of a table match: one entry per seat (docs/tables.md).

    Send the version you answer (`version` or `If-Match`): a stale one is refused (409). With
    `Idempotency-Key`, a retry returns the first answer. The last round finishes the match.
    """

    throttle_classes = MOVE_THROTTLES

    @extend_schema_serializer(component_name="RoundScoresEnter")
    class InputSerializer(StrictSerializer):
        version = StrictIntegerField(required=False, min_value=0)
        scores = SeatScoreInputSerializer(many=True, min_length=1, max_length=22)

    @extend_schema_serializer(component_name="RoundScoresEntered")
    class OutputSerializer(serializers.Serializer):
        version = serializers.IntegerField(help_text="The match's version after the entry.")
        status = serializers.ChoiceField(choices=["playing", "finished"])
        round = TableRoundOutputSerializer()

    @extend_schema(
        **docs.SCORES_DOCS,
        request=InputSerializer,
        responses=docs.scores_responses(OutputSerializer),
    )
    def post(self, request: Request, match_id: int, number: int) -> Response:
        scores_right_check(match_id=match_id, player=self.caller(request))
        values, version = scores_submitted(request, self.InputSerializer)
        outcome = round_scores_enter(
            match_id=match_id,
            player=self.caller(request),
            number=number,
            entries=[dict(entry) for entry in values["scores"]],
            expected_version=version,
            idempotency_key=idempotency_key_from(request.headers.get("Idempotency-Key")),
        )
        return scores_answer(outcome, HTTPStatus.CREATED)


class ClaimCodeApi(GameApi):
    """A one-time code for the guest at seat `position` (the match's creator only).

    The guest, signed in to an account, redeems it at `POST /api/players/me/claims`. It works
    once, for 7 days; only its hash is kept.
    """

    @extend_schema_serializer(component_name="ClaimCode")
    class OutputSerializer(serializers.Serializer):
        code = serializers.CharField(help_text="8 letters and digits; shown once.")
        expires_at = serializers.DateTimeField()
        guest_id = serializers.IntegerField()
        name = serializers.CharField(help_text="The guest's name.")

    @extend_schema(**docs.CLAIM_CODE_DOCS, responses=docs.claim_code_responses(OutputSerializer))
    def post(self, request: Request, match_id: int, position: int) -> Response:
        issued = claim_code_issue(match_id=match_id, position=position, player=self.player(request))
        body = {
            "code": issued.code,
            "expires_at": issued.expires_at,
            "guest_id": issued.guest_id,
            "name": issued.name,
        }
        return Response(self.OutputSerializer(body).data, status=HTTPStatus.CREATED)


class ClaimRedeemApi(GameApi):
    """Claim a guest's seats, results and history into your account with their claim code.

    Refused if you sat in one of the guest's matches yourself (one seat per person). A code
    that claims nothing counts against your account and your address (docs/reliability.md).
    """

    @extend_schema_serializer(component_name="ClaimRedeem")
    class InputSerializer(StrictSerializer):
        code = StrictCharField(max_length=32)

    @extend_schema_serializer(component_name="Claimed")
    class OutputSerializer(serializers.Serializer):
        player_id = serializers.IntegerField(help_text="You: the seats are yours now.")
        matches = serializers.ListField(child=serializers.IntegerField())

    @extend_schema(
        **docs.CLAIM_DOCS, request=InputSerializer, responses=docs.claim_responses(OutputSerializer)
    )
    def post(self, request: Request) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        player = self.player(request)
        with guesses_counted(request, CODE_GUESS_THROTTLES, failures=(ClaimCodeUnknown,)):
            matches = claim_redeem(player=player, code=data.validated_data["code"])
        return Response({"player_id": player.pk, "matches": matches})
