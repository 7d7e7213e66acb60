"""A competition's stages (start the next; tables and matches) and its standings (JSON, CSV)."""

from __future__ import annotations

import csv
import io
from http import HTTPStatus
from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from chickenfoot.openapi import NOT_AUTHENTICATED, problem, problem_example
from scoring.api.common import BAD_FILTER, check_known_params
from scoring.api.competition_base import (
    COMPETITION_ID,
    NOT_FOUND,
    NOT_ORGANISER,
    CompetitionApi,
)
from scoring.competitions.selectors import competition_get, competition_stages
from scoring.competitions.services import stage_start
from scoring.competitions.standings import COLUMNS, points_by_stage, standings
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
    seats = CompetitionSeatSerializer(many=True)


class CompetitionStageSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Stage.Status.choices)
    started_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    tables = CompetitionTableSerializer(many=True)


class CompetitionStageListSerializer(serializers.Serializer):
    stages = CompetitionStageSerializer(many=True)


STAGE_EXAMPLE = {
    "number": 1,
    "status": "playing",
    "started_at": "2025-03-08T09:00:00Z",
    "finished_at": None,
    "tables": [
        {
            "table": 1,
            "match_id": 41,
            "match_status": "playing",
            "results_in": False,
            "seats": [
                {"position": 0, "player_id": 5, "name": "Alan", "bot": False},
                {"position": 1, "player_id": 2, "name": "Grace", "bot": False},
                {"position": 2, "player_id": 77, "name": "Greedy bot (level 2)", "bot": True},
                {"position": 3, "player_id": 9, "name": "Edsger", "bot": False},
            ],
        }
    ],
}


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
        responses={
            HTTPStatus.OK: OpenApiResponse(
                CompetitionStageListSerializer,
                description="Every stage started so far.",
                examples=[OpenApiExample("Stage 1", value={"stages": [STAGE_EXAMPLE]})],
            ),
            HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
            HTTPStatus.NOT_FOUND: NOT_FOUND,
        },
    )
    def get(self, request: Request, competition_id: int) -> Response:
        competition = competition_get(competition_id=competition_id)
        return Response({"stages": competition_stages(competition=competition)})

    @extend_schema(
        operation_id="competition_stage_start",
        summary="Start the next stage (organiser)",
        tags=["competitions"],
        parameters=[COMPETITION_ID],
        request=StageStartSerializer,
        examples=[OpenApiExample("Stage 1", value={"number": 1}, request_only=True)],
        responses={
            HTTPStatus.CREATED: OpenApiResponse(
                CompetitionStageSerializer,
                description="The stage, its tables seated and their matches started.",
                examples=[OpenApiExample("Started", value=STAGE_EXAMPLE)],
            ),
            HTTPStatus.BAD_REQUEST: problem(
                "No stage number.",
                (
                    "No number",
                    problem_example(
                        400,
                        "invalid",
                        "Invalid input",
                        "number: This field is required.",
                        errors={"number": ["This field is required."]},
                    ),
                ),
            ),
            HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
            HTTPStatus.FORBIDDEN: NOT_ORGANISER,
            HTTPStatus.NOT_FOUND: NOT_FOUND,
            HTTPStatus.CONFLICT: problem(
                "Not the next stage, the previous one still playing, registration still open, "
                "too few players, or a league.",
                (
                    "Still playing",
                    problem_example(
                        409,
                        "wrong_stage",
                        "Wrong stage",
                        "Stage 1 of tournament 3 is still playing.",
                        next_stage=2,
                    ),
                ),
                (
                    "Registration open",
                    problem_example(
                        409,
                        "competition_status",
                        "Not now",
                        "Tournament 3 is registering: close registration first.",
                    ),
                ),
            ),
        },
    )
    def post(self, request: Request, competition_id: int) -> Response:
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


#: What a spreadsheet reads as the start of a formula (OWASP's list): a cell starting so is
#: written with a ``'`` before it.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


class StandingsCSVRenderer(BaseRenderer):
    """The standings as CSV (RFC 4180, the csv module's quoting): a header row, then a row per
    player (``COLUMNS``)."""

    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: dict[str, Any] | None = None,
    ) -> bytes:
        out = io.StringIO()
        # RFC 4180's CRLF: the writer then quotes a field holding either line break (with "\n"
        # alone a name holding "\r" would end its row for a reader)
        writer = csv.writer(out, lineterminator="\r\n")
        writer.writerow(COLUMNS)
        for row in data.get("standings", []):
            writer.writerow(["" if row[c] is None else _csv_cell(row[c]) for c in COLUMNS])
        return out.getvalue().encode()


def _csv_cell(value: Any) -> Any:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str) and value[:1] in FORMULA_STARTS:
        return "'" + value  # a name never runs as a spreadsheet formula
    return value


class StagePointsSerializer(serializers.Serializer):
    stage = serializers.IntegerField()
    matches = serializers.IntegerField()
    placement_points = serializers.FloatField()


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
        help_text="Places above minus places below tied rivals at shared tables."
    )
    rating = serializers.IntegerField(allow_null=True, help_text="Rating in the game, if any.")
    by_stage = StagePointsSerializer(many=True)


