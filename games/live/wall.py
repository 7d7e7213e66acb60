"""The public wall's socket group: a competition's standings and tables, for anyone to follow.

A public competition's group (``wall.<id>``) gets a frame after commit whenever one of its
matches has a round's scores entered (``table_updated``: that table's progress) or its results
come in (``standings_changed``: the new standings with the stages and the competition as they
now are, after the table's ``table_updated``), and when the organiser starts or stops a stage's
clock (``stage_clock``: the clock and the server's ``now``, which the stage's tables' sockets
get too). Frames carry the wall's public shape only (``scoring.competitions.wall``): names,
points, progress and clocks.
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction
from django.utils import timezone

from games.live.publish import NOTICE, match_group, publish_group
from scoring.competitions.problems import CompetitionNotFound
from scoring.competitions.wall import (
    competition_is_public,
    public_competition_get,
    public_competition_of_match,
    wall_body,
    wall_clock,
    wall_table,
)
from scoring.models import Stage

logger = logging.getLogger(__name__)

#: The message type a wall's group carries (the consumer's handler ``wall_frame``).
WALL_FRAME = "wall.frame"
#: The message that closes a wall's sockets (``wall_closed``): the competition is private again.
WALL_CLOSED = "wall.closed"
TABLE_UPDATED = "table_updated"
STANDINGS_CHANGED = "standings_changed"
STAGE_CLOCK = "stage_clock"


def wall_group(competition_id: int) -> str:
    """The channel-layer group of a public competition's wall sockets."""
    return f"wall.{competition_id}"


def wall_frames(*, match_id: int, standings: bool) -> tuple[int | None, list[dict[str, Any]]]:
    """The public competition of match ``match_id`` (``None``: none) and the frames its wall
    gets: the table's progress, then the standings when ``standings``."""
    competition_id = public_competition_of_match(match_id=match_id)
    if competition_id is None:
        return None, []
    try:
        competition = public_competition_get(competition_id=competition_id)
    except CompetitionNotFound:  # unpublished since
        return None, []
    out: list[dict[str, Any]] = []
    table = wall_table(competition=competition, match_id=match_id)
    if table is not None:
        out.append({"type": TABLE_UPDATED, "table": table})
    if standings:  # the stages' and the competition's status may have moved on with them
        out.append({"type": STANDINGS_CHANGED, **wall_body(competition=competition)})
    return competition_id, out


def wall_publish(*, match_id: int, standings: bool) -> None:
    """Send the wall's frames for match ``match_id`` now; a failure is logged, never raised."""
    try:
        competition_id, frames = wall_frames(match_id=match_id, standings=standings)
    except Exception:
        logger.warning("live: could not read the wall of match %s", match_id, exc_info=True)
        return
    for frame in frames:
        publish_group(
            group=wall_group(competition_id),  # type: ignore[arg-type]
            message={"type": WALL_FRAME, "frame": frame},
        )


def on_commit_wall(*, match_id: int, standings: bool = False) -> None:
    """After commit: the wall of the public competition match ``match_id`` counts in (if any)
    is told of the match's table (and of the standings, when ``standings``)."""
    transaction.on_commit(lambda: wall_publish(match_id=match_id, standings=standings), robust=True)


def on_commit_wall_seating(*, competition_id: int) -> None:
    """After commit: the organiser changed a stage's seating; the wall of competition
    ``competition_id``, if it is public, gets the standings with the stages as they now are."""
    transaction.on_commit(lambda: wall_seating_publish(competition_id=competition_id), robust=True)


def wall_seating_publish(*, competition_id: int) -> None:
    """Send a public competition's ``standings_changed`` frame now; a failure is logged."""
    try:
        competition = public_competition_get(competition_id=competition_id)
        frame = {"type": STANDINGS_CHANGED, **wall_body(competition=competition)}
    except CompetitionNotFound:  # not public
        return
    except Exception:
        logger.warning(
            "live: could not read the wall of competition %s", competition_id, exc_info=True
        )
        return
    publish_group(group=wall_group(competition_id), message={"type": WALL_FRAME, "frame": frame})


def on_commit_wall_closed(*, competition_id: int) -> None:
    """After commit: competition ``competition_id`` is private again; its sockets close."""
    transaction.on_commit(
        lambda: publish_group(group=wall_group(competition_id), message={"type": WALL_CLOSED}),
        robust=True,
    )


def stage_clock_frame(*, competition_id: int, number: int) -> dict[str, Any] | None:
    """The ``stage_clock`` frame of stage ``number`` as it is now (``None``: no such stage):
    its clock (``null``: stopped) and the server's ``now``."""
    stage = Stage.objects.filter(competition_id=competition_id, number=number).first()
    if stage is None:
        return None
    now = timezone.now()
    return {
        "type": STAGE_CLOCK,
        "stage": number,
        "clock": wall_clock(stage=stage, now=now),
        "now": now.isoformat(),
    }


def stage_clock_publish(*, competition_id: int, number: int, match_ids: list[int]) -> None:
    """Send a stage's ``stage_clock`` frame to its competition's wall (when it is public) and
    to its tables' sockets now; a failure is logged, never raised."""
    try:
        frame = stage_clock_frame(competition_id=competition_id, number=number)
        public = competition_is_public(competition_id=competition_id)
    except Exception:
        logger.warning(
            "live: could not read the clock of competition %s", competition_id, exc_info=True
        )
        return
    if frame is None:
        return
    if public:
        publish_group(
            group=wall_group(competition_id), message={"type": WALL_FRAME, "frame": frame}
        )
    for match_id in match_ids:
        publish_group(group=match_group(match_id), message={"type": NOTICE, "frame": frame})


def on_commit_stage_clock(*, competition_id: int, number: int, match_ids: list[int]) -> None:
    """After commit: a stage's clock was started or stopped (``stage_clock_publish``)."""
    transaction.on_commit(
        lambda: stage_clock_publish(
            competition_id=competition_id, number=number, match_ids=match_ids
        ),
        robust=True,
    )
