"""Biscuits kernels, combinations: the kinds of play (``K_*``), the variant slots (``V_*``), the classifier (BI-6),
the beating rule (BI-7) and the move generator.
"""

from __future__ import annotations

import numpy as np

from .._jit import jit, jit_inline
from ..bits import RANK_LOW_BITS, rank_counts
from ..bits import low_index as _low_index
from ..bits import popcount as _popcount
from ..bits import rank_bits as _rank_bits

K_NONE = 0
K_SINGLE = 1
K_PAIR = 2
K_TRIPLE = 3
K_STRAIGHT = 11
K_FLUSH = 12
K_FULL_HOUSE = 13
K_QUAD = 14
K_STRAIGHT_FLUSH = 15
KIND_NAMES = {
    0: "none",
    1: "Single",
    2: "Pair",
    3: "Triple",
    11: "Straight",
    12: "Flush",
    13: "Full House",
    14: "Quad",
    15: "Straight Flush",
}
MAX_MOVES = 1 << 15

V_FLUSH_COMPARE = 0  # flush_compare: 0 top_card_only, 1 lexicographic
V_ACE_LOW = 1  # ace_low_straight: 0 false, 1 true
V_PASS_LOCKS_OUT = 2  # pass_locks_out: 0 false, 1 true (a pass takes you out of the trick)
V_STARTER_RULE = 3  # starter_rule: 0 next_clockwise_in_trailing_or_tied_team, 1 trailing_team_alternates
V_PASS_FIRST_ONLY = 4  # pass_every_hand: 0 true, 1 false (the partner pass before the first hand only)
V_END_IMMEDIATE = 5  # game_end_check: 0 end_of_hand, 1 immediate (the game stops when a team reaches the target)
N_VARIANTS = 6


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
        return K_NONE, 0  # there is no 4-card combination (BI-6)
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
        return K_QUAD, r4  # four of a kind + any fifth card
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
        return False  # Plain never beats Fancy, nor Fancy Plain
    if kind % 10 != cur_kind % 10:
        return kind % 10 > cur_kind % 10
    return key >= cur_key  # equal rank also beats


@jit_inline
def _emit(out, n, play, cur_kind, cur_key, bv):
    kind, key = classify(play, bv)
    if beats(cur_kind, cur_key, kind, key) and n < out.shape[0]:
        out[n] = play
        return n + 1
    return n


@jit_inline
def _emit_known(out, n, play, kind, key, cur_kind, cur_key):
    """:func:`_emit` for a play whose kind and key the generator already knows."""
    if beats(cur_kind, cur_key, kind, key) and n < out.shape[0]:
        out[n] = play
        return n + 1
    return n


