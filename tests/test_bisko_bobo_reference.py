"""Kernel vs plain-Python reference (tests/reference/bisko_bobo.py) on the same deals: zero mismatches."""

from __future__ import annotations

import numpy as np
import pytest

from analysis.games import bisko_bobo as bb
from kernels import bisko_bobo as K
from kernels import rng
from tests.reference import bisko_bobo as ref


def _coin_source(key0, key1, trial, attempt=0):
    st = rng.new_state()
    rng.seed_state(st, np.uint64(key0), np.uint64(key1), np.uint64(trial), np.uint64(2 * attempt + 1))

    def coin(p):
        if p <= 0.0:
            return False
        if p >= 1.0:
            return True
        return rng.uniform(st) < p

    def below(n):
        return int(rng.below(st, n))

    return coin, below


def _check(players, strategies, variants, n_deals, seed=7):
    spec = bb.simulation_spec(players, variants=variants, strategies=strategies)
    P, hid, lod, var, pj, ps, tgt, pt, pack = spec.args
    full = spec.describe["variants"]
    forced = np.full(3 * P, -1, dtype=np.int64)
    mismatches = []
    for trial in range(n_deals):
        n_win, redeals, rec, keys, trace, hi, lo = K.trace_deal(
            P, hid, lod, var, pj, ps, tgt, pt, pack, forced, np.uint64(seed), np.uint64(0), trial
        )
        coin, below = _coin_source(seed, 0, trial, redeals)
        seats, winners, rkeys, wet = ref.play(int(P), list(hi), list(lo), full, pj, ps, tgt, pt, coin, below)
        k_winners = [s for s in range(P) if keys[s] == keys.max()]
        got = {
            "actions": [int(trace[3 * s]) for s in range(P)],
            "partners": [int(trace[3 * s + 1]) for s in range(P)],
            "tucks": [int(trace[3 * s + 2]) for s in range(P)],
            "winners": k_winners,
            "types": [int(k >> 59) for k in keys],
        }
        want = {
            "actions": [st.action for st in seats],
            "partners": [st.partner for st in seats],
            "tucks": [int(st.tucked_jingo) for st in seats],
            "winners": winners,
            "types": [k[0] for k in rkeys],
        }
        # the integer keys must order the seats exactly as the reference's tuple keys do
        got["order"] = [[bool(keys[a] > keys[b]) for b in range(P)] for a in range(P)]
        want["order"] = [[rkeys[a] > rkeys[b] for b in range(P)] for a in range(P)]
        if got != want:
            mismatches.append((trial, got, want))
    assert not mismatches, mismatches[:3]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("strategy", ["heuristic", "random"])
def test_kernel_matches_reference_default_rules(players, strategy):
    _check(players, [strategy], {}, n_deals=400)


@pytest.mark.parametrize(
    "variants",
    [
        {"bisk_suit_order": "component_first"},
        {"tiebreak_depth": "first_card_only"},
        {"jingo_tuck_rule": "free"},
        {"allow_same_suit_split": "true"},
        {"flingo_reward_chain": "true"},
        {"bedtime_double_trigger": "any_bisko_before_bedtime"},
        {"enforce_jingo_constraint": "false"},
        {"bingo_swap_optional": "false"},
        {"exact_tie": "redeal"},
    ],
)
def test_kernel_matches_reference_variants(variants):
    _check(4, ["random"], variants, n_deals=300)


def test_kernel_matches_reference_mixed_seats():
    _check(5, ["heuristic", "0=always-jingo", "2=always-flingo", "4=random"], {}, n_deals=400)


def _traced_counts(spec, n, key0, key1):
    """The count row of ``n`` deals built in Python from the traced deals (``trace_deal``: every seat's key whole,
    no count buffers), laid out as the simulation kernel's row (kernels.bisko_bobo, R_/C_/D_ fields)."""
    P, hid, lod, var, pj, ps, tgt, pt, pack = spec.args
    forced = np.full(3 * P, -1, dtype=np.int64)
    row = np.zeros(K.n_counts(P), dtype=np.int64)
    base = P * K.SEAT_FIELDS
    for trial in range(n):
        n_win, redeals, rec, keys, trace, hi, lo = K.trace_deal(
            P, hid, lod, var, pj, ps, tgt, pt, pack, forced, key0, key1, trial
        )
        jack = hi[2 * P] % 13 == K.JACK
        for s in range(P):
            b = s * K.SEAT_FIELDS
            row[b : b + K.N_FLAGS] += rec[s, : K.N_FLAGS]
            t, win, ob = rec[s, K.R_FINAL_TYPE], rec[s, K.R_WIN], rec[s, K.R_OPENING_BISKO]
            row[b + K.C_TYPE + t] += 1
            row[b + K.C_TYPE_WIN + t] += win
            row[b + K.C_JACK_WIN] += win * jack
            row[b + K.C_OB_WIN] += win * ob
            row[b + K.C_OB_JACK] += ob * jack
            row[b + K.C_OB_JACK_WIN] += win * ob * jack
            row[b + K.C_FREE_FLINGO_WIN] += win * rec[s, K.R_FREE_FLINGO]
            row[b + K.C_FREE_JINGO_WIN] += win * (rec[s, K.R_FREE_CHOICE] and not rec[s, K.R_FREE_FLINGO])
        row[base + K.D_DEALS] += 1
        row[base + K.D_WET_JACK] += jack
        row[base + K.D_SHARED] += n_win > 1
        row[base + K.D_NO_WINNER] += n_win == 0
        row[base + K.D_REDEALS] += redeals
        row[base + K.D_SWAPS] += rec[:, K.R_SWAP_INIT].sum()
        row[base + K.D_JINGO_PLAYERS] += rec[:, K.R_JINGO].sum()
        row[base + K.D_BINGO_PHASE] += rec[:, K.R_JINGO].sum() > 0
    return row


@pytest.mark.parametrize(
    "players, strategies, variants",
    [
        (2, ["random"], {}),
        (4, ["heuristic"], {}),
        (4, ["random"], {"exact_tie": "redeal", "bisk_suit_order": "component_first"}),
        (5, ["random"], {"tiebreak_depth": "first_card_only", "exact_tie": "no_winner"}),
        (6, ["random"], {"allow_same_suit_split": "true", "bedtime_double_trigger": "any_bisko_before_bedtime"}),
    ],
)
def test_simulation_counts_match_traced_deals(players, strategies, variants):
    """The simulation loop (keys whole only for the seats of the best type, counts in per-chunk histograms) counts
    exactly what the traced deals, each seat's key whole, add up to, over several chunks."""
    spec = bb.simulation_spec(players, variants=variants, strategies=strategies)
    n, chunk = 600, 250
    out = np.zeros((3, K.n_counts(players)), dtype=np.int64)
    K.simulate_chunks(
        np.arange(3, dtype=np.int64), np.int64(chunk), np.int64(n), np.uint64(3), np.uint64(4), *spec.args, out
    )
    assert out.sum(axis=0).tolist() == _traced_counts(spec, n, np.uint64(3), np.uint64(4)).tolist()
