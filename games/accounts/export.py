"""Everything kept about a player, as one document (``GET /api/players/me/export``).

What the public record shows, and what is the player's own: the account, its tokens (never a
digest), the matches they sat in and their seats, their own score in each round, their
results, ratings and rating changes, the competitions they registered for or organise, the
guests' seats they claimed, the table scores they entered, the phrases they said in matches'
quick chat and the chats they muted, their notifications and the devices pushed to (never a
device's token or keys), their avatar's URLs and quiet hours, their friends, friend requests
and the blocks they made (``games.social.export``: never who blocked them, nor whether the
other declined a request). Never a hand: not another player's, and not their own (a finished
match's hands are in its public record).
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from games.avatars.selectors import uploaded_avatar
from games.avatars.urls import avatar_urls_of
from games.models import ChatMessage, ChatMute, DeviceToken, Notification, Player, PushDevice, Seat
from games.social.export import social_export
from games.tables.models import GuestClaim, ScoreEntry
from scoring.models import Competition, MatchResult, Rating, RatingChange, Registration, RoundResult


def player_export(*, player: Player) -> dict[str, Any]:
    """The export document of ``player`` (a human with an account)."""
    user = player.user
    uploaded = uploaded_avatar(player)
    return {
        "exported_at": timezone.now(),
        "account": {
            "player_id": player.pk,
            "username": user.get_username() if user else "",
            "display_name": player.display_name,
            "email": player.email,
            "email_verified": player.email_verified_at is not None,
            "email_verified_at": player.email_verified_at,
            "is_organiser": player.is_organiser,
            "language": player.language,
            "profile_visibility": player.profile_visibility,
            "time_zone": player.time_zone,
            "quiet_hours_start": player.quiet_hours_start,
            "quiet_hours_end": player.quiet_hours_end,
            "joined": player.created_at,
            "last_login": user.last_login if user else None,
            **avatar_urls_of(player),
            "avatar_uploaded_at": uploaded.uploaded_at if uploaded is not None else None,
        },
        "tokens": list(
            DeviceToken.objects.filter(user=user)
            .order_by("created", "pk")
            .values("id", "device", "created", "expiry", "last_used")
        ),
        "seats": [
            {
                "match_id": seat.match_id,
                "variant": seat.match.variant,
                "play": seat.match.play,
                "status": seat.match.status,
                "position": seat.position,
                "joined_at": seat.joined_at,
                "left": seat.left or "",
                "created_at": seat.match.created_at,
                "finished_at": seat.match.finished_at,
            }
            for seat in Seat.objects.filter(player=player).select_related("match").order_by("pk")
        ],
        "rounds": list(
            RoundResult.objects.filter(player=player)
            .order_by("match_id", "round_number")
            .values("match_id", "round_number", "seat", "points", "went_out")
        ),
        "results": list(
            MatchResult.objects.filter(player=player)
            .order_by("finished_at", "match_id")
            .values(
                "match_id",
                "variant",
                "seat",
                "seat_count",
                "place",
                "total",
                "zero_rounds",
                "rounds_played",
                "finished_at",
            )
        ),
        "ratings": list(
            Rating.objects.filter(player=player)
            .order_by("variant")
            .values("variant", "mu", "sigma", "ordinal", "matches", "updated_at")
        ),
        "rating_changes": list(
            RatingChange.objects.filter(player=player)
            .order_by("created_at", "pk")
            .values(
                "match_id",
                "variant",
                "mu_before",
                "sigma_before",
                "mu_after",
                "sigma_after",
                "ordinal_before",
                "ordinal_after",
                "created_at",
            )
        ),
        "registrations": [
            {
                "competition_id": r.competition_id,
                "name": r.competition.name,
                "kind": r.competition.kind,
                "status": r.competition.status,
                "registered_at": r.registered_at,
                "withdrawn_at": r.withdrawn_at,
                "dropped_at": r.dropped_at,
            }
            for r in Registration.objects.filter(player=player)
            .select_related("competition")
            .order_by("registered_at", "pk")
        ],
        "organised": list(
            Competition.objects.filter(organiser=player)
            .order_by("created_at", "pk")
            .values("id", "name", "kind", "status", "created_at", "finished_at")
        ),
        "claims": list(
            GuestClaim.objects.filter(redeemed_by=player)
            .order_by("redeemed_at", "pk")
            .values("match_id", "position", "redeemed_at")
        ),
        "score_entries": list(
            ScoreEntry.objects.filter(entered_by=player)
            .order_by("created_at", "pk")
            .values("id", "match_id", "number", "reason", "created_at")
        ),
        "chat": list(
            ChatMessage.objects.filter(player=player)
            .order_by("match_id", "seq")
            .values("match_id", "seq", "seat", "phrase", "created_at")
        ),
        "chat_muted": list(
            ChatMute.objects.filter(player=player)
            .order_by("match_id")
            .values("match_id", "created_at")
        ),
        "notifications": [
            {
                "id": n.pk,
                "kind": n.kind,
                "payload": n.payload,
                "created_at": n.created_at,
                "read": n.read_at is not None,
            }
            for n in Notification.objects.filter(player=player).order_by("pk")
        ],
        "push_devices": list(
            PushDevice.objects.filter(player=player)
            .order_by("pk")
            .values("id", "kind", "created_at")
        ),
        **social_export(player_id=player.pk),
    }
