"""Reads: a match's results as an app shows them, without joins of its own.

``match_standings`` is the one place the final order is read from and ``standing_row`` the one
place it is shaped (for HTTP and the socket's ``match_over`` alike): each place with its seat,
the player's id and display name, and the C-WIN tie-break fields. ``match_rounds`` lists the
rounds (start double, status, scores, how each ended, its commitment and, once over, its seed).
"""

from __future__ import annotations

from typing import Any

from django.db.models import Exists, Max, OuterRef, Prefetch

from games.models import Match, Move, Round, Seat
from games.tables.selectors import table_round_endings
from scoring.models import MatchRecompute, MatchResult
from scoring.selectors import rating_changes_of_matches
from scoring.services import recompute_pending

#: How a round ended (the ``round_ended`` event's ``reason``).
OUT = "out"
BLOCKED = "blocked"


#: The C-WIN criteria consulted to reach each ``decided_by`` (the engine's ``tiebreak`` trail).
TIEBREAK_TRAIL = {
    "total": ["total"],
    "zero_rounds": ["total", "zero_rounds"],
    "lowest_round": ["total", "zero_rounds", "lowest_round"],
    "shared": ["total", "zero_rounds", "lowest_round"],
}


def results_prefetch() -> Prefetch:
    """Load the result rows of a page of matches in one query (``match.result_rows``)."""
    return Prefetch(
        "scoring_results",
        queryset=MatchResult.objects.order_by("place", "seat"),
        to_attr="result_rows",
    )


def _result_rows(match: Match) -> list[MatchResult]:
    """The match's result rows, best first: prefetched, or read now (once) if it has finished."""
    rows: list[MatchResult] | None = getattr(match, "result_rows", None)
    if rows is None:
        rows = []
        if match.status == Match.Status.FINISHED:
            rows = list(MatchResult.objects.filter(match_id=match.pk).order_by("place", "seat"))
        match.result_rows = rows  # type: ignore[attr-defined]
    return rows


def ratings_attach(*, matches: list[Match]) -> None:
    """Load the rating changes of a page of matches in one query (read by ``match_standings``
    without a query per match)."""
    figures = rating_changes_of_matches(
        match_ids=[m.pk for m in matches if m.status == Match.Status.FINISHED]
    )
    for match in matches:
        match.rating_figures = {  # type: ignore[attr-defined]
            player_id: got for (match_id, player_id), got in figures.items() if match_id == match.pk
        }


def _rating_figures(match: Match) -> dict[int, dict[str, int]]:
    """The match's rating changes by player: attached, or read now (once)."""
    figures: dict[int, dict[str, int]] | None = getattr(match, "rating_figures", None)
    if figures is None:
        figures = {
            player_id: got
            for (_, player_id), got in rating_changes_of_matches(match_ids=[match.pk]).items()
        }
        match.rating_figures = figures  # type: ignore[attr-defined]
    return figures


def results_pending(*, match: Match) -> bool:
    """Finished, but the end-of-match task has not written its results yet, or a table
    match's correction waits for them to be computed again (docs/tables.md, Corrections)."""
    if match.status != Match.Status.FINISHED:
        return False
    if not _result_rows(match):
        return True
    if match.play != Match.Play.TABLE:
        return False
    waiting: bool | None = getattr(match, "recompute_waiting", None)  # a list's annotation
    return recompute_pending(match_id=match.pk) if waiting is None else waiting


def recompute_waiting() -> Exists:
    """An annotation for a page of matches: whether a correction waits for a recompute (read
    by ``results_pending`` without a query per match)."""
    return Exists(MatchRecompute.objects.filter(match_id=OuterRef("pk"), done_at__isnull=True))


def match_standings(*, match: Match) -> list[dict[str, Any]] | None:
    """The final order of a finished match (C-WIN), best first, from the result rows the
    end-of-match task wrote (``scoring``: the rows decide, not the engine's JSON); ``None``
    until the match is over and its results are written (``results_pending``).

    ``match``'s seats must be loaded with their players (``match_get`` does). Each place is a
    ``standing_row``.
    """
    rows = _result_rows(match)
    if not rows:
        return None
    seats = {seat.position: seat for seat in match.seats.all()}
    figures = _rating_figures(match)
    return [
        standing_row(
            seat=seats.get(row.seat),
            position=row.seat,
            place=row.place,
            player_id=row.player_id,
            total=row.total,
            zero_rounds=row.zero_rounds,
            lowest_round=row.lowest_round,
            decided_by=row.decided_by,
            rating=figures.get(row.player_id),
        )
        for row in rows
    ]


def match_unrated_reason(*, match: Match) -> str | None:
    """Why finished ``match`` was not rated (``scoring.ratings.unrated_reason``: one bot level
    at every seat, say), from its result rows; ``None`` while they are pending and when it
    was rated."""
    rows = _result_rows(match)
    return (rows[0].unrated_reason or None) if rows else None


def match_final_order(*, match: Match) -> list[dict[str, Any]] | None:
    """The final order as a finished match's ``match_over`` frame carries it: the rows of
    ``match_standings`` once the results are written; until then the engine's order
    (``Match.standings``) in the same shape, each seat's player and name read from its seat.
    ``None`` for a match that is not finished (an abandoned match has no standings).

    ``match``'s seats must be loaded with their players (``match_get`` does).
    """
    if match.status != Match.Status.FINISHED:
        return None
    written = match_standings(match=match)
    if written is not None:
        return written
    seats = {seat.position: seat for seat in match.seats.all()}
    out = []
    for entry in match.standings or []:
        seat = seats.get(entry["seat"])
        out.append(
            standing_row(
                seat=seat,
                position=entry["seat"],
                place=entry["place"],
                player_id=seat.player_id if seat is not None else None,
                total=entry["total"],
                zero_rounds=entry["zero_rounds"],
                lowest_round=entry["lowest_round"],
                decided_by=entry["decided_by"],
            )
        )
    return out


