"""Bisko-Bobo kernels: the chunk kernels of the simulation (the driver's calling convention): the lanes
where they apply, the scalar deal for the rest.

Two chunk kernels give the same counts: :func:`simulate_chunks` plays eight deals at a time in SIMD lanes and
the few trials a chunk leaves (and lanes to replay) by the compiled scalar deal, called; :func:`simulate_scalar_chunks`
inlines the scalar deal into its loop, for settings the lanes do not play (:func:`.lanes.lanes_apply`; the
analysis layer picks the kernel). Each compiles only its own loop: the inlined scalar loop was a third of a cold
``simulate bisko-bobo``'s compiling, for the up to seven trials a chunk the lanes left (docs/performance.md).
"""

from __future__ import annotations

import numpy as np

from .._jit import borrowed, chunk_jit, jit, jit_inline
from .deal import (
    H_DEAL,
    H_SEAT,
    _play_deal_inline,
    accumulate,
    deal_buffers,
    decode_hist,
    simulate_deal_x,
    start_attempt,
)
from .lanes import _lanes_loop, lane_buffers, lanes_apply
from .layout import MAX_REDEALS

# =============================================================================================
# The chunk kernels of the simulation: the lanes where they apply, the scalar deal for the rest
# =============================================================================================


def _make_chunks(lanes):
    """The driver's kernel, with the lanes (``lanes``: :func:`_simulate_range`) or the scalar loop alone
    (:func:`_scalar_range`); a constant of the closure, so each compiles its own loop only."""

    def simulate_chunks(
        chunk_ids, chunk_size, n_trials, key0, key1, P, hi_deck, lo_deck, variants, p_jingo, p_swap, swap_target,
        p_tuck, pack, out,
    ):  # fmt: skip
        """Accumulate deal records for each chunk into ``out[chunk]``."""
        for ci in range(chunk_ids.shape[0]):
            c = chunk_ids[ci]
            start = c * chunk_size
            stop = min(start + chunk_size, n_trials)
            if lanes:
                _simulate_range(
                    start, stop, key0, key1, P, hi_deck, lo_deck, variants, p_jingo, p_swap, swap_target, p_tuck,
                    pack, out[ci],
                )  # fmt: skip
            else:
                _scalar_range(
                    start, stop, key0, key1, P, hi_deck, lo_deck, variants, p_jingo, p_swap, swap_target, p_tuck,
                    pack, out[ci],
                )  # fmt: skip

    return chunk_jit(simulate_chunks)


#: The lanes where they apply (where they do not, :func:`simulate_scalar_chunks` gives the same counts faster).
simulate_chunks = _make_chunks(True)
#: The scalar deal alone, inlined in the loop: the kernel for settings the lanes do not play.
simulate_scalar_chunks = _make_chunks(False)


@jit_inline
def _simulate_range(
    start, stop, key0, key1, P, hi_deck, lo_deck, variants, p_jingo, p_swap, swap_target, p_tuck, pack, row
):
    """Trials ``start .. stop-1`` into one count row: eight at a time in SIMD lanes where they apply
    (:func:`lanes_apply`), the rest (and every trial where they do not) by the compiled scalar deal
    (:func:`.deal.simulate_deal_x`, which calls ``play_deal`` through its cell, compiled on a run's first scalar
    deal). The two give the same counts."""
    hist = np.zeros(P * H_SEAT + H_DEAL + 1, dtype=np.int64)  # + the lanes' dump bin (never decoded)
    bufs = deal_buffers(P, hi_deck.shape[0], lo_deck.shape[0])
    t = start
    if lanes_apply(P, hi_deck, lo_deck, variants, p_jingo, p_swap, swap_target, p_tuck):
        t = _lanes_loop(
            start,
            stop,
            key0,
            key1,
            P,
            hi_deck,
            lo_deck,
            variants,
            p_jingo,
            p_swap,
            swap_target,
            p_tuck,
            pack,
            bufs,
            lane_buffers(P, hi_deck, lo_deck, p_jingo, p_swap, swap_target, p_tuck),
            hist,
            row,
        )
    rec, keys, trace, hi, lo, forced, st_deal, st_strat, ws = bufs
    for trial in range(t, stop):
        n_win, redeals = simulate_deal_x(
            P, hi_deck, lo_deck, variants, p_jingo, p_swap, swap_target, p_tuck, forced, key0, key1, trial, rec, keys,
            trace, hi, lo, st_deal, st_strat, ws, pack,
        )  # fmt: skip
        accumulate(row, P, rec, hi, n_win, redeals, hist)
    decode_hist(P, hist, row)


@jit_inline
def _scalar_range(
    start, stop, key0, key1, P, hi_deck, lo_deck, variants, p_jingo, p_swap, swap_target, p_tuck, pack, row
):
    """Trials ``start .. stop-1`` into one count row by :func:`_simulate_loop` (the scalar deal inlined)."""
    hist = np.zeros(P * H_SEAT + H_DEAL, dtype=np.int64)
    bufs = deal_buffers(P, hi_deck.shape[0], lo_deck.shape[0])
    _simulate_loop(
        start, stop, key0, key1, P, hi_deck, lo_deck, variants, p_jingo, p_swap, swap_target, p_tuck, pack, row, bufs,
        hist,
    )  # fmt: skip
    decode_hist(P, hist, row)


@jit
def simulate_range_scalar(
    start, stop, key0, key1, P, hi_deck, lo_deck, variants, p_jingo, p_swap, swap_target, p_tuck, pack, row
):
    """:func:`_simulate_range` without the lanes (tests hold the two to each other)."""
    _scalar_range(
        start, stop, key0, key1, P, hi_deck, lo_deck, variants, p_jingo, p_swap, swap_target, p_tuck, pack, row
    )


@jit
def _simulate_loop(
    start, stop, key0, key1, P, hi_deck, lo_deck, variants, p_jingo, p_swap, swap_target, p_tuck, pack, row, bufs, hist
):
    """:func:`_scalar_range`'s loop, on borrowed views of the arguments: no reference counting in the loop
    (kernels._jit.borrowed)."""
    hi_deck, lo_deck, variants, p_jingo, p_swap, swap_target, p_tuck, pack, row, bufs, hist = borrowed(
        (hi_deck, lo_deck, variants, p_jingo, p_swap, swap_target, p_tuck, pack, row, bufs, hist)
    )
    rec, keys, trace, hi, lo, forced, st_deal, st_strat, ws = bufs
    for t in range(start, stop):
        attempt = 0
        while True:
            start_attempt(P, hi_deck, lo_deck, key0, key1, t, attempt, hi, lo, st_deal, st_strat)
            n_win = _play_deal_inline(
                P,
                hi,
                lo,
                variants,
                p_jingo,
                p_swap,
                swap_target,
                p_tuck,
                forced,
                st_strat,
                rec,
                keys,
                trace,
                ws,
                pack,
                True,
            )
            if n_win >= 0 or attempt >= MAX_REDEALS:
                break
            attempt += 1
        accumulate(row, P, rec, hi, n_win, attempt, hist)
