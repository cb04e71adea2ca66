"""Rule vectors of rules.md 1(e) on the kernel, and simulated rates against exact values."""

from __future__ import annotations

import numpy as np
import pytest

from analysis import driver
from analysis.games import bisko_bobo as bb
from kernels import bisko_bobo as K


def play(players, first, second, wet, rest, strategies, low=None, variants=None, forced=None):
    """Deal ``first``/``second`` opening cards (seat 0 = dealer's left ... seat P-1 = dealer), then ``rest``."""
    spec = bb.simulation_spec(players, variants=variants or {}, strategies=strategies)
    P, hid, lod, var, pj, ps, tgt, pt, pack = spec.args
    head = bb.DECK.indices(" ".join([first, second, wet, rest]))
    hi = np.array(head + [c for c in hid if c not in head], dtype=np.int64)
    lows = bb.DECK.indices(low) if low else []
    lo = np.array(lows + [c for c in lod if c not in lows], dtype=np.int64)
    f = np.full(3 * P, -1, dtype=np.int64)
    for (kind, seat), value in (forced or {}).items():
        f[{"action": 0, "swap": P, "tuck": 2 * P}[kind] + seat] = value
    n_win, rec, keys, trace = K.play_fixed(P, hi, lo, var, pj, ps, tgt, pt, pack, f, np.uint64(0), np.uint64(0), 0)
    return rec, keys, trace


def actions(trace, P):
    return ["J" if trace[3 * s] else "F" for s in range(P)]


def test_V_T1_tuck_and_V_T2_opening_bisko():
    # seat 0: KS, QH -> Tuck; seat 1: KD, QD -> opening Bisko (must Jingo, 2 Bedtime cards)
    rec, keys, trace = play(2, "KS KD", "QH QD", "AC", "JC TC AH JH TH", ["always-flingo"])
    assert rec[0, K.R_OPENING_BISKO] == 0 and rec[1, K.R_OPENING_BISKO] == 1  # V-T1, V-T2
    assert actions(trace, 2)[1] == "J"  # V-T2: forced Jingo
    # seat 0 (Tuck, always-flingo) must still take a Jingo: J=0, F=1, R=0 -> a Flingo would leave one Jingo
    assert actions(trace, 2)[0] == "J"  # V-J3 shape
    assert trace[3 * 2 + 1] == 2 * 2 + 1 + 2 + 1 + 2  # 2 Jingo + 1 + 2 Bedtime


def test_V_J1_dealer_must_flingo_when_everyone_else_flung():
    # 3 players, all Tucks; seats 0 and 1 Flingo; the dealer (always-jingo) must Flingo
    rec, keys, trace = play(
        3, "KS KD KC", "QH QC QD", "AH", "9S 9D 9C 9H", ["always-jingo", "0=always-flingo", "1=always-flingo"]
    )
    assert actions(trace, 3) == ["F", "F", "F"]


def test_V_J2_dealer_must_jingo_after_exactly_one_jingo():
    rec, keys, trace = play(3, "KS KD KC", "QH QC QD", "AH", "9S 9D 9C 9H", ["always-flingo", "0=always-jingo"])
    assert actions(trace, 3) == ["J", "F", "J"]


def test_V_J3_second_to_last_must_jingo_before_an_opening_bisko_dealer():
    # dealer (seat 2) holds KC QC (opening Bisko); seat 0 flung; seat 1 (always-flingo) must Jingo
    rec, keys, trace = play(3, "KS KD KC", "QH QS QC", "AH", "9S 9D 9C 9H TC TH", ["always-flingo"])
    assert actions(trace, 3) == ["F", "J", "J"]


def test_V_J4_first_player_free_with_three_tucks_after():
    for strat, want in (("always-flingo", "F"), ("always-jingo", "J")):
        rec, keys, trace = play(4, "KS KD KC KH", "QH QC QD QS", "AH", "9S 9D 9C 9H TC TH TS TD", [strat])
        assert actions(trace, 4)[0] == want and rec[0, K.R_FREE_CHOICE] == 1


def test_V_J5_two_players_dealer_must_follow_a_jingo():
    rec, keys, trace = play(2, "KS KD", "QH QC", "AH", "9S 9D 9C 9H TC TH", ["always-flingo", "0=always-jingo"])
    assert actions(trace, 2) == ["J", "J"]


