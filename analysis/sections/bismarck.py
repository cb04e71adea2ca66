"""The Bismarck strategy report: its simulations (:func:`runs`) and its sections, one function each."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ..report import Section
from ..review import example_record
from ..stats import share_difference_half_width, z_value

SWEDISH = {"ruleset": "swedish"}
# (round, challenger, trials at scale 1): PIMC is left out of rounds 2 and 3 (trumps), where it costs most
COMPARISONS = tuple(
    (rnd, challenger, size)
    for rnd in (1, 2, 3, 4)
    for challenger, size in (("dd", 1000), ("pimc", 150))
    if not (challenger == "pimc" and rnd in (2, 3))
)


#: the advisor's worked opening lead: seat 0 is forehand (the dealer's left, BM-4) in round 1 (no trumps)
WORKED_LEAD: dict[str, Any] = {"hand": "AS KS 2H 3H 4C 5C 6C 7C 8D 9D TD JD QH KH AH 2S", "round": 1, "dealer": 2}
LEAD_LAYOUTS = 128
#: the trump choice: round 3 with round3_trump_timing=after_seeing_hand, the dealer (seat 1) with five spades and
#: five hearts
TRUMP_POSITION: dict[str, Any] = {
    "hand": "AS KS QS 7S 3S AH KH 9H 5H 2H KD 4D 2C 5C 8C JC",
    "decision": "name_trumps",
    "seat": 1,
    "dealer": 1,
    "variants": {"round3_trump_timing": "after_seeing_hand"},
}
TRUMP_LAYOUTS = 512
TRUMP_LAYOUTS_PIMC = 32
#: the reviewed example: seat 0 of seeds/records/bismarck-example.json (cardlab record bismarck --seed 1)
REVIEWED_RECORD = "bismarck-example.json"
REVIEWED_SEAT = 0
#: the strong field (cardlab strong-field): the search player (kernels/bismarck/search.py) in every seat, which
#: beats pimc in every round, the misere most (docs/performance.md). STRONG_PIMC_FROM[round]:
#: the cards in hand from which pimc (and search, in rounds 1-3) solve: 12 in the trump and no-trump rounds; 8 in
#: the misere (a pimc field's; the search player searches it to the end), whose double-dummy search is refused
#: above 12 cards and costs about 14 s a hand at 12 with three PIMC seats
STRONG_FIELD = "search"
STRONG_PIMC_FROM = {1: 12, 2: 12, 3: 12, 4: 8}
#: the long measurements of ``cardlab strong-field bismarck --long`` (issue 35): the players section's comparison
#: with the pimc, pimc-infer and dd players taking over from the first trick, SOLVER_DEALS deals a round, on the
#: deals of the report's comparison (its seed). SOLVER_FROM[round]: the cards in hand from which they solve, every card in
#: rounds 1-3 and in the misere the most its double-dummy search allows (games.bismarck.MISERE_DD_CARDS)
SOLVER_DEALS = 2000
#: pimc-infer's long runs: fewer deals (the issue's 2,000 a round are asked of pimc and dd)
INFER_DEALS = 500
SOLVER_FROM = {1: 16, 2: 16, 3: 16, 4: 12}
#: the search player from the first trick by rollouts alone (pimc_from 0: it never hands over to pimc; in the
#: misere it searches to the end anyway), beside the solver players: its rollouts play every seat as the heuristic
#: does, so among heuristic players it knows how they play (as pimc-infer), and dd's gain, which assumes a perfect
#: defence, does not bound it. 6,400 rollouts a card: about 55 ms a hand on one core
FIRST_SEARCH = "search:6400"
SOLVER_MODELS = ("dd", "pimc", "pimc-infer", FIRST_SEARCH)  # dd first: a tenth of pimc's time


def _solver_from(model: str, rnd: int) -> int:
    """The cards in hand from which a from-the-first-trick model solves: none for the rollout search."""
    return 0 if model == FIRST_SEARCH else SOLVER_FROM[rnd]


#: deals a chunk: 8 deals x 3 roles with a pimc seat from the first trick take 1-3 minutes on one core
SOLVER_CHUNK = 8


def runs(scale: float = 1.0, seed: int = 2026, progress: bool = True) -> dict:
    """Every simulation the report shows: ``hands[round]`` (single hands, heuristic players), ``games``
    (12-hand games), ``fairness`` ((label, table) per variant), ``swedish`` and ``compare`` (paired, pooled
    over the seats)."""
    from ..driver import run
    from ..games import bismarck as B

    def n(x, least=200):
        return max(least, int(x * scale))

    # the seeds and sizes of the runs the sections name (one place, so the text cannot drift from the runs)
    fairness_seed, swedish_seed = seed + 20, seed + 40
    hands_trials, fairness_trials = n(100_000), n(6_000)
    hands_seeds = {rnd: seed + rnd for rnd in range(1, 5)}
    hands = {
        rnd: run(
            B.simulation_spec(unit="hand", round=rnd, strategies=["heuristic"]),
            trials=hands_trials,
            seed=hands_seeds[rnd],
            progress=progress,
        ).table
        for rnd in range(1, 5)
    }
    games_seed = seed + 10
    games = run(B.simulation_spec(strategies=["heuristic"]), trials=n(20_000), seed=games_seed, progress=progress)
    fairness = [
        (
            label,
            run(
                B.simulation_spec(variants=variants, strategies=["heuristic"]),
                trials=fairness_trials,
                seed=fairness_seed,
                progress=progress,
            ).table,
        )
        for label, variants in B.FAIRNESS_VARIANTS
    ]
    swedish = run(
        B.simulation_spec(variants=SWEDISH, strategies=["heuristic"]),
        trials=fairness_trials,
        seed=swedish_seed,
        progress=progress,
    ).table
    compare = []
    for rnd, challenger, size in COMPARISONS:
        t = run(
            B.compare_spec("heuristic", challenger, round=rnd),
            trials=n(size, least=60),
            seed=seed + 30,
            progress=progress,
        ).table
        compare.append(t[t.role.isna()])
    from ..games import bismarck_odds as BO
    from ..games import bismarck_review as BR

    # the advisor and the review run at fixed sizes or to a precision, smaller only below scale 1 (quick reports)
    def fixed(x, least):
        return max(least, int(x * min(scale, 1.0)))

    lead = {
        model: BO.odds(
            {"trials": fixed(LEAD_LAYOUTS, 16), "seed": seed + 50, "progress": False}, strategies=[model], **WORKED_LEAD
        )
        for model in ("pimc", "heuristic")
    }
    trump = {
        model: BO.odds(
            {"trials": fixed(n_layouts, 8), "seed": seed + 51, "progress": False}, strategies=[model], **TRUMP_POSITION
        )
        for model, n_layouts in (("pimc", TRUMP_LAYOUTS_PIMC), ("heuristic", TRUMP_LAYOUTS))
    }
    review = BR.review(
        example_record(REVIEWED_RECORD), seat=REVIEWED_SEAT, precision=0.25, seed=seed + 52,
        max_trials=fixed(1024, 64),
    )  # fmt: skip
    from ..strong_field import stored

    return {
        "seed": seed,
        "hands_trials": hands_trials,
        "hands_seeds": hands_seeds,
        "fairness_trials": fairness_trials,
        "fairness_seed": fairness_seed,
        "swedish_seed": swedish_seed,
        "strong": stored("bismarck"),
        "lead": lead,
        "trump": trump,
        "review": review,
        "hands": hands,
        "games": games.table,
        "games_seed": games_seed,
        "fairness": fairness,
        "swedish": swedish,
        "compare": pd.concat(compare, ignore_index=True),
    }


def _quota(rnd: int, role: str, variants: dict) -> str:
    from ..games.bismarck import ROLES, K, variant_array

    return ("<= " if rnd == 4 else ">= ") + str(K.quota(rnd - 1, ROLES.index(role), variant_array(variants)))


def _hands_run(runs: dict) -> str:
    """The command line that gives a round's single hands (the report's seed and size, a seed a round)."""
    return (
        f"`cardlab simulate bismarck --unit hand --round R --trials {runs['hands_trials']} --seed S` (S by round: "
        f"{', '.join(f'{r}: {s}' for r, s in runs['hands_seeds'].items())})"
    )


def _fairness_flags() -> str:
    """Each fairness row's --variant flags, as a reader types them (a row's label is words, not a variant)."""
    from ..games.bismarck import FAIRNESS_VARIANTS

    return "; ".join(
        f"{label}: " + (" ".join(f"`--variant {k}={v}`" for k, v in variants.items()) if variants else "none")
        for label, variants in FAIRNESS_VARIANTS
    )


def rounds_by_role(runs: dict) -> Section:
    from ..games.bismarck import ROLES, ROUND_NAMES

    hand_tables = runs["hands"]
    rows = []
    for rnd, t in hand_tables.items():
        for role in ROLES:
            sub = t[t.role == role]
            get = {m: sub[sub.measure == m].iloc[0] for m in ("tricks", "score", "made_quota")}
            rows.append(
                {
                    "round": rnd,
                    "round_type": ROUND_NAMES[rnd],
                    "role": role,
                    "quota": _quota(rnd, role, {}),
                    "hands": int(get["tricks"].trials),
                    "tricks": get["tricks"].estimate,
                    "tricks_ci": f"{get['tricks'].ci_low:.3f}-{get['tricks'].ci_high:.3f}",
                    "score": get["score"].estimate,
                    "score_ci": f"{get['score'].ci_low:.3f}-{get['score'].ci_high:.3f}",
                    "P(quota)": get["made_quota"].estimate,
                    "P(quota)_ci": f"{get['made_quota'].ci_low:.4f}-{get['made_quota'].ci_high:.4f}",
                }
            )

    def draw():
        import matplotlib.pyplot as plt

        from ..plots import STYLE

        with plt.rc_context(STYLE):
            fig, axes = plt.subplots(1, 4, figsize=(12, 3.2), sharey=True)
            for ax, (rnd, t) in zip(axes, hand_tables.items()):
                for role in ROLES:
                    h = t[(t.measure == "tricks_taken") & (t.role == role)]
                    ax.plot(h.tricks.astype(int), h.estimate, marker="o", ms=3, label=role)
                ax.set_title(f"round {rnd}: {ROUND_NAMES[rnd]}")
                ax.set_xlabel("tricks taken")
            axes[0].set_ylabel("probability")
            axes[0].legend(fontsize=7)
            fig.suptitle("Tricks taken, by round and role (heuristic players)", fontsize=9)
        return fig

    table = pd.DataFrame(rows)
    dealer = table[(table.role == "dealer") & (table["round"] <= 3)]
    lo, hi = dealer["P(quota)"].min(), dealer["P(quota)"].max()
    others = table[(table.role != "dealer") & (table["round"] <= 3)]["score"]
    return Section(
        "Each round type, by role",
        (
            "Single hands of each round type (BM-5), every seat on the heuristic player, the default rules. "
            "P(quota): the role takes at least its quota in rounds 1-3 (dealer 8, others 4), at most its "
            "allowance in the misère round 4 (the blog post seeds/bismarck.md cites: dealer 6, others 4). Score: BM-6, original scheme: a role scores "
            "the tricks beyond its quota in rounds 1-3 (reaching it exactly scores 0) and the tricks short of its "
            f"allowance in the misère. 95% intervals (Wilson for probabilities, normal for means). Each round's "
            f"hands come from {_hands_run(runs)}.\n\n"
            f"Does the dealer beat the quota? Among heuristic players it reaches 8 tricks in {lo:.3f} to {hi:.3f} "
            f"of its hands in rounds 1-3 (the three rounds' figures; about one hand in {1 / ((lo + hi) / 2):.0f}), "
            f"and scores {dealer['score'].min():.2f} to {dealer['score'].max():.2f} points a hand there, against "
            f"{others.min():.2f} to {others.max():.2f} for each other role."
        ),
        table,
        [draw],
    )


def hand_features(runs: dict) -> Section:
    feats = pd.concat(
        [
            t[(t.measure == "tricks_by_feature") & (t.trials >= 100)].assign(round=rnd)
            for rnd, t in runs["hands"].items()
        ]
    )

    def draw():
        import matplotlib.pyplot as plt
        from matplotlib.ticker import MaxNLocator

        from ..plots import STYLE, yerr

        def line(ax, rnd, feature):
            h = feats[(feats["round"] == rnd) & (feats.feature == feature)]
            ax.errorbar(
                h.value.astype(int),
                h.estimate,
                yerr=yerr(h.estimate, h.ci_low, h.ci_high),
                fmt="o-",
                ms=3,
                capsize=2,
                label=f"round {rnd}",
            )

        with plt.rc_context(STYLE):
            fig, axes = plt.subplots(1, 3, figsize=(12, 3.2))
            for rnd in range(1, 5):
                line(axes[0], rnd, "hcp")
                if rnd in (2, 3):
                    line(axes[1], rnd, "trump_length")
                line(axes[2], rnd, "voids")
            axes[0].set_xlabel("high-card points (A 4, K 3, Q 2, J 1)")
            axes[1].set_xlabel("trump length")
            axes[2].set_xlabel("void suits")
            axes[0].set_ylabel("mean tricks taken")
            axes[2].xaxis.set_major_locator(MaxNLocator(integer=True))  # a count of suits: whole ticks
            for ax in axes:
                ax.legend(fontsize=7)
            fig.suptitle("Mean tricks by hand feature (heuristic players)", fontsize=9)
        return fig

    coarse = feats[(feats.feature != "hcp") | (feats.value % 4 == 0)]
    return Section(
        "How hand features map to tricks",
        (
            "Mean tricks taken by a hand with a given feature (all roles pooled; heuristic players; cells with at "
            "least 100 hands). The features: hcp, the hand's high-card points (A 4, K 3, Q 2, J 1; 40 in the deck), "
            "trump_length, its trumps (rounds 2 and 3), and voids, its suits without a card. Round 4 is the misère "
            "round: there a strong hand takes tricks it does not want. The table shows every fourth high-card point "
            "count; the chart shows them all. The hands come from "
            f"{_hands_run(runs)}."
        ),
        coarse[["round", "feature", "value", "trials", "estimate", "ci_low", "ci_high"]],
        [draw],
    )


def _seat_spread(gsum: pd.DataFrame) -> str:
    """The seats' game_won spread against what chance gives: the most and the least winning seat, their
    difference, and a 95% half-width for a difference of two seats' shares of the same games."""
    won = gsum[gsum.measure == "game_won"].dropna(subset=["estimate"]).set_index("seat")
    if len(won) < 2:
        return ""
    hi, lo = won.estimate.idxmax(), won.estimate.idxmin()
    p, q, n = won.estimate[hi], won.estimate[lo], float(won.trials[hi])
    # the extreme pair of three, chosen after looking: Bonferroni over the 3 pairs (z about 2.39)
    half = share_difference_half_width(p, q, n, confidence=1 - 0.05 / 3)
    # clear at 95% but not at 99% (the same Bonferroni): said to be close to chance
    half99 = share_difference_half_width(p, q, n, confidence=1 - 0.01 / 3)
    verdict = ("only just more than" if p - q <= half99 else "more than") if p - q > half else "within"
    caution = (
        f", though within the ±{half99:.4f} of 99%: another set of games may order the seats otherwise"
        if verdict == "only just more than"
        else ""
    )
    return (
        f"Each seat deals one cycle, and only the cycles' order differs: seat {int(hi)} wins {p:.3f} of the games "
        f"and seat {int(lo)} {q:.3f}, a difference of {p - q:.4f}, {verdict} the ±{half:.4f} that chance gives "
        f"the largest of the three seats' differences at 95%{caution}. "
    )


