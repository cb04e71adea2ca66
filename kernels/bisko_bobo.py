"""Bisko-Bobo kernels: the Bisk evaluator (BB-12) and the five-phase deal (BB-4 .. BB-11).

Card encoding (the project's 52-card index for this game): ``card = suit * 13 + rank`` with
``suit`` ascending in the Bisko-Bobo order ``0 = C < 1 = H < 2 = D < 3 = S`` (BB-2, not the bridge order)
and ``rank`` ascending ``0 = '2' .. 12 = 'A'``. The HIGH deck for ``k`` ranks per suit holds the cards
with ``rank >= 13 - k`` (BB-1); a Jack is ``rank == 9``.

Evaluation key (int64, compared as integers; higher wins), BB-12:

====== ==================================================================================
bits   content
====== ==================================================================================
59-62  type index 0..10 (0 = no Bisk)
50-58  Bisk types: up to three component suits, 3 bits each (suit + 1, 0 = none), in
       comparison order (suit rank, or component size first under ``component_first``)
26-49  Bisk types: up to six ranks, 4 bits each (rank + 1), suit by suit in the order above,
       highest first
35-58  no Bisk: up to four cards (one per suit at most), 6 bits each (card + 1), sorted by
       (suit, rank) highest first; a missing card is 0, so more cards win an equal prefix
====== ==================================================================================

Variant codes (the ``variants`` int64 array built by :mod:`analysis.games.bisko_bobo`):
see ``V_*`` below; every one is a named variant of rules.md 1(c).
"""

from __future__ import annotations

import numpy as np

from . import rng
from ._jit import jit, pjit, prange

# ---- variant slots (rules.md 1(c)) ------------------------------------------------------------
V_SUIT_ORDER = 0        # bisk_suit_order: 0 suit_rank, 1 component_first
V_DEPTH = 1             # tiebreak_depth: 0 full_lexicographic, 1 first_card_only
V_EXACT_TIE = 2         # exact_tie: 0 split, 1 no_winner, 2 redeal
V_TUCK_RULE = 3         # jingo_tuck_rule: 0 bobo_only, 1 free
V_SPLIT = 4             # allow_same_suit_split: 0 false, 1 true
V_REWARD_CHAIN = 5      # flingo_reward_chain: 0 false, 1 true
V_BEDTIME = 6           # bedtime_double_trigger: 0 opening_bisko_only, 1 any_bisko_before_bedtime
V_JINGO_RULE = 7        # enforce_jingo_constraint: 0 false, 1 true
V_SWAP_OPTIONAL = 8     # bingo_swap_optional: 0 false (highest unswapped must swap), 1 true
V_PLACEMENT = 9         # jingo_placement_order: 0 simultaneous, 1 clockwise_sequential
N_VARIANTS = 10

JACK = 9
MAX_REDEALS = 64

# ---- per-seat record fields (one deal) --------------------------------------------------------
R_WIN = 0            # win share in units of 1/60 (60 = sole winner; split ties give 60/k)
R_WIN_SQ = 1         # its square (units of 1/3600)
R_OPENING_BISKO = 2
R_FLINGO = 3
R_JINGO = 4
R_FREE_CHOICE = 5    # a Tuck player with both actions legal
R_REWARD = 6         # Flingo earned at least one reward card
R_SWAP_INIT = 7      # started a Bingo-Bango swap
R_SWAPPED = 8        # took part in a swap (either side)
R_TUCKED_JINGO = 9   # put the Jingo card in the tucked row
R_SOLE_WIN = 10
R_TYPE = 11          # 11 slots: final type counts
R_TYPE_WIN = 22      # 11 slots: win units by final type
R_FREE_FLINGO = 33   # chose Flingo freely
R_FREE_FLINGO_REWARD = 34
SEAT_FIELDS = 35

# ---- per-deal fields (after the seat blocks) -------------------------------------------------
D_DEALS = 0
D_WET_JACK = 1
D_SHARED = 2         # deals whose win was shared
D_REDEALS = 3
D_NO_WINNER = 4
D_SWAPS = 5
D_JINGO_PLAYERS = 6
D_BINGO_PHASE = 7    # deals with at least one Jingo player
DEAL_FIELDS = 8

