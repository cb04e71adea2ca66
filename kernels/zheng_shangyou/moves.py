"""Zheng Shangyou kernels, move generation: every legal play from a hand, in the documented order the random
player draws from (:func:`moves_into`), and the multiset helpers (take, add a card, order plays).
"""

from __future__ import annotations

import numpy as np

from .._jit import jit, jit_inline
from ..bits import RANK_LOW_BITS, rank_counts
from ..bits import low_index as _low_index
from ..bits import popcount as _popcount
from ..bits import rank_bits as _rank_bits
from .classifier import _bomb_key, _pair_key, _revolved_key, _single_key, _top_suit, beats, rank_of_position
from .layout import (
    K_BOMB,
    K_FULL_HOUSE,
    K_NONE,
    K_PAIR,
    K_PAIR_STRAIGHT,
    K_SINGLE,
    K_STRAIGHT,
    K_STRAIGHT_FLUSH,
    K_TRIPLE,
    K_TRIPLE_STRAIGHT,
    MAX_MOVES,
    SUITED_CARDS,
    V_BARE_FOUR,
    V_CURRENT,
    V_KICKER_JOKER,
    V_MIN_BOMB,
    V_MIN_STRAIGHT,
    V_NO_TWOS_SEQ,
    V_PAIR_STRAIGHT_TIE,
    V_STRAIGHT_SUIT,
    V_SUIT_ORDER,
    _card_positions,
    _positions,
    _runs_of,
    has_straight_flush,
    ranks_at_least,
)


@jit_inline
def _emit_known(out, n, play, dup, kind, length, key, cur_kind, cur_len, cur_key, zv, rev):
    """Append the play ``(play, dup)`` to ``out[n]`` if it beats the current play; its kind, length and
    (normal-order) key are known to the generator, so no :func:`classify` is needed. Returns the new count."""
    if beats(cur_kind, cur_len, cur_key, kind, length, _revolved_key(kind, length, key, rev), zv) and n < out.shape[0]:
        out[n, 0] = play
        out[n, 1] = dup
        return n + 1
    return n


@jit_inline
def _singles_above(hand, cur_key, zv):
    """The cards of ``hand`` that beat a single of key ``cur_key`` in the normal order: those above its code,
    or (no suit order) above the last code of its rank."""
    top = cur_key if zv[V_SUIT_ORDER] == 1 or cur_key >= 52 else cur_key + 3
    return hand & ~((np.uint64(2) << np.uint64(top)) - np.uint64(1))


@jit_inline
def _no_bomb_or_straight_flush(hand, dup, zv):
    """Whether no bomb and no straight flush can be made from the hand (a bomb needs four cards of a rank,
    three under current_wiki's triple_is_bomb; current_wiki has no straight flushes)."""
    cnt = rank_counts(hand) + rank_counts(dup)
    if zv[V_CURRENT] == 1:
        return ranks_at_least(cnt, zv[V_MIN_BOMB]) == np.uint64(0)
    return ranks_at_least(cnt, 4) == np.uint64(0) and not has_straight_flush(hand, zv[V_MIN_STRAIGHT])


@jit_inline
def pair_less(a, b, c, d):
    """Whether the play ``(a, b)`` comes before ``(c, d)`` in play order (cards, then dups): the players' tie-break."""
    return a < c or (a == c and b < d)


