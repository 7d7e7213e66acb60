"""Head-to-head: two players' record in the matches they both sat at."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, F, Q, Sum

from scoring.models import MatchResult


def head_to_head(*, player_id: int, opponent_id: int, variant: str | None = None) -> dict[str, Any]:
    """The matches ``player_id`` and ``opponent_id`` played together (of ``variant``, or all):
    how many, how often each placed higher (and level), their points and first places there.

    One aggregate: the player's rows joined to the opponent's rows of the same match (the
    ``matchresult_match_player`` index), never a loop over matches. A bot level's player may
    hold several seats of a match: ``matches`` counts the match once, the other figures count
    each pair of seats (a bot's two seats are two opponents there).
    """
    rows = MatchResult.objects.filter(
        player_id=player_id, match__scoring_results__player_id=opponent_id
    )
    if variant:
        rows = rows.filter(variant=variant)
    their_place = F("match__scoring_results__place")
    figures = rows.aggregate(
        matches=Count("match", distinct=True),
        higher=Count("pk", filter=Q(place__lt=their_place)),
        lower=Count("pk", filter=Q(place__gt=their_place)),
        level=Count("pk", filter=Q(place=their_place)),
        points=Sum("total"),
        their_points=Sum("match__scoring_results__total"),
        wins=Count("pk", filter=Q(place=1)),
        their_wins=Count("pk", filter=Q(match__scoring_results__place=1)),
    )
    return {
        "player_id": player_id,
        "opponent_id": opponent_id,
        "variant": variant,
        "matches": figures["matches"],
        "player_placed_higher": figures["higher"],
        "opponent_placed_higher": figures["lower"],
        "level": figures["level"],
        "player_points": figures["points"] or 0,
        "opponent_points": figures["their_points"] or 0,
        "player_wins": figures["wins"],
        "opponent_wins": figures["their_wins"],
    }
