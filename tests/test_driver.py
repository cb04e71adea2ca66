"""The reproducibility contract: the same rows whatever the threads, backend, batches or interruptions."""

from __future__ import annotations

import dataclasses
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from analysis import driver
from analysis.checkpoint import rows_in
from analysis.errors import CardlabError
from analysis.games import bisko_bobo as bb

SPEC = bb.simulation_spec(4, strategies=["random"])
TRIALS = 30_000
CHUNK = 1000


@pytest.fixture(scope="module")
def baseline():
    return driver.run(SPEC, trials=TRIALS, seed=42, chunk_size=CHUNK, progress=False, threads=1).rows()


def test_two_threads_equal_one(baseline):
    assert driver.run(SPEC, trials=TRIALS, seed=42, chunk_size=CHUNK, progress=False, threads=2).rows() == baseline


def test_batch_sizes_do_not_matter(baseline):
    rows = driver.run(SPEC, trials=TRIALS, seed=42, chunk_size=CHUNK, progress=False, batch_chunks=3).rows()
    assert rows == baseline


def test_chunk_size_does_not_matter_either(baseline):
    """Each trial's random numbers are keyed by its global index, not by its chunk: the counts and estimates are
    the same; only the intervals the jackknife gives (pooled rows, means without a sum of squares) come from the
    chunks, so they move with the chunk size, and nothing else does."""
    other = driver.run(SPEC, trials=TRIALS, seed=42, chunk_size=777, progress=False)
    jack = {"std_error", "ci_low", "ci_high"}
    moved = 0
    for a, b in zip(other.rows(), baseline, strict=True):
        same = {k: v for k, v in a.items() if k not in jack} == {k: v for k, v in b.items() if k not in jack}
        assert same, (a, b)
        if any(a[k] != b[k] for k in jack):
            moved += 1
            assert a["seat"] is None  # a pooled row or a per-deal mean: a seat's row keeps its binomial interval
            assert a["std_error"] == pytest.approx(b["std_error"], rel=0.5), (a, b)  # two jackknives of one run
    assert moved > 0


def test_other_seed_differs(baseline):
    assert driver.run(SPEC, trials=TRIALS, seed=43, chunk_size=CHUNK, progress=False).rows() != baseline


def test_process_pool_equals_threads(baseline):
    rows = driver.run(
        SPEC, trials=TRIALS, seed=42, chunk_size=CHUNK, progress=False, backend="processes", workers=2
    ).rows()
    assert rows == baseline


def test_dask_local_cluster_equals_threads(baseline):
    pytest.importorskip("distributed")
    rows = driver.run(SPEC, trials=TRIALS, seed=42, chunk_size=CHUNK, progress=False, backend="dask", workers=2).rows()
    assert rows == baseline


def test_precision_mode_reaches_target_and_equals_fixed_run():
    res = driver.run(SPEC, precision=0.01, seed=5, chunk_size=500, progress=False)
    t = res.table
    win = t[t.measure == "win"]
    assert ((win.ci_high - win.ci_low) / 2).max() <= 0.01
    assert res.meta["looks"] >= 2 and res.meta["precision_achieved"] <= 0.01
    # the result is the fixed-size run of the trials it used
    fixed = driver.run(SPEC, trials=res.meta["trials"], seed=5, chunk_size=500, progress=False)
    assert fixed.rows() == res.rows()


