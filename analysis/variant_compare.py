"""A paired comparison of two sets of rule variants on the same deals (``cardlab compare-variants``).

A designer's question, "does this rule change the figures?", asked on common random numbers: the simulation
runs twice with the same seed, once with the field's variants and once with the challenger's (the field's with
the ``--challenger-variant`` changes), every trial drawing from the same per-trial streams in both. Where the
rule leaves a trial's deal alone, the two runs play the same deals, and the deal-to-deal spread cancels in the
difference.

The kernels merge their counts chunk by chunk, so the pairing is kept at the chunk level: a chunk of the field's
run and the chunk of the same number in the challenger's run hold the same trials. The interval of each row's
difference (challenger - field) is a delete-one-group jackknife over groups of whole chunks (at most
:data:`GROUPS`), with Student's t on groups - 1 degrees of freedom: the estimates are ratios of counts (a share
of the deals where a seat took a Flingo, a mean of tricks a role-hand), which the jackknife handles as it
handles a plain mean, and every measure of every game gets its interval from the same code. The variance of a
group's summed difference is the sum of its trials' differences' variances, so nothing of the pairing is lost;
with few groups the interval is wider (t), never narrower.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from .driver import DEFAULT_CHUNK_SIZE
from .driver import run as run_spec
from .errors import CardlabError
from .jackknife import chunk_size_for, column_of, jackknife_se, key_columns, replicates, row_keys
from .stats import t_value
from .tables import Result, _decimals, _fixed


def paired_jackknife(spec_a, spec_b, rows_a, rows_b, trials: int, chunk_size: int, confidence: float = 0.95):
    """Each row's estimate under A and under B, the difference B - A, and its jackknife standard error and
    interval (the same groups of chunks deleted in turn from both runs).

    Returns (a DataFrame with the key columns, ``trials`` (A's), ``field_value``, ``challenger_value``,
    ``estimate``, ``std_error``, ``ci_low``, ``ci_high``, in the field's table's order, the rows both tables
    have; a boolean array, true where both tables fix the row by the rules (no interval: the seats' win
    shares add to 1); the number of groups)."""
    n_chunks = len(rows_a)
    if len(rows_b) != n_chunks or n_chunks == 0:
        raise ValueError("the two runs must hold the same chunks")
    table_a = spec_a.tabulate(rows_a.sum(axis=0), trials, spec_a)
    table_b = spec_b.tabulate(rows_b.sum(axis=0), trials, spec_b)
    cols = key_columns(table_a)
    if key_columns(table_b) != cols:
        raise CardlabError("the two rule sets' tables have different columns: they cannot be compared row by row")
    keys_b = set(row_keys(table_b, cols))
    base = table_a.iloc[[i for i, k in enumerate(row_keys(table_a, cols)) if k in keys_b]].reset_index(drop=True)
    order = {k: i for i, k in enumerate(row_keys(base, cols))}
    a = column_of(table_a, "estimate", order, cols)
    b = column_of(table_b, "estimate", order, cols)
    fixed = (column_of(table_a, "std_error", order, cols) == 0) & (column_of(table_b, "std_error", order, cols) == 0)
    diff = b - a
    reps = replicates(spec_b, rows_b, trials, chunk_size, order, cols)
    reps -= replicates(spec_a, rows_a, trials, chunk_size, order, cols)
    se = jackknife_se(reps)
    g = len(reps)
    half = t_value(confidence, g - 1) * se if g >= 2 else se
    out = base[cols].copy()
    out["trials"] = base["trials"].to_numpy()
    out["field_value"] = a
    out["challenger_value"] = b
    out["estimate"] = diff
    out["std_error"] = np.where(fixed, 0.0, se)
    out["ci_low"] = np.where(fixed, diff, diff - half)
    out["ci_high"] = np.where(fixed, diff, diff + half)
    return out, fixed, g


def _words(variants: dict[str, str]) -> str:
    return ", ".join(f"{k}={v}" for k, v in variants.items())


def _who(r, keys: list[str]) -> str:
    named = [f"{c} {r[c]}" for c in keys if not pd.isna(r[c])]
    return ", ".join(named) if named else "pooled"


def _span(r) -> str:
    """The signed difference and its interval, to the decimals the interval's width warrants (as the table)."""
    d, lo, hi = float(r["estimate"]), float(r["ci_low"]), float(r["ci_high"])
    if not (math.isfinite(lo) and hi > lo):
        return f"{d:+.4g}"
    n = _decimals(hi - lo)

    def signed(v: float) -> str:
        text = _fixed(v, n)
        return text if text.startswith("-") else "+" + text

    return f"{signed(d)}, 95% interval {signed(lo)} to {signed(hi)}"


def verdict(
    table: pd.DataFrame, fixed: np.ndarray, measure: str, changed: dict[str, str], field: dict[str, str]
) -> str | None:
    """One line about ``measure``: which way the change moves its pooled row, or, where the rules fix that row
    (``fixed``: the seats' win shares add to 1) or there is none, which rows it moves clearly (the largest first),
    or that it moves none clearly; each difference challenger - field with its interval."""
    pick = (table["measure"] == measure).to_numpy() & np.isfinite(table["estimate"].to_numpy(dtype=float))
    if not pick.any():
        return None
    head = f"{_words(changed)} instead of {_words({k: field[k] for k in changed})}"
    sampled = table[pick & ~fixed]
    if not len(sampled):
        return f"{head}: {measure} is fixed by the rules in every row here"
    # the key columns that tell these rows apart (round 3 of a one-round run is in the header already)
    keys = [c for c in key_columns(table) if c != "measure" and sampled[c].astype(str).nunique() > 1]
    pooled = [c for c in key_columns(table) if c in ("seat", "team", "role")]
    if (sampled["std_error"] == 0).all() and (sampled["estimate"] == 0).all():
        return (
            f"{head}: {measure} the same in every row on all {int(sampled['trials'].max()):,} trials (the rule "
            "changed nothing there)"
        )
    whole = sampled[sampled[pooled].isna().all(axis=1)] if pooled else sampled.iloc[:0]
    if len(whole):
        r = whole.iloc[0]
        lo, hi = float(r["ci_low"]), float(r["ci_high"])
        how = "raises" if lo > 0 else "lowers" if hi < 0 else None
        if how is None:
            return f"{head}: no clear change in {measure} (pooled) ({_span(r)})"
        return f"{head} {how} {measure} (pooled) ({_span(r)})"
    if len(sampled) == 1:
        r = sampled.iloc[0]
        how = "raises" if r["ci_low"] > 0 else "lowers" if r["ci_high"] < 0 else None
        return f"{head} {how} {measure} ({_span(r)})" if how else f"{head}: no clear change in {measure} ({_span(r)})"
    clear = sampled[(sampled["ci_low"] > 0) | (sampled["ci_high"] < 0)]
    if not len(clear):
        big = sampled.iloc[int(np.argmax(np.abs(sampled["estimate"].to_numpy(dtype=float))))]
        return f"{head}: no clear change in {measure} in any row (the largest: {_who(big, keys)}, {_span(big)})"
    clear = clear.iloc[np.argsort(-np.abs(clear["estimate"].to_numpy(dtype=float)), kind="stable")]
    said = [
        f"{'raises' if r['ci_low'] > 0 else 'lowers'} it for {_who(r, keys)} ({_span(r)})"
        for _, r in clear.head(3).iterrows()
    ]
    more = f"; {len(clear) - 3} more rows clearly changed" if len(clear) > 3 else ""
    # several rows each tested at 95%: a reader should know that one in twenty clears zero with no effect at all
    chance = f" ({len(clear)} of {len(sampled)} rows clear of zero; with no effect about one row in 20 would be)"
    return f"{head} changes {measure}: " + "; ".join(said) + more + chance


def compare_variants(
    game,
    challenger: dict[str, Any],
    *,
    players: int | None = None,
    variants: dict[str, Any] | None = None,
    strategies: Any = None,
    run=None,
    **options: Any,
) -> Result:
    """``game`` simulated under the field's ``variants`` and under the same with ``challenger``'s changes, on
    the same seed and chunks; the rows both tables have, each with ``field_value``, ``challenger_value`` and the
    paired difference challenger - field (``estimate``) with its jackknife interval. ``run``: a
    :class:`~analysis.games.base.RunOptions` with ``trials`` (precision mode is not offered: the interval is the
    difference's, from both runs' chunks)."""
    from .games.base import RunOptions

    run = run or RunOptions()
    if not isinstance(challenger, dict) or not challenger:
        raise CardlabError(
            "compare-variants needs at least one challenger variant (--challenger-variant NAME=VALUE): the rule "
            "set to compare with the field's"
        )
    field_v = game.rules.resolve_variants(variants)
    chal_v = game.rules.resolve_variants({**field_v, **challenger})
    changed = {k: v for k, v in chal_v.items() if field_v[k] != v}
    if not changed:
        raise CardlabError(
            f"the challenger's variants ({_words(challenger)}) are the field's: nothing to compare; give a value "
            "that differs from the field's (cardlab games lists each variant's values)"
        )
    spec_a = game.simulation_spec(players=players, variants=variants, strategies=strategies, **options)
    spec_b = game.simulation_spec(players=players, variants=chal_v, strategies=strategies, **options)
    if run.precision is not None:
        raise CardlabError(
            "compare-variants runs a fixed number of trials: give --trials N (--precision is for simulate and compare)"
        )
    if run.trials is None:
        raise CardlabError("give --trials N: the number of trials each rule set runs, on the same deals")
    kw = run.kwargs()
    trials = kw["trials"]
    if kw["chunk_size"] is None:  # at least GROUPS chunks where the trials allow: the jackknife's groups
        kw["chunk_size"] = chunk_size_for(trials, spec_a.chunk_size or DEFAULT_CHUNK_SIZE)
    ck = kw.pop("checkpoint")  # measures stay: a name the table lacks is refused before any work
    res_a = run_spec(spec_a, **kw, checkpoint=f"{ck}.field" if ck else None)
    res_b = run_spec(spec_b, **kw, checkpoint=f"{ck}.challenger" if ck else None)
    table, fixed, groups = paired_jackknife(
        spec_a, spec_b, res_a.chunk_counts, res_b.chunk_counts, res_a.meta["trials"], kw["chunk_size"]
    )
    meta = dict(res_a.meta)
    meta["command"] = "compare-variants"
    meta["variants"] = field_v
    meta["challenger_variants"] = changed
    meta["elapsed_s"] = round(res_a.meta["elapsed_s"] + res_b.meta["elapsed_s"], 3)
    meta["compiling_included"] = bool(res_a.meta.get("compiling_included") or res_b.meta.get("compiling_included"))
    meta.pop("trials_per_s", None)
    if res_b.meta.get("resumed_chunks"):
        meta["resumed_chunks"] = meta.get("resumed_chunks", 0) + res_b.meta["resumed_chunks"]
    meta["interval"] = f"jackknife over {groups} groups of chunks, t with {groups - 1} degrees of freedom"
    players_run = spec_a.describe.get("players")
    inert = game.inert_variants(changed, players_run, {**options, "command": "simulate"}) if players_run else {}
    if inert:  # the challenger's change cannot move a figure here: every difference is 0 by construction
        meta["variants_without_effect"] = inert
    headline = tuple(m for m in (spec_a.precision_measures or ()) if m in set(table["measure"]))
    line = verdict(table, fixed, headline[0], changed, field_v) if headline else None
    if line:
        meta["verdict"] = line
    return Result(table=table, meta=meta, headline=headline)
