"""Bismarck hands: the kernel against the plain-Python reference on the same deals and draws (BM-2 .. BM-6),
the deal itself, the widow exchange, and whole games."""

from __future__ import annotations

import numpy as np
import pytest

from analysis.driver import run
from analysis.games import bismarck as B
from kernels import bismarck as K
from kernels import rng
from tests.reference import bismarck as ref

NAMES = {K.S_RANDOM: "random", K.S_HEURISTIC: "heuristic"}


@K.jit
def _one_hand(strat, key0, trial, rtype, dealer, bv):
    st_deal = rng.new_state()
    rng.seed_state(st_deal, key0, np.uint64(0), np.uint64(trial), np.uint64(0))
    st_plays = np.zeros((3, rng.STATE_SIZE), dtype=np.uint64)
    for s in range(3):
        rng.seed_state(st_plays[s], key0, np.uint64(0), np.uint64(trial), np.uint64(1 + s))
    deck = np.arange(52, dtype=np.int64)
    hands = np.zeros(4, dtype=np.uint64)
    dout = np.zeros(1, dtype=np.uint64)
    trump, known = K.deal_hand(st_deal, deck, hands, rtype, dealer, bv, strat, st_plays, dout)
    dealt = hands.copy()
    ttk, ttg, bufs, ways, scratch = K.new_solver_state(strat)
    rec = np.zeros((3, K.H_FIELDS), dtype=np.int64)
    trace = np.zeros(56, dtype=np.int64)
    # the players' streams as they stand after the deal, for the reference to draw from
    streams = st_plays.copy()
    K.play_hand(hands, dealer, rtype, trump, known, dout[0], strat, bv, st_plays, ttk, ttg, bufs, ways, scratch, rec,
                trace)
    return dealt, trump, known, dout[0], rec, trace, streams


def _set(mask):
    return {c for c in range(64) if (int(mask) >> c) & 1}


@pytest.mark.parametrize("variants", [{}, {"must_trump_when_void": "true"},
                                      {"scoring": "simplified"}, {"round4_start": "classic"},
                                      {"round3_trump_timing": "after_seeing_hand"},
                                      {"round2_trump_method": "cut_pack"}])
@pytest.mark.parametrize("seats", [(1, 1, 1), (0, 0, 0), (1, 0, 1), (0, 1, 1)])
def test_hands_match_reference(seats, variants):
    bv = B.variant_array(variants)
    strat = np.array(seats, dtype=np.int64)
    for trial in range(24):
        rtype = trial % 4
        dealer = trial % 3
        dealt, trump, known, dout, rec, trace, streams = _one_hand(strat, np.uint64(11), trial, rtype, dealer, bv)
        hands = [_set(dealt[s]) for s in range(3)]
        assert [len(h) for h in hands] == [16, 16, 16]
        assert not (hands[0] & hands[1]) and not (hands[1] & hands[2]) and not (hands[0] & hands[2])
        if rtype in (0, 3):
            assert trump == -1
        else:
            assert 0 <= trump < 4
        if rtype == 1 and variants.get("round2_trump_method", "draw_from_leftover") == "draw_from_leftover":
            # BM-5: the indicator is one of the 4 leftover cards, out of play, and it names trumps
            (ind,) = _set(known)
            assert ind >> 4 == trump and all(ind not in h for h in hands)
        else:
            assert known == 0

        def below(seat, n, _st=streams):
            return int(rng.below(_st[seat], n))

        tricks, scores, order = ref.play_hand(hands, dealer, rtype + 1, trump, [NAMES[s] for s in seats], below,
                                              known_out=_set(known), variants=variants)
        assert list(trace[:48]) == order, trial
        assert list(rec[:, K.H_TRICKS]) == tricks
        assert list(rec[:, K.H_SCORE]) == scores
        assert sum(tricks) == 16


def test_widow_exchange_dealer_keeps_16():
    bv = B.variant_array({"widow_exchange": "dealer_takes_4_discards_4"})
    for trial in range(20):
        rtype = trial % 4
        dealt, trump, known, dout, rec, trace, _ = _one_hand(np.array([1, 0, 1]), np.uint64(5), trial, rtype, 0, bv)
        hands = [_set(dealt[s]) for s in range(3)]
        assert [len(h) for h in hands] == [16, 16, 16]
        thrown = _set(dout)
        assert len(thrown) == (3 if rtype == 1 else 4)      # round 2: the indicator is out, 3 cards are left
        assert not thrown & set().union(*hands) and not thrown & _set(known)
        assert sum(rec[:, K.H_TRICKS]) == 16


