"""The organiser's hand on a stage's seating: swap two entrants, move one to another table or
an empty seat, seat an entrant in place of a no-show, lock tables, re-pair the stage, at a
table event or online (where a table whose seats change is dealt again: ``stage_plan``).

Each runs in one transaction through ``stage_plan`` (locks, the organiser, the version
answered, the scores entered: the refusals it lists), changes the tables, moves the stage's
version on and keeps the change with who made it, when and why (``SeatingChange``). Every bad
field is named at once (400 ``invalid``) and nothing is written on a refusal; at an event with
divisions, a swap, move or replacement that would seat two divisions together is 409
``division_mismatch``. Undoing a stage
and reopening its seating are in ``stage_undo``.
"""

from __future__ import annotations

from copy import deepcopy

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from chickenfoot.problems import InvalidInput
from scoring.competitions import byes as stage_byes
from scoring.competitions import checkins, pairing, totals
from scoring.competitions.checkins import TABLE
from scoring.competitions.problems import TooFewPlayers
from scoring.competitions.stage_plan import (
    Plan,
    Table,
    change_record,
    division_check,
    scoring_check,
    stage_open,
    tables_write,
)
from scoring.models import Bye, CheckIn, CompetitionMatch, Registration, SeatingChange, Stage
from scoring.ports import PlayerRef

KIND = SeatingChange.Kind


def _not_seated(plan: Plan, player_id: int) -> str:
    return _("Player %(player_id)s has no seat at stage %(number)s.") % {
        "player_id": player_id,
        "number": plan.stage.number,
    }


def _byes_of(plan: Plan) -> list[int]:
    return sorted(bye.player_id for bye in plan.byes)


def _unseated_entrant(plan: Plan, player_id: int) -> Registration | str:
    """The registration of an entrant who may take a seat at the stage (registered, not
    dropped, not seated there), or why they may not."""
    if player_id in plan.seated():
        return _("Player %(player_id)s has a seat at stage %(number)s already.") % {
            "player_id": player_id,
            "number": plan.stage.number,
        }
    registration = Registration.objects.filter(
        competition=plan.competition, player_id=player_id, withdrawn_at__isnull=True
    ).first()
    if registration is None:
        return _("Player %(player_id)s is not an entrant of competition %(competition)s.") % {
            "player_id": player_id,
            "competition": plan.competition.pk,
        }
    if registration.dropped_at is not None:
        return _(
            "Player %(player_id)s has dropped out of competition %(competition)s: reinstate "
            "them first."
        ) % {"player_id": player_id, "competition": plan.competition.pk}
    return registration


def _seat_at_stage(plan: Plan, registration: Registration) -> bool:
    """An entrant not seated so far takes a seat at the stage: they play it (their first
    stage may be no later; at a table event, checked in for it) and any bye they had for it
    goes. Whether a bye went (the totals are then rebuilt by the caller)."""
    stage = plan.stage
    if registration.first_stage > stage.number:
        registration.first_stage = stage.number
        registration.save(update_fields=["first_stage"])
    if plan.competition.play == TABLE:
        CheckIn.objects.get_or_create(
            registration=registration,
            stage_number=stage.number,
            defaults={
                "competition": plan.competition,
                "checked_in_at": timezone.now(),
                "by_organiser": True,
            },
        )
    removed, _rows = Bye.objects.filter(stage=stage, registration=registration).delete()
    return bool(removed)


def seating_swap(
    *,
    competition_id: int,
    number: int,
    caller: PlayerRef,
    expected_version: int | None,
    players: list[int],
    reason: str = "",
) -> Stage:
    """Two entrants seated at stage ``number`` change seats (tables and seat positions)."""
    with transaction.atomic():
        plan = stage_open(
            competition_id=competition_id,
            number=number,
            caller=caller,
            expected_version=expected_version,
        )
        seated = plan.seated()
        errors: dict[str, list[str]] = {}
        for index, player_id in enumerate(players):
            if player_id not in seated:
                errors[f"players.{index}"] = [_not_seated(plan, player_id)]
        if players[0] == players[1]:
            errors["players"] = [_("A swap is of two different entrants.")]
        if errors:
            raise InvalidInput(errors)
        a, b = players
        division_check(plan, a, [b])
        scoring_check(plan, {seated[a].table, seated[b].table})
        planned = deepcopy(plan.tables)
        for table in planned:
            table.seats = [b if p == a else a if p == b else p for p in table.seats]
        touched = tables_write(plan, planned)
        change_record(
            plan, kind=KIND.SWAP, caller=caller, reason=reason, players=[a, b], tables=touched
        )
        return plan.stage


