"""Zheng Shangyou kernels: combination classifier (ZS-5), beating rule (ZS-4, ZS-6), move generator.

Card encoding (one 54-card deck): ``card = rank * 4 + suit`` for the 52 suited cards, with ``rank``
ascending in the game's order ``0 = '3' .. 10 = 'K', 11 = 'A', 12 = '2'`` (twos high, ZS-2) and ``suit``
ascending ``0 = D < 1 = C < 2 = H < 3 = S`` (the Big Two order); the black joker is 52 and the red joker 53.
So a single card's comparison key is its code (rank first, then suit; jokers above). A hand or a play is a
``uint64`` bit set of codes: the four cards of a rank are the 4 bits at ``4 * rank``.

Two decks (variant ``deck=5to8p_108``) hold each card up to twice, so a hand or a play is a multiset written as
two words ``(cards, dups)``: ``cards`` the codes held at least once, ``dups`` those held twice (``dups`` is a
subset of ``cards``; with one deck it is always 0). Move lists are ``(n, 2)`` arrays of such pairs, in the
generator's documented order (:func:`moves_into`), which is the order the random player draws from; the
players' ties go to the lowest play by ``cards``, then ``dups`` (:func:`pair_less`).

Sequences (straights, pair and triple straights, straight flushes) use *positions* in the order
A(low) 2 3 ... K A(high): position 0 is a low ace, 1 a two, 2 .. 12 the ranks 3 .. K and 13 a high ace
(ZS-5; no wrap-around, so J-Q-K-A-2 is not a sequence).

A play is ``(kind, length, key)``: the kinds are the ``K_*`` constants; ``key`` orders plays of one kind
and length (higher beats), see :func:`classify`.
"""

from __future__ import annotations

import numpy as np

from . import rng
from ._jit import borrowed, jit, jit_inline, pjit, prange
from .bits import RANK_LOW_BITS, nth_bit, rank_counts, ranks_with_count
from .bits import high_index as _high_index
from .bits import low_index as _low_index
from .bits import popcount as _popcount
from .bits import rank_bits as _rank_bits

K_NONE = 0  # no play yet (on lead) / an invalid card set
K_SINGLE = 1
K_PAIR = 2
K_PAIR_STRAIGHT = 3
K_TRIPLE = 4
K_TRIPLE_STRAIGHT = 5
K_FULL_HOUSE = 6
K_STRAIGHT = 7
K_BOMB = 8
K_STRAIGHT_FLUSH = 9
KIND_NAMES = (
    "none",
    "single",
    "pair",
    "pair straight",
    "three of a kind",
    "triple straight",
    "full house",
    "straight",
    "bomb",
    "straight flush",
)
BLACK_JOKER = 52
RED_JOKER = 53
MAX_MOVES = 1 << 16  # two decks: a 22-card hand of five ranks x four suits (+ 2) has 26,529 plays
SUITED_CARDS = np.uint64((1 << 52) - 1)

# variant slots of the ``zv`` int64 array (rules.md 4(c); built by analysis.games.zheng_shangyou)
V_STRAIGHT_SUIT = 0  # straight_suit_tiebreak: 0 false, 1 true
V_BARE_FOUR = 1  # bare_four_is_bomb: 0 false, 1 beats_all, 2 below_straight_flush
V_SF_VS_SF = 2  # sf_vs_sf: 0 same_length, 1 longer_beats_shorter
V_NO_TWOS_SEQ = 3  # sequence_rules: 0 as_straights, 1 no_twos_in_sequences (pair/triple straights)
V_PAIR_STRAIGHT_TIE = 4  # pair_straight_tiebreak: 0 none, 1 top_pair_suit
V_KICKER_JOKER = 5  # bomb_kicker_may_be_joker: 0 false, 1 true
V_AUTO_RESTART = 6  # auto_restart_after_unbeatable: 0 false, 1 true
V_LATER_LEADER = 7  # later_game_leader: 0 previous_winner, 1 holder_3D_every_game, 2 dealer, 3 dealer_left
V_SCORE_TIMING = 8  # score_timing: 0 at_first_out, 1 at_end
V_THREE_MULT = 9  # three_player_multiplier: 0 default, 1 literal_17
V_REVOLUTION = 10  # revolution: 0 false, 1 true
V_REV_STATE = 11  # (game state, not a variant) 1 while a revolution is in force
V_LOSER_EXCHANGE = 12  # loser_exchange: 0 none, 1 offer_two, 2 winner_gives_one
V_MIN_STRAIGHT = 13  # fewest cards in a straight or straight flush: 5 (seed), 3 (ruleset legacy_wiki)
V_CURRENT = 14  # ruleset current_wiki: 1 = bombs are n of a kind alone (size, then rank), no four plus
# one and no straight-flush class (only the bomb beats another type)
V_SUIT_ORDER = 15  # suit_order: 1 suits break ties of singles and pairs (seed), 0 they do not
V_MIN_BOMB = 16  # current_wiki: the fewest cards of one rank that are a bomb (4; 3 with triple_is_bomb)
N_VARIANTS = 17


@jit_inline
def rank_of_position(p):
    """The rank (0 = '3' .. 12 = '2') at sequence position p (0 = low ace .. 13 = high ace)."""
    if p == 0 or p == 13:
        return 11
    if p == 1:
        return 12
    return p - 2


@jit_inline
def _top_suit(bits):
    s = 3
    while s >= 0 and not (bits >> np.uint64(s)) & np.uint64(1):
        s -= 1
    return s


@jit
def classify(play, dup, zv):
    """:func:`classify_normal`, with the keys reversed while a revolution is in force (variant 7): the 13
    ranks swap ends (jokers stay highest, suits keep their order) and a sequence is higher the lower its top."""
    kind, length, key = classify_normal(play, dup, zv)
    return kind, length, _revolved_key(kind, length, key, zv)


