"""Calls from one kernel to another through a pointer bound when first called (``extern``).

numba links a called kernel's whole compiled module into its caller's, optimises it again and emits its machine
code again, at every level of the call tree; and it compiles the callee while typing the caller, whether or not
the run will ever reach the call. A player that a run does not use (the Bismarck search player in a PIMC run)
is therefore compiled anyway, and the double-dummy search is optimised and emitted once per layer above it.

``f = extern(callee, restype)`` gives a function for compiled code that calls ``callee`` (a module-level
:func:`kernels._jit.jit` function) with the argument types of the call site, through a pointer cell:

* the caller's typing needs only ``restype`` (declared here, checked against the callee when bound);
* the caller's code loads the cell (one symbol, registered with LLVM under a name made of the callee's name and
  the argument types, so that cached code links to it in any process); while it is empty the caller calls back
  into Python (:func:`_bind_from_compiled`), which compiles the callee for those types, or loads it from the
  numba cache, and stores its address. A run compiles the callees it reaches, and only those;
* the callee's code is its own library, compiled (and cached) once whoever calls it.

A caller loaded from the cache registers its cells again before its code is loaded (numba's ``reload_init``:
a picklable call run on every cache load of the caller, and of every kernel whose module links the caller's; a
caller linked after being loaded from the cache passes its calls on too, :func:`kernels._compile.keep_reload_init`).
The call passes numba's own calling convention (the callee's exceptions propagate as from a linked call); the
cost is an indirect call and a load, worth it for callees that do a decision's work or are called rarely: a call
through a cell passes every field of its array arguments, where LLVM trims or inlines a linked call (24 ns a
call of fifteen arrays).

With ``NUMBA_DISABLE_JIT`` the kernels are plain Python and ``extern`` returns the callee itself.

Compiling ahead in a second process: typing a call site gives the callee's argument types long before the run first
calls it (the rest of the caller still has to compile). Where the analysis layer has said which callees a run will
reach (:func:`expect`) and given a :func:`set_prefetcher`, a cold callee is handed to a helper process then
(``python -m kernels._extern``, fed by the prefetcher), which compiles it into the numba cache on the other core;
:func:`kernels._compile.lock_compiles` has a process wait while another compiles the same function for the same
types, so the run waits for the helper's save and loads it rather than compiling it a second time. Without a helper (the test suite), each process
compiles what it binds; a helper that fails or is slow costs nothing but the wait.
"""

from __future__ import annotations

import base64
import ctypes
import hashlib
import importlib
import inspect
import pickle
import sys
import threading
from collections.abc import Callable

import llvmlite.binding as llvm
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.core.compiler_lock import global_compiler_lock
from numba.extending import intrinsic

from . import _compile as _compile_mod

_I8P = ir.IntType(8).as_pointer()

#: symbol -> [cell, module name, function name, argument types, return type]; a cell is a ctypes pointer whose
#: address LLVM knows by the symbol, kept here for the process's life.
_CELLS: dict[str, list] = {}
_BY_ADDRESS: dict[int, str] = {}
_LOCK = threading.RLock()


def _symbol(module: str, name: str, argtypes: tuple, restype) -> str:
    key = f"{module}.{name}({', '.join(str(t) for t in argtypes)}) -> {restype}"
    return "cardlab_extern_" + hashlib.sha256(key.encode()).hexdigest()[:24]


def register(module: str, name: str, argtypes: tuple, restype) -> str:
    """Give LLVM the cell of ``module.name`` for ``argtypes`` (empty until bound); its symbol. Idempotent. Run while
    typing a call site, and on every cache load of code that holds one (as a :class:`_Register`)."""
    sym = _symbol(module, name, argtypes, restype)
    with _LOCK:
        if sym not in _CELLS:
            cell = ctypes.c_void_p(0)
            llvm.add_symbol(sym, ctypes.addressof(cell))
            _CELLS[sym] = [cell, module, name, argtypes, restype]
            _BY_ADDRESS[ctypes.addressof(cell)] = sym
    return sym


