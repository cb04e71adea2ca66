"""Four repairs to numba, installed by :mod:`kernels._jit`: ``inline="always"`` without deep copies of an IR that
nobody else holds (:func:`install`), cache saves safe between processes (:func:`lock_cache_writes`), no
function compiled by two processes at once (:func:`lock_compiles`), and a cached function's load calls kept for
the callers that link it later (:func:`keep_reload_init`).

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

import contextlib
import inspect
import os
import textwrap
import time

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
    import itertools

    from numba.core import caching

    cls = caching.IndexDataCacheFile
    save = cls.save
    if getattr(save, "_cardlab_locked", False):
        return True
    if not all(hasattr(cls, m) for m in ("_load_index", "_save_index", "_save_data", "_data_name")):
        return False  # a numba whose cache file differs: saved as shipped

    def locked_save(self, key, data):
        with file_lock(self._cache_path, ".cardlab-save", LOCK_WAIT_S):
            overloads = self._load_index()
            name = overloads.get(key)
            if name is None:
                used = set(overloads.values())
                name = next(n for n in map(self._data_name, itertools.count(1)) if n not in used)
            self._save_data(name, data)  # the data first: an index entry always names complete data
            if overloads.get(key) != name:
                overloads[key] = name
                self._save_index(overloads)

    locked_save._cardlab_locked = True  # type: ignore[attr-defined]
    locked_save.__doc__ = save.__doc__
    cls.save = locked_save
    return True


#: the most a process waits for another compiling the same function before compiling it itself
COMPILE_WAIT_S = 120.0


@contextlib.contextmanager
def file_lock(folder: str, name: str, wait_s: float):
    """An exclusive ``flock`` on ``folder/name.lock`` for the block, or none where it cannot be had (no ``fcntl``,
    a folder not ours, another process holding it over ``wait_s``): the block runs either way."""
    fd = -1
    try:
        import fcntl

        os.makedirs(folder, exist_ok=True)
        fd = os.open(os.path.join(folder, name + ".lock"), os.O_RDONLY | os.O_CREAT, 0o666)
        deadline = time.monotonic() + wait_s
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    os.close(fd)
                    fd = -1
                    break
                time.sleep(0.02)
    except (ImportError, OSError):
        if fd >= 0:
            os.close(fd)
        fd = -1
    try:
        yield
    finally:
        if fd >= 0:
            os.close(fd)  # releases the lock


#: the folder of the compile locks, in the numba cache
COMPILING = "compiling"


def index_key(dispatcher, args: tuple) -> tuple | None:
    """``(cache folder, index file, numba's index key)`` of ``dispatcher`` compiled for the argument types ``args``:
    what names its code in the numba cache; None without a cache (or with a numba whose cache differs)."""
    from numba.core import caching

    cache = getattr(dispatcher, "_cache", None)
    if cache is None or isinstance(cache, caching.NullCache):
        return None
    try:
        codegen = dispatcher.targetctx.codegen()
        return (cache._cache_path, cache._cache_file._index_name, cache._index_key(tuple(args), codegen))
    except Exception:  # noqa: BLE001
        return None


def compile_lock_name(dispatcher, sig) -> str | None:
    """The name of the lock :func:`lock_compiles` holds while ``dispatcher`` compiles for ``sig``: a digest of its
    :func:`index_key`; None where there is none to hold (no cache, the types compiled already in this process)."""
    import hashlib

    from numba.core import sigutils

    try:
        args, _ = sigutils.normalize_signature(sig)
    except Exception:  # noqa: BLE001
        return None
    if tuple(args) in dispatcher.overloads:
        return None
    key = index_key(dispatcher, tuple(args))
    return None if key is None else hashlib.sha256(repr(key).encode()).hexdigest()[:32]


def lock_compiles() -> bool:
    """One process at a time compiles a given function for given types (once; True when in place).

    Two processes compiling at once on one numba cache (a command and its helper, :mod:`kernels._extern` and
    :mod:`analysis.compile_ahead`; xdist's workers) often need the same callees: the move generator below both the
    play loop and the search's rollouts. Here ``Dispatcher.compile`` of a cached function holds an exclusive
    ``flock`` named by the function's cache key (its source, closure and argument types) while it loads or
    compiles; the other process waits, and numba's own first step, a cache lookup, then finds the code saved.
    Nested compiles take nested locks; a process holds only those of the functions it is compiling, callers
    above callees, so where no two functions call each other (none of the kernels do) no two processes wait for
    each other; were they to, each gives up the wait after :data:`COMPILE_WAIT_S` and compiles itself. A function
    already held in this process (a recursive one) is not locked again."""
    import threading

    from numba.core import dispatcher
    from numba.core.compiler_lock import global_compiler_lock

    cls = dispatcher.Dispatcher
    compile_ = cls.compile
    if getattr(compile_, "_cardlab_locked", False):
        return True
    held: set[str] = set()
    guard = threading.Lock()

    def locked_compile(self, sig):
        with global_compiler_lock:  # numba's lock first, as compile_ takes it: one order in every thread
            name = compile_lock_name(self, sig)
            if name is None:
                return compile_(self, sig)
            with guard:
                mine = name not in held
                held.add(name)
            if not mine:
                return compile_(self, sig)
            try:
                import numba

                with file_lock(os.path.join(numba.config.CACHE_DIR, COMPILING), name, COMPILE_WAIT_S):
                    return compile_(self, sig)
            finally:
                with guard:
                    held.discard(name)

    locked_compile._cardlab_locked = True  # type: ignore[attr-defined]
    locked_compile.__doc__ = compile_.__doc__
    cls.compile = locked_compile
    return True


def keep_reload_init() -> bool:
    """A function loaded from the cache keeps its load calls (``reload_init``) on its library (once; True when in
    place).

    numba stores with a compiled function the calls to run before its code is loaded again (``reload_init``; the
    cells of :mod:`kernels._extern` register their symbols so), and a caller that links a function's library takes
    them over from the library. But a function loaded from the cache gets a new library without them: a caller
    compiled after that load and cached would leave them out, and a later process loading that caller would find a
    cell's symbol unknown (LLVM then stops the process). Here the load puts them back on the library."""
    from numba.core import compiler

    cls = compiler.CompileResult
    rebuild = cls.__dict__.get("_rebuild")
    if rebuild is None or not isinstance(rebuild, classmethod):
        return False  # a numba that rebuilds otherwise: as shipped
    if getattr(rebuild.__func__, "_cardlab_kept", False):
        return True
    inner = rebuild.__func__

    def kept(klass, target_context, libdata, fndesc, env, signature, objectmode, lifted, typeann, reload_init, *rest):
        cr = inner(
            klass, target_context, libdata, fndesc, env, signature, objectmode, lifted, typeann, reload_init, *rest
        )
        if reload_init:
            cr.library._reload_init.update(reload_init)
        return cr

    kept._cardlab_kept = True  # type: ignore[attr-defined]
    cls._rebuild = classmethod(kept)
    return True
