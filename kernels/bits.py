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
            tys = [v.type] + [ir.IntType(1) for _ in extra]  # cttz/ctlz take an "undefined on zero" flag
            fn = builder.module.declare_intrinsic(f"llvm.{name}", tys)
            r = builder.call(fn, [v] + [ir.Constant(ir.IntType(1), e) for e in extra])
            return builder.zext(r, ir.IntType(64)) if v.type.width < 64 else r

        return types.int64(x), codegen

    return _f


_ctpop = _bit_intrinsic("ctpop")
_cttz = _bit_intrinsic("cttz", 0)  # defined (= width) on zero
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


def _bmi2_intrinsic(name, doc):
    """An intrinsic ``f(src: uint64, mask: uint64) -> uint64`` calling BMI2's ``name`` (only compiled where
    :data:`FAST_PDEP` holds: the same CPUs run ``pdep`` and ``pext`` fast)."""

    @intrinsic
    def _f(typingctx, src, mask):
        if not (isinstance(src, types.Integer) and isinstance(mask, types.Integer)):
            return None

        def codegen(context, builder, signature, args):
            i64 = ir.IntType(64)
            fn = builder.module.declare_intrinsic(f"llvm.x86.bmi.{name}.64", fnty=ir.FunctionType(i64, [i64, i64]))
            return builder.call(fn, list(args))

        return types.uint64(types.uint64, types.uint64), codegen

    _f.__doc__ = doc
    return _f


_pdep64 = _bmi2_intrinsic("pdep", "``pdep``: deposit the low bits of ``src`` at the set positions of ``mask``.")
_pext64 = _bmi2_intrinsic(
    "pext", "``pext``: gather the bits of ``src`` at the set positions of ``mask`` into the low bits."
)


def _fast_pdep() -> bool:
    """Whether numba compiles for this machine's own CPU and that CPU has a fast ``pdep``: BMI2, and not
    AMD before Zen 3 (Excavator, Zen 1 and 2 run it in microcode, hundreds of cycles). Set
    ``CARDLAB_NO_PDEP=1`` to use the portable loop anyway (results are the same either way)."""
    import os
    import platform

    import numba
    from llvmlite import binding

    if os.environ.get("CARDLAB_NO_PDEP") or numba.config.CPU_NAME or platform.machine() not in ("x86_64", "AMD64"):
        return False
    name = binding.get_host_cpu_name()
    return bool(binding.get_host_cpu_features().get("bmi2")) and name not in ("znver1", "znver2", "bdver4")


#: True where :func:`nth_bit` is one ``pdep`` and :func:`compress` one ``pext`` (decided once, at import; the
#: CPUs that run one in microcode run both so).
FAST_PDEP = _fast_pdep()


@jit_inline
def nth_bit_loop(x, n):
    """The index of the ``n``-th (from 0, lowest first) set bit of ``x`` (which has more than ``n``), by
    clearing the ``n`` lowest bits: portable, but its trip count is data, so the loop exit is mispredicted
    when ``n`` is random.

    >>> import numpy as np; nth_bit_loop(np.uint64(0b101100), 1)
    3
    """
    for _ in range(n):
        x &= x - np.uint64(1)
    return low_index(x)


@jit_inline
def nth_bit_pdep(x, n):
    """:func:`nth_bit_loop` in two instructions and no branch: ``pdep`` puts bit ``n`` at the ``n``-th set
    bit of ``x``; only where :data:`FAST_PDEP`. Random Bismarck hands went 601k -> 774k/s with it (the loop's
    mispredicted exits were ~22% of a hand)."""
    return low_index(_pdep64(np.uint64(1) << np.uint64(n), np.uint64(x)))


#: The index of the ``n``-th (from 0, lowest first) set bit of ``x`` (which has more than ``n``): the
#: ``pdep`` form where the CPU has a fast one, else the loop. Both give the same answer (tests/test_bits.py).
nth_bit = nth_bit_pdep if FAST_PDEP else nth_bit_loop


@jit_inline
def compress_loop(x, mask):
    """The bits of ``x`` at the set positions of ``mask``, packed into the low bits in the same order
    (portable: one step per bit of ``mask``).

    >>> import numpy as np; int(compress_loop(np.uint64(0b1100), np.uint64(0b1110)))
    6
    """
    out = np.uint64(0)
    k = np.uint64(0)
    m = np.uint64(mask)
    while m:
        b = m & (~m + np.uint64(1))
        if x & b:
            out |= np.uint64(1) << k
        k += np.uint64(1)
        m ^= b
    return out


@jit_inline
def compress_pext(x, mask):
    """:func:`compress_loop` in one ``pext``; only where :data:`FAST_PDEP`."""
    return _pext64(np.uint64(x), np.uint64(mask))


