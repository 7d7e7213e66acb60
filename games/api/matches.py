"""Matches: create, the lobby, my matches, the match as my seat sees it, join, start."""

from __future__ import annotations

from collections.abc import Mapping
from http import HTTPStatus

from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiResponse,
    extend_schema,
    extend_schema_serializer,
)
from rest_framework import serializers
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from chickenfoot.problems import flatten_errors
from chickenfoot.query import check_query_params, page_size_check
from chickenfoot.throttles import MATCH_CREATE_THROTTLES
from games.api import examples
from games.api.common import (
    ETAG_HEADER,
    IF_NONE_MATCH,
    MATCH_ID,
    NOT_AUTHENTICATED,
    NOT_FOUND,
    NOT_YOUR_MATCH,
    TOO_MANY_REQUESTS,
    GameApi,
    etag,
    matches_etag,
    problem,
    problem_example,
)
from games.api.match_types import (
    MATCH_CREATE_REQUEST,
    MatchCreateInputSerializer,
    MatchMineOutputSerializer,
    MatchSummaryOutputSerializer,
    MatchViewOutputSerializer,
)
from games.api.paging import PAGE_PARAMETERS, MatchPagination
from games.api.strict import (
    PAGE_PARAMS,
    QuerySerializer,
    StrictIntegerField,
    StrictSerializer,
)
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
from games.services.matches import match_create_refused
from games.tables import apidocs as table_docs
from games.tables.services import table_match_create_from, table_match_create_refused

PAGE_NOT_FOUND = problem(
    "A page past the last one.",
    ("No such page", problem_example(404, "not_found", "Not found", "Invalid page.")),
)


MATCH_NOT_OPEN = (
    "Not open",
    problem_example(
        409, "match_not_open", "Match not open", "Match 7 is playing: it takes no more players."
    ),
)


class MatchCreateApi(GameApi):
    """Create a match: the game, house options (docs/rules.md §4) and every seat in play order."""

    throttle_classes = MATCH_CREATE_THROTTLES

    @extend_schema(
        operation_id="match_create",
        summary="Create a match",
        tags=["matches"],
        parameters=[ETAG_HEADER],
        request=MATCH_CREATE_REQUEST,
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
            OpenApiExample(
                "A match of league 4 (its options apply)",
                value={
                    "variant": "mexican_train",
                    "league": 4,
                    "seats": [{"kind": "creator"}, {"kind": "open"}, {"kind": "open"}],
                },
                request_only=True,
            ),
            table_docs.TABLE_CREATE_EXAMPLE,
            OpenApiExample(
                "Mexican Train: me against three strong bots",
                value={
                    "variant": "mexican_train",
                    "seats": [
                        {"kind": "creator"},
                        {"kind": "bot", "level": 4},
                        {"kind": "bot", "level": 4},
                        {"kind": "bot", "level": 4},
                    ],
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
                        "release_dead_foot (docs/rules.md §4 describes each).",
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
                (
                    "Not the league's game",
                    problem_example(
                        400,
                        "league_refused",
                        "Not a league match",
                        "League 4 plays mexican_train, not chickenfoot.",
                    ),
                ),
            ),
            HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
            HTTPStatus.FORBIDDEN: problem(
                "Not registered for the league.",
                (
                    "Not registered",
                    problem_example(
                        403,
                        "not_league_player",
                        "Not in this league",
                        "You are not registered for league 4.",
                    ),
                ),
            ),
            HTTPStatus.NOT_FOUND: problem(
                "No such league.",
                (
                    "No league",
                    problem_example(
                        404, "competition_not_found", "No such competition", "There is no league 9."
                    ),
                ),
            ),
            HTTPStatus.CONFLICT: problem(
                "The league is not running; or a match of bots only while the caller has as "
                "many open or in play as one may (`BOT_ONLY_MATCHES_PER_PLAYER`): `bot_matches` "
                "lists them.",
                (
                    "Not running",
                    problem_example(
                        409, "competition_status", "Not now", "League 4 is closed: no matches now."
                    ),
                ),
                (
                    "Too many matches of bots",
                    problem_example(
                        409,
                        "bot_match_limit",
                        "Too many matches of bots",
                        "You have 3 matches of bots only open or in play, and 3 is the most at "
                        "once: let one finish, or abandon one, before you create another.",
                        limit=3,
                        bot_matches=[12, 15, 16],
                    ),
                ),
            ),
            HTTPStatus.TOO_MANY_REQUESTS: TOO_MANY_REQUESTS,
        },
    )
    def post(self, request: Request) -> Response:
        data = MatchCreateInputSerializer(data=request.data)
        if not data.is_valid():
            if not isinstance(request.data, Mapping):
                raise ValidationError(data.errors)
            # with the seat and option checks of the rest of it: every field at once
            errors = flatten_errors(data.errors)
            if request.data.get("play") == Match.Play.TABLE:
                raise table_match_create_refused(body=request.data, errors=errors)
            raise match_create_refused(body=request.data, errors=errors)
        player = self.player(request)
        if data.validated_data["play"] == Match.Play.TABLE:
            match = table_match_create_from(creator=player, values=data.validated_data)
        else:
            match = match_create(
                creator=player,
                variant=data.validated_data["variant"],
                options=data.validated_data["options"],
                seats=[
                    SeatSpec(kind=s["kind"], level=s.get("level"))
                    for s in data.validated_data["seats"]
                ],
                league=data.validated_data["league"],
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
        parameters=PAGE_PARAMETERS,
        responses={
            HTTPStatus.OK: OpenApiResponse(
                MatchSummaryOutputSerializer(many=True),
                description="A page of open matches.",
                examples=[OpenApiExample("Lobby", value=examples.SUMMARY)],
            ),
            HTTPStatus.BAD_REQUEST: problem(
                "A query parameter other than the paging ones, or one given empty or twice.",
                (
                    "Unknown parameter",
                    problem_example(
                        400,
                        "invalid",
                        "Invalid input",
                        "status: Unknown query parameter. Known ones: page, page_size.",
                        errors={
                            "status": ["Unknown query parameter. Known ones: page, page_size."]
                        },
                    ),
                ),
            ),
            HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
            HTTPStatus.NOT_FOUND: PAGE_NOT_FOUND,
        },
    )
    def get(self, request: Request) -> Response:
        paginator = self.pagination_class()
        check_query_params(request.query_params, PAGE_PARAMS, page_size_check(paginator, request))
        player = self.player(request)
        page = paginator.paginate_queryset(match_list_open(), request, view=self) or []
        return paginator.get_paginated_response(
            [match_summary(match=match, viewer=player) for match in page]
        )


