"""Hints: the move the strong bot would play from the asking seat's knowledge, with a reason.

A hint is computed from ``bot_seat_info`` (the seat's view and the round's log redacted for it,
C-HIDDEN), exactly what a bot in that seat would be given, so it names one of the seat's own
legal moves and nothing else. One hint per seat and position (``HINTS_PER_TURN``: a draw that
keeps the seat on turn is a new position); each is recorded (``HintUse``), so the match counts
the hints each seat used.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from games import bots, engine
from games.engine import DRAW, PASS, Move
from games.models import Match, Player
from games.problems import HintLimit, HintsOff, MatchNotPlaying, NotYourMatch
from games.selectors import bot_seat_info
from games.services.common import match_lock

from .models import HintUse
from .moves import move_json, move_seed

#: Hints a seat may ask for in one position.
HINTS_PER_TURN = 1


def _tile(tile: Any) -> str:
    return f"{tile[0]}-{tile[1]}"


def hint_reason(*, view: dict[str, Any], move: Move) -> str:
    """One line, in the request's language, on why ``move`` is the one to play."""
    legal = view["legal_moves"]
    if len(legal) == 1:
        return _("It is the only move you have.")
    if move.kind == DRAW:
        return _("No tile of yours fits an open end: draw.")
    if move.kind == PASS:
        return _("Nothing you hold fits: pass.")
    a, b = move.tile  # type: ignore[misc]
    if a == b:
        return _("Lay the double %(tile)s now: a double is the hardest tile to place later.") % {
            "tile": _tile(move.tile)
        }
    heaviest = max(sum(m["tile"]) for m in legal if m.get("tile") is not None)
    if a + b >= heaviest:
        return _("Shed points: %(tile)s is the heaviest tile you can lay.") % {
            "tile": _tile(move.tile)
        }
    return _(
        "%(tile)s on %(target)s did best in the deals of the other hands the bot tried: it "
        "keeps your hand playable."
    ) % {"tile": _tile(move.tile), "target": move.target}


def hint_give(*, match_id: int, player: Player) -> dict[str, Any]:
    """The hint for ``player``'s seat at ``match_id`` (on turn), recorded as used.

    409 ``hints_off`` in a match without hints; 403 without a seat; 409 ``match_not_playing``
    once it is over; 409 ``not_your_turn`` when another seat is to move; 429 ``hint_limit`` for
    a second hint in the same position. Under the match's lock: the hint and its record agree
    with the position it was asked in.
    """
    with transaction.atomic():
        match = match_lock(match_id=match_id, player=player)
        seat: int | None = match.my_seat  # type: ignore[attr-defined]
        if not match.hints:
            raise HintsOff(
                _("Match %(match)s was not created with hints: no seat may ask for one.")
                % {"match": match.pk}
            )
        if seat is None:
            raise NotYourMatch(_("You have no seat at match %(match)s.") % {"match": match.pk})
        if match.status != Match.Status.PLAYING:
            raise MatchNotPlaying(
                _("Match %(match)s is %(status)s: hints are given while it plays.")
                % {"match": match.pk, "status": match.status}
            )
        state = engine.from_json(match.state, trusted=True)
        if state.turn != seat:
            raise engine.NotYourTurn(
                _("It is seat %(turn)s's turn, not yours (seat %(seat)s): a hint is for your move.")
                % {"turn": state.turn, "seat": seat}
            )
        try:
            with transaction.atomic():
                HintUse.objects.create(match_id=match.pk, seat=seat, move_no=match.moves_played)
        except IntegrityError:
            raise HintLimit(
                _("You have had your hint for this move (%(limit)s a turn): play, then ask again.")
                % {"limit": HINTS_PER_TURN},
                extra={"limit": HINTS_PER_TURN},
            ) from None
        info = bot_seat_info(match=match, state=state, seat=seat, with_log=True)
        rng = move_seed(match.seed, match.moves_played, salt=f"hint:{seat}")
        move = bots.choose_move(info, bots.STRONG, rng, deals=settings.HINT_DEALS)
        used = HintUse.objects.filter(match_id=match.pk, seat=seat).count()
    return {
        "match_id": match.pk,
        "seat": seat,
        "version": match.version,
        "move": move_json(move),
        "reason": hint_reason(view=info.view, move=move),
        "hints_used": used,
    }
