"""A stage's seating as its organiser changes it: read, checked, written again, and audited.

Every change (``scoring.competitions.stage_edits``) goes through ``stage_open``, which takes the
locks (the stage's matches in id order, then the competition's row: the order score entry,
corrections, moves and the end-of-match task keep), refuses anyone but the organiser (403), a
stage that is not the last seated (409 ``wrong_stage``) and a version other than the stage's
(``If-Match``: 428 when none is sent, 409 ``stale_version`` or ``version_ahead``).
``division_check`` refuses a change that would seat entrants of two divisions together (409
``division_mismatch``). ``scoring_check`` then refuses a stage with scores (409
``stage_scoring_started``, naming the tables) unless the organiser reopened its seating, and
even then a change that touches a table with scores. A table has scores once a round's scores
are entered at a table event; online, once a move is played at it (a human's, a bot's or one the
turn clock played) or a round of it ended as it was dealt. ``tables_write`` makes the tables
what the change planned through the games port: at a table event a table match reseated, made or
deleted; online, a table whose seats changed is dealt again (its match deleted, its sockets
told, a new match dealt and started for the new seats, its players notified) and one no longer
planned deleted. ``change_record`` keeps the audit row and moves the version on.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.competitions import checkins, divisions, pairing
from scoring.competitions.checkins import TABLE
from scoring.competitions.dashboard import started_stage
from scoring.competitions.problems import (
    DivisionMismatch,
    StageScoringStarted,
    StageVersionAhead,
    StageVersionRequired,
    StaleStage,
    WrongStage,
)
from scoring.models import Bye, Competition, CompetitionMatch, SeatingChange, Stage
from scoring.ports import PlayerRef, games_port


@dataclass
class Table:
    """One table of a stage: its number, its match (``None``: a table still to make), who sits
    there in seat order (``None``: a bot, online), whether the organiser locked it, whether it
    has scores."""

    table: int
    match_id: int | None
    seats: list[int | None]
    locked: bool = False
    scored: bool = False


@dataclass
class Plan:
    """A stage being changed: the competition and stage (locked), its tables, its byes."""

    competition: Competition
    stage: Stage
    tables: list[Table]
    byes: list[Bye] = field(default_factory=list)

    def seated(self) -> dict[int, Table]:
        """Each seated entrant's table (a bot is no entrant)."""
        return {
            player: table for table in self.tables for player in table.seats if player is not None
        }

    def table(self, number: int) -> Table | None:
        return next((table for table in self.tables if table.table == number), None)


def read_tables(*, stage: Stage) -> list[Table]:
    """The stage's tables in order, each with its seats in seat order (a bot's: ``None``)."""
    tables: dict[int, Table] = {}
    for row in (
        CompetitionMatch.objects.filter(stage=stage)
        .order_by("table_number", "match__seats__position")
        .values(
            "table_number",
            "match_id",
            "locked",
            "match__bot_seats",
            "match__seats__position",
            "match__seats__player_id",
        )
    ):
        table = tables.setdefault(
            row["table_number"],
            Table(
                table=row["table_number"], match_id=row["match_id"], seats=[], locked=row["locked"]
            ),
        )
        if row["match__seats__position"] in (row["match__bot_seats"] or []):
            table.seats.append(None)
        elif row["match__seats__player_id"] is not None:
            table.seats.append(row["match__seats__player_id"])
    return list(tables.values())


def version_check(*, stage: Stage, expected: int | None) -> None:
    """Refuse a change that answers no version (428), one the seating has not reached or one
    it has passed (409); each carries ``current_version``."""
    extra = {"current_version": stage.version}
    if expected is None:
        raise StageVersionRequired(
            _('Send the stage\'s version you are answering: If-Match: "%(version)s".')
            % {"version": stage.version},
            extra=extra,
        )
    if expected > stage.version:
        raise StageVersionAhead(
            _(
                "Stage %(number)s's seating is at version %(version)s; it has not reached "
                "%(expected)s."
            )
            % {"number": stage.number, "version": stage.version, "expected": expected},
            extra=extra,
        )
    if expected != stage.version:
        raise StaleStage(
            _(
                "Stage %(number)s's seating is at version %(version)s, not %(expected)s: "
                "read it again and resend."
            )
            % {"number": stage.number, "version": stage.version, "expected": expected},
            extra=extra,
        )


def stage_open(
    *, competition_id: int, number: int, caller: PlayerRef, expected_version: int | None
) -> Plan:
    """The stage's seating, locked and checked for a change (the module says what is
    refused). The caller holds a transaction."""
    match_ids = list(
        CompetitionMatch.objects.filter(
            competition_id=competition_id, stage__number=number
        ).values_list("match_id", flat=True)
    )
    games_port().matches_lock(match_ids=match_ids)
    competition = checkins.lock_competition(competition_id)
    checkins.organiser_only(
        competition,
        caller,
        _("Only the organiser of competition %(competition)s can change a stage's seating."),
    )
    stage = started_stage(competition=competition, number=number)
    if number != competition.current_stage:
        raise WrongStage(
            _(
                "Stage %(number)s of competition %(competition)s is over: only the stage "
                "seated last, %(current)s, is changed."
            )
            % {
                "number": number,
                "competition": competition.pk,
                "current": competition.current_stage,
            },
            extra={"next_stage": competition.current_stage + 1},
        )
    version_check(stage=stage, expected=expected_version)
    tables = read_tables(stage=stage)
    scored = games_port().tables_scored(
        match_ids=[t.match_id for t in tables if t.match_id is not None]
    )
    for table in tables:
        table.scored = table.match_id in scored
    byes = list(Bye.objects.filter(stage=stage).select_related("registration"))
    return Plan(competition=competition, stage=stage, tables=tables, byes=byes)


