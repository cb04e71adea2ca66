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
import os
from typing import Any

import numpy as np
import pandas as pd

from .driver import check_checkpoint, default_chunk_size
from .driver import run as run_spec
from .errors import CardlabError, Interrupted
from .jackknife import GROUPS, column_of, jackknife_se, key_columns, replicates, row_keys
from .stats import t_value
from .tables import Result, _decimals, fixed_rows


def common_keys(table_a: pd.DataFrame, table_b: pd.DataFrame) -> list[str]:
    """The key columns both tables have (Swedish Bismarck adds ``contract``, which follows from ``round``); refused
    where they do not tell each table's rows apart."""
    kb = set(key_columns(table_b))
    cols = [c for c in key_columns(table_a) if c in kb]
    for t in (table_a, table_b):
        if len(set(row_keys(t, cols))) != len(t):
            raise CardlabError(
                "the two rule sets' tables have different rows (columns "
                f"{', '.join(key_columns(table_a))} against {', '.join(key_columns(table_b))}): they cannot be "
                "compared row by row"
            )
    return cols


def paired_jackknife(spec_a, spec_b, rows_a, rows_b, trials: int, chunk_size: int, confidence: float = 0.95):
    """Each row's estimate under A and under B, the difference B - A, and its jackknife standard error and
    interval (the same groups of chunks deleted in turn from both runs).

    Returns (a DataFrame with the key columns, ``trials`` and ``challenger_trials``, ``field_value``,
    ``challenger_value``, ``estimate``, ``std_error``, ``ci_low``, ``ci_high``: every row of either table, the
    field's first; a row only one rule set's table has (a score only one of them reaches) has no value on the
    other side and no difference; a boolean array, true where both tables fix the row by the rules
    (:func:`analysis.tables.fixed_by_rules`: the seats' win shares add to 1); the number of groups)."""
    n_chunks = len(rows_a)
    if len(rows_b) != n_chunks or n_chunks == 0:
        raise ValueError("the two runs must hold the same chunks")
    table_a = spec_a.tabulate(rows_a.sum(axis=0), trials, spec_a)
    table_b = spec_b.tabulate(rows_b.sum(axis=0), trials, spec_b)
    cols = common_keys(table_a, table_b)
    keys_a = row_keys(table_a, cols)
    only_b = [i for i, k in enumerate(row_keys(table_b, cols)) if k not in set(keys_a)]
    base = pd.concat([table_a[cols], table_b[cols].iloc[only_b]], ignore_index=True)
    order = {k: i for i, k in enumerate(row_keys(base, cols))}
    a = column_of(table_a, "estimate", order, cols)
    b = column_of(table_b, "estimate", order, cols)

    def flagged(t: pd.DataFrame) -> np.ndarray:
        out = np.zeros(len(order), dtype=bool)
        for k, f in zip(row_keys(t, cols), fixed_rows(t), strict=True):
            out[order[k]] = f
        return out

    fixed = flagged(table_a) & flagged(table_b)
    diff = b - a
    reps = replicates(spec_b, rows_b, trials, chunk_size, order, cols)
    reps -= replicates(spec_a, rows_a, trials, chunk_size, order, cols)
    se = jackknife_se(reps)
    g = len(reps)
    half = t_value(confidence, g - 1) * se if g >= 2 else se
    # a share of no event (or of every trial) in both runs: the two runs agree there without having seen a
    # difference, so no interval rather than one of no width
    succ_a, succ_b = column_of(table_a, "successes", order, cols), column_of(table_b, "successes", order, cols)
    n_a, n_b = column_of(table_a, "trials", order, cols), column_of(table_b, "trials", order, cols)
    unseen = ((succ_a == 0) & (succ_b == 0)) | ((succ_a == n_a) & (succ_b == n_b))
    half = np.where(unseen & ~fixed, np.nan, half)
    se = np.where(unseen & ~fixed, np.nan, se)
    out = base.copy()
    out["trials"] = pd.array(np.where(np.isnan(n_a), np.nan, n_a), dtype="Int64")
    # what each rule set's row counts can differ (Biscuits' hands: a game may need more or fewer of them)
    out["challenger_trials"] = pd.array(np.where(np.isnan(n_b), np.nan, n_b), dtype="Int64")
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


def _digits(rows: pd.DataFrame) -> int:
    """One number of decimals for the differences a verdict quotes: what the widest of their intervals warrants
    (as the table), more where a bound would otherwise print as 0 without being 0 (its sign must show)."""
    lo, hi = rows["ci_low"].to_numpy(dtype=float), rows["ci_high"].to_numpy(dtype=float)
    widths = (hi - lo)[np.isfinite(hi - lo) & (hi > lo)]
    n = min(_decimals(float(w)) for w in widths) if len(widths) else 4
    values = np.concatenate([lo, hi, rows["estimate"].to_numpy(dtype=float)])
    values = values[np.isfinite(values) & (values != 0)]
    while n < 8 and len(values) and (np.round(values, n) == 0).any():
        n += 1
    return n


