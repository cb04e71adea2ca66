"""Nothing lost, nothing false: a fault matrix for output paths, checkpoints, precision-mode resume and signals.

Each table below is one kind of fault; a case is one row, so a reader adds a case by adding a row:
- PATH_CASES: (command line, the path it names, how the path is prepared, what the one-line refusal says). Every
  case must be refused before any work, in one line, exit 2, leaving the folder exactly as it was.
- the precision cases: every game's precision run, cut at several chunk counts and resumed, stops at the chunk
  count, with the rows and looks, of the uninterrupted run.
- the checkpoint cases: damaged, foreign, over-long or locked checkpoints are refused in one line; a partial
  last row (a kill while appending) is cut off and recomputed.
- the write-failure cases: a full disk while saving a batch or writing --out is exit 74 and one line, the saved
  chunks kept, no temporary file left.
"""

from __future__ import annotations

import errno
import json
import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

from analysis import driver
from analysis import games as registry
from analysis.checkpoint import MAGIC, Checkpoint, rows_in
from analysis.cli import main
from analysis.errors import CardlabError, SaveFailed

SIM = ["simulate", "bisko-bobo", "--trials", "2000", "--chunk-size", "500", "--quiet"]


def _listing(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


def _prepare(tmp: Path, how: str) -> None:
    if how == "dir":
        (tmp / "target").mkdir()
    elif how == "file":
        (tmp / "afile").write_text("x")


# (id, argv before the path option, option, path relative to tmp, preparation, message part)
PATH_CASES = [
    ("out-is-a-dir", SIM, "--out", "target", "dir", "is a directory"),
    ("out-under-a-file", SIM, "--out", "afile/x.json", "file", "is a file, not a directory"),
    ("out-name-too-long", SIM, "--out", "a" * 256 + ".csv", None, "longer than this file system allows"),
    ("out-empty", SIM, "--out", "", None, "give a file name"),
    ("checkpoint-is-a-dir", SIM, "--checkpoint", "target", "dir", "is a directory"),
    ("checkpoint-under-a-file", SIM, "--checkpoint", "afile/c.ckpt", "file", "is not a directory"),
    ("checkpoint-missing-folder", SIM, "--checkpoint", "nofolder/c.ckpt", None, "does not exist"),
    ("eval-out-is-a-dir", ["eval", "bisko-bobo", "KC JC TC"], "--out", "target", "dir", "directory"),
    ("games-out-under-a-file", ["games", "--format", "json"], "--out", "afile/x.json", "file", "is a file"),
    (
        "report-out-is-a-file",
        ["report", "biscuits", "--scale", "0.01", "--quiet"],
        "--out",
        "afile",
        "file",
        "not a directory",
    ),
    (
        "report-out-under-a-file",
        ["report", "biscuits", "--scale", "0.01", "--quiet"],
        "--out",
        "afile/r",
        "file",
        "is a file",
    ),
]


@pytest.mark.parametrize("argv, option, rel, how, msg", [c[1:] for c in PATH_CASES], ids=[c[0] for c in PATH_CASES])
def test_bad_output_path_is_refused_before_any_work(tmp_path, capsys, argv, option, rel, how, msg):
    _prepare(tmp_path, how)
    before = _listing(tmp_path)
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        code = main([*argv, option, rel])
    finally:
        os.chdir(cwd)
    out, err = capsys.readouterr()
    assert code == 2, err
    assert err.count("\n") == 1 and err.startswith("cardlab: error: ") and msg in err, err
    assert out == ""
    assert _listing(tmp_path) == before


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs Linux's /proc")
def test_a_folder_that_takes_no_new_entries_is_refused_before_any_work(capsys):
    """/proc passes the permission test for root, but no folder can be made there: the --out path's missing
    folders are tried (a folder made and removed at once) before the run, not after it (exit 74)."""
    code = main([*SIM, "--out", "/proc/cardlab-x/a.csv"])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert "cannot create files in '/proc'" in err


def test_a_legal_255_byte_name_is_written(tmp_path):
    name = "a" * 251 + ".csv"
    assert main([*SIM, "--format", "csv", "--out", str(tmp_path / name)]) == 0
    assert _listing(tmp_path) == [name]


def test_out_keeps_mode_follows_symlinks_and_writes_through_fifos(tmp_path):
    kept = tmp_path / "kept.csv"
    kept.write_text("old")
    kept.chmod(0o640)
    assert main([*SIM, "--format", "csv", "--out", str(kept)]) == 0
    assert stat.S_IMODE(kept.stat().st_mode) == 0o640 and kept.read_text().startswith("measure,")

    target = tmp_path / "real.csv"
    link = tmp_path / "link.csv"
    link.symlink_to(target)
    assert main([*SIM, "--format", "csv", "--out", str(link)]) == 0
    assert link.is_symlink() and target.read_text().startswith("measure,")

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    assert main([*SIM, "--format", "csv", "--out", str(fifo)]) == 0
    reader.join(timeout=60)
    assert stat.S_ISFIFO(fifo.stat().st_mode) and got and got[0].startswith(b"measure,")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kept.csv", "link.csv", "pipe", "real.csv"]


def test_made_folders_are_removed_when_the_write_fails(tmp_path, monkeypatch, capsys):
    import analysis.outputs as outputs

    def full(*a, **k):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(outputs.os, "fsync", full)
    code = main([*SIM, "--format", "csv", "--out", str(tmp_path / "a" / "b" / "c.csv")])
    err = capsys.readouterr().err
    assert code == 74 and err.count("\n") == 1 and "No space left on device" in err
    assert list(tmp_path.iterdir()) == []


# ---- checkpoints -----------------------------------------------------------------------------------------

SPEC = registry.get("bisko-bobo").simulation_spec(players=3)


def _run(ck, **kw):
    return driver.run(SPEC, seed=4, chunk_size=200, progress=False, checkpoint=ck, **{"trials": 2000, **kw})


def test_checkpoint_refusals(tmp_path):
    ck = tmp_path / "c.ckpt"
    full = _run(ck)
    assert rows_in(ck) == 10
    data = ck.read_bytes()
    start = data.index(b"\n", len(MAGIC)) + 1

    (tmp_path / "old.ckpt").write_bytes(b"PK\x03\x04 an npz of an older cardlab")
    with pytest.raises(CardlabError, match="unreadable"):
        _run(tmp_path / "old.ckpt")

    with pytest.raises(CardlabError, match="different run"):
        _run(ck, trials=4000)

    neg = bytearray(data)
    neg[start + 8 : start + 16] = np.int64(-1).tobytes()  # a count of chunk 0 changed
    (tmp_path / "neg.ckpt").write_bytes(bytes(neg))
    with pytest.raises(CardlabError, match="damaged .the record of chunk 0"):
        _run(tmp_path / "neg.ckpt")

    row = (len(data) - start) // 10
    (tmp_path / "long.ckpt").write_bytes(data + data[start : start + row])
    with pytest.raises(CardlabError, match="holds 11 chunks, more than this run's 10"):
        _run(tmp_path / "long.ckpt")

    head = json.loads(data[len(MAGIC) : start - 1])
    head["n_counts"] += 1
    (tmp_path / "wide.ckpt").write_bytes(MAGIC + json.dumps(head).encode() + b"\n")
    with pytest.raises(CardlabError, match="different run"):
        _run(tmp_path / "wide.ckpt")

    # a kill while appending leaves a partial row: cut off, recomputed, the same result
    (tmp_path / "partial.ckpt").write_bytes(data[: start + 4 * row + 5])
    assert _run(tmp_path / "partial.ckpt").rows() == full.rows()
    # a kill while writing the header: nothing done, the run starts afresh
    (tmp_path / "head.ckpt").write_bytes(data[:7])
    assert _run(tmp_path / "head.ckpt").rows() == full.rows()


def test_a_checkpoint_in_use_is_refused(tmp_path):
    ck = tmp_path / "c.ckpt"
    holder = Checkpoint(ck, {"other": "run"}, 3)
    try:
        with pytest.raises(CardlabError, match="in use by another run"):
            _run(ck)
    finally:
        holder.close()
    assert _run(ck).meta["chunks"] == 10


def test_nothing_is_left_when_a_run_saves_no_chunk(tmp_path):
    ck = tmp_path / "c.ckpt"
    with pytest.raises(CardlabError):
        driver.run(SPEC, trials=2000, seed=4, chunk_size=200, progress=False, checkpoint=ck, backend="gpu")
    assert not ck.exists()


def test_a_full_disk_while_saving_keeps_the_saved_chunks(tmp_path, monkeypatch):
    import analysis.checkpoint as C

    ck = tmp_path / "c.ckpt"
    calls = {"n": 0}
    real = C.os.pwrite

    def pwrite(fd, data, offset):
        calls["n"] += 1
        if calls["n"] > 3:  # the header, then two batches
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(fd, data, offset)

    monkeypatch.setattr(C.os, "pwrite", pwrite)
    with pytest.raises(SaveFailed, match="No space left on device.*4 chunks kept"):
        _run(ck, batch_chunks=2)
    monkeypatch.undo()
    assert rows_in(ck) == 4
    assert _run(ck, batch_chunks=2).rows() == _run(None).rows()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.ckpt"]


# ---- precision mode: the looks fall at chunk counts fixed by the work --------------------------------------


PRECISION = {"biscuits": 0.03}  # a target a few looks away for each game (0.08 for the others)


def _precision_cases():
    for game in registry.all_games():
        yield pytest.param(game.id, id=game.id)


@pytest.mark.parametrize("game_id", list(_precision_cases()))
def test_precision_resume_stops_where_the_uninterrupted_run_stops(tmp_path, game_id):
    game = registry.get(game_id)
    spec = game.simulation_spec()
    kw = {"precision": PRECISION.get(game_id, 0.08), "seed": 11, "chunk_size": 16, "progress": False, "batch_chunks": 1,
          "look_every_chunk": True}  # looks from the first chunk on: a few looks on small runs  # fmt: skip
    ck = tmp_path / "full.ckpt"
    full = driver.run(spec, checkpoint=ck, **kw)
    n = full.meta["chunks"]
    assert full.meta["looks"] >= 3 and full.meta["precision_reached"], full.meta
    data = ck.read_bytes()
    start = data.index(b"\n", len(MAGIC)) + 1
    row = (len(data) - start) // n
    for cut in sorted({1, 2, n // 3, n // 2, n - 1}):
        part = tmp_path / f"cut{cut}.ckpt"
        part.write_bytes(data[: start + cut * row])
        resumed = driver.run(spec, checkpoint=part, **kw)
        for k in ("chunks", "trials", "looks", "precision_achieved"):
            assert resumed.meta[k] == full.meta[k], (game_id, cut, k)
        assert resumed.rows() == full.rows(), (game_id, cut)


def test_precision_resume_on_the_default_schedule(tmp_path):
    """The schedule a user gets with --chunk-size 16: the first look after 4,096 trials (256 chunks; first_look
    in the checkpoint's identity), then the later looks; a run cut before, at and after the first look resumes
    to the uninterrupted result."""
    spec = registry.get("bisko-bobo").simulation_spec()
    kw = {"precision": 0.006, "seed": 11, "chunk_size": 16, "progress": False, "batch_chunks": 1}
    ck = tmp_path / "full.ckpt"
    full = driver.run(spec, checkpoint=ck, **kw)
    n = full.meta["chunks"]
    assert full.meta["looks"] >= 2 and n > 256 and full.meta["precision_reached"], full.meta
    data = ck.read_bytes()
    start = data.index(b"\n", len(MAGIC)) + 1
    row = (len(data) - start) // n
    for cut in (1, 255, 256, 257, n - 1):
        part = tmp_path / f"cut{cut}.ckpt"
        part.write_bytes(data[: start + cut * row])
        resumed = driver.run(spec, checkpoint=part, **kw)
        for k in ("chunks", "trials", "looks", "precision_achieved"):
            assert resumed.meta[k] == full.meta[k], (cut, k)
        assert resumed.rows() == full.rows(), cut


def test_precision_cap_is_exit_3_with_the_result_written(tmp_path, capsys):
    out = tmp_path / "r.json"
    argv = ["simulate", "bisko-bobo", "--precision", "0.001", "--chunk-size", "100", "--format", "json", "--quiet"]
    os.environ["CARDLAB_MAX_TRIALS"] = "1000"
    try:
        code = main([*argv, "--out", str(out)])
    finally:
        del os.environ["CARDLAB_MAX_TRIALS"]
    err = capsys.readouterr().err
    assert code == 3 and err.count("\n") == 1 and "not reached" in err
    meta = json.loads(out.read_text())["meta"]
    assert meta["precision_reached"] is False and meta["trials"] == 1000
    assert set(meta["precision_achieved_by_measure"]) == {"win"}


# ---- signals ---------------------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["threads", "processes"])
def test_sigterm_keeps_the_checkpoint_and_leaves_no_process(tmp_path, backend):
    import signal
    import time

    ck = tmp_path / "c.ckpt"
    args = [sys.executable, "-m", "analysis", *SIM[:2], "--trials", "3000000", "--chunk-size", "1000", "--quiet"]
    args += ["--backend", backend, "--workers", "2", "--checkpoint", str(ck)]
    env = dict(os.environ, CARDLAB_BATCH_CHUNKS="2")
    proc = subprocess.Popen(args, env=env, stderr=subprocess.PIPE, text=True, start_new_session=True)
    t0 = time.time()
    while (not ck.exists() or rows_in(ck) < 4) and time.time() - t0 < 120 and proc.poll() is None:
        time.sleep(0.05)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 143 and err.count("\n") == 1 and "kept in" in err, err
    time.sleep(1.0)
    left = subprocess.run(["pgrep", "-s", str(proc.pid)], capture_output=True, text=True).stdout
    assert left == "", f"processes of the run still alive: {left.split()}"
    assert [p.name for p in tmp_path.iterdir()] == ["c.ckpt"]


@pytest.mark.slow
def test_a_dask_cluster_without_workers_fails_in_one_line(tmp_path, monkeypatch):
    distributed = pytest.importorskip("distributed")
    from analysis.errors import BackendFailed

    monkeypatch.setattr(driver, "DASK_NO_WORKER_S", 3.0)
    with distributed.LocalCluster(n_workers=0, dashboard_address=None, silence_logs=50) as cluster:
        ck = tmp_path / "c.ckpt"
        with pytest.raises(BackendFailed, match="no live worker for 3 s"):
            driver.run(
                SPEC,
                trials=2000,
                chunk_size=200,
                progress=False,
                backend="dask",
                scheduler=cluster.scheduler_address,
                checkpoint=ck,
            )
    assert not ck.exists()  # nothing was saved, nothing is left


# ---- real file systems: read-only and full (a tmpfs mounted for the test) ---------------------------------


@pytest.fixture
def mount(tmp_path):
    """``mount(name, options)``: a small tmpfs at tmp_path/name (unmounted afterwards). Needs the right to
    mount (root, as CI runs); elsewhere the test is skipped, since os.access cannot fake a read-only or full
    disk for root."""
    made = []

    def make(name: str, options: str) -> Path:
        point = tmp_path / name
        point.mkdir()
        done = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(point)], capture_output=True)
        if done.returncode != 0:
            pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode().strip()}")
        made.append(point)
        return point

    yield make
    for point in made:
        subprocess.run(["umount", "-l", str(point)], capture_output=True)


