"""Bismarck kernels, rules: quotas and scores (BM-6), the dealer schedule (BM-3), following suit and the trick's
winner (BM-4), high-card points.
"""

from __future__ import annotations

import numpy as np

from .._jit import jit_inline
from ..bits import high_index, low_index, popcount
from ..dd import LANE, ONE, lane
from .layout import V_PENALTY, V_ROUND4, V_RULESET, V_SCHEDULE, V_SCORING


@jit_inline
def quota(rtype, role, bv):
    """Rounds 1-3: the tricks a role must pass to score (dealer 8, others 4); round 4: the allowance.
    Swedish (3(c)10): forehand (role 1) 8, the others 4 in Spel, Spader and Valfri; in Pass forehand at most 4,
    the others at most 6."""
    if bv[V_RULESET] == 1:
        if rtype < 3:
            return 8 if role == 1 else 4
        return 4 if role == 1 else 6
    if rtype < 3:
        return 8 if role == 0 else 4
    r4 = bv[V_ROUND4]
    if r4 == 0:
        return 6 if role == 0 else 4
    if r4 == 1:
        return 4 if role == 0 else 6
    return 4


@jit_inline
def hand_score(rtype, role, tricks, bv):
    """BM-6: one role's score for one hand of round type ``rtype`` (0..3 = rounds 1..4). Swedish (3(c)10): one
    point a trick above the quota, minus one a trick below it (in Pass a trick below the allowance scores), so
    that every hand's scores add up to 0."""
    if bv[V_RULESET] == 1:
        q = quota(rtype, role, bv)
        return tricks - q if rtype < 3 else q - tricks
    if bv[V_SCORING] == 1:  # simplified
        return tricks if rtype < 3 else 4 - tricks
    q = quota(rtype, role, bv)
    if rtype < 3:
        s = tricks - q
        if s < 0 and bv[V_PENALTY] == 0:
            s = 0
        return s
    s = q - tricks
    if s < 0 and bv[V_ROUND4] == 0:  # the blog's "down to zero points for the round"
        s = 0
    return s


@jit_inline
def made_quota(rtype, role, tricks, bv):
    q = quota(rtype, role, bv)
    if rtype < 3:
        return tricks >= q
    return tricks <= q


@jit_inline
def schedule(first_dealer, h, bv):
    """BM-3 / 3(c)1: the dealer and round type (0..3) of hand ``h`` of a game. Where the round type is chosen
    (``fixed_round_order = false``, or forehand's contract in Swedish Bismarck) it is the fixed order's, and the
    deal replaces it (:func:`deal_round`). Swedish Bismarck passes the deal left every hand."""
    if bv[V_SCHEDULE] == 0 and bv[V_RULESET] == 0:
        return (first_dealer + h // 4) % 3, h % 4
    return (first_dealer + h) % 3, h % 4


@jit_inline
def _follow(h, lead_card, k):
    """Legal cards without the must-trump rule (BM-4), without branches: the led suit's cards if any. The
    simulated hand's form of :func:`kernels.dd.legal_cards` (which the solver uses, and the hand when
    must_trump is on) is slower here (docs/performance.md, Bismarck), so the two are kept and a test holds
    them equal."""
    f = h & ((LANE << np.uint64(16 * (lead_card >> 4))) & (np.uint64(0) - np.uint64(k > 0)))
    return f if f != 0 else h


@jit_inline
def trick_winner(row, leader, trump):
    """The seat that wins a complete 3-card trick ``row[:3]`` (BM-4): :func:`trick_winner_of`."""
    return trick_winner_of(row[0], row[1], row[2], leader, trump)


@jit_inline
def trick_winner_of(c0, c1, c2, leader, trump):
    """The seat that wins the trick ``c0 c1 c2`` led by ``leader`` (BM-4), by comparing rank keys without
    branches: trumps over the led suit over the rest, then rank."""
    led = c0 >> 4
    k0 = (c0 & 15) | 16 | (np.int64(led == trump) << 5)
    k1 = (c1 & 15) | (np.int64((c1 >> 4) == led) << 4) | (np.int64((c1 >> 4) == trump) << 5)
    k2 = (c2 & 15) | (np.int64((c2 >> 4) == led) << 4) | (np.int64((c2 >> 4) == trump) << 5)
    pos = np.int64(k1 > k0)
    kb = max(k0, k1)
    pos = 2 if k2 > kb else pos
    w = leader + pos
    return w - 3 if w >= 3 else w


@jit_inline
def _highest_ranked(x):
    """The card of ``x`` with the highest rank (ties: the lower suit index)."""
    best = -1
    for s in range(4):
        y = lane(x, s)
        if y:
            c = s * 16 + high_index(y)
            if best < 0 or (c & 15) > (best & 15):
                best = c
    return best


@jit_inline
def _lowest_ranked(x, skip_suit):
    """The card of ``x`` outside ``skip_suit`` with the lowest rank (ties: the lower suit index); -1 if none."""
    best = -1
    for s in range(4):
        y = lane(x, s)
        if y and s != skip_suit:
            c = s * 16 + low_index(y)
            if best < 0 or (c & 15) < (best & 15):
                best = c
    return best


RANK_J = np.uint64(sum(1 << (16 * s + 9) for s in range(4)))  # the jacks of all four lanes


@jit_inline
def hcp(h):
    """High-card points (J Q K A = 1 2 3 4) of a set, in any lanes: one count per rank, no
    branches (a bit-by-bit loop mispredicts on random hands; docs/performance.md)."""
    return (
        popcount(h & RANK_J)
        + 2 * popcount(h & (RANK_J << ONE))
        + 3 * popcount(h & (RANK_J << np.uint64(2)))
        + 4 * popcount(h & (RANK_J << np.uint64(3)))
    )