def standing_row(
    *,
    seat: Seat | None,
    position: int,
    place: int,
    player_id: int | None,
    total: int,
    zero_rounds: int,
    lowest_round: int | None,
    decided_by: str,
    rating: dict[str, int] | None = None,
) -> dict[str, Any]:
    """One place of a final order, as every channel shows it (HTTP and the socket alike).

    ``place`` (shared places repeat: 1, 2, 2, 4), ``seat``, ``player_id``, ``name`` (the
    player's display name), ``total``, ``zero_rounds`` (rounds scored at 0), ``lowest_round``
    (the lowest non-zero single-round score; ``None`` when every round was 0), ``decided_by``
    and ``tiebreak`` (the criteria it took to separate the seat from its neighbours);
    ``rating``, what the match did to the player's rating (``before``, ``after``, ``delta`` on
    the leaderboards' scale; ``None`` until it is rated, and for a seat without a player); and
    ``left`` (``resigned``, ``timed_out``) only when the seat's player left it to a bot.
    """
    player = seat.player if seat is not None else None
    row: dict[str, Any] = {
        "place": place,
        "seat": position,
        "player_id": player_id,
        "name": player.display_name if player is not None else None,
        "total": total,
        "zero_rounds": zero_rounds,
        "lowest_round": lowest_round,
        "decided_by": decided_by,
        "tiebreak": list(TIEBREAK_TRAIL[decided_by]),
        "rating": rating,
    }
    if seat is not None and seat.left:
        row["left"] = seat.left
    return row


def match_round_table(*, match: Match) -> dict[str, Any]:
    """The round-by-round scores so far: ``round_scores[r][seat]`` for round ``r + 1``, and
    ``totals`` per seat (zeros before any round is over)."""
    if match.play == Match.Play.TABLE:  # no engine state: the rounds entered
        scores = list(
            Round.objects.filter(match=match, status=Round.Status.FINISHED)
            .order_by("number")
            .values_list("scores", flat=True)
        )
    else:
        scores = [list(r) for r in (match.state or {}).get("scores", [])]
    totals = [sum(column) for column in zip(*scores, strict=True)] if scores else []
    return {"round_scores": scores, "totals": totals or [0] * match.seat_count}


def _round_endings(*, match: Match) -> dict[int, tuple[str, int | None]]:
    """``{round number: (reason, seat that went out)}`` from the ``round_ended`` events.

    A round's end is reported by the last move played in it (that move may also deal and end
    the next rounds, when they end as dealt), so only the last move of each round is read.
    """
    last = (
        Move.objects.filter(match=match)
        .values("round_id")
        .annotate(last=Max("seq"))
        .values_list("last", flat=True)
    )
    endings: dict[int, tuple[str, int | None]] = {}
    for events in Move.objects.filter(match=match, seq__in=list(last)).values_list(
        "events", flat=True
    ):
        for event in events:
            if event.get("type") == "round_ended":
                endings[event["round"]] = (event["reason"], event["seat"])
    return endings


def _ended_as_dealt(scores: list[int] | None) -> tuple[str, int | None]:
    """A round that ended as it was dealt, before any move (CF-START with one-tile hands).

    The engine reports no events for it: its starter placed their only tile, the start double,
    and went out. That seat holds nothing, so it is the one seat scoring 0 (``None`` if the
    scores do not single it out).
    """
    zeros = [seat for seat, points in enumerate(scores or []) if points == 0]
    return OUT, zeros[0] if len(zeros) == 1 else None


def match_rounds(*, match: Match) -> list[dict[str, Any]]:
    """Every round dealt so far, in order, as anyone who may view the match may see it.

    Nothing of a running round's hands or boneyard: its scores, end and seed are ``None`` until
    it is over (C-HIDDEN, C-SHUFFLE). ``ended_by`` is ``"out"`` (``went_out`` is the seat that
    played its last tile) or ``"blocked"`` (nobody could play: ``went_out`` is ``None``).
    """
    rows = list(
        Round.objects.filter(match=match)
        .order_by("number")
        .only(
            "number",
            "start_double",
            "status",
            "commitment",
            "seed_revealed",
            "scores",
            "started_at",
            "ended_at",
        )
    )
    over = [row for row in rows if row.status == Round.Status.FINISHED]
    if match.play == Match.Play.TABLE:  # no moves: the rounds as they were entered
        endings = table_round_endings(match=match)
    else:
        endings = _round_endings(match=match) if over else {}
    out = []
    for row in rows:
        finished = row.status == Round.Status.FINISHED
        ended_by: str | None = None
        went_out: int | None = None
        if finished:
            ended_by, went_out = endings.get(row.number) or _ended_as_dealt(row.scores)
        out.append(
            {
                "number": row.number,
                "start_double": [row.start_double, row.start_double],
                "status": row.status,
                "scores": list(row.scores) if finished and row.scores is not None else None,
                "ended_by": ended_by,
                "went_out": went_out,
                "commitment": row.commitment,
                "seed": row.seed_revealed if finished and row.seed_revealed else None,
                "started_at": row.started_at,
                "ended_at": row.ended_at if finished else None,
            }
        )
    return out