def _fill(folder: Path, leave: int = 0) -> None:
    """Fill the file system of ``folder`` up to ``leave`` free bytes (a file named filler)."""
    st = os.statvfs(folder)
    free = st.f_bavail * st.f_frsize
    with open(folder / "filler", "wb") as f:
        try:
            f.write(b"\0" * max(free - leave, 0))
        except OSError as e:
            assert e.errno == errno.ENOSPC


READ_ONLY_CASES = [
    ("out", [*SIM, "--format", "csv", "--out"], "r.csv"),
    ("out-in-a-new-folder", [*SIM, "--format", "csv", "--out"], "a/b/r.csv"),
    ("checkpoint", [*SIM, "--checkpoint"], "c.ckpt"),
    ("report", ["report", "biscuits", "--scale", "0.01", "--quiet", "--out"], "rep"),
]


@pytest.mark.parametrize("argv, rel", [c[1:] for c in READ_ONLY_CASES], ids=[c[0] for c in READ_ONLY_CASES])
def test_a_read_only_file_system_is_refused_before_any_work(mount, capsys, argv, rel):
    ro = mount("ro", "ro,size=64k")
    code = main([*argv, str(ro / rel)])
    out, err = capsys.readouterr()
    assert code == 2 and err.count("\n") == 1 and "read-only" in err.lower(), err
    assert out == "" and list(ro.iterdir()) == []


