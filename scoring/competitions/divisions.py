"""Divisions: one tournament, several sections, each seated and ranked on its own
(docs/scoring.md, "Divisions").

``divisions`` on the competition lists them in order, each ``{"name": ..., "min_rating": n}``
(``min_rating`` left out or null on the last, and on any division entered only by the
organiser's hand). An entrant's division (``Registration.division``, the division's name) is
the organiser's choice when adding or changing the entrant (``division``, matched without
regard to case or spacing), otherwise the rating band: the first division whose
``min_rating`` the entrant's rating in the game reaches, or which has none (the unrated reach
only those). It is fixed once the entrant has been seated at a stage or had a bye.

Every stage seats each division apart (``split_field``): nobody is paired across divisions;
tables are numbered on through the divisions in their order. Standings, crosstable, sheets
and the wall rank each division on its own.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping
from typing import Any

from django.utils.translation import gettext as _

from scoring.competitions.problems import DivisionNotFound
from scoring.models import Bye, Competition, CompetitionMatch, Rating, Registration
from scoring.ratings import display_rating

#: The most divisions an event may have.
MAX_DIVISIONS = 8
#: The longest division name kept.
NAME_MAX_LENGTH = 64
#: The lowest and highest ``min_rating`` taken (ratings as the leaderboard shows them).
RATING_RANGE = (-10_000, 10_000)


def division_key(name: str) -> str:
    """A division's name as compared: without regard to case or spacing."""
    return " ".join(name.split()).casefold()


def _name_problem(name: Any) -> str | None:
    if not isinstance(name, str) or not name.strip():
        return _("Give each division a name.")
    if len(name.strip()) > NAME_MAX_LENGTH:
        return _("Ensure this field has no more than %(max_length)s characters.") % {
            "max_length": NAME_MAX_LENGTH
        }
    if any(unicodedata.category(char) in ("Cc", "Cf", "Cs") for char in name):
        return _("A division's name is text on one line: no control characters.")
    return None


def divisions_problems(value: Any, *, kind: Any) -> dict[str, list[str]]:
    """What is wrong with ``divisions`` (a list of ``{"name", "min_rating"}``, or ``None``),
    by field (``divisions``, ``divisions.<i>.name``, ``divisions.<i>.min_rating``)."""
    if value is None:
        return {}
    errors: dict[str, list[str]] = {}

    def problem(field: str, message: str) -> None:
        errors.setdefault(field, []).append(message)

    if kind == Competition.Kind.LEAGUE:
        problem("divisions", _("A league has no stages to seat apart: leave divisions out."))
        return errors
    if not 2 <= len(value) <= MAX_DIVISIONS:
        problem(
            "divisions",
            _("An event has from 2 to %(max)s divisions; got %(count)s.")
            % {"max": MAX_DIVISIONS, "count": len(value)},
        )
    seen: dict[str, int] = {}
    floor: int | None = None
    for index, division in enumerate(value):
        name, rating = division.get("name"), division.get("min_rating")
        if (message := _name_problem(name)) is not None:
            problem(f"divisions.{index}.name", message)
        elif division_key(name) in seen:
            problem(
                f"divisions.{index}.name",
                _("Division %(index)s has this name already: each division's name is its own.")
                % {"index": seen[division_key(name)]},
            )
        else:
            seen[division_key(name)] = index
        if rating is None:
            continue
        if index == len(value) - 1:
            problem(
                f"divisions.{index}.min_rating",
                _("The last division takes everyone the others do not: leave its min_rating out."),
            )
        elif floor is not None and rating >= floor:
            problem(
                f"divisions.{index}.min_rating",
                _("Each min_rating is lower than the one before it (%(floor)s).")
                % {"floor": floor},
            )
        floor = rating if floor is None else min(floor, rating)
    return errors


def normalised(value: list[dict[str, Any]] | None) -> list[dict[str, Any]] | None:
    """``divisions`` as kept: names trimmed, ``min_rating`` on every division (null: none)."""
    if value is None:
        return None
    return [
        {"name": division["name"].strip(), "min_rating": division.get("min_rating")}
        for division in value
    ]


def division_named(competition: Competition, given: str) -> str | None:
    """The name of the division ``given`` names (case and spacing aside), or ``None``."""
    wanted = division_key(given)
    return next((name for name in competition.division_names if division_key(name) == wanted), None)


def band(competition: Competition, rating: int | None) -> str:
    """The division of an entrant rated ``rating`` (``None``: unrated) by the rating bands."""
    for division in competition.divisions or []:
        floor = division.get("min_rating")
        if floor is None or (rating is not None and rating >= floor):
            return division["name"]
    return competition.division_names[-1]


def ratings(competition: Competition, player_ids: Iterable[int]) -> dict[int, int]:
    """The rated among ``player_ids``: their rating in the competition's game, as shown."""
    return {
        player_id: display_rating(ordinal)
        for player_id, ordinal in Rating.objects.filter(
            player_id__in=list(player_ids), variant=competition.variant
        ).values_list("player_id", "ordinal")
    }


def unknown_division(competition: Competition, given: str) -> str:
    """Why ``given`` names no division of ``competition``."""
    if not competition.divisions:
        return _("Competition %(competition)s has no divisions: leave division out.") % {
            "competition": competition.pk
        }
    return _("Competition %(competition)s has no division %(division)s; it has %(names)s.") % {
        "competition": competition.pk,
        "division": given,
        "names": ", ".join(competition.division_names),
    }


def assigned(competition: Competition, given: Mapping[int, str | None]) -> dict[int, str]:
    """Each player's division: the one named in ``given`` (already checked), or by band; all
    ``""`` at an event without divisions."""
    if not competition.divisions:
        return dict.fromkeys(given, "")
    rated = ratings(competition, [p for p, name in given.items() if not name])
    return {
        player_id: division_named(competition, name)
        if name
        else band(competition, rated.get(player_id))
        for player_id, name in given.items()
    }  # type: ignore[misc]


def division_param(competition: Competition, value: str | None) -> str | None:
    """The division a reading asks for (``?division=``), checked: ``None`` for all; 404
    ``division_not_found`` for a name the competition has no division of."""
    if value is None:
        return None
    name = division_named(competition, value)
    if name is None:
        raise DivisionNotFound(unknown_division(competition, value))
    return name


def entrant_divisions(competition: Competition) -> dict[int, str]:
    """Each entrant's division (not withdrawn): player id -> name."""
    return dict(
        Registration.objects.filter(competition=competition, withdrawn_at__isnull=True).values_list(
            "player_id", "division"
        )
    )


def split_field(competition: Competition, players: list[int]) -> list[tuple[str, list[int]]]:
    """``players`` by division, in the divisions' order (one group, ``""``, without)."""
    if not competition.divisions:
        return [("", list(players))]
    of = entrant_divisions(competition)
    return [
        (name, [player for player in players if of.get(player) == name])
        for name in competition.division_names
    ]


def has_played(registration: Registration) -> bool:
    """Whether the entrant has been seated at a stage's table or had a bye: their division
    is then fixed."""
    return (
        CompetitionMatch.objects.filter(
            competition_id=registration.competition_id,
            stage__isnull=False,
            match__seats__player_id=registration.player_id,
        ).exists()
        or Bye.objects.filter(registration=registration).exists()
    )
