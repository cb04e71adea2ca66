"""Double-dummy solver, the transposition table: relative-rank keys, buckets, probe and store, and the free clear
(a new generation).
"""

from __future__ import annotations

import numpy as np

from .._jit import HUGE_PAGE, advise_huge, jit, jit_inline
from ..bits import FAST_PDEP, compress, expand, popcount
from .cards import H0, H1, H4, ONE, lane

# a probe reads one bucket of BUCKET entries (an entry is one cache line)
BUCKET_BITS = 6
BUCKET = 1 << BUCKET_BITS
# from this many tricks left, the bucket key holds each suit's three top owners, not two: deep positions are
# many and alike, and a finer key spreads them over more buckets
DEEP_KEY = 11


GEN_SHIFT = np.uint64(32)  # an entry's generation sits above its meta (which takes 24 bits)
META_BITS = np.uint64(0xFFFFFFFF)


@jit
def new_tt(log2size):
    """A transposition table of ``2**log2size`` entries in buckets of ``BUCKET``, and its state (the current
    generation). An entry is one 64-byte row, aligned to a cache line: the suit lengths of every hand; meta
    (sides, trump, rules, leader) with the generation it was stored in; a mask of relative ranks (per suit the
    top k); the owners of those top cards (one relative-rank mask per hand); and the bound (type << 8 | value;
    type 0: value >= b, 1: value <= b). Entries of another generation count as empty (:func:`clear_tt`).

    A table of 4 MiB or more is aligned to a huge page and asks for huge pages before its memory is first
    touched (:func:`kernels._jit.advise_huge`): a probe lands on a random page, and with 4 KiB pages nearly
    every probe missed the TLB (docs/performance.md)."""
    n = max(1 << log2size, BUCKET)
    big = n * 64 >= 2 * HUGE_PAGE
    align = HUGE_PAGE if big else 64
    raw = np.empty(n * 8 + align // 8, dtype=np.uint64)
    off = ((align - (raw.ctypes.data & (align - 1))) & (align - 1)) >> 3
    if big:
        advise_huge(raw.ctypes.data + off * 8, n * 64)
    keys = raw[off : off + n * 8].reshape((n, 8))
    keys[:] = 0
    state = np.ones(1, dtype=np.uint64)
    return keys, state


@jit
def clear_tt(ttk, ttg):
    """Empty the table at no cost: a new generation, so every stored entry counts as empty (zeroing the table,
    ``ttk[:] = 0``, also empties it)."""
    ttg[0] += ONE
    if ttg[0] >= np.uint64(1 << 31):
        ttk[:] = 0
        ttg[0] = ONE


@jit_inline
def _tops(allh):
    """Per suit with ``n`` cards left, the top ``n`` of its 13 ranks: where the relative ranks of those cards lie."""
    tops = np.uint64(0)
    for s in range(4):
        n = np.uint64(popcount(lane(allh, s)))
        tops |= ((ONE << n) - ONE) << np.uint64(16 * s + 13 - n)
    return tops


@jit_inline
def _rel_key(hands, nh, out, d):
    """Relative-rank form of the hands: in each suit the remaining cards renumbered from the top (A = 12): a
    hand's cards gathered at the positions of every remaining card (``compress``), then laid down at the top
    ``n`` ranks of each suit that has ``n`` cards left (``expand``). Where ``pdep``/``pext`` are fast that is two
    instructions a hand; elsewhere a loop a suit."""
    allh = np.uint64(0)
    for p in range(nh):
        allh |= hands[p]
    if FAST_PDEP:
        tops = _tops(allh)
        for p in range(4):
            out[d, p] = expand(compress(hands[p], allh), tops) if p < nh else np.uint64(0)
        return
    for i in range(4):
        out[d, i] = np.uint64(0)
    for s in range(4):
        x = lane(allh, s)
        shift = np.uint64(16 * s + 13 - popcount(x))
        for p in range(nh):
            out[d, p] |= compress(lane(hands[p], s), x) << shift


@jit_inline
def _lengths_key(hands, nh):
    bits = 5 if nh == 3 else 4
    key = np.uint64(0)
    for p in range(nh):
        for s in range(4):
            key |= np.uint64(popcount(lane(hands[p], s))) << np.uint64((p * 4 + s) * bits)
    return key


TOP1 = np.uint64(0x1000100010001000)  # the top relative rank of every suit
TOP2 = np.uint64(0x1800180018001800)  # the top two
TOP3 = np.uint64(0x1C001C001C001C00)  # the top three


@jit_inline
def _top_owners(rel, d, nh):
    """With 3 hands, who holds the highest and the second-highest remaining card of each suit, and with
    ``DEEP_KEY`` tricks or more left the third-highest too; with 4 hands (bridge), who holds the highest: each
    hand's top relative ranks, shifted apart (a card has one owner, so the value names them all; no bit test per
    hand and suit).

    With 4 hands the top owner alone: a stored bound is found by more positions (entries whose cards leave a
    suit's second card free), and the buckets of 64 do not thrash as they do with 3 hands."""
    if nh == 4:
        top = TOP1
    else:
        top = TOP3 if popcount(rel[d, 0]) >= DEEP_KEY else TOP2
    sig = np.uint64(0)
    for p in range(nh):
        sig |= (rel[d, p] & top) >> np.uint64(3 * p)
    return sig


@jit_inline
def _bucket(lenkey, meta, rel, d, nh, mask):
    """The bucket of a position: its suit lengths, meta and the owners of each suit's top cards. A stored
    bound whose cards leave one of those free is found only under the owners it was stored with (fewer hits,
    never a wrong one). The lengths alone would put every position of a length pattern into one bucket, which
    thrashes; how many top owners pay depends on the depth and the hand count: two with 3 hands, three from
    ``DEEP_KEY`` tricks left, the top owner alone with 4 hands (:func:`_top_owners`)."""
    h = lenkey * H0 + meta * H4 + _top_owners(rel, d, nh) * H1
    h ^= h >> np.uint64(29)
    h *= H1
    return np.int64((h >> np.uint64(32)) & mask) & ~np.int64(BUCKET - 1)


@jit_inline
def _top_cards(allh, topmask):
    """The absolute cards that the relative-rank mask ``topmask`` (per suit the top k) stands for."""
    if FAST_PDEP:
        # relative ranks are the remaining cards in order, suit by suit, laid at the top of each suit
        return expand(compress(topmask, _tops(allh)), allh)
    out = np.uint64(0)
    for s in range(4):
        k = popcount(lane(topmask, s))
        if k == 0:
            continue
        x = lane(allh, s)
        n = popcount(x)
        while n > k:
            x &= x - ONE
            n -= 1
        out |= x << np.uint64(16 * s)
    return out


@jit_inline
def _probe(ttk, i, lenkey, meta, rel, d, nh, need):
    """A stored bound in bucket ``i`` that decides "value >= need" for this position (``meta`` with the
    generation): (1, its topmask) or (0, topmask); (-1, 0) if none."""
    gen = meta >> GEN_SHIFT
    for j in range(i, i + BUCKET):
        m = ttk[j, 1]
        if (m >> GEN_SHIFT) != gen:
            break  # a bucket fills from its first slot and never empties: none further
        if m != meta or ttk[j, 0] != lenkey:
            continue
        tm = ttk[j, 2]
        ok = True
        for p in range(nh - 1):  # the last hand's are the rest: tm's cards are present and have one owner
            if (rel[d, p] & tm) != ttk[j, 3 + p]:
                ok = False
                break
        if not ok:
            continue
        b = np.int64(ttk[j, 7])
        if b < 256:
            if b >= need:
                return 1, tm
        elif (b & 255) < need:
            return 0, tm
    return -1, np.uint64(0)


@jit_inline
def _store(ttk, lenkey, meta, rel, d, nh, allh, relevant, typ, bound, mask):
    """Store "value >= bound" (typ 0) or "value <= bound" (typ 1) for every position with these suit lengths
    and the same owners of the cards at or above the lowest relevant card of each suit."""
    topmask = np.uint64(0)
    for s in range(4):
        r = lane(relevant, s)
        if r == 0:
            continue
        low = r & (~r + ONE)
        k = popcount(lane(allh, s) & ~(low - ONE))
        topmask |= (((ONE << np.uint64(k)) - ONE) << np.uint64(13 - k)) << np.uint64(16 * s)
    i = _bucket(lenkey, meta & META_BITS, rel, d, nh, mask)
    gen = meta >> GEN_SHIFT
    # the entry to replace in a full bucket: a slot picked from the position (always the same slot thrashed;
    # keeping the entries with most tricks left kept stale ones from earlier solves and searched more nodes)
    x = (rel[d, 0] ^ (rel[d, 1] * H0) ^ (rel[d, 2] * H1) ^ (rel[d, 3] * H4)) * H0
    victim = i + np.int64(x >> np.uint64(64 - BUCKET_BITS))
    for j in range(i, i + BUCKET):
        if (ttk[j, 1] >> GEN_SHIFT) != gen:
            victim = j
            break
        b = np.int64(ttk[j, 7])
        if ttk[j, 0] == lenkey and ttk[j, 1] == meta and ttk[j, 2] == topmask and (b >> 8) == typ:
            same = True
            for p in range(nh):
                if ttk[j, 3 + p] != (rel[d, p] & topmask):
                    same = False
                    break
            if same:
                if (typ == 0 and bound > (b & 255)) or (typ == 1 and bound < (b & 255)):
                    ttk[j, 7] = np.uint64((typ << 8) | bound)
                return
    ttk[victim, 0] = lenkey
    ttk[victim, 1] = meta
    ttk[victim, 2] = topmask
    for p in range(4):
        ttk[victim, 3 + p] = (rel[d, p] & topmask) if p < nh else np.uint64(0)
    ttk[victim, 7] = np.uint64((typ << 8) | bound)
