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

from . import rng
from ._jit import borrowed, jit, jit_inline, pjit, prange
from .bits import RANK_LOW_BITS, rank_counts, ranks_with_count, sort_prefix, split_sets
from .bits import high_index as _high_index
from .bits import low_index as _low_index
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


# =============================================================================================
# Hands and games (BI-3 .. BI-12)
# =============================================================================================
# Seats 0..3 clockwise; partners sit opposite, so a seat's team is seat % 2 (0 = N-S, 1 = E-W).
# Strategies are data: strat[seat] = (play policy, pass policy, plain-exchange policy, lead-handover policy).


PLAY_RANDOM = 0  # uniform over the legal actions (passing included when following)
PLAY_GREEDY = 1  # go out when possible; never beat the partner; lead the longest play with the lowest
# top card; follow with the cheapest beating play (lowest type, then key)
PLAY_PLANNING = 2  # split the hand into the fewest plays (plan_hand) and play only whole ones: go out when
# possible; never beat the partner; with the partner on 1 card lead the lowest single;
# lead the longest whole play with the lowest top card; follow with the cheapest whole
# play; break combinations only when an opponent holds <= PLAN_THRESHOLD cards
PLAN_THRESHOLD = 3
PASS_RANDOM = 0  # two cards at random
PASS_LOWEST = 1  # the two lowest cards
PASS_SINGLES = 2  # the two lowest cards that pair with nothing (else the lowest)
PASS_KEEP_COMBOS = 3  # the two lowest cards left as singles by plan_hand (else the lowest): keeps combinations
PASS_PAIR = 4  # a pair: the two lowest cards of the lowest rank held at least twice (else the two lowest)
PASS_CONNECTORS = 5  # suited connectors: the lowest two cards of one suit with adjacent ranks (else the two lowest)
ACT_NEVER = 0
ACT_RANDOM = 1  # a coin for the exchange/handover, random cards
ACT_LOWEST = 2  # plain exchange: send the lowest card, return the lowest; handover when the partner holds fewer cards

H_POINTS = 0  # per-seat record of a hand: the seat's team points this hand (both partners carry them)
H_OUT_FIRST = 1
H_STARTER = 2
H_OUT_SECOND = 3
H_HCP = 4  # the hand's high-card points after the pass (A 4, K 3, Q 2, J 1): a simple strength measure
H_FIELDS = 5
MAX_HCP = 40
MAX_TURNS = 4000


@jit_inline
def _lowest_of(hand, first, k):
    """The ``k`` lowest cards of ``hand`` taken from ``first`` (a subset) before the others."""
    out = np.uint64(0)
    for src in (first, hand):
        src &= ~out
        while src and _popcount(out) < k:
            low = src & (~src + np.uint64(1))
            out |= low
            src &= ~low
    return out


@jit
def _lowest_cards(hand, k, avoid_pairs):
    """The k lowest cards (by rank, then code); with avoid_pairs, cards whose rank is single first."""
    first = np.uint64(0)
    if avoid_pairs:
        lone = ranks_with_count(rank_counts(hand), 1)  # bit 4r: rank r held once
        first = hand & (lone | (lone << np.uint64(1)) | (lone << np.uint64(2)) | (lone << np.uint64(3)))
    return _lowest_of(hand, first, k)


@jit
def _random_cards(st, hand, k):
    out = np.uint64(0)
    for _ in range(k):
        rest = hand & ~out
        pick = rng.below(st, _popcount(rest))
        for c in range(52):
            if (rest >> np.uint64(c)) & np.uint64(1):
                if pick == 0:
                    out |= np.uint64(1) << np.uint64(c)
                    break
                pick -= 1
    return out


