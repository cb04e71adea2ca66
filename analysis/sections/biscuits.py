"""The Biscuits strategy report: its simulations (:func:`runs`) and its sections, one function each."""

from __future__ import annotations

from typing import Any

import pandas as pd

from ..report import Section

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


def runs(scale: float = 1.0, seed: int = 2026, progress: bool = True) -> dict:
    """Every simulation the report shows: ``games[strategy]`` (every seat on one strategy), ``win_table``
    and ``compare`` (the paired comparisons, the table pooled over both teams)."""
    from ..driver import run
    from ..games import biscuits as B

    def n(x):
        return max(500, int(x * scale))

    games = {
        name: run(B.simulation_spec(strategies=[name]), trials=n(50_000), seed=seed, progress=progress).table
        for name in FIELD_STRATEGIES
    }
    win_table = run(B.win_table_spec("planning"), trials=n(600_000), seed=seed + 2, progress=progress).table
    compare = []
    for field, challenger in COMPARISONS:
        r = run(B.compare_spec(field, challenger), trials=n(40_000), seed=seed + 1, progress=progress).table
        compare.append(r[r.team.isna()])
    from ..games import biscuits_odds as BO
    from ..games import biscuits_review as BR

    # the advisor and the review run to a precision, not to a size: the scale does not change them
    advice = BO.odds({"precision": 0.1, "seed": seed + 6, "progress": False}, **WORKED_POSITION)
    record = BR.record(seed=REVIEWED_SEED, strategies=["planning"])
    review = BR.review(record, seat=REVIEWED_SEAT, precision=0.25, seed=seed + 7)
    return {
        "seed": seed,
        "games": games,
        "win_table": win_table,
        "compare": pd.concat(compare, ignore_index=True),
        "advice": advice,
        "review": review,
    }


def starter_advantage(runs: dict) -> Section:
    starter = pd.concat(
        [t[t.measure == "out_first_given_starter"].assign(strategy=k) for k, t in runs["games"].items()]
    )

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
            "out of a hand, against 1/4 for a seat chosen at random; Wilson intervals."
        ),
        starter[["strategy", "trials", "estimate", "ci_low", "ci_high"]],
        [draw],
    )


def points_by_seat(runs: dict) -> Section:
    per_seat = pd.concat(
        [
            t[t.measure.isin(["out_first", "team_points_per_hand"]) & t.seat.notna()].assign(strategy=k)
            for k, t in runs["games"].items()
        ]
    )
    return Section(
        "Points per hand and going out first, by seat",
        (
            "Games to 30 points or 4 hands (BI-12), every seat on one strategy. team_points_per_hand is the "
            "seat's team score per hand (BI-8/BI-9)."
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
    ]
    return Section(
        "Game win probability by score and hands played",
        (
            "A 30-point, 4-hand game (BI-12), every seat planning: P(a team wins) from each (its score, their score, "
            "hands already played), by starting simulated games at random states of the grid (the Starter at "
            "random). The two teams are exchangeable, so each state is pooled with its mirror image. The table "
            "shows every fifth score; cardlab's win_table_spec gives the full grid."
        ),
        coarse,
        [draw],
    )


def strategy_values(runs: dict) -> Section:
    ct = runs["compare"]
    return Section(
        "What the players, passing and the special actions are worth (paired)",
        (
            "One team at a time switches (both partners), the other team stays on the field strategy; each hand is "
            "played from the same deal and draws both ways. estimate = the switching team's points per hand, "
            "challenger - field, pooled over both teams (trials count team-hands). planning keeps its combinations "
            "(it passes the cards its plan leaves as singles and hands the lead over after a Fancy trick when the "
            "partner holds fewer cards); greedy passes its two lowest cards and takes no special action. Each "
            "planning-* and greedy-* challenger changes one policy of its field."
        ),
        ct[["field", "challenger", "trials", "field_value", "challenger_value", "estimate", "ci_low", "ci_high"]],
    )


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


def hand_strength(runs: dict) -> Section:
    t = runs["games"]["planning"]
    hc = t[(t.measure == "out_first_given_hcp") & (t.trials >= 200)]

    def draw():
        from ..plots import new_figure, yerr

        fig, ax = new_figure()
        ax.errorbar(hc.hcp.astype(int), hc.estimate, yerr=yerr(hc.estimate, hc.ci_low, hc.ci_high), fmt="o-", capsize=2)
        ax.axhline(0.25, color="grey", lw=0.8, ls="--")
        ax.set_xlabel("high-card points after the pass (A 4, K 3, Q 2, J 1)")
        ax.set_ylabel("P(first out of the hand)")
        ax.set_title("A simple hand-strength measure and going out first (planning players)")
        return fig

    return Section(
        "How hand strength predicts going out first",
        (
            "High-card points of each hand after the pass, and how often that player went out first; every seat "
            "planning; Wilson intervals (points seen in at least 200 seat-hands)."
        ),
        hc[["hcp", "trials", "estimate", "ci_low", "ci_high"]],
        [draw],
    )


def games(runs: dict) -> Section:
    g = pd.concat(
        [t[t.measure.isin(["game_won", "hands_per_game"])].assign(strategy=k) for k, t in runs["games"].items()]
    )
    return Section(
        "Games",
        "Who wins a game, and how many hands a game lasts.",
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
            f'`cardlab odds biscuits --hand "{pos["hand"]}" {left} --precision 0.1 --seed {runs["seed"] + 6}`: N (seat 0) is on lead with '
            f"{pos['hand']}. Every legal lead on the same sampled layouts of the unseen cards, each hand played on "
            "by planning players (positions.md); net_points is the team's points minus the other team's this hand "
            "(BI-8), diff_points the paired difference to the best, ahead the chance that the team scores more "
            f"this hand ({res.meta['trials']:,} layouts).\n\n{res.meta['answer']}"
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
            f"--seed {runs['seed'] + 7}` (the record is "
            f"`cardlab record biscuits --seed {REVIEWED_SEED} --strategy planning`): each decision (the partner "
            "pass, plays, exchanges, handovers) judged on what the seat knew then, to ±0.25 points on the paired "
            "differences. loss_score is the best action's net points minus the taken action's (0 where they are "
            f"not separated at 95%).\n\n{res.meta['summary']}."
        ),
        res.table[cols],
        [lambda: BR.win_figure(res)],
        digits=3,
    )


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
)


def report(scale: float = 1.0, seed: int = 2026, progress: bool = True) -> tuple[str, str, list[Section]]:
    r = runs(scale, seed, progress)
    intro = (
        f"Biscuits (rules.md section 2, default rules), simulated with cardlab. Seed {seed}. Players: random, "
        f"greedy and planning (seeds/biscuits.toml describes each)."
    )
    return "Biscuits: first report", intro, [section(r) for section in SECTIONS]
