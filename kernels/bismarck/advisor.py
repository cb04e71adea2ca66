"""Bismarck kernels, the advisor (``cardlab odds bismarck``): every action of one position tried on the same
sampled layouts of the hidden cards (common random numbers), valued either double dummy on each layout (the
``pimc`` model: what a PIMC player computes) or by playing the hand on with built-in players.

Each trial is one layout, drawn exactly (:func:`kernels.bismarck.sample_hidden`: hand sizes, the suits each seat
showed out of, the cards out of play). Two count rows of :mod:`kernels.advise` side by side: the first with the
win event "makes the quota" and the payoff the round score (BM-6), the second with the payoff the deciding seat's
tricks in the hand (won so far and from here).
"""

from __future__ import annotations

import numpy as np

from .. import dd, rng
from .._jit import jit, pjit, prange
from ..advise import add_action, add_sample
from .hand import new_solver_state, play_from
from .layout import H_FIELDS, H_TRICKS, S_DD, V_MUST_TRUMP
from .pimc import sample_hidden
from .rules import hand_score, made_quota

#: the valuation models (the ``model`` argument); a built-in player's code plays the hand on instead
M_DD_EACH_LAYOUT = -1


@jit
def _solver_seats(model, strat):
    """The strategies that size the solver's table: a real one when the model or a seat uses the solver."""
    out = strat.copy()
    if model == M_DD_EACH_LAYOUT:
        out[0] = S_DD
    return out


@pjit
def advise_play_chunks(
    chunk_ids, chunk_size, n_trials, key0, key1, seat, dealer, rtype, trump, hand, unknown, voids, sizes, known,
    leader, trick, k, played, known_out, widow_out, won, actions, model, strat, pv, bv, out,
):  # fmt: skip
    """The driver's kernel for a card to play (BM-9 1): seat ``seat`` holds ``hand`` and is to play the
    ``k``-th card of the trick led by ``leader`` (``trick[:k]`` so far); ``played``: the cards of the completed
    tricks; ``won[s]``: tricks won so far; ``unknown``: the cards the seat has not seen (in the other hands or
    out of play), ``sizes[s]`` cards of each other hand to deal from them, ``known[s]`` cards known to be in a
    hand besides, ``voids[s]`` the suits a seat showed out of. Each action is
    a card of ``actions``. ``model``: :data:`M_DD_EACH_LAYOUT` or play on with ``strat``'s players."""
    A = actions.shape[0]
    W = out.shape[1] // 2  # two count rows of kernels.advise side by side
    a_seat = (seat + 1) % 3
    b_seat = (seat + 2) % 3
    role = (seat - dealer) % 3
    misere = rtype == 3
    for ci in prange(chunk_ids.shape[0]):
        c = chunk_ids[ci]
        start = c * chunk_size
        stop = min(start + chunk_size, n_trials)
        row = out[ci]
        ttk, ttg, bufs, ways, scratch = new_solver_state(_solver_seats(model, strat))
        base = np.zeros(4, dtype=np.uint64)
        hands = np.zeros(4, dtype=np.uint64)
        rec = np.zeros((3, H_FIELDS), dtype=np.int64)
        trace = np.zeros(56, dtype=np.int64)
        work = np.zeros(4, dtype=np.int64)
        cards = np.zeros(16, dtype=np.int64)
        values = np.zeros(16, dtype=np.int64)
        value_of = np.zeros(64, dtype=np.int64)
        wins = np.zeros(A, dtype=np.int64)
        scores = np.zeros(A, dtype=np.int64)
        twins = np.zeros(A, dtype=np.int64)
        tricks = np.zeros(A, dtype=np.int64)
        st_deal = rng.new_state()
        st_plays = np.zeros((3, rng.STATE_SIZE), dtype=np.uint64)
        for t in range(start, stop):
            rng.seed_state(st_deal, key0, key1, np.uint64(t), np.uint64(rng.STREAM_DEAL))
            na, nb = sizes[a_seat], sizes[b_seat]
            if not sample_hidden(unknown, voids[a_seat], voids[b_seat], na, nb, st_deal, ways, scratch):
                continue  # no layout fits the position (refused before the run: the analysis layer checks)
            base[seat] = hand
            base[a_seat] = scratch[0] | known[a_seat]
            base[b_seat] = scratch[1] | known[b_seat]
            if model == M_DD_EACH_LAYOUT:
                for i in range(4):
                    hands[i] = base[i]
                    work[i] = trick[i]
                me = 1 << seat
                maxteam = me if not misere else 7 ^ me  # misere: the others push tricks on the seat (BM-5)
                # a literal 3: the solver's chain is compiled for three hands only (dd.solve._search_for)
                n = dd.card_values(
                    hands, 3, trump, bv[V_MUST_TRUMP], leader, work, k, maxteam, me, ttk, ttg, bufs, cards, values
                )
                for i in range(n):
                    value_of[cards[i]] = values[i]
            for a in range(A):
                if model == M_DD_EACH_LAYOUT:
                    got = won[seat] + value_of[actions[a]]
                else:
                    for i in range(4):
                        hands[i] = base[i]
                    for s in range(3):
                        rec[s, H_TRICKS] = won[s]
                        rng.seed_state(st_plays[s], key0, key1, np.uint64(t), np.uint64(rng.STREAM_STRATEGY + s))
                    for i in range(4):
                        trace[48 + i] = trick[i]
                    for s in range(3):
                        trace[52 + s] = voids[s]
                    play_from(
                        hands, dealer, rtype, trump, known_out, widow_out, strat, pv, bv, st_plays, ttk, ttg, bufs,
                        ways, scratch, rec, trace, leader, k, played, actions[a],
                    )  # fmt: skip
                    got = rec[seat, H_TRICKS]
                made = np.int64(made_quota(rtype, role, got, bv))
                add_action(row[:W], a, made, hand_score(rtype, role, got, bv), 0, wins, scores)
                add_action(row[W:], a, 0, got, 0, twins, tricks)
            add_sample(row[:W], A, wins, scores)
            add_sample(row[W:], A, twins, tricks)