def test_checkpoint_resume_in_process(tmp_path, baseline):
    ck = tmp_path / "run.ckpt"
    driver.run(SPEC, trials=TRIALS // 2, seed=42, chunk_size=CHUNK, progress=False, checkpoint=ck)
    with pytest.raises(CardlabError, match="different run"):
        driver.run(SPEC, trials=TRIALS, seed=42, chunk_size=CHUNK, progress=False, checkpoint=ck)
    ck2 = tmp_path / "full.ckpt"
    first = driver.run(SPEC, trials=TRIALS, seed=42, chunk_size=CHUNK, progress=False, checkpoint=ck2)
    again = driver.run(SPEC, trials=TRIALS, seed=42, chunk_size=CHUNK, progress=False, checkpoint=ck2)
    assert first.rows() == again.rows() == baseline


def test_unreadable_checkpoint_is_a_plain_error(tmp_path):
    bad = tmp_path / "bad.ckpt"
    bad.write_text("not a checkpoint")
    with pytest.raises(CardlabError, match="is unreadable"):
        driver.run(SPEC, trials=100, seed=1, progress=False, checkpoint=bad)


@pytest.mark.parametrize(
    "kw, msg",
    [
        ({"trials": 0}, "bad trial count"),
        ({"trials": -5}, "bad trial count"),
        ({"precision": 0.0}, "bad precision"),
        ({"precision": -1.0}, "bad precision"),
        ({}, "give --trials N or --precision P"),
        ({"trials": 10, "precision": 0.1}, "not both"),
        ({"trials": 10, "seed": -1}, "bad seed"),
        ({"trials": 10, "backend": "gpu"}, "unknown backend"),
    ],
)
def test_bad_run_arguments(kw, msg):
    with pytest.raises(CardlabError, match=msg):
        driver.run(SPEC, progress=False, **kw)


def _cli(*args, env=None):
    return [sys.executable, "-m", "analysis", *args]


def _wait_for_rows(path: Path, n: int, proc, timeout=120.0):
    t0 = time.time()
    while time.time() - t0 < timeout:
        if proc.poll() is not None:
            return False
        if path.exists() and rows_in(path) >= n:
            return True
        time.sleep(0.01)
    return False


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGINT, signal.SIGTERM])
def test_killed_run_resumes_to_the_uninterrupted_result(tmp_path, sig):
    args = [
        "simulate",
        "bisko-bobo",
        "--players",
        "3",
        "--trials",
        "1500000",
        "--chunk-size",
        "1000",
        "--seed",
        "9",
        "--format",
        "json",
        "--quiet",
        "--threads",
        "1",
    ]
    full = subprocess.run(_cli(*args), capture_output=True, text=True, check=True)
    ck = tmp_path / "ck.npz"
    # small batches (a checkpoint every 2 chunks) keep the run going for a while
    env = dict(os.environ, CARDLAB_BATCH_CHUNKS="2")
    # a shell without job control starts background jobs with SIGINT ignored, and Python then installs no
    # KeyboardInterrupt handler: give the child the default disposition, as a terminal would
    proc = subprocess.Popen(
        _cli(*args, "--checkpoint", str(ck)),
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    reached = _wait_for_rows(ck, 20, proc)
    assert proc.poll() is None, "the run finished before it could be interrupted"
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=120)
    assert reached, "the run finished before it could be interrupted"
    kept = rows_in(ck)
    assert 0 < kept < 1500
    if sig != signal.SIGKILL:
        assert proc.returncode == 128 + sig and "resume" in err and err.count("\n") == 1
    resumed = subprocess.run(_cli(*args, "--checkpoint", str(ck)), capture_output=True, text=True, check=True)
    assert json.loads(resumed.stdout)["rows"] == json.loads(full.stdout)["rows"]


def test_a_run_restores_the_thread_count():
    import numba

    before = numba.get_num_threads()
    driver.run(SPEC, trials=2000, seed=1, progress=False, threads=1)
    assert numba.get_num_threads() == before


def test_threads_take_every_chunk_once_and_hand_back_the_first_error():
    """run_chunks' thread runner: every index in exactly one slice, whatever the thread count; an error in one
    thread stops the handing out and is raised in the caller once the threads are done."""
    import threading

    for n, n_threads in ((1, 2), (7, 2), (64, 3), (1000, 2)):
        seen = []
        lock = threading.Lock()

        def work(a, b, seen=seen, lock=lock):
            with lock:
                seen.extend(range(a, b))

        driver._on_threads(work, n, n_threads)
        assert sorted(seen) == list(range(n)), (n, n_threads)

    def failing(a, b):
        if a >= 8:
            raise ValueError("chunk failed")

    with pytest.raises(ValueError, match="chunk failed"):
        driver._on_threads(failing, 64, 2)


