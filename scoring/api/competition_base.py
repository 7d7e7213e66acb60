"""What the competition views share: the caller as a player, serializers, schema examples."""

from __future__ import annotations

from typing import Any

from django.utils.functional import Promise
from drf_spectacular.utils import OpenApiParameter
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.views import APIView

from chickenfoot.openapi import problem, problem_example
from chickenfoot.query import check_query_params
from scoring.competitions.checkins import organiser_only
from scoring.competitions.divisions import NAME_MAX_LENGTH, RATING_RANGE, division_param
from scoring.competitions.seating import field_warnings
from scoring.competitions.selectors import competition_get
from scoring.competitions.tie_breaks import DEFAULT_ORDER, KEYS
from scoring.models import VARIANT_CHOICES, Competition
from scoring.ports import PlayerRef, games_port

#: A message, translated now or lazily.
StrOrPromise = str | Promise


class CompetitionApi(APIView):
    """Base of the competition endpoints: the project's authentication, an authenticated caller."""

    permission_classes = (IsAuthenticated,)

    def get_authenticators(self) -> list[Any]:
        return games_port().authenticators()  # the games API's, whatever it is

    def player(self, request: Request) -> PlayerRef:
        return games_port().player_for_user(user=request.user)

    def organiser_first(self, request: Request, competition_id: int, refusal: StrOrPromise) -> None:
        """Refuse a caller who is not the competition's organiser before the body is read
        (404 ``competition_not_found``, 403 ``not_organiser`` with ``refusal``, naming
        ``%(competition)s``): a malformed body tells an outsider nothing. The service checks
        again under its lock."""
        competition = competition_get(competition_id=competition_id)
        organiser_only(competition, self.player(request), refusal)


COMPETITION_ID = OpenApiParameter(
    "competition_id", int, OpenApiParameter.PATH, description="The tournament's or league's id."
)


DIVISION = OpenApiParameter(
    "division",
    str,
    OpenApiParameter.QUERY,
    required=False,
    description="At an event with divisions: that division alone, by name (case and spacing "
    "aside), ranked on its own; left out: every division in turn, each ranked on its own "
    "(docs/scoring.md, Divisions). A name the event has no division of: 404 "
    "division_not_found.",
)


def division_query(request: Request, competition: Competition, known: list[str]) -> str | None:
    """The division a reading asks for (``?division=``, checked with the other ``known``
    parameters): ``None`` for every division."""
    check_query_params(request.query_params, [*known, "division"])
    return division_param(competition, request.query_params.get("division"))


class OrganiserSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class FinalTableSerializer(serializers.Serializer):
    size = serializers.IntegerField(
        min_value=2,
        max_value=20,
        help_text="How many play it: 2 to the table size, or 4 at tables of 2 (two tables); "
        "with bots filling tables, the table size (or 4 at tables of 2).",
    )

    def to_internal_value(self, data: Any) -> dict[str, int]:
        return dict(super().to_internal_value(data))


class DivisionSerializer(serializers.Serializer):
    name = serializers.CharField(
        max_length=NAME_MAX_LENGTH,
        allow_blank=True,  # refused by the competition's checks, with the other divisions'
        help_text="Its name, its own in the event (case and spacing aside): text on one line.",
    )
    min_rating = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        min_value=RATING_RANGE[0],
        max_value=RATING_RANGE[1],
        help_text="The rating band: an entrant the organiser places in no division joins the "
        "first whose min_rating their rating reaches, or which has none (the unrated: only "
        "those). Lower than the division's before; none on the last.",
    )

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        return dict(super().to_internal_value(data))


def divisions_field(**kwargs: Any) -> serializers.ListField:
    """A tournament's ``divisions`` (docs/scoring.md, Divisions)."""
    options: dict[str, Any] = {
        "help_text": "Tournaments: the event's divisions in order, each seated and ranked on "
        "its own (docs/scoring.md, Divisions); null: none.",
        **kwargs,
    }
    return serializers.ListField(child=DivisionSerializer(), allow_null=True, **options)


class CompetitionSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=Competition.Kind.choices)
    play = serializers.ChoiceField(
        choices=Competition.Play.choices,
        help_text="online: the server deals; table: real tables, check-in before each stage.",
    )
    confirmation = serializers.ChoiceField(
        choices=Competition.Confirmation.values,
        allow_null=True,
        help_text="play: table: who must confirm each round of its matches (a match's own "
        "setting overrides it); null for an online event.",
    )
    name = serializers.CharField()
    variant = serializers.ChoiceField(choices=VARIANT_CHOICES)
    options = serializers.DictField(help_text="House options as the organiser gave them.")
    table_size = serializers.IntegerField()
    allow_bots = serializers.BooleanField()
    bot_level = serializers.IntegerField()
    turn_seconds = serializers.IntegerField(allow_null=True)
    points_scheme = serializers.DictField(
        child=serializers.ListField(child=serializers.IntegerField()),
        help_text="Table size -> points per place, best first.",
    )
    stage_count = serializers.IntegerField(allow_null=True, help_text="Tournaments only.")
    tie_breaks = serializers.ListField(
        child=serializers.ChoiceField(choices=KEYS),
        help_text="The standings' order, best first: the first key ranks, each next one breaks "
        "the ties left (docs/scoring.md, Standings).",
    )
    current_stage = serializers.IntegerField(help_text="0 before the first stage.")
    min_matches = serializers.IntegerField(help_text="Finished matches needed to be ranked.")
    starts_on = serializers.DateField(allow_null=True)
    ends_on = serializers.DateField(allow_null=True)
    status = serializers.ChoiceField(choices=Competition.Status.choices)
    public = serializers.BooleanField(
        help_text="Its wall is readable without a token (/api/public/competitions/{id}/standings)."
    )
    organiser = OrganiserSerializer()
    registered = serializers.IntegerField(help_text="Players registered (withdrawals left out).")
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    seeding = serializers.ChoiceField(
        choices=Competition.Seeding.choices,
        help_text="Tournaments: how stage 1 orders the field (docs/scoring.md, Seating).",
    )
    late_entry = serializers.ChoiceField(
        choices=Competition.LateEntry.choices,
        help_text="What an entrant added once stages were seated scores for each stage "
        "missed: zero, or a bye's points.",
    )
    pairing = serializers.ChoiceField(
        choices=Competition.Pairing.choices,
        help_text="Tournaments: swiss, or round_robin (docs/scoring.md, Round robin).",
    )
    final_table = FinalTableSerializer(
        allow_null=True,
        help_text="Tournaments: after the last Swiss stage the best n play a final table that "
        "decides places 1 to n (docs/scoring.md, Final table); null: none.",
    )
    divisions = divisions_field()
    warnings = serializers.ListField(
        child=serializers.CharField(),
        help_text="Tournaments: what the registered players' number implies for the seating "
        "(byes, tables short of table_size); before two have registered, what table_size may "
        "imply. Empty when bots fill the tables, and for leagues.",
    )


