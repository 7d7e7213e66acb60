"""Matches: create, the lobby, my matches, the match as my seat sees it, join, start."""

from __future__ import annotations

from http import HTTPStatus

from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from games.api import examples
from games.api.common import (
    IF_NONE_MATCH,
    MATCH_ID,
    NOT_AUTHENTICATED,
    NOT_FOUND,
    NOT_YOUR_MATCH,
    SEAT_KIND_CHOICES,
    SEAT_REQUEST_KIND_CHOICES,
    GameApi,
    etag,
    matches_etag,
    problem,
    problem_example,
)
from games.api.paging import MatchPagination
from games.models import Match
from games.selectors import (
    match_for_viewer,
    match_get,
    match_list_for_player,
    match_list_open,
    match_list_row,
    match_summary,
    match_view,
)
from games.services import SeatSpec, match_create, match_start, seat_join

PAGE_NOT_FOUND = problem(
    "A page past the last one.",
    ("No such page", problem_example(404, "not_found", "Not found", "Invalid page.")),
)


class SeatOutputSerializer(serializers.Serializer):
    position = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=SEAT_KIND_CHOICES)
    player_id = serializers.IntegerField(allow_null=True, help_text="Null while the seat is open.")
    name = serializers.CharField(allow_null=True)
    bot_level = serializers.IntegerField(allow_null=True)
    you = serializers.BooleanField()


class StandingOutputSerializer(serializers.Serializer):
    place = serializers.IntegerField(help_text="1 is the winner; tied seats share a place.")
    seat = serializers.IntegerField()
    player_id = serializers.IntegerField(allow_null=True)
    name = serializers.CharField(allow_null=True, help_text="The player's display name.")
    total = serializers.IntegerField(help_text="Points over every round: lowest wins (C-WIN).")
    zero_rounds = serializers.IntegerField(help_text="Rounds scored at 0 (tie-break 1).")
    lowest_round = serializers.IntegerField(
        allow_null=True,
        help_text="The lowest non-zero single-round score (tie-break 2); null when every round "
        "was 0. Rounds [0, 35, 0] give 35; [12, 0, 7] give 7; [0, 0] give null.",
    )
    decided_by = serializers.ChoiceField(
        choices=["total", "zero_rounds", "lowest_round", "shared"],
        help_text="What separated this seat from its neighbours; `shared`: nothing did.",
    )
    tiebreak = serializers.ListField(
        child=serializers.ChoiceField(choices=["total", "zero_rounds", "lowest_round"]),
        help_text="The criteria consulted, in order.",
    )


class MatchSummaryOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    variant = serializers.ChoiceField(choices=Match.Variant.choices)
    status = serializers.ChoiceField(choices=Match.Status.choices)
    version = serializers.IntegerField(help_text="Bumped by every change; the match's ETag.")
    options = serializers.JSONField(help_text="The house options, every default filled in.")
    seat_count = serializers.IntegerField()
    open_seats = serializers.IntegerField()
    created_by = serializers.CharField()
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True, help_text="Null until it starts.")
    finished_at = serializers.DateTimeField(allow_null=True, help_text="Null until it is over.")
    seats = SeatOutputSerializer(many=True)
    standings = StandingOutputSerializer(
        many=True,
        allow_null=True,
        help_text="The final order (C-WIN), best first; null until the match is over.",
    )


class MatchViewOutputSerializer(MatchSummaryOutputSerializer):
    your_seat = serializers.IntegerField(allow_null=True, help_text="None: you are watching.")
    round_scores = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField()),
        help_text="The round-by-round scores: `round_scores[r][seat]` is what `seat` scored in "
        "round `r + 1`; one row per round over, `[]` before the first ends.",
    )
    totals = serializers.ListField(
        child=serializers.IntegerField(), help_text="Each seat's total so far (zeros at first)."
    )
    state = serializers.JSONField(
        allow_null=True,
        help_text="The table as your seat sees it (C-HIDDEN); null until the match starts.",
    )


class MatchMineOutputSerializer(MatchSummaryOutputSerializer):
    your_seat = serializers.IntegerField(help_text="Your seat at this match.")
    turn = serializers.IntegerField(
        allow_null=True, help_text="The seat to move; null unless the match is playing."
    )
    your_turn = serializers.BooleanField(help_text="Is it your move?")


MATCH_NOT_OPEN = (
    "Not open",
    problem_example(
        409, "match_not_open", "Match not open", "Match 7 is playing: it takes no more players."
    ),
)


class MatchSeatInputSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(
        choices=SEAT_REQUEST_KIND_CHOICES,
        help_text="`creator`: you (at most once); `open`: for another player to join; `bot`.",
    )
    level = serializers.IntegerField(
        min_value=1, max_value=3, required=False, help_text="A bot's level, 1 to 3."
    )