@jit
def _subsets_of_size(bits, dbits, k, base, out, n_out):
    """All k-card multisets of one rank's cards (``bits`` the suits held, ``dbits`` those held twice), as
    ``(cards, dups)`` rows shifted to ``base``, in play order (:func:`pair_less`); written to out[n_out:],
    returns the new count. The move generator's order rests on this order (see :func:`moves_into`)."""
    first = n_out
    c = _popcount(bits) + _popcount(dbits)
    if k > c:
        return n_out
    if k == c:
        out[n_out, 0] = bits << np.uint64(base)
        out[n_out, 1] = dbits << np.uint64(base)
        return n_out + 1
    if dbits:  # two decks: every split of k over the suits, 0..2 copies each
        c0 = (bits & np.uint64(1)) + (dbits & np.uint64(1))
        c1 = ((bits >> np.uint64(1)) & np.uint64(1)) + ((dbits >> np.uint64(1)) & np.uint64(1))
        c2 = ((bits >> np.uint64(2)) & np.uint64(1)) + ((dbits >> np.uint64(2)) & np.uint64(1))
        c3 = ((bits >> np.uint64(3)) & np.uint64(1)) + ((dbits >> np.uint64(3)) & np.uint64(1))
        for x0 in range(c0 + 1):
            for x1 in range(c1 + 1):
                for x2 in range(c2 + 1):
                    x3 = k - x0 - x1 - x2
                    if x3 < 0 or x3 > c3:
                        continue
                    sa = np.uint64(0)
                    sd = np.uint64(0)
                    for sb, x in ((0, x0), (1, x1), (2, x2), (3, x3)):
                        if x >= 1:
                            sa |= np.uint64(1) << np.uint64(sb)
                        if x == 2:
                            sd |= np.uint64(1) << np.uint64(sb)
                    # insertion into order (at most 19 multisets of one rank)
                    sa <<= np.uint64(base)
                    sd <<= np.uint64(base)
                    i = n_out
                    while i > first and pair_less(sa, sd, out[i - 1, 0], out[i - 1, 1]):
                        out[i, 0] = out[i - 1, 0]
                        out[i, 1] = out[i - 1, 1]
                        i -= 1
                    out[i, 0] = sa
                    out[i, 1] = sd
                    n_out += 1
        return n_out
    if k == 1:
        for sb in range(4):
            if (bits >> np.uint64(sb)) & np.uint64(1):
                out[n_out, 0] = np.uint64(1) << np.uint64(base + sb)
                out[n_out, 1] = 0
                n_out += 1
        return n_out
    if k == c - 1:  # leave one card out (3 of 4, 2 of 3), the highest suit first
        for sb in range(3, -1, -1):
            if (bits >> np.uint64(sb)) & np.uint64(1):
                out[n_out, 0] = (bits & ~(np.uint64(1) << np.uint64(sb))) << np.uint64(base)
                out[n_out, 1] = 0
                n_out += 1
        return n_out
    for sb in range(1, 4):  # 2 of 4
        for sa in range(sb):
            out[n_out, 0] = ((np.uint64(1) << np.uint64(sa)) | (np.uint64(1) << np.uint64(sb))) << np.uint64(base)
            out[n_out, 1] = 0
            n_out += 1
    return n_out


@jit_inline
def take(hand, dup, play, pdup):
    """The multiset ``(hand, dup)`` less ``(play, pdup)`` (every card of the play held): ``(cards, dups)``."""
    return (hand & ~play) | (dup & ~pdup), dup & ~play


@jit_inline
def add_card(hand, dup, c):
    """The multiset ``(hand, dup)`` with one more card of code ``c``."""
    bit = np.uint64(1) << np.uint64(c)
    if hand & bit:
        return hand, dup | bit
    return hand | bit, dup


@jit
def new_moves():
    """A move list for :func:`generate_moves` and the game kernels."""
    return np.zeros((MAX_MOVES, 2), dtype=np.uint64)


@jit
def make_scratch():
    """Scratch arrays for :func:`moves_into` (allocate once per chunk, not per call)."""
    return (
        np.zeros((14, 16, 2), dtype=np.uint64),
        np.zeros(14, dtype=np.int64),
        np.zeros((24, 2), dtype=np.uint64),
        np.zeros((16, 2), dtype=np.uint64),
        np.zeros(14, dtype=np.int64),
    )


@jit_inline
def _sequence_ok(low, high, width, min_len, zv):
    """Whether positions low..high make a sequence of that width the generator emits (ZS-5): long enough; an
    ace cannot stand at both ends, and 2..A(high) is the same set of ranks as A(low)..K; variant 11 drops
    pair and triple straights through the two (position 1)."""
    if high - low + 1 < min_len or ((low == 0 or low == 1) and high == 13):
        return False
    return not (width >= 2 and zv[V_NO_TWOS_SEQ] == 1 and low <= 1 <= high)


