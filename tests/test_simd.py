"""kernels.simd: each vector operation against numpy on the same lanes (negative, large and edge values)."""

from __future__ import annotations

import numba
import numpy as np

from kernels import simd
from kernels.simd import (
    vadd,
    vand,
    vany,
    vclz,
    veq,
    vgather,
    vge,
    vgt,
    viota,
    vlane,
    vle,
    vload,
    vlt,
    vmax,
    vmax_lane,
    vmin,
    vmul,
    vmulu32,
    vne,
    vor,
    vpopcount,
    vsar,
    vscatter,
    vselect,
    vshl,
    vshr,
    vsplat,
    vstore,
    vsub,
    vsum,
    vxor,
)

N = simd.N


@numba.njit
def _ops(a, b, k, out):
    x = vload(a, 0)
    y = vload(b, 0)
    results = (
        x + y,
        x - y,
        x * y,
        x & y,
        x | y,
        x ^ y,
        -x,
        ~x,
        x + k,
        k - x,
        x * k,
        vshl(x, y & 63),
        vsar(x, y & 63),
        vshr(x, y & 63),
        x << 3,
        x >> 5,
        veq(x, y),
        vne(x, y),
        vlt(x, y),
        vle(x, y),
        vgt(x, y),
        vge(x, y),
        vmin(x, y),
        vmax(x, y),
        vselect(vlt(x, y), x, k),
        vpopcount(x),
        vclz(x),
        viota(),
        vsplat(k),
        vadd(x, 1),
        vsub(1, x),
        vmul(x, -3),
        vand(x, 255),
        vor(x, 1),
        vxor(x, -1),
    )
    for i in range(len(results)):
        vstore(out, i * N, results[i])
    return vsum(x), vmax_lane(y), vany(x & 0), vlane(y, 5)


def _u(v):
    return int(v) & (2**64 - 1)


def test_lane_operations_match_numpy():
    r = np.random.default_rng(1)
    a = r.integers(-(2**63), 2**63 - 1, size=N, dtype=np.int64)
    a[:3] = (0, -1, 2**62)
    b = r.integers(-(2**63), 2**63 - 1, size=N, dtype=np.int64)
    b[:3] = (5, -1, 2**62)
    k = np.int64(-7)
    out = np.zeros(35 * N, dtype=np.int64)
    with np.errstate(over="ignore"):
        got = _ops(a, b, k, out)
        sh = b & 63
        expect = [
            a + b,
            a - b,
            a * b,
            a & b,
            a | b,
            a ^ b,
            -a,
            ~a,
            a + k,
            k - a,
            a * k,
            np.array([np.uint64((_u(x) << int(s)) & (2**64 - 1)) for x, s in zip(a, sh)]).view(np.int64),
            a >> sh,
            (a.view(np.uint64) >> sh.view(np.uint64)).view(np.int64),
            a << 3,
            a >> 5,
            -(a == b).astype(np.int64),
            -(a != b).astype(np.int64),
            -(a < b).astype(np.int64),
            -(a <= b).astype(np.int64),
            -(a > b).astype(np.int64),
            -(a >= b).astype(np.int64),
            np.minimum(a, b),
            np.maximum(a, b),
            np.where(a < b, a, k),
            np.array([bin(_u(x)).count("1") for x in a]),
            np.array([64 - _u(x).bit_length() for x in a]),
            np.arange(N),
            np.full(N, k),
            a + 1,
            1 - a,
            a * -3,
            a & 255,
            a | 1,
            a ^ -1,
        ]
    for i, e in enumerate(expect):
        assert out[i * N : (i + 1) * N].tolist() == np.asarray(e, dtype=np.int64).tolist(), i
    assert got == (int(a.sum()), int(b.max()), 0, int(b[5]))


@numba.njit
def _mulu32(a, b, k, out):
    vstore(out, 0, vmulu32(vload(a, 0), vload(b, 0)))
    vstore(out, N, vmulu32(vload(a, 0), k))


def test_mulu32_is_the_product_of_the_low_halves():
    """vmulu32: the 64-bit product of the low 32 bits of each lane, unsigned (the high halves are ignored), with
    a vector or a scalar operand."""
    r = np.random.default_rng(2)
    a = r.integers(-(2**63), 2**63 - 1, size=N, dtype=np.int64)
    b = r.integers(-(2**63), 2**63 - 1, size=N, dtype=np.int64)
    a[:3] = (0xFFFFFFFF, -1, 5)
    b[:3] = (0xFFFFFFFF, 2**32 + 3, 7)
    out = np.zeros(2 * N, dtype=np.int64)
    _mulu32(a, b, np.int64(-(2**40) + 13), out)
    lo = [_u(x) & 0xFFFFFFFF for x in a]
    want = [(x * (_u(y) & 0xFFFFFFFF)) & (2**64 - 1) for x, y in zip(lo, b)]
    want += [(x * ((-(2**40) + 13) & 0xFFFFFFFF)) for x in lo]
    assert [_u(v) for v in out] == want


@numba.njit
def _memory(arr, idx, vals):
    g = vgather(arr, vload(idx, 0))
    vscatter(arr, vload(idx, 0), vload(vals, 0))
    return g


def test_gather_and_scatter():
    arr = np.arange(100, dtype=np.int64) * 3
    idx = np.array([5, 99, 0, 42, 7, 8, 63, 1], dtype=np.int64)
    vals = np.arange(N, dtype=np.int64) - 50
    expect_arr = arr.copy()
    expect_arr[idx] = vals
    g = np.zeros(N, dtype=np.int64)

    @numba.njit
    def run(arr, idx, vals, g):
        vstore(g, 0, _memory(arr, idx, vals))

    run(arr, idx, vals, g)
    assert g.tolist() == (np.arange(100) * 3)[idx].tolist()
    assert arr.tolist() == expect_arr.tolist()
