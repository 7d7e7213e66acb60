"""Reads: a competition's entrants, as its organiser sees them at the door."""

from __future__ import annotations

from typing import Any

from django.db.models import Exists, OuterRef

from scoring.competitions.checkins import TABLE, next_stage
from scoring.models import CheckIn, Competition, Registration

#: An entrant's kind: a player with an account, or a guest.
ENTRANT_KINDS = ["human", "guest"]


def entrants_list(
    *, competition: Competition, player_ids: list[int] | None = None
) -> list[dict[str, Any]]:
    """The entrants (withdrawn ones left out; all, or those of ``player_ids``), in order of
    entry: who they are, their club, seed and division, the first stage they may play, whether they
    dropped out, and, at a table event, whether they are checked in for the next stage."""
    rows = Registration.objects.filter(competition=competition, withdrawn_at__isnull=True)
    if player_ids is not None:
        rows = rows.filter(player_id__in=player_ids)
    checked = CheckIn.objects.filter(
        registration=OuterRef("pk"), stage_number=next_stage(competition)
    )
    table = competition.play == TABLE
    return [
        {
            "player_id": row["player_id"],
            "name": row["player__display_name"],
            "kind": row["player__kind"],
            "club": row["club"],
            "seed": row["seed"],
            "registered_at": row["registered_at"],
            "added_by_organiser": row["added_by_organiser"],
            "first_stage": row["first_stage"],
            "dropped": row["dropped_at"] is not None,
            "checked_in": row["checked_in"] if table else None,
            "division": row["division"] if competition.divisions else None,
        }
        for row in rows.annotate(checked_in=Exists(checked))
        .order_by("registered_at", "pk")
        .values(
            "player_id",
            "player__display_name",
            "player__kind",
            "club",
            "seed",
            "registered_at",
            "added_by_organiser",
            "first_stage",
            "dropped_at",
            "checked_in",
            "division",
        )
    ]