@jit_inline
def _revolved_key(kind, length, key, zv):
    """A play's key in the order in force: the normal key, or its reversal under a revolution (variant 7)."""
    if zv[V_REV_STATE] == 0 or kind == K_NONE:
        return key
    if kind == K_SINGLE or kind == K_PAIR:
        if key >= 52:
            return key
        return (12 - key // 4) * 4 + key % 4
    if kind == K_TRIPLE or kind == K_FULL_HOUSE or kind == K_BOMB:
        return (key // 16) * 16 + 12 - key % 16  # a bomb's size (current_wiki) stays first
    width = 2 if kind == K_PAIR_STRAIGHT else (3 if kind == K_TRIPLE_STRAIGHT else 1)
    top = key // 4 + length // width - 1
    return 4 * (13 - top) + key % 4


@jit
def classify_normal(play, dup, zv):
    """``(kind, length, key)`` of a card multiset (ZS-5; ``dup`` = the cards in it twice, two decks only);
    kind ``K_NONE`` if it is no combination.

    Keys: single = the card code; pair = 4 * rank + the higher suit; three of a kind, full house, bomb = the
    rank of the triple or the four; sequences = 4 * the lowest position (+ a suit under the tie-break
    variants), so a higher lowest card beats. Two decks [OURS]: a pair, triple or four may hold identical
    cards; five cards of one rank are a bomb of that rank (a four of a kind + one other card); six or more
    are no play; equal plays do not beat (rules.md 4(c)1).
    """
    n = _popcount(play) + _popcount(dup)
    if n == 0:
        return K_NONE, 0, 0
    if n == 1:  # a single card: its code is its key (jokers 52, 53 above the rest)
        return K_SINGLE, 1, _single_key(_low_index(play), zv)
    jokers = (play >> np.uint64(52)) & np.uint64(3)
    if jokers:
        # jokers only as singles (ZS-5); variant 13: a joker may be a bomb's fifth card
        if zv[V_KICKER_JOKER] == 1 and n == 5 and _popcount(jokers) + _popcount(dup >> np.uint64(52)) == 1:
            rest = play & SUITED_CARDS
            for r in range(13):
                if _popcount(_rank_bits(rest, r)) + _popcount(_rank_bits(dup, r)) == 4:
                    return K_BOMB, 5, r
        return K_NONE, n, 0
    # per rank counts in parallel (nibble r = the cards of rank r, 0..8): the ranks present, the lowest, its
    # count m, whether every present rank holds m (a sequence's shape), and the ranks holding exactly 4 and 3
    cnt = rank_counts(play) + rank_counts(dup)
    nz = ranks_at_least(cnt, 1)
    n_ranks = _popcount(nz)
    lo_rank = _low_index(nz) // 4
    m = (cnt >> np.uint64(4 * lo_rank)) & np.uint64(15)
    uniform = cnt == m * nz
    b0 = cnt & RANK_LOW_BITS
    b1 = (cnt >> np.uint64(1)) & RANK_LOW_BITS
    b2 = (cnt >> np.uint64(2)) & RANK_LOW_BITS
    b3 = (cnt >> np.uint64(3)) & RANK_LOW_BITS
    four = b2 & ~(b0 | b1 | b3)
    three = b0 & b1 & ~(b2 | b3)
    r4 = _low_index(four) // 4 if four else -1
    r3 = _low_index(three) // 4 if three else -1
    if n_ranks == 1:
        if zv[V_CURRENT] == 1 and n >= zv[V_MIN_BOMB]:
            return K_BOMB, n, _bomb_key(n, lo_rank)  # current_wiki: n of a kind alone is a bomb
        if n == 2:
            return K_PAIR, 2, _pair_key(lo_rank, _rank_bits(play, lo_rank), zv)
        if n == 3:
            return K_TRIPLE, 3, lo_rank
        if n == 4 and zv[V_BARE_FOUR] > 0:
            return K_BOMB, 4, lo_rank  # variant 6: a bare four of a kind is a bomb
        if n == 5:
            return K_BOMB, 5, lo_rank  # two decks: five of a kind = a four of a kind + one card [OURS]
        return K_NONE, n, 0  # a bare four of a kind is no play by default (variant 6)
    if n == 5 and n_ranks == 2:
        if r4 >= 0:
            if zv[V_CURRENT] == 1:
                return K_NONE, n, 0  # current_wiki: a four of a kind is a bomb alone, not with a fifth card
            return K_BOMB, 5, r4  # four of a kind + any one other card (ZS-5)
        if r3 >= 0:
            return K_FULL_HOUSE, 5, r3
        return K_NONE, n, 0
    # sequences: every rank present the same number of times (1, 2 or 3), consecutive positions
    if not uniform or m > 3 or (m == 1 and n_ranks < zv[V_MIN_STRAIGHT]):
        return K_NONE, n, 0
    if m >= 2 and zv[V_NO_TWOS_SEQ] == 1 and (nz >> np.uint64(48)) & np.uint64(1):
        return K_NONE, n, 0  # variant 11: no twos in pair and triple straights
    low = _sequence_low(nz, n_ranks)
    if low < 0:
        return K_NONE, n, 0
    top_rank = rank_of_position(low + n_ranks - 1)
    if m == 2:
        tie = _top_suit(_rank_bits(play, top_rank)) if zv[V_PAIR_STRAIGHT_TIE] == 1 else 0
        return K_PAIR_STRAIGHT, n, 4 * low + tie
    if m == 3:
        return K_TRIPLE_STRAIGHT, n, 4 * low
    fold = play | (play >> np.uint64(32))  # the suits present: fold the 13 rank nibbles
    fold |= fold >> np.uint64(16)
    fold |= fold >> np.uint64(8)
    fold |= fold >> np.uint64(4)
    if _popcount(fold & np.uint64(15)) == 1 and zv[V_CURRENT] == 0:
        return K_STRAIGHT_FLUSH, n, 4 * low
    tie = _top_suit(_rank_bits(play, top_rank)) if zv[V_STRAIGHT_SUIT] == 1 else 0
    return K_STRAIGHT, n, 4 * low + tie


@jit_inline
def _single_key(c, zv):
    """A single card's key: its code (rank, then suit; jokers 52, 53), or 4 * its rank without a suit order."""
    if zv[V_SUIT_ORDER] == 1 or c >= 52:
        return c
    return c - c % 4


@jit_inline
def _pair_key(r, suits, zv):
    """A pair's key: 4 * its rank + the higher suit in it (no suit without a suit order)."""
    return 4 * r + (_top_suit(suits) if zv[V_SUIT_ORDER] == 1 else 0)


@jit_inline
def _bomb_key(n, r):
    """current_wiki: a bomb of n cards of rank r; more cards beat fewer, then the higher rank."""
    return 16 * (n - 3) + r


@jit_inline
def _sequence_low(nz, n_ranks):
    """The lowest position of a run of ``n_ranks`` consecutive positions covering the ranks present (bit 4r of
    ``nz`` for rank r), or -1."""
    runs = _runs_of(_positions(nz), n_ranks)  # bit 4p: positions p .. p + n_ranks - 1 all held
    if runs == np.uint64(0):
        return -1
    return _low_index(runs) // 4


@jit
def beats(cur_kind, cur_len, cur_key, kind, length, key, zv):
    """Whether the play (kind, length, key) may be played on the current one (ZS-4, ZS-6).

    ``cur_kind == K_NONE`` means a lead: any combination. A straight flush beats everything but a higher
    straight flush of the same length; a bomb beats everything but a higher bomb or a straight flush;
    otherwise the same kind and number of cards with a higher key. Variants: a bare four as a bomb that beats
    everything (6), straight flushes where the longer beats the shorter (10).
    """
    if kind == K_NONE:
        return False
    if cur_kind == K_NONE:
        return True
    bare_beats_all = zv[V_BARE_FOUR] == 1
    if kind == K_STRAIGHT_FLUSH:
        if cur_kind == K_STRAIGHT_FLUSH:
            if zv[V_SF_VS_SF] == 1 and length != cur_len:
                return length > cur_len
            return length == cur_len and key > cur_key
        if cur_kind == K_BOMB and cur_len == 4 and bare_beats_all:
            return False
        return True
    if kind == K_BOMB:
        if cur_kind == K_STRAIGHT_FLUSH:
            return length == 4 and bare_beats_all
        if cur_kind == K_BOMB:
            return key > cur_key
        return True
    if cur_kind == K_BOMB or cur_kind == K_STRAIGHT_FLUSH:
        return False
    return kind == cur_kind and length == cur_len and key > cur_key


@jit_inline
def _emit_known(out, n, play, dup, kind, length, key, cur_kind, cur_len, cur_key, zv):
    """Append the play ``(play, dup)`` to ``out[n]`` if it beats the current play; its kind, length and
    (normal-order) key are known to the generator, so no :func:`classify` is needed. Returns the new count."""
    if beats(cur_kind, cur_len, cur_key, kind, length, _revolved_key(kind, length, key, zv), zv) and n < out.shape[0]:
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


@jit_inline
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
def generate_moves(hand, dup, cur_kind, cur_len, cur_key, out, zv):
    """Every legal play from the hand ``(hand, dup)`` (on lead when ``cur_kind == K_NONE``) into ``out``
    (rows ``(cards, dups)``); returns the count.

    Each play is one card multiset; a set of five or more cards in one suit and in sequence is a straight
    flush only (the strongest reading). ``out`` should hold ``MAX_MOVES`` rows (:func:`new_moves`).
    """
    return moves_into(hand, dup, cur_kind, cur_len, cur_key, out, make_scratch(), zv)


@jit
def moves_into(hand, dup, cur_kind, cur_len, cur_key, out, scratch, zv):
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
        if cur_kind == K_SINGLE and zv[V_REV_STATE] == 0:
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
            m = _subsets_of_size(_rank_bits(hand, r), _rank_bits(dup, r), k, 4 * r, tmp, 0)
            for i in range(m):
                key = _pair_key(r, tmp[i, 0] >> np.uint64(4 * r), zv) if k == 2 else r
                n = _emit_known(out, n, tmp[i, 0], tmp[i, 1], kind, k, key, cur_kind, cur_len, cur_key, zv)
    # full houses (key = the triple's rank)
    if lead or cur_kind == K_FULL_HOUSE:
        triples = ge3
        while triples:
            r = _low_index(triples) // 4
            triples &= triples - np.uint64(1)
            m3 = _subsets_of_size(_rank_bits(hand, r), _rank_bits(dup, r), 3, 4 * r, tmp, 0)
            twos = ge2 & ~(np.uint64(1) << np.uint64(4 * r))
            while twos:
                q = _low_index(twos) // 4
                twos &= twos - np.uint64(1)
                m2 = _subsets_of_size(_rank_bits(hand, q), _rank_bits(dup, q), 2, 4 * q, pairs, 0)
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
                m = _subsets_of_size(_rank_bits(hand, r), _rank_bits(dup, r), k, 4 * r, tmp, 0)
                for i in range(m):
                    n = _emit_known(
                        out, n, tmp[i, 0], tmp[i, 1], K_BOMB, k, _bomb_key(k, r), cur_kind, cur_len, cur_key, zv
                    )
    fours = ge4 if not current_rules else np.uint64(0)
    while fours:
        r = _low_index(fours) // 4
        fours &= fours - np.uint64(1)
        rank_mask = np.uint64(15) << np.uint64(4 * r)
        m4 = _subsets_of_size(_rank_bits(hand, r), _rank_bits(dup, r), 4, 4 * r, tmp, 0)
        kickers = hand & ~rank_mask
        if zv[V_KICKER_JOKER] != 1:
            kickers &= SUITED_CARDS  # the kicker: any other card (default: not a joker)
        for i in range(m4):
            if zv[V_BARE_FOUR] > 0:
                n = _emit_known(out, n, tmp[i, 0], tmp[i, 1], K_BOMB, 4, r, cur_kind, cur_len, cur_key, zv)
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
                )
        if dup:
            m5 = _subsets_of_size(_rank_bits(hand, r), _rank_bits(dup, r), 5, 4 * r, tmp, 0)
            for i in range(m5):
                n = _emit_known(out, n, tmp[i, 0], tmp[i, 1], K_BOMB, 5, r, cur_kind, cur_len, cur_key, zv)
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
                    _rank_bits(hand, r), _rank_bits(dup, r) if width > 1 else np.uint64(0), width, 4 * r, choices[p], 0
                )
        while runs:
            low = _low_index(runs) // 4
            runs &= runs - np.uint64(1)
            for high in range(low + min_len - 1, 14):
                if n_choice[high] == 0:
                    break
                if not _sequence_ok(low, high, width, min_len, zv):
                    continue
                n = _product(choices, n_choice, low, high, width, out, n, cur_kind, cur_len, cur_key, idx, zv)
    return n


