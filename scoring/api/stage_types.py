"""Serializers a stage's seating shares: what a correction left stale, and the audit of the
organiser's changes."""

from __future__ import annotations

from rest_framework import serializers

from scoring.competitions.entrants_read import ENTRANT_KINDS
from scoring.models import SeatingChange


class StaleCorrectionSerializer(serializers.Serializer):
    stage = serializers.IntegerField()
    table = serializers.IntegerField(allow_null=True)
    match_id = serializers.IntegerField()


class StaleChangeSerializer(serializers.Serializer):
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    rank_before = serializers.IntegerField(allow_null=True)
    rank_after = serializers.IntegerField(allow_null=True)
    placement_points_before = serializers.FloatField()
    placement_points_after = serializers.FloatField()


class PairingStaleSerializer(serializers.Serializer):
    since = serializers.DateTimeField(help_text="When the first such correction was counted.")
    corrections = StaleCorrectionSerializer(
        many=True, help_text="The corrected tables (of earlier stages) that moved the standings."
    )
    changes = StaleChangeSerializer(
        many=True,
        help_text="Each entrant whose rank or placement points moved since the stage was "
        "seated: before and after.",
    )


def pairing_stale_field() -> PairingStaleSerializer:
    return PairingStaleSerializer(
        allow_null=True,
        help_text="Set when a correction of an earlier stage changed the standings this stage "
        "was seated from (and none of its tables had scores): what changed. A re-pair "
        "(POST .../re-pair) clears it. Null: the pairing stands.",
    )


class SeatingTableChangeSerializer(serializers.Serializer):
    table = serializers.IntegerField()
    match_id = serializers.IntegerField(allow_null=True)
    replaced_match_id = serializers.IntegerField(
        required=False,
        help_text="Online: the match this table had before the change, deleted (no move had "
        "been played) when its seats changed; `match_id` is the one dealt in its place.",
    )
    before = serializers.ListField(
        child=serializers.IntegerField(allow_null=True),
        required=False,
        help_text="Player ids in seat order before (empty: a table made; null: a bot, online).",
    )
    after = serializers.ListField(
        child=serializers.IntegerField(allow_null=True),
        required=False,
        help_text="Player ids in seat order after (empty: a table deleted; null: a bot, online).",
    )


class SeatingByesSerializer(serializers.Serializer):
    before = serializers.ListField(child=serializers.IntegerField())
    after = serializers.ListField(child=serializers.IntegerField())


class SeatingEntrantSerializer(serializers.Serializer):
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    kind = serializers.ChoiceField(choices=ENTRANT_KINDS)


class SeatingAuthorSerializer(serializers.Serializer):
    player_id = serializers.IntegerField()
    name = serializers.CharField()


class SeatingClockSerializer(serializers.Serializer):
    action = serializers.ChoiceField(choices=["start", "stop"])
    minutes = serializers.IntegerField(allow_null=True, help_text="start: the duration set.")
    ends_at = serializers.DateTimeField(allow_null=True, help_text="start: when it runs out.")


class SeatingChangeSerializer(serializers.Serializer):
    stage = serializers.IntegerField()
    version = serializers.IntegerField(help_text="The stage's seating version after it.")
    kind = serializers.ChoiceField(choices=SeatingChange.Kind.choices)
    at = serializers.DateTimeField()
    by = SeatingAuthorSerializer(help_text="Who made it.")
    reason = serializers.CharField(allow_null=True, help_text="As the organiser wrote it.")
    players = serializers.ListField(
        child=serializers.IntegerField(), help_text="The entrants it was about."
    )
    tables = SeatingTableChangeSerializer(many=True, help_text="The tables it touched.")
    byes = SeatingByesSerializer(allow_null=True, help_text="The stage's byes, when they changed.")
    clock = SeatingClockSerializer(
        allow_null=True,
        help_text="kind clock: the stage clock started or stopped (the version stays).",
    )
    entrants = SeatingEntrantSerializer(many=True, help_text="Who each player id it names is.")
