"""Zheng Shangyou kernels: combination classifier (ZS-5), beating rule (ZS-4, ZS-6), move generator.

Card encoding (one 54-card deck): ``card = rank * 4 + suit`` for the 52 suited cards, with ``rank``
ascending in the game's order ``0 = '3' .. 10 = 'K', 11 = 'A', 12 = '2'`` (twos high, ZS-2) and ``suit``
ascending ``0 = D < 1 = C < 2 = H < 3 = S`` (the Big Two order); the black joker is 52 and the red joker 53.
So a single card's comparison key is its code (rank first, then suit; jokers above). A hand or a play is a
``uint64`` bit set of codes: the four cards of a rank are the 4 bits at ``4 * rank``.

Sequences (straights, pair and triple straights, straight flushes) use *positions* in the order
A(low) 2 3 ... K A(high): position 0 is a low ace, 1 a two, 2 .. 12 the ranks 3 .. K and 13 a high ace
(ZS-5; no wrap-around, so J-Q-K-A-2 is not a sequence).

A play is ``(kind, length, key)``: the kinds are the ``K_*`` constants; ``key`` orders plays of one kind
and length (higher beats), see :func:`classify`.
"""

from __future__ import annotations

import numpy as np

from ._jit import jit, jit_inline

K_NONE = 0          # no play yet (on lead) / an invalid card set
K_SINGLE = 1
K_PAIR = 2
K_PAIR_STRAIGHT = 3
K_TRIPLE = 4
K_TRIPLE_STRAIGHT = 5
K_FULL_HOUSE = 6
K_STRAIGHT = 7
K_BOMB = 8
K_STRAIGHT_FLUSH = 9
KIND_NAMES = ("none", "single", "pair", "pair straight", "three of a kind", "triple straight", "full house",
              "straight", "bomb", "straight flush")
BLACK_JOKER = 52
RED_JOKER = 53
MAX_MOVES = 1 << 15


@jit_inline
def rank_of_position(p):
    """The rank (0 = '3' .. 12 = '2') at sequence position p (0 = low ace .. 13 = high ace)."""
    if p == 0 or p == 13:
        return 11
    if p == 1:
        return 12
    return p - 2


@jit_inline
def _rank_bits(hand, r):
    return (hand >> np.uint64(4 * r)) & np.uint64(15)


@jit_inline
def _popcount(x):
    c = 0
    while x:
        x &= x - np.uint64(1)
        c += 1
    return c


@jit_inline
def _top_suit(bits):
    s = 3
    while s >= 0 and not (bits >> np.uint64(s)) & np.uint64(1):
        s -= 1
    return s


@jit
def classify(play):
    """``(kind, length, key)`` of a card set (ZS-5); kind ``K_NONE`` if it is no combination.

    Keys: single = the card code; pair = 4 * rank + the higher suit; three of a kind, full house, bomb = the
    rank of the triple or the four; sequences = the lowest position (a higher lowest card beats).
    """
    n = _popcount(play)
    if n == 0:
        return K_NONE, 0, 0
    jokers = (play >> np.uint64(52)) & np.uint64(3)
    if jokers:
        if n == 1:
            return K_SINGLE, 1, 52 if jokers == 1 else 53
        return K_NONE, n, 0          # jokers only as singles (ZS-5)
    counts = np.zeros(13, dtype=np.int64)
    n_ranks = 0
    for r in range(13):
        c = _popcount(_rank_bits(play, r))
        counts[r] = c
        if c:
            n_ranks += 1
    if n == 1:
        r = 0
        while counts[r] == 0:
            r += 1
        return K_SINGLE, 1, r * 4 + _top_suit(_rank_bits(play, r))
    if n_ranks == 1:
        r = 0
        while counts[r] == 0:
            r += 1
        if n == 2:
            return K_PAIR, 2, r * 4 + _top_suit(_rank_bits(play, r))
        if n == 3:
            return K_TRIPLE, 3, r
        return K_NONE, n, 0          # a bare four of a kind is no play by default (variant 6)
    if n == 5 and n_ranks == 2:
        r4 = -1
        r3 = -1
        for r in range(13):
            if counts[r] == 4:
                r4 = r
            if counts[r] == 3:
                r3 = r
        if r4 >= 0:
            return K_BOMB, 5, r4      # four of a kind + any one other card (ZS-5)
        if r3 >= 0:
            return K_FULL_HOUSE, 5, r3
        return K_NONE, n, 0
    # sequences: every rank present the same number of times (1, 2 or 3), consecutive positions
    m = 0
    for r in range(13):
        if counts[r]:
            if m == 0:
                m = counts[r]
            elif counts[r] != m:
                return K_NONE, n, 0
    if m > 3 or (m == 1 and n_ranks < 5) or n_ranks < 2:
        return K_NONE, n, 0
    low = _sequence_low(counts, n_ranks)
    if low < 0:
        return K_NONE, n, 0
    if m == 2:
        return K_PAIR_STRAIGHT, n, low
    if m == 3:
        return K_TRIPLE_STRAIGHT, n, low
    # straight or straight flush
    suit_union = np.uint64(0)
    for r in range(13):
        suit_union |= _rank_bits(play, r)
    if _popcount(suit_union) == 1:
        return K_STRAIGHT_FLUSH, n, low
    return K_STRAIGHT, n, low


@jit_inline
def _sequence_low(counts, n_ranks):
    """The lowest position of a run of ``n_ranks`` consecutive positions covering the ranks present, or -1."""
    for low in range(0, 14 - n_ranks + 1):
        ok = True
        for p in range(low, low + n_ranks):
            if counts[rank_of_position(p)] == 0:
                ok = False
                break
        if ok:
            return low
    return -1


