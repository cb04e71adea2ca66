"""Zheng Shangyou kernels: combination classifier (ZS-5), beating rule (ZS-4, ZS-6), move generator.

Card encoding (one 54-card deck): ``card = rank * 4 + suit`` for the 52 suited cards, with ``rank``
ascending in the game's order ``0 = '3' .. 10 = 'K', 11 = 'A', 12 = '2'`` (twos high, ZS-2) and ``suit``
ascending ``0 = D < 1 = C < 2 = H < 3 = S`` (the Big Two order); the black joker is 52 and the red joker 53.
So a single card's comparison key is its code (rank first, then suit; jokers above). A hand or a play is a
``uint64`` bit set of codes: the four cards of a rank are the 4 bits at ``4 * rank``.

Sequences (straights, pair and triple straights, straight flushes) use *positions* in the order
A(low) 2 3 ... K A(high): position 0 is a low ace, 1 a two, 2 .. 12 the ranks 3 .. K and 13 a high ace
(ZS-5; no wrap-around, so J-Q-K-A-2 is not a sequence).

A play is ``(kind, length, key)``: the kinds are the ``K_*`` constants; ``key`` orders plays of one kind
and length (higher beats), see :func:`classify`.
"""

from __future__ import annotations

import numpy as np

from . import rng
from ._jit import jit, jit_inline, pjit, prange
from .bits import high_index as _high_index
from .bits import low_index as _low_index
from .bits import popcount as _popcount
from .bits import rank_bits as _rank_bits
from .bits import RANK_LOW_BITS, rank_counts, ranks_with_count, sort_prefix, split_sets

K_NONE = 0          # no play yet (on lead) / an invalid card set
K_SINGLE = 1
K_PAIR = 2
K_PAIR_STRAIGHT = 3
K_TRIPLE = 4
K_TRIPLE_STRAIGHT = 5
K_FULL_HOUSE = 6
K_STRAIGHT = 7
K_BOMB = 8
K_STRAIGHT_FLUSH = 9
KIND_NAMES = ("none", "single", "pair", "pair straight", "three of a kind", "triple straight", "full house",
              "straight", "bomb", "straight flush")
BLACK_JOKER = 52
RED_JOKER = 53
MAX_MOVES = 1 << 15
SUITED_CARDS = np.uint64((1 << 52) - 1)

# variant slots of the ``zv`` int64 array (rules.md 4(c); built by analysis.games.zheng_shangyou)
V_STRAIGHT_SUIT = 0      # straight_suit_tiebreak: 0 false, 1 true
V_BARE_FOUR = 1          # bare_four_is_bomb: 0 false, 1 beats_all, 2 below_straight_flush
V_SF_VS_SF = 2           # sf_vs_sf: 0 same_length, 1 longer_beats_shorter
V_NO_TWOS_SEQ = 3        # sequence_rules: 0 as_straights, 1 no_twos_in_sequences (pair/triple straights)
V_PAIR_STRAIGHT_TIE = 4  # pair_straight_tiebreak: 0 none, 1 top_pair_suit
V_KICKER_JOKER = 5       # bomb_kicker_may_be_joker: 0 false, 1 true
V_AUTO_RESTART = 6       # auto_restart_after_unbeatable: 0 false, 1 true
V_LATER_LEADER = 7       # later_game_leader: 0 previous_winner, 1 holder_3D_every_game, 2 dealer, 3 dealer_left
V_SCORE_TIMING = 8       # score_timing: 0 at_first_out, 1 at_end
V_THREE_MULT = 9         # three_player_multiplier: 0 default, 1 literal_17
V_REVOLUTION = 10        # revolution: 0 false, 1 true
V_REV_STATE = 11         # (game state, not a variant) 1 while a revolution is in force
V_LOSER_EXCHANGE = 12    # loser_exchange: 0 none, 1 offer_two, 2 winner_gives_one
V_MIN_STRAIGHT = 13      # fewest cards in a straight or straight flush: 5 (seed), 3 (ruleset legacy_wiki)
N_VARIANTS = 14


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
def classify(play, zv):
    """:func:`classify_normal`, with the keys reversed while a revolution is in force (variant 7): the 13
    ranks swap ends (jokers stay highest, suits keep their order) and a sequence is higher the lower its top."""
    kind, length, key = classify_normal(play, zv)
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
        return 12 - key
    width = 2 if kind == K_PAIR_STRAIGHT else (3 if kind == K_TRIPLE_STRAIGHT else 1)
    top = key // 4 + length // width - 1
    return 4 * (13 - top) + key % 4


