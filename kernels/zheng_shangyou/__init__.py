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

The package by concern: :mod:`.layout` (kinds, variant slots, hand bit sets), :mod:`.classifier` (ZS-4 .. ZS-6),
:mod:`.moves` (the move generator), :mod:`.leads` (the random leader without a list), :mod:`.players` (deal,
planner, policies), :mod:`.game` (one game, the simulation kernel), :mod:`.paired` (paired experiments), :mod:`.advisor` (a position's actions played on). This
module re-exports what the analysis layer, the tests and the benchmarks use.
"""

from __future__ import annotations

from ..advise import A_FIELDS, A_LAST, A_SAMPLES, A_SCORE, A_SCORE_SQ, A_WIN, advise_width
from .advisor import (
    P_CUR_KEY,
    P_CUR_KIND,
    P_CUR_LEN,
    P_FIELDS,
    P_LAST,
    P_PASSES,
    P_PLACE,
    P_REV,
    P_WINNER,
    advise_chunks,
    advise_exchange_chunks,
    sample_layout,
)
from .classifier import beats, classify
from .game import (
    M_GAMES,
    S_FEATURE,
    S_FIELDS,
    S_HOLDS_3D,
    S_PLACES,
    S_SCORE,
    S_SCORE_3D,
    S_SCORE_SQ,
    S_SCORE_SQ_3D,
    S_WIN,
    S_WIN_3D,
    S_WIN_SCORE,
    S_WIN_SCORE_SQ,
    SCORE_BINS,
    counts_width,
    first_leader,
    loser_exchange,
    play_game,
    play_on,
    record_game,
    score_first_out,
    simulate_chunks,
)
from .layout import (
    K_BOMB,
    K_FULL_HOUSE,
    K_NONE,
    K_PAIR,
    K_PAIR_STRAIGHT,
    K_STRAIGHT,
    K_STRAIGHT_FLUSH,
    K_TRIPLE,
    K_TRIPLE_STRAIGHT,
    KIND_NAMES,
    MAX_MOVES,
    N_VARIANTS,
    V_AUTO_RESTART,
    V_BARE_FOUR,
    V_CURRENT,
    V_KICKER_JOKER,
    V_LATER_LEADER,
    V_LOSER_EXCHANGE,
    V_MIN_BOMB,
    V_MIN_STRAIGHT,
    V_NO_TWOS_SEQ,
    V_PAIR_STRAIGHT_TIE,
    V_REVOLUTION,
    V_SCORE_TIMING,
    V_SF_VS_SF,
    V_STRAIGHT_SUIT,
    V_SUIT_ORDER,
    V_THREE_MULT,
)
from .leads import follow_same_kind, follow_straight, lead_plays
from .moves import _no_bomb_or_straight_flush, generate_moves, make_scratch, moves_into, new_moves
from .paired import PAIR_STATS, card_value_chunks, compare_chunks
from .players import (
    BOMB_EARLY,
    BOMB_HOLD,
    BOMB_STOP,
    G_FIELDS,
    G_NEVER_PLAYED,
    G_PLACE,
    G_SCORE,
    MAX_PLAN,
    MAX_TURNS,
    POLICY_GREEDY,
    POLICY_PLANNING,
    POLICY_RANDOM,
    deal_hands,
    plan_hand,
)

__all__ = [
    "MAX_TURNS",
    "A_FIELDS",
    "A_LAST",
    "A_SAMPLES",
    "A_SCORE",
    "A_SCORE_SQ",
    "A_WIN",
    "P_CUR_KEY",
    "P_CUR_KIND",
    "P_CUR_LEN",
    "P_FIELDS",
    "P_LAST",
    "P_PASSES",
    "P_PLACE",
    "P_REV",
    "P_WINNER",
    "advise_chunks",
    "advise_exchange_chunks",
    "advise_width",
    "sample_layout",
    "play_on",
    "record_game",
    "BOMB_EARLY",
    "BOMB_HOLD",
    "BOMB_STOP",
    "G_FIELDS",
    "G_NEVER_PLAYED",
    "G_PLACE",
    "G_SCORE",
    "KIND_NAMES",
    "K_BOMB",
    "K_FULL_HOUSE",
    "K_NONE",
    "K_PAIR",
    "K_PAIR_STRAIGHT",
    "K_STRAIGHT",
    "K_STRAIGHT_FLUSH",
    "K_TRIPLE",
    "K_TRIPLE_STRAIGHT",
    "MAX_MOVES",
    "MAX_PLAN",
    "M_GAMES",
    "N_VARIANTS",
    "PAIR_STATS",
    "POLICY_GREEDY",
    "POLICY_PLANNING",
    "POLICY_RANDOM",
    "SCORE_BINS",
    "S_FEATURE",
    "S_FIELDS",
    "S_HOLDS_3D",
    "S_PLACES",
    "S_SCORE",
    "S_SCORE_3D",
    "S_SCORE_SQ",
    "S_SCORE_SQ_3D",
    "S_WIN",
    "S_WIN_3D",
    "S_WIN_SCORE",
    "S_WIN_SCORE_SQ",
    "V_AUTO_RESTART",
    "V_BARE_FOUR",
    "V_CURRENT",
    "V_KICKER_JOKER",
    "V_LATER_LEADER",
    "V_LOSER_EXCHANGE",
    "V_MIN_BOMB",
    "V_MIN_STRAIGHT",
    "V_NO_TWOS_SEQ",
    "V_PAIR_STRAIGHT_TIE",
    "V_REVOLUTION",
    "V_SCORE_TIMING",
    "V_SF_VS_SF",
    "V_STRAIGHT_SUIT",
    "V_SUIT_ORDER",
    "V_THREE_MULT",
    "_no_bomb_or_straight_flush",
    "beats",
    "card_value_chunks",
    "classify",
    "compare_chunks",
    "counts_width",
    "deal_hands",
    "first_leader",
    "follow_same_kind",
    "follow_straight",
    "generate_moves",
    "lead_plays",
    "loser_exchange",
    "make_scratch",
    "moves_into",
    "new_moves",
    "plan_hand",
    "play_game",
    "score_first_out",
    "simulate_chunks",
]
