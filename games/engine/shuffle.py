"""Fair, replayable shuffles (C-SHUFFLE).

Each round is shuffled from its own seed, derived from the match's secret seed. When a round
starts the server publishes ``commitment(seed)``; when it ends it reveals the seed, and anyone
can recompute the deal with the algorithm below (documented in docs/api.md):

1. ``stream``: SHA-256 of ``f"{seed}:{counter}"`` for counter = 0, 1, 2, ...; each digest gives
   eight big-endian unsigned 32-bit words, used in order.
2. ``below(n)``: take the next word ``x``; if ``x < 2**32 - (2**32 % n)`` answer ``x % n``,
   otherwise take another word (rejection sampling, so there is no bias).
3. Fisher-Yates: start from the set in canonical order (``[a, b]``, ``a <= b``, sorted); for
   ``i`` from ``len - 1`` down to ``1``, swap items ``i`` and ``below(i + 1)``. In Mexican Train
   the round's engine double is in no hand (MT-ENGINE): it is taken out of the canonical list
   before shuffling.
4. Deal: seat 0 takes the first ``hand_size`` tiles, seat 1 the next, and so on; the rest is the
   boneyard, drawn in order.
"""

from __future__ import annotations

import hashlib
import operator
import secrets
import struct
from typing import TypeVar

T = TypeVar("T")


def new_match_seed() -> str:
    """A fresh secret match seed (64 hex digits)."""
    return secrets.token_hex(32)


def round_seed(match_seed: str, round_no: int) -> str:
    """The secret seed of round ``round_no`` (1-based), derived one-way from the match seed."""
    return hashlib.sha256(f"chickenfoot-round:{match_seed}:{round_no}".encode()).hexdigest()


def commitment(seed: str) -> str:
    """The SHA-256 commitment published when a round starts: ``sha256(seed)`` as hex."""
    return hashlib.sha256(seed.encode()).hexdigest()


_EIGHT_WORDS = struct.Struct(">8I")
_SPAN = 2**32


def _block(seed: str, counter: int) -> bytes:
    """Block ``counter`` of the seed's stream (step 1 above): eight 32-bit words."""
    return hashlib.sha256(f"{seed}:{counter}".encode()).digest()


_LIMITS: dict[tuple[int, int], list[int]] = {}


def _limits(size: int) -> list[int]:
    """Step 2's acceptance limit for each ``n = size, size - 1, ..., 2`` (cached per size)."""
    key = (_SPAN, size)
    limits = _LIMITS.get(key)
    if limits is None:
        limits = _LIMITS[key] = [_SPAN - _SPAN % n for n in range(size, 1, -1)]
    return limits


def shuffled(items: list[T], seed: str) -> list[T]:
    """A new list: ``items`` shuffled by the documented Fisher-Yates over the seed's stream.

    It runs once per round dealt, so it is written for speed, with the same result as the
    plain loop: when no word of the first ``len - 1`` is rejected (almost always), the swap
    indexes are ``word % n`` computed in bulk; otherwise the word-by-word loop runs.
    """
    out = list(items)
    size = len(out)
    if size < 2:
        return out
    count = size - 1
    blocks = (count + 7) // 8
    words = struct.unpack(f">{8 * blocks}I", b"".join(_block(seed, c) for c in range(blocks)))
    if any(map(operator.ge, words, _limits(size))):
        return _shuffled_with_rejections(out, seed, list(words), blocks)
    for i, j in zip(range(count, 0, -1), map(operator.mod, words, range(size, 1, -1)), strict=True):
        out[i], out[j] = out[j], out[i]
    return out


def _shuffled_with_rejections(out: list[T], seed: str, words: list[int], blocks: int) -> list[T]:
    pos = 0
    for i in range(len(out) - 1, 0, -1):
        n = i + 1
        x = words[pos]
        pos += 1
        limit = _SPAN - _SPAN % n
        while x >= limit:  # reject the word, take the next (keeping a spare block at hand)
            words.extend(_EIGHT_WORDS.unpack(_block(seed, blocks)))
            blocks += 1
            x = words[pos]
            pos += 1
        j = x % n
        out[i], out[j] = out[j], out[i]
    return out


def deal(tiles: list[T], seats: int, hand_size: int) -> tuple[list[list[T]], list[T]]:
    """Deal shuffled ``tiles``: seat 0 takes the first ``hand_size``, seat 1 the next, and so on.

    Returns ``(hands, boneyard)``. The boneyard is stored *reversed*, so ``boneyard.pop()``
    draws the next tile in shuffled order in O(1).
    """
    hands = [list(tiles[s * hand_size : (s + 1) * hand_size]) for s in range(seats)]
    boneyard = list(reversed(tiles[seats * hand_size :]))
    return hands, boneyard