@jit
def classify_normal(play, zv):
    """``(kind, length, key)`` of a card set (ZS-5); kind ``K_NONE`` if it is no combination.

    Keys: single = the card code; pair = 4 * rank + the higher suit; three of a kind, full house, bomb = the
    rank of the triple or the four; sequences = 4 * the lowest position (+ a suit under the tie-break
    variants), so a higher lowest card beats.
    """
    n = _popcount(play)
    if n == 0:
        return K_NONE, 0, 0
    if n == 1:                   # a single card: its code is its key (jokers 52, 53 above the rest)
        return K_SINGLE, 1, _low_index(play)
    jokers = (play >> np.uint64(52)) & np.uint64(3)
    if jokers:
        if n == 1:
            return K_SINGLE, 1, 52 if jokers == 1 else 53
        # jokers only as singles (ZS-5); variant 13: a joker may be a bomb's fifth card
        if zv[V_KICKER_JOKER] == 1 and n == 5 and jokers != 3:
            rest = play & np.uint64((1 << 52) - 1)
            for r in range(13):
                if _rank_bits(rest, r) == np.uint64(15):
                    return K_BOMB, 5, r
        return K_NONE, n, 0
    # per rank counts, without allocating: a presence mask and the ranks holding 4, 3, and the multiplicity
    present = 0
    n_ranks = 0
    r4 = -1
    r3 = -1
    lo_rank = -1
    m = 0
    uniform = True
    suit_union = np.uint64(0)
    for r in range(13):
        bits = _rank_bits(play, r)
        if bits:
            c = _popcount(bits)
            present |= 1 << r
            n_ranks += 1
            suit_union |= bits
            if lo_rank < 0:
                lo_rank = r
            if c == 4:
                r4 = r
            if c == 3:
                r3 = r
            if m == 0:
                m = c
            elif c != m:
                uniform = False
    if n == 1:
        return K_SINGLE, 1, lo_rank * 4 + _top_suit(_rank_bits(play, lo_rank))
    if n_ranks == 1:
        if n == 2:
            return K_PAIR, 2, lo_rank * 4 + _top_suit(_rank_bits(play, lo_rank))
        if n == 3:
            return K_TRIPLE, 3, lo_rank
        if n == 4 and zv[V_BARE_FOUR] > 0:
            return K_BOMB, 4, lo_rank    # variant 6: a bare four of a kind is a bomb
        return K_NONE, n, 0          # a bare four of a kind is no play by default (variant 6)
    if n == 5 and n_ranks == 2:
        if r4 >= 0:
            return K_BOMB, 5, r4      # four of a kind + any one other card (ZS-5)
        if r3 >= 0:
            return K_FULL_HOUSE, 5, r3
        return K_NONE, n, 0
    # sequences: every rank present the same number of times (1, 2 or 3), consecutive positions
    if not uniform or m > 3 or (m == 1 and n_ranks < zv[V_MIN_STRAIGHT]):
        return K_NONE, n, 0
    if m >= 2 and zv[V_NO_TWOS_SEQ] == 1 and (present >> 12) & 1:
        return K_NONE, n, 0          # variant 11: no twos in pair and triple straights
    low = _sequence_low(present, n_ranks)
    if low < 0:
        return K_NONE, n, 0
    top_rank = rank_of_position(low + n_ranks - 1)
    if m == 2:
        tie = _top_suit(_rank_bits(play, top_rank)) if zv[V_PAIR_STRAIGHT_TIE] == 1 else 0
        return K_PAIR_STRAIGHT, n, 4 * low + tie
    if m == 3:
        return K_TRIPLE_STRAIGHT, n, 4 * low
    if _popcount(suit_union) == 1:
        return K_STRAIGHT_FLUSH, n, 4 * low
    tie = _top_suit(_rank_bits(play, top_rank)) if zv[V_STRAIGHT_SUIT] == 1 else 0
    return K_STRAIGHT, n, 4 * low + tie


@jit_inline
def _sequence_low(present, n_ranks):
    """The lowest position of a run of ``n_ranks`` consecutive positions covering the ranks present, or -1."""
    for low in range(0, 14 - n_ranks + 1):
        ok = True
        for p in range(low, low + n_ranks):
            if not (present >> rank_of_position(p)) & 1:
                ok = False
                break
        if ok:
            return low
    return -1


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
def _emit_known(out, n, play, kind, length, key, cur_kind, cur_len, cur_key, zv):
    """Append ``play`` to ``out[n]`` if it beats the current play; its kind, length and (normal-order) key are
    known to the generator, so no :func:`classify` is needed. Returns the new count."""
    if beats(cur_kind, cur_len, cur_key, kind, length, _revolved_key(kind, length, key, zv), zv) \
            and n < out.shape[0]:
        out[n] = play
        return n + 1
    return n


@jit_inline
def _subsets_of_size(bits, k, base, out, n_out):
    """All k-subsets of a 4-bit suit set, shifted to ``base``; written to out[n_out:], returns the new count."""
    c = _popcount(bits)
    if k > c:
        return n_out
    if k == c:
        out[n_out] = bits << np.uint64(base)
        return n_out + 1
    if k == 1:
        for sb in range(4):
            if (bits >> np.uint64(sb)) & np.uint64(1):
                out[n_out] = np.uint64(1) << np.uint64(base + sb)
                n_out += 1
        return n_out
    if k == c - 1:                       # leave one card out (3 of 4, 2 of 3)
        for sb in range(4):
            if (bits >> np.uint64(sb)) & np.uint64(1):
                out[n_out] = (bits & ~(np.uint64(1) << np.uint64(sb))) << np.uint64(base)
                n_out += 1
        return n_out
    for sa in range(4):                  # 2 of 4
        for sb in range(sa + 1, 4):
            out[n_out] = ((np.uint64(1) << np.uint64(sa)) | (np.uint64(1) << np.uint64(sb))) << np.uint64(base)
            n_out += 1
    return n_out


@jit
def make_scratch():
    """Scratch arrays for :func:`moves_into` (allocate once per chunk, not per call)."""
    return (np.zeros((14, 6), dtype=np.uint64), np.zeros(14, dtype=np.int64), np.zeros(6, dtype=np.uint64),
            np.zeros(6, dtype=np.uint64), np.zeros(14, dtype=np.int64))


