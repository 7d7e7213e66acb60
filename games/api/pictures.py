"""Pictures: the table as an SVG, as the caller's seat may see it."""

from __future__ import annotations

from collections.abc import Callable
from http import HTTPStatus

from django.conf import settings
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from chickenfoot.charts import MAX_WIDTH, MIN_WIDTH, WIDTH
from chickenfoot.renderers import SVGRenderer
from games.accounts.names import shown_name
from games.api.apidocs import pictures as apidocs
from games.api.common import (
    IF_NONE_MATCH,
    MATCH_ID,
    GameApi,
    etag,
    names_etag,
)
from games.api.strict import ID_MAX, QuerySerializer
from games.models import Match
from games.pictures.board import board_svg
from games.pictures.positions import board_position_in, position_round
from games.pictures.scores import scores_chart
from games.results import match_round_table
from games.selectors import match_for_viewer, online_match_check


def _names(match: Match) -> list[str]:
    """The seats' display names (seats prefetched)."""
    return [
        shown_name(s.player.display_name) if s.player else _("Open seat") for s in match.seats.all()
    ]


def picture_etag(version: int) -> str:
    """A picture's ETag: the match's version, and the language its labels are in (none for
    English, the source language), so that a reader who changed language gets the picture anew."""
    language = get_language() or settings.LANGUAGE_CODE
    return etag(version) if language == "en" else f'"{version}-{language}"'


def _svg_response(request: Request, match: Match, render: Callable[[], str]) -> Response:
    """``render()``'s SVG, or 304 when the caller holds the match's version in the same
    language (its ETag)."""
    tag = picture_etag(match.version)
    headers = {"ETag": tag, "Vary": "Authorization", "Cache-Control": "private, no-cache"}
    if names_etag(request.headers.get("If-None-Match"), tag):
        return Response(status=HTTPStatus.NOT_MODIFIED, headers=headers)
    return Response(render(), headers=headers, content_type="image/svg+xml")


class BoardSvgApi(GameApi):
    """The table as a picture (SVG), as your seat sees it: your hand, never anyone else's.

    Without parameters, the table now. `round=N`: round N's final position once it has ended,
    with the hands it revealed. `seq=S`: the table right after move S. `hand=false`: without
    your hand. Cached by the match's version (`ETag`, `If-None-Match`).
    """

    renderer_classes = (SVGRenderer,)

    class BoardQuerySerializer(QuerySerializer):
        round = serializers.IntegerField(
            min_value=1,
            max_value=ID_MAX,
            required=False,
            help_text="A round's number: its final position.",
        )
        seq = serializers.IntegerField(
            min_value=1,
            max_value=ID_MAX,
            required=False,
            help_text="A move's `seq`: the table right after it.",
        )
        hand = serializers.BooleanField(
            default=True,
            help_text="`false`: leave your own hand out of the picture (a page that shows it "
            "apart, as the web table does).",
        )

    @extend_schema(
        operation_id="match_board_svg",
        summary="The table as a picture",
        tags=["matches"],
        parameters=[MATCH_ID, BoardQuerySerializer, IF_NONE_MATCH],
        responses=apidocs.BOARD_SVG_RESPONSES,
    )
    def get(self, request: Request, match_id: int) -> Response:
        query = self.BoardQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        match, seat = match_for_viewer(match_id=match_id, player=self.player(request))
        online_match_check(match=match)
        seq = query.validated_data.get("seq")
        # the question checked before the ETag: a round or move that is not there is a 404
        row = position_round(match=match, round_no=query.validated_data.get("round"), seq=seq)

        def render() -> str:
            position = board_position_in(match=match, seat=seat, row=row, seq=seq)
            return board_svg(
                position.view,
                names=_names(match),
                caption=position.caption,
                revealed_hands=position.revealed_hands,
                with_hand=query.validated_data["hand"],
            )

        return _svg_response(request, match, render)


class ScoresSvgApi(GameApi):
    """The match's cumulative scores after each finished round, one line per seat (SVG); a
    table match's, after each round entered.

    Round scores are public once a round ends, so the chart shows nothing hidden. Cached by the
    match's version (`ETag`, `If-None-Match`).
    """

    renderer_classes = (SVGRenderer,)

    class ScoresQuerySerializer(QuerySerializer):
        width = serializers.IntegerField(
            min_value=MIN_WIDTH,
            max_value=MAX_WIDTH,
            default=WIDTH,
            help_text="The width to draw the chart at, in pixels (its text is 11 or more at that "
            "width: a page asks for the width of its box); under 480 the legend goes below.",
        )

    @extend_schema(
        operation_id="match_scores_svg",
        summary="Scores by round, as a chart",
        tags=["matches"],
        parameters=[MATCH_ID, ScoresQuerySerializer, IF_NONE_MATCH],
        responses=apidocs.SCORES_SVG_RESPONSES,
    )
    def get(self, request: Request, match_id: int) -> Response:
        query = self.ScoresQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        match, _seat = match_for_viewer(match_id=match_id, player=self.player(request))
        return _svg_response(
            request,
            match,
            lambda: scores_chart(
                scores=match_round_table(match=match)["round_scores"],
                names=_names(match),
                title=_("%(variant)s #%(match)s: totals by round")
                % {"variant": _(match.get_variant_display()), "match": match.pk},
                width=query.validated_data["width"],
            ),
        )