@jit
def generate_moves(hand, dup, cur_kind, cur_len, cur_key, out, zv, rev):
    """Every legal play from the hand ``(hand, dup)`` (on lead when ``cur_kind == K_NONE``) into ``out``
    (rows ``(cards, dups)``); returns the count.

    Each play is one card multiset; a set of five or more cards in one suit and in sequence is a straight
    flush only (the strongest reading). ``out`` should hold ``MAX_MOVES`` rows (:func:`new_moves`).
    """
    return moves_into(hand, dup, cur_kind, cur_len, cur_key, out, make_scratch(), zv, rev)


@jit
def moves_into(hand, dup, cur_kind, cur_len, cur_key, out, scratch, zv, rev):
    """:func:`generate_moves` with caller-owned scratch arrays (the game kernels' form).

    Only the kinds that can beat the current play are generated: the same kind, plus bombs (ZS-6, found
    at once from a bit-parallel four-of-a-kind test) and straight flushes (from each suit's runs).

    The order of the list is part of the reproducibility contract (the random player draws an index into it;
    ``tests/reference/zheng_shangyou.option_order`` states it independently). Classes in this order:

    0. singles, by card code;
    1. pairs, 2. three of a kind, by play (:func:`pair_less`; the rank first);
    3. full houses, by the triple's rank, the pair's rank, then the triple's and the pair's cards;
    4. bombs, by rank; then (current_wiki) by size and cards, or (four plus one) by the four's cards with the
       bare four before the kickers by code, and five of a kind after them;
    5. straight flushes when following anything but a straight (then: by suit, low position, high position);
    6. straights (and straight flushes on lead or over a straight), 7. pair straights, 8. triple straights:
       by low position, high position, then the cards at each position from the low end (an odometer whose
       last digit turns fastest), each rank's cards in play order.
    """
    choices, n_choice, tmp, pairs, idx = scratch
    n = 0
    lead = cur_kind == K_NONE
    # per-rank counts in parallel: nibble r of `cnt` is the number of cards of rank r (0..4; 0..8 with two
    # decks); the masks hold bit 4r for the ranks held at least twice / three / four times
    cnt = rank_counts(hand) + rank_counts(dup)
    ge2 = ranks_at_least(cnt, 2)
    ge3 = ranks_at_least(cnt, 3)
    ge4 = ranks_at_least(cnt, 4)
    # singles: on lead every card; over a single (normal order) every card with a higher code (ZS-2)
    if cur_kind == K_NONE or cur_kind == K_SINGLE:
        cand = hand
        if cur_kind == K_SINGLE and rev == 0:
            cand = _singles_above(hand, cur_key, zv)
        while cand:
            c = _low_index(cand)
            cand &= cand - np.uint64(1)
            n = _emit_known(
                out,
                n,
                np.uint64(1) << np.uint64(c),
                np.uint64(0),
                K_SINGLE,
                1,
                _single_key(c, zv),
                cur_kind,
                cur_len,
                cur_key,
                zv,
                rev,
            )
    # pairs (key 4 * rank + the top suit) and three of a kind (key = rank)
    current_rules = zv[V_CURRENT] == 1
    for k in range(2, 4):
        if not (lead or (k == 2 and cur_kind == K_PAIR) or (k == 3 and cur_kind == K_TRIPLE)):
            continue
        if current_rules and k >= zv[V_MIN_BOMB]:
            continue  # current_wiki with triple_is_bomb: a three of a kind is a bomb
        ranks = ge2 if k == 2 else ge3
        kind = K_PAIR if k == 2 else K_TRIPLE
        while ranks:
            r = _low_index(ranks) // 4
            ranks &= ranks - np.uint64(1)
            m = _subsets_of_size(_rank_bits(hand, r), _rank_bits(dup, r), k, 4 * r, tmp, np.int64(0))
            for i in range(m):
                key = _pair_key(r, tmp[i, 0] >> np.uint64(4 * r), zv) if k == 2 else r
                n = _emit_known(out, n, tmp[i, 0], tmp[i, 1], kind, k, key, cur_kind, cur_len, cur_key, zv, rev)
    # full houses (key = the triple's rank)
    if lead or cur_kind == K_FULL_HOUSE:
        triples = ge3
        while triples:
            r = _low_index(triples) // 4
            triples &= triples - np.uint64(1)
            m3 = _subsets_of_size(_rank_bits(hand, r), _rank_bits(dup, r), np.int64(3), 4 * r, tmp, np.int64(0))
            twos = ge2 & ~(np.uint64(1) << np.uint64(4 * r))
            while twos:
                q = _low_index(twos) // 4
                twos &= twos - np.uint64(1)
                m2 = _subsets_of_size(_rank_bits(hand, q), _rank_bits(dup, q), np.int64(2), 4 * q, pairs, np.int64(0))
                for i in range(m3):
                    for j in range(m2):
                        n = _emit_known(
                            out,
                            n,
                            tmp[i, 0] | pairs[j, 0],
                            tmp[i, 1] | pairs[j, 1],
                            K_FULL_HOUSE,
                            5,
                            r,
                            cur_kind,
                            cur_len,
                            cur_key,
                            zv,
                            rev,
                        )
    # bombs (they beat everything but higher bombs and straight flushes): the ranks held four times or more
    # (two decks: each four-card multiset of the rank, and five of a kind [OURS])
    if current_rules:
        # current_wiki: n of a kind alone (n >= 4, or 3 with triple_is_bomb), every multiset of each size
        ranks = ge3 if zv[V_MIN_BOMB] <= 3 else ge4
        while ranks:
            r = _low_index(ranks) // 4
            ranks &= ranks - np.uint64(1)
            held = _popcount(_rank_bits(hand, r)) + _popcount(_rank_bits(dup, r))
            for k in range(zv[V_MIN_BOMB], held + 1):
                m = _subsets_of_size(_rank_bits(hand, r), _rank_bits(dup, r), k, 4 * r, tmp, np.int64(0))
                for i in range(m):
                    n = _emit_known(
                        out, n, tmp[i, 0], tmp[i, 1], K_BOMB, k, _bomb_key(k, r), cur_kind, cur_len, cur_key, zv, rev
                    )
    fours = ge4 if not current_rules else np.uint64(0)
    while fours:
        r = _low_index(fours) // 4
        fours &= fours - np.uint64(1)
        rank_mask = np.uint64(15) << np.uint64(4 * r)
        m4 = _subsets_of_size(_rank_bits(hand, r), _rank_bits(dup, r), np.int64(4), 4 * r, tmp, np.int64(0))
        kickers = hand & ~rank_mask
        if zv[V_KICKER_JOKER] != 1:
            kickers &= SUITED_CARDS  # the kicker: any other card (default: not a joker)
        for i in range(m4):
            if zv[V_BARE_FOUR] > 0:
                n = _emit_known(out, n, tmp[i, 0], tmp[i, 1], K_BOMB, 4, r, cur_kind, cur_len, cur_key, zv, rev)
            kick = kickers
            while kick:
                c = _low_index(kick)
                kick &= kick - np.uint64(1)
                n = _emit_known(
                    out,
                    n,
                    tmp[i, 0] | (np.uint64(1) << np.uint64(c)),
                    tmp[i, 1],
                    K_BOMB,
                    5,
                    r,
                    cur_kind,
                    cur_len,
                    cur_key,
                    zv,
                    rev,
                )
        if dup:
            m5 = _subsets_of_size(_rank_bits(hand, r), _rank_bits(dup, r), np.int64(5), 4 * r, tmp, np.int64(0))
            for i in range(m5):
                n = _emit_known(out, n, tmp[i, 0], tmp[i, 1], K_BOMB, 5, r, cur_kind, cur_len, cur_key, zv, rev)
    # sequences: straights and straight flushes (1 card per rank), pair and triple straights
    if not (lead or cur_kind == K_STRAIGHT) and not current_rules:
        # only straight flushes can beat the current play: each suit's runs of 5 (3) or more positions, all
        # four suits tested at once first (nibble p of the positions holds the suits held at position p)
        min_sf = zv[V_MIN_STRAIGHT]
        sf_runs = _runs_of(_card_positions(hand), min_sf)
        for s in range(4):
            if (sf_runs >> np.uint64(s)) & RANK_LOW_BITS == np.uint64(0):
                continue  # no run long enough in this suit
            for low in range(15 - min_sf):
                play = np.uint64(0)
                for high in range(low, 14):
                    c = rank_of_position(high) * 4 + s
                    if not (hand >> np.uint64(c)) & np.uint64(1):
                        break
                    play |= np.uint64(1) << np.uint64(c)
                    if _sequence_ok(low, high, 1, min_sf, zv):
                        n = _emit_known(
                            out,
                            n,
                            play,
                            np.uint64(0),
                            K_STRAIGHT_FLUSH,
                            high - low + 1,
                            4 * low,
                            cur_kind,
                            cur_len,
                            cur_key,
                            zv,
                            rev,
                        )
    if not (lead or cur_kind == K_STRAIGHT or cur_kind == K_PAIR_STRAIGHT or cur_kind == K_TRIPLE_STRAIGHT):
        return n
    # for each width, the positions held that often (bit 4p, from the counts in parallel): a run must exist
    for width, min_len, kind in (
        (1, zv[V_MIN_STRAIGHT], K_STRAIGHT),
        (2, 2, K_PAIR_STRAIGHT),
        (3, 2, K_TRIPLE_STRAIGHT),
    ):
        if not (lead or cur_kind == kind):
            continue
        valid = _positions(ranks_at_least(cnt, width))
        runs = _runs_of(valid, min_len)  # bit 4p: positions p .. p + min_len - 1 all held
        if runs == np.uint64(0):
            continue  # no run of min_len positions
        covered = runs  # the positions inside such a run: only those get choices
        for i in range(1, min_len):
            covered |= runs << np.uint64(4 * i)
        for p in range(14):
            n_choice[p] = 0
            if (covered >> np.uint64(4 * p)) & np.uint64(1):
                r = rank_of_position(p)
                # a straight takes one card of a rank: its distinct suits (no dups)
                n_choice[p] = _subsets_of_size(
                    _rank_bits(hand, r),
                    _rank_bits(dup, r) if width > 1 else np.uint64(0),
                    width,
                    4 * r,
                    choices[p],
                    np.int64(0),
                )
        while runs:
            low = _low_index(runs) // 4
            runs &= runs - np.uint64(1)
            for high in range(low + min_len - 1, 14):
                if n_choice[high] == 0:
                    break
                if not _sequence_ok(low, high, width, min_len, zv):
                    continue
                n = _product(choices, n_choice, low, high, width, out, n, cur_kind, cur_len, cur_key, idx, zv, rev)
    return n


