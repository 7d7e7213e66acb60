"""What the match endpoints send and take, typed for the OpenAPI schema.

The views answer dicts built by the selectors; these serializers describe them. The create
request is a union by `variant` (each game's options) whose seats are a union by `kind`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy
from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_serializer
from rest_framework import serializers

from chickenfoot.json_fields import StrictBooleanField
from chickenfoot.openapi import AVATAR_SMALL_URL_HELP, AVATAR_URL_HELP
from chickenfoot.problems import flatten_errors
from games.api.common import SEAT_KIND_CHOICES, SEAT_REQUEST_KIND_CHOICES
from games.api.fields import const, union_field
from games.api.state_types import (
    ChickenFootOptionsInputSerializer,
    MexicanTrainOptionsInputSerializer,
    options_field,
    state_field,
)
from games.api.strict import StrictCharField, StrictIntegerField, StrictSerializer
from games.models import Match, Seat
from games.tables.api_types import TableRoundOutputSerializer
from games.tables.models import TableSettings
from scoring.api.common import RatingChangeFiguresSerializer, unrated_reason_field

SEAT_HELP = (
    "Every seat in play order: you (`creator`, at most once), `open` seats, bots; at a table "
    "(`play: table`): you, players with an account (`player`, by `player_id` or `username`) and "
    "guests (`guest`, by `name`)."
)
PLAY_HELP = (
    "`online`: the server deals and checks every move; `table`: played with real tiles, each "
    "round's scores entered (docs/tables.md)."
)


# --- what the match endpoints answer -------------------------------------------------------------


SEAT_AVATAR_HELP = f"{AVATAR_URL_HELP} Null while the seat is open."
SEAT_AVATAR_SMALL_HELP = f"{AVATAR_SMALL_URL_HELP} Null while the seat is open."


@extend_schema_serializer(component_name="Seat")
class SeatOutputSerializer(serializers.Serializer):
    position = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=SEAT_KIND_CHOICES)
    player_id = serializers.IntegerField(allow_null=True, help_text="Null while the seat is open.")
    name = serializers.CharField(allow_null=True)
    bot_level = serializers.IntegerField(allow_null=True)
    you = serializers.BooleanField()
    left = serializers.ChoiceField(
        choices=Seat.Left.choices,
        allow_null=True,
        help_text="Why a bot plays this seat for its player: `resigned` or `timed_out`; null "
        "while the player plays it.",
    )
    avatar_url = serializers.URLField(allow_null=True, help_text=SEAT_AVATAR_HELP)
    avatar_small_url = serializers.URLField(allow_null=True, help_text=SEAT_AVATAR_SMALL_HELP)


@extend_schema_serializer(component_name="Standing")
class StandingOutputSerializer(serializers.Serializer):
    place = serializers.IntegerField(help_text="1 is the winner; tied seats share a place.")
    seat = serializers.IntegerField()
    player_id = serializers.IntegerField(allow_null=True)
    name = serializers.CharField(allow_null=True, help_text="The player's display name.")
    total = serializers.IntegerField(help_text="Points over every round: lowest wins (C-WIN).")
    zero_rounds = serializers.IntegerField(help_text="Rounds scored at 0 (tie-break 1).")
    lowest_round = serializers.IntegerField(
        allow_null=True,
        help_text="The lowest non-zero single-round score (tie-break 2); null when every round "
        "was 0. Rounds [0, 35, 0] give 35; [12, 0, 7] give 7; [0, 0] give null.",
    )
    decided_by = serializers.ChoiceField(
        choices=["total", "zero_rounds", "lowest_round", "shared"],
        help_text="What separated this seat from its neighbours; `shared`: nothing did.",
    )
    tiebreak = serializers.ListField(
        child=serializers.ChoiceField(choices=["total", "zero_rounds", "lowest_round"]),
        help_text="The criteria consulted, in order.",
    )
    rating = RatingChangeFiguresSerializer(
        allow_null=True,
        help_text="What the match did to the player's rating (`display` scale, as the "
        "leaderboards show it); null until it is rated, and in a match not rated (the "
        "match's `unrated_reason` says why).",
    )
    left = serializers.ChoiceField(
        choices=Seat.Left.choices,
        required=False,
        help_text="Present when the seat's player left it (a bot finished it): why.",
    )


HINTS_USED_FIELD = serializers.ListField(
    child=serializers.IntegerField(min_value=0),
    allow_null=True,
    help_text="Per seat, the hints it was given; null for a match without hints.",
)


@extend_schema_serializer(component_name="MatchSummary")
class MatchSummaryOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    variant = serializers.ChoiceField(choices=Match.Variant.choices)
    play = serializers.ChoiceField(choices=Match.Play.choices, help_text=PLAY_HELP)
    status = serializers.ChoiceField(choices=Match.Status.choices)
    version = serializers.IntegerField(help_text="Bumped by every change; the match's ETag.")
    options = options_field(help_text="The house options of `variant`, every default filled in.")
    seat_count = serializers.IntegerField(
        min_value=2, max_value=22, help_text="How many seats: 2 to 22 (docs/rules.md, CF-PLAYERS)."
    )
    open_seats = serializers.IntegerField(min_value=0, max_value=21)
    created_by = serializers.CharField()
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True, help_text="Null until it starts.")
    finished_at = serializers.DateTimeField(allow_null=True, help_text="Null until it is over.")
    seats = SeatOutputSerializer(many=True)
    standings = StandingOutputSerializer(
        many=True,
        allow_null=True,
        help_text="The final order (C-WIN), best first, from the result rows; null until the "
        "match is over and the end-of-match task has written them.",
    )
    results_pending = serializers.BooleanField(
        help_text="Finished, and the end-of-match task has not written the results yet."
    )
    unrated_reason = unrated_reason_field()
    hints = serializers.BooleanField(
        help_text="A casual match whose people may ask for hints (never rated)."
    )
    hints_used = HINTS_USED_FIELD


@extend_schema_serializer(component_name="MatchView")
class MatchViewOutputSerializer(MatchSummaryOutputSerializer):
    your_seat = serializers.IntegerField(allow_null=True, help_text="None: you are watching.")
    you_may_start = serializers.BooleanField(
        help_text="The match is open and you created it (or are an organiser): you may start it "
        "once every seat is taken."
    )
    round_scores = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField()),
        help_text="The round-by-round scores: `round_scores[r][seat]` is what `seat` scored in "
        "round `r + 1`; one row per round over, `[]` before the first ends.",
    )
    totals = serializers.ListField(
        child=serializers.IntegerField(), help_text="Each seat's total so far (zeros at first)."
    )
    state = state_field(
        allow_null=True,
        help_text="The table as your seat sees it (C-HIDDEN), by `variant`; null until the match "
        "starts, and always for a table match (the server deals nothing).",
    )
    table_rounds = TableRoundOutputSerializer(
        many=True,
        allow_null=True,
        help_text="A table match's rounds as entered, in order; null for an online match.",
    )
    confirmation = serializers.ChoiceField(
        choices=TableSettings.Confirmation.values,
        allow_null=True,
        help_text="A table match: who must confirm each round (its own setting, else its "
        "competition's, else `nobody`); null for an online match.",
    )
    you_may_score = serializers.BooleanField(
        help_text="A table match whose scores you may enter and correct (its creator, a player "
        "seated with an account, a scorer link of it); false for an online match."
    )


@extend_schema_serializer(component_name="MatchMine")
class MatchMineOutputSerializer(MatchSummaryOutputSerializer):
    your_seat = serializers.IntegerField(
        allow_null=True, help_text="Your seat at this match; null for a match of bots you created."
    )
    turn = serializers.IntegerField(
        allow_null=True, help_text="The seat to move; null unless the match is playing."
    )
    your_turn = serializers.BooleanField(help_text="Is it your move?")


HINTS_HELP = (
    "A casual online match whose people may ask for hints (`GET /api/matches/{id}/hint`): "
    "never rated, never in a league, refused at a table. Default false."
)
#: Why a table match, and a league's, refuse hints.
HINTS_TABLE = gettext_lazy("Hints are for online matches: a table match takes none.")
HINTS_LEAGUE = gettext_lazy("A league match counts for its league: it takes no hints.")


# --- the create request -----------------------------------------------------------------------


class MatchSeatInputSerializer(StrictSerializer):
    """A seat as the creator asks for it; the server's validation (the schema's are below)."""

    kind = serializers.ChoiceField(
        choices=SEAT_REQUEST_KIND_CHOICES,
        help_text="`creator`: you (at most once); `open`: for another player to join; `bot`; "
        "at a table: `player` (by `player_id` or `username`) and `guest` (by `name`).",
    )
    level = StrictIntegerField(
        min_value=1,
        max_value=4,
        required=False,
        help_text="A bot's level: 1 (random), 2 (greedy), 3 (doubles first) or 4 (strong: "
        "searches sampled deals of the unseen tiles); see docs/api.md, Bots.",
    )
    player_id = StrictIntegerField(min_value=1, required=False, help_text="A `player` seat.")
    username = StrictCharField(max_length=150, required=False, help_text="A `player` seat.")
    name = StrictCharField(max_length=200, required=False, help_text="A `guest`'s name.")


LEAGUE_HELP = (
    "A running league's id: the match counts for it (you must be registered and seated; it "
    "plays the league's game, `play` and options; only its players join; at a table every "
    "seat is a registered player, no guest)."
)


CONFIRMATION_HELP = (
    "A table match: who must confirm each round (`nobody`, `any_other_seat`, `every_seat`; "
    "docs/tables.md, Confirmation). Default: its competition's, else `nobody`. Refused for "
    "an online match."
)
#: Why an online match refuses a confirmation rule.
CONFIRMATION_ONLINE = (
    "An online match is scored by the server: it has no round to confirm. confirmation is for "
    "play: table."
)


class MatchCreateInputSerializer(StrictSerializer):
    """The server's validation of a create request (the schema shows the union below)."""

    def to_internal_value(self, data: Any) -> Any:
        refused: dict[str, list[str]] = {}
        online = isinstance(data, Mapping) and data.get("play", "online") != Match.Play.TABLE
        if online and data.get("confirmation") is not None:
            refused["confirmation"] = [CONFIRMATION_ONLINE]
        if isinstance(data, Mapping) and data.get("hints") is True:
            if not online:
                refused["hints"] = [str(HINTS_TABLE)]
            elif data.get("league") is not None:
                refused["hints"] = [str(HINTS_LEAGUE)]
        try:
            value = super().to_internal_value(data)
        except serializers.ValidationError as bad:
            if not refused:
                raise
            raise serializers.ValidationError({**refused, **flatten_errors(bad.detail)}) from None
        if refused:
            raise serializers.ValidationError(refused)
        return value

    variant = serializers.ChoiceField(choices=Match.Variant.choices)
    play = serializers.ChoiceField(
        choices=Match.Play.choices, required=False, default=Match.Play.ONLINE, help_text=PLAY_HELP
    )
    options = serializers.DictField(
        required=False, default=dict, help_text="House options (docs/rules.md §4)."
    )
    seats = MatchSeatInputSerializer(many=True, min_length=2, max_length=22)
    league = StrictIntegerField(
        min_value=1, required=False, allow_null=True, default=None, help_text=LEAGUE_HELP
    )
    confirmation = serializers.ChoiceField(
        choices=TableSettings.Confirmation.values,
        required=False,
        allow_null=True,
        default=None,
        help_text=CONFIRMATION_HELP,
    )
    hints = StrictBooleanField(required=False, default=False, help_text=HINTS_HELP)


