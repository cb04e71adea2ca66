"""Zheng Shangyou kernels, classifier: what a set of cards is as a play (ZS-5) and whether one play beats
another (ZS-4, ZS-6), with the revolution's reversed order.
"""

from __future__ import annotations

import numpy as np

from .._jit import jit, jit_inline
from ..bits import RANK_LOW_BITS, rank_counts
from ..bits import low_index as _low_index
from ..bits import popcount as _popcount
from ..bits import rank_bits as _rank_bits
from .layout import (
    K_BOMB,
    K_FULL_HOUSE,
    K_NONE,
    K_PAIR,
    K_PAIR_STRAIGHT,
    K_SINGLE,
    K_STRAIGHT,
    K_STRAIGHT_FLUSH,
    K_TRIPLE,
    K_TRIPLE_STRAIGHT,
    SUITED_CARDS,
    V_BARE_FOUR,
    V_CURRENT,
    V_KICKER_JOKER,
    V_MIN_BOMB,
    V_MIN_STRAIGHT,
    V_NO_TWOS_SEQ,
    V_PAIR_STRAIGHT_TIE,
    V_SF_VS_SF,
    V_STRAIGHT_SUIT,
    V_SUIT_ORDER,
    _positions,
    _runs_of,
    ranks_at_least,
)


@jit_inline
def rank_of_position(p):
    """The rank (0 = '3' .. 12 = '2') at sequence position p (0 = low ace .. 13 = high ace)."""
    if p == 0 or p == 13:
        return 11
    if p == 1:
        return 12
    return p - 2


@jit_inline
def _top_suit(bits):
    s = 3
    while s >= 0 and not (bits >> np.uint64(s)) & np.uint64(1):
        s -= 1
    return s


@jit
def classify(play, dup, zv, rev):
    """:func:`classify_normal`, with the keys reversed while a revolution is in force (variant 7): the 13
    ranks swap ends (jokers stay highest, suits keep their order) and a sequence is higher the lower its top."""
    kind, length, key = classify_normal(play, dup, zv)
    return kind, length, _revolved_key(kind, length, key, rev)


