"""A competition's full results, for its organiser to keep: every match, round, seat and score
entry, as one document (``competition_export``) or as flat rows (``export_rows``).

Reads only. What it holds is what the match records publish: seats, places, each finished
round's points (and, for a table match, the tiles a scorer entered and the score sheet's whole
trail: entries, corrections, confirmations, disputes, resolutions, reopenings), and every change the
organiser made to a stage's seating (``seating_changes``: who, when, what, why). Never a hand
of an online match, a boneyard or a seed.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from games.models import Match, Player, Round, Seat
from games.problems import NotOrganiser
from games.tables.models import MatchReopening, RoundReview, ScoreEntry
from scoring.competition_models import CompetitionMatch
from scoring.competitions.seating_audit import seating_change_rows
from scoring.competitions.selectors import competition_get
from scoring.models import MatchResult, RoundResult

#: A score-sheet event's ``kind``: a review's, by its own kind.
REVIEW_KINDS = {
    RoundReview.Kind.CONFIRM: "confirmed",
    RoundReview.Kind.DISPUTE: "disputed",
    RoundReview.Kind.RESOLVE: "resolved",
}
#: The CSV's columns, in order (docs/tables.md, "Export").
COLUMNS = [
    "competition_id",
    "stage",
    "table",
    "match_id",
    "match_status",
    "play",
    "event",
    "event_at",
    "by_player_id",
    "by_name",
    "by_scorer_link_id",
    "reason",
    "round",
    "start_double",
    "current",
    "seat",
    "player_id",
    "kind",
    "name",
    "points",
    "went_out",
    "tiles",
    "points_before",
    "place",
    "total",
]


def competition_export(*, competition_id: int, player: Player) -> dict[str, Any]:
    """The full results of competition ``competition_id``, for its organiser only (403
    ``not_organiser`` for anyone else; 404 ``competition_not_found``)."""
    competition = competition_get(competition_id=competition_id)
    if competition.organiser_id != player.pk:
        raise NotOrganiser(
            _("Only the organiser of competition %(competition)s exports its results.")
            % {"competition": competition.pk}
        )
    links = list(
        CompetitionMatch.objects.filter(competition=competition)
        .select_related("stage")
        .order_by("stage__number", "table_number", "match_id")
    )
    match_ids = [link.match_id for link in links]
    return {
        "competition": {
            "id": competition.pk,
            "name": competition.name,
            "kind": competition.kind,
            "play": competition.play,
            "variant": competition.variant,
            "status": competition.status,
            "stage_count": competition.stage_count,
            "final_table": competition.final_table,
        },
        "exported_at": timezone.now(),
        "matches": _matches(links, match_ids),
        "seating_changes": seating_change_rows(competition=competition),
    }


def _matches(links: list[CompetitionMatch], match_ids: list[int]) -> list[dict[str, Any]]:
    matches = Match.objects.in_bulk(match_ids)
    seats: dict[int, list[Seat]] = {}
    for seat in (
        Seat.objects.filter(match_id__in=match_ids).select_related("player").order_by("position")
    ):
        seats.setdefault(seat.match_id, []).append(seat)
    places: dict[int, dict[int, MatchResult]] = {}
    for result in MatchResult.objects.filter(match_id__in=match_ids):
        places.setdefault(result.match_id, {})[result.seat] = result
    rounds = _rounds(match_ids)
    trails = _trails(match_ids)
    out = []
    for link in links:
        match = matches[link.match_id]
        results = places.get(match.pk, {})
        out.append(
            {
                "match_id": match.pk,
                "stage": link.stage.number if link.stage is not None else None,
                "final_table": link.stage is not None and link.stage.final,
                "table": link.table_number,
                "status": match.status,
                "play": match.play,
                "variant": match.variant,
                "seats": [
                    _seat(seat, results.get(seat.position)) for seat in seats.get(match.pk, [])
                ],
                "rounds": rounds.get(match.pk, []),
                "trail": trails.get(match.pk, []),
            }
        )
    return out


def _seat(seat: Seat, result: MatchResult | None) -> dict[str, Any]:
    player = seat.player
    return {
        "position": seat.position,
        "player_id": player.pk if player is not None and not player.is_guest else None,
        "kind": player.kind if player is not None else None,
        "name": player.display_name if player is not None else None,
        "place": result.place if result is not None else None,
        "total": result.total if result is not None else None,
    }


def _rounds(match_ids: list[int]) -> dict[int, list[dict[str, Any]]]:
    """Each match's finished rounds: every seat's points and whether it went out, with the
    tiles a table's scorer entered (the round's latest entry); an online round's hands never."""
    went_out = {
        (row.match_id, row.round_number, row.seat): row.went_out
        for row in RoundResult.objects.filter(match_id__in=match_ids).only(
            "match_id", "round_number", "seat", "went_out"
        )
    }
    entered: dict[tuple[int, int], list[dict[str, Any]]] = {}
    for entry in ScoreEntry.objects.filter(match_id__in=match_ids).order_by("pk"):
        entered[(entry.match_id, entry.number)] = entry.seats  # the latest stands
    out: dict[int, list[dict[str, Any]]] = {}
    for row in (
        Round.objects.filter(match_id__in=match_ids, status=Round.Status.FINISHED)
        .only("match_id", "number", "start_double", "scores")
        .order_by("match_id", "number")
    ):
        sheet = entered.get((row.match_id, row.number))
        scores = [
            {
                "seat": seat,
                "points": points,
                "went_out": bool(
                    sheet[seat]["went_out"]
                    if sheet
                    else went_out.get((row.match_id, row.number, seat), False)
                ),
                "tiles": sheet[seat]["tiles"] if sheet else None,
            }
            for seat, points in enumerate(row.scores or [])
        ]
        out.setdefault(row.match_id, []).append(
            {
                "number": row.number,
                "start_double": [row.start_double, row.start_double],
                "scores": scores,
            }
        )
    return out


