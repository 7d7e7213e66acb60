"""A finished match's public record (one JSON document to replay offline), and the organisers'
"finalise now" for a match whose results are still pending."""

from __future__ import annotations

from http import HTTPStatus

from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from games.api.common import MATCH_ID, NOT_AUTHENTICATED, NOT_FOUND, GameApi, problem
from games.api.common import problem_example as example
from games.api.match_types import StandingOutputSerializer
from games.models import Match
from games.problems import MatchNotFinished, NotOrganiser, ResultsIncompleteProblem
from games.record import FORMAT, match_record
from games.results import match_standings, results_pending
from games.selectors import match_for_viewer, online_match_check
from games.tables.apidocs import TABLE_MATCH_EXAMPLE
from scoring.services import match_finalise

NOT_FINISHED_EXAMPLES = (
    ("Not finished", example(409, "match_not_finished", "Match not finished",
                             "Match 7 is playing: its record is published when it has finished.")),
)  # fmt: skip
NOT_FINISHED = problem(
    "The match has not finished: its seeds and hands are still secret.", *NOT_FINISHED_EXAMPLES
)


class RecordMatchSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    variant = serializers.ChoiceField(choices=Match.Variant.choices)
    seat_count = serializers.IntegerField()
    options = serializers.JSONField(help_text="The house options, resolved.")
    seed = serializers.CharField(help_text="The match seed, published once it has finished.")
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField()
    moves_played = serializers.IntegerField()


class RecordSeatSerializer(serializers.Serializer):
    position = serializers.IntegerField()
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    kind = serializers.ChoiceField(choices=[("human", "Human"), ("bot", "Bot")])
    bot_level = serializers.IntegerField(allow_null=True)


class RecordRoundSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    start_double = serializers.IntegerField()
    commitment = serializers.CharField(help_text="sha256(seed), published as the round began.")
    seed = serializers.CharField(help_text="The round's seed (C-SHUFFLE).")
    scores = serializers.ListField(child=serializers.IntegerField(), help_text="Per seat.")
    opening = serializers.ListField(
        child=serializers.JSONField(), help_text="The events of the round's automatic start."
    )
    started_at = serializers.DateTimeField()
    ended_at = serializers.DateTimeField()


class RecordMoveSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    round = serializers.IntegerField()
    seat = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=["play", "draw", "pass"])
    tile = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    target = serializers.CharField(allow_null=True)
    events = serializers.ListField(child=serializers.JSONField(), help_text="Unredacted.")
    created_at = serializers.DateTimeField()


class MatchRecordSerializer(serializers.Serializer):
    format = serializers.ChoiceField(choices=[FORMAT])
    match = RecordMatchSerializer()
    seats = RecordSeatSerializer(many=True)
    rounds = RecordRoundSerializer(many=True)
    moves = RecordMoveSerializer(many=True)
    standings = serializers.ListField(
        child=serializers.JSONField(), help_text="The engine's final order (C-WIN)."
    )
    results = StandingOutputSerializer(
        many=True, allow_null=True, help_text="The result rows' order; null while pending."
    )


RECORD_EXAMPLE = {
    "format": FORMAT,
    "match": {
        "id": 7,
        "variant": "mexican_train",
        "seat_count": 2,
        "options": {"max_pip": 12, "hand_size": 15, "rounds": 1, "double_blank_points": 50},
        "seed": "5eed" * 16,
        "created_at": "2026-11-30T12:00:00Z",
        "started_at": "2026-11-30T12:00:05Z",
        "finished_at": "2026-11-30T12:09:41Z",
        "moves_played": 1,
    },
    "seats": [
        {"position": 0, "player_id": 3, "name": "Ada", "kind": "human", "bot_level": None},
        {"position": 1, "player_id": 9, "name": "Shark bot (level 3)", "kind": "bot",
         "bot_level": 3},
    ],
    "rounds": [
        {"number": 1, "start_double": 0, "commitment": "9f2c" * 16, "seed": "77ab" * 16,
         "scores": [0, 23], "opening": [{"type": "round_started", "round": 1}],
         "started_at": "2026-11-30T12:00:05Z", "ended_at": "2026-11-30T12:09:41Z"},
    ],
    "moves": [
        {"seq": 1, "round": 1, "seat": 0, "kind": "play", "tile": [0, 5], "target": "train:0",
         "events": [{"type": "played", "seat": 0, "tile": [0, 5], "target": "train:0"}],
         "created_at": "2026-11-30T12:00:09Z"},
    ],
    "standings": [
        {"seat": 0, "place": 1, "total": 0, "zero_rounds": 1, "lowest_round": None,
         "decided_by": "total", "tiebreak": ["total"]},
        {"seat": 1, "place": 2, "total": 23, "zero_rounds": 0, "lowest_round": 23,
         "decided_by": "total", "tiebreak": ["total"]},
    ],
}  # fmt: skip
RECORD_EXAMPLE["results"] = [
    {**place, "player_id": seat["player_id"], "name": seat["name"]}
    for place, seat in zip(RECORD_EXAMPLE["standings"], RECORD_EXAMPLE["seats"], strict=True)
]


