"""The shapes of a match's analysis, its replay and a hint."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

from games.analysis.marks import MARKS
from games.analysis.models import MatchAnalysis
from games.api.fields import TileOutputField, tiles
from games.api.state_types import state_field
from games.api.strict import QuerySerializer
from games.models import Move

MOVE_KINDS = Move.Kind.choices


@extend_schema_serializer(component_name="AnalysedMove")
class AnalysedMoveSerializer(serializers.Serializer):
    """A move: `tile` and `target` are null for a draw or a pass."""

    kind = serializers.ChoiceField(choices=MOVE_KINDS)
    tile = TileOutputField(allow_null=True)
    target = serializers.CharField(allow_null=True)


class MoveOptionSerializer(serializers.Serializer):
    move = AnalysedMoveSerializer()
    value = serializers.FloatField(help_text="About the chance of winning the round after it.")


@extend_schema_serializer(component_name="MoveAnalysis")
class MoveAnalysisSerializer(serializers.Serializer):
    """One human move, valued from what its seat knew then (docs/engine.md, "Analysis")."""

    seq = serializers.IntegerField(min_value=1)
    round = serializers.IntegerField(min_value=1)
    seat = serializers.IntegerField(min_value=0)
    move = AnalysedMoveSerializer(help_text="The move played.")
    forced = serializers.BooleanField(help_text="The only legal move: marked best, in no accuracy.")
    value = serializers.FloatField(help_text="The move played's value.")
    best = AnalysedMoveSerializer(help_text="The best move by the search.")
    best_value = serializers.FloatField()
    loss = serializers.FloatField(min_value=0, help_text="`best_value` less `value`.")
    mark = serializers.ChoiceField(choices=MARKS)
    options = MoveOptionSerializer(many=True, help_text="Every legal move, best first.")


class ThresholdSerializer(serializers.Serializer):
    mark = serializers.ChoiceField(choices=MARKS)
    below = serializers.FloatField(
        allow_null=True, help_text="The loss this mark stays below; null for `blunder`."
    )


class RoundAccuracySerializer(serializers.Serializer):
    round = serializers.IntegerField(min_value=1)
    accuracy = serializers.FloatField(
        allow_null=True, min_value=0, max_value=100, help_text="Null: only forced moves."
    )


class PlayerAnalysisSerializer(serializers.Serializer):
    seat = serializers.IntegerField(min_value=0)
    player_id = serializers.IntegerField(allow_null=True)
    name = serializers.CharField(allow_null=True)
    moves = serializers.IntegerField(min_value=0, help_text="Moves analysed, forced included.")
    forced = serializers.IntegerField(min_value=0)
    accuracy = serializers.FloatField(
        allow_null=True, min_value=0, max_value=100, help_text="For the match; 0 to 100."
    )
    rounds = RoundAccuracySerializer(many=True)
    marks = serializers.DictField(
        child=serializers.IntegerField(min_value=0), help_text="How many moves of each mark."
    )


@extend_schema_serializer(component_name="MatchAnalysis")
class MatchAnalysisSerializer(serializers.Serializer):
    """A finished match's analysis: progress while it runs (202), every mark once done (200)."""

    match_id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=MatchAnalysis.Status.choices)
    done = serializers.IntegerField(min_value=0, help_text="Moves of the log looked at.")
    total = serializers.IntegerField(min_value=0, help_text="Moves in the log (0: not counted).")
    thresholds = ThresholdSerializer(many=True, required=False, help_text="Once done.")
    players = PlayerAnalysisSerializer(many=True, required=False, help_text="Once done.")
    moves = MoveAnalysisSerializer(many=True, required=False, help_text="Once done.")


class ReplayMoveSerializer(serializers.Serializer):
    seq = serializers.IntegerField(min_value=1)
    round = serializers.IntegerField(min_value=1)
    seat = serializers.IntegerField(min_value=0)
    kind = serializers.ChoiceField(choices=MOVE_KINDS)
    tile = TileOutputField(allow_null=True)
    target = serializers.CharField(allow_null=True)


@extend_schema_serializer(component_name="MatchReplay")
class MatchReplaySerializer(serializers.Serializer):
    """A finished match after move `seq`: everything face up (nothing is secret any more)."""

    match_id = serializers.IntegerField()
    seq = serializers.IntegerField(min_value=0)
    moves_played = serializers.IntegerField(min_value=0)
    move = ReplayMoveSerializer(allow_null=True, help_text="Move `seq`; null for 0.")
    table = state_field(help_text="The table as a spectator sees it after move `seq`.")
    hands = serializers.ListField(child=tiles(), help_text="Every hand, by seat.")
    boneyard = tiles(help_text="In draw order.")
    analysis = MoveAnalysisSerializer(
        allow_null=True, help_text="Move `seq`'s analysis; null for a bot's move or none yet."
    )


@extend_schema_serializer(component_name="Hint")
class HintSerializer(serializers.Serializer):
    match_id = serializers.IntegerField()
    seat = serializers.IntegerField(min_value=0, help_text="Yours.")
    version = serializers.IntegerField(help_text="The match's version the hint is for.")
    move = AnalysedMoveSerializer(help_text="One of your legal moves: send it as it is.")
    reason = serializers.CharField(help_text="One line, in your language.")
    hints_used = serializers.IntegerField(min_value=1, help_text="Your hints in this match.")


class ReplayQuerySerializer(QuerySerializer):
    seq = serializers.IntegerField(
        min_value=0,
        required=False,
        default=0,
        help_text="After which move (0: as play began). Default 0.",
    )
