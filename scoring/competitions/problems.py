"""The scoring app's refusals, each a problem type with its own code and HTTP status."""

from __future__ import annotations

from chickenfoot.problems import ConflictError, ForbiddenError, NotFoundError, ProblemError


class CompetitionNotFound(NotFoundError):
    code = "competition_not_found"
    title = "No such competition"


class NotOrganiser(ForbiddenError):
    code = "not_organiser"
    title = "Not an organiser"


class InvalidCompetition(ProblemError):
    code = "invalid_competition"
    title = "Invalid competition"


class RegistrationClosed(ConflictError):
    code = "registration_closed"
    title = "Registration closed"


class AlreadyRegistered(ConflictError):
    code = "already_registered"
    title = "Already registered"


class NotRegistered(ConflictError):
    code = "not_registered"
    title = "Not registered"


class WrongCompetitionStatus(ConflictError):
    code = "competition_status"
    title = "Not now"


class WrongStage(ConflictError):
    code = "wrong_stage"
    title = "Wrong stage"


class TooFewPlayers(ConflictError):
    code = "too_few_players"
    title = "Too few players"


class NotInLeague(ProblemError):
    code = "league_refused"
    title = "Not a league match"


class NotLeaguePlayer(ForbiddenError):
    code = "not_league_player"
    title = "Not in this league"
