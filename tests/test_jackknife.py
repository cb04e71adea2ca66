"""Intervals from a run's chunks (analysis/jackknife.py): rows pooled over the seats of one deal, and means the
kernels keep no sum of squares for, held against the spread of independent runs."""

from __future__ import annotations

import numpy as np

from analysis import driver, games
from analysis.jackknife import chunk_size_for, pooled_rows


def _spread(gid: str, trials: int, seeds: int, pick, **spec_kw) -> tuple[np.ndarray, np.ndarray]:
    """The estimates of the rows ``pick`` chooses over ``seeds`` independent runs: (their sd, the mean of the
    standard errors the runs reported)."""
    game = games.get(gid)
    est, se = [], []
    for seed in range(seeds):
        t = driver.run(game.simulation_spec(**spec_kw), trials=trials, seed=700 + seed, progress=False).table
        rows = t[pick(t)]
        est.append(rows["estimate"].to_numpy(dtype=float))
        se.append(rows["std_error"].to_numpy(dtype=float))
    return np.std(np.array(est), axis=0, ddof=1), np.mean(np.array(se), axis=0)


def test_pooled_rows_report_the_spread_independent_runs_show():
    """Bisko-Bobo's pooled sole win (the seats' sole wins add to 1 less the ties: a binomial interval over
    seat-deals had been 40 times too wide) and pooled final types (No Bisk: seats of one deal share the deck, and
    that interval had been 1.7 times too narrow): the reported standard error against the sd over 16 seeds (an sd
    of 16 runs is within about 1 +- 0.36 of the truth at two of its standard errors)."""

    def pick(t):
        return pooled_rows(t) & t["measure"].isin(["sole_win", "final_type"]).to_numpy()

    sd, se = _spread("bisko-bobo", 16_384, 16, pick)
    assert len(sd) == 12 and (sd > 0).all()
    ratio = se / sd
    assert 0.6 < np.median(ratio) < 1.6, ratio
    assert (ratio > 0.4).all() and (ratio < 2.2).all(), ratio


def test_a_mean_without_a_sum_of_squares_gets_an_interval():
    """Swaps a deal (Bisko-Bobo) had no interval: the jackknife gives one, of the size the seeds' spread shows."""

    def pick(t):
        return (t["measure"] == "swaps_per_deal").to_numpy()

    sd, se = _spread("bisko-bobo", 16_384, 16, pick)
    assert np.isfinite(se).all() and 0.6 < float(se[0] / sd[0]) < 1.6


def test_a_row_the_deal_fixes_has_no_width():
    """Exactly one seat holds the red joker: Zheng Shangyou's pooled 'dealt red_joker' is 1/4 on every deal, so
    its jackknife interval has no width (a binomial one over seat-games had a half-width of 0.01)."""
    t = driver.run(games.get("zheng-shangyou").simulation_spec(), trials=3000, seed=1, progress=False).table
    r = t[(t["measure"] == "dealt") & (t["feature"] == "red_joker")].iloc[0]
    assert r.estimate == 0.25 and r.std_error == 0 and r.ci_low == r.ci_high == 0.25
    seat = t[(t["measure"] == "winner") & t["seat"].notna()]
    assert (seat["std_error"] > 0).all()  # a seat's own row keeps its binomial interval


def test_a_short_run_is_cut_into_enough_chunks():
    assert chunk_size_for(1000, 4096) == 31 and chunk_size_for(10**6, 4096) == 4096 and chunk_size_for(5, 16) == 1
    assert all(-(-n // chunk_size_for(n, 16)) >= 32 for n in range(32, 2000))
    res = driver.run(games.get("biscuits").simulation_spec(), trials=500, seed=2, progress=False)
    assert res.meta["chunks"] == 34 and res.meta["chunk_size"] == 15
    hands = res.table[res.table["measure"] == "hands_per_game"].iloc[0]
    assert hands.ci_low < hands.estimate < hands.ci_high
