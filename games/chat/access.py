"""Who may chat at a match, and until when: its seated players, from the lobby to
``OPEN_AFTER_END`` after its end ("good game" comes after the last move)."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone
from django.utils.translation import gettext as _

from games.models import Match, Player
from games.problems import MatchNotFound, NotYourMatch
from games.selectors import match_with_seat

#: How long after a match ends (finished or abandoned) its seats may still chat.
OPEN_AFTER_END = timedelta(minutes=10)
#: The columns a chat request reads of its match.
COLUMNS = ("id", "status", "finished_at")


def seated_match(*, match_id: int, player: Player, lock: bool = False) -> tuple[Match, int]:
    """The match (``COLUMNS`` loaded; with ``lock``, its row locked) and ``player``'s seat.

    Refuses a match that is not there (404 ``match_not_found``) and anyone without a seat at it
    (403 ``not_your_match``): spectators, organisers and creators who do not play included.
    """
    match = match_with_seat(match_id=match_id, player=player, lock=lock, columns=COLUMNS)
    if match is None:
        raise MatchNotFound(_("There is no match %(match_id)s.") % {"match_id": match_id})
    seat: int | None = match.my_seat  # type: ignore[attr-defined]
    if seat is None:
        raise NotYourMatch(
            _("Only the players seated at match %(match)s may use its chat.") % {"match": match_id}
        )
    return match, seat


def chat_open(match: Match) -> bool:
    """Whether ``match``'s chat still takes phrases: always before its end, then for
    ``OPEN_AFTER_END``."""
    if match.status not in (Match.Status.FINISHED, Match.Status.ABANDONED):
        return True
    ended = match.finished_at
    return ended is None or timezone.now() - ended <= OPEN_AFTER_END
