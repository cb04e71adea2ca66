"""A Bisko-Bobo strategy a person can learn (``cardlab improve bisko-bobo --explain``): a cheat sheet fitted to
the recommended tables, and its edge measured on other deals.

The recommended strategy (``cardlab improve``) is a table per seat: a Flingo-or-Jingo choice for each of 216
situations (Jingos before the seat, whether a later seat is still free to choose, the upright suit, the unseen
cards of that suit: BB-5), a swap choice for each fit of the Jingo card (BB-6) and a tuck choice for each relation
(BB-7). Nobody can use 170 departures from the heuristic at the table. The cheat sheet keeps the part a player can
remember:

- Flingo or Jingo: one threshold per (Jingos before you: 0, 1, 2 or more) x (a later seat still free or not):
  take the Jingo when fewer than T cards of your upright suit are unseen (the heuristic is the same rule with
  T = half the suit everywhere). Suits and seats are pooled.
- the swap and the tuck: one choice per fit and per relation, pooled over seats.

Each choice is fitted by value, not by counting cells: a decision-value run with every seat on the recommended
tables gives, per seat and situation, how often it arises (``n``) and the paired win-share difference between the
two actions there (``d``); a threshold (or choice) is the one with the largest sum of ``n * d`` over the
situations it decides. The sheet is then a strategy (``cheat-sheet``) whose paired edge over the heuristic is
measured on other deals, beside the full tables' edge: how much of the table's edge a person keeps.
"""

from __future__ import annotations

import json
import math
from typing import Any

import numpy as np
import pandas as pd

from kernels import bisko_bobo as K

from ..errors import CardlabError
from ..stats import z_value
from ..tables import Result
from .bisko_bobo import (
    GAME,
    Strategy,
    builtin_strategy,
    compare_spec,
    decision_spec,
    ranks_per_suit,
    recommended_path,
    recommended_strategy,
    recommended_tables,
    rules,
)

JB_WORDS = ("no Jingo before you", "one Jingo before you", "two or more Jingos before you")
LF_WORDS = ("no later seat free to choose", "a later seat still free")
SWAP_WORDS = ("fits nothing of yours", "fits your tucked suit", "fits one of the upright suits")
TUCK_WORDS = ("matches your tucked suit (a Bobo)", "matches an upright suit", "matches neither")


