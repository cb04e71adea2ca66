"""The checkpoint file of a run: the completed chunk rows, appended batch by batch, under a lock.

Layout: the line ``MAGIC``, one JSON line (the run's identity and the row width), then one record per chunk
``0, 1, ...``: its ``n_counts`` counts as little-endian int64 and an int64 check word (the CRC-32 of the chunk
index and the counts), so a damaged, duplicated or reordered record is found on loading. A batch is appended and fsynced; a run killed
while appending leaves at most a partial last row, which the next run cuts off and recomputes (a chunk's row
is a pure function of the run, so nothing changes). Nothing is ever rewritten, so a save costs the batch's
bytes, not the history's.

While a run holds the file it holds an exclusive ``flock`` on it: a second run on the same file is refused in
one line instead of both overwriting each other's progress.
"""

from __future__ import annotations

import errno
import json
import os
import zlib
from pathlib import Path

import numpy as np

from .errors import CardlabError

MAGIC = b"CARDLAB-CHECKPOINT 2\n"
_ROW_DTYPE = np.dtype("<i8")


def _plain(e: OSError) -> str:
    return e.strerror or type(e).__name__


def _check_words(first: int, rows: np.ndarray) -> np.ndarray:
    """The check word of each row: CRC-32 of (chunk index, counts)."""
    return np.array(
        [zlib.crc32(np.int64(first + i).tobytes() + r.tobytes()) for i, r in enumerate(rows)], dtype=_ROW_DTYPE
    )


