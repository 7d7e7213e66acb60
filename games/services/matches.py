"""Matches before play: create one, take a seat, start it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from chickenfoot.problems import InvalidInput, errors_summary
from games import bots, engine
from games.accounts.players import bot_player
from games.bot_matches import bot_only_matches_of
from games.engine.shuffle import new_match_seed
from games.invitations.holds import held_positions, seat_list
from games.invitations.models import Invitation
from games.live import publish as live
from games.models import Match, Player, Round, Seat
from games.notifications.services import match_started_notify, your_turn_notify
from games.problems import (
    AlreadySeated,
    BadSeats,
    BotMatchLimit,
    MatchFull,
    MatchNotOpen,
    NotCreator,
    SeatHeld,
    SeatsStillOpen,
    SeatTaken,
)
from games.services.clock import clock_start, on_commit_clock
from games.services.common import (
    bot_turn_schedule,
    match_lock,
    on_commit_finalise,
    round_create,
    went_out_as_dealt,
)
from games.social.blocks import join_block_refuse
from scoring.competitions.services import (
    league_bots_check,
    league_match_add,
    league_match_options,
    league_seat_check,
)
from scoring.services import round_results_record

CREATOR = "creator"
OPEN = "open"
BOT = "bot"
SEAT_KINDS = (CREATOR, OPEN, BOT)


@dataclass(frozen=True)
class SeatSpec:
    """One seat as a match's creator asks for it."""

    kind: str  # creator, open or bot
    level: int | None = None


def match_create(
    *,
    creator: Player,
    variant: str,
    seats: list[SeatSpec],
    options: dict[str, Any] | None = None,
    league: int | None = None,
    hints: bool = False,
) -> Match:
    """A new open match. House options are validated and completed now (docs/rules.md §4).

    ``seats`` lists every seat in play order: the creator (at most once), open seats for others
    to join, and bots with a level. Raises ``OptionError`` (400) or ``BadSeats`` (400), each
    naming every bad field at once (bad seats and bad options together: ``BadSeats``). A match
    of bots only is refused (409 ``bot_match_limit``) to a creator who has as many as they may
    (``bot_match_limit_check``).
    With ``league``, the match counts for that league: the creator must be registered and
    seated, it plays the league's game and options, and only the league's players (and bots,
    if the league allows them) take its seats (``scoring.competitions.services``).
    With ``hints`` (never with ``league``: the request's validation refuses that), its people
    may ask for hints (``games.analysis.hints``) and it is not rated.
    """
    errors = seat_errors(seats=seats, league=league)
    if errors:
        # the house options are checked too (a league's are its own), so that every field is
        # answered at once
        option_error = (
            None
            if league is not None
            else _option_error(variant=variant, seat_count=len(seats), options=options)
        )
        raise seats_refused(errors, option_error)
    if league is not None:
        options = league_match_options(
            league_id=league,
            creator_id=creator.pk,
            variant=variant,
            options=options or {},
            seat_count=len(seats),
        )
        if any(spec.kind == BOT for spec in seats):
            league_bots_check(league_id=league)
    resolved = engine.resolve_options(variant, len(seats), options or {})
    now = timezone.now()
    with transaction.atomic():
        if all(spec.kind == BOT for spec in seats):
            bot_match_limit_check(creator=creator)
        match = Match.objects.create(
            variant=variant,
            options=resolved,
            seat_count=len(seats),
            seed=new_match_seed(),
            created_by=creator,
            hints=hints and league is None,
        )
        rows = []
        for position, spec in enumerate(seats):
            player: Player | None = None
            if spec.kind == CREATOR:
                player = creator
            elif spec.kind == BOT:
                player = bot_player(level=spec.level)  # type: ignore[arg-type]
            rows.append(
                Seat(
                    match=match,
                    position=position,
                    player=player,
                    joined_at=now if player is not None else None,
                )
            )
        Seat.objects.bulk_create(rows)
        if league is not None:
            league_match_add(league_id=league, match_id=match.pk)
    return match


