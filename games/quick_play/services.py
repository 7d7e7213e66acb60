"""Joining and leaving the quick play queue. Each runs in one transaction; a join queues the
pairing of its queue once it commits (``games.quick_play.tasks``)."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from chickenfoot.problems import InvalidInput
from games import engine
from games.models import Player
from games.quick_play.models import QueueEntry
from games.quick_play.presets import PRESETS
from games.quick_play.problems import AlreadyQueued, NotInQueue, QueueMatched
from games.quick_play.selectors import entry_current, rating_of
from games.quick_play.tasks import queue_pair_on_commit


def queue_join(
    *,
    player: Player,
    variant: str,
    seat_count: int,
    preset: str,
    bots_after_seconds: int | None = None,
) -> tuple[QueueEntry, bool]:
    """Put ``player`` in the queue (``variant``, ``seat_count``, ``preset``); the entry, and
    whether this call made it.

    Idempotent: a current entry in the same queue is answered as it is (its consent to bots
    unchanged). A current entry in another queue is refused (409 ``already_queued``). The
    player's row is locked (no key update: pairing's seat writes still read it), so two joins
    of one player at once come one after the other.
    """
    _options_check(variant=variant, seat_count=seat_count, preset=preset)
    with transaction.atomic():
        Player.objects.select_for_update(no_key=True).filter(pk=player.pk).values("pk").first()
        entry = QueueEntry.objects.select_related("match").filter(player=player).first()
        if entry is not None and entry_current(entry):
            if (entry.variant, entry.seat_count, entry.preset) == (variant, seat_count, preset):
                return entry, False
            raise AlreadyQueued(
                _(
                    "You are in the %(preset)s queue of %(variant)s for "
                    "%(seat_count)s already: leave it before you join another."
                )
                % {"preset": entry.preset, "variant": entry.variant, "seat_count": entry.seat_count}
            )
        fields: dict[str, Any] = {
            "variant": variant,
            "seat_count": seat_count,
            "preset": preset,
            "bots_after_seconds": bots_after_seconds,
            "rating": rating_of(player_id=player.pk, variant=variant),
            "status": QueueEntry.Status.WAITING,
            "joined_at": timezone.now(),
            "match": None,
            "matched_at": None,
        }
        if entry is None:
            entry = QueueEntry.objects.create(player=player, **fields)
        else:  # the match it was matched into is over: the row is the player's again
            for name, value in fields.items():
                setattr(entry, name, value)
            entry.save()
        queue_pair_on_commit(variant=variant, seat_count=seat_count, preset=preset)
    return entry, True


def queue_leave(*, player: Player) -> None:
    """Take ``player``'s waiting entry out of the queue. Refuses an entry matched already (409
    ``queue_matched``: the match is theirs; resign there) and no entry (404 ``not_in_queue``)."""
    with transaction.atomic():
        entry = (
            QueueEntry.objects.select_for_update(of=("self",))
            .select_related("match")
            .filter(player=player)
            .first()
        )
        if not entry_current(entry):
            raise NotInQueue(_("You are in no queue."))
        assert entry is not None  # noqa: S101 - entry_current says so
        if entry.status == QueueEntry.Status.MATCHED:
            raise QueueMatched(
                _("You were matched already: match %(match_id)s is yours.")
                % {"match_id": entry.match_id},
                extra={"match_id": entry.match_id},
            )
        entry.delete()


def _options_check(*, variant: str, seat_count: int, preset: str) -> None:
    """400 ``invalid`` when the preset's options cannot be played at ``seat_count`` seats."""
    try:
        engine.resolve_options(variant, seat_count, PRESETS[preset])
    except engine.OptionError as error:
        # the preset's options are the house's own: what the set cannot seat is the seat count
        def field(name: str) -> str:
            return "variant" if name == "variant" else "seats"

        errors: dict[str, list[str]] = {}
        for name, messages in (error.errors or {"seats": [error.detail]}).items():
            errors.setdefault(field(name), []).extend(messages)
        rules = {field(name): rule for name, rule in error.rules.items()}
        raise InvalidInput(errors, rules=rules) from error


def entry_json(entry: QueueEntry) -> dict[str, Any]:
    """The entry as the API shows it."""
    return {
        "variant": entry.variant,
        "seats": entry.seat_count,
        "preset": entry.preset,
        "bots_after_seconds": entry.bots_after_seconds,
        "rating": round(entry.rating),
        "status": entry.status,
        "joined_at": entry.joined_at.isoformat().replace("+00:00", "Z"),
        "match_id": entry.match_id,
        "matched_at": (
            entry.matched_at.isoformat().replace("+00:00", "Z") if entry.matched_at else None
        ),
    }
