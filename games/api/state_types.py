"""The match as a seat sees it (the engine's views, docs/engine.md) and each game's house options,
typed for the OpenAPI schema: the state is a union discriminated by ``variant``.

Schema only: ``games/engine/*/view.py`` builds the values; each field here is one it sends.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_serializer
from rest_framework import serializers

from games.api.event_types import EngineStandingSerializer
from games.api.fields import TileOutputField as Tile
from games.api.fields import const, int_choice, ints, tiles, union_field
from games.engine.options import MAX_TURN_SECONDS
from games.engine.tiles import SUPPORTED_MAX_PIPS
from games.models import Move

MT_MAX_PIPS = [9, 12, 15, 18]
ROUNDS_HELP = "1 to max_pip + 1 (C-ROUNDS); default: every round, max_pip + 1."


# --- house options (docs/rules.md §4) ----------------------------------------------------------


def _common_options(required: bool, max_pips: list[int]) -> dict[str, serializers.Field]:
    return {
        "max_pip": int_choice(
            max_pips, required=required, help_text="The set: double-N (C-SET). Default by seats."
        ),
        "hand_size": serializers.IntegerField(
            min_value=1,
            required=required,
            help_text="Tiles dealt to each seat; must leave a boneyard. Default by the deal table.",
        ),
        "rounds": serializers.IntegerField(
            min_value=1, max_value=19, required=required, help_text=ROUNDS_HELP
        ),
        "double_blank_points": serializers.IntegerField(
            min_value=0, max_value=100, required=required, help_text="What 0|0 scores (C-PIPS; 50)."
        ),
        "turn_seconds": serializers.IntegerField(
            min_value=1,
            max_value=MAX_TURN_SECONDS,
            allow_null=True,
            required=required,
            help_text="Seconds a human has for each move; when they run out the server plays "
            "for them (docs/api.md, Turn clocks). Null (the default): no clock.",
        ),
        "timeouts_to_takeover": serializers.IntegerField(
            min_value=1,
            max_value=100,
            required=required,
            help_text="Timeouts in a row after which a bot plays the seat for good (3).",
        ),
    }


def _options(name: str, doc: str, required: bool, **fields: serializers.Field) -> type:
    attrs: dict[str, Any] = {**fields, "__doc__": doc}
    serializer = type(name + "Serializer", (serializers.Serializer,), attrs)
    return extend_schema_serializer(component_name=name)(serializer)


def _cf_options(required: bool) -> dict[str, serializers.Field]:
    return {
        **_common_options(required, list(SUPPORTED_MAX_PIPS)),
        "spinner_arms": int_choice(
            [4, 6], required=required, help_text="Arms of the centre double (CF-SPINNER; 4)."
        ),
        "must_play_drawn": serializers.BooleanField(
            required=required, help_text="A playable drawn tile must be played (CF-DRAW; false)."
        ),
        "release_dead_foot": serializers.BooleanField(
            required=required,
            help_text="A foot that can never be completed is released (CF-FOOT-DEAD; true).",
        ),
    }


def _mt_options(required: bool) -> dict[str, serializers.Field]:
    return {
        **_common_options(required, MT_MAX_PIPS),
        "close_doubles_reverse": serializers.BooleanField(
            required=required, help_text="Doubles run closes in reverse order (false)."
        ),
        "satisfy_own_double": serializers.BooleanField(
            required=required,
            help_text="Only the seat that played a double may satisfy it (false).",
        ),
        "open_hands": serializers.BooleanField(
            required=required, help_text="Every hand face up for everyone (false)."
        ),
    }


ChickenFootOptionsSerializer = _options(
    "ChickenFootOptions",
    "Chicken Foot's house options, every default filled in.",
    True,
    **_cf_options(True),
)
MexicanTrainOptionsSerializer = _options(
    "MexicanTrainOptions",
    "Mexican Train's house options, every default filled in.",
    True,
    **_mt_options(True),
)
ChickenFootOptionsInputSerializer = _options(
    "ChickenFootOptions",
    "Chicken Foot's house options; each left out takes its default.",
    False,
    **_cf_options(False),
)
MexicanTrainOptionsInputSerializer = _options(
    "MexicanTrainOptions",
    "Mexican Train's house options; each left out takes its default.",
    False,
    **_mt_options(False),
)

OPTIONS_UNION = PolymorphicProxySerializer(
    component_name="Options",
    serializers=[ChickenFootOptionsSerializer, MexicanTrainOptionsSerializer],
    resource_type_field_name=None,
)


def options_field(**kwargs: Any) -> serializers.Field:
    """A match's resolved options: Chicken Foot's or Mexican Train's (see ``variant``)."""
    return union_field(OPTIONS_UNION, **kwargs)


# --- moves -------------------------------------------------------------------------------------


@extend_schema_serializer(component_name="LegalMove")
class LegalMoveSerializer(serializers.Serializer):
    """A move the engine accepts now; send it back as it is (with `version`)."""

    kind = serializers.ChoiceField(choices=Move.Kind.choices)
    tile = Tile(required=False, help_text="Plays only.")
    target = serializers.CharField(required=False, help_text="Plays only: a chain or train id.")


# --- Chicken Foot's view -----------------------------------------------------------------------


@extend_schema_serializer(component_name="ChickenFootChain")
class ChickenFootChainSerializer(serializers.Serializer):
    id = serializers.CharField(help_text="`arm:0`, `foot:0:toe:1`...")
    tiles = tiles(help_text="Oriented `[touching, outer]` from the centre (or the foot).")
    open = serializers.IntegerField(
        allow_null=True, help_text="The number its end needs; null once a double closed it."
    )


