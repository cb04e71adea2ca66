"""Tidy result tables and their writers.

Every simulation row has ``measure``, ``seat`` (None where the measure is not per seat), ``trials``, the
raw counts (``successes`` for events; ``total`` and ``total_sq`` for payoffs), ``estimate``,
``std_error``, ``ci_low`` and ``ci_high``. Run facts (timings, versions, seeds) live in the metadata, so
rows of the same seed compare equal whatever the backend.
"""

from __future__ import annotations

import io
import json
import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .errors import CardlabError, accepted
from .outputs import atomic_path
from .outputs import write_text as write_text_atomic
from .stats import mean_interval, wilson

FORMATS = ("table", "csv", "json")
ROW_COLUMNS = [
    "measure",
    "seat",
    "trials",
    "successes",
    "total",
    "total_sq",
    "estimate",
    "std_error",
    "ci_low",
    "ci_high",
]


def proportion_row(measure: str, seat: int | None, successes, trials, confidence: float = 0.95, **extra) -> dict:
    """One event row with a Wilson interval."""
    p, se, lo, hi = wilson(successes, trials, confidence)
    return {
        "measure": measure,
        "seat": seat,
        **extra,
        "trials": int(trials),
        "successes": int(successes),
        "estimate": float(p),
        "std_error": float(se),
        "ci_low": float(lo),
        "ci_high": float(hi),
    }


def mean_row(
    measure: str, seat: int | None, total, total_sq, trials, scale: float = 1.0, confidence: float = 0.95, **extra
) -> dict:
    """One payoff row: ``total`` and ``total_sq`` are integer sums in units of ``1/scale``."""
    t = float(total) / scale
    t2 = float(total_sq) / (scale * scale)
    m, se, lo, hi = mean_interval(t, t2, trials, confidence)
    return {
        "measure": measure,
        "seat": seat,
        **extra,
        "trials": int(trials),
        "total": t,
        "total_sq": t2,
        "estimate": float(m),
        "std_error": float(se),
        "ci_low": float(lo),
        "ci_high": float(hi),
    }


def frame(rows: list[dict]) -> pd.DataFrame:
    """Rows to a DataFrame with the standard columns first and game-specific ones after ``seat``."""
    df = pd.DataFrame(rows)
    extra = [c for c in df.columns if c not in ROW_COLUMNS]
    cols = ["measure", "seat"] + extra + [c for c in ROW_COLUMNS[2:] if c in df.columns]
    df = df[[c for c in cols if c in df.columns]]
    if "seat" in df.columns:
        df["seat"] = df["seat"].astype("Int64")
    return df


def _clean(v: Any) -> Any:
    if isinstance(v, (np.integer,)):
        return int(v)
    if isinstance(v, (np.floating, float)):
        f = float(v)
        return None if math.isnan(f) else f
    if isinstance(v, np.bool_):
        return bool(v)
    if v is pd.NA or v is None:
        return None
    if isinstance(v, np.ndarray):
        return [_clean(x) for x in v.tolist()]
    if isinstance(v, dict):
        return {str(k): _clean(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_clean(x) for x in v]
    return v


@dataclass
class Result:
    """A table with its metadata (game, rules and variants, strategies, seed, trials, ...)."""

    table: pd.DataFrame
    meta: dict = field(default_factory=dict)

    def rows(self) -> list[dict]:
        return [{k: _clean(v) for k, v in r.items()} for r in self.table.to_dict(orient="records")]

    def to_json(self) -> str:
        return json.dumps({"meta": _clean(self.meta), "rows": self.rows()}, ensure_ascii=False, indent=None)

    def to_csv(self) -> str:
        buf = io.StringIO()
        self.table.to_csv(buf, index=False, lineterminator="\n")
        return buf.getvalue()

    def to_text(self) -> str:
        with pd.option_context("display.max_rows", 500, "display.max_columns", 50, "display.width", 200):
            head = " ".join(f"{k}={v}" for k, v in self.meta.items() if isinstance(v, (str, int, float)))
            return head + "\n" + self.table.to_string(index=False) + "\n"

    def render(self, fmt: str) -> str:
        if fmt == "json":
            return self.to_json() + "\n"
        if fmt == "csv":
            return self.to_csv()
        if fmt == "table":
            return self.to_text()
        raise CardlabError(f"unknown format {fmt!r}; accepted: {accepted(FORMATS)}")

    def write(self, path: str | os.PathLike, fmt: str | None = None) -> None:
        """Write atomically; the format follows the suffix (.json, .csv, .parquet) unless given."""
        p = Path(path)
        fmt = fmt or {".json": "json", ".csv": "csv", ".parquet": "parquet"}.get(p.suffix, "table")
        if fmt == "parquet":
            try:
                import pyarrow  # noqa: F401
            except ImportError:
                raise CardlabError("parquet output needs pyarrow: pip install 'cardlab[parquet]'") from None
            with atomic_path(p) as tmp:
                self.table.to_parquet(tmp, index=False)
            return
        write_text_atomic(p, self.render(fmt))
