"""Bit-set helpers shared by the climbing games' kernels (hands as uint64 sets of ``rank * 4 + suit``)."""

from __future__ import annotations

import numpy as np

from ._jit import jit_inline


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
