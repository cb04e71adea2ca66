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
        n_win, redeals, rec, keys, trace, hi, lo = K.trace_deal(P, hid, lod, var, pj, ps, tgt, pt, pack, forced,
                                                                np.uint64(seed), np.uint64(0), trial)
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


@pytest.mark.parametrize("variants", [
    {"bisk_suit_order": "component_first"},
    {"tiebreak_depth": "first_card_only"},
    {"jingo_tuck_rule": "free"},
    {"allow_same_suit_split": "true"},
    {"flingo_reward_chain": "true"},
    {"bedtime_double_trigger": "any_bisko_before_bedtime"},
    {"enforce_jingo_constraint": "false"},
    {"bingo_swap_optional": "false"},
    {"exact_tie": "redeal"},
])
def test_kernel_matches_reference_variants(variants):
    _check(4, ["random"], variants, n_deals=300)


def test_kernel_matches_reference_mixed_seats():
    _check(5, ["heuristic", "0=always-jingo", "2=always-flingo", "4=random"], {}, n_deals=400)