@jit
def _choose_play(st, policy, hand, n_hand, cur_kind, cur_key, partner_last, moves, n, bv):
    """Index in moves[:n] (sorted by mask) or -1 to pass."""
    if policy == PLAY_RANDOM:
        if cur_kind == K_NONE:
            return rng.below(st, n)
        return rng.below(st, n + 1) - 1
    for i in range(n):
        if _popcount(moves[i]) == n_hand:
            return i  # go out
    if cur_kind != K_NONE and partner_last:
        return -1  # never beat the partner
    best = -1
    best_a = 1 << 40
    for i in range(n):
        kind, key = classify(moves[i], bv)
        if cur_kind == K_NONE:
            top = 0
            for c in range(52):
                if (moves[i] >> np.uint64(c)) & np.uint64(1):
                    top = c
            a = (5 - _popcount(moves[i])) * 64 + top  # longest first, then the lowest top card
        else:
            a = (kind % 10) * (1 << 24) + key
        if a < best_a:
            best_a = a
            best = i
    return best


MAX_PLAN = 16


@jit
def _take_straights(rest, buf, n, bv):
    """Repeatedly take the lowest straight (5 consecutive ranks, the lowest card of each rank)."""
    while True:
        held = rank_counts(rest)
        held = (held | (held >> np.uint64(1)) | (held >> np.uint64(2))) & RANK_LOW_BITS  # bit 4r: rank r held
        low = -1
        if bv[V_ACE_LOW] == 1 and (held & np.uint64(0x1000000001111)) == np.uint64(0x1000000001111):
            low = 12  # A-2-3-4-5 (A is rank 12)
        else:
            runs = (
                held
                & (held >> np.uint64(4))
                & (held >> np.uint64(8))
                & (held >> np.uint64(12))
                & (held >> np.uint64(16))
            )
            if runs:
                low = _low_index(runs) // 4
        if low < 0:
            return rest, n
        elem = np.uint64(0)
        for i in range(5):
            r = (low + i) % 13  # 12, 0, 1, 2, 3 for A-2-3-4-5
            nib = _rank_bits(rest, r)
            elem |= (nib & (~nib + np.uint64(1))) << np.uint64(4 * r)
        buf[n] = elem
        n += 1
        rest &= ~elem


@jit
def _take_flushes(rest, buf, n):
    """For each suit, while it holds 5 cards, take its 5 lowest."""
    for su in range(4):
        suit = rest & (RANK_LOW_BITS << np.uint64(su))
        while _popcount(suit) >= 5:
            elem = np.uint64(0)
            for _ in range(5):
                low = suit & (~suit + np.uint64(1))
                elem |= low
                suit &= ~low
            buf[n] = elem
            n += 1
            rest &= ~elem
    return rest, n


@jit
def plan_hand(hand, plan, alt, bv):
    """Split a hand into few plays (BI-6): fours kept apart, then straights first, flushes first or neither,
    then triples with the lowest pair as full houses, pairs and singles; each four takes the lowest single as
    its kicker (a Quad). The split with the fewest plays wins (ties: the earlier attempt). Returns the count.

    The third attempt (neither) is the first when no straight was taken, and the second when no flush was;
    it is only worked out when it can differ."""
    fours = ranks_with_count(rank_counts(hand), 4)
    base = hand
    n_fours = 0
    f = fours
    while f:
        r = _low_index(f)
        f &= f - np.uint64(1)
        base &= ~(np.uint64(15) << np.uint64(r))
        n_fours += 1
    best = 99
    took_straight = False
    took_flush = False
    for attempt in range(3):
        if attempt == 2 and not (took_straight and took_flush):
            break
        n = 0
        f = fours
        while f:
            r = _low_index(f)
            f &= f - np.uint64(1)
            alt[n] = np.uint64(15) << np.uint64(r)
            n += 1
        rest = base
        if attempt == 0:
            rest, n = _take_straights(rest, alt, n, bv)
            took_straight = n > n_fours
        elif attempt == 1:
            rest, n = _take_flushes(rest, alt, n)
            took_flush = n > n_fours
        n = split_sets(rest, alt, n, 52)
        for i in range(n_fours):
            low = -1
            for j in range(n):
                if _popcount(alt[j]) == 1 and (low < 0 or alt[j] < alt[low]):
                    low = j
            if low >= 0:
                alt[i] |= alt[low]
                for j in range(low, n - 1):
                    alt[j] = alt[j + 1]
                n -= 1
        if n < best:
            best = n
            for i in range(n):
                plan[i] = alt[i]
    return best