def seat_errors(*, seats: list[SeatSpec], league: int | None = None) -> dict[str, list[str]]:
    """What is wrong with each seat a creator asks for, by field (``seats.2.level``): a second
    creator seat, an unknown kind, a bot without a level, a level on a seat that is no bot's;
    in a league match, no creator seat (under ``seats``)."""
    errors: dict[str, list[str]] = {}
    creator_seen = False
    for position, spec in enumerate(seats):
        if spec.kind == CREATOR:
            if creator_seen:
                errors[f"seats.{position}.kind"] = [_("The creator can take one seat only.")]
            creator_seen = True
        elif spec.kind not in SEAT_KINDS:
            errors[f"seats.{position}.kind"] = [
                _("A seat is one of %(kinds)s; got %(kind)r.")
                % {"kinds": ", ".join(SEAT_KINDS), "kind": spec.kind}
            ]
            continue
        if spec.kind == BOT and (type(spec.level) is not int or spec.level not in bots.LEVELS):
            errors[f"seats.{position}.level"] = [
                _("A bot seat needs a level: 1, 2, 3 or 4 (strong).")
            ]
        if spec.kind != BOT and spec.level is not None:
            errors[f"seats.{position}.level"] = [
                _("Only a bot seat takes a level; a %(kind)s seat takes none.")
                % {"kind": spec.kind}
            ]
    if league is not None and not creator_seen:
        errors["seats"] = [_("In a league match the creator takes a seat.")]
    return errors


def create_refusal(
    *, errors: dict[str, list[str]], found: dict[str, list[str]], rules: dict[str, str]
) -> InvalidInput | BadSeats | engine.OptionError:
    """One answer naming every bad field ``found`` (``rules``: the rule each broke), under the
    code of the first check that failed (docs/errors.md): the request's shape outside its seats
    and options (400 ``invalid``), then the seats, their shape (``errors``, the request
    validation's) or what they say (400 ``invalid_seats``), then the house options
    (400 ``invalid_option``)."""
    fields = {name.split(".", 1)[0] for name in errors}
    if fields - {"seats", "options"}:
        return InvalidInput(found, rules=rules)
    messages = [message for field_messages in found.values() for message in field_messages]
    detail = messages[0] if len(messages) == 1 else errors_summary(found)
    if "seats" in errors or any(name.startswith("seats.") for name in found):
        extra: dict[str, Any] = {"errors": found}
        if rules:
            extra["rules"] = rules
        return BadSeats(detail, extra=extra)
    return engine.OptionError(
        detail, rule=next(iter(rules.values()), None), errors=found, rules=rules
    )


def match_create_refused(
    *, body: Mapping[str, Any], errors: dict[str, list[str]]
) -> InvalidInput | BadSeats | engine.OptionError:
    """400 for a create request whose own validation found ``errors``, with what the seat and
    house option checks find in the rest of it, so that every field is answered at once (a
    field keeps the request validation's messages), under one code (``create_refusal``). A
    league's options are its own: they are not checked here."""
    found = {name: list(messages) for name, messages in errors.items()}
    rules: dict[str, str] = {}
    seats = body.get("seats")
    if not isinstance(seats, list):
        return create_refusal(errors=errors, found=found, rules=rules)
    specs = [
        SeatSpec(kind=str(seat.get("kind")), level=seat.get("level"))
        if isinstance(seat, Mapping)
        else SeatSpec(kind=OPEN)
        for seat in seats
    ]
    for name, messages in seat_errors(seats=specs, league=body.get("league")).items():
        found.setdefault(name, messages)
    variant, options = body.get("variant"), body.get("options", {})
    if "variant" not in errors and isinstance(options, Mapping) and body.get("league") is None:
        option_error = _option_error(variant=variant, seat_count=len(seats), options=dict(options))
        if option_error is not None:
            for name, messages in (option_error.errors or {}).items():
                known = found.setdefault(name, [])
                known.extend(message for message in messages if message not in known)
                if name in option_error.rules:
                    rules[name] = option_error.rules[name]
    return create_refusal(errors=errors, found=found, rules=rules)


def _option_error(
    *, variant: str, seat_count: int, options: dict[str, Any] | None
) -> engine.OptionError | None:
    """What the engine finds wrong with these house options (``None``: nothing)."""
    try:
        engine.resolve_options(variant, seat_count, options or {})
    except engine.OptionError as error:
        return error
    return None


