"""Reads: a competition's standings, from its running totals, ranked by its order of tie-breaks.

Per registered player (withdrawn players are not listed), over the competition's finished
matches (``CompetitionResult``): matches played, wins (first places, a shared first counting as
a win for each sharer), placement points, total points, rounds played, mean points per round,
rounds at zero, best round (the lowest non-zero round score), byes (stages sat out, each worth
a win's placement points, which the placement points include), and the player's rating in the
competition's game: today's while it runs, the one kept at its finish once it has finished.

At an event with divisions each division is ranked on its own (``division``: one of them;
``None``: each in turn, in the divisions' order, each row naming its ``division``).

A tournament's final table (``scoring.competitions.final_table``) counts for none of these:
the Swiss totals and tie-breaks leave it out, and once it is played its places come first.

Order: the competition's ``tie_breaks`` (``scoring.competitions.tie_breaks`` says what each key
means; the default is placement points, wins, mean points per round, head-to-head), ranked by
``scoring.competitions.ranking``. Players still equal share the rank (``RANK()``: 1, 2, 2, 4).
A league ranks only players with at least ``min_matches`` finished matches; the others follow,
unranked.

The reads: one statement builds the row per registration from its running totals
(``CompetitionTotal``, which the end-of-match task keeps: one row per player however many
matches the competition has had). Only an order that uses them reads result rows: Buchholz
(every result row's match and player: one query), head-to-head (the results of the players a
group still tied holds, when it is reached: one query, none without a tie).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from django.db import connection
from django.db.models import (
    BigIntegerField,
    Count,
    F,
    FloatField,
    OuterRef,
    Subquery,
    Sum,
    Value,
)
from django.db.models.functions import Coalesce

from scoring.competitions import final_table, ranking
from scoring.competitions import tie_breaks as tb
from scoring.competitions.points import as_points
from scoring.models import Bye, Competition, CompetitionResult, Rating, Registration
from scoring.ratings import display_rating

#: The columns of a standings row, in CSV order (then the tie-breaks these do not hold).
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


def _base_rows(competition: Competition, division: str | None) -> list[dict[str, Any]]:
    """Per active registration (of ``division``, when given): its running totals, name,
    rating and whether it is ranked."""
    if competition.status == Competition.Status.FINISHED:
        rating: Any = F("rating_at_finish")  # kept when it finished: the CSV never changes
    else:
        rating = Subquery(
            Rating.objects.filter(
                player_id=OuterRef("player_id"), variant=competition.variant
            ).values("ordinal")[:1],
            output_field=FloatField(),
        )
    registrations = Registration.objects.filter(competition=competition, withdrawn_at__isnull=True)
    if division is not None:
        registrations = registrations.filter(division=division)
    rows = list(
        registrations.values("player_id")
        .annotate(
            name=F("player__display_name"),
            played=_total("matches"),
            wins=_total("wins"),
            placement_points=_total("placement_points"),
            total_points=_total("total_points"),
            rounds=_total("rounds"),
            zero_rounds=_total("zero_rounds"),
            best_round=F("totals__best_round"),
            rating=rating,
            byes=_total("byes"),
            left_at=F("dropped_at"),
        )
        .order_by()
    )
    for row in rows:
        row["ranked"] = row["played"] >= competition.min_matches
    return rows


def _meetings(competition: Competition) -> ranking.Meetings:
    """The result rows (match, player, place) of a set of players: for head-to-head."""

    def seats(players: set[int]) -> Iterable[ranking.Seat]:
        return (
            CompetitionResult.objects.filter(competition=competition, player_id__in=sorted(players))
            .exclude(stage__final=True)
            .values_list("match_id", "player_id", "place")
        )

    return seats


def _add_buchholz(competition: Competition, rows: list[dict[str, Any]]) -> None:
    """Each row's Buchholz and median Buchholz (thousandths), from every result row."""
    points = {row["player_id"]: row["placement_points"] for row in rows}
    seats = (
        CompetitionResult.objects.filter(competition=competition)
        .exclude(stage__final=True)
        .values_list("match_id", "player_id")
    )
    terms = ranking.buchholz_terms(seats.iterator(chunk_size=5000), points)
    for row in rows:
        mine = terms.get(row["player_id"], [])
        row[tb.BUCHHOLZ] = ranking.buchholz(mine)
        row[tb.MEDIAN_BUCHHOLZ] = ranking.median_buchholz(mine)


