"""The page's work queue: every analysis of ``cardlab serve`` runs as a job on one worker thread.

One thread, because a run's chunks already run on every core (analysis.driver.run_chunks); the queue holds at
most ``max_pending`` jobs besides the running one (a request beyond that is answered "busy"). A job's progress
comes from the driver's observer (:func:`analysis.driver.observing`); the same observer stops it between
batches when it is cancelled or runs past ``max_seconds``. Finished jobs are kept (the newest ``keep``) so that the page can read their answers.
"""

from __future__ import annotations

import itertools
import queue
import threading
import time
import traceback
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..driver import observing
from ..errors import Cancelled, CardlabError, Interrupted, PrecisionNotReached


class Busy(RuntimeError):
    """The queue is full: the request is refused, not queued."""


@dataclass
class Job:
    id: str
    kind: str
    game: str
    work: Callable[[], Any]
    state: str = "queued"  # queued, running, done, failed, cancelled
    progress: dict = field(default_factory=dict)
    result: Any = None
    error: str | None = None
    status: int = 200  # the HTTP status of the answer: 400 bad input, 409 cancelled or out of time, 500 a fault
    started: float | None = None
    finished: float | None = None
    cancel_asked: threading.Event = field(default_factory=threading.Event)
    done: threading.Event = field(default_factory=threading.Event)

    def view(self) -> dict:
        """The job as ``GET /api/jobs/{id}`` shows it."""
        now = time.monotonic()
        out: dict[str, Any] = {"job": self.id, "kind": self.kind, "game": self.game, "state": self.state}
        out["elapsed_s"] = round((self.finished or now) - self.started, 2) if self.started else 0.0
        out["progress"] = dict(self.progress)
        if self.done.is_set():
            out["progress"]["stage"] = self.state  # done, failed or cancelled: not the last stage it reported
        if self.state == "done":
            out["result"] = self.result
        if self.error is not None:
            out["error"] = self.error
        return out


class JobQueue:
    def __init__(self, max_pending: int = 4, max_seconds: float = 300.0, keep: int = 64):
        self.max_pending = max_pending
        self.max_seconds = max_seconds
        self.keep = keep
        self._jobs: OrderedDict[str, Job] = OrderedDict()
        self._queue: queue.Queue[Job | None] = queue.Queue()
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self._worker = threading.Thread(target=self._loop, name="cardlab-jobs", daemon=True)
        self._worker.start()

    def submit(self, kind: str, game: str, work: Callable[[], Any]) -> Job:
        with self._lock:
            waiting = sum(j.state == "queued" for j in self._jobs.values())
            if waiting >= self.max_pending:
                raise Busy(f"the server is busy: {waiting} analyses are waiting; try again when one has finished")
            job = Job(id=f"{next(self._ids)}", kind=kind, game=game, work=work)
            self._jobs[job.id] = job
            finished = [k for k, j in self._jobs.items() if j.done.is_set()]
            for k in finished[: max(0, len(self._jobs) - self.keep)]:
                del self._jobs[k]
        self._queue.put(job)
        return job

    def get(self, job_id: str) -> Job | None:
        with self._lock:
            return self._jobs.get(job_id)

    def cancel(self, job: Job) -> None:
        """Ask the job to stop: a queued one never starts, a running one stops at its next batch."""
        job.cancel_asked.set()

    def close(self) -> None:
        """Cancel every job and let the worker end (the server is stopping)."""
        with self._lock:
            jobs = list(self._jobs.values())
        for j in jobs:
            j.cancel_asked.set()
        self._queue.put(None)

    def _loop(self) -> None:
        while True:
            job = self._queue.get()
            if job is None:
                return
            if job.cancel_asked.is_set():
                self._finish(job, "cancelled", error="cancelled before it started", status=409)
                continue
            self._run(job)

    def _observer(self, job: Job) -> Callable[[dict], None]:
        def observe(event: dict) -> None:
            if job.cancel_asked.is_set():
                raise Cancelled("cancelled")
            assert job.started is not None
            if time.monotonic() - job.started > self.max_seconds:
                raise Cancelled(
                    f"stopped at the server's limit of {self.max_seconds:g} s a request "
                    "(ask for fewer trials or a coarser precision; cardlab serve --time-limit sets the limit)"
                )
            job.progress.update(event)

        return observe

    def _run(self, job: Job) -> None:
        job.state = "running"
        job.started = time.monotonic()
        try:
            with observing(self._observer(job)):
                result = job.work()
        except Cancelled as e:
            state = "cancelled" if job.cancel_asked.is_set() else "failed"
            self._finish(job, state, error=str(e), status=409)
        except (CardlabError, PrecisionNotReached) as e:
            self._finish(job, "failed", error=str(e), status=400)
        except Interrupted as e:
            self._finish(job, "cancelled", error=str(e), status=409)
        except Exception as e:  # a fault of ours: the browser gets one line, the server's log the traceback
            traceback.print_exc()
            error = f"internal error ({type(e).__name__}); the server's log has the details"
            self._finish(job, "failed", error=error, status=500)
        else:
            job.result = result
            self._finish(job, "done")

    def _finish(self, job: Job, state: str, error: str | None = None, status: int = 200) -> None:
        job.state = state
        job.error = error
        job.status = status
        job.finished = time.monotonic()
        job.done.set()