class MatchMineListApi(GameApi):
    """The caller's matches (seated at, or created: a match of bots only included, with
    `your_seat` null), newest first, optionally of one status, in pages.

    Each row says the caller's seat, whose turn it is and whether it is theirs, so an app can
    show "your turn" without fetching every match.
    """

    pagination_class = MatchPagination

    class MatchMineFilterSerializer(QuerySerializer):
        also_known = PAGE_PARAMS
        pagination = MatchPagination
        status = serializers.ChoiceField(choices=Match.Status.choices, required=False)

    @extend_schema(
        operation_id="match_mine_list",
        summary="My matches",
        tags=["matches"],
        parameters=[MatchMineFilterSerializer, *PAGE_PARAMETERS],
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
        parameters=[MATCH_ID, IF_NONE_MATCH, ETAG_HEADER],
        responses={
            HTTPStatus.OK: OpenApiResponse(
                MatchViewOutputSerializer,
                description="The match; its `ETag` header is the version.",
                examples=[
                    OpenApiExample("Round 1 under way", value=examples.MATCH_VIEW),
                    table_docs.TABLE_VIEW_EXAMPLE,
                ],
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

    @extend_schema_serializer(component_name="SeatJoin")
    class SeatJoinInputSerializer(StrictSerializer):
        position = StrictIntegerField(
            min_value=0, required=False, help_text="The seat to take; left out: the first free one."
        )

    @extend_schema(
        operation_id="seat_join",
        summary="Join a match",
        tags=["matches"],
        parameters=[MATCH_ID, ETAG_HEADER],
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
            HTTPStatus.BAD_REQUEST: problem(
                "A bad `position`: not an integer, or no seat of this match.",
                (
                    "No such seat",
                    problem_example(
                        400,
                        "invalid_seats",
                        "Invalid seats",
                        "Match 7 has seats 0 to 2; got 5.",
                    ),
                ),
                (
                    "Not an integer",
                    problem_example(
                        400,
                        "invalid",
                        "Invalid input",
                        "position: A valid integer is required.",
                        errors={"position": ["A valid integer is required."]},
                    ),
                ),
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
        parameters=[MATCH_ID, ETAG_HEADER],
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
