"""The report builder: ``reports/<game>/README.md`` (Markdown + PNG charts) and ``report.html`` (one
self-contained file, figures embedded), from the sections a game module provides.

A game takes part by having the ``report`` capability (:meth:`analysis.games.base.Game.report_sections`,
which returns the title, the introduction and the :class:`Section` list). Output is
deterministic for a fixed seed and scale: no timestamps, no timings, PNGs without metadata.
"""

from __future__ import annotations

import base64
import html
import math
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from . import __version__
from .errors import CardlabError, SaveFailed
from .outputs import check_dir, made_dirs


def clear_of(t, fair):
    """The rows of ``t`` whose 95% interval (``ci_low``, ``ci_high``) lies clear of ``fair`` (a number, or a column
    of ``t`` per row), with ``side``: "above" or "below" (the sections' answers to "is it fair?")."""
    import numpy as np

    f = t[fair] if isinstance(fair, str) else fair
    above, below = (t["ci_low"] > f).to_numpy(), (t["ci_high"] < f).to_numpy()
    return t[above | below].assign(side=np.where(above, "above", "below")[above | below])


@dataclass
class Section:
    """One section of a report: its numbers (``table``) and what to draw from them.

    ``figures`` holds functions that draw a matplotlib Figure, called only when the report is written, so a
    section (and its numbers) can be built and tested without matplotlib."""

    title: str
    text: str = ""
    table: pd.DataFrame | None = None
    figures: list[Callable[[], Any]] = field(default_factory=list)
    digits: int = 4


def _md_table(df: pd.DataFrame, digits: int) -> str:
    def fmt(v):
        if isinstance(v, float):
            return "" if pd.isna(v) else f"{v:.{digits}f}"
        return "" if v is None or (not isinstance(v, str) and pd.isna(v)) else str(v)

    cols = list(df.columns)
    lines = ["| " + " | ".join(cols) + " |", "|" + "|".join("---" for _ in cols) + "|"]
    for row in df.itertuples(index=False):
        lines.append("| " + " | ".join(fmt(v) for v in row) + " |")
    return "\n".join(lines)


def _html_table(df: pd.DataFrame, digits: int) -> str:
    return df.to_html(index=False, float_format=lambda v: f"{v:.{digits}f}", na_rep="", border=0, classes="t")


def write_report(game: str, title: str, intro: str, sections: list[Section], out_dir: str | Path) -> Path:
    """Write one game's report folder (``out_dir/game``); returns its path. Where a section's table has a verdict
    column (an advisor's or a review's), the introduction says what the verdicts mean."""
    with_verdicts = [s.title for s in sections if s.table is not None and "verdict" in s.table.columns]
    if with_verdicts:
        from .tables import VERDICT_WORDS

        intro += f" The verdict column ({'; '.join(with_verdicts)}) says: {VERDICT_WORDS}."
    return write_folder(Path(out_dir) / game, title, intro, sections, f"cardlab report {game}", "report.html")


def write_folder(
    folder: Path, title: str, intro: str, sections: list[Section], command: str, page_name: str = "report.html"
) -> Path:
    """Write ``folder`` whole or not at all: README.md, the PNG charts and ``page_name`` (one self-contained
    HTML file), built in a temporary sibling folder and renamed into place; ``command`` is named in the
    footer."""
    from .plots import png_bytes  # matplotlib only where figures are drawn

    out_dir = folder.parent
    try:
        with made_dirs(out_dir):
            tmp = Path(tempfile.mkdtemp(prefix=f".cardlab-{folder.name}-", dir=out_dir))
            try:
                _write_folder(tmp, title, intro, sections, png_bytes, command, page_name)
                if folder.exists():
                    shutil.rmtree(folder)
                tmp.rename(folder)
            except BaseException:
                shutil.rmtree(tmp, ignore_errors=True)
                raise
    except OSError as e:
        raise SaveFailed(f"cannot write the folder {str(folder)!r}: {e.strerror or type(e).__name__}") from None
    return folder


def _write_folder(
    tmp: Path, title: str, intro: str, sections: list[Section], png_bytes, command: str, page_name: str
) -> None:
    md = [f"# {title}", "", intro, ""]
    body = [f"<h1>{html.escape(title)}</h1>", f"<p>{html.escape(intro)}</p>"]
    fig_no = 0
    for sec in sections:
        md += [f"## {sec.title}", ""]
        body.append(f"<h2>{html.escape(sec.title)}</h2>")
        if sec.text:
            md += [sec.text, ""]
            body += [f"<p>{html.escape(p)}</p>" for p in sec.text.split("\n\n")]
        for draw in sec.figures:
            fig_no += 1
            name = f"fig{fig_no:02d}.png"
            data = png_bytes(draw())
            (tmp / name).write_bytes(data)
            md += [f"![{sec.title}]({name})", ""]
            body.append(
                f'<img alt="{html.escape(sec.title)}" src="data:image/png;base64,{base64.b64encode(data).decode()}">'
            )
        if sec.table is not None and len(sec.table):
            md += [_md_table(sec.table, sec.digits), ""]
            body.append(_html_table(sec.table, sec.digits))
    md.append(f"_Generated by cardlab {__version__} (`{command}`)._")
    (tmp / "README.md").write_text("\n".join(md) + "\n", encoding="utf-8")
    style = (
        "body{font-family:sans-serif;max-width:60em;margin:2em auto;padding:0 1em}"
        "table.t{border-collapse:collapse;font-size:.85em;margin:1em 0}"
        "table.t td,table.t th{border:1px solid #ccc;padding:2px 6px;text-align:right}img{max-width:100%}"
    )
    page = (
        f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
        f"<style>{style}</style></head><body>{''.join(body)}"
        f"<p><em>Generated by cardlab {__version__}.</em></p></body></html>\n"
    )
    (tmp / page_name).write_text(page, encoding="utf-8")


def build_reports(
    game: str | None, *, out_dir: str | Path = "reports", scale: float = 1.0, seed: int = 2026, progress: bool = True
) -> list[Path]:
    """Build the report of ``game``, or of every game that has one (``game=None``)."""
    if not (math.isfinite(scale) and scale > 0):
        raise CardlabError(f"bad --scale {scale}: expected a positive number such as 0.05 or 1")
    from . import games as registry

    games = (
        [registry.require(game, "report")]
        if game is not None
        else [registry.get(g) for g in registry.games_with("report")]
    )
    check_dir(out_dir)
    for g in games:
        sub = Path(out_dir) / g.id
        if sub.exists() and not sub.is_dir():
            raise CardlabError(f"--out {str(out_dir)!r}: {str(sub)!r} is a file; the report needs it as a folder")
    done = []
    for g in games:
        title, intro, sections = g.report_sections(scale=scale, seed=seed, progress=progress)
        done.append(write_report(g.id, title, intro, sections, out_dir))
        if progress:
            print(f"wrote {done[-1]}/README.md and report.html")
    return done