def test_jingo_count_is_never_one():
    spec = bb.simulation_spec(4, strategies=["random"])
    P, hid, lod, var, pj, ps, tgt, pt, pack = spec.args
    forced = np.full(3 * P, -1, dtype=np.int64)
    for trial in range(2000):
        n_win, redeals, rec, keys, trace, hi, lo = K.trace_deal(
            P, hid, lod, var, pj, ps, tgt, pt, pack, forced, np.uint64(3), np.uint64(0), trial
        )
        assert rec[:, K.R_JINGO].sum() != 1


def test_V_BB1_swap_order_by_low_card():
    # 3 players all Jingo (forced); LOW cards 7H (seat 0 = A), 7S (seat 1 = B), 3C (seat 2 = C): order B, A, C
    base = dict(
        players=3,
        first="KS KD KC",
        second="QH QC QD",
        wet="AH",
        rest="9S 9D 9C 9H TC TH TS",
        strategies=["always-jingo"],
        low="7H 7S 3C",
    )
    # B swaps with C -> A can do nothing
    rec, keys, trace = play(**base, forced={("swap", 1): 1 + 2, ("swap", 0): 1 + 2})
    assert trace[3 * 1 + 1] == 2 and trace[3 * 0 + 1] == -1
    # B declines -> A may swap with C
    rec, keys, trace = play(**base, forced={("swap", 1): 0, ("swap", 0): 1 + 2})
    assert trace[3 * 1 + 1] == -1 and trace[3 * 0 + 1] == 2
    # B swaps with A -> C can never start a swap
    rec, keys, trace = play(**base, forced={("swap", 1): 1 + 0, ("swap", 2): 1 + 0})
    assert trace[3 * 1 + 1] == 0 and trace[3 * 2 + 1] == -1


@pytest.mark.parametrize(
    "vid, jingo, tuck_rule, tucked",
    [
        ("V-T3", "9H", "bobo_only", True),  # matches the tucked heart: may tuck (Bobo)
        ("V-T4", "9S", "bobo_only", False),  # matches the upright spade: upright only
        ("V-T5", "9C", "bobo_only", False),  # matches nothing: upright only under bobo_only ...
        ("V-T5", "9C", "free", True),  # ... but may be tucked under free
    ],
)
def test_V_T3_to_T5_jingo_placement(vid, jingo, tuck_rule, tucked):
    # seat 0: KS up, QH tucked, takes a Jingo (forced) and tries to tuck it (forced)
    rec, keys, trace = play(
        2,
        "KS KD",
        "QH QC",
        "AH",
        f"{jingo} TD TC JD JC",
        ["always-jingo"],
        low="8H 2C",
        variants={"jingo_tuck_rule": tuck_rule},
        forced={("swap", 0): 0, ("swap", 1): 0, ("tuck", 0): 1, ("tuck", 1): 0},
    )
    assert bool(trace[2]) is tucked, vid


def test_jack_mode_uses_tucked_cards():
    # Wet Bisk is a Jack: seat 0 (Tuck, QH tucked) evaluates QH + JH = Bisko; seat 1 (opening Bisko) has no tucked card
    rec, keys, trace = play(
        2, "KS KD", "QH QD", "JH", "9C 9S AC AS AD AH TC", ["always-flingo"], forced={("tuck", 0): 0}
    )
    assert keys[0] >> 59 == 1 and keys[1] >> 59 == 0  # BB-10, BB-13 (opening Bisko scores no Bisk)


# ---- simulated rates against exact values (1(d)); tolerance: 5 standard errors ------------------
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_opening_bisko_and_wet_jack_rates(players):
    k = bb.ranks_per_suit(players)
    n = 40_000
    res = driver.run(bb.simulation_spec(players), trials=n, seed=11, progress=False)
    t = res.table
    row = t[(t.measure == "opening_bisko") & t.seat.isna()].iloc[0]
    p = (k - 1) / (4 * k - 1)
    se = np.sqrt(p * (1 - p) / row.trials)  # seats are not independent; each seat alone is exact
    for s in range(players):
        r = t[(t.measure == "opening_bisko") & (t.seat == s)].iloc[0]
        assert abs(r.estimate - p) < 5 * np.sqrt(p * (1 - p) / n), (s, r.estimate, p)
    assert abs(row.estimate - p) < 5 * se * np.sqrt(players)
    w = t[t.measure == "wet_bisk_jack"].iloc[0]
    assert abs(w.estimate - 1 / k) < 5 * np.sqrt((1 / k) * (1 - 1 / k) / n)
    win = t[(t.measure == "win") & t.seat.isna()].iloc[0]
    assert win.estimate == pytest.approx(1 / players)  # split wins: the shares sum to 1 per deal
