"""The organiser sets, changes or removes a tournament's divisions after creating it
(``divisions`` in the competition's PATCH), until a stage of it is seated (docs/scoring.md,
"Divisions").

Every entrant is placed again. One whose division the organiser chose (``division_chosen``)
keeps it, matched by name without regard to case or spacing (so a respelt name carries them
over); the others join the new rating bands (the unrated: the last division). A choice naming a
division the new list no longer has is refused: 400 naming ``divisions`` and each entrant so
placed, and nothing is written; the organiser moves them first, or keeps the name. No divisions
(``null`` or ``[]``) takes every entrant out of theirs, choices included. Once a stage has been
seated (an undone stage 1 is seated no more) the divisions stay: 409 ``divisions_seated``.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from chickenfoot.problems import InvalidInput
from scoring.competitions import divisions
from scoring.competitions.problems import DivisionsSeated
from scoring.models import Competition, Registration, Stage


def _lost_choices(competition: Competition, rows: list[Registration]) -> str | None:
    """Why the organiser's choices for ``rows`` cannot stand (``None``: they all can)."""
    lost = [
        row
        for row in rows
        if row.withdrawn_at is None
        and row.division_chosen
        and divisions.division_named(competition, row.division) is None
    ]
    if not lost:
        return None
    return _(
        "These entrants are in a division the list no longer has, by your choice: %(entrants)s. "
        "Move them to a division the list keeps first, or keep the name."
    ) % {
        "entrants": "; ".join(
            _("%(name)s (player %(player_id)s) in %(division)s")
            % {
                "name": row.player.display_name,
                "player_id": row.player_id,
                "division": row.division,
            }
            for row in lost
        )
    }


def divisions_change(competition: Competition, value: list[dict[str, Any]] | None) -> None:
    """Set ``competition``'s divisions to ``value`` and place every entrant again (the module
    says how, and when it is refused). The caller holds the competition's lock and saves it."""
    value = value or None
    problems = divisions.divisions_problems(value, kind=competition.kind)
    if problems:
        raise InvalidInput(problems)
    wanted = divisions.normalised(value)
    if wanted == competition.divisions:
        return
    if Stage.objects.filter(competition=competition).exists():
        raise DivisionsSeated(
            _("Competition %(competition)s has a stage seated: its divisions stay as they are.")
            % {"competition": competition.pk}
        )
    rows = list(Registration.objects.filter(competition=competition).select_related("player"))
    competition.divisions = wanted
    if wanted and (lost := _lost_choices(competition, rows)) is not None:
        raise InvalidInput({"divisions": [lost]})
    keep = {row.pk for row in rows if wanted and row.withdrawn_at is None and row.division_chosen}
    rated = divisions.ratings(competition, [row.player_id for row in rows if row.pk not in keep])
    for row in rows:
        if row.pk in keep:
            row.division = divisions.division_named(competition, row.division) or ""
        else:
            row.division_chosen = False
            row.division = divisions.band(competition, rated.get(row.player_id)) if wanted else ""
    Registration.objects.bulk_update(rows, ["division", "division_chosen"])
