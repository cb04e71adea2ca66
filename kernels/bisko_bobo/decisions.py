"""Bisko-Bobo kernels: decision values, paired strategy comparisons and the odds calculator, on common
random numbers (a deal replayed from the same seed with one decision forced each way).
"""

from __future__ import annotations

import numpy as np

from .. import rng
from .._jit import chunk_jit, jit
from ..advise import add_action, add_sample
from ..bits import copy_rows
from .deal import W_JINGO_CARD, deal_buffers, play_deal, simulate_deal
from .layout import (
    N_BUCKETS,
    R_BUCKET_FLINGO,
    R_FLINGO,
    R_JINGO,
    R_PTR,
    R_SWAP_INIT,
    R_WIN,
    REC_FIELDS,
    V_SWAP_OPTIONAL,
)

# =============================================================================================
# Decision values, strategy comparisons and the odds calculator (common random numbers)
# =============================================================================================
# A deal is replayed from the same seed with one decision forced each way; both replays see the same
# cards and the same strategy coins up to that decision, so the per-deal difference of the two win
# shares is a paired sample.

DEC_FLINGO = 0
DEC_SWAP = 1
DEC_TUCK = 2
DEC_STATS = 5  # n, sum w0, sum w1, sum (w1 - w0), sum (w1 - w0)^2  (win units of 1/60)


def decision_counts(players: int) -> int:
    return 3 * players * N_BUCKETS * DEC_STATS


@jit
def _win_units(
    P,
    hid,
    lod,
    variants,
    pj,
    ps,
    tgt,
    pt,
    forced,
    key0,
    key1,
    t,
    rec,
    keys,
    trace,
    hi,
    lo,
    st_deal,
    st_strat,
    ws,
    pack,
    seat,
):
    simulate_deal(
        P,
        hid,
        lod,
        variants,
        pj,
        ps,
        tgt,
        pt,
        forced,
        key0,
        key1,
        t,
        rec,
        keys,
        trace,
        hi,
        lo,
        st_deal,
        st_strat,
        ws,
        pack,
    )
    return rec[seat, R_WIN]


@jit
def _add_pair(row, base, w0, w1):
    d = w1 - w0
    row[base] += 1
    row[base + 1] += w0
    row[base + 2] += w1
    row[base + 3] += d
    row[base + 4] += d * d


@chunk_jit
def decision_chunks(chunk_ids, chunk_size, n_trials, key0, key1, P, hid, lod, variants, pj, ps, tgt, pt, pack, out):
    """For every seat and each of its decisions in a deal, the win share of both actions (BB-15).

    ``out[chunk]`` is laid out ``[decision 3][seat P][bucket N_BUCKETS][DEC_STATS]``; action 0/1 is
    Flingo/Jingo, no swap/swap (strategy's target), upright/tucked.
    """
    for ci in range(chunk_ids.shape[0]):
        c = chunk_ids[ci]
        start = c * chunk_size
        stop = min(start + chunk_size, n_trials)
        rec, keys, trace, hi, lo, forced, st_deal, st_strat, ws = deal_buffers(P, hid.shape[0], lod.shape[0])
        base_rec = np.zeros((P, REC_FIELDS), dtype=np.int64)
        row = out[ci]
        for t in range(start, stop):
            forced[:] = -1
            simulate_deal(
                P,
                hid,
                lod,
                variants,
                pj,
                ps,
                tgt,
                pt,
                forced,
                key0,
                key1,
                t,
                base_rec,
                keys,
                trace,
                hi,
                lo,
                st_deal,
                st_strat,
                ws,
                pack,
            )
            for s in range(P):
                for d in range(3):
                    b = base_rec[s, R_BUCKET_FLINGO + d]
                    if b < 0:
                        continue
                    slot = d * P + s if d == DEC_FLINGO else (P + s if d == DEC_SWAP else 2 * P + s)
                    forced[slot] = 0
                    w0 = _win_units(
                        P,
                        hid,
                        lod,
                        variants,
                        pj,
                        ps,
                        tgt,
                        pt,
                        forced,
                        key0,
                        key1,
                        t,
                        rec,
                        keys,
                        trace,
                        hi,
                        lo,
                        st_deal,
                        st_strat,
                        ws,
                        pack,
                        s,
                    )
                    forced[slot] = -2 if d == DEC_SWAP else 1
                    w1 = _win_units(
                        P,
                        hid,
                        lod,
                        variants,
                        pj,
                        ps,
                        tgt,
                        pt,
                        forced,
                        key0,
                        key1,
                        t,
                        rec,
                        keys,
                        trace,
                        hi,
                        lo,
                        st_deal,
                        st_strat,
                        ws,
                        pack,
                        s,
                    )
                    forced[slot] = -1
                    _add_pair(row, ((d * P + s) * N_BUCKETS + b) * DEC_STATS, w0, w1)