@jit
def beats(cur_kind, cur_len, cur_key, kind, length, key):
    """Whether the play (kind, length, key) may be played on the current one (ZS-4, ZS-6).

    ``cur_kind == K_NONE`` means a lead: any combination. A straight flush beats everything but a higher
    straight flush of the same length; a bomb beats everything but a higher bomb or a straight flush;
    otherwise the same kind and number of cards with a higher key.
    """
    if kind == K_NONE:
        return False
    if cur_kind == K_NONE:
        return True
    if kind == K_STRAIGHT_FLUSH:
        if cur_kind == K_STRAIGHT_FLUSH:
            return length == cur_len and key > cur_key
        return True
    if kind == K_BOMB:
        if cur_kind == K_STRAIGHT_FLUSH:
            return False
        if cur_kind == K_BOMB:
            return key > cur_key
        return True
    if cur_kind == K_BOMB or cur_kind == K_STRAIGHT_FLUSH:
        return False
    return kind == cur_kind and length == cur_len and key > cur_key


@jit_inline
def _emit(out, n, play, cur_kind, cur_len, cur_key):
    kind, length, key = classify(play)
    if beats(cur_kind, cur_len, cur_key, kind, length, key) and n < out.shape[0]:
        out[n] = play
        return n + 1
    return n


@jit
def _subsets_of_size(bits, k, base, out, n_out):
    """All k-subsets of a 4-bit suit set, shifted to ``base``; written to out[n_out:], returns the new count."""
    for sub in range(16):
        if (sub & ~bits) == 0 and _popcount(np.uint64(sub)) == k:
            out[n_out] = np.uint64(sub) << np.uint64(base)
            n_out += 1
    return n_out


@jit
def generate_moves(hand, cur_kind, cur_len, cur_key, out):
    """Every legal play from ``hand`` (on lead when ``cur_kind == K_NONE``) into ``out``; returns the count.

    Each play is one card set; a set of five or more cards in one suit and in sequence is a straight flush
    only (the strongest reading). Plays are grouped by kind; ``out`` should hold ``MAX_MOVES``.
    """
    n = 0
    choices = np.zeros((14, 6), dtype=np.uint64)     # per rank: its pair (or triple) suit choices
    n_choice = np.zeros(14, dtype=np.int64)
    tmp = np.zeros(6, dtype=np.uint64)
    # singles, pairs, triples
    for r in range(13):
        bits = _rank_bits(hand, r)
        for s in range(4):
            if (bits >> np.uint64(s)) & np.uint64(1):
                n = _emit(out, n, np.uint64(1) << np.uint64(4 * r + s), cur_kind, cur_len, cur_key)
        for k in (2, 3):
            m = _subsets_of_size(bits, k, 4 * r, tmp, 0)
            for i in range(m):
                n = _emit(out, n, tmp[i], cur_kind, cur_len, cur_key)
    for j in (52, 53):
        if (hand >> np.uint64(j)) & np.uint64(1):
            n = _emit(out, n, np.uint64(1) << np.uint64(j), cur_kind, cur_len, cur_key)
    # full houses and bombs
    for r in range(13):
        bits = _rank_bits(hand, r)
        if _popcount(bits) >= 3:
            m3 = _subsets_of_size(bits, 3, 4 * r, tmp, 0)
            for q in range(13):
                if q == r:
                    continue
                qb = _rank_bits(hand, q)
                pairs = np.zeros(6, dtype=np.uint64)
                m2 = _subsets_of_size(qb, 2, 4 * q, pairs, 0)
                for i in range(m3):
                    for j in range(m2):
                        n = _emit(out, n, tmp[i] | pairs[j], cur_kind, cur_len, cur_key)
        if bits == np.uint64(15):
            four = np.uint64(15) << np.uint64(4 * r)
            for c in range(52):          # the kicker: any other suited card (default: not a joker)
                if c // 4 != r and (hand >> np.uint64(c)) & np.uint64(1):
                    n = _emit(out, n, four | (np.uint64(1) << np.uint64(c)), cur_kind, cur_len, cur_key)
    # sequences: straights and straight flushes (1 card per rank), pair and triple straights
    for width, min_len in ((1, 5), (2, 2), (3, 2)):
        for p in range(14):
            bits = _rank_bits(hand, rank_of_position(p))
            n_choice[p] = _subsets_of_size(bits, width, 4 * rank_of_position(p), choices[p], 0)
        for low in range(14):
            for high in range(low + min_len - 1, 14):
                ok = True
                for p in range(low, high + 1):
                    if n_choice[p] == 0:
                        ok = False
                        break
                if not ok:
                    break
                # an ace cannot stand at both ends, and 2..A(high) is the same set of ranks as A(low)..K
                if (low == 0 and high == 13) or (low == 1 and high == 13):
                    continue
                n = _product(choices, n_choice, low, high, out, n, cur_kind, cur_len, cur_key)
    return n


@jit
def _product(choices, n_choice, low, high, out, n, cur_kind, cur_len, cur_key):
    """Emit every combination of one choice per position in [low, high] (an odometer)."""
    L = high - low + 1
    idx = np.zeros(L, dtype=np.int64)
    while True:
        play = np.uint64(0)
        for i in range(L):
            play |= choices[low + i, idx[i]]
        n = _emit(out, n, play, cur_kind, cur_len, cur_key)
        i = L - 1
        while i >= 0:
            idx[i] += 1
            if idx[i] < n_choice[low + i]:
                break
            idx[i] = 0
            i -= 1
        if i < 0:
            return n
