"""Biscuits kernels: combination classifier (BI-6), beating rule (BI-7), move generator.

Card encoding: ``card = rank * 4 + suit`` with ``rank`` ascending ``0 = '2' .. 12 = 'A'`` (BI-2) and ``suit``
``0 = C, 1 = D, 2 = H, 3 = S`` -- suits are not ranked in Biscuits; the index only names the suit. A hand or
a play is a ``uint64`` bit set of codes.

A play is ``(kind, key)``: ``kind // 10`` is its group (0 Plain, 1 Fancy) and ``kind % 10`` its type inside
the group (Plain: 1 single, 2 pair, 3 triple; Fancy: 1 straight, 2 flush, 3 full house, 4 quad, 5 straight
flush). Keys: the rank (singles, pairs, triples), the highest rank (straights, straight flushes), the rank of
the triple or the four (full house, quad), the top card's rank (flush; variant ``lexicographic``: all five
ranks, highest first, 4 bits each).
"""

from __future__ import annotations

import numpy as np

from ._jit import jit, jit_inline
from .bits import popcount as _popcount
from .bits import rank_bits as _rank_bits

K_NONE = 0
K_SINGLE = 1
K_PAIR = 2
K_TRIPLE = 3
K_STRAIGHT = 11
K_FLUSH = 12
K_FULL_HOUSE = 13
K_QUAD = 14
K_STRAIGHT_FLUSH = 15
KIND_NAMES = {0: "none", 1: "Single", 2: "Pair", 3: "Triple", 11: "Straight", 12: "Flush", 13: "Full House",
              14: "Quad", 15: "Straight Flush"}
MAX_MOVES = 1 << 15

V_FLUSH_COMPARE = 0     # flush_compare: 0 top_card_only, 1 lexicographic
V_ACE_LOW = 1           # ace_low_straight: 0 false, 1 true
N_VARIANTS = 2


@jit
def _straight_high(present, bv):
    """Highest rank of 5 consecutive ranks exactly covering ``present`` (5 ranks), or -1 (A high only;
    variant ace_low_straight: A-2-3-4-5, whose highest card is the 5)."""
    for low in range(0, 9):
        if present == (31 << low):
            return low + 4
    if bv[V_ACE_LOW] == 1 and present == ((1 << 12) | 15):
        return 3
    return -1


@jit
def classify(play, bv):
    """``(kind, key)`` of a card set (BI-6); ``K_NONE`` if it is no combination."""
    n = _popcount(play)
    if n == 0 or n == 4 or n > 5:
        return K_NONE, 0                 # there is no 4-card combination (BI-6)
    present = 0
    n_ranks = 0
    r4 = -1
    r3 = -1
    top = -1
    suit_union = np.uint64(0)
    for r in range(13):
        bits = _rank_bits(play, r)
        if bits:
            c = _popcount(bits)
            present |= 1 << r
            n_ranks += 1
            suit_union |= bits
            top = r
            if c == 4:
                r4 = r
            if c == 3:
                r3 = r
    if n_ranks == 1:
        if n == 1:
            return K_SINGLE, top
        if n == 2:
            return K_PAIR, top
        if n == 3:
            return K_TRIPLE, top
        return K_NONE, 0
    if n != 5:
        return K_NONE, 0
    if r4 >= 0:
        return K_QUAD, r4                # four of a kind + any fifth card
    if r3 >= 0 and n_ranks == 2:
        return K_FULL_HOUSE, r3
    one_suit = _popcount(suit_union) == 1
    if n_ranks == 5:
        high = _straight_high(present, bv)
        if high >= 0:
            return (K_STRAIGHT_FLUSH if one_suit else K_STRAIGHT), high
        if one_suit:
            if bv[V_FLUSH_COMPARE] == 1:
                key = 0
                for r in range(12, -1, -1):
                    if (present >> r) & 1:
                        key = key * 16 + r
                return K_FLUSH, key
            return K_FLUSH, top
    return K_NONE, 0


@jit
def beats(cur_kind, cur_key, kind, key):
    """BI-7: the same group, and a higher type in it, or the same type with an equal or higher key."""
    if kind == K_NONE:
        return False
    if cur_kind == K_NONE:
        return True
    if kind // 10 != cur_kind // 10:
        return False                     # Plain never beats Fancy, nor Fancy Plain
    if kind % 10 != cur_kind % 10:
        return kind % 10 > cur_kind % 10
    return key >= cur_key                # equal rank also beats


