"""Two runs of the same trials in other chunks (another chunk size, a search spec's small chunks): the counts and
estimates are the same, and so is every seat's (team's, role's) own interval; the rows whose interval is the
jackknife's over the chunks (pooled over seats, means without a sum of squares: analysis/jackknife.py) may differ
in their intervals only."""

from __future__ import annotations

import pandas as pd

JACKKNIFED = ["std_error", "ci_low", "ci_high"]


def assert_same_counts(a: pd.DataFrame, b: pd.DataFrame) -> None:
    assert a.drop(columns=JACKKNIFED).equals(b.drop(columns=JACKKNIFED))
    who = [c for c in ("seat", "team", "role") if c in a]
    own = a[who].notna().any(axis=1) if who else pd.Series(False, index=a.index)
    assert own.any() and a[own].equals(b[own])
