"""Counter-based random numbers: Philox4x64-10 in numba.

A random word is a pure function of (key, counter). cardlab lays them out as

* key     = (seed mod 2**64, seed >> 64)                         -- from the user's seed
* counter = (block, trial, stream, 0)
    - ``block``  : the draw counter inside one trial's stream (each block gives 4 x 64 = 256 bits,
                   consumed as eight 32-bit words, low half first)
    - ``trial``  : the global trial index, ``chunk_id * chunk_size + i``; so the chunk id and the
                   position inside the chunk are both in the key, and a trial's random numbers do not
                   depend on which thread, process or machine runs its chunk
    - ``stream`` : the purpose of the draws (0 = the deal's cards, 1 = strategy coin flips, ...),
                   so that two strategies facing the same deal see the same cards (common random numbers)

The block function is bit-for-bit numpy's ``np.random.Philox`` (also Philox4x64-10, Salmon et al. 2011);
``tests/test_rng.py`` checks it. numba's own ``np.random`` is never used in a kernel: it is not
reproducible across threads.

State layout (``uint64[26]``, made by :func:`new_state`):
``[0:4]`` counter, ``[4:6]`` key, ``[6:10]`` output buffer (the block before ``counter``), ``[10]`` index of the
next unused 32-bit half (0..8; 8 = buffer empty); ``[11:26]`` the word pool (see :func:`pool_fill`), idle
unless filled.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from ._jit import jit, jit_inline

M0 = np.uint64(0xD2E7470EE14C6C93)
M1 = np.uint64(0xCA5A826395121157)
W0 = np.uint64(0x9E3779B97F4A7C15)
W1 = np.uint64(0xBB67AE8584CAA73B)
MASK32 = np.uint64(0xFFFFFFFF)
STATE_SIZE = 26
POOL = 11  # where the pool starts in a state

# Batches of swap ranges stay below 2**28, so a word is rejected or needs a modulo with probability < 1/16.
BATCH_LIMIT = np.uint64(1 << 28)

STREAM_DEAL = 0
STREAM_STRATEGY = 1


@intrinsic
def _mulhilo64(typingctx, a, b):
    """The high and low 64-bit halves of the 128-bit product ``a * b`` of two uint64: one widening multiply
    (LLVM i128), which numba does not expose by itself."""
    if not (isinstance(a, types.Integer) and isinstance(b, types.Integer)):
        return None

    def codegen(context, builder, signature, args):
        i64, i128 = ir.IntType(64), ir.IntType(128)
        x, y = args
        prod = builder.mul(builder.zext(x, i128), builder.zext(y, i128))
        hi = builder.trunc(builder.lshr(prod, ir.Constant(i128, 64)), i64)
        lo = builder.trunc(prod, i64)
        return context.make_tuple(builder, signature.return_type, (hi, lo))

    return types.UniTuple(types.uint64, 2)(types.uint64, types.uint64), codegen


@jit
def philox4x64_10(c0, c1, c2, c3, k0, k1):
    """One Philox4x64-10 block: four 64-bit words from a 256-bit counter and a 128-bit key."""
    for r in range(10):
        if r > 0:
            k0 = k0 + W0
            k1 = k1 + W1
        hi0, lo0 = _mulhilo64(M0, c0)
        hi1, lo1 = _mulhilo64(M1, c2)
        c0, c1, c2, c3 = hi1 ^ c1 ^ k0, lo1, hi0 ^ c3 ^ k1, lo0
    return c0, c1, c2, c3


@jit
def philox_blocks(counters, keys, out):
    """Vectorised block function: ``counters[n, 4]``, ``keys[n, 2]`` -> ``out[n, 4]`` (tests, benchmarks)."""
    for i in range(counters.shape[0]):
        a, b, c, d = philox4x64_10(
            counters[i, 0], counters[i, 1], counters[i, 2], counters[i, 3], keys[i, 0], keys[i, 1]
        )
        out[i, 0] = a
        out[i, 1] = b
        out[i, 2] = c
        out[i, 3] = d


@jit
def new_state():
    """An empty generator state (see the module docstring for its layout)."""
    st = np.zeros(STATE_SIZE, dtype=np.uint64)
    st[10] = 8
    return st


@jit_inline
def seed_state(st, key0, key1, trial, stream):
    """Point ``st`` at the start of the stream (key, trial, stream)."""
    st[0] = 0
    st[1] = trial
    st[2] = stream
    st[3] = 0
    st[4] = key0
    st[5] = key1
    st[10] = 8


@jit_inline
def next32(st):
    """The next uniformly distributed 32-bit word of the stream, as a uint64."""
    pos = st[10]
    if pos >= 8:
        a, b, c, d = philox4x64_10(st[0], st[1], st[2], st[3], st[4], st[5])
        st[6] = a
        st[7] = b
        st[8] = c
        st[9] = d
        st[0] += np.uint64(1)
        pos = np.uint64(0)
    word = st[6 + (pos >> np.uint64(1))]
    if pos & np.uint64(1):
        word = word >> np.uint64(32)
    else:
        word = word & MASK32
    st[10] = pos + np.uint64(1)
    return word


@jit_inline
def below(st, n):
    """A uniform integer in ``[0, n)`` without bias, ``1 <= n <= 2**32`` (Lemire's method)."""
    nn = np.uint64(n)
    m = next32(st) * nn
    low = m & MASK32
    if low < nn:
        threshold = (np.uint64(0x100000000) - nn) % nn
        while low < threshold:
            m = next32(st) * nn
            low = m & MASK32
    return np.int64(m >> np.uint64(32))


@jit_inline
def _half(st, base, i):
    """32-bit word ``i`` of the 64-bit words from ``st[base]`` on, the low half of each first, by a shift (a
    branch on ``i & 1`` as in :func:`next32` is slower here, and the shift slower there: docs/performance.md)."""
    return (st[base + (i >> np.uint64(1))] >> ((i & np.uint64(1)) << np.uint64(5))) & MASK32


@jit
def pool_fill(st):
    """Compute the stream's next 16 or more words at once, ahead of a stretch of play that draws them one by
    one with :func:`pool_choice` and ends with :func:`pool_commit`.

    The draws and the stream are exactly those of :func:`below` on ``st``; only the timing of the block
    function changes. Drawn lazily, a block lands in the middle of the play (a refill branch mispredicted
    once in eight words, the block's latency on the critical path); computed here, the blocks of several
    streams overlap and the draws are loads. Between fill and commit, draw from ``st`` only through the pool.

    Pool layout (``st[POOL:POOL + 15]``): ``[0:12]`` the outputs of blocks ``b0 .. b0 + 2`` (the first copied
    from the buffer when it is partly used), ``[12]`` ``b0``, ``[13]`` the next word as an index from word
    ``8 * b0``, ``[14]`` the end of the pool's words (16 or 24).
    """
    pos = st[10]
    first = 0
    b0 = st[0]
    j = np.uint64(0)
    if pos < 8:  # the buffer holds block counter - 1, words pos..7 unused
        b0 = st[0] - np.uint64(1)
        for i in range(4):
            st[POOL + i] = st[6 + i]
        first = 1
        j = pos
    for q in range(first, first + 2):
        a, b, c, d = philox4x64_10(b0 + np.uint64(q), st[1], st[2], st[3], st[4], st[5])
        st[POOL + 4 * q] = a
        st[POOL + 4 * q + 1] = b
        st[POOL + 4 * q + 2] = c
        st[POOL + 4 * q + 3] = d
    st[POOL + 12] = b0
    st[POOL + 13] = j
    st[POOL + 14] = np.uint64(8 * (first + 2))


@jit
def pool_commit(st):
    """Leave ``st`` where plain draws would have left it: after the pool's used words (buffer included)."""
    b0 = st[POOL + 12]
    j = st[POOL + 13]
    q = j >> np.uint64(3)
    pos = j & np.uint64(7)
    if pos == 0:  # whole blocks used: the next word starts block b0 + q
        st[0] = b0 + q
        st[10] = 8
    else:
        for i in range(4):
            st[6 + i] = st[POOL + 4 * q + np.uint64(i)]
        st[0] = b0 + q + np.uint64(1)
        st[10] = pos


@jit_inline
def _pool_next32(st):
    j = st[POOL + 13]
    if j >= st[POOL + 14]:  # used up (only after rejections): move the pool on
        pool_commit(st)
        pool_fill(st)
        j = st[POOL + 13]
    st[POOL + 13] = j + np.uint64(1)
    return _half(st, POOL, j)


@jit_inline
def pool_choice(st, n):
    """A choice among ``n >= 1`` options from the pool: for ``n > 1`` the same number as ``below(st, n)``
    (same words, same result); ``0`` with no word drawn for ``n == 1`` (a forced choice), without a branch on
    ``n``, so a caller need not test for it."""
    nn = np.uint64(n)
    j = st[POOL + 13]
    if j >= st[POOL + 14]:  # (as in _pool_next32: a shared helper is slower, docs/performance.md)
        pool_commit(st)
        pool_fill(st)
        j = st[POOL + 13]
    m = _half(st, POOL, j) * nn
    st[POOL + 13] = j + np.uint64(nn > 1)
    low = m & MASK32
    if low < nn and nn > 1:
        threshold = (np.uint64(0x100000000) - nn) % nn
        while low < threshold:
            m = _pool_next32(st) * nn
            low = m & MASK32
    return np.int64(m >> np.uint64(32))


@jit_inline
def uniform(st):
    """A float in [0, 1) with 53 random bits."""
    hi = next32(st) >> np.uint64(5)  # 27 bits
    lo = next32(st) >> np.uint64(6)  # 26 bits
    return (float(hi) * 67108864.0 + float(lo)) / 9007199254740992.0


@jit
def _batch_swap_index(x0, n, i, t):
    """The swap index for position ``t`` of the batch starting at ``i`` drawn from word ``x0``."""
    x = x0
    s = 0
    for q in range(i, t + 1):
        m = x * np.uint64(n - q)
        s = q + np.int64(m >> np.uint64(32))
        x = m & MASK32
    return s


@jit_inline
def partial_shuffle(st, deck, k):
    """Fisher-Yates on the first ``k`` positions of ``deck`` (in place), without bias.

    After the call ``deck[:k]`` is a uniformly random ordered draw without replacement from ``deck``.
    The swap indices come in batches from single 32-bit words by multiplication only (the batched
    Lemire method of Brackett-Rozinsky and Lemire, 2024): while the product of the ranges ``prod``
    stays below ``BATCH_LIMIT``, each range ``n`` takes the high half of ``x * n`` and passes the low half
    on; the word is rejected iff the final low half is below ``2**32 mod prod``, which makes the batch
    exactly uniform (``tests/test_rng.py`` checks the method exhaustively on small words). The swaps are
    made as the digits come out and undone in the rare case of a rejection.
    """
    n = deck.shape[0]
    if k > n - 1:
        k = n - 1  # the last position has nothing to choose
    i = 0
    while i < k:
        prod = np.uint64(1)
        j = i
        while j < k and prod * np.uint64(n - j) <= BATCH_LIMIT:
            prod *= np.uint64(n - j)
            j += 1
        while True:
            x0 = next32(st)
            x = x0
            for t in range(i, j):
                m = x * np.uint64(n - t)
                s = t + np.int64(m >> np.uint64(32))
                x = m & MASK32
                tmp = deck[t]
                deck[t] = deck[s]
                deck[s] = tmp
            if x >= prod or x >= (np.uint64(0x100000000) - prod) % prod:
                break
            for t in range(j - 1, i - 1, -1):  # rejected: undo this batch's swaps, newest first
                s = _batch_swap_index(x0, n, i, t)
                tmp = deck[t]
                deck[t] = deck[s]
                deck[s] = tmp
        i = j


def shuffle_batches(n: int, k: int) -> list[tuple[int, int, int]]:
    """The batches :func:`partial_shuffle` draws for ``k`` positions of ``n`` cards: ``(first, end, product
    of the ranges)`` per 32-bit word. They depend on ``n`` and ``k`` only."""
    k = min(k, n - 1)
    out = []
    i = 0
    while i < k:
        prod, j = 1, i
        while j < k and prod * (n - j) <= int(BATCH_LIMIT):
            prod *= n - j
            j += 1
        out.append((i, j, prod))
        i = j
    return out


@jit
def batch_digits(st, spans, out):
    """Uniform integers ``out[i]`` in ``[0, spans[i])`` from one 32-bit word (``prod(spans) <= 2**32``)."""
    prod = np.uint64(1)
    for i in range(spans.shape[0]):
        prod *= np.uint64(spans[i])
    while True:
        x0 = next32(st)
        x = x0
        for i in range(spans.shape[0]):
            m = x * np.uint64(spans[i])
            out[i] = np.int64(m >> np.uint64(32))
            x = m & MASK32
        if x >= prod or x >= (np.uint64(0x100000000) - prod) % prod:
            return


@jit
def batch_table(n, k):
    """:func:`shuffle_batches` as rows (first, end, 2**32 mod the product of the ranges) in a compiled function: a
    batch's word is rejected iff its last low half is below the third column."""
    k = min(k, n - 1)
    out = np.zeros((max(k, 0), 3), dtype=np.int64)
    nb = 0
    i = 0
    while i < k:
        prod = np.uint64(1)
        j = i
        while j < k and prod * np.uint64(n - j) <= BATCH_LIMIT:
            prod *= np.uint64(n - j)
            j += 1
        out[nb, 0] = i
        out[nb, 1] = j
        out[nb, 2] = np.int64((np.uint64(0x100000000) - prod) % prod)
        nb += 1
        i = j
    return out[:nb]
