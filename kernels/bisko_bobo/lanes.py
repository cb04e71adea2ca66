"""Bisko-Bobo kernels: eight deals at a time in SIMD lanes (kernels.simd), giving the scalar deal's counts
exactly, and the batch evaluators built on the same vectors.
"""

from __future__ import annotations

import numpy as np

from .. import rng, simd
from .._jit import borrowed, jit, jit_inline
from ..simd import (
    vany,
    vclz,
    veq,
    vgather,
    vge,
    vgt,
    viota,
    vlane,
    vload,
    vlt,
    vmax,
    vmax_lane,
    vmin,
    vmulu32,
    vne,
    vpopcount,
    vscatter,
    vselect,
    vshl,
    vshr,
    vsplat,
    vstore,
    vsum,
)
from .deal import H_DEAL, H_SEAT, H_WIN, HA, HB, HC, accumulate, deal_decks, make_workspace, play_deal, simulate_deal_x
from .evaluator import ASSIGN_BASE, _card_bit, _word_key, bisk_key4
from .layout import (
    JACK,
    JINGO_SHAPE,
    N_FIT,
    N_REL,
    REC_FIELDS,
    V_BEDTIME,
    V_DEPTH,
    V_EXACT_TIE,
    V_JINGO_RULE,
    V_REWARD_CHAIN,
    V_SPLIT,
    V_SUIT_ORDER,
    V_SWAP_OPTIONAL,
    V_TUCK_RULE,
)

# =============================================================================================
# The simulation loop, eight deals at a time (SIMD lanes)
# =============================================================================================
#
# The deal above branches on the cards at every step (Bisko or Tuck, Flingo or Jingo, a reward, a swap, a tuck,
# the type of each set, the winner); those branches cannot be predicted, and they were the larger part of a deal's
# time (its profile was flat, no line over ~6%). The lane form plays LANES = 8 consecutive trials side by side,
# each per-deal quantity one kernels.simd vector (a lane a deal), each phase a masked step with no branch on the
# cards; the shuffles of the eight deals are computed together too (their Philox block and their swaps), which had
# been a quarter of the scalar deal's time. It gives the scalar loop's counts exactly, deal for deal (tests hold
# the two to each other over every variant, strategy and player count), and is taken where it applies
# (:func:`lanes_apply`: strategies whose decisions are all certain, p in {0, 1} and a target rule other than
# random, as every built-in strategy but ``random``; not allow_same_suit_split or flingo_reward_chain).
# A rejected shuffle word (~4% of 4-player deals) is redrawn in the vectors, the lane's next word for the same
# batch as next32 would give it. A lane that needs what the vectors leave out goes to the scalar code: more words
# than one Philox block (the decks from deal_decks), an evaluation set of more than 6 cards, or a redeal (the whole
# trial replayed by play_deal, as the scalar loop would play it).
#
# Layout: per-lane values of seat s and field f at ``S[(f * P + s) * 8 ...]`` (:func:`_o`), decks lane-minor
# (position p of lane l at ``8p + l``), booleans as masks (-1 true, 0 false).

LANES = simd.N
JACK_BITS = (1 << JACK) | (1 << (13 + JACK)) | (1 << (26 + JACK)) | (1 << (39 + JACK))
N_JINGO = JINGO_SHAPE[0] * JINGO_SHAPE[1] * JINGO_SHAPE[2] * JINGO_SHAPE[3]  # p_jingo entries per seat
MAX_LANE_WORDS = 8  # the lanes draw one Philox block (8 words) a deal: every deck shape needs at most 6
(
    F_UP,
    F_TK,
    F_BIS,
    F_OSU,
    F_JBIT,
    F_JSU,
    F_FREE,
    F_FFL,
    F_FL,
    F_REW,
    F_SWI,
    F_SWD,
    F_TJ,
    F_KEY,
    F_TYP,
    F_DBL,
    F_POS,
) = range(17)  # upright, tucked, opening Bisko, opening suit, Jingo card bit and suit, free choice,
N_F = 17  # free Flingo, Flingo, reward, swap started, swapped, Jingo tucked, key, type, double
#                             Bedtime, swap-order position (first the LOW key)


@jit_inline
def _o(f, s, P):
    """Where field ``f`` of seat ``s`` starts in the lane state ``S``."""
    return (f * P + s) * LANES


@jit_inline
def _suit(c):
    """``c // 13`` for cards 0 <= c < 52, lane by lane (a multiply and a shift: vectors have no division; vmulu32, as
    the 64-bit multiply would be vpmullq)."""
    return vmulu32(c, 5042) >> 16


