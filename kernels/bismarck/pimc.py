"""Bismarck kernels, the solver players: hidden cards sampled consistently with what a seat has seen (PIMC), and the
card of the PIMC and double-dummy seats from the solver's card values.
"""

from __future__ import annotations

import numpy as np

from .. import dd, rng
from .._jit import jit, jit_inline
from ..bits import low_index, nth_bit, popcount
from ..dd import ONE, lane, legal_cards
from .layout import S_DD
from .players import heuristic_card


@jit
def sample_hidden(unknown, void_a, void_b, n_a, n_b, st, ways, out):
    """Deal the ``unknown`` cards uniformly at random among hole A (``n_a`` cards), hole B (``n_b``) and the
    rest (out of play), given suits that A and B cannot hold (bit masks over suits). Exact: a dynamic
    programme over suits counts the consistent deals, and suits are split in proportion to those counts.
    Writes A's and B's cards to ``out[0]``, ``out[1]``; returns False if no deal is consistent.

    Everything it reads is what the deciding seat knows (the unknown set, the voids, the hand sizes)."""
    if not hidden_ways(unknown, void_a, void_b, n_a, n_b, ways):
        return False
    draw_hidden(unknown, void_a, void_b, n_a, n_b, st, ways, out)
    return True


@jit_inline
def hidden_ways(unknown, void_a, void_b, n_a, n_b, ways):
    """The counting half of :func:`sample_hidden`: ``ways[s, a, b]``, the number of ways for suits s..3 of
    ``unknown`` to give exactly a cards to A and b to B (the rest out of play); False if no deal is consistent.
    It depends on the decision only, so a player drawing many layouts counts once."""
    n_w = -(n_a + n_b)
    for s in range(4):
        n_w += popcount(lane(unknown, s))
    if n_w < 0:
        return False
    for a in range(n_a + 1):
        for b in range(n_b + 1):
            ways[4, a, b] = 1.0 if (a == 0 and b == 0) else 0.0
    for s in range(3, -1, -1):
        k = popcount(lane(unknown, s))
        for a in range(n_a + 1):
            for b in range(n_b + 1):
                w = 0.0
                for x in range(min(a, k) + 1):
                    if x > 0 and (void_a >> s) & 1:
                        break
                    for y in range(min(b, k - x) + 1):
                        if y > 0 and (void_b >> s) & 1:
                            break
                        w += _binom(k, x) * _binom(k - x, y) * ways[s + 1, a - x, b - y]
                ways[s, a, b] = w
    return ways[0, n_a, n_b] > 0.0


@jit_inline
def draw_hidden(unknown, void_a, void_b, n_a, n_b, st, ways, out):
    """The drawing half of :func:`sample_hidden`, from the counts of :func:`hidden_ways` (which must have
    returned True): each suit's split in proportion to the deals it leaves, then which cards, uniformly."""
    a = n_a
    b = n_b
    out[0] = np.uint64(0)
    out[1] = np.uint64(0)
    for s in range(4):
        k = popcount(lane(unknown, s))
        u = rng.uniform(st) * ways[s, a, b]
        chosen_x = -1
        chosen_y = -1
        acc = 0.0
        for x in range(min(a, k) + 1):
            if x > 0 and (void_a >> s) & 1:
                break
            for y in range(min(b, k - x) + 1):
                if y > 0 and (void_b >> s) & 1:
                    break
                w = _binom(k, x) * _binom(k - x, y) * ways[s + 1, a - x, b - y]
                if w > 0.0:
                    chosen_x = x
                    chosen_y = y
                    acc += w
                    if u < acc:
                        break
            if u < acc:
                break
        x = chosen_x
        y = chosen_y
        # which cards: a uniformly random ordering of the suit's unknown cards, first x to A, next y to B
        cards = lane(unknown, s)
        for i in range(x + y):
            c = nth_bit(cards, rng.below(st, popcount(cards)))
            bit = ONE << np.uint64(c)
            cards ^= bit
            if i < x:
                out[0] |= bit << np.uint64(16 * s)
            else:
                out[1] |= bit << np.uint64(16 * s)
        a -= x
        b -= y


@jit_inline
def _binom(n, k):
    if k < 0 or k > n:
        return 0.0
    r = 1.0
    for i in range(k):
        r = r * (n - i) / (i + 1)
    return r


@jit
def solver_card(hands, p, leader, row, k, trump, must_trump, misere, ttk, ttg, bufs, cards, values, acc, nacc):
    """Double-dummy values (tricks of seat ``p``) of each legal card of ``p`` in the position ``hands``, added to
    ``acc`` (indexed by card); returns nothing. ``nacc`` counts the samples."""
    me = 1 << p
    maxteam = me if not misere else 7 ^ me
    played = np.zeros(4, dtype=np.int64)
    for i in range(k):
        played[i] = row[i]
    # a literal 3: the solver's chain is compiled for three hands only (dd.solve._search_for)
    n = dd.card_values(hands, 3, trump, must_trump, leader, played, k, maxteam, me, ttk, ttg, bufs, cards, values)
    for i in range(n):
        acc[cards[i]] += values[i]
    nacc[0] += 1


@jit
def choose_card(
    strat,
    p,
    hands,
    leader,
    row,
    k,
    trump,
    misere,
    must_trump,
    unseen_of_p,
    voids,
    known_out,
    samples,
    st_play,
    ttk,
    ttg,
    bufs,
    ways,
    scratch,
):
    """The card of a solver player at seat ``p``: S_DD sees the layout, any other code samples it (S_PIMC, and
    S_SEARCH once its hand is small enough in rounds 1-3). ``unseen_of_p``: the cards p has not seen; ``voids[q]``:
    suits q showed out of; ``samples``: the PIMC samples (deals of the hidden cards). ``play_hand`` handles forced
    cards, random and heuristic play and the heuristic opening of the solver players."""
    h = hands[p]
    led = -1 if k == 0 else row[0] >> 4
    legal = legal_cards(h, led, trump, must_trump)
    acc = np.zeros(64, dtype=np.float64)
    nacc = np.zeros(1, dtype=np.int64)
    cards = np.zeros(16, dtype=np.int64)
    values = np.zeros(16, dtype=np.int64)
    if strat == S_DD:
        work = hands.copy()
        solver_card(work, p, leader, row, k, trump, must_trump, misere, ttk, ttg, bufs, cards, values, acc, nacc)
    else:
        a = (p + 1) % 3
        b = (p + 2) % 3
        n_a = popcount(hands[a])
        n_b = popcount(hands[b])
        unknown = unseen_of_p & ~known_out
        work = np.zeros(4, dtype=np.uint64)
        for _ in range(samples):
            if not sample_hidden(unknown, voids[a], voids[b], n_a, n_b, st_play, ways, scratch):
                continue
            work[p] = h
            work[a] = scratch[0]
            work[b] = scratch[1]
            solver_card(work, p, leader, row, k, trump, must_trump, misere, ttk, ttg, bufs, cards, values, acc, nacc)
    if nacc[0] == 0:
        return heuristic_card(h, legal, row, k, trump, misere, unseen_of_p)
    best = -1
    x = legal
    while x:
        low = x & (~x + ONE)
        x ^= low
        c = low_index(low)
        if best < 0 or (acc[c] > acc[best] if not misere else acc[c] < acc[best]):
            best = c
    return best