def _span(r, n: int) -> str:
    """The signed difference and its interval to ``n`` decimals."""
    d, lo, hi = float(r["estimate"]), float(r["ci_low"]), float(r["ci_high"])

    def signed(v: float) -> str:
        text = f"{v:+.{n}f}"
        return "0" if float(text) == 0 and v == 0 else text

    if not (math.isfinite(lo) and hi > lo):
        return signed(d)
    return f"{signed(d)}, 95% interval {signed(lo)} to {signed(hi)}"


def _clear(rows: pd.DataFrame) -> pd.DataFrame:
    return rows[(rows["ci_low"] > 0) | (rows["ci_high"] < 0)]


def _sampled(table: pd.DataFrame, fixed: np.ndarray) -> np.ndarray:
    """The rows with a difference the run measured: a finite estimate, not fixed by the rules in both tables."""
    return np.isfinite(table["estimate"].to_numpy(dtype=float)) & ~fixed


def verdict(
    table: pd.DataFrame,
    fixed: np.ndarray,
    measure: str,
    changed: dict[str, str],
    field: dict[str, str],
    trials: str = "the trials",
) -> str | None:
    """One line: about ``measure`` (the headline, or the first measure asked for), which way the change moves its
    pooled row, or, where the rules fix that row (``fixed``: the seats' win shares add to 1) or there is none,
    which rows it moves clearly (the largest first), or that it moves none clearly; each difference challenger -
    field with its interval; then the other measures with rows clear of zero (a rule may leave the headline alone
    and move the rest). "The rule changed nothing" only where every figure of the table is the same. ``trials``:
    the run's size in words ("20,000 deals")."""
    head = f"{_words(changed)} instead of {_words({k: field[k] for k in changed})}"
    measured = _sampled(table, fixed)
    if not measured.any() or (
        (table["estimate"][measured] == 0).all() and (table["std_error"][measured].fillna(0) == 0).all()
    ):
        return f"{head}: every figure the same on {trials} (the rule changed nothing here)"
    pick = (table["measure"] == measure).to_numpy()
    if not pick.any():
        return None
    sampled = table[pick & measured]
    keys = [c for c in key_columns(table) if c != "measure" and len(sampled) and sampled[c].astype(str).nunique() > 1]
    pooled = [c for c in key_columns(table) if c in ("seat", "team", "role")]
    n = _digits(sampled) if len(sampled) else 4
    if not len(sampled):
        line = f"{head}: {measure} is fixed by the rules in every row here"
    elif (sampled["std_error"].fillna(0) == 0).all() and (sampled["estimate"] == 0).all():
        line = f"{head}: {measure} the same in every row on {trials}"
    else:
        whole = sampled[sampled[pooled].isna().all(axis=1)] if pooled else sampled.iloc[:0]
        one = whole if len(whole) else sampled if len(sampled) == 1 else None
        if one is not None:
            r = one.iloc[0]
            tag = " (pooled)" if len(whole) and len(sampled) > 1 else ""
            how = "raises" if r["ci_low"] > 0 else "lowers" if r["ci_high"] < 0 else None
            line = (
                f"{head} {how} {measure}{tag} ({_span(r, n)})"
                if how
                else f"{head}: no clear change in {measure}{tag} ({_span(r, n)})"
            )
        else:
            clear = _clear(sampled)
            if not len(clear):
                big = sampled.iloc[int(np.argmax(np.abs(sampled["estimate"].to_numpy(dtype=float))))]
                line = (
                    f"{head}: no clear change in {measure} in any row (the largest: {_who(big, keys)}, {_span(big, n)})"
                )
            else:
                clear = clear.iloc[np.argsort(-np.abs(clear["estimate"].to_numpy(dtype=float)), kind="stable")]
                said = [
                    f"{'raises' if r['ci_low'] > 0 else 'lowers'} it for {_who(r, keys)} ({_span(r, n)})"
                    for _, r in clear.head(3).iterrows()
                ]
                rest = len(clear) - 3
                more = f"; {rest} more {'row' if rest == 1 else 'rows'} clearly changed" if rest > 0 else ""
                line = (
                    f"{head} changes {measure}: " + "; ".join(said) + more + f" ({len(clear)} of {len(sampled)} rows "
                    "clear of zero)"
                )
    # the other measures: how many of their rows clear zero (several rows each tested at 95%: a reader should know
    # that one in twenty clears with no effect at all)
    others = []
    for m in dict.fromkeys(table["measure"]):
        rows = table[(table["measure"] == m).to_numpy() & measured]
        k = len(_clear(rows))
        if m != measure and k:
            others.append((k / len(rows), k, len(rows), m))
    if others:
        others.sort(key=lambda x: -x[0])
        listed = ", ".join(f"{m} {k} of {n_rows}" for _, k, n_rows, m in others[:6])
        line += (
            f"; rows clear of zero in other measures: {listed}{' and more' if len(others) > 6 else ''} (--measure "
            "NAME shows them)"
        )
    if others or "rows clear of zero" in line:
        line += "; with no effect about one row in 20 would be clear of zero"
    return line


