"""Reads: a competition's standings, computed by the database in one statement.

Per registered player (withdrawn players are not listed), over the competition's finished
matches (``CompetitionResult``): matches played, wins (first places, a shared first counting as
a win for each sharer), placement points, total points, rounds played, mean points per round,
rounds at zero, best round (the lowest non-zero round score), byes (stages sat out, each worth
a win's placement points, which the placement points include), and the player's rating in the
competition's game: today's while it runs, the one kept at its finish once it has finished.

Order (docs/scoring.md): placement points (more first), wins (more first), mean points per
round (lower first), then head-to-head among the players still tied: each meeting at a table
with a tied rival counts +1 for placing above them and -1 for placing below, and the higher
balance ranks first. Players still equal share the rank (``RANK()``: 1, 2, 2, 4). A league ranks
only players with at least ``min_matches`` finished matches; the others follow, unranked.

The statement: Django builds the row per registration from its running totals
(``CompetitionTotal``, which the end-of-match task keeps: one row per player however many
matches the competition has had) with a first ``RANK() OVER`` (the first three keys, per
ranked/unranked group); a common table expression wraps it, finds the players who share a first
rank, computes their head-to-head balances with a self-join of only their result rows, and
ranks again with the balance. The same SQL runs on PostgreSQL and SQLite (3.25+: window
functions).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.db import connection
from django.db.models import (
    BigIntegerField,
    Case,
    Count,
    F,
    FloatField,
    IntegerField,
    OuterRef,
    Q,
    Subquery,
    Sum,
    Value,
    When,
    Window,
)
from django.db.models.functions import Cast, Coalesce, NullIf, Rank

from scoring.competitions.points import as_points
from scoring.models import Bye, Competition, CompetitionResult, Rating, Registration
from scoring.ratings import display_rating

#: The columns of a standings row, in CSV order.
COLUMNS = (
    "rank",
    "shared",
    "ranked",
    "player_id",
    "name",
    "matches",
    "wins",
    "placement_points",
    "total_points",
    "rounds",
    "mean_points_per_round",
    "rounds_at_zero",
    "best_round",
    "head_to_head",
    "rating",
    "byes",
)


def _total(name: str) -> Coalesce:
    """A running total of the registration, 0 before its first finished match."""
    return Coalesce(F(f"totals__{name}"), Value(0), output_field=BigIntegerField())


def _aggregate(competition: Competition) -> Any:
    """Per active registration: its running totals and the first rank (Django builds it)."""
    played = _total("matches")
    rounds = _total("rounds")
    mean = Cast(F("totals__total_points"), FloatField()) / NullIf(
        Cast(F("totals__rounds"), FloatField()), Value(0.0)
    )
    ranked = Case(
        When(Q(played__gte=competition.min_matches), then=Value(1)),
        default=Value(0),
        output_field=IntegerField(),
    )
    if competition.status == Competition.Status.FINISHED:
        rating: Any = F("rating_at_finish")  # kept when it finished: the CSV never changes
    else:
        rating = Subquery(
            Rating.objects.filter(
                player_id=OuterRef("player_id"), variant=competition.variant
            ).values("ordinal")[:1],
            output_field=FloatField(),
        )
    return (
        Registration.objects.filter(competition=competition, withdrawn_at__isnull=True)
        .values("player_id")
        .annotate(
            name=F("player__display_name"),
            played=played,
            wins=_total("wins"),
            placement_points=_total("placement_points"),
            total_points=_total("total_points"),
            rounds=rounds,
            mean=mean,
            zero_rounds=_total("zero_rounds"),
            best_round=F("totals__best_round"),
            rating=rating,
            byes=_total("byes"),
            left_at=F("dropped_at"),
        )
        .annotate(
            ranked=ranked,
            first_rank=Window(
                Rank(),
                partition_by=[ranked],
                order_by=[
                    F("placement_points").desc(),
                    F("wins").desc(),
                    F("mean").asc(nulls_last=True),
                ],
            ),
        )
        .order_by()
    )


_STANDINGS_SQL = """
WITH base AS ({base}),
tied AS (
    SELECT player_id, ranked, first_rank FROM (
        SELECT player_id, ranked, first_rank,
               COUNT(*) OVER (PARTITION BY ranked, first_rank) AS sharing
        FROM base
    ) counted
    WHERE sharing > 1
),
h2h AS (
    SELECT a.player_id AS player_id,
           SUM(CASE WHEN a.place < b.place THEN 1 WHEN a.place > b.place THEN -1 ELSE 0 END)
               AS balance
    FROM tied ta
    JOIN {results} a ON a.competition_id = %s AND a.player_id = ta.player_id
    JOIN {results} b
      ON b.competition_id = a.competition_id AND b.match_id = a.match_id
     AND b.player_id <> a.player_id
    JOIN tied tb ON tb.player_id = b.player_id
     AND tb.ranked = ta.ranked AND tb.first_rank = ta.first_rank
    GROUP BY a.player_id
),
ranked AS (
    SELECT base.*, COALESCE(h2h.balance, 0) AS head_to_head,
           RANK() OVER (
               PARTITION BY base.ranked
               ORDER BY base.first_rank, COALESCE(h2h.balance, 0) DESC
           ) AS final_rank
    FROM base LEFT JOIN h2h ON h2h.player_id = base.player_id
)
SELECT player_id, name, played, wins, placement_points, total_points, rounds, mean,
       zero_rounds, best_round, rating, byes, left_at, ranked, head_to_head, final_rank,
       COUNT(*) OVER (PARTITION BY ranked, final_rank) AS tied
