"""The chunked Monte Carlo driver that every simulation goes through.

Work is split into fixed chunks of ``chunk_size`` trials (the chunk count comes from the work, never
from the number of threads). A kernel fills one integer row of counts per chunk; rows are merged in chunk
order. Each trial draws its random numbers from its own Philox stream keyed by (seed, global trial index,
purpose) -- see :mod:`kernels.rng` -- so a result is a pure function of (kernel and its arguments, seed,
trials, chunk size, code version), whatever the thread count, the backend, or interruptions.

Kernel calling convention (``KernelSpec.kernel`` names it as ``"module:function"``)::

    kernel(chunk_ids: int64[m], chunk_size: int, n_trials: int, key0: uint64, key1: uint64,
           *args, out: int64[m, n_counts]) -> None

where chunk ``c`` covers the global trials ``[c * chunk_size, min((c + 1) * chunk_size, n_trials))``.

Backends: ``threads`` (threads of this process, as many as numba's thread count; ``threads=N`` sets it),
``processes`` (a spawn-based process pool, each worker on one thread), ``dask`` (a ``distributed`` client; a
LocalCluster when no scheduler address is given). Precision mode runs chunks until every row of the spec's
``precision_measures`` has an interval half-width within the target; it looks at the table only at chunk counts
that follow from the work (:func:`next_look`), so an interrupted and resumed run stops where an uninterrupted
one does. Completed chunks go to an append-only, locked checkpoint (:mod:`analysis.checkpoint`).
"""

from __future__ import annotations

import asyncio
import contextvars
import dataclasses
import hashlib
import importlib
import json
import math
import os
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from . import __version__
from .checkpoint import Checkpoint, CheckpointWriteError
from .errors import BackendFailed, CardlabError, Interrupted, SaveFailed, Terminated, accepted
from .jackknife import GROUPS, chunk_size_for, with_pooled_intervals
from .stats import half_width
from .tables import Result, bare_measure, measure_alias, note

BACKENDS = ("threads", "processes", "dask")
DEFAULT_CHUNK_SIZE = 4096
#: trials per chunk for a spec where a seat searches (Zheng Shangyou, Biscuits; KernelSpec.chunk_size): such a trial
#: takes tens of milliseconds, and 4,096 would leave every thread but one idle on the runs people make of it (hundreds
#: of games); Bismarck's solver specs size theirs by unit (games.bismarck.SOLVER_CHUNK)
SEARCH_CHUNK = 16
MAX_TRIALS = 10**12
DEFAULT_MAX_TRIALS = 10**9  # precision mode's cap (CARDLAB_MAX_TRIALS sets another)

#: who watches the runs of this thread (``cardlab serve``'s job queue): called with one event dict per stage
#: (``{"stage": "compiling"}``; after each batch and look ``{"stage": "running", "trials": n, "total": N or None,
#: "half_width": h or None, "target": P or None}``; before each of a review's decisions ``{"stage": "decision",
#: "decision": k, "decisions": n}``); it may raise :class:`~analysis.errors.Cancelled` to stop
#: the run between batches (the executor is closed as after Ctrl-C; nothing is kept)
_observer: contextvars.ContextVar[Callable[[dict], None] | None] = contextvars.ContextVar("observer", default=None)


@contextmanager
def observing(callback: Callable[[dict], None]) -> Iterator[None]:
    """Let ``callback`` watch (and stop) every run started in this thread inside the block."""
    token = _observer.set(callback)
    try:
        yield
    finally:
        _observer.reset(token)


def notify(**event: Any) -> None:
    """Tell the observer of this thread, if any, of ``event`` (see :data:`_observer`)."""
    callback = _observer.get()
    if callback is not None:
        callback(event)


#: Seconds a dask scheduler has to answer a new client (then one line, exit 2).
DASK_CONNECT_S = 10
DASK_NO_WORKER_S = float(os.environ.get("CARDLAB_DASK_NO_WORKER_S", "60"))


@dataclass(frozen=True)
class KernelSpec:
    """Everything a worker needs to run chunks: a kernel by import path and its array/int arguments.

    ``tabulate(counts: int64[n_counts], trials: int, spec) -> DataFrame`` turns the merged counts into
    the tidy table; ``precision_measures`` lists the measures precision mode must bring within target.
    """

    game: str
    kernel: str
    args: tuple
    n_counts: int
    tabulate: Callable[..., Any]
    describe: dict = field(default_factory=dict)
    precision_measures: tuple[str, ...] = ()
    #: precision mode may also stop when this says the table answers the question (``(table, precision) ->
    #: bool``; the advisor: every paired difference within ±P or clear of zero), at the same looks
    precision_done: Callable[..., bool] | None = None
    #: trials per chunk where the caller gives none (None: ``DEFAULT_CHUNK_SIZE``). Specs with search or solver
    #: players set a small one: a chunk is one thread's unit of work, and 4,096 such trials would be minutes in
    #: one chunk, the other threads idle. A --trials run's counts do not depend on it (each trial draws from its
    #: own streams); precision mode looks at whole chunks (its first look stays at 4,096 trials: :func:`run`)
    chunk_size: int | None = None
    #: the table's rows pooled over seats (teams, roles), and means without a sum of squares, take their
    #: intervals from the jackknife over the run's chunks (:func:`analysis.jackknife.with_pooled_intervals`): a
    #: simulation's seats of one deal are not independent trials. Not in the fingerprint: the counts, and so a
    #: checkpoint, are the same either way
    pooled_by_chunks: bool = False
    #: the measures a table shows only where something was counted (a table of zero counts lacks them), or None
    #: where the spec does not say: a requested measure missing from the zero-count table is then looked for in
    #: a small run's table (compiling the kernel first), which a spec that names them spares a mistyped name
    counted_measures: tuple[str, ...] | None = None
    #: figures about the run for its words (an advisor's count of the cards a position does not place), which
    #: the args already fix: not in the fingerprint, so that a checkpoint does not depend on how a run is described
    notes: dict = field(default_factory=dict, compare=False)

    def fingerprint(self) -> str:
        h = hashlib.sha256()
        h.update(self.kernel.encode())
        h.update(str(self.n_counts).encode())
        for a in self.args:
            arr = np.ascontiguousarray(a)
            h.update(str(arr.dtype).encode() + str(arr.shape).encode())
            h.update(arr.tobytes())
        h.update(json.dumps(self.describe, sort_keys=True, default=str).encode())
        return h.hexdigest()


