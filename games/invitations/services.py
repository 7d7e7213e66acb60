"""Invitations: the creator of an open online match holds a seat for a player or for a link's
code; the invitee accepts (and is seated through ``seat_join``, so that every join rule holds)
or declines; the creator withdraws; an unanswered one expires (``INVITATION_TTL_HOURS``).

Every writer takes the match's lock first (``match_lock``), then the invitation's row, so an
accept, a join, a withdrawal and a decline of one match queue up and cannot deadlock.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from chickenfoot.problems import InvalidInput
from games.accounts.names import username_key
from games.invitations.holds import expired_mark, held_positions
from games.invitations.models import Invitation
from games.invitations.notify import notify_invited
from games.models import Match, Player, Seat
from games.problems import (
    AlreadySeated,
    BadSeats,
    InvitationClosed,
    InvitationExpired,
    InvitationNotFound,
    MatchNotOpen,
    NotCreator,
    SeatHeld,
    SeatTaken,
    TableMatchNoMoves,
)
from games.selectors import MAX_ID, match_to_check
from games.services.common import match_lock
from games.services.matches import seat_join
from games.social.blocks import block_refuse
from games.tables.claims import CODE_ALPHABET, code_hash

#: A link's code: 10 characters of a 31-letter alphabet, about 50 bits.
INVITE_CODE_LENGTH = 10


@dataclass(frozen=True)
class IssuedInvitation:
    invitation: Invitation
    code: str | None  # a link's, shown once


def invitation_ttl() -> timedelta:
    return timedelta(hours=settings.INVITATION_TTL_HOURS)


def invitee_find(*, player_id: int | None, username: str | None) -> Player:
    """The human an invitation names, by id or username; 400 ``invalid`` naming the field."""
    found = Player.objects.filter(kind=Player.Kind.HUMAN, user__isnull=False)
    if player_id is not None:
        invitee = found.filter(pk=player_id).first() if player_id <= MAX_ID else None
        field, what = "player_id", f"player {player_id}"
    else:
        invitee = found.filter(user__username_key__key=username_key(username or "")).first()
        field, what = "username", "that username"
    if invitee is None:
        raise InvalidInput(
            {field: [_("There is no player with %(what)s to invite.") % {"what": what}]}
        )
    return invitee


def invitation_create(
    *,
    match_id: int,
    inviter: Player,
    position: int | None = None,
    invitee: Player | None = None,
    link: bool = False,
) -> IssuedInvitation:
    """Hold a seat of ``match_id`` (``position``, or the first open seat nobody holds) for
    ``invitee``, or for a link's code (``link``: the code is returned here, never again).

    Only the match's creator invites (403 ``not_creator``), to an online match not started
    (409 ``table_match``, ``match_not_open``), to a seat that is open (409 ``seat_taken``) and
    not held (409 ``seat_held``); the invitee is not seated already (409 ``already_seated``),
    not the creator (400), not blocked by the inviter nor blocking them (403 ``blocked``), and
    not invited to that match already (409 ``seat_held``).
    """
    now = timezone.now()
    with transaction.atomic():
        match = match_lock(match_id=match_id)
        invitation_manager_check(match=match, player=inviter)
        expired_mark(match_id=match.pk, now=now)
        seats = list(Seat.objects.filter(match=match).order_by("position"))
        held = held_positions(match_id=match.pk)
        if invitee is not None:
            invitee_check(match=match, seats=seats, invitee=invitee, inviter=inviter, held=held)
        position = _seat_chosen(match=match, seats=seats, held=held, position=position)
        code = _new_code() if link else None
        invitation = Invitation.objects.create(
            match=match,
            position=position,
            inviter=inviter,
            invitee=invitee,
            code_hash=code_hash(code) if code else "",
            expires_at=now + invitation_ttl(),
        )
        match.version += 1
        match.save(update_fields=["version"])
        if invitee is not None:
            transaction.on_commit(lambda: notify_invited(invitation))
    return IssuedInvitation(invitation=invitation, code=code)


def invitation_creator_check(*, match_id: int, player: Player) -> None:
    """Refuse, before the body is read, a caller who is not the creator of match ``match_id``
    (404 ``match_not_found``, 403 ``not_creator``); ``invitation_create`` checks again, and
    the rest, under the lock."""
    match = match_to_check(match_id=match_id)
    _creator_only(match=match, player=player)


def _creator_only(*, match: Match, player: Player) -> None:
    if match.created_by_id != player.pk:
        raise NotCreator(
            _("Only the creator of match %(match)s invites players to it.") % {"match": match.pk}
        )


def invitation_manager_check(*, match: Match, player: Player) -> None:
    """Only the creator of an online match not started invites to it or withdraws."""
    _creator_only(match=match, player=player)
    if match.play != Match.Play.ONLINE:
        raise TableMatchNoMoves(
            _("Match %(match)s is played at a table: its seats are set when it is created.")
            % {"match": match.pk}
        )
    if match.status != Match.Status.OPEN:
        raise MatchNotOpen(
            _("Match %(match)s is %(status)s: it takes no more players.")
            % {"match": match.pk, "status": match.status}
        )


def invitee_check(
    *, match: Match, seats: list[Seat], invitee: Player, inviter: Player, held: list[int]
) -> None:
    if invitee.pk == inviter.pk:
        raise InvalidInput({"player_id": [_("You cannot invite yourself: take a seat instead.")]})
    block_refuse(player=inviter, other=invitee)
    if any(seat.player_id == invitee.pk for seat in seats):
        raise AlreadySeated(
            _("%(display_name)s already has a seat at match %(match)s.")
            % {"display_name": invitee.display_name, "match": match.pk}
        )
    pending = (
        Invitation.objects.filter(match=match, invitee=invitee, state=Invitation.State.PENDING)
        .values_list("position", flat=True)
        .first()
    )
    if pending is not None:
        raise SeatHeld(
            _("Seat %(pending)s of match %(match)s is held for %(display_name)s already.")
            % {"pending": pending, "match": match.pk, "display_name": invitee.display_name},
            extra={"held_seats": held},
        )


def _seat_chosen(*, match: Match, seats: list[Seat], held: list[int], position: int | None) -> int:
    open_seats = [seat.position for seat in seats if seat.player_id is None]
    if position is None:
        free = [p for p in open_seats if p not in held]
        if not free:
            raise SeatHeld(
                _("Match %(match)s has no open seat that is not held already.")
                % {"match": match.pk},
                extra={"held_seats": held},
            )
        return free[0]
    if not 0 <= position < match.seat_count:
        detail = _("Match %(match)s has seats 0 to %(last)s; got %(position)s.") % {
            "match": match.pk,
            "last": match.seat_count - 1,
            "position": position,
        }
        raise BadSeats(detail, extra={"errors": {"seat": [detail]}})
    if position not in open_seats:
        raise SeatTaken(
            _("Seat %(position)s of match %(match)s is taken.")
            % {"position": position, "match": match.pk}
        )
    if position in held:
        raise SeatHeld(
            _("Seat %(position)s of match %(match)s is held for an invited player already.")
            % {"position": position, "match": match.pk},
            extra={"held_seats": held},
        )
    return position


def _new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(INVITE_CODE_LENGTH))


def _locked(*, invitation_id: int) -> tuple[Match, Invitation]:
    """The invitation's match, then the invitation, locked in that order (404 for none)."""
    match_id = None
    if 0 < invitation_id <= MAX_ID:  # a URL may carry any number of digits
        match_id = (
            Invitation.objects.filter(pk=invitation_id).values_list("match_id", flat=True).first()
        )
    if match_id is None:
        raise InvitationNotFound(
            _("There is no invitation %(invitation_id)s of yours.")
            % {"invitation_id": invitation_id}
        )
    match = match_lock(match_id=match_id)
    invitation = Invitation.objects.select_for_update().get(pk=invitation_id)
    return match, invitation