@jit
def _planning_play(hand, n_hand, cur_kind, cur_key, partner_last, partner_count, min_opp, moves, bv, plan, n_plan):
    """The planning player's play (a card mask; 0 = pass), see PLAY_PLANNING; ``plan[:n_plan]`` is
    :func:`plan_hand` of ``hand``.

    Only what the player looks at is computed: the whole hand (going out), the whole plan elements (each is a
    combination, so it is legal exactly when it beats the current play) and, only when an opponent is close to
    going out and nothing whole beats, every legal play. Ties go to the lowest mask, as a scan of the sorted
    legal plays would give.
    """
    kind, key = classify(hand, bv)
    if beats(cur_kind, cur_key, kind, key):
        return hand  # go out
    if cur_kind != K_NONE and partner_last:
        return np.uint64(0)  # never beat the partner
    best_m = np.uint64(0)
    best_a = 1 << 40
    if cur_kind == K_NONE:
        if partner_count == 1:
            return hand & (~hand + np.uint64(1))  # help the partner out: our lowest single
        for j in range(n_plan):
            m = plan[j]
            kind, key = classify(m, bv)
            if kind == K_NONE:
                continue  # a four left without a kicker is no play (BI-6)
            a = (5 - _popcount(m)) * 64 + _high_index(m)  # the longest, then the lowest top card
            if a < best_a or (a == best_a and m < best_m):
                best_a = a
                best_m = m
        if best_m:
            return best_m
        return hand & (~hand + np.uint64(1))  # nothing whole to lead: our lowest single
    for j in range(n_plan):  # the cheapest whole plan element that beats
        m = plan[j]
        kind, key = classify(m, bv)
        if beats(cur_kind, cur_key, kind, key):
            a = (kind % 10) * (1 << 24) + key
            if a < best_a or (a == best_a and m < best_m):
                best_a = a
                best_m = m
    if best_a < (1 << 40) or min_opp > PLAN_THRESHOLD:
        return best_m
    n = generate_moves(hand, cur_kind, cur_key, moves, bv)
    for i in range(n):  # an opponent is close to going out: break combinations
        kind, key = classify(moves[i], bv)
        a = (kind % 10) * (1 << 24) + key
        if a < best_a or (a == best_a and moves[i] < best_m):
            best_a = a
            best_m = moves[i]
    return best_m


@jit
def _pair_pass(hand):
    """PASS_PAIR: the two lowest cards of the lowest rank held two or more times, else the two lowest cards."""
    cnt = rank_counts(hand)
    multi = ranks_with_count(cnt, 2) | ranks_with_count(cnt, 3) | ranks_with_count(cnt, 4)
    if multi == np.uint64(0):
        return _lowest_of(hand, np.uint64(0), 2)
    r = _low_index(multi)  # = 4 * rank
    return _lowest_of(hand, hand & (np.uint64(15) << np.uint64(r)), 2)


@jit
def _connectors_pass(hand):
    """PASS_CONNECTORS: two cards of one suit with adjacent ranks, the lowest such (by rank, then suit), else
    the two lowest cards."""
    adjacent = hand & (hand >> np.uint64(4))  # bit 4r + s: ranks r and r + 1 of suit s both held
    if adjacent == np.uint64(0):
        return _lowest_of(hand, np.uint64(0), 2)
    c = _low_index(adjacent)
    return (np.uint64(1) << np.uint64(c)) | (np.uint64(1) << np.uint64(c + 4))