def games(runs: dict) -> Section:
    gt = runs["games"]
    gsum = gt[gt.measure.isin(["game_won", "game_shared_first", "game_total"])]
    hist = gt[gt.measure == "final_total"]

    def draw():
        from ..plots import new_figure

        fig, ax = new_figure()
        for s in range(3):
            h = hist[hist.seat == s]
            ax.plot(
                h.total_points.astype(int), h.estimate, marker=".", label=["first dealer", "its left", "its right"][s]
            )
        ax.set_xlabel("final total after 12 hands")
        ax.set_ylabel("probability")
        ax.set_title("Final scores (heuristic players, default rules)")
        ax.legend(fontsize=7)
        return fig

    return Section(
        "Who wins a 12-hand game",
        (
            "Complete games (BM-7): each player deals a cycle of four, block_of_four schedule, every seat "
            "playing the heuristic. Seat 0 is the first dealer, seat 1 its left, seat 2 its right. game_won = the "
            "sole highest total; game_shared_first = tied for the highest total. The figure is the final totals' "
            "distribution (the final_total rows of the same command's csv or json). "
            f"{_seat_spread(gsum)}The same games: "
            f"`cardlab simulate bismarck --trials {int(gsum.trials.iloc[0])} --seed {runs['games_seed']}`."
        ),
        gsum[["measure", "seat", "trials", "estimate", "ci_low", "ci_high"]],
        [draw],
    )


