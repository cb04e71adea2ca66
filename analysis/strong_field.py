"""The report's main findings re-measured with a strong field: ``cardlab strong-field GAME``.

Searching players are slow, so these tables are not computed by ``make report``: a separate, long command runs
each of the game's measurements (:func:`analysis.sections.<game>.strong_field_runs`), checkpointed run by run so
an interrupted computation resumes where it stopped with the same result, and stores the tables with their
provenance (seed, sizes, players, cardlab version, seconds each run took) in ``seeds/<game>-strong-field.json``.
The report's "with a strong field" section renders that file beside the figures of the built-in players.

The stored file is written again after each run, so a computation that takes several sittings shows what it has
finished; a run already stored with the same field, seed and scale is kept, not computed again (``fresh``
recomputes it), so the long measurements (``--long``) can be added to a file without repeating the others.
"""

from __future__ import annotations

import datetime
import json
import math
import os
import platform
import shutil
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from . import __version__
from .errors import CardlabError, Interrupted, SaveFailed
from .outputs import check_file, write_text
from .rules import seeds_dir
from .tables import summary_table

FORMAT = 1
DEFAULT_CHECKPOINT_DIR = ".cardlab-strong-field"
#: the chunk size of a strong-field run: small, since a searching game takes tens of milliseconds, so that two
#: threads share the work evenly and a checkpoint is saved every few seconds
CHUNK_SIZE = 64


@dataclass(frozen=True)
class StrongRun:
    """One measurement: ``key`` names it in the stored file, ``spec`` is the kernel spec, ``trials`` its size at
    scale 1, ``keep`` selects the rows stored (None: every row). Its seed is the command's plus ``seed_offset``:
    the offset of the report's run it re-measures, so that both play the same deals (a deal is a function of
    the seed and the trial number), and runs with one offset share their deals."""

    key: str
    spec: Any
    trials: int
    seed_offset: int
    keep: Any = None
    #: a long measurement (hours, not minutes): computed only when asked for (``--long``)
    long: bool = False
    #: trials a chunk (the unit of a checkpoint, and the most a run is ever below its size); smaller than
    #: CHUNK_SIZE where a trial takes seconds, so that Ctrl-C and the checkpoints stay within minutes
    chunk: int = CHUNK_SIZE


def stored_path(game_id: str) -> Path:
    return seeds_dir() / f"{game_id}-strong-field.json"


def stored(game_id: str) -> dict | None:
    """The stored strong-field tables of a game (``runs[key]["table"]`` as a DataFrame), or None if none are
    stored."""
    path = stored_path(game_id)
    if not path.exists():
        return None
    doc = json.loads(path.read_text(encoding="utf-8"))
    for r in doc["runs"].values():
        r["table"] = pd.DataFrame(r["table"])
    return doc


def games() -> list[str]:
    """The games whose report section module has strong-field measurements (``strong_field_runs``)."""
    from . import games as registry
    from . import sections

    return [g for g in registry.game_ids() if hasattr(sections.module(g), "strong_field_runs")]


def _sections(game_id: str):
    from . import sections

    if game_id not in games():
        raise CardlabError(f"no strong-field measurements for {game_id!r}; accepted: {', '.join(games())}")
    return sections.module(game_id)


def default_field(game_id: str) -> str:
    """The strong players' strategy of ``game_id`` when ``--field`` is not given."""
    return _sections(game_id).STRONG_FIELD