@jit
def generate_moves(hand, cur_kind, cur_len, cur_key, out, zv):
    """Every legal play from ``hand`` (on lead when ``cur_kind == K_NONE``) into ``out``; returns the count.

    Each play is one card set; a set of five or more cards in one suit and in sequence is a straight flush
    only (the strongest reading). Plays are grouped by kind; ``out`` should hold ``MAX_MOVES``.
    """
    return moves_into(hand, cur_kind, cur_len, cur_key, out, make_scratch(), zv)


@jit
def moves_into(hand, cur_kind, cur_len, cur_key, out, scratch, zv):
    """:func:`generate_moves` with caller-owned scratch arrays (the game kernels' form).

    Only the kinds that can beat the current play are generated: the same kind, plus bombs (ZS-6, found
    at once from a bit-parallel four-of-a-kind test) and straight flushes (from each suit's runs).
    """
    choices, n_choice, tmp, pairs, idx = scratch
    n = 0
    lead = cur_kind == K_NONE
    # per-rank counts in parallel: nibble r of `cnt` is the number of cards of rank r (0..4); the masks
    # hold bit 4r for the ranks held at least twice / three times
    cnt = rank_counts(hand)
    ge2 = ((cnt >> np.uint64(1)) | (cnt >> np.uint64(2))) & RANK_LOW_BITS
    ge3 = ((cnt >> np.uint64(2)) | (cnt & (cnt >> np.uint64(1)))) & RANK_LOW_BITS
    # singles: on lead every card; over a single (normal order) every card with a higher code (ZS-2)
    if cur_kind == K_NONE or cur_kind == K_SINGLE:
        cand = hand
        if cur_kind == K_SINGLE and zv[V_REV_STATE] == 0:
            cand = hand & ~((np.uint64(2) << np.uint64(cur_key)) - np.uint64(1))
        while cand:
            c = _low_index(cand)
            cand &= cand - np.uint64(1)
            n = _emit_known(out, n, np.uint64(1) << np.uint64(c), K_SINGLE, 1, c, cur_kind, cur_len, cur_key, zv)
    # pairs (key 4 * rank + the top suit) and three of a kind (key = rank)
    for k in range(2, 4):
        if not (lead or (k == 2 and cur_kind == K_PAIR) or (k == 3 and cur_kind == K_TRIPLE)):
            continue
        ranks = ge2 if k == 2 else ge3
        kind = K_PAIR if k == 2 else K_TRIPLE
        while ranks:
            r = _low_index(ranks) // 4
            ranks &= ranks - np.uint64(1)
            m = _subsets_of_size(_rank_bits(hand, r), k, 4 * r, tmp, 0)
            for i in range(m):
                key = 4 * r + _top_suit(tmp[i] >> np.uint64(4 * r)) if k == 2 else r
                n = _emit_known(out, n, tmp[i], kind, k, key, cur_kind, cur_len, cur_key, zv)
    # full houses (key = the triple's rank)
    if lead or cur_kind == K_FULL_HOUSE:
        triples = ge3
        while triples:
            r = _low_index(triples) // 4
            triples &= triples - np.uint64(1)
            m3 = _subsets_of_size(_rank_bits(hand, r), 3, 4 * r, tmp, 0)
            twos = ge2 & ~(np.uint64(1) << np.uint64(4 * r))
            while twos:
                q = _low_index(twos) // 4
                twos &= twos - np.uint64(1)
                m2 = _subsets_of_size(_rank_bits(hand, q), 2, 4 * q, pairs, 0)
                for i in range(m3):
                    for j in range(m2):
                        n = _emit_known(out, n, tmp[i] | pairs[j], K_FULL_HOUSE, 5, r, cur_kind, cur_len, cur_key,
                                        zv)
    # bombs (they beat everything but higher bombs and straight flushes): the ranks held four times
    fours = hand & (hand >> np.uint64(1)) & (hand >> np.uint64(2)) & (hand >> np.uint64(3)) & RANK_LOW_BITS
    while fours:
        r = _low_index(fours) // 4
        fours &= fours - np.uint64(1)
        four = np.uint64(15) << np.uint64(4 * r)
        if zv[V_BARE_FOUR] > 0:
            n = _emit_known(out, n, four, K_BOMB, 4, r, cur_kind, cur_len, cur_key, zv)
        kickers = hand & ~four
        if zv[V_KICKER_JOKER] != 1:
            kickers &= SUITED_CARDS        # the kicker: any other card (default: not a joker)
        while kickers:
            c = _low_index(kickers)
            kickers &= kickers - np.uint64(1)
            n = _emit_known(out, n, four | (np.uint64(1) << np.uint64(c)), K_BOMB, 5, r, cur_kind, cur_len, cur_key,
                            zv)
    # sequences: straights and straight flushes (1 card per rank), pair and triple straights
    if not (lead or cur_kind == K_STRAIGHT):
        # only straight flushes can beat the current play: each suit's runs of 5 (3) or more positions
        min_sf = zv[V_MIN_STRAIGHT]
        for s in range(4):
            if _runs_of(_suit_positions(hand, s), min_sf) == np.uint64(0):
                continue                             # no run long enough in this suit
            for low in range(15 - min_sf):
                play = np.uint64(0)
                for high in range(low, 14):
                    c = rank_of_position(high) * 4 + s
                    if not (hand >> np.uint64(c)) & np.uint64(1):
                        break
                    play |= np.uint64(1) << np.uint64(c)
                    if high - low >= min_sf - 1 and not ((low == 0 or low == 1) and high == 13):
                        n = _emit_known(out, n, play, K_STRAIGHT_FLUSH, high - low + 1, 4 * low, cur_kind, cur_len,
                                        cur_key, zv)
    if not (lead or cur_kind == K_STRAIGHT or cur_kind == K_PAIR_STRAIGHT or cur_kind == K_TRIPLE_STRAIGHT):
        return n
    # each position's count, then for each width the positions held that often: a run must exist first
    held1 = 0                                 # bit p set when position p has at least 1, 2, 3 cards
    held2 = 0
    held3 = 0
    for p in range(14):
        c = _popcount(_rank_bits(hand, rank_of_position(p)))
        if c >= 1:
            held1 |= 1 << p
        if c >= 2:
            held2 |= 1 << p
        if c >= 3:
            held3 |= 1 << p
    for width, min_len, kind in ((1, zv[V_MIN_STRAIGHT], K_STRAIGHT), (2, 2, K_PAIR_STRAIGHT),
                                 (3, 2, K_TRIPLE_STRAIGHT)):
        if not (lead or cur_kind == kind):
            continue
        valid = held1 if width == 1 else (held2 if width == 2 else held3)
        runs = valid
        for i in range(1, min_len):
            runs &= valid >> i
        if runs == 0:
            continue                              # no run of min_len positions
        for p in range(14):
            n_choice[p] = 0
            if (valid >> p) & 1:
                n_choice[p] = _subsets_of_size(_rank_bits(hand, rank_of_position(p)), width,
                                               4 * rank_of_position(p), choices[p], 0)
        for low in range(14):
            if not (runs >> low) & 1:
                continue
            for high in range(low + min_len - 1, 14):
                if n_choice[high] == 0:
                    break
                # an ace cannot stand at both ends, and 2..A(high) is the same set of ranks as A(low)..K
                if (low == 0 and high == 13) or (low == 1 and high == 13):
                    continue
                n = _product(choices, n_choice, low, high, width, out, n, cur_kind, cur_len, cur_key, idx, zv)
    return n