def _open_check(*, invitation: Invitation, now: datetime) -> None:
    """Refuse an invitation answered already (409 ``invitation_closed``) or past its expiry
    (409 ``invitation_expired``: the caller marks it so once its transaction is undone)."""
    expired = invitation.state == Invitation.State.PENDING and invitation.expires_at <= now
    if expired or invitation.state == Invitation.State.EXPIRED:
        raise InvitationExpired(
            _(
                "Invitation %(invitation)s expired at %(expires_at)s UTC; ask "
                "the match's creator for a new one."
            )
            % {
                "invitation": invitation.pk,
                "expires_at": format(invitation.expires_at, "%Y-%m-%d %H:%M"),
            }
        )
    if invitation.state != Invitation.State.PENDING:
        raise InvitationClosed(
            _("Invitation %(invitation)s was %(state)s already.")
            % {"invitation": invitation.pk, "state": invitation.state},
            extra={"state": invitation.state},
        )


def _expire_and_refuse(*, invitation_id: int, now: datetime) -> None:
    """Mark an invitation past its expiry expired, outside the refused request's transaction
    (which is undone), so that the refusal keeps it."""
    Invitation.objects.filter(
        pk=invitation_id, state=Invitation.State.PENDING, expires_at__lte=now
    ).update(state=Invitation.State.EXPIRED, closed_at=now)


def _accept(*, match: Match, invitation: Invitation, player: Player, now: datetime) -> None:
    seat_join(
        match_id=match.pk, player=player, position=invitation.position, invitation=invitation.pk
    )
    invitation.state = Invitation.State.ACCEPTED
    invitation.accepted_by = player
    invitation.closed_at = now
    invitation.save(update_fields=["state", "accepted_by", "closed_at"])