@chunk_jit
def compare_chunks(
    chunk_ids,
    chunk_size,
    n_trials,
    key0,
    key1,
    P,
    hid,
    lod,
    variants,
    pj_a,
    ps_a,
    tgt_a,
    pt_a,
    pj_b,
    ps_b,
    tgt_b,
    pt_b,
    pack,
    out,
):
    """Seat by seat: the field plays A; the seat plays A, then B, on the same deal.

    ``out[chunk]`` is ``[seat P][DEC_STATS]`` with w0 = the seat's win share on A, w1 on B.
    """
    for ci in range(chunk_ids.shape[0]):
        c = chunk_ids[ci]
        start = c * chunk_size
        stop = min(start + chunk_size, n_trials)
        rec, keys, trace, hi, lo, forced, st_deal, st_strat, ws = deal_buffers(P, hid.shape[0], lod.shape[0])
        pj = pj_a.copy()
        ps = ps_a.copy()
        tgt = tgt_a.copy()
        pt = pt_a.copy()
        base_w = np.zeros(P, dtype=np.int64)
        row = out[ci]
        for t in range(start, stop):
            simulate_deal(
                P,
                hid,
                lod,
                variants,
                pj_a,
                ps_a,
                tgt_a,
                pt_a,
                forced,
                key0,
                key1,
                t,
                rec,
                keys,
                trace,
                hi,
                lo,
                st_deal,
                st_strat,
                ws,
                pack,
            )
            for s in range(P):
                base_w[s] = rec[s, R_WIN]
            for s in range(P):
                copy_rows(pj[s], pj_b[s])  # not pj[s] = ...: kernels.bits.copy_rows
                copy_rows(ps[s], ps_b[s])
                tgt[s] = tgt_b[s]
                copy_rows(pt[s], pt_b[s])
                w1 = _win_units(
                    P,
                    hid,
                    lod,
                    variants,
                    pj,
                    ps,
                    tgt,
                    pt,
                    forced,
                    key0,
                    key1,
                    t,
                    rec,
                    keys,
                    trace,
                    hi,
                    lo,
                    st_deal,
                    st_strat,
                    ws,
                    pack,
                    s,
                )
                copy_rows(pj[s], pj_a[s])  # not pj[s] = ...: kernels.bits.copy_rows
                copy_rows(ps[s], ps_a[s])
                tgt[s] = tgt_a[s]
                copy_rows(pt[s], pt_a[s])
                _add_pair(row, s * DEC_STATS, base_w[s], w1)


ODDS_FIELDS = 2 + DEC_STATS  # attempts, accepted, then the pair statistics


@jit
def _sample_decks(st_deal, key0, key1, t, hi_template, hi_pool, pool_h, hi, lo_template, lo_pool, pool_l, lo):
    """Sample ``t``'s decks: the known cards at their template positions (>= 0), the unknown positions filled in
    order from a fresh shuffle of the pool (HIGH, then LOW): uniform over the decks consistent with the
    templates."""
    rng.seed_state(st_deal, key0, key1, np.uint64(t), np.uint64(rng.STREAM_DEAL))
    copy_rows(pool_h, hi_pool)
    rng.partial_shuffle(st_deal, pool_h, pool_h.shape[0])
    j = 0
    for i in range(hi_template.shape[0]):
        if hi_template[i] >= 0:
            hi[i] = hi_template[i]
        else:
            hi[i] = pool_h[j]
            j += 1
    copy_rows(pool_l, lo_pool)
    rng.partial_shuffle(st_deal, pool_l, pool_l.shape[0])
    j = 0
    for i in range(lo_template.shape[0]):
        if lo_template[i] >= 0:
            lo[i] = lo_template[i]
        else:
            lo[i] = pool_l[j]
            j += 1