@jit
def _product(choices, n_choice, low, high, width, out, n, cur_kind, cur_len, cur_key, idx, zv):
    """Emit every combination of one choice per position in [low, high] (an odometer).

    The plays are sequences of ``width`` cards per position, so their kind and key are known without
    :func:`classify` (ZS-5): one suit makes a straight flush, the key is 4 * low (+ the top suit under the
    tie-break variants); variant 11 drops pair and triple straights through the two (position 1).
    """
    if width >= 2 and zv[V_NO_TWOS_SEQ] == 1 and low <= 1 <= high:
        return n
    L = high - low + 1
    top_base = np.uint64(4 * rank_of_position(high))
    for i in range(L):
        idx[i] = 0
    while True:
        play = np.uint64(0)
        for i in range(L):
            play |= choices[low + i, idx[i]]
        key = 4 * low
        if width == 1:
            fold = play | (play >> np.uint64(32))         # the suits present: fold the 13 rank nibbles
            fold |= fold >> np.uint64(16)
            fold |= fold >> np.uint64(8)
            fold |= fold >> np.uint64(4)
            if _popcount(fold & np.uint64(15)) == 1:
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
        n = _emit_known(out, n, play, kind, width * L, key, cur_kind, cur_len, cur_key, zv)
        i = L - 1
        while i >= 0:
            idx[i] += 1
            if idx[i] < n_choice[low + i]:
                break
            idx[i] = 0
            i -= 1
        if i < 0:
            return n


# =============================================================================================
# Whole games (ZS-1, ZS-3, ZS-4, ZS-7, ZS-8)
# =============================================================================================
# Seats are numbered clockwise; the dealer deals one card at a time starting with himself (ZS-1).
# Strategies are data: strat[seat] = (policy, bomb policy, bomb threshold, 0).


POLICY_RANDOM = 0    # uniform over the legal actions (passing included when following)
POLICY_GREEDY = 1    # go out if possible; lead the play with the lowest top card among the longest plays;
                     # follow with the cheapest play of the same kind; bombs by the bomb policy
POLICY_PLANNING = 2  # split the hand into few plays (plan_hand); play only whole plan elements, lowest
                     # first; break combinations or bomb only when an opponent is close to going out
                     # (<= threshold cards) or when the bomb leaves at most one plan element
BOMB_EARLY = 0       # bombs and straight flushes are ordinary plays (the cheapest beating play is used)
BOMB_HOLD = 1        # only to go out, or on lead when nothing else is left
BOMB_STOP = 2        # also when an opponent holds at most `threshold` cards

# per-seat record of one game
G_WIN = 0
G_SCORE = 1
G_SCORE_SQ = 2
G_HOLDS_3D = 3
G_PLACE = 4           # 1-based finishing place (the Loser is last)
G_HAS_BOMB = 5        # the dealt hand holds a four of a kind
G_HAS_SF = 6          # the dealt hand holds a straight flush (5 in a row, one suit)
G_JOKERS = 7
G_TWOS = 8
G_BOMBS_PLAYED = 9
G_CARDS_LEFT = 10     # when the Winner went out
G_NEVER_PLAYED = 11
G_FIELDS = 12

MAX_TURNS = 2000


