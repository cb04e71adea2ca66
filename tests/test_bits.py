"""The shared bit helpers (kernels/bits.py): hardware bit counts and the allocation-free prefix sort."""

from __future__ import annotations

import numpy as np
import pytest

from kernels import bits
from kernels._jit import jit


@jit
def _counts(xs, out):
    for i in range(xs.shape[0]):
        x = xs[i]
        out[i, 0] = bits.popcount(x)
        if x:
            out[i, 1] = bits.low_index(x)
            out[i, 2] = bits.high_index(x)


def test_bit_counts_match_python():
    rng = np.random.default_rng(7)
    xs = np.concatenate(
        [
            rng.integers(0, 2**63, 2000, dtype=np.uint64) >> rng.integers(0, 63, 2000).astype(np.uint64),
            np.array([0, 1, 2**63, 2**64 - 1], dtype=np.uint64),
        ]
    )
    out = np.zeros((len(xs), 3), dtype=np.int64)
    _counts(xs, out)
    for x, (pc, lo, hi) in zip(xs.tolist(), out.tolist()):
        assert pc == bin(x).count("1")
        if x:
            assert lo == (x & -x).bit_length() - 1 and hi == x.bit_length() - 1


@jit
def _sort(a, n):
    bits.sort_prefix(a, n)


@pytest.mark.parametrize("n", [0, 1, 2, 5, 16, 17, 33, 100, 1000, 5000])
def test_sort_prefix_sorts_the_prefix_only(n):
    rng = np.random.default_rng(n)
    a = rng.integers(0, 2**63, n + 5, dtype=np.uint64)
    if n > 10:
        a[: n // 3] = a[n // 3 : 2 * (n // 3)]  # repeated values too
    want = np.concatenate([np.sort(a[:n]), a[n:]])
    _sort(a, n)
    assert (a == want).all()


@jit
def _nth(xs, ks, out):
    for i in range(xs.shape[0]):
        out[i, 0] = bits.nth_bit_loop(xs[i], ks[i])
        out[i, 1] = bits.nth_bit(xs[i], ks[i])


def _nth_cases():
    rng = np.random.default_rng(11)
    xs = rng.integers(1, 2**63, 3000, dtype=np.uint64) >> rng.integers(0, 63, 3000).astype(np.uint64)
    xs = np.concatenate([xs | np.uint64(1), np.array([2**64 - 1, 2**63, 1, 0x8000000000000001], dtype=np.uint64)])
    ks = np.array([int(rng.integers(0, bin(int(x)).count("1"))) for x in xs], dtype=np.int64)
    ks[-4:] = [63, 0, 0, 1]
    want = [[i for i in range(64) if int(x) >> i & 1][k] for x, k in zip(xs, ks)]
    return xs, ks, np.array(want)


def test_nth_bit_forms_agree_with_python():
    """nth_bit (pdep where the CPU has a fast one, else the loop) and the portable loop: the n-th set bit."""
    assert (bits.nth_bit is bits.nth_bit_pdep) == bits.FAST_PDEP  # which form the second column tests
    xs, ks, want = _nth_cases()
    out = np.zeros((len(xs), 2), dtype=np.int64)
    _nth(xs, ks, out)
    assert (out[:, 0] == want).all() and (out[:, 1] == want).all()


@jit
def _compress(xs, ms, out):
    for i in range(xs.shape[0]):
        out[i, 0] = bits.compress_loop(xs[i], ms[i])
        out[i, 1] = bits.compress(xs[i], ms[i])


def _compress_cases():
    rng = np.random.default_rng(12)
    xs = rng.integers(0, 2**63, 3000, dtype=np.uint64) * np.uint64(2) + rng.integers(0, 2, 3000, dtype=np.uint64)
    ms = rng.integers(0, 2**63, 3000, dtype=np.uint64) >> rng.integers(0, 63, 3000).astype(np.uint64)
    xs = np.concatenate([xs, np.array([2**64 - 1, 0, 2**64 - 1, 0x5555], dtype=np.uint64)])
    ms = np.concatenate([ms, np.array([2**64 - 1, 2**64 - 1, 0, 0x1FFF], dtype=np.uint64)])
    want = []
    for x, m in zip(xs, ms):
        picked = [int(x) >> i & 1 for i in range(64) if int(m) >> i & 1]
        want.append(sum(b << j for j, b in enumerate(picked)))
    return xs, ms, np.array(want, dtype=np.uint64)


def test_compress_forms_agree_with_python():
    """compress (pext where the CPU has a fast one, else the loop) and the portable loop: the bits of x at the
    set positions of the mask, packed low (the double-dummy solver's relative ranks)."""
    assert (bits.compress is bits.compress_pext) == bits.FAST_PDEP  # which form the second column tests
    xs, ms, want = _compress_cases()
    out = np.zeros((len(xs), 2), dtype=np.uint64)
    _compress(xs, ms, out)
    assert (out[:, 0] == want).all() and (out[:, 1] == want).all()


@jit
def _expand(xs, ms, out):
    for i in range(xs.shape[0]):
        out[i, 0] = bits.expand_loop(xs[i], ms[i])
        out[i, 1] = bits.expand(xs[i], ms[i])


def test_expand_forms_agree_with_python():
    """expand (pdep where the CPU has a fast one, else the loop) and the portable loop: the low bits of x laid
    at the set positions of the mask, in order (the double-dummy solver's relative ranks); compress undoes it."""
    assert (bits.expand is bits.expand_pdep) == bits.FAST_PDEP  # which form the second column tests
    xs, ms, _ = _compress_cases()
    want = []
    for x, m in zip(xs, ms):
        pos = [i for i in range(64) if int(m) >> i & 1]
        want.append(sum(1 << p for j, p in enumerate(pos) if int(x) >> j & 1))
    want = np.array(want, dtype=np.uint64)
    out = np.zeros((len(xs), 2), dtype=np.uint64)
    _expand(xs, ms, out)
    assert (out[:, 0] == want).all() and (out[:, 1] == want).all()
    back = np.zeros((len(xs), 2), dtype=np.uint64)
    _compress(want, ms, back)
    assert (back[:, 0] == xs & np.array([(1 << bin(int(m)).count("1")) - 1 for m in ms], dtype=np.uint64)).all()