# ---- strategy tables (BB-15); shapes fixed for every player count ----------------------------
# p_jingo[seat, min(J, 2), later_free > 0, upright suit, unseen cards of that suit 0..8]
# p_swap[seat, fit, opening_bisko]  fit: 0 no match, 1 matches the tucked suit, 2 matches an upright suit
# swap_target[seat]: 0 lowest-ranked eligible, 1 highest-ranked eligible, 2 random eligible,
#                    3 an eligible player whose upright suits do not include my card's suit
# p_tuck[seat, rel]  rel: 0 matches the tucked suit, 1 matches an upright suit, 2 matches neither
JINGO_SHAPE = (3, 2, 4, 9)
N_FIT = 3
N_REL = 3


def n_counts(players: int) -> int:
    return players * SEAT_FIELDS + DEAL_FIELDS


# =============================================================================================
# The Bisk evaluator (BB-12)
# =============================================================================================

@jit
def _pattern(t):
    """Component sizes of type ``t`` (descending), padded with zeros."""
    if t == 1:
        return 2, 0, 0
    if t == 2:
        return 2, 2, 0
    if t == 3:
        return 3, 0, 0
    if t == 4:
        return 3, 2, 0
    if t == 5:
        return 4, 0, 0
    if t == 6:
        return 2, 2, 2
    if t == 7:
        return 3, 3, 0
    if t == 8:
        return 4, 2, 0
    if t == 9:
        return 5, 0, 0
    return 6, 0, 0


@jit
def _nth_rank(mask, skip):
    """The rank of the (skip+1)-th highest set bit of a 13-bit rank mask, or -1."""
    r = 12
    while r >= 0:
        if (mask >> r) & 1:
            if skip == 0:
                return r
            skip -= 1
        r -= 1
    return -1


@jit
def _assignment_key(t, sa, sb, sc, ca, cb, cc, masks, order_mode, depth):
    """Key of type ``t`` with components (ca, cb, cc) taken from suits (sa, sb, sc)."""
    # Order the components for comparison: by suit (desc), or by size then suit (component_first).
    s0, s1, s2 = sa, sb, sc
    z0, z1, z2 = ca, cb, cc
    # a small sorting network on (key, suit, size) triples; absent components (size 0) sort last
    k0 = (z0 * 8 + s0 if order_mode == 1 else s0 * 8 + z0) if z0 > 0 else -1
    k1 = (z1 * 8 + s1 if order_mode == 1 else s1 * 8 + z1) if z1 > 0 else -1
    k2 = (z2 * 8 + s2 if order_mode == 1 else s2 * 8 + z2) if z2 > 0 else -1
    if k1 > k0:
        k0, k1 = k1, k0
        s0, s1 = s1, s0
        z0, z1 = z1, z0
    if k2 > k1:
        k1, k2 = k2, k1
        s1, s2 = s2, s1
        z1, z2 = z2, z1
    if k1 > k0:
        k0, k1 = k1, k0
        s0, s1 = s1, s0
        z0, z1 = z1, z0
    key = np.int64(t) << 59
    suits_field = 0
    ranks_field = 0
    nr = 0
    used0 = 0
    used1 = 0
    used2 = 0
    used3 = 0
    for ci in range(3):
        s = s0 if ci == 0 else (s1 if ci == 1 else s2)
        z = z0 if ci == 0 else (z1 if ci == 1 else z2)
        if z == 0:
            continue
        suits_field |= (s + 1) << (3 * (2 - ci))
        # a suit that supplies two components (allow_same_suit_split) continues below its last card
        used = used0 if s == 0 else (used1 if s == 1 else (used2 if s == 2 else used3))
        for j in range(z):
            if depth == 1 and nr >= 1:
                break
            r = _nth_rank(masks[s], used + j)
            ranks_field |= (r + 1) << (4 * (5 - nr))
            nr += 1
        if s == 0:
            used0 += z
        elif s == 1:
            used1 += z
        elif s == 2:
            used2 += z
        else:
            used3 += z
    return key | (np.int64(suits_field) << 50) | (np.int64(ranks_field) << 26)