@jit
def _keep_combos_pass(hand, plan, alt, bv):
    """PASS_KEEP_COMBOS: the two lowest cards that plan_hand leaves as singles, else the lowest cards."""
    n_plan = plan_hand(hand, plan, alt, bv)
    singles = np.uint64(0)
    for j in range(n_plan):
        if _popcount(plan[j]) == 1:
            singles |= plan[j]
    return _lowest_of(hand, singles, 2)


@jit
def play_hand(hands, counts, starter, strat, st, rec, moves, bv):
    """One hand from dealt ``hands`` (BI-4 .. BI-11) with the partner pass; fills ``rec[4, H_FIELDS]``; returns
    (team 0 points, team 1 points)."""
    return play_hand_in_game(hands, counts, starter, strat, st, rec, moves, bv, True, 0, 0, 1 << 40)


@jit
def play_hand_in_game(hands, counts, starter, strat, st, rec, moves, bv, do_pass, score0, score1, target):
    """:func:`play_hand` inside a game: ``do_pass`` says whether the partners pass (variant pass_every_hand),
    and under variant game_end_check=immediate the hand stops as soon as a team's game score (``score0``,
    ``score1`` before the hand, plus this hand's points) reaches ``target``."""
    for s in range(4):
        for f in range(H_FIELDS):
            rec[s, f] = 0
    rec[starter, H_STARTER] = 1
    # BI-4: both partners pass two cards at the same time
    give = np.zeros(4, dtype=np.uint64)
    plan = np.zeros(MAX_PLAN, dtype=np.uint64)
    alt = np.zeros(MAX_PLAN, dtype=np.uint64)
    # each seat's plan (plan_hand) is kept until its hand changes: plan_of[s] is the hand it was made for
    plans = np.zeros((4, MAX_PLAN), dtype=np.uint64)
    plan_n = np.zeros(4, dtype=np.int64)
    plan_of = np.zeros(4, dtype=np.uint64)
    for s in range(4):
        pol = strat[s, 1]
        if not do_pass:
            give[s] = 0
        elif pol == PASS_RANDOM:
            give[s] = _random_cards(st, hands[s], 2)
        elif pol == PASS_KEEP_COMBOS:
            give[s] = _keep_combos_pass(hands[s], plan, alt, bv)
        elif pol == PASS_PAIR:
            give[s] = _pair_pass(hands[s])
        elif pol == PASS_CONNECTORS:
            give[s] = _connectors_pass(hands[s])
        else:
            give[s] = _lowest_cards(hands[s], 2, pol == PASS_SINGLES)
    for s in range(4):
        hands[s] = (hands[s] & ~give[s]) | give[(s + 2) % 4]
    for s in range(4):
        hcp = 0
        for r in range(9, 13):  # J, Q, K, A
            hcp += (r - 8) * _popcount(_rank_bits(hands[s], r))
        rec[s, H_HCP] = hcp
    points = np.zeros(2, dtype=np.int64)
    out_count = 0
    leader = starter
    cur_kind = K_NONE
    cur_key = 0
    last = leader
    passes = 0
    turn = leader
    active = 4
    locks = bv[V_PASS_LOCKS_OUT] == 1
    locked = 0  # seats out of this trick by a pass (variant pass_locks_out)
    for _ in range(MAX_TURNS):
        hand = hands[turn]
        partner_last = cur_kind != K_NONE and last == (turn + 2) % 4
        play = np.uint64(0)  # 0 = pass
        if strat[turn, 0] == PLAY_PLANNING:
            min_opp = 99
            for o in ((turn + 1) % 4, (turn + 3) % 4):
                if 0 < counts[o] < min_opp:
                    min_opp = counts[o]
            if plan_of[turn] != hand or plan_n[turn] == 0:
                plan_n[turn] = plan_hand(hand, plans[turn], alt, bv)
                plan_of[turn] = hand
            play = _planning_play(
                hand,
                counts[turn],
                cur_kind,
                cur_key,
                partner_last,
                counts[(turn + 2) % 4],
                min_opp,
                moves,
                bv,
                plans[turn],
                plan_n[turn],
            )
        else:
            n = generate_moves(hand, cur_kind, cur_key, moves, bv)
            sort_prefix(moves, n)
            pick = -1
            if n > 0:
                pick = _choose_play(
                    st, strat[turn, 0], hand, counts[turn], cur_kind, cur_key, partner_last, moves, n, bv
                )
            if cur_kind == K_NONE and pick < 0:
                pick = 0
            if pick >= 0:
                play = moves[pick]
        if play:
            kind, key = classify(play, bv)
            hands[turn] = hand & ~play
            counts[turn] -= _popcount(play)
            cur_kind = kind
            cur_key = key
            last = turn
            passes = 0
            if counts[turn] == 0:
                # BI-8: the team scores 1 per card of the opponent holding more
                opp = max(counts[(turn + 1) % 4], counts[(turn + 3) % 4])
                points[turn % 2] += opp
                out_count += 1
                active -= 1
                rec[turn, H_OUT_FIRST if out_count == 1 else H_OUT_SECOND] = 1
                if out_count == 2:
                    break  # BI-9: the hand ends at once
                if bv[V_END_IMMEDIATE] == 1 and (score0 + points[0] >= target or score1 + points[1] >= target):
                    break  # variant game_end_check=immediate: the game is over
        else:
            passes += 1
            if locks:
                locked |= 1 << turn
        if locks:
            # variant pass_locks_out: the trick ends when every other player holding cards has passed once
            trick_over = True
            for s in range(4):
                if s != last and counts[s] > 0 and not (locked >> s) & 1:
                    trick_over = False
        else:
            trick_over = passes >= active - (1 if counts[last] > 0 else 0)
        if trick_over:
            # the trick is over: `last` won it; BI-10 special action, then BI-11 the next leader
            winner = last
            fancy = cur_kind // 10 == 1
            partner = (winner + 2) % 4
            nxt = -1
            if fancy:
                if counts[partner] > 0:
                    pol = strat[winner, 3]
                    hand_over = False
                    if pol == ACT_RANDOM:
                        hand_over = rng.below(st, 2) == 1
                    elif pol == ACT_LOWEST:
                        hand_over = counts[winner] == 0 or counts[partner] < counts[winner]
                    if hand_over:
                        nxt = partner
            else:
                a = (winner + 1) % 4  # the opponent at the winner's left
                b = (a + 2) % 4
                if counts[a] > 0 and counts[b] > 0:
                    pol = strat[a, 2]
                    act = False
                    if pol == ACT_RANDOM:
                        act = rng.below(st, 2) == 1
                    elif pol == ACT_LOWEST:
                        act = True
                    if act:
                        sent = (
                            _random_cards(st, hands[a], 1) if pol == ACT_RANDOM else _lowest_cards(hands[a], 1, False)
                        )
                        hands[a] &= ~sent
                        hands[b] |= sent
                        pb = strat[b, 2]
                        back = _random_cards(st, hands[b], 1) if pb == ACT_RANDOM else _lowest_cards(hands[b], 1, False)
                        hands[b] &= ~back
                        hands[a] |= back
            if nxt < 0:
                nxt = winner
                while counts[nxt] == 0:
                    nxt = (nxt + 1) % 4
            cur_kind = K_NONE
            cur_key = 0
            passes = 0
            locked = 0
            turn = nxt
            last = nxt
            continue
        turn = (turn + 1) % 4
        while counts[turn] == 0 or (locked >> turn) & 1:
            turn = (turn + 1) % 4
    for s in range(4):
        rec[s, H_POINTS] = points[s % 2]
    return points[0], points[1]


