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


def test_the_games_of_a_match_are_not_taken_for_independent_trials():
    """With --games-per-match the games of a match are linked (the last Winner leads the next): every row's
    interval is the jackknife's over chunks of whole matches, a seat's score wider than the games' binomial one."""
    zs = games.get("zheng-shangyou")
    t = driver.run(zs.simulation_spec(games_per_match=8), trials=4000, seed=3, progress=False).table
    one = driver.run(zs.simulation_spec(), trials=32_000, seed=3, progress=False).table
    assert t.attrs["dependent_trials"] and not one.attrs["dependent_trials"]
    seat = t[(t["measure"] == "score") & t["seat"].notna()]
    # the counts' own error of the same rows (a mean of 32,000 games a seat, as if independent)
    own = np.sqrt(((seat["total_sq"] - seat["total"] ** 2 / seat["trials"]) / (seat["trials"] - 1)) / seat["trials"])
    assert (seat["std_error"].to_numpy() > own.to_numpy()).sum() >= 3


def test_a_rare_pooled_share_gets_an_interval_that_respects_zero():
    """A pooled share of a few events (Biscuits: out first after 11 plays) takes Wilson's interval on the trials
    worth the jackknife's error: above 0, not a symmetric one clipped at 0."""
    t = driver.run(games.get("biscuits").simulation_spec(), trials=20_000, seed=1, progress=False).table
    rows = t[(t["measure"] == "out_first_given_plays") & (t["estimate"] > 0) & (t["estimate"] < 0.05)]
    assert (
        len(rows)
        and (rows["ci_low"] > 0).all()
        and (rows["ci_high"] - rows["estimate"] > rows["estimate"] - rows["ci_low"]).all()
    )


def test_few_chunks_are_said():
    """A --chunk-size that leaves fewer than 8 chunks: a note on stderr, and the meta says how the pooled rows got
    their intervals (one chunk: the counts' own)."""
    from tests.inprocess import cli

    code, out, err = cli("simulate", "bisko-bobo", "--trials", "4000", "--chunk-size", "4000", "--format", "json")
    assert code == 0 and "cardlab: note: 1 chunk of 4,000 trials: the pooled rows' intervals" in err
    import json

    assert json.loads(out)["meta"]["pooled_intervals"] == "the counts' own (one chunk: no jackknife)"
    code, out, err = cli("simulate", "bisko-bobo", "--trials", "4000", "--format", "json", "--quiet")
    assert "note" not in err and "jackknife over 32 groups" in json.loads(out)["meta"]["pooled_intervals"]


def test_a_comparisons_pooled_row_reports_the_spread_of_independent_runs():
    """compare: every seat switches in turn on the same deal, so the pooled row's seat-deals are not independent
    (ZS greedy against random: its interval over seat-games had been 2.6 times too wide); against the sd over 16
    seeds."""
    zs = games.get("zheng-shangyou")
    est, se = [], []
    for seed in range(16):
        t = driver.run(zs.compare_spec("greedy", "random"), trials=2048, seed=900 + seed, progress=False).table
        r = t[(t["measure"] == "challenger_minus_field_win") & t["seat"].isna()].iloc[0]
        est.append(r.estimate)
        se.append(r.std_error)
    ratio = float(np.mean(se) / np.std(est, ddof=1))
    assert 0.6 < ratio < 1.6, ratio
