"""The quick play queue's request and answer shapes."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

from games.api.strict import StrictIntegerField, StrictSerializer
from games.models import Match
from games.quick_play.models import QueueEntry
from games.quick_play.presets import (
    BOTS_AFTER_MAX,
    BOTS_AFTER_MIN,
    PRESET_NAMES,
    SEATS_MAX,
    SEATS_MIN,
)

SEATS = "The table's size: 2 to 6."
PRESET = "The house options: `standard` (the defaults of docs/rules.md §4) or `quick` (3 rounds)."
BOTS_AFTER = (
    "Bots (level 2) may fill the table once you have waited this long (10 to 600 seconds), "
    "if every player at it agreed too; null or left out: no bots."
)
RATING = "Your rating in the variant when you joined, as the leaderboard shows it (1000: new)."


@extend_schema_serializer(component_name="QueueJoin")
class QueueJoinInputSerializer(StrictSerializer):
    variant = serializers.ChoiceField(choices=Match.Variant.choices)
    seats = StrictIntegerField(min_value=SEATS_MIN, max_value=SEATS_MAX, help_text=SEATS)
    preset = serializers.ChoiceField(choices=PRESET_NAMES, help_text=PRESET)
    bots_after_seconds = StrictIntegerField(
        min_value=BOTS_AFTER_MIN,
        max_value=BOTS_AFTER_MAX,
        allow_null=True,
        required=False,
        default=None,
        help_text=BOTS_AFTER,
    )


@extend_schema_serializer(component_name="QueueEntry")
class QueueEntryOutputSerializer(serializers.Serializer):
    variant = serializers.ChoiceField(choices=Match.Variant.choices)
    seats = serializers.IntegerField()
    preset = serializers.ChoiceField(choices=PRESET_NAMES)
    bots_after_seconds = serializers.IntegerField(allow_null=True)
    rating = serializers.IntegerField(help_text=RATING)
    status = serializers.ChoiceField(choices=QueueEntry.Status.choices)
    joined_at = serializers.DateTimeField()
    match_id = serializers.IntegerField(allow_null=True, help_text="Matched: the match's id.")
    matched_at = serializers.DateTimeField(allow_null=True)