@jit
def deal_hands(st, P, dealer, deck, hands, counts, n_deal):
    """Shuffle ``deck`` (card codes) and deal ``n_deal`` cards one at a time, clockwise from the dealer
    (ZS-1); with 3 players and 52 cards one card is left over, out of play."""
    rng.partial_shuffle(st, deck, deck.shape[0])
    for s in range(P):
        hands[s] = 0
        counts[s] = 0
    for i in range(n_deal):
        s = (dealer + i) % P
        hands[s] |= np.uint64(1) << np.uint64(deck[i])
        counts[s] += 1


@jit_inline
def _positions(m):
    """Ranks as sequence positions: from bit 4r set for rank r, bit 4p set for each position p (A(low) 2 3 ..
    K A(high)) of those ranks (an ace is at both ends)."""
    ace = (m >> np.uint64(44)) & np.uint64(1)
    two = (m >> np.uint64(48)) & np.uint64(1)
    return ((m & np.uint64(0x11111111111)) << np.uint64(8)) | ace | (two << np.uint64(4)) | (ace << np.uint64(52))


@jit_inline
def _suit_positions(hand, suit):
    """One suit's cards as sequence positions: bit 4p set when the card at position p is held."""
    return _positions((hand >> np.uint64(suit)) & RANK_LOW_BITS)


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
    for suit in range(4):
        if _runs_of(_suit_positions(hand, suit), min_len):
            return True
    return False


@jit
def has_bomb(hand):
    """A four of a kind with a fifth card to go with it (default: not a joker)."""
    fours = hand & (hand >> np.uint64(1)) & (hand >> np.uint64(2)) & (hand >> np.uint64(3)) & RANK_LOW_BITS
    return fours != np.uint64(0) and _popcount(hand & SUITED_CARDS) >= 5


@jit_inline
def _special(kind):
    return kind == K_BOMB or kind == K_STRAIGHT_FLUSH


@jit
def _top_card(play):
    return _high_index(play)


MAX_PLAN = 32


@jit
def _take_runs(rest, width, min_len, plan, n_plan):
    """Repeatedly remove the longest run (>= min_len positions; the earliest of equal ones) of ranks holding
    >= width cards, taking the lowest ``width`` suits of each rank; returns (rest, n_plan). A run cannot hold
    the ace at both ends: with every rank held the run is A(low) .. K."""
    while True:
        cnt = rank_counts(rest)
        held = ranks_with_count(cnt, 4)
        for k in range(width, 4):
            held |= ranks_with_count(cnt, k)
        pos = _positions(held)                    # bit 4p: position p holds >= width cards
        runs = pos
        length = 0
        start = 0
        while runs:                               # runs of length + 1 start at the set bits
            start = _low_index(runs) // 4
            length += 1
            runs &= pos >> np.uint64(4 * length)
        if length == 14:
            length = 13
            start = 0
        if length < min_len:
            return rest, n_plan
        elem = np.uint64(0)
        for p in range(start, start + length):
            r = rank_of_position(p)
            bits = _rank_bits(rest, r)
            for _ in range(width):
                low = bits & (~bits + np.uint64(1))
                elem |= low << np.uint64(4 * r)
                bits &= ~low
        plan[n_plan] = elem
        n_plan += 1
        rest &= ~elem


@jit
def plan_hand(hand, plan, alt, min_straight=5):
    """Split a hand into few plays: bombs (four of a kind, kicker chosen when played) kept apart; then either
    straights, triple straights and pair straights first, or no sequences; triples with the lowest spare
    pair, pairs, singles. The split with fewer elements wins (ties: sequences first). Returns the count."""
    n_best = 0
    for attempt in range(2):
        buf = plan if attempt == 0 else alt
        n_plan = 0
        rest = hand
        fours = ranks_with_count(rank_counts(hand), 4)
        while fours:
            r = _low_index(fours)                  # = 4 * rank
            fours &= fours - np.uint64(1)
            buf[n_plan] = np.uint64(15) << np.uint64(r)
            n_plan += 1
            rest &= ~buf[n_plan - 1]
        if attempt == 0:
            rest, n_plan = _take_runs(rest, 1, min_straight, buf, n_plan)
            rest, n_plan = _take_runs(rest, 3, 2, buf, n_plan)
            rest, n_plan = _take_runs(rest, 2, 3, buf, n_plan)
        n_plan = split_sets(rest, buf, n_plan, 54)   # triples (+ lowest pair), pairs, singles, jokers
        if attempt == 0:
            n_best = n_plan
        elif n_plan < n_best:
            for i in range(n_plan):
                plan[i] = alt[i]
            n_best = n_plan
    return n_best