class Checkpoint:
    """An open, locked checkpoint: :meth:`load` the rows done, :meth:`append` each batch, :meth:`close`."""

    def __init__(self, path: str | os.PathLike, identity: dict, n_counts: int):
        self.path = Path(path)
        self.header = json.dumps({"identity": identity, "n_counts": int(n_counts)}, sort_keys=True).encode() + b"\n"
        self.n_counts = int(n_counts)
        self._fd: int | None = None
        self._data_start = len(MAGIC) + len(self.header)
        self._created = False  # this run made the file: removed again if it ends with no chunk saved
        self.n_saved = 0
        self._open()

    # -- opening: checked before any work starts ------------------------------------------------------------
    def _open(self) -> None:
        try:
            self._open_checked()
        except OSError as e:  # a name the system cannot look up (too long, a loop of links)
            raise CardlabError(f"cannot write checkpoint {str(self.path)!r}: {_plain(e)}") from None

    def _open_checked(self) -> None:
        p = self.path
        if p.is_dir():
            raise CardlabError(f"--checkpoint {str(p)!r} is a directory; give a file name")
        if p.exists() and not p.is_file():
            raise CardlabError(f"--checkpoint {str(p)!r} is not a regular file; give a file name")
        parent = p.parent if str(p.parent) else Path(".")
        if not parent.is_dir():
            what = "does not exist" if not parent.exists() else "is not a directory"
            raise CardlabError(f"cannot write checkpoint {str(p)!r}: {str(parent)!r} {what}")
        self._created = not p.exists()
        try:
            fd = os.open(p, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as e:
            raise CardlabError(f"cannot write checkpoint {str(p)!r}: {_plain(e)}") from None
        try:
            import fcntl

            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except ImportError:  # pragma: no cover -- no flock (Windows): no lock
            pass
        except OSError as e:
            os.close(fd)
            if e.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                raise CardlabError(
                    f"checkpoint {str(p)!r} is in use by another run; wait for it or choose another --checkpoint file"
                ) from None
            raise CardlabError(f"cannot lock checkpoint {str(p)!r}: {_plain(e)}") from None
        self._fd = fd

    def close(self) -> None:
        if self._fd is not None:
            if self._created and self.n_saved == 0:
                self.path.unlink(missing_ok=True)  # nothing was done: leave nothing behind
            os.close(self._fd)  # releases the lock
            self._fd = None

    def __enter__(self) -> Checkpoint:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- reading ----------------------------------------------------------------------------------------------
    def _refuse(self, why: str) -> CardlabError:
        return CardlabError(f"checkpoint {str(self.path)!r} {why}; delete it or choose another --checkpoint file")

    def load(self, max_chunks: int) -> np.ndarray:
        """The rows of the chunks done (none for a new file), validated against this run."""
        assert self._fd is not None
        size = os.fstat(self._fd).st_size
        if size == 0:
            self._write_header()
            return np.zeros((0, self.n_counts), dtype=np.int64)
        head = os.pread(self._fd, min(size, 1 << 16), 0)
        if not head.startswith(MAGIC):
            if MAGIC.startswith(head):  # killed while writing the header: nothing was done
                self._write_header()
                return np.zeros((0, self.n_counts), dtype=np.int64)
            raise self._refuse("is unreadable (not a cardlab checkpoint, or one written by an older cardlab)")
        end = head.find(b"\n", len(MAGIC))
        if end < 0:
            if size < 1 << 16:  # killed while writing the header
                self._write_header()
                return np.zeros((0, self.n_counts), dtype=np.int64)
            raise self._refuse("is unreadable (its header is damaged)")
        try:
            stored = json.loads(head[len(MAGIC) : end])
        except ValueError:
            raise self._refuse("is unreadable (its header is damaged)") from None
        mine = json.loads(self.header)
        if stored != mine:
            a, b = stored.get("identity", {}), mine["identity"]
            diff = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k)) or ["row width"]
            raise self._refuse(f"belongs to a different run (differs in {', '.join(diff)})")
        width = 8 * (self.n_counts + 1)
        n_rows = (size - self._data_start) // width
        if self._data_start + n_rows * width != size:  # a partial last row: killed while appending
            os.ftruncate(self._fd, self._data_start + n_rows * width)
        if n_rows > max_chunks:
            raise self._refuse(f"holds {n_rows} chunks, more than this run's {max_chunks}")
        raw = os.pread(self._fd, n_rows * width, self._data_start)
        records = np.frombuffer(raw, dtype=_ROW_DTYPE).astype(np.int64).reshape(n_rows, self.n_counts + 1)
        rows = np.ascontiguousarray(records[:, :-1])
        bad = np.flatnonzero(records[:, -1] != _check_words(0, rows))
        if len(bad):
            raise self._refuse(f"is damaged (the record of chunk {int(bad[0])} does not check)")
        self.n_saved = n_rows
        return rows

    # -- writing ----------------------------------------------------------------------------------------------
    def _write_header(self) -> None:
        assert self._fd is not None
        os.ftruncate(self._fd, 0)
        self._write_at(MAGIC + self.header, 0)

    def _write_at(self, data: bytes, offset: int) -> None:
        assert self._fd is not None
        try:
            view = memoryview(data)
            while len(view):
                n = os.pwrite(self._fd, view, offset)
                view = view[n:]
                offset += n
            os.fsync(self._fd)
        except OSError as e:
            raise CheckpointWriteError(f"cannot write checkpoint {str(self.path)!r}: {_plain(e)}") from None

    def append(self, n_done: int, rows: np.ndarray) -> None:
        """Append the rows of chunks ``n_done ..`` (the file holds exactly ``n_done`` rows before)."""
        rows = np.ascontiguousarray(rows, dtype=_ROW_DTYPE)
        data = np.column_stack([rows, _check_words(n_done, rows)]).astype(_ROW_DTYPE).tobytes()
        offset = self._data_start + 8 * (self.n_counts + 1) * n_done
        self._write_at(data, offset)
        self.n_saved = n_done + len(rows)


class CheckpointWriteError(OSError):
    """Saving a batch failed after work started (a full disk, say): the run stops, what was saved is kept."""


def rows_in(path: str | os.PathLike) -> int:
    """How many whole chunk rows a checkpoint file holds (0 if it has none yet): for tests and tools."""
    raw = Path(path).read_bytes()
    if not raw.startswith(MAGIC):
        return 0
    end = raw.find(b"\n", len(MAGIC))
    if end < 0:
        return 0
    n_counts = json.loads(raw[len(MAGIC) : end])["n_counts"]
    return (len(raw) - end - 1) // (8 * (n_counts + 1))