@jit_inline
def _revolved_key(kind, length, key, rev):
    """A play's key in the order in force: the normal key, or its reversal under a revolution (variant 7)."""
    if rev == 0 or kind == K_NONE:
        return key
    if kind == K_SINGLE or kind == K_PAIR:
        if key >= 52:
            return key
        return (12 - key // 4) * 4 + key % 4
    if kind == K_TRIPLE or kind == K_FULL_HOUSE or kind == K_BOMB:
        return (key // 16) * 16 + 12 - key % 16  # a bomb's size (current_wiki) stays first
    width = 2 if kind == K_PAIR_STRAIGHT else (3 if kind == K_TRIPLE_STRAIGHT else 1)
    top = key // 4 + length // width - 1
    return 4 * (13 - top) + key % 4


@jit
def classify_normal(play, dup, zv):
    """``(kind, length, key)`` of a card multiset (ZS-5; ``dup`` = the cards in it twice, two decks only);
    kind ``K_NONE`` if it is no combination.

    Keys: single = the card code; pair = 4 * rank + the higher suit; three of a kind, full house, bomb = the
    rank of the triple or the four; sequences = 4 * the lowest position (+ a suit under the tie-break
    variants), so a higher lowest card beats. Two decks [OURS]: a pair, triple or four may hold identical
    cards; five cards of one rank are a bomb of that rank (a four of a kind + one other card); six or more
    are no play; equal plays do not beat (rules.md 4(c)1).
    """
    n = _popcount(play) + _popcount(dup)
    if n == 0:
        return K_NONE, 0, 0
    if n == 1:  # a single card: its code is its key (jokers 52, 53 above the rest)
        return K_SINGLE, 1, _single_key(_low_index(play), zv)
    jokers = (play >> np.uint64(52)) & np.uint64(3)
    if jokers:
        # jokers only as singles (ZS-5); variant 13: a joker may be a bomb's fifth card
        if zv[V_KICKER_JOKER] == 1 and n == 5 and _popcount(jokers) + _popcount(dup >> np.uint64(52)) == 1:
            rest = play & SUITED_CARDS
            for r in range(13):
                if _popcount(_rank_bits(rest, r)) + _popcount(_rank_bits(dup, r)) == 4:
                    return K_BOMB, 5, r
        return K_NONE, n, 0
    # per rank counts in parallel (nibble r = the cards of rank r, 0..8): the ranks present, the lowest, its
    # count m, whether every present rank holds m (a sequence's shape), and the ranks holding exactly 4 and 3
    cnt = rank_counts(play) + rank_counts(dup)
    nz = ranks_at_least(cnt, 1)
    n_ranks = _popcount(nz)
    lo_rank = _low_index(nz) // 4
    m = (cnt >> np.uint64(4 * lo_rank)) & np.uint64(15)
    uniform = cnt == m * nz
    b0 = cnt & RANK_LOW_BITS
    b1 = (cnt >> np.uint64(1)) & RANK_LOW_BITS
    b2 = (cnt >> np.uint64(2)) & RANK_LOW_BITS
    b3 = (cnt >> np.uint64(3)) & RANK_LOW_BITS
    four = b2 & ~(b0 | b1 | b3)
    three = b0 & b1 & ~(b2 | b3)
    r4 = _low_index(four) // 4 if four else -1
    r3 = _low_index(three) // 4 if three else -1
    if n_ranks == 1:
        if zv[V_CURRENT] == 1 and n >= zv[V_MIN_BOMB]:
            return K_BOMB, n, _bomb_key(n, lo_rank)  # current_wiki: n of a kind alone is a bomb
        if n == 2:
            return K_PAIR, 2, _pair_key(lo_rank, _rank_bits(play, lo_rank), zv)
        if n == 3:
            return K_TRIPLE, 3, lo_rank
        if n == 4 and zv[V_BARE_FOUR] > 0:
            return K_BOMB, 4, lo_rank  # variant 6: a bare four of a kind is a bomb
        if n == 5:
            return K_BOMB, 5, lo_rank  # two decks: five of a kind = a four of a kind + one card [OURS]
        return K_NONE, n, 0  # a bare four of a kind is no play by default (variant 6)
    if n == 5 and n_ranks == 2:
        if r4 >= 0:
            if zv[V_CURRENT] == 1:
                return K_NONE, n, 0  # current_wiki: a four of a kind is a bomb alone, not with a fifth card
            return K_BOMB, 5, r4  # four of a kind + any one other card (ZS-5)
        if r3 >= 0:
            return K_FULL_HOUSE, 5, r3
        return K_NONE, n, 0
    # sequences: every rank present the same number of times (1, 2 or 3), consecutive positions
    if not uniform or m > 3 or (m == 1 and n_ranks < zv[V_MIN_STRAIGHT]):
        return K_NONE, n, 0
    if m >= 2 and zv[V_NO_TWOS_SEQ] == 1 and (nz >> np.uint64(48)) & np.uint64(1):
        return K_NONE, n, 0  # variant 11: no twos in pair and triple straights
    low = _sequence_low(nz, n_ranks)
    if low < 0:
        return K_NONE, n, 0
    top_rank = rank_of_position(low + n_ranks - 1)
    if m == 2:
        tie = _top_suit(_rank_bits(play, top_rank)) if zv[V_PAIR_STRAIGHT_TIE] == 1 else 0
        return K_PAIR_STRAIGHT, n, 4 * low + tie
    if m == 3:
        return K_TRIPLE_STRAIGHT, n, 4 * low
    fold = play | (play >> np.uint64(32))  # the suits present: fold the 13 rank nibbles
    fold |= fold >> np.uint64(16)
    fold |= fold >> np.uint64(8)
    fold |= fold >> np.uint64(4)
    if _popcount(fold & np.uint64(15)) == 1 and zv[V_CURRENT] == 0:
        return K_STRAIGHT_FLUSH, n, 4 * low
    tie = _top_suit(_rank_bits(play, top_rank)) if zv[V_STRAIGHT_SUIT] == 1 else 0
    return K_STRAIGHT, n, 4 * low + tie


@jit_inline
def _single_key(c, zv):
    """A single card's key: its code (rank, then suit; jokers 52, 53), or 4 * its rank without a suit order."""
    if zv[V_SUIT_ORDER] == 1 or c >= 52:
        return c
    return c - c % 4


@jit_inline
def _pair_key(r, suits, zv):
    """A pair's key: 4 * its rank + the higher suit in it (no suit without a suit order)."""
    return 4 * r + (_top_suit(suits) if zv[V_SUIT_ORDER] == 1 else 0)


@jit_inline
def _bomb_key(n, r):
    """current_wiki: a bomb of n cards of rank r; more cards beat fewer, then the higher rank."""
    return 16 * (n - 3) + r


@jit_inline
def _sequence_low(nz, n_ranks):
    """The lowest position of a run of ``n_ranks`` consecutive positions covering the ranks present (bit 4r of
    ``nz`` for rank r), or -1."""
    runs = _runs_of(_positions(nz), n_ranks)  # bit 4p: positions p .. p + n_ranks - 1 all held
    if runs == np.uint64(0):
        return -1
    return _low_index(runs) // 4


@jit
def beats(cur_kind, cur_len, cur_key, kind, length, key, zv):
    """Whether the play (kind, length, key) may be played on the current one (ZS-4, ZS-6).

    ``cur_kind == K_NONE`` means a lead: any combination. A straight flush beats everything but a higher
    straight flush of the same length; a bomb beats everything but a higher bomb or a straight flush;
    otherwise the same kind and number of cards with a higher key. Variants: a bare four as a bomb that beats
    everything (6), straight flushes where the longer beats the shorter (10).
    """
    if kind == K_NONE:
        return False
    if cur_kind == K_NONE:
        return True
    bare_beats_all = zv[V_BARE_FOUR] == 1
    if kind == K_STRAIGHT_FLUSH:
        if cur_kind == K_STRAIGHT_FLUSH:
            if zv[V_SF_VS_SF] == 1 and length != cur_len:
                return length > cur_len
            return length == cur_len and key > cur_key
        if cur_kind == K_BOMB and cur_len == 4 and bare_beats_all:
            return False
        return True
    if kind == K_BOMB:
        if cur_kind == K_STRAIGHT_FLUSH:
            return length == 4 and bare_beats_all
        if cur_kind == K_BOMB:
            return key > cur_key
        return True
    if cur_kind == K_BOMB or cur_kind == K_STRAIGHT_FLUSH:
        return False
    return kind == cur_kind and length == cur_len and key > cur_key
