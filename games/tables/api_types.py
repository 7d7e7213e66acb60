"""What the table endpoints answer, typed for the OpenAPI schema."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

from games.api.fields import TileOutputField

#: A round's confirmation statuses (docs/tables.md, "Confirmation").
ROUND_REVIEW_STATUSES = ["entered", "awaiting_confirmation", "confirmed"]


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


@extend_schema_serializer(component_name="RoundReviewShown")
class RoundReviewShownSerializer(serializers.Serializer):
    seat = serializers.IntegerField(allow_null=True, help_text="The reviewer's seat, if any.")
    player_id = serializers.IntegerField()
    reason = serializers.CharField(
        allow_blank=True, help_text="As written: escape it wherever you show it."
    )
    at = serializers.DateTimeField()


class RoundReviewFields(serializers.Serializer):
    """A round's confirmation and dispute (docs/tables.md, "Confirmation" and "Disputes")."""

    status = serializers.ChoiceField(
        choices=ROUND_REVIEW_STATUSES,
        help_text="`awaiting_confirmation` until the match's rule is met (the round counts "
        "meanwhile), then `confirmed`; `entered` when nobody need confirm and nobody has.",
    )
    confirmed_by = serializers.ListField(
        child=serializers.IntegerField(), help_text="The seats that confirmed its latest entry."
    )
    disputed = serializers.BooleanField(help_text="A dispute is open (it blocks nothing).")
    dispute = RoundReviewShownSerializer(allow_null=True, help_text="The open dispute, if any.")
    resolution = RoundReviewShownSerializer(
        allow_null=True, help_text="The last dispute's resolution, if any."
    )


@extend_schema_serializer(component_name="TableRound")
class TableRoundOutputSerializer(serializers.Serializer):
    number = serializers.IntegerField(help_text="1-based.")
    start_double = TileOutputField(help_text="The round's start double (C-ROUNDS).")
    scores = TableSeatScoreOutputSerializer(many=True, help_text="One entry per seat, in order.")
    entered_at = serializers.DateTimeField(required=False)
    status = serializers.ChoiceField(
        choices=ROUND_REVIEW_STATUSES,
        required=False,
        help_text="In the match view: the round's confirmation status (RoundReviewed).",
    )
    confirmed_by = serializers.ListField(child=serializers.IntegerField(), required=False)
    disputed = serializers.BooleanField(required=False)
    dispute = RoundReviewShownSerializer(allow_null=True, required=False)
    resolution = RoundReviewShownSerializer(allow_null=True, required=False)
