"""Zheng Shangyou kernels, the advisor: every candidate action of one position tried on the same sampled layouts
and the same random draws (common random numbers), each game played on to its end by the play loop
(:func:`.game._loop_for`).

A sample deals the unseen cards (``pool``) uniformly: each other seat still in play gets ``need[s]`` of them, on
top of the cards known to be in its hand (already in ``hands0``); the cards of the pool left over are out of
play. Every way of choosing the hands is equally likely (a partial Fisher-Yates shuffle of the pool), so the
layouts are uniform over those consistent with the hand sizes and the known cards.

The count row is :mod:`kernels.advise`'s (per action: the deciding seat goes out first, its score, it is the
Loser; per pair the cross sums).
"""

from __future__ import annotations

import numpy as np

from .. import rng
from .._jit import chunk_jit, jit, jit_inline
from ..advise import (
    add_action,
    add_sample,
)
from ..bits import copy_rows
from .game import _loop_for, first_leader
from .layout import K_NONE, V_LATER_LEADER
from .moves import add_card, make_scratch, new_moves, take
from .players import G_FIELDS, G_NEVER_PLAYED, G_SCORE

# state vector of the position (``state`` argument): the play on the table and the game's progress
P_CUR_KIND = 0
P_CUR_LEN = 1
P_CUR_KEY = 2
P_LAST = 3  # the seat that made the play on the table (the deciding seat itself on lead)
P_PASSES = 4  # passes since that play
P_PLACE = 5  # seats already out
P_WINNER = 6  # the first seat out, -1 while nobody is
P_REV = 7  # 1 while a revolution is in force (variant 7)
P_FIELDS = 8


@jit
def sample_layout(st, P, seat, hands0, counts0, pool, need, hands, counts, deck, cap_seat, cap):
    """One uniform layout: ``hands``/``counts`` = the position's, each other seat ``s`` given ``need[s]`` cards
    drawn from ``pool`` (sorted; ``deck`` is a work copy of it). With ``cap_seat >= 0`` that seat is dealt first
    and only cards of code at most ``cap`` (the Loser, who gave away its highest single): its cards are a
    uniform subset of those, and the rest stays uniform, so the layout is uniform among the consistent ones."""
    copy_rows(hands, hands0)
    copy_rows(counts, counts0)
    copy_rows(deck, pool)
    i = 0
    n = pool.shape[0]
    if cap_seat >= 0:
        m = 0
        while m < n and pool[m] <= cap:
            m += 1
        for _ in range(need[cap_seat]):
            j = i + rng.below(st, m - i)
            c = deck[j]
            deck[j] = deck[i]
            deck[i] = c
            hands[cap_seat, 0], hands[cap_seat, 1] = add_card(hands[cap_seat, 0], hands[cap_seat, 1], c)
            i += 1
    for s in range(P):
        if s == seat or s == cap_seat:
            continue
        for _ in range(need[s]):
            j = i + rng.below(st, n - i)
            c = deck[j]
            deck[j] = deck[i]
            deck[i] = c
            hands[s, 0], hands[s, 1] = add_card(hands[s, 0], hands[s, 1], c)
            i += 1


@chunk_jit
def advise_chunks(
    chunk_ids, chunk_size, n_trials, key0, key1, P, seat, hands0, counts0, pool, need, state, never, actions,
    strat, zv, out,
):  # fmt: skip
    """The driver's kernel: each trial is one sampled layout on which every action of ``actions[A, 2]``
    (``(cards, dups)``; ``(0, 0)`` = pass) is played by ``seat`` and the game played on by ``strat``'s players,
    with the same random draws for every action (the greedy players only; any other model: :func:`advise_full_chunks`)."""
    for ci in range(chunk_ids.shape[0]):
        _advise_chunk(chunk_ids[ci], chunk_size, n_trials, key0, key1, P, seat, hands0, counts0, pool, need, state,
                      never, actions, strat, zv, out[ci], 0)  # fmt: skip


@chunk_jit
def advise_full_chunks(
    chunk_ids, chunk_size, n_trials, key0, key1, P, seat, hands0, counts0, pool, need, state, never, actions,
    strat, zv, out,
):  # fmt: skip
    """:func:`advise_chunks` with every player compiled in (flavour 2: random, planning, search)."""
    for ci in range(chunk_ids.shape[0]):
        _advise_chunk(chunk_ids[ci], chunk_size, n_trials, key0, key1, P, seat, hands0, counts0, pool, need, state,
                      never, actions, strat, zv, out[ci], 2)  # fmt: skip


