"""A player's history: their result rows, newest first, with who else sat at each table."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from django.apps import apps
from django.db.models import F, QuerySet

from scoring.models import MatchResult
from scoring.ports import games_port
from scoring.selectors.rating_changes import rating_changes_of_matches


def player_exists(*, player_id: int) -> bool:
    # Through the app registry: scoring never imports games (pyproject's import contract).
    return apps.get_model("games", "Player").objects.filter(pk=player_id).exists()


def player_names(*, player_ids: list[int]) -> dict[int, str]:
    """The display names of ``player_ids`` (those that name a player), in one query."""
    players = apps.get_model("games", "Player").objects.filter(pk__in=player_ids)
    return dict(players.values_list("pk", "display_name"))


def player_history(*, player_id: int) -> QuerySet[MatchResult]:
    """The result rows of ``player_id`` (index ``matchresult_player_history``); the API filters
    them (``scoring.filters.HistoryFilter``) and pages them by (finished_at, id), newest first."""
    return MatchResult.objects.filter(player_id=player_id).annotate(play=F("match__play"))


def history_rows(*, results: Iterable[MatchResult]) -> list[dict[str, Any]]:
    """One page of history as the API shows it: each row with every seat of its match (one
    query for the page, by the ``(match, seat)`` unique index) and what the match did to the
    player's rating and to every seat's (one more: ``rating_changes_of_matches``; null if it is
    not rated, and ``unrated_reason`` then says why, if it never will be), each seat with its
    player's avatar URLs (one more, by the games app: ``avatar_urls``)."""
    page = list(results)
    changes = rating_changes_of_matches(match_ids=[r.match_id for r in page])
    seats: dict[int, list[dict[str, Any]]] = defaultdict(list)
    seat_rows = list(
        MatchResult.objects.filter(match_id__in=[r.match_id for r in page])
        .order_by("match_id", "seat")
        .values("match_id", "seat", "player_id", "place", "total", name=F("player__display_name"))
    )
    avatars = games_port().avatar_urls(player_ids={row["player_id"] for row in seat_rows})
    for row in seat_rows:
        match_id = row.pop("match_id")
        row["rating"] = changes.get((match_id, row["player_id"]))
        row.update(avatars[row["player_id"]])
        seats[match_id].append(row)
    return [
        {
            "match_id": r.match_id,
            "variant": r.variant,
            "play": r.play,  # type: ignore[attr-defined]
            "finished_at": r.finished_at,
            "seat": r.seat,
            "place": r.place,
            "total": r.total,
            "zero_rounds": r.zero_rounds,
            "lowest_round": r.lowest_round,
            "rounds_played": r.rounds_played,
            "decided_by": r.decided_by,
            "rating": changes.get((r.match_id, r.player_id)),
            "unrated_reason": r.unrated_reason or None,
            "seats": seats[r.match_id],
        }
        for r in page
    ]