@pjit
def advise_trump_chunks(
    chunk_ids, chunk_size, n_trials, key0, key1, seat, dealer, rtype, hand, unknown, sizes, trumps, model, strat,
    pv, bv, out,
):  # fmt: skip
    """The driver's kernel for naming trumps having seen the hand (BM-9 2 with ``round3_trump_timing =
    after_seeing_hand``): ``seat`` (the dealer) holds ``hand``; each action names the suit ``trumps[a]``; the
    other two hands (``sizes``) are dealt from ``unknown`` (the rest out of play) and the whole hand is valued
    from forehand's first lead: double dummy (``model`` = :data:`M_DD_EACH_LAYOUT`) or played by ``strat``."""
    A = trumps.shape[0]
    W = out.shape[1] // 2  # two count rows of kernels.advise side by side
    a_seat = (seat + 1) % 3
    b_seat = (seat + 2) % 3
    role = (seat - dealer) % 3
    leader = (dealer + 1) % 3
    for ci in prange(chunk_ids.shape[0]):
        c = chunk_ids[ci]
        start = c * chunk_size
        stop = min(start + chunk_size, n_trials)
        row = out[ci]
        ttk, ttg, bufs, ways, scratch = new_solver_state(_solver_seats(model, strat))
        base = np.zeros(4, dtype=np.uint64)
        hands = np.zeros(4, dtype=np.uint64)
        rec = np.zeros((3, H_FIELDS), dtype=np.int64)
        trace = np.zeros(56, dtype=np.int64)
        work = np.zeros(4, dtype=np.int64)
        wins = np.zeros(A, dtype=np.int64)
        scores = np.zeros(A, dtype=np.int64)
        twins = np.zeros(A, dtype=np.int64)
        tricks = np.zeros(A, dtype=np.int64)
        st_deal = rng.new_state()
        st_plays = np.zeros((3, rng.STATE_SIZE), dtype=np.uint64)
        me = 1 << seat
        for t in range(start, stop):
            rng.seed_state(st_deal, key0, key1, np.uint64(t), np.uint64(rng.STREAM_DEAL))
            if not sample_hidden(unknown, 0, 0, sizes[a_seat], sizes[b_seat], st_deal, ways, scratch):
                continue
            base[seat] = hand
            base[a_seat] = scratch[0]
            base[b_seat] = scratch[1]
            for a in range(A):
                for i in range(4):
                    hands[i] = base[i]
                if model == M_DD_EACH_LAYOUT:
                    got = dd.solve(hands, 3, trumps[a], bv[V_MUST_TRUMP], leader, work, 0, me, me, ttk, ttg, bufs)
                else:
                    for s in range(3):
                        rec[s, H_TRICKS] = 0
                        rng.seed_state(st_plays[s], key0, key1, np.uint64(t), np.uint64(rng.STREAM_STRATEGY + s))
                    for i in range(52, 55):
                        trace[i] = 0
                    play_from(
                        hands, dealer, rtype, trumps[a], np.uint64(0), np.uint64(0), strat, pv, bv, st_plays, ttk,
                        ttg, bufs, ways, scratch, rec, trace, leader, 0, np.uint64(0), -1,
                    )  # fmt: skip
                    got = rec[seat, H_TRICKS]
                made = np.int64(made_quota(rtype, role, got, bv))
                add_action(row[:W], a, made, hand_score(rtype, role, got, bv), 0, wins, scores)
                add_action(row[W:], a, 0, got, 0, twins, tricks)
            add_sample(row[:W], A, wins, scores)
            add_sample(row[W:], A, twins, tricks)
