"""Biscuits hands: the kernel against the plain-Python reference on the same deals and draws."""

from __future__ import annotations

import numpy as np
import pytest

from kernels import biscuits as K
from kernels import rng
from kernels._jit import jit
from tests.reference import biscuits as ref


def legal_for(bv):
    def legal(hand, current):
        out = np.zeros(K.MAX_MOVES, dtype=np.uint64)
        ck, ckey = current if current else (0, 0)
        n = K.generate_moves(np.uint64(sum(1 << c for c in hand)), ck, ckey, out, bv)
        return [frozenset(i for i in range(52) if (int(x) >> i) & 1) for x in out[:n]]

    return legal


@jit
def _one_hand(strat, key0, trial, starter, bv):
    """One hand (with the pass) from trial ``trial``'s deal and draws: (dealt hands, points, points, rec)."""
    # typed values, not literals: literals compiled _one_hand_in_game and the play loop once more for them
    zero = np.int64(0)
    return _one_hand_in_game(strat, key0, trial, starter, bv, np.bool_(True), zero, zero, np.int64(1 << 40))


@pytest.mark.parametrize(
    "strategies",
    [
        [(1, 1, 0, 0)] * 4,
        [(1, 2, 2, 2)] * 4,
        [(0, 0, 1, 1)] * 4,
        [(1, 1, 2, 2), (0, 0, 1, 1), (1, 2, 0, 0), (0, 1, 2, 1)],
        [(2, 3, 0, 2)] * 4,
        [(2, 3, 0, 2), (1, 1, 0, 0), (2, 1, 2, 2), (0, 3, 1, 1)],
        [(1, 4, 0, 0)] * 4,
        [(2, 5, 0, 2), (1, 4, 2, 2), (0, 5, 1, 1), (2, 4, 0, 2)],  # pair / connector passes
    ],
)
def test_hands_match_reference(strategies):
    bv = np.zeros(K.N_VARIANTS, dtype=np.int64)
    strat = np.array(strategies, dtype=np.int64)
    legal = legal_for(bv)
    for trial in range(40):
        starter = trial % 4
        dealt, p0, p1, rec = _one_hand(strat, np.uint64(3), trial, starter, bv)
        hands = [{c for c in range(52) if (int(dealt[s]) >> c) & 1} for s in range(4)]
        assert sorted(len(h) for h in hands) == [13] * 4
        st = rng.new_state()
        rng.seed_state(st, np.uint64(3), np.uint64(0), np.uint64(trial), np.uint64(1))
        points, first, second = ref.play_hand(hands, starter, strategies, legal, lambda n: int(rng.below(st, n)))
        assert [int(p0), int(p1)] == points, trial
        assert int(rec[first, K.H_OUT_FIRST]) == 1 and int(rec[second, K.H_OUT_SECOND]) == 1


@pytest.mark.parametrize(
    "prev, score0, score1, expected",
    [
        (0, 5, 9, 2),  # V-B13: N (seat 0) started, N-S behind: S starts
        (0, 9, 5, 1),  # V-B14: E-W behind: E starts
        (0, 7, 7, 1),  # V-B14: level: E starts
    ],
)
def test_V_B13_B14_starter(prev, score0, score1, expected):
    assert K.next_starter(prev, score0, score1) == expected


def test_plan_hand_matches_reference():
    from hypothesis import given, settings
    from hypothesis import strategies as st_

    bv = np.zeros(K.N_VARIANTS, dtype=np.int64)

    @settings(max_examples=300, deadline=None)
    @given(st_.sets(st_.integers(0, 51), min_size=1, max_size=13), st_.booleans())
    def check(cards, ace_low):
        bv[K.V_ACE_LOW] = int(ace_low)
        plan = np.zeros(K.MAX_PLAN, dtype=np.uint64)
        alt = np.zeros(K.MAX_PLAN, dtype=np.uint64)
        n = K.plan_hand(np.uint64(sum(1 << c for c in cards)), plan, alt, bv)
        got = sorted(frozenset(c for c in range(52) if (int(x) >> c) & 1) for x in plan[:n])
        want = sorted(ref.plan_hand(cards, {"ace_low_straight": "true" if ace_low else "false"}))
        assert sorted(map(sorted, got)) == sorted(map(sorted, want))
        assert set().union(*want) == set(cards)
        # every element but a four without a kicker is a legal combination
        for e in want:
            assert ref.classify(e, {"ace_low_straight": "true" if ace_low else "false"}) is not None or len(e) == 4

    check()