@jit
def _planning_play(threshold, hand, n_hand, cur_kind, cur_len, cur_key, moves, scratch, min_opp, zv, plan, n_plan):
    """The planning player's play (a card mask; 0 = pass), see POLICY_PLANNING; ``plan[:n_plan]`` is
    :func:`plan_hand` of ``hand``.

    Only what the player looks at is computed: the whole hand (going out) and the whole plan elements, each a
    combination that is legal exactly when it beats the current play (a four of a kind is played as a bomb
    with our lowest single as kicker). The legal plays are generated only for the fall-backs (nothing whole
    to lead; breaking combinations). Ties go to the lowest mask, as a scan of the sorted legal plays gives.
    """
    kind, length, key = classify(hand, zv)
    if beats(cur_kind, cur_len, cur_key, kind, length, key, zv):
        return hand                          # go out
    n_fours = 0
    lowest_single = -1
    for j in range(n_plan):
        if _popcount(plan[j]) == 4 and _rank_bits(plan[j], _top_card(plan[j]) // 4) == np.uint64(15):
            n_fours += 1
        elif _popcount(plan[j]) == 1 and lowest_single < 0:
            lowest_single = _top_card(plan[j])
    lead = cur_kind == K_NONE
    best = np.uint64(0)                      # the best whole plan element (not a five-card bomb)
    best_rank = 1 << 30                      # lead: its top card; follow: its key
    bomb = np.uint64(0)                      # the lowest whole bomb allowed now
    for j in range(n_plan):
        m = plan[j]
        if _popcount(m) == 4 and lowest_single >= 0 and _rank_bits(m, _top_card(m) // 4) == np.uint64(15):
            b = m | (np.uint64(1) << np.uint64(lowest_single))
            kind, length, key = classify(b, zv)
            if kind == K_BOMB and length == 5 and beats(cur_kind, cur_len, cur_key, kind, length, key, zv):
                # a bomb is spent only when it decides the game: an opponent is close to going out, or
                # afterwards at most one plan element is left (never as a lead while other plays remain)
                if not (lead and n_plan > n_fours + 1) and (min_opp <= threshold or n_plan - 2 <= 1):
                    if bomb == np.uint64(0) or b < bomb:
                        bomb = b
        kind, length, key = classify(m, zv)
        if kind == K_BOMB and length == 5:
            continue
        if not beats(cur_kind, cur_len, cur_key, kind, length, key, zv):
            continue
        rank = _top_card(m) if lead else key
        if rank < best_rank or (rank == best_rank and m < best):
            best_rank = rank
            best = m
    if best:
        return best
    if bomb:
        return bomb
    if not lead and min_opp > threshold:
        return np.uint64(0)
    n = moves_into(hand, cur_kind, cur_len, cur_key, moves, scratch, zv)
    pick = np.uint64(0)
    if lead:
        # nothing whole to lead (only fours without a kicker are left): the lowest legal play by its top card
        low_top = 99
        for i in range(n):
            t = _top_card(moves[i])
            if t < low_top or (t == low_top and moves[i] < pick):
                low_top = t
                pick = moves[i]
        return pick
    # an opponent is close to going out: break combinations, bombs included, cheapest first
    pick_rank = 1 << 40
    for i in range(n):
        kind, length, key = classify(moves[i], zv)
        rank = (2 if kind == K_STRAIGHT_FLUSH else (1 if kind == K_BOMB else 0)) * (1 << 20) + key * 32 + length
        if rank < pick_rank or (rank == pick_rank and moves[i] < pick):
            pick_rank = rank
            pick = moves[i]
    return pick


@jit_inline
def choose(st, policy, bomb_policy, threshold, hand, n_hand, cur_kind, cur_len, cur_key, moves, n, min_opp, zv):
    """The random or greedy player's move: its index in ``moves[:n]`` (sorted by mask), or -1 to pass (the
    planning player is :func:`_planning_play`)."""
    if policy == POLICY_RANDOM:
        if cur_kind == K_NONE:
            return rng.below(st, n)
        pick = rng.below(st, n + 1)
        return pick - 1          # 0 = pass
    # greedy: going out beats everything
    for i in range(n):
        if _popcount(moves[i]) == n_hand:
            return i
    best = -1
    best_len = -1
    best_top = 99
    best_key = 1 << 30
    sp = -1
    sp_rank = 1 << 30
    for i in range(n):
        kind, length, key = classify(moves[i], zv)
        if _special(kind):
            rank = (1000 if kind == K_STRAIGHT_FLUSH else 0) + key * 20 + length
            if rank < sp_rank:
                sp_rank = rank
                sp = i
            continue
        if cur_kind == K_NONE:
            top = _top_card(moves[i])
            if length > best_len or (length == best_len and top < best_top):
                best = i
                best_len = length
                best_top = top
        else:
            if key < best_key:
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
def _multiplier(P, c, never_played, full, zv):
    """ZS-8 multipliers: 4 players x3 never played, x2 with 10 or more, else x1; 3 players x3 never played,
    x2 from 12 cards, else x1 (variant literal_17: x3 only with 17 or more cards held)."""
    if P == 3:
        if zv[V_THREE_MULT] == 1:
            return 3 if c >= 17 else (2 if c >= 12 else 1)
        return 3 if never_played else (2 if c >= 12 else 1)
    return 3 if never_played else (2 if c >= 10 else 1)


@jit
def score_first_out(P, winner, counts, rec, full, zv):
    """ZS-8, at the moment the Winner goes out: every other player pays per card held (see
    :func:`_multiplier`), and the Winner gains the total. Uses rec's G_NEVER_PLAYED."""
    gain = 0
    for s in range(P):
        if s != winner:
            c = counts[s]
            mult = _multiplier(P, c, rec[s, G_NEVER_PLAYED], full[s], zv)
            rec[s, G_SCORE] = -c * mult
            rec[s, G_CARDS_LEFT] = c
            gain += c * mult
    rec[winner, G_SCORE] = gain


@jit
def play_game(P, hands, counts, leader, strat, st, rec, moves, scratch, zv):
    """Play one game from dealt ``hands`` with ``leader`` to lead; fills ``rec[P, G_FIELDS]``.

    Returns (winner, loser). Scores are taken when the Winner goes out (ZS-8).
    """
    for s in range(P):
        for f in range(G_FIELDS):
            rec[s, f] = 0
        h = hands[s]
        rec[s, G_HOLDS_3D] = 1 if h & np.uint64(1) else 0
        rec[s, G_HAS_BOMB] = 1 if has_bomb(h) else 0
        rec[s, G_HAS_SF] = 1 if has_straight_flush(h, zv[V_MIN_STRAIGHT]) else 0
        rec[s, G_JOKERS] = _popcount(h >> np.uint64(52))
        rec[s, G_TWOS] = _popcount(_rank_bits(h, 12))
        rec[s, G_NEVER_PLAYED] = 1
    full = counts.copy()
    zv = zv.copy()              # the revolution state lives in this game's copy
    zv[V_REV_STATE] = 0
    alt = np.zeros(MAX_PLAN, dtype=np.uint64)
    plans = np.zeros((P, MAX_PLAN), dtype=np.uint64)
    plan_n = np.zeros(P, dtype=np.int64)
    plan_of = np.zeros(P, dtype=np.uint64)
    active = P
    place = 0
    winner = -1
    loser = -1
    cur_kind = K_NONE
    cur_len = 0
    cur_key = 0
    last = leader
    passes = 0
    turn = leader
    for _ in range(MAX_TURNS):
        hand = hands[turn]
        min_opp = 99
        for s in range(P):
            if s != turn and counts[s] > 0 and counts[s] < min_opp:
                min_opp = counts[s]
        play = np.uint64(0)      # 0 = pass
        if strat[turn, 0] == POLICY_PLANNING:
            if plan_of[turn] != hand or plan_n[turn] == 0:     # each seat's plan is kept until its hand changes
                plan_n[turn] = plan_hand(hand, plans[turn], alt, zv[V_MIN_STRAIGHT])
                plan_of[turn] = hand
            play = _planning_play(strat[turn, 2], hand, counts[turn], cur_kind, cur_len, cur_key, moves, scratch,
                                  min_opp, zv, plans[turn], plan_n[turn])
        else:
            n = moves_into(hand, cur_kind, cur_len, cur_key, moves, scratch, zv)
            sort_prefix(moves, n)
            pick = -1
            if n > 0:
                pick = choose(st, strat[turn, 0], strat[turn, 1], strat[turn, 2], hand, counts[turn], cur_kind,
                              cur_len, cur_key, moves, n, min_opp, zv)
            if cur_kind == K_NONE and pick < 0:
                pick = 0             # a leader must play (cannot happen with a non-empty hand)
            if pick >= 0:
                play = moves[pick]
        if play:
            kind, length, key = classify(play, zv)
            if _special(kind):
                rec[turn, G_BOMBS_PLAYED] += 1
            if zv[V_REVOLUTION] == 1 and kind == K_BOMB:
                # variant 7: a four of a kind turns the rank order over until the next one or the game's end;
                # the bomb on the table is read again in the new order
                zv[V_REV_STATE] = 1 - zv[V_REV_STATE]
                kind, length, key = classify(play, zv)
            hands[turn] = hand & ~play
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
                        score_first_out(P, turn, counts, rec, full, zv)
                if active == 1:
                    for s in range(P):
                        if counts[s] > 0:
                            loser = s
                            rec[s, G_PLACE] = P
                    if zv[V_SCORE_TIMING] == 1:
                        # variant at_end: only the Loser still holds cards, and pays the Winner
                        mult = _multiplier(P, counts[loser], rec[loser, G_NEVER_PLAYED], full[loser], zv)
                        rec[loser, G_SCORE] = -counts[loser] * mult
                        rec[loser, G_CARDS_LEFT] = counts[loser]
                        rec[winner, G_SCORE] = counts[loser] * mult
                    break
            # variant 9: the red joker single, or a pair of twos with the 2 of spades, ends the trick at once
            if zv[V_AUTO_RESTART] == 1 and ((kind == K_SINGLE and key == RED_JOKER) or
                                            (kind == K_PAIR and key == 12 * 4 + 3)):
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
            if counts[turn] == 0:      # the last player went out: the next player with cards leads
                turn = (turn + 1) % P
                while counts[turn] == 0:
                    turn = (turn + 1) % P
            continue
        turn = (turn + 1) % P
        while counts[turn] == 0:
            turn = (turn + 1) % P
    rec[winner, G_WIN] = 1
    for s in range(P):
        rec[s, G_SCORE_SQ] = rec[s, G_SCORE] * rec[s, G_SCORE]
    return winner, loser


@jit
def loser_exchange(hands, winner, loser, mode):
    """Variant 8 before a later game: the Loser gives their highest single to the Winner; then (offer_two) the
    Winner offers their two lowest cards and the Loser takes the higher, or (winner_gives_one) the Winner
    gives their lowest card. Card order is the single order (ZS-2): the code, jokers highest."""
    if mode == 0 or winner == loser:
        return
    top = 53
    while not (hands[loser] >> np.uint64(top)) & np.uint64(1):
        top -= 1
    bit = np.uint64(1) << np.uint64(top)
    hands[loser] &= ~bit
    hands[winner] |= bit
    low = 0
    while not (hands[winner] >> np.uint64(low)) & np.uint64(1):
        low += 1
    give = low
    if mode == 1:
        second = low + 1
        while not (hands[winner] >> np.uint64(second)) & np.uint64(1):
            second += 1
        give = second             # the Loser takes the higher of the two offered
    gbit = np.uint64(1) << np.uint64(give)
    hands[winner] &= ~gbit
    hands[loser] |= gbit


@jit
def first_leader(P, hands):
    """ZS-3: the holder of the 3 of diamonds (code 0) leads the first game; if it was left over (3 players,
    52 cards), the holder of the lowest card does [OURS]."""
    for c in range(54):
        for s in range(P):
            if (hands[s] >> np.uint64(c)) & np.uint64(1):
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
S_PLACES = 7          # P slots would vary; 8 slots reserved (places 1..8)
S_FEATURE = 15        # 4 features x (n, wins): bomb, straight flush, red joker, two or more twos
S_WIN_SCORE = 23      # the Winner's gain (sum and sum of squares), in the games this seat won
S_WIN_SCORE_SQ = 24
S_FIELDS = 25
SCORE_BINS = 201      # histogram of per-seat game scores, offset by 100 (clipped)
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
        feats = (rec[s, G_HAS_BOMB], rec[s, G_HAS_SF], 1 if (hands0[s] >> np.uint64(53)) & np.uint64(1) else 0,
                 1 if rec[s, G_TWOS] >= 2 else 0)
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
        hands = np.zeros(P, dtype=np.uint64)
        hands0 = np.zeros(P, dtype=np.uint64)
        counts = np.zeros(P, dtype=np.int64)
        rec = np.zeros((P, G_FIELDS), dtype=np.int64)
        moves = np.zeros(MAX_MOVES, dtype=np.uint64)
        scratch = make_scratch()
        d = deck.copy()
        st_deal = rng.new_state()
        st_play = rng.new_state()
        row = out[ci]
        for t in range(start, stop):
            rng.seed_state(st_deal, key0, key1, np.uint64(t), np.uint64(rng.STREAM_DEAL))
            rng.seed_state(st_play, key0, key1, np.uint64(t), np.uint64(rng.STREAM_STRATEGY))
            dealer = 0
            leader = -1
            for g in range(games_per_match):
                d[:] = deck
                deal_hands(st_deal, P, dealer, d, hands, counts, n_deal)
                for s in range(P):
                    hands0[s] = hands[s]
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
PAIR_STATS = 9   # n, wins A, wins B, sum dwin, sum dwin^2, score A, score B, sum dscore, sum dscore^2

FEATURE_CARD = 0     # a given card (code in `target`)
FEATURE_BOMB = 1     # one card of a four of a kind
FEATURE_SF = 2       # the middle card of a five-card straight flush


@jit
def _play_dealt(P, hands0, counts0, leader, strat, key0, key1, t, rec, moves, scratch, hands, counts, st_play, zv):
    for s in range(P):
        hands[s] = hands0[s]
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
    return (np.zeros(P, dtype=np.uint64), np.zeros(P, dtype=np.int64), np.zeros(P, dtype=np.uint64),
            np.zeros(P, dtype=np.int64), np.zeros((P, G_FIELDS), dtype=np.int64),
            np.zeros((P, G_FIELDS), dtype=np.int64), np.zeros(MAX_MOVES, dtype=np.uint64), make_scratch())


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
            _play_dealt(P, hands0, counts0, leader, strat_a, key0, key1, t, rec_a, moves, scratch, hands, counts,
                        st_play, zv)
            for s in range(P):
                mixed[s] = strat_b[s]
                _play_dealt(P, hands0, counts0, leader, mixed, key0, key1, t, rec_b, moves, scratch, hands,
                            counts, st_play, zv)
                mixed[s] = strat_a[s]
                _add_paired(row, s * PAIR_STATS, rec_a, rec_b, s)


@pjit
def card_value_chunks(chunk_ids, chunk_size, n_trials, key0, key1, P, deck, n_deal, strat, feature, target, zv,
                      out):
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
                    if (hands0[s] >> np.uint64(target)) & np.uint64(1):
                        holder = s
                        x = target
            elif feature == FEATURE_BOMB:
                for s in range(P):
                    if holder < 0:
                        for r in range(13):
                            if holder < 0 and _rank_bits(hands0[s], r) == np.uint64(15):
                                holder = s
                                x = 4 * r + rng.below(st_deal, 4)
            else:
                for s in range(P):
                    for suit in range(4):
                        run = 0
                        for p in range(14):
                            if (hands0[s] >> np.uint64(4 * rank_of_position(p) + suit)) & np.uint64(1):
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
                if (hands0[other] >> np.uint64(cc)) & np.uint64(1):
                    if k == 0:
                        y = cc
                        break
                    k -= 1
            leader = first_leader(P, hands0)
            _play_dealt(P, hands0, counts0, leader, strat, key0, key1, t, rec_a, moves, scratch, hands, counts,
                        st_play, zv)
            bx = np.uint64(1) << np.uint64(x)
            by = np.uint64(1) << np.uint64(y)
            hands0[holder] = (hands0[holder] & ~bx) | by
            hands0[other] = (hands0[other] & ~by) | bx
            leader = first_leader(P, hands0)
            _play_dealt(P, hands0, counts0, leader, strat, key0, key1, t, rec_b, moves, scratch, hands, counts,
                        st_play, zv)
            _add_paired(row, 2, rec_a, rec_b, holder)
