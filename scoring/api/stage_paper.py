"""A stage on paper: its scorer links (for the table cards), the table cards and the pairings."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from chickenfoot.query import check_query_params
from chickenfoot.renderers import PDFRenderer, pdf_response
from scoring.api.apidocs import stage_paper as apidocs
from scoring.api.competition_base import CompetitionApi
from scoring.competitions.selectors import competition_get
from scoring.competitions.stage_links import stage_scorer_links
from scoring.competitions.stage_paper import stage_pairings, stage_table_cards


class StageScorerLinkSerializer(serializers.Serializer):
    table = serializers.IntegerField()
    match_id = serializers.IntegerField()
    link_id = serializers.IntegerField(allow_null=True, help_text="Null: the table has none.")
    code = serializers.CharField(
        allow_null=True, help_text="Send `Authorization: Scorer <code>`; null: cannot be printed."
    )
    url = serializers.URLField(allow_null=True, help_text="The scorer's page (the QR code's).")
    revoked = serializers.BooleanField()
    needs_new_link = serializers.BooleanField(
        help_text="Nothing to print: revoke it and issue a new one (POST its match's links)."
    )


class StageScorerLinksSerializer(serializers.Serializer):
    stage = serializers.IntegerField()
    tables = StageScorerLinkSerializer(many=True)


class StageScorerLinksApi(CompetitionApi):
    """Each table of a started stage with its scorer link's code and URL (the organiser only):
    what its table card prints. docs/tables.md, "Scorer links"."""

    @extend_schema(
        **apidocs.SCORER_LINKS_HEADING,
        responses=apidocs.scorer_links_responses(StageScorerLinksSerializer),
    )
    def get(self, request: Request, competition_id: int, number: int) -> Response:
        body = stage_scorer_links(
            competition=competition_get(competition_id=competition_id),
            number=number,
            caller=self.player(request),
            request_base=request.build_absolute_uri("/"),
        )
        return Response(StageScorerLinksSerializer(body).data)


class StageTableCardsApi(CompetitionApi):
    """A started stage's table cards (the organiser only): a page per table with its seats, a
    score grid by start double, signature lines, and the scorer's QR code and code."""

    renderer_classes = (PDFRenderer,)

    @extend_schema(**apidocs.TABLE_CARDS_HEADING, responses=apidocs.TABLE_CARDS_RESPONSES)
    def get(self, request: Request, competition_id: int, number: int) -> Response:
        check_query_params(request.query_params, ["division"])
        body = stage_table_cards(
            competition=competition_get(competition_id=competition_id),
            number=number,
            caller=self.player(request),
            request_base=request.build_absolute_uri("/"),
            division=request.query_params.get("division"),
        )
        return pdf_response(body, f"competition-{competition_id}-stage-{number}-tables.pdf")


class StagePairingsApi(CompetitionApi):
    """A started stage's pairings sheet, for the wall: its organiser, or anyone without a
    token when the competition is public. Names only, never a scorer code."""

    permission_classes = (AllowAny,)
    renderer_classes = (PDFRenderer,)

    @extend_schema(**apidocs.PAIRINGS_HEADING, responses=apidocs.PAIRINGS_RESPONSES)
    def get(self, request: Request, competition_id: int, number: int) -> Response:
        check_query_params(request.query_params, ["division"])
        caller: Any = self.player(request) if request.user.is_authenticated else None
        body = stage_pairings(
            competition_id=competition_id,
            number=number,
            caller=caller,
            division=request.query_params.get("division"),
        )
        return pdf_response(body, f"competition-{competition_id}-stage-{number}-pairings.pdf")