def competition_warnings(competition: Competition) -> list[str]:
    """What seating the registered players implies (``seating.field_warnings``)."""
    if competition.kind != Competition.Kind.TOURNAMENT:
        return []
    return field_warnings(
        players=competition.registered,  # type: ignore[attr-defined]
        table_size=competition.table_size,
        fill_with_bots=competition.allow_bots,
    )


def competition_json(competition: Competition) -> dict[str, Any]:
    """A competition as the API shows it (``competition_list`` rows: organiser, registered)."""
    return {
        **{
            name: getattr(competition, name)
            for name in (
                "id",
                "kind",
                "play",
                "name",
                "variant",
                "options",
                "table_size",
                "allow_bots",
                "bot_level",
                "turn_seconds",
                "points_scheme",
                "stage_count",
                "current_stage",
                "min_matches",
                "starts_on",
                "ends_on",
                "status",
                "public",
                "created_at",
                "finished_at",
                "seeding",
                "late_entry",
                "final_table",
                "pairing",
                "divisions",
            )
        },
        "tie_breaks": competition.order,
        "confirmation": (
            competition.confirmation if competition.play == Competition.Play.TABLE else None
        ),
        "organiser": {"id": competition.organiser_id, "name": competition.organiser.display_name},
        "registered": competition.registered,  # type: ignore[attr-defined]
        "warnings": competition_warnings(competition),
    }


_CREATED_AT = "2025-03-01T10:00:00Z"
TOURNAMENT_EXAMPLE: dict[str, Any] = {
    "id": 3,
    "kind": "tournament",
    "play": "online",
    "confirmation": None,
    "name": "Spring open",
    "variant": "chickenfoot",
    "options": {"rounds": 4},
    "table_size": 4,
    "allow_bots": True,
    "bot_level": 2,
    "turn_seconds": None,
    "points_scheme": {"4": [5, 3, 2, 1]},
    "stage_count": 3,
    "tie_breaks": list(DEFAULT_ORDER),
    "current_stage": 0,
    "min_matches": 0,
    "starts_on": "2025-03-08",
    "ends_on": "2025-03-08",
    "status": "registering",
    "public": False,
    "organiser": {"id": 1, "name": "Ada"},
    "registered": 12,
    "created_at": _CREATED_AT,
    "finished_at": None,
    "seeding": "random",
    "late_entry": "zero",
    "final_table": None,
    "pairing": "swiss",
    "divisions": None,
    "warnings": [],
}
#: A tournament at tables of 2 without bots, as created: its warnings say what may follow.
PAIRS_EXAMPLE: dict[str, Any] = {
    **TOURNAMENT_EXAMPLE,
    "name": "Pairs cup",
    "table_size": 2,
    "allow_bots": False,
    "points_scheme": {"2": [3, 1]},
    "registered": 0,
    "warnings": field_warnings(players=0, table_size=2, fill_with_bots=False),
}
LEAGUE_EXAMPLE: dict[str, Any] = {
    **TOURNAMENT_EXAMPLE,
    "id": 4,
    "kind": "league",
    "name": "Thursday league",
    "variant": "mexican_train",
    "options": {},
    "allow_bots": False,
    "points_scheme": {"2": [3, 1], "3": [4, 2, 1], "4": [5, 3, 2, 1]},
    "stage_count": None,
    "min_matches": 3,
    "starts_on": "2025-03-01",
    "ends_on": "2025-06-30",
    "status": "running",
}

NOT_FOUND = problem(
    "No such competition.",
    (
        "No such competition",
        problem_example(
            404, "competition_not_found", "No such competition", "There is no competition 99."
        ),
    ),
)
DIVISION_NOT_FOUND_EXAMPLE = (
    "No such division",
    problem_example(
        404,
        "division_not_found",
        "No such division",
        "Competition 3 has no division C; it has A, B.",
    ),
)
NOT_FOUND_OR_DIVISION = problem(
    "No such competition, or (?division=) no such division of it.",
    (
        "No such competition",
        problem_example(
            404, "competition_not_found", "No such competition", "There is no competition 99."
        ),
    ),
    DIVISION_NOT_FOUND_EXAMPLE,
)
NOT_ORGANISER = problem(
    "Only the competition's organiser may do this.",
    (
        "Not an organiser",
        problem_example(
            403,
            "not_organiser",
            "Not an organiser",
            "Only the organiser of competition 3 can start a stage.",
        ),
    ),
)


def status_conflict(description: str, detail: str) -> Any:
    return problem(
        description,
        ("Not now", problem_example(409, "competition_status", "Not now", detail)),
    )