def test_planning_keeps_a_straight_together():
    plan = np.zeros(K.MAX_PLAN, dtype=np.uint64)
    alt = np.zeros(K.MAX_PLAN, dtype=np.uint64)
    bv = np.zeros(K.N_VARIANTS, dtype=np.int64)
    from analysis.games import biscuits as bi

    hand = bi.to_mask("3C 4D 5H 6S 7C KD KH")
    n = K.plan_hand(np.uint64(hand), plan, alt, bv)
    assert sorted(bi.cards_of(int(x)) for x in plan[:n]) == ["3C 4D 5H 6S 7C", "KD KH"]


@jit
def _one_hand_in_game(strat, key0, trial, starter, bv, do_pass, score0, score1, target):
    st_deal = rng.new_state()
    st_play = rng.new_state()
    rng.seed_state(st_deal, key0, np.uint64(0), np.uint64(trial), np.uint64(0))
    rng.seed_state(st_play, key0, np.uint64(0), np.uint64(trial), np.uint64(1))
    deck = np.arange(52, dtype=np.int64)
    hands = np.zeros(4, dtype=np.uint64)
    counts = np.zeros(4, dtype=np.int64)
    K.deal(st_deal, deck, hands, counts, starter)
    dealt = hands.copy()
    rec = np.zeros((4, K.H_FIELDS), dtype=np.int64)
    p0, p1 = K.play_hand_in_game(
        hands,
        counts,
        starter,
        strat,
        st_play,
        rec,
        np.zeros(K.MAX_MOVES, dtype=np.uint64),
        bv,
        do_pass,
        score0,
        score1,
        target,
        -1,
        0,
        rec[:0],
    )
    return dealt, p0, p1, rec


MIXED = [(1, 1, 2, 2), (0, 0, 1, 1), (2, 3, 0, 2), (0, 1, 2, 1)]


@pytest.mark.parametrize(
    "variants, do_pass, scores",
    [
        ({"pass_locks_out": "true"}, True, (0, 0)),  # 2(c)1: a pass takes you out of the trick
        ({}, False, (0, 0)),  # 2(c)6: no partner pass (a later hand)
        ({"game_end_check": "immediate"}, True, (27, 24)),  # 2(c)9: the hand stops when a team reaches 30
        ({"pass_locks_out": "true", "game_end_check": "immediate"}, False, (29, 29)),
    ],
)
def test_play_variants_match_reference(variants, do_pass, scores):
    from analysis.games import biscuits as bi

    bv = bi.variant_array(variants)
    legal = legal_for(bv)
    stopped = 0
    for strategies in ([(0, 0, 1, 1)] * 4, MIXED, [(2, 3, 0, 2)] * 4):
        strat = np.array(strategies, dtype=np.int64)
        for trial in range(25):
            starter = trial % 4
            dealt, p0, p1, rec = _one_hand_in_game(
                strat, np.uint64(5), trial, starter, bv, do_pass, scores[0], scores[1], 30
            )
            hands = [{c for c in range(52) if (int(dealt[s]) >> c) & 1} for s in range(4)]
            st = rng.new_state()
            rng.seed_state(st, np.uint64(5), np.uint64(0), np.uint64(trial), np.uint64(1))
            points, first, second = ref.play_hand(
                hands, starter, strategies, legal, lambda n: int(rng.below(st, n)), variants, do_pass, scores, 30
            )
            assert [int(p0), int(p1)] == points, (strategies, trial)
            assert int(rec[first, K.H_OUT_FIRST]) == 1
            if second is None:
                stopped += 1
                assert rec[:, K.H_OUT_SECOND].sum() == 0
                assert max(scores[0] + points[0], scores[1] + points[1]) >= 30
            else:
                assert int(rec[second, K.H_OUT_SECOND]) == 1
    if variants.get("game_end_check") == "immediate":
        assert stopped > 0  # the early stop did happen in some hands


