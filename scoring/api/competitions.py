"""Tournaments and leagues: list, create, detail, register, withdraw, close, start, finish."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

import django_filters
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.generics import ListAPIView
from rest_framework.request import Request
from rest_framework.response import Response

from chickenfoot.json_fields import StrictBooleanField
from chickenfoot.openapi import NOT_AUTHENTICATED
from chickenfoot.partial import valid_fields
from chickenfoot.problems import flatten_errors
from chickenfoot.query import page_size_check
from scoring.api.apidocs import competitions as apidocs
from scoring.api.body import BodySerializer
from scoring.api.common import check_known_params
from scoring.api.competition_base import (
    COMPETITION_ID,
    LEAGUE_EXAMPLE,
    NOT_FOUND,
    NOT_ORGANISER,
    CompetitionApi,
    CompetitionSerializer,
    FinalTableSerializer,
    competition_json,
    divisions_field,
    status_conflict,
)
from scoring.competitions.divisions import MAX_DIVISIONS
from scoring.competitions.points import MAX_TABLE_SIZE
from scoring.competitions.seating_rules import competition_rules_update
from scoring.competitions.selectors import competition_get, competition_list, competition_players
from scoring.competitions.services import (
    MAX_STAGES,
    CompetitionSpec,
    competition_close,
    competition_create,
    competition_create_refused,
    competition_creator_check,
    league_finish,
    league_start,
    registration_create,
    registration_withdraw,
)
from scoring.competitions.tie_breaks import KEYS
from scoring.filters import IntegerFilter
from scoring.models import VARIANT_CHOICES, Competition

#: The refusal of a change to the seating rules to anyone but the organiser.
_SEATING_RULES = gettext_lazy(
    "Only the organiser of competition %(competition)s can change how it is seated."
)


class CompetitionFilter(django_filters.FilterSet):
    """``?kind=tournament&status=running&variant=chickenfoot&organiser=1&name=spring``."""

    kind = django_filters.ChoiceFilter(choices=Competition.Kind.choices)
    status = django_filters.ChoiceFilter(choices=Competition.Status.choices)
    variant = django_filters.ChoiceFilter(choices=VARIANT_CHOICES)
    # A whole number a key can hold: a decimal, or one past 64 bits, is a 400 (SQLite could not
    # even bind it).
    organiser = IntegerFilter(
        field_name="organiser_id", min_value=1, max_value=2**63 - 1, help_text="A player id."
    )
    name = django_filters.CharFilter(lookup_expr="icontains", help_text="Part of the name.")
    starts_after = django_filters.DateFilter(field_name="starts_on", lookup_expr="gte")
    starts_before = django_filters.DateFilter(field_name="starts_on", lookup_expr="lte")

    class Meta:
        model = Competition
        fields = ["kind", "status", "variant", "organiser", "name"]


class CompetitionPlayerSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    registered_at = serializers.DateTimeField()


class CompetitionDetailSerializer(CompetitionSerializer):
    players = CompetitionPlayerSerializer(many=True)


def _detail(competition_id: int) -> dict[str, Any]:
    competition = competition_get(competition_id=competition_id)
    return {
        **competition_json(competition),
        "players": competition_players(competition=competition),
    }


class CompetitionCreateSerializer(serializers.Serializer):
    # What creating a tournament or a league takes (a docstring would be its schema description).
    kind = serializers.ChoiceField(choices=Competition.Kind.choices)
    play = serializers.ChoiceField(
        choices=Competition.Play.choices,
        default=Competition.Play.ONLINE,
        help_text="table: a tournament or league at real tables (docs/tables.md): table "
        "matches (a tournament's checked in before each stage), no bots, no clock.",
    )
    confirmation = serializers.ChoiceField(
        choices=Competition.Confirmation.values,
        required=False,
        allow_null=True,
        default=None,
        help_text="play: table: who must confirm each round of its matches (docs/tables.md, "
        "Confirmation); default nobody. Refused for an online event.",
    )
    name = serializers.CharField(max_length=100)
    variant = serializers.ChoiceField(choices=VARIANT_CHOICES)
    options = serializers.DictField(
        required=False, default=dict, help_text="House options (docs/rules.md §4), every match."
    )
    table_size = serializers.IntegerField(
        min_value=2, max_value=MAX_TABLE_SIZE, help_text="Seats at a table (league: at most)."
    )
    allow_bots = StrictBooleanField(
        default=False,
        help_text="Tournament: bots fill short tables. League: matches may seat bots.",
    )
    bot_level = serializers.IntegerField(default=2, help_text="The level of filling bots.")
    turn_seconds = serializers.IntegerField(
        min_value=5,
        max_value=86400,
        required=False,
        allow_null=True,
        default=None,
        help_text="Seconds a human has for each move in every match (the house option "
        "turn_seconds, docs/rules.md §4); null: no clock.",
    )
    points_scheme = serializers.DictField(
        child=serializers.ListField(child=serializers.IntegerField()),
        required=False,
        allow_null=True,
        default=None,
        help_text="Table size -> points per place, best first; default n+1 for the winner, "
        "n+1-p for place p (docs/scoring.md).",
    )
    stage_count = serializers.IntegerField(
        min_value=1,
        max_value=MAX_STAGES,
        required=False,
        allow_null=True,
        default=None,
        help_text="Tournaments: how many stages.",
    )
    tie_breaks = serializers.ListField(
        child=serializers.ChoiceField(choices=KEYS),
        min_length=1,
        max_length=len(KEYS),
        required=False,
        allow_null=True,
        default=None,
        help_text="The standings' order, best first, each key once and placement_points among "
        "them (docs/scoring.md, Standings); default placement_points, wins, "
        "mean_points_per_round, head_to_head.",
    )
    min_matches = serializers.IntegerField(
        min_value=0,
        max_value=1000,
        required=False,
        allow_null=True,
        default=None,
        help_text="Leagues: finished matches a player needs to be ranked (default 3).",
    )
    starts_on = serializers.DateField(required=False, allow_null=True, default=None)
    ends_on = serializers.DateField(required=False, allow_null=True, default=None)
    seeding = serializers.ChoiceField(
        choices=Competition.Seeding.choices,
        default=Competition.Seeding.RANDOM,
        help_text="Tournaments: stage 1 at random from the stored seed, by rating, or in the "
        "organiser's order (each entrant's seed): docs/scoring.md, Seating.",
    )
    late_entry = serializers.ChoiceField(
        choices=Competition.LateEntry.choices,
        default=Competition.LateEntry.ZERO,
        help_text="An entrant added once stages were seated scores for each stage missed: "
        "zero (default), or a bye's points.",
    )
    pairing = serializers.ChoiceField(
        choices=Competition.Pairing.choices,
        default=Competition.Pairing.SWISS,
        help_text="Tournaments: swiss (default), or round_robin at tables of 2 (everyone "
        "meets everyone once), 3 or 4 (the fewest repeated meetings) (docs/scoring.md, Round "
        "robin).",
    )
    final_table = FinalTableSerializer(
        required=False,
        allow_null=True,
        default=None,
        help_text='Tournaments: {"size": n}: after the last Swiss stage the best n play a '
        "final table that decides places 1 to n (docs/scoring.md, Final table).",
    )
    divisions = divisions_field(
        required=False, default=None, min_length=2, max_length=MAX_DIVISIONS
    )


class CompetitionRulesSerializer(BodySerializer):
    # What the organiser may change once the competition exists.
    seeding = serializers.ChoiceField(choices=Competition.Seeding.choices, required=False)
    late_entry = serializers.ChoiceField(choices=Competition.LateEntry.choices, required=False)
    final_table = FinalTableSerializer(
        required=False,
        allow_null=True,
        help_text='{"size": n}, or null for none: until the final table is seated.',
    )
    pairing = serializers.ChoiceField(
        choices=Competition.Pairing.choices,
        required=False,
        help_text="swiss or round_robin: until stage 1 is seated.",
    )
    divisions = divisions_field(
        required=False,
        max_length=MAX_DIVISIONS,
        help_text="The event's divisions in order, as at creation, or null (or []) for none: "
        "until stage 1 is seated. Entrants the organiser placed keep their division (by name); "
        "the others join the new rating bands (docs/scoring.md, Divisions).",
    )


class CompetitionListCreateApi(ListAPIView, CompetitionApi):
    """Tournaments and leagues, newest first (filters, pages of 50, `page_size` up to 100); an
    organiser creates one."""

    queryset = competition_list()
    filterset_class = CompetitionFilter
    serializer_class = CompetitionSerializer

    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        rows = self.get_queryset()
        check_known_params(
            request,
            [*CompetitionFilter.base_filters, "page", "page_size"],
            lambda: self.filter_queryset(rows),
            page_size_check(self.paginator, request),  # type: ignore[arg-type]
        )
        page = self.paginate_queryset(self.filter_queryset(rows))
        return self.get_paginated_response([competition_json(c) for c in page or []])

    @extend_schema(
        operation_id="competition_list",
        summary="Tournaments and leagues",
        tags=["competitions"],
        responses=apidocs.COMPETITION_LIST_CREATE_GET_RESPONSES,
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    @extend_schema(
        operation_id="competition_create",
        summary="Create a tournament or a league (organisers)",
        tags=["competitions"],
        request=CompetitionCreateSerializer,
        examples=apidocs.COMPETITION_LIST_CREATE_POST_EXAMPLES,
        responses=apidocs.COMPETITION_LIST_CREATE_POST_RESPONSES,
    )
    def post(self, request: Request) -> Response:
        competition_creator_check(organiser=self.player(request))
        data = CompetitionCreateSerializer(data=request.data)
        if not data.is_valid():
            # with the competition's checks of the fields that are valid: every field at once
            raise competition_create_refused(
                values=valid_fields(data), errors=flatten_errors(data.errors)
            )
        competition = competition_create(
            organiser=self.player(request), spec=CompetitionSpec(**data.validated_data)
        )
        return Response(
            competition_json(competition_get(competition_id=competition.pk)),
            status=HTTPStatus.CREATED,
            headers={"Location": f"/api/competitions/{competition.pk}"},
        )


class CompetitionDetailApi(CompetitionApi):
    """One tournament or league, with its registered players; its organiser changes its
    seeding, late-entry scoring, final table, pairing and divisions with PATCH."""

    @extend_schema(
        operation_id="competition_detail",
        summary="A tournament or league",
        tags=["competitions"],
        parameters=[COMPETITION_ID],
        responses=apidocs.competition_detail_responses(CompetitionDetailSerializer),
    )
    def get(self, request: Request, competition_id: int) -> Response:
        return Response(_detail(competition_id))

    @extend_schema(
        request=CompetitionRulesSerializer,
        responses=apidocs.competition_update_responses(CompetitionDetailSerializer),
        **apidocs.COMPETITION_UPDATE,
    )
    def patch(self, request: Request, competition_id: int) -> Response:
        self.organiser_first(request, competition_id, _SEATING_RULES)
        data = CompetitionRulesSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        competition_rules_update(
            competition_id=competition_id, caller=self.player(request), values=data.validated_data
        )
        return Response(_detail(competition_id))


def _operation(
    *,
    operation_id: str,
    summary: str,
    conflict: str,
    organiser_only: bool,
    example: dict[str, Any],
) -> Any:
    responses: dict[Any, Any] = {
        HTTPStatus.OK: OpenApiResponse(
            CompetitionDetailSerializer,
            description="The competition as it is now.",
            examples=[OpenApiExample("Done", value=example)],
        ),
        HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
        HTTPStatus.NOT_FOUND: NOT_FOUND,
        HTTPStatus.CONFLICT: status_conflict("Not in the right status for this.", conflict),
    }
    if organiser_only:
        responses[HTTPStatus.FORBIDDEN] = NOT_ORGANISER
    return extend_schema(
        operation_id=operation_id,
        summary=summary,
        tags=["competitions"],
        parameters=[COMPETITION_ID],
        request=None,
        responses=responses,
    )


class RegisterApi(CompetitionApi):
    """Register yourself while registration is open (again after a withdrawal)."""

    @_operation(
        operation_id="competition_register",
        summary="Register for a competition",
        conflict="Competition 3 is running: registration is closed.",
        organiser_only=False,
        example=apidocs.DETAIL_EXAMPLE,
    )
    def post(self, request: Request, competition_id: int) -> Response:
        registration_create(competition_id=competition_id, player=self.player(request))
        return Response(_detail(competition_id))


class WithdrawApi(CompetitionApi):
    """Withdraw before the competition starts; once it runs, drop out (seated at no later
    stage, still in the standings)."""

    @_operation(
        operation_id="competition_withdraw",
        summary="Withdraw from a competition",
        conflict="Competition 3 is running: players withdraw only before it starts.",
        organiser_only=False,
        example={
            **apidocs.DETAIL_EXAMPLE,
            "registered": 1,
            "players": apidocs.DETAIL_EXAMPLE["players"][:1],
        },
    )
    def post(self, request: Request, competition_id: int) -> Response:
        registration_withdraw(competition_id=competition_id, player=self.player(request))
        return Response(_detail(competition_id))


class CloseApi(CompetitionApi):
    """The organiser closes registration (a tournament's first stage, a league's start next)."""

    @_operation(
        operation_id="competition_close",
        summary="Close registration",
        conflict="Competition 3 is closed: only an open registration can close.",
        organiser_only=True,
        example={**apidocs.DETAIL_EXAMPLE, "status": "closed"},
    )
    def post(self, request: Request, competition_id: int) -> Response:
        competition_close(competition_id=competition_id, player=self.player(request))
        return Response(_detail(competition_id))


class LeagueStartApi(CompetitionApi):
    """The organiser starts a league's season (a tournament starts with its first stage)."""

    @_operation(
        operation_id="league_start",
        summary="Start a league's season",
        conflict="League 4 is registering: close registration first.",
        organiser_only=True,
        example={**LEAGUE_EXAMPLE, "players": apidocs.DETAIL_EXAMPLE["players"]},
    )
    def post(self, request: Request, competition_id: int) -> Response:
        league_start(competition_id=competition_id, player=self.player(request))
        return Response(_detail(competition_id))


class LeagueFinishApi(CompetitionApi):
    """The organiser ends a league's season: the standings are final."""

    @_operation(
        operation_id="league_finish",
        summary="Finish a league's season",
        conflict="League 4 is closed: only a running league finishes.",
        organiser_only=True,
        example={
            **LEAGUE_EXAMPLE,
            "status": "finished",
            "players": apidocs.DETAIL_EXAMPLE["players"],
        },
    )
    def post(self, request: Request, competition_id: int) -> Response:
        league_finish(competition_id=competition_id, player=self.player(request))
        return Response(_detail(competition_id))