def fairness(runs: dict) -> Section:
    from ..games.bismarck import cycle_values

    rows = []
    for label, t in runs["fairness"]:
        cv = cycle_values(t)
        won = t[t.measure == "game_won"].set_index("seat")
        r3 = t[(t.measure == "score") & (t["round"] == 3) & (t.role == "dealer")].iloc[0]
        rows.append(
            {
                "variant": label,
                "games": int(won.trials.iloc[0]),
                "cycle_dealer": cv["dealer"],
                "cycle_left": cv["left"],
                "cycle_right": cv["right"],
                "dealer_minus_mean_other": cv["dealer"] - (cv["left"] + cv["right"]) / 2,
                "se": float(np.sqrt(cv["dealer_se"] ** 2 + (cv["left_se"] ** 2 + cv["right_se"] ** 2) / 4)),
                "round3_dealer_score": r3.estimate,
                "P(first dealer wins)": won.loc[0, "estimate"],
                "P(its left wins)": won.loc[1, "estimate"],
                "P(its right wins)": won.loc[2, "estimate"],
            }
        )
    fair = pd.DataFrame(rows)
    # the P(win) columns' 95% half-widths near a third each, on the fewest games of a row (no interval columns):
    # one column's, and a difference of two columns' (multinomial: var = (p1 + p2 - (p1 - p2)^2) / n)
    n_min = int(fair["games"].min())
    hw = z_value() * np.sqrt(1 / 3 * 2 / 3 / n_min)
    hw2 = share_difference_half_width(1 / 3, 1 / 3, n_min)

    # the answer first: how far the default deal is from fair, and which variants come nearest and farthest
    base = fair.iloc[0]
    order = fair.assign(gap=fair.dealer_minus_mean_other.abs()).sort_values("gap")
    near, far = order.iloc[0], order.iloc[-1]

    def gap(r) -> str:
        return f"{r.dealer_minus_mean_other:+.2f} points a cycle (95% ±{z_value() * r.se:.2f})"

    tilted = abs(base.dealer_minus_mean_other) > z_value() * base.se
    verdict = (
        f"With the default rules the deal is {'not ' if tilted else ''}fair within a cycle"
        f"{'' if tilted else ' (at 95%)'}: the dealer's cycle is worth {gap(base)} against a non-dealer's. "
        f"Nearest to fair: {near.variant}, {gap(near)}; farthest: {far.variant}, {gap(far)}. Over a 12-hand game "
        "each player deals one cycle, so that falls on every seat alike; the P(win) columns check the rest. "
    )

    def draw():
        from ..plots import new_figure

        fig, ax = new_figure(7.0, 3.6)
        ax.barh(fair.variant, fair.dealer_minus_mean_other, xerr=z_value() * fair.se, capsize=2)
        ax.axvline(0, color="grey", lw=0.8)
        ax.set_xlabel("dealer's cycle score minus a non-dealer's (points per cycle of 4 hands)")
        ax.invert_yaxis()
        return fig

    return Section(
        "Is the deal fair? Scoring schemes and variants",
        (
            verdict
            + "For each variant (one change from the defaults), 12-hand games with heuristic players. cycle_<role>: "
            "the mean score of a role summed over the four round types, i.e. what one cycle is worth to the dealer "
            "and to each non-dealer; dealer_minus_mean_other and its standard error measure how far the deal is "
            "from fair (0 = fair). Each player deals one cycle in a 12-hand game, so no seat deals more often "
            "than another (only the cycles' order differs); the P(win) columns check how fair that makes the game: "
            f"on {n_min:,} games a row, each is within about "
            f"±{hw:.3f} at 95% and a difference of two about ±{hw2:.3f}, and with 11 rows of 3 pairs a few "
            "differences that size are expected by chance; the table above measures who wins on more games. "
            "Simplified scoring (BM-6's house rule): a trick is a point in rounds 1-3, and the misère scores 4 - "
            "tricks, negative too. round4_start=classic (dealer at most 4 tricks, others 6) and simplified "
            "(everyone 4) score the misère "
            "without the floor at 0 (rules.md 3(c)2), so a cycle's score can be negative there; the two differ only by "
            "2 points in each non-dealer's misère score, which every player gets in the two cycles it does not deal, "
            "so their P(win) columns are the same. "
            "round3_dealer_score: the dealer's mean score in round 3 (named trumps): the default row names trumps "
            "before seeing the hand (blind), the 'round3 trump after seeing hand' row after (seen). Each row comes "
            f"from `cardlab simulate bismarck VARIANTS --trials {runs['fairness_trials']} --seed "
            f"{runs['fairness_seed']}`, VARIANTS by row: {_fairness_flags()}."
        ),
        fair,
        [draw],
        digits=3,
    )


