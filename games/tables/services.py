"""Writes of table matches: create one, and enter a round's scores.

Each is keyword-only and runs in one transaction; a refusal is a ``ProblemError`` (or the
engine's ``ScoreSheetError``) and writes nothing. Score entry takes the match lock, checks the
version and answers a retried ``Idempotency-Key`` as moves do (games/services/versions.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from chickenfoot.metrics.counters import SCORE_ENTRIES, count_on_commit
from chickenfoot.problems import InvalidInput
from games import engine
from games.engine import scoring as engine_scoring
from games.engine.tally import TableRound, start_double, table_round_check
from games.live import publish as live
from games.live.wall import on_commit_wall
from games.models import Match, Player, Round, Seat
from games.problems import (
    BadSeats,
    IdempotencyKeyReused,
    MatchNotPlaying,
    NotScorer,
    NotTableMatch,
)
from games.selectors import match_to_check
from games.services.common import match_lock, on_commit_finalise, seat_players
from games.services.matches import create_refusal, seats_refused
from games.services.versions import request_fingerprint, version_check
from games.tables.models import ScoreEntry, TableSettings
from games.tables.options import table_options_resolve
from games.tables.scorer_links import ScorerPrincipal
from games.tables.seats import CREATOR, GUEST, TableSeatSpec, table_seats_resolve
from games.tables.selectors import may_score
from scoring.competitions.services import (
    league_match_add,
    league_match_options,
    league_players_check,
)
from scoring.services import round_results_record

#: The score-entry event on the match's socket group.
ROUND_SCORED = "round_scored"
#: Why a league match seats no guest.
LEAGUE_GUEST = gettext_lazy(
    "A league match seats the league's registered players: a guest has no account to rank. "
    "Seat them as a player (player_id or username) once they have registered."
)


@dataclass(frozen=True)
class ScoresOutcome:
    """What a score entry answered: the body, and whether it replays an earlier answer."""

    body: dict[str, Any]
    version: int
    replayed: bool = False


def table_match_create(
    *,
    creator: Player,
    variant: str,
    seats: list[TableSeatSpec],
    options: dict[str, Any] | None = None,
    confirmation: str | None = None,
    league: int | None = None,
) -> Match:
    """A new table match, ready to score (``playing``, round 1 next; no deal, no state).
    ``confirmation`` is who must confirm each round (``TableSettings``; ``None``: its
    competition's rule, else nobody). With ``league`` (a table league's id) it counts for that
    league: it plays the league's game and options, and every seat is a registered player of
    the league (``league_match_options``, ``league_players_check``: 400 / 403 / 404 / 409).

    Seats are the creator, players with accounts (by id or username) and guests by name (a
    guest ``Player`` is created for each). Raises ``BadSeats`` (400 ``invalid_seats``) naming
    every bad seat and every bad option at once, or ``OptionError`` (400 ``invalid_option``) for
    options alone: only ``max_pip``, ``rounds`` and ``double_blank_points`` mean something at a
    table.
    """
    resolved_seats, errors = table_seats_resolve(creator=creator, seats=seats)
    if errors:
        values = {"variant": variant, "options": options}
        raise seats_refused(errors, _options_error(values, len(seats)))
    if league is not None:
        options = league_match_options(
            league_id=league,
            creator_id=creator.pk,
            variant=variant,
            options=options or {},
            seat_count=len(seats),
            play=Match.Play.TABLE,
        )
        league_players_check(
            league_id=league,
            player_ids=[taker.pk for taker in resolved_seats if isinstance(taker, Player)],
        )
    resolved = table_options_resolve(variant=variant, seat_count=len(seats), options=options)
    return _table_match_write(
        creator=creator,
        variant=variant,
        takers=resolved_seats,
        options=resolved,
        confirmation=confirmation,
        league=league,
    )


def table_match_create_for(
    *, creator: Player, variant: str, players: list[Player], options: dict[str, Any]
) -> Match:
    """A new table match seating ``players`` (accounts or guests who exist: an event's
    entrants) in order, created by ``creator``; its options checked as ``table_match_create``
    checks them."""
    resolved = table_options_resolve(variant=variant, seat_count=len(players), options=options)
    return _table_match_write(
        creator=creator, variant=variant, takers=list(players), options=resolved
    )


def table_matches_create_for(
    *, creator: Player, variant: str, tables: list[list[Player]], options: dict[str, Any]
) -> list[Match]:
    """``table_match_create_for`` for each of ``tables`` (a stage's), in order: the same rows,
    each kind written in one statement rather than a table at a time (a stage of 50 tables:
    docs/tables.md, "A tournament day at scale")."""
    resolved = {
        size: table_options_resolve(variant=variant, seat_count=size, options=options)
        for size in {len(players) for players in tables}
    }
    now = timezone.now()
    with transaction.atomic():
        matches = Match.objects.bulk_create(
            Match(
                variant=variant,
                play=Match.Play.TABLE,
                options=resolved[len(players)],
                status=Match.Status.PLAYING,
                seat_count=len(players),
                seed="",
                created_by=creator,
                started_at=now,
                timeouts_in_row=[0] * len(players),
            )
            for players in tables
        )
        Seat.objects.bulk_create(
            Seat(match=match, position=position, player=player, joined_at=now)
            for match, players in zip(matches, tables, strict=True)
            for position, player in enumerate(players)
        )
    return matches


def _table_match_write(
    *,
    creator: Player,
    variant: str,
    takers: list[Player | str],
    options: dict[str, Any],
    confirmation: str | None = None,
    league: int | None = None,
) -> Match:
    """Write a checked table match: its seats taken by ``takers`` (a ``str``: a new guest)."""
    now = timezone.now()
    with transaction.atomic():
        match = Match.objects.create(
            variant=variant,
            play=Match.Play.TABLE,
            options=options,
            status=Match.Status.PLAYING,
            seat_count=len(takers),
            seed="",
            created_by=creator,
            started_at=now,
            timeouts_in_row=[0] * len(takers),
        )
        rows = []
        for position, taker in enumerate(takers):
            player = (
                taker
                if isinstance(taker, Player)
                else Player.objects.create(kind=Player.Kind.GUEST, display_name=taker)
            )
            rows.append(Seat(match=match, position=position, player=player, joined_at=now))
        Seat.objects.bulk_create(rows)
        if confirmation is not None:
            TableSettings.objects.create(match=match, confirmation=confirmation)
        if league is not None:
            league_match_add(league_id=league, match_id=match.pk)
    return match


def table_match_create_from(*, creator: Player, values: dict[str, Any]) -> Match:
    """``table_match_create`` from a create request's validated values (``play: table``): a
    bot's level at a table is refused with the rest (400 ``invalid_seats``), and so, in a
    league match, are a guest (a guest has no account to rank) and a missing creator seat."""
    specs = []
    extra: dict[str, list[str]] = {}
    league = values.get("league")
    for position, seat in enumerate(values["seats"]):
        if seat.get("level") is not None:
            extra[f"seats.{position}.level"] = [_("A table has no bots: a seat takes no level.")]
        if league is not None and seat["kind"] == GUEST:
            extra[f"seats.{position}.kind"] = [LEAGUE_GUEST]
        specs.append(
            TableSeatSpec(
                kind=seat["kind"],
                player_id=seat.get("player_id"),
                username=seat.get("username"),
                name=seat.get("name"),
            )
        )
    if league is not None and all(spec.kind != CREATOR for spec in specs):
        extra["seats"] = [_("In a league match the creator takes a seat.")]
    if extra:
        errors = table_seats_resolve(creator=creator, seats=specs)[1]
        option_error = None if league is not None else _options_error(values, len(specs))
        raise seats_refused({**errors, **extra}, option_error)  # a league's options are its own
    return table_match_create(
        creator=creator,
        variant=values["variant"],
        seats=specs,
        options=values["options"],
        confirmation=values.get("confirmation"),
        league=league,
    )


def table_match_create_refused(
    *, body: Mapping[str, Any], errors: dict[str, list[str]]
) -> InvalidInput | BadSeats | engine.OptionError:
    """400 for a table match's create request whose own validation found ``errors``, with
    what the table's option check finds in the rest of it (a field keeps the request
    validation's messages), so that every field is answered at once, under one code
    (``create_refusal``)."""
    found = {name: list(messages) for name, messages in errors.items()}
    rules: dict[str, str] = {}
    seats, options = body.get("seats"), body.get("options", {})
    if "variant" not in errors and isinstance(seats, list) and isinstance(options, Mapping):
        values = {"variant": body.get("variant"), "options": dict(options)}
        option_error = _options_error(values, len(seats))
        for name, messages in ((option_error.errors or {}) if option_error else {}).items():
            if name not in found:
                found[name] = messages
                if option_error is not None and name in option_error.rules:
                    rules[name] = option_error.rules[name]
    return create_refusal(errors=errors, found=found, rules=rules)


def _options_error(values: dict[str, Any], seat_count: int) -> engine.OptionError | None:
    try:
        table_options_resolve(
            variant=values["variant"], seat_count=seat_count, options=values["options"]
        )
    except engine.OptionError as error:
        return error
    return None


def scorer_check(*, match: Match, player: Player | ScorerPrincipal) -> None:
    """Refuse (403 ``not_scorer``) a caller who may not enter ``match``'s scores.

    Who may: the match's creator, any player seated at it with an account, and the holder of
    one of its live scorer links (a ``ScorerPrincipal`` of this match; its authentication
    refused a revoked one). This is the one place the permission is decided.
    """
    if isinstance(player, ScorerPrincipal):
        if player.match_id == match.pk:
            return
        raise NotScorer(
            _("This scorer link opens another match than match %(match)s.") % {"match": match.pk}
        )
    if may_score(match=match, player=player):
        return
    raise NotScorer(
        _("Only the creator of match %(match)s and its seated players may enter its scores.")
        % {"match": match.pk}
    )


def scores_right_check(*, match_id: int, player: Player | ScorerPrincipal) -> None:
    """The checks of score entry and correction that come before their body is read: the
    match (404 ``match_not_found``), played at a table (409 ``not_table_match``), by a caller
    who may score it (403 ``not_scorer``), so that a malformed body tells a stranger nothing.
    ``round_scores_enter`` and ``round_scores_amend`` check again under the match lock."""
    match = match_to_check(match_id=match_id)
    if match.play != Match.Play.TABLE:
        raise NotTableMatch(
            _("Match %(match)s is played online: its rounds score themselves as they end.")
            % {"match": match.pk}
        )
    scorer_check(match=match, player=player)


def round_scores_enter(
    *,
    match_id: int,
    player: Player | ScorerPrincipal,
    number: int,
    entries: list[dict[str, Any]],
    expected_version: int | None,
    idempotency_key: str | None = None,
) -> ScoresOutcome:
    """Enter round ``number``'s scores of table match ``match_id``, in one transaction.

    Holds the match lock from the version check to the commit: of two entries for one version,
    one applies and the other is refused (409 ``stale_version``). A retry with the same
    ``idempotency_key`` returns the first answer; the key with another request is refused (422).
    The entries are checked by the engine (``games.engine.tally``: 422 ``invalid_scores``,
    every bad entry at once). The last round finishes the match and queues the end-of-match
    task (places, ratings, standings) after commit, as an online match's last move does.
    """
    fingerprint = request_fingerprint(
        {"round": number, "scores": entries, "version": expected_version}
    )
    with transaction.atomic():
        match = match_lock(match_id=match_id)
        if match.play != Match.Play.TABLE:
            raise NotTableMatch(
                _("Match %(match)s is played online: its rounds score themselves as they end.")
                % {"match": match.pk}
            )
        scorer_check(match=match, player=player)
        if idempotency_key:
            prior = (
                ScoreEntry.objects.filter(
                    match=match, idempotency_key=idempotency_key, **entered_by(player)
                )
                .only("request_hash", "response")
                .first()
            )
            if prior is not None:
                if prior.request_hash != fingerprint:
                    raise IdempotencyKeyReused(
                        _("This Idempotency-Key was used for a different request; use a new key.")
                    )
                return ScoresOutcome(body=prior.response, version=match.version, replayed=True)
        if match.status != Match.Status.PLAYING:
            raise MatchNotPlaying(
                _("Match %(match)s is %(status)s: no scores now.")
                % {"match": match.pk, "status": match.status}
            )
        version_check(match=match, expected_version=expected_version)
        done = Round.objects.filter(match=match).count()
        checked = table_round_check(
            variant=match.variant,
            options=match.options,
            seat_count=match.seat_count,
            number=number,
            rounds_done=done,
            entries=entries,
        )
        return _record(
            match=match,
            player=player,
            number=number,
            checked=checked,
            idempotency_key=idempotency_key or "",
            fingerprint=fingerprint,
        )


def entered_by(player: Player | ScorerPrincipal) -> dict[str, Any]:
    """Who an entry is recorded as made by: the player, or the scorer link."""
    if isinstance(player, ScorerPrincipal):
        return {"entered_by": None, "scorer_link_id": player.link_id}
    return {"entered_by": player, "scorer_link_id": None}


def final_standings(*, match: Match) -> list[Any]:
    """The final order (C-WIN) of table match ``match`` from its rounds' scores as stored."""
    scores = Round.objects.filter(match=match).order_by("number").values_list("scores", flat=True)
    return engine_scoring.final_order(list(scores))


def score_entry_write(
    *,
    match: Match,
    row: Round,
    checked: TableRound,
    player: Player | ScorerPrincipal,
    idempotency_key: str,
    fingerprint: str,
    before: list[dict[str, Any]] | None = None,
    reason: str | None = None,
) -> dict[str, Any]:
    """Keep round ``row``'s ``checked`` scores as a new score entry of ``match`` (at its version
    now, by ``player``; a correction names the seats it replaces, ``before``, and its
    ``reason``), and return the answer, which a retry with ``idempotency_key`` gets again."""
    seats = [
        {
            "seat": seat,
            "points": points,
            "went_out": seat == checked.went_out,
            "tiles": [list(t) for t in hand] if hand is not None else None,
        }
        for seat, (points, hand) in enumerate(zip(checked.scores, checked.hands, strict=True))
    ]
    body: dict[str, Any] = {
        "version": match.version,
        "status": match.status,
        "round": {
            "number": row.number,
            "start_double": [row.start_double, row.start_double],
            "scores": seats,
        },
    }
    if reason is not None:
        body["reason"] = reason
    count_on_commit(SCORE_ENTRIES, kind="correction" if before is not None else "round")
    ScoreEntry.objects.create(
        match=match,
        round=row,
        number=row.number,
        **entered_by(player),
        seats=seats,
        before=before,
        reason=reason or "",
        version=match.version,
        idempotency_key=idempotency_key,
        request_hash=fingerprint if idempotency_key else "",
        response=body if idempotency_key else None,
    )
    return body


def _record(
    *,
    match: Match,
    player: Player | ScorerPrincipal,
    number: int,
    checked: TableRound,
    idempotency_key: str,
    fingerprint: str,
) -> ScoresOutcome:
    """The write half of ``round_scores_enter``: the caller holds the lock and checked it all."""
    now = timezone.now()
    row = Round.objects.create(
        match=match,
        number=number,
        start_double=start_double(match.options, number),
        status=Round.Status.FINISHED,
        scores=checked.scores,
        started_at=now,
        ended_at=now,
    )
    round_results_record(
        match_id=match.pk,
        round_number=number,
        players=seat_players(match_id=match.pk),
        scores=checked.scores,
        went_out_seat=checked.went_out,
    )
    match.version += 1
    match.current_round = row
    update = ["version", "current_round"]
    if number == match.options["rounds"]:
        match.status = Match.Status.FINISHED
        match.standings = final_standings(match=match)
        match.finished_at = now
        update += ["status", "standings", "finished_at"]
        on_commit_finalise(match_id=match.pk)
    match.save(update_fields=update)
    body = score_entry_write(
        match=match,
        row=row,
        checked=checked,
        player=player,
        idempotency_key=idempotency_key,
        fingerprint=fingerprint,
    )
    live.on_commit_notice(
        match_id=match.pk,
        frame={
            "type": ROUND_SCORED,
            "version": match.version,
            "round": number,
            "scores": checked.scores,
            "went_out": checked.went_out,
            "finished": match.status == Match.Status.FINISHED,
        },
    )
    on_commit_wall(match_id=match.pk)  # a public competition's wall shows the table's progress
    if match.status == Match.Status.FINISHED:
        # then every socket reads the match again and sends match_over, as after a last move
        live.on_commit_moved(match_id=match.pk, seq=0, version=match.version, always=True)
    return ScoresOutcome(body=body, version=match.version)