class MatchCreateApi(GameApi):
    """Create a match: the game, house options (docs/rules.md §4) and every seat in play order."""

    class MatchCreateInputSerializer(serializers.Serializer):
        variant = serializers.ChoiceField(choices=Match.Variant.choices)
        options = serializers.DictField(
            required=False, default=dict, help_text="House options (docs/rules.md §4)."
        )
        seats = MatchSeatInputSerializer(many=True, min_length=2, max_length=22)

    @extend_schema(
        operation_id="match_create",
        summary="Create a match",
        tags=["matches"],
        request=MatchCreateInputSerializer,
        examples=[
            OpenApiExample(
                "Chicken Foot: me, one open seat, a level-2 bot",
                value={
                    "variant": "chickenfoot",
                    "options": {"spinner_arms": 4},
                    "seats": [{"kind": "creator"}, {"kind": "open"}, {"kind": "bot", "level": 2}],
                },
                request_only=True,
            ),
            OpenApiExample(
                "Mexican Train on a double-9 set, short",
                value={
                    "variant": "mexican_train",
                    "options": {"max_pip": 9, "rounds": 3},
                    "seats": [{"kind": "creator"}, {"kind": "open"}],
                },
                request_only=True,
            ),
        ],
        responses={
            HTTPStatus.CREATED: OpenApiResponse(
                MatchSummaryOutputSerializer,
                description="The new match, open for players to join.",
                examples=[OpenApiExample("Created", value=examples.SUMMARY)],
            ),
            HTTPStatus.BAD_REQUEST: problem(
                "Bad input: an unknown or out-of-range option, bad seats.",
                (
                    "Unknown option",
                    problem_example(
                        400,
                        "invalid_option",
                        "Invalid option",
                        "Unknown option(s) for chickenfoot: speed. Known options: max_pip, "
                        "hand_size, rounds, double_blank_points, spinner_arms, must_play_drawn, "
                        "release_dead_foot.",
                    ),
                ),
                (
                    "Out of range",
                    problem_example(
                        400,
                        "invalid_option",
                        "Invalid option",
                        "Option 'spinner_arms' must be 4 or 6; got 5.",
                        rule="CF-SPINNER",
                    ),
                ),
            ),
            HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
        },
    )
    def post(self, request: Request) -> Response:
        data = self.MatchCreateInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        player = self.player(request)
        match = match_create(
            creator=player,
            variant=data.validated_data["variant"],
            options=data.validated_data["options"],
            seats=[
                SeatSpec(kind=s["kind"], level=s.get("level")) for s in data.validated_data["seats"]
            ],
        )
        match = match_get(match_id=match.pk)
        return Response(
            match_summary(match=match, viewer=player),
            status=HTTPStatus.CREATED,
            headers={"ETag": etag(match.version), "Location": f"/api/matches/{match.pk}"},
        )


class MatchOpenListApi(GameApi):
    """Matches waiting for players, with a free seat: the lobby. Newest first, in pages."""

    pagination_class = MatchPagination

    @extend_schema(
        operation_id="match_open_list",
        summary="Matches open to join",
        tags=["matches"],
        responses={
            HTTPStatus.OK: OpenApiResponse(
                MatchSummaryOutputSerializer(many=True),
                description="A page of open matches.",
                examples=[OpenApiExample("Lobby", value=examples.SUMMARY)],
            ),
            HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
            HTTPStatus.NOT_FOUND: PAGE_NOT_FOUND,
        },
    )
    def get(self, request: Request) -> Response:
        player = self.player(request)
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(match_list_open(), request, view=self) or []
        return paginator.get_paginated_response(
            [match_summary(match=match, viewer=player) for match in page]
        )


class MatchMineListApi(GameApi):
    """The caller's matches, newest first, optionally of one status, in pages.

    Each row says the caller's seat, whose turn it is and whether it is theirs, so an app can
    show "your turn" without fetching every match.
    """

    pagination_class = MatchPagination

    class MatchMineFilterSerializer(serializers.Serializer):
        status = serializers.ChoiceField(choices=Match.Status.choices, required=False)

    @extend_schema(
        operation_id="match_mine_list",
        summary="My matches",
        tags=["matches"],
        parameters=[MatchMineFilterSerializer],
        responses={
            HTTPStatus.OK: OpenApiResponse(
                MatchMineOutputSerializer(many=True),
                description="A page of your matches.",
                examples=[OpenApiExample("Playing", value=examples.MINE_ROW)],
            ),
            HTTPStatus.BAD_REQUEST: problem(
                "Unknown status.",
                (
                    "Bad status",
                    problem_example(
                        400,
                        "invalid",
                        "Invalid input",
                        'status: "won" is not a valid choice.',
                        errors={"status": ['"won" is not a valid choice.']},
                    ),
                ),
            ),
            HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
            HTTPStatus.NOT_FOUND: PAGE_NOT_FOUND,
        },
    )
    def get(self, request: Request) -> Response:
        filters = self.MatchMineFilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        player = self.player(request)
        matches = match_list_for_player(player=player, status=filters.validated_data.get("status"))
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(matches, request, view=self) or []
        return paginator.get_paginated_response(
            [match_list_row(match=match, player=player) for match in page]
        )