_shuffle_pack = rng.unrolled_shuffle(52, 52)


@jit
def deal(st, deck, hands, counts, starter):
    _shuffle_pack(st, deck)  # rng.partial_shuffle(st, deck, 52), unrolled
    for s in range(4):
        hands[s] = 0
        counts[s] = 13
    for i in range(52):
        s = (starter + i) % 4
        hands[s] |= np.uint64(1) << np.uint64(deck[i])


@jit
def next_starter(prev, score0, score1):
    """BI-3: clockwise from the previous Starter, the first player of a team that is behind or level."""
    for k in range(1, 5):
        s = (prev + k) % 4
        mine = score0 if s % 2 == 0 else score1
        theirs = score1 if s % 2 == 0 else score0
        if mine <= theirs:
            return s
    return (prev + 1) % 4


@jit
def next_starter_rule(prev, score0, score1, last_start, bv):
    """The next hand's Starter under the variant in force; ``last_start[team]`` is that team's last Starter
    (-1 before it has had one) and is updated.

    Variant starter_rule=trailing_team_alternates [OURS reading of 2(c)5]: the team that starts is the one
    BI-3 picks (behind, or on level scores the team clockwise next to the previous Starter); inside it the two
    players take turns, "from the last Starter in the partnership"; a team's first Starter is the one BI-3 picks.
    """
    s = next_starter(prev, score0, score1)
    if bv[V_STARTER_RULE] == 1 and last_start[s % 2] >= 0:
        s = (last_start[s % 2] + 2) % 4
    last_start[s % 2] = s
    return s


