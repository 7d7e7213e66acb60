"""Reads: competitions for the list and detail views, their players, stages and tables."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.db.models import Count, Q, QuerySet
from django.utils.translation import gettext as _

from scoring.competitions.problems import CompetitionNotFound
from scoring.models import Bye, Competition, CompetitionMatch, Registration, Stage


def competition_list() -> QuerySet[Competition]:
    """Every competition, newest first, with its organiser and number of registered players."""
    return (
        Competition.objects.select_related("organiser")
        .annotate(
            registered=Count("registrations", filter=Q(registrations__withdrawn_at__isnull=True))
        )
        .order_by("-created_at", "-id")
    )


def competition_get(*, competition_id: int) -> Competition:
    competition = competition_list().filter(pk=competition_id).first()
    if competition is None:
        raise CompetitionNotFound(
            _("There is no competition %(competition_id)s.") % {"competition_id": competition_id}
        )
    return competition


def competition_players(*, competition: Competition) -> list[dict[str, Any]]:
    """The registered players (withdrawn ones left out), in order of registration."""
    return [
        {
            "id": row["player_id"],
            "name": row["player__display_name"],
            "registered_at": row["registered_at"],
        }
        for row in Registration.objects.filter(competition=competition, withdrawn_at__isnull=True)
        .order_by("registered_at", "id")
        .values("player_id", "player__display_name", "registered_at")
    ]


def competition_stages(
    *, competition: Competition, number: int | None = None
) -> list[dict[str, Any]]:
    """Each stage (or stage ``number`` alone) with its tables (the match, its status, whether
    the organiser locked it, and who sits where), its byes (who sat it out, and whether as a
    late entrant), its seating's version and whether it was reopened or went stale (three
    queries)."""
    stages = list(Stage.objects.filter(competition=competition).order_by("number"))
    if number is not None:
        stages = [stage for stage in stages if stage.number == number]
    byes: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for bye in (
        Bye.objects.filter(competition=competition)
        .order_by("stage_id", "player_id")
        .values("stage_id", "player_id", "player__display_name", "late_entry")
    ):
        byes[bye["stage_id"]].append(
            {
                "player_id": bye["player_id"],
                "name": bye["player__display_name"],
                "late_entry": bye["late_entry"],
            }
        )
    seats = (
        CompetitionMatch.objects.filter(competition=competition, stage__isnull=False)
        .order_by("stage__number", "table_number", "match__seats__position")
        .values(
            "stage_id",
            "table_number",
            "match_id",
            "finished",
            "locked",
            "match__status",
            "match__seats__position",
            "match__seats__player_id",
            "match__seats__player__display_name",
            "match__seats__player__kind",
        )
    )
    tables: dict[int, dict[int, dict[str, Any]]] = defaultdict(dict)
    for row in seats:
        table = tables[row["stage_id"]].setdefault(
            row["table_number"],
            {
                "table": row["table_number"],
                "match_id": row["match_id"],
                "match_status": row["match__status"],
                "results_in": row["finished"],
                "locked": row["locked"],
                "seats": [],
            },
        )
        if row["match__seats__position"] is not None:
            table["seats"].append(
                {
                    "position": row["match__seats__position"],
                    "player_id": row["match__seats__player_id"],
                    "name": row["match__seats__player__display_name"],
                    "bot": row["match__seats__player__kind"] == "bot",
                }
            )
    return [
        {
            "number": stage.number,
            "status": stage.status,
            "started_at": stage.started_at,
            "finished_at": stage.finished_at,
            "version": stage.version,
            "seating_reopened_at": stage.seating_reopened_at,
            "pairing_stale": stage.pairing_stale,
            "final_table": stage.final,
            "tables": list(tables[stage.pk].values()),
            "byes": byes[stage.pk],
        }
        for stage in stages
    ]
