"""kernels/_extern.py (calls through a cell bound on first use) and kernels._compile.lock_compiles (one process
compiles a function at a time): issue 32's quick first run. Programs run in subprocesses with their own numba
cache, so that each compiles or loads as a fresh process does."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

#: a module of kernels: ``top`` calls ``mid`` (inlined numba's way), which calls ``leaf`` through an extern cell;
#: ``by_three`` keeps a literal argument (the double-dummy search's hand count)
_TOY = """
import numpy as np
from numba import types
from kernels._extern import extern
from kernels._jit import jit

@jit
def leaf(a, k, x):
    if x < 0:
        raise ValueError("negative x")
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] * k
    return s + x

leaf_x = extern(leaf, types.float64)

@jit
def mid(a, n):
    t = 0.0
    for j in range(n):
        t += leaf_x(a[1:], 2, j - 10.0 if n > 100 else j + 0.5)
    return t

@jit
def top(a):
    return mid(a, 3) + 1.0

@jit
def top2(a, n):
    return mid(a, n) + 2.0

@jit
def nh_of(a, nh):
    return a[0] * 10 + nh

nh_of_x = extern(nh_of, types.int64, literal=True)
nh_of_plain = extern(nh_of, types.int64)

@jit
def by_three(a):
    return nh_of_x(a, 3) + nh_of_plain(a, 3)

@jit
def int_leaf(x):
    return x * 2

int_leaf_x = extern(int_leaf, types.int64)

@jit
def int_mid(x):
    return int_leaf_x(x + 1)

@jit
def scaled(x, k=3):
    return x * k

scaled_x = extern(scaled, types.int64)

@jit
def scaled_twice(x):
    return scaled_x(x) + scaled_x(x, 5)
"""

_RUN = """
import numpy as np
import toy
from kernels import _extern
compiled = []
_extern.set_compile_hook(compiled.append)
a = np.arange(5.0)
print(toy.top(a), toy.mid(a, 3))
try:
    toy.mid(a, 200)
except ValueError as e:
    print("raised", e)
