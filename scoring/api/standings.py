"""A competition's stages (start the next; tables and matches) and its standings (JSON, CSV)."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any
from urllib.parse import urlencode

from django.http import HttpResponse, HttpResponsePermanentRedirect
from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from chickenfoot.csv_cells import csv_document
from chickenfoot.db_router import replica_reads
from chickenfoot.renderers import JSONRenderer
from scoring.api.apidocs import standings as apidocs
from scoring.api.competition_base import (
    COMPETITION_ID,
    CompetitionApi,
    FinalTableSerializer,
    division_query,
)
from scoring.api.stage_types import pairing_stale_field
from scoring.competitions.selectors import competition_get, competition_stages
from scoring.competitions.services import stage_start
from scoring.competitions.standings import (
    COLUMNS,
    points_by_stage,
    stage_cells,
    stage_columns,
    standings,
    tie_break_columns,
)
from scoring.competitions.tie_breaks import KEYS
from scoring.models import Competition, Stage


class CompetitionSeatSerializer(serializers.Serializer):
    position = serializers.IntegerField()
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    bot = serializers.BooleanField()


class CompetitionTableSerializer(serializers.Serializer):
    table = serializers.IntegerField()
    match_id = serializers.IntegerField()
    match_status = serializers.CharField(help_text="The match's status (open, playing, ...).")
    results_in = serializers.BooleanField(help_text="Its results count in the standings.")
    locked = serializers.BooleanField(help_text="The organiser keeps it through a re-pair.")
    seats = CompetitionSeatSerializer(many=True)


class CompetitionByeSerializer(serializers.Serializer):
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    late_entry = serializers.BooleanField(
        help_text="A stage missed by a late entrant (late_entry: bye), not an odd field's bye."
    )


class CompetitionStageSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Stage.Status.choices)
    started_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    version = serializers.IntegerField(
        help_text="The seating's version (its ETag): each change by the organiser adds one."
    )
    seating_reopened_at = serializers.DateTimeField(
        allow_null=True, help_text="When the organiser reopened its seating after scores."
    )
    pairing_stale = pairing_stale_field()
    final_table = serializers.BooleanField(
        help_text="The final table: its results decide places 1 to n (docs/scoring.md)."
    )
    tables = CompetitionTableSerializer(many=True)
    byes = CompetitionByeSerializer(
        many=True, help_text="Who sits the stage out, with a win's placement points."
    )


class CompetitionStageListSerializer(serializers.Serializer):
    stages = CompetitionStageSerializer(many=True)


class StageListApi(CompetitionApi):
    """A tournament's stages, each with its tables: the match and who sits where.

    The organiser starts the next stage with POST: stage 1 seats the registered players at
    random from the tournament's stored seed, later stages by the standings ("Swiss"), and a
    match is created and started at each table.
    """

    class StageStartSerializer(serializers.Serializer):
        number = serializers.IntegerField(
            min_value=1, help_text="The stage to start: the next one (a repeat is refused)."
        )

    @extend_schema(
        operation_id="competition_stage_list",
        summary="A tournament's stages and tables",
        tags=["competitions"],
        parameters=[COMPETITION_ID],
        responses=apidocs.stage_list_get_responses(CompetitionStageListSerializer),
    )
    def get(self, request: Request, competition_id: int) -> Response:
        competition = competition_get(competition_id=competition_id)
        return Response({"stages": competition_stages(competition=competition)})

    @extend_schema(
        operation_id="competition_stage_start",
        **apidocs.STAGE_LIST_POST_HEADING,
        parameters=[COMPETITION_ID],
        request=StageStartSerializer,
        examples=[OpenApiExample("Stage 1", value={"number": 1}, request_only=True)],
        responses=apidocs.stage_list_post_responses(CompetitionStageSerializer),
    )
    def post(self, request: Request, competition_id: int) -> Response:
        refusal = _("Only the organiser of competition %(competition)s can start a stage.")
        self.organiser_first(request, competition_id, refusal)
        data = self.StageStartSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        stage = stage_start(
            competition_id=competition_id,
            player=self.player(request),
            number=data.validated_data["number"],
        )
        competition = competition_get(competition_id=competition_id)
        body = next(
            s for s in competition_stages(competition=competition) if s["number"] == stage.number
        )
        return Response(body, status=HTTPStatus.CREATED)


class StandingsCSVRenderer(BaseRenderer):
    """The standings as CSV (RFC 4180, the csv module's quoting: ``chickenfoot.csv_cells``): a
    header row, then a row per player (``COLUMNS``, then the tie-breaks of the order they do
    not hold: ``buchholz``, ``median_buchholz``, with a final table ``final_place``, then a
    tournament's points per stage: ``stage_1`` … ``stage_<n>``)."""

    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: dict[str, Any] | None = None,
    ) -> bytes:
        rows = data.get("standings", [])
        stages = data.get("stage_count")
        columns = [
            *(["division"] if data.get("divisions") else []),
            *COLUMNS,
            *tie_break_columns(data.get("tie_breaks", [])),
        ]
        if data.get("final_table"):
            columns.append("final_place")
        return csv_document(
            [*columns, *stage_columns(stages)],
            (
                [*(row[c] for c in columns), *stage_cells(row.get("by_stage", []), stages)]
                for row in rows
            ),
        )


class StagePointsSerializer(serializers.Serializer):
    stage = serializers.IntegerField()
    matches = serializers.IntegerField()
    placement_points = serializers.FloatField()
    bye = serializers.BooleanField(help_text="Sat the stage out with a bye (no match).")


class CompetitionStandingSerializer(serializers.Serializer):
    rank = serializers.IntegerField(allow_null=True, help_text="Null: not ranked yet (leagues).")
    shared = serializers.BooleanField(help_text="Another player has the same rank.")
    ranked = serializers.BooleanField(help_text="Played the league's minimum of matches.")
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    matches = serializers.IntegerField()
    wins = serializers.IntegerField(help_text="First places, a shared first counting for each.")
    placement_points = serializers.FloatField(help_text="To the thousandth (shared places).")
    total_points = serializers.IntegerField(help_text="Pip points over the matches (C-PIPS).")
    rounds = serializers.IntegerField()
    mean_points_per_round = serializers.FloatField(
        allow_null=True, help_text="Total points / rounds, to the thousandth; null: no rounds."
    )
    rounds_at_zero = serializers.IntegerField()
    best_round = serializers.IntegerField(
        allow_null=True,
        help_text="Lowest non-zero round score (rounds at zero: rounds_at_zero); null: none.",
    )
    head_to_head = serializers.IntegerField(
        allow_null=True,
        help_text="Places above minus places below the rivals still tied when the order reaches "
        "head-to-head, at shared tables; null: the order has no head_to_head.",
    )
    buchholz = serializers.FloatField(
        allow_null=True,
        help_text="Opponents' points: per match, the mean placement points of the registered "
        "players met there, summed (docs/scoring.md); null: the order has no buchholz.",
    )
    median_buchholz = serializers.FloatField(
        allow_null=True,
        help_text="Buchholz without its highest and lowest term (0 with fewer than three); "
        "null: the order has no median_buchholz.",
    )
    rating = serializers.IntegerField(
        allow_null=True,
        help_text="Rating in the game, if any: today's while the competition runs, the one it "
        "had when the competition finished once it has.",
    )
    byes = serializers.IntegerField(help_text="Stages sat out with a bye (a win's points).")
    dropped = serializers.BooleanField(
        help_text="Dropped out while the tournament ran: seated at no later stage."
    )
    final_place = serializers.IntegerField(
        allow_null=True,
        help_text="The place the final table gave (1 to n; the rank follows it); null: not a "
        "finalist, or the final not played yet.",
    )
    division = serializers.CharField(
        allow_null=True,
        help_text="Their division (the rank is within it); null: an event without divisions.",
    )
    by_stage = StagePointsSerializer(many=True)


class CompetitionStandingsSerializer(serializers.Serializer):
    competition_id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=Competition.Kind.choices)
    status = serializers.ChoiceField(choices=Competition.Status.choices)
    min_matches = serializers.IntegerField()
    stage_count = serializers.IntegerField(
        allow_null=True,
        help_text="A tournament's stages (the CSV's stage_<n> columns); null: a league.",
    )
    final = serializers.BooleanField(help_text="The competition has finished.")
    final_table = FinalTableSerializer(
        allow_null=True, help_text="Its final table, if any (docs/scoring.md, Final table)."
    )
    tie_breaks = serializers.ListField(
        child=serializers.ChoiceField(choices=KEYS),
        help_text="The order the rows are ranked by, best first; each key names the row's field "
        "that shows its value (docs/scoring.md).",
    )
    divisions = serializers.ListField(
        child=serializers.CharField(),
        help_text="The event's divisions, in order (empty: none); the rows list each in turn.",
    )
    division = serializers.CharField(
        allow_null=True, help_text="The division asked for (?division=); null: every one."
    )
    standings = CompetitionStandingSerializer(many=True)


