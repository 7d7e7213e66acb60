"""The organiser's rules for seating a tournament, changed after it was created: how stage 1
is seeded (``seeding``), what a late entrant scores for the stages missed (``late_entry``),
whether the best play a final table (``final_table``), its divisions (``divisions``,
``scoring.competitions.division_changes``), and who is kept apart
(``keep_apart``: clubs, and the pairs the organiser names)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from chickenfoot.problems import InvalidInput
from scoring.competitions import checkins, final_table, round_robin
from scoring.competitions.division_changes import divisions_change
from scoring.competitions.problems import WrongCompetitionStatus
from scoring.competitions.selectors import competition_get
from scoring.models import Competition, KeepApart, Registration, Stage
from scoring.ports import PlayerRef


def _organisers(competition_id: int, caller: PlayerRef) -> Competition:
    """The competition, locked, for its organiser (403) while it has not finished (409)."""
    competition = checkins.lock_competition(competition_id)
    checkins.organiser_only(
        competition,
        caller,
        _("Only the organiser of competition %(competition)s can change how it is seated."),
    )
    if competition.status == Competition.Status.FINISHED:
        raise WrongCompetitionStatus(
            _("Competition %(competition)s has finished: its rules stay as they were.")
            % {"competition": competition.pk}
        )
    return competition


def _final_table_check(competition: Competition, value: dict[str, int] | None) -> None:
    """Refuse a final table the competition cannot have (400 naming ``final_table``), and any
    change once the final is seated, or its removal once the Swiss stages are over (409)."""
    problems = final_table.size_problems(
        value=value,
        kind=competition.kind,
        table_size=competition.table_size,
        allow_bots=competition.allow_bots,
    )
    if problems:
        raise InvalidInput({"final_table": problems})
    if value == competition.final_table:
        return
    if Stage.objects.filter(competition=competition, final=True).exists():
        raise WrongCompetitionStatus(
            _("Competition %(competition)s's final table is seated: it stays as it is.")
            % {"competition": competition.pk}
        )
    swiss_over = Stage.objects.filter(
        competition=competition, number=competition.stage_count, status=Stage.Status.FINISHED
    ).exists()
    if value is None and swiss_over:
        raise WrongCompetitionStatus(
            _(
                "Competition %(competition)s's Swiss stages are over: the final table is "
                "all that is left to play."
            )
            % {"competition": competition.pk}
        )


def _pairing_check(competition: Competition, pairing: str) -> None:
    """Refuse a pairing the competition cannot have (400 naming ``pairing``), or a change
    once stage 1 is seated (409)."""
    problems = round_robin.pairing_problems(
        {
            "pairing": pairing,
            "kind": competition.kind,
            "table_size": competition.table_size,
            "allow_bots": competition.allow_bots,
        }
    )
    if problems:
        raise InvalidInput({"pairing": problems})
    if competition.current_stage:
        raise WrongCompetitionStatus(
            _("Competition %(competition)s's stages have begun: its pairing stays.")
            % {"competition": competition.pk}
        )


def competition_rules_update(
    *, competition_id: int, caller: PlayerRef, values: Mapping[str, Any]
) -> Competition:
    """Set ``seeding``, ``late_entry``, ``final_table``, ``pairing`` and ``divisions`` (any
    of them); ``pairing`` and ``divisions`` until stage 1 is seated (``division_changes``).
    Seeding counts whenever stage 1 is seated (or re-paired); ``late_entry`` stays once an
    entrant has entered late and been scored by it (409); ``final_table`` is checked as at
    creation (400) and stays once the final is seated (409). Nothing is written when one is
    refused."""
    with transaction.atomic():
        competition = _organisers(competition_id, caller)
        if "pairing" in values and values["pairing"] != competition.pairing:
            _pairing_check(competition, values["pairing"])
            competition.pairing = values["pairing"]
        if "final_table" in values:
            _final_table_check(competition, values["final_table"])
            competition.final_table = values["final_table"]
        late_entry = values.get("late_entry", competition.late_entry)
        if late_entry != competition.late_entry and (
            Registration.objects.filter(
                competition=competition, withdrawn_at__isnull=True, first_stage__gt=1
            ).exists()
        ):
            raise WrongCompetitionStatus(
                _(
                    "Competition %(competition)s has late entrants scored by late_entry "
                    "%(late_entry)s: it stays."
                )
                % {"competition": competition.pk, "late_entry": competition.late_entry}
            )
        competition.late_entry = late_entry
        competition.seeding = values.get("seeding", competition.seeding)
        if "divisions" in values:
            divisions_change(competition, values["divisions"])
        competition.save(
            update_fields=["late_entry", "seeding", "final_table", "pairing", "divisions"]
        )
        return competition


def keep_apart_read(*, competition: Competition) -> dict[str, Any]:
    """Who is kept apart: ``clubs`` (each two entrants of one club), and the ``pairs`` the
    organiser named (player ids, each pair lower first, in order)."""
    return {
        "clubs": competition.keep_apart_clubs,
        "pairs": [
            [a, b]
            for a, b in KeepApart.objects.filter(competition=competition)
            .order_by("player_a", "player_b")
            .values_list("player_a_id", "player_b_id")
        ],
    }


def keep_apart_check(*, competition_id: int, caller: PlayerRef) -> Competition:
    """The competition, for its organiser's eyes only (403)."""
    competition = competition_get(competition_id=competition_id)
    checkins.organiser_only(
        competition,
        caller,
        _("Only the organiser of competition %(competition)s can see who is kept apart."),
    )
    return competition


def keep_apart_set(
    *, competition_id: int, caller: PlayerRef, clubs: bool, pairs: list[list[int]]
) -> Competition:
    """Replace who is kept apart: ``clubs``, and ``pairs`` of entrants (two different
    entrants each, every bad pair named at once: 400 ``invalid``). It counts from the next
    seating (a stage started or re-paired)."""
    with transaction.atomic():
        competition = _organisers(competition_id, caller)
        entrants = set(
            Registration.objects.filter(
                competition=competition, withdrawn_at__isnull=True
            ).values_list("player_id", flat=True)
        )
        errors: dict[str, list[str]] = {}
        wanted: set[tuple[int, int]] = set()
        for index, pair in enumerate(pairs):
            a, b = pair
            if a == b:
                errors[f"pairs.{index}"] = [_("A pair is two different entrants.")]
                continue
            strangers = [p for p in (a, b) if p not in entrants]
            if strangers:
                errors[f"pairs.{index}"] = [
                    _("Player %(player_id)s is not an entrant of competition %(competition)s.")
                    % {"player_id": strangers[0], "competition": competition.pk}
                ]
                continue
            wanted.add((min(a, b), max(a, b)))
        if errors:
            raise InvalidInput(errors)
        KeepApart.objects.filter(competition=competition).delete()
        KeepApart.objects.bulk_create(
            KeepApart(competition=competition, player_a_id=a, player_b_id=b)
            for a, b in sorted(wanted)
        )
        competition.keep_apart_clubs = clubs
        competition.save(update_fields=["keep_apart_clubs"])
        return competition