FROM ranked
ORDER BY ranked DESC, final_rank, name, player_id
"""


def _rows(competition: Competition) -> list[dict[str, Any]]:
    base_sql, base_params = _aggregate(competition).query.sql_with_params()
    sql = _STANDINGS_SQL.format(base=base_sql, results=CompetitionResult._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(sql, [*base_params, competition.pk])
        names = [column[0] for column in cursor.description]
        return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]


def standings(*, competition: Competition) -> list[dict[str, Any]]:
    """The standings, best first (the module's docstring says how they are ordered)."""
    out = []
    for row in _rows(competition):
        ranked = bool(row["ranked"])
        mean = row["mean"]
        out.append(
            {
                "rank": row["final_rank"] if ranked else None,
                "shared": ranked and row["tied"] > 1,
                "ranked": ranked,
                "player_id": row["player_id"],
                "name": row["name"],
                "matches": row["played"],
                "wins": row["wins"],
                "placement_points": float(as_points(row["placement_points"])),
                "total_points": row["total_points"],
                "rounds": row["rounds"],
                "mean_points_per_round": None if mean is None else round(float(mean), 3),
                "rounds_at_zero": row["zero_rounds"],
                "best_round": row["best_round"],
                "head_to_head": row["head_to_head"],
                "rating": None if row["rating"] is None else display_rating(row["rating"]),
                "byes": row["byes"],
                "dropped": row["left_at"] is not None,
            }
        )
    return out


def ranked_player_ids(*, competition: Competition) -> list[int]:
    """The registered players, best first (ties: lower player id first): Swiss seating's input."""
    return [
        row["player_id"]
        for row in sorted(
            _rows(competition),
            key=lambda r: (-r["ranked"], r["final_rank"], r["player_id"]),
        )
    ]


_MET_SQL = """
SELECT a.player_id, b.player_id, COUNT(*) FROM {results} a
JOIN {results} b
  ON b.competition_id = a.competition_id AND b.match_id = a.match_id AND a.player_id < b.player_id
WHERE a.competition_id = %s
GROUP BY a.player_id, b.player_id
"""


def met_counts(*, competition: Competition) -> dict[frozenset[int], int]:
    """How often each pair of registered players has shared a table (one grouped self-join)."""
    sql = _MET_SQL.format(results=CompetitionResult._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(sql, [competition.pk])
        return {frozenset((a, b)): count for a, b, count in cursor.fetchall()}


def points_by_stage(*, competition: Competition) -> dict[int, list[dict[str, Any]]]:
    """Each player's placement points per stage (tournaments), stage order; a stage sat out
    with a bye has no match, its bye's points and ``bye: true``."""
    rows = (
        CompetitionResult.objects.filter(competition=competition, stage__isnull=False)
        .values("player_id", "stage__number")
        .annotate(points=Sum("placement_points"), matches=Count("id"))
        .order_by()
    )
    byes = Bye.objects.filter(competition=competition).values(
        "player_id", "stage__number", "placement_points"
    )
    entries = [
        (row["player_id"], row["stage__number"], row["matches"], row["points"], False)
        for row in rows
    ] + [(b["player_id"], b["stage__number"], 0, b["placement_points"], True) for b in byes]
    out: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for player_id, stage, matches, thousandths, bye in sorted(entries):
        out[player_id].append(
            {
                "stage": stage,
                "matches": matches,
                "placement_points": float(as_points(thousandths)),
                "bye": bye,
            }
        )
    return dict(out)


def stage_columns(stage_count: int | None) -> list[str]:
    """The CSV's columns of points per stage: ``stage_1`` … ``stage_<n>`` (none for a league)."""
    return [f"stage_{number}" for number in range(1, (stage_count or 0) + 1)]


def stage_cells(by_stage: list[dict[str, Any]], stage_count: int | None) -> list[float | None]:
    """A row's points per stage (``points_by_stage``), one cell per stage: the placement
    points scored there, a bye's points for a stage sat out with a bye, empty (``None``) for
    a stage the player did not play (not started yet, a no-show, a drop-out)."""
    scored = {entry["stage"]: entry["placement_points"] for entry in by_stage}
    return [scored.get(number) for number in range(1, (stage_count or 0) + 1)]


def points_by_match(*, competition: Competition) -> tuple[list[int], dict[int, dict[int, float]]]:
    """A league's finished matches in the order their results were written, and each player's
    placement points at each of them (``{player_id: {match_id: points}}``)."""
    rows = (
        CompetitionResult.objects.filter(competition=competition)
        .order_by("pk")
        .values_list("match_id", "player_id", "placement_points")
    )
    matches: list[int] = []
    points: dict[int, dict[int, float]] = defaultdict(dict)
    for match_id, player_id, thousandths in rows:
        if match_id not in matches:
            matches.append(match_id)
        points[player_id][match_id] = float(as_points(thousandths))
    return matches, dict(points)