@jit
def _fits(ca, cb, cc, sa, sb, sc, counts, split):
    if not split and ((cb > 0 and sa == sb) or (cc > 0 and (sa == sc or sb == sc))):
        return False
    need0 = 0
    need1 = 0
    need2 = 0
    need3 = 0
    for ci in range(3):
        s = sa if ci == 0 else (sb if ci == 1 else sc)
        z = ca if ci == 0 else (cb if ci == 1 else cc)
        if z == 0:
            continue
        if s == 0:
            need0 += z
        elif s == 1:
            need1 += z
        elif s == 2:
            need2 += z
        else:
            need3 += z
    return need0 <= counts[0] and need1 <= counts[1] and need2 <= counts[2] and need3 <= counts[3]


@jit
def bisk_key_masks(masks, order_mode, depth, split):
    """Key of an evaluation set given as four 13-bit rank masks, one per suit (C, H, D, S)."""
    counts = np.empty(4, dtype=np.int64)
    for s in range(4):
        m = masks[s]
        c = 0
        while m:
            m &= m - 1
            c += 1
        counts[s] = c
    for t in range(10, 0, -1):
        ca, cb, cc = _pattern(t)
        best = np.int64(-1)
        for sa in range(4):
            if counts[sa] < ca:
                continue
            for sb in range(4 if cb > 0 else 1):
                for sc in range(4 if cc > 0 else 1):
                    if not _fits(ca, cb, cc, sa, sb, sc, counts, split):
                        continue
                    k = _assignment_key(t, sa, sb, sc, ca, cb, cc, masks, order_mode, depth)
                    if k > best:
                        best = k
        if best >= 0:
            return best
    # No Bisk (BB-12 step 5): every suit holds at most one card; compare cards by (suit, rank), highest first.
    key = np.int64(0)
    slot = 0
    for s in range(3, -1, -1):
        if masks[s] and slot < 4:
            if depth == 1 and slot >= 1:
                break
            r = _nth_rank(masks[s], 0)
            key |= np.int64(s * 13 + r + 1) << (35 + 6 * (3 - slot))
            slot += 1
    return key


