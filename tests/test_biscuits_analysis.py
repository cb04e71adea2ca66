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
    assert t[(t.measure == "out_first") & t.seat.notna()].successes.sum() == hands   # one first out per hand
    assert t[t.measure == "game_won"].successes.sum() == 600                          # ties play on (BI-12)


def test_hand_unit():
    t = driver.run(bi.simulation_spec(unit="hand"), trials=500, seed=1, progress=False).table
    assert t[(t.measure == "starter") & t.seat.notna()].successes.sum() == 500
    assert "game_won" not in set(t.measure)


@pytest.mark.parametrize("kw, msg", [(dict(variants={"pass_locks_out": "true"}), "not implemented yet"),
                                     (dict(unit="deal"), "bad --unit"), (dict(players=5), "exactly 4 players"),
                                     (dict(strategies=["planner"]), "unknown strategy")])
def test_bad_arguments(kw, msg):
    with pytest.raises(CardlabError, match=msg):
        bi.simulation_spec(**kw)


def test_cli_simulate():
    p = subprocess.run([sys.executable, "-m", "analysis", "simulate", "biscuits", "--trials", "200", "--unit", "hand",
                        "--format", "json", "--quiet"], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["meta"]["unit"] == "hand"
