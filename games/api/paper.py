"""A table match on paper: its score sheet as a PDF."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from chickenfoot.query import check_query_params
from chickenfoot.renderers import PDFRenderer, pdf_response
from games.api.apidocs import paper as docs
from games.api.scorer_access import ScorerOrPlayerApi
from games.paper.score_sheet import score_sheet_pdf
from games.tables.score_log import table_match_for_reader


class ScoreSheetApi(ScorerOrPlayerApi):
    """A table match's score sheet: each round as entered with its start double, the points
    per seat, totals, places once finished, corrections marked with who, when and why. Who may
    read its score log may read it, and a scorer link of the match (docs/tables.md, "Paper")."""

    renderer_classes = (PDFRenderer,)

    @extend_schema(**docs.SCORE_SHEET_DOCS, responses=docs.SCORE_SHEET_RESPONSES)
    def get(self, request: Request, match_id: int) -> Response:
        check_query_params(request.query_params, [])
        match = table_match_for_reader(match_id=match_id, caller=self.caller(request))
        return pdf_response(score_sheet_pdf(match=match), f"match-{match.pk}-score-sheet.pdf")