def swedish(runs: dict) -> Section:
    from ..games.bismarck import CONTRACT_NAMES, ROLES

    sw = runs["swedish"]
    rows = []
    for rnd, contract in CONTRACT_NAMES.items():
        for role in ROLES:
            sub = sw[(sw["round"] == rnd) & (sw.role == role)]
            get = {m: sub[sub.measure == m].iloc[0] for m in ("tricks", "score", "made_quota")}
            rows.append(
                {
                    "contract": contract,
                    "role": "forehand" if role == "left" else role,
                    "quota": _quota(rnd, role, SWEDISH),
                    "hands": int(get["tricks"].trials),
                    "tricks": get["tricks"].estimate,
                    "score": get["score"].estimate,
                    "score_ci_low": get["score"].ci_low,
                    "score_ci_high": get["score"].ci_high,
                    "P(quota)": get["made_quota"].estimate,
                }
            )
    table = pd.DataFrame(rows)
    won = sw[sw.measure == "game_won"].set_index("seat")

    def draw():
        from ..plots import new_figure, yerr

        fig, ax = new_figure(7.0, 3.2)
        for i, role in enumerate(("dealer", "forehand", "right")):
            x = table[table.role == role]
            ax.errorbar(
                np.arange(4) + (i - 1) * 0.12,
                x.score,
                yerr=yerr(x.score, x.score_ci_low, x.score_ci_high),
                fmt="o",
                capsize=2,
                label=role,
            )
        ax.set_xticks(range(4), [c.split()[0] for c in CONTRACT_NAMES.values()])
        ax.axhline(0, color="grey", lw=0.8)
        ax.set_ylabel("mean score of a hand")
        ax.set_title("Swedish Bismarck: score by contract and role (heuristic players)")
        ax.legend(fontsize=7)
        return fig

    p_win = ", ".join(
        f"{who} {won.loc[s_, 'estimate']:.3f} ({won.loc[s_, 'ci_low']:.3f}-{won.loc[s_, 'ci_high']:.3f})"
        for s_, who in enumerate(("first dealer", "its left", "its right"))
    )
    return Section(
        "Swedish Bismarck for comparison",
        (
            "ruleset=swedish (rules.md 3(c)10): the deal passes left every hand, forehand (the dealer's left) chooses "
            "the contract from the 4 face-up widow cards alone, each contract once in its four turns, takes the widow, "
            "discards 4 and leads; quotas forehand 8, others 4 (Pass: at most 4 and 6); one point a trick above the "
            "quota, minus one below, so every hand sums to 0. 12-hand games, heuristic players (their contract rules "
            "are in seeds/bismarck.md). Every player is forehand once in each contract, so the game is fair by "
            f"symmetry; the table shows where the points come from. P(sole highest total) by seat: {p_win}. The games "
            f"come from `cardlab simulate bismarck --variant ruleset=swedish --trials {runs['fairness_trials']} --seed "
            f"{runs['swedish_seed']}`."
        ),
        table,
        [draw],
        digits=3,
    )