@jit
def lanes_apply(P, hi_deck, lo_deck, variants, p_jingo, p_swap, swap_target, p_tuck):
    """Whether the lane form plays these variants and strategies (see the section's comment)."""
    if variants[V_SPLIT] != 0 or variants[V_REWARD_CHAIN] != 0:
        return False
    for x in p_jingo.ravel():
        if 0.0 < x < 1.0:
            return False
    for x in p_swap.ravel():
        if 0.0 < x < 1.0:
            return False
    for x in p_tuck.ravel():
        if 0.0 < x < 1.0:
            return False
    for s in range(P):
        if swap_target[s] == 2:
            return False
    n_words = rng.batch_table(hi_deck.shape[0], hi_deck.shape[0]).shape[0]
    return n_words + rng.batch_table(lo_deck.shape[0], P).shape[0] <= MAX_LANE_WORDS


@jit
def lane_buffers(P, hi_deck, lo_deck, p_jingo, p_swap, swap_target, p_tuck):
    """The lanes' tables and buffers: the strategies as masks (PJ, PS, PT) and target rules (TG), the decks (hiL,
    loL), the state S, the lanes' histogram (H8: bin b of lane l at ``8b + l``), shuffle batches (BH, BL:
    rng.batch_table), words (WRD), swap indices (SW)."""
    n_hi = hi_deck.shape[0]
    n_lo = lo_deck.shape[0]
    PJ = np.zeros(P * N_JINGO, dtype=np.int64)
    PS = np.zeros(P * N_FIT * 2, dtype=np.int64)
    PT = np.zeros(P * N_REL, dtype=np.int64)
    TG = np.zeros(P, dtype=np.int64)
    fj = p_jingo.ravel()
    fs = p_swap.ravel()
    ft = p_tuck.ravel()
    for i in range(P * N_JINGO):
        PJ[i] = -np.int64(fj[i] >= 1.0)  # as _coin: p >= 1 always, p <= 0 never
    for i in range(P * N_FIT * 2):
        PS[i] = -np.int64(fs[i] >= 1.0)
    for i in range(P * N_REL):
        PT[i] = -np.int64(ft[i] >= 1.0)
    for s in range(P):
        TG[s] = swap_target[s]
    return (
        PJ,
        PS,
        PT,
        TG,
        np.zeros(LANES * n_hi, dtype=np.int64),
        np.zeros(LANES * n_lo, dtype=np.int64),
        np.zeros(N_F * P * LANES, dtype=np.int64),
        np.zeros((P * H_SEAT + H_DEAL + 1) * LANES, dtype=np.int64),
        rng.batch_table(n_hi, n_hi),
        rng.batch_table(n_lo, P),
        np.zeros(MAX_LANE_WORDS * LANES, dtype=np.int64),
        np.zeros(max(n_hi, n_lo) * LANES, dtype=np.int64),
    )


MASK32 = 0xFFFFFFFF
M0H, M0L = int(rng.M0) >> 32, int(rng.M0) & MASK32
M1H, M1L = int(rng.M1) >> 32, int(rng.M1) & MASK32


@jit_inline
def _vmulhilo(c, mh, ml):
    """The high and low 64-bit halves of ``c * (mh << 32 | ml)`` in every lane (four 32x32 multiplies)."""
    cl = c & MASK32
    ch = vshr(c, 32)
    ll = cl * ml
    lh = cl * mh
    hl = ch * ml
    hh = ch * mh
    mid = vshr(ll, 32) + (lh & MASK32) + (hl & MASK32)
    return hh + vshr(lh, 32) + vshr(hl, 32) + vshr(mid, 32), (mid << 32) | (ll & MASK32)


@jit_inline
def _vphilox_words(trials, key0, key1, words):
    """The first Philox4x64-10 block of the deal stream of each lane's trial (rng.seed_state, STREAM_DEAL), as
    the eight 32-bit words next32 would give, word w of every lane at ``words[8w : 8w + 8]``."""
    c0 = vsplat(0)
    c1 = trials
    c2 = vsplat(rng.STREAM_DEAL)
    c3 = vsplat(0)
    k0 = key0
    k1 = key1
    for r in range(10):
        if r > 0:
            k0 = k0 + rng.W0
            k1 = k1 + rng.W1
        hi0, lo0 = _vmulhilo(c0, M0H, M0L)
        hi1, lo1 = _vmulhilo(c2, M1H, M1L)
        c0, c1, c2, c3 = hi1 ^ c1 ^ vsplat(k0), lo1, hi0 ^ c3 ^ vsplat(k1), lo0
    vstore(words, 0, c0 & MASK32)
    vstore(words, 8, vshr(c0, 32))
    vstore(words, 16, c1 & MASK32)
    vstore(words, 24, vshr(c1, 32))
    vstore(words, 32, c2 & MASK32)
    vstore(words, 40, vshr(c2, 32))
    vstore(words, 48, c3 & MASK32)
    vstore(words, 56, vshr(c3, 32))


