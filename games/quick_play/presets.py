"""What a quick play queue is: a variant, a seat count and an options preset; and the rating
band pairing allows, which widens the longer the table's longest-waiting player has waited.

docs/api.md ("Quick play") lists the presets and the formula.
"""

from __future__ import annotations

from typing import Any

from games.engine import CHICKENFOOT, MEXICAN_TRAIN
from scoring import ratings

#: The house options of each preset (docs/rules.md §4): ``standard`` is the defaults, ``quick``
#: plays three rounds.
PRESETS: dict[str, dict[str, Any]] = {
    "standard": {},
    "quick": {"rounds": 3},
}
PRESET_NAMES = list(PRESETS)
VARIANTS = (CHICKENFOOT, MEXICAN_TRAIN)
SEATS_MIN = 2
SEATS_MAX = 6
#: The bounds of a player's consent to bots filling the table (seconds).
BOTS_AFTER_MIN = 10
BOTS_AFTER_MAX = 600
#: The level of the bots that fill a table.
BOT_LEVEL = 2

#: The band, in display rating points (1000 + 40 x ordinal): +-(BAND_BASE + BAND_PER_SECOND x
#: seconds waited), at most BAND_MAX.
BAND_BASE = 100.0
BAND_PER_SECOND = 5.0
BAND_MAX = 600.0
#: An unrated player's display rating (ordinal 0).
UNRATED = float(ratings.DISPLAY_BASE)


def band(*, waited_seconds: float) -> float:
    """How far (display points) from the longest-waiting player's rating a table may reach."""
    return min(BAND_BASE + BAND_PER_SECOND * max(waited_seconds, 0.0), BAND_MAX)


def display(ordinal: float | None) -> float:
    """The display rating of an ordinal (``None``: unrated), unrounded."""
    if ordinal is None:
        return UNRATED
    return ratings.DISPLAY_BASE + ratings.DISPLAY_SCALE * ordinal
