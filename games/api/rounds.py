"""A match's rounds: how each started and ended, its scores, and its seed once revealed."""

from __future__ import annotations

from http import HTTPStatus

from drf_spectacular.utils import (
    extend_schema,
    extend_schema_serializer,
)
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from games.accounts.scorer_authentication import scorer_of
from games.api.apidocs import rounds as apidocs
from games.api.common import (
    ETAG_HEADER,
    IF_NONE_MATCH,
    MATCH_ID,
    etag,
    matches_etag,
)
from games.api.fields import TileOutputField
from games.api.scorer_access import ScorerOrPlayerApi
from games.models import Round
from games.results import BLOCKED, OUT, match_rounds
from games.selectors import match_for_player
from games.tables.scorer_links import match_for_scorer

#: A round's statuses (``Round.Status``'s values) under labels of their own: drf-spectacular names
#: an enum by its values and labels, and a stage's status has the same ones (StageStatusEnum).
ROUND_STATUS_CHOICES = [
    (Round.Status.PLAYING.value, "Round in play"),
    (Round.Status.FINISHED.value, "Round over"),
]


@extend_schema_serializer(component_name="Round")
class RoundOutputSerializer(serializers.Serializer):
    number = serializers.IntegerField(help_text="1-based.")
    start_double = TileOutputField(help_text="The double that started it (C-ROUNDS).")
    status = serializers.ChoiceField(choices=ROUND_STATUS_CHOICES)
    scores = serializers.ListField(
        child=serializers.IntegerField(),
        allow_null=True,
        help_text="Points per seat (C-PIPS); null while the round runs.",
    )
    ended_by = serializers.ChoiceField(
        choices=[OUT, BLOCKED],
        allow_null=True,
        help_text="`out`: a seat played its last tile (`went_out`); `blocked`: nobody could "
        "play; null while the round runs.",
    )
    went_out = serializers.IntegerField(
        allow_null=True, help_text="The seat that went out; null if blocked or running."
    )
    commitment = serializers.CharField(help_text="SHA-256 of the round's seed (C-SHUFFLE).")
    seed = serializers.CharField(
        allow_null=True, help_text="The round's seed, revealed once it is over; null before."
    )
    started_at = serializers.DateTimeField()
    ended_at = serializers.DateTimeField(allow_null=True)


class MatchRoundsApi(ScorerOrPlayerApi):
    """Every round dealt so far: start double, status, scores, how it ended, commitment, seed.

    Nothing of a running round's hands or boneyard is shown (C-HIDDEN); its seed is revealed
    when it ends, so anyone can recompute its deal (docs/api.md, "Fair shuffles"). A scorer
    link (`Authorization: Scorer <code>`) reads its own table match's rounds.
    """

    @extend_schema_serializer(component_name="MatchRounds")
    class MatchRoundsOutputSerializer(serializers.Serializer):
        rounds = RoundOutputSerializer(many=True)

    @extend_schema(
        operation_id="match_rounds",
        summary="The rounds of a match",
        tags=["matches"],
        parameters=[MATCH_ID, IF_NONE_MATCH, ETAG_HEADER],
        responses=apidocs.match_rounds_responses(MatchRoundsOutputSerializer),
    )
    def get(self, request: Request, match_id: int) -> Response:
        scorer = scorer_of(request)
        if scorer is not None:
            match = match_for_scorer(match_id=match_id, scorer=scorer)
        else:
            match, _ = match_for_player(match_id=match_id, player=self.player(request))
        headers = {"ETag": etag(match.version), "Vary": "Authorization"}
        if matches_etag(request.headers.get("If-None-Match"), match.version):
            return Response(status=HTTPStatus.NOT_MODIFIED, headers=headers)
        return Response({"rounds": match_rounds(match=match)}, headers=headers)
