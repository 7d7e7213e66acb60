"""The leaderboard of a variant: ratings, best first, ranked by the database."""

from __future__ import annotations

from django.db.models import F, Q, QuerySet, Window
from django.db.models.functions import Rank

from scoring.models import Rating


def leaderboard(*, variant: str, min_matches: int = 1, bots: bool = False) -> QuerySet[Rating]:
    """The variant's rated players (guests excluded: a person without an account is on no
    leaderboard; bots, one player per level, only with ``bots``) with at least ``min_matches``
    rated matches, ordered by ``ordinal`` (mu - 3 sigma) descending, then player id; ``rank``
    by ``RANK() OVER`` (equal ordinals share a rank). Index ``rating_leaderboard``.

    A player whose ``profile_visibility`` is not ``everyone`` is on no leaderboard: a row is
    their rating, which their profile keeps from those it is hidden from (docs/api.md, "Who
    sees a profile"); the ranks are counted without them, the same for every reader."""
    rows = (
        Rating.objects.filter(variant=variant, matches__gte=min_matches)
        .filter(player__profile_visibility="everyone")
        .exclude(player__kind="guest")
    )
    if not bots:
        rows = rows.exclude(player__kind="bot")
    return rows.annotate(
        rank=Window(Rank(), order_by=F("ordinal").desc()),
        name=F("player__display_name"),
        kind=F("player__kind"),
    ).order_by("-ordinal", "player_id")


def leaderboard_position(
    *, variant: str, player_id: int, min_matches: int = 1, bots: bool = False
) -> int | None:
    """How many rows of the same leaderboard come before ``player_id``'s (0: the first), or
    ``None`` when the player is not on it. Two small queries on ``rating_leaderboard``."""
    board = leaderboard(variant=variant, min_matches=min_matches, bots=bots)
    own = board.filter(player_id=player_id).values_list("ordinal", flat=True).first()
    if own is None:
        return None
    return (
        Rating.objects.filter(pk__in=board.values("pk"))
        .filter(Q(ordinal__gt=own) | Q(ordinal=own, player_id__lt=player_id))
        .count()
    )


def leaderboard_rank(*, variant: str, player_id: int, bots: bool = False) -> int | None:
    """``player_id``'s rank on the variant's leaderboard as ``leaderboard`` ranks it (1 = best;
    equal ordinals share a rank: one more than the rows with a higher ordinal), or ``None`` when
    the player is not on it (a guest, no rated match). Two small queries on
    ``rating_leaderboard``."""
    board = leaderboard(variant=variant, bots=bots)
    own = board.filter(player_id=player_id).values_list("ordinal", flat=True).first()
    if own is None:
        return None
    return 1 + Rating.objects.filter(pk__in=board.values("pk"), ordinal__gt=own).count()
