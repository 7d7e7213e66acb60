"""Reads: the audit of a competition's seating, every change its organiser made (the
organiser's eyes only; the competition's export carries it too)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from scoring.competitions.checkins import organiser_only
from scoring.models import Competition, Registration, SeatingChange
from scoring.ports import PlayerRef


def _named(change: SeatingChange) -> set[int]:
    """The player ids a change names: its entrants, its tables' seats, its byes."""
    ids = set(change.players)
    for table in change.tables:
        ids.update(p for p in (*table.get("before", []), *table.get("after", [])) if p is not None)
    for side in (change.byes or {}).values():
        ids.update(side)
    return ids


def seating_change_rows(*, competition: Competition) -> list[dict[str, Any]]:
    """Each change to the competition's seating, oldest first: the stage, the version it
    made, its kind, when, who (``player_id``, ``name``), why, the entrants it was about, the
    tables it touched (before and after), the byes when they changed, the clock's start or
    stop (kind ``clock``), and who each player id
    it names is (``entrants``: id, name, kind)."""
    changes = list(
        SeatingChange.objects.filter(competition=competition).select_related("by").order_by("pk")
    )
    people = {
        row["player_id"]: {
            "player_id": row["player_id"],
            "name": row["player__display_name"],
            "kind": row["player__kind"],
        }
        for row in Registration.objects.filter(competition=competition).values(
            "player_id", "player__display_name", "player__kind"
        )
    }
    return [
        {
            "stage": change.stage_number,
            "version": change.version,
            "kind": change.kind,
            "at": change.at,
            "by": {"player_id": change.by_id, "name": change.by.display_name},
            "reason": change.reason or None,
            "players": change.players,
            "tables": change.tables,
            "byes": change.byes,
            "clock": change.clock,
            "entrants": [people[p] for p in sorted(_named(change)) if p in people],
        }
        for change in changes
    ]


def seating_changes(*, competition: Competition, caller: PlayerRef) -> list[dict[str, Any]]:
    """``seating_change_rows``, for the organiser only (403)."""
    organiser_only(
        competition,
        caller,
        _("Only the organiser of competition %(competition)s can read its seating's changes."),
    )
    return seating_change_rows(competition=competition)