def test_a_full_disk_at_the_end_keeps_the_old_file_and_leaves_no_temp(mount, capsys):
    disk = mount("full", "size=64k")
    old = disk / "r.csv"
    old.write_text("the old result")
    _fill(disk)
    code = main([*SIM, "--format", "csv", "--out", str(old)])
    err = capsys.readouterr().err
    assert code == 74 and err.count("\n") == 1 and "No space left on device" in err, err
    assert old.read_text() == "the old result"
    assert sorted(p.name for p in disk.iterdir()) == ["filler", "r.csv"]


def test_a_checkpoint_that_fills_the_disk_keeps_its_chunks_and_resumes(mount, capsys):
    disk = mount("full", "size=64k")
    ck = disk / "c.ckpt"
    argv = [*SIM[:2], "--trials", "4000", "--chunk-size", "100", "--seed", "3", "--format", "csv", "--quiet"]
    _fill(disk, leave=12 * 1024)  # room for the header and a few chunks, not for 40
    code = main([*argv, "--checkpoint", str(ck)])
    err = capsys.readouterr().err
    assert code == 74 and err.count("\n") == 1 and "No space left on device" in err and "kept" in err, err
    kept = rows_in(ck)
    assert 0 < kept < 40
    (disk / "filler").unlink()
    assert main([*argv, "--checkpoint", str(ck)]) == 0
    resumed = capsys.readouterr().out
    assert rows_in(ck) == 40
    assert main(argv) == 0
    assert capsys.readouterr().out == resumed  # the same rows as a run that was never stopped


