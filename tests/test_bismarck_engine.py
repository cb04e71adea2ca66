"""Bismarck hands: the kernel against the plain-Python reference on the same deals and draws (BM-2 .. BM-6),
the deal itself, the widow exchange, and whole games."""

from __future__ import annotations

import numpy as np
import pytest

from analysis.driver import run
from analysis.games import bismarck as B
from kernels import bismarck as K
from kernels import rng
from kernels._jit import jit
from tests.reference import bismarck as ref
from tests.same_counts import assert_same_counts

NAMES = {K.S_RANDOM: "random", K.S_HEURISTIC: "heuristic"}


@jit
def _one_round(strat, key0, trial, rtype, remaining, dealer, bv):
    """Deal (K.deal_round; ``rtype < 0``: the round type chosen among ``remaining``) and play one hand; returns the
    round type, the dealt hands, trumps, the public and private cards out, the 4 leftover cards, the record, the
    trace and the players' streams as they stand after the deal (for the reference to draw from)."""
    st_deal = rng.new_state()
    rng.seed_state(st_deal, key0, np.uint64(0), np.uint64(trial), np.uint64(0))
    st_plays = np.zeros((3, rng.STATE_SIZE), dtype=np.uint64)
    for s in range(3):
        rng.seed_state(st_plays[s], key0, np.uint64(0), np.uint64(trial), np.uint64(1 + s))
    deck = np.arange(52, dtype=np.int64)
    hands = np.zeros(4, dtype=np.uint64)
    dout = np.zeros(1, dtype=np.uint64)
    rtype, trump, known = K.deal_round(st_deal, deck, hands, rtype, remaining, dealer, bv, strat, st_plays, dout)
    dealt = hands.copy()
    ttk, ttg, bufs, ways, scratch = K.new_solver_state(strat)
    pv = np.zeros(K.N_PLAYER, dtype=np.int64)  # random and heuristic seats: no solver settings
    rec = np.zeros((3, K.H_FIELDS), dtype=np.int64)
    trace = np.zeros(56, dtype=np.int64)
    streams = st_plays.copy()
    K.play_hand_plain(
        hands, dealer, rtype, trump, known, dout[0], strat, pv, bv, st_plays, ttk, ttg, bufs, ways, scratch, rec, trace
    )
    return rtype, dealt, trump, known, dout[0], deck[48:52].copy(), rec, trace, streams


def _one_hand(strat, key0, trial, rtype, dealer, bv):
    """One hand of the given round type: (dealt, trump, known, discards, rec, trace, streams)."""
    _, dealt, trump, known, dout, _, rec, trace, streams = _one_round(
        strat, key0, trial, rtype, K.ALL_ROUNDS, dealer, bv
    )
    return dealt, trump, known, dout, rec, trace, streams


def _set(mask):
    return {c for c in range(64) if (int(mask) >> c) & 1}


@pytest.mark.parametrize(
    "variants",
    [
        {},
        {"must_trump_when_void": "true"},
        {"scoring": "simplified"},
        {"round4_start": "classic"},
        {"round3_trump_timing": "after_seeing_hand"},
        {"round2_trump_method": "cut_pack"},
    ],
)
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

        tricks, scores, order = ref.play_hand(
            hands, dealer, rtype + 1, trump, [NAMES[s] for s in seats], below, known_out=_set(known), variants=variants
        )
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
        assert len(thrown) == (3 if rtype == 1 else 4)  # round 2: the indicator is out, 3 cards are left
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
    b = run(
        B.simulation_spec(unit="hand", round=4, strategies=["random"]),
        trials=3000,
        seed=9,
        progress=False,
        chunk_size=700,
    )
    pd_a, pd_b = a.table, b.table
    assert_same_counts(pd_a, pd_b)
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