def compute(
    game_id: str,
    *,
    field: str | None = None,
    scale: float = 1.0,
    seed: int = 2026,
    checkpoint_dir: str | os.PathLike = ".cardlab-strong-field",  # DEFAULT_CHECKPOINT_DIR
    write: str | os.PathLike | None = None,
    progress: bool = True,
    long: bool = False,
    fresh: bool = False,
) -> Path:
    """Run every strong-field measurement of ``game_id`` (each checkpointed in ``checkpoint_dir``) and store the
    tables in ``write`` (default :func:`stored_path`); returns the path written. ``field`` is the strong
    players' strategy name (the game's default when None); ``long``: the long measurements too
    (:attr:`StrongRun.long`).

    A file holds one computation (a game, field, seed and scale). A run it already holds at the same size, seed
    and spec is kept, unless ``fresh`` (then this call's runs are computed again, from the start); the runs this
    call does not compute (the long ones, without ``long``) stay in it. A file holding another computation is
    refused, not replaced: its runs may have taken hours."""
    from .driver import run

    if not (math.isfinite(scale) and scale > 0):
        raise CardlabError(f"bad --scale {scale}: expected a positive number such as 0.05 or 1")
    mod = _sections(game_id)
    field = field or default_field(game_id)
    try:
        every = mod.strong_field_runs(field)  # the specs check the strategy name before anything runs
    except CardlabError as e:
        raise CardlabError(f"bad --field: {e}") from None
    if long and not any(r.long for r in every):
        with_long = [g for g in games() if any(r.long for r in _sections(g).strong_field_runs(default_field(g)))]
        raise CardlabError(f"no long measurements for {game_id!r}; --long is for: {', '.join(with_long)}")
    plan = [r for r in every if long or not r.long]
    out = Path(write) if write is not None else stored_path(game_id)
    check_file(out, "--write")
    me = {"game": game_id, "field": field, "seed": seed, "scale": scale}
    _stored_runs(out, me)  # refuses a file of another computation before any work
    # one folder a computation: a different field, seed or scale never meets another's checkpoints
    folder = Path(checkpoint_dir) / f"{game_id}-{field.replace(':', '_')}-seed{seed}-scale{scale:g}"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise CardlabError(f"cannot make the checkpoint folder {str(folder)!r}: {e.strerror}") from None
    # each run's seconds, added up over the invocations that worked on it (kept beside the checkpoints)
    times_path = folder / "seconds.json"
    spent: dict[str, float] = {}
    try:
        spent = {str(k): float(v) for k, v in json.loads(times_path.read_text()).items()}
    except (OSError, ValueError, AttributeError):  # none yet, or cut short by a crash: the times restart
        pass
    if fresh:  # from the start: this call's checkpoints and seconds go too
        for r in plan:
            (folder / f"{r.key}.ckpt").unlink(missing_ok=True)
            spent.pop(r.key, None)
    for i, r in enumerate(plan):
        trials = max(r.chunk, int(r.trials * scale))
        run_seed = seed + r.seed_offset
        describe = _plain(r.spec.describe)
        fingerprint = r.spec.fingerprint()
        kept = None if fresh else _stored_runs(out, me).get(r.key)
        # kept only with the plan's fingerprint: a describe alone can stay the same while what it names changes
        # (``search:250`` became another player when the search's default changed, 2026-12-07)
        if kept is not None and (
            (kept["trials"], kept["seed"], kept["describe"]) == (trials, run_seed, describe)
            and kept.get("fingerprint") == fingerprint
        ):
            if progress:
                print(f"[{i + 1}/{len(plan)}] {r.key}: kept from {out} (--fresh computes it again)", flush=True)
            continue
        ckpt = folder / f"{r.key}.ckpt"
        if progress:
            again = " (resuming from its checkpoint)" if ckpt.exists() else ""
            print(f"[{i + 1}/{len(plan)}] {r.key}: {trials:,} trials{again}", flush=True)
        t0 = time.perf_counter()
        stop = threading.Event()

        def so_far(key=r.key, t0=t0):
            return {**spent, key: spent.get(key, 0.0) + time.perf_counter() - t0}

        # the seconds so far, saved while the run goes on: a process killed outright loses little of its time
        ticking = threading.Thread(target=_tick, args=(stop, times_path, so_far), daemon=True)
        ticking.start()
        try:
            res = run(r.spec, trials=trials, seed=run_seed, chunk_size=r.chunk, checkpoint=ckpt, progress=progress)
        except Interrupted as e:
            before = f"the {i} before it are in {str(out)!r}; " if i else ""
            kept_ckpt = f"its finished chunks are in {str(folder)!r}; " if ckpt.exists() else ""
            said = str(e).removesuffix(", run the same command to resume")  # said once, at the end
            raise Interrupted(
                f"{said} (measurement {i + 1} of {len(plan)}, {r.key}); {before}{kept_ckpt}run the same command to "
                "resume",
                e.exit_code,
            ) from None
        finally:
            stop.set()
            ticking.join()
            spent = so_far()
            _save_seconds(times_path, spent)
        table = res.table if r.keep is None else r.keep(res.table)
        one = {
            "trials": trials,
            "seed": run_seed,
            "seconds": round(spent[r.key], 1),
            "describe": describe,
            "fingerprint": fingerprint,
            **_where(),
            "command": _command(me, r.long),
            "table": json.loads(table.to_json(orient="records")),
        }
        _write(out, me, every, {r.key: one})  # what is finished is stored, run by run
        ckpt.unlink(missing_ok=True)  # its work is in the stored file now
    shutil.rmtree(folder, ignore_errors=True)  # every run is in the stored file (checkpoints and seconds)
    if str(checkpoint_dir) == DEFAULT_CHECKPOINT_DIR:
        try:
            folder.parent.rmdir()  # the default folder, if nothing else is in it
        except OSError:
            pass
    return out


