"""Zheng Shangyou kernels, the random leader without a move list: count each class of play, draw one, decode
it (the fast path of the random policy on lead and when following a straight or a same-kind play).
"""

from __future__ import annotations

import numpy as np

from .. import rng
from .._jit import jit, jit_inline
from ..bits import low_index as _low_index
from ..bits import nth_bit, rank_counts
from ..bits import popcount as _popcount
from ..bits import rank_bits as _rank_bits
from .classifier import _pair_key, rank_of_position
from .layout import (
    SUITED_CARDS,
    V_BARE_FOUR,
    V_KICKER_JOKER,
    V_MIN_STRAIGHT,
    V_STRAIGHT_SUIT,
    _positions,
    _runs_of,
    ranks_at_least,
)
from .moves import _sequence_ok

# ---- the random leader's play without the list: count each class, draw, decode ------------------------------


@jit_inline
def _n_subsets(c, w):
    """How many w-card subsets ``c`` cards have (``c`` <= 4, ``w`` <= 4)."""
    if w > c:
        return 0
    if w == 1 or w == c - 1:
        return c
    if w == c:
        return 1
    return 6  # 2 of 4


@jit_inline
def _nth_subset(bits, w, j):
    """The j-th w-card subset of one rank's suits ``bits`` (one deck) in :func:`_subsets_of_size`'s order."""
    c = _popcount(bits)
    if w == c:
        return bits
    if w == 1:
        return np.uint64(1) << np.uint64(nth_bit(bits, j))
    if w == c - 1:  # the highest held suit is left out first
        return bits & ~(np.uint64(1) << np.uint64(nth_bit(bits, c - 1 - j)))
    b = 1  # 2 of 4, colex: {a, b} with C(b, 2) <= j < C(b + 1, 2)
    while (b + 1) * b // 2 <= j:
        b += 1
    return (np.uint64(1) << np.uint64(j - b * (b - 1) // 2)) | (np.uint64(1) << np.uint64(b))


@jit_inline
def _sequences(hand, cnt, width, min_len, zv, k):
    """Sequences of ``width`` cards a position from a one-deck hand (``cnt`` its :func:`rank_counts`), in
    the generator's order: with ``k < 0`` their count; else the k-th as ``(cards, -1)``, or
    ``(0, k - count)`` when k is past them."""
    runs = _runs_of(_positions(ranks_at_least(cnt, width)), min_len)
    total = 0
    while runs:
        low = _low_index(runs) // 4
        runs &= runs - np.uint64(1)
        prod = 1
        for high in range(low, 14):
            c = _n_subsets(_popcount(_rank_bits(hand, rank_of_position(high))), width)
            if c == 0:
                break
            prod *= c
            if not _sequence_ok(low, high, width, min_len, zv):
                continue
            if 0 <= k < total + prod:
                return _window_play(hand, low, high, width, k - total, np.uint64(15)), -1
            total += prod
    return np.uint64(0), (total if k < 0 else k - total)


@jit_inline
def _window_play(hand, low, high, width, j, top_suits):
    """The j-th sequence of ``width`` cards a position over positions low..high in the generator's order
    (an odometer, the last position turning fastest; the top position's cards limited to ``top_suits``)."""
    play = np.uint64(0)
    for p in range(high, low - 1, -1):
        r = rank_of_position(p)
        bits = _rank_bits(hand, r)
        if p == high:
            bits &= top_suits
        m = _n_subsets(_popcount(bits), width)
        play |= _nth_subset(bits, width, j % m) << np.uint64(4 * r)
        j //= m
    return play


@jit
def follow_straight(hand, length, cur_key, zv, k):
    """Following a straight of ``length`` cards and key ``cur_key`` in the normal order with a one-deck hand
    that makes no bomb or straight flush: with ``k < 0`` how many straights beat it (ZS-6: the same length,
    a higher key: low position, then the top card's suit under straight_suit_tiebreak), else the k-th in
    :func:`moves_into`'s order (no list)."""
    cur_low = cur_key // 4
    runs = _runs_of(_positions(ranks_at_least(rank_counts(hand), 1)), length)
    runs &= ~((np.uint64(1) << np.uint64(4 * cur_low)) - np.uint64(1))
    total = 0
    while runs:
        low = _low_index(runs) // 4
        runs &= runs - np.uint64(1)
        high = low + length - 1
        if (low == 0 or low == 1) and high == 13:
            continue
        top_suits = np.uint64(15)
        if low == cur_low:
            if zv[V_STRAIGHT_SUIT] == 0:
                continue  # the same low position does not beat
            top_suits = np.uint64(15) & ~((np.uint64(2) << np.uint64(cur_key % 4)) - np.uint64(1))
        prod = 1
        for p in range(low, high + 1):
            bits = _rank_bits(hand, rank_of_position(p))
            prod *= _popcount(bits & top_suits if p == high else bits)
        if 0 <= k - total < prod:
            return _window_play(hand, low, high, 1, k - total, top_suits)
        total += prod
    return np.uint64(total)


@jit  # not jit_inline: see random_lead
def lead_play(hand, k, zv):
    """With ``k < 0``: how many plays a one-deck hand (dups 0) can lead, outside current_wiki; else the
    k-th of them in :func:`moves_into`'s order, found by counting each class instead of listing the plays
    (the random leader's draw)."""
    cnt = rank_counts(hand)
    ge2 = ranks_at_least(cnt, 2)
    ge3 = ranks_at_least(cnt, 3)
    ge4 = ranks_at_least(cnt, 4)
    total = 0
    # singles
    n1 = _popcount(hand)
    if 0 <= k < n1:
        return np.uint64(1) << np.uint64(nth_bit(hand, k))
    total += n1
    # pairs, then three of a kind: by rank, then the rank's subsets
    n_pairs = 0
    for w in range(2, 4):
        ranks = ge2 if w == 2 else ge3
        while ranks:
            r = _low_index(ranks) // 4
            ranks &= ranks - np.uint64(1)
            bits = _rank_bits(hand, r)
            m = _n_subsets(_popcount(bits), w)
            if w == 2:
                n_pairs += m
            if 0 <= k - total < m:
                return _nth_subset(bits, w, k - total) << np.uint64(4 * r)
            total += m
    # full houses: triple rank, pair rank, the triple's subset, the pair's subset
    triples = ge3
    while triples:
        r = _low_index(triples) // 4
        triples &= triples - np.uint64(1)
        tb = _rank_bits(hand, r)
        m3 = _n_subsets(_popcount(tb), 3)
        block = m3 * (n_pairs - _n_subsets(_popcount(tb), 2))
        if 0 <= k - total < block:
            j = k - total
            twos = ge2 & ~(np.uint64(1) << np.uint64(4 * r))
            while twos:
                q = _low_index(twos) // 4
                twos &= twos - np.uint64(1)
                qb = _rank_bits(hand, q)
                m2 = _n_subsets(_popcount(qb), 2)
                if j < m3 * m2:
                    return (_nth_subset(tb, 3, j // m2) << np.uint64(4 * r)) | (
                        _nth_subset(qb, 2, j % m2) << np.uint64(4 * q)
                    )
                j -= m3 * m2
        total += block
    # bombs: four of a kind, bare (variant) before each kicker by code
    kickers_all = hand if zv[V_KICKER_JOKER] == 1 else hand & SUITED_CARDS
    bare = 1 if zv[V_BARE_FOUR] > 0 else 0
    fours = ge4
    while fours:
        r = _low_index(fours) // 4
        fours &= fours - np.uint64(1)
        four = np.uint64(15) << np.uint64(4 * r)
        kick = kickers_all & ~four
        block = bare + _popcount(kick)
        if 0 <= k - total < block:
            j = k - total
            if j < bare:
                return four
            return four | (np.uint64(1) << np.uint64(nth_bit(kick, j - bare)))
        total += block
    # sequences of width 1, 2, 3 (straights and straight flushes, pair and triple straights)
    for width in range(1, 4):
        min_len = zv[V_MIN_STRAIGHT] if width == 1 else 2
        play, rest = _sequences(hand, cnt, width, min_len, zv, k - total if k >= 0 else -1)
        if rest < 0:
            return play
        if k < 0:
            total += rest
        else:
            total = k - rest
    return np.uint64(total)


@jit
def follow_same_kind(hand, w, cur_key, zv, k):
    """Following a pair (``w`` = 2) or three of a kind (3) of key ``cur_key`` in the normal order with a
    hand of single cards that makes no bomb or straight flush: with ``k < 0`` how many plays beat it (ZS-4:
    the same kind, higher), else the k-th of them in :func:`moves_into`'s order (no list)."""
    cur_rank = cur_key // 4 if w == 2 else cur_key
    ranks = ranks_at_least(rank_counts(hand), w) & ~((np.uint64(1) << np.uint64(4 * cur_rank)) - np.uint64(1))
    total = 0
    while ranks:
        r = _low_index(ranks) // 4
        ranks &= ranks - np.uint64(1)
        bits = _rank_bits(hand, r)
        m = _n_subsets(_popcount(bits), w)
        if r > cur_rank:
            if 0 <= k - total < m:
                return _nth_subset(bits, w, k - total) << np.uint64(4 * r)
            total += m
        elif w == 2:  # the same rank: the pairs with a higher top suit (suit order)
            for j in range(m):
                sub = _nth_subset(bits, 2, j)
                if _pair_key(r, sub, zv) > cur_key:
                    if k == total:
                        return sub << np.uint64(4 * r)
                    total += 1
    return np.uint64(total)


@jit
def random_lead(st, hand, zv):
    """The random leader's play (one deck): count the plays, draw one, decode it, with no list. Compiled apart
    from the game loop, which calls it, and :func:`lead_play` (called twice here) is not inlined either: with
    its two copies inlined this function alone took 12 s to compile, against 2.4 s now (docs/performance.md)."""
    return lead_play(hand, rng.below(st, np.int64(lead_play(hand, np.int64(-1), zv))), zv)


@jit
def lead_plays(hand, zv, out):
    """Every play :func:`lead_play` decodes, in order, into ``out`` (tests); returns the count."""
    n = np.int64(lead_play(hand, np.int64(-1), zv))
    for k in range(n):
        out[k, 0] = lead_play(hand, k, zv)
        out[k, 1] = 0
    return n