def players(runs: dict) -> Section:
    from ..games.bismarck import PIMC_FROM, PIMC_SAMPLES, labels
    from ..strong_field import provenance

    cols = ["measure", "round", "challenger", "solver_from", "source", "trials", "field_value", "challenger_value",
            "estimate", "ci_low", "ci_high"]  # fmt: skip
    parts = [runs["compare"].assign(solver_from=PIMC_FROM, source="report")]
    doc = runs.get("strong") or {}
    stored = {k: v for k, v in doc.get("runs", {}).items() if k.startswith("from-first-")}
    for v in stored.values():
        t = pd.DataFrame(v["table"])
        parts.append(t[t.role.isna()].assign(solver_from=v["describe"]["pimc_from"], source="stored"))
    table = pd.concat(parts, ignore_index=True)[cols].sort_values(
        ["round", "source", "challenger"], kind="stable", ignore_index=True
    )
    text = (
        "One seat at a time switches from the heuristic player to a challenger on the same deal (the others "
        "stay heuristic); pooled over the three seats, so trials counts each deal three times. The PIMC and "
        "double-dummy players take over once a hand holds as many cards as solver_from says, the heuristic before. "
        f"PIMC samples {PIMC_SAMPLES} layouts of the hidden cards per decision. dd sees every hand and plays the "
        "card that is best if the two others defend perfectly and together (against heuristic players that need "
        "not be the best play; the misère rows show it): dd - pimc is what seeing the hidden "
        "cards is worth to a solver, and dd's gain over the "
        "heuristic is a practical ceiling for PIMC, which solves its sampled layouts the same way. pimc-infer is "
        "PIMC whose layouts are those in which the other seats' cards so far are the heuristic's: it knows how "
        f"its opponents play, which a player at a real table does not. {labels([FIRST_SEARCH])[0]} is the search "
        "player from "
        "the first trick by rollouts alone (solver_from 0), its rollouts played by heuristic players: it too knows "
        "how its opponents play, and dd's gain, which assumes the two others defend perfectly and together, does "
        "not bound it. In round 4 "
        "(misère) fewer tricks is better, so a gain in tricks is negative (a score row keeps its sign: more is better); PIMC there minimises expected tricks, which is not "
        "the floored score, and shares PIMC's known weakness of assuming it will see the cards later (strategy "
        "fusion).\n\n"
        f"The rows from the last {PIMC_FROM} tricks (source report) are computed with this report; there pimc "
        "plays rounds 1 and 4 only (with trumps, in rounds 2 and 3, it costs the report most; the stored rows "
        "from the first trick have it in every round). "
    )
    if not stored:
        text += (
            "From the first trick (in the misère from 12 cards, trick 5: its double-dummy search allows no more) "
            "the solvers are too slow for the report itself: `cardlab strong-field bismarck --long` computes those "
            f"rows on {SOLVER_DEALS:,} deals a round ({INFER_DEALS} for pimc-infer; hours; checkpointed) and stores "
            "them for this section. Not "
            "computed yet."
        )
        return Section("Heuristic, PIMC and double dummy on the same deals", text, table)
    missing = [r for r in (1, 2, 3, 4) for m in SOLVER_MODELS if f"from-first-{m}-round-{r}" not in stored]
    deals = " or ".join(sorted({f"{v['trials']:,}" for v in stored.values()}))
    same = runs.get("seed") is None or doc.get("seed") == runs["seed"]
    text += (
        "The rows from the first trick (the solver players' in the misère from 12 cards, trick 5: its double-dummy search allows no more; "
        f"source stored) come from `cardlab strong-field bismarck --long`, on {deals} deals a round"
        + (" (the report's rows play the first of them). " if same else f", seed {doc.get('seed')}: other deals "
           f"than the report's (seed {runs['seed']}). ")
        + provenance(doc, stored)
    )  # fmt: skip
    text += (
        " Their other two seats are heuristic players, whatever the command's --field (the field of the other runs)."
    )
    if missing:
        by_round = {r: [m for m in SOLVER_MODELS if f"from-first-{m}-round-{r}" not in stored] for r in (1, 2, 3, 4)}
        which = "; ".join(f"round {r}: {', '.join(ms)}" for r, ms in by_round.items() if ms)
        text += (
            f" Not computed yet: {len(missing)} of the {4 * len(SOLVER_MODELS)} runs from the first trick ({which})."
        )
    tricks = table[(table.measure == "tricks_challenger_minus_field") & (table.source == "stored")]
    said = [
        f"round {r.round}, {r.challenger} {r.estimate:+.2f} ({r.ci_low:+.2f} to {r.ci_high:+.2f})"
        for r in tricks.itertuples(index=False)
    ]
    if said:
        text += " Tricks a hand, challenger minus heuristic, from the first trick: " + "; ".join(said) + "."
    # in the misère a trick taken is the loss (BM-6): there the round score, not the tricks, says who did better
    misere = table[(table.measure == "score_challenger_minus_field") & (table.source == "stored")]
    misere = misere[misere["round"] == 4]
    if len(misere):
        text += (
            " In the misère (round 4) fewer tricks is better, and the round score says which play did better there: "
            + "; ".join(
                f"{r.challenger} {r.estimate:+.2f} points a hand ({r.ci_low:+.2f} to {r.ci_high:+.2f})"
                for r in misere.itertuples(index=False)
            )
            + ". An interval wholly below 0 is a play that loses points against heuristic players."
        )
    return Section("Heuristic, PIMC and double dummy on the same deals", text, table)


