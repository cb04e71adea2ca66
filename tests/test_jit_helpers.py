"""kernels._jit's memory helpers: borrowed views (no reference counting) and the prefetch hint."""

import numpy as np
import pytest

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


# kernels/_compile.py: numba's inline="always" without its redundant IR copies. The patched inliner must give
# the same machine code as numba's own; a small tree of inlined helpers (loops, branches, arrays, a helper
# inlined at two sites and inside another) is compiled both ways in fresh processes and the assembly compared.
_INLINE_PROGRAM = """
import sys
import numpy as np
from kernels._jit import jit, jit_inline
from kernels import _compile

@jit_inline
def leaf(a, i):
    s = 0
    for j in range(i):
        if a[j] & 1:
            s += a[j]
        else:
            s -= j
    return s

@jit_inline
def middle(a, n):
    t = leaf(a, n // 2)
    for k in range(n):
        a[k] = a[k] * 3 + t
    return t + leaf(a, n)

@jit
def top(a):
    return middle(a, a.shape[0]) + leaf(a, 3)

print(top(np.arange(9, dtype=np.int64)), _compile.INSTALLED)
print(top.inspect_asm(top.signatures[0]))
"""


def test_the_patched_inliner_compiles_the_same_code(tmp_path):
    import os
    import re
    import subprocess
    import sys

    from kernels import _compile

    assert _compile.INSTALLED  # numba 0.68's inline_ir has the two copies the patch removes

    program = tmp_path / "inlined.py"
    program.write_text(_INLINE_PROGRAM)

    def run(**env):  # each in its own empty cache, so that both compile
        full = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / f"cache{len(env)}"), **env)
        out = subprocess.run([sys.executable, str(program)], env=full, capture_output=True, text=True)
        assert out.returncode == 0, out.stderr
        value, flag = out.stdout.splitlines()[0].split()
        asm = out.stdout.split("\n", 1)[1]
        return value, flag, re.sub(r"0x[0-9a-f]{6,}", "ADDR", asm)

    patched, stock = run(), run(CARDLAB_STOCK_INLINER="1")
    assert patched[1] == "True" and stock[1] == "False"
    assert patched[0] == stock[0]
    assert "leaf" not in patched[2] and patched[2] == stock[2]  # inlined, and the same code


def _make_kernel(flag):
    """Two kernels from one factory, as the Bismarck advisor's with and without the solvers: one cache index
    file, an entry per closure."""

    def kernel(x):
        return x + 1 if flag else x - 1

    return jit(kernel)


def test_is_cached_tells_apart_kernels_of_one_factory(tmp_path, monkeypatch):
    """The compile note's test (kernels._jit.is_cached): a kernel whose sibling from the same factory is cached
    is not cached itself (the note had stayed silent for a first pimc run after a heuristic one)."""
    import numba

    from kernels._jit import is_cached

    monkeypatch.setattr(numba.config, "CACHE_DIR", str(tmp_path))
    plain, full = _make_kernel(False), _make_kernel(True)
    assert is_cached(plain) is False and is_cached(full) is False
    assert plain(3) == 2  # compiled and written to the cache
    again_plain, again_full = _make_kernel(False), _make_kernel(True)  # as a new process would see them
    assert is_cached(again_plain) is True
    assert is_cached(again_full) is False
    assert again_full(3) == 4
    assert is_cached(_make_kernel(True)) is True


_SAVER = """
import os, sys, time
import kernels._jit  # installs the lock
from numba.core import caching
folder, who, go = sys.argv[1:]
f = caching.IndexDataCacheFile(folder, "f", ("stamp", 1))
print("ready", flush=True)
while not os.path.exists(go):
    time.sleep(0.005)
for i in range(40):
    f.save((who, i), (who, i))
"""


def _savers(folder, *who):
    import subprocess
    import sys

    argv = [sys.executable, "-c", _SAVER, str(folder)]
    procs = [subprocess.Popen([*argv, w, str(folder / "go")], stdout=subprocess.PIPE, text=True) for w in who]
    assert [p.stdout.readline().strip() for p in procs] == ["ready"] * len(who)
    return procs


def test_cache_saves_from_two_processes_at_once_lose_nothing(tmp_path):
    """kernels._compile.lock_cache_writes: two processes saving different signatures of one function at once
    (xdist's workers, a compile-ahead helper beside its command) keep every entry, each naming its own data;
    and a save waits while another process holds the folder's lock."""
    import fcntl
    import os
    import time

    from numba.core import caching

    procs = _savers(tmp_path, "a", "b")
    fd = os.open(tmp_path / ".cardlab-save.lock", os.O_RDONLY | os.O_CREAT, 0o666)
    fcntl.flock(fd, fcntl.LOCK_EX)  # held by this process: neither saver may write
    (tmp_path / "go").touch()
    time.sleep(0.5)
    assert not list(tmp_path.glob("f*.nb*"))
    os.close(fd)
    assert [p.wait(timeout=120) for p in procs] == [0, 0]
    f = caching.IndexDataCacheFile(str(tmp_path), "f", ("stamp", 1))
    for who in ("a", "b"):
        for i in range(40):
            assert f.load((who, i)) == (who, i)


def test_a_cache_save_cut_off_never_leaves_an_index_naming_other_data(tmp_path):
    """The data file is written before the index: a save cut off between the two (a helper stopped, Ctrl-C)
    leaves no entry, where numba's own order left one naming the data file of that number from before the
    source changed."""
    from numba.core import caching

    import kernels._jit  # noqa: F401  (installs the lock and the order)

    caching.IndexDataCacheFile(str(tmp_path), "f", ("stamp", 1)).save(("sig", 1), "old code")
    after_edit = caching.IndexDataCacheFile(str(tmp_path), "f", ("stamp", 2))

    def cut_off(overloads):
        raise KeyboardInterrupt

    after_edit._save_index = cut_off  # type: ignore[method-assign]
    with pytest.raises(KeyboardInterrupt):
        after_edit.save(("sig", 2), "new code")
    fresh = caching.IndexDataCacheFile(str(tmp_path), "f", ("stamp", 2))
    assert fresh.load(("sig", 2)) is None
    fresh.save(("sig", 2), "new code")
    assert fresh.load(("sig", 2)) == "new code"


def test_every_kernel_closure_holds_constants_only():
    """A kernel made by a factory (the plain and full flavours) is a closure, and numba keys its cache entry on
    the cells' contents, pickled. A dispatcher in a cell pickles differently in every process, so such a kernel
    would never load from the cache: it compiled again on every run (Bismarck's compare_plain_chunks did, 5-13 s
    a command, until its callee became a module global). Every cell of every kernel holds a plain constant."""
    import importlib
    import pkgutil

    from numba.core.dispatcher import Dispatcher

    import kernels

    plain = (bool, int, float, str, type(None))
    found = 0
    for info in pkgutil.walk_packages(kernels.__path__, "kernels."):
        for name, obj in vars(importlib.import_module(info.name)).items():
            if isinstance(obj, Dispatcher) and obj.py_func.__closure__:
                found += 1
                for cell in obj.py_func.__closure__:
                    assert isinstance(cell.cell_contents, plain), (info.name, name, type(cell.cell_contents))
    assert found > 10  # the factories' kernels were seen
