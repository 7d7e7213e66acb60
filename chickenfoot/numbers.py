"""Whole numbers read from what a client sent: a query parameter, a socket's ``?after=``.

``str.isdigit()`` and ``int()`` take more than ASCII digits: ``"²".isdigit()`` is true and
``int("²")`` fails, ``int("٣")`` is 3, and ``int()`` of more than 4,300 digits raises. A client's
number is ASCII digits only, and no longer than a 64-bit counter needs.
"""

from __future__ import annotations

import re

#: Digits in the largest number a client may send (a seq, a page size, a version): 10**18 - 1.
MAX_DIGITS = 18

_WHOLE = re.compile(rf"[0-9]{{1,{MAX_DIGITS}}}", re.ASCII)


def whole_number(raw: str | None) -> int | None:
    """``raw`` as a whole number from 0 up, or ``None`` when it is anything else: empty, signed,
    not ASCII digits, or more than ``MAX_DIGITS`` of them."""
    if raw is None or not _WHOLE.fullmatch(raw):
        return None
    return int(raw)
