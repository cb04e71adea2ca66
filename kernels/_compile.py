"""Two repairs to numba, installed by :mod:`kernels._jit`: ``inline="always"`` without deep copies of an IR that
nobody else holds (:func:`install`), and cache saves safe between processes (:func:`lock_cache_writes`).

numba inlines a :data:`kernels._jit.jit_inline` function at each of its call sites by building the callee's IR
afresh (``InlineWorker.inline_function`` runs the untyped pipeline on it) and handing it to
``InlineWorker.inline_ir``, which deep-copies it twice: once because "it gets mutated" (a guard for an IR that
others hold, needed by the typed pass that inlines overloads from its cache) and once to return an unmutated
copy that both of numba's callers throw away. A deep copy of a block copies the function's whole ``Scope`` with
it (``Var.__deepcopy__``), so the cost grows with blocks times variables: on our large inlined loops these
copies were about 40% of all compile time (numba issue #8989; numba-cuda-mlir's PR #197 makes the same change).

:func:`install` gives ``inline_ir`` a ``fresh`` flag that skips both copies, and makes ``inline_function``
(whose IR is always fresh) pass it. The IR that is inlined is the same object the copy would have been made
from, so the compiled code is the same; the numba cache key does not change. ``inline_ir`` is rebuilt from
numba's own source with two lines changed, so where a numba release words those lines differently nothing
is patched and numba runs as shipped (:data:`INSTALLED` says which); so it does with ``CARDLAB_STOCK_INLINER=1``.
"""

from __future__ import annotations

import inspect
import os
import textwrap

from numba.core import inline_closurecall

#: The two statements of ``InlineWorker.inline_ir`` that copy the callee's IR, and what they become.
_EDITS = {
    "callee_ir = copy_ir(callee_ir)": "callee_ir = callee_ir if fresh else copy_ir(callee_ir)",
    "callee_ir_original = copy_ir(callee_ir)": "callee_ir_original = None if fresh else copy_ir(callee_ir)",
}
_SIGNATURE = ("arg_typs=None):", "arg_typs=None, fresh=False):")
#: What numba's ``inline_function`` does, which the replacement repeats (with ``fresh=True``).
_INLINE_FUNCTION = (
    "callee_ir = self.run_untyped_passes(function)",
    "freevars = function.__code__.co_freevars",
    "return self.inline_ir(caller_ir, block, i, callee_ir, freevars,",
)

INSTALLED = False


def install() -> bool:
    """Patch numba's inliner (once); True when the patch is in place."""
    global INSTALLED
    if INSTALLED:
        return True
    if os.environ.get("CARDLAB_STOCK_INLINER"):  # numba as shipped: to compare against, or should numba change
        return False
    worker = inline_closurecall.InlineWorker
    try:
        src = textwrap.dedent(inspect.getsource(worker.inline_ir))
    except (OSError, TypeError):
        return False
    if src.count(_SIGNATURE[0]) != 1 or any(src.count(old) != 1 for old in _EDITS):
        return False
    try:  # the replacement below restates inline_function: only where numba's says the same
        calls = inspect.getsource(worker.inline_function)
    except (OSError, TypeError):
        return False
    if any(line not in calls for line in _INLINE_FUNCTION):
        return False
    src = src.replace(*_SIGNATURE)
    for old, new in _EDITS.items():
        src = src.replace(old, new)
    made: dict = {}
    exec(compile(src, inline_closurecall.__file__, "exec", dont_inherit=True), vars(inline_closurecall), made)

    def inline_function(self, caller_ir, block, i, function, arg_typs=None):
        callee_ir = self.run_untyped_passes(function)  # built for this call site alone
        freevars = function.__code__.co_freevars
        return self.inline_ir(caller_ir, block, i, callee_ir, freevars, arg_typs=arg_typs, fresh=True)

    inline_function.__doc__ = worker.inline_function.__doc__
    worker.inline_ir = made["inline_ir"]
    worker.inline_function = inline_function
    INSTALLED = True
    return True


#: the most a cache save waits for another process's (then it saves without the lock, as numba does)
LOCK_WAIT_S = 60.0


def lock_cache_writes() -> bool:
    """Make numba's cache saves safe between processes (once); True when in place.

    numba saves a compiled function by reading its index file, picking the first data-file number the index does
    not use, writing the index, then the data file. Two processes that save different signatures of one function
    at once (pytest-xdist's workers, :mod:`analysis.compile_ahead`'s helper beside its command) can pick the same
    number, and an index may then name the other signature's code; and a process that loads between the two
    writes, or after a save cut off between them, reads whatever data file had that number before (after a
    source change the numbers start again at 1, the old files still there). Here each save holds an exclusive
    ``flock`` on a lock file in the function's cache folder for the whole read-pick-write, and writes the data
    file before the index, so an index entry always names complete data of its own. Where the lock cannot be
    had (no ``fcntl``, a file system without ``flock``, a lock file not ours to open, or another process holding
    it over :data:`LOCK_WAIT_S`) the save goes on without it, in the same order."""
    try:
        import fcntl
    except ImportError:
        fcntl = None  # type: ignore[assignment]
    import itertools
    import time

    from numba.core import caching

    cls = caching.IndexDataCacheFile
    save = cls.save
    if getattr(save, "_cardlab_locked", False):
        return True
    if not all(hasattr(cls, m) for m in ("_load_index", "_save_index", "_save_data", "_data_name")):
        return False  # a numba whose cache file differs: saved as shipped

    def locked_save(self, key, data):
        fd = -1
        if fcntl is not None:
            try:
                fd = os.open(os.path.join(self._cache_path, ".cardlab-save.lock"), os.O_RDONLY | os.O_CREAT, 0o666)
                deadline = time.monotonic() + LOCK_WAIT_S
                while True:
                    try:
                        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                        break
                    except BlockingIOError:
                        if time.monotonic() > deadline:
                            raise
                        time.sleep(0.01)
            except OSError:
                if fd >= 0:
                    os.close(fd)
                fd = -1
        try:
            overloads = self._load_index()
            name = overloads.get(key)
            if name is None:
                used = set(overloads.values())
                name = next(n for n in map(self._data_name, itertools.count(1)) if n not in used)
            self._save_data(name, data)  # the data first: an index entry always names complete data
            if overloads.get(key) != name:
                overloads[key] = name
                self._save_index(overloads)
        finally:
            if fd >= 0:
                os.close(fd)  # releases the lock

    locked_save._cardlab_locked = True  # type: ignore[attr-defined]
    locked_save.__doc__ = save.__doc__
    cls.save = locked_save
    return True