@jit_inline
def _vshuffle(deck, n, batches, wp, words, D, SW):
    """rng.partial_shuffle of ``deck`` (n cards) in every lane at once, lane-minor into ``D`` (position p of lane l
    at ``D[8p + l]``); ``batches`` rows (first, end, 2**32 mod the product of the ranges). Lane l takes its words
    from ``words[8w + l]`` starting at ``w = wp[l]``, and a word rejected for a batch is followed by the next one
    for the same batch, as next32 gives them to the scalar shuffle. Returns (the next word of each lane, the
    lanes that ran past the block's 8 words: their D is wrong)."""
    iota = viota()
    for p in range(n):
        vstore(D, p * LANES, vsplat(deck[p]))
    over = vsplat(0)
    for b in range(batches.shape[0]):
        i = batches[b, 0]
        j = batches[b, 1]
        over = over | vgt(wp, MAX_LANE_WORDS - 1)
        x = vgather(words, vmin(wp, MAX_LANE_WORDS - 1) * LANES + iota)
        for t in range(i, j):
            m = vmulu32(x, n - t)  # both below 2**32: one vpmuludq
            vstore(SW, t * LANES, (vshr(m, 32) + t) * LANES + iota)
            x = m & MASK32
        rej = vlt(x, batches[b, 2]) & ~over
        wp = wp + 1
        while vany(rej) != 0:  # ~4% of 4-player deals have a rejected word
            over = over | (vgt(wp, MAX_LANE_WORDS - 1) & rej)
            x = vgather(words, vmin(wp, MAX_LANE_WORDS - 1) * LANES + iota)
            wp = wp - rej
            for t in range(i, j):
                m = vmulu32(x, n - t)
                vstore(SW, t * LANES, vselect(rej, (vshr(m, 32) + t) * LANES + iota, vload(SW, t * LANES)))
                x = m & MASK32
            rej = rej & vlt(x, batches[b, 2]) & ~over
        for t in range(i, j):
            at = vload(SW, t * LANES)
            a = vload(D, t * LANES)
            vstore(D, t * LANES, vgather(D, at))
            vscatter(D, at, a)
    return wp, over


@jit_inline
def _lanes_deal(t0, key0, key1, P, hi_deck, lo_deck, BH, BL, WRD, SW, hiL, loL, st_deal, hi, lo, first_word):
    """The decks of trials ``t0 .. t0 + 7`` into ``hiL``/``loL`` (lane-minor), as deal_decks shuffles them (attempt
    0): the HIGH deck, then the LOW deck from the words after it, from word ``first_word`` of the block (0; tests
    start later to reach the fallback). A lane that would need more than the block's 8 words (five rejections in
    one deal: not seen in 10M deals) takes deal_decks itself. Returns (the words each lane used, the lanes that
    fell back)."""
    _vphilox_words(viota() + t0, key0, key1, WRD)
    wp, over = _vshuffle(hi_deck, hi_deck.shape[0], BH, vsplat(first_word), WRD, hiL, SW)
    wp, over_lo = _vshuffle(lo_deck, lo_deck.shape[0], BL, wp, WRD, loL, SW)
    over = over | over_lo
    if vany(over) != 0:
        _deal_lanes_scalar(
            vsum(over & vshl(1, viota())), t0, key0, key1, P, hi_deck, lo_deck, hiL, loL, st_deal, hi, lo
        )
    return wp, over


@jit
def _deal_lanes_scalar(lanes, t0, key0, key1, P, hi_deck, lo_deck, hiL, loL, st_deal, hi, lo):
    """deal_decks for the lanes in the bit mask ``lanes``, into their columns of ``hiL``/``loL``."""
    for l in range(LANES):
        if (lanes >> l) & 1:
            rng.seed_state(st_deal, key0, key1, np.uint64(t0 + l), np.uint64(rng.STREAM_DEAL))
            deal_decks(st_deal, hi_deck, lo_deck, hi, lo, P)
            for p in range(hi_deck.shape[0]):
                hiL[p * LANES + l] = hi[p]
            for p in range(lo_deck.shape[0]):
                loL[p * LANES + l] = lo[p]


