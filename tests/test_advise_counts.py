"""The advisors' shared count row (kernels/advise.py): per action the sums, per pair of actions the cross sums of
the win events, the payoffs and the losing events, against numpy on random outcomes; and the paired differences
analysis.advisor draws from them."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from analysis.advisor import tabulate_actions
from kernels.advise import (
    A_FIELDS,
    A_LAST,
    A_PAIR,
    A_SAMPLES,
    A_SCORE,
    A_WIN,
    add_action,
    add_sample,
    advise_width,
    pair_index,
)


def test_the_count_row_holds_every_pair_s_cross_sums():
    rng = np.random.default_rng(3)
    A, N = 5, 300
    win = rng.integers(0, 2, (N, A))
    last = np.where(win == 1, 0, rng.integers(0, 2, (N, A)))  # the Winner is never the Loser
    score = rng.integers(-20, 30, (N, A))
    row = np.zeros(advise_width(A), dtype=np.int64)
    wins = np.zeros(A, dtype=np.int64)
    scores = np.zeros(A, dtype=np.int64)
    for t in range(N):
        for a in range(A):
            add_action(row, a, win[t, a], score[t, a], last[t, a], wins, scores)
        add_sample(row, A, wins, scores)
    assert row[A_SAMPLES] == N
    for a in range(A):
        b = 1 + A_FIELDS * a
        assert (row[b + A_WIN], row[b + A_SCORE], row[b + A_LAST]) == (win[:, a].sum(), score[:, a].sum(),
                                                                       last[:, a].sum())  # fmt: skip
        for c in range(a + 1, A):
            p = 1 + A_FIELDS * A + A_PAIR * pair_index(a, c, A)
            assert list(row[p : p + A_PAIR]) == [(win[:, a] * win[:, c]).sum(), (score[:, a] * score[:, c]).sum(),
                                                 (last[:, a] * last[:, c]).sum()]  # fmt: skip
    # the paired differences to the best (action 0 ranked first here) are the per-sample differences' mean and
    # standard error
    spec = SimpleNamespace(describe={"actions": [f"a{i}" for i in range(A)], "seat": 0})
    t = tabulate_actions(row, N, spec, ranking=list(range(A)))
    for m, x in (("diff_win", win), ("diff_score", score), ("diff_last", last)):
        for a in range(1, A):
            d = (x[:, a] - x[:, 0]).astype(float)
            r = t[(t.measure == m) & (t.action == f"a{a}")].iloc[0]
            assert r.estimate == pytest.approx(d.mean())
            assert r.std_error == pytest.approx(d.std(ddof=1) / np.sqrt(N), rel=1e-9), (m, a)  # the same n - 1 estimate


def test_the_table_lists_the_best_then_the_uncertain_then_the_clearly_worse():
    """Each group in the ranking's order: an action whose paired difference to the best is tight lies clearly
    below it though its win chance is higher than that of one whose difference is wide (not separated); the latter
    is listed first (below a clearly worse one it had read as a contradiction, a new user found)."""
    N = 400
    i = np.arange(N)
    best = i < 240
    tight = i < 228  # wins only where the best does, 12 fewer: clearly worse, by 0.03
    wide = (i >= 100) & (i < 320)  # 220 wins, 100 of the best's lost and 80 others won: not separated
    win = np.stack([best, tight, wide], axis=1).astype(np.int64)
    row = np.zeros(advise_width(3), dtype=np.int64)
    wins, scores = np.zeros(3, dtype=np.int64), np.zeros(3, dtype=np.int64)
    for t in range(N):
        for a in range(3):
            add_action(row, a, win[t, a], win[t, a], 0, wins, scores)
        add_sample(row, 3, wins, scores)
    assert win[:, 0].sum() > win[:, 1].sum() > win[:, 2].sum()  # the ranking: best, tight, wide
    spec = SimpleNamespace(describe={"actions": ["best", "tight", "wide"], "seat": 0})
    t = tabulate_actions(row, N, spec)
    verdicts = dict(zip(t["action"], t["verdict"], strict=False))
    assert verdicts == {"best": "best", "tight": "worse", "wide": "uncertain"}
    assert list(dict.fromkeys(t["action"])) == ["best", "wide", "tight"]
