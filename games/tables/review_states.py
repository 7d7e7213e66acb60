"""What the match view shows of each table round's reviews: its confirmation status and its
dispute (reads only: games/tables/reviews.py writes them)."""

from __future__ import annotations

from typing import Any

from games.models import Match, Player, Seat
from games.tables.models import RoundReview, ScoreEntry, TableSettings
from scoring.competition_models import Competition, CompetitionMatch

Confirmation = TableSettings.Confirmation


def confirmation_of(*, match: Match) -> str:
    """The match's confirmation rule: its settings row's; without one, the rule of the table
    competition it counts for (a stage's table, a league's match); else ``nobody``."""
    row = TableSettings.objects.filter(match=match).values_list("confirmation", flat=True).first()
    if row is None:
        row = (
            CompetitionMatch.objects.filter(
                match_id=match.pk, competition__play=Competition.Play.TABLE
            )
            .values_list("competition__confirmation", flat=True)
            .first()
        )
    return row or Confirmation.NOBODY


def round_review_states(*, match: Match) -> dict[int, dict[str, Any]]:
    """Per round number: its confirmation ``status``, the seats that confirmed it, whether it is
    ``disputed``, its open ``dispute`` and its last ``resolution`` (for the match view).

    ``status``: ``entered`` (nobody need confirm, and nobody has), ``awaiting_confirmation``
    (the rule is not met yet) or ``confirmed``. Under ``every_seat`` the seat of the player who
    entered the scores counts as confirmed; only confirmations of the latest entry count.
    """
    rule = confirmation_of(match=match)
    latest: dict[int, ScoreEntry] = {}
    for entry in (
        ScoreEntry.objects.filter(match=match)
        .order_by("number", "pk")
        .only("pk", "number", "entered_by_id")
    ):
        latest[entry.number] = entry
    reviews: dict[int, list[RoundReview]] = {}
    for review in RoundReview.objects.filter(match=match).order_by("pk"):
        reviews.setdefault(review.number, []).append(review)
    account_seats = dict(
        Seat.objects.filter(match=match, player__kind=Player.Kind.HUMAN).values_list(
            "position", "player_id"
        )
    )
    states = {}
    for number, entry in latest.items():
        mine = reviews.get(number, [])
        confirmed = sorted(
            r.seat
            for r in mine
            if r.kind == RoundReview.Kind.CONFIRM and r.entry_id == entry.pk and r.seat is not None
        )
        states[number] = {
            "status": _status(rule, confirmed, account_seats, entry.entered_by_id),
            "confirmed_by": confirmed,
            **dispute_state(mine),
        }
    return states


def _status(
    rule: str, confirmed: list[int], account_seats: dict[int, int], entered_by: int | None
) -> str:
    if rule == Confirmation.NOBODY:
        return "confirmed" if confirmed else "entered"
    if rule == Confirmation.ANY_OTHER_SEAT:
        return "confirmed" if confirmed else "awaiting_confirmation"
    needed = {seat for seat, player_id in account_seats.items() if player_id != entered_by}
    return "confirmed" if needed <= set(confirmed) else "awaiting_confirmation"


def dispute_state(reviews: list[RoundReview]) -> dict[str, Any]:
    """``disputed``, the open ``dispute`` (the first since the last resolution) and the last
    ``resolution``, from one round's reviews in order."""
    dispute: RoundReview | None = None
    resolution: RoundReview | None = None
    for review in reviews:
        if review.kind == RoundReview.Kind.DISPUTE and dispute is None:
            dispute = review
        elif review.kind == RoundReview.Kind.RESOLVE and dispute is not None:
            resolution, dispute = review, None
    return {
        "disputed": dispute is not None,
        "dispute": _shown(dispute),
        "resolution": _shown(resolution),
    }


def _shown(review: RoundReview | None) -> dict[str, Any] | None:
    if review is None:
        return None
    return {
        "seat": review.seat,
        "player_id": review.player_id,
        "reason": review.reason,
        "at": review.created_at,
    }
