"""A stage, with its seating's version as its ETag, and the organiser's changes to it: swap,
move, replace a no-show, lock tables, re-pair, reopen, undo; and the audit of those changes.

Every change answers the version it was made against (`If-Match: "<version>"`; 428 without
one, 409 `stale_version` once the seating has moved on) and is refused (409
`stage_scoring_started`, naming the tables) once a table of the stage has scores, unless the
organiser reopened the seating.
"""

from __future__ import annotations

import re
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from chickenfoot.json_fields import StrictBooleanField
from chickenfoot.problems import InvalidHeader
from scoring.api.apidocs import stage_edits as apidocs
from scoring.api.body import BodySerializer
from scoring.api.common import check_known_params
from scoring.api.competition_base import CompetitionApi
from scoring.api.stage_types import SeatingChangeSerializer
from scoring.api.standings import CompetitionStageSerializer
from scoring.api.table_events import CheckInListSerializer
from scoring.competitions.checkins import check_ins_list
from scoring.competitions.dashboard import started_stage
from scoring.competitions.seating_audit import seating_changes
from scoring.competitions.selectors import competition_get, competition_stages
from scoring.competitions.stage_edits import (
    seating_lock,
    seating_move,
    seating_re_pair,
    seating_replace,
    seating_swap,
)
from scoring.competitions.stage_undo import seating_reopen, stage_undo

TAGS = ["competitions"]
PLAYER_ID = {"min_value": 1, "max_value": 2**63 - 1}
#: An ETag this API sends (a version), quoted, weak or bare.
_IF_MATCH = re.compile(r'(?:W/)?"?([0-9]{1,18})"?', re.ASCII)
REASON_MAX = 500

#: The refusal of a seating change to anyone but the organiser (as the service words it).
SEATING_REFUSAL = gettext_lazy(
    "Only the organiser of competition %(competition)s can change a stage's seating."
)


def if_match(request: Request) -> int | None:
    """The seating version ``If-Match`` answers (``"3"``, ``W/"3"`` or ``3``), if any; any other
    value is a 400 ``invalid_header``."""
    header = request.headers.get("If-Match")
    if header is None or not header.strip():
        return None
    found = _IF_MATCH.fullmatch(header.strip())
    if found is None:
        raise InvalidHeader("If-Match", _('Send the stage\'s ETag, like "3".'))
    return int(found[1])


def stage_answer(competition_id: int, number: int) -> Response:
    """The stage as it is now, its version as the ETag."""
    competition = competition_get(competition_id=competition_id)
    started_stage(competition=competition, number=number)  # 409 wrong_stage if not (any more)
    (body,) = competition_stages(competition=competition, number=number)
    return Response(body, headers={"ETag": f'"{body["version"]}"'})


def _reason(**kwargs: Any) -> serializers.CharField:
    return serializers.CharField(
        max_length=REASON_MAX,
        help_text="Why, as the organiser writes it: kept with the change and shown in the export.",
        **kwargs,
    )


class SwapSerializer(BodySerializer):
    players = serializers.ListField(
        child=serializers.IntegerField(**PLAYER_ID),
        min_length=2,
        max_length=2,
        help_text="The two entrants (player ids) who change seats.",
    )
    reason = _reason(required=False, allow_blank=True, default="")


class MoveSerializer(BodySerializer):
    player = serializers.IntegerField(
        **PLAYER_ID,
        help_text="The entrant to move: seated at the stage, or not (a late entrant, a bye).",
    )
    table = serializers.IntegerField(min_value=1, help_text="The table with an empty seat.")
    position = serializers.IntegerField(
        min_value=0,
        required=False,
        allow_null=True,
        default=None,
        help_text="The seat to take (0 plays first); default: the last.",
    )
    reason = _reason(required=False, allow_blank=True, default="")


class ReplaceSerializer(BodySerializer):
    player = serializers.IntegerField(
        **PLAYER_ID, help_text="The entrant who takes the seat (not seated at the stage)."
    )
    replaces = serializers.IntegerField(
        **PLAYER_ID, help_text="The seated entrant who has not come: a no-show for the stage."
    )
    reason = _reason(required=False, allow_blank=True, default="")


class LockSerializer(BodySerializer):
    tables = serializers.ListField(
        child=serializers.IntegerField(min_value=1), min_length=1, max_length=500
    )
    locked = StrictBooleanField(help_text="true: a re-pair keeps them; false: it may not.")
    reason = _reason(required=False, allow_blank=True, default="")


class ReasonSerializer(BodySerializer):
    reason = _reason(required=False, allow_blank=True, default="")


class ReopenSerializer(BodySerializer):
    reason = _reason()


class SeatingChangeListSerializer(serializers.Serializer):
    changes = SeatingChangeSerializer(many=True)


class _SeatingApi(CompetitionApi):
    """A change to a stage's seating: the body's serializer, then the service."""

    body: type[serializers.Serializer] = ReasonSerializer

    def change(self, request: Request, competition_id: int, number: int, values: Any) -> Any:
        raise NotImplementedError

    def post(self, request: Request, competition_id: int, number: int) -> Response:
        self.organiser_first(request, competition_id, SEATING_REFUSAL)
        check_known_params(request, [])
        data = self.body(data=request.data)
        data.is_valid(raise_exception=True)
        self.change(request, competition_id, number, dict(data.validated_data))
        return stage_answer(competition_id, number)

    def common(self, request: Request, competition_id: int, number: int) -> dict[str, Any]:
        return {
            "competition_id": competition_id,
            "number": number,
            "caller": self.player(request),
            "expected_version": if_match(request),
        }


