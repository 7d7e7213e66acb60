"""Who a tournament keeps apart when it seats a stage: clubs, and pairs the organiser names."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from chickenfoot.json_fields import StrictBooleanField
from scoring.api.apidocs import seating_rules as apidocs
from scoring.api.body import BodySerializer
from scoring.api.competition_base import CompetitionApi
from scoring.competitions.seating_rules import keep_apart_check, keep_apart_read, keep_apart_set
from scoring.competitions.selectors import competition_get

TAGS = ["competitions"]


class KeepApartSerializer(BodySerializer):
    clubs = StrictBooleanField(
        help_text="Each two entrants of one club (as written, without regard to case or "
        "spacing) are kept apart."
    )
    pairs = serializers.ListField(
        child=serializers.ListField(
            child=serializers.IntegerField(min_value=1, max_value=2**63 - 1),
            min_length=2,
            max_length=2,
        ),
        max_length=500,
        help_text="Pairs of entrants (player ids) kept apart; this list replaces the last.",
    )


class KeepApartApi(CompetitionApi):
    """Who is kept apart when a stage is seated (docs/scoring.md, Seating): entrants of one
    club, and pairs the organiser names, seated together only when every seating of equal
    Swiss cost would seat them so. The organiser's only."""

    @extend_schema(
        operation_id="competition_keep_apart",
        summary="Who is kept apart (organiser)",
        tags=TAGS,
        parameters=apidocs.PARAMETERS,
        responses=apidocs.keep_apart_get_responses(KeepApartSerializer),
    )
    def get(self, request: Request, competition_id: int) -> Response:
        competition = keep_apart_check(competition_id=competition_id, caller=self.player(request))
        return Response(keep_apart_read(competition=competition))

    @extend_schema(
        request=KeepApartSerializer,
        responses=apidocs.keep_apart_put_responses(KeepApartSerializer),
        **apidocs.KEEP_APART_SET,
    )
    def put(self, request: Request, competition_id: int) -> Response:
        refusal = _(
            "Only the organiser of competition %(competition)s can change how it is seated."
        )
        self.organiser_first(request, competition_id, refusal)
        data = KeepApartSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        keep_apart_set(
            competition_id=competition_id,
            caller=self.player(request),
            clubs=data.validated_data["clubs"],
            pairs=data.validated_data["pairs"],
        )
        return Response(keep_apart_read(competition=competition_get(competition_id=competition_id)))