print(toy.by_three(np.array([4], dtype=np.int64)))
print("|".join(sorted(str(t[1]) for t in _extern.bound("toy", "nh_of"))))
print(len(_extern.bound("toy", "leaf")), sum(toy.top.stats.cache_hits.values()))
print(toy.scaled_twice(4))
print(" ".join(sorted(set(compiled))))
"""


def _python(tmp_path, program, cache="cache", stdin=None):
    env = dict(
        os.environ, NUMBA_CACHE_DIR=str(tmp_path / cache), PYTHONPATH=os.pathsep.join([str(tmp_path), os.getcwd()])
    )
    out = subprocess.run(
        [sys.executable, "-c", program], env=env, capture_output=True, text=True, input=stdin, timeout=300
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    return out.stdout.splitlines()


def test_an_extern_call_gives_the_callees_result_and_exceptions_compiled_and_from_the_cache(tmp_path):
    (tmp_path / "toy.py").write_text(_TOY)
    first = _python(tmp_path, _RUN)
    # mid(a, 3): three calls of leaf(a[1:], 2, j + 0.5), sum(a[1:]) * 2 = 20
    assert first[0] == "65.5 64.5"
    assert first[1] == "raised negative x"  # the callee's exception reaches the caller's caller
    assert first[2] == str((40 + 3) * 2)
    assert first[3] == "Literal[int](3)|int64"  # literal=True keeps the constant's type, the other passes a value
    assert first[4] == "1 0"  # bound once, compiled (no cache hit)
    assert first[5] == str(4 * 3 + 4 * 5)  # a parameter left out takes its default
    # the compile hook heard of each callee compiled on first use (what the compile note and the meta tell)
    assert first[6] == "toy.leaf toy.nh_of toy.scaled"
    again = _python(tmp_path, _RUN)  # a new process: the callers load from the cache and bind the callees again
    assert again[:4] == first[:4] and again[5] == first[5]
    assert again[4] == "1 1"
    assert again[6:] in ([], [""])  # loaded from the cache: no compile to tell of


def test_a_caller_compiled_over_a_cached_callee_registers_its_cells_when_loaded(tmp_path):
    """kernels._compile.keep_reload_init: ``mid`` (whose call of ``leaf`` goes through a cell) is loaded from the
    cache while ``top2``, which links it, compiles; a third process loading ``top2`` must register the cell before
    LLVM links its code (numba had left the registration off ``mid``'s reloaded library: that process crashed)."""
    (tmp_path / "toy.py").write_text(_TOY)
    run_mid = "import numpy as np, toy\nprint(toy.mid(np.arange(5.0), 3))"
    run_top = "import numpy as np, toy\nprint(toy.top2(np.arange(5.0), 3), sum(toy.top2.stats.cache_hits.values()))"
    assert _python(tmp_path, run_mid) == ["64.5"]
    assert _python(tmp_path, run_top) == ["66.5 0"]  # top2 compiled, mid (same types) loaded from the cache
    assert _python(tmp_path, run_top) == ["66.5 1"]  # top2 loaded from the cache


def test_the_helper_compiles_a_request_and_the_expected_callees_it_reaches(tmp_path):
    """``python -m kernels._extern``: a request for ``int_mid`` compiles it and, being expected, the ``int_leaf``
    it calls through a cell; a process after it finds both in the cache."""
    import base64
    import pickle

    from numba import types

    (tmp_path / "toy.py").write_text(_TOY)
    request = base64.b64encode(
        pickle.dumps(("toy", "int_mid", (types.int64,), types.int64, ["toy.int_mid", "toy.int_leaf"]))
    )
    _python(
        tmp_path,
        "import runpy; runpy.run_module('kernels._extern', run_name='__main__')",
        stdin=request.decode() + "\n",
    )
    check = (
        "from numba import types\nfrom kernels import _extern\nimport toy\n"
        "print(_extern._cached('toy', 'int_mid', (types.int64,)), _extern._cached('toy', 'int_leaf', (types.int64,)),"
        " _extern._cached('toy', 'leaf', (types.float64,)))"
    )
    assert _python(tmp_path, check) == ["True True False"]


_COMPILER = """
import sys, time
import numpy as np
import toy
from numba import types
from kernels import _compile
print(_compile.compile_lock_name(toy.int_leaf, (types.int64,)), flush=True)
sys.stdin.readline()
t = time.monotonic()
toy.int_leaf.compile((types.int64,))
print(f"{time.monotonic() - t:.2f}", sum(toy.int_leaf.stats.cache_hits.values()), flush=True)
"""


def test_a_function_another_process_is_compiling_is_waited_for_then_loaded(tmp_path):
    """kernels._compile.lock_compiles: while this test holds the lock a compile of ``int_leaf`` would take, the
    other process waits; once released it compiles. A second process with the lock free loads the saved code."""
    import time

    from kernels import _compile

    fcntl = pytest.importorskip("fcntl")
    (tmp_path / "toy.py").write_text(_TOY)
    env = dict(
        os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"), PYTHONPATH=os.pathsep.join([str(tmp_path), os.getcwd()])
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", _COMPILER], env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )  # fmt: skip
    assert proc.stdin is not None and proc.stdout is not None
    name = proc.stdout.readline().strip()
    assert len(name) == 32
    cache_dir = subprocess.run(
        [sys.executable, "-c", "import kernels, numba; print(numba.config.CACHE_DIR)"], env=env, capture_output=True,
        text=True,
    ).stdout.strip()  # fmt: skip
    folder = os.path.join(cache_dir, _compile.COMPILING)
    os.makedirs(folder, exist_ok=True)
    fd = os.open(os.path.join(folder, name + ".lock"), os.O_RDONLY | os.O_CREAT, 0o666)
    fcntl.flock(fd, fcntl.LOCK_EX)
    proc.stdin.write("go\n")
    proc.stdin.flush()
    time.sleep(1.0)
    assert proc.poll() is None  # waiting for the lock
    os.close(fd)
    waited, hits = proc.stdout.readline().split()
    assert proc.wait(timeout=120) == 0
    assert float(waited) >= 0.9 and hits == "0"
    second = subprocess.run([sys.executable, "-c", _COMPILER], env=env, input="go\n", capture_output=True, text=True)
    assert second.stdout.splitlines()[1].split()[1] == "1"  # loaded from the cache


def test_an_extern_not_a_module_global_is_refused():
    from numba import types

    from kernels._extern import extern
    from kernels._jit import jit

    local = jit(lambda x: x)
    with pytest.raises(ValueError, match="not a global"):
        extern(local, types.int64)


def test_the_double_dummy_search_is_prefetched_with_the_types_a_solver_run_binds():
    """analysis.games.bismarck hands the 3-hand search to the helper before any call site is typed, with
    ``kernels.dd.search.search_argtypes(3)``: those must be the types the solver players call it with."""
    from analysis import driver
    from analysis.games import bismarck as bm
    from kernels import _extern
    from kernels.dd.search import search_argtypes

    spec = bm.simulation_spec(unit="hand", round=1, strategies=["0=pimc"], pimc_from=4, pimc_samples=2)
    driver.run(spec, trials=2, seed=1, progress=False, threads=1)
    assert search_argtypes(3) in _extern.bound("kernels.dd.search", "_search")
