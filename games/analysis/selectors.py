"""Reading a finished match's analysis and its replay, for those who may look at the match."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from rest_framework.exceptions import NotAuthenticated

from games import engine
from games.models import Match, Move, Player
from games.problems import MatchNotFinished, MoveNotFound
from games.selectors import match_for_viewer, match_get, online_match_check
from scoring.competition_models import CompetitionMatch

from .marks import CLASSES, MARKS
from .models import MatchAnalysis
from .services import analysis_queue, analysis_summary
from .walk import state_after


def in_public_competition(*, match_id: int) -> bool:
    """Does ``match_id`` count for a public competition (its wall readable by anyone)?"""
    return CompetitionMatch.objects.filter(match_id=match_id, competition__public=True).exists()


def finished_match_for(*, match_id: int, player: Player | None, replay: bool = False) -> Match:
    """The finished online match ``match_id`` if the caller may study it: anyone signed in may
    look at a finished match (its record is public); without a token, only a match of a public
    competition. 409 ``match_not_finished`` before the end (its hands are still secret), 409
    ``table_match`` for a match played at a table (nothing dealt to analyse)."""
    if player is None:
        match = match_get(match_id=match_id)
        if not in_public_competition(match_id=match_id):
            raise NotAuthenticated()
    else:
        match, _seat = match_for_viewer(match_id=match_id, player=player)
    online_match_check(match=match)
    if match.status != Match.Status.FINISHED:
        detail = (
            _("Match %(match)s is %(status)s: its replay opens when it has finished.")
            if replay
            else _("Match %(match)s is %(status)s: its analysis opens when it has finished.")
        )
        raise MatchNotFinished(detail % {"match": match.pk, "status": match.status})
    return match


def thresholds() -> list[dict[str, Any]]:
    """The classes and the loss each stays below (the last has none)."""
    bounds = dict(CLASSES)
    return [{"mark": name, "below": bounds.get(name)} for name in MARKS]


def match_analysis(*, match: Match) -> MatchAnalysis:
    """``match``'s analysis row; queued now if it has none (a match finished before analysis
    was made, or on the embedded default, where it is made when first asked for: it then runs
    in this request)."""
    analysis = MatchAnalysis.objects.filter(match_id=match.pk).first()
    if analysis is None:
        with transaction.atomic():
            analysis_queue(match_id=match.pk)
        analysis = MatchAnalysis.objects.get(match_id=match.pk)
    return analysis


def analysis_body(*, match: Match, analysis: MatchAnalysis) -> dict[str, Any]:
    """The analysis as the API shows it: progress while it runs, every mark once done."""
    body: dict[str, Any] = {
        "match_id": match.pk,
        "status": analysis.status,
        "done": analysis.done,
        "total": analysis.total,
    }
    if analysis.status != MatchAnalysis.Status.DONE:
        return body
    names = {s.position: s.player for s in match.seats.all()}
    players = analysis_summary(analysis=analysis, seat_count=match.seat_count)
    for row in players:
        player = names.get(row["seat"])
        row["player_id"] = player.pk if player else None
        row["name"] = player.display_name if player else None
    return body | {
        "thresholds": thresholds(),
        "players": players,
        "moves": analysis.moves,
    }


def move_analysis(*, match: Match, seq: int) -> dict[str, Any] | None:
    """The analysis of move ``seq`` (``None``: not analysed, or not yet)."""
    moves = MatchAnalysis.objects.filter(match_id=match.pk).values_list("moves", flat=True).first()
    return next((m for m in moves or [] if m["seq"] == seq), None)


def replay_body(*, match: Match, seq: int) -> dict[str, Any]:
    """The table, every hand and the boneyard after move ``seq`` of finished ``match`` (0: as
    play began), the move and its analysis. 404 ``move_not_found`` past the last move."""
    if not 0 <= seq <= match.moves_played:
        raise MoveNotFound(
            _("Match %(match)s has moves 0 to %(last)s; there is no move %(seq)s.")
            % {"match": match.pk, "last": match.moves_played, "seq": seq}
        )
    state = state_after(match=match, seq=seq)
    move = (
        Move.objects.filter(match=match, seq=seq)
        .select_related("round")
        .only("seq", "seat", "kind", "tile", "target", "round__number")
        .first()
    )
    return {
        "match_id": match.pk,
        "seq": seq,
        "moves_played": match.moves_played,
        "move": None
        if move is None
        else {
            "seq": move.seq,
            "round": move.round.number,
            "seat": move.seat,
            "kind": move.kind,
            "tile": move.tile,
            "target": move.target or None,
        },
        "table": engine.view(state, None),
        "hands": [[[a, b] for a, b in hand] for hand in state.hands],
        "boneyard": [[a, b] for a, b in state.boneyard],
        "analysis": move_analysis(match=match, seq=seq),
    }
