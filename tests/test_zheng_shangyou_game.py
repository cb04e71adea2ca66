"""Zheng Shangyou games: the kernel against the plain-Python reference on the same deals and draws."""

from __future__ import annotations

import numpy as np
import pytest

from kernels import rng
from kernels import zheng_shangyou as K
from tests.reference import zheng_shangyou as ref


def kernel_legal(hand, current):
    out = np.zeros(K.MAX_MOVES, dtype=np.uint64)
    ck, cn, ckey = current if current else (0, 0, 0)
    n = K.generate_moves(np.uint64(sum(1 << c for c in hand)), ck, cn, ckey, out)
    return [frozenset(i for i in range(54) if (int(x) >> i) & 1) for x in out[:n]]


@K.jit
def _one_game(P, deck, strat, key0, trial, dealer):
    st_deal = rng.new_state()
    st_play = rng.new_state()
    rng.seed_state(st_deal, key0, np.uint64(0), np.uint64(trial), np.uint64(0))
    rng.seed_state(st_play, key0, np.uint64(0), np.uint64(trial), np.uint64(1))
    d = deck.copy()
    hands = np.zeros(P, dtype=np.uint64)
    counts = np.zeros(P, dtype=np.int64)
    K.deal_hands(st_deal, P, dealer, d, hands, counts)
    leader = K.first_leader(P, hands)
    rec = np.zeros((P, K.G_FIELDS), dtype=np.int64)
    w, l = K.play_game(P, hands.copy(), counts, leader, strat, st_play, rec, np.zeros(K.MAX_MOVES, dtype=np.uint64),
                       K.make_scratch())
    return d, leader, w, l, rec


@pytest.mark.parametrize("strategies", [
    [(0, 0, 0)] * 4, [(1, 0, 0)] * 4, [(1, 1, 0)] * 4, [(1, 2, 3)] * 4,
    [(0, 0, 0), (1, 0, 0), (1, 1, 0), (1, 2, 5)],
])
def test_kernel_games_match_reference(strategies):
    P = 4
    deck = np.arange(54, dtype=np.int64)
    strat = np.array([list(s) + [0] for s in strategies], dtype=np.int64)
    for trial in range(60):
        d, leader, w, l, rec = _one_game(P, deck, strat, np.uint64(11), trial, 0)
        hands = ref.deal([int(c) for c in d], P, 0)
        assert leader == next(s for s in range(P) if 0 in hands[s])        # ZS-3: 3 of diamonds leads
        st = rng.new_state()
        rng.seed_state(st, np.uint64(11), np.uint64(0), np.uint64(trial), np.uint64(1))
        rw, rl, scores, places, turns = ref.play_game(hands, leader, strategies, kernel_legal,
                                                      lambda n: int(rng.below(st, n)))
        assert (w, l) == (rw, rl), trial
        assert [int(x) for x in rec[:, K.G_SCORE]] == scores, trial
        assert [int(x) for x in rec[:, K.G_PLACE]] == places, trial
        assert sum(scores) == 0


def test_deal_sizes_and_3d_leads():
    P = 4
    deck = np.arange(54, dtype=np.int64)
    strat = np.array([[1, 0, 0, 0]] * 4, dtype=np.int64)
    d, leader, w, l, rec = _one_game(P, deck, strat, np.uint64(2), 0, 0)
    hands = ref.deal([int(c) for c in d], P, 0)
    assert [len(h) for h in hands] == [14, 14, 13, 13]                    # ZS-1
    assert sorted(c for h in hands for c in h) == list(range(54))


def test_V_Z19_scoring():
    # winner seat 0; the others hold 3, 10 and 14 cards, the last never played: -3, -20, -42; Winner +65
    rec = np.zeros((4, K.G_FIELDS), dtype=np.int64)
    rec[3, K.G_NEVER_PLAYED] = 1
    K.score_first_out(4, 0, np.array([0, 3, 10, 14], dtype=np.int64), rec)
    assert rec[:, K.G_SCORE].tolist() == [65, -3, -20, -42]
