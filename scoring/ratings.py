"""Skill ratings: openskill's Plackett-Luce model, one rating per player and variant.

A match is a free-for-all of one-player teams ranked by place (shared places are ties), rated
when at least two distinct players took part (``unrated_reason``). The leaderboard orders by
``ordinal = mu - 3 sigma`` and shows ``display = round(1000 + 40 * ordinal)``: a new player
(mu 25, sigma 25/3) has ordinal 0 and shows 1000.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from openskill.models import PlackettLuce

MU = 25.0
SIGMA = 25.0 / 3.0
DISPLAY_BASE = 1000
DISPLAY_SCALE = 40

MODEL = PlackettLuce(mu=MU, sigma=SIGMA)

#: Why a finished match was not rated (its result rows' ``unrated_reason``; empty when it was):
#: every seat was held by one player (a table of one bot level), and a rating compares two; or
#: its people could ask for hints (a casual match: ``HINTS``).
SINGLE_RATED_PLAYER = "single_rated_player"
HINTS = "hints"
UNRATED_REASONS = [
    (SINGLE_RATED_PLAYER, "One player held every seat"),
    (HINTS, "A casual match with hints"),
]


def ordinal(mu: float, sigma: float) -> float:
    """The conservative skill estimate the leaderboard orders by."""
    return mu - 3 * sigma


def display_rating(value: float) -> int:
    """What apps show for an ordinal."""
    return round(DISPLAY_BASE + DISPLAY_SCALE * value)


def rate(before: list[tuple[float, float]], places: list[int]) -> list[tuple[float, float]]:
    """New (mu, sigma) per player after one match, given each one's (mu, sigma) and place; at
    least two players (``unrated_reason`` says whether a match has them)."""
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in before]
    after = MODEL.rate(teams, ranks=[float(place) for place in places])
    return [(team[0].mu, team[0].sigma) for team in after]


def rated_places(rows: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The rows a match is rated by: one per player, at their best place. A bot level's one
    player may hold several seats of a match; it is rated once there (openskill's teams are
    distinct players), at the best place its seats reached. Each kept row is the first of its
    player's in ``rows`` with that place; the order of first appearance is kept."""
    best: dict[int, dict[str, Any]] = {}
    for row in rows:
        kept = best.get(row["player_id"])
        if kept is None or row["place"] < kept["place"]:
            best[row["player_id"]] = dict(row)
    return list(best.values())


def unrated_reason(rows: Iterable[Mapping[str, Any]]) -> str:
    """Why the match of result ``rows`` (one per seat, with ``player_id``) is not rated, or
    ``""`` when it is: a rating compares players, so it takes two distinct ones. A table whose
    seats one bot level held (its one player) is ``SINGLE_RATED_PLAYER``."""
    return "" if len({row["player_id"] for row in rows}) >= 2 else SINGLE_RATED_PLAYER