#: seconds of timed work before precision mode projects how long the rest will take (:func:`_say_how_long`)
HOW_LONG_AFTER_S = 1.0
#: the chunks of precision mode's first look for a spec whose pooled rows take the jackknife's intervals
PRECISION_GROUPS = 8


def split_seed(seed: int) -> tuple[np.uint64, np.uint64]:
    if not isinstance(seed, (int, np.integer)) or seed < 0 or seed >= 2**128:
        raise CardlabError(f"bad seed {seed!r}: expected an integer in [0, 2**128)")
    seed = int(seed)
    return np.uint64(seed & (2**64 - 1)), np.uint64(seed >> 64)


def _load_kernel(path: str):
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)


def run_chunks(
    kernel_path: str,
    args: tuple,
    chunk_ids: np.ndarray,
    chunk_size: int,
    n_trials: int,
    key0: np.uint64,
    key1: np.uint64,
    n_counts: int,
    threads: int | None = None,
) -> np.ndarray:
    """Run ``chunk_ids`` in this process and return their rows (the unit of work of every backend).

    The chunks run on numba's thread count (``threads`` sets it; NUMBA_NUM_THREADS caps it): each thread calls
    the serial kernel on slices of the chunks it takes in turn, and the kernels release the GIL
    (kernels._jit.chunk_jit). A chunk's row depends on its id alone, so the rows are the same whatever the
    thread count or the order the chunks ran in."""
    import numba

    if threads is not None:
        numba.set_num_threads(max(1, min(threads, numba.config.NUMBA_NUM_THREADS)))
    out = np.zeros((len(chunk_ids), n_counts), dtype=np.int64)
    ids = np.asarray(chunk_ids, dtype=np.int64)
    kernel = _load_kernel(kernel_path)
    head = (np.int64(chunk_size), np.int64(n_trials), key0, key1, *args)
    n_threads = min(int(numba.get_num_threads()), len(ids))
    done = [0]  # how many leading chunks have run: on a Ctrl-C they go with the exception, for the caller to keep
    try:
        if n_threads <= 1:
            # in a few calls, not one: a Ctrl-C, raised between two calls, then keeps the chunks already run
            step = max(1, -(-len(ids) // 4))
            for a in range(0, len(ids), step):
                kernel(ids[a : a + step], *head, out[a : a + step])
                done[0] = min(a + step, len(ids))
        else:
            _on_threads(lambda a, b: kernel(ids[a:b], *head, out[a:b]), len(ids), n_threads, done)
    except KeyboardInterrupt as e:
        e.cardlab_rows = out[: done[0]]  # type: ignore[attr-defined]
        raise
    return out


def _on_threads(work: Callable[[int, int], None], n: int, n_threads: int, ran_to: list[int] | None = None) -> None:
    """``work(a, b)`` over consecutive slices covering ``0 .. n-1``, on ``n_threads`` threads that each take the
    next slice when done with theirs (about four slices a thread: an uneven chunk does not leave a thread idle).
    The first error stops the handing out and is raised here once every thread has finished its slice; so is a
    Ctrl-C, which the calling thread receives while it waits. ``ran_to[0]`` is then how far from 0 every slice
    has finished (the slices finish out of order)."""
    import threading

    step = max(1, -(-n // (4 * n_threads)))
    starts = iter(range(0, n, step))
    lock = threading.Lock()
    stop = threading.Event()
    errors: list[BaseException] = []
    ran: set[int] = set()  # the slices finished, by their start

    done = [threading.Event() for _ in range(n_threads)]

    def loop(finished: threading.Event) -> None:
        try:
            while not stop.is_set():
                with lock:
                    a = next(starts, None)
                if a is None:
                    return
                try:
                    work(a, min(a + step, n))
                    ran.add(a)
                except BaseException as e:  # noqa: BLE001 -- handed to the calling thread
                    errors.append(e)
                    stop.set()
        finally:
            finished.set()

    # waits on events, not Thread.join: a join interrupted by Ctrl-C marks a running thread as stopped in Python
    # 3.11 (cpython#90882), and a second join would then return while it still runs
    pool = [
        threading.Thread(target=loop, args=(done[i],), name=f"cardlab-chunks-{i}", daemon=True)
        for i in range(n_threads)
    ]
    try:
        for t in pool:
            t.start()
        for finished in done:
            finished.wait()
    except BaseException:
        stop.set()  # no new slice; the ones running finish (a compiled loop cannot be stopped midway)
        for t, finished in zip(pool, done):
            if t.ident is not None:  # started
                finished.wait()
        if ran_to is not None:
            k = 0
            while k < n and k in ran:
                k += step
            ran_to[0] = min(k, n)
        raise
    if errors:
        raise errors[0]


def _worker_init() -> None:
    os.environ["NUMBA_NUM_THREADS"] = "1"
    import numba

    numba.set_num_threads(1)


def _check_scheduler_address(address: str) -> None:
    """A dask scheduler address as ``tcp://host:port`` (or ``host:port``); anything else is refused up front."""
    import re

    m = re.fullmatch(r"(?:(tcp|tls|inproc|ucx|ws|wss)://)?([^\s:/]+|\[[0-9a-fA-F:]+\]):(\d{1,5})", address)
    if not m or not 0 < int(m.group(3)) < 65536:
        raise CardlabError(f"bad --scheduler {address!r}: expected a dask scheduler address such as tcp://host:8786")


class _Executor:
    """Runs a batch of chunk ids and returns their rows in the order given."""

    @classmethod
    def factory(cls, backend: str, workers: int | None, scheduler: str | None, threads: int | None):
        """Check the settings now, before any work; start the backend (a pool, a cluster) only when called."""
        if backend not in BACKENDS:
            raise CardlabError(f"unknown backend {backend!r}; accepted: {accepted(BACKENDS)}")
        if threads is not None and (
            isinstance(threads, bool) or not isinstance(threads, (int, np.integer)) or threads < 1
        ):
            raise CardlabError(f"bad --threads {threads!r}: expected a positive integer")
        if workers is not None and (
            isinstance(workers, bool) or not isinstance(workers, (int, np.integer)) or workers < 1
        ):
            raise CardlabError(f"bad --workers {workers!r}: expected a positive integer")
        if scheduler is not None and backend != "dask":
            raise CardlabError(f"--scheduler is for the dask backend; give --backend dask (this run: {backend})")
        if scheduler is not None:
            _check_scheduler_address(scheduler)
        return lambda: cls(backend, workers, scheduler, threads)

    def __init__(self, backend: str, workers: int | None, scheduler: str | None, threads: int | None):
        self.backend = backend
        self.threads = threads
        self.workers = workers or max(1, os.cpu_count() or 1)
        self._pool: Any = None
        self._client: Any = None
        self._cluster: Any = None
        self._threads_before: int | None = None
        if backend == "processes":
            import multiprocessing as mp
            from concurrent.futures import ProcessPoolExecutor

            old = os.environ.get("NUMBA_NUM_THREADS")
            os.environ["NUMBA_NUM_THREADS"] = "1"  # inherited by the spawned workers before numba loads
            try:
                self._pool = ProcessPoolExecutor(
                    max_workers=self.workers, mp_context=mp.get_context("spawn"), initializer=_worker_init
                )
            finally:
                if old is None:
                    os.environ.pop("NUMBA_NUM_THREADS", None)
                else:
                    os.environ["NUMBA_NUM_THREADS"] = old
        elif backend == "dask":
            try:
                from distributed import Client, LocalCluster
            except ImportError:
                raise CardlabError("the dask backend needs dask.distributed: pip install 'cardlab[dist]'") from None
            try:  # whatever stops the start (Ctrl-C, a failure) closes what was started: no caller holds it yet
                if scheduler:
                    self._client = _connect(Client, scheduler)
                else:
                    with _signals_held():  # a cluster half started by Ctrl-C would be left to atexit
                        self._cluster = LocalCluster(
                            n_workers=self.workers,
                            threads_per_worker=1,
                            processes=True,
                            dashboard_address=None,
                            silence_logs=50,
                            env={"NUMBA_NUM_THREADS": "1"},
                        )
                        self._client = Client(self._cluster)
                self._client.run(_worker_init)
            except BaseException:
                self.close()
                raise
        elif threads is not None:
            import numba

            self._threads_before = numba.get_num_threads()  # restored by close(): a run leaves no trace
            numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))

    def run(self, spec: KernelSpec, chunk_ids: np.ndarray, chunk_size: int, n_trials: int, key0, key1) -> np.ndarray:
        if self.backend == "threads":
            return run_chunks(spec.kernel, spec.args, chunk_ids, chunk_size, n_trials, key0, key1, spec.n_counts)
        parts = [p for p in np.array_split(chunk_ids, min(self.workers, len(chunk_ids))) if len(p)]
        call = (spec.kernel, spec.args)
        if self.backend == "processes":
            from concurrent.futures.process import BrokenProcessPool

            try:
                futs = [
                    self._pool.submit(run_chunks, *call, p, chunk_size, n_trials, key0, key1, spec.n_counts)
                    for p in parts
                ]
                rows = [f.result() for f in futs]
            except BrokenProcessPool:
                raise BackendFailed("a worker process died (killed, or out of memory)") from None
        else:
            rows = self._dask_rows(call, parts, chunk_size, n_trials, key0, key1, spec.n_counts)
        return np.concatenate(rows, axis=0)

    def _dask_rows(self, call, parts, chunk_size, n_trials, key0, key1, n_counts) -> list:
        """Submit the parts and gather them; with no live worker for ``DASK_NO_WORKER_S`` seconds, or a lost
        scheduler, fail in one line instead of waiting forever."""
        from distributed import wait

        try:
            futs = [
                self._client.submit(run_chunks, *call, p, chunk_size, n_trials, key0, key1, n_counts, 1, pure=False)
                for p in parts
            ]
            alone_since = None
            while True:
                try:
                    wait(futs, timeout=2.0)
                    break
                except (TimeoutError, asyncio.TimeoutError):
                    pass
                if self._client.scheduler_info().get("workers"):
                    alone_since = None
                elif alone_since is None:
                    alone_since = time.monotonic()
                elif time.monotonic() - alone_since > DASK_NO_WORKER_S:
                    raise BackendFailed(f"the dask cluster has had no live worker for {DASK_NO_WORKER_S:g} s")
            return self._client.gather(futs)
        except BackendFailed:
            raise
        except Exception as e:  # noqa: BLE001 -- a lost scheduler or worker shows as many exception types
            first = str(e).splitlines()[0] if str(e) else ""
            raise BackendFailed(f"the dask run failed ({type(e).__name__}{': ' + first if first else ''})") from None

    def close(self) -> None:
        if self._threads_before is not None:
            import numba

            numba.set_num_threads(self._threads_before)
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
        if self._client is not None:
            self._client.close()
        if self._cluster is not None:
            self._cluster.close()


def _connect(client_class, scheduler: str):
    """A dask Client of the scheduler at ``scheduler``, or one line (exit 2) when none answers there. dask's own
    timeout covers the connection, not the handshake: a listener that is not a dask scheduler (a web server)
    accepts and then waits with it for ever, so the client is made in a thread given ``DASK_CONNECT_S``."""
    import threading

    box: dict[str, Any] = {}
    lock = threading.Lock()

    def connect() -> None:
        try:
            client = client_class(scheduler, timeout=f"{DASK_CONNECT_S}s")
        except Exception as e:  # noqa: BLE001 -- refused, unreachable, a protocol error: all one answer
            box["error"] = e
            return
        with lock:
            if box.get("abandoned"):  # answered after the caller gave up: close it, leave nothing behind
                client.close()
            else:
                box["client"] = client

    t = threading.Thread(target=connect, name="cardlab-dask-connect", daemon=True)
    t.start()
    t.join(DASK_CONNECT_S + 5)
    with lock:
        if "client" in box:
            return box["client"]
        box["abandoned"] = True
    why = f": {str(box['error']).splitlines()[0]}" if "error" in box and str(box["error"]) else ""
    if "error" not in box:
        why = f": no answer in {DASK_CONNECT_S + 5:g} s (is a dask scheduler listening there?)"
    raise CardlabError(f"cannot reach the dask scheduler at {scheduler!r}{why}")


@contextmanager
def _signals_held() -> Iterator[None]:
    """Hold SIGINT and SIGTERM while the block runs (starting a cluster: a second or two) and act on one that
    came at its end, through the handler that was in place, so that the block is never left half done. Outside
    the main thread, where no handler can be set, the block just runs."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    held: tuple[int, ...] = (signal.SIGINT, signal.SIGTERM)
    before: dict[int, Any] = {s: signal.getsignal(s) for s in held}
    if any(h is None for h in before.values()):  # a handler set outside Python: it could not be put back
        yield
        return
    came: list[int] = []

    def hold(signum, frame):
        came.append(signum)
        if len(came) > 1:  # a second signal: the user insists (a start that hangs); act on it now
            for s, h in before.items():
                signal.signal(s, h)
            h = before[signum]
            if callable(h):
                h(signum, frame)
            elif h == signal.SIG_DFL:
                signal.raise_signal(signum)

    for s in held:
        signal.signal(s, hold)
    try:
        yield
    finally:
        for s, h in before.items():
            signal.signal(s, h)
    if came:
        h = before[came[0]]
        if callable(h):
            h(came[0], None)
        elif h == signal.SIG_DFL and came[0] == signal.SIGINT:
            raise KeyboardInterrupt
        elif h == signal.SIG_DFL:
            signal.raise_signal(came[0])


def _half_widths(table, measures: tuple[str, ...]) -> dict[str, float]:
    """The largest interval half-width of each measure precision mode holds (every measure if none named)."""
    sel = table[table["measure"].isin(measures)] if measures else table
    hw = pd.Series(np.asarray(half_width(sel["ci_low"], sel["ci_high"]), dtype=float), index=sel.index)
    out = {}
    for m, h in hw.groupby(sel["measure"], sort=False):
        out[str(m)] = float(np.nanmax(h)) if not h.isna().all() else float("inf")
    return out


#: the answer to a run given neither a trial count nor a precision
NEED_SIZE = "give --trials N or --precision P"


def run(
    spec: KernelSpec,
    *,
    trials: int | None = None,
    precision: float | None = None,
    seed: int = 0,
    chunk_size: int | None = None,
    backend: str = "threads",
    threads: int | None = None,
    workers: int | None = None,
    scheduler: str | None = None,
    progress: bool = True,
    checkpoint: str | os.PathLike | None = None,
    max_trials: int | None = None,
    confidence: float = 0.95,
    batch_chunks: int | None = None,
    measures: Sequence[str] | None = None,
    look_every_chunk: bool = False,
) -> Result:
    """Run ``spec`` for ``trials`` trials, or until every cell is within ``precision`` (half-width at 95%).

    Returns a :class:`~analysis.tables.Result`: the tidy table from ``spec.tabulate`` and the metadata.
    Interrupting (Ctrl-C, or SIGTERM under the CLI) raises :class:`~analysis.errors.Interrupted` with the
    checkpoint kept; running again with the same arguments resumes, and the final result, its looks included,
    equals an uninterrupted run's. ``chunk_size`` None: the spec's (``KernelSpec.chunk_size``), else
    ``DEFAULT_CHUNK_SIZE``. Precision mode stops at ``max_trials`` (default CARDLAB_MAX_TRIALS or 10**9)
    with ``meta["precision_reached"]`` false if the target is still out of reach. Precision mode looks first after
    as many trials as one default chunk, in whole chunks; ``look_every_chunk``: after the first chunk (a review's
    many small runs, whose chunks are sized for it).
    """
    if trials is None and precision is None:
        raise CardlabError(NEED_SIZE)
    if trials is not None and precision is not None:
        raise CardlabError("give one of --trials and --precision, not both")
    if trials is not None and (not isinstance(trials, (int, np.integer)) or trials <= 0 or trials > MAX_TRIALS):
        raise CardlabError(f"bad trial count {trials!r}: expected a positive integer up to {MAX_TRIALS}")
    if precision is not None and not (0.0 < precision < math.inf):
        raise CardlabError(
            f"bad precision {precision!r}: expected a positive half-width in the measure's unit (e.g. 0.01 "
            "for a probability, 0.5 for a score)"
        )
    if chunk_size is None:
        chunk_size = default_chunk_size(spec, trials)
    if not isinstance(chunk_size, (int, np.integer)) or chunk_size <= 0:
        raise CardlabError(f"bad chunk size {chunk_size!r}: expected a positive integer")
    # precision mode's first look: after as many trials as one default chunk, whatever the chunk size (small chunks
    # spread a run over the threads, they are not meant to look sooner: a look on a few trials can find no spread
    # at all and stop there), so the same run with the spec's chunk size given or not; the schedule is the chunk
    # size's alone (the meta has it)
    first_look = 1 if look_every_chunk else max(1, -(-DEFAULT_CHUNK_SIZE // int(chunk_size)))
    key0, key1 = split_seed(seed)
    if measures:
        measures = _check_measures(spec, measures, key0, key1, progress)
        spec = dataclasses.replace(spec, precision_measures=tuple(measures))
    identity = _identity(spec, seed, chunk_size, trials, precision, first_look)
    if max_trials is None:
        max_trials = int(os.environ.get("CARDLAB_MAX_TRIALS", DEFAULT_MAX_TRIALS))
    max_chunks = -(-trials // chunk_size) if trials is not None else -(-max_trials // chunk_size)
    make_executor = _Executor.factory(backend, workers, scheduler, threads)
    if batch_chunks is None and os.environ.get("CARDLAB_BATCH_CHUNKS"):
        batch_chunks = int(os.environ["CARDLAB_BATCH_CHUNKS"])
    ckpt = Checkpoint(checkpoint, identity, spec.n_counts) if checkpoint else None
    try:
        rows = ckpt.load(max_chunks) if ckpt else np.zeros((0, spec.n_counts), dtype=np.int64)
        plan = _Plan(trials, precision, chunk_size, max_chunks, key0, key1, batch_chunks, min(first_look, max_chunks))
        result = _run_loaded(spec, rows, ckpt, plan, make_executor, progress)
    finally:
        if ckpt:
            ckpt.close()
    result.meta["seed"] = int(seed)
    result.meta["backend"] = backend
    return result


def default_chunk_size(spec: KernelSpec, trials: int | None) -> int:
    """The chunk size of a run that gives none: the spec's (small for search and solver players), else
    DEFAULT_CHUNK_SIZE; where the pooled rows take the jackknife's intervals, smaller: a short --trials run is cut
    into 32 chunks or more, and precision mode's first look (after DEFAULT_CHUNK_SIZE trials) has 8 (smaller chunks
    slow the fastest kernels down: Bisko-Bobo's by 2x at 128 trials a chunk, 15% at 512)."""
    size = spec.chunk_size or DEFAULT_CHUNK_SIZE
    if not spec.pooled_by_chunks:
        return size
    if trials is not None:
        return chunk_size_for(trials, size)
    return max(1, min(size, DEFAULT_CHUNK_SIZE // PRECISION_GROUPS))


def _identity(spec: KernelSpec, seed: int, chunk_size: int, trials, precision, first_look: int) -> dict:
    """What a checkpoint must match to be resumed by this run."""
    identity = {
        "fingerprint": spec.fingerprint(),
        "seed": int(seed),
        "chunk_size": int(chunk_size),
        "trials": None if trials is None else int(trials),
        "precision": precision,
        "version": __version__,
    }
    if precision is not None:
        identity["precision_measures"] = list(spec.precision_measures)
        if first_look != 1:  # the looks fall elsewhere: a checkpoint of the other schedule is another run
            identity["first_look"] = first_look
    return identity


def check_checkpoint(spec: KernelSpec, checkpoint, *, trials: int, seed: int, chunk_size: int) -> None:
    """The checkpoint a ``--trials`` run of ``spec`` would keep, checked now (a path that cannot be written, a file
    of another run): for a run that comes after another (compare-variants' challenger), refused before the first
    one's work, not after it. Leaves no new file behind."""
    ckpt = Checkpoint(checkpoint, _identity(spec, seed, chunk_size, trials, None, 1), spec.n_counts)
    try:
        ckpt.load(-(-int(trials) // int(chunk_size)))
    finally:
        ckpt.close()


def _measure_names(spec: KernelSpec, key0, key1, progress: bool, zero: bool = True) -> list[str]:
    """The measures of the spec's table: from a table of zero counts where the tabulation allows it (``zero``:
    no kernel call, so nothing compiles), else from a small run's table (64 trials: rows that a table shows only
    where something was counted, a score distribution's, appear there)."""
    import warnings

    if zero:
        try:
            with warnings.catch_warnings(), np.errstate(all="ignore"):
                warnings.simplefilter("ignore")
                table = spec.tabulate(np.zeros(spec.n_counts, dtype=np.int64), 1, spec)
            names = list(dict.fromkeys(table["measure"]))
            if names:
                return names
        except (ArithmeticError, KeyError, AttributeError, ValueError, IndexError):
            pass
    spec_compile_note(spec, say=progress)
    rows = run_chunks(spec.kernel, spec.args, np.zeros(1, dtype=np.int64), 64, 64, key0, key1, spec.n_counts)
    return list(dict.fromkeys(spec.tabulate(rows.sum(axis=0), 64, spec)["measure"]))


def _check_measures(spec: KernelSpec, measures: Sequence[str], key0, key1, progress: bool) -> list[str]:
    """The measures as the table names them (:func:`measure_alias`); a measure the table does not have is refused
    before any work (a name missing from the zero-count table is looked for in a small run's before it is
    refused)."""
    names = _measure_names(spec, key0, key1, progress)
    if spec.counted_measures is not None:
        names = list(dict.fromkeys(names + list(spec.counted_measures)))
    elif any(measure_alias(m, names) not in names for m in measures):
        names = list(dict.fromkeys(names + _measure_names(spec, key0, key1, progress, zero=False)))
    named = [measure_alias(m, names) for m in measures]
    bad = [m for m in named if m not in names]
    if bad:
        bare = [bare_measure(n) for n in names if bare_measure(n) != n]
        also = f" (or by the bare name: {', '.join(bare)})" if bare else ""
        raise CardlabError(f"unknown measure {bad[0]!r}; accepted: {accepted(names)}{also}")
    return list(dict.fromkeys(named))


@dataclass(frozen=True)
class _Plan:
    trials: int | None
    precision: float | None
    chunk_size: int
    max_chunks: int
    key0: np.uint64
    key1: np.uint64
    batch_chunks: int | None
    first_look: int = 1  # precision mode: the chunk count of the first look


def next_look(n_chunks: int, half_width: float, precision: float, max_chunks: int) -> int:
    """The chunk count of precision mode's next look after one at ``n_chunks`` found ``half_width``: grown by
    the factor the half-width says is needed (the variance shrinks as 1/n), 5% over, at least 1.25x and at
    most 4x. A function of the look's result only, so the looks fall at the same chunk counts in every run
    of the same work, interrupted or not, on every backend."""
    grow = min(4.0, max(1.25, (half_width / precision) ** 2 * 1.05))
    return min(max(n_chunks + 1, int(np.ceil(n_chunks * grow))), max_chunks)


def _table(spec: KernelSpec, rows: np.ndarray, trials: int, chunk_size: int, only=None):
    """The tidy table of ``rows`` (chunks of counts) for ``trials`` trials; pooled rows by the jackknife where the
    spec asks (:attr:`KernelSpec.pooled_by_chunks`), of the measures ``only`` if given (a precision look needs
    its measures' intervals alone)."""
    table = spec.tabulate(rows.sum(axis=0), trials, spec)
    if spec.pooled_by_chunks and len(table):
        table = with_pooled_intervals(table, spec, rows, trials, chunk_size, only=only)
    return table


def _run_loaded(spec: KernelSpec, rows: np.ndarray, ckpt: Checkpoint | None, plan: _Plan, make_executor, progress):
    trials, precision, chunk_size = plan.trials, plan.precision, plan.chunk_size
    t0 = time.perf_counter()
    resumed = len(rows)  # the chunks a checkpoint gave back: run before, not in this call's time
    looks = 0
    reached = True
    hw_by_measure: dict[str, float] = {}
    # precision mode looks first after ``plan.first_look`` chunks; ``target`` is always the chunk count of the next look
    target = plan.max_chunks if trials is not None else plan.first_look
    executor = None
    compiling = False
    per_batch: int = plan.batch_chunks or 0  # set when the backend starts, unless given
    fewest = 1  # the workers: a batch of fewer chunks would leave some of them idle
    # precision mode's one-time estimate of what is left (_say_how_long): the chunks timed so far, compiling not
    timed_chunks, timed_s, told = 0, 0.0, False
    bar = _progress_bar(progress, trials)
    callees = CalleeCompiles(spec.game, progress)
    try:
        if bar is not None:
            bar.update(min(len(rows) * chunk_size, trials or 0))
        while True:
            if precision is not None and len(rows) >= target:
                # a look, at a chunk count fixed by the work: the looks a resumed run's rows already cover are
                # replayed on them, so it stops where the uninterrupted run stops
                looks += 1
                table = _table(spec, rows[:target], target * chunk_size, chunk_size, only=spec.precision_measures)
                hw_by_measure = _half_widths(table, spec.precision_measures)
                hw = max(hw_by_measure.values(), default=float("inf"))
                if bar is not None:
                    bar.set_postfix_str(f"±{hw:.2g} of ±{precision:.2g}")
                notify(stage="running", trials=target * chunk_size, total=None, half_width=hw, target=precision)
                done = hw <= precision or (spec.precision_done is not None and spec.precision_done(table, precision))
                if done or target >= plan.max_chunks:
                    reached = done
                    rows = rows[:target]
                    break
                # the estimate from a second of work at least: the first small batches are mostly their overhead
                # (Bisko-Bobo's 0.0005 had been told "about 25 s more" at its first look, and took 1.3 s in all)
                if progress and not told and timed_chunks and timed_s >= HOW_LONG_AFTER_S:
                    told = _say_how_long(spec, target, hw, precision, plan, timed_s / timed_chunks)
                target = next_look(target, hw, precision, plan.max_chunks)
                continue
            if len(rows) >= target:
                break
            if executor is None:
                # the run's time then includes compiling its kernels, which the meta says
                compiling = spec_compile_note(spec, say=progress)
                executor = make_executor()
                fewest = max(1, executor.workers if executor.backend != "threads" else _numba_threads())
                if not per_batch:
                    per_batch = 4 * fewest
            n_trials = trials if trials is not None else target * chunk_size
            start = len(rows)
            stop = min(target, start + per_batch)
            batch_t0 = time.perf_counter()
            compiled_before = callees.count
            ids = np.arange(start, stop, dtype=np.int64)
            new = executor.run(spec, ids, chunk_size, n_trials, plan.key0, plan.key1)
            if ckpt:
                ckpt.append(start, new)
            rows = np.concatenate([rows, new], axis=0)
            if bar is not None:
                bar.update(min(stop * chunk_size, n_trials) - min(start * chunk_size, n_trials))
            notify(stage="running", trials=min(stop * chunk_size, n_trials), total=trials, half_width=None,
                    target=precision)  # fmt: skip
            dt = time.perf_counter() - batch_t0
            # a batch that compiled a player is mostly compiling: neither timed nor a guide to the batch size, nor is
            # the first batch of a cold run
            player_compiled = callees.count != compiled_before
            if not (player_compiled or (compiling and start == 0)):
                timed_chunks, timed_s = timed_chunks + (stop - start), timed_s + dt
            # Aim for batches of about half a second, so progress, checkpoints and Ctrl-C stay responsive.
            if plan.batch_chunks is None and not player_compiled:
                if dt < 0.25:
                    per_batch = min(per_batch * 2, 1 << 16)
                elif dt > 1.0 and per_batch > fewest:
                    per_batch = max(fewest, per_batch // 2)
    except KeyboardInterrupt as e:
        code = 143 if isinstance(e, Terminated) else 130
        # the interrupted batch's leading chunks that had run, from run_chunks in this process (threads): a
        # worker's rows (processes, dask) would carry no chunk numbers, and are not kept
        part = getattr(e, "cardlab_rows", None) if executor is not None and executor.backend == "threads" else None
        if ckpt and part is not None and len(part) and ckpt.n_saved == len(rows):
            try:
                ckpt.append(len(rows), part)
            except CheckpointWriteError:
                pass  # what was saved before stays; the message counts it
        n = ckpt.n_saved if ckpt else len(rows)
        raise Interrupted(_kept("terminated" if code == 143 else "interrupted", n, ckpt), code) from None
    except BackendFailed as e:
        raise BackendFailed(f"{e}; {_kept('stopped', ckpt.n_saved if ckpt else len(rows), ckpt)}") from None
    except CheckpointWriteError as e:
        assert ckpt is not None
        raise SaveFailed(f"{e}; {_kept('stopped', ckpt.n_saved, ckpt)}") from None
    finally:
        callees.close()
        if bar is not None:
            bar.close()
        if executor is not None:
            executor.close()
    compiling = compiling or callees.seen
    elapsed = time.perf_counter() - t0
    used = min(len(rows) * chunk_size, trials) if trials is not None else len(rows) * chunk_size
    table = _table(spec, rows, used, chunk_size)
    meta: dict[str, Any] = {
        "game": spec.game,
        **spec.describe,
        "seed": None,
        "trials": int(used),
        "chunk_size": int(chunk_size),
        "chunks": int(len(rows)),
        "version": __version__,
        "backend": None,
        "elapsed_s": round(elapsed, 3),
        "compiling_included": compiling,
        # the trials run in this call: a resumed run's rate leaves out those the checkpoint gave back
        "trials_per_s": round(max(0, used - resumed * chunk_size) / elapsed, 1) if elapsed > 0 else None,
    }
    if resumed:
        meta["resumed_chunks"] = int(min(resumed, len(rows)))
    if spec.pooled_by_chunks:  # how the pooled rows got their intervals (docs/intervals.md)
        g = min(GROUPS, len(rows))
        meta["pooled_intervals"] = (
            f"jackknife over {g} groups of chunks, t with {g - 1} degrees of freedom"
            if g >= 2
            else "the counts' own (one chunk: no jackknife)"
        )
    if precision is not None:
        meta["precision_target"] = precision
        meta["precision_achieved"] = max(hw_by_measure.values(), default=float("inf"))
        meta["precision_measures"] = list(hw_by_measure)
        meta["precision_achieved_by_measure"] = hw_by_measure
        meta["precision_reached"] = reached
        meta["looks"] = looks
    return Result(table=table, meta=meta, headline=spec.precision_measures, chunk_counts=rows)


#: the games whose compile note this process has printed: a command that runs several kernels of a game (a
#: report) says it once
_announced: set[str] = set()


def silence_compile_note(game: str) -> None:
    """No compile note for ``game`` in this command (--quiet where the kernel is called outside the driver:
    ``record``): it counts as said."""
    _announced.add(game)


def spec_compile_note(spec: KernelSpec, say: bool = True) -> bool:
    """:func:`compile_note` for a spec's kernel, after waiting for a helper compiling it (:mod:`.compile_ahead`)."""
    from .compile_ahead import wait_for

    wait_for(spec.kernel)
    return compile_note(spec.game, _load_kernel(spec.kernel), say)


def compile_note(game: str, kernel, say: bool = True) -> bool:
    """A note on stderr (``say``, once a game in a process) when ``kernel`` (a numba dispatcher) is not in the
    numba cache yet, so a first run does not look hung; the observer, if any, hears of it too. Returns whether the
    kernel is to be compiled. For commands that call a kernel themselves (``solve``) as for the driver's runs."""
    from kernels._jit import is_cached

    if is_cached(kernel) is False:
        announce_compile(game, say)
        return True
    return False


def announce_compile(game: str, say: bool = True) -> None:
    """The compile note's line (``say``, once a game in a command) and the observer's stage."""
    notify(stage="compiling", game=game)
    if not say or game in _announced:
        return
    _announced.add(game)
    note(
        f"compiling the {game} kernels this command needs (each once: cached afterwards, though another "
        "model or command may need kernels of its own; up to about a minute on 2 cores)"
    )


class CalleeCompiles:
    """While a run goes (from construction to :meth:`close`): a player that the run's cached kernel reaches
    through a cell (kernels._extern) and that is compiled on first use, not loaded, gets the compile note, and
    :attr:`seen` turns True (the run's meta then says its time includes compiling); :attr:`count` counts them.

    The hook is called from the thread that reaches the cell, a chunk worker's too: the note goes to the
    observer of the thread that made this object (its context, copied here), and the hook in place before this
    one hears of it as well (a command's, around runs that keep quiet themselves: a review's). With the processes
    and dask backends the workers compile in their own processes, unannounced."""

    def __init__(self, game: str, say: bool = True):
        from kernels._extern import set_compile_hook

        self.seen = False
        self.count = 0
        self.game, self.say = game, say
        self._context = contextvars.copy_context()
        self._before = set_compile_hook(self._hook)

    def _hook(self, name: str) -> None:
        # bind() calls hooks one at a time (under its lock), so the copied context is entered by one thread at once
        self.seen = True
        self.count += 1
        self._context.run(announce_compile, self.game, self.say)
        if self._before is not None:
            self._before(name)

    def close(self) -> None:
        from kernels._extern import set_compile_hook

        set_compile_hook(self._before)


def _say_how_long(spec: KernelSpec, n_chunks: int, hw: float, precision: float, plan: _Plan, per_chunk: float) -> bool:
    """Precision mode, after a look that fell short: where the rest would take a while (over 20 s at the speed
    so far), a note on stderr with the trials the spread so far says ±P needs and about how long (a new user's
    --precision 0.01 on a score ran 6.5 minutes without a word). Returns whether it spoke."""
    if not math.isfinite(hw):  # no row measured yet (every interval empty): nothing to project from
        return False
    need = min(plan.max_chunks, int(np.ceil(n_chunks * (hw / precision) ** 2)))
    left_s = (need - n_chunks) * per_chunk
    if left_s < 20:
        return False
    when = f"about {left_s / 60:.0f} min" if left_s >= 90 else f"about {left_s:.0f} s"
    upto = "up to " if spec.precision_done is not None else ""  # the advisor may stop sooner (clear of zero)
    note(
        f"±{precision:g} needs {upto}about {need * plan.chunk_size:,} trials by the spread so far (±{hw:.2g} "
        f"after {n_chunks * plan.chunk_size:,}): {upto}{when} more at this speed; --precision is in the measure's "
        "unit (a probability, or points); Ctrl-C stops, --checkpoint FILE lets a run resume"
    )
    return True


def _kept(what: str, n: int, ckpt: Checkpoint | None) -> str:
    if ckpt is None:
        return f"{what} after {n} chunks"
    if n == 0:
        return f"{what} before any chunk finished; nothing kept"
    return f"{what} after {n} chunks; {n} chunks kept in {ckpt.path}, run the same command to resume"


def _numba_threads() -> int:
    import numba

    return int(numba.get_num_threads())


def _progress_bar(progress: bool, total: int | None):
    if not progress or not sys.stderr.isatty():
        return None
    from tqdm import tqdm

    return tqdm(total=total, unit="trial", unit_scale=True, delay=2.0, file=sys.stderr, leave=False)
