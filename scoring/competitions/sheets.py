"""A competition's printed sheets: the standings for the notice board and a tournament's
crosstable, for its organiser, and for anyone (no token needed) when it is public. The games
app's paper prints them (``scoring.ports``); what it is handed holds names and figures only:
no player id, no rating, nothing a public wall does not show."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from scoring.competitions.crosstable import crosstable
from scoring.competitions.divisions import division_param
from scoring.competitions.stage_paper import sheet_competition
from scoring.competitions.standings import standings
from scoring.models import Competition, Stage
from scoring.ports import PlayerRef, games_port


def standings_sheet(
    *, competition_id: int, caller: PlayerRef | None, division: str | None = None
) -> bytes:
    """The standings as a PDF: each player's rank, name, matches and the value of every
    tie-break of the competition's order; at an event with divisions, ``division``'s (404
    ``division_not_found`` for one it does not have), or each division's on pages of its own.
    Who may read it: ``sheet_competition``."""
    competition = sheet_competition(
        competition_id=competition_id,
        caller=caller,
        refusal=_(
            "Only the organiser of competition %(competition)s can print its standings "
            "while it is not public."
        ),
    )
    order = competition.order
    division = division_param(competition, division)
    fields = ("rank", "shared", "name", "matches", "dropped", *order)
    if competition.divisions:
        fields = (*fields, "division")
    sheet: dict[str, Any] = {
        "event": competition.name,
        "final": competition.status == Competition.Status.FINISHED,
        "stage_count": competition.last_stage,  # with a final table, its stage too
        "stages_finished": Stage.objects.filter(
            competition=competition, status=Stage.Status.FINISHED
        ).count(),
        "min_matches": competition.min_matches,
        "tie_breaks": order,
        "rows": [
            {key: row[key] for key in fields}
            for row in standings(competition=competition, division=division)
        ],
    }
    return games_port().standings_pdf(sheet=sheet)


def crosstable_sheet(
    *, competition_id: int, caller: PlayerRef | None, division: str | None = None
) -> bytes:
    """The crosstable of a tournament as a PDF (A4 landscape, paginated; ``division`` as
    ``standings_sheet`` takes it): who may read it as ``standings_sheet``; a league's is a
    409 ``competition_status``."""
    competition = sheet_competition(
        competition_id=competition_id,
        caller=caller,
        refusal=_(
            "Only the organiser of competition %(competition)s can print its crosstable "
            "while it is not public."
        ),
    )
    table = crosstable(competition=competition, division=division_param(competition, division))
    return games_port().crosstable_pdf(sheet=_printable(table))


def _printable(table: dict[str, Any]) -> dict[str, Any]:
    """The crosstable without the ids it carries for clients (player and match ids): what a
    sheet that anyone may read is handed."""

    def entry(stage: dict[str, Any]) -> dict[str, Any]:
        rivals = [{key: o[key] for key in ("name", "bot", "number")} for o in stage["opponents"]]
        return {**stage, "match_id": None, "opponents": rivals}

    entrants = [
        {
            **{key: value for key, value in entrant.items() if key != "player_id"},
            "stages": [entry(stage) for stage in entrant["stages"]],
        }
        for entrant in table["entrants"]
    ]
    return {**table, "entrants": entrants}
