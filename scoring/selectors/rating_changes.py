"""What a rated match did to each player's rating, on the leaderboards' scale (``display``):
one figure per ``RatingChange`` row, for history rows, a match's standings and the rating list.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import QuerySet

from scoring import ratings
from scoring.models import RatingChange


def rating_change_figures(change: RatingChange) -> dict[str, int]:
    """``before`` and ``after`` as the leaderboard shows a rating (``display``), and ``delta``
    = ``after - before`` (so the three always agree as shown)."""
    before = ratings.display_rating(change.ordinal_before)
    after = ratings.display_rating(change.ordinal_after)
    return {"before": before, "after": after, "delta": after - before}


def rating_changes_of_matches(*, match_ids: Iterable[int]) -> dict[tuple[int, int], dict[str, int]]:
    """The figures of every rating change of ``match_ids``, by (match, player): one query (the
    unique ``(match, player)`` index). A match not rated (yet) has none."""
    ids = list(set(match_ids))
    if not ids:
        return {}
    rows = RatingChange.objects.filter(match_id__in=ids).only(
        "match_id", "player_id", "ordinal_before", "ordinal_after"
    )
    return {(row.match_id, row.player_id): rating_change_figures(row) for row in rows}


def player_rating_changes(*, player_id: int, variant: str) -> QuerySet[RatingChange]:
    """A player's rating changes in ``variant``, newest first (index
    ``ratingchange_player_trend``; the API pages them by cursor on ``-id``)."""
    return RatingChange.objects.filter(player_id=player_id, variant=variant)


def rating_change_rows(*, changes: Iterable[RatingChange]) -> list[dict[str, Any]]:
    """One page of rating changes as the API shows them: the match, when it finished (the
    change's ``created_at`` is when it was rated), the figures and the openskill values."""
    return [
        {
            "match_id": change.match_id,
            "rated_at": change.created_at,
            **rating_change_figures(change),
            "mu": round(change.mu_after, 4),
            "sigma": round(change.sigma_after, 4),
            "ordinal": round(change.ordinal_after, 4),
        }
        for change in changes
    ]
