"""A competition's entrants: the list, the organiser adding one (JSON) or a file of them
(``text/csv``), changing one's club or seed, and reinstating one who dropped out."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.parsers import BaseParser
from rest_framework.request import Request
from rest_framework.response import Response

from chickenfoot.json_fields import StrictBooleanField
from chickenfoot.parsers import DepthLimitedJSONParser
from chickenfoot.partial import valid_fields
from chickenfoot.problems import InvalidInput, flatten_errors
from chickenfoot.throttles import ENTRANT_ADD_THROTTLES
from scoring.api.apidocs import entrants as apidocs
from scoring.api.body import BodySerializer
from scoring.api.common import check_known_params
from scoring.api.competition_base import CompetitionApi
from scoring.competitions.divisions import NAME_MAX_LENGTH
from scoring.competitions.entrant_edits import entrant_reinstate, entrant_update
from scoring.competitions.entrants import (
    CLUB_MAX_LENGTH,
    SEED_MAX,
    entrant_add,
    entrants_add_file,
)
from scoring.competitions.entrants_csv import read_entrants
from scoring.competitions.entrants_read import ENTRANT_KINDS, entrants_list
from scoring.competitions.selectors import competition_get

TAGS = ["competitions"]
CSV = "text/csv"


class EntrantsCSVParser(BaseParser):
    """An entrants file: the body's bytes, read by ``scoring.competitions.entrants_csv``."""

    media_type = CSV

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        return stream.read() if stream is not None else b""


class EntrantSerializer(serializers.Serializer):
    player_id = serializers.IntegerField()
    name = serializers.CharField(help_text="The display name (a guest's, as the organiser wrote).")
    kind = serializers.ChoiceField(
        choices=ENTRANT_KINDS, help_text="human: a player with an account; guest: none."
    )
    club = serializers.CharField(help_text="Empty: none.")
    seed = serializers.IntegerField(allow_null=True, help_text="The organiser's order, 1 first.")
    registered_at = serializers.DateTimeField()
    added_by_organiser = serializers.BooleanField()
    first_stage = serializers.IntegerField(
        help_text="The first stage the entrant may be seated at (a late entrant's: the one "
        "after the stage seated when they were added)."
    )
    dropped = serializers.BooleanField()
    checked_in = serializers.BooleanField(
        allow_null=True,
        help_text="A table event: checked in for the next stage. Null for an online event.",
    )
    division = serializers.CharField(
        allow_null=True, help_text="Their division's name; null at an event without divisions."
    )


class EntrantListSerializer(serializers.Serializer):
    entrants = EntrantSerializer(many=True)


def _division_field(**kwargs: Any) -> serializers.CharField:
    options: dict[str, Any] = {
        "help_text": "At an event with divisions: the entrant's division, by name (case and "
        "spacing aside); left out: by their rating (docs/scoring.md, Divisions).",
        **kwargs,
    }
    return serializers.CharField(required=False, max_length=NAME_MAX_LENGTH, **options)


class EntrantAddSerializer(BodySerializer):
    # One entrant: exactly one of name (a guest), username, player_id.
    name = serializers.CharField(
        required=False, max_length=200, help_text="A guest's name (a table event only)."
    )
    username = serializers.CharField(
        required=False, max_length=150, help_text="A player with an account."
    )
    player_id = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=2**63 - 1,
        help_text="A player with an account, or a guest of an earlier event.",
    )
    club = serializers.CharField(
        required=False, allow_blank=True, max_length=CLUB_MAX_LENGTH, default=""
    )
    seed = serializers.IntegerField(
        required=False, allow_null=True, min_value=1, max_value=SEED_MAX, default=None
    )
    check_in = StrictBooleanField(
        default=False,
        help_text="A table event: check the entrant in for the next stage too (a walk-in).",
    )
    division = _division_field()


class EntrantUpdateSerializer(BodySerializer):
    club = serializers.CharField(required=False, allow_blank=True, max_length=CLUB_MAX_LENGTH)
    division = _division_field(
        help_text="Moves the entrant to this division, until they are seated (docs/scoring.md, "
        "Divisions)."
    )
    seed = serializers.IntegerField(
        required=False, allow_null=True, min_value=1, max_value=SEED_MAX
    )


