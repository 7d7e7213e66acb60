"""Events at the table: check-in before each stage, drop-outs, the organiser's dashboard."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from scoring.api.apidocs import table_events as apidocs
from scoring.api.competition_base import CompetitionApi
from scoring.api.stage_types import pairing_stale_field
from scoring.competitions.checkins import (
    check_in_close,
    check_in_create,
    check_in_undo,
    check_ins_list,
    player_drop,
)
from scoring.competitions.dashboard import stage_dashboard
from scoring.competitions.selectors import competition_get

TAGS = ["competitions"]


class PlayerIdSerializer(serializers.Serializer):
    player_id = serializers.IntegerField(min_value=1, max_value=2**63 - 1)


class OptionalPlayerIdSerializer(serializers.Serializer):
    player_id = serializers.IntegerField(
        min_value=1,
        max_value=2**63 - 1,
        required=False,
        help_text="The organiser checks this player in; leave it out to check yourself in.",
    )


class CheckInSerializer(serializers.Serializer):
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    checked_in_at = serializers.DateTimeField()
    by_organiser = serializers.BooleanField()


class CheckInListSerializer(serializers.Serializer):
    stage = serializers.IntegerField(help_text="The stage these check-ins are for.")
    open = serializers.BooleanField(help_text="Whether players may still check in or out.")
    check_ins = CheckInSerializer(many=True)


class DropSerializer(serializers.Serializer):
    player_id = serializers.IntegerField()
    dropped_at = serializers.DateTimeField()


class DashboardSeatSerializer(serializers.Serializer):
    position = serializers.IntegerField()
    player_id = serializers.IntegerField()
    name = serializers.CharField()


class DashboardTableSerializer(serializers.Serializer):
    table = serializers.IntegerField()
    match_id = serializers.IntegerField()
    locked = serializers.BooleanField(help_text="The organiser keeps it through a re-pair.")
    seats = DashboardSeatSerializer(many=True)
    rounds_entered = serializers.IntegerField()
    rounds = serializers.IntegerField(help_text="Rounds to play.")
    finished = serializers.BooleanField()
    confirmed = serializers.IntegerField(help_text="Rounds confirmed.")
    disputed = serializers.IntegerField(help_text="Rounds disputed.")


class DashboardSerializer(serializers.Serializer):
    stage = serializers.IntegerField()
    status = serializers.CharField()
    version = serializers.IntegerField(help_text="The seating's version (If-Match of a change).")
    seating_reopened_at = serializers.DateTimeField(
        allow_null=True, help_text="When the organiser reopened its seating after scores."
    )
    pairing_stale = pairing_stale_field()
    finished = serializers.IntegerField(help_text="Tables finished.")
    tables = DashboardTableSerializer(many=True)


def _check_ins(competition_id: int) -> dict[str, Any]:
    return check_ins_list(competition=competition_get(competition_id=competition_id))


class CheckInApi(CompetitionApi):
    """Check in for the next stage of a table tournament (yourself, or the organiser for a
    registered player); DELETE undoes your check-in until the stage is seated."""

    @extend_schema(
        **apidocs.CHECK_IN_POST_HEADING,
        parameters=apidocs.PARAMETERS,
        request=OptionalPlayerIdSerializer,
        examples=apidocs.CHECK_IN_REQUEST_EXAMPLES,
        responses=apidocs.check_in_responses(CheckInListSerializer, body=True, organiser=True),
    )
    def post(self, request: Request, competition_id: int) -> Response:
        data = OptionalPlayerIdSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        player_id = data.validated_data.get("player_id")
        check_in_create(
            competition_id=competition_id, caller=self.player(request), player_id=player_id
        )
        return Response(_check_ins(competition_id))

    @extend_schema(
        operation_id="competition_check_in_undo",
        summary="Undo your check-in",
        tags=TAGS,
        parameters=apidocs.PARAMETERS,
        responses=apidocs.check_in_responses(CheckInListSerializer, body=False, organiser=False),
    )
    def delete(self, request: Request, competition_id: int) -> Response:
        check_in_undo(competition_id=competition_id, player=self.player(request))
        return Response(_check_ins(competition_id))


class CheckInListApi(CompetitionApi):
    """Who is checked in for the next stage, and whether check-in is open."""

    @extend_schema(
        operation_id="competition_check_in_list",
        summary="Who is checked in",
        tags=TAGS,
        parameters=apidocs.PARAMETERS,
        responses=apidocs.check_in_list_responses(CheckInListSerializer),
    )
    def get(self, request: Request, competition_id: int) -> Response:
        return Response(_check_ins(competition_id))


class CheckInCloseApi(CompetitionApi):
    """The organiser closes check-in for the next stage (starting the stage closes it too)."""

    @extend_schema(
        operation_id="competition_check_in_close",
        summary="Close check-in",
        tags=TAGS,
        parameters=apidocs.PARAMETERS,
        request=None,
        responses=apidocs.check_in_responses(CheckInListSerializer, body=False, organiser=True),
    )
    def post(self, request: Request, competition_id: int) -> Response:
        check_in_close(competition_id=competition_id, player=self.player(request))
        return Response(_check_ins(competition_id))


class DropApi(CompetitionApi):
    """The organiser drops a player out of a running tournament: seated at no later stage,
    still in the standings (``dropped: true``)."""

    @extend_schema(
        **apidocs.DROP_HEADING,
        parameters=apidocs.PARAMETERS,
        request=PlayerIdSerializer,
        examples=apidocs.DROP_REQUEST_EXAMPLES,
        responses=apidocs.drop_responses(DropSerializer),
    )
    def post(self, request: Request, competition_id: int) -> Response:
        refusal = _("Only the organiser of competition %(competition)s can drop a player.")
        self.organiser_first(request, competition_id, refusal)
        data = PlayerIdSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        registration = player_drop(
            competition_id=competition_id,
            caller=self.player(request),
            player_id=data.validated_data["player_id"],
        )
        return Response(
            {"player_id": registration.player_id, "dropped_at": registration.dropped_at}
        )


class StageDashboardApi(CompetitionApi):
    """The organiser's view of a stage: each table and how far its scoring has got."""

    @extend_schema(
        operation_id="competition_stage_dashboard",
        summary="A stage's tables as they play (the organiser)",
        tags=TAGS,
        parameters=apidocs.DASHBOARD_PARAMETERS,
        responses=apidocs.dashboard_responses(DashboardSerializer),
    )
    def get(self, request: Request, competition_id: int, number: int) -> Response:
        competition = competition_get(competition_id=competition_id)
        return Response(
            stage_dashboard(competition=competition, number=number, caller=self.player(request))
        )