def seats_refused(
    errors: dict[str, list[str]], option_error: engine.OptionError | None
) -> BadSeats:
    """400 ``invalid_seats`` naming every bad seat, and every bad option with it (``rules``
    says which rule each option broke)."""
    rules: dict[str, str] = {}
    if option_error is not None:
        for name, messages in (option_error.errors or {"options": [option_error.detail]}).items():
            errors.setdefault(name, []).extend(messages)
        rules = dict(option_error.rules)
    messages = [message for field_messages in errors.values() for message in field_messages]
    detail = messages[0] if len(messages) == 1 else errors_summary(errors)
    extra: dict[str, Any] = {"errors": errors}
    if rules:
        extra["rules"] = rules
    return BadSeats(detail, extra=extra)


def bot_match_limit_check(*, creator: Player) -> None:
    """Refuse (409 ``bot_match_limit``) a new match of bots only to a creator who has
    ``BOT_ONLY_MATCHES_PER_PLAYER`` of them open or in play.

    Call it inside the transaction that creates the match: it locks the creator's row, so two
    creations by one player at once count one after the other.
    """
    Player.objects.select_for_update().filter(pk=creator.pk).values_list("pk").first()
    limit = settings.BOT_ONLY_MATCHES_PER_PLAYER
    active = bot_only_matches_of(player=creator)
    if len(active) >= limit:
        raise BotMatchLimit(
            _(
                "You have %(active_count)s matches of bots only open or in "
                "play, and %(limit)s is the most at once: let one finish, or "
                "abandon one, before you create another."
            )
            % {"active_count": len(active), "limit": limit},
            extra={"limit": limit, "bot_matches": active},
        )


def seat_join(
    *, match_id: int, player: Player, position: int | None = None, invitation: int | None = None
) -> Seat:
    """Take an open seat (the first free one unless ``position`` says which).

    Refuses (403 ``blocked``) a player who blocked someone seated there or was blocked by
    them (``join_block_refuse``), and (409) a match that is not open, one that is full, a
    taken seat, a seat held for an invitation (``seat_held``; ``invitation`` is the id of the
    one being accepted, whose seat is not held against its invitee), a player already seated.
    A pending invitation of ``player`` to another seat of the match is declined: they sit where
    they joined. Bumps the match's version.
    """
    with transaction.atomic():
        match = match_lock(match_id=match_id)
        if match.status != Match.Status.OPEN:
            raise MatchNotOpen(
                _("Match %(match)s is %(status)s: it takes no more players.")
                % {"match": match.pk, "status": match.status}
            )
        seats = list(Seat.objects.filter(match=match).order_by("position"))
        if any(seat.player_id == player.pk for seat in seats):
            raise AlreadySeated(
                _("You already have a seat at match %(match)s.") % {"match": match.pk}
            )
        league_seat_check(match_id=match.pk, player_id=player.pk)
        seated = [seat.player_id for seat in seats if seat.player_id is not None]
        join_block_refuse(player=player, seated=seated, match_id=match.pk)
        free = [seat for seat in seats if seat.player_id is None]
        if not free:
            raise MatchFull(_("Every seat of match %(match)s is taken.") % {"match": match.pk})
        held = held_positions(match_id=match.pk, but=invitation)
        if position is None:
            unheld = [seat for seat in free if seat.position not in held]
            if not unheld:
                raise SeatHeld(
                    ngettext(
                        "Seat %(seats)s is held for invited players: match %(match)s has no "
                        "other open seat.",
                        "Seats %(seats)s are held for invited players: match %(match)s has no "
                        "other open seat.",
                        len(held),
                    )
                    % {"seats": seat_list(held), "match": match.pk},
                    extra={"held_seats": held},
                )
            seat = unheld[0]
        else:
            chosen = [seat for seat in seats if seat.position == position]
            if not chosen:
                detail = _("Match %(match)s has seats 0 to %(last)s; got %(position)s.") % {
                    "match": match.pk,
                    "last": match.seat_count - 1,
                    "position": position,
                }
                raise BadSeats(detail, extra={"errors": {"position": [detail]}})
            seat = chosen[0]
            if seat.player_id is not None:
                raise SeatTaken(
                    _("Seat %(position)s of match %(match)s is taken.")
                    % {"position": position, "match": match.pk}
                )
            if position in held:
                raise SeatHeld(
                    _("Seat %(position)s of match %(match)s is held for an invited player.")
                    % {"position": position, "match": match.pk},
                    extra={"held_seats": held},
                )
        seat.player = player
        seat.joined_at = timezone.now()
        seat.save(update_fields=["player", "joined_at"])
        others = Invitation.objects.filter(
            match=match, invitee=player, state=Invitation.State.PENDING
        )
        if invitation is not None:
            others = others.exclude(pk=invitation)
        others.update(state=Invitation.State.DECLINED, closed_at=seat.joined_at)
        match.version += 1
        match.save(update_fields=["version"])
        live.on_commit_notice(
            match_id=match.pk,
            frame={
                "type": "seat_joined",
                "version": match.version,
                "seat": seat.position,
                "name": player.display_name,
            },
        )
    return seat


