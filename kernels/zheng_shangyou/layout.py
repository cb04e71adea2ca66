"""Zheng Shangyou kernels, layout: the kinds of play (``K_*``), the variant slots of ``zv`` (``V_*``) and the
bit-set helpers every other part uses (rank counts, sequence positions, bombs and straight flushes in a hand).
"""

from __future__ import annotations

import numpy as np

from .._jit import jit, jit_inline
from ..bits import RANK_LOW_BITS, rank_counts
from ..bits import popcount as _popcount

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
V_LOSER_EXCHANGE = 11  # loser_exchange: 0 none, 1 offer_two, 2 winner_gives_one
V_MIN_STRAIGHT = 12  # fewest cards in a straight or straight flush: 5 (seed), 3 (ruleset legacy_wiki)
V_CURRENT = 13  # ruleset current_wiki: 1 = bombs are n of a kind alone (size, then rank), no four plus
# one and no straight-flush class (only the bomb beats another type)
V_SUIT_ORDER = 14  # suit_order: 1 suits break ties of singles and pairs (seed), 0 they do not
V_MIN_BOMB = 15  # current_wiki: the fewest cards of one rank that are a bomb (4; 3 with triple_is_bomb)
N_VARIANTS = 16


@jit_inline
def _next_seat(s, P):
    """The next seat clockwise (a compare, not a division by the run-time P)."""
    return s + 1 if s + 1 < P else 0


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