@jit_inline
def _product(choices, n_choice, low, high, width, out, n, cur_kind, cur_len, cur_key, idx, zv):
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
        n = _emit_known(out, n, play, pdup, kind, width * L, key, cur_kind, cur_len, cur_key, zv)
        i = L - 1
        while i >= 0:
            idx[i] += 1
            if idx[i] < n_choice[low + i]:
                break
            idx[i] = 0
            i -= 1
        if i < 0:
            return n


# ---- the random leader's play without the list: count each class, draw, decode ------------------------------


@jit_inline
def _n_subsets(c, w):
    """How many w-card subsets ``c`` cards have (``c`` <= 4, ``w`` <= 4)."""
    if w > c:
        return 0
    if w == 1 or w == c - 1:
        return c
    if w == c:
        return 1
    return 6  # 2 of 4


@jit_inline
def _nth_subset(bits, w, j):
    """The j-th w-card subset of one rank's suits ``bits`` (one deck) in :func:`_subsets_of_size`'s order."""
    c = _popcount(bits)
    if w == c:
        return bits
    if w == 1:
        return np.uint64(1) << np.uint64(nth_bit(bits, j))
    if w == c - 1:  # the highest held suit is left out first
        return bits & ~(np.uint64(1) << np.uint64(nth_bit(bits, c - 1 - j)))
    b = 1  # 2 of 4, colex: {a, b} with C(b, 2) <= j < C(b + 1, 2)
    while (b + 1) * b // 2 <= j:
        b += 1
    return (np.uint64(1) << np.uint64(j - b * (b - 1) // 2)) | (np.uint64(1) << np.uint64(b))


@jit_inline
def _sequences(hand, cnt, width, min_len, zv, k):
    """Sequences of ``width`` cards a position from a one-deck hand (``cnt`` its :func:`rank_counts`), in
    the generator's order: with ``k < 0`` their count; else the k-th as ``(cards, -1)``, or
    ``(0, k - count)`` when k is past them."""
    runs = _runs_of(_positions(ranks_at_least(cnt, width)), min_len)
    total = 0
    while runs:
        low = _low_index(runs) // 4
        runs &= runs - np.uint64(1)
        prod = 1
        for high in range(low, 14):
            c = _n_subsets(_popcount(_rank_bits(hand, rank_of_position(high))), width)
            if c == 0:
                break
            prod *= c
            if not _sequence_ok(low, high, width, min_len, zv):
                continue
            if 0 <= k < total + prod:
                return _window_play(hand, low, high, width, k - total, np.uint64(15)), -1
            total += prod
    return np.uint64(0), (total if k < 0 else k - total)


@jit_inline
def _window_play(hand, low, high, width, j, top_suits):
    """The j-th sequence of ``width`` cards a position over positions low..high in the generator's order
    (an odometer, the last position turning fastest; the top position's cards limited to ``top_suits``)."""
    play = np.uint64(0)
    for p in range(high, low - 1, -1):
        r = rank_of_position(p)
        bits = _rank_bits(hand, r)
        if p == high:
            bits &= top_suits
        m = _n_subsets(_popcount(bits), width)
        play |= _nth_subset(bits, width, j % m) << np.uint64(4 * r)
        j //= m
    return play


@jit_inline
def follow_straight(hand, length, cur_key, zv, k):
    """Following a straight of ``length`` cards and key ``cur_key`` in the normal order with a one-deck hand
    that makes no bomb or straight flush: with ``k < 0`` how many straights beat it (ZS-6: the same length,
    a higher key: low position, then the top card's suit under straight_suit_tiebreak), else the k-th in
    :func:`moves_into`'s order (no list)."""
    cur_low = cur_key // 4
    runs = _runs_of(_positions(ranks_at_least(rank_counts(hand), 1)), length)
    runs &= ~((np.uint64(1) << np.uint64(4 * cur_low)) - np.uint64(1))
    total = 0
    while runs:
        low = _low_index(runs) // 4
        runs &= runs - np.uint64(1)
        high = low + length - 1
        if (low == 0 or low == 1) and high == 13:
            continue
        top_suits = np.uint64(15)
        if low == cur_low:
            if zv[V_STRAIGHT_SUIT] == 0:
                continue  # the same low position does not beat
            top_suits = np.uint64(15) & ~((np.uint64(2) << np.uint64(cur_key % 4)) - np.uint64(1))
        prod = 1
        for p in range(low, high + 1):
            bits = _rank_bits(hand, rank_of_position(p))
            prod *= _popcount(bits & top_suits if p == high else bits)
        if 0 <= k - total < prod:
            return _window_play(hand, low, high, 1, k - total, top_suits)
        total += prod
    return np.uint64(total)


@jit_inline
def lead_play(hand, k, zv):
    """With ``k < 0``: how many plays a one-deck hand (dups 0) can lead, outside current_wiki; else the
    k-th of them in :func:`moves_into`'s order, found by counting each class instead of listing the plays
    (the random leader's draw)."""
    cnt = rank_counts(hand)
    ge2 = ranks_at_least(cnt, 2)
    ge3 = ranks_at_least(cnt, 3)
    ge4 = ranks_at_least(cnt, 4)
    total = 0
    # singles
    n1 = _popcount(hand)
    if 0 <= k < n1:
        return np.uint64(1) << np.uint64(nth_bit(hand, k))
    total += n1
    # pairs, then three of a kind: by rank, then the rank's subsets
    n_pairs = 0
    for w in range(2, 4):
        ranks = ge2 if w == 2 else ge3
        while ranks:
            r = _low_index(ranks) // 4
            ranks &= ranks - np.uint64(1)
            bits = _rank_bits(hand, r)
            m = _n_subsets(_popcount(bits), w)
            if w == 2:
                n_pairs += m
            if 0 <= k - total < m:
                return _nth_subset(bits, w, k - total) << np.uint64(4 * r)
            total += m
    # full houses: triple rank, pair rank, the triple's subset, the pair's subset
    triples = ge3
    while triples:
        r = _low_index(triples) // 4
        triples &= triples - np.uint64(1)
        tb = _rank_bits(hand, r)
        m3 = _n_subsets(_popcount(tb), 3)
        block = m3 * (n_pairs - _n_subsets(_popcount(tb), 2))
        if 0 <= k - total < block:
            j = k - total
            twos = ge2 & ~(np.uint64(1) << np.uint64(4 * r))
            while twos:
                q = _low_index(twos) // 4
                twos &= twos - np.uint64(1)
                qb = _rank_bits(hand, q)
                m2 = _n_subsets(_popcount(qb), 2)
                if j < m3 * m2:
                    return (_nth_subset(tb, 3, j // m2) << np.uint64(4 * r)) | (
                        _nth_subset(qb, 2, j % m2) << np.uint64(4 * q)
                    )
                j -= m3 * m2
        total += block
    # bombs: four of a kind, bare (variant) before each kicker by code
    kickers_all = hand if zv[V_KICKER_JOKER] == 1 else hand & SUITED_CARDS
    bare = 1 if zv[V_BARE_FOUR] > 0 else 0
    fours = ge4
    while fours:
        r = _low_index(fours) // 4
        fours &= fours - np.uint64(1)
        four = np.uint64(15) << np.uint64(4 * r)
        kick = kickers_all & ~four
        block = bare + _popcount(kick)
        if 0 <= k - total < block:
            j = k - total
            if j < bare:
                return four
            return four | (np.uint64(1) << np.uint64(nth_bit(kick, j - bare)))
        total += block
    # sequences of width 1, 2, 3 (straights and straight flushes, pair and triple straights)
    for width in range(1, 4):
        min_len = zv[V_MIN_STRAIGHT] if width == 1 else 2
        play, rest = _sequences(hand, cnt, width, min_len, zv, k - total if k >= 0 else -1)
        if rest < 0:
            return play
        if k < 0:
            total += rest
        else:
            total = k - rest
    return np.uint64(total)


@jit_inline
def follow_same_kind(hand, w, cur_key, zv, k):
    """Following a pair (``w`` = 2) or three of a kind (3) of key ``cur_key`` in the normal order with a
    hand of single cards that makes no bomb or straight flush: with ``k < 0`` how many plays beat it (ZS-4:
    the same kind, higher), else the k-th of them in :func:`moves_into`'s order (no list)."""
    cur_rank = cur_key // 4 if w == 2 else cur_key
    ranks = ranks_at_least(rank_counts(hand), w) & ~((np.uint64(1) << np.uint64(4 * cur_rank)) - np.uint64(1))
    total = 0
    while ranks:
        r = _low_index(ranks) // 4
        ranks &= ranks - np.uint64(1)
        bits = _rank_bits(hand, r)
        m = _n_subsets(_popcount(bits), w)
        if r > cur_rank:
            if 0 <= k - total < m:
                return _nth_subset(bits, w, k - total) << np.uint64(4 * r)
            total += m
        elif w == 2:  # the same rank: the pairs with a higher top suit (suit order)
            for j in range(m):
                sub = _nth_subset(bits, 2, j)
                if _pair_key(r, sub, zv) > cur_key:
                    if k == total:
                        return sub << np.uint64(4 * r)
                    total += 1
    return np.uint64(total)


@jit
def lead_plays(hand, zv, out):
    """Every play :func:`lead_play` decodes, in order, into ``out`` (tests); returns the count."""
    n = np.int64(lead_play(hand, -1, zv))
    for k in range(n):
        out[k, 0] = lead_play(hand, k, zv)
        out[k, 1] = 0
    return n


# =============================================================================================
# Whole games (ZS-1, ZS-3, ZS-4, ZS-7, ZS-8)
# =============================================================================================
# Seats are numbered clockwise; the dealer deals one card at a time starting with himself (ZS-1).
# Strategies are data: strat[seat] = (policy, bomb policy, bomb threshold, 0).


POLICY_RANDOM = 0  # uniform over the legal actions (passing included when following)
POLICY_GREEDY = 1  # go out if possible; lead the play with the lowest top card among the longest plays;
# follow with the cheapest play of the same kind; bombs by the bomb policy
POLICY_PLANNING = 2  # split the hand into few plays (plan_hand); play only whole plan elements, lowest
# first; break combinations or bomb only when an opponent is close to going out
# (<= threshold cards) or when the bomb leaves at most one plan element
BOMB_EARLY = 0  # bombs and straight flushes are ordinary plays (the cheapest beating play is used)
BOMB_HOLD = 1  # only to go out, or on lead when nothing else is left
BOMB_STOP = 2  # also when an opponent holds at most `threshold` cards

# per-seat record of one game
G_WIN = 0
G_SCORE = 1
G_SCORE_SQ = 2
G_HOLDS_3D = 3
G_PLACE = 4  # 1-based finishing place (the Loser is last)
G_HAS_BOMB = 5  # the dealt hand holds a four of a kind
G_HAS_SF = 6  # the dealt hand holds a straight flush (5 in a row, one suit)
G_JOKERS = 7
G_TWOS = 8
G_BOMBS_PLAYED = 9
G_CARDS_LEFT = 10  # when the Winner went out
G_NEVER_PLAYED = 11
G_FIELDS = 12

MAX_TURNS = 2000


_shuffle_54 = rng.unrolled_shuffle(54, 54)


@jit
def deal_hands(st, P, dealer, deck, hands, counts, n_deal):
    """Shuffle ``deck`` (card codes; two decks: each code twice) and deal ``n_deal`` cards one at a time,
    clockwise from the dealer (ZS-1), into ``hands[P, 2]`` (cards, dups); with 3 players and 52 cards one card
    is left over, out of play."""
    n = deck.shape[0]
    if n == 54:  # one deck, jokers in: the usual case, unrolled (same result)
        _shuffle_54(st, deck)
    else:  # two decks unrolled too took this function 4.9 s -> 17 s to compile
        rng.partial_shuffle(st, deck, n)
    for s in range(P):
        hands[s, 0] = 0
        hands[s, 1] = 0
        counts[s] = 0
    s = dealer
    for i in range(n_deal):
        hands[s, 0], hands[s, 1] = add_card(hands[s, 0], hands[s, 1], deck[i])
        counts[s] += 1
        s = _next_seat(s, P)


@jit_inline
def _positions(m):
    """Ranks as sequence positions: from bit 4r set for rank r, bit 4p set for each position p (A(low) 2 3 ..
    K A(high)) of those ranks (an ace is at both ends)."""
    ace = (m >> np.uint64(44)) & np.uint64(1)
    two = (m >> np.uint64(48)) & np.uint64(1)
    return ((m & np.uint64(0x11111111111)) << np.uint64(8)) | ace | (two << np.uint64(4)) | (ace << np.uint64(52))


@jit_inline
def _card_positions(hand):
    """The suited cards by sequence position: bit 4p + s set when the card of suit s at position p is held
    (the aces at both ends)."""
    h = hand & SUITED_CARDS
    ace = (h >> np.uint64(44)) & np.uint64(15)
    two = (h >> np.uint64(48)) & np.uint64(15)
    return ((h & np.uint64((1 << 44) - 1)) << np.uint64(8)) | ace | (two << np.uint64(4)) | (ace << np.uint64(52))


@jit_inline
def _runs_of(pos, length):
    """Bit 4p set when positions p .. p+length-1 are all held (a straight flush of that length starts at p)."""
    runs = pos
    for i in range(1, length):
        runs &= pos >> np.uint64(4 * i)
    return runs


@jit
def has_straight_flush(hand, min_len=5):
    """Whether the hand holds a straight flush of ``min_len`` cards (5; 3 under ruleset legacy_wiki)."""
    return _runs_of(_card_positions(hand), min_len) != np.uint64(0)


@jit
def has_bomb(hand, dup):
    """A four of a kind (two decks: four cards of one rank) with a fifth card to go with it (default: not a
    joker)."""
    fours = ranks_at_least(rank_counts(hand) + rank_counts(dup), 4)
    return fours != np.uint64(0) and _popcount(hand & SUITED_CARDS) + _popcount(dup & SUITED_CARDS) >= 5


@jit_inline
def _special(kind):
    return kind == K_BOMB or kind == K_STRAIGHT_FLUSH


@jit
def _top_card(play):
    return _high_index(play)


MAX_PLAN = 32


@jit_inline
def ranks_at_least(cnt, k):
    """Bit 4r set for the ranks whose count (a nibble of ``rank_counts(cards) + rank_counts(dups)``, 0..8)
    is at least ``k`` (1..4)."""
    hi = (cnt >> np.uint64(2)) | (cnt >> np.uint64(3))
    if k == 1:
        m = cnt | (cnt >> np.uint64(1)) | hi
    elif k == 2:
        m = (cnt >> np.uint64(1)) | hi
    elif k == 3:
        m = (cnt & (cnt >> np.uint64(1))) | hi
    else:
        m = hi
    return m & RANK_LOW_BITS


@jit_inline
def _lowest_of_rank(rest, rdup, r, k):
    """The ``k`` lowest cards of rank ``r`` in the multiset ``(rest, rdup)`` (suits ascending, a doubled card
    twice), as ``(cards, dups)``."""
    bits = _rank_bits(rest, r)
    dbits = _rank_bits(rdup, r)
    ea = np.uint64(0)
    ed = np.uint64(0)
    if dbits == np.uint64(0):  # one copy of each: the k lowest bits
        for _ in range(k):
            low = bits & (~bits + np.uint64(1))
            ea |= low
            bits &= ~low
        return ea << np.uint64(4 * r), ed
    for sb in range(4):
        one = np.uint64(1) << np.uint64(sb)
        if k > 0 and bits & one:
            ea |= one
            k -= 1
            if k > 0 and dbits & one:
                ed |= one
                k -= 1
    return ea << np.uint64(4 * r), ed << np.uint64(4 * r)


@jit
def _take_runs(rest, rdup, width, min_len, plan, n_plan):
    """Repeatedly remove the longest run (>= min_len positions; the earliest of equal ones) of ranks holding
    >= width cards, taking the lowest ``width`` cards of each rank; returns (rest, rdup, n_plan). A run
    cannot hold the ace at both ends: with every rank held the run is A(low) .. K."""
    while True:
        pos = _positions(ranks_at_least(rank_counts(rest) + rank_counts(rdup), width))  # bit 4p: >= width cards
        runs = pos
        length = 0
        start = 0
        while runs:  # runs of length + 1 start at the set bits
            start = _low_index(runs) // 4
            length += 1
            runs &= pos >> np.uint64(4 * length)
        if length == 14:
            length = 13
            start = 0
        if length < min_len:
            return rest, rdup, n_plan
        elem = np.uint64(0)
        edup = np.uint64(0)
        for p in range(start, start + length):
            ea, ed = _lowest_of_rank(rest, rdup, rank_of_position(p), width)
            elem |= ea
            edup |= ed
        plan[n_plan, 0] = elem
        plan[n_plan, 1] = edup
        n_plan += 1
        rest, rdup = take(rest, rdup, elem, edup)


@jit_inline
def _move_rank(rest, rdup, r4, buf, i):
    """Move every card of the rank at bit ``r4`` (= 4 * rank) from the multiset ``(rest, rdup)`` into row
    ``i`` of ``buf`` (added to what the row holds); returns what is left."""
    mask = np.uint64(15) << np.uint64(r4)
    pa = rest & mask
    pd = rdup & mask
    buf[i, 0] |= pa
    buf[i, 1] |= pd
    return take(rest, rdup, pa, pd)


@jit
def _split_sets(rest, rdup, buf, n):
    """Append to ``buf[n:]`` the plain sets of a multiset whose ranks hold at most three cards: triples,
    each joined to the lowest remaining pair (a full house), then pairs, then singles (lowest code first, a
    doubled card twice; jokers last). Returns the new count. :func:`kernels.bits.split_sets` is the
    one-deck form (Biscuits)."""
    first = n
    cnt = rank_counts(rest) + rank_counts(rdup)
    triples = ranks_with_count(cnt, 3)
    pairs = ranks_with_count(cnt, 2)
    while triples:
        r = _low_index(triples)  # = 4 * rank
        triples &= triples - np.uint64(1)
        buf[n, 0] = 0
        buf[n, 1] = 0
        rest, rdup = _move_rank(rest, rdup, r, buf, n)
        n += 1
    for i in range(first, n):  # each triple takes the lowest pair left
        if pairs == np.uint64(0):
            break
        q = _low_index(pairs)
        pairs &= pairs - np.uint64(1)
        rest, rdup = _move_rank(rest, rdup, q, buf, i)
    while pairs:
        q = _low_index(pairs)
        pairs &= pairs - np.uint64(1)
        buf[n, 0] = 0
        buf[n, 1] = 0
        rest, rdup = _move_rank(rest, rdup, q, buf, n)
        n += 1
    while rest:
        low = rest & (~rest + np.uint64(1))
        buf[n, 0] = low
        buf[n, 1] = 0
        n += 1
        if rdup & low:
            buf[n, 0] = low
            buf[n, 1] = 0
            n += 1
        rest &= rest - np.uint64(1)
    return n


@jit
def plan_hand(hand, dup, plan, alt, min_straight=5):
    """Split a hand into few plays (rows ``(cards, dups)`` of ``plan``): bombs (four of a kind, kicker chosen
    when played; two decks: the lowest four cards of a rank, again while four are left) kept apart; then
    either straights, triple straights and pair straights first, or no sequences; triples with the lowest
    spare pair, pairs, singles. The split with fewer elements wins (ties: sequences first). Returns the count."""
    n_best = 0
    for attempt in range(2):
        buf = plan if attempt == 0 else alt
        n_plan = 0
        rest = hand
        rdup = dup
        fours = ranks_at_least(rank_counts(hand) + rank_counts(dup), 4)
        while fours:
            r = _low_index(fours) // 4
            fours &= fours - np.uint64(1)
            while _popcount(_rank_bits(rest, r)) + _popcount(_rank_bits(rdup, r)) >= 4:
                ea, ed = _lowest_of_rank(rest, rdup, r, 4)
                buf[n_plan, 0] = ea
                buf[n_plan, 1] = ed
                n_plan += 1
                rest, rdup = take(rest, rdup, ea, ed)
        if attempt == 0:
            rest, rdup, n_plan = _take_runs(rest, rdup, 1, min_straight, buf, n_plan)
            rest, rdup, n_plan = _take_runs(rest, rdup, 3, 2, buf, n_plan)
            rest, rdup, n_plan = _take_runs(rest, rdup, 2, 3, buf, n_plan)
        n_plan = _split_sets(rest, rdup, buf, n_plan)  # triples (+ lowest pair), pairs, singles, jokers
        if attempt == 0:
            n_best = n_plan
        elif n_plan < n_best:
            for i in range(n_plan):
                plan[i, 0] = alt[i, 0]
                plan[i, 1] = alt[i, 1]
            n_best = n_plan
    return n_best


@jit_inline
def _is_four(m, md):
    """Whether the play ``(m, md)`` is four cards of one rank (a bomb without its kicker)."""
    return (
        _popcount(m) + _popcount(md) == 4
        and _popcount(_rank_bits(m, _top_card(m) // 4)) + _popcount(_rank_bits(md, _top_card(m) // 4)) == 4
    )


@jit
def _planning_play(threshold, hand, dup, n_hand, cur_kind, cur_len, cur_key, moves, scratch, min_opp, zv, plan, n_plan):
    """The planning player's play ``(cards, dups)`` (``(0, 0)`` = pass), see POLICY_PLANNING; ``plan[:n_plan]``
    is :func:`plan_hand` of the hand.

    Only what the player looks at is computed: the whole hand (going out) and the whole plan elements, each a
    combination that is legal exactly when it beats the current play (a four of a kind is played as a bomb
    with our lowest single as kicker). The legal plays are generated only for the fall-backs (nothing whole
    to lead; breaking combinations). Ties go to the lowest play, as a scan of the sorted legal plays gives.
    """
    zero = np.uint64(0)
    kind, length, key = classify(hand, dup, zv)
    if beats(cur_kind, cur_len, cur_key, kind, length, key, zv):
        return hand, dup  # go out
    current_rules = zv[V_CURRENT] == 1  # current_wiki: a bomb is a plan element alone (no kicker)
    n_fours = 0
    lowest_single = -1
    for j in range(n_plan):
        if _is_four(plan[j, 0], plan[j, 1]) or (current_rules and classify(plan[j, 0], plan[j, 1], zv)[0] == K_BOMB):
            n_fours += 1
        elif _popcount(plan[j, 0]) + _popcount(plan[j, 1]) == 1 and lowest_single < 0:
            lowest_single = _top_card(plan[j, 0])
    lead = cur_kind == K_NONE
    best = zero  # the best whole plan element (not a five-card bomb)
    best_d = zero
    best_rank = 1 << 30  # lead: its top card; follow: its key
    bomb = zero  # the lowest whole bomb allowed now
    bomb_d = zero
    for j in range(n_plan):
        m = plan[j, 0]
        md = plan[j, 1]
        b = zero
        bd = zero
        if current_rules:
            b = m  # the element itself, if it is a bomb
            bd = md
        elif lowest_single >= 0 and _is_four(m, md):
            b, bd = add_card(m, md, lowest_single)
        if b:
            kind, length, key = classify(b, bd, zv)
            if (
                kind == K_BOMB
                and (length == 5 or current_rules)
                and beats(cur_kind, cur_len, cur_key, kind, length, key, zv)
            ):
                # a bomb is spent only when it decides the game: an opponent is close to going out, or
                # afterwards at most one plan element is left (never as a lead while other plays remain)
                left = n_plan - (1 if current_rules else 2)
                if not (lead and n_plan > n_fours + 1) and (min_opp <= threshold or left <= 1):
                    if bomb == zero or pair_less(b, bd, bomb, bomb_d):
                        bomb = b
                        bomb_d = bd
        kind, length, key = classify(m, md, zv)
        if kind == K_BOMB and (length == 5 or current_rules):
            continue
        if not beats(cur_kind, cur_len, cur_key, kind, length, key, zv):
            continue
        rank = _top_card(m) if lead else key
        if rank < best_rank or (rank == best_rank and pair_less(m, md, best, best_d)):
            best_rank = rank
            best = m
            best_d = md
    if best:
        return best, best_d
    if bomb:
        return bomb, bomb_d
    if not lead and min_opp > threshold:
        return zero, zero
    n = moves_into(hand, dup, cur_kind, cur_len, cur_key, moves, scratch, zv)
    pick = zero
    pick_d = zero
    if lead:
        # nothing whole to lead (only fours without a kicker are left): the lowest legal play by its top card
        low_top = 99
        for i in range(n):
            t = _top_card(moves[i, 0])
            if t < low_top or (t == low_top and pair_less(moves[i, 0], moves[i, 1], pick, pick_d)):
                low_top = t
                pick = moves[i, 0]
                pick_d = moves[i, 1]
        return pick, pick_d
    # an opponent is close to going out: break combinations, bombs included, cheapest first
    pick_rank = 1 << 40
    for i in range(n):
        kind, length, key = classify(moves[i, 0], moves[i, 1], zv)
        rank = (2 if kind == K_STRAIGHT_FLUSH else (1 if kind == K_BOMB else 0)) * (1 << 20) + key * 32 + length
        if rank < pick_rank or (rank == pick_rank and pair_less(moves[i, 0], moves[i, 1], pick, pick_d)):
            pick_rank = rank
            pick = moves[i, 0]
            pick_d = moves[i, 1]
    return pick, pick_d


@jit_inline
def choose(st, policy, bomb_policy, threshold, hand, n_hand, cur_kind, cur_len, cur_key, moves, n, min_opp, zv):
    """The random or greedy player's move: its index in ``moves[:n]``, or -1 to pass (the planning player is
    :func:`_planning_play`). The random player draws a position in the list as :func:`moves_into` orders it;
    the greedy player's ties go to the lowest play (:func:`pair_less`), whatever the list's order."""
    if policy == POLICY_RANDOM:
        return rng.below(st, n) if cur_kind == K_NONE else rng.below(st, n + 1) - 1  # following: -1 = pass
    # greedy: going out beats everything
    for i in range(n):
        if _popcount(moves[i, 0]) + _popcount(moves[i, 1]) == n_hand:
            return i
    best = -1
    best_len = -1
    best_top = 99
    best_key = 1 << 30
    sp = -1
    sp_rank = 1 << 30
    for i in range(n):
        kind, length, key = classify(moves[i, 0], moves[i, 1], zv)
        if _special(kind):
            rank = (1000 if kind == K_STRAIGHT_FLUSH else 0) + key * 20 + length
            if rank < sp_rank or (rank == sp_rank and pair_less(moves[i, 0], moves[i, 1], moves[sp, 0], moves[sp, 1])):
                sp_rank = rank
                sp = i
            continue
        if cur_kind == K_NONE:
            top = _top_card(moves[i, 0])
            if length > best_len or (
                length == best_len
                and (
                    top < best_top
                    or (top == best_top and pair_less(moves[i, 0], moves[i, 1], moves[best, 0], moves[best, 1]))
                )
            ):
                best = i
                best_len = length
                best_top = top
        else:
            if key < best_key or (
                key == best_key and pair_less(moves[i, 0], moves[i, 1], moves[best, 0], moves[best, 1])
            ):
                best = i
                best_key = key
    if best >= 0:
        return best
    if sp < 0:
        return -1
    if bomb_policy == BOMB_EARLY or cur_kind == K_NONE:
        return sp
    if bomb_policy == BOMB_STOP and min_opp <= threshold:
        return sp
    return -1


@jit
def _multiplier(P, c, never_played, zv):
    """ZS-8 multipliers: 4 players x3 never played, x2 with 10 or more, else x1; 3 players x3 never played,
    x2 from 12 cards, else x1 (variant literal_17: x3 only with 17 or more cards held)."""
    if P == 3:
        if zv[V_THREE_MULT] == 1:
            return 3 if c >= 17 else (2 if c >= 12 else 1)
        return 3 if never_played else (2 if c >= 12 else 1)
    return 3 if never_played else (2 if c >= 10 else 1)


@jit
def score_first_out(P, winner, counts, rec, zv):
    """ZS-8, at the moment the Winner goes out: every other player pays per card held (see
    :func:`_multiplier`), and the Winner gains the total. Uses rec's G_NEVER_PLAYED."""
    gain = 0
    for s in range(P):
        if s != winner:
            c = counts[s]
            mult = _multiplier(P, c, rec[s, G_NEVER_PLAYED], zv)
            rec[s, G_SCORE] = -c * mult
            rec[s, G_CARDS_LEFT] = c
            gain += c * mult
    rec[winner, G_SCORE] = gain


@jit_inline
def _next_seat(s, P):
    """The next seat clockwise (a compare, not a division by the run-time P)."""
    return s + 1 if s + 1 < P else 0


@jit
def play_game(P, hands, counts, leader, strat, st, rec, moves, scratch, zv):
    """Play one game from dealt ``hands[P, 2]`` (cards, dups) with ``leader`` to lead; fills
    ``rec[P, G_FIELDS]``.

    Returns (winner, loser). Scores are taken when the Winner goes out (ZS-8).
    """
    for s in range(P):
        for f in range(G_FIELDS):
            rec[s, f] = 0
        h = hands[s, 0]
        hd = hands[s, 1]
        rec[s, G_HOLDS_3D] = 1 if h & np.uint64(1) else 0
        rec[s, G_HAS_BOMB] = 1 if has_bomb(h, hd) else 0
        rec[s, G_HAS_SF] = 1 if has_straight_flush(h, zv[V_MIN_STRAIGHT]) else 0
        rec[s, G_JOKERS] = _popcount(h >> np.uint64(52)) + _popcount(hd >> np.uint64(52))
        rec[s, G_TWOS] = _popcount(_rank_bits(h, 12)) + _popcount(_rank_bits(hd, 12))
        rec[s, G_NEVER_PLAYED] = 1
    if zv[V_REVOLUTION] == 1 or zv[V_REV_STATE] != 0:
        zv = zv.copy()  # the revolution state lives in this game's copy
        zv[V_REV_STATE] = 0
    # the planning players' buffers (one allocation, only when one plays): for seat s, rows [0, MAX_PLAN) of
    # pbuf[s] its plan, row MAX_PLAN the hand it was made for, row MAX_PLAN + 1 (column 0) its length;
    # pbuf[P] the plan maker's work area
    planners = 0
    for s in range(P):
        if strat[s, 0] == POLICY_PLANNING:
            planners = P + 1
    pbuf = np.zeros((planners, MAX_PLAN + 2, 2), dtype=np.uint64)
    # bit s: seat s's hand can make no bomb and no straight flush (once true it stays true as cards leave)
    plain = 0
    for s in range(P):
        if _no_bomb_or_straight_flush(hands[s, 0], hands[s, 1], zv):
            plain |= 1 << s
    active = P
    place = 0
    winner = -1
    loser = -1
    # np.int64, not plain constants: passed on while still literal, they would compile moves_into, beats and
    # _planning_play once more each for Literal[int](0) (kernels/_jit.py)
    cur_kind = np.int64(K_NONE)
    cur_len = np.int64(0)
    cur_key = np.int64(0)
    last = leader
    passes = 0
    turn = leader
    for _ in range(MAX_TURNS):
        hand = hands[turn, 0]
        dup = hands[turn, 1]
        min_opp = np.int64(99)  # the fewest cards an opponent holds: only the players that look at it
        if strat[turn, 0] == POLICY_PLANNING or strat[turn, 1] == BOMB_STOP:
            for s in range(P):
                if s != turn and counts[s] > 0 and counts[s] < min_opp:
                    min_opp = counts[s]
        play = np.uint64(0)  # 0 = pass
        pdup = np.uint64(0)
        single = -1  # the card, when the play is known to be a single (no classify needed)
        if strat[turn, 0] == POLICY_PLANNING:
            # each seat's plan is kept until its hand changes
            mine = pbuf[turn]
            if mine[MAX_PLAN, 0] != hand or mine[MAX_PLAN, 1] != dup or mine[MAX_PLAN + 1, 0] == 0:
                mine[MAX_PLAN + 1, 0] = plan_hand(hand, dup, mine[:MAX_PLAN], pbuf[P, :MAX_PLAN], zv[V_MIN_STRAIGHT])
                mine[MAX_PLAN, 0] = hand
                mine[MAX_PLAN, 1] = dup
            play, pdup = _planning_play(
                strat[turn, 2],
                hand,
                dup,
                counts[turn],
                cur_kind,
                cur_len,
                cur_key,
                moves,
                scratch,
                min_opp,
                zv,
                mine[:MAX_PLAN],
                np.int64(mine[MAX_PLAN + 1, 0]),
            )
        elif cur_kind == K_SINGLE and zv[V_REV_STATE] == 0 and (plain >> turn) & 1:
            # following a single from a hand without bombs or straight flushes (most turns): the legal plays
            # are the higher singles, whose order as plays is the cards' order, so the random player's r-th
            # play is the r-th such card and the greedy player's cheapest the lowest (same draws as below)
            cand = _singles_above(hand, cur_key, zv)
            n = _popcount(cand)
            if n > 0:
                k = rng.below(st, n + 1) - 1 if strat[turn, 0] == POLICY_RANDOM else 0
                if k >= 0:
                    single = nth_bit(cand, k)
                    play = np.uint64(1) << np.uint64(single)
        elif (cur_kind == K_PAIR or cur_kind == K_TRIPLE) and zv[V_REV_STATE] == 0 and (plain >> turn) & 1 and dup == 0:
            # following a pair or three of a kind from such a hand: only higher plays of that kind (the
            # greedy player's cheapest is the first, as for singles)
            w = 2 if cur_kind == K_PAIR else 3
            n = np.int64(follow_same_kind(hand, w, cur_key, zv, -1))
            if n > 0:
                k = rng.below(st, n + 1) - 1 if strat[turn, 0] == POLICY_RANDOM else 0
                if k >= 0:
                    play = follow_same_kind(hand, w, cur_key, zv, k)
        elif cur_kind == K_STRAIGHT and zv[V_REV_STATE] == 0 and (plain >> turn) & 1 and dup == 0:
            # following a straight from such a hand: only higher straights of its length (greedy: the first)
            n = np.int64(follow_straight(hand, cur_len, cur_key, zv, -1))
            if n > 0:
                k = rng.below(st, n + 1) - 1 if strat[turn, 0] == POLICY_RANDOM else 0
                if k >= 0:
                    play = follow_straight(hand, cur_len, cur_key, zv, k)
        elif cur_kind == K_NONE and strat[turn, 0] == POLICY_RANDOM and dup == 0 and zv[V_CURRENT] == 0:
            # the random leader with a one-deck hand: count the plays, draw one, decode it (no list)
            play = lead_play(hand, rng.below(st, np.int64(lead_play(hand, -1, zv))), zv)
            if play & (play - np.uint64(1)) == 0 and zv[V_REV_STATE] == 0:
                single = _low_index(play)  # a single in the normal order: its key is its code
        else:
            n = moves_into(hand, dup, cur_kind, cur_len, cur_key, moves, scratch, zv)
            pick = -1
            if n > 0:
                pick = choose(
                    st,
                    strat[turn, 0],
                    strat[turn, 1],
                    strat[turn, 2],
                    hand,
                    counts[turn],
                    cur_kind,
                    cur_len,
                    cur_key,
                    moves,
                    n,
                    min_opp,
                    zv,
                )
            if cur_kind == K_NONE and pick < 0:
                pick = 0  # a leader must play (cannot happen with a non-empty hand)
            if pick >= 0:
                play = moves[pick, 0]
                pdup = moves[pick, 1]
        if play:
            if single >= 0:
                kind, length, key = K_SINGLE, 1, _single_key(single, zv)
            else:
                kind, length, key = classify(play, pdup, zv)
            if _special(kind):
                rec[turn, G_BOMBS_PLAYED] += 1
            if zv[V_REVOLUTION] == 1 and kind == K_BOMB:
                # variant 7: a four of a kind turns the rank order over until the next one or the game's end;
                # the bomb on the table is read again in the new order
                zv[V_REV_STATE] = 1 - zv[V_REV_STATE]
                kind, length, key = classify(play, pdup, zv)
            hands[turn, 0], hands[turn, 1] = take(hand, dup, play, pdup)
            if not (plain >> turn) & 1 and _no_bomb_or_straight_flush(hands[turn, 0], hands[turn, 1], zv):
                plain |= 1 << turn
            counts[turn] -= length
            rec[turn, G_NEVER_PLAYED] = 0
            cur_kind = kind
            cur_len = length
            cur_key = key
            last = turn
            passes = 0
            if counts[turn] == 0:
                place += 1
                rec[turn, G_PLACE] = place
                active -= 1
                if winner < 0:
                    winner = turn
                    if zv[V_SCORE_TIMING] == 0:
                        score_first_out(P, turn, counts, rec, zv)
                if active == 1:
                    for s in range(P):
                        if counts[s] > 0:
                            loser = s
                            rec[s, G_PLACE] = P
                    if zv[V_SCORE_TIMING] == 1:
                        # variant at_end: only the Loser still holds cards, and pays the Winner
                        mult = _multiplier(P, counts[loser], rec[loser, G_NEVER_PLAYED], zv)
                        rec[loser, G_SCORE] = -counts[loser] * mult
                        rec[loser, G_CARDS_LEFT] = counts[loser]
                        rec[winner, G_SCORE] = counts[loser] * mult
                    break
            # variant 9: the red joker single, or a pair of twos with the 2 of spades, ends the trick at once
            if zv[V_AUTO_RESTART] == 1 and (
                (kind == K_SINGLE and key == RED_JOKER) or (kind == K_PAIR and key == 12 * 4 + 3)
            ):
                passes = P
        else:
            passes += 1
        # ZS-4: the trick ends when every other player still holding cards has passed in a row
        need = active - (1 if counts[last] > 0 else 0)
        if passes >= need:
            cur_kind = K_NONE
            cur_len = 0
            cur_key = 0
            passes = 0
            turn = last
            if counts[turn] == 0:  # the last player went out: the next player with cards leads
                turn = _next_seat(turn, P)
                while counts[turn] == 0:
                    turn = _next_seat(turn, P)
            continue
        turn = _next_seat(turn, P)
        while counts[turn] == 0:
            turn = _next_seat(turn, P)
    rec[winner, G_WIN] = 1
    for s in range(P):
        rec[s, G_SCORE_SQ] = rec[s, G_SCORE] * rec[s, G_SCORE]
    return winner, loser


@jit_inline
def _remove_card(hands, s, c):
    """Take one card of code ``c`` out of seat ``s``'s hand (a doubled card keeps its other copy)."""
    hands[s, 0], hands[s, 1] = take(hands[s, 0], hands[s, 1], np.uint64(1) << np.uint64(c), np.uint64(0))


@jit
def loser_exchange(hands, winner, loser, mode):
    """Variant 8 before a later game: the Loser gives their highest single to the Winner; then (offer_two) the
    Winner offers their two lowest cards and the Loser takes the higher, or (winner_gives_one) the Winner
    gives their lowest card. Card order is the single order (ZS-2): the code, jokers highest; with two decks
    a doubled card is two cards of that order."""
    if mode == 0 or winner == loser:
        return
    top = _high_index(hands[loser, 0])
    _remove_card(hands, loser, top)
    hands[winner, 0], hands[winner, 1] = add_card(hands[winner, 0], hands[winner, 1], top)
    low = _low_index(hands[winner, 0])
    give = low
    if mode == 1:
        if not (hands[winner, 1] >> np.uint64(low)) & np.uint64(1):
            give = _low_index(hands[winner, 0] & ~(np.uint64(1) << np.uint64(low)))
        # the Loser takes the higher of the two offered (a doubled lowest card: the same card)
    _remove_card(hands, winner, give)
    hands[loser, 0], hands[loser, 1] = add_card(hands[loser, 0], hands[loser, 1], give)


@jit
def first_leader(P, hands):
    """ZS-3: the holder of the 3 of diamonds (code 0) leads the first game; if it was left over (3 players,
    52 cards), the holder of the lowest card does [OURS]. Two decks: of two holders, the first from seat 0
    (the first game's dealer) clockwise [OURS]."""
    for c in range(54):
        for s in range(P):
            if (hands[s, 0] >> np.uint64(c)) & np.uint64(1):
                return s
    return 0


# count row layout of the simulation kernel: per seat S_FIELDS, then per-game fields
S_WIN = 0
S_SCORE = 1
S_SCORE_SQ = 2
S_HOLDS_3D = 3
S_WIN_3D = 4
S_SCORE_3D = 5
S_SCORE_SQ_3D = 6
S_PLACES = 7  # P slots would vary; 8 slots reserved (places 1..8)
S_FEATURE = 15  # 4 features x (n, wins): bomb, straight flush, red joker, two or more twos
S_WIN_SCORE = 23  # the Winner's gain (sum and sum of squares), in the games this seat won
S_WIN_SCORE_SQ = 24
S_FIELDS = 25
SCORE_BINS = 201  # histogram of per-seat game scores, offset by 100 (clipped)
M_GAMES = 0
M_TURNS = 1
M_FIELDS = 2


def counts_width(players: int) -> int:
    return players * S_FIELDS + SCORE_BINS + M_FIELDS


@jit
def _accumulate_game(row, P, rec, hands0):
    for s in range(P):
        b = s * S_FIELDS
        row[b + S_WIN] += rec[s, G_WIN]
        row[b + S_SCORE] += rec[s, G_SCORE]
        row[b + S_SCORE_SQ] += rec[s, G_SCORE_SQ]
        if rec[s, G_HOLDS_3D]:
            row[b + S_HOLDS_3D] += 1
            row[b + S_WIN_3D] += rec[s, G_WIN]
            row[b + S_SCORE_3D] += rec[s, G_SCORE]
            row[b + S_SCORE_SQ_3D] += rec[s, G_SCORE_SQ]
        if rec[s, G_WIN]:
            row[b + S_WIN_SCORE] += rec[s, G_SCORE]
            row[b + S_WIN_SCORE_SQ] += rec[s, G_SCORE_SQ]
        pl = rec[s, G_PLACE]
        if 1 <= pl <= 8:
            row[b + S_PLACES + pl - 1] += 1
        feats = (
            rec[s, G_HAS_BOMB],
            rec[s, G_HAS_SF],
            1 if (hands0[s, 0] >> np.uint64(53)) & np.uint64(1) else 0,
            1 if rec[s, G_TWOS] >= 2 else 0,
        )
        for f in range(4):
            if feats[f]:
                row[b + S_FEATURE + 2 * f] += 1
                row[b + S_FEATURE + 2 * f + 1] += rec[s, G_WIN]
        sc = min(max(rec[s, G_SCORE] + 100, 0), SCORE_BINS - 1)
        row[P * S_FIELDS + sc] += 1
    row[P * S_FIELDS + SCORE_BINS + M_GAMES] += 1


@pjit
def simulate_chunks(chunk_ids, chunk_size, n_trials, key0, key1, P, deck, n_deal, strat, games_per_match, zv, out):
    """The driver's kernel: each trial is a match of ``games_per_match`` games (1 = one game, ZS-7).

    The first game's dealer is seat 0 and the 3 of diamonds leads; later games are dealt by the Loser
    and led by the previous Winner (variant ``later_game_leader``: the 3 of diamonds, the dealer, or the
    dealer's left).
    """
    for ci in prange(chunk_ids.shape[0]):
        c = chunk_ids[ci]
        start = c * chunk_size
        stop = min(start + chunk_size, n_trials)
        hands = np.zeros((P, 2), dtype=np.uint64)
        hands0 = np.zeros((P, 2), dtype=np.uint64)
        counts = np.zeros(P, dtype=np.int64)
        rec = np.zeros((P, G_FIELDS), dtype=np.int64)
        moves = new_moves()
        scratch = make_scratch()
        d = deck.copy()
        st_deal = rng.new_state()
        st_play = rng.new_state()
        _simulate_range(
            start,
            stop,
            key0,
            key1,
            P,
            deck,
            n_deal,
            strat,
            games_per_match,
            zv,
            out[ci],
            (hands, hands0, counts, rec, moves, scratch, d, st_deal, st_play),
        )


@jit
def _simulate_range(start, stop, key0, key1, P, deck, n_deal, strat, games_per_match, zv, row, bufs):
    """Trials ``start .. stop-1`` of :func:`simulate_chunks` into one count row, on borrowed views of the
    arguments: no reference counting in the loop (kernels._jit.borrowed)."""
    deck, strat, zv, row, bufs = borrowed((deck, strat, zv, row, bufs))
    hands, hands0, counts, rec, moves, scratch, d, st_deal, st_play = bufs
    for t in range(start, stop):
        rng.seed_state(st_deal, key0, key1, np.uint64(t), np.uint64(rng.STREAM_DEAL))
        rng.seed_state(st_play, key0, key1, np.uint64(t), np.uint64(rng.STREAM_STRATEGY))
        dealer = 0
        leader = -1
        for g in range(games_per_match):
            d[:] = deck
            deal_hands(st_deal, P, dealer, d, hands, counts, n_deal)
            hands0[:, :] = hands
            if g > 0:
                loser_exchange(hands, leader, dealer, zv[V_LOSER_EXCHANGE])
            rule = zv[V_LATER_LEADER]
            if leader < 0 or rule == 1:
                leader = first_leader(P, hands)
            elif rule == 2:
                leader = dealer
            elif rule == 3:
                leader = (dealer + 1) % P
            winner, loser = play_game(P, hands, counts, leader, strat, st_play, rec, moves, scratch, zv)
            _accumulate_game(row, P, rec, hands0)
            dealer = loser
            leader = winner


# =============================================================================================
# Paired experiments on the same deals: strategy comparisons and the value of holding a card
# =============================================================================================
PAIR_STATS = 9  # n, wins A, wins B, sum dwin, sum dwin^2, score A, score B, sum dscore, sum dscore^2

FEATURE_CARD = 0  # a given card (code in `target`)
FEATURE_BOMB = 1  # one card of a four of a kind
FEATURE_SF = 2  # the middle card of a five-card straight flush


@jit
def _play_dealt(P, hands0, counts0, leader, strat, key0, key1, t, rec, moves, scratch, hands, counts, st_play, zv):
    hands[:, :] = hands0
    for s in range(P):
        counts[s] = counts0[s]
    rng.seed_state(st_play, key0, key1, np.uint64(t), np.uint64(rng.STREAM_STRATEGY))
    return play_game(P, hands, counts, leader, strat, st_play, rec, moves, scratch, zv)


@jit
def _add_paired(row, base, rec_a, rec_b, s):
    wa = rec_a[s, G_WIN]
    wb = rec_b[s, G_WIN]
    sa = rec_a[s, G_SCORE]
    sb = rec_b[s, G_SCORE]
    row[base] += 1
    row[base + 1] += wa
    row[base + 2] += wb
    row[base + 3] += wb - wa
    row[base + 4] += (wb - wa) * (wb - wa)
    row[base + 5] += sa
    row[base + 6] += sb
    row[base + 7] += sb - sa
    row[base + 8] += (sb - sa) * (sb - sa)


@jit
def paired_buffers(P):
    """One thread's buffers for replaying a deal: dealt hands and counts, working copies, two records,
    the move list and the generator's scratch."""
    return (
        np.zeros((P, 2), dtype=np.uint64),
        np.zeros(P, dtype=np.int64),
        np.zeros((P, 2), dtype=np.uint64),
        np.zeros(P, dtype=np.int64),
        np.zeros((P, G_FIELDS), dtype=np.int64),
        np.zeros((P, G_FIELDS), dtype=np.int64),
        new_moves(),
        make_scratch(),
    )


@pjit
def compare_chunks(chunk_ids, chunk_size, n_trials, key0, key1, P, deck, n_deal, strat_a, strat_b, zv, out):
    """Seat by seat, on the same deal: the seat plays B (others A) against everyone on A.

    ``out[chunk]`` is ``[seat][PAIR_STATS]`` (A = the field's result for that seat, B = the challenger's).
    """
    for ci in prange(chunk_ids.shape[0]):
        c = chunk_ids[ci]
        start = c * chunk_size
        stop = min(start + chunk_size, n_trials)
        hands0, counts0, hands, counts, rec_a, rec_b, moves, scratch = paired_buffers(P)
        mixed = strat_a.copy()
        d = deck.copy()
        st_deal = rng.new_state()
        st_play = rng.new_state()
        row = out[ci]
        for t in range(start, stop):
            rng.seed_state(st_deal, key0, key1, np.uint64(t), np.uint64(rng.STREAM_DEAL))
            d[:] = deck
            deal_hands(st_deal, P, 0, d, hands0, counts0, n_deal)
            leader = first_leader(P, hands0)
            _play_dealt(
                P, hands0, counts0, leader, strat_a, key0, key1, t, rec_a, moves, scratch, hands, counts, st_play, zv
            )
            for s in range(P):
                mixed[s] = strat_b[s]
                _play_dealt(
                    P, hands0, counts0, leader, mixed, key0, key1, t, rec_b, moves, scratch, hands, counts, st_play, zv
                )
                mixed[s] = strat_a[s]
                _add_paired(row, s * PAIR_STATS, rec_a, rec_b, s)


@pjit
def card_value_chunks(chunk_ids, chunk_size, n_trials, key0, key1, P, deck, n_deal, strat, feature, target, zv, out):
    """The value of holding a card (or a bomb, or a straight flush), paired on the same deal.

    Game A: as dealt. Game B: the holder's card X is swapped with a random card of a random other player.
    ``out[chunk]`` = [attempts, accepted, PAIR_STATS...] with A = with X, B = without it, for the holder;
    differences are B - A, so the value of holding X is minus the mean difference.
    """
    for ci in prange(chunk_ids.shape[0]):
        c = chunk_ids[ci]
        start = c * chunk_size
        stop = min(start + chunk_size, n_trials)
        hands0, counts0, hands, counts, rec_a, rec_b, moves, scratch = paired_buffers(P)
        d = deck.copy()
        st_deal = rng.new_state()
        st_play = rng.new_state()
        row = out[ci]
        for t in range(start, stop):
            row[0] += 1
            rng.seed_state(st_deal, key0, key1, np.uint64(t), np.uint64(rng.STREAM_DEAL))
            d[:] = deck
            deal_hands(st_deal, P, 0, d, hands0, counts0, n_deal)
            holder = -1
            x = -1
            if feature == FEATURE_CARD:
                for s in range(P):
                    if (hands0[s, 0] >> np.uint64(target)) & np.uint64(1):
                        holder = s
                        x = target
            elif feature == FEATURE_BOMB:
                for s in range(P):
                    if holder < 0:
                        for r in range(13):
                            if holder < 0 and _rank_bits(hands0[s, 0], r) == np.uint64(15):
                                holder = s
                                x = 4 * r + rng.below(st_deal, 4)
            else:
                for s in range(P):
                    for suit in range(4):
                        run = 0
                        for p in range(14):
                            if (hands0[s, 0] >> np.uint64(4 * rank_of_position(p) + suit)) & np.uint64(1):
                                run += 1
                                if run == 5 and holder < 0:
                                    holder = s
                                    x = 4 * rank_of_position(p - 2) + suit
                            else:
                                run = 0
            if holder < 0:
                continue
            row[1] += 1
            other = (holder + 1 + rng.below(st_deal, P - 1)) % P
            k = rng.below(st_deal, counts0[other])
            y = -1
            for cc in range(54):
                held = ((hands0[other, 0] >> np.uint64(cc)) & np.uint64(1)) + (
                    (hands0[other, 1] >> np.uint64(cc)) & np.uint64(1)
                )
                if k < held:
                    y = cc
                    break
                k -= held
            leader = first_leader(P, hands0)
            _play_dealt(
                P, hands0, counts0, leader, strat, key0, key1, t, rec_a, moves, scratch, hands, counts, st_play, zv
            )
            _remove_card(hands0, holder, x)
            hands0[holder, 0], hands0[holder, 1] = add_card(hands0[holder, 0], hands0[holder, 1], y)
            _remove_card(hands0, other, y)
            hands0[other, 0], hands0[other, 1] = add_card(hands0[other, 0], hands0[other, 1], x)
            leader = first_leader(P, hands0)
            _play_dealt(
                P, hands0, counts0, leader, strat, key0, key1, t, rec_b, moves, scratch, hands, counts, st_play, zv
            )
            _add_paired(row, 2, rec_a, rec_b, holder)
