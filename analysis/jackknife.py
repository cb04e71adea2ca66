"""Standard errors from a run's chunks: the delete-one-group jackknife.

The kernels merge their counts chunk by chunk, and every chunk holds its own trials (its own per-trial random
streams), so chunks are independent replicates of the run. Leaving out one group of chunks at a time and
tabulating the rest gives, for any row of any table (a ratio of counts included), the jackknife's standard
error, with Student's t on groups - 1 degrees of freedom for the interval. Used where the counts alone cannot
give a standard error: a row pooled over the seats of one deal (the seats are not independent trials, so the
binomial error of seat-deals is wrong, either way), a mean whose sum of squares the kernel does not keep, and the
paired difference of two runs (compare-variants).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .stats import t_value, wilson, z_value

#: the jackknife's groups of chunks, at most: enough degrees of freedom for t (t at 31 df is 2.04 against the
#: normal's 1.96), few enough that the tables of the deleted groups take a moment
GROUPS = 32


def key_columns(table: pd.DataFrame) -> list[str]:
    """The columns that name a row (measure, seat, round, ...): every game's tidy table has them before
    ``trials``."""
    cols = list(table.columns)
    return cols[: cols.index("trials")] if "trials" in cols else ["measure"]


def row_keys(table: pd.DataFrame, cols: list[str]) -> list[tuple]:
    """Each row's key: its ``cols`` as text, "" where missing (read a column at a time: a Bismarck run's 33
    tables of some 400 rows had spent a third of a small run testing each value for NaN)."""
    if not cols:
        return [()] * len(table)
    text = []
    for c in cols:
        col = table[c]
        text.append(["" if m else str(v) for v, m in zip(col.tolist(), col.isna().tolist(), strict=True)])
    return list(zip(*text, strict=True))


def column_of(table: pd.DataFrame, name: str, order: dict[tuple, int], cols: list[str]) -> np.ndarray:
    """Column ``name`` of ``table`` in the row order of ``order`` (NaN where the table lacks the row)."""
    out = np.full(len(order), np.nan)
    for k, e in zip(row_keys(table, cols), table[name].to_numpy(dtype=float), strict=True):
        i = order.get(k)
        if i is not None:
            out[i] = e
    return out


def chunk_trials(n_chunks: int, chunk_size: int, trials: int) -> np.ndarray:
    """The trials each chunk ran: whole chunks but the last, which stops at ``trials``."""
    n = np.full(n_chunks, chunk_size, dtype=np.int64)
    n[-1] = trials - chunk_size * (n_chunks - 1)
    return n


def chunk_size_for(trials: int, size: int) -> int:
    """A chunk size of at most ``size`` that cuts ``trials`` into at least :data:`GROUPS` chunks where the trials
    allow (a --trials run's counts do not depend on the chunk size; the jackknife needs the chunks)."""
    return max(1, min(int(size), int(trials) // GROUPS))


def groups_of(n_chunks: int) -> list[np.ndarray]:
    """The jackknife's groups: consecutive chunks, at most :data:`GROUPS` groups of sizes within one."""
    return np.array_split(np.arange(n_chunks), min(GROUPS, n_chunks))


def replicates(spec, rows: np.ndarray, trials: int, chunk_size: int, order: dict[tuple, int], cols: list[str]):
    """The estimates of ``order``'s rows with each group of chunks left out in turn: float[groups, rows]."""
    per_chunk = chunk_trials(len(rows), chunk_size, trials)
    total = rows.sum(axis=0)
    groups = groups_of(len(rows))
    out = np.full((len(groups), len(order)), np.nan)
    keys, at = None, np.empty(0, dtype=np.int64)
    for j, idx in enumerate(groups):
        left = trials - int(per_chunk[idx].sum())
        rep = spec.tabulate(total - rows[idx].sum(axis=0), left, spec)
        # where each replicate row goes in ``order``: its keys read once and reused while the replicates' rows name
        # the same keys (nearly always: a tabulate's rows follow the kernel's layout); -1 for a row not in order
        now = rep[cols].reset_index(drop=True)
        if keys is None or not now.equals(keys):
            keys, at = now, np.array([order.get(k, -1) for k in row_keys(rep, cols)], dtype=np.int64)
        mine = at >= 0
        out[j, at[mine]] = rep["estimate"].to_numpy(dtype=float)[mine]
    return out


def jackknife_se(reps: np.ndarray) -> np.ndarray:
    """The delete-one-group jackknife's standard error of each column of ``reps`` (NaN with one group)."""
    g = len(reps)
    if g < 2:
        return np.full(reps.shape[1], np.nan)
    with np.errstate(invalid="ignore"):
        return np.sqrt((g - 1) / g * ((reps - reps.mean(axis=0)) ** 2).sum(axis=0))


def pooled_rows(table: pd.DataFrame) -> np.ndarray:
    """The rows pooled over the seats, teams or roles: every such key missing where other rows of the measure have
    one (as :func:`analysis.tables.label_pooled` labels them "all"), or of a measure the tabulate names in
    ``table.attrs["pooled_measures"]`` (counted over every seat's trial though no seat has a row of its own:
    Zheng Shangyou's ``dealt``); another measure never split by them is a per-trial measure, not pooled."""
    who = [c for c in ("seat", "team", "role") if c in table]
    if not who:
        return np.zeros(len(table), dtype=bool)
    blank = table[who].isna().all(axis=1)
    split = set(table.loc[~blank, "measure"]) | set(table.attrs.get("pooled_measures", ()))
    return (blank & table["measure"].isin(split)).to_numpy()


def with_pooled_intervals(
    table: pd.DataFrame, spec, rows: np.ndarray, trials: int, chunk_size: int, confidence=0.95, only=None
):
    """``table`` (the merged counts' tidy table) with standard errors and intervals from the jackknife over
    ``rows``' chunks for the rows the counts cannot give one: rows pooled over the seats (but one the rules fix,
    of no width, or one the tabulate worked out from the rules, named in ``table.attrs["pooled_by_rules"]``), and
    means the kernel keeps no sum of squares for (swaps a deal, hands a game), and every row of a table whose trials
    are not independent (``table.attrs["dependent_trials"]``: the games of a match). A share's interval is Wilson's
    on the trials worth the jackknife's error. Where the jackknife has nothing to say (a single chunk; a row missing from a replicate's
    table) a row keeps the interval its counts give, if any. ``only``: the rows of these measures alone."""
    se0 = table["std_error"].to_numpy(dtype=float)
    pick = pooled_rows(table) | bool(table.attrs.get("dependent_trials", False))
    pick &= ~table["measure"].isin(table.attrs.get("pooled_by_rules", ())).to_numpy()
    pick &= se0 != 0
    pick |= np.isnan(se0) & np.isfinite(table["estimate"].to_numpy(dtype=float))
    if only is not None:  # these measures' rows alone (the rest keep the counts' intervals)
        pick &= table["measure"].isin(list(only)).to_numpy()
    if not pick.any():
        return table
    cols = key_columns(table)
    sub = table[pick]
    order = {k: i for i, k in enumerate(row_keys(sub, cols))}
    reps = replicates(spec, rows, trials, chunk_size, order, cols) if len(rows) >= 2 else np.zeros((1, len(order)))
    se = jackknife_se(reps)
    q = t_value(confidence, len(reps) - 1) if len(reps) >= 2 else np.nan
    half = q * se
    est = sub["estimate"].to_numpy(dtype=float)
    lo, hi = est - half, est + half
    if "successes" in sub:
        # a share: Wilson's interval on the trials worth the jackknife's error (p(1 - p) / se**2, the error widened
        # by t over z), asymmetric near 0 and 1 as a rare event's must be (a symmetric one clipped at 0 had held
        # 1 in 63 at 0 to 0.048)
        share = sub["successes"].notna().to_numpy() & (se > 0) & (est > 0) & (est < 1)
        z = z_value(confidence)
        with np.errstate(invalid="ignore", divide="ignore"):
            n_eff = est * (1 - est) / (se * q / z) ** 2
            _, _, wl, wh = wilson(np.where(share, est * n_eff, 0.0), np.where(share, n_eff, 1.0), confidence)
        lo = np.where(share, wl, lo)
        hi = np.where(share, wh, hi)
    # a row some group's deletion leaves out of the table (a score seen once) has no jackknife: it keeps the
    # interval its counts give, if any (a rare event's Wilson interval)
    own = ~np.isfinite(se) & np.isfinite(sub["std_error"].to_numpy(dtype=float))
    out = table.copy()
    out.loc[pick, "std_error"] = np.where(own, sub["std_error"].to_numpy(dtype=float), se)
    out.loc[pick, "ci_low"] = np.where(own, sub["ci_low"].to_numpy(dtype=float), lo)
    out.loc[pick, "ci_high"] = np.where(own, sub["ci_high"].to_numpy(dtype=float), hi)
    return out