@pytest.mark.parametrize(
    "extra, fragment",
    [
        (["--unit", "hand", "--round", "5"], "bad --round 5"),
        (["--round", "2"], "--round goes with --unit hand"),
        (["--unit", "deal"], "accepted: game, hand"),
        (["--strategy", "3=pimc"], "seats are 0..2"),
        (["--strategy", "clever"], "unknown strategy 'clever'"),
        (["--variant", "ruleset=swedish", "--variant", "scoring=simplified"], "does not apply with ruleset=swedish"),
        (["--variant", "round4_start=huge"], "accepted: blog, classic, simplified"),
        (["--players", "4"], "exactly 3 players"),
        (["--strategy", "pimc", "--pimc-from", "17"], "bad --pimc-from 17: accepted 0 to 16"),
        (["--pimc-samples", "0"], "bad --pimc-samples 0: accepted 1 to 1000"),
    ],
)
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

    assert (
        main(
            [
                "simulate",
                "bismarck",
                "--unit",
                "hand",
                "--round",
                "2",
                "--trials",
                "300",
                "--quiet",
                "--strategy",
                "0=random",
                "--format",
                "json",
            ]
        )
        == 0
    )
    doc = json.loads(capsys.readouterr().out)
    assert doc["meta"]["strategies"] == ["random", "heuristic", "heuristic"] and doc["meta"]["round"] == 2
    made = [r for r in doc["rows"] if r["measure"] == "made_quota"]
    assert [r["role"] for r in made] == ["dealer", "left", "right"] and all(r["trials"] == 300 for r in made)


@jit
def _hcp(hs, out):
    for i in range(hs.shape[0]):
        out[i] = K.hcp(hs[i])


def test_high_card_points_count_each_honour():
    """The branch-free hcp (J Q K A = 1 2 3 4; the report's ``hcp`` feature, a measure and not a rule) against a
    count card by card."""
    r = np.random.default_rng(3)
    codes = [s * 16 + k for s in range(4) for k in range(13)]
    hs = np.array(
        [
            sum(1 << codes[i] for i in r.choice(52, n, replace=False))
            for n in (0, 1, 5, 13, 16, 20, 52)
            for _ in range(20)
        ],
        dtype=np.uint64,
    )
    out = np.zeros(len(hs), dtype=np.int64)
    _hcp(hs, out)
    points = {"J": 1, "Q": 2, "K": 3, "A": 4}
    for h, got in zip(hs, out):
        cards = B.cards_of(int(h)).split()
        assert got == sum(points.get(c[0], 0) for c in cards)


# ---------------------------------------------------------------------------------------------------
# Chosen round types: fixed_round_order = false (3(c)9) and Swedish Bismarck (3(c)10)
# ---------------------------------------------------------------------------------------------------


