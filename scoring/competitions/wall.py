"""The public wall of a competition: what an organiser publishes, readable without a token.

At an event with divisions, the competition lists them (``divisions``), and each standings
row and each table names its ``division`` (the standings list each division in turn, each
ranked on its own): the wall shows a section for each. An event without has none of these keys.

The wall shows names as they are shown (display names) and nothing private: no player ids, no
usernames, no ratings, nothing of a match in play but its status (and, for a match scored at a
table, how many of its rounds are entered). A competition that is not public is not found (404),
so that its existence is not revealed.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.competitions.divisions import entrant_divisions
from scoring.competitions.problems import CompetitionNotFound, NotOrganiser
from scoring.competitions.stage_clock import clock_body
from scoring.competitions.standings import points_by_stage, standings
from scoring.models import Bye, Competition, CompetitionMatch, Stage
from scoring.ports import PlayerRef, games_port

#: The competition's fields the wall shows.
COMPETITION_FIELDS = ("id", "name", "kind", "variant", "status", "current_stage", "stage_count")
#: Each standings row's fields the wall shows (``by_stage`` beside them): the figures of every
#: tie-break (``scoring.competitions.tie_breaks``; those the order does not use are null).
ROW_FIELDS = (
    "rank",
    "shared",
    "name",
    "matches",
    "placement_points",
    "total_points",
    "wins",
    "mean_points_per_round",
    "rounds_at_zero",
    "best_round",
    "head_to_head",
    "buchholz",
    "median_buchholz",
)


def wall_tie_break_columns(order: list[str]) -> list[str]:
    """The tie-breaks the wall shows in columns of their own, in the order's order: all but the
    placement points and the total pips, which it shows anyway (as "Points" and "Total")."""
    return [key for key in order if key not in ("placement_points", "total_points")]


def competition_publish(*, competition_id: int, player: PlayerRef, public: bool) -> Competition:
    """Make competition ``competition_id``'s wall public (or private again): its organiser only
    (403 ``not_organiser``). Idempotent: publishing a public competition changes nothing."""
    with transaction.atomic():
        competition = Competition.objects.select_for_update().filter(pk=competition_id).first()
        if competition is None:
            raise CompetitionNotFound(
                _("There is no competition %(competition_id)s.")
                % {"competition_id": competition_id}
            )
        if competition.organiser_id != player.id:
            raise NotOrganiser(
                _("Only the organiser of competition %(competition)s can publish its wall.")
                % {"competition": competition.pk}
            )
        if competition.public != public:
            competition.public = public
            competition.save(update_fields=["public"])
            if not public:
                games_port().wall_closed(competition_id=competition.pk)  # its sockets close
    return competition


def public_competition_get(*, competition_id: int) -> Competition:
    """The competition if it is public; else 404 ``competition_not_found``, as for none."""
    competition = Competition.objects.filter(pk=competition_id, public=True).first()
    if competition is None:
        raise CompetitionNotFound(
            _("There is no competition %(competition_id)s.") % {"competition_id": competition_id}
        )
    return competition


def competition_is_public(*, competition_id: int) -> bool:
    return Competition.objects.filter(pk=competition_id, public=True).exists()


def public_competition_of_match(*, match_id: int) -> int | None:
    """The id of the public competition match ``match_id`` counts in, if any."""
    return (
        CompetitionMatch.objects.filter(match_id=match_id, competition__public=True)
        .values_list("competition_id", flat=True)
        .first()
    )


def wall_standings(*, competition: Competition) -> list[dict[str, Any]]:
    """The standings rows, best first, with the wall's fields and the points per stage (and,
    at an event with divisions, each row's ``division``)."""
    stages = points_by_stage(competition=competition)
    fields = (*ROW_FIELDS, "division") if competition.divisions else ROW_FIELDS
    return [
        {
            **{name: row[name] for name in fields},
            "by_stage": [
                {name: entry[name] for name in ("stage", "matches", "placement_points", "bye")}
                for entry in stages.get(row["player_id"], [])
            ],
        }
        for row in standings(competition=competition)
    ]


