"""Playing: my legal moves, submit a move, the move log."""

from __future__ import annotations

from collections.abc import Mapping
from http import HTTPStatus
from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import (
    extend_schema,
    extend_schema_serializer,
)
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from chickenfoot.problems import flatten_errors
from chickenfoot.throttles import MOVE_THROTTLES
from games.api.apidocs import moves as apidocs
from games.api.common import (
    ETAG_HEADER,
    IF_NONE_MATCH,
    MATCH_ID,
    GameApi,
    etag,
    idempotency_key_from,
    matches_etag,
    version_from_if_match,
)
from games.api.event_types import events
from games.api.fields import TileOutputField
from games.api.state_types import LegalMoveSerializer, state_field
from games.api.strict import (
    ID_MAX,
    QuerySerializer,
    StrictCharField,
    StrictIntegerField,
    StrictSerializer,
    TileField,
)
from games.models import Move, Player
from games.problems import MalformedMoveBody, NotYourMatch
from games.selectors import (
    LEGAL_MOVES_COLUMNS,
    legal_moves_for,
    match_for_player,
    match_opening,
    move_log,
    online_match_check,
)
from games.services import move_submit
from games.services.moves import move_body_refused, mover_check

LOG_LIMIT = 200


@extend_schema_serializer(component_name="Move")
class MoveOutputSerializer(serializers.Serializer):
    seq = serializers.IntegerField(help_text="1, 2, 3 ... across the whole match, no gaps.")
    round = serializers.IntegerField()
    seat = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=Move.Kind.choices)
    tile = TileOutputField(allow_null=True, help_text="Plays only.")
    target = serializers.CharField(allow_null=True, help_text="Plays only.")
    events = events(help_text="What happened, as your seat may see it.")


@extend_schema_serializer(component_name="LoggedMove")
class LoggedMoveOutputSerializer(MoveOutputSerializer):
    version = serializers.IntegerField(
        allow_null=True, help_text="The match's version after this move (null for older moves)."
    )
    timed_out = serializers.BooleanField(
        help_text="Played by the server for a human whose clock ran out (option turn_seconds)."
    )
    created_at = serializers.DateTimeField()


class LegalMovesApi(GameApi):
    """The caller's legal moves now (empty when it is not their turn)."""

    @extend_schema_serializer(component_name="LegalMoves")
    class LegalMovesOutputSerializer(serializers.Serializer):
        version = serializers.IntegerField()
        seat = serializers.IntegerField()
        turn = serializers.IntegerField(allow_null=True)
        moves = LegalMoveSerializer(
            many=True,
            help_text='Send one back as is: {"kind": "play", "tile": [a, b], "target": "arm:0"}.',
        )

    @extend_schema(
        operation_id="legal_moves",
        summary="My legal moves",
        tags=["play"],
        parameters=[MATCH_ID, IF_NONE_MATCH, ETAG_HEADER],
        responses=apidocs.legal_moves_responses(LegalMovesOutputSerializer),
    )
    def get(self, request: Request, match_id: int) -> Response:
        match, seat = match_for_player(
            match_id=match_id, player=self.player(request), columns=LEGAL_MOVES_COLUMNS
        )
        if seat is None:
            raise NotYourMatch(_("You have no seat at match %(match)s.") % {"match": match.pk})
        online_match_check(match=match)
        headers = {"ETag": etag(match.version), "Vary": "Authorization"}
        if matches_etag(request.META.get("HTTP_IF_NONE_MATCH"), match.version):
            return Response(status=HTTPStatus.NOT_MODIFIED, headers=headers)
        body = {
            "version": match.version,
            "seat": seat,
            "turn": (match.state or {}).get("turn"),
            "moves": legal_moves_for(match=match, seat=seat),
        }
        return Response(body, headers=headers)


VERSION_HELP = (
    "The match version your move answers (or send `If-Match`). A stale version is refused (409)."
)


_MOVE_KINDS = frozenset(Move.Kind.values)
_MOVE_FIELDS = frozenset({"kind", "tile", "target", "version"})


def _plain_move_input(data: object) -> dict[str, Any] | None:
    """A move body that ``MoveSubmitInputSerializer`` would take unchanged, as it would give it.

    The serializer costs more than the rest of the request's parsing; a well-formed body (the
    common case) is checked here, field by field as the serializer checks it, and anything else
    (``None``) goes through the serializer.
    """
    if data.__class__ is not dict or not data.keys() <= _MOVE_FIELDS:
        return None
    kind = data.get("kind")
    if kind.__class__ is not str or kind not in _MOVE_KINDS:
        return None
    if "version" in data:
        version = data["version"]
        if version.__class__ is not int or version < 0:
            return None
    tile = data.get("tile")
    if tile is not None and not (
        tile.__class__ is list
        and len(tile) == 2
        and tile[0].__class__ is int
        and tile[1].__class__ is int
        and tile[0] >= 0
        and tile[1] >= 0
    ):
        return None
    if "target" in data:
        target = data["target"]
        if target is not None and not (
            target.__class__ is str
            and 0 < len(target) <= 32
            and target.isascii()
            and target.isprintable()
            and target == target.strip()
        ):
            return None
    return data  # type: ignore[return-value]


