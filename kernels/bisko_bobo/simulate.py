"""Bisko-Bobo kernels: the chunk kernels of the simulation (the driver's calling convention): the lanes
where they apply, the scalar deal for the rest.
"""

from __future__ import annotations

import numpy as np

from .._jit import borrowed, chunk_jit, jit, jit_inline
from .deal import H_DEAL, H_SEAT, _play_deal_inline, accumulate, deal_buffers, decode_hist, start_attempt
from .lanes import _lanes_loop, lane_buffers, lanes_apply
from .layout import MAX_REDEALS

# =============================================================================================
# The chunk kernels of the simulation: the lanes where they apply, the scalar deal for the rest
# =============================================================================================


@chunk_jit
def simulate_chunks(
    chunk_ids,
    chunk_size,
    n_trials,
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
    out,
):
    """The driver's kernel: accumulate deal records for each chunk into ``out[chunk]``."""
    for ci in range(chunk_ids.shape[0]):
        c = chunk_ids[ci]
        start = c * chunk_size
        stop = min(start + chunk_size, n_trials)
        _simulate_range(
            start, stop, key0, key1, P, hi_deck, lo_deck, variants, p_jingo, p_swap, swap_target, p_tuck, pack, out[ci]
        )


@jit_inline
def _simulate_range(
    start, stop, key0, key1, P, hi_deck, lo_deck, variants, p_jingo, p_swap, swap_target, p_tuck, pack, row
):
    """Trials ``start .. stop-1`` into one count row: eight at a time in SIMD lanes where they apply
    (:func:`lanes_apply`), the rest (and every trial where they do not) by :func:`_simulate_loop`, the scalar deal
    inlined. The two give the same counts."""
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
    _simulate_loop(
        t, stop, key0, key1, P, hi_deck, lo_deck, variants, p_jingo, p_swap, swap_target, p_tuck, pack, row, bufs, hist
    )
    decode_hist(P, hist, row)


@jit
def simulate_range_scalar(
    start, stop, key0, key1, P, hi_deck, lo_deck, variants, p_jingo, p_swap, swap_target, p_tuck, pack, row
):
    """:func:`_simulate_range` without the lanes (tests hold the two to each other)."""
    hist = np.zeros(P * H_SEAT + H_DEAL, dtype=np.int64)
    _simulate_loop(
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
        row,
        deal_buffers(P, hi_deck.shape[0], lo_deck.shape[0]),
        hist,
    )
    decode_hist(P, hist, row)


@jit
def _simulate_loop(
    start, stop, key0, key1, P, hi_deck, lo_deck, variants, p_jingo, p_swap, swap_target, p_tuck, pack, row, bufs, hist
):
    """:func:`_simulate_range`'s loop, on borrowed views of the arguments: no reference counting in the loop
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
