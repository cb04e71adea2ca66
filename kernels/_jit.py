"""The one place where numba flags are set.

Every kernel in this package is compiled through :func:`jit` (serial helpers) or :func:`chunk_jit` (the
chunk loops, run on several threads by the driver). ``cache=True`` keeps compiled code on disk between runs;
``fastmath`` stays off because kernels accumulate counts and probabilities. No bare ``numba.njit`` elsewhere.

Also here, because they are about how numba handles memory rather than about any game: :func:`borrowed`
(array views that numba does not reference-count, for the hot loops), :func:`prefetch` (a cache hint) and
:func:`advise_huge` (huge pages for a large table).

Compile time: numba compiles a :func:`jit` function once per distinct argument types, and a constant is typed
``Literal[int](0)``, not ``int64``. A call ``f(x, 0)`` from compiled code, or a variable first set to a constant
(``cur_key = 0``) and passed on before it changes, compiles ``f`` once more for the literal (numba types the call
while the variable's type is still the literal). Write ``np.int64(0)`` there: the code run is the same, one compile
fewer. It paid in the double-dummy chain (``dd.card_values`` and the Bismarck solver players'; its search is large: a
cold run of the Bismarck tests 196 s -> 158 s). The climbing games' play loops have more such duplicates, but small
ones: removing 8 of them saved 3 s of 286, so they stay as they are. The numba cache's index files (``*.nbi``) list
each function's signatures.

Factories (a kernel with and without the solver players, say) make closures, and numba keys a closure's cache
entry on its cells' contents, pickled: a cell may hold a constant (the factory's flag), never a dispatcher, whose
pickle differs in every process, so that the kernel would compile again on every run. A factory's kernel calls its
callees as module globals (``tests/test_jit_helpers.py`` holds every kernel's cells to constants).
"""

from __future__ import annotations

import ctypes
import sys

import llvmlite.binding as llvm
import numba
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from kernels import _compile

_compile.install()  # numba's inline="always" without its redundant IR copies (see kernels/_compile.py)
_compile.lock_cache_writes()  # one process's cache save at a time: xdist's workers, analysis.compile_ahead's helper
_compile.lock_compiles()  # one process compiles a function at a time: a command and its helper share callees
_compile.keep_reload_init()  # a cached function's cell registrations reach the callers that link it later

#: Every kernel's options but the cache; an ``@overload`` whose implementation is a kernel takes these alone (its
#: callers' caches hold it).
JIT_OPTIONS = {"nogil": True, "error_model": "numpy"}

#: Serial kernels and helpers (inlined into callers by LLVM where profitable).
jit = numba.njit(cache=True, **JIT_OPTIONS)

#: Small hot helpers, inlined at numba-IR level into their callers (this removes the call; the reference
#: counting of array arguments, atomic operations, is then pruned in a small caller: see ``borrowed`` for
#: large ones).
jit_inline = numba.njit(cache=True, inline="always", **JIT_OPTIONS)

#: The chunk loops of the driver's calling convention (analysis.driver): a serial loop over the chunks given, each
#: writing its own output row. They run in parallel because the driver hands each thread its own chunks, and
#: ``nogil`` lets the threads run at once. Not numba's ``parallel=True``: its parfor passes and the gufunc
#: it builds around the loop cost about 7 s of compile time per kernel, for the same parallel speed.
chunk_jit = jit


def _borrow(context, builder, typ, value):
    if isinstance(typ, types.Array):
        out = cgutils.create_struct_proxy(typ)(context, builder, value=value)
        out.meminfo = cgutils.get_null_value(out.meminfo.type)
        out.parent = cgutils.get_null_value(out.parent.type)
        return out._getvalue()
    if isinstance(typ, types.BaseTuple):
        items = [_borrow(context, builder, t, builder.extract_value(value, i)) for i, t in enumerate(typ)]
        return context.make_tuple(builder, typ, items)
    return value


@intrinsic
def borrowed(typingctx, arr):
    """``arr`` (an array, or a tuple of arrays and other values) as arrays that own no reference (meminfo
    null), so that numba counts no references to them.

    numba increments an array's reference count (an atomic operation) wherever a variable takes it, an
    inlined helper's argument included, and decrements it on every way out; LLVM's reference-count pruning
    removes the pairs in small functions but gives up in large ones. Simulation loops and the double-dummy
    search, which hand their buffers to inlined helpers at every step, spent 10-20% of their time on those
    atomics.

    Borrow only a function's own arguments (``a, b = borrowed((a, b))`` at its top): the caller holds them
    for the whole call. Never borrow a local array: numba frees it at its last use, which may be the
    ``borrowed`` call itself, and the view then points at freed memory. A borrowed view must not be
    returned or stored."""
    if not isinstance(arr, (types.Array, types.BaseTuple)):
        return None

    def codegen(context, builder, signature, args):
        return _borrow(context, builder, signature.args[0], args[0])

    return arr(arr), codegen


