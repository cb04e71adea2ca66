"""The counter-based generator: bit-for-bit numpy Philox, and unbiased bounded draws and shuffles."""

from __future__ import annotations

import itertools
import math
from collections import Counter

import numpy as np
import pytest
from scipy import stats

from kernels import rng


def test_block_function_matches_numpy_philox():
    r = np.random.default_rng(2026)
    n = 200
    counters = r.integers(0, 2**63, size=(n, 4), dtype=np.uint64) * np.uint64(2)
    keys = r.integers(0, 2**64 - 1, size=(n, 2), dtype=np.uint64)
    counters[:5] = 0
    keys[:3] = 0
    out = np.zeros((n, 4), dtype=np.uint64)
    # numpy's Philox increments its counter before the first block, so block(c + 1) is its first output
    nxt = counters.copy()
    nxt[:, 0] += np.uint64(1)
    rng.philox_blocks(nxt, keys, out)
    for i in range(n):
        want = np.random.Philox(counter=counters[i], key=keys[i]).random_raw(4).astype(np.uint64)
        assert np.array_equal(out[i], want), i


def test_stream_words_are_the_blocks_in_order():
    st = rng.new_state()
    rng.seed_state(st, np.uint64(5), np.uint64(6), np.uint64(7), np.uint64(1))
    words = [int(rng.next32(st)) for _ in range(16)]
    out = np.zeros((2, 4), dtype=np.uint64)
    rng.philox_blocks(
        np.array([[0, 7, 1, 0], [1, 7, 1, 0]], dtype=np.uint64), np.array([[5, 6], [5, 6]], dtype=np.uint64), out
    )
    want = []
    for w in out.ravel():
        want += [int(w) & 0xFFFFFFFF, int(w) >> 32]
    assert words == want


def _batched_digits(x, spans, bits):
    out = []
    for n in spans:
        m = x * n
        out.append(m >> bits)
        x = m & ((1 << bits) - 1)
    return out, x


@pytest.mark.parametrize("spans", [(7,), (5, 4, 3), (24, 23), (10, 9, 8), (6, 5, 4, 3, 2), (3,) * 6])
def test_batched_method_is_exactly_uniform_on_small_words(spans):
    """The batched Lemire rule used by partial_shuffle, run exhaustively on 10-bit words."""
    bits = 10
    prod = math.prod(spans)
    threshold = ((1 << bits) - prod) % prod
    counts = Counter()
    for x in range(1 << bits):
        digits, left = _batched_digits(x, spans, bits)
        if left < prod and left < threshold:
            continue  # rejected
        counts[tuple(digits)] += 1
    assert len(counts) == prod and len(set(counts.values())) == 1


def test_batch_digits_kernel_matches_the_rule():
    st = rng.new_state()
    rng.seed_state(st, np.uint64(1), np.uint64(2), np.uint64(3), np.uint64(0))
    spans = np.array([24, 23, 22, 21], dtype=np.int64)
    out = np.zeros(4, dtype=np.int64)
    for _ in range(50):
        rng.batch_digits(st, spans, out)
        assert all(0 <= out[i] < spans[i] for i in range(4))


def test_below_is_in_range_and_uniform():
    st = rng.new_state()
    rng.seed_state(st, np.uint64(9), np.uint64(0), np.uint64(0), np.uint64(0))
    n = 60_000
    draws = np.array([rng.below(st, 6) for _ in range(n)])
    assert draws.min() == 0 and draws.max() == 5
    p = stats.chisquare(np.bincount(draws, minlength=6)).pvalue
    assert p > 1e-6


def test_partial_shuffle_gives_uniform_permutations():
    deck = np.arange(4, dtype=np.int64)
    perms = {p: i for i, p in enumerate(itertools.permutations(range(4)))}
    counts = np.zeros(24, dtype=np.int64)
    st = rng.new_state()
    for t in range(48_000):
        rng.seed_state(st, np.uint64(1), np.uint64(0), np.uint64(t), np.uint64(0))
        d = deck.copy()
        rng.partial_shuffle(st, d, 4)
        counts[perms[tuple(d)]] += 1
    assert stats.chisquare(counts).pvalue > 1e-6


def test_partial_shuffle_prefix_is_uniform_and_a_permutation():
    deck = np.arange(32, dtype=np.int64)
    st = rng.new_state()
    first = np.zeros(32, dtype=np.int64)
    for t in range(32_000):
        rng.seed_state(st, np.uint64(2), np.uint64(0), np.uint64(t), np.uint64(0))
        d = deck.copy()
        rng.partial_shuffle(st, d, 5)
        assert sorted(d) == list(range(32))
        first[d[4]] += 1
    assert stats.chisquare(first).pvalue > 1e-6


def test_uniform_in_unit_interval():
    st = rng.new_state()
    rng.seed_state(st, np.uint64(3), np.uint64(0), np.uint64(0), np.uint64(0))
    u = np.array([rng.uniform(st) for _ in range(20_000)])
    assert u.min() >= 0.0 and u.max() < 1.0
    assert stats.kstest(u, "uniform").pvalue > 1e-6


@rng.jit
def _pooled_vs_plain(skip, spans, after, out):
    """Choices among ``spans[i]`` after ``skip`` plain words, through the pool (fill, pool_choice, commit) and
    plainly (``below``, nothing drawn for a span of 1), then ``after`` plain words more in both; ``out[0]``
    pooled, ``out[1]`` plain."""
    a = rng.new_state()
    b = rng.new_state()
    for st in (a, b):
        rng.seed_state(st, np.uint64(3), np.uint64(4), np.uint64(9), np.uint64(2))
        for _ in range(skip):
            rng.next32(st)
    rng.pool_fill(a)
    for i in range(spans.shape[0]):
        out[0, i] = rng.pool_choice(a, spans[i])
        out[1, i] = rng.below(b, spans[i]) if spans[i] > 1 else 0
    rng.pool_commit(a)
    for i in range(after):
        out[0, spans.shape[0] + i] = rng.next32(a)
        out[1, spans.shape[0] + i] = rng.next32(b)


@pytest.mark.parametrize("skip", [0, 1, 5, 7, 8, 9, 16, 23])
@pytest.mark.parametrize(
    "spans",
    [
        [],
        [5],
        [16, 15, 14, 13, 12, 11, 10, 9],
        [7] * 16,
        [3] * 40,
        [1, 4, 1, 1, 9, 2, 1, 13, 1, 1, 1, 5, 16, 1, 3, 2, 1, 1, 7, 1],
        [2**31 + 1] * 30,
    ],
)  # the last: half the words rejected, pool refills
def test_pool_draws_are_the_plain_draws(skip, spans):
    """rng.pool_fill / pool_choice / pool_commit: the same numbers as below() on the same stream (a span of 1
    draws nothing), and the stream left where plain draws leave it, from every position in a block (a partly
    used buffer included)."""
    spans = np.array(spans, dtype=np.int64)
    out = np.zeros((2, len(spans) + 20), dtype=np.int64)
    _pooled_vs_plain(skip, spans, 20, out)
    assert (out[0] == out[1]).all()