def _author(player: Player | None, link_id: int | None) -> dict[str, Any]:
    return {
        "player_id": player.pk if player is not None else None,
        "name": player.display_name if player is not None else None,
        "scorer_link_id": link_id,
    }


def _trails(match_ids: list[int]) -> dict[int, list[dict[str, Any]]]:
    """Each table match's score sheet in the order it was written: entries and corrections
    (``entered``, ``amended``: the seats after, and before), reviews of them, and the
    organiser's reopenings of the match (``reopened``: of no round, with no seats)."""
    events: dict[int, list[tuple[datetime, int, dict[str, Any]]]] = {}
    for entry in (
        ScoreEntry.objects.filter(match_id__in=match_ids)
        .select_related("entered_by")
        .order_by("pk")
    ):
        event = {
            "round": entry.number,
            "kind": "entered" if entry.before is None else "amended",
            "at": entry.created_at,
            "by": _author(entry.entered_by, entry.scorer_link_id),
            "seat": None,
            "before": entry.before,
            "after": entry.seats,
            "reason": entry.reason or None,
        }
        events.setdefault(entry.match_id, []).append((entry.created_at, 0, event))
    for review in (
        RoundReview.objects.filter(match_id__in=match_ids)
        .select_related("player", "entry")
        .order_by("pk")
    ):
        event = {
            "round": review.number,
            "kind": REVIEW_KINDS[RoundReview.Kind(review.kind)],
            "at": review.created_at,
            "by": _author(review.player, None),
            "seat": review.seat,
            "before": None,
            "after": review.entry.seats,  # the entry it was about
            "reason": review.reason or None,
        }
        events.setdefault(review.match_id, []).append((review.created_at, 1, event))
    for reopening in (
        MatchReopening.objects.filter(match_id__in=match_ids)
        .select_related("reopened_by")
        .order_by("pk")
    ):
        event = {
            "round": None,
            "kind": "reopened",
            "at": reopening.created_at,
            "by": _author(reopening.reopened_by, None),
            "seat": None,
            "before": None,
            "after": [],
            "reason": reopening.reason,
        }
        events.setdefault(reopening.match_id, []).append((reopening.created_at, 2, event))
    return {
        match_id: [event for _, _, event in sorted(rows, key=lambda row: (row[0], row[1]))]
        for match_id, rows in events.items()
    }