def fit(P: int, values: pd.DataFrame, swap_target: int) -> dict[str, Any]:
    """The cheat sheet for ``P`` players from a decision-value table (:func:`analysis.games.bisko_bobo.
    decision_spec` run with the recommended strategy): thresholds ``[jb][lf]``, ``p_swap[fit][bisko]``,
    ``p_tuck[rel]`` (see the module docstring)."""
    k = ranks_per_suit(P)
    gain = {
        d: values[values.decision == d].assign(g=lambda t: t.trials * t.estimate) for d in ("flingo", "swap", "tuck")
    }
    fl = gain["flingo"]
    thresholds = []
    for jb in range(3):
        row = []
        for lf in range(2):
            cell = fl[[(b // 72 == jb and (b // 36) % 2 == lf) for b in fl.bucket]]
            by_unseen = np.zeros(9)
            for b, g in zip(cell.bucket, cell.g):
                by_unseen[b % 9] += g
            # the gain of "Jingo when fewer than t unseen" is the sum over unseen < t; ties go to the heuristic's
            heuristic_t = (k + 1) // 2
            best = max(range(10), key=lambda t: (round(float(by_unseen[:t].sum()), 9), -abs(t - heuristic_t)))
            row.append(int(best))
        thresholds.append(row)
    sw = gain["swap"]
    p_swap = [[1.0 if sw[sw.bucket == f * 2 + o].g.sum() > 0 else 0.0 for o in range(2)] for f in range(K.N_FIT)]
    base = builtin_strategy("heuristic", P)
    for f in range(K.N_FIT):  # a fit never met keeps the heuristic's choice
        for o in range(2):
            if not len(sw[sw.bucket == f * 2 + o]):
                p_swap[f][o] = float(base.p_swap[f, o])
    tu = gain["tuck"]
    p_tuck = [
        (1.0 if tu[tu.bucket == r].g.sum() > 0 else 0.0) if len(tu[tu.bucket == r]) else float(base.p_tuck[r])
        for r in range(K.N_REL)
    ]
    return {"thresholds": thresholds, "p_swap": p_swap, "swap_target": int(swap_target), "p_tuck": p_tuck}


def sheet_strategy(sheet: dict, name: str = "cheat-sheet") -> Strategy:
    """The cheat sheet as a strategy table (the same for every seat)."""
    t = np.array(sheet["thresholds"], dtype=np.int64)
    unseen = np.arange(9)
    p_jingo = np.zeros(K.JINGO_SHAPE)
    for jb in range(3):
        for lf in range(2):
            p_jingo[jb, lf, :, :] = (unseen < t[jb, lf]).astype(float)
    return Strategy(name, p_jingo, np.array(sheet["p_swap"], dtype=float), int(sheet["swap_target"]),
                    np.array(sheet["p_tuck"], dtype=float))  # fmt: skip


def stored_sheet(P: int) -> dict:
    """The cheat sheet stored for ``P`` players (seeds/bisko-bobo-recommended.json, ``cheat_sheets``)."""
    sheet = recommended_tables().get("cheat_sheets", {}).get(str(P))
    if sheet is None:
        raise CardlabError(
            f"no cheat sheet stored for {P} players in {recommended_path()}; fit it with 'cardlab improve bisko-bobo "
            f"--explain --players {P} --write {recommended_path()}'"
        )
    return sheet


def lines(P: int, sheet: dict) -> list[str]:
    """The cheat sheet in words, at most about ten lines."""
    k = ranks_per_suit(P)
    t = sheet["thresholds"]
    out = [f"{P} players ({k} cards a suit in the HIGH deck; U = the cards of your upright suit you have not seen):"]
    groups: dict[int, list[str]] = {}
    for jb in range(3):
        for lf in range(2):
            groups.setdefault(t[jb][lf], []).append(f"{JB_WORDS[jb]}, {LF_WORDS[lf]}")
    # the heuristic's own threshold named as such: a sheet that keeps it everywhere gains by its swap and tuck alone
    own = (k + 1) // 2

    def mine(v: int) -> str:
        return " (the heuristic's own rule)" if v == own else ""

    if len(groups) == 1:
        (v,) = groups
        out.append(f"- Flingo or Jingo: {_rule(v, k)}, whoever chose before you{mine(v)}.")
    else:
        common = max(groups, key=lambda v: len(groups[v]))
        out.append(f"- Flingo or Jingo: {_rule(common, k)}{mine(common)}, except:")
        for v, cells in sorted(groups.items()):
            if v != common:
                where = cells[0] if len(cells) == 1 else " or ".join(f"({c})" for c in cells)
                out.append(f"  - {where}: {_rule(v, k)}")
    swaps = []
    for f in range(K.N_FIT):
        on = [sheet["p_swap"][f][o] >= 0.5 for o in range(2)]
        if SWAP_WORDS[f] == "fits your tucked suit":  # an opening Bisko has no tucked card (BB-4): no such case
            on = [on[0], on[0]]
        if all(on):
            swaps.append(SWAP_WORDS[f])
        elif on[0]:
            swaps.append(f"{SWAP_WORDS[f]} (unless you opened with a Bisko)")
        elif on[1]:
            swaps.append(f"{SWAP_WORDS[f]} (only with an opening Bisko)")
    out.append("- Bingo-Bango: swap your Jingo card when it " + (" or ".join(swaps) if swaps else "never") + ".")
    tucks = [TUCK_WORDS[r] for r in range(K.N_REL) if sheet["p_tuck"][r] >= 0.5]
    if tucks == [TUCK_WORDS[0]]:  # under the default rule (BB-7, bobo_only) the only card one may tuck: always
        out.append(f"- Tuck your Jingo card whenever you may: when it {TUCK_WORDS[0]}.")
    else:
        out.append(
            f"- Tuck your Jingo card only when it {' or '.join(tucks)}." if tucks else "- Never tuck your Jingo card."
        )
    return out


def _rule(t: int, k: int = 8) -> str:
    """Jingo when fewer than ``t`` of the ``k`` cards of the upright suit are unseen (at most k - 1 can be: the
    upright card is seen)."""
    if t <= 0:
        return "always the Flingo"
    if t >= k:
        return "always the Jingo"
    if t == 1:
        return "the Jingo only when U is 0, else the Flingo"
    return f"the Jingo when U is {t - 1} or fewer, else the Flingo"


def edges(P: int, sheet: dict, trials: int, seed: int, progress: bool = False) -> tuple[list[dict], str]:
    """The paired edges (win share, each seat in turn switching, pooled) of the full recommended tables and of the
    cheat sheet over the heuristic, and of the sheet against the tables, on ``trials`` deals a comparison; the
    rows and a line saying how much of the tables' edge the sheet keeps."""
    from ..driver import run

    rec = recommended_strategy(P)
    mine = [sheet_strategy(sheet)] * P
    heur = [builtin_strategy("heuristic", P, s) for s in range(P)]
    rows = []
    found = {}
    se = {}
    for label, field, challenger in (
        ("recommended tables vs heuristic", heur, rec),
        ("cheat sheet vs heuristic", heur, mine),
        ("cheat sheet vs recommended tables", rec, mine),
    ):
        res = run(compare_spec(P, field, challenger), trials=trials, seed=seed, progress=progress)
        pooled = res.table[res.table.seat.isna()].iloc[0]
        found[label] = float(pooled.estimate)
        se[label] = float(pooled.std_error)
        rows.append(
            {
                "players": P,
                "comparison": label,
                "trials": int(pooled.trials),
                "estimate": float(pooled.estimate),
                "std_error": float(pooled.std_error),
                "ci_low": float(pooled.ci_low),
                "ci_high": float(pooled.ci_high),
            }
        )
    full, kept = found["recommended tables vs heuristic"], found["cheat sheet vs heuristic"]
    if full <= 0:
        share = "n/a: the tables gain nothing measurable here"
    elif kept <= 0:
        share = "none: the sheet does not gain here"
    else:
        # the ratio's 95% interval by the delta method, the two edges' errors taken as independent: they share
        # their deals, so this is wider than a paired interval would be
        ratio = kept / full
        z = z_value(0.95)
        rel = math.hypot(se["cheat sheet vs heuristic"] / kept, se["recommended tables vs heuristic"] / full)
        share = (
            f"{100 * ratio:.0f}% (95% interval about {100 * ratio * (1 - z * rel):.0f}% to "
            f"{100 * ratio * (1 + z * rel):.0f}%, the two edges' errors taken as independent)"
        )
    line = (
        f"  edge over the heuristic (win share, each seat in turn switching, paired, {trials:,} deals a comparison, "
        "so the rows' trials count seat-deals): tables "
        f"{100 * full:+.3f} percentage points, cheat sheet {100 * kept:+.3f}; of the tables' edge the sheet keeps {share}"
    )
    return rows, line


def explain(
    players: list[int] | None = None,
    *,
    trials: int = 400_000,
    compare_trials: int = 2_000_000,
    seed: int = 0,
    write: str | None = None,
    progress: bool = False,
) -> Result:
    """Fit the cheat sheet to the stored recommended tables for each player count (a decision-value run of
    ``trials`` deals, seed ``seed``) and measure, on other deals (seed ``seed + 1000``, ``compare_trials`` deals a
    comparison, paired), the edges over the heuristic of the full tables and of the sheet, and the sheet against
    the tables. ``write``: store the sheets in that tables file (``cheat_sheets``; the ``cheat-sheet`` strategy
    reads seeds/bisko-bobo-recommended.json)."""
    from ..driver import run
    from ..outputs import check_file, write_text

    players = list(players or range(2, 7))
    for P in players:
        rules().check_players(P)
    if write is not None:
        check_file(write, "--write")
    rows = []
    sheets: dict[str, dict] = {}
    text: list[str] = []
    for P in players:
        rec = recommended_strategy(P)
        values = run(decision_spec(P, strategies=rec), trials=trials, seed=seed, progress=progress).table
        sheet = fit(P, values, rec[0].swap_target)
        sheets[str(P)] = sheet
        text += lines(P, sheet)
        stored = recommended_tables().get("cheat_sheets", {}).get(str(P))
        if stored is not None and stored != sheet:
            text.append(
                f"  (fitted now on {trials:,} deals: it differs from the stored sheet, which is what 'cheat-sheet' "
                "plays; --write stores this one)"
            )
        found, summary = edges(P, sheet, compare_trials, seed + 1000, progress)
        rows += found
        text.append(summary)
    if write is not None:
        from .bisko_bobo import _stored_tables

        doc = _stored_tables(write) or {"players": {}}
        doc["cheat_sheets"] = {**doc.get("cheat_sheets", {}), **sheets}
        write_text(write, json.dumps(doc, indent=1, sort_keys=True) + "\n")
        recommended_tables.cache_clear()
    meta = {
        "game": GAME,
        "command": "improve --explain",
        "players": players,
        "answer": "\n".join(text),
        "cheat_sheets": sheets,
        "fit_trials": trials,
        "compare_trials": compare_trials,
        "seed": seed,
        "written": write,
    }
    return Result(
        pd.DataFrame(rows, columns=["players", "comparison", "trials", "estimate", "std_error", "ci_low", "ci_high"]),
        meta,
    )
