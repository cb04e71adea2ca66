"""Bismarck kernels, layout: strategy codes, variant slots (``V_*``) and player settings (``P_*``), the
contract codes of the Swedish ruleset, and the layout of the per-hand record and the count row.
"""

from __future__ import annotations

import numpy as np

# strategies (BM-9: card play, round-3 trump naming, the widow discard)
S_RANDOM = 0
S_HEURISTIC = 1
S_PIMC = 2
S_DD = 3
S_SEARCH = 4  # determinized search with heuristic rollouts (.search); no solver
S_PIMC_INFER = 5  # PIMC whose layouts are those in which the opponents' cards so far are the heuristic's (.pimc)

# variant slots (analysis/games/bismarck.py fills them from seeds/bismarck.toml)
V_SCORING = 0  # 0 original, 1 simplified                                   BM-6
V_SCHEDULE = 1  # 0 block_of_four, 1 rotate_each_hand                        BM-3, 3(c)1
V_ROUND4 = 2  # 0 blog (6/4, floor 0), 1 classic (4/6), 2 simplified (4)   3(c)2
V_ROUND3 = 3  # 0 before_deal (blind), 1 after_seeing_hand                 3(c)3
V_ROUND2 = 4  # 0 draw_from_leftover, 1 cut_pack                           3(c)4
V_WIDOW = 5  # 0 none, 1 dealer_takes_4_discards_4, 2 swedish (forehand)  3(c)5
V_MUST_TRUMP = 6  # 3(c)6
V_PENALTY = 7  # below_quota_penalty                                        3(c)7
V_LENGTH = 8  # 0: 12 hands, 1: 4 hands, 2: to a target                     BM-7
V_TARGET = 9
V_RULESET = 10  # 0 blog, 1 swedish                                          3(c)10
V_FREE_ORDER = 11  # fixed_round_order: 0 true, 1 false (the dealer picks)      3(c)9
N_VARIANTS = 12

# player settings (the ``pv`` int64 array): what the PIMC, double-dummy and search seats are told, not rules
P_PIMC_FROM = 0  # PIMC / DD play from this many cards in hand (the heuristic before); search too, rounds 1-3
P_SAMPLES = 1  # PIMC samples per decision
P_BUDGET = 2  # search player: rollouts per decision
P_EXPLORE = 3  # search player: UCB1's exploration constant x 1000, or -1: sequential halving on common layouts
N_PLAYER = 4

# Swedish Bismarck (3(c)10): forehand's contracts, as round types 0..3 so that the counts keep their layout
SPEL = 0  # no trumps, win tricks
SPADER = 1  # spades are trumps
VALFRI = 2  # forehand names trumps
PASS = 3  # no trumps, avoid tricks
SPADES = 3
ALL_ROUNDS = 15  # the round types (or contracts) still to play in a cycle, one bit each

MAX_HANDS = 120
#: The pack in the order it is shuffled from: card ``i`` (0..51, suit-major) as its code ``suit * 16 + rank``.
DECK = np.array([(i // 13) * 16 + i % 13 for i in range(52)], dtype=np.int64)

# per-hand record, per seat
H_TRICKS = 0
H_SCORE = 1
H_HCP = 2
H_TRUMPS = 3
H_VOIDS = 4
H_FIELDS = 5

# counts layout: per round type (4) and role (3), ROLE_FIELDS each
R_N = 0
R_TRICKS = 1
R_TRICKS_SQ = 2
R_SCORE = 3
R_SCORE_SQ = 4
R_MADE = 5
R_HIST = 6  # 17 bins: tricks 0..16
ROLE_FIELDS = R_HIST + 17
N_HCP = 38
# features per round type: hcp bins, trump-length bins, void-count bins, each (n, tricks, tricks^2)
FEAT_FIELDS = (N_HCP + 17 + 4) * 3
# games, per seat: outright wins, shared first places, total, total^2; then games; then score histogram
G_FIELDS = 4
SCORE_LO = -40
SCORE_BINS = 140


def counts_width():
    return 4 * 3 * ROLE_FIELDS + 4 * FEAT_FIELDS + 3 * G_FIELDS + 1 + 3 * SCORE_BINS


BASE_FEAT = 4 * 3 * ROLE_FIELDS
BASE_GAME = BASE_FEAT + 4 * FEAT_FIELDS
BASE_HIST = BASE_GAME + 3 * G_FIELDS + 1
