"""A competition's public wall: publish and unpublish it (organiser), and read it (anyone)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from scoring.api.apidocs import wall as apidocs
from scoring.api.common import check_known_params
from scoring.api.competition_base import (
    COMPETITION_ID,
    CompetitionApi,
    CompetitionSerializer,
    competition_json,
)
from scoring.competitions.selectors import competition_get
from scoring.competitions.tie_breaks import KEYS
from scoring.competitions.wall import competition_publish, public_competition_get, wall_body
from scoring.models import Competition, Stage


class WallCompetitionSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    kind = serializers.ChoiceField(choices=Competition.Kind.choices)
    variant = serializers.CharField()
    status = serializers.ChoiceField(choices=Competition.Status.choices)
    current_stage = serializers.IntegerField(help_text="0 before the first stage.")
    stage_count = serializers.IntegerField(allow_null=True, help_text="Tournaments only.")
    tie_breaks = serializers.ListField(
        child=serializers.ChoiceField(choices=KEYS),
        help_text="The standings' order, best first; each key names the row's field showing "
        "its value (docs/scoring.md, Tie-breaks).",
    )
    divisions = serializers.ListField(
        child=serializers.CharField(),
        required=False,
        help_text="The event's divisions in order, a section of the wall each; only at an "
        "event with divisions.",
    )


class WallStagePointsSerializer(serializers.Serializer):
    stage = serializers.IntegerField()
    matches = serializers.IntegerField()
    placement_points = serializers.FloatField()
    bye = serializers.BooleanField()


class WallStandingSerializer(serializers.Serializer):
    rank = serializers.IntegerField(allow_null=True, help_text="Null: not ranked yet (leagues).")
    shared = serializers.BooleanField()
    name = serializers.CharField(help_text="The display name, as shown.")
    matches = serializers.IntegerField()
    placement_points = serializers.FloatField()
    total_points = serializers.IntegerField()
    wins = serializers.IntegerField()
    mean_points_per_round = serializers.FloatField(allow_null=True)
    rounds_at_zero = serializers.IntegerField()
    best_round = serializers.IntegerField(allow_null=True)
    head_to_head = serializers.IntegerField(
        allow_null=True, help_text="Null: the order has no head_to_head."
    )
    buchholz = serializers.FloatField(allow_null=True, help_text="Null: not in the order.")
    median_buchholz = serializers.FloatField(allow_null=True, help_text="Null: not in the order.")
    division = serializers.CharField(
        required=False,
        help_text="Their division (the rank is within it); only at an event with divisions.",
    )
    by_stage = WallStagePointsSerializer(many=True)


class WallRoundsSerializer(serializers.Serializer):
    entered = serializers.IntegerField()
    total = serializers.IntegerField()


class WallTableSerializer(serializers.Serializer):
    table = serializers.IntegerField()
    status = serializers.CharField(help_text="The match's status (playing, finished, ...).")
    results_in = serializers.BooleanField(help_text="Its results count in the standings.")
    division = serializers.CharField(
        required=False,
        allow_null=True,
        help_text="The division it seats; only at an event with divisions.",
    )
    seats = serializers.ListField(child=serializers.CharField(), help_text="Names, seat order.")
    rounds = WallRoundsSerializer(
        allow_null=True, help_text="A match scored at a table: rounds entered of its total."
    )


class WallClockSerializer(serializers.Serializer):
    state = serializers.ChoiceField(
        choices=["running", "ended"], help_text="ended: run out, the last round is on."
    )
    minutes = serializers.IntegerField(help_text="The duration the organiser set.")
    started_at = serializers.DateTimeField()
    ends_at = serializers.DateTimeField(
        help_text="Count down ends_at - now (the body's now: the server's time), not the "
        "reader's own clock."
    )


class WallStageSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Stage.Status.choices)
    final_table = serializers.BooleanField(
        help_text="The final table: its results decide places 1 to n (docs/scoring.md)."
    )
    tables = WallTableSerializer(many=True)
    byes = serializers.ListField(child=serializers.CharField(), help_text="Names.")
    clock = WallClockSerializer(allow_null=True, help_text="The stage clock; null: none.")


class PublicWallSerializer(serializers.Serializer):
    competition = WallCompetitionSerializer()
    final = serializers.BooleanField(help_text="The competition has finished.")
    standings = WallStandingSerializer(many=True)
    stages = WallStageSerializer(many=True)
    now = serializers.DateTimeField(help_text="The server's time as it answered.")


class CompetitionPublishApi(CompetitionApi):
    """The organiser makes the competition's wall public."""

    @extend_schema(
        operation_id="competition_publish",
        **apidocs.PUBLISH_HEADING,
        parameters=[COMPETITION_ID],
        request=None,
        responses=apidocs.publish_responses(CompetitionSerializer, public=True),
    )
    def post(self, request: Request, competition_id: int) -> Response:
        competition_publish(competition_id=competition_id, player=self.player(request), public=True)
        return Response(competition_json(competition_get(competition_id=competition_id)))


class CompetitionUnpublishApi(CompetitionApi):
    """The organiser makes the competition's wall private again."""

    @extend_schema(
        operation_id="competition_unpublish",
        **apidocs.UNPUBLISH_HEADING,
        parameters=[COMPETITION_ID],
        request=None,
        responses=apidocs.publish_responses(CompetitionSerializer, public=False),
    )
    def post(self, request: Request, competition_id: int) -> Response:
        competition_publish(
            competition_id=competition_id, player=self.player(request), public=False
        )
        return Response(competition_json(competition_get(competition_id=competition_id)))


class PublicStandingsApi(APIView):
    """A public competition's wall, for anyone: no token."""

    authentication_classes = ()
    permission_classes = (AllowAny,)

    @extend_schema(
        operation_id="public_competition_standings",
        **apidocs.WALL_HEADING,
        parameters=[COMPETITION_ID],
        responses=apidocs.wall_responses(PublicWallSerializer),
    )
    def get(self, request: Request, competition_id: int) -> Response:
        check_known_params(request, [])
        competition = public_competition_get(competition_id=competition_id)
        return Response(wall_body(competition=competition))
