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

Backends: ``threads`` (numba's own pool; ``threads=N`` sets its size), ``processes`` (a spawn-based
process pool, each worker pinned to one numba thread), ``dask`` (a ``distributed`` client; a
LocalCluster when no scheduler address is given). Precision mode runs batches of chunks until every
reported cell's interval half-width is within the target, and records the looks it took.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from . import __version__
from .errors import CardlabError, Interrupted, accepted
from .stats import half_width
from .tables import Result, atomic_path

BACKENDS = ("threads", "processes", "dask")
DEFAULT_CHUNK_SIZE = 4096
MAX_TRIALS = 10**12


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
    """Run ``chunk_ids`` in this process and return their rows (the unit of work of every backend)."""
    if threads is not None:
        import numba

        numba.set_num_threads(max(1, min(threads, numba.config.NUMBA_NUM_THREADS)))
    out = np.zeros((len(chunk_ids), n_counts), dtype=np.int64)
    _load_kernel(kernel_path)(
        np.asarray(chunk_ids, dtype=np.int64), np.int64(chunk_size), np.int64(n_trials), key0, key1, *args, out
    )
    return out


def _worker_init() -> None:
    os.environ["NUMBA_NUM_THREADS"] = "1"
    import numba

    numba.set_num_threads(1)


class _Executor:
    """Runs a batch of chunk ids and returns their rows in the order given."""

    def __init__(self, backend: str, workers: int | None, scheduler: str | None, threads: int | None):
        if backend not in BACKENDS:
            raise CardlabError(f"unknown backend {backend!r}; accepted: {accepted(BACKENDS)}")
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
            if scheduler:
                try:
                    self._client = Client(scheduler, timeout="10s")
                except OSError as e:
                    raise CardlabError(f"cannot reach the dask scheduler at {scheduler!r}: {e}") from None
            else:
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
        elif threads is not None:
            import numba

            if threads < 1:
                raise CardlabError(f"bad --threads {threads}: expected a positive integer")
            self._threads_before = numba.get_num_threads()  # restored by close(): a run leaves no trace
            numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))

    def run(self, spec: KernelSpec, chunk_ids: np.ndarray, chunk_size: int, n_trials: int, key0, key1) -> np.ndarray:
        if self.backend == "threads":
            return run_chunks(spec.kernel, spec.args, chunk_ids, chunk_size, n_trials, key0, key1, spec.n_counts)
        parts = [p for p in np.array_split(chunk_ids, min(self.workers, len(chunk_ids))) if len(p)]
        call = (spec.kernel, spec.args)
        if self.backend == "processes":
            futs = [
                self._pool.submit(run_chunks, *call, p, chunk_size, n_trials, key0, key1, spec.n_counts) for p in parts
            ]
            rows = [f.result() for f in futs]
        else:
            futs = [
                self._client.submit(
                    run_chunks, *call, p, chunk_size, n_trials, key0, key1, spec.n_counts, 1, pure=False
                )
                for p in parts
            ]
            rows = self._client.gather(futs)
        return np.concatenate(rows, axis=0)

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


class Checkpoint:
    """Completed chunk rows on disk, written atomically after each batch.

    The file (numpy ``.npz``) holds the run's identity (a fingerprint of kernel, arguments, seed, chunk
    size, trial count or precision target, version) and the rows of chunks ``0 .. n_done-1``.
    """

    def __init__(self, path: str | os.PathLike, identity: dict):
        self.path = Path(path)
        self.identity = identity

    def load(self) -> np.ndarray | None:
        if not self.path.exists():
            return None
        try:
            with np.load(self.path, allow_pickle=False) as z:
                ident = json.loads(str(z["identity"]))
                rows = np.array(z["rows"], dtype=np.int64)
        except Exception as e:  # noqa: BLE001 -- any unreadable file is the same plain error
            raise CardlabError(
                f"unreadable checkpoint {str(self.path)!r}: {type(e).__name__}; "
                "delete it or choose another --checkpoint file"
            ) from None
        if ident != self.identity:
            diff = sorted(k for k in set(ident) | set(self.identity) if ident.get(k) != self.identity.get(k))
            raise CardlabError(
                f"checkpoint {str(self.path)!r} belongs to a different run (differs in "
                f"{', '.join(diff)}); delete it or choose another --checkpoint file"
            )
        return rows

    def save(self, rows: np.ndarray) -> None:
        with atomic_path(self.path) as tmp:
            with open(tmp, "wb") as f:
                np.savez(f, identity=np.array(json.dumps(self.identity, sort_keys=True)), rows=rows)
                f.flush()
                os.fsync(f.fileno())


def _max_half_width(table, measures: tuple[str, ...]) -> float:
    sel = table[table["measure"].isin(measures)] if measures else table
    hw = half_width(sel["ci_low"], sel["ci_high"])
    return float(np.nanmax(hw)) if len(hw) and not np.all(np.isnan(hw)) else float("inf")