def test_threads_after_ctrl_c_finish_their_slices_before_it_is_raised():
    """A Ctrl-C in the waiting thread stops the handing out; it is raised only once the slices already running
    have finished (none left writing into rows nobody reads)."""
    import threading

    running: list[int] = []
    lock = threading.Lock()

    def work(a, b):
        with lock:
            running.append(a)
        if a == 0:
            signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)
        time.sleep(0.3)
        with lock:
            running.remove(a)

    with pytest.raises(KeyboardInterrupt):
        driver._on_threads(work, 64, 2)
    assert running == []


def test_after_ctrl_c_the_threads_say_how_far_every_slice_has_run():
    """``done[0]``: the slices from 0 that had all finished when the Ctrl-C was raised (they finish out of order)."""
    import threading

    finished: set[int] = set()
    lock = threading.Lock()

    def work(a, b):
        if a == 16:
            signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)
        time.sleep(0.3 if a == 8 else 0.01)  # a slow slice: the ones after it finish first
        with lock:
            finished.add(a)

    done = [0]
    with pytest.raises(KeyboardInterrupt):
        driver._on_threads(work, 64, 2, done)
    step = 8  # 64 over 4 slices a thread
    assert done[0] % step == 0 and done[0] >= 24
    assert all(a in finished for a in range(0, done[0], step)) and (done[0] == 64 or done[0] not in finished)


@pytest.mark.parametrize("threads", [1, 2])
def test_ctrl_c_keeps_the_chunks_its_batch_had_run(tmp_path, baseline, monkeypatch, threads):
    """A Ctrl-C in the middle of a batch keeps the chunks of that batch that had run (before, a batch was kept
    whole or not at all: a run of slow players whose chunks took seconds each lost everything), and the run
    resumes to the uninterrupted result."""
    import threading

    real = driver._load_kernel(SPEC.kernel)
    calls = [0]

    def interrupted(ids, *rest):
        real(ids, *rest)
        time.sleep(0.05)  # slow chunks: the Ctrl-C is in before the batch ends
        calls[0] += 1
        if calls[0] == 3:  # to the main thread, as a terminal's Ctrl-C is taken
            signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)

    monkeypatch.setattr(driver, "_load_kernel", lambda path: interrupted)
    ck = tmp_path / "run.ckpt"
    with pytest.raises(driver.Interrupted, match="chunks kept"):
        driver.run(SPEC, trials=TRIALS, seed=42, chunk_size=CHUNK, progress=False, checkpoint=ck, threads=threads,
                   batch_chunks=24)  # fmt: skip
    # the first batch, cut short: its leading chunks that had run (on 2 threads, the slices already started
    # when the Ctrl-C came also run: 2 of its 8)
    kept = rows_in(ck)
    assert 2 <= kept < 24
    monkeypatch.undo()
    again = driver.run(SPEC, trials=TRIALS, seed=42, chunk_size=CHUNK, progress=False, checkpoint=ck)
    assert again.rows() == baseline
    # the meta says it resumed, and its rate counts the trials this call ran
    assert (
        again.meta["resumed_chunks"] == kept
        and f"resumed from a checkpoint of {kept} chunks" in again.header_lines()[-1]
    )
    ran, el = TRIALS - kept * CHUNK, again.meta["elapsed_s"]  # elapsed_s is rounded to the millisecond
    assert ran / (el + 0.0005) - 0.1 <= again.meta["trials_per_s"] <= ran / max(el - 0.0005, 1e-9) + 0.1


