"""A player's quiet hours and time zone as ``PATCH /api/players/me`` takes them and
``GET /api/players/me`` shows them (``games.notifications.quiet`` applies them)."""

from __future__ import annotations

from datetime import time
from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

from games.api.strict import StrictSerializer
from games.models import Player
from games.notifications.quiet import time_zone_known

#: A time of day, ``HH:MM`` on the 24-hour clock.
HOUR_MINUTE = r"^([01][0-9]|2[0-3]):[0-5][0-9]$"
TIME_ZONE_HELP = (
    "The caller's IANA time zone (`Europe/Paris`, `Asia/Vientiane`), in which their quiet hours "
    "are read; an empty string: UTC. A name the server's time zone database does not hold is "
    "refused (400)."
)
QUIET_HOURS_HELP = (
    "While the clock in `time_zone` is from `start` up to `end` (over midnight when `end` comes "
    "first: 22:00 to 07:00), no push is sent: notifications wait in the inbox, and are not "
    "pushed when the quiet hours end. `null`: none. The same `start` and `end`: none."
)


@extend_schema_serializer(component_name="QuietHours")
class QuietHoursSerializer(StrictSerializer):
    start = serializers.RegexField(HOUR_MINUTE, help_text="From, `HH:MM` (24-hour clock).")
    end = serializers.RegexField(HOUR_MINUTE, help_text="Until, `HH:MM` (24-hour clock).")


class TimeZoneField(serializers.CharField):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(allow_blank=True, max_length=64, help_text=TIME_ZONE_HELP, **kwargs)

    def to_internal_value(self, data: Any) -> str:
        name = super().to_internal_value(data)
        if name and not time_zone_known(name):
            raise serializers.ValidationError(
                _("%(name)s is no time zone this server knows: send an IANA name (Europe/Paris).")
                % {"name": name}
            )
        return name


def quiet_hours_fields(validated: dict[str, Any]) -> dict[str, Any]:
    """The player's fields that ``validated`` (a ``PATCH``'s ``time_zone`` and ``quiet_hours``,
    either or both) sets."""
    fields: dict[str, Any] = {}
    if "time_zone" in validated:
        fields["time_zone"] = validated["time_zone"]
    if "quiet_hours" in validated:
        window = validated["quiet_hours"] or {}
        fields["quiet_hours_start"] = _time(window.get("start"))
        fields["quiet_hours_end"] = _time(window.get("end"))
    return fields


def _time(value: str | None) -> time | None:
    return time.fromisoformat(value) if value else None


def quiet_hours_json(player: Player) -> dict[str, Any]:
    """The caller's ``time_zone`` and ``quiet_hours``, as ``GET /api/players/me`` shows them."""
    start, end = player.quiet_hours_start, player.quiet_hours_end
    window = None
    if start is not None and end is not None:
        window = {"start": start.strftime("%H:%M"), "end": end.strftime("%H:%M")}
    return {"time_zone": player.time_zone, "quiet_hours": window}
