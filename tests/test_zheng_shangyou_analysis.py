"""Zheng Shangyou simulations: exact hand-feature odds, zero-sum scores, pairing, reproducibility, CLI."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from analysis import driver
from analysis.errors import CardlabError
from analysis.games import zheng_shangyou as zs

N = 6000


@pytest.fixture(scope="module")
def greedy_run():
    return driver.run(zs.simulation_spec(), trials=N, seed=3, progress=False)


def test_dealt_bomb_rate_matches_the_exact_value(greedy_run):
    t = greedy_run.table
    ex = zs.exact_hand_features().set_index(["hand_size", "feature"])["probability"]
    p = (2 * ex[(14, "four of a kind (a bomb)")] + 2 * ex[(13, "four of a kind (a bomb)")]) / 4
    row = t[(t.measure == "dealt") & (t.feature == "bomb")].iloc[0]
    # four seat-hands per game are not independent; bound the SE by treating them as perfectly correlated
    se = np.sqrt(p * (1 - p) / N)
    assert abs(row.estimate - p) < 5 * se


def test_scores_are_zero_sum_and_places_are_complete(greedy_run):
    t = greedy_run.table
    overall = t[(t.measure == "score") & t.seat.isna()].iloc[0]
    assert overall.total == 0
    places = t[(t.measure == "place") & t.seat.notna()]
    assert (places.groupby("place").successes.sum() == N).all()
    assert t[(t.measure == "winner") & t.seat.notna()].successes.sum() == N


def test_3d_holder_is_measured(greedy_run):
    t = greedy_run.table
    assert t[(t.measure == "holds_3D")].successes.sum() == N


def test_thread_counts_agree():
    spec = zs.simulation_spec(strategies=["random"])
    a = driver.run(spec, trials=2000, seed=9, chunk_size=100, progress=False, threads=1).rows()
    b = driver.run(spec, trials=2000, seed=9, chunk_size=100, progress=False, threads=2).rows()
    assert a == b


def test_comparing_a_strategy_with_itself_is_exactly_zero():
    t = driver.run(zs.compare_spec("greedy", "greedy"), trials=300, seed=1, progress=False).table
    assert (t.estimate == 0).all()


def test_card_value_of_the_red_joker_is_positive():
    t = driver.run(zs.card_value_spec("RJ"), trials=3000, seed=2, progress=False).table
    row = t[t.measure == "value_of_holding_win"].iloc[0]
    assert row.accepted_share == 1.0 and row.ci_low > 0


def test_matches_of_several_games():
    res = driver.run(zs.simulation_spec(games_per_match=3), trials=500, seed=4, progress=False)
    t = res.table
    assert t[(t.measure == "winner") & t.seat.notna()].successes.sum() == 1500
    # match totals: one term a match (500), each seat's total the sum of its three game scores
    seats = t.seat.notna()
    match, game = t[(t.measure == "match_score") & seats], t[(t.measure == "score") & seats]
    assert len(match) == len(game) == 4 and (match.trials == 500).all() and (game.trials == 1500).all()
    assert np.allclose(match.estimate.values * 500, game.estimate.values * 1500)
    top = t[(t.measure == "match_top") & seats]
    assert (top.trials == 500).all() and 0 < top.successes.sum() <= 500  # alone on top, or nobody on a tie
    assert zs.simulation_spec(games_per_match=3).precision_measures == ("winner", "match_top")
    single = driver.run(zs.simulation_spec(), trials=50, seed=4, progress=False).table
    assert not single.measure.str.startswith("match_").any()


@pytest.mark.parametrize(
    "kw, msg",
    [
        (dict(players=3), "4 players"),
        (dict(strategies=["planner"]), "unknown strategy"),
        (dict(games_per_match=0), "games-per-match"),
    ],
)
def test_bad_simulation_arguments(kw, msg):
    with pytest.raises(CardlabError, match=msg):
        zs.simulation_spec(**kw)


def test_simulate_value_of_a_card_is_the_card_value_table_with_its_answer(capsys):
    """``simulate --value-of 3D`` (what a new user looked for: the README's paired card values) runs the card
    value table of the API on the same deals, and says it in a line."""
    from analysis.cli import main
    from analysis.games import get

    argv = ["simulate", "zheng-shangyou", "--value-of", "3D", "--trials", "2000", "--seed", "3", "--quiet"]
    assert main([*argv, "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    api = driver.run(zs.card_value_spec("3D"), trials=2000, seed=3, progress=False).rows()
    assert rows == api
    assert main(argv) == 0
    out = capsys.readouterr().out
    win = next(r for r in api if r["measure"] == "value_of_holding_win")
    assert "the value of holding 3D, every seat greedy" in out and "2,000 deals" in out
    assert f"holding 3D is worth {100 * win['estimate']:+.2f} percentage points of win probability" in out
    # a feature not in every deal: the line says in how many (the rows count those)
    assert main(["simulate", "zheng-shangyou", "--value-of", "bomb", "--trials", "2000", "--quiet"]) == 0
    assert "holding a bomb (dealt in " in capsys.readouterr().out
    # dealt in none of a few deals: said so, not "+nan"; a few deals' win interval stays within ±100 points
    assert main(["simulate", "zheng-shangyou", "--value-of", "straight_flush", "--trials", "5", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "a straight flush was dealt in none of the 5 deals: too few for a value" in out and "nan" not in out
    few = driver.run(zs.card_value_spec("bomb"), trials=30, seed=5, progress=False).table  # 2 deals with a bomb
    w = few[few.measure == "value_of_holding_win"].iloc[0]
    assert w.trials == 2 and w.estimate + 1.96 * w.std_error > 1.0  # the normal interval would pass +1
    assert -1.0 <= w.ci_low <= w.estimate <= w.ci_high == 1.0
    # dealt in one deal only: no spread to give an interval from, said so (not "+nan")
    assert main(["simulate", "zheng-shangyou", "--value-of", "bomb", "--trials", "10", "--seed", "3", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "a bomb was dealt in only 1 of the 10 deals: too few for a value" in out and "nan" not in out
    game = get("zheng-shangyou")
    for kw, msg in (
        (dict(strategies=["0=planning"]), "one strategy at every seat"),
        (dict(games_per_match=2), "leave out --games-per-match"),
        (dict(variants={"deck": "4p_52"}), r"RJ is not in this deck \(deck=4p_52\); features there: 3D, 2S"),
    ):
        with pytest.raises(CardlabError, match=msg):
            game.simulation_spec(value_of="RJ" if "variants" in kw else "3D", **kw)


def test_cli_simulate_json():
    p = subprocess.run(
        [
            sys.executable,
            "-m",
            "analysis",
            "simulate",
            "zheng-shangyou",
            "--trials",
            "200",
            "--games-per-match",
            "2",
            "--format",
            "json",
            "--quiet",
        ],
        capture_output=True,
        text=True,
    )
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    assert doc["meta"]["games_per_match"] == 2 and doc["rows"][0]["measure"] == "winner"
    p = subprocess.run(
        [sys.executable, "-m", "analysis", "simulate", "bisko-bobo", "--trials", "10", "--games-per-match", "2"],
        capture_output=True,
        text=True,
    )
    assert p.returncode == 2 and "does not take --games-per-match" in p.stderr


def test_exact_hand_features_match_closed_forms():
    """One deck: the generating-function count equals inclusion-exclusion over the ranks held four times;
    the jokers and the twos are hypergeometric; each table's twos add up to 1."""
    from math import comb

    ex = zs.exact_hand_features().set_index(["hand_size", "feature"])["probability"]
    for size in (14, 13):
        total = comb(54, size)
        bomb = (
            sum((-1) ** (k + 1) * comb(13, k) * comb(54 - 4 * k, size - 4 * k) for k in range(1, size // 4 + 1)) / total
        )
        assert ex[(size, "four of a kind (a bomb)")] == bomb
        assert ex[(size, "the red joker")] == size / 54
        assert ex[(size, "both jokers")] == comb(52, size - 2) / total
    for P, v in ((None, {}), (5, {"deck": "5to8p_108"}), (8, {"deck": "5to8p_108"}), (None, {"deck": "3p_52"})):
        t = zs.exact_hand_features(P, v)
        twos = t[t.feature.str.match(r"exactly \d+ twos?$")].groupby("hand_size").probability.sum()
        assert np.allclose(twos, 1.0)


def test_two_deck_dealt_bomb_rate_matches_the_exact_value():
    """Two decks, 5 players (22, 22, 22, 21, 21 cards): the kernel's dealt hands hold four or more of a rank as
    often as the exact count says."""
    n = 3000
    t = driver.run(
        zs.simulation_spec(players=5, variants={"deck": "5to8p_108"}, strategies=["random"]),
        trials=n,
        seed=5,
        progress=False,
    ).table
    ex = zs.exact_hand_features(5, {"deck": "5to8p_108"}).set_index(["hand_size", "feature"])["probability"]
    p = (3 * ex[(22, "four of a kind (a bomb)")] + 2 * ex[(21, "four of a kind (a bomb)")]) / 5
    row = t[(t.measure == "dealt") & (t.feature == "bomb")].iloc[0]
    se = np.sqrt(p * (1 - p) / n)  # five seat-hands a deal: bounded as if perfectly correlated
    assert abs(row.estimate - p) < 5 * se


@pytest.mark.parametrize(
    "players, variants, per",
    [(None, {}, 1), (None, {"score_timing": "at_end"}, 2), (3, {"deck": "3p_54"}, 1), (6, {"deck": "5to8p_108"}, 2)],
)
def test_the_pooled_rows_the_rules_fix_are_exact(players, variants, per):
    """Pooled over the seats, the winner and place shares are 1/players and the score (and a match's) 0 in every
    game (ZS-7, ZS-8): the counts say so, and the rows carry a zero-width interval (as a mean of seat-games,
    which are not independent within a game, they had looked like a measurement of fairness)."""
    spec = zs.simulation_spec(players=players, variants=variants, games_per_match=per)
    t = driver.run(spec, trials=300, seed=4, progress=False).table
    P = int(spec.describe["players"])
    for m in ("winner", "score", "place", "match_score"):
        pooled = t[(t.measure == m) & t.seat.isna()]
        assert len(pooled) == (0 if m == "match_score" and per == 1 else P if m == "place" else 1)
        for _, row in pooled.iterrows():
            seats = t[(t.measure == m) & t.seat.notna()]
            if m == "place":
                seats = seats[seats.place == row.place]
            total = float((seats.estimate * seats.trials).sum())
            assert total == pytest.approx(0.0 if "score" in m else float(seats.trials.iloc[0]), abs=1e-6)
            assert row.std_error == 0 and row.ci_low == row.ci_high == row.estimate
            assert row.estimate == pytest.approx(0.0 if "score" in m else 1 / P, abs=1e-12)
