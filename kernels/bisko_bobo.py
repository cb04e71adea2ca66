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
11-49  Bisk types: each component's ranks as a 13-bit rank mask (bit r = rank r), the components in
       the order above at bits 37-49, 24-36 and 11-23. Comparing the masks as integers compares the
       rank lists highest first, an equal prefix losing to a longer list (the highest rank in which
       two masks differ decides); under ``first_card_only`` only the first component's highest rank
35-58  no Bisk: up to four cards (one per suit at most), 6 bits each (card + 1), sorted by
       (suit, rank) highest first; a missing card is 0, so more cards win an equal prefix
====== ==================================================================================

Variant codes (the ``variants`` int64 array built by :mod:`analysis.games.bisko_bobo`):
see ``V_*`` below; every one is a named variant of rules.md 1(c).
"""

from __future__ import annotations

import numpy as np

from . import rng, simd
from ._jit import borrowed, jit, jit_inline, pjit, prange
from .bits import high_index, low_index, popcount
from .simd import (
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

# ---- variant slots (rules.md 1(c)) ------------------------------------------------------------
V_SUIT_ORDER = 0  # bisk_suit_order: 0 suit_rank, 1 component_first
V_DEPTH = 1  # tiebreak_depth: 0 full_lexicographic, 1 first_card_only
V_EXACT_TIE = 2  # exact_tie: 0 split, 1 no_winner, 2 redeal
V_TUCK_RULE = 3  # jingo_tuck_rule: 0 bobo_only, 1 free
V_SPLIT = 4  # allow_same_suit_split: 0 false, 1 true
V_REWARD_CHAIN = 5  # flingo_reward_chain: 0 false, 1 true
V_BEDTIME = 6  # bedtime_double_trigger: 0 opening_bisko_only, 1 any_bisko_before_bedtime
V_JINGO_RULE = 7  # enforce_jingo_constraint: 0 false, 1 true
V_SWAP_OPTIONAL = 8  # bingo_swap_optional: 0 false (highest unswapped must swap), 1 true
V_PLACEMENT = 9  # jingo_placement_order: 0 simultaneous, 1 clockwise_sequential
N_VARIANTS = 10

JACK = 9
MAX_REDEALS = 64

# ---- per-seat record of one deal (rec[P, REC_FIELDS]) and per-seat count block of a chunk row -------
R_WIN = 0  # win share in units of 1/60 (60 = sole winner; split ties give 60/k)
R_WIN_SQ = 1  # its square (units of 1/3600)
R_OPENING_BISKO = 2
R_FLINGO = 3
R_JINGO = 4
R_FREE_CHOICE = 5  # a Tuck player with both actions legal
R_REWARD = 6  # Flingo earned at least one reward card
R_SWAP_INIT = 7  # started a Bingo-Bango swap
R_SWAPPED = 8  # took part in a swap (either side)
R_TUCKED_JINGO = 9  # put the Jingo card in the tucked row
R_SOLE_WIN = 10
R_FREE_FLINGO = 11  # chose Flingo freely
R_FREE_FLINGO_REWARD = 12
N_FLAGS = 13  # fields 0..12 are the count block's first fields (sums over deals)
R_FINAL_TYPE = 13  # the type index of the final evaluation set
R_BUCKET_FLINGO = 14  # the Flingo/Jingo situation bucket of a free choice (-1: no free choice)
R_BUCKET_SWAP = 15  # the swap situation bucket (fit * 2 + opening Bisko) of an optional swap (-1: none)
R_BUCKET_TUCK = 16  # the placement bucket (rel) of a tuckable Jingo card (-1: none)
R_PTR = 17  # HIGH cards dealt before this seat's Risky-Bisk card
REC_FIELDS = 18
N_BUCKETS = 216  # the largest bucket count of the three decisions (3 * 2 * 4 * 9)
C_TYPE = 13  # count block: 11 slots, deals ending with each final type
C_TYPE_WIN = 24  # count block: 11 slots, win units by final type
C_JACK_WIN = 35  # win units in deals whose Wet Bisk is a Jack
C_OB_JACK = 36  # deals with an opening Bisko and a Jack
C_OB_WIN = 37  # win units with an opening Bisko
C_OB_JACK_WIN = 38  # win units with an opening Bisko and a Jack
C_FREE_FLINGO_WIN = 39
C_FREE_JINGO_WIN = 40
SEAT_FIELDS = 41

# ---- per-deal fields (after the seat blocks) -------------------------------------------------
D_DEALS = 0
D_WET_JACK = 1
D_SHARED = 2  # deals whose win was shared
D_REDEALS = 3
D_NO_WINNER = 4
D_SWAPS = 5
D_JINGO_PLAYERS = 6
D_BINGO_PHASE = 7  # deals with at least one Jingo player
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


@jit_inline
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


@jit_inline
def type_from_counts(c0, c1, c2, c3):
    """The highest available type for suit counts (BB-12 step 1), components from different suits."""
    # sort descending: a >= b >= c
    a, b, c, d = c0, c1, c2, c3
    if b > a:
        a, b = b, a
    if d > c:
        c, d = d, c
    if c > a:
        a, c = c, a
    if d > b:
        b, d = d, b
    if c > b:
        b, c = c, b
    if a >= 6:
        return 10
    if a >= 5:
        return 9
    if a >= 4 and b >= 2:
        return 8
    if a >= 3 and b >= 3:
        return 7
    if c >= 2:
        return 6
    if a >= 4:
        return 5
    if a >= 3 and b >= 2:
        return 4
    if a >= 3:
        return 3
    if b >= 2:
        return 2
    if a >= 2:
        return 1
    return 0


@jit
def _type_split(c0, c1, c2, c3):
    """The highest type when one suit may supply several components (allow_same_suit_split)."""
    for t in range(10, 0, -1):
        za, zb, zc = _pattern(t)
        for sa in range(4):
            for sb in range(4 if zb > 0 else 1):
                for sc in range(4 if zc > 0 else 1):
                    n0 = 0
                    n1 = 0
                    n2 = 0
                    n3 = 0
                    for ci in range(3):
                        s = sa if ci == 0 else (sb if ci == 1 else sc)
                        z = za if ci == 0 else (zb if ci == 1 else zc)
                        if s == 0:
                            n0 += z
                        elif s == 1:
                            n1 += z
                        elif s == 2:
                            n2 += z
                        else:
                            n3 += z
                    if n0 <= c0 and n1 <= c1 and n2 <= c2 and n3 <= c3:
                        return t
    return 0


PATTERNS = {1: (2,), 2: (2, 2), 3: (3,), 4: (3, 2), 5: (4,), 6: (2, 2, 2), 7: (3, 3), 8: (4, 2), 9: (5,), 10: (6,)}
ASSIGN_BASE = 1 << 13


def rank_pack_table() -> np.ndarray:
    """The evaluator's lookup tables, built once in Python and passed to the kernels as ``pack``.

    * ``pack[mask]`` for every 13-bit rank mask: its ranks + 1 as 4-bit nibbles, highest first from bit 48
      down, and its card count in bits 56-59;
    * ``pack[ASSIGN_BASE + c0 + 7 c1 + 49 c2 + 343 c3]`` for suit counts with at most 6 cards in all: the
      type (bits 0-3), then for each ``bisk_suit_order`` mode (bits 4-18 for suit_rank, 19-33 for
      component_first) its components in comparison order, 5 bits each (suit | size << 2).
      With at most 6 cards the suits that hold each component are determined by the counts (BB-13), which
      this builder checks; larger sets take the general search.
    """
    import itertools

    pack = np.zeros(ASSIGN_BASE + 7**4, dtype=np.int64)
    for m in range(1 << 13):
        v = 0
        j = 0
        for r in range(12, -1, -1):
            if (m >> r) & 1:
                v |= (r + 1) << (4 * (12 - j))
                j += 1
        pack[m] = v | (j << 56)
    for counts in itertools.product(range(7), repeat=4):
        if sum(counts) > 6:
            continue
        t = 0
        for cand in range(10, 0, -1):
            comps = PATTERNS[cand]
            if any(
                all(counts[s] >= z for s, z in zip(suits, comps))
                for suits in itertools.permutations(range(4), len(comps))
            ):
                t = cand
                break
        entry = t
        if t:
            comps = PATTERNS[t]
            ways = {
                tuple(sorted(zip(comps, suits)))
                for suits in itertools.permutations(range(4), len(comps))
                if all(counts[s] >= z for s, z in zip(suits, comps))
            }
            assert len(ways) == 1, (counts, ways)  # unique up to equal components
            zs = next(iter(ways))
            assert all(counts[su] == z for z, su in zs), counts  # a component is its suit's every card
            # the components in comparison order for each bisk_suit_order mode: (suit, size) in 5 bits each
            for mode, order in (
                (0, sorted(zs, key=lambda c: (c[1], c[0]), reverse=True)),
                (1, sorted(zs, key=lambda c: (c[0], c[1]), reverse=True)),
            ):
                for i, (z, su) in enumerate(order):
                    entry |= (su | (z << 2)) << (4 + 15 * mode + 5 * i)
        pack[ASSIGN_BASE + counts[0] + 7 * counts[1] + 49 * counts[2] + 343 * counts[3]] = entry
    return pack


RANK_PACK = rank_pack_table()


@jit_inline
def _count(pack, m):
    """Cards in a 13-bit rank mask (one instruction; the table holds the same count in bits 56..59)."""
    return popcount(m)


@jit_inline
def _take(m, skip, take, i, depth):
    """Ranks skip+1 .. skip+take (from the top) of rank mask ``m`` as a rank mask at component ``i``'s place in the
    key (the first rank of component 0 alone under first_card_only)."""
    if depth == 1:
        take = 1 if i == 0 else 0
    for _ in range(skip):
        m &= ~(np.int64(1) << high_index(m))
    out = np.int64(0)
    for _ in range(take):
        h = np.int64(1) << high_index(m)
        out |= h
        m &= ~h
    return out << (37 - 13 * i)


@jit_inline
def _mask_of(m0, m1, m2, m3, s):
    """Rank mask of suit ``s``, without branches (the suit is data-dependent and mispredicts)."""
    return ((m0 | (m1 << 13) | (m2 << 26) | (m3 << 39)) >> (13 * s)) & 0x1FFF


@jit
def _assignment_key(t, sa, sb, sc, za, zb, zc, m0, m1, m2, m3, order_mode, depth):
    """Key of type ``t`` with components of sizes (za, zb, zc) taken from suits (sa, sb, sc)."""
    # Order the components for comparison: by suit (suit_rank), or by size then suit (component_first).
    k0 = (za * 8 + sa if order_mode == 1 else sa * 8 + za) if za > 0 else -1
    k1 = (zb * 8 + sb if order_mode == 1 else sb * 8 + zb) if zb > 0 else -1
    k2 = (zc * 8 + sc if order_mode == 1 else sc * 8 + zc) if zc > 0 else -1
    if k1 > k0:
        k0, k1 = k1, k0
        sa, sb = sb, sa
        za, zb = zb, za
    if k2 > k1:
        k1, k2 = k2, k1
        sb, sc = sc, sb
        zb, zc = zc, zb
    if k1 > k0:
        k0, k1 = k1, k0
        sa, sb = sb, sa
        za, zb = zb, za
    suits_field = (sa + 1) << 6
    ranks = _take(_mask_of(m0, m1, m2, m3, sa), 0, za, 0, depth)
    if zb > 0:
        suits_field |= (sb + 1) << 3
        # under allow_same_suit_split a suit supplying two components continues below its last card
        ranks |= _take(_mask_of(m0, m1, m2, m3, sb), za if sb == sa else 0, zb, 1, depth)
    if zc > 0:
        suits_field |= sc + 1
        skip = (za if sc == sa else 0) + (zb if sc == sb else 0)
        ranks |= _take(_mask_of(m0, m1, m2, m3, sc), skip, zc, 2, depth)
    return (np.int64(t) << 59) | (np.int64(suits_field) << 50) | ranks


@jit_inline
def bisk_key4(m0, m1, m2, m3, order_mode, depth, split, pack):
    """Key of an evaluation set given as four 13-bit rank masks (C, H, D, S); see the module docstring.

    Every evaluation set in play has at most 6 cards (BB-13), and then the type and the suits of its
    components come from one table lookup and the key is built without a branch on the cards
    (:func:`_table_key`). The type, the number of components and their suits are random in play, so
    branches on them cannot be predicted, and without them the final evaluation is about a quarter faster
    (docs/performance.md). Larger sets and ``allow_same_suit_split`` take
    :func:`_search_key`."""
    c0 = _count(pack, m0)
    c1 = _count(pack, m1)
    c2 = _count(pack, m2)
    c3 = _count(pack, m3)
    if split or c0 + c1 + c2 + c3 > 6:
        return _search_key(m0, m1, m2, m3, c0, c1, c2, c3, order_mode, depth, split, pack)
    return _table_key(m0, m1, m2, m3, _table_entry(pack, c0, c1, c2, c3), order_mode, depth, pack)


@jit_inline
def _table_entry(pack, c0, c1, c2, c3):
    """The table entry of suit counts with at most 6 cards in all (:func:`rank_pack_table`): the type in its low
    4 bits, then the components."""
    return pack[ASSIGN_BASE + c0 + 7 * c1 + 49 * c2 + 343 * c3]


@jit_inline
def _table_key(m0, m1, m2, m3, e, order_mode, depth, pack):
    """The key from the table entry ``e`` of the suit counts (see :func:`rank_pack_table`), each of the Bisk
    and the No Bisk keys without a branch on the cards. One branch on the type picks which is built: computing
    both and selecting one cost more (6-card sets, which are never No Bisk: 64M keys/s against 88M)."""
    t = e & 15
    comps = e >> (4 + 15 * order_mode)
    suits_field = np.int64(0)
    ranks = np.int64(0)
    for i in range(3):
        cz = (comps >> (5 * i)) & 31
        z = cz >> 2  # 0: no such component (nothing added below)
        su = cz & 3
        suits_field |= ((su + 1) * (z > 0)) << (3 * (2 - i))
        # with at most 6 cards a component holds every card of its suit (rank_pack_table checks it)
        m = _mask_of(m0, m1, m2, m3, su) * (z > 0)
        if depth == 1:  # first_card_only: the first rank of the Bisk alone
            m = (m & -(np.int64(1) << high_index(np.uint64(m) | np.uint64(1)))) * (i == 0)  # its highest rank
        ranks |= m << (37 - 13 * i)
    if t > 0:
        return (t << 59) | (suits_field << 50) | ranks
    # No Bisk (BB-12 step 5): at most one card per suit, compared by (suit, rank), highest first
    none = np.int64(0)
    slot = 0
    for s in range(3, -1, -1):
        m = _mask_of(m0, m1, m2, m3, s)
        has = m != 0
        card = s * 13 + ((pack[m] >> 48) & 15)  # card + 1 (the table's rank + 1)
        use = has and (depth == 0 or slot == 0)
        none |= (card * use) << (35 + 6 * (3 - slot))
        slot += has
    return none


@jit
def _search_key(m0, m1, m2, m3, c0, c1, c2, c3, order_mode, depth, split, pack):
    """:func:`bisk_key4` for sets of more than 6 cards and for ``allow_same_suit_split``: the type from the
    counts, then the best assignment of components to suits (BB-12 steps 1-2)."""
    t = _type_split(c0, c1, c2, c3) if split else type_from_counts(c0, c1, c2, c3)
    if t == 0:
        # No Bisk (BB-12 step 5): at most one card per suit; compare by (suit, rank), highest first.
        key = np.int64(0)
        slot = 0
        for s in range(3, -1, -1):
            m = _mask_of(m0, m1, m2, m3, s)
            if m:
                if depth == 1 and slot >= 1:
                    break
                r = ((pack[m] >> 48) & 15) - 1
                key |= np.int64(s * 13 + r + 1) << (35 + 6 * (3 - slot))
                slot += 1
        return key
    za, zb, zc = _pattern(t)
    if not split:
        if zb == 0:
            # one component: the highest suit that holds it gives the best key
            for s in range(3, -1, -1):
                cs = c0 if s == 0 else (c1 if s == 1 else (c2 if s == 2 else c3))
                if cs >= za:
                    return _assignment_key(t, s, 0, 0, za, 0, 0, m0, m1, m2, m3, order_mode, depth)
        if zc > 0:
            # Three Bisk [2,2,2]: equal components, so the three highest suits holding two cards
            s1 = -1
            s2 = -1
            s3 = -1
            for s in range(3, -1, -1):
                cs = c0 if s == 0 else (c1 if s == 1 else (c2 if s == 2 else c3))
                if cs >= 2:
                    if s1 < 0:
                        s1 = s
                    elif s2 < 0:
                        s2 = s
                    elif s3 < 0:
                        s3 = s
            return _assignment_key(t, s1, s2, s3, 2, 2, 2, m0, m1, m2, m3, order_mode, depth)
    best = np.int64(-1)
    # Every way of giving the components to suits that can hold them (BB-12 step 2): keep the best key.
    for sa in range(4):
        ca = c0 if sa == 0 else (c1 if sa == 1 else (c2 if sa == 2 else c3))
        if ca < za:
            continue
        for sb in range(4 if zb > 0 else 1):
            if zb > 0:
                if not split and sb == sa:
                    continue
                cb = c0 if sb == 0 else (c1 if sb == 1 else (c2 if sb == 2 else c3))
                if cb < zb + (za if sb == sa else 0):
                    continue
            for sc in range(4 if zc > 0 else 1):
                if zc > 0:
                    if not split and (sc == sa or sc == sb):
                        continue
                    cc = c0 if sc == 0 else (c1 if sc == 1 else (c2 if sc == 2 else c3))
                    if cc < zc + (za if sc == sa else 0) + (zb if sc == sb else 0):
                        continue
                k = _assignment_key(t, sa, sb, sc, za, zb, zc, m0, m1, m2, m3, order_mode, depth)
                if k > best:
                    best = k
    return best


@jit_inline
def _card_bit(card):
    """The card's rank bit in its suit's 13-bit field of one word: bit ``13 * suit + rank``, which is bit
    ``card`` itself."""
    return np.int64(1) << card


@jit_inline
def _word_key(acc, order_mode, depth, split, pack):
    """:func:`bisk_key4` of a set given as one word of four 13-bit suit fields (see :func:`_card_bit`)."""
    return bisk_key4(
        acc & 8191, (acc >> 13) & 8191, (acc >> 26) & 8191, (acc >> 39) & 8191, order_mode, depth, split, pack
    )


@jit
def bisk_key(cards, n, order_mode, depth, split, pack):
    """Key of the evaluation set ``cards[:n]`` (52-card codes)."""
    acc = np.int64(0)
    for i in range(n):
        acc |= _card_bit(cards[i])
    return _word_key(acc, order_mode, depth, split, pack)


@jit_inline
def key_type(key):
    return np.int64(key >> 59)


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


@jit
def exact_type_counts(deck, m, order_mode, depth, split, pack, out):
    """Count the Bisk type of every m-card subset of ``deck`` into ``out[11]`` (exact enumeration).

    Walks the subsets in lexicographic order (a plain combination counter).
    """
    n = deck.shape[0]
    if m > n or m <= 0:
        return
    idx = np.arange(m)
    while True:
        m0 = np.int64(0)
        m1 = np.int64(0)
        m2 = np.int64(0)
        m3 = np.int64(0)
        for i in range(m):
            c = deck[idx[i]]
            bit = np.int64(1) << (c % 13)
            s = c // 13
            if s == 0:
                m0 |= bit
            elif s == 1:
                m1 |= bit
            elif s == 2:
                m2 |= bit
            else:
                m3 |= bit
        out[key_type(bisk_key4(m0, m1, m2, m3, order_mode, depth, split, pack))] += 1
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


# The decks of 2-6 players (BB-1): HIGH 20-32 cards, all shuffled; LOW 32-20 cards, P of them drawn. Their
# shuffles are unrolled (rng.shuffle_for; ~50 ns less a 4-player deal); a test holds these shapes to the decks.
HIGH_SHAPES = ((20, 20), (24, 24), (28, 28), (32, 32))
LOW_SHAPES = ((32, 2), (32, 3), (28, 4), (24, 5), (20, 6))
_shuffle_high = rng.shuffle_for(HIGH_SHAPES)
_shuffle_low = rng.shuffle_for(LOW_SHAPES)


@jit
def deal_decks(st, hi_deck, lo_deck, hi, lo, n_low):
    """Shuffle copies of the HIGH deck (fully) and the first ``n_low`` LOW cards from stream ``st``.

    A compiled function (inlined, its nine unrolled shuffles doubled the compile time of each caller), on
    borrowed views of its arguments, copying by loops: a slice assignment checks for overlap."""
    st, hi_deck, lo_deck, hi, lo = borrowed((st, hi_deck, lo_deck, hi, lo))
    for i in range(hi.shape[0]):
        hi[i] = hi_deck[i]
    _shuffle_high(st, hi, hi.shape[0])
    for i in range(lo.shape[0]):
        lo[i] = lo_deck[i]
    _shuffle_low(st, lo, n_low)


@jit_inline
def simulate_deal(
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
    st_deal,
    st_strat,
    ws,
    pack,
):
    """One complete deal of global trial ``trial`` (redealt on exact ties under ``exact_tie=redeal``).

    Stream ids: deal cards ``2a``, strategy coins ``2a + 1`` for attempt ``a`` (a > 0 only on redeals).
    Returns (number of winners, redeals).
    """
    attempt = 0
    while True:
        start_attempt(P, hi_deck, lo_deck, key0, key1, trial, attempt, hi, lo, st_deal, st_strat)
        n_win = play_deal(
            P, hi, lo, variants, p_jingo, p_swap, swap_target, p_tuck, forced, st_strat, rec, keys, trace, ws, pack
        )
        if n_win >= 0 or attempt >= MAX_REDEALS:
            return n_win, attempt
        attempt += 1


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


@pjit
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
    for ci in prange(chunk_ids.shape[0]):
        c = chunk_ids[ci]
        start = c * chunk_size
        stop = min(start + chunk_size, n_trials)
        _simulate_range(
            start, stop, key0, key1, P, hi_deck, lo_deck, variants, p_jingo, p_swap, swap_target, p_tuck, pack, out[ci]
        )


@jit
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
            nw1, redeals = simulate_deal(
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
    n_win, redeals = simulate_deal(
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


@pjit
def decision_chunks(chunk_ids, chunk_size, n_trials, key0, key1, P, hid, lod, variants, pj, ps, tgt, pt, pack, out):
    """For every seat and each of its decisions in a deal, the win share of both actions (BB-15).

    ``out[chunk]`` is laid out ``[decision 3][seat P][bucket N_BUCKETS][DEC_STATS]``; action 0/1 is
    Flingo/Jingo, no swap/swap (strategy's target), upright/tucked.
    """
    for ci in prange(chunk_ids.shape[0]):
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


@pjit
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
    for ci in prange(chunk_ids.shape[0]):
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
                pj[s] = pj_b[s]
                ps[s] = ps_b[s]
                tgt[s] = tgt_b[s]
                pt[s] = pt_b[s]
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
                pj[s] = pj_a[s]
                ps[s] = ps_a[s]
                tgt[s] = tgt_a[s]
                pt[s] = pt_a[s]
                _add_pair(row, s * DEC_STATS, base_w[s], w1)


ODDS_FIELDS = 2 + DEC_STATS  # attempts, accepted, then the pair statistics


@pjit
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
    for ci in prange(chunk_ids.shape[0]):
        c = chunk_ids[ci]
        start = c * chunk_size
        stop = min(start + chunk_size, n_trials)
        rec, keys, trace, hi, lo, forced, st_deal, st_strat, ws = deal_buffers(P, n_hi, n_lo)
        forced[:] = forced_base
        pool_h = hi_pool.copy()
        pool_l = lo_pool.copy()
        row = out[ci]
        slot = seat if decision == DEC_FLINGO else (P + seat if decision == DEC_SWAP else 2 * P + seat)
        for t in range(start, stop):
            row[0] += 1
            rng.seed_state(st_deal, key0, key1, np.uint64(t), np.uint64(rng.STREAM_DEAL))
            pool_h[:] = hi_pool
            rng.partial_shuffle(st_deal, pool_h, pool_h.shape[0])
            j = 0
            for i in range(n_hi):
                if hi_template[i] >= 0:
                    hi[i] = hi_template[i]
                else:
                    hi[i] = pool_h[j]
                    j += 1
            pool_l[:] = lo_pool
            rng.partial_shuffle(st_deal, pool_l, pool_l.shape[0])
            j = 0
            for i in range(n_lo):
                if lo_template[i] >= 0:
                    lo[i] = lo_template[i]
                else:
                    lo[i] = pool_l[j]
                    j += 1
            # the base replay: does the seat face the decision, and is the past as the player saw it?
            forced[slot] = -1
            rng.seed_state(st_strat, key0, key1, np.uint64(t), np.uint64(rng.STREAM_STRATEGY))
            play_deal(P, hi, lo, variants, pj, ps, tgt, pt, forced, st_strat, rec, keys, trace, ws, pack)
            if rec[seat, R_BUCKET_FLINGO + decision] < 0:
                continue
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