def match_start(*, match_id: int, player: Player) -> Match:
    """Deal round 1 and start play. Only the creator or an organiser may; every seat is filled."""
    with transaction.atomic():
        match = match_lock(match_id=match_id)
        if match.created_by_id != player.pk and not player.organises:
            raise NotCreator(_("Only the match's creator or an organiser can start it."))
        if match.status != Match.Status.OPEN:
            raise MatchNotOpen(
                _("Match %(match)s is %(status)s: it has started already.")
                % {"match": match.pk, "status": match.status}
            )
        seats = list(Seat.objects.select_related("player").filter(match=match))
        open_seats = sorted(seat.position for seat in seats if seat.player_id is None)
        if open_seats:
            held = held_positions(match_id=match.pk)
            detail = ngettext(
                "Seat %(seats)s is still open.", "Seats %(seats)s are still open.", len(open_seats)
            ) % {"seats": seat_list(open_seats)}
            if held:
                detail += " " + ngettext(
                    "Seat %(seats)s is held for invited players until they answer.",
                    "Seats %(seats)s are held for invited players until they answer.",
                    len(held),
                ) % {"seats": seat_list(held)}
            raise SeatsStillOpen(detail, extra={"open_seats": open_seats, "held_seats": held})
        players = [seat.player_id for seat in sorted(seats, key=lambda seat: seat.position)]
        state = engine.new_match(match.variant, match.seat_count, match.options, match.seed)
        state_json = engine.to_json(state)
        now = timezone.now()
        match.state = state_json
        match.status = Match.Status.PLAYING
        match.started_at = now
        match.bot_seats = sorted(s.position for s in seats if s.player and s.player.is_bot)
        match.version += 1
        # A round can end as it is dealt (CF-START with one-tile hands): record each one.
        # The deal's automatic events (CF-START, MT-ENGINE) are in no move: keep them on the
        # round's row. The engine reports the opening of the round play starts in only.
        for number in range(1, state.round_no + 1):
            row = round_create(
                match=match,
                number=number,
                state_json=state_json,
                opening=engine.opening_events(state) if number == state.round_no else [],
                started_at=now,
            )
            if number <= len(state_json["revealed_seeds"]):
                row.status = Round.Status.FINISHED
                row.seed_revealed = state_json["revealed_seeds"][number - 1]
                row.scores = state_json["scores"][number - 1]
                row.ended_at = now
                row.save(update_fields=["status", "seed_revealed", "scores", "ended_at"])
                round_results_record(
                    match_id=match.pk,
                    round_number=number,
                    players=players,
                    scores=row.scores,
                    went_out_seat=went_out_as_dealt(row.scores),
                )
        if state.status == "over":
            match.status = Match.Status.FINISHED
            match.standings = engine.standings(state)
            match.finished_at = now
            on_commit_finalise(match_id=match.pk)
        match.timeouts_in_row = [0] * match.seat_count
        clock_start(match=match, now=now)
        live.on_commit_moved(match_id=match.pk, seq=0, version=match.version, always=True)
        match_started_notify(match=match, started_by=player.pk)
        your_turn_notify(
            match=match,
            seat=None if state.status == "over" else state.turn,
            moved_by_seat=next((s.position for s in seats if s.player_id == player.pk), None),
        )
        bot_turn_schedule(match=match)
        on_commit_clock(match=match)
        match.save(
            update_fields=[
                "state",
                "status",
                "started_at",
                "bot_seats",
                "version",
                "standings",
                "finished_at",
                "current_round",
                "bot_turn_since",
                "timeouts_in_row",
                "turn_deadline",
                "turn_warn_at",
            ]
        )
    return match