@pytest.mark.slow
def test_a_killed_pool_worker_is_one_line_and_the_run_resumes(tmp_path):
    import signal
    import time

    psutil = pytest.importorskip("psutil")
    ck = tmp_path / "c.ckpt"
    args = [sys.executable, "-m", "analysis", *SIM[:2], "--trials", "3000000", "--chunk-size", "1000", "--quiet"]
    args += ["--seed", "5", "--format", "csv", "--backend", "processes", "--workers", "2"]
    env = dict(os.environ, CARDLAB_BATCH_CHUNKS="2")
    proc = subprocess.Popen([*args, "--checkpoint", str(ck)], env=env, stderr=subprocess.PIPE, text=True)
    t0 = time.time()
    while (not ck.exists() or rows_in(ck) < 4) and time.time() - t0 < 120 and proc.poll() is None:
        time.sleep(0.05)
    children = psutil.Process(proc.pid).children(recursive=True)
    workers = [p for p in children if "resource_tracker" not in " ".join(p.cmdline())]
    assert workers, "no pool worker to kill"
    workers[0].send_signal(signal.SIGKILL)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 75 and err.count("\n") == 1 and "worker process died" in err and "kept" in err, err
    kept = rows_in(ck)
    assert 0 < kept < 3000
    resumed = subprocess.run([*args, "--checkpoint", str(ck)], env=env, capture_output=True, text=True, check=True)
    fresh = subprocess.run(args, env=env, capture_output=True, text=True, check=True)
    assert resumed.stdout == fresh.stdout


