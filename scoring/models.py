"""Rows the scoring app keeps: round scores, match results, ratings and their history.

Scoring never imports ``games``: its foreign keys name games' models as strings. A round's row
is written by the move that ends the round (``round_results_record``); a match's result rows,
its finalisation marker and the rating changes by the end-of-match task (``match_finalise``).
docs/scoring.md describes the queries each index serves.
"""

from __future__ import annotations

from django.db import models

from scoring.ratings import UNRATED_REASONS

#: The C-WIN step that decided a seat's place (``shared``: none did).
DECIDED_BY_CHOICES = [
    ("total", "Lowest total"),
    ("zero_rounds", "Most rounds at zero"),
    ("lowest_round", "Lowest single non-zero round"),
    ("shared", "Shared place"),
]
VARIANT_CHOICES = [("chickenfoot", "Chicken Foot"), ("mexican_train", "Mexican Train")]
#: How a match is played (games' ``Match.Play``, by value).
PLAY_CHOICES = [("online", "Online"), ("table", "At a table")]


class RoundResult(models.Model):
    """One seat's score in one finished round."""

    # No index of its own: (match, round, seat) and (match, seat) lead with it.
    match = models.ForeignKey(
        "games.Match", on_delete=models.CASCADE, related_name="+", db_index=False
    )
    round_number = models.PositiveSmallIntegerField(help_text="1-based (C-ROUNDS).")
    seat = models.PositiveSmallIntegerField(help_text="0-based position at the table.")
    player = models.ForeignKey("games.Player", on_delete=models.PROTECT, related_name="+")
    points = models.PositiveIntegerField(help_text="C-PIPS left in hand at the round's end.")
    went_out = models.BooleanField(help_text="The seat emptied its hand and ended the round.")

    class Meta:
        ordering = ["match", "round_number", "seat"]
        constraints = [
            models.UniqueConstraint(
                fields=["match", "round_number", "seat"], name="roundresult_unique_seat"
            ),
        ]
        indexes = [
            # The finalise task's aggregate: a match's rows per seat.
            models.Index(
                fields=["match", "seat"],
                name="roundresult_match_seat",
                include=["player", "points"],
            ),
        ]

    def __str__(self) -> str:
        return f"Match {self.match_id} round {self.round_number} seat {self.seat}: {self.points}"


class MatchResult(models.Model):
    """One seat's result in one finished match: its place by C-WIN and the figures behind it.

    ``variant`` and ``finished_at`` copy the match's, so a player's history and statistics are
    read from this table (and its indexes) alone.
    """

    # No indexes of their own: the unique (match, seat) and the history index lead with them.
    match = models.ForeignKey(
        "games.Match", on_delete=models.CASCADE, related_name="scoring_results", db_index=False
    )
    player = models.ForeignKey(
        "games.Player", on_delete=models.PROTECT, related_name="scoring_results", db_index=False
    )
    seat = models.PositiveSmallIntegerField()
    seat_count = models.PositiveSmallIntegerField()
    place = models.PositiveSmallIntegerField(
        help_text="1 = best; shared places repeat (1, 2, 2, 4)."
    )
    total = models.PositiveIntegerField(help_text="Points over the match (lowest wins).")
    zero_rounds = models.PositiveSmallIntegerField(help_text="Rounds the seat scored 0 in.")
    lowest_round = models.PositiveIntegerField(
        null=True, blank=True, help_text="Lowest non-zero single-round score; null if none."
    )
    rounds_played = models.PositiveSmallIntegerField()
    decided_by = models.CharField(max_length=16, choices=DECIDED_BY_CHOICES)
    variant = models.CharField(max_length=16, choices=VARIANT_CHOICES)
    finished_at = models.DateTimeField()
    unrated_reason = models.CharField(
        max_length=24,
        blank=True,
        default="",
        db_default="",
        choices=UNRATED_REASONS,
        help_text="Why the match was not rated (the same on each of its rows); empty: it was.",
    )

    class Meta:
        ordering = ["match", "seat"]
        constraints = [
            # Not unique per (match, player): a bot level's player may hold several seats.
            models.UniqueConstraint(fields=["match", "seat"], name="matchresult_unique_seat"),
        ]
        indexes = [
            # A player's history, newest first (keyset on finished_at, id).
            models.Index(
                fields=["player", "-finished_at", "-id"], name="matchresult_player_history"
            ),
            # A player's statistics per variant: an index-only aggregate on PostgreSQL.
            models.Index(
                fields=["player", "variant"],
                name="matchresult_player_stats",
                include=["place", "total", "zero_rounds", "lowest_round", "rounds_played"],
            ),
            # The history's opponent filter and head-to-head: a match's row of one player.
            models.Index(fields=["match", "player"], name="matchresult_match_player"),
        ]

    def __str__(self) -> str:
        return f"Match {self.match_id} seat {self.seat}: place {self.place}"


