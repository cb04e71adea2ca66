"""Golden files: small fixed-seed tables compared exactly (regenerate only for an intended rule change).

Regenerate with:
    cardlab simulate bisko-bobo --players 4 --trials 5000 --seed 1 --strategy random --format json --quiet
and keep its "rows".
"""

import json
from pathlib import Path

from analysis import driver
from analysis.games import bisko_bobo as bb
from analysis.tables import Result

GOLDEN = Path(__file__).parent / "golden"


def test_bisko_bobo_golden_table():
    res = driver.run(bb.simulation_spec(4, strategies=["random"]), trials=5000, seed=1, progress=False)
    got = json.loads(json.dumps(Result(res.table).rows(), sort_keys=True))
    want = json.loads((GOLDEN / "bisko-bobo-4p-random-seed1.json").read_text())
    assert got == want