def _advice_table(res_by_model: dict) -> pd.DataFrame:
    """One row per action and model: round score, quota, tricks, the paired round-score difference to the
    best."""
    rows = []
    for model, res in res_by_model.items():
        t = res.table
        for action in dict.fromkeys(t["action"]):
            at = t[t.action == action].set_index("measure")
            rows.append(
                {
                    "model": model,
                    "action": action,
                    "verdict": at.loc["score", "verdict"],
                    "round_score": at.loc["score", "estimate"],
                    "quota": at.loc["win", "estimate"],
                    "tricks": at.loc["tricks", "estimate"],
                    "diff_score": at.loc["diff_score", "estimate"],
                    "diff_low": at.loc["diff_score", "ci_low"],
                    "diff_high": at.loc["diff_score", "ci_high"],
                    "layouts": int(at.loc["score", "trials"]),
                }
            )
    return pd.DataFrame(rows)


def worked_lead(runs: dict) -> Section:
    pos = WORKED_LEAD
    res = runs["lead"]
    cmd = (
        f'`cardlab odds bismarck --hand "{pos["hand"]}" --round 1 --dealer 2 --trials {res["pimc"].meta["trials"]} '
        f"--seed {res['pimc'].meta['seed']}` (and `--strategy heuristic`)"
    )
    return Section(
        "A worked opening lead: what should forehand lead?",
        (
            f"{cmd}: seat 0, the dealer's left, leads the first trick of round 1 (no trumps; its quota is 4 "
            "tricks, BM-6). Every card (equal cards share a row) on the same sampled layouts of the other hands, "
            "valued two ways: pimc, each layout solved double dummy with the other two seats together against "
            "seat 0 (what a PIMC player computes; no bound either way: the two defend perfectly and as one, and "
            "seat 0 sees each layout whole), "
            "and heuristic, the hand played on by heuristic players. quota is the chance to make it, "
            "diff_score the paired round-score difference to the best card. The pimc rows are how the pimc player "
            'of "Heuristic, PIMC and double dummy" chooses its card; against players like the heuristic, the '
            "heuristic rows are the value of each card.\n\n"
            f"pimc: {res['pimc'].meta['answer']}\n\nheuristic: {res['heuristic'].meta['answer']}"
        ),
        _advice_table(res),
        digits=3,
    )


def _more_tricks_not_best(t: pd.DataFrame) -> str:
    """The reviewed events where the card played has more expected tricks than the best card by round score."""
    ev = t[t.tricks_taken > t.tricks_best]
    if ev.empty:
        return ""
    which = ", ".join(str(int(e)) for e in ev.event)
    return f" (event{'s' if len(ev) > 1 else ''} {which}: the card played has more tricks on average than the best)"