#: The bits of ``x`` at the set positions of ``mask``, packed into the low bits: ``pext`` where the CPU has a
#: fast one, else the loop. Both give the same answer (tests/test_bits.py).
compress = compress_pext if FAST_PDEP else compress_loop


@jit_inline
def expand_loop(x, mask):
    """The low bits of ``x`` deposited, in order, at the set positions of ``mask`` (the inverse of
    :func:`compress_loop`; portable: one step per bit of ``mask``).

    >>> import numpy as np; int(expand_loop(np.uint64(0b011), np.uint64(0b1110)))
    6
    """
    out = np.uint64(0)
    k = np.uint64(0)
    m = np.uint64(mask)
    while m:
        b = m & (~m + np.uint64(1))
        if (np.uint64(x) >> k) & np.uint64(1):
            out |= b
        k += np.uint64(1)
        m ^= b
    return out


@jit_inline
def expand_pdep(x, mask):
    """:func:`expand_loop` in one ``pdep``; only where :data:`FAST_PDEP`."""
    return _pdep64(np.uint64(x), np.uint64(mask))


#: The low bits of ``x`` deposited at the set positions of ``mask``: ``pdep`` where the CPU has a fast one, else
#: the loop. Both give the same answer (tests/test_bits.py).
expand = expand_pdep if FAST_PDEP else expand_loop


@jit_inline
def rank_bits(hand, r):
    """The 4 suit bits of rank ``r`` in a hand encoded as ``rank * 4 + suit``."""
    return (hand >> np.uint64(4 * r)) & np.uint64(15)


RANK_LOW_BITS = np.uint64(0x1111111111111)  # bit 4r for the 13 ranks of a ``rank * 4 + suit`` hand


@jit_inline
def rank_counts(hand):
    """Per-rank card counts in parallel: nibble r holds the number of cards of rank r (0..4), 13 ranks."""
    x = hand & np.uint64((1 << 52) - 1)
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555))
    return (x & np.uint64(0x3333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333))


@jit_inline
def ranks_with_count(cnt, k):
    """Bit 4r set for the ranks whose count (a nibble of :func:`rank_counts`) is exactly ``k`` (0..4)."""
    b0 = cnt
    b1 = cnt >> np.uint64(1)
    b2 = cnt >> np.uint64(2)
    if k == 4:
        m = b2
    elif k == 3:
        m = b0 & b1
    elif k == 2:
        m = b1 & ~b0
    elif k == 1:
        m = b0 & ~b1
    else:
        m = ~(b0 | b1 | b2)
    return m & RANK_LOW_BITS


@jit
def split_sets(rest, buf, n, n_cards):
    """Append to ``buf[n:]`` the plain sets of ``rest`` (cards ``rank * 4 + suit``, then extra cards up to
    ``n_cards``): triples (ranks held exactly three times), each joined to the lowest remaining pair (a full
    house), then pairs, then singles (everything left, lowest code first). Returns the new count. Shared by
    the planning players of the climbing games."""
    first = n
    cnt = rank_counts(rest)
    triples = ranks_with_count(cnt, 3)
    pairs = ranks_with_count(cnt, 2)
    while triples:
        r = low_index(triples)  # = 4 * rank
        triples &= triples - np.uint64(1)
        buf[n] = rest & (np.uint64(15) << np.uint64(r))
        rest &= ~buf[n]
        n += 1
    for i in range(first, n):
        if pairs == np.uint64(0):
            break
        q = low_index(pairs)
        pairs &= pairs - np.uint64(1)
        pb = rest & (np.uint64(15) << np.uint64(q))
        buf[i] |= pb
        rest &= ~pb
    while pairs:
        q = low_index(pairs)
        pairs &= pairs - np.uint64(1)
        buf[n] = rest & (np.uint64(15) << np.uint64(q))
        rest &= ~buf[n]
        n += 1
    if n_cards < 64:
        rest &= (np.uint64(1) << np.uint64(n_cards)) - np.uint64(1)
    while rest:
        buf[n] = rest & (~rest + np.uint64(1))
        rest &= rest - np.uint64(1)
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


@jit
def copy_rows(dst, src):
    """``dst[...] = src`` for C-contiguous arrays of one size, by a loop: a slice assignment between arrays
    compiles numba's shape-mismatch error message (string formatting, a few seconds of compile) into every
    kernel that has one (docs/performance.md, "Compile time")."""
    a = dst.reshape(-1)
    b = src.reshape(-1)
    if a.shape[0] != b.shape[0]:
        raise ValueError("copy_rows: the arrays differ in size")
    for i in range(a.shape[0]):
        a[i] = b[i]
