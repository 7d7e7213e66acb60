"""The events a move reports (docs/engine.md), as a union discriminated by ``type``.

Schema only: the engine builds the events; each member here lists exactly the fields it sends.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_serializer
from rest_framework import serializers

from games.api.fields import TileOutputField as Tile
from games.api.fields import const, ints, tiles, union_field


class EngineStandingSerializer(serializers.Serializer):
    """A place in the engine's final order (C-WIN), by seat."""

    seat = serializers.IntegerField()
    total = serializers.IntegerField()
    zero_rounds = serializers.IntegerField()
    lowest_round = serializers.IntegerField(
        allow_null=True, help_text="The lowest non-zero round score; null if every round was 0."
    )
    decided_by = serializers.ChoiceField(choices=["total", "zero_rounds", "lowest_round", "shared"])
    tiebreak = serializers.ListField(
        child=serializers.ChoiceField(choices=["total", "zero_rounds", "lowest_round"])
    )
    place = serializers.IntegerField()


def _event(
    type_: str, doc: str, **fields: serializers.Field
) -> tuple[str, type[serializers.Serializer]]:
    """The member of the union for events of ``type_``: ``RoundStartedEvent`` and so on."""
    name = "".join(part.title() for part in type_.split("_")) + "Event"
    attrs: dict[str, Any] = {"type": const(type_), **fields, "__doc__": doc}
    serializer = type(name + "Serializer", (serializers.Serializer,), attrs)
    return type_, extend_schema_serializer(component_name=name)(serializer)


def _seat() -> serializers.IntegerField:
    return serializers.IntegerField()


def _target() -> serializers.CharField:
    return serializers.CharField(help_text="A chain or train id (`arm:0`, `seat:2`, `mexican`).")


#: Every event type, with the member of the union that describes it.
EVENTS: dict[str, type[serializers.Serializer]] = dict(
    (
        _event(
            "round_started",
            "A round is dealt: its start double and the commitment to its seed (C-SHUFFLE).",
            round=serializers.IntegerField(),
            start_double=Tile(),
            commitment=serializers.CharField(),
            starter=_seat(),
            turn=_seat(),
        ),
        _event("tile_played", "A tile was played.", seat=_seat(), tile=Tile(), target=_target()),
        _event(
            "drew",
            "A seat drew; only the drawer (or everyone with `open_hands`) sees the tile.",
            seat=_seat(),
            tile=Tile(required=False, help_text="Absent for everyone but the drawer."),
            count=serializers.IntegerField(),
            boneyard=serializers.IntegerField(help_text="Tiles left in the boneyard."),
            open=serializers.BooleanField(
                required=False, help_text="Mexican Train with `open_hands`: shown to everyone."
            ),
        ),
        _event("passed", "A seat passed.", seat=_seat()),
        _event(
            "round_ended",
            "A round ended: every hand is revealed, and the round's seed.",
            round=serializers.IntegerField(),
            reason=serializers.ChoiceField(choices=["out", "blocked"]),
            seat=serializers.IntegerField(
                allow_null=True, help_text="Who went out; null if blocked."
            ),
            hands=serializers.ListField(child=tiles()),
            seed=serializers.CharField(),
        ),
        _event(
            "round_scores",
            "A round's scores per seat, and the totals so far.",
            round=serializers.IntegerField(),
            scores=ints(),
            totals=ints(),
        ),
        _event(
            "match_over",
            "The last round ended: the final order by seat (C-WIN).",
            standings=EngineStandingSerializer(many=True),
        ),
        _event(
            "start_double_placed",
            "Chicken Foot: the start double placed in the centre (CF-START).",
            seat=_seat(),
            tile=Tile(),
        ),
        _event(
            "foot_opened",
            "Chicken Foot: a double opened a chicken foot (CF-FOOT).",
            foot=serializers.CharField(),
            seat=_seat(),
            target=_target(),
            tile=Tile(),
            toes=serializers.ListField(child=serializers.CharField()),
        ),
        _event(
            "foot_completed",
            "Chicken Foot: a foot got its third toe.",
            foot=serializers.CharField(),
            seat=_seat(),
        ),
        _event(
            "foot_released",
            "Chicken Foot: an open foot can never be completed (CF-FOOT-DEAD).",
            foot=serializers.CharField(),
        ),
        _event("engine_placed", "Mexican Train: the engine placed in the hub.", tile=Tile()),
        _event(
            "train_started",
            "Mexican Train: a train got its first tile.",
            seat=_seat(),
            target=_target(),
        ),
        _event("marker_put", "Mexican Train: a seat's marker went up.", seat=_seat()),
        _event("marker_lifted", "Mexican Train: a seat's marker came down.", seat=_seat()),
        _event(
            "double_opened",
            "Mexican Train: a double was played and must be satisfied.",
            seat=_seat(),
            target=_target(),
            tile=Tile(),
        ),
        _event(
            "double_satisfied",
            "Mexican Train: a tile was played on an open double.",
            seat=_seat(),
            target=_target(),
            tile=Tile(),
        ),
        _event(
            "double_released",
            "Mexican Train: an open double can never be satisfied (MT-OPEN-DEAD).",
            target=_target(),
            tile=Tile(),
        ),
        _event("last_tile", "Mexican Train: a seat has one tile left (MT-KNOCK).", seat=_seat()),
    )
)

EVENT_UNION = PolymorphicProxySerializer(
    component_name="Event", serializers=EVENTS, resource_type_field_name="type"
)


def events(**kwargs: Any) -> serializers.ListField:
    """A list of events."""
    return serializers.ListField(child=union_field(EVENT_UNION), **kwargs)
