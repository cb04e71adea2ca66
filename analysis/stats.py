"""Interval estimates, vectorised over numpy arrays and pandas columns.

* :func:`t_value` -- Student's t quantile (intervals from a few dozen batches: a jackknife over chunks);
* :func:`wilson` -- Wilson score interval for a binomial proportion (the default for events);
* :func:`mean_interval` -- mean, standard error and normal interval from a sum and a sum of squares
  (payoffs: split wins, points, tricks);
* :func:`paired_difference` -- the same for per-deal differences between two strategies played on the
  same deals (common random numbers), where the pairing removes most of the deal-to-deal variance;
* :func:`share_difference_half_width` -- the half-width for the difference of two shares of the same trials
  (two seats' win shares of one set of games: one multinomial);
* :func:`difference_half_width` -- the half-width for the difference of two estimates from their standard
  errors, the variances added (independent estimates; an approximation for estimates that share trials).
"""

from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np


def z_value(confidence: float = 0.95) -> float:
    """Two-sided normal quantile: ``z_value(0.95)`` is about 1.96."""
    if not 0.0 < confidence < 1.0:
        raise ValueError("confidence must be in (0, 1)")
    return NormalDist().inv_cdf(0.5 + confidence / 2.0)


def t_value(confidence: float, df: int) -> float:
    """Two-sided quantile of Student's t with ``df`` degrees of freedom: ``t_value(0.95, 4)`` is about 2.776.
    The density integrated by Simpson's rule on 4,000 panels and the bound found by bisection (accurate to
    about 1e-6 for ``df`` >= 1; large ``df`` tends to :func:`z_value`).

    >>> round(t_value(0.95, 4), 3), round(t_value(0.95, 31), 3), round(t_value(0.95, 1), 2)
    (2.776, 2.04, 12.71)
    """
    if not 0.0 < confidence < 1.0:
        raise ValueError("confidence must be in (0, 1)")
    if df < 1:
        raise ValueError("df must be at least 1")
    nu = float(df)
    c = math.exp(math.lgamma((nu + 1) / 2) - math.lgamma(nu / 2)) / math.sqrt(nu * math.pi)

    def mass(t: float) -> float:  # P(0 < T < t)
        x = np.linspace(0.0, t, 4001)
        f = c * (1.0 + x * x / nu) ** (-(nu + 1) / 2)
        return float((t / 4000 / 3) * (f[0] + f[-1] + 4 * f[1:-1:2].sum() + 2 * f[2:-1:2].sum()))

    want = confidence / 2.0
    lo, hi = z_value(confidence), 2.0
    while mass(hi) < want:
        hi *= 2.0
    for _ in range(60):
        mid = (lo + hi) / 2.0
        lo, hi = (mid, hi) if mass(mid) < want else (lo, mid)
    return (lo + hi) / 2.0


#: one number (a table's row), for the Python-float paths of :func:`wilson` and :func:`mean_interval`
_SCALARS = (int, float, np.integer, np.floating)


def wilson(successes, trials, confidence: float = 0.95):
    """Wilson score interval: ``(estimate, std_error, low, high)`` arrays; NaN where trials == 0.

    >>> e, se, lo, hi = wilson(50, 100)
    >>> round(float(lo), 4), round(float(hi), 4)
    (0.4038, 0.5962)
    """
    if isinstance(successes, _SCALARS) and isinstance(trials, _SCALARS):
        return _wilson_scalar(float(successes), float(trials), z_value(confidence))
    x = np.asarray(successes, dtype=float)
    n = np.asarray(trials, dtype=float)
    z = z_value(confidence)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = np.where(n > 0, x / n, np.nan)
        se = np.sqrt(p * (1.0 - p) / n)
        denom = 1.0 + z * z / n
        centre = (p + z * z / (2.0 * n)) / denom
        half = z * np.sqrt(p * (1.0 - p) / n + z * z / (4.0 * n * n)) / denom
    return p, se, np.clip(centre - half, 0.0, 1.0), np.clip(centre + half, 0.0, 1.0)


