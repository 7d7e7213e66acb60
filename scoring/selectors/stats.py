"""A player's statistics: one aggregate over their result rows, and their ratings' trend."""

from __future__ import annotations

from typing import Any

from django.db.models import Avg, Count, Min, Q, Sum

from scoring import ratings
from scoring.models import MatchResult, Rating, RatingChange

#: How many of a player's latest matches the rating trend spans.
TREND_MATCHES = 10


def player_statistics(*, player_id: int, variant: str | None = None) -> dict[str, Any]:
    """``player_id``'s figures over their finished matches (of ``variant``, or all).

    ``wins`` counts first places, shared ones included; ``win_share`` = wins / matches;
    ``mean_round_score`` = points / rounds played; ``best_round`` is the lowest non-zero
    single-round score (as C-WIN's tie-break and the standings read it; rounds at zero are
    ``rounds_at_zero``), null if none. One index-only aggregate
    (``matchresult_player_stats``), then one query per rated variant for the trend.
    """
    results = MatchResult.objects.filter(player_id=player_id)
    if variant:
        results = results.filter(variant=variant)
    figures = results.aggregate(
        matches=Count("pk"),
        wins=Count("pk", filter=Q(place=1)),
        points=Sum("total"),
        rounds=Sum("rounds_played"),
        zero_rounds=Sum("zero_rounds"),
        best_round=Min("lowest_round"),
        mean_place=Avg("place"),
    )
    matches = figures["matches"]
    rounds = figures["rounds"] or 0
    zero_rounds = figures["zero_rounds"] or 0
    return {
        "player_id": player_id,
        "variant": variant,
        "matches": matches,
        "wins": figures["wins"],
        "win_share": round(figures["wins"] / matches, 4) if matches else None,
        "mean_place": round(figures["mean_place"], 3) if matches else None,
        "rounds": rounds,
        "mean_round_score": round(figures["points"] / rounds, 3) if rounds else None,
        "rounds_at_zero": zero_rounds,
        "best_round": figures["best_round"],
        "ratings": player_ratings(player_id=player_id, variant=variant),
    }


def player_ratings(*, player_id: int, variant: str | None = None) -> list[dict[str, Any]]:
    """The player's rating per variant with its trend over their last ``TREND_MATCHES``."""
    rows = Rating.objects.filter(player_id=player_id).order_by("variant")
    if variant:
        rows = rows.filter(variant=variant)
    out = []
    for rating in rows:
        recent = list(
            RatingChange.objects.filter(player_id=player_id, variant=rating.variant)
            .order_by("-id")
            .values_list("ordinal_before", "ordinal_after")[:TREND_MATCHES]
        )
        trend = rating.ordinal - recent[-1][0] if recent else 0.0
        display = ratings.display_rating(rating.ordinal)
        display_before = ratings.display_rating(recent[-1][0]) if recent else display
        out.append(
            {
                "variant": rating.variant,
                "mu": round(rating.mu, 4),
                "sigma": round(rating.sigma, 4),
                "ordinal": round(rating.ordinal, 4),
                "display": display,
                "matches": rating.matches,
                "trend": round(trend, 4),
                "display_trend": display - display_before,
                "trend_matches": len(recent),
                "recent": [round(after, 4) for _, after in reversed(recent)],
            }
        )
    return out


def rating_series(*, player_id: int, variant: str, limit: int = 50) -> list[tuple[int, int]]:
    """``(match id, display rating after it)`` for the player's last ``limit`` rated matches of
    ``variant``, oldest first, starting from the rating before the first of them (match id 0).
    One index-only read (``ratingchange_player_trend``)."""
    rows = list(
        RatingChange.objects.filter(player_id=player_id, variant=variant)
        .order_by("-id")
        .values_list("match_id", "ordinal_before", "ordinal_after")[:limit]
    )
    rows.reverse()
    if not rows:
        return []
    series = [(0, ratings.display_rating(rows[0][1]))]
    series += [(match_id, ratings.display_rating(after)) for match_id, _, after in rows]
    return series