class MatchFinalisation(models.Model):
    """The end-of-match marker: its primary key is the match, so one run only writes.

    The move that ends a match inserts it pending (``finalised_at`` null, ``queued_at`` set) in
    its own transaction; the end-of-match task claims it with a compare-and-set (``finalised_at``
    from null to now) before it writes; the sweeper queues the task again for a marker pending
    too long (``queued_at``: when it last was). ``engine_agreed`` records whether the order
    computed from the round rows equalled the engine's (a disagreement is logged as an error;
    the rows decide).

    A match that cannot be finalised is not retried for ever: ``attempts`` counts the times
    its task was queued (the end of the match, then each sweep), ``last_error`` keeps why the
    last run failed, and ``failed_at`` is set (and the sweeper stops) when a run finds the
    round rows incomplete (no retry can mend them) or after ``RESULTS_MAX_ATTEMPTS`` attempts.
    An organiser's ``POST /api/matches/{id}/finalise`` still runs it on demand.
    """

    match = models.OneToOneField(
        "games.Match", primary_key=True, on_delete=models.CASCADE, related_name="+"
    )
    queued_at = models.DateTimeField(
        null=True, blank=True, help_text="When the end-of-match task was last queued."
    )
    finalised_at = models.DateTimeField(
        null=True, blank=True, help_text="When the results were written; null while pending."
    )
    engine_agreed = models.BooleanField(null=True, blank=True)
    attempts = models.PositiveIntegerField(
        default=0, help_text="Times the end-of-match task was queued for this match."
    )
    failed_at = models.DateTimeField(
        null=True, blank=True, help_text="When the sweeper gave up on it; null otherwise."
    )
    last_error = models.TextField(blank=True, default="", help_text="Why the last run failed.")

    class Meta:
        indexes = [
            # The sweeper's question: which matches wait for their results, oldest first.
            models.Index(
                fields=["queued_at"],
                condition=models.Q(finalised_at__isnull=True, failed_at__isnull=True),
                name="finalisation_pending",
            ),
            # Operators' question: which matches the sweeper gave up on.
            models.Index(
                fields=["failed_at"],
                condition=models.Q(finalised_at__isnull=True, failed_at__isnull=False),
                name="finalisation_failed",
            ),
        ]

    def __str__(self) -> str:
        state = "pending" if self.finalised_at is None else "finalised"
        if self.finalised_at is None and self.failed_at is not None:
            state = "failed"
        return f"Match {self.match_id}: {state}"


class MatchRecompute(models.Model):
    """A corrected finished match waiting for its results to be computed again.

    The correction marks it pending (``done_at`` null, ``queued_at`` set) in its own
    transaction; the recompute task claims it with a compare-and-set (``done_at`` from null to
    now) and writes the new figures in the same transaction; the sweeper queues the task again
    for a marker pending too long. A later correction marks it pending again.
    """

    match = models.OneToOneField(
        "games.Match", primary_key=True, on_delete=models.CASCADE, related_name="+"
    )
    queued_at = models.DateTimeField(help_text="When the recompute task was last queued.")
    done_at = models.DateTimeField(
        null=True, blank=True, help_text="When the figures were last recomputed; null: pending."
    )
    attempts = models.PositiveIntegerField(default=1)

    class Meta:
        indexes = [
            # The sweeper's question: which corrected matches wait, oldest first.
            models.Index(
                fields=["queued_at"],
                condition=models.Q(done_at__isnull=True),
                name="recompute_pending",
            ),
        ]

    def __str__(self) -> str:
        return f"Match {self.match_id}: {'pending' if self.done_at is None else 'recomputed'}"


class Rating(models.Model):
    """A player's current skill in one variant (openskill, Plackett-Luce); bots are rated too,
    one rating per level (a match with two seats of one bot level rates it once, at its best
    place: ``ratings.rated_places``).

    ``ordinal`` = mu - 3 sigma (a conservative estimate: 99.7 % of the belief lies above it);
    ``display`` = round(1000 + 40 * ordinal) is what the leaderboard shows (a new player: 1000).
    """

    player = models.ForeignKey(
        "games.Player", on_delete=models.CASCADE, related_name="+", db_index=False
    )  # the unique (player, variant) leads with it
    variant = models.CharField(max_length=16, choices=VARIANT_CHOICES)
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()
    matches = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "variant"], name="rating_unique_variant"),
        ]
        indexes = [
            # The leaderboard: a variant's ratings, best first.
            models.Index(fields=["variant", "-ordinal", "player"], name="rating_leaderboard"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} {self.variant}: {self.ordinal:.2f}"


class RatingChange(models.Model):
    """What one finished match did to one player's rating."""

    # No indexes of their own: the trend index and the unique (match, player) lead with them.
    player = models.ForeignKey(
        "games.Player", on_delete=models.CASCADE, related_name="+", db_index=False
    )
    match = models.ForeignKey(
        "games.Match", on_delete=models.CASCADE, related_name="+", db_index=False
    )
    variant = models.CharField(max_length=16, choices=VARIANT_CHOICES)
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    ordinal_before = models.FloatField()
    ordinal_after = models.FloatField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "player"], name="ratingchange_unique_player"),
        ]
        indexes = [
            # A player's rating trend per variant, newest first.
            models.Index(
                fields=["player", "variant", "-id"],
                name="ratingchange_player_trend",
                include=["ordinal_before", "ordinal_after"],
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} in match {self.match_id}: {self.ordinal_after:.2f}"


# Tournaments and leagues.
from scoring.competition_models import (  # noqa: E402
    Bye,
    CheckIn,
    Competition,
    CompetitionMatch,
    CompetitionResult,
    CompetitionTotal,
    Registration,
    Stage,
)
from scoring.seating_models import KeepApart, SeatingChange  # noqa: E402

__all__ = [
    "Bye",
    "CheckIn",
    "Competition",
    "CompetitionMatch",
    "CompetitionResult",
    "CompetitionTotal",
    "KeepApart",
    "MatchFinalisation",
    "MatchRecompute",
    "MatchResult",
    "Rating",
    "RatingChange",
    "Registration",
    "RoundResult",
    "SeatingChange",
    "Stage",
]