@extend_schema_serializer(component_name="ChickenFootFoot")
class ChickenFootFootSerializer(serializers.Serializer):
    id = serializers.CharField(help_text="`foot:0`...")
    double = Tile()
    on = serializers.CharField(help_text="The chain the double was played on.")
    status = serializers.ChoiceField(choices=["open", "completed", "released"])
    toes = ChickenFootChainSerializer(many=True)


@extend_schema_serializer(component_name="OpenEnd")
class OpenEndSerializer(serializers.Serializer):
    target = serializers.CharField()
    pip = serializers.IntegerField()


@extend_schema_serializer(component_name="ChickenFootLayout")
class ChickenFootLayoutSerializer(serializers.Serializer):
    start_double = Tile()
    arms = ChickenFootChainSerializer(many=True)
    feet = ChickenFootFootSerializer(many=True)
    open_ends = OpenEndSerializer(many=True, help_text="The targets that take a tile right now.")


@extend_schema_serializer(component_name="OpenFoot")
class OpenFootSerializer(serializers.Serializer):
    id = serializers.CharField()
    double = Tile()
    on = serializers.CharField()
    toes_left = serializers.ListField(child=serializers.CharField())


def _common_view(options: type) -> dict[str, serializers.Field]:
    return {
        "seats": serializers.IntegerField(help_text="How many seats."),
        "seat": serializers.IntegerField(allow_null=True, help_text="Yours; null: a spectator."),
        "options": options(),
        "status": serializers.ChoiceField(choices=["playing", "over"]),
        "round": serializers.IntegerField(),
        "rounds": serializers.IntegerField(),
        "move_no": serializers.IntegerField(),
        "turn": serializers.IntegerField(allow_null=True, help_text="Null once the match is over."),
        "start_double": Tile(),
        "starter": serializers.IntegerField(),
        "hand_counts": ints(),
        "boneyard": serializers.IntegerField(help_text="Its size: nothing else of it is shown."),
        "has_drawn": serializers.BooleanField(),
        "commitment": serializers.CharField(allow_null=True),
        "commitments": serializers.ListField(child=serializers.CharField()),
        "revealed_seeds": serializers.ListField(child=serializers.CharField()),
        "scores": serializers.ListField(child=ints(), help_text="`scores[round][seat]`."),
        "totals": ints(),
        "hand": tiles(required=False, help_text="Yours, sorted; absent for a spectator."),
        "drawn": Tile(
            required=False, allow_null=True, help_text="The tile you just drew, while playable."
        ),
        "legal_moves": LegalMoveSerializer(
            many=True, required=False, help_text="Yours now; absent for a spectator."
        ),
        "standings": EngineStandingSerializer(
            many=True, required=False, help_text="Once the match is over."
        ),
    }


def _view(name: str, doc: str, **fields: serializers.Field) -> type[serializers.Serializer]:
    attrs: dict[str, Any] = {**fields, "__doc__": doc}
    serializer = type(name + "Serializer", (serializers.Serializer,), attrs)
    return extend_schema_serializer(component_name=name)(serializer)


ChickenFootStateSerializer = _view(
    "ChickenFootState",
    "A Chicken Foot match as one seat sees it (C-HIDDEN).",
    variant=const("chickenfoot"),
    **_common_view(ChickenFootOptionsSerializer),
    layout=ChickenFootLayoutSerializer(),
    open_foot=OpenFootSerializer(allow_null=True, help_text="The foot binding play, if any."),
    spinner_complete=serializers.BooleanField(),
)


# --- Mexican Train's view ----------------------------------------------------------------------


@extend_schema_serializer(component_name="Train")
class TrainSerializer(serializers.Serializer):
    id = serializers.CharField(help_text="`seat:0`... or `mexican`.")
    owner = serializers.IntegerField(allow_null=True, help_text="Null: the Mexican train.")
    tiles = tiles(help_text="Oriented `[touching, open]` from the hub.")
    open_end = serializers.IntegerField()
    marker = serializers.BooleanField(allow_null=True, help_text="Null: the Mexican train.")
    open_double = serializers.BooleanField()


@extend_schema_serializer(component_name="MexicanTrainLayout")
class MexicanTrainLayoutSerializer(serializers.Serializer):
    engine = Tile()
    trains = TrainSerializer(many=True)
    markers = ints(help_text="Seats whose marker is up.")
    open_doubles = serializers.ListField(child=serializers.CharField(), help_text="In play order.")


MexicanTrainStateSerializer = _view(
    "MexicanTrainState",
    "A Mexican Train match as one seat sees it (C-HIDDEN).",
    variant=const("mexican_train"),
    **_common_view(MexicanTrainOptionsSerializer),
    layout=MexicanTrainLayoutSerializer(),
    must_satisfy=serializers.CharField(allow_null=True),
    must_play_again=serializers.BooleanField(),
    doubles_this_turn=serializers.IntegerField(),
    double_run_target=serializers.CharField(allow_null=True),
    hands=serializers.ListField(
        child=tiles(), required=False, help_text="Every hand: only with `open_hands`."
    ),
)

STATE_UNION = PolymorphicProxySerializer(
    component_name="MatchState",
    serializers={
        "chickenfoot": ChickenFootStateSerializer,
        "mexican_train": MexicanTrainStateSerializer,
    },
    resource_type_field_name="variant",
)


def state_field(**kwargs: Any) -> serializers.Field:
    """The match as the caller's seat sees it: a union by ``variant``."""
    return union_field(STATE_UNION, **kwargs)
