"""kernels._jit's memory helpers: borrowed views (no reference counting) and the prefetch hint."""

import numpy as np

from kernels._jit import borrowed, jit, prefetch


@jit
def _fill_borrowed(a, pair):
    a, pair = borrowed((a, pair))  # the function's own arguments, as the rule says
    b, scale = pair
    for i in range(a.shape[0]):
        a[i] = b[i] * scale
    return a.sum()


def test_borrowed_views_share_the_arguments_memory():
    a = np.zeros(5, dtype=np.int64)
    b = np.arange(5, dtype=np.int64)
    assert _fill_borrowed(a, (b, 3)) == 30
    assert a.tolist() == [0, 3, 6, 9, 12]  # written through the borrowed view
    assert b.tolist() == [0, 1, 2, 3, 4]


@jit
def _sum_with_prefetch(t):
    s = 0
    for i in range(t.shape[0]):
        prefetch(t, min(i + 4, t.shape[0] - 1))
        s += t[i, 0] + t[i, 1]
    return s


def test_prefetch_is_only_a_hint():
    t = np.arange(40, dtype=np.uint64).reshape(20, 2)
    assert _sum_with_prefetch(t) == t.sum()
