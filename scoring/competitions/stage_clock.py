"""The stage clock of a table event: the organiser starts it with a duration, and the wall and
the scorers' pages count down to its end; once it has run out the wall says the last round is
on. It enforces nothing: tables still play and enter their scores as before.

Starting (or starting again) and stopping run in one transaction under the competition's lock:
the organiser only (403), a table event only (409 ``competition_status``), the stage seated last
and still playing (409 ``wrong_stage``). Each keeps an audit row (``SeatingChange`` of kind
``clock``, shown in the competition's export) and, after commit, tells the wall and the stage's
tables (``stage_clock`` frames carrying the server's time, so that a page corrects for its own
clock). The seating's version stays as it is: the clock is not the seating.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.competitions import checkins
from scoring.competitions.checkins import TABLE
from scoring.competitions.dashboard import started_stage
from scoring.competitions.problems import (
    CompetitionNotFound,
    WrongCompetitionStatus,
    WrongStage,
)
from scoring.models import Competition, CompetitionMatch, SeatingChange, Stage
from scoring.ports import PlayerRef, games_port

#: The longest clock an organiser may set, in minutes (twelve hours: a whole day's stage).
MAX_MINUTES = 720
START = "start"
STOP = "stop"


def clock_state(*, stage: Stage, now: datetime) -> str:
    """``off`` (no clock), ``running`` or ``ended`` (run out: the last round is on)."""
    if stage.clock_ends_at is None:
        return "off"
    return "running" if stage.clock_ends_at > now else "ended"


def clock_body(*, stage: Stage, now: datetime | None = None) -> dict[str, Any]:
    """The stage clock as the API, the wall and the scorers' pages show it, with the server's
    ``now``: a page counts down ``ends_at - now`` from when it read it."""
    now = now or timezone.now()
    started, ends = stage.clock_started_at, stage.clock_ends_at
    minutes = None
    if started is not None and ends is not None:
        minutes = round((ends - started).total_seconds() / 60)
    return {
        "stage": stage.number,
        "state": clock_state(stage=stage, now=now),
        "minutes": minutes,
        "started_at": started,
        "ends_at": ends,
        "now": now,
    }


def _clock_stage(*, competition_id: int, number: int, caller: PlayerRef) -> Stage:
    """Stage ``number``, its competition locked, checked for a clock change (the module says
    what is refused). The caller holds a transaction."""
    competition = checkins.lock_competition(competition_id)
    checkins.organiser_only(
        competition,
        caller,
        _("Only the organiser of competition %(competition)s can set a stage's clock."),
    )
    if competition.play != TABLE:
        raise WrongCompetitionStatus(
            _(
                "Competition %(competition)s is played online: its matches have their own "
                "clocks, so its stages have none."
            )
            % {"competition": competition.pk}
        )
    stage = started_stage(competition=competition, number=number)
    if number != competition.current_stage or stage.status != Stage.Status.PLAYING:
        raise WrongStage(
            _(
                "Stage %(number)s of competition %(competition)s is over: only the stage "
                "playing, %(current)s, has a clock."
            )
            % {
                "number": number,
                "competition": competition.pk,
                "current": competition.current_stage,
            },
            extra={"next_stage": competition.current_stage + 1},
        )
    stage.competition = competition
    return stage


def _record(*, stage: Stage, caller: PlayerRef, action: str, reason: str) -> None:
    """Keep the clock's change in the stage's audit and tell the wall and the tables after
    commit."""
    minutes = clock_body(stage=stage)["minutes"]
    SeatingChange.objects.create(
        competition=stage.competition,
        stage_number=stage.number,
        version=stage.version,
        kind=SeatingChange.Kind.CLOCK,
        by_id=caller.id,
        at=timezone.now(),
        reason=reason,
        clock={
            "action": action,
            "minutes": minutes,
            "ends_at": stage.clock_ends_at.isoformat() if stage.clock_ends_at else None,
        },
    )
    match_ids = list(
        CompetitionMatch.objects.filter(stage=stage).values_list("match_id", flat=True)
    )
    games_port().stage_clock_changed(
        competition_id=stage.competition.pk, number=stage.number, match_ids=match_ids
    )


def stage_clock_start(
    *, competition_id: int, number: int, caller: PlayerRef, minutes: int, reason: str = ""
) -> Stage:
    """Start stage ``number``'s clock: it runs out ``minutes`` from now (1 to ``MAX_MINUTES``,
    checked by the caller's serializer). A running clock starts again from now."""
    with transaction.atomic():
        stage = _clock_stage(competition_id=competition_id, number=number, caller=caller)
        now = timezone.now()
        stage.clock_started_at = now
        stage.clock_ends_at = now + timedelta(minutes=minutes)
        stage.save(update_fields=["clock_started_at", "clock_ends_at"])
        _record(stage=stage, caller=caller, action=START, reason=reason)
    return stage


def stage_clock_stop(
    *, competition_id: int, number: int, caller: PlayerRef, reason: str = ""
) -> Stage:
    """Stop stage ``number``'s clock: the wall and the tables show none. Stopping a stage with
    no clock changes nothing and keeps no audit row."""
    with transaction.atomic():
        stage = _clock_stage(competition_id=competition_id, number=number, caller=caller)
        if stage.clock_ends_at is None:
            return stage
        stage.clock_started_at = None
        stage.clock_ends_at = None
        stage.save(update_fields=["clock_started_at", "clock_ends_at"])
        _record(stage=stage, caller=caller, action=STOP, reason=reason)
    return stage


def stage_clock_get(*, competition_id: int, number: int, caller: PlayerRef) -> dict[str, Any]:
    """Stage ``number``'s clock, for the organiser (403; 404 for no competition, 409
    ``wrong_stage`` for a stage not started)."""
    competition = Competition.objects.filter(pk=competition_id).first()
    if competition is None:
        raise CompetitionNotFound(
            _("There is no competition %(competition_id)s.") % {"competition_id": competition_id}
        )
    checkins.organiser_only(
        competition,
        caller,
        _("Only the organiser of competition %(competition)s can read a stage's clock."),
    )
    return clock_body(stage=started_stage(competition=competition, number=number))