def seating_move(
    *,
    competition_id: int,
    number: int,
    caller: PlayerRef,
    expected_version: int | None,
    player: int,
    table: int,
    position: int | None = None,
    reason: str = "",
) -> Stage:
    """Move entrant ``player`` to an empty seat at ``table`` (at ``position``, or the last),
    from their table at the stage, or from no seat there (a late entrant, a bye: the bye
    goes)."""
    with transaction.atomic():
        plan = stage_open(
            competition_id=competition_id,
            number=number,
            caller=caller,
            expected_version=expected_version,
        )
        size = plan.competition.table_size
        errors: dict[str, list[str]] = {}
        target = plan.table(table)
        source = plan.seated().get(player)
        registration: Registration | None = None
        if source is None:
            found = _unseated_entrant(plan, player)
            if isinstance(found, str):
                errors["player"] = [found]
            else:
                registration = found
        elif source is not target and len(source.seats) <= 2:
            errors["player"] = [
                _("Table %(table)s would be left with one player: swap instead, or re-pair.")
                % {"table": source.table}
            ]
        elif source is not target and not [p for p in source.seats if p not in (None, player)]:
            errors["player"] = [
                _("Table %(table)s would be left with bots only: swap instead, or re-pair.")
                % {"table": source.table}
            ]
        if target is None:
            errors["table"] = [
                _("Stage %(number)s has no table %(table)s.")
                % {"number": plan.stage.number, "table": table}
            ]
        elif source is not target and len(target.seats) >= size:
            errors["table"] = [
                _("Table %(table)s is full: tables seat %(size)s.") % {"table": table, "size": size}
            ]
        elif source is target and position is None:
            errors["position"] = [_("Give the seat to move to at the same table.")]
        if target is not None and position is not None:
            last = len(target.seats) - (1 if source is target else 0)
            if not 0 <= position <= last:
                errors["position"] = [
                    _("Table %(table)s has seats 0 to %(last)s to move to; got %(position)s.")
                    % {"table": table, "last": last, "position": position}
                ]
        if errors or target is None:
            raise InvalidInput(errors)
        division_check(plan, player, [p for p in target.seats if p != player])
        scoring_check(plan, {target.table} | ({source.table} if source else set()))
        byes_before = _byes_of(plan)
        planned = deepcopy(plan.tables)
        by_number = {t.table: t for t in planned}
        if source is not None:
            by_number[source.table].seats.remove(player)
        seats = by_number[target.table].seats
        seats.insert(len(seats) if position is None else position, player)
        bye_gone = registration is not None and _seat_at_stage(plan, registration)
        touched = tables_write(plan, planned)
        byes = None
        if bye_gone:
            totals.rebuild(competition_ids=[plan.competition.pk])
            byes = {"before": byes_before, "after": [p for p in byes_before if p != player]}
        change_record(
            plan,
            kind=KIND.MOVE,
            caller=caller,
            reason=reason,
            players=[player],
            tables=touched,
            byes=byes,
        )
        return plan.stage


def seating_replace(
    *,
    competition_id: int,
    number: int,
    caller: PlayerRef,
    expected_version: int | None,
    player: int,
    replaces: int,
    reason: str = "",
) -> Stage:
    """Entrant ``player``, not seated at the stage (a late entrant, a no-show who came after
    all, a bye), takes the seat of ``replaces``, who has not come: a no-show for the stage
    (their check-in for it undone)."""
    with transaction.atomic():
        plan = stage_open(
            competition_id=competition_id,
            number=number,
            caller=caller,
            expected_version=expected_version,
        )
        errors: dict[str, list[str]] = {}
        found = _unseated_entrant(plan, player)
        if isinstance(found, str):
            errors["player"] = [found]
        table = plan.seated().get(replaces)
        if table is None:
            errors["replaces"] = [_not_seated(plan, replaces)]
        if errors or table is None or isinstance(found, str):
            raise InvalidInput(errors)
        division_check(plan, player, [replaces])
        scoring_check(plan, {table.table})
        byes_before = _byes_of(plan)
        planned = deepcopy(plan.tables)
        for row in planned:
            row.seats = [player if p == replaces else p for p in row.seats]
        CheckIn.objects.filter(
            registration__competition=plan.competition,
            registration__player_id=replaces,
            stage_number=number,
        ).delete()
        bye_gone = _seat_at_stage(plan, found)
        touched = tables_write(plan, planned)
        byes = None
        if bye_gone:
            totals.rebuild(competition_ids=[plan.competition.pk])
            byes = {"before": byes_before, "after": [p for p in byes_before if p != player]}
        change_record(
            plan,
            kind=KIND.REPLACE,
            caller=caller,
            reason=reason,
            players=[player, replaces],
            tables=touched,
            byes=byes,
        )
        return plan.stage


