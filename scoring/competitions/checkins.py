"""Who plays a tournament's next stage: check-in at table events, and drop-outs.

At a table event (``play: table``) every registered player checks in before each stage (or
the organiser checks them in); the stage seats the players checked in for it and nobody else.
A registered player who has not checked in is a no-show for that stage: not seated, no bye,
no points for it. Check-in for stage ``n`` closes when the organiser closes it or when stage
``n`` starts. An online event has no check-in: a stage seats every registered player.

A player who drops out once the event has started (the organiser drops them, or they
withdraw) is seated at no later stage, and stays in the standings marked ``dropped``.

Each writer locks the competition row first, as ``scoring.competitions.services`` does.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.competitions.problems import (
    CompetitionNotFound,
    NotOrganiser,
    NotRegistered,
    WrongCompetitionStatus,
)
from scoring.models import CheckIn, Competition, Registration
from scoring.ports import PlayerRef

TABLE = Competition.Play.TABLE
#: The statuses in which players check in for the next stage.
CHECK_IN_STATUSES = (
    Competition.Status.REGISTERING,
    Competition.Status.CLOSED,
    Competition.Status.RUNNING,
)


def lock_competition(competition_id: int) -> Competition:
    """The competition row, locked to the end of the caller's transaction (404 if none)."""
    try:
        return Competition.objects.select_for_update().get(pk=competition_id)
    except Competition.DoesNotExist:
        raise CompetitionNotFound(
            _("There is no competition %(competition_id)s.") % {"competition_id": competition_id}
        ) from None


def organiser_only(competition: Competition, player: PlayerRef, refusal: str) -> None:
    """Refuse (403) anyone but the organiser, with ``refusal`` (naming ``%(competition)s``)."""
    if competition.organiser_id != player.id:
        raise NotOrganiser(refusal % {"competition": competition.pk})


def next_stage(competition: Competition) -> int:
    """The stage check-in is for: the one after the current stage."""
    return competition.current_stage + 1


def check_in_open(competition: Competition) -> int:
    """The stage whose check-in is open, or a 409 ``competition_status`` saying why none is."""
    number = next_stage(competition)
    if competition.play != TABLE:
        raise WrongCompetitionStatus(
            _("Competition %(competition)s is played online: its players do not check in.")
            % {"competition": competition.pk}
        )
    if competition.status not in CHECK_IN_STATUSES or number > competition.last_stage:
        raise WrongCompetitionStatus(
            _("Competition %(competition)s is %(status)s: no stage is left to check in for.")
            % {"competition": competition.pk, "status": competition.status}
        )
    if competition.check_in_closed_stage >= number:
        raise WrongCompetitionStatus(
            _("Check-in for stage %(number)s of competition %(competition)s is closed.")
            % {"number": number, "competition": competition.pk}
        )
    return number


def _registration(competition: Competition, player_id: int) -> Registration:
    """The player's registration, if they are registered and have not dropped out (409)."""
    registration = Registration.objects.filter(
        competition=competition, player_id=player_id, withdrawn_at__isnull=True
    ).first()
    if registration is None:
        raise NotRegistered(
            _("Player %(player_id)s is not registered for competition %(competition)s.")
            % {"player_id": player_id, "competition": competition.pk}
        )
    if registration.dropped_at is not None:
        raise WrongCompetitionStatus(
            _("Player %(player_id)s has dropped out of competition %(competition)s.")
            % {"player_id": player_id, "competition": competition.pk}
        )
    return registration


def check_in_create(*, competition_id: int, caller: PlayerRef, player_id: int | None) -> CheckIn:
    """Check ``player_id`` in for the next stage (the caller themselves when ``None``; someone
    else only by the organiser, 403). Checking in twice keeps the first check-in."""
    with transaction.atomic():
        competition = lock_competition(competition_id)
        by_organiser = player_id is not None and player_id != caller.id
        if by_organiser:
            organiser_only(
                competition,
                caller,
                _("Only the organiser of competition %(competition)s can check another player in."),
            )
        number = check_in_open(competition)
        registration = _registration(competition, caller.id if player_id is None else player_id)
        check_in, _created = CheckIn.objects.get_or_create(
            registration=registration,
            stage_number=number,
            defaults={
                "competition": competition,
                "checked_in_at": timezone.now(),
                "by_organiser": by_organiser,
            },
        )
        return check_in