def _compile(module: str, name: str, argtypes: tuple):
    """The callee's compile result for ``argtypes``: compiled, or loaded from the numba cache (where another process,
    the helper, is compiling it, ``Dispatcher.compile`` waits for its save: kernels._compile.lock_compiles)."""
    dispatcher = getattr(importlib.import_module(module), name)
    dispatcher.compile(argtypes)
    return dispatcher.overloads[tuple(argtypes)]


#: called with "module.name" when a cell's callee is about to be compiled in the middle of a run (not loaded from the
#: cache): the analysis layer says so on stderr and in the run's meta (:func:`set_compile_hook`)
_ON_COMPILE: Callable[[str], None] | None = None


def set_compile_hook(hook: Callable[[str], None] | None) -> Callable[[str], None] | None:
    """Call ``hook("module.name")`` when a cell's callee is compiled on first use, not loaded from the cache (a
    run's kernel was cached, the player it reaches was not); the hook before. Errors in the hook are ignored."""
    global _ON_COMPILE
    before, _ON_COMPILE = _ON_COMPILE, hook
    return before


def bind(sym: str) -> int:
    """Compile (or load from the cache) the callee of cell ``sym`` for its argument types and store its entry's
    address in the cell; the address."""
    # numba's compiler lock first, then ours, in every thread: typing a call site takes them in that order
    with global_compiler_lock, _LOCK:
        cell, module, name, argtypes, restype = _CELLS[sym]
        if cell.value:
            return cell.value
        hook = _ON_COMPILE
        if hook is not None and not _cached(module, name, argtypes):
            try:
                hook(f"{module}.{name}")
            except Exception:  # noqa: BLE001 - a note, not the work
                pass
        cres = _compile(module, name, argtypes)
        if cres.signature.return_type != restype:
            raise TypeError(
                f"extern {module}.{name} declared to return {restype}, compiled to return {cres.signature.return_type}"
            )
        address = cres.library.get_pointer_to_function(cres.fndesc.llvm_func_name)
        if not address:
            raise RuntimeError(f"extern {module}.{name}: no entry point {cres.fndesc.llvm_func_name}")
        cell.value = address
        return address


def bound(module: str, name: str) -> list[tuple]:
    """The argument types ``module.name`` is bound for in this process (for tests)."""
    with _LOCK:
        return [c[3] for c in _CELLS.values() if c[1] == module and c[2] == name and c[0].value]


@ctypes.CFUNCTYPE(None, ctypes.c_void_p)
def _bind_from_compiled(address):
    # Called by compiled code (which may run without the GIL: ctypes takes it) with a cell's address. An error
    # leaves the cell empty; the compiled caller then raises.
    try:
        bind(_BY_ADDRESS[address])
    except Exception as exc:  # noqa: BLE001 - reported through the caller's exception below
        print(f"cardlab: could not compile a kernel's callee: {exc}", file=sys.stderr)


llvm.add_symbol("cardlab_extern_bind", ctypes.cast(_bind_from_compiled, ctypes.c_void_p).value)


#: "module.name" of the callees the process's runs will reach (:func:`expect`), and what compiles them ahead
_EXPECTED: set[str] = set()
_PREFETCHER: Callable[[bytes], None] | None = None
_REQUESTED: set[str] = set()


def _where(callee) -> tuple[str, str]:
    """The module and the global name of a module-level kernel (its Python function's name may differ)."""
    module = callee.py_func.__module__
    names = [k for k, v in vars(sys.modules[module]).items() if v is callee]
    if not names:
        raise ValueError(f"extern: {callee} is not a global of {module}")
    return module, names[0]


def expect(*callees) -> None:
    """Say that this process's runs will call ``callees`` (kernels given to :func:`extern`): a call site of one,
    when typed, hands it to the prefetcher, if there is one."""
    names = [".".join(_where(c)) for c in callees if hasattr(c, "py_func")]
    with _LOCK:
        _EXPECTED.update(names)