class StageApi(CompetitionApi):
    """One stage: its tables (who sits where, locked or not), byes, the seating's version (the
    ETag a change answers with `If-Match`), and whether a correction left it stale."""

    @extend_schema(
        operation_id="competition_stage",
        summary="A stage and its seating",
        tags=TAGS,
        parameters=apidocs.STAGE_PARAMETERS,
        responses=apidocs.stage_responses(CompetitionStageSerializer),
    )
    def get(self, request: Request, competition_id: int, number: int) -> Response:
        check_known_params(request, [])
        return stage_answer(competition_id, number)


class StageSwapApi(_SeatingApi):
    """Two entrants change seats (tables and seat positions)."""

    body = SwapSerializer

    def change(self, request: Request, competition_id: int, number: int, values: Any) -> Any:
        return seating_swap(**self.common(request, competition_id, number), **values)

    @extend_schema(**apidocs.edit_schema("swap", SwapSerializer, CompetitionStageSerializer))
    def post(self, request: Request, competition_id: int, number: int) -> Response:
        return super().post(request, competition_id, number)


class StageMoveApi(_SeatingApi):
    """An entrant moves to an empty seat at another table (or another seat at their own): from
    their seat at the stage, or from none (a late entrant, a bye: the bye goes)."""

    body = MoveSerializer

    def change(self, request: Request, competition_id: int, number: int, values: Any) -> Any:
        return seating_move(**self.common(request, competition_id, number), **values)

    @extend_schema(**apidocs.edit_schema("move", MoveSerializer, CompetitionStageSerializer))
    def post(self, request: Request, competition_id: int, number: int) -> Response:
        return super().post(request, competition_id, number)


class StageReplaceApi(_SeatingApi):
    """An entrant not seated at the stage (a late entrant, a bye) takes the seat of a no-show,
    whose check-in for the stage is undone."""

    body = ReplaceSerializer

    def change(self, request: Request, competition_id: int, number: int, values: Any) -> Any:
        return seating_replace(**self.common(request, competition_id, number), **values)

    @extend_schema(**apidocs.edit_schema("replace", ReplaceSerializer, CompetitionStageSerializer))
    def post(self, request: Request, competition_id: int, number: int) -> Response:
        return super().post(request, competition_id, number)


class StageLockApi(_SeatingApi):
    """Lock tables (a re-pair keeps them as they are), or unlock them."""

    body = LockSerializer

    def change(self, request: Request, competition_id: int, number: int, values: Any) -> Any:
        return seating_lock(**self.common(request, competition_id, number), **values)

    @extend_schema(**apidocs.edit_schema("lock", LockSerializer, CompetitionStageSerializer))
    def post(self, request: Request, competition_id: int, number: int) -> Response:
        return super().post(request, competition_id, number)


class StageRePairApi(_SeatingApi):
    """Pair the stage again (the Swiss from the standings as they are now; stage 1 by its
    seeding), keeping the locked tables; clears `pairing_stale`."""

    def change(self, request: Request, competition_id: int, number: int, values: Any) -> Any:
        return seating_re_pair(**self.common(request, competition_id, number), **values)

    @extend_schema(**apidocs.edit_schema("re_pair", ReasonSerializer, CompetitionStageSerializer))
    def post(self, request: Request, competition_id: int, number: int) -> Response:
        return super().post(request, competition_id, number)


class StageReopenApi(_SeatingApi):
    """Reopen the seating of a stage some tables of which have scores: the tables without
    scores may then be changed. A reason is required."""

    body = ReopenSerializer

    def change(self, request: Request, competition_id: int, number: int, values: Any) -> Any:
        return seating_reopen(**self.common(request, competition_id, number), **values)

    @extend_schema(**apidocs.edit_schema("reopen", ReopenSerializer, CompetitionStageSerializer))
    def post(self, request: Request, competition_id: int, number: int) -> Response:
        return super().post(request, competition_id, number)


class StageUndoApi(_SeatingApi):
    """Undo the stage seated last, before any of its tables has scores: its tables and byes
    are deleted, and check-in for it is open again. Answers the check-ins for it."""

    def change(self, request: Request, competition_id: int, number: int, values: Any) -> Any:
        return stage_undo(**self.common(request, competition_id, number), **values)

    @extend_schema(**apidocs.edit_schema("undo", ReasonSerializer, CheckInListSerializer))
    def post(self, request: Request, competition_id: int, number: int) -> Response:
        self.organiser_first(request, competition_id, SEATING_REFUSAL)
        check_known_params(request, [])
        data = ReasonSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        self.change(request, competition_id, number, dict(data.validated_data))
        return Response(check_ins_list(competition=competition_get(competition_id=competition_id)))


class SeatingChangesApi(CompetitionApi):
    """Every change the organiser made to the competition's seating, oldest first: who, when,
    what (the tables before and after) and why. The organiser's only."""

    @extend_schema(
        operation_id="competition_seating_changes",
        summary="The audit of the seating (organiser)",
        tags=TAGS,
        parameters=apidocs.CHANGES_PARAMETERS,
        responses=apidocs.changes_responses(SeatingChangeListSerializer),
    )
    def get(self, request: Request, competition_id: int) -> Response:
        check_known_params(request, [])
        competition = competition_get(competition_id=competition_id)
        changes = seating_changes(competition=competition, caller=self.player(request))
        return Response({"changes": changes})
