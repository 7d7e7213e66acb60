"""How far each table match of an event has got: the figures of an organiser's dashboard."""

from __future__ import annotations

from typing import Any

from django.db.models import Count

from games.models import Match, Seat
from games.tables.models import ScoreEntry
from games.tables.review_states import round_review_states


def tables_progress(*, match_ids: list[int]) -> dict[int, dict[str, Any]]:
    """Per match id: its seats with names, rounds entered of rounds to play, whether it has
    finished, and how many of its rounds are confirmed and how many disputed (an open dispute;
    games/tables/review_states.py). Three queries, and the reviews of each table with rounds."""
    matches = Match.objects.filter(pk__in=match_ids).only("pk", "status", "options")
    entered = dict(
        ScoreEntry.objects.filter(match_id__in=match_ids)
        .values("match_id")
        .annotate(rounds=Count("number", distinct=True))
        .order_by()
        .values_list("match_id", "rounds")
    )
    seats: dict[int, list[dict[str, Any]]] = {}
    for seat in (
        Seat.objects.filter(match_id__in=match_ids)
        .select_related("player")
        .order_by("match_id", "position")
    ):
        seats.setdefault(seat.match_id, []).append(
            {
                "position": seat.position,
                "player_id": seat.player_id,
                "name": seat.player.display_name,
            }
        )
    reviews = {
        match.pk: list(round_review_states(match=match).values())
        for match in matches
        if entered.get(match.pk)
    }
    return {
        match.pk: {
            "seats": seats.get(match.pk, []),
            "rounds_entered": entered.get(match.pk, 0),
            "rounds": match.options.get("rounds"),
            "finished": match.status == Match.Status.FINISHED,
            "confirmed": sum(1 for r in reviews.get(match.pk, []) if r["status"] == "confirmed"),
            "disputed": sum(1 for r in reviews.get(match.pk, []) if r["disputed"]),
        }
        for match in matches
    }
