"""A table event's stage clock (``/api/competitions/{id}/stages/{n}/clock``): the organiser
reads it, starts it with a duration (``POST {"minutes": 45}``) and stops it (``DELETE``). It
enforces nothing: the wall and the scorers' pages count down to its end, and the wall says the
last round is on once it has run out."""

from __future__ import annotations

from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from scoring.api.apidocs import stage_clock as apidocs
from scoring.api.body import BodySerializer
from scoring.api.common import check_known_params
from scoring.api.competition_base import CompetitionApi
from scoring.competitions.stage_clock import (
    MAX_MINUTES,
    clock_body,
    stage_clock_get,
    stage_clock_start,
    stage_clock_stop,
)

REASON_MAX = 500
#: The refusal of a clock change to anyone but the organiser (as the service words it).
CLOCK_REFUSAL = gettext_lazy(
    "Only the organiser of competition %(competition)s can set a stage's clock."
)


class StageClockSerializer(serializers.Serializer):
    stage = serializers.IntegerField()
    state = serializers.ChoiceField(
        choices=["off", "running", "ended"],
        help_text="off: no clock; ended: it has run out (the wall says the last round is on).",
    )
    minutes = serializers.IntegerField(allow_null=True, help_text="The duration set.")
    started_at = serializers.DateTimeField(allow_null=True)
    ends_at = serializers.DateTimeField(allow_null=True)
    now = serializers.DateTimeField(help_text="The server's time: count down ends_at - now.")


class ClockStartSerializer(BodySerializer):
    minutes = serializers.IntegerField(
        min_value=1, max_value=MAX_MINUTES, help_text="How long until the clock runs out."
    )
    reason = serializers.CharField(
        max_length=REASON_MAX,
        required=False,
        allow_blank=True,
        default="",
        help_text="Kept with the change in the audit and the export.",
    )


class StageClockApi(CompetitionApi):
    """The stage's clock: read, start (again), stop; the organiser's only."""

    @extend_schema(**apidocs.get_schema(StageClockSerializer))
    def get(self, request: Request, competition_id: int, number: int) -> Response:
        check_known_params(request, [])
        clock = stage_clock_get(
            competition_id=competition_id, number=number, caller=self.player(request)
        )
        return Response(StageClockSerializer(clock).data, headers={"Cache-Control": "no-store"})

    @extend_schema(**apidocs.start_schema(ClockStartSerializer, StageClockSerializer))
    def post(self, request: Request, competition_id: int, number: int) -> Response:
        check_known_params(request, [])
        self.organiser_first(request, competition_id, CLOCK_REFUSAL)
        data = ClockStartSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        stage = stage_clock_start(
            competition_id=competition_id,
            number=number,
            caller=self.player(request),
            **data.validated_data,
        )
        return Response(StageClockSerializer(clock_body(stage=stage)).data)

    @extend_schema(**apidocs.stop_schema(StageClockSerializer))
    def delete(self, request: Request, competition_id: int, number: int) -> Response:
        check_known_params(request, [])
        stage = stage_clock_stop(
            competition_id=competition_id, number=number, caller=self.player(request)
        )
        return Response(StageClockSerializer(clock_body(stage=stage)).data)
