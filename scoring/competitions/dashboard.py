"""The organiser's view of a stage as it plays: each table and how far its scoring has got."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from scoring.competitions.problems import NotOrganiser, WrongStage
from scoring.models import Competition, CompetitionMatch, Stage
from scoring.ports import PlayerRef, games_port


def started_stage(*, competition: Competition, number: int) -> Stage:
    """Stage ``number`` of ``competition``; 409 ``wrong_stage`` if it has not started."""
    stage = Stage.objects.filter(competition=competition, number=number).first()
    if stage is None:
        raise WrongStage(
            _(
                "Stage %(number)s of competition %(competition)s has not "
                "started (%(current_stage)s of %(value)s have)."
            )
            % {
                "number": number,
                "competition": competition.pk,
                "current_stage": competition.current_stage,
                "value": competition.last_stage,
            },
            extra={"next_stage": competition.current_stage + 1},
        )
    return stage


def organiser_stage(
    *, competition: Competition, number: int, caller: PlayerRef, refusal: str
) -> Stage:
    """Stage ``number``, for its organiser only (403 ``not_organiser``, with ``refusal``,
    which names ``%(competition)s``); 409 ``wrong_stage`` if it has not started."""
    if competition.organiser_id != caller.id:
        raise NotOrganiser(refusal % {"competition": competition.pk})
    return started_stage(competition=competition, number=number)


def stage_tables(*, stage: Stage) -> list[dict[str, Any]]:
    """The stage's tables in order: ``table_number``, ``match_id`` and ``locked``."""
    return list(
        CompetitionMatch.objects.filter(stage=stage)
        .order_by("table_number")
        .values("table_number", "match_id", "locked")
    )


def stage_dashboard(*, competition: Competition, number: int, caller: PlayerRef) -> dict[str, Any]:
    """Stage ``number``'s tables: match id, whether it is locked, seats with names, rounds
    entered of rounds to play, finished, confirmed and disputed rounds; the seating's version,
    whether it was reopened and whether a correction left it stale (``pairing_stale``). Only
    the organiser (403); a stage not yet started is a 409 ``wrong_stage``."""
    stage = organiser_stage(
        competition=competition,
        number=number,
        caller=caller,
        refusal=_("Only the organiser of competition %(competition)s can see a stage's dashboard."),
    )
    links = stage_tables(stage=stage)
    progress = games_port().tables_progress(match_ids=[link["match_id"] for link in links])
    tables = [
        {
            "table": link["table_number"],
            "match_id": link["match_id"],
            "locked": link["locked"],
            **progress[link["match_id"]],
        }
        for link in links
    ]
    return {
        "stage": number,
        "status": stage.status,
        "version": stage.version,
        "seating_reopened_at": stage.seating_reopened_at,
        "pairing_stale": stage.pairing_stale,
        "tables": tables,
        "finished": sum(1 for table in tables if table["finished"]),
    }
