"""A finished match's public record (one JSON document to replay offline), and the organisers'
"finalise now" for a match whose results are still pending."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from games.api.apidocs import records as apidocs
from games.api.chat import MessageOutputSerializer
from games.api.common import MATCH_ID, GameApi
from games.api.event_types import EngineStandingSerializer, events
from games.api.fields import TileOutputField
from games.api.match_types import HINTS_USED_FIELD, StandingOutputSerializer
from games.api.state_types import options_field
from games.models import Match
from games.problems import MatchNotFinished, NotOrganiser, ResultsIncompleteProblem
from games.record import FORMAT, match_record
from games.results import match_standings, match_unrated_reason, results_pending
from games.selectors import match_for_viewer, online_match_check
from scoring.api.common import unrated_reason_field
from scoring.services import match_finalise


class RecordMatchSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    variant = serializers.ChoiceField(choices=Match.Variant.choices)
    seat_count = serializers.IntegerField()
    options = options_field(help_text="The house options of `variant`, every default filled in.")
    seed = serializers.CharField(help_text="The match seed, published once it has finished.")
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField()
    moves_played = serializers.IntegerField()
    hints = serializers.BooleanField(help_text="A casual match with hints (never rated).")
    hints_used = HINTS_USED_FIELD


class RecordSeatSerializer(serializers.Serializer):
    position = serializers.IntegerField()
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    kind = serializers.ChoiceField(choices=[("human", "Human"), ("bot", "Bot")])
    bot_level = serializers.IntegerField(allow_null=True)


class RecordRoundSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    start_double = TileOutputField(help_text="The double that started it (C-ROUNDS).")
    commitment = serializers.CharField(help_text="sha256(seed), published as the round began.")
    seed = serializers.CharField(help_text="The round's seed (C-SHUFFLE).")
    scores = serializers.ListField(child=serializers.IntegerField(), help_text="Per seat.")
    opening = events(help_text="The events of the round's automatic start.")
    started_at = serializers.DateTimeField()
    ended_at = serializers.DateTimeField()


class RecordMoveSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    round = serializers.IntegerField()
    seat = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=["play", "draw", "pass"])
    tile = TileOutputField(allow_null=True, help_text="Null for a draw or a pass.")
    target = serializers.CharField(allow_null=True)
    events = events(help_text="Unredacted.")
    created_at = serializers.DateTimeField()


class MatchRecordSerializer(serializers.Serializer):
    format = serializers.ChoiceField(choices=[FORMAT])
    match = RecordMatchSerializer()
    seats = RecordSeatSerializer(many=True)
    rounds = RecordRoundSerializer(many=True)
    moves = RecordMoveSerializer(many=True)
    standings = EngineStandingSerializer(many=True, help_text="The engine's final order (C-WIN).")
    results = StandingOutputSerializer(
        many=True, allow_null=True, help_text="The result rows' order; null while pending."
    )
    unrated_reason = unrated_reason_field()
    chat = MessageOutputSerializer(
        many=True,
        allow_null=True,
        help_text="The quick chat as the reader is shown it (docs/api.md, Quick chat); null for "
        "a reader without a seat: the chat is the table's own.",
    )


class MatchRecordApi(GameApi):
    """A finished match's full record: its players, its creator and organisers may read (and
    replay) it."""

    @extend_schema(
        operation_id="match_record",
        summary="The full record of a finished match",
        description=apidocs.MATCH_RECORD_DESCRIPTION,
        tags=["history"],
        parameters=[MATCH_ID],
        responses=apidocs.match_record_responses(MatchRecordSerializer),
    )
    def get(self, request: Request, match_id: int) -> Response:
        player = self.player(request)
        match, seat = match_for_viewer(match_id=match_id, player=player)
        online_match_check(match=match)  # a table match's rounds are in its view
        if match.status != Match.Status.FINISHED:
            raise MatchNotFinished(
                _("Match %(match)s is %(status)s: its record is published when it has finished.")
                % {"match": match.pk, "status": match.status}
            )
        return Response(match_record(match=match, reader=player, seat=seat))


class MatchFinalisedSerializer(serializers.Serializer):
    match_id = serializers.IntegerField()
    written = serializers.BooleanField(help_text="This request wrote them (false: already done).")
    results_pending = serializers.BooleanField()
    standings = StandingOutputSerializer(many=True, allow_null=True)
    unrated_reason = unrated_reason_field()


class MatchFinaliseApi(GameApi):
    """Organisers: write a finished match's results now (normally the end-of-match task does,
    and the sweeper retries it). Idempotent: results already written are left as they are."""

    @extend_schema(
        operation_id="match_finalise",
        summary="Finalise a finished match now (organisers)",
        tags=["history"],
        parameters=[MATCH_ID],
        request=None,
        responses=apidocs.match_finalise_responses(MatchFinalisedSerializer),
    )
    def post(self, request: Request, match_id: int) -> Response:
        player = self.player(request)
        if not player.organises:
            raise NotOrganiser(_("Only organisers can finalise a match."))
        match, _seat = match_for_viewer(match_id=match_id, player=player)
        if match.status != Match.Status.FINISHED:
            raise MatchNotFinished(
                _("Match %(match)s is %(status)s: it has no results yet.")
                % {"match": match.pk, "status": match.status}
            )
        outcome = match_finalise(match_id=match.pk)
        if outcome.failed:
            raise ResultsIncompleteProblem(
                _("Match %(match)s cannot be finalised: %(reason)s. Nothing was written.")
                % {"match": match.pk, "reason": outcome.reason}
            )
        match.result_rows = None  # type: ignore[attr-defined]  (read the rows just written)
        return Response(
            {
                "match_id": match.pk,
                "written": outcome.written,
                "results_pending": results_pending(match=match),
                "standings": match_standings(match=match),
                "unrated_reason": match_unrated_reason(match=match),
            }
        )


__all__ = ["MatchFinaliseApi", "MatchRecordApi"]
