"""Corrections of a table match's scores: amend a round, reopen a locked match.

A correction is one more ``ScoreEntry`` for the round (with the seats it replaces and its
reason), never an edit of an earlier one. It takes the match lock, checks the version and
answers a retried ``Idempotency-Key`` as score entry does. Correcting a finished match marks
it for a recompute (``scoring.services.recompute``), queued after commit. After commit the
public wall of the match's competition (if any) is told of the corrected table, as after an
entry; the recompute tells it of the new standings.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from games.engine.tally import TableRound, table_round_check
from games.enqueue import enqueue_on_commit
from games.live import publish as live
from games.live.wall import on_commit_wall
from games.models import Match, Player, Round
from games.notifications.services import result_corrected_notify
from games.problems import (
    IdempotencyKeyReused,
    MatchLocked,
    MatchNotPlaying,
    NotOrganiser,
    NotTableMatch,
    RoundNotFound,
)
from games.selectors import match_to_check
from games.services.common import match_lock
from games.services.versions import request_fingerprint, version_check
from games.tables.models import MatchReopening, ScoreEntry
from games.tables.scorer_links import ScorerPrincipal
from games.tables.services import (
    ScoresOutcome,
    entered_by,
    final_standings,
    score_entry_write,
    scorer_check,
)
from scoring.competition_models import Competition, CompetitionMatch, Stage
from scoring.services import match_corrected, round_results_replace

#: The correction event on the match's socket group.
ROUND_CORRECTED = "round_corrected"
#: The longest reason a correction or a reopening takes.
REASON_MAX = 500


def match_locked(*, match: Match) -> bool:
    """Whether ``match``'s scores stand: its competition is finished, or the stage after its
    own is seated; and no organiser has reopened it. A match of no competition (a standalone
    table match) is never locked."""
    link = (
        CompetitionMatch.objects.filter(match_id=match.pk)
        .select_related("competition", "stage")
        .first()
    )
    if link is None or MatchReopening.objects.filter(match_id=match.pk).exists():
        return False
    if link.competition.status == Competition.Status.FINISHED:
        return True
    return (
        link.stage is not None
        and Stage.objects.filter(
            competition_id=link.competition_id, number__gt=link.stage.number
        ).exists()
    )


def round_scores_amend(
    *,
    match_id: int,
    player: Player | ScorerPrincipal,
    number: int,
    entries: list[dict[str, Any]],
    reason: str,
    expected_version: int | None,
    idempotency_key: str | None = None,
) -> ScoresOutcome:
    """Correct round ``number`` of table match ``match_id`` (already entered), in one
    transaction: the same checks as entry (``scorer_check``, the version, every bad entry at
    once), refused (409 ``match_locked``) once the match is locked, and to a scorer link once the
    match is finished (409 ``match_not_playing``: a link reads a finished match only). The new
    entry keeps the seats it replaces (``before``) and ``reason``. A finished match is marked
    for a recompute (``results_pending`` until it is done), queued after commit."""
    fingerprint = request_fingerprint(
        {"amend": number, "scores": entries, "version": expected_version, "reason": reason}
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
            prior = ScoreEntry.objects.filter(
                match=match, idempotency_key=idempotency_key, **entered_by(player)
            ).first()
            if prior is not None:
                if prior.request_hash != fingerprint:
                    raise IdempotencyKeyReused(
                        _("This Idempotency-Key was used for a different request; use a new key.")
                    )
                return ScoresOutcome(body=prior.response, version=match.version, replayed=True)
        if match.status not in (Match.Status.PLAYING, Match.Status.FINISHED):
            raise MatchNotPlaying(
                _("Match %(match)s is %(status)s: no corrections now.")
                % {"match": match.pk, "status": match.status}
            )
        if match.status == Match.Status.FINISHED and isinstance(player, ScorerPrincipal):
            # docs/tables.md: a finished match is read only for its scorer link
            raise MatchNotPlaying(
                _("Match %(match)s is %(status)s: no corrections now.")
                % {"match": match.pk, "status": match.status}
            )
        version_check(match=match, expected_version=expected_version)
        if match_locked(match=match):
            raise MatchLocked(
                _(
                    "Match %(match)s's competition has moved on: its scores stand. "
                    "Its organiser may reopen it (POST /api/matches/{id}/reopen)."
                )
                % {"match": match.pk}
            )
        current = ScoreEntry.objects.filter(match=match, number=number).order_by("-pk").first()
        if current is None:
            raise RoundNotFound(
                _("Round %(number)s of match %(match)s has no scores to correct.")
                % {"number": number, "match": match.pk}
            )
        checked = table_round_check(
            variant=match.variant,
            options=match.options,
            seat_count=match.seat_count,
            number=number,
            rounds_done=number - 1,
            entries=entries,
        )
        return _amend(
            match=match,
            player=player,
            current=current,
            checked=checked,
            reason=reason,
            idempotency_key=idempotency_key or "",
            fingerprint=fingerprint,
        )


def _amend(
    *,
    match: Match,
    player: Player | ScorerPrincipal,
    current: ScoreEntry,
    checked: TableRound,
    reason: str,
    idempotency_key: str,
    fingerprint: str,
) -> ScoresOutcome:
    """The write half of ``round_scores_amend``: the caller holds the lock and checked it all."""
    from scoring.tasks import match_recompute_task

    number = current.number
    row = Round.objects.get(match=match, number=number)
    row.scores = checked.scores
    row.save(update_fields=["scores"])
    round_results_replace(
        match_id=match.pk,
        round_number=number,
        scores=checked.scores,
        went_out_seat=checked.went_out,
    )
    match.version += 1
    update = ["version"]
    if match.status == Match.Status.FINISHED:
        match.standings = final_standings(match=match)
        update.append("standings")
        match_corrected(match_id=match.pk)
        enqueue_on_commit(match_recompute_task, match.pk)
    match.save(update_fields=update)
    if match.status == Match.Status.FINISHED:
        result_corrected_notify(
            match=match,
            round_number=number,
            by=player.pk if isinstance(player, Player) else None,
        )
    body = score_entry_write(
        match=match,
        row=row,
        checked=checked,
        player=player,
        idempotency_key=idempotency_key,
        fingerprint=fingerprint,
        before=current.seats,
        reason=reason,
    )
    live.on_commit_notice(
        match_id=match.pk,
        frame={
            "type": ROUND_CORRECTED,
            "version": match.version,
            "round": number,
            "scores": checked.scores,
            "went_out": checked.went_out,
        },
    )
    on_commit_wall(match_id=match.pk)  # a public competition's wall shows the table as corrected
    return ScoresOutcome(body=body, version=match.version)


def reopen_right_check(*, match_id: int, player: Player) -> None:
    """Refuse, before the body is read, a caller who may not reopen match ``match_id`` (404
    ``match_not_found``; 403 ``not_organiser``: only its competition's organiser may);
    ``match_reopen`` checks again under the lock."""
    _organiser_only(match=match_to_check(match_id=match_id), player=player)


def _organiser_only(*, match: Match, player: Player) -> None:
    link = CompetitionMatch.objects.filter(match_id=match.pk)
    organiser = link.values_list("competition__organiser_id", flat=True).first()
    if organiser != player.pk:
        raise NotOrganiser(
            _("Only the organiser of match %(match)s's competition may reopen it.")
            % {"match": match.pk}
        )


def match_reopen(*, match_id: int, player: Player, reason: str) -> MatchReopening:
    """Reopen table match ``match_id`` for corrections (its competition's organiser only: 403
    ``not_organiser`` for anyone else, and for a match of no competition, which is never
    locked). The reopening is kept with its reason; the match stays open from then on."""
    with transaction.atomic():
        match = match_lock(match_id=match_id)
        if match.play != Match.Play.TABLE:
            raise NotTableMatch(
                _("Match %(match)s is played online: it has no score sheet.") % {"match": match.pk}
            )
        _organiser_only(match=match, player=player)
        return MatchReopening.objects.create(match=match, reopened_by=player, reason=reason)