def _one_run(side: str, spec, kw: dict, ck, done) -> Result:
    """One rule set's run; an interruption says whose run it stopped and what the other has (a bare "interrupted
    after 52 chunks" left a user guessing which half)."""
    try:
        return run_spec(spec, **kw, checkpoint=f"{ck}.{side}" if ck else None)
    except Interrupted as e:
        before = "the field's run had finished" if done is not None else "the challenger's had not started"
        keep = "" if ck else "; without --checkpoint nothing is kept"
        raise Interrupted(f"the {side}'s run ({before}): {e}{keep}", e.exit_code) from None


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
    # the challenger's rules as a user would give them (the field's given ones and the changes): a resolved dict
    # would name every variant, which Swedish Bismarck refuses for the blog's own
    chal_given = {**(variants or {}), **challenger}
    spec_b = game.simulation_spec(players=players, variants=chal_given, strategies=strategies, **options)
    # the tables' columns compared before any work (a table of no trials may have no rows: then after the runs)
    empty = [spec.tabulate(np.zeros(spec.n_counts, dtype=np.int64), 1, spec) for spec in (spec_a, spec_b)]
    if all("measure" in t.columns and len(t) for t in empty):
        common_keys(*empty)
    if run.precision is not None:
        raise CardlabError(
            "compare-variants runs a fixed number of trials: give --trials N (--precision is for simulate and compare)"
        )
    if run.trials is None:
        raise CardlabError("give --trials N: the number of trials each rule set runs, on the same deals")
    kw = run.kwargs()
    trials = kw["trials"]
    if isinstance(trials, (int, np.integer)) and 0 < trials < GROUPS:
        raise CardlabError(
            f"compare-variants needs at least {GROUPS} trials (--trials {trials}): the interval of each difference "
            f"comes from {GROUPS} groups of them"
        )
    if kw["chunk_size"] is None:  # at least GROUPS chunks: the jackknife's groups
        kw["chunk_size"] = default_chunk_size(spec_a, trials)
    elif isinstance(trials, (int, np.integer)) and -(-trials // kw["chunk_size"]) < GROUPS:
        raise CardlabError(
            f"--chunk-size {kw['chunk_size']} leaves {-(-trials // kw['chunk_size'])} chunks of the {trials:,} trials; "
            f"the intervals need {GROUPS} or more: give at most --chunk-size {trials // GROUPS}, or leave it out"
        )
    ck = kw.pop("checkpoint")  # measures stay: a name the table lacks is refused before any work
    if ck is not None and (str(ck).endswith(("/", os.sep)) or os.path.isdir(ck)):
        raise CardlabError(
            f"--checkpoint {str(ck)!r} is a directory; give a file name (the runs keep FILE.field and FILE.challenger)"
        )
    if ck:  # the challenger's checkpoint checked before the field's run, not after it
        check_checkpoint(spec_b, f"{ck}.challenger", trials=trials, seed=kw["seed"], chunk_size=kw["chunk_size"])
    res_a = _one_run("field", spec_a, kw, ck, done=None)
    res_b = _one_run("challenger", spec_b, kw, ck, done=res_a)
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
    if res_b.meta.get("resumed_chunks"):  # each run's, of its own chunks (meta["chunks"] is one run's)
        meta["challenger_resumed_chunks"] = res_b.meta["resumed_chunks"]
    meta["interval"] = f"jackknife over {groups} groups of chunks, t with {groups - 1} degrees of freedom"
    players_run = spec_a.describe.get("players")
    defaults = {k: str(v["default"]) for k, v in game.rules.variants.items()}
    given = {k: v for k, v in chal_v.items() if v != defaults[k]}  # the challenger's rules, as simulate reads them
    inert = game.inert_variants(given, players_run, {**options, "command": "simulate"}) if players_run else {}
    inert = {k: why for k, why in inert.items() if k in changed}
    if inert:  # the challenger's change cannot move a figure here: every difference is 0 by construction
        meta["variants_without_effect"] = inert
    # what simulate's header and verdict add to the meta (Bismarck's round and quotas, a card value's unit),
    # each rule set's: the challenger's quotas may differ (round4_start)
    for res in (res_a, res_b):
        game.simulate_header(res)
        game.simulate_verdict(res)
    qa, qb = res_a.meta.get("quota"), res_b.meta.get("quota")
    if qa:
        meta["quota"] = qa if qa == qb else f"{qa}; challenger: {qb}"
    if res_a.meta.get("unit"):
        meta["unit"] = res_a.meta["unit"]
    headline = tuple(m for m in (spec_a.precision_measures or ()) if m in set(table["measure"]))
    judged = (run.measures or headline or (None,))[0]  # the measure asked for first, else the headline
    noun = f"{meta['unit']}s" if isinstance(meta.get("unit"), str) else game.trial_noun
    per = meta.get("games_per_match")
    if isinstance(per, int) and per > 1:
        noun = f"matches of {per} games"
    size = f"all {meta['trials']:,} {noun}"
    line = verdict(table, fixed, judged, changed, field_v, size) if judged else None
    if line:
        meta["verdict"] = line
    return Result(table=table, meta=meta, headline=headline)
