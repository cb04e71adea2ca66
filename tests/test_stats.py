import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

from analysis.stats import mean_interval, paired_difference, wilson, z_value


@pytest.mark.parametrize("x, n", [(0, 10), (1, 10), (5, 10), (10, 10), (37, 200), (999, 1000), (123456, 10**6)])
def test_wilson_matches_scipy(x, n):
    p, se, lo, hi = wilson(x, n)
    ci = sps.binomtest(x, n).proportion_ci(confidence_level=0.95, method="wilson")
    assert lo == pytest.approx(ci.low, abs=1e-12) and hi == pytest.approx(ci.high, abs=1e-12)
    assert p == x / n


def test_wilson_is_vectorised_over_pandas_columns():
    df = pd.DataFrame({"x": [1, 50, 99], "n": [100, 100, 100]})
    p, se, lo, hi = wilson(df["x"], df["n"])
    assert len(lo) == 3 and np.all(lo < p) and np.all(p < hi)


@pytest.mark.parametrize("n", [20, 100])
def test_wilson_exact_coverage(n):
    """Exact coverage over all outcomes, for a grid of true p: Wilson stays close to 95% (never below 89%,
    the known worst case for these n), and averages near 95%."""
    grid = np.linspace(0.02, 0.98, 97)
    xs = np.arange(n + 1)
    _, _, lo, hi = wilson(xs, np.full(n + 1, n))
    cover = np.array([sps.binom.pmf(xs, n, p)[(lo <= p) & (p <= hi)].sum() for p in grid])
    assert cover.min() > 0.89
    assert abs(cover.mean() - 0.95) < 0.01


def test_wilson_of_one_proportion_is_the_array_form_bit_for_bit():
    """A scalar call takes a Python-float path (no 0-d arrays); it must give the array form's bits exactly, so
    that tables and reports do not change with the path."""
    r = np.random.default_rng(5)
    n = np.concatenate([[0, 1, 2, 3, 10, 60], r.integers(1, 10**8, 400)])
    x = np.concatenate([[0, 0, 1, 3, 10, 0.5], r.random(400) * n[6:]])
    x[::7] = np.floor(x[::7])
    x[6::11] = n[6::11]
    arrays = wilson(x, n)
    for i in range(len(n)):
        one = wilson(x[i], int(n[i]))
        for a, b in zip(one, arrays):
            assert np.float64(a).tobytes() == np.float64(b[i]).tobytes(), (x[i], n[i])


def test_mean_interval_scalar_path_gives_the_array_bits():
    """The same for a mean: one row's Python-float path against the array form, bit for bit, over counts of
    0, 1 and 2 trials, zero spread, negative sums and sums of squares a rounding below n * mean**2."""
    r = np.random.default_rng(6)
    n = np.concatenate([[0, 1, 2, 2, 5, 7], r.integers(1, 10**7, 400)]).astype(float)
    s = np.concatenate([[0, 3, -4, 6, 5, 0], (r.random(400) - 0.3) * 20 * n[6:]])
    s2 = np.concatenate([[0, 9, 10, 18, 5, 0], s[6:] ** 2 / n[6:] * (1 + r.random(400))])
    s2[6::9] = s[6::9] ** 2 / n[6::9]  # no spread: the variance a rounding either side of 0
    arrays = mean_interval(s, s2, n)
    for i in range(len(n)):
        one = mean_interval(float(s[i]), float(s2[i]), int(n[i]))
        for a, b in zip(one, arrays):
            assert np.float64(a).tobytes() == np.float64(b[i]).tobytes(), (s[i], s2[i], n[i])


def test_empty_trials_give_nan():
    p, se, lo, hi = wilson(0, 0)
    assert np.isnan(p) and np.isnan(lo)


def test_mean_interval_matches_direct_computation():
    r = np.random.default_rng(1)
    x = r.normal(3.0, 2.0, size=500)
    m, se, lo, hi = mean_interval(x.sum(), (x * x).sum(), len(x))
    assert m == pytest.approx(x.mean())
    assert se == pytest.approx(x.std(ddof=1) / np.sqrt(len(x)))
    assert hi - lo == pytest.approx(2 * z_value(0.95) * se)


def test_paired_difference_uses_per_deal_differences():
    r = np.random.default_rng(2)
    common = r.normal(size=2000)
    a = common + 0.1 + r.normal(scale=0.1, size=2000)
    b = common + r.normal(scale=0.1, size=2000)
    d = a - b
    m, se, lo, hi = paired_difference(d.sum(), (d * d).sum(), len(d))
    assert lo > 0  # the pairing removes the common noise; an unpaired comparison could not see 0.1
    assert se < 0.01


def test_the_difference_of_two_shares_of_one_multinomial():
    """share_difference_half_width against simulated multinomial counts: the variance of p - q is within what the
    sampling error of a variance estimate allows (relative standard error sqrt(2 / (N - 1)), 4 of them)."""
    import numpy as np

    from analysis.stats import share_difference_half_width, z_value

    rng = np.random.default_rng(7)
    n, probs, N = 1000, [0.3, 0.25, 0.45], 20_000
    counts = rng.multinomial(n, probs, size=N) / n
    var = np.var(counts[:, 0] - counts[:, 1], ddof=1)
    expected = (share_difference_half_width(0.3, 0.25, n) / z_value()) ** 2
    assert abs(var / expected - 1) < 4 * np.sqrt(2 / (N - 1))
    assert share_difference_half_width(0.3, 0.25, 0) == np.inf


def test_the_difference_of_two_independent_estimates_covers_at_its_confidence():
    """difference_half_width: over N simulated pairs of independent normal estimates, the interval around their
    difference holds the true difference (0) in a share within 4 binomial standard errors of 95%."""
    import numpy as np

    from analysis.stats import difference_half_width

    rng = np.random.default_rng(11)
    se_a, se_b, N = 0.3, 0.7, 20_000
    d = rng.normal(0, se_a, N) - rng.normal(0, se_b, N)
    covered = float(np.mean(np.abs(d) <= difference_half_width(se_a, se_b)))
    assert abs(covered - 0.95) < 4 * np.sqrt(0.95 * 0.05 / N)
    assert difference_half_width(0.3, 0.4, confidence=0.99) > difference_half_width(0.3, 0.4)
