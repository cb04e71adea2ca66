"""The simulation loop's SIMD lanes (kernels.bisko_bobo, "eight deals at a time") against the scalar loop: the same
decks, the same counts, for every player count, variant and strategy the lanes play; the scalar loop is itself
held to the plain-Python reference (test_bisko_bobo_reference.py)."""

from __future__ import annotations

import numpy as np
import pytest

from analysis.games import bisko_bobo as bb
from kernels import bisko_bobo as K
from kernels import rng

KEY0, KEY1 = np.uint64(2026), np.uint64(12)

# one variant changed at a time (every value but the default), and some together
VARIANTS = [
    {},
    {"bisk_suit_order": "component_first"},
    {"tiebreak_depth": "first_card_only"},
    {"exact_tie": "no_winner"},
    {"exact_tie": "redeal"},
    {"jingo_tuck_rule": "free"},
    {"bedtime_double_trigger": "any_bisko_before_bedtime"},
    {"enforce_jingo_constraint": "false"},
    {"bingo_swap_optional": "false"},
    {"jingo_placement_order": "clockwise_sequential"},
    {
        "exact_tie": "redeal",
        "bedtime_double_trigger": "any_bisko_before_bedtime",
        "bingo_swap_optional": "false",
        "tiebreak_depth": "first_card_only",
    },
]
STRATEGIES = [["heuristic"], ["always-flingo"], ["always-jingo"], ["no-swap"], ["recommended"]]


def _rows(args, start, n):
    lanes = np.zeros(K.n_counts(int(args.players)), dtype=np.int64)
    scalar = lanes.copy()
    K._simulate_range(start, start + n, KEY0, KEY1, *args, lanes)
    K.simulate_range_scalar(start, start + n, KEY0, KEY1, *args, scalar)
    return lanes, scalar


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_lanes_count_what_the_scalar_loop_counts(players):
    """Every variant (BB-4 .. BB-12 and rules.md 1(c)) and every built-in strategy the lanes play: the same count
    row as the scalar loop over 1003 trials from an odd start (so the scalar loop plays the last few)."""
    for variants in VARIANTS:
        for strategies in STRATEGIES:
            if strategies != ["heuristic"] and variants:
                continue
            args = bb.simulation_spec(players, variants=variants, strategies=strategies).args
            assert K.lanes_apply(*args[:8]), (variants, strategies)
            lanes, scalar = _rows(args, 501, 1003)
            assert lanes.tolist() == scalar.tolist(), (players, variants, strategies)


@pytest.mark.parametrize("players", [2, 4, 6])
def test_lanes_swap_target_rules(players):
    """Bingo-Bango (BB-6) in the lanes, every target rule they play (0 lowest-ranked, 1 highest-ranked, 3 one without
    the card's suit upright) with swaps optional or not, on strategy tables of random 0/1 entries (so that every
    fit, placement and Flingo/Jingo bucket takes both actions somewhere)."""
    r = np.random.default_rng(players)
    for rule in (0, 1, 3):
        for optional in ("true", "false"):
            a = bb.simulation_spec(players, variants={"bingo_swap_optional": optional}).args
            a = a._replace(
                p_jingo=(r.random(a.p_jingo.shape) < 0.5).astype(np.float64),
                p_swap=(r.random(a.p_swap.shape) < 0.6).astype(np.float64),
                swap_target=np.full(players, rule, dtype=a.swap_target.dtype),
                p_tuck=(r.random(a.p_tuck.shape) < 0.5).astype(np.float64),
            )
            assert K.lanes_apply(*a[:8])
            lanes, scalar = _rows(a, 99, 2000)
            assert lanes.tolist() == scalar.tolist(), (rule, optional)


def test_lanes_apply_only_to_what_they_play():
    args = bb.simulation_spec(4).args
    assert K.lanes_apply(*args[:8])
    assert not K.lanes_apply(*bb.simulation_spec(4, strategies=["random"]).args[:8])
    assert not K.lanes_apply(*bb.simulation_spec(4, variants={"allow_same_suit_split": "true"}).args[:8])
    assert not K.lanes_apply(*bb.simulation_spec(4, variants={"flingo_reward_chain": "true"}).args[:8])
    half = args.p_jingo.copy()
    half[2, 1, 0, 3, 4] = 0.5  # one uncertain decision anywhere
    assert not K.lanes_apply(*args._replace(p_jingo=half)[:8])
    assert not K.lanes_apply(*args._replace(swap_target=np.array([0, 2, 0, 0]))[:8])  # a random target rule