def test_batches_never_leave_a_thread_idle(monkeypatch):
    """Slow chunks shrink the batches (aimed at about half a second, for progress, checkpoints and Ctrl-C), but
    never below one chunk a thread: with slow chunks (the strong field's, minutes each) a batch of one chunk ran on
    one of two threads."""
    sizes = []
    real = driver.run_chunks

    def recording(kernel, args, ids, *rest):
        sizes.append(len(ids))
        return real(kernel, args, ids, *rest)

    monkeypatch.setattr(driver, "run_chunks", recording)
    clock = iter(range(0, 1 << 30, 2))  # every batch looks slow: two seconds between any two readings
    monkeypatch.setattr(driver.time, "perf_counter", lambda: float(next(clock)))
    rows = driver.run(SPEC, trials=20 * CHUNK, seed=42, chunk_size=CHUNK, progress=False, threads=2).rows()
    assert sizes == [8, 4, 2, 2, 2, 2] and sum(sizes) == 20
    monkeypatch.undo()
    assert rows == driver.run(SPEC, trials=20 * CHUNK, seed=42, chunk_size=CHUNK, progress=False, threads=1).rows()


def test_the_compile_note_is_printed_once_a_game(monkeypatch, capsys):
    # a report compiles several kernels of one game: one line says so, not one a kernel
    import kernels._jit

    monkeypatch.setattr(kernels._jit, "is_cached", lambda f: False)
    monkeypatch.setattr(driver, "_announced", set())
    other = dataclasses.replace(SPEC, game="bismarck")
    assert driver.spec_compile_note(SPEC) and driver.spec_compile_note(SPEC) and driver.spec_compile_note(other)
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 2
    assert "compiling the bisko-bobo kernels" in lines[0] and "compiling the bismarck kernels" in lines[1]


def test_a_player_compiled_in_the_middle_of_a_run_is_told_and_marks_the_meta(monkeypatch, capsys):
    """A run's kernel loaded from the cache may reach a player through a cell that compiles on first use (the first
    pimc-infer run after pimc runs: several seconds): the compile note says so and the meta says the time includes
    compiling. Here the kernel counts as cached and its first call binds a cold callee, calling the cell's hook as
    kernels._extern.bind does."""
    import kernels._extern as X

    monkeypatch.setattr(driver, "_announced", set())
    before = X.set_compile_hook(None)
    bind = []

    def cached_kernel_cold_callee(spec, say=True):
        if bind and X._ON_COMPILE is not None:
            X._ON_COMPILE("kernels.bismarck.pimc.infer_layouts")
        return False

    monkeypatch.setattr(driver, "spec_compile_note", cached_kernel_cold_callee)
    try:
        assert driver.run(SPEC, trials=64, seed=1, progress=True).meta["compiling_included"] is False
        assert capsys.readouterr().err == ""
        bind.append(1)
        r = driver.run(SPEC, trials=64, seed=1, progress=True)
        assert r.meta["compiling_included"] is True
        assert "compiling the bisko-bobo kernels" in capsys.readouterr().err
        assert X._ON_COMPILE is None  # the run's hook is gone with the run
        # a run that keeps quiet inside a command that speaks (a review's decisions): the command's hook hears of
        # it too, and says it; from a chunk worker's thread, the observer of the thread that started the run hears
        monkeypatch.setattr(driver, "_announced", set())
        heard = []
        token = driver._observer.set(heard.append)
        outer = driver.CalleeCompiles("bismarck", True)
        try:
            inner = driver.CalleeCompiles("bismarck", False)
            worker = threading.Thread(target=X._ON_COMPILE, args=("kernels.bismarck.pimc.infer_layouts",))
            worker.start()
            worker.join()
            inner.close()
        finally:
            outer.close()
            driver._observer.reset(token)
        assert inner.seen and outer.seen and inner.count == 1
        assert capsys.readouterr().err.count("compiling the bismarck kernels") == 1
        assert {"stage": "compiling", "game": "bismarck"} in heard
    finally:
        X.set_compile_hook(before)


def test_precision_mode_says_once_how_long_a_long_run_will_take(capsys):
    # a new user's --precision 0.01 on a score ran minutes in silence: after a look that falls short, where the
    # rest would take over 20 s at the speed so far, one line gives the trials the spread asks for and the time
    plan = driver._Plan(None, 0.01, 1000, 10**6, *driver.split_seed(0), None)
    assert not driver._say_how_long(SPEC, 4, 0.04, 0.01, plan, per_chunk=0.1)  # 60 chunks more: 6 s
    assert capsys.readouterr().err == ""
    assert driver._say_how_long(SPEC, 4, 0.04, 0.01, plan, per_chunk=2.0)  # 2 min
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "needs about 64,000 trials" in err and "about 2 min more" in err
    # a look with no row measured yet (every interval empty: an infinite half-width) projects nothing
    assert not driver._say_how_long(SPEC, 4, float("inf"), 0.01, plan, per_chunk=2.0)


