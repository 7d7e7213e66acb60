"""Undoing a stage's seating, and reopening it once scores are in.

``stage_undo`` deletes the stage seated last, before any of its tables has scores: its table
matches, its byes, the stage itself; check-in for it opens again and its number is the next
stage's. ``seating_reopen`` lets the organiser change a stage some tables of which have scores
(those tables stay as they are). Both go through ``stage_plan``'s checks and are audited.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.competitions import totals
from scoring.competitions.problems import WrongCompetitionStatus
from scoring.competitions.stage_plan import change_record, scoring_check, stage_open
from scoring.models import Competition, Registration, SeatingChange, Stage
from scoring.ports import PlayerRef, games_port

KIND = SeatingChange.Kind


def stage_undo(
    *,
    competition_id: int,
    number: int,
    caller: PlayerRef,
    expected_version: int | None,
    reason: str = "",
) -> Competition:
    """Delete stage ``number`` (the one seated last; none of its tables scored, even once
    reopened: those scores would go with it): its tables and byes go, check-in for it is open
    again, an entrant added while it was seated may play it, and it may be started again."""
    with transaction.atomic():
        plan = stage_open(
            competition_id=competition_id,
            number=number,
            caller=caller,
            expected_version=expected_version,
        )
        plan.stage.seating_reopened_at = None  # every table counts: none may have scores
        scoring_check(plan)
        competition = plan.competition
        tables = [
            {"table": t.table, "match_id": t.match_id, "before": t.seats, "after": []}
            for t in plan.tables
        ]
        byes = sorted(bye.player_id for bye in plan.byes)
        change_record(
            plan,
            kind=KIND.UNDO,
            caller=caller,
            reason=reason,
            players=[],
            tables=tables,
            byes={"before": byes, "after": []} if byes else None,
        )
        games_port().table_matches_delete(
            match_ids=[t.match_id for t in plan.tables if t.match_id is not None]
        )
        Stage.objects.filter(pk=plan.stage.pk).delete()  # its byes go with it
        Registration.objects.filter(competition=competition, first_stage__gt=number).update(
            first_stage=number
        )
        competition.current_stage = number - 1
        competition.check_in_closed_stage = number - 1
        if number == 1:
            competition.status = Competition.Status.CLOSED
        competition.save(update_fields=["current_stage", "check_in_closed_stage", "status"])
        totals.rebuild(competition_ids=[competition.pk])
        return competition


def seating_reopen(
    *,
    competition_id: int,
    number: int,
    caller: PlayerRef,
    expected_version: int | None,
    reason: str,
) -> Stage:
    """Reopen stage ``number``'s seating although tables of it have scores: from then on a
    change may touch the tables without scores (those with scores stay as they are). Kept
    with its reason; 409 if it was reopened already."""
    with transaction.atomic():
        plan = stage_open(
            competition_id=competition_id,
            number=number,
            caller=caller,
            expected_version=expected_version,
        )
        if plan.stage.seating_reopened_at is not None:
            raise WrongCompetitionStatus(
                _("The seating of stage %(number)s was reopened already.") % {"number": number}
            )
        plan.stage.seating_reopened_at = timezone.now()
        change_record(
            plan,
            kind=KIND.REOPEN,
            caller=caller,
            reason=reason,
            players=[],
            tables=[{"table": t.table, "match_id": t.match_id} for t in plan.tables if t.scored],
        )
        return plan.stage
