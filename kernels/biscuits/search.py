"""Biscuits kernels, the search player (``PLAY_SEARCH``): determinized Monte Carlo search at the root, for the
card play (BI-8, BI-9); its partner pass and special actions are its row's policies.

At its turn the player lists its candidate plays (every legal play, and the pass when following; on a lead with
many plays, the cheapest of each kind), then spends its budget of rollouts on them. A rollout deals the unseen
cards anew (the three other hands drawn uniformly from the cards it has not seen, each seat's count kept), plays
the candidate and then the hand to its end with planning players at every seat (:func:`.hand._bi_loop_for` with
the constant 0: compiled without search), and scores its team's points in the hand against the other team's. A
play that empties its hand is played at once.

How the budget is spent (kernels/ucb.py): ``search:BUDGET``, the default, by sequential halving on common
determinizations (every candidate still in played out on the same layouts and from the same draws, the worse
half out after each round, the best mean played); ``search:BUDGET:C`` by UCB1 with exploration constant C, each
rollout on a layout of its own, the play tried most often played (ties: the higher mean). Its draws come from the
strategy stream it is given.

What the player knows: its hand, every seat's card count, the cards played, the trick. It does not use the two
cards it passed to its partner (they may still be there): an information loss, not a leak.

Strategy row: ``strat[seat] = (PLAY_SEARCH, pass, exchange, handover, budget, exploration * 1000)``, exploration
-1 for sequential halving.
"""

from __future__ import annotations

import numpy as np
from numba import types

from .. import rng
from .._extern import extern
from .._jit import jit, jit_inline
from ..bits import copy_rows, low_index, popcount, sort_prefix
from ..ucb import (
    best_mean,
    drop_worse_half,
    halving_layouts,
    halving_rounds,
    lowest_per_group,
    most_visited,
    rollout_stream,
    ucb_pick,
)
from .combinations import K_NONE, classify, generate_moves
from .hand import F_PLAY, PH_TURN, _bi_loop_for
from .players import H_FIELDS, PLAY_PLANNING

#: at most this many candidate plays (a lead with more keeps the cheapest play of each kind)
MAX_CAND = 48
#: the team points (the hand's difference) that count as a full reward or a full loss in a rollout
POINTS_SPAN = 13.0


@jit_inline
def _deal(st_roll, hand, counts, turn, pool, m, deck, h):
    """A determinization into ``h``: the other hands dealt anew from ``pool[:m]`` in seat order, each seat's
    count kept (``deck`` a work copy)."""
    for i in range(m):
        deck[i] = pool[i]
    i = 0
    for s in range(4):
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


@jit_inline
def _reward(h, cnt, counts, pts, points, out_count, turn, last, cur_kind, cur_key, passes, locked, play, roll,
            st_roll, rrec, moves, bv, score0, score1, target):  # fmt: skip
    """One rollout on the layout ``h`` (played out in place): ``play`` at ``turn``, then the hand to its end by
    the players ``roll``; the reward in [0, 1], 1/2 + 1/2 of the team's point lead in the hand over POINTS_SPAN,
    clipped."""
    for s in range(4):
        cnt[s] = counts[s]
    pts[0] = points[0]
    pts[1] = points[1]
    for s in range(4):
        for f in range(H_FIELDS):
            rrec[s, f] = 0
    p0, p1 = _bi_loop_for(
        h, cnt, pts, out_count, turn, last, cur_kind, cur_key, passes, locked, np.int64(PH_TURN), np.int64(F_PLAY),
        play, roll, st_roll, rrec, moves, bv, score0, score1, target, rrec[:0], 0,
    )  # fmt: skip
    d = (p0 - p1) if turn % 2 == 0 else (p1 - p0)
    return 0.5 + 0.5 * min(max(d / POINTS_SPAN, -1.0), 1.0)


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
    budget = strat[turn, 4]
    c = strat[turn, 5] / 1000.0  # below 0: sequential halving
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
    if c < 0:
        # sequential halving on common determinizations (kernels/ucb.py): each candidate still in is played out
        # on the same layout and from the same draws (a copy of the rollout stream after the layout's), so two
        # candidates differ only by the play
        h0 = np.zeros(4, dtype=np.uint64)
        st_cand = rng.new_state()
        alive = np.ones(A, dtype=np.bool_)
        S = A
        R = halving_rounds(A)
        for rnd in range(R):
            for _ in range(halving_layouts(budget, R, S)):
                _deal(st_roll, hand, counts, turn, pool, m, deck, h0)
                for a in range(A):
                    if alive[a]:
                        copy_rows(h, h0)
                        copy_rows(st_cand, st_roll)
                        visits[a] += 1
                        value[a] += _reward(h, cnt, counts, pts, points, out_count, turn, last, cur_kind, cur_key,
                                            passes, locked, cand[a], roll, st_cand, rrec, moves, bv, score0, score1,
                                            target)  # fmt: skip
            if rnd < R - 1:
                S = drop_worse_half(alive, A, S, visits, value)
        return cand[best_mean(alive, A, visits, value)]
    for it in range(max(budget, A)):
        a = ucb_pick(it, A, visits, value, c)
        # a determinization: the other hands dealt anew from the pool, each seat's count kept
        _deal(st_roll, hand, counts, turn, pool, m, deck, h)
        visits[a] += 1
        value[a] += _reward(h, cnt, counts, pts, points, out_count, turn, last, cur_kind, cur_key, passes, locked,
                            cand[a], roll, st_roll, rrec, moves, bv, score0, score1, target)  # fmt: skip
    best = most_visited(A, visits, value)
    return cand[best]


#: The search player, for calls from Python (the tests, an advisor's direct question) and, through
#: :data:`search_play_x`, from the play loop's search hook.
search_play = jit(_search_play)
#: The play loop's search hook calls the search through a cell bound when a search seat first plays
#: (kernels/_extern.py): the loop's code holds neither the search nor its rollout loop, and a first run compiles
#: the search in a helper process while it compiles the loop.
search_play_x = extern(search_play, types.uint64)