def _submitted_move(
    request: Request,
    serializer_class: type[serializers.Serializer],
    *,
    match_id: int,
    player: Player,
) -> tuple[dict[str, Any], int | None]:
    """The move a submission sends, and the version it answers (its body's, or ``If-Match``).
    A body the serializer refuses is refused with the engine's checks of the rest of it."""
    values = _plain_move_input(request.data)
    if values is None:  # anything unusual gets the serializer and its errors
        data = serializer_class(data=request.data)
        if not data.is_valid():
            mover_check(match_id=match_id, player=player)  # a stranger learns nothing more
            errors = flatten_errors(data.errors)
            if not isinstance(request.data, Mapping):
                raise MalformedMoveBody(errors)
            raise move_body_refused(
                match_id=match_id, player=player, body=request.data, errors=errors
            )
        values = data.validated_data
    version = values.get("version")
    if version is None:
        version = version_from_if_match(request.META.get("HTTP_IF_MATCH"))
    move = {"kind": values["kind"]}
    for name in ("tile", "target"):
        if values.get(name) is not None:
            move[name] = values[name]
    return move, version


class MoveSubmitApi(GameApi):
    """Play, draw or pass for your seat (docs/rules.md §5).

    Send the version you are answering (`version`, or `If-Match: "<version>"`): a stale one is
    refused with 409 and the current version. With `Idempotency-Key`, a retry returns the first
    answer. A broken rule is a 422 naming the rule; nothing changes on any refusal.
    """

    throttle_classes = MOVE_THROTTLES

    @extend_schema_serializer(component_name="MoveSubmit")
    class MoveSubmitInputSerializer(StrictSerializer):
        kind = serializers.ChoiceField(choices=Move.Kind.choices)
        tile = TileField(
            required=False, allow_null=True, help_text="[a, b], either order; plays only."
        )
        target = StrictCharField(
            required=False,
            allow_null=True,
            max_length=32,
            help_text="An id from the legal-moves list (`arm:0`, `foot:0:toe:1`, `seat:2`, "
            "`mexican`); plays only.",
        )
        version = StrictIntegerField(required=False, min_value=0, help_text=VERSION_HELP)

    @extend_schema_serializer(component_name="MoveSubmitted")
    class MoveSubmitOutputSerializer(serializers.Serializer):
        version = serializers.IntegerField(help_text="The match's version after your move.")
        move = MoveOutputSerializer()
        state = state_field(help_text="The match as your seat now sees it.")

    @extend_schema(
        operation_id="move_submit",
        **apidocs.MOVE_SUBMIT_HEADING,
        parameters=apidocs.MOVE_SUBMIT_PARAMETERS,
        request=MoveSubmitInputSerializer,
        examples=apidocs.MOVE_SUBMIT_EXAMPLES,
        responses=apidocs.move_submit_responses(MoveSubmitOutputSerializer),
    )
    def post(self, request: Request, match_id: int) -> Response:
        move, version = _submitted_move(
            request, self.MoveSubmitInputSerializer, match_id=match_id, player=self.player(request)
        )
        outcome = move_submit(
            match_id=match_id,
            player=self.player(request),
            move=move,
            expected_version=version,
            idempotency_key=idempotency_key_from(request.META.get("HTTP_IDEMPOTENCY_KEY")),
        )
        headers = {"ETag": etag(outcome.body["version"])}
        if outcome.replayed:
            headers["Idempotent-Replayed"] = "true"
        return Response(outcome.body, status=HTTPStatus.CREATED, headers=headers)


class MoveLogApi(GameApi):
    """The match's moves in order. Drawn tiles of the running round show to their drawer only.

    The first page also carries `opening`: the events of the match's start (round 1's deal),
    which no move carries.
    """

    class MoveLogFilterSerializer(QuerySerializer):
        after = serializers.IntegerField(
            min_value=0,
            max_value=ID_MAX,
            required=False,
            default=0,
            help_text="Moves with a larger `seq`.",
        )
        limit = serializers.IntegerField(
            min_value=1, max_value=LOG_LIMIT, required=False, default=LOG_LIMIT
        )

    @extend_schema_serializer(component_name="MoveLog")
    class MoveLogOutputSerializer(serializers.Serializer):
        moves = LoggedMoveOutputSerializer(many=True)
        next_after = serializers.IntegerField(
            help_text="Pass as `after` to read on (the last `seq` returned, or your `after`)."
        )
        opening = events(
            help_text="On the first page (`after` 0): the events of the match's start, which no "
            "move carries (round 1's `round_started`, Chicken Foot's automatic `drew` events and "
            "`start_double_placed`, Mexican Train's `engine_placed`), as your seat may see them. "
            "Empty on later pages and before the match starts.",
        )

    @extend_schema(
        operation_id="move_log",
        summary="The move log",
        tags=["play"],
        parameters=[MATCH_ID, MoveLogFilterSerializer],
        responses=apidocs.move_log_responses(MoveLogOutputSerializer),
    )
    def get(self, request: Request, match_id: int) -> Response:
        filters = self.MoveLogFilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        after = filters.validated_data["after"]
        match, seat = match_for_player(match_id=match_id, player=self.player(request))
        moves = move_log(match=match, seat=seat, after=after, limit=filters.validated_data["limit"])
        return Response(
            {
                "moves": moves,
                "next_after": moves[-1]["seq"] if moves else after,
                "opening": match_opening(match=match, seat=seat) if after == 0 else [],
            }
        )
