"""Bismarck kernels, the rule-based players (BM-9): the heuristic card, the trump to name, the widow discard, the
round type to choose.
"""

from __future__ import annotations

import numpy as np

from .. import rng
from .._jit import jit, jit_inline
from ..bits import high_index, low_index, nth_bit, popcount
from ..dd import LANE, ONE, beats, lane
from .layout import PASS, S_RANDOM, SPADER, SPADES, SPEL, VALFRI
from .rules import _highest_ranked, _lowest_ranked, hcp


@jit_inline
def _is_master(c, unseen):
    """No unseen card of the same suit ranks above ``c``."""
    s = c >> 4
    above = lane(unseen, s) & ~((ONE << np.uint64((c & 15) + 1)) - ONE)
    return above == 0


@jit_inline
def heuristic_card(h, legal, row, k, trump, misere, unseen):
    """Sensible whist for the seat holding ``h`` (``unseen``: cards it has not seen, its own excluded)."""
    if misere:
        if k == 0:
            return _lowest_ranked(legal, -1)  # lead the lowest card
        cur = row[0]
        for i in range(1, k):
            if beats(row[i], cur, trump):
                cur = row[i]
        led = row[0] >> 4
        if h & (LANE << np.uint64(16 * led)):
            under = np.uint64(0)
            x = legal
            while x:
                low = x & (~x + ONE)
                x ^= low
                c = low_index(low)
                if not beats(c, cur, trump):
                    under |= low
            if under:
                return high_index(under)  # duck with the highest card that loses
            return high_index(legal)  # forced to win: win high
        return _highest_ranked(legal)  # void: throw the highest card
    if k == 0:
        # cash a master (in the longest suit holding one), else lead low from the longest side suit
        best = -1
        blen = -1
        for s in range(4):
            x = lane(legal, s)
            if x:
                c = s * 16 + high_index(x)
                if _is_master(c, unseen) and popcount(x) > blen:
                    best = c
                    blen = popcount(x)
        if best >= 0:
            return best
        for s in range(4):
            x = lane(legal, s)
            if x and s != trump and popcount(x) > blen:
                best = s * 16 + low_index(x)
                blen = popcount(x)
        if best >= 0:
            return best
        return low_index(legal)
    cur = row[0]
    for i in range(1, k):
        if beats(row[i], cur, trump):
            cur = row[i]
    led = row[0] >> 4
    following = (h & (LANE << np.uint64(16 * led))) != 0
    winners = np.uint64(0)
    x = legal
    while x:
        low = x & (~x + ONE)
        x ^= low
        if beats(low_index(low), cur, trump):
            winners |= low
    if following:
        if winners:
            if k == 2:
                return low_index(winners)  # last: win as cheaply as possible
            top = high_index(winners)
            if _is_master(top, unseen):
                return lowest_master(winners, unseen)
        return low_index(legal)  # second hand low
    if trump >= 0 and winners:
        return low_index(winners)  # ruff (or over-ruff) as cheaply as possible
    # discard: the lowest side card, from the shortest suit on equal ranks
    best = -1
    for s in range(4):
        x = lane(legal, s)
        if x and s != trump:
            c = s * 16 + low_index(x)
            if (
                best < 0
                or (c & 15) < (best & 15)
                or ((c & 15) == (best & 15) and popcount(x) < popcount(lane(legal, best >> 4)))
            ):
                best = c
    if best >= 0:
        return best
    return low_index(legal)


@jit_inline
def lowest_master(x, unseen):
    """The lowest card of ``x`` (one suit) that no unseen card beats."""
    y = x
    while y:
        low = y & (~y + ONE)
        y ^= low
        c = low_index(low)
        if _is_master(c, unseen):
            return c
    return high_index(x)