def seating_lock(
    *,
    competition_id: int,
    number: int,
    caller: PlayerRef,
    expected_version: int | None,
    tables: list[int],
    locked: bool,
    reason: str = "",
) -> Stage:
    """Lock ``tables`` (a re-pair keeps them as they are), or unlock them."""
    with transaction.atomic():
        plan = stage_open(
            competition_id=competition_id,
            number=number,
            caller=caller,
            expected_version=expected_version,
        )
        errors = {
            f"tables.{index}": [
                _("Stage %(number)s has no table %(table)s.")
                % {"number": plan.stage.number, "table": table}
            ]
            for index, table in enumerate(tables)
            if plan.table(table) is None
        }
        if errors:
            raise InvalidInput(errors)
        scoring_check(plan, set(tables))
        CompetitionMatch.objects.filter(stage=plan.stage, table_number__in=tables).update(
            locked=locked
        )
        touched = []
        for row in plan.tables:
            if row.table in tables:
                row.locked = locked
                touched.append(
                    {
                        "table": row.table,
                        "match_id": row.match_id,
                        "before": row.seats,
                        "after": row.seats,
                    }
                )
        change_record(
            plan,
            kind=KIND.LOCK if locked else KIND.UNLOCK,
            caller=caller,
            reason=reason,
            players=[],
            tables=touched,
        )
        return plan.stage


def seating_re_pair(
    *,
    competition_id: int,
    number: int,
    caller: PlayerRef,
    expected_version: int | None,
    reason: str = "",
) -> Stage:
    """Pair the stage again as its start would now (the standings as they are, the field
    checked in, the seeding at stage 1), keeping the tables the organiser locked (and, once
    the seating was reopened, those with scores) as they are: the others' players, with any
    entrant now in the field and unseated, are seated again. Clears ``pairing_stale``."""
    with transaction.atomic():
        plan = stage_open(
            competition_id=competition_id,
            number=number,
            caller=caller,
            expected_version=expected_version,
        )
        kept = [t for t in plan.tables if t.locked or t.scored]
        scoring_check(plan, [t.table for t in plan.tables if not (t.locked or t.scored)])
        byes_before = _byes_of(plan)
        Bye.objects.filter(stage=plan.stage, late_entry=False).delete()
        at_kept = {p for t in kept for p in t.seats if p is not None}
        field = [
            p
            for p in checkins.stage_field(competition=plan.competition, number=number)
            if p not in at_kept
        ]
        if len(field) == 1:
            raise TooFewPlayers(
                _(
                    "Stage %(number)s has one player to seat besides its locked tables: "
                    "unlock a table, or seat them with a move."
                )
                % {"number": number}
            )
        paired = (
            pairing.stage_pairing(
                competition=plan.competition,
                number=number,
                players=field,
                already_seated=at_kept,
            )
            if field
            else pairing.Pairing(tables=[], byes=[])
        )
        stage_byes.byes_record(
            competition=plan.competition, stage=plan.stage, player_ids=paired.byes
        )
        free = [t for t in plan.tables if t not in kept]
        numbers = [t.table for t in free]
        highest = max((t.table for t in plan.tables), default=0)
        numbers += list(range(highest + 1, highest + 1 + len(paired.tables)))
        planned = [Table(t.table, t.match_id, list(t.seats), t.locked, t.scored) for t in kept]
        for index, seats in enumerate(paired.tables):
            match_id = free[index].match_id if index < len(free) else None
            planned.append(Table(numbers[index], match_id, list(seats)))
        planned.sort(key=lambda t: t.table)
        touched = tables_write(plan, planned)
        totals.rebuild(competition_ids=[plan.competition.pk])
        plan.stage.pairing_stale = None
        byes_after = sorted([*paired.byes, *(b.player_id for b in plan.byes if b.late_entry)])
        change_record(
            plan,
            kind=KIND.RE_PAIR,
            caller=caller,
            reason=reason,
            players=sorted(field),
            tables=touched,
            byes={"before": byes_before, "after": byes_after}
            if byes_after != byes_before
            else None,
        )
        return plan.stage
