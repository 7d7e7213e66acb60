"""What the table endpoints answer, typed for the OpenAPI schema."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

from games.api.fields import TileOutputField


@extend_schema_serializer(component_name="TableSeatScore")
class TableSeatScoreOutputSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    points = serializers.IntegerField(help_text="What the seat scored this round (C-PIPS).")
    went_out = serializers.BooleanField(help_text="The seat played its last tile (scores 0).")
    tiles = serializers.ListField(
        child=TileOutputField(),
        allow_null=True,
        help_text="The tiles left in the seat's hand, when they were entered instead of points.",
    )


@extend_schema_serializer(component_name="TableRound")
class TableRoundOutputSerializer(serializers.Serializer):
    number = serializers.IntegerField(help_text="1-based.")
    start_double = TileOutputField(help_text="The round's start double (C-ROUNDS).")
    scores = TableSeatScoreOutputSerializer(many=True, help_text="One entry per seat, in order.")
    entered_at = serializers.DateTimeField(required=False)
