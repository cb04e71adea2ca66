"""Double-dummy solver, cards: suit lanes of a hand, the trick's winner and the legal cards (following suit, and
the must-trump rule).
"""

from __future__ import annotations

import numpy as np

from .._jit import jit_inline

LANE = np.uint64(0x1FFF)
MAX_DEPTH = 68  # cards in a position: 4 x 16 at most, plus slack
MAX_TRICKS = 18
ONE = np.uint64(1)
# hash multipliers (odd 64-bit constants)
H0 = np.uint64(0x9E3779B97F4A7C15)
H1 = np.uint64(0xC2B2AE3D27D4EB4F)
H4 = np.uint64(0xFF51AFD7ED558CCD)


@jit_inline
def _seat(a, nh):
    """``a % nh`` for ``0 <= a < 2 * nh`` (a seat a few places after another), without a division (a
    division by the run-time hand count is slow, and this is on every step of the search)."""
    return a - nh if a >= nh else a


@jit_inline
def lane(h, s):
    """The 13-bit rank set of suit ``s`` in hand ``h``."""
    return (h >> np.uint64(16 * s)) & LANE


@jit_inline
def beats(c, best, trump):
    """Whether card ``c`` beats the card ``best`` that is winning the trick so far (BM-4)."""
    cs = c >> 4
    bs = best >> 4
    if cs == bs:
        return c > best
    return cs == trump


@jit_inline
def trick_winner_pos(row, nh, trump, at=0):
    """Position (0 = leader) of the card that wins a complete trick ``row[at:at + nh]`` (or is winning the
    first ``nh`` cards of one)."""
    best = row[at]
    pos = 0
    for i in range(1, nh):
        if beats(row[at + i], best, trump):
            best = row[at + i]
            pos = i
    return pos


@jit_inline
def legal_cards(h, led, trump, must_trump):
    """Legal cards from hand ``h`` when suit ``led`` was led (-1: on lead): follow suit if able (BM-4);
    with ``must_trump`` a void player holding trumps must trump (3(c)6)."""
    if led < 0:
        return h
    f = h & (LANE << np.uint64(16 * led))
    if f:
        return f
    if must_trump and trump >= 0:
        t = h & (LANE << np.uint64(16 * trump))
        if t:
            return t
    return h
