"""Placement points: what a place at a table is worth in a competition. Pure; no Django.

A scheme maps each table size to the points of its places, best first. The default gives the
winner of a table of ``n`` players ``n + 1`` points and the player in place ``p > 1`` ``n + 1 - p``:
4 players 5/3/2/1, 3 players 4/2/1, 2 players 3/1, 5 players 6/4/3/2/1.

Players who share a place (C-WIN: still tied after both tie-breaks) share the points of the
places they occupy between them, equally: two sharing first at a table of four occupy places 1
and 2 and get (5 + 3) / 2 = 4 each; the next player is third and gets 2. Points are kept in
thousandths (a three-way share of 5 + 3 + 2 is 3.333 each), so sums compare exactly.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from itertools import pairwise

from django.utils.translation import gettext as _

#: Points are stored as integers in these units (thousandths of a point).
POINTS_SCALE = 1000
#: The largest table a competition may seat (CF-PLAYERS: the sets deal up to 22).
MAX_TABLE_SIZE = 22
#: The most points one place may be worth.
MAX_PLACE_POINTS = 1000


def default_places(table_size: int) -> list[int]:
    """The default points of a table of ``table_size``: winner n + 1, place p > 1 gets n + 1 - p."""
    return [table_size + 1] + [table_size + 1 - place for place in range(2, table_size + 1)]


def default_scheme(sizes: Sequence[int]) -> dict[str, list[int]]:
    """The default scheme for every table size in ``sizes`` (keys are sizes as strings)."""
    return {str(size): default_places(size) for size in sizes}


def scheme_problems(scheme: object, sizes: Sequence[int]) -> list[str]:
    """What is wrong with an organiser's ``scheme`` for tables of ``sizes`` (empty: nothing).

    A scheme is an object whose keys are table sizes (``"4"``) and whose values list one whole
    number of points per place, best first, never increasing, between 0 and 1000. It must cover
    every table size the competition may seat, and nothing else.
    """
    if not isinstance(scheme, Mapping):
        return [
            _(
                "The points scheme is an object: table size -> points per "
                'place, e.g. {"4": [5, 3, 2, 1]}.'
            )
        ]
    problems = []
    wanted = {str(size) for size in sizes}
    if missing := sorted(wanted - set(scheme), key=int):
        problems.append(
            _("The points scheme needs table sizes %(missing)s too.")
            % {"missing": ", ".join(missing)}
        )
    if unknown := sorted(set(scheme) - wanted, key=lambda k: (len(str(k)), str(k))):
        problems.append(
            _(
                "The points scheme names table sizes this competition never "
                "seats: %(unknown)s (it seats %(wanted)s)."
            )
            % {
                "unknown": ", ".join(map(str, unknown)),
                "wanted": ", ".join(sorted(wanted, key=int)),
            }
        )
    for size in sorted(wanted & set(scheme), key=int):
        places = scheme[size]
        if (
            not isinstance(places, list)
            or len(places) != int(size)
            or not all(isinstance(p, int) and not isinstance(p, bool) for p in places)
        ):
            problems.append(
                _("Table size %(size)s needs %(size)s whole numbers of points, best first.")
                % {"size": size}
            )
        elif any(p < 0 or p > MAX_PLACE_POINTS for p in places):
            problems.append(
                _("Table size %(size)s: points are between 0 and %(max_place_points)s.")
                % {"size": size, "max_place_points": MAX_PLACE_POINTS}
            )
        elif any(a < b for a, b in pairwise(places)):
            problems.append(
                _("Table size %(size)s: a better place never earns fewer points.") % {"size": size}
            )
    return problems


def table_points(*, places: Sequence[int], scheme_places: Sequence[int]) -> list[int]:
    """Each seat's points in thousandths, given every seat's place at one table (C-WIN).

    ``places`` may number shared places either way (1, 1, 3 or 1, 1, 2): seats are ordered by
    place, and a group sharing a place occupies as many consecutive positions as it has
    members, sharing their points equally (rounded half up to a thousandth).
    """
    if len(places) != len(scheme_places):
        raise ValueError(f"{len(places)} places for a scheme of {len(scheme_places)}.")
    order = sorted(range(len(places)), key=lambda seat: places[seat])
    out = [0] * len(places)
    position = 0
    while position < len(order):
        end = position
        while end < len(order) and places[order[end]] == places[order[position]]:
            end += 1
        share = Decimal(sum(scheme_places[position:end]) * POINTS_SCALE) / (end - position)
        for seat in order[position:end]:
            out[seat] = int(share.to_integral_value(rounding="ROUND_HALF_UP"))
        position = end
    return out


def as_points(thousandths: int | None) -> Decimal:
    """Thousandths of a point as points (``Decimal('2.5')``)."""
    return (Decimal(thousandths or 0) / POINTS_SCALE).quantize(Decimal("0.001"))
