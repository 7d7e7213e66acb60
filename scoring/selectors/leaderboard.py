"""The leaderboard of a variant: ratings, best first, ranked by the database."""

from __future__ import annotations

from django.db.models import F, QuerySet, Window
from django.db.models.functions import Rank

from scoring.models import Rating


def leaderboard(*, variant: str, min_matches: int = 1) -> QuerySet[Rating]:
    """The variant's rated players (guests excluded: a person without an account is on no
    leaderboard) with at least ``min_matches`` rated matches, ordered by
    ``ordinal`` (mu - 3 sigma) descending, then player id; ``rank`` by ``RANK() OVER`` (equal
    ordinals share a rank). Index ``rating_leaderboard``."""
    return (
        Rating.objects.filter(variant=variant, matches__gte=min_matches)
        .exclude(player__kind="guest")
        .annotate(
            rank=Window(Rank(), order_by=F("ordinal").desc()),
            name=F("player__display_name"),
            kind=F("player__kind"),
        )
        .order_by("-ordinal", "player_id")
    )