def scoring_check(plan: Plan, touched: Iterable[int] | None = None) -> None:
    """Refuse (409 ``stage_scoring_started``) a change to a stage a table of which has scores,
    naming those tables; once the organiser reopened the seating, only a change that touches
    one of them (``touched``: table numbers; ``None``: every table)."""
    scored = [table.table for table in plan.tables if table.scored]
    if not scored:
        return
    if plan.stage.seating_reopened_at is not None:
        wanted = {t.table for t in plan.tables} if touched is None else set(touched)
        scored = [number for number in scored if number in wanted]
        if not scored:
            return
        reason = _("their scores belong to who sits there")
    else:
        reason = _("its organiser may reopen the seating first")
    values = {
        "tables": ", ".join(map(str, scored)),
        "number": plan.stage.number,
        "reason": reason,
    }
    if plan.competition.play == TABLE:
        detail = ngettext(
            "Table %(tables)s of stage %(number)s has scores: %(reason)s.",
            "Tables %(tables)s of stage %(number)s have scores: %(reason)s.",
            len(scored),
        )
    else:
        detail = ngettext(
            "Table %(tables)s of stage %(number)s has started, a move was played there: "
            "%(reason)s.",
            "Tables %(tables)s of stage %(number)s have started, a move was played at each: "
            "%(reason)s.",
            len(scored),
        )
    raise StageScoringStarted(
        detail % values,
        extra={"tables": scored},
    )


def division_check(plan: Plan, player: int, others: Iterable[int]) -> None:
    """Refuse (409 ``division_mismatch``) a change that would seat ``player`` with ``others``
    (or in their place) from another division: nobody is seated across divisions."""
    if not plan.competition.divisions:
        return
    of = divisions.entrant_divisions(plan.competition)
    apart = sorted({p for p in others if of.get(p) != of.get(player)})
    if not apart:
        return
    named = {str(p): of.get(p) for p in [player, *apart]}
    raise DivisionMismatch(
        _(
            "Player %(player_id)s plays in division %(division)s, player %(other)s in "
            "division %(other_division)s: nobody is seated across divisions."
        )
        % {
            "player_id": player,
            "division": of.get(player),
            "other": apart[0],
            "other_division": of.get(apart[0]),
        },
        extra={"divisions": named},
    )


def tables_write(plan: Plan, planned: list[Table]) -> list[dict[str, Any]]:
    """Make the stage's tables ``planned``: a table whose seats changed is reseated (at a table
    event) or dealt again as a new match (online: ``replaced_match_id`` in its row), a new one
    (``match_id`` ``None``) made, one no longer planned deleted. The tables touched, before and
    after (for the audit); ``planned`` gets the new tables' match ids."""
    port = games_port()
    competition = plan.competition
    online = competition.play != TABLE
    before = {table.match_id: table for table in plan.tables}
    touched: list[dict[str, Any]] = []
    kept = {table.match_id for table in planned if table.match_id is not None}
    gone = [table for table in plan.tables if table.match_id not in kept]
    touched += [{"table": t.table, "match_id": t.match_id, "before": t.seats, "after": []}
                for t in gone]  # fmt: skip
    changed = [
        table
        for table in planned
        if table.match_id is None or before[table.match_id].seats != table.seats
    ]
    replaced = {t.table: t.match_id for t in changed if online and t.match_id is not None}
    deleted = [t.match_id for t in gone if t.match_id is not None] + list(replaced.values())
    if deleted:  # first: a table dealt again takes its number back
        port.table_matches_delete(match_ids=deleted)
    for table in changed:
        old = before.get(table.match_id) if table.match_id is not None else None
        row: dict[str, Any] = {"table": table.table}
        if old is not None and not online:
            port.table_match_reseat(
                match_id=old.match_id,  # type: ignore[arg-type]
                player_ids=[p for p in table.seats if p is not None],
                options=competition.options,
            )
        else:
            table.match_id = pairing.table_match_create(competition, list(table.seats))
            CompetitionMatch.objects.create(
                competition=competition,
                match_id=table.match_id,
                stage=plan.stage,
                table_number=table.table,
                locked=table.locked,
            )
            if old is not None:
                row["replaced_match_id"] = old.match_id
        row.update(
            match_id=table.match_id,
            before=old.seats if old is not None else [],
            after=list(table.seats),
        )
        touched.append(row)
    plan.tables = planned
    return touched


def change_record(
    plan: Plan,
    *,
    kind: str,
    caller: PlayerRef,
    reason: str,
    players: list[int],
    tables: list[dict[str, Any]],
    byes: dict[str, list[int]] | None = None,
) -> SeatingChange:
    """Move the stage's version on and keep the change (who, when, what, why); a public wall
    is told after commit."""
    stage = plan.stage
    stage.version += 1
    stage.save(update_fields=["version", "seating_reopened_at", "pairing_stale"])
    if plan.competition.public:
        games_port().wall_seating_changed(competition_id=plan.competition.pk)
    return SeatingChange.objects.create(
        competition=plan.competition,
        stage_number=stage.number,
        version=stage.version,
        kind=kind,
        by_id=caller.id,
        at=timezone.now(),
        reason=reason,
        players=players,
        tables=tables,
        byes=byes,
    )
