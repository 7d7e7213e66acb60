"""Writes for tournaments and leagues: create, register, close, start, stages, results.

Each is keyword-only, runs in one transaction and refuses with a ``ProblemError`` having written
nothing. Every writer of a competition first locks its row (``_lock``), so registrations, stage
starts and results of one competition apply one at a time.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from datetime import date
from typing import Any, cast

from django.apps import apps
from django.db import transaction
from django.db.models import OuterRef, Subquery
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from chickenfoot.problems import InvalidInput
from scoring.competitions import byes as stage_byes
from scoring.competitions import (
    checkins,
    divisions,
    final_table,
    pairing,
    points,
    round_robin,
    tie_breaks,
    totals,
)
from scoring.competitions.problems import (
    AlreadyRegistered,
    CompetitionNotFound,
    InvalidCompetition,
    NotInLeague,
    NotLeaguePlayer,
    NotOrganiser,
    NotRegistered,
    RegistrationClosed,
    TooFewPlayers,
    WrongCompetitionStatus,
    WrongStage,
)
from scoring.models import (
    Competition,
    CompetitionMatch,
    CompetitionResult,
    MatchResult,
    Rating,
    Registration,
    Stage,
)
from scoring.ports import FieldsError, PlayerRef, games_port

TOURNAMENT = Competition.Kind.TOURNAMENT
FINISHED = Competition.Status.FINISHED
LEAGUE = Competition.Kind.LEAGUE
#: The default number of finished matches a league player needs to be ranked.
LEAGUE_MIN_MATCHES = 3
MAX_STAGES = 20


@dataclass(frozen=True)
class CompetitionSpec:
    """What an organiser asks for (the API's validated input)."""

    kind: str
    name: str
    variant: str
    table_size: int
    options: dict[str, Any]
    allow_bots: bool = False
    bot_level: int = 2
    turn_seconds: int | None = None
    points_scheme: dict[str, list[int]] | None = None
    stage_count: int | None = None
    min_matches: int | None = None
    starts_on: date | None = None
    ends_on: date | None = None
    play: str = Competition.Play.ONLINE
    confirmation: str | None = None
    seeding: str = Competition.Seeding.RANDOM
    late_entry: str = Competition.LateEntry.ZERO
    tie_breaks: list[str] | None = None
    final_table: dict[str, int] | None = None
    pairing: str = Competition.Pairing.SWISS
    divisions: list[dict[str, Any]] | None = None


#: The house options a table event's matches take (the rest mean nothing at a real table).
TABLE_OPTIONS = ("max_pip", "rounds", "double_blank_points")


def seated_sizes(*, kind: str, table_size: int, allow_bots: bool) -> list[int]:
    """Every table size the competition may seat: a tournament filling with bots seats full
    tables only; otherwise a table may be short (down to two players)."""
    if kind == TOURNAMENT and allow_bots:
        return [table_size]
    return list(range(2, table_size + 1))


def _invalid_competition(
    errors: dict[str, list[str]], option_error: FieldsError | None
) -> InvalidCompetition:
    """400 ``invalid_competition``: ``problems`` lists what is wrong with the competition,
    ``errors`` every field (the house options' too, with the rule each broke in ``rules``)."""
    problems = [message for messages in errors.values() for message in messages]
    details = list(problems)
    rules: dict[str, str] = {}
    if option_error is not None:
        for name, messages in (option_error.errors or {"options": [option_error.detail]}).items():
            errors.setdefault(name, []).extend(messages)
        rules = dict(option_error.rules)
        details.append(option_error.detail)
    extra: dict[str, Any] = {"problems": problems, "errors": errors}
    if rules:
        extra["rules"] = rules
    return InvalidCompetition(" ".join(details), extra=extra)


def competition_errors(
    *, values: Mapping[str, Any]
) -> tuple[dict[str, list[str]], FieldsError | None]:
    """What is wrong with a competition's fields (``CompetitionSpec``'s, by name), by field, and
    with its house options at every table size it may seat (the port's error, or ``None``).

    ``values`` may lack a field (one the request gave wrongly): a check that needs it is
    skipped, the others are made, so that a request is answered every field at once.
    """
    errors: dict[str, list[str]] = {}

    def problem(name: str, message: str) -> None:
        errors.setdefault(name, []).append(message)

    kind, stage_count = values.get("kind"), values.get("stage_count")
    stages_ok = bool(stage_count) and 1 <= stage_count <= MAX_STAGES  # type: ignore[operator]
    if "stage_count" in values and kind == TOURNAMENT and not stages_ok:
        problem(
            "stage_count",
            _("A tournament needs stage_count between 1 and %(max_stages)s.")
            % {"max_stages": MAX_STAGES},
        )
    if kind == LEAGUE and stage_count is not None:
        problem("stage_count", _("A league has no stages: leave stage_count out."))
    if values.get("tie_breaks") is not None:
        for message in tie_breaks.order_problems(values["tie_breaks"]):
            problem("tie_breaks", message)
    if "table_size" in values:
        for message in final_table.size_problems(
            value=values.get("final_table"),
            kind=kind,
            table_size=values["table_size"],
            allow_bots=values.get("allow_bots"),
        ):
            problem("final_table", message)
    for message in round_robin.pairing_problems(values):
        problem("pairing", message)
    for name, messages in divisions.divisions_problems(values.get("divisions"), kind=kind).items():
        for message in messages:
            problem(name, message)
    if kind == TOURNAMENT and values.get("min_matches"):
        problem("min_matches", _("min_matches is for leagues: a tournament ranks every player."))
    starts_on, ends_on = values.get("starts_on"), values.get("ends_on")
    if starts_on and ends_on and ends_on < starts_on:
        problem("ends_on", _("ends_on is before starts_on."))
    levels = games_port().bot_levels()
    if "bot_level" in values and values["bot_level"] not in levels:
        problem(
            "bot_level",
            _("bot_level is one of %(levels)s; got %(level)s.")
            % {"levels": ", ".join(map(str, levels)), "level": values["bot_level"]},
        )
    options = values.get("options")
    turn_seconds = values.get("turn_seconds")
    if values.get("play") == Competition.Play.TABLE:
        _table_problems(values, problem)
    elif values.get("confirmation") is not None:
        problem(
            "confirmation",
            _(
                "An online event's matches are scored by the server: "
                "confirmation is for play: table."
            ),
        )
    if isinstance(options, dict) and "turn_seconds" in values:
        in_options = options.get("turn_seconds")
        if turn_seconds is not None and in_options is not None and in_options != turn_seconds:
            problem(
                "turn_seconds",
                _(
                    "turn_seconds is %(turn_seconds)s but options say turn_seconds "
                    "%(in_options)s: give it once."
                )
                % {"turn_seconds": turn_seconds, "in_options": in_options},
            )
    if not {"kind", "table_size", "allow_bots"} <= values.keys():
        return errors, None
    sizes = seated_sizes(
        kind=values["kind"], table_size=values["table_size"], allow_bots=values["allow_bots"]
    )
    if values.get("points_scheme") is not None:
        for message in points.scheme_problems(values["points_scheme"], sizes):
            problem("points_scheme", message)
    if "variant" not in values or not isinstance(options, dict) or "turn_seconds" not in values:
        return errors, None
    option_error = games_port().options_error(
        variant=values["variant"],
        seat_counts=sizes,
        options=_with_clock(options, _turn_seconds(turn_seconds, options)),
    )
    return errors, option_error


def _table_problems(values: Mapping[str, Any], problem: Any) -> None:
    """What a table event refuses: bots, a clock, options a table does not take."""
    if values.get("allow_bots"):
        problem("allow_bots", _("A table event has no bots: leave allow_bots out."))
    if values.get("turn_seconds") is not None:
        problem("turn_seconds", _("A table event has no turn clock: leave turn_seconds out."))
    options = values.get("options")
    if isinstance(options, dict):
        for name in sorted(set(options) - set(TABLE_OPTIONS)):
            problem(
                f"options.{name}",
                _("A table takes only %(table_options)s; %(name)s means nothing there.")
                % {"table_options": ", ".join(TABLE_OPTIONS), "name": name},
            )


def competition_create_refused(
    *, values: Mapping[str, Any], errors: dict[str, list[str]]
) -> InvalidInput:
    """400 ``invalid`` for a create request whose own validation found ``errors``, with what
    the competition's checks find in the fields that are valid (``values``), so that every
    field is answered at once (a field keeps the request validation's messages)."""
    found = {name: list(messages) for name, messages in errors.items()}
    more, option_error = competition_errors(values=values)
    if option_error is not None:
        more.update(option_error.errors or {})
    for name, messages in more.items():
        found.setdefault(name, messages)
    rules = {
        name: rule
        for name, rule in (option_error.rules if option_error else {}).items()
        if name not in errors
    }
    return InvalidInput(found, rules=rules)


def _turn_seconds(turn_seconds: int | None, options: Mapping[str, Any]) -> int | None:
    """The competition's clock: ``turn_seconds``, or the house options' when it is not given."""
    return options.get("turn_seconds") if turn_seconds is None else turn_seconds


def competition_creator_check(*, organiser: PlayerRef) -> None:
    """Refuse (403 ``not_organiser``) a caller who does not organise: checked before a
    creation's body is read, so that a malformed one tells a player nothing."""
    if not organiser.organises:
        raise NotOrganiser(_("Only organisers create tournaments and leagues."))


def competition_create(*, organiser: PlayerRef, spec: CompetitionSpec) -> Competition:
    """A new competition, open for registration. Only organisers create one (403).

    The house options are checked for every table size it may seat (400, as a match's are),
    the points scheme likewise (the default when none is given, docs/scoring.md).
    """
    competition_creator_check(organiser=organiser)
    errors, option_error = competition_errors(values=asdict(spec))
    if errors:
        raise _invalid_competition(errors, option_error)
    if option_error is not None:
        raise cast(Exception, option_error)  # the port's own error: 400 invalid_option
    turn_seconds = _turn_seconds(spec.turn_seconds, spec.options)
    sizes = seated_sizes(kind=spec.kind, table_size=spec.table_size, allow_bots=spec.allow_bots)
    scheme = spec.points_scheme
    if scheme is None:
        scheme = points.default_scheme(sizes)
    return Competition.objects.create(
        kind=spec.kind,
        play=spec.play,
        confirmation=spec.confirmation or Competition.Confirmation.NOBODY,
        name=spec.name,
        variant=spec.variant,
        options=spec.options,
        table_size=spec.table_size,
        allow_bots=spec.allow_bots,
        bot_level=spec.bot_level,
        turn_seconds=turn_seconds,
        points_scheme=scheme,
        stage_count=spec.stage_count,
        tie_breaks=spec.tie_breaks or tie_breaks.default_order(),
        min_matches=(
            0
            if spec.kind == TOURNAMENT
            else (LEAGUE_MIN_MATCHES if spec.min_matches is None else spec.min_matches)
        ),
        starts_on=spec.starts_on,
        ends_on=spec.ends_on,
        seed=secrets.token_hex(32),
        organiser_id=organiser.id,
        seeding=spec.seeding,
        late_entry=spec.late_entry,
        final_table=spec.final_table,
        pairing=spec.pairing,
        divisions=divisions.normalised(spec.divisions),
    )


def _with_clock(options: dict[str, Any], turn_seconds: int | None) -> dict[str, Any]:
    if turn_seconds is None:
        return dict(options)
    return {**options, "turn_seconds": turn_seconds}


def match_options(competition: Competition) -> dict[str, Any]:
    """The house options every match of ``competition`` plays: the organiser's, with the
    competition's turn clock (``turn_seconds``) when it has one."""
    return _with_clock(competition.options, competition.turn_seconds)


def _lock(competition_id: int) -> Competition:
    """The competition row, locked to the end of the caller's transaction."""
    try:
        return Competition.objects.select_for_update().get(pk=competition_id)
    except Competition.DoesNotExist:
        raise CompetitionNotFound(
            _("There is no competition %(competition_id)s.") % {"competition_id": competition_id}
        ) from None


def _organiser_only(competition: Competition, player: PlayerRef, refusal: str) -> None:
    """Refuse (403) anyone but the organiser, with ``refusal`` (naming ``%(competition)s``)."""
    if competition.organiser_id != player.id:
        raise NotOrganiser(refusal % {"competition": competition.pk})


def registration_create(*, competition_id: int, player: PlayerRef) -> Registration:
    """Register ``player`` (again, after a withdrawal) while registration is open."""
    with transaction.atomic():
        competition = _lock(competition_id)
        if competition.status != Competition.Status.REGISTERING:
            raise RegistrationClosed(
                _("Competition %(competition)s is %(status)s: registration is closed.")
                % {"competition": competition.pk, "status": competition.status}
            )
        now = timezone.now()
        registration = Registration.objects.filter(
            competition=competition, player_id=player.id
        ).first()
        division = divisions.assigned(competition, {player.id: None})[player.id]
        if registration is None:
            return Registration.objects.create(
                competition=competition, player_id=player.id, registered_at=now, division=division
            )
        if registration.withdrawn_at is None:
            raise AlreadyRegistered(
                _("You are registered for competition %(competition)s.")
                % {"competition": competition.pk}
            )
        registration.withdrawn_at = None
        registration.registered_at = now
        registration.division = division
        registration.division_chosen = False
        registration.save(
            update_fields=["withdrawn_at", "registered_at", "division", "division_chosen"]
        )
        return registration


def registration_withdraw(*, competition_id: int, player: PlayerRef) -> Registration:
    """Withdraw ``player`` before the competition starts (registering or closed); once it
    runs, the player drops out (``checkins.registration_drop``): seated no more, still ranked."""
    with transaction.atomic():
        competition = _lock(competition_id)
        if competition.status == Competition.Status.RUNNING:
            return checkins.registration_drop(competition=competition, player_id=player.id)
        if competition.status not in (Competition.Status.REGISTERING, Competition.Status.CLOSED):
            raise WrongCompetitionStatus(
                _(
                    "Competition %(competition)s is %(status)s: players withdraw "
                    "only before it starts."
                )
                % {"competition": competition.pk, "status": competition.status}
            )
        registration = Registration.objects.filter(
            competition=competition, player_id=player.id, withdrawn_at__isnull=True
        ).first()
        if registration is None:
            raise NotRegistered(
                _("You are not registered for competition %(competition)s.")
                % {"competition": competition.pk}
            )
        registration.withdrawn_at = timezone.now()
        registration.save(update_fields=["withdrawn_at"])
        return registration


def _active_player_ids(competition: Competition) -> list[int]:
    return list(
        Registration.objects.filter(competition=competition, withdrawn_at__isnull=True)
        .order_by("player_id")
        .values_list("player_id", flat=True)
    )


def competition_close(*, competition_id: int, player: PlayerRef) -> Competition:
    """The organiser closes registration."""
    with transaction.atomic():
        competition = _lock(competition_id)
        _organiser_only(
            competition,
            player,
            _("Only the organiser of competition %(competition)s can close its registration."),
        )
        if competition.status != Competition.Status.REGISTERING:
            raise WrongCompetitionStatus(
                _("Competition %(competition)s is %(status)s: only an open registration can close.")
                % {"competition": competition.pk, "status": competition.status}
            )
        competition.status = Competition.Status.CLOSED
        competition.save(update_fields=["status"])
        return competition


def _enough_players(competition: Competition) -> list[int]:
    players = _active_player_ids(competition)
    if len(players) < 2:
        raise TooFewPlayers(
            _("Competition %(competition)s has %(players_count)s registered player(s); it needs 2.")
            % {"competition": competition.pk, "players_count": len(players)}
        )
    return players


def league_start(*, competition_id: int, player: PlayerRef) -> Competition:
    """The organiser starts a league's season: its players may then create league matches."""
    with transaction.atomic():
        competition = _lock(competition_id)
        _organiser_only(
            competition,
            player,
            _("Only the organiser of competition %(competition)s can start it."),
        )
        if competition.kind != LEAGUE:
            raise WrongCompetitionStatus(
                _("A tournament starts with its first stage: POST its stages.")
            )
        if competition.status != Competition.Status.CLOSED:
            raise WrongCompetitionStatus(
                _("League %(competition)s is %(status)s: close registration first.")
                % {"competition": competition.pk, "status": competition.status}
            )
        _enough_players(competition)
        competition.status = Competition.Status.RUNNING
        competition.save(update_fields=["status"])
        return competition


def league_finish(*, competition_id: int, player: PlayerRef) -> Competition:
    """The organiser ends a league's season; matches still playing no longer count."""
    with transaction.atomic():
        competition = _lock(competition_id)
        _organiser_only(
            competition,
            player,
            _("Only the organiser of competition %(competition)s can finish it."),
        )
        if competition.kind != LEAGUE:
            raise WrongCompetitionStatus(_("A tournament finishes with the end of its last stage."))
        if competition.status != Competition.Status.RUNNING:
            raise WrongCompetitionStatus(
                _("League %(competition)s is %(status)s: only a running league finishes.")
                % {"competition": competition.pk, "status": competition.status}
            )
        competition.status = Competition.Status.FINISHED
        competition.finished_at = timezone.now()
        competition.save(update_fields=["status", "finished_at"])
        _ratings_freeze(competition)
        return competition


def stage_start(*, competition_id: int, player: PlayerRef, number: int) -> Stage:
    """The organiser starts stage ``number`` (the next one): seat the players, create a match
    per table, start them. Stage 1 seats at random from the stored seed, or seeded (by rating,
    in the organiser's order); later stages by the standings, Swiss (``pairing``). A player
    left over who would sit alone (an odd number at tables of 2 without bots) has a bye: a
    ``Bye`` row worth a win's placement points, added to their totals. With a final table, the
    stage after the last Swiss one seats the best ``n`` (``final_table``). All or nothing: a
    refused start creates no match.
    """
    with transaction.atomic():
        competition = _lock(competition_id)
        _organiser_only(
            competition,
            player,
            _("Only the organiser of competition %(competition)s can start a stage."),
        )
        if competition.kind != TOURNAMENT:
            raise WrongCompetitionStatus(_("A league has no stages: its players create matches."))
        if number != competition.current_stage + 1 or number > competition.last_stage:
            raise WrongStage(
                _(
                    "The next stage of tournament %(competition)s is "
                    "%(current_stage)s of %(stage_count)s; got %(number)s."
                )
                % {
                    "competition": competition.pk,
                    "current_stage": competition.current_stage + 1,
                    "stage_count": competition.last_stage,
                    "number": number,
                },
                extra={"next_stage": competition.current_stage + 1},
            )
        if number == 1 and competition.status != Competition.Status.CLOSED:
            raise WrongCompetitionStatus(
                _("Tournament %(competition)s is %(status)s: close registration first.")
                % {"competition": competition.pk, "status": competition.status}
            )
        if number > 1:
            previous = Stage.objects.get(competition=competition, number=number - 1)
            _settle_abandoned(competition=competition, stage=previous)
            if previous.status != Stage.Status.FINISHED:
                raise WrongStage(
                    _("Stage %(number)s of tournament %(competition)s is still playing.")
                    % {"number": number - 1, "competition": competition.pk},
                    extra={"next_stage": number},
                )
        players = checkins.stage_field(competition=competition, number=number)
        if len(players) < 2:
            raise TooFewPlayers(
                _(
                    "Stage %(number)s of competition %(competition)s has "
                    "%(players_count)s player(s) to seat (registered, not dropped "
                    "out, checked in at a table event); it needs 2."
                )
                % {"number": number, "competition": competition.pk, "players_count": len(players)}
            )
        planned = pairing.stage_pairing(competition=competition, number=number, players=players)
        tables, byes = planned.tables, planned.byes
        now = timezone.now()
        stage = Stage.objects.create(
            competition=competition,
            number=number,
            started_at=now,
            final=final_table.is_final(competition, number),
        )
        stage_byes.byes_record(competition=competition, stage=stage, player_ids=byes)
        CompetitionMatch.objects.bulk_create(
            CompetitionMatch(
                competition=competition, match_id=match_id, stage=stage, table_number=table_number
            )
            for table_number, match_id in enumerate(
                pairing.table_matches_create(competition, tables), start=1
            )
        )
        competition.status = Competition.Status.RUNNING
        competition.current_stage = number
        competition.check_in_closed_stage = number
        competition.save(update_fields=["status", "current_stage", "check_in_closed_stage"])
        return stage


def _ratings_freeze(competition: Competition) -> None:
    """Keep each registered player's rating in the game as it is when ``competition`` finishes
    (the standings of a finished competition show it, not the rating of today)."""
    now = Rating.objects.filter(
        player_id=OuterRef("player_id"), variant=competition.variant
    ).values("ordinal")[:1]
    Registration.objects.filter(competition=competition, withdrawn_at__isnull=True).update(
        rating_at_finish=Subquery(now)
    )


def league_match_options(
    *,
    league_id: int,
    creator_id: int,
    variant: str,
    options: dict[str, Any],
    seat_count: int,
    play: str = Competition.Play.ONLINE,
) -> dict[str, Any]:
    """Check a match about to be created in league ``league_id``; return the options it plays.

    The creator must be registered and the league running; the match plays the league's game,
    its ``play`` (a table league takes table matches only, an online league online ones) and
    house options (a request's own options must be empty or the same) at a table no larger
    than the league's. Refuses 404 / 409 / 400 (``league_refused``).
    """
    league = Competition.objects.filter(pk=league_id, kind=LEAGUE).first()
    if league is None:
        raise CompetitionNotFound(_("There is no league %(league_id)s.") % {"league_id": league_id})
    if league.status != Competition.Status.RUNNING:
        raise WrongCompetitionStatus(
            _("League %(league_id)s is %(status)s: no matches now.")
            % {"league_id": league_id, "status": league.status}
        )
    if not _is_registered(league, creator_id):
        raise NotLeaguePlayer(
            _("You are not registered for league %(league_id)s.") % {"league_id": league_id}
        )
    errors: dict[str, list[str]] = {}
    if variant != league.variant:
        errors["variant"] = [
            _("League %(league_id)s plays %(league_variant)s, not %(variant)s.")
            % {"league_id": league_id, "league_variant": league.variant, "variant": variant}
        ]
    if play != league.play:
        errors["play"] = [
            (
                _("League %(league_id)s is played at real tables: its matches take play: table.")
                if league.play == Competition.Play.TABLE
                else _(
                    "League %(league_id)s is played online: its matches are dealt by the server."
                )
            )
            % {"league_id": league_id}
        ]
    played = match_options(league)
    if options and options not in (league.options, played):
        errors["options"] = [
            _(
                "League %(league_id)s matches play the league's house options %(played)s: "
                "leave options out."
            )
            % {"league_id": league_id, "played": played}
        ]
    if seat_count > league.table_size:
        errors["seats"] = [
            _(
                "League %(league_id)s plays at tables of at most %(table_size)s; "
                "got %(seats)s seats."
            )
            % {"league_id": league_id, "table_size": league.table_size, "seats": seat_count}
        ]
    if errors:  # every way the match is not the league's, at once
        details = [message for messages in errors.values() for message in messages]
        raise NotInLeague(" ".join(details), extra={"errors": errors})
    return played


def league_bots_check(*, league_id: int) -> None:
    """Refuse (400) bot seats in a league that does not allow them."""
    if not Competition.objects.filter(pk=league_id, allow_bots=True).exists():
        raise NotInLeague(_("League %(league_id)s does not allow bots.") % {"league_id": league_id})


def league_players_check(*, league_id: int, player_ids: list[int]) -> None:
    """Refuse (403 ``not_league_player``) a league match seating anyone not registered for
    league ``league_id`` (a table league's match is seated at once, every seat named)."""
    registered = set(
        Registration.objects.filter(
            competition_id=league_id, player_id__in=player_ids, withdrawn_at__isnull=True
        ).values_list("player_id", flat=True)
    )
    outsiders = [player_id for player_id in player_ids if player_id not in registered]
    if outsiders:
        named = ", ".join(map(str, outsiders))
        raise NotLeaguePlayer(
            ngettext(
                "Only players registered for league %(league_id)s play its matches; "
                "player %(players)s is not.",
                "Only players registered for league %(league_id)s play its matches; "
                "players %(players)s are not.",
                len(outsiders),
            )
            % {"league_id": league_id, "players": named}
        )


def league_seat_check(*, match_id: int, player_id: int) -> None:
    """May this player take a seat at ``match_id``? Nothing to check outside leagues: a league
    match seats the league's registered players only (403 otherwise)."""
    link = (
        CompetitionMatch.objects.select_related("competition")
        .filter(match_id=match_id, competition__kind=LEAGUE)
        .first()
    )
    if link is not None and not _is_registered(link.competition, player_id):
        raise NotLeaguePlayer(
            _("Only players registered for league %(competition_id)s play its matches.")
            % {"competition_id": link.competition_id}
        )


def league_match_add(*, league_id: int, match_id: int) -> CompetitionMatch:
    """Count ``match_id`` for league ``league_id`` (in the transaction that created it)."""
    return CompetitionMatch.objects.create(competition_id=league_id, match_id=match_id)


def _is_registered(competition: Competition, player_id: int) -> bool:
    return Registration.objects.filter(
        competition=competition, player_id=player_id, withdrawn_at__isnull=True
    ).exists()


def competition_match_finished(*, match_id: int) -> bool:
    """Record a finished match's results for the competition it counts in; ``False`` if none.

    Reads the match's result rows (``MatchResult``: every seat's C-WIN place, bots too: they
    take places and points but have no standings). Each registered player gets a
    ``CompetitionResult`` with their placement points. The stage whose last table this was
    finishes, and with the last stage the tournament. Idempotent: a match already recorded, or
    one without results yet, changes nothing. Takes the competition's lock. The end-of-match
    task (``scoring.services.finalise``) calls it after writing the results.
    """
    link = CompetitionMatch.objects.filter(match_id=match_id).first()
    if link is None:
        return False
    with transaction.atomic():
        competition = _lock(link.competition_id)
        link = CompetitionMatch.objects.select_for_update().get(pk=link.pk)
        if link.finished or competition.status == Competition.Status.FINISHED:
            return False
        written = competition_results_write(competition=competition, link=link)
        if written is None:
            return False
        if not Stage.objects.filter(pk=link.stage_id, final=True).exists():
            totals.add(written)  # a final table's results count apart (final_table)
        link.finished = True
        link.save(update_fields=["finished"])
        if link.stage_id is not None:
            _stage_maybe_finished(competition=competition, stage_id=link.stage_id)
        if competition.public:
            games_port().wall_changed(match_id=match_id)  # after commit, to the public wall
        return True


def competition_results_write(
    *, competition: Competition, link: CompetitionMatch
) -> list[CompetitionResult] | None:
    """Write the ``CompetitionResult`` rows of ``link``'s match from its result rows (each
    registered player's placement points); ``None`` if the match has no results. The caller
    holds the competition's lock."""
    match_id = link.match_id
    seats = list(
        MatchResult.objects.filter(match_id=match_id)
        .order_by("seat")
        .values("player_id", "place", "total", "rounds_played", "zero_rounds", "lowest_round")
    )
    if not seats:
        return None
    table = len(seats)
    scheme = competition.points_scheme.get(str(table)) or points.default_places(table)
    shares = points.table_points(places=[s["place"] for s in seats], scheme_places=scheme)
    registrations = dict(
        Registration.objects.filter(
            competition=competition,
            withdrawn_at__isnull=True,
            player_id__in=[s["player_id"] for s in seats],
        ).values_list("player_id", "pk")
    )
    return CompetitionResult.objects.bulk_create(
        CompetitionResult(
            competition=competition,
            registration_id=registrations[seat["player_id"]],
            match_id=match_id,
            stage_id=link.stage_id,
            table_players=table,
            placement_points=share,
            **seat,
        )
        for seat, share in zip(seats, shares, strict=True)
        if seat["player_id"] in registrations
    )


def competition_match_abandoned(*, match_id: int) -> bool:
    """Settle an abandoned match of a competition; ``False`` if it counts for none.

    An abandoned match has no results, so it counts for nobody: its players get no
    ``CompetitionResult`` (no match played, no placement points; for Swiss seating they have
    not met there). A tournament's table is settled all the same, so its stage finishes when
    every other table's results are in (and with the last stage the tournament): an abandoned
    table never holds a stage up. Games calls it in the transaction that abandons the match
    (lock order: the match, then the competition). Idempotent.
    """
    link = CompetitionMatch.objects.filter(match_id=match_id).first()
    if link is None:
        return False
    with transaction.atomic():
        competition = _lock(link.competition_id)
        settled = CompetitionMatch.objects.filter(pk=link.pk, finished=False).update(finished=True)
        if settled and link.stage_id is not None and competition.status != FINISHED:
            _stage_maybe_finished(competition=competition, stage_id=link.stage_id)
        return bool(settled)


def _settle_abandoned(*, competition: Competition, stage: Stage) -> None:
    """Settle the tables of ``stage`` whose matches were abandoned without being settled
    (the caller holds the competition's lock); the stage may finish."""
    if stage.status == Stage.Status.FINISHED:
        return
    match_model = apps.get_model("games", "Match")  # scoring never imports games
    abandoned = match_model.objects.filter(status="abandoned").values("pk")
    settled = CompetitionMatch.objects.filter(
        stage=stage, finished=False, match_id__in=abandoned
    ).update(finished=True)
    if settled:
        _stage_maybe_finished(competition=competition, stage_id=stage.pk)
        stage.refresh_from_db()


def _stage_maybe_finished(*, competition: Competition, stage_id: int) -> None:
    if CompetitionMatch.objects.filter(stage_id=stage_id, finished=False).exists():
        return
    now = timezone.now()
    Stage.objects.filter(pk=stage_id).update(status=Stage.Status.FINISHED, finished_at=now)
    last = Stage.objects.filter(pk=stage_id, number=competition.last_stage).exists()
    if last:
        competition.status = Competition.Status.FINISHED
        competition.finished_at = now
        competition.save(update_fields=["status", "finished_at"])
        _ratings_freeze(competition)


__all__ = [
    "CompetitionSpec",
    "competition_close",
    "competition_create",
    "competition_match_abandoned",
    "competition_match_finished",
    "competition_results_write",
    "league_bots_check",
    "league_finish",
    "league_match_add",
    "league_match_options",
    "league_players_check",
    "league_seat_check",
    "league_start",
    "match_options",
    "registration_create",
    "registration_withdraw",
    "stage_start",
]