@jit
def name_trump(h, strat, st_play):
    """Round 3 after seeing the hand (3(c)3): the longest suit, ties to more high-card points, then the
    higher suit index; random players pick a suit at random."""
    if strat == S_RANDOM:
        return rng.below(st_play, 4)
    best = 0
    bkey = -1
    for s in range(4):
        x = lane(h, s)
        key = popcount(x) * 100 + hcp(x) * 4 + s  # hcp of a lane: that suit's points
        if key > bkey:
            bkey = key
            best = s
    return best


@jit
def discard(h, n, trump, misere, strat, st_play):
    """The widow discard (3(c)5): ``n`` cards out of ``h``. Heuristic: the lowest side cards (highest cards in
    the misère round); random: uniformly."""
    out = np.uint64(0)
    for _ in range(n):
        if strat == S_RANDOM:
            c = nth_bit(h, rng.below(st_play, popcount(h)))
        elif misere:
            c = _highest_ranked(h)
        else:
            c = _lowest_ranked(h, trump)
            if c < 0:
                c = low_index(h)
        bit = ONE << np.uint64(c)
        h ^= bit
        out |= bit
    return h, out


#: choose_round's modes: what the chooser has seen when it picks a round type or contract
SEEN_NOTHING = 0  # free order, the choice made before the deal (round3_trump_timing = before_deal)
SEEN_HAND = 1  # free order, the dealer's 16 cards (round3_trump_timing = after_seeing_hand)
SEEN_WIDOW = 2  # Swedish: forehand's contract, from the 4 face-up cards alone


@jit
def choose_round(seen, remaining, mode, strat, st):
    """The round type (0..3) that a dealer (free order, 3(c)9) or forehand (the Swedish contract, 3(c)10) picks
    among ``remaining`` (bit r: type r not yet played in this cycle, at least one bit set), from the cards
    ``seen`` under ``mode`` (SEEN_*).

    Random players pick uniformly (no draw when one type is left). The others:

    * ``SEEN_NOTHING``: the lowest type left (a blind choice cannot use the cards, so any order is as good);
    * ``SEEN_HAND`` (16 cards; the dealer needs 8 tricks in rounds 1-3, and may take 6 in the misère round):
      round 4 with at most 9 high-card points (a hand averages 12.3), round 3 with a suit of 6 or more,
      round 1 with 15 points or more, round 2 with a suit of 5 or more; else the lowest type left;
    * ``SEEN_WIDOW`` (forehand takes the 4 cards into the hand): Pass with at most 1 point among them, Valfri
      with 3 cards of a suit or 2 holding 3 points or more, Spader with 2 spades, Spel with 6 points or more;
      else the lowest contract left.

    Each rule applies only while its type is left."""
    n = popcount(np.uint64(remaining))
    if strat == S_RANDOM:
        pick = rng.below(st, n) if n > 1 else 0
        for r in range(4):
            if (remaining >> r) & 1:
                if pick == 0:
                    return r
                pick -= 1
    lowest = 0
    while not (remaining >> lowest) & 1:
        lowest += 1
    if mode == SEEN_NOTHING:
        return lowest
    points = hcp(seen)
    longest = 0
    pair_points = False
    for s in range(4):
        k = popcount(lane(seen, s))
        longest = max(longest, k)
        pair_points |= k >= 2 and hcp(lane(seen, s)) >= 3  # hcp counts in any lane
    if mode == SEEN_HAND:
        if (remaining >> 3) & 1 and points <= 9:
            return 3
        if (remaining >> 2) & 1 and longest >= 6:
            return 2
        if remaining & 1 and points >= 15:
            return 0
        if (remaining >> 1) & 1 and longest >= 5:
            return 1
        return lowest
    if (remaining >> PASS) & 1 and points <= 1:
        return PASS
    if (remaining >> VALFRI) & 1 and (longest >= 3 or pair_points):
        return VALFRI
    if (remaining >> SPADER) & 1 and popcount(lane(seen, SPADES)) >= 2:
        return SPADER
    if (remaining >> SPEL) & 1 and points >= 6:
        return SPEL
    return lowest
