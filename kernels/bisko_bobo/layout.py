"""Bisko-Bobo kernels: the layout every part shares -- variant slots (rules.md 1(c)), the per-seat record
and the count row's fields, the strategy tables' shapes (BB-15).
"""

from __future__ import annotations

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