class ReinstateSerializer(BodySerializer):
    check_in = StrictBooleanField(
        default=False, help_text="A table event: check them in for the next stage too."
    )


def _entrants(competition_id: int, player_ids: list[int]) -> dict[str, Any]:
    competition = competition_get(competition_id=competition_id)
    return {"entrants": entrants_list(competition=competition, player_ids=player_ids)}


def _check_in_param(request: Request) -> bool:
    check_known_params(request, ["check_in"])
    value = request.query_params.get("check_in", "false")
    if value not in ("true", "false"):
        raise InvalidInput({"check_in": [_("Give true or false.")]})
    return value == "true"


class EntrantsApi(CompetitionApi):
    """The entrants of a competition; its organiser adds one (JSON) or a file of them (CSV).

    Adding is the organiser's at any time until the competition finishes: an entrant added
    once stage k has been seated plays from stage k + 1 (the competition's `late_entry` says
    what the stages missed score). It is not a registration from the organiser's address: the
    registration limit does not count it; the organiser's own limit (`entrant_add`) does.
    """

    parser_classes = (DepthLimitedJSONParser, EntrantsCSVParser)

    def get_throttles(self) -> list[Any]:
        return [t() for t in ENTRANT_ADD_THROTTLES] if self.request.method == "POST" else []

    @extend_schema(
        operation_id="competition_entrant_list",
        summary="A competition's entrants",
        tags=TAGS,
        parameters=apidocs.PARAMETERS,
        responses=apidocs.list_responses(EntrantListSerializer),
    )
    def get(self, request: Request, competition_id: int) -> Response:
        check_known_params(request, [])
        competition = competition_get(competition_id=competition_id)
        return Response({"entrants": entrants_list(competition=competition)})

    @extend_schema(
        request={"application/json": EntrantAddSerializer, CSV: apidocs.CSV_BODY},
        responses=apidocs.add_responses(EntrantListSerializer),
        **apidocs.ADD,
    )
    def post(self, request: Request, competition_id: int) -> Response:
        caller = self.player(request)
        if request.content_type.split(";")[0].strip().lower() == CSV:
            check_in = _check_in_param(request)
            body = request.data  # an empty body is not parsed at all
            specs, errors = read_entrants(body if isinstance(body, bytes) else b"")
            added = entrants_add_file(
                competition_id=competition_id,
                caller=caller,
                specs=specs,
                errors=errors,
                check_in=check_in,
            )
        else:
            check_known_params(request, [])
            data = EntrantAddSerializer(data=request.data)
            valid = data.is_valid()
            added = [
                entrant_add(
                    competition_id=competition_id,
                    caller=caller,
                    values=data.validated_data if valid else valid_fields(data),
                    errors=None if valid else flatten_errors(data.errors),
                )
            ]
        body = _entrants(competition_id, [row.player_id for row in added])
        return Response(body, status=HTTPStatus.CREATED)


class EntrantApi(CompetitionApi):
    """One entrant: the organiser changes their club or seed."""

    @extend_schema(
        request=EntrantUpdateSerializer,
        responses=apidocs.update_responses(EntrantListSerializer),
        **apidocs.UPDATE,
    )
    def patch(self, request: Request, competition_id: int, player_id: int) -> Response:
        refusal = _("Only the organiser of competition %(competition)s can change an entrant.")
        self.organiser_first(request, competition_id, refusal)
        data = EntrantUpdateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        entrant_update(
            competition_id=competition_id,
            caller=self.player(request),
            player_id=player_id,
            values=data.validated_data,
        )
        return Response(_entrants(competition_id, [player_id]))


class EntrantReinstateApi(CompetitionApi):
    """The organiser takes back an entrant who dropped out: seated again from the next
    stage (the stages missed score nothing)."""

    @extend_schema(
        request=ReinstateSerializer,
        responses=apidocs.reinstate_responses(EntrantListSerializer),
        **apidocs.REINSTATE,
    )
    def post(self, request: Request, competition_id: int, player_id: int) -> Response:
        refusal = _("Only the organiser of competition %(competition)s can reinstate an entrant.")
        self.organiser_first(request, competition_id, refusal)
        data = ReinstateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        entrant_reinstate(
            competition_id=competition_id,
            caller=self.player(request),
            player_id=player_id,
            check_in=data.validated_data["check_in"],
        )
        return Response(_entrants(competition_id, [player_id]))
