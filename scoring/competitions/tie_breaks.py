"""The standings' order: the keys an organiser may rank by (a competition's ``tie_breaks``), what
each means and which way it sorts. Pure; no database (docs/scoring.md, "Standings").

A competition's ``tie_breaks`` is its whole order, best first: the first key ranks, each later
one breaks the ties the keys before it leave. Each key is also the name of the standings row's
field that shows its value:

- ``placement_points``: the placement points (byes' included), more first;
- ``buchholz``: opponents' points, more first: for each match the player finished, the mean of
  the placement points the registered players they met there now have (to the thousandth,
  half up), summed over their matches;
- ``median_buchholz``: the same sum without its highest and its lowest term (one of each); a
  player with fewer than three terms has 0;
- ``wins``: first places (a shared first counting for each sharer), more first;
- ``rounds_at_zero``: rounds scored at zero, more first;
- ``best_round``: the lowest round, lower first: the lowest non-zero round score; a player whose
  every round scored zero has none and comes first, one who has played no round comes last;
- ``head_to_head``: among the players still tied on every key before it, the balance of their
  meetings (+1 for each place above a tied rival at a table, -1 for each below), more first;
- ``total_points``: pips over every match, fewer first (no round played: last);
- ``mean_points_per_round``: pips per round, fewer first (no round played: last).

Players equal on every key share the rank.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

PLACEMENT_POINTS = "placement_points"
BUCHHOLZ = "buchholz"
MEDIAN_BUCHHOLZ = "median_buchholz"
WINS = "wins"
ROUNDS_AT_ZERO = "rounds_at_zero"
BEST_ROUND = "best_round"
HEAD_TO_HEAD = "head_to_head"
TOTAL_POINTS = "total_points"
MEAN_POINTS_PER_ROUND = "mean_points_per_round"

#: Every key, in the order docs/scoring.md lists them.
KEYS: tuple[str, ...] = (
    PLACEMENT_POINTS,
    BUCHHOLZ,
    MEDIAN_BUCHHOLZ,
    WINS,
    ROUNDS_AT_ZERO,
    BEST_ROUND,
    HEAD_TO_HEAD,
    TOTAL_POINTS,
    MEAN_POINTS_PER_ROUND,
)
#: The order a competition has unless its organiser chooses another.
DEFAULT_ORDER: tuple[str, ...] = (PLACEMENT_POINTS, WINS, MEAN_POINTS_PER_ROUND, HEAD_TO_HEAD)
#: Keys whose values the running totals do not hold (computed from the result rows when used).
FROM_RESULTS = (BUCHHOLZ, MEDIAN_BUCHHOLZ, HEAD_TO_HEAD)

#: What each key is called on paper and on pages (a column's heading).
LABELS = {
    PLACEMENT_POINTS: gettext_lazy("Placement points"),
    BUCHHOLZ: gettext_lazy("Buchholz"),
    MEDIAN_BUCHHOLZ: gettext_lazy("Median Buchholz"),
    WINS: gettext_lazy("Wins"),
    ROUNDS_AT_ZERO: gettext_lazy("Rounds at zero"),
    BEST_ROUND: gettext_lazy("Lowest round"),
    HEAD_TO_HEAD: gettext_lazy("Head-to-head"),
    TOTAL_POINTS: gettext_lazy("Total pips"),
    MEAN_POINTS_PER_ROUND: gettext_lazy("Pips a round"),
}


def default_order() -> list[str]:
    """The default order, as a new list (a model field's default)."""
    return list(DEFAULT_ORDER)


def order_problems(order: Sequence[str]) -> list[str]:
    """What is wrong with an organiser's order of known keys (empty: nothing): each key once,
    and placement points among them (the order is the whole order, not what follows it)."""
    problems = []
    repeated = sorted({key for key in order if order.count(key) > 1}, key=KEYS.index)
    if repeated:
        problems.append(
            _("tie_breaks names each key once; %(keys)s more than once.")
            % {"keys": ", ".join(repeated)}
        )
    if PLACEMENT_POINTS not in order:
        problems.append(
            _(
                "tie_breaks is the whole order, so it names placement_points too (usually "
                "first), e.g. %(example)s."
            )
            % {"example": '["placement_points", "buchholz", "wins"]'}
        )
    return problems