@pytest.mark.slow
def test_a_lost_dask_scheduler_is_one_line_and_the_run_resumes(tmp_path):
    import time

    pytest.importorskip("distributed")
    dask = [sys.executable, "-m", "distributed.cli.dask_scheduler"]
    sfile = tmp_path / "scheduler.json"
    sched = subprocess.Popen(
        [*dask, "--scheduler-file", str(sfile), "--port", "0", "--no-dashboard", "--host", "127.0.0.1"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    worker = None
    try:
        t0 = time.time()
        while not sfile.exists() and time.time() - t0 < 60:
            time.sleep(0.1)
        address = json.loads(sfile.read_text())["address"]
        worker = subprocess.Popen(
            [sys.executable, "-m", "distributed.cli.dask_worker", address, "--nthreads", "1", "--no-dashboard"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        ck = tmp_path / "c.ckpt"
        args = [sys.executable, "-m", "analysis", *SIM[:2], "--trials", "20000000", "--chunk-size", "2000"]
        args += ["--seed", "6", "--format", "csv", "--quiet"]
        env = dict(os.environ, CARDLAB_BATCH_CHUNKS="2")
        run = [*args, "--backend", "dask", "--scheduler", address, "--checkpoint", str(ck)]
        proc = subprocess.Popen(run, env=env, stderr=subprocess.PIPE, text=True)
        while (not ck.exists() or rows_in(ck) < 4) and time.time() - t0 < 180 and proc.poll() is None:
            time.sleep(0.05)
        sched.kill()
        _, err = proc.communicate(timeout=120)
    finally:
        for p in (sched, worker):
            if p is not None:
                p.kill()
                p.wait()
    assert proc.returncode == 75 and err.count("\n") == 1 and "dask" in err and "kept" in err, err
    kept = rows_in(ck)
    assert 0 < kept < 10000
    resumed = subprocess.run([*args, "--checkpoint", str(ck)], env=env, capture_output=True, text=True, check=True)
    fresh = subprocess.run(args, env=env, capture_output=True, text=True, check=True)
    assert resumed.stdout == fresh.stdout  # resumed on the threads backend: the same rows


@pytest.mark.slow
@pytest.mark.parametrize("delay", [0.5, 1.5, 3.0])  # while python starts, while the cluster starts, while it runs
def test_ctrl_c_while_a_dask_cluster_starts_is_one_line(tmp_path, delay):
    import signal
    import time

    pytest.importorskip("distributed")
    args = [sys.executable, "-m", "analysis", *SIM[:2], "--trials", "100000000", "--quiet", "--backend", "dask"]
    proc = subprocess.Popen(
        [*args, "--checkpoint", str(tmp_path / "c.ckpt")], stderr=subprocess.PIPE, text=True, start_new_session=True
    )
    time.sleep(delay)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130 and err.count("\n") == 1 and err.startswith("cardlab: interrupted"), err
    time.sleep(3.0)  # the cluster's processes are reaped
    left = subprocess.run(["pgrep", "-s", str(proc.pid)], capture_output=True, text=True).stdout
    assert left == "", f"processes of the run still alive: {left.split()}"


def test_a_listener_that_is_not_a_dask_scheduler_is_one_line(monkeypatch):
    """dask's timeout covers the connection, not the handshake: a server that accepts and says nothing (here a
    bare socket, as a web server would) held the client for ever."""
    import socket

    pytest.importorskip("distributed")
    monkeypatch.setattr(driver, "DASK_CONNECT_S", 1)
    with socket.create_server(("127.0.0.1", 0)) as server:
        port = server.getsockname()[1]
        with pytest.raises(CardlabError, match=r"cannot reach the dask scheduler .*no answer in 6 s"):
            driver.run(SPEC, trials=200, progress=False, backend="dask", scheduler=f"tcp://127.0.0.1:{port}")
