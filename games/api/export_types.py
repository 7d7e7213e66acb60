"""The shape of a competition's export (``games.competition_export``): typed to the leaf, so a
generated client reads it without casts."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

from games.models import Match, Player
from games.tables.api_types import TableSeatScoreOutputSerializer
from scoring.api.competition_base import FinalTableSerializer
from scoring.api.stage_types import SeatingChangeSerializer
from scoring.competition_models import Competition

EVENT_KINDS = ["entered", "amended", "confirmed", "disputed", "resolved", "reopened"]


@extend_schema_serializer(component_name="ExportCompetition")
class ExportCompetitionSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    kind = serializers.ChoiceField(choices=Competition.Kind.choices)
    play = serializers.ChoiceField(choices=Competition.Play.choices)
    variant = serializers.ChoiceField(choices=Match.Variant.choices)
    status = serializers.ChoiceField(choices=Competition.Status.choices)
    stage_count = serializers.IntegerField(allow_null=True, help_text="Null for a league.")
    final_table = FinalTableSerializer(
        allow_null=True,
        help_text='Its final table ({"size": n}), played as stage stage_count + 1; null: none.',
    )


@extend_schema_serializer(component_name="ExportSeat")
class ExportSeatSerializer(serializers.Serializer):
    position = serializers.IntegerField(help_text="0-based, in play order.")
    player_id = serializers.IntegerField(
        allow_null=True, help_text="The player's id; null for a guest (and an open seat)."
    )
    kind = serializers.ChoiceField(
        choices=Player.Kind.choices, allow_null=True, help_text="Null: an open seat."
    )
    name = serializers.CharField(allow_null=True, help_text="The display name, as written.")
    place = serializers.IntegerField(allow_null=True, help_text="C-WIN place; null until done.")
    total = serializers.IntegerField(allow_null=True, help_text="Points over the match.")


@extend_schema_serializer(component_name="ExportRound")
class ExportRoundSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    start_double = serializers.ListField(
        child=serializers.IntegerField(), min_length=2, max_length=2
    )
    scores = TableSeatScoreOutputSerializer(
        many=True,
        help_text="Per seat, as the round stands (a table's latest entry); `tiles` only as a "
        "table's scorer entered them, never an online hand.",
    )


@extend_schema_serializer(component_name="ExportAuthor")
class ExportAuthorSerializer(serializers.Serializer):
    player_id = serializers.IntegerField(allow_null=True, help_text="Null: a scorer link.")
    name = serializers.CharField(allow_null=True)
    scorer_link_id = serializers.IntegerField(allow_null=True, help_text="Null: a player.")


@extend_schema_serializer(component_name="ExportEvent")
class ExportEventSerializer(serializers.Serializer):
    round = serializers.IntegerField(
        allow_null=True, help_text="Null for `reopened`: the organiser reopened the whole match."
    )
    kind = serializers.ChoiceField(choices=EVENT_KINDS)
    at = serializers.DateTimeField()
    by = ExportAuthorSerializer()
    seat = serializers.IntegerField(
        allow_null=True, help_text="A review: the reviewer's seat (null: the creator without one)."
    )
    before = TableSeatScoreOutputSerializer(
        many=True, allow_null=True, help_text="`amended`: the seats it replaced; else null."
    )
    after = TableSeatScoreOutputSerializer(
        many=True,
        help_text="The seats entered; a review: those of the entry it was about; `reopened`: none.",
    )
    reason = serializers.CharField(
        allow_null=True,
        help_text="A correction's or a dispute's reason, a resolution's note, a reopening's "
        "reason.",
    )


@extend_schema_serializer(component_name="ExportMatch")
class ExportMatchSerializer(serializers.Serializer):
    match_id = serializers.IntegerField()
    stage = serializers.IntegerField(allow_null=True, help_text="Null for a league's match.")
    final_table = serializers.BooleanField(help_text="A table of the final (docs/scoring.md).")
    table = serializers.IntegerField(allow_null=True, help_text="Null for a league's match.")
    status = serializers.ChoiceField(choices=Match.Status.choices)
    play = serializers.ChoiceField(choices=Match.Play.choices)
    variant = serializers.ChoiceField(choices=Match.Variant.choices)
    seats = ExportSeatSerializer(many=True)
    rounds = ExportRoundSerializer(many=True, help_text="The finished rounds, in order.")
    trail = ExportEventSerializer(
        many=True, help_text="A table match's score sheet, oldest first; empty online."
    )


@extend_schema_serializer(component_name="CompetitionExport")
class CompetitionExportSerializer(serializers.Serializer):
    competition = ExportCompetitionSerializer()
    exported_at = serializers.DateTimeField()
    matches = ExportMatchSerializer(
        many=True, help_text="Every match that counts for it: by stage and table, then by id."
    )
    seating_changes = SeatingChangeSerializer(
        many=True,
        help_text="Every change the organiser made to a stage's seating, oldest first: who, "
        "when, what (the tables before and after) and why.",
    )