def _rows(competition: Competition, division: str | None = None) -> list[dict[str, Any]]:
    """The rows (of ``division``, when given) ranked by the competition's order, best first."""
    order = competition.order
    rows = _base_rows(competition, division)
    if tb.BUCHHOLZ in order or tb.MEDIAN_BUCHHOLZ in order:
        _add_buchholz(competition, rows)
    return ranking.rank(rows, order=order, meetings=_meetings(competition))


def _points(thousandths: int | None) -> float | None:
    return None if thousandths is None else float(as_points(thousandths))


def standings(*, competition: Competition, division: str | None = None) -> list[dict[str, Any]]:
    """The standings, best first (the module's docstring says how they are ordered; at an
    event with divisions, ``division``'s, or each division's in turn). A tie-break the order
    does not use shows ``None`` (Buchholz, head-to-head). Once a final table has been played,
    its places come first (``final_table``; ``final_place``)."""
    if competition.divisions and division is None:
        return [
            row
            for name in competition.division_names
            for row in standings(competition=competition, division=name)
        ]
    order = competition.order
    out = []
    for row in _rows(competition, division):
        ranked = bool(row["ranked"])
        rounds = row["rounds"]
        out.append(
            {
                "rank": row["rank"],
                "shared": ranked and row["tied"] > 1,
                "ranked": ranked,
                "player_id": row["player_id"],
                "name": row["name"],
                "matches": row["played"],
                "wins": row["wins"],
                "placement_points": float(as_points(row["placement_points"])),
                "total_points": row["total_points"],
                "rounds": rounds,
                "mean_points_per_round": (
                    round(row["total_points"] / rounds, 3) if rounds else None
                ),
                "rounds_at_zero": row["zero_rounds"],
                "best_round": row["best_round"],
                "head_to_head": row.get(tb.HEAD_TO_HEAD) if tb.HEAD_TO_HEAD in order else None,
                "buchholz": _points(row.get(tb.BUCHHOLZ)) if tb.BUCHHOLZ in order else None,
                "median_buchholz": (
                    _points(row.get(tb.MEDIAN_BUCHHOLZ)) if tb.MEDIAN_BUCHHOLZ in order else None
                ),
                "rating": None if row["rating"] is None else display_rating(row["rating"]),
                "byes": row["byes"],
                "dropped": row["left_at"] is not None,
                "division": division,
            }
        )
    players = {row["player_id"] for row in out} if division is not None else None
    return final_table.apply_final(out, final_table.final_places(competition, players))


def ranked_player_ids(*, competition: Competition, division: str | None = None) -> list[int]:
    """The registered players (of ``division``, when given), best first (ties: lower player
    id first): Swiss seating's input."""
    return [
        row["player_id"]
        for row in sorted(
            _rows(competition, division),
            key=lambda r: (not r["ranked"], r["place"], r["player_id"]),
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
    with a bye has no match, its bye's points and ``bye: true``. A final table is not among
    them (its results count apart)."""
    rows = (
        CompetitionResult.objects.filter(competition=competition, stage__isnull=False)
        .exclude(stage__final=True)  # counts apart: the final_place says what it gave
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


def tie_break_columns(order: list[str]) -> list[str]:
    """The CSV's columns for the tie-breaks of ``order`` that ``COLUMNS`` does not hold."""
    return [key for key in order if key not in COLUMNS]


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