@jit_inline
def _game_over(score0, score1, n_hands, target, max_hands):
    """BI-12: a team has reached the target or the hands are played, and the scores are not level (ties play
    on; a safety stop after many extra hands, never reached in practice)."""
    done = score0 >= target or score1 >= target or n_hands >= max_hands
    return (done and score0 != score1) or n_hands >= 4 * max_hands + 40


# count rows: per seat C_FIELDS, then per team, then game fields
C_POINTS = 0  # team points credited to this seat's team in hands (sum, and sum of squares)
C_POINTS_SQ = 1
C_OUT_FIRST = 2
C_STARTER = 3
C_OUT_FIRST_AS_STARTER = 4
C_FIELDS = 5
T_GAMES_WON = 0
T_FIELDS = 1
M_HANDS = 0
M_GAMES = 1
M_FIELDS = 2


def counts_width() -> int:
    return 4 * C_FIELDS + 2 * T_FIELDS + M_FIELDS + 2 * (MAX_HCP + 1)


@jit_inline
def _deal_and_play(
    st_deal, deck, hands, counts, starter, strat, st_play, rec, moves, bv, n_hands, score0, score1, target
):
    """Deal hand number ``n_hands`` of a game (0 = the first) and play it: the points of each team."""
    for i in range(52):
        deck[i] = i
    deal(st_deal, deck, hands, counts, starter)
    do_pass = n_hands == 0 or bv[V_PASS_FIRST_ONLY] == 0
    return play_hand_in_game(hands, counts, starter, strat, st_play, rec, moves, bv, do_pass, score0, score1, target)


@pjit
def simulate_chunks(chunk_ids, chunk_size, n_trials, key0, key1, strat, unit_game, target, max_hands, bv, out):
    """Each trial is one game to ``target`` points or ``max_hands`` hands (BI-12; ties play on), or one hand
    (``unit_game = 0``) with a random Starter."""
    for ci in prange(chunk_ids.shape[0]):
        c = chunk_ids[ci]
        start = c * chunk_size
        stop = min(start + chunk_size, n_trials)
        hands = np.zeros(4, dtype=np.uint64)
        counts = np.zeros(4, dtype=np.int64)
        rec = np.zeros((4, H_FIELDS), dtype=np.int64)
        moves = np.zeros(MAX_MOVES, dtype=np.uint64)
        deck = np.arange(52, dtype=np.int64)
        last_start = np.zeros(2, dtype=np.int64)
        st_deal = rng.new_state()
        st_play = rng.new_state()
        _simulate_range(
            start,
            stop,
            key0,
            key1,
            strat,
            unit_game,
            target,
            max_hands,
            bv,
            out[ci],
            (hands, counts, rec, moves, deck, last_start, st_deal, st_play),
        )


