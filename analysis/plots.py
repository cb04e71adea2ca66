"""Shared matplotlib helpers: Agg backend, deterministic PNG output, interval bars."""

from __future__ import annotations

import io

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

STYLE = {
    "figure.dpi": 100,
    "savefig.dpi": 100,
    "font.size": 9,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "svg.hashsalt": "cardlab",
}


def png_bytes(fig) -> bytes:
    """The figure as PNG bytes with no timestamp or version metadata (deterministic output)."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", metadata={"Software": None}, bbox_inches="tight")
    plt.close(fig)
    return buf.getvalue()


def yerr(estimate, low, high) -> np.ndarray:
    """Error-bar half lengths from an estimate and its interval (never negative, NaN as 0)."""
    e = np.asarray(estimate, dtype=float)
    lo = np.nan_to_num(np.maximum(e - np.asarray(low, dtype=float), 0.0))
    hi = np.nan_to_num(np.maximum(np.asarray(high, dtype=float) - e, 0.0))
    return np.vstack([lo, hi])


def new_figure(width: float = 6.4, height: float = 3.6):
    with plt.rc_context(STYLE):
        fig, ax = plt.subplots(figsize=(width, height))
    return fig, ax


def bar_with_intervals(
    df: pd.DataFrame, x: str, hue: str | None, *, title: str, ylabel: str, xlabel: str, reference: float | None = None
):
    """Grouped bars of ``estimate`` with ``ci_low``/``ci_high`` error bars."""
    with plt.rc_context(STYLE):
        fig, ax = plt.subplots(figsize=(6.4, 3.6))
        groups = [None] if hue is None else list(dict.fromkeys(df[hue]))
        xs = list(dict.fromkeys(df[x]))
        width = 0.8 / len(groups)
        for gi, g in enumerate(groups):
            sub = df if g is None else df[df[hue] == g]
            sub = sub.set_index(x).reindex(xs)
            pos = np.arange(len(xs)) + (gi - (len(groups) - 1) / 2) * width
            err = yerr(sub["estimate"], sub["ci_low"], sub["ci_high"])
            ax.bar(pos, sub["estimate"], width=width, yerr=err, capsize=2, label=None if g is None else str(g))
        ax.set_xticks(np.arange(len(xs)))
        ax.set_xticklabels(
            [str(v) for v in xs],
            rotation=30 if max(len(str(v)) for v in xs) > 6 else 0,
            ha="right" if max(len(str(v)) for v in xs) > 6 else "center",
        )
        if reference is not None:
            ax.axhline(reference, color="grey", lw=0.8, ls="--")
        ax.set_title(title)
        ax.set_ylabel(ylabel)
        ax.set_xlabel(xlabel)
        if hue is not None:
            # beside the axes, where no bar is (saved with a tight box, so it stays in the image)
            ax.legend(title=hue, fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return fig
