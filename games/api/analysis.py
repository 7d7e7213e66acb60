"""A finished match's analysis and replay, and hints while a match with hints plays."""

from __future__ import annotations

from http import HTTPStatus

from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from games.analysis.hints import hint_give
from games.analysis.models import MatchAnalysis
from games.analysis.selectors import (
    analysis_body,
    finished_match_for,
    match_analysis,
    replay_body,
)
from games.api.analysis_types import (
    HintSerializer,
    MatchAnalysisSerializer,
    MatchReplaySerializer,
    ReplayQuerySerializer,
)
from games.api.apidocs import analysis as apidocs
from games.api.common import MATCH_ID, GameApi
from games.models import Player


class _StudyApi(GameApi):
    """A token is optional: without one, only a match of a public competition is open."""

    permission_classes = (AllowAny,)

    def caller(self, request: Request) -> Player | None:
        return self.player(request) if request.user.is_authenticated else None


class MatchAnalysisApi(_StudyApi):
    """A finished match's analysis: 202 while it runs, 200 once done."""

    @extend_schema(
        **apidocs.MATCH_ANALYSIS_DOCS,
        description=apidocs.MATCH_ANALYSIS_DESCRIPTION,
        parameters=[MATCH_ID],
        responses=apidocs.match_analysis_responses(MatchAnalysisSerializer),
    )
    def get(self, request: Request, match_id: int) -> Response:
        match = finished_match_for(match_id=match_id, player=self.caller(request))
        analysis = match_analysis(match=match)
        done = analysis.status == MatchAnalysis.Status.DONE
        return Response(
            analysis_body(match=match, analysis=analysis),
            status=HTTPStatus.OK if done else HTTPStatus.ACCEPTED,
        )


class MatchReplayApi(_StudyApi):
    """A finished match after move ``seq``, every tile face up."""

    @extend_schema(
        **apidocs.MATCH_REPLAY_DOCS,
        description=apidocs.MATCH_REPLAY_DESCRIPTION,
        parameters=[MATCH_ID, ReplayQuerySerializer],
        responses=apidocs.match_replay_responses(MatchReplaySerializer),
    )
    def get(self, request: Request, match_id: int) -> Response:
        query = ReplayQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        match = finished_match_for(match_id=match_id, player=self.caller(request), replay=True)
        return Response(replay_body(match=match, seq=query.validated_data["seq"]))


class HintApi(GameApi):
    """The strong bot's move for the caller's seat, from that seat's knowledge."""

    @extend_schema(
        **apidocs.HINT_DOCS,
        description=apidocs.HINT_DESCRIPTION,
        parameters=[MATCH_ID],
        responses=apidocs.hint_responses(HintSerializer),
    )
    def get(self, request: Request, match_id: int) -> Response:
        return Response(hint_give(match_id=match_id, player=self.player(request)))