def run(
    spec: KernelSpec,
    *,
    trials: int | None = None,
    precision: float | None = None,
    seed: int = 0,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    backend: str = "threads",
    threads: int | None = None,
    workers: int | None = None,
    scheduler: str | None = None,
    progress: bool = True,
    checkpoint: str | os.PathLike | None = None,
    max_trials: int = 10**9,
    confidence: float = 0.95,
    batch_chunks: int | None = None,
) -> Result:
    """Run ``spec`` for ``trials`` trials, or until every cell is within ``precision`` (half-width at 95%).

    Returns a :class:`~analysis.tables.Result`: the tidy table from ``spec.tabulate`` and the metadata.
    Interrupting (Ctrl-C) raises :class:`~analysis.errors.Interrupted` after saving the checkpoint; running
    again with the same arguments resumes, and the final result equals an uninterrupted run.
    """
    if (trials is None) == (precision is None):
        raise CardlabError("give exactly one of --trials and --precision")
    if trials is not None and (not isinstance(trials, (int, np.integer)) or trials <= 0 or trials > MAX_TRIALS):
        raise CardlabError(f"bad trial count {trials!r}: expected a positive integer up to {MAX_TRIALS}")
    if precision is not None and not (0.0 < precision < 1.0):
        raise CardlabError(f"bad precision {precision!r}: expected a half-width in (0, 1), e.g. 0.002")
    if not isinstance(chunk_size, (int, np.integer)) or chunk_size <= 0:
        raise CardlabError(f"bad chunk size {chunk_size!r}: expected a positive integer")
    key0, key1 = split_seed(seed)
    identity = {
        "fingerprint": spec.fingerprint(),
        "seed": int(seed),
        "chunk_size": int(chunk_size),
        "trials": None if trials is None else int(trials),
        "precision": precision,
        "version": __version__,
    }
    ckpt = Checkpoint(checkpoint, identity) if checkpoint else None
    done = ckpt.load() if ckpt else None
    rows = done if done is not None else np.zeros((0, spec.n_counts), dtype=np.int64)
    if batch_chunks is None and os.environ.get("CARDLAB_BATCH_CHUNKS"):
        batch_chunks = int(os.environ["CARDLAB_BATCH_CHUNKS"])

    t0 = time.perf_counter()
    executor = _Executor(backend, workers, scheduler, threads)
    looks = 0
    bar = _progress_bar(progress, trials)
    try:
        if trials is not None:
            n_chunks = -(-trials // chunk_size)
            target_chunks = n_chunks
            n_trials = trials
        else:
            n_trials = 0
            target_chunks = max(len(rows), 1)
        per_batch = batch_chunks or 4 * max(1, executor.workers if backend != "threads" else _numba_threads())
        if bar is not None:
            bar.update(min(len(rows) * chunk_size, trials or 0))
        while True:
            if precision is not None:
                # Precision mode: look at the table for the chunks so far; stop or grow by whole chunks.
                if len(rows) >= target_chunks:
                    looks += 1
                    table = spec.tabulate(rows.sum(axis=0), len(rows) * chunk_size, spec)
                    hw = _max_half_width(table, spec.precision_measures)
                    if hw <= precision or len(rows) * chunk_size >= max_trials:
                        break
                    grow = min(4.0, max(1.25, (hw / precision) ** 2 * 1.05))
                    target_chunks = max(len(rows) + 1, int(np.ceil(len(rows) * grow)))
                    target_chunks = min(target_chunks, -(-max_trials // chunk_size))
                n_trials = target_chunks * chunk_size
            if len(rows) >= target_chunks:
                break
            start = len(rows)
            stop = min(target_chunks, start + per_batch)
            batch_t0 = time.perf_counter()
            new = executor.run(spec, np.arange(start, stop, dtype=np.int64), chunk_size, n_trials, key0, key1)
            rows = np.concatenate([rows, new], axis=0)
            if ckpt:
                ckpt.save(rows)
            if bar is not None:
                bar.update(min(stop * chunk_size, n_trials) - min(start * chunk_size, n_trials))
            # Aim for batches of about half a second, so progress, checkpoints and Ctrl-C stay responsive.
            if batch_chunks is None:
                dt = time.perf_counter() - batch_t0
                if dt < 0.25:
                    per_batch = min(per_batch * 2, 1 << 16)
                elif dt > 1.0 and per_batch > 1:
                    per_batch = max(1, per_batch // 2)
    except KeyboardInterrupt:
        where = f"; {len(rows)} chunks kept in {checkpoint}, run the same command to resume" if ckpt else ""
        raise Interrupted(f"interrupted after {len(rows)} chunks{where}") from None
    finally:
        if bar is not None:
            bar.close()
        executor.close()
    elapsed = time.perf_counter() - t0
    used = min(len(rows) * chunk_size, n_trials) if trials is not None else len(rows) * chunk_size
    counts = rows.sum(axis=0)
    table = spec.tabulate(counts, used, spec)
    meta = {
        "game": spec.game,
        **spec.describe,
        "seed": int(seed),
        "trials": int(used),
        "chunk_size": int(chunk_size),
        "chunks": int(len(rows)),
        "version": __version__,
        "backend": backend,
        "elapsed_s": round(elapsed, 3),
        "trials_per_s": round(used / elapsed, 1) if elapsed > 0 else None,
    }
    if precision is not None:
        meta["precision_target"] = precision
        meta["precision_achieved"] = _max_half_width(table, spec.precision_measures)
        meta["looks"] = looks
    return Result(table=table, meta=meta)


def _numba_threads() -> int:
    import numba

    return int(numba.get_num_threads())


def _progress_bar(progress: bool, total: int | None):
    if not progress or not sys.stderr.isatty():
        return None
    from tqdm import tqdm

    return tqdm(total=total, unit="trial", unit_scale=True, delay=2.0, file=sys.stderr, leave=False)