@jit_inline
def _emit(out, n, play, cur_kind, cur_key, bv):
    kind, key = classify(play, bv)
    if beats(cur_kind, cur_key, kind, key) and n < out.shape[0]:
        out[n] = play
        return n + 1
    return n


@jit
def generate_moves(hand, cur_kind, cur_key, out, bv):
    """Every legal play from ``hand`` (on lead when ``cur_kind == K_NONE``); returns the count. A five-card
    set has one reading (a straight flush is never a straight or a flush)."""
    n = 0
    tmp = np.zeros(6, dtype=np.uint64)
    pairs = np.zeros(6, dtype=np.uint64)
    plain = cur_kind // 10 == 0
    fancy = cur_kind == K_NONE or cur_kind // 10 == 1
    if plain:
        for r in range(13):
            bits = _rank_bits(hand, r)
            for sub in range(1, 16):
                if (sub & ~bits) == 0 and _popcount(np.uint64(sub)) <= 3:
                    n = _emit(out, n, np.uint64(sub) << np.uint64(4 * r), cur_kind, cur_key, bv)
    if not fancy:
        return n
    # full houses and quads
    for r in range(13):
        bits = _rank_bits(hand, r)
        if _popcount(bits) >= 3:
            m3 = 0
            for sub in range(16):
                if (sub & ~bits) == 0 and _popcount(np.uint64(sub)) == 3:
                    tmp[m3] = np.uint64(sub) << np.uint64(4 * r)
                    m3 += 1
            for q in range(13):
                if q == r:
                    continue
                qb = _rank_bits(hand, q)
                m2 = 0
                for sub in range(16):
                    if (sub & ~qb) == 0 and _popcount(np.uint64(sub)) == 2:
                        pairs[m2] = np.uint64(sub) << np.uint64(4 * q)
                        m2 += 1
                for i in range(m3):
                    for j in range(m2):
                        n = _emit(out, n, tmp[i] | pairs[j], cur_kind, cur_key, bv)
        if bits == np.uint64(15):
            four = np.uint64(15) << np.uint64(4 * r)
            for c in range(52):
                if c // 4 != r and (hand >> np.uint64(c)) & np.uint64(1):
                    n = _emit(out, n, four | (np.uint64(1) << np.uint64(c)), cur_kind, cur_key, bv)
    # straights of mixed suits (one card per rank; the one-suit ones come with the flushes)
    lows = 10 if bv[V_ACE_LOW] == 1 else 9
    for li in range(lows):
        ranks = np.zeros(5, dtype=np.int64)
        for i in range(5):
            ranks[i] = (li + i) if li < 9 else (12 if i == 0 else i - 1)   # li == 9: A-2-3-4-5
        ok = True
        for i in range(5):
            if _rank_bits(hand, ranks[i]) == np.uint64(0):
                ok = False
        if not ok:
            continue
        for combo in range(4 ** 5):
            play = np.uint64(0)
            x = combo
            valid = True
            for i in range(5):
                su = x % 4
                x //= 4
                if not (_rank_bits(hand, ranks[i]) >> np.uint64(su)) & np.uint64(1):
                    valid = False
                    break
                play |= np.uint64(1) << np.uint64(4 * ranks[i] + su)
            if valid:
                first = combo % 4
                same = True
                y = combo
                for i in range(5):
                    if y % 4 != first:
                        same = False
                    y //= 4
                if not same:
                    n = _emit(out, n, play, cur_kind, cur_key, bv)
    # flushes and straight flushes: every five cards of one suit
    for su in range(4):
        cards = np.zeros(13, dtype=np.int64)
        m = 0
        for r in range(13):
            if (hand >> np.uint64(4 * r + su)) & np.uint64(1):
                cards[m] = 4 * r + su
                m += 1
        if m < 5:
            continue
        for a in range(m):
            for b in range(a + 1, m):
                for c in range(b + 1, m):
                    for d in range(c + 1, m):
                        for e in range(d + 1, m):
                            play = ((np.uint64(1) << np.uint64(cards[a])) | (np.uint64(1) << np.uint64(cards[b])) |
                                    (np.uint64(1) << np.uint64(cards[c])) | (np.uint64(1) << np.uint64(cards[d])) |
                                    (np.uint64(1) << np.uint64(cards[e])))
                            n = _emit(out, n, play, cur_kind, cur_key, bv)
    return n