@jit
def lane_decks(t0, key0, key1, P, hi_deck, lo_deck, first_word):
    """The decks of trials ``t0 .. t0 + 7`` as the lanes deal them, for tests: (hi[8, n_hi], lo[8, n_lo], the
    words each lane used, the lanes that fell back to the scalar shuffle)."""
    n_hi = hi_deck.shape[0]
    n_lo = lo_deck.shape[0]
    hiL = np.zeros(LANES * n_hi, dtype=np.int64)
    loL = np.zeros(LANES * n_lo, dtype=np.int64)
    wp, over = _lanes_deal(
        t0,
        key0,
        key1,
        P,
        hi_deck,
        lo_deck,
        rng.batch_table(n_hi, n_hi),
        rng.batch_table(n_lo, P),
        np.zeros(MAX_LANE_WORDS * LANES, dtype=np.int64),
        np.zeros(max(n_hi, n_lo) * LANES, dtype=np.int64),
        hiL,
        loL,
        rng.new_state(),
        np.empty(n_hi, dtype=np.int64),
        np.empty(n_lo, dtype=np.int64),
        first_word,
    )
    words = np.zeros(LANES, dtype=np.int64)
    fell_back = np.zeros(LANES, dtype=np.bool_)
    for l in range(LANES):
        words[l] = vlane(wp, l) - first_word
        fell_back[l] = vlane(over, l) != 0
    return hiL.reshape((n_hi, LANES)).T.copy(), loL.reshape((n_lo, LANES)).T.copy(), words, fell_back


@jit_inline
def _ventry(x, pack):
    """:func:`_table_entry` in every lane for the sets ``x`` (words of four 13-bit suit fields), and the mask of
    the sets of more than 6 cards, which the table does not cover (they read a valid entry, unused)."""
    c0 = vpopcount(x & 8191)
    c1 = vpopcount((x >> 13) & 8191)
    c2 = vpopcount((x >> 26) & 8191)
    c3 = vpopcount((x >> 39) & 8191)
    big = vgt(c0 + c1 + c2 + c3, 6)
    return vgather(pack, ((c0 + 7 * c1 + 49 * c2 + 343 * c3) & ~big) + ASSIGN_BASE), big


@jit_inline
def _vkey(x, e, order_mode, depth):
    """:func:`_table_key` in every lane (BB-12): the evaluation set ``x`` as one word of four 13-bit suit fields,
    ``e`` its table entry (:func:`_table_entry`); the Bisk and the No Bisk key both built, one selected."""
    t = e & 15
    comps = e >> (4 + 15 * order_mode)
    suits_field = vsplat(0)
    ranks = vsplat(0)
    for i in range(3):
        cz = (comps >> (5 * i)) & 31
        z = cz >> 2
        su = cz & 3
        has = vgt(z, 0)
        suits_field = suits_field | (((su + 1) & has) << (3 * (2 - i)))
        m = (x >> (su * 13)) & 8191 & has  # a component is its suit's every card (at most 6 cards in all)
        if depth == 1:
            if i == 0:
                m = m & -vshl(1, (63 - vclz(m)) & 63)  # its highest rank alone
            else:
                m = vsplat(0)
        ranks = ranks | (m << (37 - 13 * i))
    bisk = (t << 59) | (suits_field << 50) | ranks
    none = vsplat(0)
    slot = vsplat(0)
    for s in range(3, -1, -1):
        m = (x >> (13 * s)) & 8191
        has = vne(m, 0)
        card = (s * 13 + 64) - vclz(m)
        use = has
        if depth == 1:
            use = has & veq(slot, 0)
        none = none | ((card & use) << (35 + 6 * (3 - slot)))
        slot = slot - has
    return vselect(vgt(t, 0), bisk, none)