@jit
def _product(choices, n_choice, low, high, width, out, n, cur_kind, cur_len, cur_key, idx, zv, rev):
    """Emit every combination of one choice per position in [low, high] (an odometer).

    The plays are sequences of ``width`` cards per position, so their kind and key are known without
    :func:`classify` (ZS-5): one suit makes a straight flush, the key is 4 * low (+ the top suit under the
    tie-break variants). The caller checks the positions (:func:`_sequence_ok`).
    """
    L = high - low + 1
    top_base = np.uint64(4 * rank_of_position(high))
    for i in range(L):
        idx[i] = 0
    while True:
        play = np.uint64(0)
        pdup = np.uint64(0)
        for i in range(L):
            play |= choices[low + i, idx[i], 0]
            pdup |= choices[low + i, idx[i], 1]
        key = 4 * low
        if width == 1:
            fold = play | (play >> np.uint64(32))  # the suits present: fold the 13 rank nibbles
            fold |= fold >> np.uint64(16)
            fold |= fold >> np.uint64(8)
            fold |= fold >> np.uint64(4)
            if _popcount(fold & np.uint64(15)) == 1 and zv[V_CURRENT] == 0:
                kind = K_STRAIGHT_FLUSH
            else:
                kind = K_STRAIGHT
                if zv[V_STRAIGHT_SUIT] == 1:
                    key += _top_suit((play >> top_base) & np.uint64(15))
        elif width == 2:
            kind = K_PAIR_STRAIGHT
            if zv[V_PAIR_STRAIGHT_TIE] == 1:
                key += _top_suit((play >> top_base) & np.uint64(15))
        else:
            kind = K_TRIPLE_STRAIGHT
        n = _emit_known(out, n, play, pdup, kind, width * L, key, cur_kind, cur_len, cur_key, zv, rev)
        i = L - 1
        while i >= 0:
            idx[i] += 1
            if idx[i] < n_choice[low + i]:
                break
            idx[i] = 0
            i -= 1
        if i < 0:
            return n
