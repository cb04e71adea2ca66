"""Bismarck kernels, the simulation and paired-comparison kernels: games or single hands into count rows."""

from __future__ import annotations

import numpy as np

from .. import rng
from .._jit import borrowed, chunk_jit, jit, jit_inline
from ..bits import copy_rows
from .hand import (
    _chunk_buffers,
    _play_hand_inline,
    _play_hand_plain,
    _record_hand,
    deal_hand,
    deal_round,
    new_solver_state,
    play_hand,
    play_hand_plain,
)
from .layout import (
    ALL_ROUNDS,
    BASE_GAME,
    BASE_HIST,
    G_FIELDS,
    H_FIELDS,
    H_SCORE,
    H_TRICKS,
    MAX_HANDS,
    SCORE_BINS,
    SCORE_LO,
    V_FREE_ORDER,
    V_LENGTH,
    V_RULESET,
    V_TARGET,
)
from .rules import schedule


def _make_simulate(solvers):
    """The simulation kernel with the search and solver players (``solvers``) or without them: then their code
    is never compiled (:func:`.hand._make_tricks_from`), and a cold first run with heuristic or random players
    compiles about half as much. Each function's body picks its callee by the constant ``solvers``."""

    def simulate_chunks(chunk_ids, chunk_size, n_trials, key0, key1, strat, pv, unit_game, round_type, bv, out):
        """Each trial: one game (``unit_game``: 12 hands, 4, or to a target; BM-7) or one hand of
        ``round_type`` (0..3) with a random dealer."""
        for ci in range(chunk_ids.shape[0]):
            c = chunk_ids[ci]
            start = c * chunk_size
            stop = min(start + chunk_size, n_trials)
            if solvers:
                _simulate_range_full(start, stop, key0, key1, strat, pv, unit_game, round_type, bv, out[ci])
            else:
                _simulate_range_plain(start, stop, key0, key1, strat, pv, unit_game, round_type, bv, out[ci])

    def _simulate_range(start, stop, key0, key1, strat, pv, unit_game, round_type, bv, row):
        """Trials ``start .. stop-1`` of :func:`simulate_chunks` into one count row (a serial loop, with the hand
        inlined: :func:`_simulate_loop`). Inlined into :func:`simulate_chunks`: a function of its own is one more
        module that LLVM optimizes and emits with the whole tree below it (docs/performance.md), and it owns the
        arrays that :func:`_simulate_loop` borrows either way."""
        solver, bufs = new_solver_state(strat), _chunk_buffers()
        totals, remaining = np.zeros(3, dtype=np.int64), np.zeros(3, dtype=np.int64)
        if solvers:
            _simulate_loop_full(
                start, stop, key0, key1, strat, pv, unit_game, round_type, bv, row, solver, bufs, totals, remaining
            )
        else:
            _simulate_loop_plain(
                start, stop, key0, key1, strat, pv, unit_game, round_type, bv, row, solver, bufs, totals, remaining
            )

    def _simulate_loop(
        start, stop, key0, key1, strat, pv, unit_game, round_type, bv, row, solver, bufs, totals, remaining
    ):
        """:func:`_simulate_range`'s loop, on borrowed views of the arguments: no reference counting in the loop
        (kernels._jit.borrowed). ``remaining[seat]``: the round types (Swedish: contracts) a seat has still to choose
        in its cycle, where the round type is chosen (3(c)9, 3(c)10): each is chosen once a cycle."""
        strat, pv, bv, row, solver, bufs, totals, remaining = borrowed(
            (strat, pv, bv, row, solver, bufs, totals, remaining)
        )
        chosen = unit_game != 0 and (bv[V_FREE_ORDER] == 1 or bv[V_RULESET] == 1)
        ttk, ttg, dd_bufs, ways, scratch = solver
        hands, deck, rec, trace, dout, st_deal, st_plays = bufs
        for t in range(start, stop):
            rng.seed_state(st_deal, key0, key1, np.uint64(t), np.uint64(rng.STREAM_DEAL))
            for s in range(3):
                rng.seed_state(st_plays[s], key0, key1, np.uint64(t), np.uint64(rng.STREAM_STRATEGY + s))
            first = rng.below(st_deal, 3)
            totals[:] = 0
            remaining[:] = ALL_ROUNDS
            n_hands = 1 if unit_game == 0 else (12 if bv[V_LENGTH] == 0 else (4 if bv[V_LENGTH] == 1 else MAX_HANDS))
            for h in range(n_hands):
                if unit_game == 0:
                    dealer, rtype = first, round_type  # one hand of the chosen round, a random dealer
                else:
                    dealer, rtype = schedule(first, h, bv)
                # where the round type is chosen, the chooser (Swedish: forehand) picks it among those it has left
                chooser = (dealer + 1) % 3 if bv[V_RULESET] == 1 else dealer
                rtype, trump, known = deal_round(
                    st_deal, deck, hands, -1 if chosen else rtype, remaining[chooser], dealer, bv, strat, st_plays, dout
                )
                if chosen:
                    remaining[chooser] ^= 1 << rtype
                    if remaining[chooser] == 0:
                        remaining[chooser] = ALL_ROUNDS
                if solvers:
                    _play_hand_inline(
                        hands, dealer, rtype, trump, known, dout[0], strat, pv, bv, st_plays, ttk, ttg, dd_bufs, ways,
                        scratch, rec, trace,
                    )  # fmt: skip
                else:
                    _play_hand_plain(
                        hands, dealer, rtype, trump, known, dout[0], strat, pv, bv, st_plays, ttk, ttg, dd_bufs, ways,
                        scratch, rec, trace,
                    )  # fmt: skip
                _record_hand(row, rec, dealer, rtype, bv)
                for s in range(3):
                    totals[s] += rec[s, H_SCORE]
                if bv[V_LENGTH] == 2 and max(totals[0], max(totals[1], totals[2])) >= bv[V_TARGET]:
                    break
            if unit_game != 0:
                _record_game(row, totals, first)

    return chunk_jit(simulate_chunks), jit_inline(_simulate_range), jit(_simulate_loop)