def prefetch(callee, argtypes: tuple, restype) -> None:
    """Hand ``callee`` for ``argtypes`` to the prefetcher now (where there is one and it is not cached): for a
    callee whose argument types are known before any call site is typed (the double-dummy search below every
    solver player), so that the helper starts on it while the command compiles its own kernel."""
    if not hasattr(callee, "py_func"):  # NUMBA_DISABLE_JIT
        return
    module, name = _where(callee)
    with _LOCK:
        _EXPECTED.add(f"{module}.{name}")
    _typed(module, name, tuple(argtypes), restype)


def set_prefetcher(send: Callable[[bytes], None] | None) -> None:
    """``send(line)`` passes one request line to a helper running :func:`serve` (None: no helper)."""
    global _PREFETCHER
    _PREFETCHER = send


def _cached(module: str, name: str, argtypes: tuple) -> bool:
    dispatcher = getattr(importlib.import_module(module), name)
    if tuple(argtypes) in dispatcher.overloads:
        return True
    key = _compile_mod.index_key(dispatcher, tuple(argtypes))
    try:
        return key is not None and key[2] in dispatcher._cache._cache_file._load_index()
    except Exception:  # noqa: BLE001 - a numba whose cache differs: taken as not cached
        return False


def _typed(module: str, name: str, argtypes: tuple, restype) -> None:
    sym = register(module, name, argtypes, restype)
    with _LOCK:
        if _PREFETCHER is None or f"{module}.{name}" not in _EXPECTED or sym in _REQUESTED:
            return
        _REQUESTED.add(sym)
        expected = sorted(_EXPECTED)
    if not _cached(module, name, argtypes):
        try:
            _PREFETCHER(base64.b64encode(pickle.dumps((module, name, argtypes, restype, expected))) + b"\n")
        except Exception:  # noqa: BLE001 - compiling ahead is optional: the run compiles it itself
            pass


def serve(stream) -> None:
    """The helper: compile each requested callee (one base64 pickle a line) into the numba cache, under its lock;
    then the expected callees that its own compiles typed call sites of (the double-dummy search below the PIMC
    player), which the command would otherwise compile when its run first reaches them."""
    done: set[str] = set()
    for line in stream:
        try:
            module, name, argtypes, restype, expected = pickle.loads(base64.b64decode(line))
        except Exception as exc:  # noqa: BLE001
            print(f"kernels._extern helper: a bad request: {exc}", file=sys.stderr)
            continue
        with _LOCK:
            _EXPECTED.update(expected)
        todo = [(module, name, argtypes, restype)]
        while todo:
            module, name, argtypes, restype = todo.pop(0)
            sym = _symbol(module, name, argtypes, restype)
            if sym in done:
                continue
            done.add(sym)
            try:
                _compile(module, name, argtypes)
            except Exception as exc:  # noqa: BLE001 - the command compiles what the helper could not
                print(f"kernels._extern helper: {module}.{name}: {exc}", file=sys.stderr)
                continue
            with _LOCK:
                todo += [tuple(c[1:5]) for k, c in _CELLS.items() if k not in done and f"{c[1]}.{c[2]}" in _EXPECTED]


class _Register:
    """:func:`register` of one cell, as a picklable call for numba's ``reload_init`` (equal for equal cells, so
    that a caller with many call sites of one callee, and every layer linking it, keeps one)."""

    def __init__(self, module: str, name: str, argtypes: tuple, restype):
        self.args = (module, name, argtypes, restype)

    def __call__(self) -> str:
        return register(*self.args)

    def __eq__(self, other) -> bool:
        return isinstance(other, _Register) and self.args == other.args

    def __hash__(self) -> int:
        return hash(self.args)


class _Callee:
    """What ``builder.call`` needs of a function: its type and a reference (here a pointer loaded at run time)."""

    def __init__(self, value, function_type):
        self._value = value
        self.function_type = function_type
        self.type = value.type

    def get_reference(self):
        return self._value.get_reference()