def _wilson_scalar(x: float, n: float, z: float):
    """:func:`wilson` of one proportion in Python floats: the same operations in the same order (IEEE doubles,
    so the same bits) without numpy's per-call cost on 0-d arrays (a Bisko-Bobo table makes 231 calls)."""
    if not n > 0:
        nan = np.float64(np.nan)
        return nan, nan, nan, nan
    p = x / n
    se = math.sqrt(p * (1.0 - p) / n)
    denom = 1.0 + z * z / n
    centre = (p + z * z / (2.0 * n)) / denom
    half = z * math.sqrt(p * (1.0 - p) / n + z * z / (4.0 * n * n)) / denom
    return (
        np.float64(p),
        np.float64(se),
        np.float64(min(max(centre - half, 0.0), 1.0)),
        np.float64(min(max(centre + half, 0.0), 1.0)),
    )


def mean_interval(total, total_sq, trials, confidence: float = 0.95):
    """Mean, standard error and normal interval from ``sum x`` and ``sum x**2`` over ``trials``.

    >>> m, se, lo, hi = mean_interval(total=5.0, total_sq=5.0, trials=10)
    >>> float(m), round(float(se), 4)
    (0.5, 0.1667)
    """
    z = z_value(confidence)
    if isinstance(total, _SCALARS) and isinstance(total_sq, _SCALARS) and isinstance(trials, _SCALARS):
        return _mean_scalar(float(total), float(total_sq), float(trials), z)
    s = np.asarray(total, dtype=float)
    s2 = np.asarray(total_sq, dtype=float)
    n = np.asarray(trials, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(n > 0, s / n, np.nan)
        var = np.where(n > 1, (s2 - n * mean * mean) / (n - 1.0), np.nan)
        se = np.sqrt(np.maximum(var, 0.0) / n)
    return mean, se, mean - z * se, mean + z * se


def _mean_scalar(s: float, s2: float, n: float, z: float):
    """:func:`mean_interval` of one mean in Python floats: the same operations in the same order (the same bits)
    without numpy's per-call cost on 0-d arrays (a Bismarck table makes about 160 calls, the jackknife 33
    tables a run)."""
    nan = math.nan
    mean = s / n if n > 0 else nan
    var = (s2 - n * mean * mean) / (n - 1.0) if n > 1 else nan
    se = math.sqrt(max(var, 0.0) / n) if n > 0 and not math.isnan(var) else nan
    return np.float64(mean), np.float64(se), np.float64(mean - z * se), np.float64(mean + z * se)


def share_difference_half_width(p: float, q: float, n: float, confidence: float = 0.95) -> float:
    """Half-width of the normal interval for ``p - q``, two categories' shares of the same ``n`` trials (one
    multinomial: Var = (p + q - (p - q)**2) / n)."""
    if n <= 0:
        return math.inf
    return z_value(confidence) * math.sqrt(max(p + q - (p - q) ** 2, 0.0) / n)


def difference_half_width(se_a: float, se_b: float, confidence: float = 0.95) -> float:
    """Half-width of the normal interval for the difference of two estimates with standard errors ``se_a`` and
    ``se_b``, their variances added: exact for independent estimates; for two that share their trials (the same
    deals) the covariance is left out, which widens the interval where they move together."""
    return z_value(confidence) * math.hypot(se_a, se_b)


def paired_difference(diff_total, diff_total_sq, trials, confidence: float = 0.95):
    """Mean paired difference (A - B per deal) with its standard error and interval."""
    return mean_interval(diff_total, diff_total_sq, trials, confidence)


def half_width(low, high):
    """Half the width of an interval (NaN-safe)."""
    return (np.asarray(high, dtype=float) - np.asarray(low, dtype=float)) / 2.0