@jit_inline
def _wanted(kind, cur_kind):
    """Whether plays of ``kind`` can beat the current play at all (BI-7: same group, same or higher type)."""
    return cur_kind == K_NONE or (kind // 10 == cur_kind // 10 and kind % 10 >= cur_kind % 10)


@jit
def generate_moves(hand, cur_kind, cur_key, out, bv):
    """Every legal play from ``hand`` (on lead when ``cur_kind == K_NONE``); returns the count. A five-card
    set has one reading (a straight flush is never a straight or a flush).

    Only the types that can beat the current play are built, each with its kind and key known (BI-6), from
    bit-parallel rank counts; nothing is allocated.
    """
    n = 0
    # per-rank counts in parallel: nibble r of `cnt` is the number of cards of rank r; bit 4r of the masks
    # is set for the ranks held at least once / twice / three times / four times
    cnt = rank_counts(hand)
    ge1 = (cnt | (cnt >> np.uint64(1)) | (cnt >> np.uint64(2))) & RANK_LOW_BITS
    ge2 = ((cnt >> np.uint64(1)) | (cnt >> np.uint64(2))) & RANK_LOW_BITS
    ge3 = ((cnt >> np.uint64(2)) | (cnt & (cnt >> np.uint64(1)))) & RANK_LOW_BITS
    ge4 = (cnt >> np.uint64(2)) & RANK_LOW_BITS
    # Plain: singles, pairs, triples of one rank (key = the rank)
    if _wanted(K_SINGLE, cur_kind) or _wanted(K_PAIR, cur_kind) or _wanted(K_TRIPLE, cur_kind):
        ranks = ge1
        while ranks:
            r = _low_index(ranks) // 4
            ranks &= ranks - np.uint64(1)
            bits = _rank_bits(hand, r)
            sub = bits
            while sub:  # every non-empty subset of the rank's suits
                k = _popcount(sub)
                if k <= 3:
                    n = _emit_known(out, n, sub << np.uint64(4 * r), k, r, cur_kind, cur_key)
                sub = (sub - np.uint64(1)) & bits
    if not (cur_kind == K_NONE or cur_kind // 10 == 1):
        return n
    # full houses (key = the triple's rank)
    if _wanted(K_FULL_HOUSE, cur_kind):
        triples = ge3
        while triples:
            r = _low_index(triples) // 4
            triples &= triples - np.uint64(1)
            bits = _rank_bits(hand, r)
            twos = ge2 & ~(np.uint64(1) << np.uint64(4 * r))
            while twos:
                q = _low_index(twos) // 4
                twos &= twos - np.uint64(1)
                qb = _rank_bits(hand, q)
                for drop in range(4):  # the triple: the rank's cards but one (or all three)
                    if _popcount(bits) == 4:
                        t = bits & ~(np.uint64(1) << np.uint64(drop))
                    elif drop == 0:
                        t = bits
                    else:
                        break
                    for sa in range(4):  # the pair: two of the other rank's cards
                        for sb in range(sa + 1, 4):
                            pb = (np.uint64(1) << np.uint64(sa)) | (np.uint64(1) << np.uint64(sb))
                            if (pb & ~qb) == np.uint64(0):
                                n = _emit_known(
                                    out,
                                    n,
                                    (t << np.uint64(4 * r)) | (pb << np.uint64(4 * q)),
                                    K_FULL_HOUSE,
                                    r,
                                    cur_kind,
                                    cur_key,
                                )
    # quads: four of a kind + any fifth card (key = the four's rank)
    if _wanted(K_QUAD, cur_kind):
        fours = ge4
        while fours:
            r = _low_index(fours) // 4
            fours &= fours - np.uint64(1)
            four = np.uint64(15) << np.uint64(4 * r)
            kickers = hand & ~four
            while kickers:
                c = _low_index(kickers)
                kickers &= kickers - np.uint64(1)
                n = _emit_known(out, n, four | (np.uint64(1) << np.uint64(c)), K_QUAD, r, cur_kind, cur_key)
    # straights of mixed suits (one card per rank; the one-suit ones come with the flushes); key = top rank
    if _wanted(K_STRAIGHT, cur_kind):
        lows = 10 if bv[V_ACE_LOW] == 1 else 9
        for li in range(lows):
            if li < 9:
                r0, r1, r2, r3, r4 = li, li + 1, li + 2, li + 3, li + 4
            else:
                r0, r1, r2, r3, r4 = 12, 0, 1, 2, 3  # li == 9: A-2-3-4-5, whose top card is the 5
            if not (
                (ge1 >> np.uint64(4 * r0))
                & (ge1 >> np.uint64(4 * r1))
                & (ge1 >> np.uint64(4 * r2))
                & (ge1 >> np.uint64(4 * r3))
                & (ge1 >> np.uint64(4 * r4))
                & np.uint64(1)
            ):
                continue
            b0 = _rank_bits(hand, r0)
            b1 = _rank_bits(hand, r1)
            b2 = _rank_bits(hand, r2)
            b3 = _rank_bits(hand, r3)
            b4 = _rank_bits(hand, r4)
            if (b0 & b1 & b2 & b3 & b4) == np.uint64(0) and _popcount(b0) + _popcount(b1) + _popcount(b2) + _popcount(
                b3
            ) + _popcount(b4) == 5:
                # one card per rank, not all one suit: the only choice
                play = (
                    (b0 << np.uint64(4 * r0))
                    | (b1 << np.uint64(4 * r1))
                    | (b2 << np.uint64(4 * r2))
                    | (b3 << np.uint64(4 * r3))
                    | (b4 << np.uint64(4 * r4))
                )
                n = _emit_known(out, n, play, K_STRAIGHT, r4, cur_kind, cur_key)
                continue
            # an odometer over the suits each rank holds (at most 4 ** 5 choices, usually far fewer)
            for s0 in range(4):
                if not (b0 >> np.uint64(s0)) & np.uint64(1):
                    continue
                for s1 in range(4):
                    if not (b1 >> np.uint64(s1)) & np.uint64(1):
                        continue
                    for s2 in range(4):
                        if not (b2 >> np.uint64(s2)) & np.uint64(1):
                            continue
                        for s3 in range(4):
                            if not (b3 >> np.uint64(s3)) & np.uint64(1):
                                continue
                            for s4 in range(4):
                                if not (b4 >> np.uint64(s4)) & np.uint64(1):
                                    continue
                                if s0 == s1 and s1 == s2 and s2 == s3 and s3 == s4:
                                    continue
                                play = (
                                    (np.uint64(1) << np.uint64(4 * r0 + s0))
                                    | (np.uint64(1) << np.uint64(4 * r1 + s1))
                                    | (np.uint64(1) << np.uint64(4 * r2 + s2))
                                    | (np.uint64(1) << np.uint64(4 * r3 + s3))
                                    | (np.uint64(1) << np.uint64(4 * r4 + s4))
                                )
                                n = _emit_known(out, n, play, K_STRAIGHT, r4, cur_kind, cur_key)
    # flushes and straight flushes: every five cards of one suit
    if _wanted(K_FLUSH, cur_kind) or _wanted(K_STRAIGHT_FLUSH, cur_kind):
        for su in range(4):
            suit = (hand >> np.uint64(su)) & RANK_LOW_BITS
            if _popcount(suit) < 5:
                continue
            # five of the suit's cards: the lowest four by nested bit loops, the fifth above them
            sa = suit
            while sa:
                a = sa & (~sa + np.uint64(1))
                sa &= sa - np.uint64(1)
                sb = sa
                while sb:
                    b = sb & (~sb + np.uint64(1))
                    sb &= sb - np.uint64(1)
                    sc = sb
                    while sc:
                        c = sc & (~sc + np.uint64(1))
                        sc &= sc - np.uint64(1)
                        sd = sc
                        while sd:
                            d = sd & (~sd + np.uint64(1))
                            sd &= sd - np.uint64(1)
                            se = sd
                            while se:
                                e = se & (~se + np.uint64(1))
                                se &= se - np.uint64(1)
                                play = (a | b | c | d | e) << np.uint64(su)
                                n = _emit(out, n, play, cur_kind, cur_key, bv)
    return n