@jit
def bisk_key(cards, n, order_mode, depth, split):
    """Key of the evaluation set ``cards[:n]`` (52-card codes)."""
    masks = np.zeros(4, dtype=np.int64)
    for i in range(n):
        c = cards[i]
        masks[c // 13] |= np.int64(1) << (c % 13)
    return bisk_key_masks(masks, order_mode, depth, split)


@jit
def key_type(key):
    return np.int64(key >> 59)


@jit
def eval_batch(sets, lengths, order_mode, depth, split, out):
    """Keys of many evaluation sets: ``sets[i, :lengths[i]]`` -> ``out[i]``."""
    for i in range(sets.shape[0]):
        out[i] = bisk_key(sets[i], lengths[i], order_mode, depth, split)


@pjit
def eval_batch_parallel(sets, lengths, order_mode, depth, split, out):
    for i in prange(sets.shape[0]):
        out[i] = bisk_key(sets[i], lengths[i], order_mode, depth, split)


@jit
def eval_masks_batch(masks, order_mode, depth, split, out):
    """Keys of many sets given as ``masks[i, 4]`` rank masks (the fastest input form)."""
    for i in range(masks.shape[0]):
        out[i] = bisk_key_masks(masks[i], order_mode, depth, split)


@jit
def exact_type_counts(deck, m, order_mode, depth, split, out):
    """Count the Bisk type of every m-card subset of ``deck`` into ``out[11]`` (exact enumeration).

    Walks the subsets in lexicographic order with incremental suit masks.
    """
    n = deck.shape[0]
    if m > n or m <= 0:
        return
    idx = np.arange(m)
    masks = np.zeros(4, dtype=np.int64)
    while True:
        masks[:] = 0
        for i in range(m):
            c = deck[idx[i]]
            masks[c // 13] |= np.int64(1) << (c % 13)
        out[key_type(bisk_key_masks(masks, order_mode, depth, split))] += 1
        # next combination
        i = m - 1
        while i >= 0 and idx[i] == n - m + i:
            i -= 1
        if i < 0:
            break
        idx[i] += 1
        for j in range(i + 1, m):
            idx[j] = idx[j - 1] + 1


# =============================================================================================
# The deal (BB-4 .. BB-11)
# =============================================================================================

@jit
def _suit(c):
    return c // 13


@jit
def _coin(st, p):
    """A strategy decision with probability p; no random number is drawn for p in {0, 1}."""
    if p <= 0.0:
        return False
    if p >= 1.0:
        return True
    return rng.uniform(st) < p


@jit
def _eval_seat(cards, n, wet, order_mode, depth, split, buf):
    for i in range(n):
        buf[i] = cards[i]
    buf[n] = wet
    return bisk_key(buf, n + 1, order_mode, depth, split)


@jit
def play_deal(P, hi, lo, variants, p_jingo, p_swap, swap_target, p_tuck, forced, st, rec, keys, trace):
    """Play one deal from the HIGH deck order ``hi`` and LOW deck order ``lo``.

    Seats are numbered in playing order: seat 0 is the dealer's left and seat P-1 the dealer (BB-4, BB-5).
    ``forced[seat]`` overrides the Flingo/Jingo choice where legal (-1 = the strategy decides; 0 Flingo;
    1 Jingo); ``forced[P + seat]`` overrides the swap (-1 strategy, 0 no, 1 + j swap with seat j);
    ``forced[2P + seat]`` the tuck (-1 strategy, 0 upright, 1 tucked). ``st`` is the strategy stream.
    Writes the per-seat record ``rec[P, SEAT_FIELDS]`` (zeroed here), the evaluation ``keys[P]`` and
    ``trace`` (per seat: action, swap partner or -1, tucked flag; then wet card, final pointer).
    Returns the number of seats sharing the win (0 = no winner, -1 = the deal must be redealt).
    """
    order_mode = variants[V_SUIT_ORDER]
    depth = variants[V_DEPTH]
    split = variants[V_SPLIT]
    n_hi = hi.shape[0]
    k = n_hi // 4
    rec[:, :] = 0
    up = np.empty((P, 40), dtype=np.int64)    # Bisko row (upright); sized for the reward-chain variant
    n_up = np.zeros(P, dtype=np.int64)
    tk = np.empty((P, 3), dtype=np.int64)     # tucked row
    n_tk = np.zeros(P, dtype=np.int64)
    jingo_card = np.full(P, -1, dtype=np.int64)
    bisko = np.zeros(P, dtype=np.int64)
    visible = np.zeros(4, dtype=np.int64)     # public cards per suit (for the strategy buckets)
    # ---- BB-4 Opening Bisk: two rounds face up, dealer last, then the Wet Bisk face down
    for s in range(P):
        a = hi[s]
        b = hi[P + s]
        visible[_suit(a)] += 1
        visible[_suit(b)] += 1
        up[s, 0] = a
        n_up[s] = 1
        if _suit(a) == _suit(b):
            bisko[s] = 1            # opening Bisko: both upright
            up[s, 1] = b
            n_up[s] = 2
            rec[s, R_OPENING_BISKO] = 1
        else:
            tk[s, 0] = b            # Tuck: the second card must be tucked
            n_tk[s] = 1
    wet = hi[2 * P]
    ptr = 2 * P + 1
    # ---- BB-5 Risky-Bisk, in seat order
    jingos = 0
    for s in range(P):
        forced_later = 0
        free_later = 0
        for t in range(s + 1, P):
            if bisko[t]:
                forced_later += 1
            else:
                free_later += 1
        if bisko[s]:
            take_jingo = True
        else:
            if variants[V_JINGO_RULE] == 1:
                # the choice is illegal iff R = 0 and J + c + F = 1 (BB-5)
                flingo_ok = not (free_later == 0 and jingos + forced_later == 1)
                jingo_ok = not (free_later == 0 and jingos + 1 + forced_later == 1)
            else:
                flingo_ok = True
                jingo_ok = True
            if flingo_ok and jingo_ok:
                rec[s, R_FREE_CHOICE] = 1
                if forced[s] >= 0:
                    take_jingo = forced[s] == 1
                else:
                    us = _suit(up[s, 0])
                    unseen = k - visible[us]
                    if unseen < 0:
                        unseen = 0
                    if unseen > 8:
                        unseen = 8
                    p = p_jingo[s, min(jingos, 2), 1 if free_later > 0 else 0, us, unseen]
                    take_jingo = _coin(st, p)
                if not take_jingo:
                    rec[s, R_FREE_FLINGO] = 1
            else:
                take_jingo = jingo_ok
        if take_jingo:
            jingos += 1
            rec[s, R_JINGO] = 1
            jingo_card[s] = hi[ptr]
            ptr += 1
            trace[s * 3] = 1
        else:
            rec[s, R_FLINGO] = 1
            trace[s * 3] = 0
            c = hi[ptr]
            ptr += 1
            up[s, n_up[s]] = c
            n_up[s] += 1
            visible[_suit(c)] += 1
            target = _suit(up[s, 0])
            # the reward: a flung card of the opening upright card's suit earns one more card
            while _suit(c) == target and ptr < n_hi:
                rec[s, R_REWARD] = 1
                c = hi[ptr]
                ptr += 1
                up[s, n_up[s]] = c
                n_up[s] += 1
                visible[_suit(c)] += 1
                if variants[V_REWARD_CHAIN] == 0:
                    break
            if rec[s, R_FREE_FLINGO] == 1 and rec[s, R_REWARD] == 1:
                rec[s, R_FREE_FLINGO_REWARD] = 1
    # ---- BB-6 Bingo-Bango
    for s in range(P):
        trace[s * 3 + 1] = -1
    if jingos > 0:
        order = np.empty(P, dtype=np.int64)
        low_key = np.empty(P, dtype=np.int64)
        n_order = 0
        li = 0
        for s in range(P):
            if jingo_card[s] >= 0:
                c = lo[li]
                li += 1
                # higher rank first; equal rank: S > D > H > C, which is the game's suit order
                low_key[n_order] = (c % 13) * 4 + c // 13
                order[n_order] = s
                n_order += 1
        # sort the Jingo players by LOW card, highest first (insertion sort; at most 6)
        for i in range(1, n_order):
            j = i
            while j > 0 and low_key[j] > low_key[j - 1]:
                low_key[j], low_key[j - 1] = low_key[j - 1], low_key[j]
                order[j], order[j - 1] = order[j - 1], order[j]
                j -= 1
        exchanged = np.zeros(P, dtype=np.int64)
        for i in range(n_order):
            s = order[i]
            if exchanged[s]:
                continue
            n_elig = 0
            for j in range(i + 1, n_order):
                if not exchanged[order[j]]:
                    n_elig += 1
            if n_elig == 0:
                continue
            mine = jingo_card[s]
            ms = _suit(mine)
            fit = 0
            if not bisko[s] and n_tk[s] > 0 and _suit(tk[s, 0]) == ms:
                fit = 1
            for u in range(n_up[s]):
                if _suit(up[s, u]) == ms:
                    fit = 2
            partner = -1
            f = forced[P + s]
            if f >= 0:
                if f >= 1:
                    partner = f - 1
            else:
                want = _coin(st, p_swap[s, fit, bisko[s]])
                if variants[V_SWAP_OPTIONAL] == 0 and i == _first_unexchanged(order, n_order, exchanged):
                    want = True   # variant: the highest-ranked unswapped player must swap
                if want:
                    partner = _pick_target(st, swap_target[s], order, i, n_order, exchanged, up, n_up, ms)
            if partner >= 0:
                jingo_card[s], jingo_card[partner] = jingo_card[partner], jingo_card[s]
                exchanged[s] = 1
                exchanged[partner] = 1
                rec[s, R_SWAP_INIT] = 1
                rec[s, R_SWAPPED] = 1
                rec[partner, R_SWAPPED] = 1
                trace[s * 3 + 1] = partner
    # ---- BB-7 placing Jingo cards (the built-in strategies do not look at other players'
    #      placements, so jingo_placement_order changes nothing for them)
    for s in range(P):
        trace[s * 3 + 2] = 0
        c = jingo_card[s]
        if c < 0:
            continue
        cs = _suit(c)
        rel = 2
        for u in range(n_up[s]):
            if _suit(up[s, u]) == cs:
                rel = 1
        matches_tucked = False
        for u in range(n_tk[s]):
            if _suit(tk[s, u]) == cs:
                matches_tucked = True
        if matches_tucked:
            rel = 0
        tuckable = matches_tucked or variants[V_TUCK_RULE] == 1
        tuck = False
        if tuckable:
            f = forced[2 * P + s]
            if f >= 0:
                tuck = f == 1
            else:
                tuck = _coin(st, p_tuck[s, rel])
        if tuck:
            tk[s, n_tk[s]] = c
            n_tk[s] += 1
            rec[s, R_TUCKED_JINGO] = 1
            trace[s * 3 + 2] = 1
        else:
            up[s, n_up[s]] = c
            n_up[s] += 1
    # ---- BB-9 Bedtime Bisk: one card each, two for opening-Bisko players (or, variant, any Bisko so far)
    double = np.zeros(P, dtype=np.int64)
    for s in range(P):
        if variants[V_BEDTIME] == 0:
            double[s] = bisko[s]
        else:
            cnt = np.zeros(4, dtype=np.int64)
            for u in range(n_up[s]):
                cnt[_suit(up[s, u])] += 1
            double[s] = 1 if cnt.max() >= 2 else 0
    for rnd in range(2):
        for s in range(P):
            if rnd == 0 or double[s]:
                if ptr < n_hi:
                    up[s, n_up[s]] = hi[ptr]
                    n_up[s] += 1
                    ptr += 1
    # ---- BB-10 Flipped Bisk and BB-11/12 result
    jack = (wet % 13) == JACK
    buf = np.empty(48, dtype=np.int64)
    best = np.int64(-1)
    for s in range(P):
        if jack:
            keys[s] = _eval_seat(tk[s], n_tk[s], wet, order_mode, depth, split, buf)
        else:
            keys[s] = _eval_seat(up[s], n_up[s], wet, order_mode, depth, split, buf)
        if keys[s] > best:
            best = keys[s]
    n_win = 0
    for s in range(P):
        if keys[s] == best:
            n_win += 1
    trace[3 * P] = wet
    trace[3 * P + 1] = ptr
    for s in range(P):
        rec[s, R_TYPE + key_type(keys[s])] = 1
    if n_win > 1:
        tie = variants[V_EXACT_TIE]
        if tie == 2:
            return -1
        if tie == 1:
            return 0
    for s in range(P):
        if keys[s] == best:
            units = 60 // n_win
            rec[s, R_WIN] = units
            rec[s, R_WIN_SQ] = units * units
            rec[s, R_TYPE_WIN + key_type(keys[s])] = units
            if n_win == 1:
                rec[s, R_SOLE_WIN] = 1
    return n_win


@jit
def _first_unexchanged(order, n_order, exchanged):
    for i in range(n_order):
        if not exchanged[order[i]]:
            return i
    return -1


@jit
def _pick_target(st, rule, order, i, n_order, exchanged, up, n_up, my_suit):
    """The swap partner of the player at ``order[i]`` under target rule ``rule`` (see the tables)."""
    n_elig = 0
    for j in range(i + 1, n_order):
        if not exchanged[order[j]]:
            n_elig += 1
    if rule == 1:
        for j in range(i + 1, n_order):
            if not exchanged[order[j]]:
                return order[j]
    if rule == 2:
        pick = rng.below(st, n_elig)
        for j in range(i + 1, n_order):
            if not exchanged[order[j]]:
                if pick == 0:
                    return order[j]
                pick -= 1
    if rule == 3:
        for j in range(n_order - 1, i, -1):
            t = order[j]
            if exchanged[t]:
                continue
            gift = False
            for u in range(n_up[t]):
                if up[t, u] // 13 == my_suit:
                    gift = True
            if not gift:
                return t
    for j in range(n_order - 1, i, -1):   # rule 0, and the fallback of rule 3
        if not exchanged[order[j]]:
            return order[j]
    return -1


@jit
def deal_decks(st, hi_deck, lo_deck, hi, lo, n_low):
    """Shuffle copies of the HIGH deck (fully) and the first ``n_low`` LOW cards from stream ``st``."""
    hi[:] = hi_deck
    rng.partial_shuffle(st, hi, hi.shape[0])
    lo[:] = lo_deck
    rng.partial_shuffle(st, lo, n_low)


@jit
def simulate_deal(P, hi_deck, lo_deck, variants, p_jingo, p_swap, swap_target, p_tuck, forced,
                  key0, key1, trial, rec, keys, trace, hi, lo, st_deal, st_strat):
    """One complete deal of global trial ``trial`` (redealt on exact ties under ``exact_tie=redeal``).

    Returns (number of winners, redeals).
    """
    attempt = 0
    while True:
        rng.seed_state(st_deal, key0, key1, np.uint64(trial), np.uint64(2 * attempt + rng.STREAM_DEAL))
        rng.seed_state(st_strat, key0, key1, np.uint64(trial), np.uint64(2 * attempt + rng.STREAM_STRATEGY))
        deal_decks(st_deal, hi_deck, lo_deck, hi, lo, P)
        n_win = play_deal(P, hi, lo, variants, p_jingo, p_swap, swap_target, p_tuck, forced, st_strat,
                          rec, keys, trace)
        if n_win >= 0 or attempt >= MAX_REDEALS:
            return n_win, attempt
        attempt += 1


@pjit
def simulate_chunks(chunk_ids, chunk_size, n_trials, key0, key1, P, hi_deck, lo_deck, variants,
                    p_jingo, p_swap, swap_target, p_tuck, out):
    """The driver's kernel: accumulate deal records for each chunk into ``out[chunk]``."""
    for ci in prange(chunk_ids.shape[0]):
        c = chunk_ids[ci]
        start = c * chunk_size
        stop = min(start + chunk_size, n_trials)
        rec = np.zeros((P, SEAT_FIELDS), dtype=np.int64)
        keys = np.zeros(P, dtype=np.int64)
        trace = np.zeros(3 * P + 2, dtype=np.int64)
        hi = np.empty_like(hi_deck)
        lo = np.empty_like(lo_deck)
        forced = np.full(3 * P, -1, dtype=np.int64)
        st_deal = rng.new_state()
        st_strat = rng.new_state()
        row = out[ci]
        base = P * SEAT_FIELDS
        for t in range(start, stop):
            n_win, redeals = simulate_deal(P, hi_deck, lo_deck, variants, p_jingo, p_swap, swap_target, p_tuck,
                                           forced, key0, key1, t, rec, keys, trace, hi, lo, st_deal, st_strat)
            for s in range(P):
                for f in range(SEAT_FIELDS):
                    row[s * SEAT_FIELDS + f] += rec[s, f]
            row[base + D_DEALS] += 1
            if (hi[2 * P] % 13) == JACK:
                row[base + D_WET_JACK] += 1
            if n_win > 1:
                row[base + D_SHARED] += 1
            if n_win == 0:
                row[base + D_NO_WINNER] += 1
            row[base + D_REDEALS] += redeals
            nj = 0
            for s in range(P):
                nj += rec[s, R_JINGO]
                row[base + D_SWAPS] += rec[s, R_SWAP_INIT]
            row[base + D_JINGO_PLAYERS] += nj
            if nj > 0:
                row[base + D_BINGO_PHASE] += 1