def trump_choice(runs: dict) -> Section:
    pos = TRUMP_POSITION
    res = runs["trump"]
    return Section(
        "A trump choice: five spades or five hearts?",
        (
            f'`cardlab odds bismarck --decision name_trumps --seat 1 --dealer 1 --hand "{pos["hand"]}" '
            "--variant round3_trump_timing=after_seeing_hand "
            f"--trials {res['heuristic'].meta['trials']} --seed {res['heuristic'].meta['seed']}` (and with "
            f"`--strategy pimc --trials {res['pimc'].meta['trials']} --seed {res['pimc'].meta['seed']}`; round 3 "
            "with trumps named after seeing the hand, "
            "3(c)3): the dealer's quota is 8 tricks and it scores from the 9th (BM-6), so the rows, ranked by round "
            "score, may put first a suit with the lower chance of reaching 8. Each suit named on the same layouts "
            f"of the other two hands (pimc: {res['pimc'].meta['trials']} layouts, each whole hand solved double "
            f"dummy; heuristic: {res['heuristic'].meta['trials']}). The two models differ widely: pimc has the other "
            "two seats play together against the dealer, every hand seen (no bound either way: at the "
            "table each "
            "plays for itself, and nobody sees the others' cards); heuristic plays the hand on with heuristic "
            "players. Against players like the heuristic, read its rows; the pimc rows say how each trump fares "
            f"against a perfect, combined defence.\n\npimc: {res['pimc'].meta['answer']}\n\n"
            f"heuristic: {res['heuristic'].meta['answer']}"
        ),
        _advice_table(res),
        digits=3,
    )


def reviewed_hand(runs: dict) -> Section:
    from ..games import bismarck_review as BR

    res = runs["review"]
    cols = ["event", "on_table", "actions", "taken", "best", "verdict", "tricks_taken", "tricks_best", "dd_taken",
            "dd_best", "loss_score", "win_taken", "win_best", "loss_win"]  # fmt: skip
    return Section(
        f"A reviewed hand: seat {REVIEWED_SEAT} of the example record",
        (
            f"`cardlab review bismarck seeds/records/{REVIEWED_RECORD} --seat {REVIEWED_SEAT} --seed "
            f"{res.meta['seed']}` (the record is `cardlab record bismarck --seed 1`: heuristic players, round 1): "
            "each card judged on what the seat knew then (the record's heuristic players as models, each paired "
            "difference run to ±0.25 points of round score or until it is clear of zero), beside the seat's tricks in the hand on the actual "
            "layout, double dummy, with the card played (dd_taken) and the best card there (dd_best), the other "
            "two seats together against it (no bound either way: the record's players did not play "
            "together, and the seat sees every card there too). tricks_taken and tricks_best are the seat's "
            "expected tricks with the card played and with the best; win_taken and win_best the chance to make the "
            "quota with the card played and with the best, loss_win their difference (0 where not separated at "
            "95%; the summary below quotes it); loss_score the best card's round score minus the taken card's (0 where the two are "
            "not separated at 95%). The best card is the one with the highest round score, and the round score "
            "counts only the tricks above the quota (BM-6: making it exactly scores 0, and so does missing it), so "
            "the best card need not have the most tricks or the best chance of the quota"
            + _more_tricks_not_best(res.table)
            + ".\n\n"
            f"{res.meta['summary']}."
        ),
        res.table[cols],
        [lambda: BR.tricks_figure(res)],
        digits=3,
    )


def strong_field_runs(field: str) -> list:
    """What ``cardlab strong-field bismarck`` measures with ``field`` in every seat: each round type's hands, by
    role (tricks, score, the quota); and, with ``--long``, the players section's comparison (heuristic against pimc
    and dd) with the solver players from the first trick (SOLVER_FROM)."""
    from ..games import bismarck as B
    from ..strong_field import StrongRun

    def by_role(t: pd.DataFrame) -> pd.DataFrame:
        return t[t.measure.isin(["tricks", "score", "made_quota"])]

    plan = [
        StrongRun(  # the seed of the report's hands of that round (runs()): the same deals
            f"round-{rnd}",
            B.simulation_spec(unit="hand", round=rnd, strategies=[field], pimc_from=STRONG_PIMC_FROM[rnd]),
            1000,
            rnd,
            by_role,
        )
        for rnd in (1, 2, 3, 4)
    ]
    # the seed of the report's comparisons (runs(): seed + 30), so their deals are the first of these
    plan += [
        StrongRun(
            f"from-first-{model}-round-{rnd}",
            B.compare_spec("heuristic", model, round=rnd, pimc_from=_solver_from(model, rnd)),
            INFER_DEALS if model == "pimc-infer" else SOLVER_DEALS,
            30,
            long=True,
            chunk=SOLVER_CHUNK,
        )  # fmt: skip
        for rnd in (1, 2, 3, 4)  # round by round, so that a computation cut short has whole rounds
        for model in SOLVER_MODELS
    ]
    return plan


