"""Writing output files safely: checked before any work starts, written atomically, nothing left on failure.

- :func:`check_file` / :func:`check_dir` refuse, in one line, a target that cannot be written (a directory
  named as a file, a path under a regular file, a place without write permission, a name too long) before a
  run spends its time; a run calls them first.
- :func:`write_text` / :class:`atomic_path` write a regular file through a temporary file beside it, renamed
  over it only when complete; the existing file's permission bits are kept (a new file gets the umask's). A
  FIFO or a character device (``/dev/stdout``, ``/dev/null``) is written through, never replaced; a symbolic
  link is followed and its target replaced, the link kept. Directories made for the file are removed again
  if the write fails; no temporary file survives an exception or SIGTERM (which the CLI turns into one).
- An OSError while writing, after work has been done, is :class:`~analysis.errors.SaveFailed` (exit 74).
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from .errors import CardlabError, SaveFailed

_TMP_PREFIX = ".cardlab-"  # short, so a legal 255-byte name still has a legal temporary name


def _reason(e: OSError) -> str:
    return e.strerror or type(e).__name__


def _name_max(folder: Path) -> int:
    try:
        return os.pathconf(folder, "PC_NAME_MAX")
    except (OSError, ValueError, AttributeError):
        return 255


def _existing_ancestor(p: Path) -> Path:
    a = p
    while not a.exists():
        if a.parent == a:
            break
        a = a.parent
    return a


def _is_special(p: Path) -> bool:
    try:
        mode = os.stat(p).st_mode
    except OSError:
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISCHR(mode)


def check_file(path: str | os.PathLike, option: str = "--out") -> None:
    """Refuse (CardlabError, exit 2) a file target that cannot be written; leaves nothing behind (a probe folder is
    made and removed at once in the nearest existing folder)."""
    try:
        _check_file(Path(path), str(path), option)
    except OSError as e:  # a name the system cannot even look up (too long, a loop of links)
        raise CardlabError(f"{option} {str(path)!r}: {_reason(e)}") from None


def _check_file(p: Path, text: str, option: str) -> None:
    if text == "" or text.endswith(os.sep):
        raise CardlabError(f"{option} {text!r}: give a file name")
    if len(os.fsencode(p.name)) > _name_max(_existing_ancestor(p.parent)):
        raise CardlabError(f"{option} {text!r}: the file name is longer than this file system allows")
    if p.is_dir():
        raise CardlabError(f"{option} {text!r} is a directory; give a file name")
    if p.exists() and not (p.is_file() or _is_special(p)):
        raise CardlabError(f"{option} {text!r} is not a regular file, a FIFO or a device; give a file name")
    if _is_special(p):
        if not os.access(p, os.W_OK):
            raise CardlabError(f"{option} {text!r}: permission denied")
        return
    _check_folder(p.resolve().parent if p.is_symlink() else p.parent, option, text)


def check_dir(path: str | os.PathLike, option: str = "--out") -> None:
    """Refuse a folder target (a report folder) that cannot be made or written; leaves nothing behind (a probe
    folder is made and removed at once in the nearest existing folder)."""
    p = Path(path)
    text = str(path)
    try:
        if p.exists() and not p.is_dir():
            raise CardlabError(f"{option} {text!r} is not a directory; give a folder")
        _check_folder(p, option, text)
    except OSError as e:
        raise CardlabError(f"{option} {text!r}: {_reason(e)}") from None


def _check_folder(folder: Path, option: str, text: str) -> None:
    anc = _existing_ancestor(folder if str(folder) else Path("."))
    if not anc.is_dir():
        raise CardlabError(f"{option} {text!r}: {str(anc)!r} is a file, not a directory")
    if not os.access(anc, os.W_OK | os.X_OK):
        raise CardlabError(f"{option} {text!r}: cannot write in {str(anc)!r} (permission denied or read-only)")
    try:
        st = os.statvfs(anc)
    except (OSError, AttributeError):
        st = None
    if st is not None and st.f_flag & getattr(os, "ST_RDONLY", 1):
        raise CardlabError(f"{option} {text!r}: {str(anc)!r} is on a read-only file system")
    # the permission bits do not tell all (root passes os.access; /proc or /sys take no new entries): a folder
    # made and removed at once is the test, before any work
    try:
        os.rmdir(tempfile.mkdtemp(prefix=".cardlab-probe-", dir=anc))
    except OSError as e:
        raise CardlabError(f"{option} {text!r}: cannot create files in {str(anc)!r} ({_reason(e)})") from None


@contextmanager
def made_dirs(folder: Path) -> Iterator[None]:
    """Make ``folder`` and its missing parents; remove the ones made here if the block fails."""
    made = []
    a = folder
    while not a.exists():
        made.append(a)
        if a.parent == a:
            break
        a = a.parent
    try:
        for d in reversed(made):
            d.mkdir()
        yield
    except BaseException:
        for d in made:
            try:
                d.rmdir()
            except OSError:
                pass
        raise


class atomic_path:
    """Context manager yielding a temporary path beside ``path`` (a symlink's target), renamed over it only on
    success, with the existing file's permission bits; the temporary file is removed on any failure."""

    def __init__(self, path: str | os.PathLike):
        self.path = Path(path)
        self.tmp: str | None = None

    def __enter__(self) -> str:
        target = self.path.resolve() if self.path.is_symlink() else self.path
        self.target = target
        self._dirs = made_dirs(target.parent if str(target.parent) else Path("."))
        self._dirs.__enter__()
        try:
            fd, self.tmp = tempfile.mkstemp(prefix=_TMP_PREFIX, dir=target.parent)
            os.close(fd)
        except BaseException as e:
            self._dirs.__exit__(type(e), e, e.__traceback__)
            raise
        return self.tmp

    def __exit__(self, exc_type, exc, tb) -> None:
        assert self.tmp is not None
        try:
            if exc_type is None:
                try:
                    mode = stat.S_IMODE(os.stat(self.target).st_mode)
                except FileNotFoundError:
                    umask = os.umask(0)
                    os.umask(umask)
                    mode = 0o666 & ~umask
                os.chmod(self.tmp, mode)
                os.replace(self.tmp, self.target)
                self.tmp = None
        finally:
            if self.tmp is not None and os.path.exists(self.tmp):
                os.unlink(self.tmp)
            self._dirs.__exit__(exc_type, exc, tb)


def write_bytes(path: str | os.PathLike, data: bytes) -> None:
    """Write ``data`` to ``path`` as described in the module docstring; OSError becomes SaveFailed."""
    p = Path(path)
    try:
        if _is_special(p):
            with open(p, "wb") as f:  # a FIFO or a device: written through, never replaced
                f.write(data)
            return
        with atomic_path(p) as tmp:
            with open(tmp, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
    except OSError as e:
        raise SaveFailed(f"cannot write {str(path)!r}: {_reason(e)}") from None


def write_text(path: str | os.PathLike, text: str) -> None:
    write_bytes(path, text.encode("utf-8"))


def read_json(path: str, where: str):
    """A JSON document from the file ``path``; a file that cannot be read or parsed is one line naming ``where``
    (``--position 'p.json'``, ``the record 'g.json'``)."""
    import json
    from pathlib import Path

    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as e:
        raise CardlabError(f"cannot read {where}: {e.strerror}") from None
    except ValueError as e:
        raise CardlabError(f"{where} is not valid JSON: {e}") from None
