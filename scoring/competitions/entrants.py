"""Entrants the organiser adds: one at a time or a file of them, at any time until the
competition finishes (``entrant_edits`` changes one, or takes back one who dropped out).

An entrant is a player with an account (by ``username`` or ``player_id``) or a guest (by
``name``: a player of kind ``guest``, as at table matches, made with the entry), each with an
optional ``club``, ``seed`` and ``division`` (at an event with divisions: the organiser's
choice, otherwise the rating band, ``scoring.competitions.divisions``). Adding is the
organiser's, not a registration from the organiser's address: no registration limit counts it.
Everything is checked before anything is written, every bad field (every bad row of a file) at
once; a refusal writes nothing.

An entrant added once stage *k* has been seated plays from stage *k + 1*
(``Registration.first_stage``); under ``late_entry: bye`` each stage missed is a bye
(``Bye.late_entry``) worth a bye's points, in the totals at once. Each writer locks the
competition row first, as ``scoring.competitions.services`` does.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from chickenfoot.problems import InvalidInput
from scoring.competitions import byes as stage_byes
from scoring.competitions import checkins, divisions, totals
from scoring.competitions.checkins import TABLE
from scoring.competitions.problems import (
    AlreadyRegistered,
    InvalidEntrantsFile,
    WrongCompetitionStatus,
)
from scoring.models import Bye, CheckIn, Competition, Registration, Stage
from scoring.ports import EntrantPlayer, PlayerRef, games_port

#: The longest club name kept.
CLUB_MAX_LENGTH = 64
#: The highest seed an organiser may give.
SEED_MAX = 100_000
GUEST = "guest"


@dataclass(frozen=True)
class EntrantSpec:
    """One entrant as the organiser names them; ``key`` prefixes the fields' names in errors
    (``""`` for a request's own fields, ``"3."`` for line 3 of a file)."""

    key: str = ""
    name: str | None = None
    username: str | None = None
    player_id: int | None = None
    club: str = ""
    seed: int | None = None
    division: str | None = None


@dataclass(frozen=True)
class _Entry:
    spec: EntrantSpec
    player: EntrantPlayer | None  # None: a guest, made with the entry
    guest_name: str = ""


def club_problem(club: str) -> str | None:
    """Why ``club`` cannot be a club's name (too long, or a control character in it)."""
    if len(club) > CLUB_MAX_LENGTH:
        return _("Ensure this field has no more than %(max_length)s characters.") % {
            "max_length": CLUB_MAX_LENGTH
        }
    if any(unicodedata.category(char) in ("Cc", "Cf", "Cs") for char in club):
        return _("A club's name is text on one line: no control characters.")
    return None


def _open(competition: Competition, caller: PlayerRef) -> None:
    """Only its organiser adds entrants (403), and only until it finishes (409), or, in a
    round robin, until its schedule is drawn at stage 1 (409)."""
    checkins.organiser_only(
        competition,
        caller,
        _("Only the organiser of competition %(competition)s can add entrants."),
    )
    if competition.status == Competition.Status.FINISHED:
        raise WrongCompetitionStatus(
            _("Competition %(competition)s has finished: nobody enters it now.")
            % {"competition": competition.pk}
        )
    if competition.pairing == Competition.Pairing.ROUND_ROBIN and competition.current_stage:
        raise WrongCompetitionStatus(
            _(
                "Competition %(competition)s is a round robin whose schedule was drawn at "
                "stage 1: nobody enters it now."
            )
            % {"competition": competition.pk}
        )


def _guest_refusal(competition: Competition) -> str | None:
    """Why ``competition`` takes no guest, or ``None``."""
    if competition.kind == Competition.Kind.LEAGUE:
        return _(
            "A league ranks players with accounts: add them by username or player_id "
            "(a guest has no account to rank)."
        )
    if competition.play != TABLE:
        return _(
            "Competition %(competition)s is played online: each entrant plays on their own "
            "account. Guests enter events at the table (play: table)."
        ) % {"competition": competition.pk}
    return None


def entrants_check(
    *, competition: Competition, specs: list[EntrantSpec], in_file: bool
) -> tuple[dict[str, list[str]], list[_Entry], list[str]]:
    """What is wrong with each entrant (field -> messages, each field prefixed by its spec's
    key), the entries when nothing is, and the keys of entrants already in (``in_file``:
    those are errors too; a single request answers them 409 instead)."""
    errors: dict[str, list[str]] = {}

    def problem(spec: EntrantSpec, field: str, message: str) -> None:
        errors.setdefault(f"{spec.key}{field}", []).append(message)

    port = games_port()
    found_ids, found_names = port.players_find(
        player_ids=[s.player_id for s in specs if s.player_id is not None],
        usernames=[s.username for s in specs if s.username],
    )
    active = dict(
        Registration.objects.filter(competition=competition, withdrawn_at__isnull=True).values_list(
            "player_id", "dropped_at"
        )
    )
    guest_names = {
        " ".join(name.split()).casefold()
        for name in Registration.objects.filter(
            competition=competition, withdrawn_at__isnull=True, player__kind=GUEST
        ).values_list("player__display_name", flat=True)
    }
    refusal = _guest_refusal(competition)
    entries: list[_Entry] = []
    seen: dict[int, str] = {}
    already: list[str] = []
    for spec in specs:
        named = [f for f in ("name", "username", "player_id") if getattr(spec, f) not in (None, "")]
        if not named:
            problem(
                spec,
                "name",
                _(
                    "Name the entrant: a guest's name, or the username or player_id of a "
                    "player with an account."
                ),
            )
        for extra in named[1:]:
            problem(
                spec,
                extra,
                _("Name the entrant once: by name (a guest), username or player_id, not two."),
            )
        if (message := club_problem(spec.club)) is not None:
            problem(spec, "club", message)
        if spec.division and divisions.division_named(competition, spec.division) is None:
            problem(spec, "division", divisions.unknown_division(competition, spec.division))
        if spec.seed is not None and not 1 <= spec.seed <= SEED_MAX:
            problem(
                spec,
                "seed",
                _("A seed is a whole number from 1 to %(max)s.") % {"max": f"{SEED_MAX:,}"},
            )
        if len(named) != 1:
            continue
        if named[0] == "name":
            shown, name_problem = port.guest_name_check(name=spec.name or "")
            if refusal is not None:
                problem(spec, "name", refusal)
            elif name_problem is not None:
                problem(spec, "name", name_problem)
            elif " ".join(shown.split()).casefold() in guest_names:
                problem(
                    spec,
                    "name",
                    _(
                        "A guest named %(name)s has entered already: give this one another "
                        "name (an initial will do)."
                    )
                    % {"name": shown},
                )
            else:
                guest_names.add(" ".join(shown.split()).casefold())
                entries.append(_Entry(spec=spec, player=None, guest_name=shown))
            continue
        field = named[0]
        player = (
            found_ids.get(spec.player_id)  # type: ignore[arg-type]
            if field == "player_id"
            else found_names.get(spec.username or "")
        )
        if player is None:
            problem(
                spec,
                field,
                _("There is no player %(player)s to enter.")
                % {"player": spec.player_id if field == "player_id" else spec.username},
            )
            continue
        if player.kind == GUEST and refusal is not None:
            problem(spec, field, refusal)
            continue
        if player.id in seen:
            problem(
                spec,
                field,
                _("%(name)s is on line %(line)s too: enter them once.")
                % {"name": player.name, "line": seen[player.id].rstrip(".")},
            )
            continue
        seen[player.id] = spec.key
        if player.id in active:
            dropped = active[player.id] is not None
            message = (
                _("%(name)s has dropped out of competition %(competition)s: reinstate them.")
                if dropped
                else _("%(name)s is an entrant of competition %(competition)s already.")
            ) % {"name": player.name, "competition": competition.pk}
            if in_file:
                problem(spec, field, message)
            else:
                already.append(message)
            continue
        entries.append(_Entry(spec=spec, player=player))
    return errors, entries, already


def first_stage(competition: Competition) -> int:
    """The stage an entrant added now plays first: the one after the stage seated last."""
    if competition.kind != Competition.Kind.TOURNAMENT:
        return 1
    return competition.current_stage + 1


def _write(
    *, competition: Competition, entries: list[_Entry], check_in: bool
) -> list[Registration]:
    """Enter ``entries`` (the caller checked them and holds the lock): guests made, rows
    written (a withdrawn one taken back), late-entry byes and check-ins."""
    now = timezone.now()
    stage_number = first_stage(competition)
    check_in_stage = checkins.check_in_open(competition) if check_in else None
    guests = iter(
        games_port().guests_create(names=[e.guest_name for e in entries if e.player is None])
    )
    withdrawn = {
        row.player_id: row
        for row in Registration.objects.filter(
            competition=competition,
            withdrawn_at__isnull=False,
            player_id__in=[e.player.id for e in entries if e.player is not None],
        )
    }
    player_ids = [
        entry.player.id if entry.player is not None else next(guests) for entry in entries
    ]
    placed = divisions.assigned(
        competition, {p: e.spec.division for p, e in zip(player_ids, entries, strict=True)}
    )
    written = []
    for entry, player_id in zip(entries, player_ids, strict=True):
        fields = {
            "registered_at": now,
            "withdrawn_at": None,
            "club": entry.spec.club,
            "seed": entry.spec.seed,
            "first_stage": stage_number,
            "added_by_organiser": True,
            "division": placed[player_id],
            "division_chosen": bool(competition.divisions and entry.spec.division),
        }
        registration = withdrawn.get(player_id)
        if registration is None:
            registration = Registration.objects.create(
                competition=competition, player_id=player_id, **fields
            )
        else:
            for name, value in fields.items():
                setattr(registration, name, value)
            registration.save(update_fields=list(fields))
        written.append(registration)
    if competition.late_entry == Competition.LateEntry.BYE and stage_number > 1:
        _late_byes(competition=competition, registrations=written, before=stage_number)
    if check_in_stage is not None:
        CheckIn.objects.bulk_create(
            CheckIn(
                competition=competition,
                registration=registration,
                stage_number=check_in_stage,
                checked_in_at=now,
                by_organiser=True,
            )
            for registration in written
        )
    return written


def _late_byes(*, competition: Competition, registrations: list[Registration], before: int) -> None:
    """A late-entry bye for each stage before ``before`` for each of ``registrations``."""
    worth = stage_byes.bye_points(competition)
    for stage in Stage.objects.filter(competition=competition, number__lt=before):
        for registration in registrations:
            bye = Bye.objects.create(
                competition=competition,
                stage=stage,
                registration=registration,
                player_id=registration.player_id,
                placement_points=worth,
                late_entry=True,
            )
            totals.add_bye(bye)


def entrant_add(
    *,
    competition_id: int,
    caller: PlayerRef,
    values: Mapping[str, Any],
    errors: Mapping[str, list[str]] | None = None,
) -> Registration:
    """Add one entrant (``values``: ``name``, ``username`` or ``player_id``, with ``club``,
    ``seed`` and ``check_in``). ``errors`` are what the request's own validation found: they
    are answered with the fields' other problems (400 ``invalid``). A player entered already
    is 409 ``already_registered``."""
    spec = EntrantSpec(
        name=values.get("name"),
        username=values.get("username"),
        player_id=values.get("player_id"),
        club=(values.get("club") or "").strip(),
        seed=values.get("seed"),
        division=values.get("division"),
    )
    with transaction.atomic():
        competition = checkins.lock_competition(competition_id)
        _open(competition, caller)
        found, entries, already = entrants_check(
            competition=competition, specs=[spec], in_file=False
        )
        merged = {name: list(messages) for name, messages in (errors or {}).items()}
        for name, messages in found.items():
            merged.setdefault(name, messages)
        if merged:
            raise InvalidInput(merged)
        if already:
            raise AlreadyRegistered(already[0])
        return _write(
            competition=competition, entries=entries, check_in=bool(values.get("check_in"))
        )[0]


def entrants_add_file(
    *,
    competition_id: int,
    caller: PlayerRef,
    specs: list[EntrantSpec],
    errors: dict[str, list[str]],
    check_in: bool,
) -> list[Registration]:
    """Add every entrant of a file (``specs``, keyed by line), or none: ``errors`` are what
    reading the file found; with what the entrants' checks find, every bad row is refused at
    once (400 ``invalid_entrants_file``)."""
    with transaction.atomic():
        competition = checkins.lock_competition(competition_id)
        _open(competition, caller)
        found, entries, _already = entrants_check(
            competition=competition, specs=specs, in_file=True
        )
        merged = {name: list(messages) for name, messages in errors.items()}
        for name, messages in found.items():
            merged.setdefault(name, []).extend(messages)
        if merged:
            raise InvalidEntrantsFile(merged)
        return _write(competition=competition, entries=entries, check_in=check_in)