@intrinsic
def prefetch(typingctx, arr, i):
    """A hint to bring row ``i`` of the 2-D array ``arr`` (and, by the hardware's stride prefetcher, the rows
    after it) into the cache ahead of its use (LLVM's ``llvm.prefetch``, for a read). No effect on results."""
    if not (isinstance(arr, types.Array) and arr.ndim == 2 and isinstance(i, types.Integer)):
        return None

    def codegen(context, builder, signature, args):
        ary = context.make_array(signature.args[0])(context, builder, value=args[0])
        zero = context.get_constant(types.intp, 0)
        idx = context.cast(builder, args[1], signature.args[1], types.intp)
        ptr = cgutils.get_item_pointer(context, builder, signature.args[0], ary, [idx, zero])
        i8p, i32 = ir.IntType(8).as_pointer(), ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0")
        # (address, read, keep in all cache levels, data cache)
        builder.call(fn, [builder.bitcast(ptr, i8p), ir.Constant(i32, 0), ir.Constant(i32, 3), ir.Constant(i32, 1)])
        return context.get_dummy_value()

    return types.none(arr, i), codegen


#: Linux ``madvise(2)`` advice asking for transparent huge pages (``MADV_HUGEPAGE``), and their size.
MADV_HUGEPAGE = 14
HUGE_PAGE = 1 << 21

# madvise, for compiled code: the C library's, registered with LLVM under its own name, so that cached code
# that calls it links on load. Elsewhere (no madvise: Windows) compiled code calls a stand-in that does nothing.
_HAVE_MADVISE = False
if sys.platform.startswith("linux"):
    try:
        _libc = ctypes.CDLL(None)
        llvm.add_symbol("madvise", ctypes.cast(_libc.madvise, ctypes.c_void_p).value)
        _HAVE_MADVISE = True
    except (OSError, AttributeError):
        pass


@intrinsic
def _madvise(typingctx, addr, length, advice):
    """``madvise(addr, length, advice)`` (its return value: 0, or -1 where the kernel refused)."""
    if not all(isinstance(a, types.Integer) for a in (addr, length, advice)):
        return None

    def codegen(context, builder, signature, args):
        i8p, i32, i64 = ir.IntType(8).as_pointer(), ir.IntType(32), ir.IntType(64)
        if not _HAVE_MADVISE:
            return ir.Constant(i32, -1)
        fnty = ir.FunctionType(i32, [i8p, i64, i32])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "madvise")
        a = context.cast(builder, args[0], signature.args[0], types.uint64)
        n = context.cast(builder, args[1], signature.args[1], types.uint64)
        adv = context.cast(builder, args[2], signature.args[2], types.int32)
        return builder.call(fn, [builder.inttoptr(a, i8p), n, adv])

    return types.int32(addr, length, advice), codegen


@jit
def advise_huge(addr, nbytes):
    """Ask the kernel to back ``nbytes`` of not yet touched memory from ``addr`` (a multiple of ``HUGE_PAGE``)
    with transparent huge pages: a large table probed at random then costs a TLB miss per probe far less
    often (docs/performance.md, the double-dummy table). A hint: where
    the kernel or platform has none (THP off, not Linux) nothing changes. Returns madvise's result."""
    return _madvise(addr, nbytes, MADV_HUGEPAGE)


def is_cached(dispatcher) -> bool | None:
    """Whether a kernel has compiled code on disk, so a first call loads rather than compiles; None when that
    cannot be told (caching off, or numba's layout changed).

    The index file is not enough: kernels made by one factory (a closure per flag, as the Bismarck advisor's
    kernels with and without the solvers) share it, each entry keyed by the closure's contents. So the index
    must hold an entry with this function's own key (numba's ``_index_key`` less the signature)."""
    try:
        if dispatcher.signatures:
            return True
        cache = dispatcher._cache
        index = cache._cache_file._load_index()
        _sig, magic, hashes = cache._index_key(None, dispatcher.targetctx.codegen())
        return any(key[1] == magic and key[2] == hashes for key in index)
    except (AttributeError, TypeError, ValueError):
        return None
