"""A move's mark from its loss against the best move, and a player's accuracy (docs/engine.md,
"Analysis").

Values are the evaluation's (``games.bots.evaluate``): about the chance of winning the round,
less a little per point left in hand. The loss of a move is the best move's value less its own;
its class is the first of ``CLASSES`` whose bound the loss is below. A move with one legal
choice is ``forced``: it is marked ``best`` and counts in no accuracy.
"""

from __future__ import annotations

from collections.abc import Iterable

BEST, GOOD, INACCURACY, MISTAKE, BLUNDER = "best", "good", "inaccuracy", "mistake", "blunder"
#: Each class with the loss it stays below; a loss of at least the last bound is a blunder.
CLASSES: tuple[tuple[str, float], ...] = (
    (BEST, 0.005),
    (GOOD, 0.03),
    (INACCURACY, 0.08),
    (MISTAKE, 0.18),
)
MARKS = (BEST, GOOD, INACCURACY, MISTAKE, BLUNDER)
#: A move's accuracy falls from 100 at no loss to 0 at this loss, in a straight line.
ACCURACY_ZERO_LOSS = 0.25


def mark(loss: float) -> str:
    """The class of a move that lost ``loss`` against the best."""
    for name, bound in CLASSES:
        if loss < bound:
            return name
    return BLUNDER


def move_accuracy(loss: float) -> float:
    """A move's accuracy, 0 to 100."""
    return 100.0 * (1.0 - min(max(loss, 0.0), ACCURACY_ZERO_LOSS) / ACCURACY_ZERO_LOSS)


def accuracy(losses: Iterable[float]) -> float | None:
    """The mean accuracy of moves that lost ``losses`` (one decimal); ``None`` for none."""
    values = [move_accuracy(loss) for loss in losses]
    return round(sum(values) / len(values), 1) if values else None