def _random_set(rnd, n):
    return sorted(int(c // 13) * 16 + int(c % 13) for c in rnd.choice(52, n, replace=False))


@pytest.mark.parametrize("mode, size", [(K.SEEN_NOTHING, 16), (K.SEEN_HAND, 16), (K.SEEN_WIDOW, 4)])
@pytest.mark.parametrize("strategy", [K.S_RANDOM, K.S_HEURISTIC])
def test_round_choice_matches_reference(mode, size, strategy):
    """The chooser against the reference's reading of its documented rules, on random hands or widows and every
    set of round types left; the random player's pick from the same stream."""
    rnd = np.random.default_rng(17 + mode)
    picked = set()
    for i in range(600):
        seen = _random_set(rnd, size)
        remaining = int(rnd.integers(1, 16))
        st = rng.new_state()
        rng.seed_state(st, np.uint64(5), np.uint64(0), np.uint64(i), np.uint64(1))
        twin = st.copy()
        got = K.choose_round(np.uint64(sum(1 << c for c in seen)), remaining, mode, strategy, st)
        left = {r for r in range(4) if (remaining >> r) & 1}
        want = ref.choose_round(seen, left, mode, NAMES[strategy], lambda n: int(rng.below(twin, n)))
        assert got == want and got in left
        picked.add(got)
    assert picked == {0, 1, 2, 3}


def test_heuristic_choices_follow_the_cards():
    """3(c)9: a weak dealer's hand picks the misère round, a long suit named trumps; 3(c)10: a widow without
    honours picks Pass, three cards of a suit Valfri in that suit."""
    st = rng.new_state()
    weak = np.uint64(B.to_mask("2C 3C 4C 5C 6D 7D 8D 9D 2H 3H 4H 5H 6S 7S 8S 9S"))
    assert K.choose_round(weak, 15, K.SEEN_HAND, K.S_HEURISTIC, st) == 3
    assert K.choose_round(weak, 7, K.SEEN_HAND, K.S_HEURISTIC, st) == 0  # misère used: the lowest left
    long_suit = np.uint64(B.to_mask("AH KH QH 9H 7H 5H 3H 2C 4C 6D 8D TD JS 4S 5S 6S"))
    assert K.choose_round(long_suit, 15, K.SEEN_HAND, K.S_HEURISTIC, st) == 2
    assert K.choose_round(np.uint64(B.to_mask("2C 5D 7H 9S")), 15, K.SEEN_WIDOW, K.S_HEURISTIC, st) == K.PASS
    widow = np.uint64(B.to_mask("3D 8D TD AS"))
    assert K.choose_round(widow, 15, K.SEEN_WIDOW, K.S_HEURISTIC, st) == K.VALFRI
    assert K.name_trump(widow, K.S_HEURISTIC, st) == 1


@pytest.mark.parametrize("seats", [(1, 1, 1), (1, 0, 1), (0, 0, 0)])
def test_swedish_hands_match_reference(seats):
    """3(c)10: forehand chooses the contract from the face-up widow (its rules as the reference reads them), names
    Valfri's trumps from it, takes it and discards 4 (it alone knows them), and leads; the hand is then the
    reference's, card for card, with Swedish scores."""
    variants = {"ruleset": "swedish"}
    bv = B.variant_array(variants)
    strat = np.array(seats, dtype=np.int64)
    chosen = set()
    for trial in range(40):
        dealer = trial % 3
        fore = (dealer + 1) % 3
        remaining = 1 + trial % 15
        rtype, dealt, trump, known, dout, widow, rec, trace, streams = _one_round(
            strat, np.uint64(23), trial, -1, remaining, dealer, bv
        )
        widow = {int(c) for c in widow}
        if seats[fore] == K.S_HEURISTIC:
            assert rtype == ref.choose_round(widow, {r for r in range(4) if (remaining >> r) & 1}, 2, "heuristic", None)
            if rtype == K.VALFRI:
                assert trump == ref.name_trump(widow)
        assert (remaining >> rtype) & 1
        chosen.add(int(rtype))
        assert trump == {K.SPEL: -1, K.SPADER: 3, K.PASS: -1}.get(int(rtype), trump) and known == 0
        assert rtype != K.VALFRI or 0 <= trump < 4
        hands = [_set(dealt[s]) for s in range(3)]
        thrown = _set(dout)
        assert [len(h) for h in hands] == [16, 16, 16] and len(thrown) == 4
        assert hands[fore] | thrown >= widow and not thrown & set().union(*hands)
        assert set().union(*hands) | thrown == {s * 16 + r for s in range(4) for r in range(13)}

        def below(seat, n, _st=streams):
            return int(rng.below(_st[seat], n))

        tricks, scores, order = ref.play_hand(
            hands,
            dealer,
            int(rtype) + 1,
            trump,
            [NAMES[s] for s in seats],
            below,
            variants={**ref.DEFAULTS, **variants},
            private_out=(fore, thrown),
        )
        assert list(trace[:48]) == order and order[0] in hands[fore]  # forehand leads
        assert list(rec[:, K.H_TRICKS]) == tricks and list(rec[:, K.H_SCORE]) == scores
        assert sum(scores) == 0
    assert chosen == {0, 1, 2, 3}


@pytest.mark.parametrize(
    "variants",
    [
        {"ruleset": "swedish"},
        {"fixed_round_order": "false"},
        {"fixed_round_order": "false", "round3_trump_timing": "after_seeing_hand"},
        {"fixed_round_order": "false", "dealer_schedule": "rotate_each_hand"},
    ],
)
@pytest.mark.parametrize("strategy", ["heuristic", "random"])
def test_chosen_rounds_are_each_played_once_a_cycle(variants, strategy):
    """3(c)9 and 3(c)10: each chooser (the dealer; Swedish: forehand) plays every round type once in its four
    hands, so every (round, role) cell holds 3 hands a game; Swedish scores add up to 0 in every game."""
    t = run(B.simulation_spec(variants=variants, strategies=[strategy]), trials=50, seed=4, progress=False).table
    assert set(t[t.measure == "tricks"].trials) == {150}
    for rnd in range(1, 5):
        m = t[(t.measure == "tricks") & (t["round"] == rnd)]
        assert len(m) == 3 and abs(m.total.sum() - 16 * 150) < 1e-9
    if "ruleset" in variants:
        assert t[t.measure == "game_total"].total.sum() == 0
        named = t[t.measure == "tricks"]
        assert list(named.contract) == [c for c in ("spel", "spader", "valfri", "pass") for _ in range(3)]
    else:
        assert "contract" not in t.columns


def test_choosing_after_seeing_the_hand_is_worth_something_to_the_dealer():
    """3(c)9: a dealer who picks each round type for the hand it holds does better, over its cycle, than one who
    plays them in the fixed order (heuristic players; the same seeds, so the deals of corresponding hands match
    until the choices differ). The difference must exceed 4 standard errors."""

    def cycle(variants):
        t = run(
            B.simulation_spec(variants=variants, strategies=["heuristic"]), trials=1500, seed=8, progress=False
        ).table
        s = t[(t.measure == "score") & (t.role == "dealer")]
        return s.estimate.sum(), float(np.sqrt((s.std_error**2).sum()))

    fixed, se_f = cycle({})
    free, se_c = cycle({"fixed_round_order": "false", "round3_trump_timing": "after_seeing_hand"})
    assert free - fixed > 4 * np.hypot(se_f, se_c), (fixed, free)


def test_paired_comparison_of_a_strategy_with_itself_is_exactly_zero():
    """Every trial switches each of the three seats in turn: 60 hands give 60 pairs per role, 180 pooled."""
    t = run(B.compare_spec("heuristic", "heuristic", round=2), trials=60, seed=3, progress=False).table
    assert t.trials.tolist() == [60] * 6 + [180] * 2
    assert (t.estimate == 0).all() and (t.std_error == 0).all()


def test_paired_comparison_is_the_same_on_one_thread_and_two_and_sees_a_real_difference():
    """compare_chunks' chunks on one thread or two (the driver's threads): same table either way. A random
    player in the heuristic's place takes fewer tricks in round 1 (no trumps, BM-4): the pooled paired difference's
    95% interval lies below zero."""
    spec = B.compare_spec("heuristic", "random", round=1)
    a = run(spec, trials=120, seed=5, chunk_size=20, progress=False, threads=1)
    b = run(spec, trials=120, seed=5, chunk_size=20, progress=False, threads=2)
    assert a.rows() == b.rows()
    t = a.table
    pooled = t[t.role.isna() & (t.measure == "tricks_challenger_minus_field")].iloc[0]
    assert pooled.trials == 360 and pooled.ci_high < 0


def test_the_bismarck_compare_verdict_quotes_the_round_score_beside_the_tricks():
    """BM-6: the round score is what counts, and in the misère fewer tricks score more; the verdict goes by the
    tricks and quotes the score (a new user read "no clear difference in tricks" while the score differed), and
    tricks and score moving apart there is no disagreement."""
    from analysis.games import get
    from analysis.games.base import RunOptions

    r = get("bismarck").compare("heuristic", "random", round=4, run=RunOptions(trials=400, seed=1, progress=False))
    v, t = r.meta["verdict"], r.table
    pooled = t[t["role"].isna()].set_index("measure")
    tricks, score = pooled.loc["tricks_challenger_minus_field"], pooled.loc["score_challenger_minus_field"]
    assert tricks.ci_low > 0 > score.ci_high  # the random player takes more tricks and scores less
    assert v.startswith("random against heuristic (pooled over the roles): ") and "more tricks a hand" in v
    assert (
        f"; score clearly lower: {score.estimate:+.2f} points of round score a hand (95% interval {score.ci_low:+.2f}"
        in v
    )
    assert "disagree" not in v
    # counted as the header counts them: a pooled row adds up the roles that switched (a review read "all 300
    # trials" under a header of 100 hands)
    r = get("bismarck").compare("heuristic", "heuristic", run=RunOptions(trials=100, seed=1, progress=False))
    assert "the same outcome on all 100 hands, the two play alike there" in r.meta["verdict"]
