"""Biscuits kernels: combination classifier (BI-6), beating rule (BI-7), move generator.

Card encoding: ``card = rank * 4 + suit`` with ``rank`` ascending ``0 = '2' .. 12 = 'A'`` (BI-2) and ``suit``
``0 = C, 1 = D, 2 = H, 3 = S`` -- suits are not ranked in Biscuits; the index only names the suit. A hand or
a play is a ``uint64`` bit set of codes.

A play is ``(kind, key)``: ``kind // 10`` is its group (0 Plain, 1 Fancy) and ``kind % 10`` its type inside
the group (Plain: 1 single, 2 pair, 3 triple; Fancy: 1 straight, 2 flush, 3 full house, 4 quad, 5 straight
flush). Keys: the rank (singles, pairs, triples), the highest rank (straights, straight flushes), the rank of
the triple or the four (full house, quad), the top card's rank (flush; variant ``lexicographic``: all five
ranks, highest first, 4 bits each).

The package by concern: :mod:`.combinations` (BI-6, BI-7, moves), :mod:`.players`, :mod:`.hand` (a hand, a
game), :mod:`.simulate` (the kernels the analysis layer runs). This module re-exports what the analysis layer,
the tests and the benchmarks use.
"""

from __future__ import annotations

from ..advise import advise_width
from .combinations import (
    K_NONE,
    K_STRAIGHT,
    KIND_NAMES,
    MAX_MOVES,
    N_VARIANTS,
    V_ACE_LOW,
    V_END_IMMEDIATE,
    V_FLUSH_COMPARE,
    V_PASS_FIRST_ONLY,
    V_PASS_LOCKS_OUT,
    V_STARTER_RULE,
    beats,
    classify,
    generate_moves,
)
from .hand import advise_pass_chunks, deal, next_starter, next_starter_rule, play_hand_in_game
from .players import (
    ACT_LOWEST,
    ACT_NEVER,
    ACT_RANDOM,
    H_FIELDS,
    H_OUT_FIRST,
    H_OUT_SECOND,
    MAX_HCP,
    MAX_PLAN,
    PASS_CONNECTORS,
    PASS_KEEP_COMBOS,
    PASS_LOWEST,
    PASS_PAIR,
    PASS_RANDOM,
    PASS_SINGLES,
    PLAY_GREEDY,
    PLAY_PLANNING,
    PLAY_RANDOM,
    _connectors_pass,
    _pair_pass,
    plan_hand,
)
from .simulate import (
    C_FIELDS,
    C_OUT_FIRST,
    C_OUT_FIRST_AS_STARTER,
    C_POINTS,
    C_POINTS_SQ,
    C_STARTER,
    M_FIELDS,
    M_GAMES,
    M_HANDS,
    PAIR_STATS,
    T_FIELDS,
    T_GAMES_WON,
    compare_chunks,
    counts_width,
    simulate_chunks,
    win_table_chunks,
)

__all__ = [
    "advise_pass_chunks",
    "advise_width",
    "ACT_LOWEST",
    "ACT_NEVER",
    "ACT_RANDOM",
    "C_FIELDS",
    "C_OUT_FIRST",
    "C_OUT_FIRST_AS_STARTER",
    "C_POINTS",
    "C_POINTS_SQ",
    "C_STARTER",
    "H_FIELDS",
    "H_OUT_FIRST",
    "H_OUT_SECOND",
    "KIND_NAMES",
    "K_NONE",
    "K_STRAIGHT",
    "MAX_HCP",
    "MAX_MOVES",
    "MAX_PLAN",
    "M_FIELDS",
    "M_GAMES",
    "M_HANDS",
    "N_VARIANTS",
    "PAIR_STATS",
    "PASS_CONNECTORS",
    "PASS_KEEP_COMBOS",
    "PASS_LOWEST",
    "PASS_PAIR",
    "PASS_RANDOM",
    "PASS_SINGLES",
    "PLAY_GREEDY",
    "PLAY_PLANNING",
    "PLAY_RANDOM",
    "T_FIELDS",
    "T_GAMES_WON",
    "V_ACE_LOW",
    "V_END_IMMEDIATE",
    "V_FLUSH_COMPARE",
    "V_PASS_FIRST_ONLY",
    "V_PASS_LOCKS_OUT",
    "V_STARTER_RULE",
    "_connectors_pass",
    "_pair_pass",
    "beats",
    "classify",
    "compare_chunks",
    "counts_width",
    "deal",
    "generate_moves",
    "next_starter",
    "next_starter_rule",
    "plan_hand",
    "play_hand_in_game",
    "simulate_chunks",
    "win_table_chunks",
]