def _seat(component: str, doc: str, **fields: serializers.Field) -> type[serializers.Serializer]:
    attrs: dict[str, Any] = {**fields, "__doc__": doc}
    serializer = type(component + "Serializer", (serializers.Serializer,), attrs)
    return extend_schema_serializer(component_name=component)(serializer)


SEAT_UNION = PolymorphicProxySerializer(
    component_name="SeatSpec",
    serializers={
        "creator": _seat("CreatorSeat", "You, at most once.", kind=const("creator")),
        "open": _seat("OpenSeat", "A seat for another player to join.", kind=const("open")),
        "bot": _seat(
            "BotSeat",
            "A bot: level 1 plays at random, 2 the most pips, 3 doubles first, 4 (strong) "
            "searches sampled deals of the tiles it cannot see.",
            kind=const("bot"),
            level=serializers.IntegerField(min_value=1, max_value=4),
        ),
        "player": _seat(
            "PlayerSeat",
            "At a table: a player with an account, by `player_id` or by `username`.",
            kind=const("player"),
            player_id=serializers.IntegerField(min_value=1, required=False),
            username=serializers.CharField(required=False),
        ),
        "guest": _seat(
            "GuestSeat",
            "At a table: a guest, a person without an account, by name (docs/tables.md).",
            kind=const("guest"),
            name=serializers.CharField(max_length=64),
        ),
    },
    resource_type_field_name="kind",
    many=False,
)


