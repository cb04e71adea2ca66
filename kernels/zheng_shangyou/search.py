"""Zheng Shangyou kernels, the search player (``POLICY_SEARCH``): determinized Monte Carlo search at the root.

At its turn the player lists its candidate actions (every legal play, and the pass when following; on a lead
with many plays, the cheapest play of each kind and length), then spends its budget of rollouts on them. A
rollout deals the unseen cards anew (the other seats' hands drawn uniformly from the cards it has not seen, each
seat's count kept: a determinization), plays the action and then the game to its end with greedy players at every
seat; its reward, in [0, 1], is half for going out first and half for the player's score (ZS-8). The rollouts run
:func:`.game._loop_for` with the constant 1: the loop without the search, so numba never compiles a call cycle
(the greedy-only loop ran them slower). An action that empties its hand is played at once.

How the budget is spent (kernels/ucb.py): ``search:BUDGET``, the default, by sequential halving on common
determinizations (every candidate still in played out on the same layouts, the worse half out after each round,
the best mean played); ``search:BUDGET:C`` by UCB1 with exploration constant C, each rollout on a layout of its
own, the action tried most often played (ties: the higher mean). At equal budget halving won more games
(docs/performance.md). Its draws come from the strategy stream it is given, so a game is reproducible from its
seed like any other.

What the player knows: its own hand, every seat's card count, the cards played (so the union of the other
hands), the play on the table. With the ``3p_52`` deck one card is never dealt; the player's pool is the other
hands only, so it knows which card that is (a one-card leak, that deck only).

Strategy row: ``strat[seat] = (POLICY_SEARCH, 0, budget, exploration * 1000)``, exploration -1 for sequential
halving.
"""

from __future__ import annotations

import numpy as np
from numba import types

from .. import rng
from .._extern import extern
from .._jit import jit, jit_inline
from ..bits import copy_rows, low_index, popcount
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
from .advisor import sample_layout
from .classifier import classify
from .game import _loop_for
from .layout import K_NONE
from .players import BOMB_EARLY, G_FIELDS, G_NEVER_PLAYED, G_SCORE, POLICY_GREEDY

#: the score (ZS-8) that counts as a full reward or a full loss in a rollout
SCORE_SPAN = 40.0
#: at most this many candidate actions (a lead with more plays keeps the cheapest of each kind and length)
MAX_CAND = 48


@jit
def _candidates(hand, dup, n_hand, following, moves, n, zv, rev, cand):
    """The candidate actions into ``cand[:, 2]`` (``(0, 0)`` = pass, first when following); returns their number,
    or -1 - i when move ``i`` empties the hand (it is played at once)."""
    for i in range(n):
        if popcount(moves[i, 0]) + popcount(moves[i, 1]) == n_hand:
            return -1 - i
    A = 0
    if following:
        cand[0, 0] = np.uint64(0)
        cand[0, 1] = np.uint64(0)
        A = 1
    if A + n <= MAX_CAND:
        for i in range(n):
            cand[A, 0] = moves[i, 0]
            cand[A, 1] = moves[i, 1]
            A += 1
        return A
    # many plays: per (kind, length) group the one with the lowest key
    group = np.zeros(n, dtype=np.int64)
    keys = np.zeros(n, dtype=np.int64)
    for i in range(n):
        kind, length, key = classify(moves[i, 0], moves[i, 1], zv, rev)
        group[i] = kind * 64 + length
        keys[i] = key
    gi = np.zeros(MAX_CAND, dtype=np.int64)
    G = lowest_per_group(group, keys, n, MAX_CAND - A, gi)
    for j in range(G):
        cand[A, 0] = moves[gi[j], 0]
        cand[A, 1] = moves[gi[j], 1]
        A += 1
    return A


@jit_inline
def _reward(P, h, cnt, turn, cur_kind, cur_len, cur_key, last, passes, place, winner, rev, play, dup, roll, st_roll,
            rec, rrec, moves, scratch, zv):  # fmt: skip
    """One rollout on the layout ``h``/``cnt`` (played out in place): ``(play, dup)`` at ``turn``, then the game
    to its end by the players ``roll``; the reward in [0, 1], half for going out first, half for the game's score
    (ZS-8) clipped at +-SCORE_SPAN."""
    for s in range(P):
        for f in range(G_FIELDS):
            rrec[s, f] = 0
        rrec[s, G_NEVER_PLAYED] = rec[s, G_NEVER_PLAYED]
    w, _loser = _loop_for(
        P, h, cnt, turn, cur_kind, cur_len, cur_key, last, passes, place, winner, rev, np.bool_(True), play, dup,
        roll, st_roll, rrec, moves, scratch, zv, rrec[:0], 1,
    )  # fmt: skip
    sc = min(max(rrec[turn, G_SCORE], -SCORE_SPAN), SCORE_SPAN)
    return 0.5 * (w == turn) + 0.25 * (1.0 + sc / SCORE_SPAN)