def test_a_specs_small_chunks_do_not_make_precision_mode_look_sooner():
    """A spec's own small chunks (search and solver players) spread the work over the threads; precision mode
    still looks first after as many trials as one default chunk (a review found a PIMC compare stopping after 4
    trials, where a difference with no spread yet reads ±0). The same with that chunk size given (a review
    found `--chunk-size 16` stopping at 32 trials where the default stopped at 4,096, both metas saying 16); a
    review's many small runs ask to look after every chunk."""
    small = dataclasses.replace(SPEC, chunk_size=16)
    r = driver.run(small, precision=0.5, seed=1, progress=False)
    assert r.meta["chunk_size"] == 16 and r.meta["trials"] == driver.DEFAULT_CHUNK_SIZE
    given = driver.run(small, precision=0.5, seed=1, chunk_size=16, progress=False)
    assert given.rows() == r.rows() and given.meta["trials"] == r.meta["trials"]
    assert driver.run(SPEC, precision=0.5, seed=1, chunk_size=16, progress=False).rows() == r.rows()
    every = driver.run(small, precision=0.5, seed=1, progress=False, look_every_chunk=True)
    assert every.meta["trials"] == 16


def test_solve_says_when_it_compiles(monkeypatch):
    """`cardlab solve` calls the double-dummy kernels itself, not through the driver: a cold first solve (about
    20 s) says it is compiling too (a new user's sat 20 s with nothing on the screen). The note is asked for the
    kernel the solve then runs (the note's printing: the test above), before any kernel is called."""
    import analysis.games.bismarck as bm
    from kernels import dd as DD

    class Asked(Exception):
        pass

    calls = []

    def note(game, kernel, say=True):
        calls.append((game, kernel))
        raise Asked

    monkeypatch.setattr(bm, "compile_note", note)
    for deal, hands, every, kernel in (
        ("bridge", "AS KS|QS JS|TS 9S|8S 7S", True, DD.card_values_4),
        ("bismarck", "AS KS 2H|QS JS 3H|TS 9S AH", False, DD.solve_3),
    ):
        with pytest.raises(Asked):
            bm.solve_table(deal, hands, leader=0, player=1, every_card=every)
        assert calls[-1] == (deal, kernel)


