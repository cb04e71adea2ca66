"""Biscuits simulations through the driver and the CLI."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from analysis import driver
from analysis.errors import CardlabError
from analysis.games import biscuits as bi


def test_threads_agree_and_tables_add_up():
    spec = bi.simulation_spec(strategies=["random"])
    a = driver.run(spec, trials=600, seed=2, chunk_size=50, progress=False, threads=1)
    b = driver.run(spec, trials=600, seed=2, chunk_size=50, progress=False, threads=2)
    assert a.rows() == b.rows()
    t = a.table
    hands = t[(t.measure == "out_first") & t.seat.notna()].trials.iloc[0]
    assert t[(t.measure == "out_first") & t.seat.notna()].successes.sum() == hands  # one first out per hand
    assert t[t.measure == "game_won"].successes.sum() == 600  # ties play on (BI-12)
    hcp = t[t.measure == "out_first_given_hcp"]
    assert hcp.trials.sum() == 4 * hands and hcp.successes.sum() == hands
    # the same seat-hands by the plays of the fewest-plays split, and by (plays, points): the margins agree
    plays = t[t.measure == "out_first_given_plays"]
    assert plays.trials.sum() == 4 * hands and plays.successes.sum() == hands
    grid = t[t.measure == "out_first_given_plays_hcp"]
    by_hcp = grid.groupby("hcp")[["trials", "successes"]].sum()
    assert (by_hcp.trials.to_numpy() == hcp.set_index("hcp").loc[by_hcp.index].trials.to_numpy()).all()
    by_plays = grid.groupby("plays")[["trials", "successes"]].sum()
    assert (by_plays.successes.to_numpy() == plays.set_index("plays").loc[by_plays.index].successes.to_numpy()).all()
    # a 13-card hand splits into 1 to 13 plays; the mean by points is a weighted mean of the grid's plays
    assert plays.plays.between(1, 13).all()
    mean = t[t.measure == "plays_given_hcp"].set_index("hcp").estimate
    want = grid.assign(w=grid.plays * grid.trials).groupby("hcp").w.sum() / by_hcp.trials
    assert ((mean.loc[want.index] - want).abs() < 1e-9).all()


def test_hand_unit():
    t = driver.run(bi.simulation_spec(unit="hand"), trials=500, seed=1, progress=False).table
    assert t[(t.measure == "starter") & t.seat.notna()].successes.sum() == 500
    assert "game_won" not in set(t.measure)


@pytest.mark.parametrize(
    "variants",
    [
        {"pass_locks_out": "true"},
        {"starter_rule": "trailing_team_alternates"},
        {"pass_every_hand": "false"},
        {"game_end_check": "immediate"},
    ],
)
def test_play_variants_run_whole_games(variants):
    """2(c)1, 5, 6, 9: each play variant runs whole games; every game is won by one team (BI-12)."""
    t = driver.run(bi.simulation_spec(variants=variants), trials=60, seed=2, progress=False).table
    won = t[t.measure == "game_won"]
    assert won.successes.sum() == 60 and won.trials.min() == 60


@pytest.mark.parametrize(
    "kw, msg",
    [
        (dict(variants={"pass_locks_out": "maybe"}), "pass_locks_out"),
        (dict(unit="deal"), "bad --unit"),
        (dict(players=5), "exactly 4 players"),
        (dict(strategies=["planner"]), "unknown strategy"),
    ],
)
def test_bad_arguments(kw, msg):
    with pytest.raises(CardlabError, match=msg):
        bi.simulation_spec(**kw)


def test_cli_simulate():
    p = subprocess.run(
        [
            sys.executable,
            "-m",
            "analysis",
            "simulate",
            "biscuits",
            "--trials",
            "200",
            "--unit",
            "hand",
            "--format",
            "json",
            "--quiet",
        ],
        capture_output=True,
        text=True,
    )
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["meta"]["unit"] == "hand"


def test_exact_hand_combinations_closed_forms_and_sampling():
    from math import comb

    import numpy as np

    t = bi.exact_hand_combinations(13).set_index("combination")["probability"]
    assert t["Pair"] == pytest.approx(1 - 4**13 / comb(52, 13), rel=1e-12)
    # every other row against 100,000 random hands; tolerance: 5 standard errors
    rng = np.random.default_rng(7)
    n = 100_000
    hands = np.argsort(rng.random((n, 52)), axis=1)[:, :13]
    ranks = np.zeros((n, 13), dtype=np.int64)
    np.add.at(ranks, (np.repeat(np.arange(n), 13), (hands // 4).ravel()), 1)
    suits = np.zeros((n, 4), dtype=np.int64)
    np.add.at(suits, (np.repeat(np.arange(n), 13), (hands % 4).ravel()), 1)
    present = (ranks > 0).astype(int)
    runs = np.zeros(n, dtype=bool)
    for low in range(9):
        runs |= present[:, low : low + 5].sum(axis=1) == 5
    sampled = {
        "Triple": (ranks >= 3).any(axis=1),
        "Quad": (ranks == 4).any(axis=1),
        "Flush (5 of a suit)": (suits >= 5).any(axis=1),
        "Straight (5 ranks in a row, any suits)": runs,
        "Full House": (ranks >= 3).any(axis=1) & ((ranks >= 2).sum(axis=1) >= 2),
    }
    for name, hit in sampled.items():
        p = t[name]
        assert abs(hit.mean() - p) < 5 * np.sqrt(p * (1 - p) / n), name


def test_cli_exact_biscuits():
    p = subprocess.run(
        [sys.executable, "-m", "analysis", "exact", "biscuits", "hand-combinations", "--format", "json"],
        capture_output=True,
        text=True,
    )
    assert p.returncode == 0 and len(json.loads(p.stdout)["rows"]) == 6


def test_paired_comparison_of_a_policy_with_itself_is_zero_and_random_loses():
    same = driver.run(bi.compare_spec("greedy", "greedy"), trials=300, seed=1, progress=False).table
    assert (same.estimate == 0).all()
    worse = driver.run(bi.compare_spec("greedy", "random"), trials=3000, seed=1, progress=False).table
    assert worse[worse.team.isna()].iloc[0].ci_high < 0


def test_win_table_pools_mirror_states_and_orders_sensibly():
    t = driver.run(bi.win_table_spec(), trials=30_000, seed=2, progress=False).table
    assert len(t) == 30 * 30 * 4
    at = t.set_index(["us", "them", "hands_played"])
    # mirror pooling: the two views of a state count the same games and their estimates add up to 1
    assert at.loc[(25, 3, 1), "trials"] == at.loc[(3, 25, 1), "trials"]
    assert at.loc[(25, 3, 1), "estimate"] + at.loc[(3, 25, 1), "estimate"] == 1.0
    # far ahead late in the game wins almost always; level at the start is a coin flip
    assert at.loc[(29, 0, 3), "ci_low"] > 0.8
    lvl = at.loc[(0, 0, 0)]
    assert lvl.ci_low < 0.5 < lvl.ci_high