def test_pass_locks_out_changes_play():
    """The lock-out rule is not a no-op: some hands end differently on the same deals and draws."""
    strat = np.array([(1, 1, 0, 0)] * 4, dtype=np.int64)
    base = np.zeros(K.N_VARIANTS, dtype=np.int64)
    locks = base.copy()
    locks[K.V_PASS_LOCKS_OUT] = 1
    differ = sum(
        _one_hand(strat, np.uint64(9), t, t % 4, base)[1:3] != _one_hand(strat, np.uint64(9), t, t % 4, locks)[1:3]
        for t in range(60)
    )
    assert differ > 0


def _next_starters(rule, history):
    bv = np.zeros(K.N_VARIANTS, dtype=np.int64)
    bv[K.V_STARTER_RULE] = rule
    last = np.array([-1, -1], dtype=np.int64)
    prev = history[0][0]
    last[prev % 2] = prev
    out = []
    for _, s0, s1 in history:
        prev = int(K.next_starter_rule(prev, s0, s1, last, bv))
        out.append(prev)
    return out


def test_starter_rule_trailing_team_alternates():
    """2(c)5: N starts; N-S behind -> S; E-W behind -> W, then E; N-S behind again: BI-3 gives S (clockwise
    from E), the alternating reading gives N (S started N-S's last hand)."""
    history = [(0, 5, 9), (0, 9, 5), (0, 9, 5), (0, 5, 9)]
    assert _next_starters(0, history) == [2, 3, 1, 2]
    assert _next_starters(1, history) == [2, 3, 1, 0]


def test_pair_and_connector_passes():
    """The named pass policies (BI-13 decision 1): a pair, suited connectors, and their fall-backs."""
    from analysis.games import biscuits as bi

    def give(pol, text):
        return bi.cards_of(
            int(
                K._pair_pass(np.uint64(bi.to_mask(text)))
                if pol == "pair"
                else K._connectors_pass(np.uint64(bi.to_mask(text)))
            )
        )

    assert give("pair", "3C 7D 7H 9S 9C 9H AS") == bi.cards_of(bi.to_mask("7D 7H"))
    assert give("pair", "3C 7D 8H 9S") == bi.cards_of(bi.to_mask("3C 7D"))  # no pair: the two lowest
    assert give("connectors", "2C 5H 6H 6D 7D JS QS") == bi.cards_of(bi.to_mask("5H 6H"))
    assert give("connectors", "2C 5H 7H 9D JS") == bi.cards_of(bi.to_mask("2C 5H"))  # none: the two lowest


def test_the_starters_team_net_is_its_points_against_the_others():
    """starter_team_net (BI-3: a hand's points of the Starter's team minus the other team's): on one hand it is
    the recorded hand's (the record of --seed S is trial 0 of simulate --seed S); over many hands its sum and sum
    of squares are those of the hands' nets, each hand (trial t) recorded on its own."""
    from analysis import driver
    from analysis.games import biscuits as bi
    from analysis.games.biscuits_review import _record, record

    def net(doc) -> int:
        pts = doc["result"]["points"]
        us, them = ("NS", "EW") if doc["starter"] % 2 == 0 else ("EW", "NS")
        return pts[us] - pts[them]

    for seed in range(1, 5):
        t = driver.run(bi.simulation_spec(unit="hand"), trials=1, seed=seed, progress=False).table
        assert t.loc[t.measure == "starter_team_net", "estimate"].item() == net(record(seed=seed))
    nets = [net(_record(7, trial, None, None, None)) for trial in range(24)]
    t = driver.run(bi.simulation_spec(unit="hand"), trials=24, seed=7, chunk_size=5, progress=False).table
    row = t[t.measure == "starter_team_net"].iloc[0]
    assert (row.trials, row.total, row.total_sq) == (24, sum(nets), sum(n * n for n in nets))
    assert min(nets) < 0 < max(nets)  # hands the Starter's team won and lost