def _tables(competition: Competition, match_id: int | None = None) -> list[dict[str, Any]]:
    """Each table (in stage and table order) with its stage's id: the names seated, its
    match's status and, at a table, its rounds entered and to play."""
    links = CompetitionMatch.objects.filter(competition=competition, stage__isnull=False)
    if match_id is not None:
        links = links.filter(match_id=match_id)
    rows = (
        links.annotate(
            entered=Count("match__rounds", filter=Q(match__rounds__status="finished"))
        )
        .order_by("stage__number", "table_number")
        .values(
            "pk", "stage_id", "stage__number", "table_number", "finished", "entered",
            "match__status", "match__play", "match__options",
        )
    )  # fmt: skip
    names: dict[int, list[str]] = defaultdict(list)
    of = entrant_divisions(competition) if competition.divisions else {}
    sections: dict[int, str] = {}
    for seat in (
        links.order_by("pk", "match__seats__position")
        .filter(match__seats__isnull=False)
        .values("pk", "match__seats__player_id", "match__seats__player__display_name")
    ):
        names[seat["pk"]].append(seat["match__seats__player__display_name"])
        if seat["match__seats__player_id"] in of:
            sections.setdefault(seat["pk"], of[seat["match__seats__player_id"]])
    return [
        {
            "stage_id": row["stage_id"],
            "stage": row["stage__number"],
            "table": row["table_number"],
            "status": row["match__status"],
            "results_in": row["finished"],
            **({"division": sections.get(row["pk"])} if of else {}),
            "seats": names[row["pk"]],
            "rounds": (
                {"entered": row["entered"], "total": row["match__options"].get("rounds")}
                if row["match__play"] == "table"
                else None
            ),
        }
        for row in rows
    ]


def _public_table(table: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in table.items() if key not in ("stage_id", "stage")}


def wall_table(*, competition: Competition, match_id: int) -> dict[str, Any] | None:
    """One table's progress as the wall shows it (with its ``stage`` number); ``None``: the
    match is at no table of the competition's stages."""
    tables = _tables(competition, match_id)
    if not tables:
        return None
    return {"stage": tables[0]["stage"], **_public_table(tables[0])}


def wall_clock(*, stage: Stage, now: datetime) -> dict[str, Any] | None:
    """A stage's clock as the wall shows it (times as ISO 8601 text, as a socket frame carries
    them); ``None``: it has none, or the stage has finished (its clock has nothing to say)."""
    body = clock_body(stage=stage, now=now)
    if body["state"] == "off" or stage.status != Stage.Status.PLAYING:
        return None
    return {
        "state": body["state"],
        "minutes": body["minutes"],
        "started_at": body["started_at"].isoformat(),
        "ends_at": body["ends_at"].isoformat(),
    }


def wall_stages(*, competition: Competition, now: datetime) -> list[dict[str, Any]]:
    """Each stage (a tournament's; a league has none) with its tables, the names of who sat
    it out and its clock (as of ``now``)."""
    tables: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for table in _tables(competition):
        tables[table["stage_id"]].append(_public_table(table))
    byes: dict[int, list[str]] = defaultdict(list)
    for bye in (
        Bye.objects.filter(competition=competition)
        .order_by("stage_id", "player__display_name", "player_id")
        .values("stage_id", "player__display_name")
    ):
        byes[bye["stage_id"]].append(bye["player__display_name"])
    return [
        {
            "number": stage.number,
            "status": stage.status,
            "final_table": stage.final,
            "tables": tables[stage.pk],
            "byes": byes[stage.pk],
            "clock": wall_clock(stage=stage, now=now),
        }
        for stage in Stage.objects.filter(competition=competition).order_by("number")
    ]


def wall_body(*, competition: Competition) -> dict[str, Any]:
    """The wall: the competition, its standings and its stages with their tables and clocks,
    and the server's ``now`` (a page counts a clock down from it, whatever its own clock says)."""
    now = timezone.now()
    return {
        "competition": {
            **{name: getattr(competition, name) for name in COMPETITION_FIELDS},
            "tie_breaks": competition.order,
            **({"divisions": competition.division_names} if competition.divisions else {}),
        },
        "final": competition.status == Competition.Status.FINISHED,
        "standings": wall_standings(competition=competition),
        "stages": wall_stages(competition=competition, now=now),
        "now": now.isoformat(),
    }