def test_each_setting_takes_the_kernel_that_plays_it_and_both_kernels_count_alike():
    """The analysis layer runs the lanes' kernel where the lanes play the settings and the scalar kernel elsewhere;
    both chunk kernels give the same rows on either kind of setting (the lanes' kernel plays a setting the lanes
    do not play, and a chunk's last trials, by the compiled scalar deal)."""
    from analysis.driver import _load_kernel

    plain = bb.simulation_spec(4)
    mixed = bb.simulation_spec(4, strategies=["random"])
    assert plain.kernel.endswith(":simulate_chunks") and mixed.kernel.endswith(":simulate_scalar_chunks")
    for spec in (plain, mixed):
        rows = []
        for kernel in (K.simulate_chunks, K.simulate_scalar_chunks):
            out = np.zeros((2, spec.n_counts), dtype=np.int64)
            kernel(np.array([0, 1], dtype=np.int64), 203, 401, KEY0, KEY1, *spec.args, out)
            rows.append(out.tolist())
        assert rows[0] == rows[1], spec.kernel
        assert _load_kernel(spec.kernel) in (K.simulate_chunks, K.simulate_scalar_chunks)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_lane_decks_are_the_scalar_shuffles(players):
    """The eight decks the lanes shuffle together (one Philox block, batched swaps) are deal_decks' from the same
    streams, lanes whose words were rejected and redrawn among them (they use more words than the batches)."""
    hid, lod = bb.high_deck(players), bb.low_deck(players)
    n_batches = len(rng.batch_table(len(hid), len(hid))) + len(rng.batch_table(len(lod), players))
    st = rng.new_state()
    hi, lo = np.empty_like(hid), np.empty_like(lod)
    redrawn = 0
    for batch in range(150):
        t0 = 8 * batch + 3
        dh, dl, words, fell_back = K.lane_decks(t0, KEY0, KEY1, np.int64(players), hid, lod, 0)
        assert not fell_back.any()
        redrawn += int((words > n_batches).sum())
        for lane in range(8):
            rng.seed_state(st, KEY0, KEY1, np.uint64(t0 + lane), np.uint64(rng.STREAM_DEAL))
            K.deal_decks(st, hid, lod, hi, lo, players)
            assert dh[lane].tolist() == hi.tolist(), (t0, lane)
            assert dl[lane, :players].tolist() == lo[:players].tolist(), (t0, lane)
            assert words[lane] >= n_batches
    assert redrawn > 0


@pytest.mark.parametrize("players", [2, 4, 6])
def test_lanes_past_the_block_fall_back_to_deal_decks(players):
    """A lane needing more than the block's 8 words takes deal_decks: started at word 6 every lane runs past it
    (two words cannot serve three or more batches), and the decks are still deal_decks'."""
    hid, lod = bb.high_deck(players), bb.low_deck(players)
    st = rng.new_state()
    hi, lo = np.empty_like(hid), np.empty_like(lod)
    dh, dl, words, fell_back = K.lane_decks(11, KEY0, KEY1, np.int64(players), hid, lod, 6)
    assert fell_back.all()
    for lane in range(8):
        rng.seed_state(st, KEY0, KEY1, np.uint64(11 + lane), np.uint64(rng.STREAM_DEAL))
        K.deal_decks(st, hid, lod, hi, lo, players)
        assert dh[lane].tolist() == hi.tolist() and dl[lane].tolist() == lo.tolist()


@pytest.mark.parametrize("n,k", [(20, 20), (24, 24), (28, 28), (32, 32), (32, 2), (20, 6), (52, 52), (13, 5), (2, 2)])
def test_batch_table_is_shuffle_batches(n, k):
    expect = [[i, j, (2**32 - prod) % prod] for i, j, prod in rng.shuffle_batches(n, k)]
    assert rng.batch_table(n, k).tolist() == expect
