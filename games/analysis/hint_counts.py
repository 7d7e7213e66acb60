"""How many hints each seat of a match used (the match's summary and record show them)."""

from __future__ import annotations

from games.models import Match

from .models import HintUse


def hints_used(*, match: Match) -> list[int] | None:
    """Per seat, the hints it was given; ``None`` for a match without hints."""
    if not match.hints:
        return None
    counts = [0] * match.seat_count
    for seat in HintUse.objects.filter(match_id=match.pk).values_list("seat", flat=True):
        if 0 <= seat < len(counts):
            counts[seat] += 1
    return counts