class MatchRecordApi(GameApi):
    """A finished match's full record: anyone signed in may read (and replay) it."""

    @extend_schema(
        operation_id="match_record",
        summary="The full record of a finished match",
        description="Seats with players, options, the match seed and every round's revealed "
        "seed, every move with its events (unredacted: the match is over), every round's "
        "scores, the engine's standings and the results: enough to replay and check the match "
        "offline (docs/scoring.md shows how).",
        tags=["history"],
        parameters=[MATCH_ID],
        responses={
            HTTPStatus.OK: OpenApiResponse(
                MatchRecordSerializer,
                examples=[OpenApiExample("A one-round record", value=RECORD_EXAMPLE)],
            ),
            HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
            HTTPStatus.NOT_FOUND: NOT_FOUND,
            HTTPStatus.CONFLICT: problem(
                "Not finished (its seeds and hands are still secret), or played at a table (no "
                "deal to replay).",
                *NOT_FINISHED_EXAMPLES,
                TABLE_MATCH_EXAMPLE,
            ),
        },
    )
    def get(self, request: Request, match_id: int) -> Response:
        player = self.player(request)
        match, _ = match_for_viewer(match_id=match_id, player=player)
        online_match_check(match=match)  # a table match's rounds are in its view
        if match.status != Match.Status.FINISHED:
            raise MatchNotFinished(
                f"Match {match.pk} is {match.status}: its record is published when it has finished."
            )
        return Response(match_record(match=match))


class MatchFinalisedSerializer(serializers.Serializer):
    match_id = serializers.IntegerField()
    written = serializers.BooleanField(help_text="This request wrote them (false: already done).")
    results_pending = serializers.BooleanField()
    standings = StandingOutputSerializer(many=True, allow_null=True)


class MatchFinaliseApi(GameApi):
    """Organisers: write a finished match's results now (normally the end-of-match task does,
    and the sweeper retries it). Idempotent: results already written are left as they are."""

    @extend_schema(
        operation_id="match_finalise",
        summary="Finalise a finished match now (organisers)",
        tags=["history"],
        parameters=[MATCH_ID],
        request=None,
        responses={
            HTTPStatus.OK: OpenApiResponse(
                MatchFinalisedSerializer,
                examples=[
                    OpenApiExample(
                        "Written",
                        value={
                            "match_id": 7,
                            "written": True,
                            "results_pending": False,
                            "standings": RECORD_EXAMPLE["results"],
                        },
                    )
                ],
            ),
            HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
            HTTPStatus.FORBIDDEN: problem(
                "Only organisers may.",
                (
                    "Not an organiser",
                    example(
                        403,
                        "not_organiser",
                        "Not an organiser",
                        "Only organisers can finalise a match.",
                    ),
                ),
            ),
            HTTPStatus.NOT_FOUND: NOT_FOUND,
            HTTPStatus.CONFLICT: problem(
                "Not finished, or its round rows do not add up to a result.",
                *NOT_FINISHED_EXAMPLES,
                (
                    "Results incomplete",
                    example(
                        409,
                        "results_incomplete",
                        "Results incomplete",
                        "Match 7 cannot be finalised: match 7: 3 seats have round rows, 4 sat. "
                        "Nothing was written.",
                    ),
                ),
            ),
        },
    )
    def post(self, request: Request, match_id: int) -> Response:
        player = self.player(request)
        if not player.organises:
            raise NotOrganiser("Only organisers can finalise a match.")
        match, _ = match_for_viewer(match_id=match_id, player=player)
        if match.status != Match.Status.FINISHED:
            raise MatchNotFinished(f"Match {match.pk} is {match.status}: it has no results yet.")
        outcome = match_finalise(match_id=match.pk)
        if outcome.failed:
            raise ResultsIncompleteProblem(
                f"Match {match.pk} cannot be finalised: {outcome.reason}. Nothing was written."
            )
        match.result_rows = None  # type: ignore[attr-defined]  (read the rows just written)
        return Response(
            {
                "match_id": match.pk,
                "written": outcome.written,
                "results_pending": results_pending(match=match),
                "standings": match_standings(match=match),
            }
        )


__all__ = ["MatchFinaliseApi", "MatchRecordApi"]