class MatchDetailApi(GameApi):
    """The match as the caller's seat sees it: own hand, the table, counts, turn, scores.

    Poll it with `If-None-Match: "<version>"`: an unchanged match answers 304 with no body.
    Organisers see a started match as a spectator; anyone may see a match that is still open.
    """

    @extend_schema(
        operation_id="match_detail",
        summary="The match, as my seat sees it",
        tags=["matches"],
        parameters=[MATCH_ID, IF_NONE_MATCH],
        responses={
            HTTPStatus.OK: OpenApiResponse(
                MatchViewOutputSerializer,
                description="The match; its `ETag` header is the version.",
                examples=[OpenApiExample("Round 1 under way", value=examples.MATCH_VIEW)],
            ),
            HTTPStatus.NOT_MODIFIED: OpenApiResponse(
                description="Unchanged since the ETag you sent: no body."
            ),
            HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
            HTTPStatus.FORBIDDEN: NOT_YOUR_MATCH,
            HTTPStatus.NOT_FOUND: NOT_FOUND,
        },
    )
    def get(self, request: Request, match_id: int) -> Response:
        player = self.player(request)
        match, seat = match_for_viewer(match_id=match_id, player=player)
        headers = {"ETag": etag(match.version), "Vary": "Authorization"}
        if matches_etag(request.headers.get("If-None-Match"), match.version):
            return Response(status=HTTPStatus.NOT_MODIFIED, headers=headers)
        return Response(match_view(match=match, seat=seat, viewer=player), headers=headers)


class SeatJoinApi(GameApi):
    """Take an open seat (the first free one, or `position`)."""

    class SeatJoinInputSerializer(serializers.Serializer):
        position = serializers.IntegerField(min_value=0, required=False)

    @extend_schema(
        operation_id="seat_join",
        summary="Join a match",
        tags=["matches"],
        parameters=[MATCH_ID],
        request=SeatJoinInputSerializer,
        examples=[
            OpenApiExample("Any seat", value={}, request_only=True),
            OpenApiExample("Seat 1", value={"position": 1}, request_only=True),
        ],
        responses={
            HTTPStatus.OK: OpenApiResponse(
                MatchSummaryOutputSerializer,
                description="The match with you seated.",
                examples=[
                    OpenApiExample(
                        "Joined",
                        value={
                            **examples.SUMMARY,
                            "version": 1,
                            "open_seats": 0,
                            "seats": examples.SEATS,
                        },
                    )
                ],
            ),
            HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
            HTTPStatus.NOT_FOUND: NOT_FOUND,
            HTTPStatus.CONFLICT: problem(
                "Not open, full, the seat taken, or you are seated already.",
                MATCH_NOT_OPEN,
                (
                    "Full",
                    problem_example(
                        409, "match_full", "Match full", "Every seat of match 7 is taken."
                    ),
                ),
            ),
        },
    )
    def post(self, request: Request, match_id: int) -> Response:
        data = self.SeatJoinInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        player = self.player(request)
        seat_join(match_id=match_id, player=player, position=data.validated_data.get("position"))
        match = match_get(match_id=match_id)
        return Response(
            match_summary(match=match, viewer=player), headers={"ETag": etag(match.version)}
        )


class MatchStartApi(GameApi):
    """Deal round 1 and start play (the creator or an organiser; every seat filled)."""

    @extend_schema(
        operation_id="match_start",
        summary="Start a match",
        tags=["matches"],
        parameters=[MATCH_ID],
        request=None,
        responses={
            HTTPStatus.OK: OpenApiResponse(
                MatchViewOutputSerializer,
                description="The match, dealt, as your seat sees it.",
                examples=[OpenApiExample("Started", value=examples.MATCH_VIEW)],
            ),
            HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
            HTTPStatus.FORBIDDEN: problem(
                "Only the creator or an organiser may start a match.",
                (
                    "Not the creator",
                    problem_example(
                        403,
                        "not_creator",
                        "Not the creator",
                        "Only the match's creator or an organiser can start it.",
                    ),
                ),
            ),
            HTTPStatus.NOT_FOUND: NOT_FOUND,
            HTTPStatus.CONFLICT: problem(
                "Started already, or seats still open.",
                MATCH_NOT_OPEN,
                (
                    "Seats open",
                    problem_example(
                        409,
                        "seats_open",
                        "Seats still open",
                        "Seats 1 and 2 are still open.",
                        open_seats=[1, 2],
                    ),
                ),
            ),
        },
    )
    def post(self, request: Request, match_id: int) -> Response:
        player = self.player(request)
        match_start(match_id=match_id, player=player)
        match, seat = match_for_viewer(match_id=match_id, player=player)
        return Response(
            match_view(match=match, seat=seat, viewer=player),
            headers={"ETag": etag(match.version)},
        )


__all__ = [
    "MatchCreateApi",
    "MatchDetailApi",
    "MatchMineListApi",
    "MatchOpenListApi",
    "MatchStartApi",
    "SeatJoinApi",
]
