"""Reviews, shared by every game (``cardlab review``; ``../shared/design/positions.md``): loading a record and
checking its shape, judging each decision by the advisor, the review's table, its one-line summary, its chart
and its report sections. Each game supplies its record replay (the rules), the position each seat knew at each
decision and the advisor's spec for it.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np
import pandas as pd

from .driver import KernelSpec, notify, spec_compile_note
from .driver import run as run_spec
from .errors import CardlabError
from .tables import (
    Result,
    _fixed,
    blank_missing,
    header_text,
    leave_out_to_fit,
    left_out_note,
    prose,
    prose_width,
)

#: the review table's columns (a game may add its own after ``seat``)
COLUMNS = [
    "event", "seat", "hand", "on_table", "actions", "taken", "best", "verdict", "win_taken", "win_best",
    "score_taken", "score_best", "loss_win", "loss_win_low", "loss_win_high", "loss_score", "loss_score_low", "loss_score_high",
    "trials", "precision_reached",
]  # fmt: skip


def review_models(given: list[str] | None, recorded: list[str] | None, default: str) -> list[str]:
    """The models a review plays on: the record's players (``SEAT=NAME`` items, or names in seat order), with the
    ``--strategy`` items given applied over them (``SEAT=NAME`` replaces one seat, a bare ``NAME`` every seat);
    ``default`` for a record without players."""
    from .rules import strategy_items

    base = [x if "=" in str(x) else f"{s}={x}" for s, x in enumerate(recorded or [])]
    items = strategy_items(given) or []
    if any("=" not in x for x in items):  # a NAME for every seat: the recorded seats give way to it
        base = []
    return base + items or [default]


def load_record(path: str) -> dict:
    """A record document from a JSON file (its shape and rules are checked by the game's replay)."""
    from .outputs import read_json

    return read_json(path, f"the record {path!r}")


def example_record(name: str) -> dict:
    """A stored example record (``seeds/records/NAME``) as a document."""
    from .rules import seeds_dir

    return load_record(str(seeds_dir() / "records" / name))


def check_shape(doc: Any, game: str, schema: dict, event_forms: str) -> None:
    """The record's shape against its JSON schema, refused in one line (``event_forms`` lists the accepted
    events in words, for a malformed event)."""
    import jsonschema

    if isinstance(doc, dict) and doc.get("game") not in (None, game):
        raise CardlabError(f"this is a {doc['game']} record, not a {game} one")
    errors = list(jsonschema.Draft202012Validator(schema).iter_errors(doc))
    if errors:

        def place(e) -> tuple:  # the document's order: the first event wrong, not the one jsonschema likes best
            return tuple((0, p, "") if isinstance(p, int) else (1, 0, str(p)) for p in list(e.absolute_path)[:2])

        first = min(place(e) for e in errors)
        err = jsonschema.exceptions.best_match([e for e in errors if place(e) == first])
        path = list(err.absolute_path)
        if len(path) == 2 and path[0] == "events" and err.validator in ("oneOf", "additionalProperties", "required"):
            raise CardlabError(f"bad record: event {path[1]}: expected {event_forms}, got {json.dumps(err.instance)}")
        where = "/".join(str(p) for p in path) or "the document"
        raise CardlabError(f"bad record: {where}: {err.message}")


def judge(
    decisions: Iterable[tuple[int, dict, str, KernelSpec]],
    total: int,
    *,
    precision: float,
    seed: int,
    max_trials: int,
    chunk_size: int,
    threads: int | None,
    progress: bool,
) -> tuple[list[dict], int, int]:
    """Each decision ``(event index, position, action taken, the advisor's spec)`` run to ±``precision`` on the
    paired differences (or ``max_trials``); returns (the table's rows, the turns with one legal action, the
    sampled layouts in all)."""
    from tqdm.auto import tqdm

    # a bar on a terminal only, as the driver's (a pipe or a log would keep its carriage returns)
    show = progress and sys.stderr.isatty()
    bar = tqdm(total=total, desc="decisions", unit="decision", disable=not show, leave=False, file=sys.stderr)
    rows = []
    forced = 0
    trials = 0
    for k, (i, pos, taken, spec) in enumerate(decisions):
        bar.update(1)
        notify(stage="decision", decision=k, decisions=total)
        names = spec.describe["actions"]
        if len(names) == 1:
            forced += 1
            continue
        if taken not in names:
            raise CardlabError(f"event {i}: the action taken ({taken}) is not among the advisor's ({names[:3]} ...)")
        if progress:  # the runs below are quiet: a cold first review said nothing while it compiled (27 s)
            spec_compile_note(spec)
        res = run_spec(
            spec, precision=precision, seed=seed, chunk_size=chunk_size, threads=threads, progress=False,
            look_every_chunk=True,
            max_trials=max_trials,
        )  # fmt: skip
        trials += int(res.meta["trials"])
        reached = bool(res.meta["precision_reached"])
        rows.append(decision_row(i, pos, taken, res.table, len(names), reached, bool(spec.describe.get("settled"))))
    bar.close()
    return rows, forced, trials


def decision_row(
    i: int, pos: dict, taken: str, t: pd.DataFrame, n_actions: int, reached: bool, settled: bool = False
) -> dict:
    """One row of the review: the action taken against the best (the advisor's table ``t``); the losses are
    zero where the taken action is not separated from the best at 95%. ``settled``: a Zheng Shangyou decision
    after the Winner went out, when the scores are taken (ZS-8): the advisor ranks it by the chance to end last
    (the Loser), and the row has that chance, taken and best, and ``loss_last`` (the taken action's chance minus
    the best's, paired, where its verdict is worse, else 0) with its 95% interval (``loss_last_low``,
    ``loss_last_high``)."""
    by = {(m, a): r for m, a, r in zip(t["measure"], t["action"], t.itertuples(index=False))}
    best = t[(t["measure"] == "win") & (t["verdict"] == "best")]["action"].iloc[0]
    if all(by[(m, taken)].estimate == by[(m, best)].estimate for m in (("last",) if settled else ("win", "score"))):
        best = taken  # tied in the ranking's sums: the taken action is as good as the first-listed best

    def loss(measure: str) -> tuple[float, float, float]:
        r = by[(measure, taken)]
        lo, hi = 0.0 - float(r.ci_high), 0.0 - float(r.ci_low)  # 0.0 - x: no -0.0 in the output
        est = 0.0 - float(r.estimate)
        return (0.0 if lo <= 0 <= hi else est), lo, hi  # not separated from the best: no loss

    lw, ls = loss("diff_win"), loss("diff_score")
    row = {
        "event": i,
        "seat": pos["seat"],
        "hand": pos["hand"],
        "on_table": f"{pos['current']} by {pos['by']}" if pos.get("current") else "lead",
        "actions": n_actions,
        "taken": taken,
        "best": best,
        "verdict": "best" if best == taken else by[("win", taken)].verdict,
        "win_taken": float(by[("win", taken)].estimate),
        "win_best": float(by[("win", best)].estimate),
        # the score too: Bismarck and Biscuits rank by it, and a verdict read beside the chances alone looked wrong
        "score_taken": float(by[("score", taken)].estimate),
        "score_best": float(by[("score", best)].estimate),
        "loss_win": lw[0],
        "loss_win_low": lw[1],
        "loss_win_high": lw[2],
        "loss_score": ls[0],
        "loss_score_low": ls[1],
        "loss_score_high": ls[2],
        "trials": int(by[("win", taken)].trials),
        "precision_reached": reached,
    }
    if "decision" in pos:
        row["decision"] = pos["decision"]
    if settled:
        # the taken action's chance to end last minus the best's, paired (diff_last): a loss where the verdict is
        # worse, which after the Winner is out means diff_last lies above 0 (advisor.tabulate_actions, rank_by="last")
        lt, lb = float(by[("last", taken)].estimate), float(by[("last", best)].estimate)
        d = by[("diff_last", taken)]
        row.update(last_taken=lt, last_best=lb, loss_last=float(d.estimate) if row["verdict"] == "worse" else 0.0,
                   loss_last_low=float(d.ci_low), loss_last_high=float(d.ci_high))  # fmt: skip
    for m in dict.fromkeys(t["measure"]):  # a game's own measures (Bismarck's tricks): taken and best
        if m not in ("win", "score", "last") and not m.startswith("diff_"):
            row[f"{m}_taken"] = float(by[(m, taken)].estimate)
            row[f"{m}_best"] = float(by[(m, best)].estimate)
    return row


def table(rows: list[dict]) -> pd.DataFrame:
    """The review's rows in :data:`COLUMNS`' order, a game's own columns (``decision``, its measures' taken and
    best values, ...) after them."""
    cols = list(COLUMNS)
    if rows and "decision" in rows[0]:
        cols.insert(2, "decision")
    extra = [k for k in dict.fromkeys(k for r in rows for k in r) if k not in cols]
    return pd.DataFrame(rows, columns=cols + extra)


def _singular(words: str) -> str:
    """One of ``words``: "forced passes" -> "forced pass", "forced cards" -> "forced card", "turns with one legal
    action" -> "turn with one legal action" (the plural noun first, where a phrase follows it)."""
    head, sep, tail = words.partition(" with ")
    noun = head[:-2] if head.endswith("sses") else head[:-1] if head.endswith("s") else head
    return noun + sep + tail


def summary(
    result: Result,
    forced_words: str = "forced passes",
    cost: str = "win",
    score_unit: str = "points",
    also: Callable[[pd.DataFrame], str] | None = None,
) -> str:
    """One line: how many decisions, how many clearly worse than the best, and what they cost (``cost``:
    ``"win"`` in percentage points of win chance, ``"score"`` in the game's points (``score_unit``), ``"share"``
    in percentage points of win share, the score being a share of the win). Each loss is measured against the
    best action at its own turn, so they add up as per-move losses do, not to what the game was worth. ``also``:
    words a game adds after a seat's sum, given that seat's clearly worse rows (Bismarck's tricks)."""
    t, m = result.table, result.meta
    who = "every seat" if m["seat"] is None else f"seat {m['seat']}"
    # decisions after the Winner went out (Zheng Shangyou, scores taken) cost no win chance: a clause of their own
    late = t["loss_last"].notna() if "loss_last" in t.columns else pd.Series(False, index=t.index)
    worse = t[(t["verdict"] == "worse") & ~late]
    one = _singular(forced_words) if m["forced"] == 1 else forced_words
    in_all = " in all" if m["seat"] is None else ""  # every seat's together, not each seat's
    text = f"{who}: {len(t)} decision{'s' if len(t) != 1 else ''}{in_all} ({m['forced']} {one} not counted)"
    if len(worse):
        col = "loss_win" if cost == "win" else "loss_score"
        scale, digits = (100, 1) if cost in ("win", "share") else (1, 2)
        unit = {"win": "percentage points of win chance", "share": "percentage points of win share"}.get(
            cost, score_unit
        )

        def figure(rows: pd.DataFrame) -> str:  # one seat's sum in words
            return f"{scale * rows[col].sum():.{digits}f} {unit}" + (also(rows) if also else "")

        # a seat's losses add up; different seats' chances do not, so every seat's review says each seat's sum
        if m["seat"] is None:  # every seat reviewed: each sum names its seat, even where only one seat lost
            what = ", ".join(f"{figure(rows)} for seat {s}" for s, rows in worse.groupby("seat"))
        else:
            what = figure(worse)
        at = int(worse.loc[worse[col].idxmax(), "event"])
        where = f"at event {at}" if at >= 0 else "before play"  # event -1: a choice before the first card
        if len(worse) == 1:
            text += f"; 1 clearly worse than the best ({where}), losing {what} against the best action"
        else:
            text += (
                f"; {len(worse)} clearly worse than the best, their losses summing to {what} (largest {where}; each "
                "against the best action at its own turn, so the sum measures the errors, not what the "
                f"{m.get('unit_word', 'game')} lost)"
            )
    else:
        text += "; none clearly worse than the best"
    if late.any():
        bad = t[(t["verdict"] == "worse") & late]
        n = int(late.sum())
        text += f"; {n} after the Winner went out, judged by the chance to end last (the Loser): " + (
            f"{len(bad)} clearly more likely to end last than the best, by {100 * bad['loss_last'].sum():.1f} "
            "percentage points of that chance in all"
            if len(bad)
            else "none clearly worse"
        )
    end = "" if m["over"] else f"; the record stops before the {m.get('unit_word', 'game')}'s end"
    return text + f"; against {', '.join(sorted(set(m['strategies'])))} models{end}"


#: the columns of the review's text view, in this order (csv, json and --all keep every column)
#: (the hand last: its cards beside the play on the table had read as one list; loss_score with its interval, the
#: verdict of Biscuits and Bismarck going by the score)
TEXT_COLUMNS = ["event", "seat", "decision", "on_table", "actions", "taken", "best", "verdict", "dd_taken",
                "dd_best", "tricks_taken", "tricks_best", "win_taken", "win_best", "score_taken", "score_best",
                "sole_win_taken", "loss_win", "loss_win_low", "loss_win_high", "loss_score", "loss_score_low",
                "loss_score_high", "last_taken", "last_best", "loss_last", "loss_last_low", "loss_last_high",
                "hand"]  # fmt: skip


def three_decimals(t):
    """The review's text view: sampled figures to 3 decimals (as its README); csv and json keep every digit."""
    out = t.copy()
    for c in out.columns:
        if pd.api.types.is_float_dtype(out[c]):
            out[c] = out[c].round(3)
    return out


def intervals_in_words(t, one_seat: bool, repeats: list[str]):
    """The review's text view: each ``X_low``, ``X_high`` pair as one column beside ``X``, "0.056 to 0.152" (two
    bare columns of bounds had made the table some 30 characters wider and read as two more figures); the seat's
    column left out in a review of one seat (``one_seat``: the summary opens with it); the columns a game says
    repeat the win columns by construction (``repeats``: Bisko-Bobo's score is the win share) and its chance to win
    outright where it equals the share in every row. csv, json and --all keep them all."""
    out = t.copy()
    if one_seat and "seat" in out:
        out = out.drop(columns="seat")
    drop = [c for c in repeats if c in out]
    drop += [f"{c}_{b}" for c in repeats for b in ("low", "high") if f"{c}_{b}" in out]
    if repeats and "sole_win_taken" in out and len(out) and out["sole_win_taken"].equals(out["win_taken"]):
        drop.append("sole_win_taken")
    out = out.drop(columns=drop)
    for base in [c for c in out.columns if f"{c}_low" in out and f"{c}_high" in out]:
        lo, hi = out.pop(f"{base}_low"), out.pop(f"{base}_high")
        text = ["" if pd.isna(a) or pd.isna(b) else f"{_fixed(a, 3)} to {_fixed(b, 3)}" for a, b in zip(lo, hi)]
        out.insert(out.columns.get_loc(base) + 1, f"{base} 95%", text)
    return out


def table_text(view) -> str:
    """A review's table as text: every figure to 3 decimals (pandas writes a column of round values as "0.0"
    beside "0.000"), two spaces before every column of words (a column of plays, "3D 4D 5D", beside another ran
    together with one space between them, so a play's end was not seen)."""
    wordy = {c: (lambda v: f" {v}") for c in view.columns if view[c].astype(str).str.contains(" ").any()}
    fixed = {
        c: (lambda v: "" if pd.isna(v) else f"{v:.3f}")
        for c in view.columns
        if pd.api.types.is_float_dtype(view[c]) and c not in wordy
    }
    return view.to_string(index=False, na_rep="", formatters={**fixed, **wordy})


#: the review's text columns a terminal too narrow for the table loses first, in this order (each kept in --all,
#: csv and json): the hand (the longest), the estimates the losses are differences of, the count of actions, then
#: the losses' intervals (a loss reads 0 where it is not separated from the best at 95%, so the loss alone still
#: says which decisions cost something); the decision, the actions taken and best, the verdict, the double-dummy
#: tricks and the losses stay (the loss the verdicts do not go by is the last to go)
FIT_ORDER = (
    ("hand",),
    ("score_taken", "score_best"),
    ("actions",),
    ("sole_win_taken",),
    ("last_taken", "last_best"),
    ("win_taken", "win_best"),
    ("tricks_taken", "tricks_best"),
    ("loss_win 95%", "loss_score 95%", "loss_last 95%"),
)


def fit_columns(view, width: int, secondary: str) -> tuple[Any, list[str], bool]:
    """The review's text view narrowed to ``width`` characters where it is wider (a review table ran to 180-250
    characters and wrapped into an unreadable block on a terminal), by :func:`~analysis.tables.leave_out_to_fit`
    over :data:`FIT_ORDER` and then the loss the verdicts do not go by (``secondary``: ``loss_win`` or
    ``loss_score``; the summary above the table still quotes it). Returns the view, the columns left out and
    whether it now fits."""
    if not len(view):
        return view, [], True
    groups = [[c for c in g if c in view.columns] for g in (*FIT_ORDER, (secondary,))]
    out, fits = leave_out_to_fit([g for g in groups if g], width, lambda out: table_text(view.drop(columns=out)))
    return (view.drop(columns=out) if out else view), [c for c in view.columns if c in out], fits


def blank_settled(t: pd.DataFrame) -> pd.DataFrame:
    """``t`` (review rows) with the win and score columns blank on Zheng Shangyou's rows after the Winner went out
    (``loss_last`` set): no action moves the chance to go out first then, nor, under ZS-8's default, the score,
    so those columns read 0 on every such row; the rows are judged by the chance to end last (the text's header
    and the report's intro say so). csv and json keep the zeros."""
    if "loss_last" not in t:
        return t
    out = t.copy()
    late = out["loss_last"].notna()
    out.loc[late, [c for c in out.columns if c.startswith(("win_", "score_", "loss_win", "loss_score"))]] = np.nan
    return out


def as_text(result: Result, width: int | None = None, every_column: bool = False) -> str:
    """The review as text (``cardlab review --format table``): the summary, the header lines, the table and, where
    columns were left out to fit, one line naming them. ``width``: a terminal's width (the table is fitted to it by
    :func:`fit_columns` and the prose wraps to it); None for a file or a pipe, which gets the whole view.
    ``every_column`` (--all): every column of the table, the interval bounds as columns of their own."""
    wrap = prose_width(width)
    # the summary is one sentence (json keeps it on one line); the text wraps it as a paragraph
    text = prose(result.meta["summary"], width=wrap) + "\n" + header_text(result.header_lines(), wrap) + "\n"
    if not len(result.table):
        return text + "(no decisions)\n"
    cols = list(result.table.columns) if every_column else [c for c in TEXT_COLUMNS if c in result.table.columns]
    with pd.option_context("display.max_rows", 5000, "display.width", 200, "display.max_columns", 50):
        view = three_decimals(result.table[cols])
        view = blank_settled(view)
        if not every_column:
            view = intervals_in_words(view, result.meta.get("seat") is not None, result.meta.get("repeats_win", []))
        view = blank_missing(view)  # a blank where a column does not apply (Zheng Shangyou's last_* before the Winner)
        note = ""
        if width:
            secondary = "loss_win" if result.meta.get("verdict_measure") == "score" else "loss_score"
            view, left_out, fitted = fit_columns(view, width, secondary)
            shows = "a wider window or --all shows them, --format csv or json every column"
            note = prose(left_out_note(left_out, fitted, width, shows), width=wrap) + "\n" if left_out else ""
        return text + table_text(view) + "\n" + note


def win_figure(result: Result, ylabel: str = "chance to go out first (%)"):
    """The seat's win chance through the game: the best action's and the taken action's, at each decision."""
    from .plots import new_figure

    t = result.table
    fig, ax = new_figure(7.0, 3.4)
    for s, part in t.groupby("seat"):
        label = f"seat {s}, best action" if t["seat"].nunique() > 1 else "best action"
        # markers only: the chances are measured at the seat's decisions, not between them
        ax.plot(part["event"], 100 * part["win_best"], marker="o", ms=4, ls="none", label=label)
        if t["seat"].nunique() == 1:
            ax.plot(part["event"], 100 * part["win_taken"], marker="x", ms=5, ls="none", label="action taken")
    worse = t[t["verdict"] == "worse"]
    if "loss_last" in t.columns:  # worse by the chance to end last (ZS after the Winner): not on this chart's scale
        late = worse["loss_last"].notna()
        if late.any():
            ax.scatter(worse.loc[late, "event"], 100 * worse.loc[late, "win_taken"], marker="s", facecolors="none",
                       edgecolors="darkorange", zorder=3, label="more likely to end last")  # fmt: skip
        worse = worse[~late]
    if len(worse):
        # a shape of its own (not a colour that a seat's could be): the taken action where clearly worse
        ax.scatter(worse["event"], 100 * worse["win_taken"], marker="X", s=45, color="black", zorder=3,
                   label="action taken, clearly worse")  # fmt: skip
    ax.set_xlabel("event in the record")
    ax.set_ylabel(ylabel)
    ax.set_ylim(-2, 102)
    who = "every seat" if result.meta["seat"] is None else f"seat {result.meta['seat']}"
    ax.set_title(f"{who}, against {', '.join(sorted(set(result.meta['strategies'])))} models")
    ax.legend(loc="best", fontsize=8)
    return fig


def sections(result: Result, summary_line: str, chart_title: str, ylabel: str, cols: list[str]):
    """The review as report sections (README.md, review.html and the chart, as ``cardlab report`` writes)."""
    from .report import Section

    return [
        Section("Summary", summary_line),
        Section(chart_title, figures=[lambda: win_figure(result, ylabel)]),
        Section(
            "Decisions", table=blank_settled(result.table[[c for c in cols if c in result.table.columns]]), digits=3
        ),
    ]


def result(
    game: str,
    rows: list[dict],
    *,
    players: int,
    variants: dict,
    strategies: list[str],
    seat: int | None,
    forced: int,
    events: int,
    over: bool,
    outcome: dict,
    precision: float,
    trials: int,
    seed: int,
    unit_word: str = "game",
) -> Result:
    """The review as a Result: the table of :func:`table` and its meta (the summary is the game's to add)."""
    from . import __version__

    meta = {
        "game": game,
        "command": "review",
        "players": players,
        "variants": variants,
        "strategies": strategies,
        "seat": seat,
        "decisions": len(rows),
        "forced": forced,
        "events": events,
        "over": over,
        "unit_word": unit_word,
        "result": outcome,
        "analysis": "review",
        "precision_target": precision,
        "precision_reached": all(r["precision_reached"] for r in rows),
        # Zheng Shangyou's decisions after the Winner went out, ranked by the chance to end last (its header's rule)
        "settled_decisions": sum(1 for r in rows if r.get("loss_last") is not None),
        "trials": trials,
        "seed": seed,
        "version": __version__,
    }
    return Result(table(rows), meta)
