"""Reads: a table match's score log, every entry and correction in the order it was made."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.models import Match, Player, Seat
from games.problems import MatchNotFound, NotScorer, NotScoreReader
from games.tables.models import MatchReopening, ScoreEntry
from games.tables.scorer_links import ScorerPrincipal
from scoring.competition_models import CompetitionMatch

#: The most entries one page of the log holds.
LOG_PAGE_MAX = 100


def score_reader_check(*, match: Match, player: Player | ScorerPrincipal) -> None:
    """Refuse (403 ``not_score_reader``) a caller who may not read ``match``'s score log: its
    creator, its players seated with an account, its competition's organiser and a scorer link
    of it may (a link of another match: 403 ``not_scorer``)."""
    if isinstance(player, ScorerPrincipal):
        if player.match_id != match.pk:
            raise NotScorer(
                _("This scorer link opens another match than match %(match)s.")
                % {"match": match.pk}
            )
        return
    if match.created_by_id == player.pk:
        return
    if not player.is_guest and Seat.objects.filter(match=match, player=player).exists():
        return
    if CompetitionMatch.objects.filter(
        match_id=match.pk, competition__organiser_id=player.pk
    ).exists():
        return
    raise NotScoreReader(
        _(
            "Only the players of match %(match)s, its creator and its "
            "organiser read its scores' log."
        )
        % {"match": match.pk}
    )


def score_log(*, match: Match, after: int | None, limit: int) -> dict[str, Any]:
    """One page of ``match``'s log, oldest first, from the entry after id ``after``: each entry
    with who made it, when, the round's seats before (``null`` for a first entry) and after, and
    the reason of a correction. ``next`` is the cursor of the next page (``null``: the end).
    ``reopenings``: every time the organiser reopened the match, oldest first, with who, when
    and why (on each page: a match is reopened a few times at most)."""
    entries = ScoreEntry.objects.filter(match=match).select_related("entered_by").order_by("pk")
    if after is not None:
        entries = entries.filter(pk__gt=after)
    page = list(entries[: limit + 1])
    more = len(page) > limit
    page = page[:limit]
    return {
        "entries": [
            {
                "id": entry.pk,
                "round": entry.number,
                "kind": "correction" if entry.before is not None else "entry",
                "version": entry.version,
                "at": entry.created_at,
                "author": (
                    {"player_id": entry.entered_by_id, "name": entry.entered_by.display_name}
                    if entry.entered_by is not None
                    else None
                ),
                "before": entry.before,
                "after": entry.seats,
                "reason": entry.reason or None,
            }
            for entry in page
        ],
        "next": page[-1].pk if more else None,
        "reopenings": [
            {
                "id": reopening.pk,
                "at": reopening.created_at,
                "author": (
                    {
                        "player_id": reopening.reopened_by_id,
                        "name": reopening.reopened_by.display_name,
                    }
                    if reopening.reopened_by is not None
                    else None
                ),
                "reason": reopening.reason,
            }
            for reopening in MatchReopening.objects.filter(match=match)
            .select_related("reopened_by")
            .order_by("pk")
        ],
    }


def table_match_for_reader(*, match_id: int, caller: Player | ScorerPrincipal) -> Match:
    """Table match ``match_id`` for a caller who may read its scores: a reader of its log
    (``score_reader_check``, 403 ``not_score_reader``) or a scorer link of that match (403
    ``not_scorer`` for another); 404 if there is no such table match."""
    match = Match.objects.filter(pk=match_id, play=Match.Play.TABLE).first()
    if match is None:
        raise MatchNotFound(_("There is no table match %(match_id)s.") % {"match_id": match_id})
    score_reader_check(match=match, player=caller)
    return match


def score_log_read(
    *, match_id: int, player: Player | ScorerPrincipal, after: int | None, limit: int
) -> dict[str, Any]:
    """``score_log`` of table match ``match_id`` for ``player`` (404, or 403 if not a reader)."""
    match = table_match_for_reader(match_id=match_id, caller=player)
    return score_log(match=match, after=after, limit=min(limit, LOG_PAGE_MAX))