def extern(callee, restype, literal: bool = False):
    """A function for compiled code calling ``callee`` (a module-level kernel) through a cell bound on first use;
    see the module's docstring. ``restype``: the numba type ``callee`` returns. ``literal``: a constant argument
    keeps its literal type, so that ``callee`` is compiled for that constant (numba's way for a direct call; the
    double-dummy search unrolls its loops over a constant hand count); else constants are passed as values."""
    if not hasattr(callee, "py_func"):  # NUMBA_DISABLE_JIT: the kernels are plain Python, and so is the call
        return callee
    module, name = _where(callee)
    params = list(inspect.signature(callee.py_func).parameters.values())

    def typer(args):
        given = tuple(args) if literal else tuple(types.unliteral(a) for a in args)
        # parameters left out take their defaults, as numba's direct call does (an Omitted type: no value passed)
        argtypes = given + tuple(types.Omitted(p.default) for p in params[len(args) :])
        # numba folds a left-out parameter's Python default (None) into the call as a constant of the signature's
        # type there: none; the callee gets its own default (Omitted) instead
        sig = restype(*args, *[types.none] * (len(params) - len(args)))
        _typed(module, name, argtypes, restype)

        def codegen(context, builder, signature, llargs):
            sym = register(module, name, argtypes, restype)
            # a cache load of this code (or of code that links it) registers the cell before loading it
            context.active_code_library._reload_init.add(_Register(module, name, argtypes, restype))
            mod = builder.module
            gv = mod.globals.get(sym)
            if gv is None:
                gv = ir.GlobalVariable(mod, _I8P, sym)  # a declaration: LLVM resolves it by the symbol
            fp = builder.load(gv)
            with builder.if_then(builder.icmp_unsigned("==", fp, _I8P(None)), likely=False):
                fnty = ir.FunctionType(ir.VoidType(), [_I8P])
                cb = cgutils.get_or_insert_function(mod, fnty, "cardlab_extern_bind")
                builder.call(cb, [builder.bitcast(gv, _I8P)])
            fp = builder.load(gv)
            with builder.if_then(builder.icmp_unsigned("==", fp, _I8P(None)), likely=False):
                context.call_conv.return_user_exc(
                    builder, RuntimeError, (f"cardlab: could not compile {module}.{name} (see the line above)",)
                )
            fnty = context.call_conv.get_function_type(restype, argtypes)
            fn = _Callee(builder.bitcast(fp, fnty.as_pointer()), fnty)
            cast = [context.cast(builder, v, t, u) for v, t, u in zip(llargs[: len(given)], signature.args, given)]
            cast += [cgutils.get_null_value(context.get_value_type(t)) for t in argtypes[len(given) :]]
            status, res = context.call_conv.call_function(builder, fn, restype, argtypes, cast)
            with cgutils.if_unlikely(builder, status.is_error):
                context.call_conv.return_status_propagate(builder, status)
            return res

        return sig, codegen

    # The typer takes the callee's parameters one by one (those with a default may be left out), not as *args:
    # numba packs star arguments into a tuple, which counts a reference to every array in it, two atomic
    # operations an array a call (24 ns a call of 15 arrays).
    names = [f"a{i}" for i in range(len(params))]
    heads = [n if p.default is p.empty else f"{n}=None" for n, p in zip(names, params)]
    namespace = {"typer": typer}
    exec(  # noqa: S102 - a typer of the callee's arity, from fixed text
        f"def call(typingctx, {', '.join(heads)}):\n"
        f"    return typer(tuple(a for a in ({', '.join(names)},) if a is not None))  # None: left out\n",
        namespace,
    )
    call = intrinsic(prefer_literal=literal)(namespace["call"])
    call.__name__ = f"extern_{name}"
    return call


if __name__ == "__main__":  # run as ``python -m kernels._extern``: serve with the module the kernels import
    from kernels import _extern

    _extern.serve(sys.stdin.buffer)