class CompetitionStandingsSerializer(serializers.Serializer):
    competition_id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=Competition.Kind.choices)
    status = serializers.ChoiceField(choices=Competition.Status.choices)
    min_matches = serializers.IntegerField()
    final = serializers.BooleanField(help_text="The competition has finished.")
    standings = CompetitionStandingSerializer(many=True)


STANDING_EXAMPLE = {
    "rank": 1,
    "shared": False,
    "ranked": True,
    "player_id": 5,
    "name": "Alan",
    "matches": 3,
    "wins": 2,
    "placement_points": 13.0,
    "total_points": 61,
    "rounds": 12,
    "mean_points_per_round": 5.083,
    "rounds_at_zero": 5,
    "best_round": 2,
    "head_to_head": 0,
    "rating": 1093,
    "by_stage": [
        {"stage": 1, "matches": 1, "placement_points": 5.0},
        {"stage": 2, "matches": 1, "placement_points": 3.0},
        {"stage": 3, "matches": 1, "placement_points": 5.0},
    ],
}
STANDINGS_EXAMPLE = {
    "competition_id": 3,
    "kind": "tournament",
    "status": "finished",
    "min_matches": 0,
    "final": True,
    "standings": [
        STANDING_EXAMPLE,
        {
            **STANDING_EXAMPLE,
            "rank": 2,
            "shared": True,
            "player_id": 2,
            "name": "Grace",
            "wins": 1,
            "placement_points": 11.0,
        },
        {
            **STANDING_EXAMPLE,
            "rank": 2,
            "shared": True,
            "player_id": 9,
            "name": "Edsger",
            "wins": 1,
            "placement_points": 11.0,
        },
    ],
}
CSV_EXAMPLE = (
    ",".join(COLUMNS)
    + "\r\n1,false,true,5,Alan,3,2,13.0,61,12,5.083,5,2,0,1093\r\n"
    + "2,true,true,2,Grace,3,1,11.0,61,12,5.083,5,2,0,1093\r\n"
)


#: The CSV operation's answer: a string, ``text/csv``, never JSON.
STANDINGS_CSV = OpenApiResponse(
    OpenApiTypes.STR,
    description="The standings as CSV (RFC 4180), a header row first; "
    "`Content-Disposition` names the file.",
    examples=[OpenApiExample("CSV", value=CSV_EXAMPLE)],
)


def standings_body(competition: Competition) -> dict[str, Any]:
    """The standings document: the competition, and its rows best first with points by stage."""
    stages = points_by_stage(competition=competition)
    rows = [
        {**row, "by_stage": stages.get(row["player_id"], [])}
        for row in standings(competition=competition)
    ]
    return {
        "competition_id": competition.pk,
        "kind": competition.kind,
        "status": competition.status,
        "min_matches": competition.min_matches,
        "final": competition.status == Competition.Status.FINISHED,
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

    JSON; the CSV is its own operation (``StandingsCSVApi``). For links made before it was, this
    path still answers CSV to `?format=csv` or `Accept: text/csv`.
    """

    renderer_classes = (JSONRenderer, StandingsCSVRenderer)

    @extend_schema(
        operation_id="competition_standings",
        summary="Standings",
        tags=["competitions"],
        # `?format=csv` still answers CSV here; the schema's CSV is its own operation
        parameters=[COMPETITION_ID, OpenApiParameter("format", exclude=True)],
        responses={
            (HTTPStatus.OK, "application/json"): OpenApiResponse(
                CompetitionStandingsSerializer,
                description="The standings.",
                examples=[OpenApiExample("Final", value=STANDINGS_EXAMPLE)],
            ),
            HTTPStatus.BAD_REQUEST: BAD_FILTER,
            HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
            HTTPStatus.NOT_FOUND: NOT_FOUND,
        },
    )
    def get(self, request: Request, competition_id: int) -> Response:
        check_known_params(request, ["format"])
        competition = competition_get(competition_id=competition_id)
        headers = {}
        if getattr(request.accepted_renderer, "format", None) == "csv":
            headers = csv_headers(competition)
        return Response(standings_body(competition), headers=headers)


class StandingsCSVApi(CompetitionApi):
    """The standings as a CSV file: the JSON's columns, without the points per stage."""

    renderer_classes = (StandingsCSVRenderer,)

    @extend_schema(
        operation_id="competition_standings_csv",
        summary="Standings as CSV",
        tags=["competitions"],
        parameters=[COMPETITION_ID],
        responses={
            (HTTPStatus.OK, "text/csv"): STANDINGS_CSV,
            HTTPStatus.BAD_REQUEST: BAD_FILTER,
            HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
            HTTPStatus.NOT_FOUND: NOT_FOUND,
        },
    )
    def get(self, request: Request, competition_id: int) -> Response:
        check_known_params(request, [])
        competition = competition_get(competition_id=competition_id)
        return Response(standings_body(competition), headers=csv_headers(competition))