def export_rows(document: dict[str, Any]) -> Iterator[list[Any]]:
    """``competition_export``'s document, serialized (times as text), as flat rows
    (``COLUMNS``): per match, one ``seat`` row per seat (its place and total), then per round
    one row per seat for each time its points were written or reviewed (``entered``,
    ``amended``, ``confirmed``, ``disputed``, ``resolved``; an online round's one ``scored``),
    then one ``reopened`` row per reopening of the match (who, when, why). ``current`` marks
    the points that stand. Then each change to the seating (``seating_swap`` and the like:
    ``seating_rows``)."""
    for match in document["matches"]:
        head = {
            "competition_id": document["competition"]["id"],
            "stage": match["stage"],
            "table": match["table"],
            "match_id": match["match_id"],
            "match_status": match["status"],
            "play": match["play"],
        }
        people = {seat["position"]: seat for seat in match["seats"]}
        for seat in match["seats"]:
            yield _row({**head, "event": "seat", "seat": seat["position"], **_who(seat)})
        trail: dict[int | None, list[dict[str, Any]]] = {}
        for event in match["trail"]:
            trail.setdefault(event["round"], []).append(event)
        for played in match["rounds"]:
            events = trail.get(played["number"]) or [_scored(played)]
            written = [e for e in events if e["kind"] in ("entered", "amended", "scored")]
            standing = written[-1] if written else None
            for event in events:
                by = event["by"] or {}
                before = {s["seat"]: s["points"] for s in (event["before"] or [])}
                for score in event["after"]:
                    yield _row(
                        {
                            **head,
                            "event": event["kind"],
                            "event_at": event["at"],
                            "by_player_id": by.get("player_id"),
                            "by_name": by.get("name"),
                            "by_scorer_link_id": by.get("scorer_link_id"),
                            "reason": event["reason"],
                            "round": played["number"],
                            "start_double": "|".join(map(str, played["start_double"])),
                            "current": event is standing,
                            "seat": score["seat"],
                            **_who(people.get(score["seat"], {})),
                            "points": score["points"],
                            "went_out": score["went_out"],
                            "tiles": _tiles(score.get("tiles")),
                            "points_before": before.get(score["seat"]),
                        }
                    )
        for event in trail.get(None, []):
            by = event["by"] or {}
            yield _row(
                {
                    **head,
                    "event": event["kind"],
                    "event_at": event["at"],
                    "by_player_id": by.get("player_id"),
                    "by_name": by.get("name"),
                    "by_scorer_link_id": by.get("scorer_link_id"),
                    "reason": event["reason"],
                }
            )
    yield from seating_rows(document)


def seating_rows(document: dict[str, Any]) -> Iterator[list[Any]]:
    """Each change to the seating (``seating_<kind>``), one row per seat of each table it
    touched as the change left it (a table it deleted: as it was; a change of no table, such
    as a reopening of none with scores, one row; the stage clock started or stopped, one
    ``stage_clock_start`` or ``stage_clock_stop`` row): who made it, when and why, and who sat
    there (a guest's id left out, as in the seat rows)."""
    for change in document.get("seating_changes", []):
        head = {
            "competition_id": document["competition"]["id"],
            "stage": change["stage"],
            "event": (
                f"stage_clock_{change['clock']['action']}"
                if change["kind"] == "clock"
                else f"seating_{change['kind']}"
            ),
            "event_at": change["at"],
            "by_player_id": change["by"]["player_id"],
            "by_name": change["by"]["name"],
            "reason": change["reason"],
        }
        people = {person["player_id"]: person for person in change["entrants"]}
        if not change["tables"]:
            yield _row(head)
        for table in change["tables"]:
            seats = table.get("after") or table.get("before") or []
            at = {**head, "table": table["table"], "match_id": table["match_id"]}
            if not seats:
                yield _row(at)
            for position, player_id in enumerate(seats):
                person = people.get(player_id, {"player_id": player_id})
                yield _row(
                    {
                        **at,
                        "seat": position,
                        "player_id": None if person.get("kind") == "guest" else player_id,
                        "kind": person.get("kind"),
                        "name": person.get("name"),
                    }
                )


def _row(values: dict[str, Any]) -> list[Any]:
    return [values.get(column) for column in COLUMNS]


def _who(seat: dict[str, Any]) -> dict[str, Any]:
    """A seat's columns: who sat there, and the place and total they finished with."""
    return {name: seat.get(name) for name in ("player_id", "kind", "name", "place", "total")}


def _scored(played: dict[str, Any]) -> dict[str, Any]:
    """An online round as one event: the server scored it as it ended."""
    return {
        "kind": "scored",
        "at": None,
        "by": None,
        "reason": None,
        "before": None,
        "after": played["scores"],
    }


def _tiles(tiles: list[list[int]] | None) -> str | None:
    if tiles is None:
        return None
    return " ".join(f"{a}|{b}" for a, b in tiles)


__all__ = ["COLUMNS", "competition_export", "export_rows"]
