"""Report sections are functions of the runs: their numbers are built and checked without matplotlib, and the
figures are drawn only when a report is written (analysis/sections/)."""

import json
import subprocess
import sys

import pandas as pd

from analysis.report import write_report
from analysis.sections import biscuits as S

PROBE = """
import json, sys
from analysis.sections import biscuits as S
r = S.runs(scale=0.001, seed=1, progress=False)
sections = [f(r) for f in S.SECTIONS]
out = {"matplotlib": "matplotlib" in sys.modules, "titles": [s.title for s in sections]}
print(json.dumps(out))
"""


def test_sections_build_without_matplotlib():
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True)
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["matplotlib"] is False
    assert len(out["titles"]) == len(S.SECTIONS) and all(out["titles"])


def test_section_numbers_and_figures(tmp_path):
    runs = S.runs(scale=0.001, seed=1, progress=False)
    # exactly one player goes out first in each hand (BI-8): the seats' shares add up to 1 for every strategy
    seats = S.points_by_seat(runs).table
    first = seats[seats.measure == "out_first"].groupby("strategy").estimate.sum()
    assert set(first.index) == set(S.FIELD_STRATEGIES)
    assert all(abs(v - 1.0) < 1e-12 for v in first)
    # one Starter row per strategy, each over every hand its run played (the Starter is in every hand, BI-3)
    starter = S.starter_advantage(runs).table.set_index("strategy")
    hands = {k: t[(t.measure == "out_first") & t.seat.notna()].trials.iloc[0] for k, t in runs["games"].items()}
    assert {k: int(v) for k, v in starter.trials.items()} == {k: int(v) for k, v in hands.items()}
    # the exact section is the exact table itself
    from analysis.games.biscuits import exact_hand_combinations

    pd.testing.assert_frame_equal(S.exact_odds(runs).table, exact_hand_combinations(13))
    # figures are drawn when the report is written: one PNG per draw function
    sections = [f(runs) for f in S.SECTIONS]
    folder = write_report("biscuits", "t", "i", sections, tmp_path)
    assert len(list(folder.glob("fig*.png"))) == sum(len(s.figures) for s in sections) > 0


def test_the_worked_position_and_the_reviewed_hand():
    """The advisor's section ranks the leads best first (the best's difference is 0, every other at or below
    it) and the review's section reports non-negative losses, positive exactly where a decision is clearly
    worse (the answer's rules, positions.md)."""
    runs = S.runs(scale=0.001, seed=1, progress=False)
    t = S.worked_position(runs).table
    assert t.iloc[0]["verdict"] == "best" and t.iloc[0]["diff_points"] == 0
    assert (t["diff_points"] <= 0).all() and t["net_points"].is_monotonic_decreasing
    r = S.reviewed_hand(runs).table
    assert len(r) and (r["loss_score"] >= 0).all()
    assert ((r["loss_score"] > 0) == (r["verdict"] == "worse")).all()
