"""A rematch: one new match for a finished one, with the same game, options and seat order.

The first seated human to ask creates it and sits where they sat; bots come back at their
level, and every other human is invited to their old seat (the seat is held for them). The
rematch is kept on the new match (``rematch_of``, one per match), so a later call by another
player of the finished match answers the same new match, and seats them: their invitation is
accepted, or, without one still pending, they join their old seat if it is free.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _

from games.invitations.models import Invitation
from games.invitations.services import invitation_accept, invitation_create
from games.models import Match, Player, Seat
from games.problems import MatchNotFinished, NotYourMatch, TableMatchNoMoves
from games.services.common import match_lock
from games.services.matches import BOT, CREATOR, OPEN, SeatSpec, match_create, seat_join
from games.social.blocks import blocked_between


@dataclass(frozen=True)
class Rematch:
    match: Match
    created: bool


def rematch_request(*, match_id: int, player: Player) -> Rematch:
    """The rematch of finished match ``match_id`` for ``player``, seated at it: created by
    the first call, the same one afterwards (with the caller seated).

    Refuses a caller without a seat at it (403 ``not_your_match``), then a table match (409
    ``table_match``) and a match not finished (409 ``match_not_finished``).
    Locks the finished match, then the new one: two calls at once make one rematch.
    """
    with transaction.atomic():
        old = match_lock(match_id=match_id)
        seats = list(Seat.objects.select_related("player").filter(match=old).order_by("position"))
        mine = [seat.position for seat in seats if seat.player_id == player.pk]
        if not mine:  # the caller's right first: a stranger learns nothing of the match
            raise NotYourMatch(_("You have no seat at match %(old)s.") % {"old": old.pk})
        if old.play != Match.Play.ONLINE:
            raise TableMatchNoMoves(
                _("Match %(old)s was played at a table: it has no rematch.") % {"old": old.pk}
            )
        if old.status != Match.Status.FINISHED:
            raise MatchNotFinished(
                _("Match %(old)s is %(status)s: a rematch follows its end.")
                % {"old": old.pk, "status": old.status}
            )
        existing = Match.objects.filter(rematch_of=old).first()
        if existing is not None:
            _seat_again(match=existing, player=player, position=mine[0])
            return Rematch(match=existing, created=False)
        return Rematch(match=_create(old=old, seats=seats, player=player), created=True)


def _create(*, old: Match, seats: list[Seat], player: Player) -> Match:
    specs = []
    for seat in seats:
        if seat.player_id == player.pk:
            specs.append(SeatSpec(kind=CREATOR))
        elif seat.player is not None and seat.player.is_bot:
            specs.append(SeatSpec(kind=BOT, level=seat.player.bot_level))
        else:
            specs.append(SeatSpec(kind=OPEN))
    options = dict(old.options)
    match = match_create(creator=player, variant=old.variant, seats=specs, options=options)
    Match.objects.filter(pk=match.pk).update(rematch_of=old)
    for seat in seats:
        invitee = seat.player
        if invitee is None or invitee.pk == player.pk or invitee.kind != Player.Kind.HUMAN:
            continue
        if invitee.user_id is None:  # an account deleted since: the seat stays open
            continue
        if blocked_between(player.pk, invitee.pk):  # one blocked the other: the seat stays open
            continue
        invitation_create(
            match_id=match.pk, inviter=player, position=seat.position, invitee=invitee
        )
    match.refresh_from_db()
    return match


def _seat_again(*, match: Match, player: Player, position: int) -> None:
    """Seat ``player`` at the rematch: accept their invitation, else join their old seat."""
    if Seat.objects.filter(match=match, player=player).exists():
        return
    pending = (
        Invitation.objects.filter(match=match, invitee=player, state=Invitation.State.PENDING)
        .values_list("pk", flat=True)
        .first()
    )
    if pending is not None:
        invitation_accept(invitation_id=pending, player=player)
    else:
        seat_join(match_id=match.pk, player=player, position=position)