def test_compile_ahead_hands_cold_kernels_to_one_helper_and_a_run_waits_for_it(monkeypatch):
    """analysis.compile_ahead: a helper process only for kernels not cached yet, once a kernel; the driver waits
    until the helper has saved such a kernel before running it; the helper runs each job's spec for a few trials,
    and stops at a job that fails (the command then compiles the rest)."""
    import kernels._jit
    from analysis import compile_ahead as ca

    job = (SPEC.kernel, "analysis.games.bisko_bobo", "simulation_spec", [4], {"strategies": ["random"]})
    monkeypatch.setattr(ca, "_pending", {})
    monkeypatch.setattr(ca, "_helpers", [])  # this process's exit stops no helper of this test
    monkeypatch.setattr(ca, "_cores", lambda: 2)  # where a helper could run: only the variable says no
    monkeypatch.setenv("CARDLAB_COMPILE_AHEAD", "1")
    assert ca.enabled()
    for off in ("0", "false", "Off", " no "):  # "0" is the test suite's setting (conftest)
        monkeypatch.setenv("CARDLAB_COMPILE_AHEAD", off)
        assert ca.start([job]) is None and not ca.enabled()
    monkeypatch.setenv("CARDLAB_COMPILE_AHEAD", "1")
    monkeypatch.setattr(ca, "_cores", lambda: 1)
    assert ca.start([job]) is None  # one core: nothing to gain
    monkeypatch.setattr(ca, "_cores", lambda: 2)
    monkeypatch.setattr(kernels._jit, "is_cached", lambda d: True)
    assert ca.start([job]) is None  # cached already

    launched: list = []
    saved: list = []  # the helper has saved the kernel

    class Proc:  # the helper, not started: its command line is kept; it saves the kernel once looked at
        def __init__(self, argv, **_kw):
            launched.append(argv)

        def poll(self):
            saved.append(True)
            return None  # still at work (on later kernels)

        def kill(self):
            pass

    monkeypatch.setattr(kernels._jit, "is_cached", lambda d: bool(saved))
    monkeypatch.setattr(ca.subprocess, "Popen", Proc)
    helper = ca.start([job, job])
    assert helper is not None and helper.kernels == [SPEC.kernel] and len(launched) == 1
    assert launched[0][1:3] == ["-m", "analysis.compile_ahead"]
    assert ca.start([job]) is None  # its helper is at it already
    driver.run(SPEC, trials=64, progress=False)  # waits until the helper has saved the kernel, then runs
    assert saved and SPEC.kernel not in ca._pending
    assert ca.main([launched[0][-1]]) == 0  # the helper's work, here in this process
    wrong = [("kernels.bisko_bobo:compare_chunks", *job[1:])]  # a job naming another kernel than its spec's
    assert ca.main([json.dumps(wrong)]) == 1
    called = [("kernels.bisko_bobo:x", "analysis.games.bisko_bobo", "high_deck", [4], {})]  # no spec: called alone
    assert ca.main([json.dumps(called)]) == 0


def test_the_bisko_bobo_reports_compile_ahead_jobs_name_their_specs_kernels():
    """Each job of the report's helper names the kernel its spec runs (a job naming another would compile
    something the command never waits for); the review's job is checked in test_bisko_bobo_review."""
    from analysis.compile_ahead import _spec
    from analysis.driver import _load_kernel
    from analysis.sections.bisko_bobo import COMPILE_AHEAD

    for job in COMPILE_AHEAD:
        _load_kernel(job[0])  # a kernel that exists
        if job[2].endswith("_spec") and job[2] != "reviewed_spec":
            assert _spec(job).kernel == job[0]


def test_a_quick_precision_run_is_not_told_it_will_take_long(capsys):
    """The projection waits for a second of timed work: from the first small batches (mostly their overhead) a
    Bisko-Bobo run at ±0.0005 that took 1.3 s had been told 'about 25 s more'."""
    from analysis import games

    spec = games.get("bisko-bobo").simulation_spec()
    t0 = time.perf_counter()
    res = driver.run(spec, precision=0.001, seed=1, progress=True)
    took = time.perf_counter() - t0
    err = capsys.readouterr().err
    assert res.meta["precision_reached"]
    if took < 20:  # a machine this slow would rightly be told
        assert "needs about" not in err, err


def test_a_paired_measure_is_found_by_its_bare_name_and_only_where_one_fits():
    """compare's and the card value's measures carry an affix (challenger_minus_field, value_of_holding): the bare
    name finds the one table name it stands for; a name of the table itself, or a bare name two names share, or
    none, is left as given (and refused later as unknown)."""
    from analysis.tables import bare_measure, measure_alias

    names = ["challenger_minus_field_win", "challenger_minus_field_score", "challenger_minus_field_score_won"]
    assert measure_alias("score", names) == "challenger_minus_field_score"  # not score_won
    assert measure_alias("score_won", names) == "challenger_minus_field_score_won"
    assert measure_alias("challenger_minus_field_win", names) == "challenger_minus_field_win"
    assert measure_alias("tricks", ["tricks_challenger_minus_field"]) == "tricks_challenger_minus_field"
    assert measure_alias("win", ["value_of_holding_win", "value_of_holding_score"]) == "value_of_holding_win"
    assert measure_alias("win", ["value_of_holding_win", "challenger_minus_field_win"]) == "win"  # two fit: none
    assert measure_alias("nosuch", names) == "nosuch"
    assert bare_measure("challenger_minus_field") == "challenger_minus_field"  # Bisko-Bobo's: no bare name