@chunk_jit
def odds_chunks(
    chunk_ids,
    chunk_size,
    n_trials,
    key0,
    key1,
    P,
    hid,
    lod,
    variants,
    pj,
    ps,
    tgt,
    pt,
    pack,
    hi_template,
    hi_pool,
    lo_template,
    lo_pool,
    forced_base,
    seat,
    decision,
    jingos_before,
    seen_pos,
    out,
):
    """The odds calculator: resample the hidden cards, replay the seat's decision both ways.

    ``hi_template[i]`` is the known card at HIGH-deck position i or -1; the unknown positions are
    filled, in order, from a fresh shuffle of ``hi_pool`` (likewise LOW). A sample is accepted when the
    seat faces ``decision`` (DEC_*), when ``jingos_before`` (if >= 0) Jingos were taken before it, and
    when every card of ``seen_pos`` was dealt face up to an earlier seat's Flingo (a card given as seen
    is placed by the caller; ``seen_pos`` lists pool cards that must land there, see analysis).
    ``out[chunk]`` = [attempts, accepted, n, sum w0, sum w1, sum d, sum d^2].
    """
    n_hi = hi_template.shape[0]
    n_lo = lo_template.shape[0]
    for ci in range(chunk_ids.shape[0]):
        c = chunk_ids[ci]
        start = c * chunk_size
        stop = min(start + chunk_size, n_trials)
        rec, keys, trace, hi, lo, forced, st_deal, st_strat, ws = deal_buffers(P, n_hi, n_lo)
        copy_rows(forced, forced_base)
        pool_h = hi_pool.copy()
        pool_l = lo_pool.copy()
        row = out[ci]
        slot = seat if decision == DEC_FLINGO else (P + seat if decision == DEC_SWAP else 2 * P + seat)
        for t in range(start, stop):
            row[0] += 1
            _sample_decks(st_deal, key0, key1, t, hi_template, hi_pool, pool_h, hi, lo_template, lo_pool, pool_l, lo)
            # the base replay: does the seat face the decision, and is the past as the player saw it?
            forced[slot] = -1
            rng.seed_state(st_strat, key0, key1, np.uint64(t), np.uint64(rng.STREAM_STRATEGY))
            play_deal(P, hi, lo, variants, pj, ps, tgt, pt, forced, st_strat, rec, keys, trace, ws, pack)
            if rec[seat, R_BUCKET_FLINGO + decision] < 0:
                continue
            if decision == DEC_TUCK and ws[2][W_JINGO_CARD, seat] != hi[rec[seat, R_PTR]]:
                continue  # a swap changed the Jingo card: the position's card is the one dealt and kept
            if jingos_before >= 0:
                nj = 0
                for s in range(seat):
                    nj += rec[s, R_JINGO]
                if nj != jingos_before:
                    continue
            ok = True
            for q in range(seen_pos.shape[0]):
                pos = -1
                for i in range(n_hi):
                    if hi[i] == seen_pos[q]:
                        pos = i
                # the card must have been dealt face up in Risky-Bisk before the seat's own choice
                flung = False
                for s in range(seat):
                    if rec[s, R_FLINGO] == 1:
                        end = rec[s + 1, R_PTR] if s + 1 <= seat else rec[seat, R_PTR]
                        if rec[s, R_PTR] <= pos < end:
                            flung = True
                if not flung:
                    ok = False
            if not ok:
                continue
            row[1] += 1
            forced[slot] = 0
            rng.seed_state(st_strat, key0, key1, np.uint64(t), np.uint64(rng.STREAM_STRATEGY))
            play_deal(P, hi, lo, variants, pj, ps, tgt, pt, forced, st_strat, rec, keys, trace, ws, pack)
            w0 = rec[seat, R_WIN]
            forced[slot] = -2 if decision == DEC_SWAP else 1
            rng.seed_state(st_strat, key0, key1, np.uint64(t), np.uint64(rng.STREAM_STRATEGY))
            play_deal(P, hi, lo, variants, pj, ps, tgt, pt, forced, st_strat, rec, keys, trace, ws, pack)
            w1 = rec[seat, R_WIN]
            _add_pair(row, 2, w0, w1)


