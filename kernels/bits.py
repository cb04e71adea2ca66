"""Bit-set helpers shared by the kernels: hardware bit counts, and the climbing games' rank lanes
(hands as uint64 sets of ``rank * 4 + suit``).

:func:`popcount`, :func:`low_index` and :func:`high_index` compile to single instructions (LLVM's
``ctpop``, ``cttz`` and ``ctlz`` intrinsics), which numba does not expose by itself; every kernel that counts
or scans bits uses these.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from ._jit import jit, jit_inline


def _bit_intrinsic(name, *extra):
    """An intrinsic ``f(x) -> int64`` calling ``llvm.<name>`` on an integer of any width."""

    @intrinsic
    def _f(typingctx, x):
        if not isinstance(x, types.Integer):
            return None

        def codegen(context, builder, signature, args):
            (v,) = args
            tys = [v.type] + [ir.IntType(1) for _ in extra]      # cttz/ctlz take an "undefined on zero" flag
            fn = builder.module.declare_intrinsic(f"llvm.{name}", tys)
            r = builder.call(fn, [v] + [ir.Constant(ir.IntType(1), e) for e in extra])
            return builder.zext(r, ir.IntType(64)) if v.type.width < 64 else r
        return types.int64(x), codegen
    return _f


_ctpop = _bit_intrinsic("ctpop")
_cttz = _bit_intrinsic("cttz", 0)       # defined (= width) on zero
_ctlz = _bit_intrinsic("ctlz", 0)


@jit_inline
def popcount(x):
    """Number of set bits of an integer (one instruction).

    >>> import numpy as np; popcount(np.uint64(0b1011))
    3
    """
    return _ctpop(x)


@jit_inline
def low_index(x):
    """Index of the lowest set bit of a non-zero uint64.

    >>> import numpy as np; low_index(np.uint64(0b1000))
    3
    """
    return _cttz(np.uint64(x))


@jit_inline
def high_index(x):
    """Index of the highest set bit of a non-zero uint64.

    >>> import numpy as np; high_index(np.uint64(0b1001))
    3
    """
    return 63 - _ctlz(np.uint64(x))


@jit_inline
def rank_bits(hand, r):
    """The 4 suit bits of rank ``r`` in a hand encoded as ``rank * 4 + suit``."""
    return (hand >> np.uint64(4 * r)) & np.uint64(15)


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


@jit_inline
def sort_prefix(a, n):
    """Sort ``a[:n]`` in place without allocating: insertion sort, as a Shell sort (Ciura's gaps) past 16.

    numba's ``ndarray.sort`` builds its partition stack on every call (about 200 ns), which would dominate
    the handful of legal plays a player usually has.
    """
    for gap in (701, 301, 132, 57, 23, 10, 4, 1):
        if gap > 1 and gap * 2 > n:
            continue
        for i in range(gap, n):
            x = a[i]
            j = i - gap
            while j >= 0 and a[j] > x:
                a[j + gap] = a[j]
                j -= gap
            a[j + gap] = x