@jit_inline
def _lanes_batch(
    t0, key0, key1, P, hi_deck, lo_deck, variants, p_jingo, p_swap, tgt, p_tuck, pack, bufs, lbufs, hist, row
):
    """Trials ``t0 .. t0 + 7``, one a lane, played as the scalar deal plays them (:func:`_play_deal`, whose
    comments give the rules phase by phase) and counted into ``hist`` as :func:`accumulate` counts them; a lane
    with an evaluation set of more than 6 cards or a tie to redeal is replayed by :func:`play_deal` instead."""
    hi_deck, lo_deck, variants, p_jingo, p_swap, tgt, p_tuck, pack, bufs, lbufs, hist, row = borrowed(
        (hi_deck, lo_deck, variants, p_jingo, p_swap, tgt, p_tuck, pack, bufs, lbufs, hist, row)
    )
    PJ, PS, PT, TG, hiL, loL, S, H8, BH, BL, WRD, SW = lbufs
    rec, keys, trace, hi, lo, forced, st_deal, st_strat, ws = bufs
    n_hi = hi_deck.shape[0]
    k = n_hi // 4
    order_mode = variants[V_SUIT_ORDER]
    depth = variants[V_DEPTH]
    jrule = variants[V_JINGO_RULE]
    trule = -np.int64(variants[V_TUCK_RULE] == 1)
    iota = viota()
    _lanes_deal(t0, key0, key1, P, hi_deck, lo_deck, BH, BL, WRD, SW, hiL, loL, st_deal, hi, lo, 0)
    zero = vsplat(0)
    # ---- BB-4 Opening Bisk: a Bisko (both cards one suit) upright, else the second card tucked
    vis = zero
    flater = zero
    for s in range(P):
        a = vload(hiL, s * LANES)
        b = vload(hiL, (P + s) * LANES)
        sa = _suit(a)
        sb = _suit(b)
        bis = veq(sa, sb)
        bb = vshl(1, b)
        vstore(S, _o(F_UP, s, P), vshl(1, a) | (bb & bis))
        vstore(S, _o(F_TK, s, P), bb & ~bis)
        vis = vis + vshl(1, sa << 3) + vshl(1, sb << 3)
        vstore(S, _o(F_BIS, s, P), bis)
        vstore(S, _o(F_OSU, s, P), sa)
        vstore(S, _o(F_SWI, s, P), zero)
        vstore(S, _o(F_SWD, s, P), zero)
        flater = flater - bis
    wb = vshl(1, vload(hiL, 2 * P * LANES))
    ptr = vsplat(2 * P + 1)
    jingos = zero
    # ---- BB-5 Risky-Bisk in seat order: the Jingo-count constraint, the strategy's choice, the reward card
    for s in range(P):
        bis = vload(S, _o(F_BIS, s, P))
        flater = flater + bis
        free_later = (P - 1 - s) - flater
        if jrule == 1:
            f0 = veq(free_later, 0)
            fok = ~(f0 & veq(jingos + flater, 1))
            jok = ~(f0 & veq(jingos + flater, 0))
        else:
            fok = vsplat(-1)
            jok = vsplat(-1)
        free = ~bis & fok & jok
        us = vload(S, _o(F_OSU, s, P))
        unseen = vmin(vmax(k - ((vis >> (us << 3)) & 255), 0), 8)
        jb = vmin(jingos, 2)
        lf = vgt(free_later, 0) & 1
        pj = vgather(PJ, (((jb * 2 + lf) * 4 + us) * 9 + unseen) + s * N_JINGO)
        tj = bis | (free & pj) | (~bis & ~free & jok)
        c = vgather(hiL, ptr * LANES + iota)
        cs = _suit(c)
        cb = vshl(1, c)
        fl = ~tj
        vstore(S, _o(F_JBIT, s, P), cb & tj)
        vstore(S, _o(F_JSU, s, P), vselect(tj, cs, -1))
        rew = fl & veq(cs, us) & vlt(ptr + 1, n_hi)
        c2 = vgather(hiL, vmin(ptr + 1, n_hi - 1) * LANES + iota)
        vstore(S, _o(F_UP, s, P), vload(S, _o(F_UP, s, P)) | (cb & fl) | (vshl(1, c2) & rew))
        vis = vis + (vshl(1, cs << 3) & fl) + (vshl(1, _suit(c2) << 3) & rew)
        ptr = ptr + 1 - rew
        jingos = jingos - tj
        vstore(S, _o(F_FREE, s, P), free)
        vstore(S, _o(F_FFL, s, P), free & fl)
        vstore(S, _o(F_FL, s, P), fl)
        vstore(S, _o(F_REW, s, P), rew)
    # ---- BB-6 Bingo-Bango, every lane at once: the LOW cards go to the Jingo players in seat order; a player's
    #      position is the number of higher LOW keys (rank * 4 + suit); positions in order, each swapping (or not)
    #      with an eligible later position not yet exchanged (``ux``)
    cnt = zero
    keys_m = zero
    for s in range(P):
        isj = vge(vload(S, _o(F_JSU, s, P)), 0)
        c = vgather(loL, cnt * LANES + iota)
        su = _suit(c)
        key = (c - su * 13) * 4 + su
        vstore(S, _o(F_POS, s, P), vselect(isj, key, -1))
        keys_m = keys_m | (vshl(1, key) & isj)
        cnt = cnt - isj
    for s in range(P):
        key = vload(S, _o(F_POS, s, P))
        vstore(S, _o(F_POS, s, P), vselect(vge(key, 0), vpopcount(keys_m >> (key + 1)), -1))
    ux = vshl(1, cnt) - 1
    must_rule = -np.int64(variants[V_SWAP_OPTIONAL] == 0)
    for i in range(P):
        elig = ux & ~((np.int64(2) << i) - 1)
        active = vne((ux >> i) & 1, 0) & vne(elig, 0)
        if vany(active) == 0:
            continue
        # the seat at position i (sv) and its fields, by masks over the seats (cheaper than gathers from S)
        sv = zero
        js_s = zero
        up_s = zero
        tk_s = zero
        bis = zero
        jb_s = zero
        rule = zero
        for s in range(P):
            m = veq(vload(S, _o(F_POS, s, P)), i)
            sv = sv | (m & s)
            js_s = js_s | (vload(S, _o(F_JSU, s, P)) & m)
            up_s = up_s | (vload(S, _o(F_UP, s, P)) & m)
            tk_s = tk_s | (vload(S, _o(F_TK, s, P)) & m)
            bis = bis | (vload(S, _o(F_BIS, s, P)) & m)
            jb_s = jb_s | (vload(S, _o(F_JBIT, s, P)) & m)
            rule = rule | (m & TG[s])
        bis = bis & 1
        ms = js_s & active  # my Jingo card's suit (0 where inactive)
        sh = ms * 13
        fit = vselect(vne((up_s >> sh) & 8191, 0), 2, vselect(vne((tk_s >> sh) & 8191, 0), 1, 0))
        must = must_rule & veq(ux & ((np.int64(1) << i) - 1), 0)
        want = active & (must | vgather(PS, sv * (N_FIT * 2) + fit * 2 + bis))
        if vany(want) == 0:
            continue
        j_high = 63 - vclz(elig)
        j_low = vpopcount((elig & -elig) - 1)
        lacking = zero  # eligible positions whose player has no upright card of my suit
        for s in range(P):
            pos = vload(S, _o(F_POS, s, P))
            lacks = veq((vload(S, _o(F_UP, s, P)) >> sh) & 8191, 0) & vge(pos, 0)
            lacking = lacking | (vshl(1, pos & lacks) & lacks)
        lacking = lacking & elig
        j3 = vselect(vne(lacking, 0), 63 - vclz(lacking), j_high)
        j = vselect(veq(rule, 1), j_low, vselect(veq(rule, 3), j3, j_high))
        pv = zero  # the seat at position j, its Jingo card
        jb_p = zero
        js_p = zero
        for s in range(P):
            m = veq(vload(S, _o(F_POS, s, P)), j)
            pv = pv | (m & s)
            jb_p = jb_p | (vload(S, _o(F_JBIT, s, P)) & m)
            js_p = js_p | (vload(S, _o(F_JSU, s, P)) & m)
        for s in range(P):
            m_s = veq(sv, s) & want
            m_p = veq(pv, s) & want
            vstore(S, _o(F_JBIT, s, P), vselect(m_s, jb_p, vselect(m_p, jb_s, vload(S, _o(F_JBIT, s, P)))))
            vstore(S, _o(F_JSU, s, P), vselect(m_s, js_p, vselect(m_p, js_s, vload(S, _o(F_JSU, s, P)))))
            vstore(S, _o(F_SWI, s, P), vload(S, _o(F_SWI, s, P)) | m_s)
            vstore(S, _o(F_SWD, s, P), vload(S, _o(F_SWD, s, P)) | m_s | m_p)
        ux = ux & ~(want & (vshl(1, j) | (np.int64(1) << i)))
    # ---- BB-7/BB-8 placing the Jingo cards
    for s in range(P):
        js = vload(S, _o(F_JSU, s, P))
        has = vge(js, 0)
        sh = (js & has) * 13
        tk = vload(S, _o(F_TK, s, P))
        up = vload(S, _o(F_UP, s, P))
        mt = vne((tk >> sh) & 8191, 0) & has
        mu = vne((up >> sh) & 8191, 0)
        rel = vselect(mt, 0, vselect(mu, 1, 2))
        tuck = has & (mt | trule) & vgather(PT, rel + s * N_REL)
        jbit = vload(S, _o(F_JBIT, s, P))
        vstore(S, _o(F_TK, s, P), tk | (jbit & tuck))
        vstore(S, _o(F_UP, s, P), up | (jbit & ~tuck))
        vstore(S, _o(F_TJ, s, P), tuck)
    # ---- BB-9 Bedtime Bisk: one card each, then a second for the doubles (while the HIGH deck lasts)
    for s in range(P):
        if variants[V_BEDTIME] == 0:
            d = vload(S, _o(F_BIS, s, P))
        else:
            up = vload(S, _o(F_UP, s, P))
            d = zero
            for su in range(4):
                m = (up >> (13 * su)) & 8191
                d = d | vne(m & (m - 1), 0)
        vstore(S, _o(F_DBL, s, P), d)
    for rnd in range(2):
        for s in range(P):
            cond = vlt(ptr, n_hi)
            if rnd == 1:
                cond = cond & vload(S, _o(F_DBL, s, P))
            c = vgather(hiL, vmin(ptr, n_hi - 1) * LANES + iota)
            vstore(S, _o(F_UP, s, P), vload(S, _o(F_UP, s, P)) | (vshl(1, c) & cond))
            ptr = ptr - cond
    # ---- BB-10 Flipped Bisk (a Jack: the tucked row), BB-11/BB-12 the keys and the winners
    jk = vne(wb & JACK_BITS, 0)
    best = vsplat(-1)
    bad = zero
    for s in range(P):
        x = vselect(jk, vload(S, _o(F_TK, s, P)), vload(S, _o(F_UP, s, P))) | wb
        e, big = _ventry(x, pack)
        bad = bad | big
        key = _vkey(x, e, order_mode, depth)
        vstore(S, _o(F_KEY, s, P), key)
        vstore(S, _o(F_TYP, s, P), e & 15)
        best = vmax(best, key)
    nwin = zero
    for s in range(P):
        nwin = nwin - veq(vload(S, _o(F_KEY, s, P)), best)
    tie = variants[V_EXACT_TIE]
    # ---- the histogram bins of every lane (as accumulate), counted in the lanes' own histogram H8 (eight lanes
    #      never share a slot, so one gather, add and scatter counts a bin of all eight); a lane to be replayed
    #      (a set of more than 6 cards, a redeal) into the dump bin at the end
    bad = bad | (vgt(nwin, 1) & -np.int64(tie == 2))
    nw = vselect(vgt(nwin, 1) & -np.int64(tie == 1), 0, nwin)
    jack = jk & 1
    dump = hist.shape[0] - 1
    nj = zero
    for s in range(P):
        hb = s * H_SEAT
        wi = nw & veq(vload(S, _o(F_KEY, s, P)), best)
        fr = vload(S, _o(F_FREE, s, P)) & 1
        fc = fr + (fr & ~vload(S, _o(F_FFL, s, P)))
        fl = vload(S, _o(F_FL, s, P)) & 1
        bis = vload(S, _o(F_BIS, s, P)) & 1
        ia = (hb + HA) + vload(S, _o(F_TYP, s, P)) * H_WIN + wi
        ib = (hb + HB) + ((wi * 2 + jack) * 2 + bis) * 3 + fc
        code = (
            fl
            | ((vload(S, _o(F_REW, s, P)) & 1) << 1)
            | ((vload(S, _o(F_SWI, s, P)) & 1) << 2)
            | ((vload(S, _o(F_SWD, s, P)) & 1) << 3)
            | ((vload(S, _o(F_TJ, s, P)) & 1) << 4)
        )
        ic = (hb + HC) + fc * 32 + code
        _vcount(H8, vselect(bad, dump, ia), iota)
        _vcount(H8, vselect(bad, dump, ib), iota)
        _vcount(H8, vselect(bad, dump, ic), iota)
        nj = nj + 1 - fl
    idl = (P * H_SEAT) + (jack * 8 + nw + 1) * 2 + (vgt(nj, 0) & 1)
    _vcount(H8, vselect(bad, dump, idl), iota)
    if vany(bad) == 0:
        return
    for l in range(LANES):
        if vlane(bad, l) != 0:
            nw1, redeals = simulate_deal_x(
                P,
                hi_deck,
                lo_deck,
                variants,
                p_jingo,
                p_swap,
                tgt,
                p_tuck,
                forced,
                key0,
                key1,
                t0 + l,
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
            accumulate(row, P, rec, hi, nw1, redeals, hist)


@jit_inline
def _vcount(H8, b, iota):
    """Count bin ``b`` of every lane into the lanes' histogram (``H8[8b + l]``)."""
    at = b * LANES + iota
    vscatter(H8, at, vgather(H8, at) + 1)


@jit
def _lanes_loop(
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
    lbufs,
    hist,
    row,
):
    """Whole batches of LANES trials from ``start``, their counts added to ``hist`` at the end; returns where they
    stop (the rest is the scalar loop's). The batch is inlined here: called, each batch would push some 400 words
    of arguments (every array of the buffers is a struct of 7+ words); the cost and the compile time it adds are
    in docs/performance.md."""
    t = start
    while t + LANES <= stop:
        _lanes_batch(
            t,
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
            lbufs,
            hist,
            row,
        )
        t += LANES
    H8 = lbufs[7]
    for b in range(hist.shape[0]):
        for l in range(LANES):
            hist[b] += H8[b * LANES + l]
    return t


@jit
def trace_deal(P, hi_deck, lo_deck, variants, p_jingo, p_swap, swap_target, p_tuck, pack, forced, key0, key1, trial):
    """Play global trial ``trial`` alone and return everything it did (for tests and notebooks).

    Returns ``(n_win, redeals, rec[P, REC_FIELDS], keys[P], trace[3P + 2], hi, lo)`` where ``hi``/``lo``
    are the deck orders of the last attempt.
    """
    rec = np.zeros((P, REC_FIELDS), dtype=np.int64)
    keys = np.zeros(P, dtype=np.int64)
    trace = np.zeros(3 * P + 2, dtype=np.int64)
    hi = np.empty_like(hi_deck)
    lo = np.empty_like(lo_deck)
    n_win, redeals = simulate_deal_x(
        P,
        hi_deck,
        lo_deck,
        variants,
        p_jingo,
        p_swap,
        swap_target,
        p_tuck,
        forced,
        key0,
        key1,
        trial,
        rec,
        keys,
        trace,
        hi,
        lo,
        rng.new_state(),
        rng.new_state(),
        make_workspace(P),
        pack,
    )
    return n_win, redeals, rec, keys, trace, hi, lo


@jit
def play_fixed(P, hi, lo, variants, p_jingo, p_swap, swap_target, p_tuck, pack, forced, key0, key1, trial):
    """Play the given deck orders (``hi``, ``lo``) once; strategy coins from stream (trial, 1).

    Returns ``(n_win, rec, keys, trace)``. For tests, notebooks and the odds calculator's checks.
    """
    rec = np.zeros((P, REC_FIELDS), dtype=np.int64)
    keys = np.zeros(P, dtype=np.int64)
    trace = np.zeros(3 * P + 2, dtype=np.int64)
    st = rng.new_state()
    rng.seed_state(st, key0, key1, np.uint64(trial), np.uint64(rng.STREAM_STRATEGY))
    n_win = play_deal(
        P, hi, lo, variants, p_jingo, p_swap, swap_target, p_tuck, forced, st, rec, keys, trace, make_workspace(P), pack
    )
    return n_win, rec, keys, trace


@jit
def eval_batch(sets, lengths, order_mode, depth, split, pack, out):
    """Keys of many evaluation sets: ``sets[i, :lengths[i]]`` -> ``out[i]``, eight sets at a time in SIMD lanes
    (:func:`_eval_lanes`); ``sets`` and ``out`` C-contiguous int64 (52-card codes)."""
    n = sets.shape[0]
    w = sets.shape[1]
    flat = sets.reshape(n * w)
    iota = viota()
    for b in range(0, n - LANES + 1, LANES):
        rows = iota + b
        ln = vload(lengths, b)
        acc = vsplat(0)
        for j in range(vmax_lane(ln)):
            has = vlt(j, ln)
            card = vgather(flat, vselect(has, rows * w + j, 0))  # a lane past its length reads element 0
            acc = acc | (vshl(1, card) & has)
        _eval_lanes(acc, b, order_mode, depth, split, pack, out)
    for i in range(n - n % LANES, n):
        acc = np.int64(0)
        for j in range(lengths[i]):
            acc |= _card_bit(sets[i, j])
        out[i] = _word_key(acc, order_mode, depth, split, pack)


@jit
def eval_masks(masks, order_mode, depth, split, pack, out):
    """Keys of many sets given as rank masks ``masks[i, 4]`` (the kernels' own form), eight at a time in SIMD
    lanes (:func:`_eval_lanes`); ``masks`` and ``out`` C-contiguous int64."""
    n = masks.shape[0]
    flat = masks.reshape(n * 4)
    iota = viota()
    for b in range(0, n - LANES + 1, LANES):
        r4 = (iota + b) * 4
        x = (
            vgather(flat, r4)
            | (vgather(flat, r4 + 1) << 13)
            | (vgather(flat, r4 + 2) << 26)
            | (vgather(flat, r4 + 3) << 39)
        )
        _eval_lanes(x, b, order_mode, depth, split, pack, out)
    for i in range(n - n % LANES, n):
        out[i] = bisk_key4(masks[i, 0], masks[i, 1], masks[i, 2], masks[i, 3], order_mode, depth, split, pack)


@jit_inline
def _eval_lanes(x, b, order_mode, depth, split, pack, out):
    """``out[b .. b + 7]`` = the keys of eight sets, each a word of four 13-bit suit fields (:func:`_card_bit`):
    the table key in vector form (:func:`_vkey`, as the simulation's lanes evaluate); a set of more than 6
    cards, and every set under ``allow_same_suit_split``, by the scalar :func:`_word_key`."""
    e, big = _ventry(x, pack)
    big = big | -np.int64(split != 0)
    vstore(out, b, _vkey(x, e, order_mode, depth))
    if vany(big):
        for l in range(LANES):
            if vlane(big, l):
                out[b + l] = _word_key(vlane(x, l), order_mode, depth, split, pack)
