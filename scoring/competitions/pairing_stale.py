"""A stage seated from standings a correction has since changed: marked ``pairing_stale``.

When a correction of a finished match changes a competition's results
(``scoring.services.recompute``), the stage seated last, if it comes after the corrected
match's stage and none of its tables has scores yet, was paired from standings that no longer
hold. ``watch`` reads the standings before the results are written again, ``mark`` after: every
entrant of that stage (seated there, or with a bye) whose rank or placement points moved is
listed on the stage (``pairing_stale``:
``since``, the ``corrections`` that did it, and each entrant's rank and points before and
after), merged with what earlier corrections moved (the first "before" stays; an entrant back
where they were is taken off, and the mark with the last of them). The dashboard and the stage
show it; one re-pair (``stage_edits.seating_re_pair``) clears it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils import timezone

from scoring.competitions.standings import standings
from scoring.models import Bye, Competition, CompetitionMatch, Stage
from scoring.ports import games_port


@dataclass(frozen=True)
class Watch:
    """The stage that may go stale, and the standings before the correction."""

    stage: Stage
    field: frozenset[int]
    before: dict[int, dict[str, Any]]


def _snapshot(competition: Competition) -> dict[int, dict[str, Any]]:
    return {
        row["player_id"]: {
            "name": row["name"],
            "rank": row["rank"],
            "placement_points": row["placement_points"],
        }
        for row in standings(competition=competition)
    }


def watch(*, competition: Competition, link: CompetitionMatch) -> Watch | None:
    """The stage seated last, if it comes after corrected match ``link``'s stage and has no
    scores, with the standings now; ``None`` when no stage can go stale. The caller holds the
    competition's lock."""
    if link.stage_id is None or competition.status == Competition.Status.FINISHED:
        return None
    stage = (
        Stage.objects.filter(competition=competition, number=competition.current_stage)
        .exclude(pk=link.stage_id)
        .first()
    )
    if stage is None or stage.number < link.stage.number:  # type: ignore[union-attr]
        return None
    match_ids = list(
        CompetitionMatch.objects.filter(stage=stage).values_list("match_id", flat=True)
    )
    if games_port().tables_scored(match_ids=match_ids):
        return None
    seated = CompetitionMatch.objects.filter(stage=stage).values_list(
        "match__seats__player_id", flat=True
    )
    field = {*seated, *Bye.objects.filter(stage=stage).values_list("player_id", flat=True)}
    return Watch(stage=stage, field=frozenset(field - {None}), before=_snapshot(competition))


def mark(*, competition: Competition, watched: Watch, link: CompetitionMatch) -> None:
    """Mark the watched stage stale with what the correction of ``link``'s match moved
    (merged with what was marked before), or clear the mark if nothing stands moved."""
    after = _snapshot(competition)
    stage = Stage.objects.get(pk=watched.stage.pk)
    stale = stage.pairing_stale or {"since": None, "corrections": [], "changes": []}
    changes = {change["player_id"]: change for change in stale["changes"]}
    for player_id, now in after.items():
        then = watched.before.get(player_id)
        if then is None or player_id not in watched.field:
            continue
        change = changes.get(player_id) or {
            "player_id": player_id,
            "rank_before": then["rank"],
            "placement_points_before": then["placement_points"],
        }
        change.update(
            name=now["name"], rank_after=now["rank"], placement_points_after=now["placement_points"]
        )
        moved = (change["rank_before"], change["placement_points_before"]) != (
            change["rank_after"],
            change["placement_points_after"],
        )
        if moved:
            changes[player_id] = change
        else:
            changes.pop(player_id, None)
    if not changes:
        stage.pairing_stale = None
    else:
        corrected = {
            "stage": link.stage.number,  # type: ignore[union-attr]
            "table": link.table_number,
            "match_id": link.match_id,
        }
        corrections = [c for c in stale["corrections"] if c["match_id"] != link.match_id]
        stage.pairing_stale = {
            "since": stale["since"] or timezone.now().isoformat(),
            "corrections": [*corrections, corrected],
            "changes": sorted(
                changes.values(), key=lambda c: (c["rank_after"] is None, c["rank_after"] or 0)
            ),
        }
    stage.save(update_fields=["pairing_stale"])