def invitation_accept(*, invitation_id: int, player: Player) -> Invitation:
    """The invitee takes the seat held for them (``seat_join``'s refusals apply). Another's
    invitation, or a link's, is 404 ``invitation_not_found``."""
    return _answer(invitation_id=invitation_id, player=player, accept=True)


def invitation_decline(*, invitation_id: int, player: Player) -> Invitation:
    """The invitee declines: the seat is open to anyone again."""
    return _answer(invitation_id=invitation_id, player=player, accept=False)


def _answer(*, invitation_id: int, player: Player, accept: bool) -> Invitation:
    now = timezone.now()
    try:
        with transaction.atomic():
            match, invitation = _locked(invitation_id=invitation_id)
            if invitation.invitee_id != player.pk:
                raise InvitationNotFound(
                    _("There is no invitation %(invitation_id)s of yours.")
                    % {"invitation_id": invitation_id}
                )
            _open_check(invitation=invitation, now=now)
            if accept:
                _accept(match=match, invitation=invitation, player=player, now=now)
            else:
                invitation.state = Invitation.State.DECLINED
                invitation.closed_at = now
                invitation.save(update_fields=["state", "closed_at"])
                match.version += 1
                match.save(update_fields=["version"])
    except InvitationExpired:
        _expire_and_refuse(invitation_id=invitation_id, now=now)
        raise
    return invitation


def invitation_accept_code(*, code: str, player: Player, match_id: int | None = None) -> Invitation:
    """Whoever holds a link's code takes the one seat it holds, of its one match. A code that
    opens no seat now, whether no link has it, (with ``match_id``) another match's link has it,
    or its link was used, withdrawn or has expired, is 404 ``invitation_not_found``, all alike
    (a code works once, and a guess learns nothing)."""
    hashed = code_hash(code)
    found = Invitation.objects.filter(code_hash=hashed).values_list("pk", "match_id").first()
    if found is None or (match_id is not None and found[1] != match_id):
        raise _opens_nothing()
    now = timezone.now()
    try:
        with transaction.atomic():
            match, invitation = _locked(invitation_id=found[0])
            try:
                _open_check(invitation=invitation, now=now)
            except InvitationClosed:
                raise _opens_nothing() from None
            _accept(match=match, invitation=invitation, player=player, now=now)
    except InvitationExpired:
        _expire_and_refuse(invitation_id=found[0], now=now)
        raise _opens_nothing() from None
    return invitation


def _opens_nothing() -> InvitationNotFound:
    return InvitationNotFound(_("That code opens no invitation."))


def invitation_withdraw(*, invitation_id: int, player: Player) -> None:
    """The creator withdraws a pending invitation (one answered already stays as it was: 409
    ``invitation_closed``); the seat is open to anyone again."""
    now = timezone.now()
    try:
        with transaction.atomic():
            match, invitation = _locked(invitation_id=invitation_id)
            if invitation.inviter_id != player.pk:
                if invitation.invitee_id == player.pk:
                    raise NotCreator(
                        _("Only the match's creator withdraws an invitation; decline it.")
                    )
                raise InvitationNotFound(
                    _("There is no invitation %(invitation_id)s of yours.")
                    % {"invitation_id": invitation_id}
                )
            _open_check(invitation=invitation, now=now)
            _withdraw(match=match, invitation=invitation, now=now)
    except InvitationExpired:
        _expire_and_refuse(invitation_id=invitation_id, now=now)
        raise


def invitations_withdraw_between(a: int, b: int) -> list[int]:
    """Withdraw every invitation pending between players ``a`` and ``b``, either way (one
    blocked the other): each under its match's lock, as the creator's withdrawal does, so an
    accept of it either went first (the two sit together: the block came after) or finds it
    withdrawn. The ids of the invitations withdrawn."""
    pending = Q(inviter_id=a, invitee_id=b) | Q(inviter_id=b, invitee_id=a)
    found = Invitation.objects.filter(pending, state=Invitation.State.PENDING)
    withdrawn = []
    for invitation_id in found.order_by("match_id", "pk").values_list("pk", flat=True):
        with transaction.atomic():
            match, invitation = _locked(invitation_id=invitation_id)
            if invitation.state == Invitation.State.PENDING:
                _withdraw(match=match, invitation=invitation, now=timezone.now())
                withdrawn.append(invitation_id)
    return withdrawn


def _withdraw(*, match: Match, invitation: Invitation, now: datetime) -> None:
    invitation.state = Invitation.State.WITHDRAWN
    invitation.closed_at = now
    invitation.save(update_fields=["state", "closed_at"])
    match.version += 1
    match.save(update_fields=["version"])
