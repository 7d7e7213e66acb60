"""A competition's export for its organiser: the full results as JSON or as CSV."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from chickenfoot.csv_cells import csv_document
from chickenfoot.query import check_query_params
from chickenfoot.renderers import JSONRenderer
from games.api.apidocs import competition_export as docs
from games.api.common import GameApi
from games.api.export_types import CompetitionExportSerializer
from games.competition_export import COLUMNS, competition_export, export_rows


class ExportCSVRenderer(BaseRenderer):
    """The export as CSV: the header (``COLUMNS``), then ``export_rows``."""

    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: dict[str, Any] | None = None,
    ) -> bytes:
        rows = export_rows(data) if "matches" in data else []
        return csv_document(COLUMNS, rows)


def _checked(request: Request) -> None:
    check_query_params(request.query_params, [])  # it takes none: a typo is a 400


class CompetitionExportApi(GameApi):
    """Every match of a competition with its seats, places and rounds, and each table match's
    score sheet (entries, corrections, reviews): its organiser only."""

    renderer_classes = (JSONRenderer,)

    @extend_schema(
        **docs.EXPORT_JSON_DOCS, responses=docs.export_json_responses(CompetitionExportSerializer)
    )
    def get(self, request: Request, competition_id: int) -> Response:
        _checked(request)
        document = competition_export(competition_id=competition_id, player=self.player(request))
        return Response(CompetitionExportSerializer(document).data)


class CompetitionExportCSVApi(GameApi):
    """The export as one CSV table (docs/tables.md, Export): its organiser only."""

    renderer_classes = (ExportCSVRenderer,)

    @extend_schema(**docs.EXPORT_CSV_DOCS, responses=docs.EXPORT_CSV_RESPONSES)
    def get(self, request: Request, competition_id: int) -> Response:
        _checked(request)
        document = competition_export(competition_id=competition_id, player=self.player(request))
        name = f"competition-{competition_id}-export.csv"
        return Response(
            CompetitionExportSerializer(document).data,
            headers={"Content-Disposition": f'attachment; filename="{name}"'},
        )
