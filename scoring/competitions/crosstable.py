"""Reads: a tournament's crosstable: each entrant, in standings order, and what each stage was for
them (docs/scoring.md, "Crosstable").

An entrant's stage is one of:

- ``played``: seated at a table whose results are in: the table, the opponents, the place (C-WIN,
  shared alike), the table's size, the placement points and the pips (``total_points``);
- ``playing``: seated at a table whose results are not in yet: the table and the opponents only
  (nothing of a match in play);
- ``abandoned``: seated at a table whose match was abandoned: it counts for nobody;
- ``bye``: sat out with a bye, and its placement points;
- ``not_entered``: the stage had started before the entrant registered;
- ``dropped``: the entrant had dropped out before the stage started;
- ``not_finalist``: the final table (``final_table``), which seats only the best ``n``;
- ``no_show``: none of these (registered, not seated: not checked in at a table event).

At an event with divisions, each division's entrants follow one another in the divisions'
order, each division ranked on its own (``division``: one division's alone, numbered from 1).

Entrants are numbered 1, 2, 3 … in standings order (``number``: unique where ranks are shared),
and an opponent who is an entrant is named with that number too, as a printed crosstable does.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from scoring.competitions.points import as_points
from scoring.competitions.problems import WrongCompetitionStatus
from scoring.competitions.standings import standings
from scoring.models import (
    Bye,
    Competition,
    CompetitionMatch,
    CompetitionResult,
    Registration,
    Stage,
)

PLAYED = "played"
PLAYING = "playing"
ABANDONED = "abandoned"
BYE = "bye"
NOT_ENTERED = "not_entered"
DROPPED = "dropped"
NOT_FINALIST = "not_finalist"
NO_SHOW = "no_show"
#: Every status an entrant's stage may have, in the docstring's order.
STATUSES = (PLAYED, PLAYING, ABANDONED, BYE, NOT_ENTERED, DROPPED, NOT_FINALIST, NO_SHOW)


def _tables(competition: Competition) -> dict[tuple[int, int], dict[str, Any]]:
    """Per (stage id, player id) seated: the table, its match and status, and everyone seated."""
    rows = (
        CompetitionMatch.objects.filter(competition=competition, stage__isnull=False)
        .filter(match__seats__isnull=False)
        .order_by("stage_id", "table_number", "match__seats__position")
        .values(
            "stage_id",
            "table_number",
            "match_id",
            "match__status",
            "match__seats__player_id",
            "match__seats__player__display_name",
            "match__seats__player__kind",
        )
    )
    tables: dict[int, dict[str, Any]] = {}
    for row in rows:
        table = tables.setdefault(
            row["match_id"],
            {
                "stage_id": row["stage_id"],
                "table": row["table_number"],
                "match_id": row["match_id"],
                "abandoned": row["match__status"] == "abandoned",
                "seats": [],
            },
        )
        table["seats"].append(
            {
                "player_id": row["match__seats__player_id"],
                "name": row["match__seats__player__display_name"],
                "bot": row["match__seats__player__kind"] == "bot",
            }
        )
    return {
        (table["stage_id"], seat["player_id"]): table
        for table in tables.values()
        for seat in table["seats"]
        if not seat["bot"]
    }


def _stage_entry(
    *,
    stage: Stage,
    player_id: int,
    table: dict[str, Any] | None,
    result: dict[str, Any] | None,
    bye: int | None,
    registration: dict[str, Any],
    numbers: dict[int, int],
) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "stage": stage.number,
        "status": NO_SHOW,
        "table": None,
        "match_id": None,
        "opponents": [],
        "place": None,
        "table_players": None,
        "placement_points": None,
        "total_points": None,
    }
    if table is not None:
        entry["table"] = table["table"]
        entry["match_id"] = table["match_id"]
        entry["opponents"] = [
            {**seat, "number": None if seat["bot"] else numbers.get(seat["player_id"])}
            for seat in table["seats"]
            if seat["bot"] or seat["player_id"] != player_id
        ]
        if result is not None:
            entry.update(
                status=PLAYED,
                place=result["place"],
                table_players=result["table_players"],
                placement_points=float(as_points(result["placement_points"])),
                total_points=result["total"],
            )
        else:
            entry["status"] = ABANDONED if table["abandoned"] else PLAYING
    elif bye is not None:
        entry.update(status=BYE, placement_points=float(as_points(bye)))
    elif registration["registered_at"] > stage.started_at:
        entry["status"] = NOT_ENTERED
    elif registration["dropped_at"] is not None and registration["dropped_at"] <= stage.started_at:
        entry["status"] = DROPPED
    elif stage.final:
        entry["status"] = NOT_FINALIST
    return entry


def crosstable(*, competition: Competition, division: str | None = None) -> dict[str, Any]:
    """The crosstable of tournament ``competition`` (409 ``competition_status`` for a league,
    which has no stages): the stages started so far and each entrant's row, best first (of
    ``division`` alone, when given)."""
    if competition.kind != Competition.Kind.TOURNAMENT:
        raise WrongCompetitionStatus(
            _(
                "League %(competition)s has no stages, so no crosstable: its standings "
                "and each player's history say who met whom."
            )
            % {"competition": competition.pk}
        )
    rows = standings(competition=competition, division=division)
    numbers = {row["player_id"]: number for number, row in enumerate(rows, start=1)}
    stages = list(Stage.objects.filter(competition=competition).order_by("number"))
    tables = _tables(competition)
    results = {
        (row["match_id"], row["player_id"]): row
        for row in CompetitionResult.objects.filter(competition=competition).values(
            "match_id", "player_id", "place", "table_players", "placement_points", "total"
        )
    }
    byes = {
        (row["stage_id"], row["player_id"]): row["placement_points"]
        for row in Bye.objects.filter(competition=competition).values(
            "stage_id", "player_id", "placement_points"
        )
    }
    registrations = {
        row["player_id"]: row
        for row in Registration.objects.filter(
            competition=competition, withdrawn_at__isnull=True
        ).values("player_id", "registered_at", "dropped_at")
    }
    entrants = []
    for number, row in enumerate(rows, start=1):
        player_id = row["player_id"]
        entries = []
        for stage in stages:
            table = tables.get((stage.pk, player_id))
            entries.append(
                _stage_entry(
                    stage=stage,
                    player_id=player_id,
                    table=table,
                    result=None if table is None else results.get((table["match_id"], player_id)),
                    bye=byes.get((stage.pk, player_id)),
                    registration=registrations[player_id],
                    numbers=numbers,
                )
            )
        entrants.append(
            {
                "number": number,
                "rank": row["rank"],
                "shared": row["shared"],
                "player_id": player_id,
                "name": row["name"],
                "dropped": row["dropped"],
                "division": row["division"],
                "tie_breaks": {key: row[key] for key in competition.order},
                "stages": entries,
            }
        )
    return {
        "competition_id": competition.pk,
        "name": competition.name,
        "status": competition.status,
        "stage_count": competition.stage_count,
        "final_table": competition.final_table,
        "current_stage": competition.current_stage,
        "final": competition.status == Competition.Status.FINISHED,
        "tie_breaks": competition.order,
        "divisions": competition.division_names,
        "division": division,
        "stages": [
            {"number": stage.number, "status": stage.status, "final_table": stage.final}
            for stage in stages
        ],
        "entrants": entrants,
    }


def opponent_label(opponent: dict[str, Any]) -> str:
    """An opponent as a crosstable names them: their entrant number, ``bot`` for a bot, and
    ``guest`` for anyone else seated (not an entrant)."""
    if opponent["bot"]:
        return "bot"
    return "guest" if opponent["number"] is None else str(opponent["number"])


def opponents_cell(entry: dict[str, Any]) -> str:
    """An entry's opponents as a crosstable writes them (``opponent_label``, space-separated),
    empty when the entrant was not seated."""
    return " ".join(opponent_label(opponent) for opponent in entry["opponents"])


#: The CSV's columns for each stage, after ``stage_<n>_``.
STAGE_FIELDS = ("status", "table", "opponents", "place", "placement_points", "total_points")


def csv_header(crosstable: dict[str, Any]) -> list[str]:
    """The crosstable CSV's header: the entrant (their division's name second at an event
    with divisions), each tie-break of the order, then each stage's ``stage_<n>_<field>``
    (``STAGE_FIELDS``)."""
    return [
        "number",
        *(["division"] if crosstable["divisions"] else []),
        "rank",
        "shared",
        "player_id",
        "name",
        "dropped",
        *crosstable["tie_breaks"],
        *(
            f"stage_{stage['number']}_{field}"
            for stage in crosstable["stages"]
            for field in STAGE_FIELDS
        ),
    ]


def csv_rows(crosstable: dict[str, Any]) -> list[list[Any]]:
    """The crosstable CSV's rows, one per entrant, in ``csv_header``'s order."""
    out = []
    for entrant in crosstable["entrants"]:
        keys = ("number", *(["division"] if crosstable["divisions"] else []), "rank", "shared")
        cells: list[Any] = [entrant[key] for key in (*keys, "player_id", "name", "dropped")]
        cells += [entrant["tie_breaks"][key] for key in crosstable["tie_breaks"]]
        for entry in entrant["stages"]:
            cells += [
                entry["status"],
                entry["table"],
                opponents_cell(entry),
                entry["place"],
                entry["placement_points"],
                entry["total_points"],
            ]
        out.append(cells)
    return out
