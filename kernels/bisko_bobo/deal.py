"""Bisko-Bobo kernels: one deal played in order, a seat at a time (BB-4 .. BB-11), the decks of 2-6 players
(BB-1) and a chunk's histograms.
"""

from __future__ import annotations

import numpy as np
from numba import types

from .. import rng
from .._extern import extern
from .._jit import borrowed, jit, jit_inline
from ..bits import high_index, low_index, popcount
from .evaluator import _table_entry, _word_key, key_type
from .layout import (
    C_FREE_FLINGO_WIN,
    C_FREE_JINGO_WIN,
    C_JACK_WIN,
    C_OB_JACK,
    C_OB_JACK_WIN,
    C_OB_WIN,
    C_TYPE,
    C_TYPE_WIN,
    D_BINGO_PHASE,
    D_DEALS,
    D_JINGO_PLAYERS,
    D_NO_WINNER,
    D_REDEALS,
    D_SHARED,
    D_SWAPS,
    D_WET_JACK,
    JACK,
    MAX_REDEALS,
    R_BUCKET_FLINGO,
    R_BUCKET_SWAP,
    R_BUCKET_TUCK,
    R_FINAL_TYPE,
    R_FLINGO,
    R_FREE_CHOICE,
    R_FREE_FLINGO,
    R_FREE_FLINGO_REWARD,
    R_JINGO,
    R_OPENING_BISKO,
    R_PTR,
    R_REWARD,
    R_SOLE_WIN,
    R_SWAP_INIT,
    R_SWAPPED,
    R_TUCKED_JINGO,
    R_WIN,
    R_WIN_SQ,
    REC_FIELDS,
    SEAT_FIELDS,
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
# The deal (BB-4 .. BB-11)
# =============================================================================================
#
# Each seat's rows are kept as one word each (upright, tucked): card c at bit c, so suit u's 13-bit rank
# mask sits at bit 13u, which is all that the evaluator and the strategies need. Against four masks a seat
# in a [P, 4] array, with the face-up counts per suit in one local word too (faster, the same counts:
# docs/performance.md). The workspace (``make_workspace``) is allocated once per chunk.


@jit_inline
def _coin(st, p):
    """A strategy decision with probability p; no random number is drawn for p in {0, 1}."""
    if p <= 0.0:
        return False
    if p >= 1.0:
        return True
    return rng.uniform(st) < p


@jit
def make_workspace(P):
    """(upright cards [P], tucked cards [P], per-seat ints [W_ROWS, P]); a seat's cards are one word, card c at
    bit c (so suit u's 13-bit rank mask is at bit 13u)."""
    return (np.zeros(P, dtype=np.int64), np.zeros(P, dtype=np.int64), np.zeros((W_ROWS, P), dtype=np.int64))


W_JINGO_CARD = 0
W_BISKO = 1
W_ORDER = 2
W_POS = 3  # a Jingo player's position in the swap order (-1: no Jingo)
W_DOUBLE = 4
W_OPENING_SUIT = 5
W_ROWS = 6


@jit_inline
def _add(masks, s, c):
    masks[s] |= np.int64(1) << c


@jit_inline
def _has_suit(masks, s, suit):
    return (masks[s] >> (13 * suit)) & 8191 != 0


def _play_deal(
    P, hi, lo, variants, p_jingo, p_swap, swap_target, p_tuck, forced, st, rec, keys, trace, ws, pack, lazy=False
):
    """Play one deal from the HIGH deck order ``hi`` and LOW deck order ``lo``.

    Seats are numbered in playing order: seat 0 is the dealer's left and seat P-1 the dealer (BB-4, BB-5).
    ``forced[seat]`` overrides the Flingo/Jingo choice where both are legal (-1 = the strategy decides;
    0 Flingo; 1 Jingo); ``forced[P + seat]`` overrides the swap decision (-1 strategy, 0 no swap, 1 + j:
    swap with seat j, -2: swap with the strategy's target rule); ``forced[2P + seat]`` the placement of a tuckable Jingo card (-1 strategy,
    0 upright, 1 tucked). ``st`` is the strategy stream. Writes the per-seat record
    ``rec[P, SEAT_FIELDS]`` (zeroed here), the evaluation ``keys[P]`` and ``trace`` (per seat: action,
    swap partner or -1, tucked flag; then the Wet Bisk and the number of HIGH cards used).
    Returns the number of seats sharing the win (0 = no winner, -1 = the deal must be redealt).
    With ``lazy`` (the simulation loop) ``keys[s]`` is whole only for the seats of the best Bisk type, the
    others' the type alone (``type << 59``): winners, record and counts are the same.
    """
    order_mode = variants[V_SUIT_ORDER]
    depth = variants[V_DEPTH]
    split = variants[V_SPLIT]
    n_hi = hi.shape[0]
    k = n_hi // 4
    up, tk, w = ws
    for s in range(P):
        up[s] = 0
        tk[s] = 0
        for f in range(REC_FIELDS):
            rec[s, f] = 0
        rec[s, R_BUCKET_FLINGO] = -1
        rec[s, R_BUCKET_SWAP] = -1
        rec[s, R_BUCKET_TUCK] = -1
    visible = 0  # cards seen face up, per suit: 8 bits a suit
    # ---- BB-4 Opening Bisk: two rounds face up, dealer last, then the Wet Bisk face down
    for s in range(P):
        a = hi[s]
        b = hi[P + s]
        visible += (1 << (8 * (a // 13))) + (1 << (8 * (b // 13)))
        _add(up, s, a)
        w[W_OPENING_SUIT, s] = a // 13
        w[W_JINGO_CARD, s] = -1
        w[W_BISKO, s] = 0
        if a // 13 == b // 13:
            w[W_BISKO, s] = 1  # opening Bisko: both cards stay upright
            _add(up, s, b)
            rec[s, R_OPENING_BISKO] = 1
        else:
            _add(tk, s, b)  # a Tuck: the second card must be tucked
    wet = hi[2 * P]
    ptr = 2 * P + 1
    # ---- BB-5 Risky-Bisk, in seat order; each card is dealt as soon as the choice is made
    jingos = 0
    forced_later = 0  # opening Biskos after the current seat (they must take a Jingo)
    for s in range(P):
        forced_later += w[W_BISKO, s]
    for s in range(P):
        forced_later -= w[W_BISKO, s]
        free_later = P - 1 - s - forced_later
        if w[W_BISKO, s]:
            take_jingo = True  # an opening Bisko must take a Jingo
        else:
            if variants[V_JINGO_RULE] == 1:
                # BB-5: a choice is illegal iff R = 0 and J + c + F = 1
                flingo_ok = not (free_later == 0 and jingos + forced_later == 1)
                jingo_ok = not (free_later == 0 and jingos + 1 + forced_later == 1)
            else:
                flingo_ok = True
                jingo_ok = True
            if flingo_ok and jingo_ok:
                rec[s, R_FREE_CHOICE] = 1
                us = w[W_OPENING_SUIT, s]
                unseen = min(max(k - ((visible >> (8 * us)) & 255), 0), 8)
                jb = min(jingos, 2)
                lf = 1 if free_later > 0 else 0
                rec[s, R_BUCKET_FLINGO] = ((jb * 2 + lf) * 4 + us) * 9 + unseen
                if forced[s] >= 0:
                    take_jingo = forced[s] == 1
                else:
                    take_jingo = _coin(st, p_jingo[s, jb, lf, us, unseen])
                if not take_jingo:
                    rec[s, R_FREE_FLINGO] = 1
            else:
                take_jingo = jingo_ok
        rec[s, R_PTR] = ptr
        if take_jingo:
            jingos += 1
            rec[s, R_JINGO] = 1
            w[W_JINGO_CARD, s] = hi[ptr]
            ptr += 1
            trace[s * 3] = 1
        else:
            rec[s, R_FLINGO] = 1
            trace[s * 3] = 0
            c = hi[ptr]
            ptr += 1
            _add(up, s, c)
            visible += 1 << (8 * (c // 13))
            # the reward: a flung card of the opening upright card's suit earns one more HIGH card
            while c // 13 == w[W_OPENING_SUIT, s] and ptr < n_hi:
                rec[s, R_REWARD] = 1
                c = hi[ptr]
                ptr += 1
                _add(up, s, c)
                visible += 1 << (8 * (c // 13))
                if variants[V_REWARD_CHAIN] == 0:
                    break
            if rec[s, R_FREE_FLINGO] == 1 and rec[s, R_REWARD] == 1:
                rec[s, R_FREE_FLINGO_REWARD] = 1
    # ---- BB-6 Bingo-Bango
    for s in range(P):
        trace[s * 3 + 1] = -1
    if jingos > 0:
        # The Jingo players in swap order (BB-6: highest LOW card first, on equal rank S > D > H > C): a LOW card's
        # key rank * 4 + suit is one bit of ``keys_m``, and a player's position is the number of higher keys.
        # Positions not yet exchanged are the bits of ``ux``; the eligible partners of position i its bits above i.
        # (It replaced an insertion sort and loops over the order, with identical counts on 95 cases, every
        # target rule included; the timing is in docs/performance.md.)
        order = w[W_ORDER]
        pos_of = w[W_POS]
        keys_m = np.int64(0)
        n_order = 0
        for s in range(P):  # the LOW cards go to the Jingo players in seat order
            pos_of[s] = -1
            if w[W_JINGO_CARD, s] >= 0:
                c = lo[n_order]
                pos_of[s] = (c % 13) * 4 + c // 13  # the key, until the position replaces it below
                keys_m |= np.int64(1) << pos_of[s]
                n_order += 1
        for s in range(P):
            if pos_of[s] >= 0:
                pos_of[s] = popcount(keys_m >> (pos_of[s] + 1))
                order[pos_of[s]] = s
        ux = (np.int64(1) << n_order) - 1
        for i in range(n_order):
            s = order[i]
            elig = ux & ~((np.int64(2) << i) - 1)
            if (ux >> i) & 1 == 0 or elig == 0:
                continue
            n_elig = popcount(elig)
            ms = w[W_JINGO_CARD, s] // 13
            fit = 0  # what my Jingo card fits: 0 nothing, 1 my tucked suit, 2 an upright suit
            if _has_suit(tk, s, ms):
                fit = 1
            if _has_suit(up, s, ms):
                fit = 2
            partner = -1
            # variant bingo_swap_optional=false: the highest-ranked unswapped player must swap
            must = variants[V_SWAP_OPTIONAL] == 0 and i == np.int64(low_index(ux))
            if not must:
                rec[s, R_BUCKET_SWAP] = fit * 2 + w[W_BISKO, s]
            f = forced[P + s]
            if f >= 1:
                partner = f - 1
            else:
                # f = 0: no swap; f = -2: swap with the strategy's target; f = -1: the strategy decides
                want = must or f == -2 or (f == -1 and _coin(st, p_swap[s, fit, w[W_BISKO, s]]))
                if want:
                    partner = order[_pick_target_pos(st, swap_target[s], order, elig, up, ms, n_elig)]
            if partner >= 0:
                w[W_JINGO_CARD, s], w[W_JINGO_CARD, partner] = w[W_JINGO_CARD, partner], w[W_JINGO_CARD, s]
                ux &= ~(np.int64(1) << i)
                if pos_of[partner] >= 0:
                    ux &= ~(np.int64(1) << pos_of[partner])
                rec[s, R_SWAP_INIT] = 1
                rec[s, R_SWAPPED] = 1
                rec[partner, R_SWAPPED] = 1
                trace[s * 3 + 1] = partner
    # ---- BB-7/BB-8 placing Jingo cards (the built-in strategies do not look at other players'
    #      placements, so jingo_placement_order changes nothing for them)
    for s in range(P):
        trace[s * 3 + 2] = 0
        c = w[W_JINGO_CARD, s]
        if c < 0:
            continue
        cs = c // 13
        matches_tucked = _has_suit(tk, s, cs)
        rel = 0 if matches_tucked else (1 if _has_suit(up, s, cs) else 2)
        tuck = False
        if matches_tucked or variants[V_TUCK_RULE] == 1:
            rec[s, R_BUCKET_TUCK] = rel
            f = forced[2 * P + s]
            if f >= 0:
                tuck = f == 1
            else:
                tuck = _coin(st, p_tuck[s, rel])
        if tuck:
            _add(tk, s, c)
            rec[s, R_TUCKED_JINGO] = 1
            trace[s * 3 + 2] = 1
        else:
            _add(up, s, c)
    # ---- BB-9 Bedtime Bisk: one card each, then a second for opening-Bisko players
    #      (variant: for anyone holding an upright Bisko before Bedtime)
    for s in range(P):
        if variants[V_BEDTIME] == 0:
            w[W_DOUBLE, s] = w[W_BISKO, s]
        else:
            w[W_DOUBLE, s] = 0
            for u in range(4):
                m = (up[s] >> (13 * u)) & 8191
                if m & (m - 1):
                    w[W_DOUBLE, s] = 1
    for rnd in range(2):
        for s in range(P):
            if (rnd == 0 or w[W_DOUBLE, s]) and ptr < n_hi:
                _add(up, s, hi[ptr])
                ptr += 1
    # ---- BB-10 Flipped Bisk, BB-11/BB-12 result
    jack = (wet % 13) == JACK
    wbits = np.int64(1) << wet  # the Wet Bisk in its suit's field
    src = tk if jack else up  # Jack: tucked cards + the Jack; otherwise the Bisko row + Wet Bisk
    if lazy and not split:
        # every seat's type from its suit counts (one table entry); the whole key only for the seats of the
        # best type, as no other can win: keys[s] is then the type alone (type << 59, nothing below it).
        # This and clearing only the per-seat ints read before they are set: see docs/performance.md
        tmax = np.int64(0)
        for s in range(P):
            x = src[s] | wbits
            c0 = popcount(x & 8191)
            c1 = popcount((x >> 13) & 8191)
            c2 = popcount((x >> 26) & 8191)
            c3 = popcount((x >> 39) & 8191)
            if c0 + c1 + c2 + c3 > 6:  # never in play (BB-13), but the table stops at 6 cards
                keys[s] = _word_key(x, order_mode, depth, split, pack)
            else:
                keys[s] = (_table_entry(pack, c0, c1, c2, c3) & 15) << 59
            tmax = max(tmax, keys[s] >> 59)
        for s in range(P):
            if keys[s] == tmax << 59:
                keys[s] = _word_key(src[s] | wbits, order_mode, depth, split, pack)
    else:
        for s in range(P):
            keys[s] = _word_key(src[s] | wbits, order_mode, depth, split, pack)
    best = np.int64(-1)
    for s in range(P):
        best = max(best, keys[s])
    # who won, without a branch on the seat (the winner is random: such a branch cannot be predicted)
    n_win = 0
    for s in range(P):
        n_win += keys[s] == best
        rec[s, R_FINAL_TYPE] = key_type(keys[s])
    trace[3 * P] = wet
    trace[3 * P + 1] = ptr
    units = 60
    if n_win > 1:
        tie = variants[V_EXACT_TIE]
        if tie == 2:
            return -1
        if tie == 1:
            return 0
        units = 60 // n_win
    for s in range(P):
        won = keys[s] == best
        rec[s, R_WIN] = units * won
        rec[s, R_WIN_SQ] = units * units * won
        rec[s, R_SOLE_WIN] = won and n_win == 1
    return n_win


#: The deal as a called kernel (odds, traces, paired runs), and inlined into the simulation loop: a call
#: passes fifteen arrays, and numba's reference counting of them costs more than a quarter of a deal.
play_deal = jit(_play_deal)
_play_deal_inline = jit_inline(_play_deal)
#: The called deal through a cell bound on first use (kernels/_extern.py), for the lanes' kernel, whose scalar deals
#: are few (a chunk's last trials, replays): it then does not carry the deal's code, and a first run compiles the
#: deal beside it where a helper can. Kernels that play every deal by a call call it directly: a call through the
#: cell passes every field of its fifteen arrays where LLVM trims a direct call's (the decision values 5-7% slower).
play_deal_x = extern(play_deal, types.int64)


@jit_inline
def _pick_target_pos(st, rule, order, elig, up, my_suit, n_elig):
    """The swap order position of the partner chosen by target rule ``rule`` (see the tables) among the eligible
    positions ``elig`` (a mask; a higher bit is a lower-ranked player)."""
    if rule == 1:  # the highest-ranked eligible
        return np.int64(low_index(elig))
    if rule == 2:  # a random eligible player, counted from the highest-ranked
        e = elig
        for _ in range(rng.below(st, n_elig)):
            e &= e - 1
        return np.int64(low_index(e))
    if rule == 3:  # the lowest-ranked eligible without my card's suit upright
        e = elig
        while e:
            j = np.int64(high_index(e))
            if not _has_suit(up, order[j], my_suit):
                return j
            e ^= np.int64(1) << j
    return np.int64(high_index(elig))  # rule 0 (the lowest-ranked eligible), and rule 3's fallback


@jit
def deal_decks(st, hi_deck, lo_deck, hi, lo, n_low):
    """Shuffle copies of the HIGH deck (fully) and the first ``n_low`` LOW cards from stream ``st`` (BB-1: HIGH
    20-32 cards, LOW 32-20 cards of which P are drawn).

    By :func:`rng.partial_shuffle`'s loop, not unrolled shuffles of the nine deck shapes: those were a little
    faster on the scalar deal but compiled seconds longer in every cold Bisko-Bobo command (docs/performance.md).
    A compiled function of its own, on borrowed views of its arguments, copying by loops: a slice
    assignment checks for overlap."""
    st, hi_deck, lo_deck, hi, lo = borrowed((st, hi_deck, lo_deck, hi, lo))
    for i in range(hi.shape[0]):
        hi[i] = hi_deck[i]
    rng.partial_shuffle(st, hi, hi.shape[0])
    for i in range(lo.shape[0]):
        lo[i] = lo_deck[i]
    rng.partial_shuffle(st, lo, n_low)


def _make_simulate_deal(through_cell):
    """:func:`simulate_deal` calling the deal directly, or through its cell (``through_cell``, a constant of the
    closure: numba prunes the other call before typing)."""

    def simulate_deal(
        P, hi_deck, lo_deck, variants, p_jingo, p_swap, swap_target, p_tuck, forced, key0, key1, trial, rec, keys,
        trace, hi, lo, st_deal, st_strat, ws, pack,
    ):  # fmt: skip
        """One complete deal of global trial ``trial`` (redealt on exact ties under ``exact_tie=redeal``).

        Stream ids: deal cards ``2a``, strategy coins ``2a + 1`` for attempt ``a`` (a > 0 only on redeals).
        Returns (number of winners, redeals).
        """
        attempt = 0
        while True:
            start_attempt(P, hi_deck, lo_deck, key0, key1, trial, attempt, hi, lo, st_deal, st_strat)
            if through_cell:
                n_win = play_deal_x(
                    P, hi, lo, variants, p_jingo, p_swap, swap_target, p_tuck, forced, st_strat, rec, keys, trace, ws,
                    pack,
                )  # fmt: skip
            else:
                n_win = play_deal(
                    P, hi, lo, variants, p_jingo, p_swap, swap_target, p_tuck, forced, st_strat, rec, keys, trace, ws,
                    pack,
                )  # fmt: skip
            if n_win >= 0 or attempt >= MAX_REDEALS:
                return n_win, attempt
            attempt += 1

    return jit_inline(simulate_deal)


#: One deal, the deal called directly (the decision values and paired runs: every deal).
simulate_deal = _make_simulate_deal(False)
#: One deal, the deal called through its cell (the lanes' kernel: a chunk's last trials and replays, few).
simulate_deal_x = _make_simulate_deal(True)


@jit_inline
def start_attempt(P, hi_deck, lo_deck, key0, key1, trial, attempt, hi, lo, st_deal, st_strat):
    """Seed the streams of attempt ``attempt`` of global trial ``trial`` and deal its cards."""
    rng.seed_state(st_deal, key0, key1, np.uint64(trial), np.uint64(2 * attempt + rng.STREAM_DEAL))
    rng.seed_state(st_strat, key0, key1, np.uint64(trial), np.uint64(2 * attempt + rng.STREAM_STRATEGY))
    deal_decks(st_deal, hi_deck, lo_deck, hi, lo, P)


# ---- a chunk's histograms (``hist``): per seat, three small histograms of one deal's outcome, then one of the deal
H_WIN = 7  # win index: 0 no win share, k = a share of a win split k ways (1 = sole winner)
HA = 0  # [final type 11][win index 7]
HB = HA + 11 * H_WIN  # [win index 7][wet Bisk a Jack 2][opening Bisko 2][free choice 3: none, Flingo, Jingo]
HC = HB + H_WIN * 12  # [free choice 3][flags 32: Flingo, reward, swap started, swapped, Jingo tucked]
H_SEAT = HC + 96
H_DEAL = 32  # [wet Bisk a Jack 2][winners + 1: 8][some Jingo 2]


@jit_inline
def accumulate(row, P, rec, hi, n_win, redeals, hist):
    """Count one deal's record into the chunk's histograms (see ``H_*``; :func:`decode_hist` turns them into the
    count row at the end of the chunk): three increments a seat and one a deal, where adding the record into the
    count row's fields took 13 flag sums and up to 9 conditional additions a seat, and its seat loops were
    vectorised across the seats with gathers and scatters (rec[s, f] at a stride of REC_FIELDS). The two forms
    give identical counts; why this one is kept: docs/performance.md."""
    jack = np.int64((hi[2 * P] % 13) == JACK)
    nj = 0
    for s in range(P):
        hb = s * H_SEAT
        wi = n_win * (rec[s, R_WIN] > 0)
        fc = rec[s, R_FREE_CHOICE] * (2 - rec[s, R_FREE_FLINGO])
        fl = rec[s, R_FLINGO]
        hist[hb + HA + rec[s, R_FINAL_TYPE] * H_WIN + wi] += 1
        hist[hb + HB + ((wi * 2 + jack) * 2 + rec[s, R_OPENING_BISKO]) * 3 + fc] += 1
        code = (
            fl
            | (rec[s, R_REWARD] << 1)
            | (rec[s, R_SWAP_INIT] << 2)
            | (rec[s, R_SWAPPED] << 3)
            | (rec[s, R_TUCKED_JINGO] << 4)
        )
        hist[hb + HC + fc * 32 + code] += 1
        nj += 1 - fl
    hist[P * H_SEAT + (jack * 8 + n_win + 1) * 2 + (nj > 0)] += 1
    row[P * SEAT_FIELDS + D_REDEALS] += redeals


@jit
def decode_hist(P, hist, row):
    """Add a chunk's histograms (:func:`accumulate`) to its count row: a win index ``k > 0`` is a share of 60 / k
    units (R_WIN), a sole win for k = 1; a seat takes a Jingo iff it does not fling (BB-5)."""
    base = P * SEAT_FIELDS
    for s in range(P):
        b = s * SEAT_FIELDS
        hb = s * H_SEAT
        for wi in range(H_WIN):
            u = 60 // wi if wi > 0 else 0
            for t in range(11):
                n = hist[hb + HA + t * H_WIN + wi]
                row[b + C_TYPE + t] += n
                row[b + C_TYPE_WIN + t] += n * u
                row[b + R_WIN] += n * u
                row[b + R_WIN_SQ] += n * u * u
                if wi == 1:
                    row[b + R_SOLE_WIN] += n
            for jack in range(2):
                for ob in range(2):
                    for fc in range(3):
                        n = hist[hb + HB + ((wi * 2 + jack) * 2 + ob) * 3 + fc]
                        row[b + R_OPENING_BISKO] += n * ob
                        row[b + R_FREE_CHOICE] += n * (fc > 0)
                        row[b + R_FREE_FLINGO] += n * (fc == 1)
                        row[b + C_FREE_FLINGO_WIN] += n * u * (fc == 1)
                        row[b + C_FREE_JINGO_WIN] += n * u * (fc == 2)
                        row[b + C_JACK_WIN] += n * u * jack
                        row[b + C_OB_WIN] += n * u * ob
                        row[b + C_OB_JACK] += n * ob * jack
                        row[b + C_OB_JACK_WIN] += n * u * ob * jack
        for fc in range(3):
            for code in range(32):
                n = hist[hb + HC + fc * 32 + code]
                fl = code & 1
                reward = (code >> 1) & 1
                started = (code >> 2) & 1
                row[b + R_FLINGO] += n * fl
                row[b + R_JINGO] += n * (1 - fl)
                row[b + R_REWARD] += n * reward
                row[b + R_SWAP_INIT] += n * started
                row[b + R_SWAPPED] += n * ((code >> 3) & 1)
                row[b + R_TUCKED_JINGO] += n * ((code >> 4) & 1)
                row[b + R_FREE_FLINGO_REWARD] += n * reward * (fc == 1)
                row[base + D_SWAPS] += n * started
                row[base + D_JINGO_PLAYERS] += n * (1 - fl)
    for jack in range(2):
        for w1 in range(8):
            for bingo in range(2):
                n = hist[P * H_SEAT + (jack * 8 + w1) * 2 + bingo]
                row[base + D_DEALS] += n
                row[base + D_WET_JACK] += n * jack
                row[base + D_SHARED] += n * (w1 - 1 > 1)
                row[base + D_NO_WINNER] += n * (w1 == 1)
                row[base + D_BINGO_PHASE] += n * bingo


@jit
def deal_buffers(P, n_hi, n_lo):
    """One thread's buffers for playing deals: (rec, keys, trace, hi, lo, forced, deal stream, strategy
    stream, workspace); ``forced`` starts all -1 (every decision left to the strategies)."""
    return (
        np.zeros((P, REC_FIELDS), dtype=np.int64),
        np.zeros(P, dtype=np.int64),
        np.zeros(3 * P + 2, dtype=np.int64),
        np.empty(n_hi, dtype=np.int64),
        np.empty(n_lo, dtype=np.int64),
        np.full(3 * P, -1, dtype=np.int64),
        rng.new_state(),
        rng.new_state(),
        make_workspace(P),
    )
