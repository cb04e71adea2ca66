"""Bit-set helpers shared by the climbing games' kernels (hands as uint64 sets of ``rank * 4 + suit``)."""

from __future__ import annotations

import numpy as np

from ._jit import jit, jit_inline


@jit_inline
def rank_bits(hand, r):
    """The 4 suit bits of rank ``r`` in a hand encoded as ``rank * 4 + suit``."""
    return (hand >> np.uint64(4 * r)) & np.uint64(15)


@jit_inline
def popcount(x):
    """Number of set bits of a uint64."""
    c = 0
    while x:
        x &= x - np.uint64(1)
        c += 1
    return c


@jit
def split_sets(rest, buf, n, n_cards):
    """Append to ``buf[n:]`` the plain sets of ``rest`` (cards ``rank * 4 + suit``, then extra cards up to
    ``n_cards``): triples, each joined to the lowest remaining pair (a full house), then pairs, then singles.
    Returns the new count. Shared by the planning players of the climbing games."""
    first = n
    for r in range(13):
        bits = rank_bits(rest, r)
        if popcount(bits) == 3:
            buf[n] = bits << np.uint64(4 * r)
            n += 1
            rest &= ~(bits << np.uint64(4 * r))
    for i in range(first, n):
        for r in range(13):
            bits = rank_bits(rest, r)
            if popcount(bits) == 2:
                buf[i] |= bits << np.uint64(4 * r)
                rest &= ~(bits << np.uint64(4 * r))
                break
    for r in range(13):
        bits = rank_bits(rest, r)
        if popcount(bits) == 2:
            buf[n] = bits << np.uint64(4 * r)
            n += 1
            rest &= ~(bits << np.uint64(4 * r))
    for c in range(n_cards):
        if (rest >> np.uint64(c)) & np.uint64(1):
            buf[n] = np.uint64(1) << np.uint64(c)
            n += 1
    return n