simulate_chunks, _simulate_range_full, _simulate_loop_full = _make_simulate(True)
#: :func:`simulate_chunks` for heuristic and random players only (the analysis layer picks it by the strategies)
simulate_plain_chunks, _simulate_range_plain, _simulate_loop_plain = _make_simulate(False)


@jit
def _record_game(row, totals, first):
    """Game results by seat *relative to the first dealer* (0 = first dealer, 1 = left, 2 = right)."""
    top = max(totals[0], max(totals[1], totals[2]))
    n_top = 0
    for s in range(3):
        if totals[s] == top:
            n_top += 1
    for s in range(3):
        rel = (s - first) % 3
        b = BASE_GAME + rel * G_FIELDS
        if totals[s] == top:
            if n_top == 1:
                row[b] += 1
            else:
                row[b + 1] += 1
        row[b + 2] += totals[s]
        row[b + 3] += totals[s] * totals[s]
        hb = BASE_HIST + rel * SCORE_BINS + min(max(totals[s] - SCORE_LO, 0), SCORE_BINS - 1)
        row[hb] += 1
    row[BASE_GAME + 3 * G_FIELDS] += 1


def _make_compare(solvers):
    """:func:`compare_chunks` with the search and solver players (``solvers``) or without them (the plain hand:
    a comparison of heuristic and random players compiles no solver player; docs/performance.md)."""

    def compare_chunks(chunk_ids, chunk_size, n_trials, key0, key1, field, challenger, pv, round_type, bv, out):
        """Paired: each trial is one hand of ``round_type`` dealt once and played three more times, once with
        each seat switched from ``field`` to ``challenger`` (the others stay on ``field``). Per role of the
        switching seat: n, field tricks, challenger tricks, sum and sum of squares of the trick difference, and
        the same for the score. The deal (with the dealer's widow discard and blind trump) is made once, by the
        field strategy; the switch is in the card play."""
        for ci in range(chunk_ids.shape[0]):
            c = chunk_ids[ci]
            start = c * chunk_size
            stop = min(start + chunk_size, n_trials)
            if solvers:
                _compare_range_full(start, stop, key0, key1, field, challenger, pv, round_type, bv, out[ci])
            else:
                _compare_range_plain(start, stop, key0, key1, field, challenger, pv, round_type, bv, out[ci])

    def _compare_range(start, stop, key0, key1, field, challenger, pv, round_type, bv, row):
        """:func:`compare_chunks`' trials ``start .. stop-1`` into one count row (inlined, as
        :func:`_simulate_range`)."""
        ttk, ttg, bufs, ways, scratch = new_solver_state(np.array([field, challenger], dtype=np.int64))
        hands, deck, rec, trace, dout, st_deal, st_plays = _chunk_buffers()
        dealt = np.zeros(4, dtype=np.uint64)
        base_rec = np.zeros((3, H_FIELDS), dtype=np.int64)
        strat = np.zeros(3, dtype=np.int64)
        for t in range(start, stop):
            rng.seed_state(st_deal, key0, key1, np.uint64(t), np.uint64(rng.STREAM_DEAL))
            dealer = rng.below(st_deal, 3)
            for s in range(3):
                rng.seed_state(st_plays[s], key0, key1, np.uint64(t), np.uint64(rng.STREAM_STRATEGY + s))
                strat[s] = field
            trump, known = deal_hand(st_deal, deck, dealt, round_type, dealer, bv, strat, st_plays, dout)
            for sw in range(-1, 3):
                for s in range(3):
                    rng.seed_state(st_plays[s], key0, key1, np.uint64(t), np.uint64(rng.STREAM_STRATEGY + s))
                    strat[s] = challenger if s == sw else field
                for s in range(3):
                    hands[s] = dealt[s]
                if solvers:
                    play_hand(
                        hands, dealer, round_type, trump, known, dout[0], strat, pv, bv, st_plays, ttk, ttg, bufs,
                        ways, scratch, rec, trace,
                    )  # fmt: skip
                else:
                    play_hand_plain(
                        hands, dealer, round_type, trump, known, dout[0], strat, pv, bv, st_plays, ttk, ttg, bufs,
                        ways, scratch, rec, trace,
                    )  # fmt: skip
                if sw < 0:
                    copy_rows(base_rec, rec)
                    continue
                role = (sw - dealer) % 3
                b = role * 8
                dt = rec[sw, H_TRICKS] - base_rec[sw, H_TRICKS]
                dsc = rec[sw, H_SCORE] - base_rec[sw, H_SCORE]
                row[b] += 1
                row[b + 1] += base_rec[sw, H_TRICKS]
                row[b + 2] += rec[sw, H_TRICKS]
                row[b + 3] += dt
                row[b + 4] += dt * dt
                row[b + 5] += base_rec[sw, H_SCORE]
                row[b + 6] += dsc
                row[b + 7] += dsc * dsc

    return chunk_jit(compare_chunks), jit_inline(_compare_range)