@chunk_jit
def odds_actions_chunks(
    chunk_ids, chunk_size, n_trials, key0, key1, P, hid, lod, variants, pj, ps, tgt, pt, pack, hi_template, hi_pool,
    lo_template, lo_pool, forced_base, seat, decision, jingo_mask, mask_seats, actions, out,
):  # fmt: skip
    """The advisor of one decision with any number of actions (the swap with whom, BB-6; a review's Flingo/Jingo,
    swap and placement, BB-5 .. BB-7): the decks sampled as in :func:`odds_chunks` (what the seat saw is in the
    templates and the earlier seats' actions in ``forced_base``); a sample is kept when the seat faces ``decision``
    (DEC_*) and the seats of ``mask_seats`` took a Jingo exactly where ``jingo_mask`` says; then each action
    (``actions[a]``, the value of the decision's ``forced`` slot: Flingo/Jingo 0/1; swap 0 none, 1 + j with seat
    j; placement 0 upright, 1 tucked) on the same deal and draws. The row is :mod:`kernels.advise`'s with win = an
    unshared win and score = the win share in 60ths (R_WIN); ``out[ci, 0]`` counts the attempts (rejection)
    before the advise row at ``out[ci, 1:]``."""
    n_hi = hi_template.shape[0]
    n_lo = lo_template.shape[0]
    A = actions.shape[0]
    slot = decision * P + seat
    for ci in range(chunk_ids.shape[0]):
        c = chunk_ids[ci]
        start = c * chunk_size
        stop = min(start + chunk_size, n_trials)
        rec, keys, trace, hi, lo, forced, st_deal, st_strat, ws = deal_buffers(P, n_hi, n_lo)
        copy_rows(forced, forced_base)
        pool_h = hi_pool.copy()
        pool_l = lo_pool.copy()
        row = out[ci, 1:]
        wins = np.zeros(A, dtype=np.int64)
        scores = np.zeros(A, dtype=np.int64)
        for t in range(start, stop):
            out[ci, 0] += 1
            _sample_decks(st_deal, key0, key1, t, hi_template, hi_pool, pool_h, hi, lo_template, lo_pool, pool_l, lo)
            forced[slot] = -1
            rng.seed_state(st_strat, key0, key1, np.uint64(t), np.uint64(rng.STREAM_STRATEGY))
            play_deal(P, hi, lo, variants, pj, ps, tgt, pt, forced, st_strat, rec, keys, trace, ws, pack)
            # the seat faces the decision: a free choice (its bucket is set), or, under bingo_swap_optional=false,
            # the swap it must start (no bucket: whether is no choice, with whom is)
            must_swap = decision == DEC_SWAP and variants[V_SWAP_OPTIONAL] == 0 and rec[seat, R_SWAP_INIT] == 1
            if rec[seat, R_BUCKET_FLINGO + decision] < 0 and not must_swap:
                continue
            same = True
            for s in range(P):
                if (mask_seats >> s) & 1 and rec[s, R_JINGO] != (jingo_mask >> s) & 1:
                    same = False
            if not same:
                continue
            for a in range(A):
                forced[slot] = actions[a]
                rng.seed_state(st_strat, key0, key1, np.uint64(t), np.uint64(rng.STREAM_STRATEGY))
                play_deal(P, hi, lo, variants, pj, ps, tgt, pt, forced, st_strat, rec, keys, trace, ws, pack)
                w = rec[seat, R_WIN]
                add_action(row, a, 1 if w == 60 else 0, w, 0, wins, scores)
            add_sample(row, A, wins, scores)
