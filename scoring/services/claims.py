"""A guest's results moved to the account that claimed them (games/tables/claims.py)."""

from __future__ import annotations

from scoring.models import MatchResult, Rating, RatingChange, RoundResult


def player_results_move(*, from_player_id: int, to_player_id: int) -> None:
    """Give ``to_player_id`` every round row, result and rating change of ``from_player_id``.

    The caller has checked that the two never sat at one match (each table is unique per
    player) and holds those matches' locks. A rating moves too when the account has none in
    that game yet; otherwise the account keeps its own rating (the guest's matches count in its
    history and statistics, not again in its rating).
    """
    RoundResult.objects.filter(player_id=from_player_id).update(player_id=to_player_id)
    MatchResult.objects.filter(player_id=from_player_id).update(player_id=to_player_id)
    RatingChange.objects.filter(player_id=from_player_id).update(player_id=to_player_id)
    rated = set(Rating.objects.filter(player_id=to_player_id).values_list("variant", flat=True))
    Rating.objects.filter(player_id=from_player_id).exclude(variant__in=rated).update(
        player_id=to_player_id
    )
    Rating.objects.filter(player_id=from_player_id).delete()
