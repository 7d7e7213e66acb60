"""A tournament's crosstable: each entrant and each stage, as JSON and as CSV."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from chickenfoot.csv_cells import csv_document
from chickenfoot.db_router import replica_reads
from chickenfoot.renderers import JSONRenderer
from scoring.api.apidocs import crosstable as apidocs
from scoring.api.competition_base import CompetitionApi, FinalTableSerializer, division_query
from scoring.competitions.crosstable import STATUSES, crosstable, csv_header, csv_rows
from scoring.competitions.selectors import competition_get
from scoring.competitions.tie_breaks import KEYS
from scoring.models import Competition, Stage


class CrosstableOpponentSerializer(serializers.Serializer):
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    bot = serializers.BooleanField()
    number = serializers.IntegerField(
        allow_null=True, help_text="Their entrant number (row); null: a bot or not an entrant."
    )


class CrosstableEntrySerializer(serializers.Serializer):
    stage = serializers.IntegerField()
    status = serializers.ChoiceField(
        choices=STATUSES,
        help_text="played; playing (results not in); abandoned (counts for nobody); bye; "
        "not_entered (registered after the stage started); dropped; not_finalist (the final "
        "table seats the best n only); no_show.",
    )
    table = serializers.IntegerField(allow_null=True, help_text="Null: not seated.")
    match_id = serializers.IntegerField(allow_null=True)
    opponents = CrosstableOpponentSerializer(many=True, help_text="Everyone else at the table.")
    place = serializers.IntegerField(allow_null=True, help_text="C-WIN place at the table.")
    table_players = serializers.IntegerField(allow_null=True, help_text="Seats at the table.")
    placement_points = serializers.FloatField(
        allow_null=True, help_text="The stage's placement points (a bye's too)."
    )
    total_points = serializers.IntegerField(
        allow_null=True, help_text="The stage's round total: pips over its match (C-PIPS)."
    )


class TieBreakValuesSerializer(serializers.Serializer):
    # Each key of the competition's order, with the entrant's value (docs/scoring.md).
    placement_points = serializers.FloatField(required=False)
    buchholz = serializers.FloatField(required=False)
    median_buchholz = serializers.FloatField(required=False)
    wins = serializers.IntegerField(required=False)
    rounds_at_zero = serializers.IntegerField(required=False)
    best_round = serializers.IntegerField(required=False, allow_null=True)
    head_to_head = serializers.IntegerField(required=False)
    total_points = serializers.IntegerField(required=False)
    mean_points_per_round = serializers.FloatField(required=False, allow_null=True)


class CrosstableEntrantSerializer(serializers.Serializer):
    number = serializers.IntegerField(help_text="1, 2, 3 … in standings order (unique).")
    rank = serializers.IntegerField()
    shared = serializers.BooleanField()
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    dropped = serializers.BooleanField()
    division = serializers.CharField(
        allow_null=True, help_text="Their division (the rank is within it); null: none."
    )
    tie_breaks = TieBreakValuesSerializer(help_text="The value of each key of the order.")
    stages = CrosstableEntrySerializer(many=True)


class CrosstableStageSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Stage.Status.choices)
    final_table = serializers.BooleanField(
        help_text="The final table: its results decide places 1 to n (docs/scoring.md)."
    )


class CrosstableSerializer(serializers.Serializer):
    competition_id = serializers.IntegerField()
    name = serializers.CharField()
    status = serializers.ChoiceField(choices=Competition.Status.choices)
    stage_count = serializers.IntegerField()
    current_stage = serializers.IntegerField()
    final_table = FinalTableSerializer(
        allow_null=True, help_text="Its final table, if any: stage stage_count + 1."
    )
    final = serializers.BooleanField(help_text="The tournament has finished.")
    tie_breaks = serializers.ListField(
        child=serializers.ChoiceField(choices=KEYS), help_text="The standings' order."
    )
    divisions = serializers.ListField(
        child=serializers.CharField(),
        help_text="The event's divisions, in order (empty: none); the entrants list each in turn.",
    )
    division = serializers.CharField(
        allow_null=True, help_text="The division asked for (?division=); null: every one."
    )
    stages = CrosstableStageSerializer(many=True, help_text="The stages started so far.")
    entrants = CrosstableEntrantSerializer(many=True)


class CrosstableCSVRenderer(BaseRenderer):
    """The crosstable as CSV (``chickenfoot.csv_cells``: RFC 4180, no cell a formula): a row per
    entrant, then ``stage_<n>_status`` … ``stage_<n>_total_points`` per stage."""

    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: dict[str, Any] | None = None,
    ) -> bytes:
        return csv_document(csv_header(data), csv_rows(data))


def _crosstable(request: Request, competition_id: int) -> dict[str, Any]:
    competition = competition_get(competition_id=competition_id)
    division = division_query(request, competition, [])
    return crosstable(competition=competition, division=division)


class CrosstableApi(CompetitionApi):
    """The crosstable of a tournament: each entrant, in standings order, with the value of
    each tie-break and, per stage, the table, the opponents, the place, the placement points
    and the round total (or a bye, a no-show, a drop-out). Any signed-in player, as the
    standings."""

    renderer_classes = (JSONRenderer,)

    @extend_schema(**apidocs.HEADING, responses=apidocs.crosstable_responses(CrosstableSerializer))
    @replica_reads()
    def get(self, request: Request, competition_id: int) -> Response:
        return Response(_crosstable(request, competition_id))


class CrosstableCSVApi(CompetitionApi):
    """The crosstable as a CSV file: a row per entrant, six columns per stage."""

    renderer_classes = (CrosstableCSVRenderer,)

    @extend_schema(**apidocs.CSV_HEADING, responses=apidocs.CSV_RESPONSES)
    @replica_reads()
    def get(self, request: Request, competition_id: int) -> Response:
        body = _crosstable(request, competition_id)
        disposition = f'attachment; filename="competition-{competition_id}-crosstable.csv"'
        return Response(body, headers={"Content-Disposition": disposition})
