"""The games app's refusals, each a problem type with its own code and HTTP status."""

from __future__ import annotations

from http import HTTPStatus

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from chickenfoot.problems import (
    ConflictError,
    ForbiddenError,
    NotFoundError,
    ProblemError,
    errors_summary,
)


class MatchNotFound(NotFoundError):
    code = "match_not_found"
    title = gettext_lazy("No such match")


class NotYourMatch(ForbiddenError):
    code = "not_your_match"
    title = gettext_lazy("Not your match")


class MatchNotOpen(ConflictError):
    code = "match_not_open"
    title = gettext_lazy("Match not open")


class MatchNotPlaying(ConflictError):
    code = "match_not_playing"
    title = gettext_lazy("Match not in play")


class BadSeats(ProblemError):
    code = "invalid_seats"
    title = gettext_lazy("Invalid seats")


class MatchFull(ConflictError):
    code = "match_full"
    title = gettext_lazy("Match full")


class BotMatchLimit(ConflictError):
    """Creating a match of bots only while the player has as many as they may (``limit``) open
    or in play (``bot_matches``, their ids)."""

    code = "bot_match_limit"
    title = gettext_lazy("Too many matches of bots")


class SeatTaken(ConflictError):
    code = "seat_taken"
    title = gettext_lazy("Seat taken")


class AlreadySeated(ConflictError):
    code = "already_seated"
    title = gettext_lazy("Already seated")


class SeatsStillOpen(ConflictError):
    code = "seats_open"
    title = gettext_lazy("Seats still open")


class StaleVersion(ConflictError):
    code = "stale_version"
    title = gettext_lazy("Stale version")


class VersionAhead(ConflictError):
    """A version the match has not reached: the client made it up or mixed up two matches."""

    code = "version_ahead"
    title = gettext_lazy("Version ahead")


class NotCreator(ForbiddenError):
    code = "not_creator"
    title = gettext_lazy("Not the creator")


class MalformedMoveBody(ProblemError):
    """A move body that is not a move: a wrong type, an unknown field (``errors`` names them)."""

    code = "malformed_move"
    title = gettext_lazy("Malformed move")

    def __init__(
        self, errors: dict[str, list[str]], *, rules: dict[str, str] | None = None
    ) -> None:
        extra: dict[str, object] = {"errors": errors}
        if rules:
            extra["rules"] = rules
        super().__init__(errors_summary(errors), extra=extra)


class VersionRequired(ProblemError):
    status = HTTPStatus.PRECONDITION_REQUIRED
    code = "version_required"
    title = gettext_lazy("Version required")


class IdempotencyKeyReused(ProblemError):
    status = HTTPStatus.UNPROCESSABLE_ENTITY
    code = "idempotency_key_reused"
    title = gettext_lazy("Idempotency key reused")


class InvalidCredentials(ProblemError):
    status = HTTPStatus.UNAUTHORIZED
    code = "invalid_credentials"
    title = gettext_lazy("Invalid credentials")


class MatchNotStarted(ConflictError):
    code = "match_not_started"
    title = gettext_lazy("Match not started")


class TokenNotFound(NotFoundError):
    """A token id that is not one of the caller's (revoked, expired, or someone else's)."""

    code = "token_not_found"
    title = gettext_lazy("No such token")


class RoundNotFound(NotFoundError):
    code = "round_not_found"
    title = gettext_lazy("No such round")


class MoveNotFound(NotFoundError):
    code = "move_not_found"
    title = gettext_lazy("No such move")


class MatchNotFinished(ConflictError):
    code = "match_not_finished"
    title = gettext_lazy("Match not finished")


class ResultsIncompleteProblem(ConflictError):
    code = "results_incomplete"
    title = gettext_lazy("Results incomplete")


class NotOrganiser(ForbiddenError):
    code = "not_organiser"
    title = gettext_lazy("Not an organiser")


class AlreadyLeft(ConflictError):
    code = "already_left"
    title = gettext_lazy("Already left")


class SeatLeft(ConflictError):
    code = "seat_left"
    title = gettext_lazy("Seat played by a bot")