#: how often a running measurement's seconds so far are saved
TICK_SECONDS = 60.0


def _tick(stop: threading.Event, path: Path, so_far) -> None:
    while not stop.wait(TICK_SECONDS):
        _save_seconds(path, so_far())


def _save_seconds(path: Path, spent: dict) -> None:
    try:
        write_text(path, json.dumps(spent))
    except (OSError, CardlabError, SaveFailed):  # provenance: losing it must not hide how the run ended
        pass


def _where() -> dict:
    """Where and when a run was computed (stored with each run: a file gathers runs of several sittings)."""
    return {
        "cardlab": __version__,
        "computed": datetime.date.today().isoformat(),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, NUMBA_NUM_THREADS={_threads()}",
    }


def _stored_runs(path: Path, me: dict) -> dict:
    """The runs stored in ``path`` (read now: another process may have added some), each with its provenance
    (``cardlab``, ``computed``, ``machine``; a file written before runs carried theirs lends its own). Nothing
    for a missing file; a file of another computation (``me``: game, field, seed, scale) is refused."""
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as e:
        raise CardlabError(f"cannot read the stored tables {str(path)!r} ({e}); move it away to compute anew") from None
    theirs = {k: doc.get(k) for k in me}
    if doc.get("format") != FORMAT or theirs != me:
        what = ", ".join(f"{k} {v}" for k, v in theirs.items())
        raise CardlabError(
            f"{str(path)!r} holds the tables of another computation ({what}); give --write FILE to store this one "
            "elsewhere, or move that file away to replace it"
        )
    return {
        k: {key: doc.get(key) for key in ("cardlab", "computed", "machine", "command")} | v
        for k, v in doc["runs"].items()
    }


def _command(me: dict, long: bool) -> str:
    return f"cardlab strong-field {me['game']} --field {me['field']} --scale {me['scale']:g} --seed {me['seed']}" + (
        " --long" if long else ""
    )


def _write(out: Path, me: dict, every: list, new: dict) -> None:
    """Store the ``new`` runs with those the file holds now: the game's measurements (``every``) in their order,
    then any others the file held."""
    done = _stored_runs(out, me) | new
    keys = [r.key for r in every]
    runs = {k: done[k] for k in [k for k in keys if k in done] + [k for k in done if k not in keys]}
    long = any(r.long and r.key in runs for r in every)
    doc = {
        "format": FORMAT,
        **me,
        **_where(),  # of the last run stored; each run has its own
        "seconds": round(sum(v["seconds"] for v in runs.values()), 1),
        "note": "seconds: each run's wall time (compiling included), added up over the invocations that worked on "
        "it; cardlab, computed, machine and command: the last run's (each run has its own)",
        "command": _command(me, long),
        "runs": runs,
    }
    write_text(out, json.dumps(doc, indent=1) + "\n")


def _threads() -> int:
    import numba

    return int(numba.config.NUMBA_NUM_THREADS)