@jit_inline
def _advise_chunk(
    c, chunk_size, n_trials, key0, key1, P, seat, hands0, counts0, pool, need, state, never, actions, strat, zv, row,
    flavour,
):  # fmt: skip
    A = actions.shape[0]
    start = c * chunk_size
    stop = min(start + chunk_size, n_trials)
    base = np.zeros((P, 2), dtype=np.uint64)
    base_counts = np.zeros(P, dtype=np.int64)
    hands = np.zeros((P, 2), dtype=np.uint64)
    counts = np.zeros(P, dtype=np.int64)
    deck = pool.copy()
    rec = np.zeros((P, G_FIELDS), dtype=np.int64)
    moves = new_moves()
    scratch = make_scratch()
    wins = np.zeros(A, dtype=np.int64)
    scores = np.zeros(A, dtype=np.int64)
    st_deal = rng.new_state()
    st_play = rng.new_state()
    for t in range(start, stop):
        rng.seed_state(st_deal, key0, key1, np.uint64(t), np.uint64(rng.STREAM_DEAL))
        sample_layout(st_deal, P, seat, hands0, counts0, pool, need, base, base_counts, deck, -1, 0)
        for a in range(A):
            copy_rows(hands, base)
            copy_rows(counts, base_counts)
            rec[:, :] = 0
            for s in range(P):
                rec[s, G_NEVER_PLAYED] = never[s]
            rng.seed_state(st_play, key0, key1, np.uint64(t), np.uint64(rng.STREAM_STRATEGY))
            winner, loser = _loop_for(
                P, hands, counts, seat, state[P_CUR_KIND], state[P_CUR_LEN], state[P_CUR_KEY], state[P_LAST],
                state[P_PASSES], state[P_PLACE], state[P_WINNER], state[P_REV], np.bool_(True), actions[a, 0],
                actions[a, 1], strat, st_play, rec, moves, scratch, zv, rec[:0], flavour,
            )  # fmt: skip
            add_action(row, a, 1 if winner == seat else 0, rec[seat, G_SCORE], 1 if loser == seat else 0, wins, scores)
        add_sample(row, A, wins, scores)


@chunk_jit
def advise_exchange_chunks(
    chunk_ids, chunk_size, n_trials, key0, key1, P, seat, loser, cap, hands0, counts0, pool, need, gives,
    strat, zv, out,
):  # fmt: skip
    """The driver's kernel for the Loser's exchange (variant 8) before a later game: ``seat`` (the Winner)
    holds its dealt cards and the Loser's highest single ``cap``; each action gives the card ``gives[a]`` to
    ``loser`` (known to hold no card above ``cap``), then the game is played from its first lead (variant
    ``later_game_leader``, the Loser dealing) by ``strat``'s players, every action on the same layout and draws
    (the greedy players only; any other model: :func:`advise_exchange_full_chunks`)."""
    for ci in range(chunk_ids.shape[0]):
        _exchange_chunk(chunk_ids[ci], chunk_size, n_trials, key0, key1, P, seat, loser, cap, hands0, counts0, pool,
                        need, gives, strat, zv, out[ci], 0)  # fmt: skip


@chunk_jit
def advise_exchange_full_chunks(
    chunk_ids, chunk_size, n_trials, key0, key1, P, seat, loser, cap, hands0, counts0, pool, need, gives,
    strat, zv, out,
):  # fmt: skip
    """:func:`advise_exchange_chunks` with every player compiled in (flavour 2: random, planning, search)."""
    for ci in range(chunk_ids.shape[0]):
        _exchange_chunk(chunk_ids[ci], chunk_size, n_trials, key0, key1, P, seat, loser, cap, hands0, counts0, pool,
                        need, gives, strat, zv, out[ci], 2)  # fmt: skip


@jit_inline
def _exchange_chunk(
    c, chunk_size, n_trials, key0, key1, P, seat, loser, cap, hands0, counts0, pool, need, gives, strat, zv, row,
    flavour,
):  # fmt: skip
    A = gives.shape[0]
    zero = np.int64(0)
    start = c * chunk_size
    stop = min(start + chunk_size, n_trials)
    base = np.zeros((P, 2), dtype=np.uint64)
    base_counts = np.zeros(P, dtype=np.int64)
    hands = np.zeros((P, 2), dtype=np.uint64)
    counts = np.zeros(P, dtype=np.int64)
    deck = pool.copy()
    rec = np.zeros((P, G_FIELDS), dtype=np.int64)
    moves = new_moves()
    scratch = make_scratch()
    wins = np.zeros(A, dtype=np.int64)
    scores = np.zeros(A, dtype=np.int64)
    st_deal = rng.new_state()
    st_play = rng.new_state()
    for t in range(start, stop):
        rng.seed_state(st_deal, key0, key1, np.uint64(t), np.uint64(rng.STREAM_DEAL))
        sample_layout(st_deal, P, seat, hands0, counts0, pool, need, base, base_counts, deck, loser, cap)
        for a in range(A):
            copy_rows(hands, base)
            copy_rows(counts, base_counts)
            g = gives[a]
            hands[seat, 0], hands[seat, 1] = take(
                hands[seat, 0], hands[seat, 1], np.uint64(1) << np.uint64(g), np.uint64(0)
            )
            hands[loser, 0], hands[loser, 1] = add_card(hands[loser, 0], hands[loser, 1], g)
            counts[seat] -= 1
            counts[loser] += 1
            rule = zv[V_LATER_LEADER]
            leader = seat  # previous_winner
            if rule == 1:
                leader = first_leader(P, hands)
            elif rule == 2:
                leader = loser  # the dealer
            elif rule == 3:
                leader = (loser + 1) % P
            rec[:, :] = 0
            for s in range(P):
                rec[s, G_NEVER_PLAYED] = 1
            rng.seed_state(st_play, key0, key1, np.uint64(t), np.uint64(rng.STREAM_STRATEGY))
            winner, last = _loop_for(
                P, hands, counts, leader, np.int64(K_NONE), zero, zero, leader, zero, zero, np.int64(-1), zero,
                np.bool_(False), np.uint64(0), np.uint64(0), strat, st_play, rec, moves, scratch, zv, rec[:0], flavour,
            )  # fmt: skip
            add_action(row, a, 1 if winner == seat else 0, rec[seat, G_SCORE], 1 if last == seat else 0, wins, scores)
        add_sample(row, A, wins, scores)