# module globals, not closure cells: numba keys a closure's cache entry on its cells' contents, and a dispatcher
# in a cell pickles differently in every process (the kernel would compile again on every run)
compare_chunks, _compare_range_full = _make_compare(True)
#: :func:`compare_chunks` for heuristic and random players only (the analysis layer picks it: ``uses_solvers``)
compare_plain_chunks, _compare_range_plain = _make_compare(False)


def _make_record_hand(solvers):
    """:func:`record_hand` with the search and solver players (``solvers``) or without (the plain hand)."""

    def record_hand(key0, key1, trial, strat, pv, round_type, bv, hands0, trace, info):
        """The hand of trial ``trial`` of ``simulate_chunks`` with one hand a trial (``unit_game = 0``): the same
        deal, dealer and draws. Writes the hands as play begins (after any widow exchange) to ``hands0``, the 48
        cards in the order played to ``trace[:48]`` and to ``info``: dealer, round type, trump, the card shown and
        out of play (a mask), the exchanging seat's discards (a mask), the 4 leftover cards as dealt (a mask)."""
        ttk, ttg, bufs, ways, scratch = new_solver_state(strat)
        hands, deck, rec, _trace, dout, st_deal, st_plays = _chunk_buffers()
        rng.seed_state(st_deal, key0, key1, np.uint64(trial), np.uint64(rng.STREAM_DEAL))
        for s in range(3):
            rng.seed_state(st_plays[s], key0, key1, np.uint64(trial), np.uint64(rng.STREAM_STRATEGY + s))
        dealer = rng.below(st_deal, 3)
        rtype, trump, known = deal_round(
            st_deal, deck, hands, round_type, ALL_ROUNDS, dealer, bv, strat, st_plays, dout
        )
        leftover = np.uint64(0)
        for i in range(48, 52):
            leftover |= np.uint64(1) << np.uint64(deck[i])
        for s in range(4):
            hands0[s] = hands[s]
        if solvers:
            play_hand(
                hands, dealer, rtype, trump, known, dout[0], strat, pv, bv, st_plays, ttk, ttg, bufs, ways, scratch, rec,
                trace,
            )  # fmt: skip
        else:
            play_hand_plain(
                hands, dealer, rtype, trump, known, dout[0], strat, pv, bv, st_plays, ttk, ttg, bufs, ways, scratch, rec,
                trace,
            )  # fmt: skip
        info[0] = dealer
        info[1] = rtype
        info[2] = trump
        info[3] = np.int64(known)
        info[4] = np.int64(dout[0])
        info[5] = np.int64(leftover)

    return jit(record_hand)


record_hand = _make_record_hand(True)
#: :func:`record_hand` for heuristic and random players only
record_hand_plain = _make_record_hand(False)
