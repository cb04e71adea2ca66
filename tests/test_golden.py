"""Golden files: small fixed-seed tables compared exactly (regenerate only for an intended change of rules or of
how draws map to decisions, and say so in the commit).

Regenerate a file with the command in its ``GOLDEN_TABLES`` entry (``--format json --quiet``) and keep the
output's "rows", or with ``python -m tests.test_golden`` (all of them).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from analysis import driver
from analysis.games import biscuits as bi
from analysis.games import bisko_bobo as bb
from analysis.games import bismarck as bm
from analysis.games import zheng_shangyou as zs
from analysis.tables import Result

GOLDEN = Path(__file__).parent / "golden"

# file -> (the spec, trials, the CLI command that prints the same rows)
GOLDEN_TABLES = {
    "bisko-bobo-4p-random-seed1.json": (
        lambda: bb.simulation_spec(4, strategies=["random"]),
        5000,
        "cardlab simulate bisko-bobo --players 4 --trials 5000 --seed 1 --strategy random",
    ),
    "zheng-shangyou-4p-random-seed1.json": (
        lambda: zs.simulation_spec(strategies=["random"]),
        2000,
        "cardlab simulate zheng-shangyou --trials 2000 --seed 1 --strategy random",
    ),
    "zheng-shangyou-4p-mixed-seed1.json": (
        lambda: zs.simulation_spec(strategies=["0=planning", "1=greedy", "2=random", "3=greedy-stop"]),
        1000,
        "cardlab simulate zheng-shangyou --trials 1000 --seed 1 --strategy 0=planning --strategy 1=greedy "
        "--strategy 2=random --strategy 3=greedy-stop",
    ),
    "biscuits-hand-greedy-seed1.json": (
        lambda: bi.simulation_spec(unit="hand", strategies=["greedy"]),
        1000,
        "cardlab simulate biscuits --unit hand --trials 1000 --seed 1 --strategy greedy",
    ),
    "bismarck-hand-round1-random-seed1.json": (
        lambda: bm.simulation_spec(unit="hand", round=1, strategies=["random"]),
        2000,
        "cardlab simulate bismarck --unit hand --round 1 --trials 2000 --seed 1 --strategy random",
    ),
}


def _rows(name: str) -> list:
    spec, trials, _ = GOLDEN_TABLES[name]
    res = driver.run(spec(), trials=trials, seed=1, progress=False)
    return json.loads(json.dumps(Result(res.table).rows(), sort_keys=True))


@pytest.mark.parametrize("name", sorted(GOLDEN_TABLES))
def test_golden_table(name):
    """A fixed-seed table of each game, compared exactly with its golden file."""
    assert _rows(name) == json.loads((GOLDEN / name).read_text())


if __name__ == "__main__":
    for name in GOLDEN_TABLES:
        (GOLDEN / name).write_text(json.dumps(_rows(name), sort_keys=True, indent=0))
        print("wrote", GOLDEN / name)
