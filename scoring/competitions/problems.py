"""The scoring app's refusals, each a problem type with its own code and HTTP status."""

from __future__ import annotations

from http import HTTPStatus

from django.utils.translation import gettext_lazy

from chickenfoot.problems import (
    ConflictError,
    ForbiddenError,
    NotFoundError,
    ProblemError,
    errors_summary,
)


class CompetitionNotFound(NotFoundError):
    code = "competition_not_found"
    title = gettext_lazy("No such competition")


class NotOrganiser(ForbiddenError):
    code = "not_organiser"
    title = gettext_lazy("Not an organiser")


class InvalidCompetition(ProblemError):
    code = "invalid_competition"
    title = gettext_lazy("Invalid competition")


class RegistrationClosed(ConflictError):
    code = "registration_closed"
    title = gettext_lazy("Registration closed")


class AlreadyRegistered(ConflictError):
    code = "already_registered"
    title = gettext_lazy("Already registered")


class NotRegistered(ConflictError):
    code = "not_registered"
    title = gettext_lazy("Not registered")


class WrongCompetitionStatus(ConflictError):
    code = "competition_status"
    title = gettext_lazy("Not now")


class WrongStage(ConflictError):
    code = "wrong_stage"
    title = gettext_lazy("Wrong stage")


class TooFewPlayers(ConflictError):
    code = "too_few_players"
    title = gettext_lazy("Too few players")


class NotInLeague(ProblemError):
    code = "league_refused"
    title = gettext_lazy("Not a league match")


class NotLeaguePlayer(ForbiddenError):
    code = "not_league_player"
    title = gettext_lazy("Not in this league")


#: The most rows an entrants file may have (each may be wrong in every column).
MAX_FILE_ROWS = 1000


class InvalidEntrantsFile(ProblemError):
    """400 ``invalid_csv``: every bad row of an entrants file at once, ``errors`` keyed by
    ``<line>.<column>`` (``<line>`` alone for a line that is wrong as a whole)."""

    code = "invalid_csv"
    title = gettext_lazy("Invalid entrants file")
    max_listed = MAX_FILE_ROWS * 6

    def __init__(self, errors: dict[str, list[str]]) -> None:
        super().__init__(errors_summary(errors), extra={"errors": errors})


class StageScoringStarted(ConflictError):
    """409: a table of the stage has scores; ``tables`` names them."""

    code = "stage_scoring_started"
    title = gettext_lazy("Scoring started")


class StageVersionRequired(ProblemError):
    """428: a change to a stage's seating sent without the version it answers (``If-Match``)."""

    status = HTTPStatus.PRECONDITION_REQUIRED
    code = "version_required"
    title = gettext_lazy("Version required")


class StaleStage(ConflictError):
    """409: the stage's seating has changed since the version the change answers."""

    code = "stale_version"
    title = gettext_lazy("Stale version")


class StageVersionAhead(ConflictError):
    """409: a version of the stage's seating that it has not reached."""

    code = "version_ahead"
    title = gettext_lazy("Version ahead")


class DivisionNotFound(NotFoundError):
    """404: the competition has no division of that name (or no divisions at all)."""

    code = "division_not_found"
    title = gettext_lazy("No such division")


class DivisionFixed(ConflictError):
    """409: the entrant has been seated (or had a bye) in their division: it stays theirs."""

    code = "division_fixed"
    title = gettext_lazy("Division fixed")


class DivisionMismatch(ConflictError):
    """409: a change to a stage's seating would seat entrants of two divisions together;
    ``divisions`` names each entrant's division."""

    code = "division_mismatch"
    title = gettext_lazy("Different divisions")


class DivisionsSeated(ConflictError):
    """409: a stage of the tournament has been seated: its divisions stay as they are."""

    code = "divisions_seated"
    title = gettext_lazy("Divisions seated")
