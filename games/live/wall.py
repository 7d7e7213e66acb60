"""The public wall's socket group: a competition's standings and tables, for anyone to follow.

A public competition's group (``wall.<id>``) gets a frame after commit whenever one of its
matches has a round's scores entered (``table_updated``: that table's progress) or its results
come in (``standings_changed``: the new standings with the stages and the competition as they
now are, after the table's ``table_updated``). Frames
carry the wall's public shape only (``scoring.competitions.wall``): names, points and progress.
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction

from games.live.publish import publish_group
from scoring.competitions.problems import CompetitionNotFound
from scoring.competitions.wall import (
    public_competition_get,
    public_competition_of_match,
    wall_body,
    wall_table,
)

logger = logging.getLogger(__name__)

#: The message type a wall's group carries (the consumer's handler ``wall_frame``).
WALL_FRAME = "wall.frame"
#: The message that closes a wall's sockets (``wall_closed``): the competition is private again.
WALL_CLOSED = "wall.closed"
TABLE_UPDATED = "table_updated"
STANDINGS_CHANGED = "standings_changed"


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
