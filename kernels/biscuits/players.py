"""Biscuits kernels, players: the card-play policies (random, greedy, planning) with the hand planner, the
partner pass (BI-4) and the special actions' policies; a strategy is data.
"""

from __future__ import annotations

import numpy as np

from .. import rng
from .._jit import jit, jit_inline
from ..bits import RANK_LOW_BITS, rank_counts, ranks_with_count, split_sets
from ..bits import high_index as _high_index
from ..bits import low_index as _low_index
from ..bits import popcount as _popcount
from ..bits import rank_bits as _rank_bits
from .combinations import K_NONE, V_ACE_LOW, beats, classify, generate_moves

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
PLAY_SEARCH = 3  # determinized Monte Carlo at the root with planning rollouts (search.py); its row is
# (PLAY_SEARCH, pass, exchange, handover, budget, exploration * 1000)
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
H_PLAYS = 5  # the plays of the fewest-plays split of the hand after the pass (plan_hand): a strength a player counts
H_FIELDS = 6
MAX_HCP = 40
MAX_PLAYS = 13  # a 13-card hand splits into at most 13 plays
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
