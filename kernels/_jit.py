"""The one place where numba flags are set.

Every kernel in this package is compiled through :func:`jit` (serial helpers) or :func:`pjit` (the
parallel chunk loops). ``cache=True`` keeps compiled code on disk between runs; ``fastmath`` stays off
because kernels accumulate counts and probabilities. No bare ``numba.njit`` elsewhere.
"""

from __future__ import annotations

import numba

#: Serial kernels and helpers (inlined into callers by LLVM where profitable).
jit = numba.njit(cache=True, nogil=True, error_model="numpy")

#: Small hot helpers, inlined at numba-IR level into their callers (this removes the call and the
#: reference counting of array arguments, which costs atomic operations per call).
jit_inline = numba.njit(cache=True, nogil=True, error_model="numpy", inline="always")

#: Parallel chunk loops: ``prange`` over chunks, each writing its own output row.
pjit = numba.njit(cache=True, nogil=True, parallel=True, error_model="numpy")

prange = numba.prange
