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
see ``V_*`` in :mod:`.layout`; every one is a named variant of rules.md 1(c).

The package by concern: :mod:`.layout` (slots and fields), :mod:`.evaluator` (BB-12), :mod:`.deal` (the
scalar deal, BB-1 .. BB-11), :mod:`.lanes` (eight deals at a time), :mod:`.simulate` (the chunk kernels),
:mod:`.decisions` (decision values, comparisons, odds). This module re-exports what the analysis layer, the
tests and the benchmarks use.
"""

from __future__ import annotations

from .deal import deal_decks
from .decisions import (
    DEC_FLINGO,
    DEC_STATS,
    DEC_SWAP,
    DEC_TUCK,
    ODDS_FIELDS,
    compare_chunks,
    decision_chunks,
    decision_counts,
    odds_actions_chunks,
    odds_chunks,
)
from .evaluator import RANK_PACK, bisk_key, exact_type_counts
from .lanes import (
    LANES,
    MAX_LANE_WORDS,
    _lanes_deal,
    eval_batch,
    eval_masks,
    lane_decks,
    lanes_apply,
    play_fixed,
    trace_deal,
)
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
    JINGO_SHAPE,
    N_BUCKETS,
    N_FIT,
    N_FLAGS,
    N_REL,
    N_VARIANTS,
    R_BUCKET_FLINGO,
    R_BUCKET_SWAP,
    R_BUCKET_TUCK,
    R_FINAL_TYPE,
    R_FLINGO,
    R_FREE_CHOICE,
    R_FREE_FLINGO,
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
    SEAT_FIELDS,
    V_BEDTIME,
    V_DEPTH,
    V_EXACT_TIE,
    V_JINGO_RULE,
    V_PLACEMENT,
    V_REWARD_CHAIN,
    V_SPLIT,
    V_SUIT_ORDER,
    V_SWAP_OPTIONAL,
    V_TUCK_RULE,
    n_counts,
)
from .simulate import _simulate_range, simulate_chunks, simulate_range_scalar, simulate_scalar_chunks

__all__ = [
    "C_FREE_FLINGO_WIN",
    "C_FREE_JINGO_WIN",
    "C_JACK_WIN",
    "C_OB_JACK",
    "C_OB_JACK_WIN",
    "C_OB_WIN",
    "C_TYPE",
    "C_TYPE_WIN",
    "DEC_FLINGO",
    "DEC_STATS",
    "DEC_SWAP",
    "DEC_TUCK",
    "D_BINGO_PHASE",
    "D_DEALS",
    "D_JINGO_PLAYERS",
    "D_NO_WINNER",
    "D_REDEALS",
    "D_SHARED",
    "D_SWAPS",
    "D_WET_JACK",
    "JACK",
    "JINGO_SHAPE",
    "LANES",
    "MAX_LANE_WORDS",
    "N_BUCKETS",
    "N_FIT",
    "N_FLAGS",
    "N_REL",
    "N_VARIANTS",
    "ODDS_FIELDS",
    "RANK_PACK",
    "R_BUCKET_FLINGO",
    "R_BUCKET_SWAP",
    "R_BUCKET_TUCK",
    "R_FINAL_TYPE",
    "R_FLINGO",
    "R_FREE_CHOICE",
    "R_FREE_FLINGO",
    "R_JINGO",
    "R_OPENING_BISKO",
    "R_PTR",
    "R_REWARD",
    "R_SOLE_WIN",
    "R_SWAPPED",
    "R_SWAP_INIT",
    "R_TUCKED_JINGO",
    "R_WIN",
    "R_WIN_SQ",
    "SEAT_FIELDS",
    "V_BEDTIME",
    "V_DEPTH",
    "V_EXACT_TIE",
    "V_JINGO_RULE",
    "V_PLACEMENT",
    "V_REWARD_CHAIN",
    "V_SPLIT",
    "V_SUIT_ORDER",
    "V_SWAP_OPTIONAL",
    "V_TUCK_RULE",
    "_lanes_deal",
    "_simulate_range",
    "bisk_key",
    "compare_chunks",
    "deal_decks",
    "decision_chunks",
    "decision_counts",
    "eval_batch",
    "eval_masks",
    "exact_type_counts",
    "lane_decks",
    "lanes_apply",
    "n_counts",
    "odds_chunks",
    "odds_actions_chunks",
    "play_fixed",
    "simulate_chunks",
    "simulate_range_scalar",
    "simulate_scalar_chunks",
    "trace_deal",
]
