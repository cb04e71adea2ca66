"""The Biscuits strategy report: its simulations (:func:`runs`) and its sections, one function each."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ..advisor import unseen_sentence
from ..report import Section, clear_of
from ..stats import difference_half_width

COMPARISONS = (
    ("greedy", "planning"),
    ("greedy", "random"),
    ("planning", "planning-pass-lowest"),
    ("planning", "planning-pass-pair"),
    ("planning", "planning-pass-connectors"),
    ("planning", "planning-no-handover"),
    ("planning", "planning-exchange"),
    ("greedy", "greedy-pass-singles"),
    ("greedy", "greedy-pass-random"),
    ("greedy", "greedy-pass-pair"),
    ("greedy", "greedy-pass-connectors"),
    ("greedy", "greedy-exchange"),
    ("greedy", "greedy-handover"),
    ("greedy", "greedy-actions"),
)
FIELD_STRATEGIES = ("planning", "greedy", "greedy-actions", "random")
#: the advisor's worked position: seat 0 leads, eight cards left
WORKED_POSITION: dict[str, Any] = {"hand": "4C 4D 7H 8S 9D TC JH KD", "cards_left": {"1": 9, "2": 10, "3": 7}}
#: the reviewed example: seat 2 of seeds/records/biscuits-example.json (cardlab record biscuits --seed 1
#: --strategy planning)
REVIEWED_SEAT = 2
REVIEWED_SEED = 1
#: the strong field (cardlab strong-field): the search player in every seat, at a budget that keeps the
#: computation to minutes; the teams that play among it, one at a time (planning, then one policy changed)
STRONG_FIELD = "search:100"
STRONG_CHALLENGERS = (
    "planning",
    "planning-pass-lowest",
    "planning-pass-pair",
    "planning-pass-connectors",
    "planning-no-handover",
    "planning-exchange",
    "greedy",
    "greedy-actions",
)


def runs(scale: float = 1.0, seed: int = 2026, progress: bool = True) -> dict:
    """Every simulation the report shows: ``games[strategy]`` (every seat on one strategy), ``win_table``
    and ``compare`` (the paired comparisons, the table pooled over both teams)."""
    from ..driver import run
    from ..games import biscuits as B

    def n(x):
        return max(500, int(x * scale))

    # the seeds and sizes of the runs the sections name (one place, so the text cannot drift from the runs)
    compare_seed, win_table_seed = seed + 1, seed + 2
    games_trials, compare_trials, win_table_trials = n(50_000), n(40_000), n(600_000)
    games = {
        name: run(B.simulation_spec(strategies=[name]), trials=games_trials, seed=seed, progress=progress).table
        for name in FIELD_STRATEGIES
    }
    win_table = run(B.win_table_spec("planning"), trials=win_table_trials, seed=win_table_seed, progress=progress).table
    compare = []
    for field, challenger in COMPARISONS:
        r = run(B.compare_spec(field, challenger), trials=compare_trials, seed=compare_seed, progress=progress).table
        compare.append(r[r.team.isna()])
    from ..games import biscuits_odds as BO
    from ..games import biscuits_review as BR

    # the advisor and the review run to a precision, not to a size: the scale does not change them
    advice = BO.odds({"precision": 0.1, "seed": seed + 6, "progress": False}, **WORKED_POSITION)
    record = BR.record(seed=REVIEWED_SEED, strategies=["planning"])
    review = BR.review(record, seat=REVIEWED_SEAT, precision=0.25, seed=seed + 7)
    from ..strong_field import stored

    return {
        "seed": seed,
        "games_trials": games_trials,
        "compare_trials": compare_trials,
        "compare_seed": compare_seed,
        "win_table_seed": win_table_seed,
        "win_table_trials": win_table_trials,
        "strong": stored("biscuits"),
        "games": games,
        "win_table": win_table,
        "compare": pd.concat(compare, ignore_index=True),
        "advice": advice,
        "review": review,
    }


def _games_run(runs: dict) -> str:
    """The command line that gives a strategy's games (the report's seed and size)."""
    return (
        f"`cardlab simulate biscuits --strategy NAME --trials {runs['games_trials']} --seed {runs['seed']}` (NAME: "
        f"{', '.join(runs['games'])})"
    )


def starter_advantage(runs: dict) -> Section:
    starter = pd.concat(
        [t[t.measure == "out_first_given_starter"].assign(strategy=k) for k, t in runs["games"].items()]
    )
    # what the Starter's team scores a hand more than the other (BI-3's Starter is on the team behind or level)
    net = pd.concat([t[t.measure == "starter_team_net"].assign(strategy=k) for k, t in runs["games"].items()])
    net = net[["strategy", "estimate", "ci_low", "ci_high"]].rename(
        columns={"estimate": "team_net", "ci_low": "team_net_low", "ci_high": "team_net_high"}
    )
    table = starter[["strategy", "trials", "estimate", "ci_low", "ci_high"]].merge(net, on="strategy")

    def draw():
        from ..plots import bar_with_intervals

        return bar_with_intervals(
            starter,
            "strategy",
            None,
            title="P(the Starter goes out first)",
            ylabel="probability",
            xlabel="every seat on",
            reference=0.25,
        )

    return Section(
        "The Starter's advantage",
        (
            "The Starter deals and leads the first trick (BI-3). Probability that the Starter is the first player "
            "out of a hand, against 1/4 for a seat chosen at random; Wilson intervals. team_net: the points a hand "
            "of the Starter's team minus the other team's, with its 95% interval (`simulate biscuits --measure "
            "starter_team_net`); after the first hand the Starter is on the team behind or level (BI-3), so this "
            "is the Starter's edge as games go, not a seat drawn at random. Each strategy's games come from "
            f"{_games_run(runs)}; its trials column counts hands."
        ),
        table,
        [draw],
    )


def points_by_seat(runs: dict) -> Section:
    per_seat = pd.concat(
        [
            t[t.measure.isin(["out_first", "team_points_per_hand"]) & t.seat.notna()].assign(strategy=k)
            for k, t in runs["games"].items()
        ]
    )
    # the answer: the seats whose chance to go out first lies clear of a quarter, by strategy
    out = per_seat[per_seat.measure == "out_first"]
    clear = [f"seat {int(r.seat)} with {r.strategy} ({r.estimate:.4f})" for r in clear_of(out, 0.25).itertuples()]
    verdict = (
        "Going out first, no seat lies clear of a quarter of the hands at 95%, whichever strategy every seat plays. "
        if not clear
        else f"Going out first, clear of a quarter of the hands at 95%: {', '.join(clear)}. "
    )
    return Section(
        "Points per hand and going out first, by seat",
        (
            verdict + "Games to 30 points or 4 hands, more on a tie (BI-12), every seat on one strategy. "
            "team_points_per_hand is the "
            f"seat's team score per hand (BI-8/BI-9). The games come from {_games_run(runs)}; the trials column "
            "counts hands."
        ),
        per_seat[["strategy", "measure", "seat", "trials", "estimate", "ci_low", "ci_high"]],
    )


def win_probability(runs: dict) -> Section:
    wt = runs["win_table"]

    def draw():
        import matplotlib.pyplot as plt

        from ..plots import STYLE

        with plt.rc_context(STYLE):
            fig, axes = plt.subplots(1, 4, figsize=(11, 3.2), sharey=True)
            for h, ax in enumerate(axes):
                grid = wt[wt.hands_played == h].pivot(index="them", columns="us", values="estimate")
                im = ax.imshow(grid.to_numpy(), origin="lower", vmin=0, vmax=1, cmap="RdYlGn")
                ax.set_title(f"{h} hands played")
                ax.set_xlabel("our score")
            axes[0].set_ylabel("their score")
            fig.colorbar(im, ax=axes, shrink=0.8, label="P(we win the game)")
        return fig

    coarse = wt[(wt.us % 5 == 0) & (wt.them % 5 == 0)][
        ["hands_played", "us", "them", "trials", "estimate", "ci_low", "ci_high"]
    ].copy()
    # a state pooled with its mirror image: at equal scores the two teams' chances are one, 1/2 exactly
    coarse.loc[coarse.us == coarse.them, ["ci_low", "ci_high"]] = coarse.loc[coarse.us == coarse.them, "estimate"]
    return Section(
        "Game win probability by score and hands played",
        (
            "A 30-point, 4-hand game (BI-12), every seat planning: P(a team wins) from each (its score, their score, "
            "hands already played), by starting simulated games at random states of the grid (the Starter at "
            "random). The two teams are exchangeable, so each state is pooled with its mirror image (at equal "
            "scores the chance is 1/2 exactly, its interval shown as 0.5000 to 0.5000). The grid holds every state, some of "
            "which a game never reaches (25 points before a hand is played); each cell is about "
            f"{int(coarse.trials.median()) if len(coarse) else 0:,} games, so neighbouring cells may cross by chance: "
            "read the figure's trend, not a single cell. The table shows "
            'every fifth score; the full grid is `driver.run(biscuits.win_table_spec("planning"), '
            f"trials={runs['win_table_trials']}, seed={runs['win_table_seed']})` in Python (`from analysis import driver`, "
            "`from analysis.games import biscuits`; README, Python API; run again, the equal-score cells show the "
            "intervals of their samples, where the table sets them to 1/2 exactly)."
        ),
        coarse,
        [draw],
    )


def strategy_values(runs: dict) -> Section:
    ct = runs["compare"]
    est = ct[ct.field == "greedy"].set_index("challenger")["estimate"]
    se = ct[ct.field == "greedy"].set_index("challenger")["std_error"]
    both = ""
    if {"greedy-actions", "greedy-pass-singles"} <= set(est.index):
        rest = est["greedy-actions"] - est["greedy-pass-singles"]
        # the two rows share their deals: the variances added is an approximation (independent estimates)
        half = difference_half_width(float(se["greedy-actions"]), float(se["greedy-pass-singles"]))
        both = (
            f": of greedy-actions' {est['greedy-actions']:+.2f} points a hand over greedy, its pass alone "
            f"(greedy-pass-singles) gives {est['greedy-pass-singles']:+.2f} and the two special actions the rest, "
            f"{rest:+.2f} (95% about {rest - half:+.2f} to {rest + half:+.2f}: a difference of two estimates, not "
            "paired, their variances added)"
        )
    return Section(
        "What the players, passing and the special actions are worth (paired)",
        (
            "One team at a time switches (both partners), the other team stays on the field strategy; each hand is "
            "played from the same deal and draws both ways. estimate = the switching team's points per hand, "
            "challenger - field, pooled over both teams (trials count team-hands). planning keeps its combinations "
            "(it passes the cards its plan leaves as singles and hands the lead over after a Fancy trick when the "
            "partner holds fewer cards); greedy passes its two lowest cards and takes no special action. Each "
            "planning-* and greedy-* challenger changes one policy of its field. The exception is greedy-actions, "
            "which changes three: it passes the singles as greedy-pass-singles does, and it takes both special "
            "actions (the exchange with its lowest cards, and the handover when the partner holds fewer cards)"
            f"{both}. {_pass_answer(ct)} Each row comes from `cardlab compare biscuits --field FIELD --challenger "
            f"CHALLENGER --trials {runs['compare_trials']} --seed {runs['compare_seed']}`."
        ),
        ct[["field", "challenger", "trials", "field_value", "challenger_value", "estimate", "ci_low", "ci_high"]],
    )


def _pass_answer(ct) -> str:
    """Which two cards to pass, in a sentence: the best pass policy against each field and by how much."""
    out = []
    for field, own in (("planning", "the singles its plan leaves"), ("greedy", "its two lowest cards")):
        rows = ct[(ct.field == field) & ct.challenger.str.startswith(f"{field}-pass-")]
        if rows.empty:
            continue
        best = rows.loc[rows.estimate.idxmax()]
        name = best.challenger.removeprefix(f"{field}-pass-")
        if best.ci_low > 0:
            out.append(
                f"for a {field} team, passing {name} beats its own pass ({own}) by {best.estimate:.2f} points a "
                f"hand (95% {best.ci_low:.2f} to {best.ci_high:.2f})"
            )
        else:
            out.append(f"for a {field} team, no other pass policy clearly beats its own ({own})")
    if not out:
        return ""
    return "Which two cards to pass to the partner (BI-4): " + "; ".join(out) + "."


def exact_odds(runs: dict) -> Section:
    from ..games.biscuits import exact_hand_combinations

    return Section(
        "What a dealt hand can make: exact odds",
        (
            "Exact probabilities that a dealt 13-card hand (before the pass) holds each combination at least once "
            "(a dynamic programme over the ranks and suits; cardlab exact biscuits hand-combinations)."
        ),
        exact_hand_combinations(13),
        digits=5,
    )


#: the high-card-point bands of the hand-strength table (A 4, K 3, Q 2, J 1; 40 in all)
HCP_BANDS = ((0, 3), (4, 7), (8, 11), (12, 15), (16, 19), (20, 40))
MIN_CELL = 200  # seat-hands a cell needs to be shown


def _strength_table(t: pd.DataFrame) -> pd.DataFrame:
    """P(first out) by the plays of the fewest-plays split (rows) and a band of high-card points (columns), from
    the (plays, hcp) cells; a cell with fewer than MIN_CELL seat-hands is left empty."""
    from ..stats import wilson

    g = t[t.measure == "out_first_given_plays_hcp"]
    rows = []
    for plays, sub in g.groupby("plays"):
        row: dict = {"plays": int(plays)}
        for lo, hi in HCP_BANDS:
            c = sub[(sub.hcp >= lo) & (sub.hcp <= hi)]
            n, k = int(c.trials.sum()), int(c.successes.sum())
            label = f"{lo}-{hi}" if hi < 40 else f"{lo}+"
            row[label] = k / n if n >= MIN_CELL else np.nan
            if n >= MIN_CELL:
                _, _, lo_ci, hi_ci = wilson(k, n)
                row[f"{label} (95%)"] = f"{lo_ci:.3f}-{hi_ci:.3f}"
            else:
                row[f"{label} (95%)"] = ""
        rows.append(row)
    out = pd.DataFrame(rows)
    bands = [c for c in out.columns if c != "plays" and not c.endswith("(95%)")]
    return out[out[bands].notna().any(axis=1)].reset_index(drop=True)


def hand_strength(runs: dict) -> Section:
    t = runs["games"]["planning"]
    hc = t[(t.measure == "out_first_given_hcp") & (t.trials >= MIN_CELL)].set_index("hcp")
    plays = t[(t.measure == "plays_given_hcp") & (t.trials >= MIN_CELL)].set_index("hcp")
    by_plays = t[(t.measure == "out_first_given_plays") & (t.trials >= MIN_CELL)]
    table = _strength_table(t)
    # the zig-zag: from one point count to the next, does P(first out) move against the mean plays?
    common = hc.index.intersection(plays.index)
    d_out = np.diff(hc.loc[common, "estimate"].to_numpy(float))
    d_plays = np.diff(plays.loc[common, "estimate"].to_numpy(float))
    against = int((np.sign(d_out) == -np.sign(d_plays)).sum())
    r = float(np.corrcoef(d_out, d_plays)[0, 1]) if len(d_out) > 2 else float("nan")
    words = []
    if 0 in common and 1 in common:
        h0, h1, p0, p1 = hc.loc[0], hc.loc[1], plays.loc[0], plays.loc[1]
        words.append(
            f"A hand with no high card (0 points) goes out first in {h0.estimate:.3f} of the hands, against "
            f"{h1.estimate:.3f} with 1 point; its fewest-plays split has {p0.estimate:.2f} plays on average against "
            f"{p1.estimate:.2f}."
        )
        if h0.ci_low > h1.ci_high and p0.ci_high < p1.ci_low:  # the spike, and fewer plays, both separated
            words[-1] += (
                " Its 13 cards lie in the nine ranks 2 to T, so they form pairs, triples and straights: fewer plays "
                "to go out, which outweighs having no high card."
            )
    if len(d_out) > 2:
        words.append(
            f"From one point count to the next, P(first out) and the mean number of plays move in opposite "
            f"directions in {against} of the {len(d_out)} steps (the correlation of the steps is {r:+.2f}"
            + (
                "; the figure draws the plays on an inverted axis, so there the two lines move together"
                if r < 0
                else ""
            )
            + ")."
        )
        if r < 0 and against > len(d_out) / 2:
            words[-1] += (
                " The zig-zag of P(first out) follows the number of plays: high-card points measure control, the "
                "plays how many times a hand must win the lead or beat, and a player needs both."
            )
    if len(by_plays) > 1:
        bp = by_plays.set_index("plays")["estimate"]
        dips = (
            [int(p) for p in bp.index[1:] if bp.loc[p] > bp.loc[p - 1]]
            if all(p - 1 in bp.index for p in bp.index[1:])
            else []
        )
        if dips:
            words.append(
                "The count of plays is not monotone on its own: "
                + ", ".join(
                    f"{p}-play hands go out first more often than {p - 1}-play ones ({bp.loc[p]:.3f} against "
                    f"{bp.loc[p - 1]:.3f})"
                    for p in dips
                )  # fmt: skip
                + ": the plays alone are no full measure either (a hand of few plays may lack the high cards to "
                "win its leads); the table by plays and points, which holds both, is the strength to read."
            )

    def draw_table():
        import matplotlib.pyplot as plt

        from ..plots import STYLE

        bands = [c for c in table.columns if c != "plays" and not c.endswith("(95%)")]
        z = table[bands].to_numpy(float)
        with plt.rc_context(STYLE):
            fig, ax = plt.subplots(figsize=(6.4, 3.6))
            im = ax.imshow(z, cmap="viridis", vmin=0, vmax=1, aspect="auto", origin="lower")
            ax.set_xticks(range(len(bands)), bands)
            ax.set_yticks(range(len(table)), table.plays.astype(int))
            for (i, j), v in np.ndenumerate(z):
                if np.isfinite(v):
                    ax.text(j, i, f"{v:.2f}", ha="center", va="center", fontsize=7, color="w" if v < 0.5 else "k")
            ax.grid(False)
            ax.set_xlabel("high-card points after the pass (A 4, K 3, Q 2, J 1)")
            ax.set_ylabel("plays of the fewest-plays split")
            ax.set_title("P(first out of the hand) by plays and high-card points (planning players)")
            fig.colorbar(im, ax=ax)
        return fig

    def draw_zigzag():
        from ..plots import new_figure, yerr

        fig, ax = new_figure()
        x = hc.index.astype(int)
        ax.errorbar(x, hc.estimate, yerr=yerr(hc.estimate, hc.ci_low, hc.ci_high), fmt="o-", capsize=2,
                    label="P(first out)")  # fmt: skip
        ax.axhline(0.25, color="grey", lw=0.8, ls="--")
        ax.set_xlabel("high-card points after the pass (A 4, K 3, Q 2, J 1)")
        ax.set_ylabel("P(first out of the hand)")
        ax2 = ax.twinx()
        ax2.plot(plays.index.astype(int), plays.estimate, "s--", color="C1", ms=3, label="mean plays (right)")
        ax2.set_ylabel("mean plays of the fewest-plays split")
        ax2.invert_yaxis()
        ax2.grid(False)
        h1, l1 = ax.get_legend_handles_labels()
        h2, l2 = ax2.get_legend_handles_labels()
        ax.legend(h1 + h2, l1 + l2, loc="upper center", fontsize=7)
        ax.set_title("High-card points alone, beside the mean plays (right axis, inverted)")
        return fig

    return Section(
        "How hand strength predicts going out first",
        (
            "Every seat planning. Two things a player can count after the pass: the high-card points (A 4, K 3, "
            "Q 2, J 1) and the plays of the fewest-plays split of the hand (the planning player's split, BI-6: "
            "fours with a kicker, straights or flushes, full houses, triples, pairs, singles). The table gives P(first "
            "out of the hand) "
            f"for each (plays, band of points) with its 95% Wilson interval (cells of at least {MIN_CELL} "
            "seat-hands); the first chart draws it, the second shows high-card points alone beside the mean "
            "number of plays.\n\n" + " ".join(words)
        ),
        table,
        [draw_table, draw_zigzag],
    )


def games(runs: dict) -> Section:
    g = pd.concat(
        [t[t.measure.isin(["game_won", "hands_per_game"])].assign(strategy=k) for k, t in runs["games"].items()]
    )
    won = g[(g.measure == "game_won") & (g.team == "N-S")]
    clear = [f"{r.strategy} ({r.estimate:.4f})" for r in clear_of(won, 0.5).itertuples()]
    hands = g[g.measure == "hands_per_game"]
    verdict = (
        ("Neither team wins clearly more than half the games at 95% with any of the strategies"
         if not clear else f"N-S's share of the games lies clear of a half with {', '.join(clear)}")
        + f"; a game lasts {hands.estimate.min():.2f} to {hands.estimate.max():.2f} hands on average (a game ends "
        "at 30 points or after 4 hands, later on a tie: BI-12). "
    )  # fmt: skip
    return Section(
        "Games",
        verdict + "Who wins a game, and how many hands a game lasts.",
        g[["strategy", "measure", "team", "trials", "estimate", "ci_low", "ci_high"]],
    )


def worked_position(runs: dict) -> Section:
    res = runs["advice"]
    t = res.table
    score = t[t.measure == "score"].set_index("action")
    diff = t[t.measure == "diff_score"].set_index("action")
    win = t[t.measure == "win"].set_index("action")
    table = pd.DataFrame(
        {
            "action": score.index,
            "verdict": score["verdict"].to_numpy(),
            "net_points": score["estimate"].to_numpy(),
            "diff_points": diff.loc[score.index, "estimate"].to_numpy(),
            "diff_low": diff.loc[score.index, "ci_low"].to_numpy(),
            "diff_high": diff.loc[score.index, "ci_high"].to_numpy(),
            "ahead": win.loc[score.index, "estimate"].to_numpy(),
        }
    )
    pos = WORKED_POSITION

    def draw():
        from ..plots import bar_with_intervals

        return bar_with_intervals(
            score.reset_index(),
            "action",
            None,
            title="Seat 0's net points this hand, by lead (planning models)",
            ylabel="net points (team minus opponents)",
            xlabel="lead",
        )

    left = " ".join(f"--cards-left {k}={v}" for k, v in pos["cards_left"].items())
    return Section(
        "A worked position: what should N lead?",
        (
            f'`cardlab odds biscuits --hand "{pos["hand"]}" {left} --precision 0.1 --seed {res.meta["seed"]}`: N (seat 0) is on lead with '
            f"{pos['hand']}. Every legal lead on the same sampled layouts of the unseen cards, each hand played on "
            "by planning players (positions.md); net_points is the team's points minus the other team's this hand "
            "(BI-8), diff_points the paired difference to the best, ahead the chance that the team scores more "
            f"this hand ({res.meta['trials']:,} layouts).{unseen_sentence(res.meta)}\n\n{res.meta['answer']}"
        ),
        table,
        [draw],
        digits=3,
    )


def reviewed_hand(runs: dict) -> Section:
    from ..games import biscuits_review as BR

    res = runs["review"]
    cols = ["event", "decision", "on_table", "actions", "taken", "best", "verdict", "loss_score", "loss_score_low",
            "loss_score_high", "win_taken"]  # fmt: skip
    return Section(
        f"A reviewed hand: seat {REVIEWED_SEAT} of the example record",
        (
            f"`cardlab review biscuits seeds/records/biscuits-example.json --seat {REVIEWED_SEAT} "
            f"--seed {res.meta['seed']}` (the record is "
            f"`cardlab record biscuits --seed {REVIEWED_SEED} --strategy planning`): each decision (the partner "
            "pass, plays, exchanges, handovers) judged on what the seat knew then, each paired difference run to "
            "±0.25 points or until it is clear of zero (so a clear one may be wider). loss_score is the best "
            "action's net points minus the taken action's (0 where they are not separated at 95%); win_taken the "
            "chance that the seat's team is ahead this hand with the action taken (0 where it never is on the "
            "sampled layouts: the verdicts and losses go by the points, which still differ there). The chart shows "
            "that chance, so a card worse by points may sit level with the best on it."
            f"\n\n{res.meta['summary']}."
        ),
        res.table[cols],
        [lambda: BR.win_figure(res)],
        digits=3,
    )


def strong_field_runs(field: str) -> list:
    """What ``cardlab strong-field biscuits`` measures with ``field`` in every seat: the Starter's advantage and
    the points by seat, and each of STRONG_CHALLENGERS as one team among the field."""
    from ..games import biscuits as B
    from ..strong_field import StrongRun

    def pooled(t: pd.DataFrame) -> pd.DataFrame:
        return t[t.team.isna()]

    def games(t: pd.DataFrame) -> pd.DataFrame:
        return t[t.measure.isin(["out_first_given_starter", "out_first", "team_points_per_hand", "game_won"])]

    # the seeds of the report's runs (runs()): the same deals as the built-in players' figures, and the teams on
    # one set of hands, so that their differences compare policies
    plan = [StrongRun("games", B.simulation_spec(strategies=[field]), 1500, 0, games)]
    plan += [StrongRun(f"team-{c}", B.compare_spec(field, c), 1000, 1, pooled) for c in STRONG_CHALLENGERS]
    return plan


def strong_field(runs: dict) -> Section:
    from ..games.biscuits import SEARCH_BUDGET
    from ..strong_field import CHANGES_LEGEND, budget_words, change, not_computed, provenance, side_by_side

    doc = runs.get("strong")
    title = "The findings again, with a strong field"
    if doc is None:
        return not_computed("biscuits", title)
    R = doc["runs"]
    today = runs["games"]["planning"]
    starter = side_by_side(
        today[today.measure == "out_first_given_starter"],
        R["games"]["table"].query("measure == 'out_first_given_starter'"),
        ["measure"], ("planning", "strong"),
    )  # fmt: skip
    st = starter.iloc[0]
    teams = pd.concat([R[f"team-{c}"]["table"] for c in STRONG_CHALLENGERS if f"team-{c}" in R], ignore_index=True)
    base = teams[teams.challenger == "planning"].iloc[0]
    sentences = [
        f"The Starter goes out first in {st.estimate_planning:.3f} of the hands among planning players and "
        f"{st.estimate_strong:.3f} among searching players (a seat at random: 0.25)"
        + (
            f"; the advantage {'changes sign' if st.changes == 'sign' else 'changes'}."
            if st.changes
            else "; the two do not separate at 95%."
        )  # fmt: skip
    ]
    sentences.append(
        f"A planning team among searching players makes {base.estimate:+.2f} points a hand against a searching "
        f"team (95% {base.ci_low:+.2f} to {base.ci_high:+.2f})."
    )
    # a policy's worth against the strong field: its team's difference minus plain planning's, on the same hands
    # (the two estimates share the hands; their variances added give an approximate interval)
    rows = []
    for r in teams.itertuples(index=False):
        d = r.estimate - base.estimate
        half = difference_half_width(r.std_error, base.std_error) if r.challenger != "planning" else np.nan
        rows.append({"challenger": r.challenger, "vs_planning": d, "vs_planning_low": d - half,
                     "vs_planning_high": d + half})  # fmt: skip
    vs = pd.DataFrame(rows)
    # the same one-policy change among planning players (the report's comparisons above), beside
    today_cmp = runs["compare"]
    today_cmp = today_cmp[today_cmp.field == "planning"].set_index("challenger")
    for col in ("among_planning", "among_planning_low", "among_planning_high"):
        vs[col] = np.nan
    vs["changes"] = ""
    for i, r in vs.iterrows():
        if r.challenger != "planning" and r.challenger in today_cmp.index:
            t = today_cmp.loc[r.challenger]
            vs.loc[i, ["among_planning", "among_planning_low", "among_planning_high"]] = [t.estimate, t.ci_low,
                                                                                         t.ci_high]  # fmt: skip
            vs.loc[i, "changes"] = change(t.ci_low, t.ci_high, r.vs_planning_low, r.vs_planning_high)
    changed = [
        f"{r.challenger} ({r.among_planning:+.2f} among planning players, {r.vs_planning:+.2f} here; "
        f"{'the sign changes' if r.changes == 'sign' else 'the intervals do not overlap'})"
        for r in vs[vs.changes != ""].itertuples(index=False)
    ]
    shown = vs[vs.changes.notna() & vs.among_planning.notna()]
    widths = (shown.vs_planning_high - shown.vs_planning_low) / (shown.among_planning_high - shown.among_planning_low)
    wider = (
        f" the strong field's intervals are {widths.min():.0f} to {widths.max():.0f} times as wide as the built-in "
        f"players' (half-widths up to ±{(shown.vs_planning_high - shown.vs_planning_low).max() / 2:.2f} points), so "
        "a smaller change would not show"
        if len(shown) and np.isfinite(widths).all()
        else ""
    )
    sentences.append(
        "What a change of policy is worth differs against the strong field for " + ", ".join(changed) + "."
        if changed
        else "No change of policy is told apart between the two fields at 95%, which does not show the worths equal:"
        + (wider or " the intervals may be too wide to tell")
        + "."
    )
    text = (
        f"The Starter's advantage and the worth of each policy measured again with a strong field: {doc['field']} "
        f"(the search player{budget_words(doc['field'], SEARCH_BUDGET)}; seeds/biscuits.md) in every seat, on the "
        "same deals as the figures above (their first "
        f"trials). {provenance(doc)} The table: each team (both partners) playing "
        "the challenger among searching players, on the same hands as a searching team (estimate: points a hand, "
        "challenger - field); vs_planning is that minus plain planning's, the worth of the one policy that "
        "differs against this field (its interval adds the two variances: an approximation, as the two share the "
        "hands), beside, for the planning-* rows, the same change among planning players (the comparisons above; "
        f"{CHANGES_LEGEND}).\n\n" + " ".join(sentences)
    )
    table = teams[["challenger", "trials", "field_value", "challenger_value", "estimate", "ci_low", "ci_high"]].merge(
        vs, on="challenger"
    )
    return Section(title, text, table, digits=3)


SECTIONS = (
    starter_advantage,
    points_by_seat,
    win_probability,
    strategy_values,
    exact_odds,
    hand_strength,
    games,
    worked_position,
    reviewed_hand,
    strong_field,
)


def report(scale: float = 1.0, seed: int = 2026, progress: bool = True) -> tuple[str, str, list[Section]]:
    r = runs(scale, seed, progress)
    intro = (
        f"Biscuits (seeds/biscuits.md, default rules), simulated with cardlab. Seed {seed}. Players: random, "
        f"greedy and planning (seeds/biscuits.toml describes each), the policy variants of greedy and planning "
        "that the paired section names (greedy-actions, planning-pass-*, ...), and the search player of the "
        "strong field's section."
        "\n\nThe words (seeds/biscuits.md; the rules' numbers in brackets): two partnerships, partners opposite. "
        "Before each hand every player passes 2 cards to the partner (BI-4). A trick is a run of plays, each "
        "beating the last (BI-5, BI-7): Plain plays are singles, pairs and triples; Fancy plays are five-card "
        "hands (straight, flush, full house, quad with a kicker, straight flush; BI-6). After a Plain trick the "
        "opponent on the winner's left may exchange one card with its partner (the exchange); after a Fancy trick "
        "the winner may give the lead to its partner (the handover; BI-10). A player who goes out scores for its "
        "team a point per card of the opponent holding more (BI-8); the hand ends when a second player goes out "
        "(BI-9). A game ends at 30 points or after 4 hands, played on while the teams are level (BI-12)."
    )
    return "Biscuits: strategy report", intro, [section(r) for section in SECTIONS]
