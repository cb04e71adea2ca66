"""Tidy result tables and their writers.

Every simulation row has ``measure``, ``seat`` (None where the measure is not per seat), ``trials``, the
raw counts (``successes`` for events; ``total`` and ``total_sq`` for payoffs), ``estimate``,
``std_error``, ``ci_low`` and ``ci_high``. Run facts (timings, versions, seeds) live in the metadata, so
rows of the same seed compare equal whatever the backend.
"""

from __future__ import annotations

import io
import json
import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .errors import CardlabError, accepted
from .outputs import atomic_path
from .outputs import write_text as write_text_atomic
from .stats import mean_interval, wilson

FORMATS = ("table", "csv", "json")
ROW_COLUMNS = [
    "measure",
    "seat",
    "trials",
    "successes",
    "total",
    "total_sq",
    "estimate",
    "std_error",
    "ci_low",
    "ci_high",
]


def proportion_row(measure: str, seat: int | None, successes, trials, confidence: float = 0.95, **extra) -> dict:
    """One event row with a Wilson interval."""
    p, se, lo, hi = wilson(successes, trials, confidence)
    return {
        "measure": measure,
        "seat": seat,
        **extra,
        "trials": int(trials),
        "successes": int(successes),
        "estimate": float(p),
        "std_error": float(se),
        "ci_low": float(lo),
        "ci_high": float(hi),
    }


def mean_row(
    measure: str, seat: int | None, total, total_sq, trials, scale: float = 1.0, confidence: float = 0.95, **extra
) -> dict:
    """One payoff row: ``total`` and ``total_sq`` are integer sums in units of ``1/scale``."""
    t = float(total) / scale
    t2 = float(total_sq) / (scale * scale)
    m, se, lo, hi = mean_interval(t, t2, trials, confidence)
    return {
        "measure": measure,
        "seat": seat,
        **extra,
        "trials": int(trials),
        "total": t,
        "total_sq": t2,
        "estimate": float(m),
        "std_error": float(se),
        "ci_low": float(lo),
        "ci_high": float(hi),
    }


def fixed_by_rules(row: dict, value: float | None = None) -> dict:
    """``row`` (a pooled row whose value is fixed by the rules, not sampled: the seats' win shares of a game add to
    1, the scores to 0) with a zero-width interval at ``value`` (default its estimate). Its interval as a mean
    of seat-games, which are not independent within a game, had looked like a measurement of fairness."""
    v = row["estimate"] if value is None else float(value)
    row.update(estimate=v, std_error=0.0, ci_low=v, ci_high=v, _fixed=True)
    return row


def fixed_rows(table: pd.DataFrame) -> np.ndarray:
    """Which rows of a tabulate's table :func:`fixed_by_rules` made (``table.attrs["fixed"]``, which :func:`frame`
    sets; all false for a table that was filtered or built otherwise)."""
    flags = table.attrs.get("fixed")
    if flags is None or len(flags) != len(table):
        return np.zeros(len(table), dtype=bool)
    return np.frombuffer(bytes(flags), dtype=np.uint8).astype(bool)


def frame(rows: list[dict]) -> pd.DataFrame:
    """Rows to a DataFrame with the standard columns first and game-specific ones after ``seat``; the rows
    :func:`fixed_by_rules` made are listed in ``attrs["fixed"]``."""
    fixed = [bool(r.pop("_fixed", False)) for r in rows]
    df = pd.DataFrame(rows)
    extra = [c for c in df.columns if c not in ROW_COLUMNS]
    cols = ["measure", "seat"] + extra + [c for c in ROW_COLUMNS[2:] if c in df.columns]
    df = df[[c for c in cols if c in df.columns]]
    if "seat" in df.columns:
        df["seat"] = df["seat"].astype("Int64")
    # bytes, one a row: pandas deep-copies a frame's attrs at every operation on it, and a list of 905 bools (a
    # Bismarck simulation's rows) had made each jackknife replicate's tabulate cost ~30 ms, most of a small run
    df.attrs["fixed"] = bytes(fixed)
    return df


