"""A guest's results moved to the account that claimed them (games/tables/claims.py): round
rows, results and ratings, and a guest entrant's competition entries with theirs."""

from __future__ import annotations

from scoring.models import (
    Bye,
    Competition,
    CompetitionResult,
    KeepApart,
    MatchResult,
    Rating,
    RatingChange,
    Registration,
    RoundResult,
)


def shared_competitions(*, from_player_id: int, to_player_id: int) -> list[int]:
    """The competitions both players have entered (withdrawn or not): one person has one
    entry in a competition, so a claim between them is refused."""
    entered = Registration.objects.filter(player_id=to_player_id).values("competition_id")
    return sorted(
        Registration.objects.filter(
            player_id=from_player_id, competition_id__in=entered
        ).values_list("competition_id", flat=True)
    )


def entries_lock(*, player_id: int) -> list[int]:
    """Lock the competitions ``player_id`` has entered, in id order (after the matches: the
    order every writer of both keeps); their ids."""
    ids = list(
        Registration.objects.filter(player_id=player_id)
        .order_by("competition_id")
        .values_list("competition_id", flat=True)
    )
    for competition_id in ids:
        Competition.objects.select_for_update().filter(pk=competition_id).values_list("pk").first()
    return ids


def has_entries(*, player_id: int) -> bool:
    """Whether ``player_id`` has a competition entry (a guest entrant's, to claim)."""
    return Registration.objects.filter(player_id=player_id).exists()


def player_results_move(*, from_player_id: int, to_player_id: int) -> None:
    """Give ``to_player_id`` every round row, result and rating change of ``from_player_id``,
    and every competition entry with its results, byes and the pairs it is kept apart in.

    The caller has checked that the two never sat at one match (each table is unique per
    player) nor entered one competition (``shared_competitions``), and holds those matches'
    locks. A rating moves too when the account has none in that game yet; otherwise the
    account keeps its own rating (the guest's matches count in its history and statistics, not
    again in its rating).
    """
    RoundResult.objects.filter(player_id=from_player_id).update(player_id=to_player_id)
    MatchResult.objects.filter(player_id=from_player_id).update(player_id=to_player_id)
    RatingChange.objects.filter(player_id=from_player_id).update(player_id=to_player_id)
    rated = set(Rating.objects.filter(player_id=to_player_id).values_list("variant", flat=True))
    Rating.objects.filter(player_id=from_player_id).exclude(variant__in=rated).update(
        player_id=to_player_id
    )
    Rating.objects.filter(player_id=from_player_id).delete()
    Registration.objects.filter(player_id=from_player_id).update(player_id=to_player_id)
    CompetitionResult.objects.filter(player_id=from_player_id).update(player_id=to_player_id)
    Bye.objects.filter(player_id=from_player_id).update(player_id=to_player_id)
    pairs = list(
        KeepApart.objects.filter(player_a_id=from_player_id)
        | KeepApart.objects.filter(player_b_id=from_player_id)
    )
    KeepApart.objects.filter(pk__in=[pair.pk for pair in pairs]).delete()
    moved = set()
    for pair in pairs:
        a, b = (
            to_player_id if p == from_player_id else p for p in (pair.player_a_id, pair.player_b_id)
        )
        moved.add((pair.competition_id, min(a, b), max(a, b)))
    KeepApart.objects.bulk_create(
        KeepApart(competition_id=c, player_a_id=a, player_b_id=b) for c, a, b in sorted(moved)
    )