def _create(name: str, variant: str, options: type) -> type[serializers.Serializer]:
    attrs: dict[str, Any] = {
        "__doc__": f"Create a {Match.Variant(variant).label} match.",
        "variant": const(variant),
        "play": serializers.ChoiceField(
            choices=Match.Play.choices, required=False, help_text=PLAY_HELP
        ),
        "options": options(required=False, help_text="House options (docs/rules.md §4)."),
        "seats": serializers.ListField(
            child=union_field(SEAT_UNION), min_length=2, max_length=22, help_text=SEAT_HELP
        ),
        "league": serializers.IntegerField(
            min_value=1, required=False, allow_null=True, help_text=LEAGUE_HELP
        ),
        "confirmation": serializers.ChoiceField(
            choices=TableSettings.Confirmation.values,
            required=False,
            allow_null=True,
            help_text=CONFIRMATION_HELP,
        ),
        "hints": serializers.BooleanField(required=False, help_text=HINTS_HELP),
    }
    serializer = type(name + "Serializer", (serializers.Serializer,), attrs)
    return extend_schema_serializer(component_name=name)(serializer)


MATCH_CREATE_REQUEST = PolymorphicProxySerializer(
    component_name="MatchCreate",
    serializers={
        "chickenfoot": _create(
            "ChickenFootMatchCreate", "chickenfoot", ChickenFootOptionsInputSerializer
        ),
        "mexican_train": _create(
            "MexicanTrainMatchCreate", "mexican_train", MexicanTrainOptionsInputSerializer
        ),
    },
    resource_type_field_name="variant",
)