def standings_body(competition: Competition, division: str | None = None) -> dict[str, Any]:
    """The standings document: the competition, and its rows best first with points by stage
    (of ``division`` alone, when given)."""
    stages = points_by_stage(competition=competition)
    rows = [
        {**row, "by_stage": stages.get(row["player_id"], [])}
        for row in standings(competition=competition, division=division)
    ]
    return {
        "competition_id": competition.pk,
        "kind": competition.kind,
        "status": competition.status,
        "min_matches": competition.min_matches,
        "stage_count": competition.stage_count,
        "final": competition.status == Competition.Status.FINISHED,
        "final_table": competition.final_table,
        "tie_breaks": competition.order,
        "divisions": competition.division_names,
        "division": division,
        "standings": rows,
    }


def csv_headers(competition: Competition) -> dict[str, str]:
    return {
        "Content-Disposition": (
            f'attachment; filename="competition-{competition.pk}-standings.csv"'
        )
    }


class StandingsApi(CompetitionApi):
    """The standings, best first, computed by the database (docs/scoring.md: the order).

    JSON; the CSV is its own operation (``StandingsCSVApi``). Links made before it was
    (`?format=csv`, deprecated, or `Accept: text/csv`) are sent on to it (308).
    """

    renderer_classes = (JSONRenderer, StandingsCSVRenderer)

    @extend_schema(
        operation_id="competition_standings",
        summary="Standings",
        tags=["competitions"],
        parameters=apidocs.STANDINGS_PARAMETERS,
        responses=apidocs.standings_responses(CompetitionStandingsSerializer),
    )
    @replica_reads()
    def get(self, request: Request, competition_id: int) -> HttpResponse:
        competition = competition_get(competition_id=competition_id)
        division = division_query(request, competition, ["format"])
        if getattr(request.accepted_renderer, "format", None) == "csv":
            csv_url = reverse("competition-standings-csv", args=[competition.pk])
            if division is not None:
                csv_url += "?" + urlencode({"division": division})
            return HttpResponsePermanentRedirect(csv_url, preserve_request=True)  # 308
        return Response(standings_body(competition, division))


class StandingsCSVApi(CompetitionApi):
    """The standings as a CSV file: the JSON's columns (`buchholz` and `median_buchholz` when
    the order uses them), and a tournament's points per stage as one column each (`stage_1` …
    `stage_<n>`: empty for a stage not played, a bye's points for a bye)."""

    renderer_classes = (StandingsCSVRenderer,)

    @extend_schema(
        operation_id="competition_standings_csv",
        summary="Standings as CSV",
        tags=["competitions"],
        parameters=apidocs.STANDINGS_CSV_PARAMETERS,
        responses=apidocs.STANDINGS_CSV_RESPONSES,
    )
    @replica_reads()
    def get(self, request: Request, competition_id: int) -> Response:
        competition = competition_get(competition_id=competition_id)
        division = division_query(request, competition, [])
        return Response(standings_body(competition, division), headers=csv_headers(competition))
