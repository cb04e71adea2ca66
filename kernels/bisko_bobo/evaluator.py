"""Bisko-Bobo kernels: the Bisk evaluator (BB-12) -- the key of a set of cards, one at a time or from its
suit counts by one table lookup.
"""

from __future__ import annotations

import numpy as np

from .._jit import jit, jit_inline
from ..bits import high_index, popcount

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