def test_heuristic_widow_discards_low_side_cards_and_high_in_misere():
    st = rng.new_state()
    h = np.uint64(B.to_mask("2C 3C AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S AH 4D 5D 6D 7D"))
    kept, out = K.discard(h, 4, 3, False, K.S_HEURISTIC, st)
    assert B.cards_of(int(out)) == "2C 3C 4D 5D"
    kept, out = K.discard(h, 4, -1, True, K.S_HEURISTIC, st)
    assert set(B.cards_of(int(out)).split()) == {"AS", "AH", "KS", "QS"}


def test_game_totals_and_roles():
    spec = B.simulation_spec(strategies=["heuristic"])
    r = run(spec, trials=60, seed=3, progress=False)
    t = r.table
    # every game: each of the three seats deals each round type once (BM-3, 3(c)1), so every (round, role)
    # cell holds 3 hands a game
    n = t[(t.measure == "tricks")].trials
    assert set(n) == {180}
    won = t[t.measure == "game_won"].successes.sum() + t[t.measure == "game_shared_first"].successes.sum()
    assert won >= 60
    # the tricks of the three roles add up to 16 in every round type
    for rnd in range(1, 5):
        m = t[(t.measure == "tricks") & (t["round"] == rnd)]
        assert abs(m.total.sum() - 16 * 180) < 1e-9


def test_unit_hand_counts_and_reproducible():
    a = run(B.simulation_spec(unit="hand", round=4, strategies=["random"]), trials=3000, seed=9, progress=False)
    b = run(B.simulation_spec(unit="hand", round=4, strategies=["random"]), trials=3000, seed=9, progress=False,
            chunk_size=700)
    pd_a, pd_b = a.table, b.table
    assert pd_a.equals(pd_b)
    tricks = pd_a[pd_a.measure == "tricks"]
    assert list(tricks.role) == ["dealer", "left", "right"] and set(tricks.trials) == {3000}
    assert abs(tricks.total.sum() - 16 * 3000) < 1e-9


def test_target_game_ends_at_target():
    spec = B.simulation_spec(variants={"game_length": "target", "target_score": "10"}, strategies=["heuristic"])
    t = run(spec, trials=40, seed=1, progress=False).table
    tot = t[t.measure == "game_total"]
    # the game stops after the first hand in which someone reaches 10: before it every total was at most 9
    # and one hand adds at most 12 (16 - 4) to a seat, so the three totals sum to between 10 and 3 * 21
    assert set(tot.trials) == {40}
    assert 10 <= tot.estimate.sum() <= 63
    hands = t[(t.measure == "tricks") & (t.role == "dealer")].trials.sum()
    assert hands < 12 * 40


@pytest.mark.parametrize("extra, fragment", [
    (["--unit", "hand", "--round", "5"], "bad --round 5"),
    (["--round", "2"], "--round goes with --unit hand"),
    (["--unit", "deal"], "accepted: game, hand"),
    (["--strategy", "3=pimc"], "seats are 0..2"),
    (["--strategy", "clever"], "unknown strategy 'clever'"),
    (["--variant", "ruleset=swedish"], "not implemented yet"),
    (["--variant", "round4_start=huge"], "accepted: blog, classic, simplified"),
    (["--players", "4"], "exactly 3 players"),
])
def test_simulate_bad_input(extra, fragment, capsys, tmp_path):
    from analysis.cli import main
    out = tmp_path / "x.json"
    assert main(["simulate", "bismarck", "--trials", "5", "--quiet", "--out", str(out)] + extra) == 2
    err = capsys.readouterr().err
    assert fragment in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert not out.exists()


def test_simulate_json_rows(capsys):
    import json
    from analysis.cli import main
    assert main(["simulate", "bismarck", "--unit", "hand", "--round", "2", "--trials", "300", "--quiet",
                 "--strategy", "0=random", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["meta"]["strategies"] == ["random", "heuristic", "heuristic"] and doc["meta"]["round"] == 2
    made = [r for r in doc["rows"] if r["measure"] == "made_quota"]
    assert [r["role"] for r in made] == ["dealer", "left", "right"] and all(r["trials"] == 300 for r in made)


@K.jit
def _hcp(hs, out):
    for i in range(hs.shape[0]):
        out[i] = K.hcp(hs[i])


def test_high_card_points_count_each_honour():
    """The branch-free hcp (J Q K A = 1 2 3 4; the report's ``hcp`` feature, a measure and not a rule) against a
    count card by card."""
    r = np.random.default_rng(3)
    codes = [s * 16 + k for s in range(4) for k in range(13)]
    hs = np.array([sum(1 << codes[i] for i in r.choice(52, n, replace=False))
                   for n in (0, 1, 5, 13, 16, 20, 52) for _ in range(20)], dtype=np.uint64)
    out = np.zeros(len(hs), dtype=np.int64)
    _hcp(hs, out)
    points = {"J": 1, "Q": 2, "K": 3, "A": 4}
    for h, got in zip(hs, out):
        cards = B.cards_of(int(h)).split()
        assert got == sum(points.get(c[0], 0) for c in cards)
