"""A command's later kernels compiled in a helper process while the command compiles and runs its first.

numba compiles one function at a time in a process, so a command that runs several kernels in turn (a report)
spends its first run on an empty numba cache compiling them one after the other, on one core. :func:`start`
hands the later ones to one helper process (``python -m analysis.compile_ahead``), which runs each spec for a
few trials: that compiles its kernel into the numba cache, and the helper throws the counts away. When the
command comes to such a kernel, :func:`wait_for` (called by the driver before every run) waits until the helper
has saved it, and the command's own run then loads the kernel from the cache. The results are the command's own
runs, the same with or without the helper; only the first run's wall time changes.

A second kind of helper, :func:`install_extern_helper`'s, compiles the players a command's kernels reach through
cells (kernels/_extern.py: the solver and search players) as soon as the command has typed a call site.

No helper starts where the kernels are cached already, on a machine with one core, or with
``CARDLAB_COMPILE_AHEAD=0`` (or false, no, off; the test suite sets it: its workers fill every core). Should the helper fail, the
command compiles the kernel itself, as without it. A function both processes need is compiled by one while the
other waits (:func:`kernels._compile.lock_compiles`); :func:`kernels._compile.lock_cache_writes` makes their cache
writes safe, and an index entry there always names complete data, so a kernel the helper has saved is whole when
the command loads it.
"""

from __future__ import annotations

import atexit
import importlib
import json
import os
import subprocess
import sys
import time
from typing import Any

#: a kernel to compile: the kernel ("module:name", as ``KernelSpec.kernel``), the module and the function that make
#: its :class:`~analysis.driver.KernelSpec`, the function's arguments (JSON values) and keyword arguments. The
#: kernel is named so that the command need not make the spec (making one may compile: a review's replays the
#: record). A function that returns anything but a spec is taken to have compiled the kernel by calling it (a small
#: exact count); a command that calls such a kernel itself calls :func:`wait_for` first
Job = tuple[str, str, str, list, dict]

#: the most a command waits for its helper (compiling one game's kernels takes up to about a minute)
WAIT_S = 300.0


class Helper:
    """One helper process and the kernels it compiles."""

    def __init__(self, proc: subprocess.Popen, kernels: list[str]):
        self.proc = proc
        self.kernels = kernels

    def wait(self, kernel: str) -> None:
        """Until the helper has saved ``kernel`` to the numba cache, or has ended (the command then compiles what
        it left), but at most :data:`WAIT_S`."""
        from kernels._jit import is_cached

        from .driver import _load_kernel

        dispatcher = _load_kernel(kernel)
        deadline = time.monotonic() + WAIT_S
        while self.proc.poll() is None:
            if is_cached(dispatcher):  # an index entry names complete data (kernels._compile.lock_cache_writes)
                break
            if time.monotonic() > deadline:
                self.stop()
                break
            time.sleep(0.05)
        _pending.pop(kernel, None)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=2)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


#: kernel path ("module:name") -> the helper compiling it
_pending: dict[str, Helper] = {}
#: every helper this process started
_helpers: list[Helper] = []


def _spec(job: Job):
    _kernel, module, name, args, kwargs = job
    return getattr(importlib.import_module(module), name)(*args, **kwargs)


def _cores() -> int:
    """The cores this process may run on (taskset and container limits included, where the platform says)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


#: the values of ``CARDLAB_COMPILE_AHEAD`` that turn the helper off (any case); unset or anything else leaves it on
OFF = ("0", "false", "no", "off")


def enabled() -> bool:
    return os.environ.get("CARDLAB_COMPILE_AHEAD", "1").strip().lower() not in OFF and _cores() >= 2


def start(jobs: list[Job]) -> Helper | None:
    """Start a helper compiling the kernels of ``jobs`` that are not in the numba cache yet (in order); None
    where none is needed or :func:`enabled` says no."""
    if not enabled():
        return None
    from kernels._jit import is_cached

    from .driver import _load_kernel

    cold: list[Job] = []
    kernels: list[str] = []
    for job in jobs:
        kernel = job[0]
        if kernel in _pending or kernel in kernels or is_cached(_load_kernel(kernel)) is not False:
            continue
        cold.append(job)
        kernels.append(kernel)
    if not cold:
        return None
    # this checkout's package first on the helper's path, whatever the folder the command runs in
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    path = os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH", "")) if p)
    proc = subprocess.Popen(
        [sys.executable, "-m", "analysis.compile_ahead", json.dumps(cold)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "PYTHONPATH": path},
    )
    helper = Helper(proc, kernels)
    _helpers.append(helper)
    for k in kernels:
        _pending[k] = helper
    return helper


def wait_for(kernel: str) -> None:
    """Before a run of ``kernel``: where a helper is compiling it, wait for the helper."""
    helper = _pending.get(kernel)
    if helper is not None:
        helper.wait(kernel)


class _ExternHelper:
    """The helper compiling the callees a command's kernels reach through :func:`kernels._extern.extern` (``python
    -m kernels._extern``, fed one request a line), started at the first request."""

    def __init__(self):
        self.proc: subprocess.Popen | None = None

    def send(self, line: bytes) -> None:
        if self.proc is None:
            root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
            path = os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH", "")) if p)
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "kernels._extern"],
                stdin=subprocess.PIPE,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                env={**os.environ, "PYTHONPATH": path},
            )
            _helpers.append(Helper(self.proc, []))  # stopped at exit with the others
        assert self.proc.stdin is not None
        self.proc.stdin.write(line)
        self.proc.stdin.flush()


#: the helper :func:`install_extern_helper` set up, if any
_extern_helper: _ExternHelper | None = None


def install_extern_helper() -> None:
    """Where :func:`enabled`, let the kernels hand the callees a run will reach to a helper process as soon as a
    call site is typed (kernels/_extern.py); the helper starts only if one is not cached."""
    global _extern_helper
    from kernels import _extern

    _extern_helper = _ExternHelper() if enabled() else None
    _extern.set_prefetcher(_extern_helper.send if _extern_helper is not None else None)


def stop_extern_helper() -> None:
    """The command is done: no more requests, and the helper (if one started) stopped."""
    global _extern_helper
    if _extern_helper is None:
        return
    from kernels import _extern

    _extern.set_prefetcher(None)
    proc, _extern_helper = _extern_helper.proc, None
    if proc is not None:
        Helper(proc, []).stop()


@atexit.register
def _stop_all() -> None:  # a command that ends early (an error, Ctrl-C) leaves no helper behind
    for helper in _helpers:
        helper.stop()
    _helpers.clear()
    _pending.clear()


def main(argv: list[str] | None = None) -> int:
    """The helper: run each job's spec for a few trials, one thread, nothing printed. At the first job that fails
    it stops with 1: the command, seeing it ended, compiles that kernel and the later ones itself."""
    from .driver import KernelSpec, run

    jobs: list[Any] = json.loads((argv if argv is not None else sys.argv[1:])[0])
    for job in jobs:
        try:
            spec = _spec(job)
            if not isinstance(spec, KernelSpec):  # the function called the kernel itself
                continue
            if spec.kernel != job[0]:  # a job naming another kernel than its spec's
                raise ValueError(f"{job[1]}.{job[2]} makes a spec of {spec.kernel}, not {job[0]}")
            run(spec, trials=8, seed=0, progress=False, threads=1)
        except Exception:
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
