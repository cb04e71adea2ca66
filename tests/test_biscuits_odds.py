"""Biscuits' advisor for the pass (issue 34, BI-4): the kernel against the reference on the same sampled deals
and draws, the sampler, the answer table and the CLI."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from collections import Counter

import numpy as np
import pytest

from analysis import cli
from analysis.driver import run_chunks
from analysis.errors import CardlabError
from analysis.games import biscuits_odds as bo
from kernels import rng
from kernels.advise import A_SAMPLES
from tests.reference import biscuits as ref
from tests.test_biscuits_game import legal_for

HAND = "2C 3D 4H 5S 7C 8D 9H TS JC QD KH AS 6C"


@pytest.mark.parametrize("models, seat, starter", [(["greedy"], 0, 0), (["random"], 1, 3), (["planning"], 2, 1)])
def test_the_advisor_equals_the_reference_on_each_sample(models, seat, starter):
    """Per sample: the 39 unseen cards dealt 13 to each other seat, every pass of the 78 tried with the same
    draws; the reference plays each hand (the other seats passing by their policies) to the same points."""
    spec = bo.pass_spec(hand=HAND, seat=seat, starter=starter, strategies=models)
    _seat, mask, pool, gives, _starter, strat, bv = spec.args
    assert len(gives) == 78 and len(set(gives.tolist())) == 78
    n = 6
    rows = run_chunks(spec.kernel, spec.args, np.zeros(1, dtype=np.int64), n, n, np.uint64(5), np.uint64(0),
                      spec.n_counts)[0]  # fmt: skip
    legal = legal_for(bv)
    st = rng.new_state()
    strategies = [tuple(int(x) for x in r) for r in strat]
    score = Counter()
    wins = Counter()
    for t in range(n):
        rng.seed_state(st, np.uint64(5), np.uint64(0), np.uint64(t), np.uint64(rng.STREAM_DEAL))
        deck = pool.copy()
        rng.partial_shuffle(st, deck, deck.shape[0])
        others = [s for s in range(4) if s != seat]
        hands = [set() for _ in range(4)]
        hands[seat] = {c for c in range(52) if (int(mask) >> c) & 1}
        for k, s in enumerate(others):
            hands[s] = set(int(c) for c in deck[13 * k : 13 * k + 13])
        assert set().union(*hands) == set(range(52)) and all(len(h) == 13 for h in hands)
        for a, g in enumerate(gives):
            rng.seed_state(st, np.uint64(5), np.uint64(0), np.uint64(t), np.uint64(rng.STREAM_STRATEGY))
            cards = {c for c in range(52) if (int(g) >> c) & 1}
            points, _, _ = ref.play_hand(
                hands, starter, strategies, legal, lambda k: int(rng.below(st, k)), forced=(seat, cards)
            )
            net = points[seat % 2] - points[1 - seat % 2]
            score[a] += net
            wins[a] += 1 if net > 0 else 0
    assert rows[A_SAMPLES] == n
    per = rows[1 : 1 + 4 * 78].reshape(78, 4)
    assert per[:, 1].tolist() == [score[a] for a in range(78)]
    assert per[:, 0].tolist() == [wins[a] for a in range(78)]


def test_the_unseen_cards_are_dealt_uniformly():
    """Each unseen card lands in each other seat with probability 1/3: chi-square over 39 x 3 cells."""
    spec = bo.pass_spec(hand=HAND, strategies=["greedy"])
    pool = spec.args[2]
    st = rng.new_state()
    cells = Counter()
    n = 3000
    for t in range(n):
        rng.seed_state(st, np.uint64(7), np.uint64(0), np.uint64(t), np.uint64(rng.STREAM_DEAL))
        deck = pool.copy()
        rng.partial_shuffle(st, deck, deck.shape[0])
        for i, c in enumerate(deck):
            cells[(int(c), i // 13)] += 1
    expected = n / 3
    chi2 = sum((cells[(int(c), k)] - expected) ** 2 / expected for c in pool for k in range(3))
    dof = 39 * 2  # each card's three cells sum to n
    limit = dof * (1 - 2 / (9 * dof) + 3.09 * math.sqrt(2 / (9 * dof))) ** 3  # the 99.9% point
    assert chi2 < limit, chi2


def test_the_answer_ranks_every_pass_by_points():
    r = bo.odds({"trials": 256, "chunk_size": 128, "seed": 1, "progress": False}, hand=HAND)
    t = r.table
    assert set(t.measure) == {"win", "score", "diff_win", "diff_score"}  # no Loser in Biscuits
    s = t[t.measure == "score"].reset_index(drop=True)
    assert len(s) == 78 and s.loc[0, "verdict"] == "best"
    assert s["estimate"].is_monotonic_decreasing
    d = t[(t.measure == "diff_score") & (t.verdict == "worse")]
    assert (d["ci_high"] < 0).all()
    assert r.meta["answer"].startswith(f"Pass {s.loc[0, 'action'][5:]}: net points ")
    assert r.meta["models"] == ["planning"] * 4


def test_precision_holds_the_point_differences():
    r = bo.odds({"precision": 0.5, "chunk_size": 256, "seed": 2, "progress": False}, hand=HAND, strategies=["greedy"])
    d = r.table[(r.table.measure == "diff_score") & (r.table.verdict != "best")]
    half = (d.ci_high - d.ci_low) / 2
    assert ((half <= 0.5) | (d.ci_high < 0) | (d.ci_low > 0)).all()
    assert r.meta["precision_reached"]


@pytest.mark.parametrize(
    "position, msg",
    [
        ({"hand": "2C 3D"}, "--hand holds 2 cards"),
        ({"hand": HAND, "seat": 4}, "bad --seat 4"),
        ({"hand": HAND, "starter": -1}, "bad --starter -1"),
        ({"hand": HAND, "decision": "play"}, "answers the pass"),
        ({"hand": HAND, "strategies": ["nobody"]}, "unknown strategy 'nobody'"),
    ],
)
def test_bad_positions_are_refused_in_one_line(position, msg):
    with pytest.raises(CardlabError) as e:
        bo.odds({"trials": 8, "progress": False}, **position)
    assert msg in str(e.value) and "\n" not in str(e.value)


def test_cli_flags_and_position_file_agree(tmp_path, capsys):
    doc = {"game": "biscuits", "seat": 1, "hand": HAND, "starter": 2, "models": "greedy"}
    f = tmp_path / "pos.json"
    f.write_text(json.dumps(doc))
    common = ["--trials", "64", "--chunk-size", "64", "--quiet", "--format", "json"]
    assert cli.main(["odds", "biscuits", "--position", str(f), *common]) == 0
    a = json.loads(capsys.readouterr().out)
    flags = ["--seat", "1", "--hand", HAND, "--starter", "2", "--strategy", "greedy"]
    assert cli.main(["odds", "biscuits", *flags, *common]) == 0
    b = json.loads(capsys.readouterr().out)
    assert a["rows"] == b["rows"] and len(a["rows"]) == 78 * 4
    p = subprocess.run([sys.executable, "-m", "analysis", "odds", "biscuits", "--help"], capture_output=True, text=True)
    assert "(default planning)" in p.stdout