def check_in_undo(*, competition_id: int, player: PlayerRef) -> None:
    """Undo ``player``'s check-in for the next stage, before that stage is seated (409 after)."""
    with transaction.atomic():
        competition = lock_competition(competition_id)
        number = check_in_open(competition)
        registration = _registration(competition, player.id)
        CheckIn.objects.filter(registration=registration, stage_number=number).delete()


def check_in_close(*, competition_id: int, player: PlayerRef) -> Competition:
    """The organiser closes check-in for the next stage: nobody checks in or out of it now."""
    with transaction.atomic():
        competition = lock_competition(competition_id)
        organiser_only(
            competition,
            player,
            _("Only the organiser of competition %(competition)s can close check-in."),
        )
        competition.check_in_closed_stage = check_in_open(competition)
        competition.save(update_fields=["check_in_closed_stage"])
        return competition


def check_ins_list(*, competition: Competition) -> dict[str, Any]:
    """Who is checked in for the next stage, in order of check-in, and whether it is open."""
    number = next_stage(competition)
    rows = (
        CheckIn.objects.filter(
            competition=competition,
            stage_number=number,
            registration__withdrawn_at__isnull=True,
            registration__dropped_at__isnull=True,
        )
        .order_by("checked_in_at", "pk")
        .values(
            "registration__player_id",
            "registration__player__display_name",
            "checked_in_at",
            "by_organiser",
        )
    )
    return {
        "stage": number,
        "open": competition.play == TABLE
        and competition.status in CHECK_IN_STATUSES
        and number <= competition.last_stage
        and competition.check_in_closed_stage < number,
        "check_ins": [
            {
                "player_id": row["registration__player_id"],
                "name": row["registration__player__display_name"],
                "checked_in_at": row["checked_in_at"],
                "by_organiser": row["by_organiser"],
            }
            for row in rows
        ],
    }


def stage_field(*, competition: Competition, number: int) -> list[int]:
    """The player ids stage ``number`` seats (the caller holds the competition's lock), by id:
    the registered players who have not dropped out, may play it (a late entrant plays from
    the stage after the one seated when they were added) and, at a table event, have checked
    in."""
    rows = Registration.objects.filter(
        competition=competition,
        withdrawn_at__isnull=True,
        dropped_at__isnull=True,
        first_stage__lte=number,
    )
    if competition.play == TABLE:
        rows = rows.filter(check_ins__stage_number=number)
    return sorted(rows.values_list("player_id", flat=True))


def player_drop(*, competition_id: int, caller: PlayerRef, player_id: int) -> Registration:
    """Drop ``player_id`` out of a running competition (the organiser, or the player through
    ``registration_withdraw``): seated at no later stage, kept in the standings. Idempotent."""
    with transaction.atomic():
        competition = lock_competition(competition_id)
        if player_id != caller.id:
            organiser_only(
                competition,
                caller,
                _("Only the organiser of competition %(competition)s can drop a player."),
            )
        return registration_drop(competition=competition, player_id=player_id)


def registration_drop(*, competition: Competition, player_id: int) -> Registration:
    """Mark the registration dropped (the caller holds the competition's lock; 409 unless the
    competition is running and the player registered)."""
    if competition.status != Competition.Status.RUNNING:
        raise WrongCompetitionStatus(
            _("Competition %(competition)s is %(status)s: players drop out only while it runs.")
            % {"competition": competition.pk, "status": competition.status}
        )
    registration = Registration.objects.filter(
        competition=competition, player_id=player_id, withdrawn_at__isnull=True
    ).first()
    if registration is None:
        raise NotRegistered(
            _("Player %(player_id)s is not registered for competition %(competition)s.")
            % {"player_id": player_id, "competition": competition.pk}
        )
    if registration.dropped_at is None:
        registration.dropped_at = timezone.now()
        registration.save(update_fields=["dropped_at"])
    return registration
