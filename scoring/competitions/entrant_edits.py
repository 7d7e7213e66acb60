"""An entrant changed by the organiser: their club, seed and division, and a dropped entrant
taken back.

Each locks the competition row first, as ``scoring.competitions.services`` does, and writes
nothing on a refusal.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from chickenfoot.problems import InvalidInput
from scoring.competitions import checkins, divisions
from scoring.competitions.entrants import club_problem
from scoring.competitions.problems import DivisionFixed, NotRegistered, WrongCompetitionStatus
from scoring.models import CheckIn, Competition, Registration
from scoring.ports import PlayerRef


def entrant_update(
    *, competition_id: int, caller: PlayerRef, player_id: int, values: Mapping[str, Any]
) -> Registration:
    """The organiser sets an entrant's ``club``, ``seed`` and ``division`` (any of them; a
    ``seed`` of ``None`` clears it). 409 ``not_registered`` for someone who is not an entrant;
    404 ``division_not_found`` for a division the event does not have; 409 ``division_fixed``
    once the entrant has been seated or had a bye (``divisions.has_played``)."""
    with transaction.atomic():
        competition = checkins.lock_competition(competition_id)
        checkins.organiser_only(
            competition,
            caller,
            _("Only the organiser of competition %(competition)s can change an entrant."),
        )
        registration = _entrant(competition, player_id)
        found: dict[str, list[str]] = {}
        if "club" in values:
            club = (values["club"] or "").strip()
            if (message := club_problem(club)) is not None:
                found["club"] = [message]
            registration.club = club
        if "seed" in values:
            registration.seed = values["seed"]
        if found:
            raise InvalidInput(found)
        if "division" in values:
            _division_change(competition, registration, values["division"])
        registration.save(update_fields=["club", "seed", "division", "division_chosen"])
        return registration


def entrant_reinstate(
    *, competition_id: int, caller: PlayerRef, player_id: int, check_in: bool = False
) -> Registration:
    """The organiser takes a dropped entrant back: seated again from the next stage seated
    (the stages missed score nothing, as a no-show's). 409 unless the competition runs and
    the player dropped out; with ``check_in``, checked in for the next stage too."""
    with transaction.atomic():
        competition = checkins.lock_competition(competition_id)
        checkins.organiser_only(
            competition,
            caller,
            _("Only the organiser of competition %(competition)s can reinstate an entrant."),
        )
        if competition.status != Competition.Status.RUNNING:
            raise WrongCompetitionStatus(
                _(
                    "Competition %(competition)s is %(status)s: a dropped entrant is "
                    "reinstated while it runs."
                )
                % {"competition": competition.pk, "status": competition.status}
            )
        registration = _entrant(competition, player_id)
        if registration.dropped_at is None:
            raise WrongCompetitionStatus(
                _("Player %(player_id)s has not dropped out of competition %(competition)s.")
                % {"player_id": player_id, "competition": competition.pk}
            )
        registration.dropped_at = None
        registration.save(update_fields=["dropped_at"])
        if check_in:
            CheckIn.objects.get_or_create(
                registration=registration,
                stage_number=checkins.check_in_open(competition),
                defaults={
                    "competition": competition,
                    "checked_in_at": timezone.now(),
                    "by_organiser": True,
                },
            )
        return registration


def _division_change(competition: Competition, registration: Registration, given: str) -> None:
    """Move the entrant to division ``given`` (the module says when it is refused)."""
    name = divisions.division_param(competition, given) or ""
    if name != registration.division and divisions.has_played(registration):
        raise DivisionFixed(
            _(
                "Player %(player_id)s has played in division %(division)s of competition "
                "%(competition)s: it stays theirs."
            )
            % {
                "player_id": registration.player_id,
                "division": registration.division,
                "competition": competition.pk,
            },
            extra={"division": registration.division},
        )
    registration.division = name
    registration.division_chosen = True


def _entrant(competition: Competition, player_id: int) -> Registration:
    registration = Registration.objects.filter(
        competition=competition, player_id=player_id, withdrawn_at__isnull=True
    ).first()
    if registration is None:
        raise NotRegistered(
            _("Player %(player_id)s is not an entrant of competition %(competition)s.")
            % {"player_id": player_id, "competition": competition.pk}
        )
    return registration
