"""Biscuits kernels, the search player (``PLAY_SEARCH``): determinized Monte Carlo search at the root, for the
card play (BI-8, BI-9); its partner pass and special actions are its row's policies.

At its turn the player lists its candidate plays (every legal play, and the pass when following; on a lead with
many plays, the cheapest of each kind), then spends its budget of rollouts on them by UCB1: each rollout deals the
unseen cards anew (the three other hands drawn uniformly from the cards it has not seen, each seat's count kept),
plays the candidate and then the hand to its end with planning players at every seat (:func:`.hand._bi_loop_for`
with the constant 0: compiled without search), and scores its team's points in the hand against the other
team's. It plays the candidate tried most often (ties: the higher mean); a play that empties its hand is played at once. Its draws come
from the strategy stream it is given.

What the player knows: its hand, every seat's card count, the cards played, the trick. It does not use the two
cards it passed to its partner (they may still be there): an information loss, not a leak.

Strategy row: ``strat[seat] = (PLAY_SEARCH, pass, exchange, handover, budget, exploration * 1000)``.
"""

from __future__ import annotations

import numpy as np
from numba import types

from .. import rng
from .._extern import extern
from .._jit import jit
from ..bits import low_index, popcount, sort_prefix
from ..ucb import lowest_per_group, most_visited, rollout_stream, ucb_pick
from .combinations import K_NONE, classify, generate_moves
from .hand import F_PLAY, PH_TURN, _bi_loop_for
from .players import H_FIELDS, PLAY_PLANNING

#: at most this many candidate plays (a lead with more keeps the cheapest play of each kind)
MAX_CAND = 48
#: the team points (the hand's difference) that count as a full reward or a full loss in a rollout
POINTS_SPAN = 13.0


def _search_play(
    hands, counts, points, out_count, turn, last, cur_kind, cur_key, passes, locked, strat, st, rec, moves, bv,
    score0, score1, target,
):  # fmt: skip
    """The search player's play at ``turn`` (the state as :func:`.hand._play_from_loop` holds it): a bit set of
    cards, 0 for a pass."""
    hand = hands[turn]
    n = generate_moves(hand, cur_kind, cur_key, moves, bv)
    sort_prefix(moves, n)
    if n == 0:
        return np.uint64(0)
    for i in range(n):
        if popcount(moves[i]) == counts[turn]:
            return moves[i]  # go out (BI-8)
    cand = np.zeros(MAX_CAND, dtype=np.uint64)
    A = 0
    if cur_kind != K_NONE:
        A = 1  # the pass, cand[0] = 0
    if A + n <= MAX_CAND:
        for i in range(n):
            cand[A] = moves[i]
            A += 1
    else:  # per kind the play with the lowest key
        group = np.zeros(n, dtype=np.int64)
        keys = np.zeros(n, dtype=np.int64)
        for i in range(n):
            kind, key = classify(moves[i], bv)
            group[i] = kind
            keys[i] = key
        gi = np.zeros(MAX_CAND, dtype=np.int64)
        G = lowest_per_group(group, keys, n, MAX_CAND - A, gi)
        for j in range(G):
            cand[A] = moves[gi[j]]
            A += 1
    if A == 1:
        return cand[0]
    budget = max(strat[turn, 4], A)
    c = strat[turn, 5] / 1000.0
    team = turn % 2
    # the unseen cards: the other hands
    pool = np.zeros(52, dtype=np.int64)
    m = 0
    for s in range(4):
        if s != turn:
            x = hands[s]
            while x:
                pool[m] = low_index(x)
                m += 1
                x &= x - np.uint64(1)
    deck = pool.copy()
    roll = strat.copy()
    for s in range(4):
        roll[s, 0] = PLAY_PLANNING
    h = np.zeros(4, dtype=np.uint64)
    cnt = np.zeros(4, dtype=np.int64)
    pts = np.zeros(2, dtype=np.int64)
    rrec = np.zeros((4, H_FIELDS), dtype=np.int64)
    st_roll = rng.new_state()
    rollout_stream(st, st_roll)
    visits = np.zeros(A, dtype=np.int64)
    value = np.zeros(A, dtype=np.float64)
    for it in range(budget):
        a = ucb_pick(it, A, visits, value, c)
        # a determinization: the other hands dealt anew from the pool, each seat's count kept
        for i in range(m):
            deck[i] = pool[i]
        i = 0
        for s in range(4):
            cnt[s] = counts[s]
            if s == turn:
                h[s] = hand
                continue
            h[s] = np.uint64(0)
            for _ in range(counts[s]):
                j = i + rng.below(st_roll, m - i)
                card = deck[j]
                deck[j] = deck[i]
                deck[i] = card
                h[s] |= np.uint64(1) << np.uint64(card)
                i += 1
        pts[0] = points[0]
        pts[1] = points[1]
        for s in range(4):
            for f in range(H_FIELDS):
                rrec[s, f] = 0
        p0, p1 = _bi_loop_for(
            h, cnt, pts, out_count, turn, last, cur_kind, cur_key, passes, locked, np.int64(PH_TURN),
            np.int64(F_PLAY), cand[a], roll,
            st_roll, rrec, moves, bv, score0, score1, target, rrec[:0], 0,
        )  # fmt: skip
        d = (p0 - p1) if team == 0 else (p1 - p0)
        visits[a] += 1
        value[a] += 0.5 + 0.5 * min(max(d / POINTS_SPAN, -1.0), 1.0)
    best = most_visited(A, visits, value)
    return cand[best]


#: The search player, for calls from Python (the tests, an advisor's direct question) and, through
#: :data:`search_play_x`, from the play loop's search hook.
search_play = jit(_search_play)
#: The play loop's search hook calls the search through a cell bound when a search seat first plays
#: (kernels/_extern.py): the loop's code holds neither the search nor its rollout loop, and a first run compiles
#: the search in a helper process while it compiles the loop.
search_play_x = extern(search_play, types.uint64)