def strong_field(runs: dict) -> Section:
    from ..games.bismarck import PIMC_FROM, PIMC_SAMPLES, ROLES, ROUND_NAMES
    from ..strong_field import CHANGES_LEGEND, not_computed, provenance, side_by_side

    doc = runs.get("strong") or {}
    title = "Each round and role again, with a strong field"
    # the field's runs (the long ones, from-first-*, belong to the players section)
    R = {k: v for k, v in doc.get("runs", {}).items() if k.startswith("round-")}
    if not R:
        return not_computed("bismarck", title)
    parts = []
    for rnd, today in runs["hands"].items():
        key = f"round-{rnd}"
        if key not in R:
            continue
        keep = ["tricks", "score", "made_quota"]
        t = side_by_side(
            today[today.measure.isin(keep) & today.role.notna()], R[key]["table"].dropna(subset=["role"]),
            ["measure", "role"], ("heuristic", "strong"),
        )  # fmt: skip
        parts.append(t.assign(round=rnd, round_type=ROUND_NAMES[rnd]))
    table = pd.concat(parts, ignore_index=True)
    # every row that changes at 95%, a sentence a round and role (the quota, the score, the tricks)
    sentences = []
    words = {"made_quota": "P(quota)", "score": "the round score", "tricks": "tricks"}
    changed = table[table.changes != ""]
    for (rnd, role), g in changed.groupby(["round", "role"], sort=False):
        said = [
            f"{words[r.measure]} {r.estimate_heuristic:.3f} -> {r.estimate_strong:.3f}"
            for r in g.sort_values("measure", key=lambda c: c.map(list(words).index)).itertuples(index=False)
        ]
        sentences.append(f"Round {rnd} ({g.round_type.iloc[0]}), the {role}: {', '.join(said)}.")
    if sentences:
        sentences.insert(0, f"What changes at 95%, heuristic players -> {doc['field']} players:")
    field = R[next(iter(R))]["describe"]["strategies"][0]  # as stored, a search player's budget spelled out
    search = field.partition(":")[0] == "search"
    by_from: dict[int, list[str]] = {}
    for rnd in sorted(R):
        if search and rnd == "round-4":  # the search player searches the misere to the end
            continue
        by_from.setdefault(R[rnd]["describe"].get("pimc_from", PIMC_FROM), []).append(rnd.split("-")[1])
    froms = " and ".join(f"{k} cards in round{'s' if len(v) > 1 else ''} {', '.join(v)}" for k, v in by_from.items())
    samples = R[next(iter(R))]["describe"].get("pimc_samples", PIMC_SAMPLES)
    if search:
        who = (
            f"Every seat plays {field}: at each card a budget of rollouts, each on a sampled layout of the hidden "
            "cards played on by heuristic players who see only what they would at the table, from the first trick; "
            f"to the end in the misere, and in rounds 1-3 as pimc ({samples} sampled layouts a card, each solved "
            f"double dummy) from the trick where a hand holds {froms}"
        )
    else:
        who = (
            f"Every seat plays {field} (pimc: sampled layouts of the hidden cards, each solved double dummy, "
            f"{samples} a card; dd: the layout known) from the trick where a hand holds {froms} (the heuristic "
            "before that)"
        )
    text = (
        f"{who}, on the same deals as the heuristic players' figures of the first section (their first trials). "
        f"{provenance(doc, R)} {CHANGES_LEGEND}.\n\n" + " ".join(sentences or ["No role's figure changes at 95%."])
    )
    cols = ["round", "round_type", "role", "measure", "estimate_heuristic", "ci_low_heuristic", "ci_high_heuristic",
            "trials_strong", "estimate_strong", "ci_low_strong", "ci_high_strong", "changes"]  # fmt: skip
    order = {r: i for i, r in enumerate(ROLES)}
    table = table.sort_values(["round", "measure"], kind="stable").sort_values(
        ["round", "role"], key=lambda c: c.map(order) if c.name == "role" else c, kind="stable"
    )
    return Section(title, text, table[cols], digits=3)


SECTIONS = (
    rounds_by_role,
    hand_features,
    games,
    fairness,
    swedish,
    players,
    worked_lead,
    trump_choice,
    reviewed_hand,
    strong_field,
)


def report(scale: float = 1.0, seed: int = 2026, progress: bool = True) -> tuple[str, str, list[Section]]:
    r = runs(scale, seed, progress)
    intro = (
        f"Bismarck (seeds/bismarck.md, default rules unless a section says otherwise), simulated with "
        f"cardlab. Seed {seed}. Roles: dealer, left (leads the first trick; forehand in Swedish Bismarck) and "
        "right. The players: heuristic (hand-written rules, seeds/bismarck.md); dd, double dummy: plays each "
        "card as an exact search with every hand seen would, the two others together against it (not a player one "
        "could meet); pimc: samples layouts of the hidden cards consistent with what it has seen and "
        "plays the card best on average over them, each solved double dummy (perfect-information Monte Carlo); "
        "pimc-infer: pimc whose samples also follow what the others' play says about their hands; search:N: a "
        "rollout search from the first trick, N rollouts a card (spent by sequential halving: the candidates on "
        "common layouts, the worse half out after each round), that plays as pimc "
        "in rounds 1-3 once its hand holds --pimc-from cards or fewer (the strong field: search:400, 12 cards). "
        "Strategy fusion: pimc's error of assuming it will know the hidden cards later in the hand, which costs it "
        "most in the misère. Scores (BM-6): with t tricks in rounds 1-3 the dealer scores max(0, t - 8) and each "
        "other player max(0, t - 4), so the quota (8 tricks for the dealer, 4 for the others) scores nothing by "
        "itself: only the tricks above it count; in the misère (round 4) the dealer scores max(0, 6 - t), the "
        "others max(0, 4 - t)."
    )
    return "Bismarck: what each seat and round is worth", intro, [section(r) for section in SECTIONS]
