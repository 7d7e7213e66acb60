"""Charts of the scoring records, as SVG: a player's rating over their matches, a
tournament's points by stage."""

from __future__ import annotations

from django.utils.translation import gettext as _
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from chickenfoot.charts import Series, line_chart
from chickenfoot.query import serializer_check
from chickenfoot.renderers import SVGRenderer
from scoring.api.apidocs import charts as apidocs
from scoring.api.common import PLAYER_NOT_FOUND, PROFILE_HIDDEN, check_known_params
from scoring.api.competition_base import COMPETITION_ID, DIVISION, CompetitionApi
from scoring.api.competition_base import NOT_FOUND_OR_DIVISION as COMPETITION_NOT_FOUND
from scoring.api.history import PLAYER_ID
from scoring.api.shown import player_shown_check
from scoring.competitions.divisions import division_param
from scoring.competitions.selectors import competition_get
from scoring.competitions.standings_chart import standings_chart
from scoring.models import VARIANT_CHOICES
from scoring.selectors import rating_series

VARIANT_NAMES = dict(VARIANT_CHOICES)


def chart_response(chart: str) -> Response:
    """A chart, checked again by the browser each time it is shown."""
    return Response(chart, content_type="image/svg+xml", headers={"Cache-Control": "no-cache"})


class RatingChartQuerySerializer(serializers.Serializer):
    variant = serializers.ChoiceField(choices=VARIANT_CHOICES, help_text="Which game's rating.")
    matches = serializers.IntegerField(
        min_value=1, max_value=200, default=50, help_text="How many of the latest rated matches."
    )


class RatingChartApi(APIView):
    """A player's displayed rating (round(1000 + 40 * ordinal)) after each of their latest rated
    matches of one game, oldest first, starting from the rating before the first of them."""

    renderer_classes = (SVGRenderer,)

    @apidocs.chart_schema(
        operation_id="player_rating_chart",
        summary="A player's rating over their matches, as a chart",
        tags=["history"],
        parameters=[PLAYER_ID, RatingChartQuerySerializer],
        points="`data-step` (`#<match id>`) and `data-value` (the rating after that match)",
        not_found=PLAYER_NOT_FOUND,
        forbidden=PROFILE_HIDDEN,
    )
    def get(self, request: Request, player_id: int) -> Response:
        query = RatingChartQuerySerializer(data=request.query_params)
        check_known_params(request, ["variant", "matches"], serializer_check(query))
        player_shown_check(request, player_id)
        variant = query.validated_data["variant"]
        series = rating_series(
            player_id=player_id, variant=variant, limit=query.validated_data["matches"]
        )
        # the steps are also the points' ``data-step`` values, which clients read: not translated;
        # the axis shows them in the reader's language
        steps = ["before" if match_id == 0 else f"#{match_id}" for match_id, _value in series]
        chart = line_chart(
            _("Rating in %(variant)s") % {"variant": _(VARIANT_NAMES[variant])},
            steps,
            [Series(_("rating"), [value for _match, value in series])] if series else [],
            labels=[_("before") if step == "before" else step for step in steps],
            y_label=_("rating"),
            x_label=_("match"),
            from_zero=False,
        )
        return chart_response(chart)


class StandingsChartApi(CompetitionApi):
    """A competition's placement points added up, one line per player in standings order (at
    most `players` lines: the leaders): a tournament's stage by stage, a league's match by match
    (in the order they finished). At an event with divisions: the leaders of each division
    (each line's `data-group`), or of one (`?division=`)."""

    renderer_classes = (SVGRenderer,)

    class StandingsChartQuerySerializer(serializers.Serializer):
        players = serializers.IntegerField(
            min_value=1, max_value=64, default=12, help_text="How many of the leaders to draw."
        )

    @apidocs.chart_schema(
        operation_id="competition_standings_chart",
        summary="Points by stage, as a chart",
        tags=["competitions"],
        parameters=[COMPETITION_ID, StandingsChartQuerySerializer, DIVISION],
        points="`data-series` (the player's name), `data-step` (a tournament's `S<stage>`, a "
        "league's `#<match id>`) and `data-value` (placement points so far)",
        not_found=COMPETITION_NOT_FOUND,
    )
    def get(self, request: Request, competition_id: int) -> Response:
        query = self.StandingsChartQuerySerializer(data=request.query_params)
        check_known_params(request, ["players", "division"], serializer_check(query))
        competition = competition_get(competition_id=competition_id)
        chart = standings_chart(
            competition=competition,
            players=query.validated_data["players"],
            division=division_param(competition, request.query_params.get("division")),
        )
        return chart_response(chart)