@jit
def _simulate_range(start, stop, key0, key1, strat, unit_game, target, max_hands, bv, row, bufs):
    """Trials ``start .. stop-1`` of :func:`simulate_chunks` into one count row, on borrowed views of the
    arguments: no reference counting in the loop (kernels._jit.borrowed)."""
    strat, bv, row, bufs = borrowed((strat, bv, row, bufs))
    hands, counts, rec, moves, deck, last_start, st_deal, st_play = bufs
    base = 4 * C_FIELDS
    for t in range(start, stop):
        rng.seed_state(st_deal, key0, key1, np.uint64(t), np.uint64(rng.STREAM_DEAL))
        rng.seed_state(st_play, key0, key1, np.uint64(t), np.uint64(rng.STREAM_STRATEGY))
        starter = rng.below(st_deal, 4)  # BI-3: the first Starter at random
        score0 = 0
        score1 = 0
        n_hands = 0
        last_start[:] = -1
        last_start[starter % 2] = starter
        while True:
            p0, p1 = _deal_and_play(
                st_deal,
                deck,
                hands,
                counts,
                starter,
                strat,
                st_play,
                rec,
                moves,
                bv,
                n_hands,
                score0,
                score1,
                target if unit_game == 1 else 1 << 40,
            )
            score0 += p0
            score1 += p1
            n_hands += 1
            row[base + 2 * T_FIELDS + M_HANDS] += 1
            for s in range(4):
                b = s * C_FIELDS
                row[b + C_POINTS] += rec[s, H_POINTS]
                row[b + C_POINTS_SQ] += rec[s, H_POINTS] * rec[s, H_POINTS]
                row[b + C_OUT_FIRST] += rec[s, H_OUT_FIRST]
                row[b + C_STARTER] += rec[s, H_STARTER]
                row[b + C_OUT_FIRST_AS_STARTER] += rec[s, H_OUT_FIRST] * rec[s, H_STARTER]
                hb = base + 2 * T_FIELDS + M_FIELDS + 2 * min(rec[s, H_HCP], MAX_HCP)
                row[hb] += 1
                row[hb + 1] += rec[s, H_OUT_FIRST]
            if unit_game == 0 or _game_over(score0, score1, n_hands, target, max_hands):
                break
            starter = next_starter_rule(starter, score0, score1, last_start, bv)
        if unit_game == 1:
            row[base + 2 * T_FIELDS + M_GAMES] += 1
            if score0 > score1:
                row[base + T_GAMES_WON] += 1
            elif score1 > score0:
                row[base + T_FIELDS + T_GAMES_WON] += 1


PAIR_STATS = 7  # n, points A, points B, sum d, sum d^2, first out A, first out B (for the switching team)