def _search_play(
    P, hands, counts, turn, cur_kind, cur_len, cur_key, last, passes, place, winner, rev, strat, st, rec, moves,
    scratch, zv, n,
):  # fmt: skip
    """The search player's action at ``turn`` (the game state as :func:`.game._play_loop` holds it; ``moves[:n]``
    its legal plays, ``n`` >= 1): ``(play, dups)``, ``(0, 0)`` for a pass."""
    hand = hands[turn, 0]
    dup = hands[turn, 1]
    cand = np.zeros((MAX_CAND, 2), dtype=np.uint64)
    A = _candidates(hand, dup, counts[turn], cur_kind != K_NONE, moves, n, zv, rev, cand)
    if A < 0:
        return moves[-1 - A, 0], moves[-1 - A, 1]
    if A == 1:
        return cand[0, 0], cand[0, 1]
    budget = strat[turn, 2]
    c = strat[turn, 3] / 1000.0  # below 0: sequential halving
    # the unseen cards: the other seats' hands, each card once per copy (two decks)
    pool = np.zeros(128, dtype=np.int64)
    m = 0
    for s in range(P):
        if s == turn or counts[s] == 0:
            continue
        for w in range(2):
            x = hands[s, w]
            while x:
                b = low_index(x)
                pool[m] = b
                m += 1
                x &= x - np.uint64(1)
    pool = pool[:m]
    deck = pool.copy()
    own = np.zeros((P, 2), dtype=np.uint64)  # what the seat holds; every other hand is dealt in a rollout
    own[turn, 0] = hand
    own[turn, 1] = dup
    need = np.zeros(P, dtype=np.int64)
    for s in range(P):
        if s != turn:
            need[s] = counts[s]
    roll = np.zeros((P, 4), dtype=np.int64)
    for s in range(P):
        roll[s, 0] = POLICY_GREEDY
        roll[s, 1] = BOMB_EARLY
    h = np.zeros((P, 2), dtype=np.uint64)
    cnt = np.zeros(P, dtype=np.int64)
    rrec = np.zeros((P, G_FIELDS), dtype=np.int64)
    st_roll = rng.new_state()
    rollout_stream(st, st_roll)
    visits = np.zeros(A, dtype=np.int64)
    wins = np.zeros(A, dtype=np.float64)
    if c < 0:
        # sequential halving on common determinizations (kernels/ucb.py): each candidate still in is played out
        # on the same layout and from the same draws (a copy of the rollout stream after the layout's), so two
        # candidates differ only by the action
        h0 = np.zeros((P, 2), dtype=np.uint64)
        cnt0 = np.zeros(P, dtype=np.int64)
        st_cand = rng.new_state()
        alive = np.ones(A, dtype=np.bool_)
        S = A
        R = halving_rounds(A)
        for rnd in range(R):
            for _ in range(halving_layouts(budget, R, S)):
                sample_layout(st_roll, P, turn, own, counts, pool, need, h0, cnt0, deck, -1, 0)
                for a in range(A):
                    if alive[a]:
                        copy_rows(h, h0)
                        copy_rows(cnt, cnt0)
                        copy_rows(st_cand, st_roll)
                        visits[a] += 1
                        wins[a] += _reward(P, h, cnt, turn, cur_kind, cur_len, cur_key, last, passes, place, winner,
                                           rev, cand[a, 0], cand[a, 1], roll, st_cand, rec, rrec, moves, scratch,
                                           zv)  # fmt: skip
            if rnd < R - 1:
                S = drop_worse_half(alive, A, S, visits, wins)
        best = best_mean(alive, A, visits, wins)
        return cand[best, 0], cand[best, 1]
    for it in range(max(budget, A)):
        a = ucb_pick(it, A, visits, wins, c)
        # a determinization: the other hands dealt anew from the pool, each seat's count kept
        sample_layout(st_roll, P, turn, own, counts, pool, need, h, cnt, deck, -1, 0)
        visits[a] += 1
        wins[a] += _reward(P, h, cnt, turn, cur_kind, cur_len, cur_key, last, passes, place, winner, rev, cand[a, 0],
                           cand[a, 1], roll, st_roll, rec, rrec, moves, scratch, zv)  # fmt: skip
    best = most_visited(A, visits, wins)
    return cand[best, 0], cand[best, 1]


#: The search player, for calls from Python (the tests, an advisor's direct question) and, through
#: :data:`search_play_x`, from the play loop's search hook.
search_play = jit(_search_play)
#: The play loop's search hook calls the search through a cell bound when a search seat first plays
#: (kernels/_extern.py): the loop's code holds neither the search nor its rollout loop, and a first run compiles
#: the search in a helper process while it compiles the loop.
search_play_x = extern(search_play, types.UniTuple(types.uint64, 2))
