"""A competition's printed sheets: the standings for the notice board and a tournament's
crosstable (PDF), for its organiser, and for anyone without a token when it is public."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from chickenfoot.query import check_query_params
from chickenfoot.renderers import PDFRenderer, pdf_response
from scoring.api.apidocs import sheets as apidocs
from scoring.api.competition_base import CompetitionApi
from scoring.competitions.sheets import crosstable_sheet, standings_sheet


class SheetApi(CompetitionApi):
    """A sheet anyone may ask for: the sheet says who may read it."""

    permission_classes = (AllowAny,)
    renderer_classes = (PDFRenderer,)

    def caller(self, request: Request) -> Any:
        return self.player(request) if request.user.is_authenticated else None


class StandingsPDFApi(SheetApi):
    """The standings for the notice board: rank, name, matches and every tie-break's value."""

    @extend_schema(**apidocs.STANDINGS_HEADING, responses=apidocs.STANDINGS_RESPONSES)
    def get(self, request: Request, competition_id: int) -> Response:
        check_query_params(request.query_params, ["division"])
        body = standings_sheet(
            competition_id=competition_id,
            caller=self.caller(request),
            division=request.query_params.get("division"),
        )
        return pdf_response(body, f"competition-{competition_id}-standings.pdf")


class CrosstablePDFApi(SheetApi):
    """A tournament's crosstable on paper: A4 landscape, paginated for a large field."""

    @extend_schema(**apidocs.CROSSTABLE_HEADING, responses=apidocs.CROSSTABLE_RESPONSES)
    def get(self, request: Request, competition_id: int) -> Response:
        check_query_params(request.query_params, ["division"])
        body = crosstable_sheet(
            competition_id=competition_id,
            caller=self.caller(request),
            division=request.query_params.get("division"),
        )
        return pdf_response(body, f"competition-{competition_id}-crosstable.pdf")