@pjit
def compare_chunks(chunk_ids, chunk_size, n_trials, key0, key1, strat_a, strat_b, bv, out):
    """One hand per trial, played three times from the same deal and draws: everyone on A; team N-S on B;
    team E-W on B. ``out[chunk]`` = ``[team][PAIR_STATS]`` for the team that switched."""
    for ci in prange(chunk_ids.shape[0]):
        c = chunk_ids[ci]
        start = c * chunk_size
        stop = min(start + chunk_size, n_trials)
        hands0 = np.zeros(4, dtype=np.uint64)
        hands = np.zeros(4, dtype=np.uint64)
        counts = np.zeros(4, dtype=np.int64)
        rec = np.zeros((4, H_FIELDS), dtype=np.int64)
        moves = np.zeros(MAX_MOVES, dtype=np.uint64)
        deck = np.arange(52, dtype=np.int64)
        mixed = strat_a.copy()
        st_deal = rng.new_state()
        st_play = rng.new_state()
        row = out[ci]
        for t in range(start, stop):
            rng.seed_state(st_deal, key0, key1, np.uint64(t), np.uint64(rng.STREAM_DEAL))
            starter = rng.below(st_deal, 4)
            for i in range(52):
                deck[i] = i
            deal(st_deal, deck, hands0, counts, starter)
            base_pts = np.zeros(2, dtype=np.int64)
            base_first = np.zeros(2, dtype=np.int64)
            for arm in range(3):
                for s in range(4):
                    hands[s] = hands0[s]
                    counts[s] = 13
                    mixed[s] = strat_b[s] if (arm > 0 and s % 2 == arm - 1) else strat_a[s]
                rng.seed_state(st_play, key0, key1, np.uint64(t), np.uint64(rng.STREAM_STRATEGY))
                p0, p1 = play_hand(hands, counts, starter, mixed, st_play, rec, moves, bv)
                first_team = -1
                for s in range(4):
                    if rec[s, H_OUT_FIRST]:
                        first_team = s % 2
                if arm == 0:
                    base_pts[0] = p0
                    base_pts[1] = p1
                    base_first[0] = 1 if first_team == 0 else 0
                    base_first[1] = 1 if first_team == 1 else 0
                else:
                    team = arm - 1
                    pts = p0 if team == 0 else p1
                    d = pts - base_pts[team]
                    b = team * PAIR_STATS
                    row[b] += 1
                    row[b + 1] += base_pts[team]
                    row[b + 2] += pts
                    row[b + 3] += d
                    row[b + 4] += d * d
                    row[b + 5] += base_first[team]
                    row[b + 6] += 1 if first_team == team else 0


@pjit
def win_table_chunks(chunk_ids, chunk_size, n_trials, key0, key1, strat, target, max_hands, bv, out):
    """The game win table: each trial starts a game at a random state (N-S score, E-W score, hands played)
    of the grid ``0 <= score < target``, ``0 <= hands < max_hands``, with a random Starter, and plays it to
    the end (BI-12). ``out[chunk]`` = ``[state][2]``: games started there, and games N-S won."""
    for ci in prange(chunk_ids.shape[0]):
        c = chunk_ids[ci]
        start = c * chunk_size
        stop = min(start + chunk_size, n_trials)
        hands = np.zeros(4, dtype=np.uint64)
        counts = np.zeros(4, dtype=np.int64)
        rec = np.zeros((4, H_FIELDS), dtype=np.int64)
        moves = np.zeros(MAX_MOVES, dtype=np.uint64)
        deck = np.arange(52, dtype=np.int64)
        last_start = np.zeros(2, dtype=np.int64)
        st_deal = rng.new_state()
        st_play = rng.new_state()
        row = out[ci]
        for t in range(start, stop):
            rng.seed_state(st_deal, key0, key1, np.uint64(t), np.uint64(rng.STREAM_DEAL))
            rng.seed_state(st_play, key0, key1, np.uint64(t), np.uint64(rng.STREAM_STRATEGY))
            state = rng.below(st_deal, target * target * max_hands)
            score0 = state % target
            score1 = (state // target) % target
            n_hands = state // (target * target)
            starter = rng.below(st_deal, 4)
            last_start[:] = -1  # the earlier Starters of a game joined midway are unknown
            last_start[starter % 2] = starter
            while True:
                p0, p1 = _deal_and_play(
                    st_deal,
                    deck,
                    hands,
                    counts,
                    starter,
                    strat,
                    st_play,
                    rec,
                    moves,
                    bv,
                    n_hands,
                    score0,
                    score1,
                    target,
                )
                score0 += p0
                score1 += p1
                n_hands += 1
                if _game_over(score0, score1, n_hands, target, max_hands):
                    break
                starter = next_starter_rule(starter, score0, score1, last_start, bv)
            row[2 * state] += 1
            if score0 > score1:
                row[2 * state + 1] += 1