def table_no_moves_detail(match_id: int) -> str:
    return _(
        "Match %(match)s is played at a table with real tiles: it has no moves, hand or "
        "board; enter each round's scores (POST /api/matches/{id}/rounds/{n}/scores)."
    ) % {"match": match_id}


class TableMatchNoMoves(ConflictError):
    """A move, a board or legal moves asked of a table match (it has none)."""

    code = "table_match"
    title = gettext_lazy("Played at a table")


class NotTableMatch(ConflictError):
    """Scores entered for a match the server deals (its rounds score themselves)."""

    code = "not_table_match"
    title = gettext_lazy("Not a table match")


class NotScorer(ForbiddenError):
    code = "not_scorer"
    title = gettext_lazy("Not a scorer")


class ScorerLinkNotFound(NotFoundError):
    code = "scorer_link_not_found"
    title = gettext_lazy("No such scorer link")


class AlreadyConfirmed(ConflictError):
    code = "already_confirmed"
    title = gettext_lazy("Already confirmed")


class OwnEntry(ForbiddenError):
    code = "own_entry"
    title = gettext_lazy("Your own entry")


class NoDispute(ConflictError):
    code = "no_dispute"
    title = gettext_lazy("No open dispute")


class NotGuestSeat(ConflictError):
    code = "not_guest_seat"
    title = gettext_lazy("Not a guest's seat")


class ClaimCodeUnknown(NotFoundError):
    """A claim code that claims nothing: never given, used already, or past its expiry."""

    code = "claim_code_unknown"
    title = gettext_lazy("No such claim code")


class ClaimConflict(ConflictError):
    """An account that sat in one of the guest's matches: it cannot take a second seat there."""

    code = "claim_conflict"
    title = gettext_lazy("Already at that table")


class MatchLocked(ConflictError):
    """A table match whose competition has moved on: its scores stand unless it is reopened."""

    code = "match_locked"
    title = gettext_lazy("Match locked")


class NotScoreReader(ForbiddenError):
    """The score log of a table match is for its players, its creator and its organiser."""

    code = "not_score_reader"
    title = gettext_lazy("Not a reader of the score log")


class EmailTaken(ConflictError):
    """An e-mail address another account has verified (compared without regard to case)."""

    code = "email_taken"
    title = gettext_lazy("E-mail address taken")


class InvalidLink(ProblemError):
    """A verification or password-reset link's token that is not one: altered, expired, for
    another account or address, or already used."""

    code = "invalid_link"
    title = gettext_lazy("Invalid or expired link")


class StillOrganising(ConflictError):
    """Deleting an account that organises a competition not yet finished; carries
    ``competitions`` (their ids)."""

    code = "still_organising"
    title = gettext_lazy("Still organising")


class SeatHeld(ConflictError):
    """A seat held for an invited player (or a link) until the invitation is answered or
    expires; carries ``held_seats``."""

    code = "seat_held"
    title = gettext_lazy("Seat held")


class InvitationNotFound(NotFoundError):
    """An invitation that is not the caller's to answer or withdraw, or a link's code that
    opens none."""

    code = "invitation_not_found"
    title = gettext_lazy("No such invitation")


class InvitationExpired(ConflictError):
    code = "invitation_expired"
    title = gettext_lazy("Invitation expired")


class InvitationClosed(ConflictError):
    """An invitation answered already: accepted (a link's code works once), declined or
    withdrawn; carries ``state``."""

    code = "invitation_closed"
    title = gettext_lazy("Invitation closed")


class ChatClosed(ConflictError):
    """The match ended too long ago for its chat to take a phrase (games/chat/access.py)."""

    code = "chat_closed"
    title = gettext_lazy("Chat closed")


class HintsOff(ConflictError):
    """A hint asked for in a match not created with ``"hints": true``."""

    code = "hints_off"
    title = gettext_lazy("Hints are off")


class HintLimit(ProblemError):
    """A seat asked for a second hint in the same position (``HINTS_PER_TURN``)."""

    status = HTTPStatus.TOO_MANY_REQUESTS
    code = "hint_limit"
    title = gettext_lazy("Hint already given")
