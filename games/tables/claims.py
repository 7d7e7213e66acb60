"""A guest claims their seat, and its history, into an account with a one-time code.

The match's creator asks for a code for a guest's seat (``claim_code_issue``), or a
competition's organiser for a guest entrant (``entrant_claim_code_issue``: they may have no
seat yet); the guest, signed in, redeems it (``claim_redeem``). Only the code's SHA-256 is
stored; a code works once and for ``CLAIM_CODE_LIFETIME``. Redeeming moves every seat, result
and competition entry of that guest to the account, in one transaction (scoring's rows through
``scoring.services.player_results_move``).
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from games.models import Match, Player, Seat
from games.problems import (
    BadSeats,
    ClaimCodeUnknown,
    ClaimConflict,
    NotCreator,
    NotGuestSeat,
    NotOrganiser,
)
from games.services.common import match_lock
from games.tables.models import GuestClaim
from scoring.competition_models import Registration
from scoring.competitions.selectors import competition_get
from scoring.services import (
    entries_lock,
    has_entries,
    player_results_move,
    shared_competitions,
)

#: How long a claim code works.
CLAIM_CODE_LIFETIME = timedelta(days=7)
#: Letters and digits no one misreads (no 0/O, 1/I/L): 8 of them are about 40 bits.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 8


def code_hash(code: str) -> str:
    """What is stored of a code: the SHA-256 of it, upper-cased and without blanks or dashes."""
    cleaned = "".join(code.split()).replace("-", "").upper()
    return hashlib.sha256(cleaned.encode()).hexdigest()


@dataclass(frozen=True)
class ClaimCode:
    code: str
    expires_at: datetime
    guest_id: int
    name: str


def claim_code_issue(*, match_id: int, position: int, player: Player) -> ClaimCode:
    """A new one-time code for the guest at seat ``position`` of ``match_id``; only the match's
    creator may ask (403 ``not_creator``), and only for a guest's seat (409 ``not_guest_seat``).
    Codes issued before for that guest keep working until used or expired."""
    with transaction.atomic():
        match = match_lock(match_id=match_id)
        if match.created_by_id != player.pk:
            raise NotCreator(_("Only the match's creator can ask for a guest's claim code."))
        seat = Seat.objects.select_related("player").filter(match=match, position=position).first()
        if seat is None:
            detail = _("Match %(match)s has seats 0 to %(last)s; got %(position)s.") % {
                "match": match.pk,
                "last": match.seat_count - 1,
                "position": position,
            }
            raise BadSeats(detail, extra={"errors": {"position": [detail]}})
        if seat.player is None or not seat.player.is_guest:
            raise NotGuestSeat(
                _("Seat %(position)s of match %(match)s is not a guest's.")
                % {"position": position, "match": match.pk}
            )
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        expires_at = timezone.now() + CLAIM_CODE_LIFETIME
        GuestClaim.objects.create(
            guest=seat.player,
            match=match,
            position=position,
            code_hash=code_hash(code),
            created_by=player,
            expires_at=expires_at,
        )
    return ClaimCode(
        code=code, expires_at=expires_at, guest_id=seat.player.pk, name=seat.player.display_name
    )


def entrant_claim_code_issue(
    *, competition_id: int, player_id: int, organiser: Player
) -> ClaimCode:
    """A new one-time code for guest entrant ``player_id`` of competition ``competition_id``;
    only its organiser may ask (403 ``not_organiser``), and only for a guest who entered it
    (409 ``not_guest_seat``). It moves every seat, result and entry of that guest."""
    competition = competition_get(competition_id=competition_id)
    if competition.organiser_id != organiser.pk:
        raise NotOrganiser(
            _("Only the organiser of competition %(competition)s can ask for a claim code.")
            % {"competition": competition.pk}
        )
    guest = Player.objects.filter(
        pk=player_id,
        kind=Player.Kind.GUEST,
        pk__in=Registration.objects.filter(
            competition=competition, withdrawn_at__isnull=True
        ).values("player_id"),
    ).first()
    if guest is None:
        raise NotGuestSeat(
            _("Player %(player_id)s is not a guest entrant of competition %(competition)s.")
            % {"player_id": player_id, "competition": competition.pk}
        )
    code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
    expires_at = timezone.now() + CLAIM_CODE_LIFETIME
    GuestClaim.objects.create(
        guest=guest, code_hash=code_hash(code), created_by=organiser, expires_at=expires_at
    )
    return ClaimCode(code=code, expires_at=expires_at, guest_id=guest.pk, name=guest.display_name)


def claim_redeem(*, player: Player, code: str) -> list[int]:
    """Move the guest ``code`` names, with every seat and result, to ``player``'s account;
    return the ids of the matches moved. Refused: a code that claims nothing now, whether no
    one was given it or it was used or has expired (404 ``claim_code_unknown``, all alike, so
    that a guess learns nothing), a caller without an account (403), or one who sat in one of
    those matches or entered one of the guest's competitions (409 ``claim_conflict``: a person
    has one seat at a match, one entry in a competition)."""
    if player.kind != Player.Kind.HUMAN:
        raise NotGuestSeat(_("Only a player with an account can claim a guest's seat."))
    with transaction.atomic():
        claim = (
            GuestClaim.objects.select_for_update()
            .select_related("guest")
            .filter(code_hash=code_hash(code))
            .first()
        )
        now = timezone.now()
        if claim is None or claim.redeemed_at is not None or claim.expires_at <= now:
            raise _unknown()
        guest = claim.guest
        match_ids = sorted(Seat.objects.filter(player=guest).values_list("match_id", flat=True))
        for match_id in match_ids:  # one lock order: by match id (no two claims deadlock)
            Match.objects.select_for_update().filter(pk=match_id).values_list("pk").first()
        entries_lock(player_id=guest.pk)
        entered = has_entries(player_id=guest.pk)
        if (not match_ids and not entered) or Seat.objects.filter(player=guest).count() != len(
            match_ids
        ):
            raise _unknown()  # this guest's seats and entries have been claimed already
        shared = sorted(
            Seat.objects.filter(player=player, match_id__in=match_ids).values_list(
                "match_id", flat=True
            )
        )
        if shared:
            raise ClaimConflict(
                _("You sat in match %(shared)s too: one person has one seat at a table.")
                % {"shared": shared[0]}
            )
        both = shared_competitions(from_player_id=guest.pk, to_player_id=player.pk)
        if both:
            raise ClaimConflict(
                _("You entered competition %(competition)s too: one person has one entry.")
                % {"competition": both[0]}
            )
        Seat.objects.filter(player=guest).update(player=player)
        player_results_move(from_player_id=guest.pk, to_player_id=player.pk)
        GuestClaim.objects.filter(pk=claim.pk).update(redeemed_at=now, redeemed_by=player)
        GuestClaim.objects.filter(guest=guest, redeemed_at__isnull=True).update(expires_at=now)
        Match.objects.filter(pk__in=match_ids).update(version=F("version") + 1)
    return match_ids


def _unknown() -> ClaimCodeUnknown:
    """The one answer to a code that claims nothing now."""
    return ClaimCodeUnknown(_("No claim code is this one; ask the match's creator for one."))