def _plain(x):
    """A spec's description as JSON values (numpy scalars and tuples made plain)."""
    if isinstance(x, dict):
        return {str(k): _plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    if hasattr(x, "item"):
        return x.item()
    return x


#: what the ``changes`` column of :func:`side_by_side` (and :func:`change`) says
CHANGES_LEGEND = (
    "changes: 'sign' where both are separated from 0 with opposite signs, 'separated' where the intervals do not "
    "overlap"
)


def show(game_id: str, path: str | os.PathLike | None = None) -> str:
    """``cardlab strong-field GAME --show [FILE]``: a stored computation's tables as text, each run with its size,
    seed and time, after the file's provenance (default file: the one the report shows)."""
    from .outputs import read_json

    where = Path(path) if path is not None else stored_path(game_id)
    if not where.exists():
        raise CardlabError(
            f"no stored strong field at {str(where)!r}"
            + (f": `cardlab strong-field {game_id}` computes it" if path is None else "")
        )
    doc = read_json(str(where), f"the strong-field file {str(where)!r}")
    if not isinstance(doc, dict) or doc.get("game") != game_id or not isinstance(doc.get("runs"), dict):
        raise CardlabError(f"{str(where)!r} is not a stored {game_id} strong field (cardlab strong-field writes one)")
    lines = [
        f"{where}: {game_id}, field {doc.get('field')}, seed {doc.get('seed')}, scale {doc.get('scale')}",
        provenance(doc),
    ]
    for key, run in doc["runs"].items():
        table = pd.DataFrame(run.get("table") or [])
        lines += ["", f"{key}: {run['trials']:,} trials, seed {run['seed']}, {run['seconds']:.0f} s"]
        if not len(table):
            lines.append("(no rows)")
            continue
        # JSON gives keys (a seat, a point count) back as floats: whole numbers again for the text view
        for c in table.columns:
            x = table[c]
            if c not in ("estimate", "ci_low", "ci_high") and x.dtype.kind == "f" and ((x.dropna() % 1) == 0).all():
                table[c] = x.astype("Int64")
        lines.append(summary_table(table, list(dict.fromkeys(table["measure"]))).to_string(index=False))
    return "\n".join(lines)


def not_computed(game_id: str, title: str):
    """The strong-field section of a report whose game has no stored tables yet."""
    from .report import Section

    return Section(
        title,
        f"Not computed yet: `cardlab strong-field {game_id}` measures it (its --help says how long) and stores "
        f"seeds/{game_id}-strong-field.json, which the report then shows here.",
    )


def budget_words(field: str, default: int) -> str:
    """ ", N rollouts a play against the default D" for a search field whose budget is not the player's default
    (a stored run's budget is chosen for its time; a reader had matched it with the default's figures), else ""."""
    name, _, rest = field.partition(":")
    budget = rest.partition(":")[0]
    if name != "search" or not budget.isdigit() or int(budget) == default:
        return ""
    return f", {int(budget):,} rollouts a play against the player's default {default:,}"


def provenance(doc: dict, keys=None) -> str:
    """Where a stored strong field came from, in one sentence: the command, the dates, versions and machines of
    its runs, and each run's time (of the runs named in ``keys``, every run when None)."""
    runs = {k: v for k, v in doc["runs"].items() if keys is None or k in keys}
    took = ", ".join(f"{k} {v['seconds']:.0f} s" for k, v in runs.items())
    seconds = sum(v["seconds"] for v in runs.values())
    spent = f"{seconds / 3600:.1f} h" if seconds >= 5400 else f"{seconds / 60:.0f} min"

    def each(field: str, quote: str = "", sep: str = " and ") -> str:  # a file written before runs carried
        values = sorted({str(v.get(field) or doc.get(field)) for v in runs.values()})  # their own: the file's
        return sep.join(f"{quote}{x}{quote}" for x in values)

    return (
        f"Stored by {each('command', '`')} on {each('computed')} (cardlab {each('cardlab')}, "
        f"on {each('machine', sep='; and on ')}; "  # each machine is a comma list itself
        f"{spent}: {took}); seeds/{doc['game']}-strong-field.json has every row."
    )


def side_by_side(
    today: pd.DataFrame, strong: pd.DataFrame, on: list[str], labels: tuple[str, str] = ("today", "strong")
) -> pd.DataFrame:
    """Rows of ``today`` and ``strong`` matched on the columns ``on``: each side's estimate and interval, and
    ``changes``: "sign" where both are separated from 0 with opposite signs, "separated" where the intervals do
    not overlap, else ""."""
    cols = ["estimate", "ci_low", "ci_high"]
    a = today[on + cols].rename(columns={c: f"{c}_{labels[0]}" for c in cols})
    b = strong[on + ["trials"] + cols].rename(columns={c: f"{c}_{labels[1]}" for c in cols + ["trials"]})
    t = a.merge(b, on=on, how="inner")
    t0, t1 = labels

    t["changes"] = [
        change(r[f"ci_low_{t0}"], r[f"ci_high_{t0}"], r[f"ci_low_{t1}"], r[f"ci_high_{t1}"]) for _, r in t.iterrows()
    ]
    return t


def change(lo0: float, hi0: float, lo1: float, hi1: float) -> str:
    """How two intervals of one measure differ: "sign" where both exclude 0 on opposite sides, "separated" where
    they do not overlap, else ""."""
    if (lo0 > 0 and hi1 < 0) or (hi0 < 0 and lo1 > 0):
        return "sign"
    if lo1 > hi0 or lo0 > hi1:
        return "separated"
    return ""
