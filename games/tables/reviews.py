"""Confirmation and disputes of a table match's rounds: append-only ``RoundReview`` rows.

The match's creator sets who must confirm a round (``table_settings_set``: ``nobody``,
``any_other_seat`` or ``every_seat``). A seated player with an account confirms a round
(``round_confirm``) or disputes it with a reason (``round_dispute``); the creator resolves a
dispute with a note (``round_resolve``). Nothing here blocks scoring: a round awaiting
confirmation, or disputed, still counts. Each review is about the round's latest score entry,
so a correction needs confirming again. Each write takes the match lock, bumps the version and
publishes a frame to the match's socket group after commit.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from games.live import publish as live
from games.models import Match, Player, Seat
from games.notifications.services import round_disputed_notify
from games.problems import (
    AlreadyConfirmed,
    NoDispute,
    NotCreator,
    NotTableMatch,
    NotYourMatch,
    OwnEntry,
    RoundNotFound,
)
from games.selectors import match_to_check
from games.services.common import match_lock
from games.tables.models import RoundReview, ScoreEntry, TableSettings
from games.tables.review_states import dispute_state, round_review_states

#: The socket frames, one per kind of review.
FRAMES = {
    RoundReview.Kind.CONFIRM: "round_confirmed",
    RoundReview.Kind.DISPUTE: "round_disputed",
    RoundReview.Kind.RESOLVE: "round_resolved",
}


def review_right_check(*, match_id: int, player: Player, action: str) -> None:
    """Refuse, before the body is read, a caller without the right to ``action`` (``settings``
    and ``resolve``: the match's creator, 403 ``not_creator``; ``dispute``: a seated player
    with an account, 403 ``not_your_match``) on match ``match_id`` (404 ``match_not_found``).
    The services check again under the match lock."""
    match = match_to_check(match_id=match_id)
    if action == "dispute":
        _seat_of(match, player)
    else:
        _creator_only(match, player, action)


def _creator_only(match: Match, player: Player, action: str) -> None:
    if match.created_by_id != player.pk:
        refusal = (
            _("Only the creator of match %(match)s sets who confirms its rounds.")
            if action == "settings"
            else _("Only the creator of match %(match)s resolves its disputes.")
        )
        raise NotCreator(refusal % {"match": match.pk})


def table_settings_set(*, match_id: int, player: Player, confirmation: str) -> str:
    """Set who must confirm each round of table match ``match_id`` (its creator only)."""
    with transaction.atomic():
        match = _table_match(match_id)
        _creator_only(match, player, "settings")
        TableSettings.objects.update_or_create(match=match, defaults={"confirmation": confirmation})
        _bump(match)
    return confirmation


def round_confirm(*, match_id: int, player: Player, number: int) -> dict[str, Any]:
    """``player``'s seat confirms round ``number`` as last entered. Refused: no seat with an
    account (403 ``not_your_match``), the player who entered it (403 ``own_entry``), a seat that
    confirmed this entry already (409 ``already_confirmed``: a confirmation is made once)."""
    with transaction.atomic():
        match = _table_match(match_id)
        seat = _seat_of(match, player)
        entry = _latest_entry(match, number)
        if entry.entered_by_id == player.pk:
            raise OwnEntry(_("You entered these scores: another seat confirms them."))
        if RoundReview.objects.filter(
            entry=entry, kind=RoundReview.Kind.CONFIRM, player=player
        ).exists():
            raise AlreadyConfirmed(
                _("You have confirmed round %(number)s already.") % {"number": number}
            )
        return _review(match, entry, RoundReview.Kind.CONFIRM, player, seat, "")


def round_dispute(*, match_id: int, player: Player, number: int, reason: str) -> dict[str, Any]:
    """``player``'s seat disputes round ``number`` (403 ``not_your_match`` without a seat)."""
    with transaction.atomic():
        match = _table_match(match_id)
        seat = _seat_of(match, player)
        entry = _latest_entry(match, number)
        body = _review(match, entry, RoundReview.Kind.DISPUTE, player, seat, reason)
        round_disputed_notify(match=match, round_number=number, seat=seat, by=player.pk)
        return body


def round_resolve(*, match_id: int, player: Player, number: int, note: str) -> dict[str, Any]:
    """The match's creator resolves round ``number``'s open dispute (403 ``not_creator``; 409
    ``no_dispute`` when none is open). A corrected entry, if one is needed, is entered first
    through score entry as usual."""
    with transaction.atomic():
        match = _table_match(match_id)
        _creator_only(match, player, "resolve")
        entry = _latest_entry(match, number)
        if not _dispute_open(match, number):
            raise NoDispute(
                _("Round %(number)s of match %(match)s has no open dispute.")
                % {"number": number, "match": match.pk}
            )
        seat = Seat.objects.filter(match=match, player=player).values_list("position", flat=True)
        return _review(match, entry, RoundReview.Kind.RESOLVE, player, seat.first(), note)


def _table_match(match_id: int) -> Match:
    match = match_lock(match_id=match_id)
    if match.play != Match.Play.TABLE:
        raise NotTableMatch(
            _("Match %(match)s is played online: its rounds need no review.") % {"match": match.pk}
        )
    return match


def _seat_of(match: Match, player: Player) -> int:
    seat = (
        Seat.objects.filter(match=match, player=player, player__kind=Player.Kind.HUMAN)
        .values_list("position", flat=True)
        .first()
    )
    if seat is None:
        raise NotYourMatch(
            _("You have no seat at match %(match)s: seated players review rounds.")
            % {"match": match.pk}
        )
    return seat


def _latest_entry(match: Match, number: int) -> ScoreEntry:
    entry = ScoreEntry.objects.filter(match=match, number=number).order_by("-pk").first()
    if entry is None:
        raise RoundNotFound(
            _("Round %(number)s of match %(match)s has no scores yet.")
            % {"number": number, "match": match.pk}
        )
    return entry


def _dispute_open(match: Match, number: int) -> bool:
    reviews = list(RoundReview.objects.filter(match=match, number=number).order_by("pk"))
    return bool(dispute_state(reviews)["disputed"])


def _bump(match: Match) -> None:
    match.version += 1
    match.save(update_fields=["version"])


def _review(
    match: Match, entry: ScoreEntry, kind: str, player: Player, seat: int | None, reason: str
) -> dict[str, Any]:
    RoundReview.objects.create(
        match=match,
        number=entry.number,
        entry=entry,
        kind=kind,
        player=player,
        seat=seat,
        reason=reason,
    )
    _bump(match)
    state = round_review_states(match=match)[entry.number]
    body = {"version": match.version, "round": entry.number, **state}
    frame = {
        "type": FRAMES[RoundReview.Kind(kind)],
        "version": match.version,
        "round": entry.number,
        "seat": seat,
        "status": state["status"],
        "disputed": state["disputed"],
        "reason": reason or None,
    }
    live.on_commit_notice(match_id=match.pk, frame=frame)
    return body