def _seats_text(strategies) -> str:
    """``greedy at every seat`` or ``0=random, 1=greedy, ...``."""
    names = list(strategies) if isinstance(strategies, (list, tuple)) else [str(strategies)]
    if len(set(map(str, names))) == 1:
        return f"{names[0]} at every seat"
    return ", ".join(f"{i}={n}" for i, n in enumerate(names))


def _clean(v: Any) -> Any:
    if isinstance(v, (np.integer,)):
        return int(v)
    if isinstance(v, (np.floating, float)):
        f = float(v)
        return None if math.isnan(f) else f
    if isinstance(v, np.bool_):
        return bool(v)
    if v is pd.NA or v is None:
        return None
    if isinstance(v, np.ndarray):
        return [_clean(x) for x in v.tolist()]
    if isinstance(v, dict):
        return {str(k): _clean(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_clean(x) for x in v]
    return v


_COUNT_COLUMNS = ("trials", "successes", "total", "total_sq", "std_error")


def _decimals(width: float) -> int:
    """Decimals that show an interval of this width to about two significant figures (2 to 6)."""
    if not math.isfinite(width) or width <= 0:
        return 4
    return int(min(6, max(2, 1 - math.floor(math.log10(width)))))


#: an advisor's or a review's verdict column, in words (odds --help, and the reports that show one)
VERDICT_WORDS = (
    "best; worse (clearly worse than the best at 95%); uncertain (not separated from the best at this size); "
    "equal (the best's outcome on every sampled layout, where every measure is paired)"
)


#: the actions an advisor's table shows by default, best first (``--all`` shows every one)
ADVISOR_ROWS = 12


#: the words a paired measure's name adds to the bare one (compare's difference, the value of holding a card)
PAIRED_AFFIXES = ("challenger_minus_field_", "_challenger_minus_field", "value_of_holding_")


def bare_measure(name: str) -> str:
    """A paired measure's name without its affix (``win`` for ``challenger_minus_field_win``), else itself."""
    for a in PAIRED_AFFIXES:
        if a.endswith("_") and name.startswith(a) and name != a:
            return name[len(a) :]
        if a.startswith("_") and name.endswith(a) and name != a:
            return name[: -len(a)]
    return name


def measure_alias(measure: str, names) -> str:
    """A measure as given, to the table's name: itself, or a paired measure's bare name (``win`` for
    ``challenger_minus_field_win``, ``tricks`` for ``tricks_challenger_minus_field``, ``score`` for
    ``value_of_holding_score``), as odds and simulate name theirs; unchanged where no one name fits."""
    if measure in names:
        return measure
    hits = [n for n in names if n != measure and bare_measure(n) == measure]
    return hits[0] if len(hits) == 1 else measure


def summary_table(table: pd.DataFrame, measures, meta: dict | None = None) -> pd.DataFrame:
    """The rows of ``measures`` (in their order) with their key columns, the estimate (and any other value
    columns) and its 95% interval as plain decimal text, to the decimals the interval's width warrants. Left
    out: the raw counts, columns empty in every row, and columns the header already states (one value,
    equal to ``meta``'s)."""
    meta = meta or {}
    keep = table[table["measure"].isin(measures)].copy()
    order = {m: i for i, m in enumerate(measures)}
    keep = keep.iloc[np.argsort([order[m] for m in keep["measure"]], kind="stable")]
    std = set(ROW_COLUMNS) | {"estimate", "ci_low", "ci_high", "challenger_trials"}

    def stated(c: str) -> bool:
        vals = keep[c].dropna().unique()
        return len(vals) == 1 and c in meta and str(meta[c]) == str(vals[0])

    extra = [c for c in keep.columns if c not in std and keep[c].notna().any() and not stated(c)]
    values = [c for c in extra if pd.api.types.is_float_dtype(keep[c])]
    keys = [c for c in extra if c not in values]
    cols = ["measure"] + (["seat"] if "seat" in keep and keep["seat"].notna().any() else []) + keys
    out = keep[cols].astype(object).where(keep[cols].notna(), "")
    ranked = meta.get("ranked_measure")
    if ranked and "verdict" in out:
        # an advisor's verdict is the action's, by the measure that ranks the actions: shown on that measure's rows
        # and its differences only (a "worse" beside a quota chance of 1.000, ranked by score, read as a contradiction)
        out.loc[~keep["measure"].isin([ranked, f"diff_{ranked}"]).to_numpy(), "verdict"] = ""
        if (out["verdict"] == "").all():  # only other measures asked for (--measure win): no verdict column
            out = out.drop(columns="verdict")
    label_pooled(out)
    lo, hi = (keep[c].to_numpy(dtype=float) for c in ("ci_low", "ci_high"))
    # one number of decimals per measure, so that its rows line up: the most any of its intervals warrants (an
    # interval of no width, as the best action's difference to itself, warrants none: 2 when all are such)
    need: dict[str, int] = {}
    for m, a, b in zip(keep["measure"], lo, hi, strict=True):
        if math.isfinite(b - a) and b > a:
            need[m] = max(need.get(m, 0), _decimals(b - a))
    # a value that would print as 0 at those decimals but is not 0 (a rare event's rate without an interval:
    # 0.00038 redeals a deal read as "0.00") gets two significant figures, up to 6 decimals
    for m, v, a, b in zip(keep["measure"], keep["estimate"].to_numpy(dtype=float), lo, hi, strict=True):
        d = need.get(m, 2)
        if math.isfinite(b - a):
            continue  # an interval sets the decimals: a value below them is within it
        if math.isfinite(v) and v != 0 and round(v, d) == 0:
            need[m] = max(d, min(6, 1 - math.floor(math.log10(abs(v)))))
    # a measure whose every interval has no width (a paired difference the rule never moved) shows its value columns
    # (field_value, challenger_value) to 4 decimals: 2 would read 0.2468 as 0.25
    digits = [need.get(m, 4 if values else 2) for m in keep["measure"]]

    def text(col: np.ndarray) -> list[str]:
        return ["" if math.isnan(v) else _fixed(v, d) for v, d in zip(col, digits, strict=True)]

    for c in values:
        out[c] = text(keep[c].to_numpy(dtype=float))
    out["estimate"] = text(keep["estimate"].to_numpy(dtype=float))
    out["95% interval"] = [
        "" if math.isnan(a) else f"{_fixed(a, d)} to {_fixed(b, d)}" for a, b, d in zip(lo, hi, digits, strict=True)
    ]
    return out.reset_index(drop=True)


def advisor_wide(table: pd.DataFrame, measures, meta: dict | None = None) -> pd.DataFrame | None:
    """An advisor's summary (:func:`summary_table`) one row per action, as the page shows it: the seat, the
    action, its verdict, then each measure's estimate and 95% interval side by side. In the long form every
    action came once per measure, so a Bismarck card took four rows and the estimate of one measure sat far from
    the paired difference its verdict goes by. None where the rows are not one per action and measure (several
    seats, another key): those keep the long form."""
    long = summary_table(table, measures, meta)
    if "action" not in long or not len(long):
        return None
    if set(long.columns) - {"measure", "seat", "action", "verdict", "estimate", "95% interval"}:
        return None
    if ("seat" in long and long["seat"].nunique() > 1) or long.duplicated(["measure", "action"]).any():
        return None
    actions = list(dict.fromkeys(long["action"]))
    names = (["seat"] if "seat" in long else []) + ["action"] + (["verdict"] if "verdict" in long else [])
    cells: dict[str, dict] = {}
    for m in dict.fromkeys(long["measure"]):
        rows = long[long["measure"] == m].set_index("action")
        names += [m, "95% interval"]
        cells[m] = {a: (rows.at[a, "estimate"], rows.at[a, "95% interval"]) for a in rows.index}
    verdict = {}
    if "verdict" in long:  # the ranked measure's rows carry it (summary_table blanks the others)
        for a, v in zip(long["action"], long["verdict"], strict=True):
            if v and a not in verdict:
                verdict[a] = v
    seat = long["seat"].iloc[0] if "seat" in long else None
    out = []
    for a in actions:
        row = ([seat] if seat is not None else []) + [a] + ([verdict.get(a, "")] if "verdict" in long else [])
        for m in cells:
            row += list(cells[m].get(a, ("", "")))
        out.append(row)
    return pd.DataFrame(out, columns=names)


#: the width prose in table output wraps to (a header line, an answer, a note under a table): a terminal wraps a
#: longer line in the middle of a word
PROSE_WIDTH = 110


def prose(text: str, indent: str = "", width: int = PROSE_WIDTH) -> str:
    """``text`` wrapped to ``width`` characters at spaces (a long word or flag stays whole), each of its own lines
    on its own (a list stays a list); ``indent`` starts each line after the first of a wrapped one (a header line's
    continuation, so that it does not read as a line of its own)."""
    import textwrap

    def one(line: str) -> str:
        # a line's continuation under its own text: its indentation, past a list item's "- " marker
        lead = line[: len(line) - len(line.lstrip(" "))]
        under = lead + ("  " if line.lstrip(" ").startswith("- ") else "")
        return textwrap.fill(
            line,
            width=width,
            initial_indent="",
            subsequent_indent=max(under, indent, key=len),
            break_long_words=False,
            break_on_hyphens=False,
            drop_whitespace=True,
        )

    # textwrap drops a line's leading spaces where it wraps none; a short line is kept as it is
    return "\n".join(line if len(line) <= width else one(line) for line in text.split("\n"))


def prose_width(width: int | None) -> int:
    """The width prose wraps to: a terminal's (``width``) where narrower than :data:`PROSE_WIDTH`."""
    return min(width, PROSE_WIDTH) if width else PROSE_WIDTH


def note(text: str) -> None:
    """A note to the user on stderr, "cardlab: " before it: on a terminal wrapped at spaces to its width (at most
    :data:`PROSE_WIDTH`), the continuation indented (a compile note of 189 characters had broken mid-word); to a
    file or a pipe one line, a note a line. Errors are not notes: they stay one line, "cardlab: error: ..."."""
    import sys

    if sys.stderr is None:  # no stderr (pythonw): nowhere to say it
        return
    line = f"cardlab: {text}"
    if sys.stderr.isatty():
        line = prose(line, indent="  ", width=prose_width(terminal_columns(sys.stderr)))
    print(line, file=sys.stderr, flush=True)


def terminal_columns(stream) -> int:
    """The width of the terminal ``stream`` goes to (``COLUMNS`` where set; at least 60): the table's width for
    stdout, the notes' for stderr (stdout may go to a file while the notes go to the terminal)."""
    try:
        columns = int(os.environ.get("COLUMNS", ""))
    except ValueError:
        try:
            columns = os.get_terminal_size(stream.fileno()).columns
        except (OSError, ValueError, AttributeError):
            columns = 80
    return max(60, columns)


def text_width(text: str) -> int:
    """The longest line of ``text``, in characters."""
    return max(map(len, text.splitlines()), default=0)


def leave_out_to_fit(groups: list[list[str]], width: int, text_of) -> tuple[list[str], bool]:
    """Which columns (or measures) a table leaves out to fit ``width`` characters (a terminal's): ``groups`` in the
    order they go, the least needed first; ``text_of(left_out)`` the table's text without those. Groups go one by
    one until it fits; then a group that went before the last one comes back where it fits beside what is left
    (a narrow one left out early, once a wide one is out). Returns the names left out and whether the table fits
    (where it does not, they stay out: a narrower table wraps less)."""
    out: list[str] = []
    dropped: list[list[str]] = []
    for group in groups:
        if text_width(text_of(out)) <= width:
            break
        out += group
        dropped.append(group)
    for group in reversed(dropped[:-1]):  # the most needed first
        back = [x for x in out if x not in group]
        if text_width(text_of(back)) <= width:
            out = back
    return out, text_width(text_of(out)) <= width


def left_out_note(left_out: list[str], fits: bool, width: int, shows: str) -> str:
    """The line under a table fitted to a terminal: what it left out, whether it fits now, and what ``shows`` the
    rest."""
    why = (
        "to fit the terminal's width"
        if fits
        else f"for the terminal's width (the table is still wider than its {width} columns)"
    )
    return f"({and_list(left_out)} left out {why}: {shows})"


def and_list(words: list[str]) -> str:
    """ "a", "a and b", "a, b and c"."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def header_text(lines: list[str], width: int = PROSE_WIDTH) -> str:
    """A result's header lines (:meth:`Result.header_lines`) as text, each wrapped, its continuation indented."""
    return "\n".join(prose(line, indent="  ", width=width) for line in lines)


def text_columns(t: pd.DataFrame, gap: int = 2) -> str:
    """A table of text cells as plain text, each column right-aligned under its name and ``gap`` spaces apart
    (``to_string`` puts one space between columns, and a row of intervals then ran together: "3.00 2.73 to 3.27")."""
    cols = [[str(c)] + [str(x) for x in t.iloc[:, i]] for i, c in enumerate(t.columns)]
    widths = [max(len(x) for x in col) for col in cols]
    return "\n".join(
        (" " * gap).join(col[r].rjust(w) for col, w in zip(cols, widths, strict=True)).rstrip()
        for r in range(len(t) + 1)
    )


def _fixed(v: float, d: int) -> str:
    """``v`` to ``d`` decimals, never "-0.00"; a value that rounds to 0 but is not, to up to two more decimals
    where they show it (a "worse" action's interval read "-0.24 to 0.00": its bound was -0.003, clear of 0, and a
    new user took it for touching 0); rounding noise (a bound at 1e-17) stays 0."""
    text = f"{v:.{d}f}"
    if float(text) != 0:
        return text
    for more in (d + 1, d + 2):
        closer = f"{v:.{more}f}"
        if float(closer) != 0:
            return closer
    return text[1:] if text.startswith("-") else text


def label_pooled(out: pd.DataFrame) -> None:
    """In a text view whose missing cells are blank: a row pooled over the seats, teams or roles has every such
    key blank where other rows of its measure have one; its first key shown reads "all". A measure never split by
    them (hands_per_game) keeps its blank."""
    who = [c for c in ("seat", "team", "role") if c in out]
    if who:
        blank = (out[who] == "").all(axis=1)
        split = set(out.loc[~blank, "measure"])
        out.loc[blank & out["measure"].isin(split), who[0]] = "all"


def blank_missing(t: pd.DataFrame) -> pd.DataFrame:
    """A copy for the text view with every missing cell blank: ``to_string``'s ``na_rep`` reaches float columns
    only, and printed <NA> (Int64) and None (object) a new user took for errors."""
    out = t.copy()
    for c in out.columns:
        if not pd.api.types.is_float_dtype(out[c]):
            out[c] = out[c].astype(object).where(out[c].notna(), "")
    return out


def _plain(x: float) -> str:
    """A float of the full table in plain decimals, never ``2.4e-01`` (pandas switches a whole column to that
    notation when one cell is small): 6 significant digits below 1, 6 decimals above, trailing zeros dropped;
    below 1e-12, 0."""
    if not np.isfinite(x):
        return str(x)
    if abs(x) < 1e-12:  # rounding noise of a bound at 0 (a Wilson interval's 2.8e-17)
        return "0"
    if abs(x) >= 1:
        text = f"{x:.6f}"
    else:
        text = np.format_float_positional(x, precision=6, unique=False, fractional=False, trim="-")
    return text.rstrip("0").rstrip(".") if "." in text else text


def precision_rule(meta: dict) -> str:
    """The rule ``--precision`` held where it is not a half-width of every row of the measures (positions.md):
    the advisor and the review stop where each difference to the best is within ±P *or clear of zero*, so a row's
    interval may be wider than ±P; Zheng Shangyou after the Winner is out ranks on the chance to end last (its
    differences, paired like the others). "" where every row was held to ±P, and for the advisor's one row (not the
    seat's turn: its score)."""
    analysis = meta.get("analysis", "")
    if meta.get("not_to_play"):
        return ""
    if meta.get("settled") and analysis == "advisor":
        return "on the differences to the best in the chance to end last, or clear of zero"
    if analysis == "review" and meta.get("settled_decisions"):
        return (
            "on each decision's differences to the best, or clear of zero (after the Winner went out: in the chance "
            "to end last)"
        )
    return {
        "advisor": "on the differences to the best, or clear of zero",
        "review": "on each decision's differences to the best, or clear of zero",
    }.get(analysis, "")


@dataclass
class Result:
    """A table with its metadata (game, rules and variants, strategies, seed, trials, ...).

    ``headline``: the measures the table output shows first (a game's answers); the full table is always in
    csv and json, and in table output with ``full=True`` or ``measures``."""

    table: pd.DataFrame
    meta: dict = field(default_factory=dict)
    headline: tuple[str, ...] = ()
    #: for the table output's header only (not written to csv or json): each variant's default, so the
    #: header names only the variants changed; and what one trial is ("deals", "games")
    variant_defaults: dict | None = None
    unit: str = "trials"
    #: a simulation's counts chunk by chunk (the driver's rows, int64[chunks, n_counts]), for estimates that
    #: need more than the merged counts (a paired comparison of two runs' chunks); not written out
    chunk_counts: Any = field(default=None, compare=False, repr=False)

    def rows(self) -> list[dict]:
        return [{k: _clean(v) for k, v in r.items()} for r in self.table.to_dict(orient="records")]

    def to_json(self) -> str:
        meta = dict(self.meta)
        rule = precision_rule(meta) if "precision_target" in meta else ""
        if rule:  # the header's rule, for a reader of the JSON: precision_achieved may then be above the target
            meta["precision_rule"] = f"±precision_target {rule}"
        return json.dumps({"meta": _clean(meta), "rows": self.rows()}, ensure_ascii=False, indent=None)

    def to_csv(self) -> str:
        buf = io.StringIO()
        self.table.to_csv(buf, index=False, lineterminator="\n")
        return buf.getvalue()

    def to_text(self, full: bool = False, measures: list[str] | None = None, width: int | None = None) -> str:
        """Table output: the header, then the headline measures in plain decimals (or the ``measures`` asked
        for), or the whole tidy table with ``full``. ``width``: a terminal's, where the output goes to one: an
        advisor's table one row per action leaves out headline measures (the last first; never the ranked one
        and the difference its verdicts go by) until it fits, and says so."""
        with pd.option_context("display.max_rows", 5000, "display.max_columns", 50, "display.width", 200):
            if full and self.headline and "estimate" in self.table and len(self.table):
                # the whole table under the same header in words as the summary (json has the meta's every key);
                # a blank where a row has no value, no column blank in every row (csv and json keep them all)
                view = blank_missing(self.table.dropna(axis=1, how="all"))
                label_pooled(view)  # "all" on the pooled rows, as in the summary
                body = view.to_string(index=False, float_format=_plain, na_rep="")
                return header_text(self.header_lines()) + "\n" + body + "\n"
            if full or not (measures or self.headline) or "estimate" not in self.table:
                head = " ".join(  # a value with a space quoted (solve's trick="6H 8H")
                    f'{k}="{v}"' if " " in str(v) else f"{k}={v}"
                    for k, v in self.meta.items()
                    if isinstance(v, (str, int, float)) and k != "answer"
                )
                body = self.table.to_string(index=False, float_format=_plain) if len(self.table) else "(no rows)"
                return head + "\n" + body + "\n"
            shown = list(measures or self.headline)
            table, hidden = self._best_actions() if not measures else (self.table, 0)
            # an advisor's default view one row per action (where its rows fit); measures asked for by name keep the long form
            wide = advisor_wide(table, shown, self.meta) if not measures else None
            lines = self.header_lines()
            if wide is not None and "seat" in wide.columns:
                # one seat's chances in every row: named once above the table, not in a column of its own (a Bismarck
                # table had been 127 characters wide)
                seat = wide["seat"].iloc[0]
                wide = wide.drop(columns="seat")
                if not any(f"seat {seat}" in line for line in lines):
                    lines.insert(1, f"seat: {seat} (the deciding seat)")
            ranked = self.meta.get("ranked_measure")
            # the measure a verdict goes by: diff_<ranked>, or one a game names (Bisko-Bobo's "difference")
            paired = self.meta.get("verdict_by") or f"diff_{ranked}"
            fitted_out: list[str] = []
            fits = True
            # on a terminal, only where the table is ranked by a measure it shows (an advisor's): that measure and its
            # paired difference stay, the others may go, the last first
            if wide is not None and width and ranked in shown:

                def wide_text(out: list[str]) -> str:
                    t = advisor_wide(table, [m for m in shown if m not in out], self.meta)
                    return "" if t is None else text_columns(t.drop(columns="seat", errors="ignore"))

                spare = [[m] for m in reversed(shown) if m not in (ranked, paired)]
                fitted_out, fits = leave_out_to_fit(spare, width, wide_text)
                if fitted_out:
                    fitted_out = [m for m in shown if m in fitted_out]  # named in the headline's order
                    shown = [m for m in shown if m not in fitted_out]
                    narrower = advisor_wide(table, shown, self.meta)
                    wide = None if narrower is None else narrower.drop(columns="seat", errors="ignore")
            body = (
                text_columns(wide)
                if wide is not None
                else summary_table(table, shown, self.meta).to_string(index=False)
            )
            notes = []  # said under the table, each a paragraph
            rows = table[table["measure"].isin(shown)] if "measure" in table.columns else table
            if wide is None and "trials" in rows.columns and (rows["trials"] == 0).any():
                # a conditional measure whose condition no trial met (a seat with no free choice): blank, not 0
                notes.append("(a blank row: no trial of this run met the row's condition, so it has no estimate)")
            if hidden:
                notes.append(
                    f"({hidden} more actions, each clearly worse than the best, are left out: --all or --format csv "
                    "or json shows every one)"
                )
            if fitted_out and width:
                them = "them" if len(fitted_out) > 1 else "it"
                notes.append(left_out_note(fitted_out, fits, width, f"a wider window, or --measure, shows {them}"))
            if ranked and "verdict" in self.table.columns and paired in shown and ranked in shown:
                # the estimates' intervals may overlap where the paired difference is clear: the verdict goes by it
                where = f"the {paired} column" if wide is not None else f"the {paired} rows"
                samples = self.meta.get("paired_on", "layouts")  # what each action is played on (Bisko-Bobo: deals)
                # the measures that decide where the first cannot be higher (a verdict of "worse" beside a
                # difference of exactly 0 had read as a mistake): a column's name, or a list of them in order
                then = self.meta.get("verdict_then")
                if then:
                    then = [then] if isinstance(then, str) else list(then)
                    where += f", then {', then '.join(then)}{',' if len(then) > 1 else ''} where it cannot be higher"
                notes.append(
                    f"(a verdict goes by the paired difference, {where}: every action is played on the same "
                    f"{samples}, so one can be clearly worse while the {ranked} intervals overlap)"
                )
            others = [m for m in dict.fromkeys(self.table["measure"]) if m not in shown and m not in fitted_out]
            if others:
                notes.append(
                    f"(more in the full table: --all, or --measure NAME for {', '.join(others)}; "
                    "--format csv or json for every column)"
                )
            wrap = prose_width(width)
            tail = "".join("\n" + prose(x, width=wrap) for x in notes)
            return header_text(lines, wrap) + "\n" + body + tail + "\n"

    def _best_actions(self) -> tuple[pd.DataFrame, int]:
        """An advisor's table (ranked, best action first) with every action not clearly worse than the best and the
        best of the others up to :data:`ADVISOR_ROWS` actions, and how many were left out: a Biscuits pass has 78
        pairs, a Zheng Shangyou lead dozens of plays, and the answer scrolled off the screen."""
        t = self.table
        ranked = self.meta.get("ranked_measure")
        if not ranked or "action" not in t.columns or "verdict" not in t.columns:
            return t, 0
        rows = t[(t["measure"] == ranked) & t["action"].notna()].drop_duplicates("action")
        if len(rows) <= ADVISOR_ROWS:
            return t, 0
        # every action not clearly worse than the best stays, and the best of the worse ones up to ADVISOR_ROWS
        keep = (rows["verdict"] != "worse").to_numpy() | (np.arange(len(rows)) < ADVISOR_ROWS)
        kept = set(rows["action"][keep])
        return t[t["action"].isin(kept) | t["action"].isna()], len(rows) - len(kept)

    def header_lines(self) -> list[str]:
        """What was measured and against whom, in words: the game, players, strategies, variants, size."""
        m = self.meta
        lines = []
        first = [str(m.get("game", ""))]
        if "players" in m:
            first.append(f"{m['players']} players")
        if m.get("command") == "compare" or "field" in m:
            first.append(f"field {m.get('field')} against challenger {m.get('challenger')}")
        elif m.get("strategies"):
            first.append("strategies " + _seats_text(m["strategies"]))
        elif m.get("feature") and m.get("strategy"):  # what holding a card is worth (Zheng Shangyou)
            first.append(f"the value of holding {m['feature']}, every seat {m['strategy']}")
        lines.append(", ".join(x for x in first if x))
        if m.get("model"):
            lines.append(f"model: {m['model']}")
        if m.get("quota"):  # an advisor's deciding seat and what it needs (Bismarck)
            lines.append(f"quota: {m['quota']}")
        if m.get("unseen"):  # what the sampled layouts take for the cards a position does not place
            lines.append(f"unseen cards: {m['unseen']}")
        if m.get("assumed"):  # what the advisor took a doubtful input to mean (Biscuits' --passed card in --hand)
            lines.append(f"assumed: {m['assumed']}")
        if m.get("turn") and not m.get("not_to_play"):  # whose turn and why (Bismarck; the answer says it if not)
            lines.append(f"turn: {m['turn']}")
        variants = m.get("variants")
        if isinstance(variants, dict):
            d = self.variant_defaults or {}
            changed = {k: v for k, v in variants.items() if str(d.get(k)) != str(v)}
            lines.append("variants: " + (", ".join(f"{k}={v}" for k, v in changed.items()) or "the defaults"))
        if isinstance(m.get("challenger_variants"), dict):  # compare-variants: what the challenger's rules change
            lines.append(
                "challenger: "
                + ", ".join(f"{k}={v}" for k, v in m["challenger_variants"].items())
                + " (field_value under the variants above, challenger_value under these; estimate: challenger -"
                " field; the same seed and trials both ways, so the same deals where the rule leaves the deal alone)"
            )
        size = []
        if "trials" in m:
            size.append(f"{m['trials']:,} {self.unit}")
            if "matched" in m:  # sampled by rejection (Bisko-Bobo's --seen): the rows count the matching ones
                # "2,000 deals sampled, N of them ...", or "2,000 sampled layouts, every action on each; N of them ..."
                size[-1] += ";" if "sampled" in self.unit else " sampled,"
                size[-1] += f" {m['matched']:,} of them matching the position"
        for k in ("seed", "elapsed_s"):
            if k in m:
                size.append(f"{k.replace('_s', '')} {m[k]}{' s' if k == 'elapsed_s' else ''}")
        if m.get("compiling_included") and "elapsed_s" in m:
            size[-1] += " (compiling the kernels included: a first run)"
        if m.get("resumed_chunks") or m.get("challenger_resumed_chunks"):
            both = "challenger_resumed_chunks" in m or m.get("command") == "compare-variants"
            size.append(
                f"resumed from checkpoints of {m.get('resumed_chunks', 0):,} chunks (field) and "
                f"{m.get('challenger_resumed_chunks', 0):,} (challenger)"
                if both
                else f"resumed from a checkpoint of {m['resumed_chunks']:,} chunks"
            )
        if "precision_target" in m:
            rule = precision_rule(m)
            size.append(
                f"precision ±{m['precision_target']:g}{' ' + rule if rule else ''} "
                f"({'reached' if m.get('precision_reached') else 'NOT reached'})"
            )
        if size:
            lines.append(", ".join(size))
        return lines

    def render(self, fmt: str, full: bool = False, measures: list[str] | None = None, width: int | None = None) -> str:
        if fmt == "json":
            return self.to_json() + "\n"
        if fmt == "csv":
            return self.to_csv()
        if fmt == "table":
            return self.to_text(full=full, measures=measures, width=width)
        raise CardlabError(f"unknown format {fmt!r}; accepted: {accepted(FORMATS)}")

    def write(self, path: str | os.PathLike, fmt: str | None = None) -> None:
        """Write atomically; the format follows the suffix (.json, .csv, .parquet) unless given."""
        p = Path(path)
        fmt = fmt or {".json": "json", ".csv": "csv", ".parquet": "parquet"}.get(p.suffix, "table")
        if fmt == "parquet":
            try:
                import pyarrow  # noqa: F401
            except ImportError:
                raise CardlabError("parquet output needs pyarrow: pip install 'cardlab[parquet]'") from None
            with atomic_path(p) as tmp:
                self.table.to_parquet(tmp, index=False)
            return
        write_text_atomic(p, self.render(fmt))
