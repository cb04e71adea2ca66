"""The Bisko-Bobo strategy report: its simulations (:func:`runs`) and its sections, one function each."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..report import Section, clear_of

PLAYER_COUNTS = range(2, 7)
EDGE_FIELDS = ("heuristic", "always-jingo")
#: the reviewed example, every seat: seeds/records/bisko-bobo-example.json (cardlab record bisko-bobo --seed 7)
REVIEWED_RECORD = "bisko-bobo-example.json"


_G, _K = "analysis.games.bisko_bobo", "kernels.bisko_bobo"
#: the kernels of the report after its first simulation, for :mod:`analysis.compile_ahead` (each with the function
#: that makes its spec)
COMPILE_AHEAD: list[tuple[str, str, str, list, dict]] = [
    (f"{_K}:decision_chunks", _G, "decision_spec", [4], {}),
    (f"{_K}:compare_chunks", _G, "compare_spec", [4, "heuristic", "no-swap"], {}),
    (f"{_K}:odds_actions_chunks", "analysis.sections.bisko_bobo", "reviewed_spec", [], {}),
    (f"{_K}:exact_type_counts", _G, "exact_bisk_types", [4, 1], {}),  # the Bisk types section's exact counts
]


def runs(scale: float = 1.0, seed: int = 2026, progress: bool = True) -> dict:
    """Every simulation the report shows: ``games[P]`` (every seat heuristic), ``decisions`` (4 players, every
    decision replayed both ways), ``no_swap[P]`` and, when recommended tables are stored, ``edge[(P, field)]``
    (paired comparisons, pooled over seats)."""
    from .. import compile_ahead
    from ..driver import run
    from ..games import bisko_bobo as B

    # on a cold numba cache, the later sections' kernels compile in a helper process while this one compiles
    # and runs the simulation's (about half of a cold quick report's compiling)
    compile_ahead.start(COMPILE_AHEAD)

    def n(x):
        return max(2000, int(x * scale))

    # the seeds and sizes of the runs the sections name (one place, so the text cannot drift from the runs)
    seeds = {"decisions": seed + 1, "no-swap": seed + 2, "recommended": seed + 3}
    decisions_trials, compare_trials = n(2_000_000), n(500_000)
    games = {P: run(B.simulation_spec(P), trials=n(2_000_000), seed=seed, progress=progress) for P in PLAYER_COUNTS}
    decisions = run(B.decision_spec(4), trials=decisions_trials, seed=seeds["decisions"], progress=progress).table
    no_swap = {
        P: run(
            B.compare_spec(P, "heuristic", "no-swap"), trials=compare_trials, seed=seeds["no-swap"], progress=progress
        ).table
        for P in PLAYER_COUNTS
    }
    edge = {}
    if B.recommended_tables():
        for P in PLAYER_COUNTS:
            for field in EDGE_FIELDS:
                spec = B.compare_spec(P, field, "recommended")
                edge[(P, field)] = run(spec, trials=compare_trials, seed=seeds["recommended"], progress=progress).table
    sheets = {}
    if B.recommended_tables().get("cheat_sheets"):
        from ..games import bisko_bobo_sheet as S

        for P in PLAYER_COUNTS:
            sheet = S.stored_sheet(P)
            rows, line = S.edges(P, sheet, n(1_000_000), seed + 4, progress)
            sheets[P] = (S.lines(P, sheet), rows, line)
    from ..games import bisko_bobo_review as BR
    from ..review import example_record

    # the review runs to a precision, its work fixed by the record; a quick report (scale below 1) loosens it
    review = BR.review(
        example_record(REVIEWED_RECORD), precision=0.01 if scale >= 1 else 0.04, seed=seed + 5, progress=progress
    )
    return {
        "review": review,
        "sheets": sheets,
        "seed": seed,
        "compare_trials": compare_trials,
        "seeds": seeds,
        "decisions_trials": decisions_trials,
        "games": {P: r.table for P, r in games.items()},
        "main_trials": games[4].meta["trials"],
        "decisions": decisions,
        "no_swap": no_swap,
        "edge": edge,
    }


def _games_run(runs: dict, players: int | None = None) -> str:
    """The command line that gives the main tables' figures (the same deals: the report's seed and size), for one
    player count or each."""
    P = "P" if players is None else str(players)
    each = "" if players is not None else f" (P: {', '.join(str(P) for P in runs['games'])})"
    return f"`cardlab simulate bisko-bobo --players {P} --trials {runs['main_trials']} --seed {runs['seed']}`{each}"


def _compare_run(runs: dict, field: str, challenger: str) -> str:
    """The command line of a paired comparison the report runs for each player count P."""
    return (
        f"`cardlab compare bisko-bobo --field {field} --challenger {challenger} --players P --trials "
        f"{runs['compare_trials']} --seed {runs['seeds'][challenger]}`"
    )


def _decisions_run(runs: dict, decision: str, keys: list[str]) -> str:
    """How a decision table is run again (the replays have no command of their own: Python, README's Python API):
    the run, then its rows of ``decision`` pooled by ``keys``, as the section pools them."""
    return (
        f"`t = driver.run(bisko_bobo.decision_spec(4), trials={runs['decisions_trials']}, "
        f"seed={runs['seeds']['decisions']}).table` in Python (`from analysis import driver`, `from analysis.games "
        "import bisko_bobo`; README, Python API), then `bisko_bobo.pooled_pairs(t[t.decision == "
        f'"{decision}"], {keys!r})`'
    )


def reviewed_spec():
    """The advisor's spec of the reviewed deal's first free decision (for :mod:`analysis.compile_ahead`: the
    review's kernel, with the argument types the review gives it)."""
    from ..games import bisko_bobo_review as BR
    from ..review import example_record

    deal = BR.replay(example_record(REVIEWED_RECORD))
    for i in range(len(deal.events)):
        spec, _taken = BR.decision_spec(deal, i, [BR.DEFAULT_STRATEGY])
        if hasattr(spec, "kernel"):
            return spec
    raise ValueError("the reviewed deal has no free decision")


def win_by_seat(runs: dict) -> Section:
    wins = pd.concat([t[(t.measure == "win") & t.seat.notna()].assign(players=P) for P, t in runs["games"].items()])
    t = wins[["players", "seat", "trials", "estimate", "ci_low", "ci_high"]].rename(columns={"estimate": "win"})
    # the answer: by player count, the seats whose interval lies clear of the fair share, above or below
    parts = []
    for P, g in t.groupby("players"):
        clear = [
            f"seat {int(r.seat)}{' (the dealer)' if int(r.seat) == P - 1 else ''} {r.side}, {r.win:.4f}"
            for r in clear_of(g, 1 / P).itertuples(index=False)
        ]
        parts.append(f"{P} players: " + (", ".join(clear) if clear else "no seat clear of it"))
    fairness = f"Seats clear of the fair share (1 / players) at 95%: {'; '.join(parts)}. "

    def draw():
        from ..plots import bar_with_intervals

        # each player count's fair share (1 / players) taken out, so that the seats' differences show
        fair = 1.0 / wins.players
        return bar_with_intervals(
            wins.assign(
                seat=wins.seat.astype(int),
                estimate=wins.estimate - fair,
                ci_low=wins.ci_low - fair,
                ci_high=wins.ci_high - fair,
            ),
            "seat",
            "players",
            title="Win share by seat, minus the fair share (heuristic field; seat 0 = dealer's left)",
            ylabel="win share - 1 / players",
            xlabel="seat (playing order; the last seat deals)",
            reference=0.0,
        )

    return Section(
        "Win rate by seat",
        (
            fairness
            + "Every seat on the heuristic strategy; split wins count 1/k. Seat 0 sits at the dealer's left and "
            "chooses first in Risky-Bisk (BB-5); the highest seat is the dealer, who sees every earlier Flingo. "
            "Intervals are 95% (mean and standard error of the win share). The chart shows each seat's win share "
            f"minus the fair share (1 / players), the table the win share itself. Each player count's deals come from "
            f"{_games_run(runs)}."
        ),
        t,
        [draw],
    )


def flingo_or_jingo(runs: dict) -> Section:
    from ..games.bisko_bobo import pooled_pairs

    dec = runs["decisions"]
    fl = dec[dec.decision == "flingo"]
    pooled = pooled_pairs(fl, ["jingos_so_far", "later_free", "unseen_of_suit"])
    pooled = pooled[pooled.trials >= 200].astype({"unseen_of_suit": int})
    by_unseen = pooled_pairs(fl, ["unseen_of_suit"]).astype({"unseen_of_suit": int})
    # every free choice together: the average question ("Flingo or Jingo?"), each situation as often as it comes
    every = pooled_pairs(fl.assign(_all=0), ["_all"]).iloc[0]

    def draw():
        from ..plots import new_figure, yerr

        fig, ax = new_figure()
        ax.errorbar(
            by_unseen["unseen_of_suit"],
            by_unseen["estimate"],
            yerr=yerr(by_unseen["estimate"], by_unseen["ci_low"], by_unseen["ci_high"]),
            fmt="o-",
            capsize=3,
        )
        ax.axhline(0, color="grey", lw=0.8)
        ax.set_xlabel("unseen HIGH cards of the upright card's suit")
        ax.set_ylabel("win(Jingo) - win(Flingo)")
        ax.set_title("4 players: value of Jingo over Flingo, paired on the same deals")
        return fig

    return Section(
        "Flingo or Jingo, by situation (4 players)",
        (
            "For every free Flingo/Jingo choice in a deal, the deal is replayed with both actions from the same "
            "cards (common random numbers); the column estimate is win(Jingo) - win(Flingo) with its paired 95% "
            "interval. Situations: Jingos taken so far, whether free players choose later, and how many HIGH cards "
            "of the upright suit are still unseen. Only a Tuck player chooses (an opening Bisko must take the "
            "Jingo, BB-5), so this is the Tuck player's question. Everyone else plays the heuristic. The table "
            "leaves out situations met fewer than 200 times; over every free choice "
            f"({int(every.trials):,}, each situation as often as it comes): the Flingo wins {every.win_action0:.4f}, "
            f"the Jingo {every.win_action1:.4f}, win(Jingo) - win(Flingo) {every.estimate:+.4f} (95% "
            f"{every.ci_low:+.4f} to {every.ci_high:+.4f}): "
            + (
                f"{'the Jingo' if every.estimate > 0 else 'the Flingo'} is the better choice on average against "
                "heuristic players, though not in every situation (the table)"
                if every.ci_low > 0 or every.ci_high < 0
                else "on average neither is clearly better against heuristic players; the situations decide"
            )
            + ". Against another field the answer may change (`cardlab compare bisko-bobo`). The figure pools the "
            "situations by the unseen HIGH cards of the upright card's suit alone (each as often as it comes)"
            + (
                ": the fewer of them are still out, the more the Jingo is worth against the Flingo."
                if len(by_unseen) > 2 and by_unseen.sort_values("unseen_of_suit")["estimate"].is_monotonic_decreasing
                else "."
            )
            + f" The rows: {_decisions_run(runs, 'flingo', ['jingos_so_far', 'later_free', 'unseen_of_suit'])}, "
            "those met 200 times or more."
        ),
        pooled[
            [
                "jingos_so_far",
                "later_free",
                "unseen_of_suit",
                "trials",
                "win_action0",
                "win_action1",
                "estimate",
                "ci_low",
                "ci_high",
            ]
        ].rename(columns={"win_action0": "win_flingo", "win_action1": "win_jingo"}),
        [draw],
    )


def bisk_types(runs: dict) -> Section:
    from ..games.bisko_bobo import TYPE_NAMES, exact_bisk_types

    ex = {m: exact_bisk_types(4, m)["probability"].to_numpy() for m in (3, 4, 5, 6)}
    ft = runs["games"][4]
    sim = ft[(ft.measure == "final_type") & ft.seat.isna()].set_index("bisk")
    types = pd.DataFrame(
        {
            "bisk": TYPE_NAMES,
            **{f"exact {m} cards": ex[m] for m in ex},
            "in play": sim.loc[TYPE_NAMES, "estimate"].to_numpy(),
            "in play ci_low": sim.loc[TYPE_NAMES, "ci_low"].to_numpy(),
            "in play ci_high": sim.loc[TYPE_NAMES, "ci_high"].to_numpy(),
        }
    )

    def draw():
        from ..plots import new_figure, yerr

        fig, ax = new_figure(6.4, 3.8)
        x = np.arange(len(TYPE_NAMES))
        for m in ex:
            ax.plot(
                x,
                np.where(ex[m] > 0, ex[m], np.nan),
                marker=".",
                lw=0.8,
                label=f"exact, random {m}-card set (impossible types left out)",
            )
        ax.errorbar(
            x,
            types["in play"],
            yerr=yerr(types["in play"], types["in play ci_low"], types["in play ci_high"]),
            fmt="ks",
            ms=4,
            capsize=2,
            label="final set in play (heuristic)",
        )
        ax.set_yscale("log")
        ax.set_xticks(x)
        ax.set_xticklabels(TYPE_NAMES, rotation=35, ha="right")
        ax.set_ylabel("probability (log scale)")
        ax.set_title("Bisk types, 4 players: exact and in play", fontsize=9)
        ax.legend(fontsize=7)
        return fig

    return Section(
        "Bisk type frequencies: exact and in play (4 players)",
        (
            "Exact: every m-card set of the 24-card HIGH deck, enumerated (cardlab exact bisko-bobo bisk-types). "
            "In play: the type of each player's final evaluation set (BB-10), which mixes set sizes and Jack "
            "reversals (three cards at most in Jack mode), every seat playing the heuristic: the deals of "
            f"{_games_run(runs, 4)}."
        ),
        types,
        [draw],
        digits=5,
    )


def win_given_type(runs: dict) -> Section:
    wt = pd.concat(
        [t[(t.measure == "win_given_type") & t.seat.isna()].assign(players=P) for P, t in runs["games"].items()]
    )
    wt = wt[wt.trials > 0]

    def draw():
        from ..plots import bar_with_intervals

        return bar_with_intervals(
            wt, "bisk", "players", title="P(win | final Bisk type)", ylabel="win share", xlabel="final type"
        )

    return Section(
        "P(win | final Bisk type)",
        "Win share of a player whose final evaluation set is of each type, every seat playing the heuristic and "
        f"pooled; Wilson intervals. The deals come from {_games_run(runs)}.",
        wt[["players", "bisk", "trials", "estimate", "ci_low", "ci_high"]],
        [draw],
    )


def jack_reversal(runs: dict) -> Section:
    rows = []
    for P, tb in runs["games"].items():
        jack = tb[tb.measure == "wet_bisk_jack"].iloc[0]
        for name in ("win_opening_bisko_jack", "win_opening_bisko_no_jack", "win_tuck_jack", "win_tuck_no_jack"):
            row = tb[(tb.measure == name) & tb.seat.isna()]
            if len(row):
                rows.append(
                    {
                        "players": P,
                        "measure": name,
                        "p_jack": jack.estimate,
                        **row.iloc[0][["trials", "estimate", "ci_low", "ci_high"]].to_dict(),
                    }
                )
    jt = pd.DataFrame(rows)

    def draw():
        from ..plots import bar_with_intervals

        words = {
            "win_opening_bisko_jack": "opening Bisko,\nWet Bisk a Jack",
            "win_opening_bisko_no_jack": "opening Bisko,\nno Jack",
            "win_tuck_jack": "Tuck,\nWet Bisk a Jack",
            "win_tuck_no_jack": "Tuck,\nno Jack",
        }
        return bar_with_intervals(
            jt.assign(measure=jt.measure.map(words)),
            "measure",
            "players",
            title="The Jack reversal (BB-10), heuristic players",
            ylabel="win share",
            xlabel="",
        )

    return Section(
        "The effect of the Jack reversal",
        (
            "When the Wet Bisk is a Jack, only tucked cards count (BB-10): a player who opened with a Bisko has no "
            "tucked card and is evaluated on the Jack alone, which every Tuck player's set (its tucked cards with the "
            "Jack) beats (BB-12: with no Bisk on either side, the set with more cards wins an otherwise equal "
            "comparison). So an opening Bisko wins only where every player opened with a Bisko, and then shares the "
            "deal with them. Win shares of opening-Bisko and Tuck players with and without a Jack, every seat "
            "playing the heuristic; p_jack is the share of deals whose Wet Bisk is a Jack. The deals come from "
            f"{_games_run(runs)}."
        ),
        jt,
        [draw],
    )


def swap_value(runs: dict) -> Section:
    rows = []
    for P, t in runs["no_swap"].items():
        r0 = t[t.seat.isna()].iloc[0]
        rows.append(
            {
                "players": P,
                "trials": r0.trials,
                "win_heuristic": r0.field_value,
                "win_no_swap": r0.challenger_value,
                "estimate": r0.estimate,
                "ci_low": r0.ci_low,
                "ci_high": r0.ci_high,
            }
        )
    return Section(
        "The value of Bingo-Bango swaps",
        (
            "Paired on the same deals: one seat at a time stops swapping (no-swap) while the field plays the "
            "heuristic; estimate = win(no-swap) - win(heuristic), pooled over seats (trials counts seat-deals). "
            f"Each player count's row comes from {_compare_run(runs, 'heuristic', 'no-swap')}."
        ),
        pd.DataFrame(rows),
    )


def when_to_swap(runs: dict) -> Section:
    from ..games.bisko_bobo import pooled_pairs

    dec = runs["decisions"]
    swap_vals = pooled_pairs(dec[dec.decision == "swap"], ["fit", "opening_bisko"])
    return Section(
        "When to swap (4 players)",
        (
            "Every optional swap in a deal replayed both ways on the same cards, every seat playing the heuristic: "
            "estimate = win(swap) - "
            "win(no swap), by what the swapper's own Jingo card fits and whether the swapper opened with a Bisko. "
            "The swap partner is the heuristic's choice (the lowest-ranked player with none of the card's suit upright, one it cannot help; else the lowest-ranked). The "
            f"rows: {_decisions_run(runs, 'swap', ['fit', 'opening_bisko'])}."
        ),
        swap_vals.rename(columns={"win_action0": "win_no_swap", "win_action1": "win_swap"})[
            ["fit", "opening_bisko", "trials", "win_no_swap", "win_swap", "estimate", "ci_low", "ci_high"]
        ],
    )


def tuck_placement(runs: dict) -> Section:
    from ..games.bisko_bobo import pooled_pairs

    dec = runs["decisions"]
    tuck_vals = pooled_pairs(dec[dec.decision == "tuck"], ["placement"])
    return Section(
        "Where to place a Jingo card that makes a Bobo (4 players)",
        "Every such placement in a deal replayed both ways on the same cards, every seat playing the heuristic: "
        "estimate = win(tucked) - win(upright) for a Jingo card that matches the tucked suit, paired. The "
        f"rows: {_decisions_run(runs, 'tuck', ['placement'])}.",
        tuck_vals.rename(columns={"win_action0": "win_upright", "win_action1": "win_tucked"})[
            ["placement", "trials", "win_upright", "win_tucked", "estimate", "ci_low", "ci_high"]
        ],
    )


def _fit_seed() -> str:
    """The seed the stored recommended tables were fitted with (seeds/bisko-bobo-recommended.json)."""
    from ..games import bisko_bobo as B

    seeds = sorted(
        {str(v["seed"]) for v in B.recommended_tables().get("players", {}).values() if v.get("seed") is not None}
    )
    return ", ".join(seeds) or "not stored"


def _edge_size(et: pd.DataFrame) -> str:
    """The edge over the heuristic in plain words: the largest gain at 4 players and more, in percentage points
    and in deals."""
    big = et[(et.players >= 4) & (et.field == "heuristic")].dropna(subset=["ci_low", "ci_high"])
    if not len(big):
        return ""
    top = float(big.ci_high.max())  # the upper bounds: "at most" is what the intervals allow
    if not (big.ci_low > 0).any():
        return "At 4 players and more the tables gain nothing measurable over the heuristic."
    return (
        f"At 4 players and more the edge over the heuristic is at most {100 * top:.2f} percentage points of win "
        f"share (the intervals' upper ends), about one deal in {1 / top:,.0f} won that would have been lost: the "
        "heuristic is close to the best this search finds there."
    )


def recommended_edge(runs: dict) -> Section | None:
    if not runs["edge"]:
        return None
    rows = []
    for (P, field), t in runs["edge"].items():
        r0 = t[t.seat.isna()].iloc[0]
        rows.append(
            {
                "players": P,
                "field": field,
                "trials": r0.trials,
                "win_field": r0.field_value,
                "win_recommended": r0.challenger_value,
                "estimate": r0.estimate,
                "ci_low": r0.ci_low,
                "ci_high": r0.ci_high,
            }
        )
    et = pd.DataFrame(rows)

    def draw():
        from ..plots import bar_with_intervals

        return bar_with_intervals(
            et,
            "players",
            "field",
            title="Edge of one recommended player over the field",
            ylabel="win share gain",
            xlabel="players",
            reference=0.0,
        )

    return Section(
        "The recommended strategy and its edge",
        (
            "Computed by cardlab improve bisko-bobo (iterated best responses on common random numbers; a "
            "situation switches action when the paired difference is at least 3 standard errors from zero). "
            "The chart: one seat at a time plays the recommended table while the others keep the field strategy "
            "(heuristic, the built-in player; or always-jingo, every Tuck player taking the Jingo: a field the "
            "tables were not fitted against); estimate = that seat's win share gain, pooled over seats (trials "
            "counts seat-deals: the deals times the players). The tables were "
            f"fitted on other deals (the improve run's seed {_fit_seed()}) than these (seed {runs['seeds']['recommended']}), so "
            "a situation switched by chance there shows here as no gain. Each row comes from "
            f"{_compare_run(runs, 'FIELD', 'recommended')}. " + _edge_size(et)
        ),
        et,
        [draw],
    )


def _departure_counts(d: pd.DataFrame) -> pd.DataFrame:
    """Per player count and decision: how many situation buckets depart from the heuristic, the action the tables
    take there (counts), and the seats they are at."""
    rows = []
    for (P, decision), g in d.groupby(["players", "decision"], sort=True):
        taken = g["recommended"].value_counts()
        rows.append(
            {
                "players": int(P),
                "decision": decision,
                "departures": len(g),
                "recommended": ", ".join(f"{a} {n}" for a, n in taken.items()),
                "seats": ", ".join(str(int(x)) for x in sorted(g["seat"].unique())),
            }
        )
    return pd.DataFrame(rows)


def recommended_departures(runs: dict) -> Section | None:
    if not runs["edge"]:
        return None
    from ..games.bisko_bobo import recommended_differences

    d = recommended_differences()
    # the whole tables' gain over a heuristic field at its largest (the intervals' upper ends, any player count)
    top = max(
        float(t[t.seat.isna()].iloc[0].ci_high) for (_P, field), t in runs["edge"].items() if field == "heuristic"
    )
    return Section(
        "Where the recommended strategy departs from the heuristic",
        (
            f"The stored tables (seeds/bisko-bobo-recommended.json) choose otherwise than the heuristic in {len(d)} "
            "situation buckets; per player count and decision, how many, what the tables take there and at which "
            "seats. Every bucket, with its situation, is listed in the last section. Together they gain at most "
            f"{100 * top:.2f} percentage points of win share over the heuristic at any player count (the edge "
            "above), so each is worth little on its own; the cheat sheet below keeps the few a person can remember."
        ),
        _departure_counts(d),
    )


def every_departure(runs: dict) -> Section | None:
    if not runs["edge"]:
        return None
    from ..games.bisko_bobo import recommended_differences

    return Section(
        "Appendix: every departure from the heuristic",
        (
            "Each row is a situation bucket where the stored table chooses differently from the heuristic "
            "(seeds/bisko-bobo-recommended.json), by player count and seat (seat 0 is the dealer's left). The "
            "upright suit is part of a situation because suits rank (clubs < hearts < diamonds < spades, BB-2) and "
            "break ties between Bisks of one type (BB-12): a Bisk in spades beats the same Bisk in clubs, so one "
            "situation can call for a Flingo with a club upright and a Jingo with a spade."
        ),
        recommended_differences(),
    )


def cheat_sheet(runs: dict) -> Section | None:
    if not runs["sheets"]:
        return None
    from ..games.bisko_bobo import recommended_differences

    text = []
    rows = []
    for lines, found, line in runs["sheets"].values():
        text += ["", *lines, line]
        rows += found
    return Section(
        "A strategy a person can learn: the cheat sheet",
        (
            f"The recommended tables are {len(recommended_differences())} departures from the heuristic (above); "
            "the cheat sheet keeps a few "
            "thresholds per decision (`cardlab improve bisko-bobo --explain` fits them to the tables by value and "
            "stores them; strategy name `cheat-sheet`). Below, per player count, the sheet and its edge: one seat "
            "at a time switches from the heuristic to the sheet (or to the full tables) on the same deals; "
            "estimate = that seat's win share gain, pooled over seats (trials counts seat-deals). In the third row "
            "the other seats play the recommended tables, not the heuristic, so the rows do not add up. The first "
            "row measures the tables' edge again, on this section's deals: it differs from the section above by "
            "the noise of two runs. The sheet pools suits and seats and keeps a few thresholds, so in some "
            "situations it chooses otherwise than the tables' measured cells (the appendix lists where the tables "
            "depart from the heuristic, not where the sheet departs from the tables): that is the price of a rule a "
            "person can remember, and the edge rows say what it costs."
            + _sheet_against_heuristic(runs)
            + "\n"
            + "\n".join(f"    {t}" if t else "" for t in text)
        ),
        pd.DataFrame(rows),
        digits=5,
    )


def _sheet_against_heuristic(runs: dict) -> str:
    """Where the 4-player sheet takes the Flingo or the Jingo, or swaps (or keeps) a Jingo card, against the sign
    that "Flingo or Jingo?" and "When to swap" measured (with every other seat on the heuristic): a sentence saying
    where and why the two differ, else nothing."""
    from ..games.bisko_bobo import FIT_NAMES, pooled_pairs, recommended_tables
    from ..games.bisko_bobo_sheet import JB_WORDS, LF_WORDS, SWAP_WORDS

    sheet = recommended_tables().get("cheat_sheets", {}).get("4")
    if not sheet:
        return ""
    dec = runs["decisions"]
    swaps = pooled_pairs(dec[dec.decision == "swap"], ["fit", "opening_bisko"])
    found = []
    # the Flingo or the Jingo: the situation table's cells (as that section shows them, 200 trials or more)
    cells = pooled_pairs(dec[dec.decision == "flingo"], ["jingos_so_far", "later_free", "unseen_of_suit"])
    for r in cells[cells.trials >= 200].itertuples():
        jb, lf, u = ("0", "1", "2+").index(str(r.jingos_so_far)), int(bool(r.later_free)), int(r.unseen_of_suit)
        jingo = u < sheet["thresholds"][jb][lf]  # the sheet's rule: the Jingo when fewer than t are unseen
        if (jingo and r.ci_high < 0) or (not jingo and r.ci_low > 0):
            found.append(
                f"the sheet takes the {'Jingo' if jingo else 'Flingo'} with {JB_WORDS[jb]}, {LF_WORDS[lf]} and U = "
                f"{u}, where the Jingo {'lost' if r.estimate < 0 else 'gained'} {abs(r.estimate) * 100:.2f} "
                f"percentage points of win share (95% {r.ci_low * 100:+.2f} to {r.ci_high * 100:+.2f})"
            )
    for r in swaps.itertuples():
        f, o = FIT_NAMES.index(r.fit), int(bool(r.opening_bisko))
        swap = sheet["p_swap"][f][o] >= 0.5
        if (swap and r.ci_high < 0) or (not swap and r.ci_low > 0):
            found.append(
                f"the sheet {'swaps' if swap else 'keeps'} a Jingo card that {SWAP_WORDS[f]}"
                f"{' after an opening Bisko' if o else ''}, where swapping {'lost' if swap else 'gained'} "
                f"{abs(r.estimate) * 100:.2f} percentage points of win share (95% {r.ci_low * 100:+.2f} to "
                f"{r.ci_high * 100:+.2f})"
            )
    if not found:
        return ""
    return (
        ' The sheet\'s choices were fitted with every seat on the recommended tables, while "Flingo or Jingo?" and '
        '"When to swap" measure each choice with every other seat on the heuristic, and the two can disagree: at 4 '
        "players "
        + "; ".join(found)
        + ". Among heuristic players those tables' answers hold; the sheet's choice pays among players of the "
        "recommended tables, and the sheet's edge rows count it either way."
    )


def reviewed_deal(runs: dict) -> Section:
    from ..review import win_figure

    res = runs["review"]
    cols = ["event", "seat", "decision", "hand", "on_table", "actions", "taken", "best", "verdict", "win_taken",
            "win_best", "loss_win", "loss_win_low", "loss_win_high"]  # fmt: skip
    return Section(
        "A reviewed deal: the example record",
        (
            f"`cardlab review bisko-bobo seeds/records/{REVIEWED_RECORD} --precision "
            f"{res.meta['precision_target']:g} --seed {res.meta['seed']}` (the record is `cardlab record bisko-bobo "
            "--seed 7`: 4 heuristic players): every free decision judged on what its seat saw then, every action on "
            "the same sampled deals, the record's heuristic players as models. win_taken and win_best are the "
            "seat's win share of the deal with the action taken and with the best; loss_win their difference "
            "with its 95% interval (0 where the two are not separated). The best action is judged on everything "
            "the seat saw (each card face up, the Jingo card it holds), much finer than the situations of the "
            "recommended tables, so one deal can show losses of several percentage points of win share where the "
            "tables gain at most tenths of one on average over the heuristic: the review measures what a player "
            "who reads the whole table could gain, the tables what a few situation buckets can.\n\n"
            f"{res.meta['summary']}."
        ),
        res.table[cols],
        [lambda: win_figure(res, "win share of the deal (%)")],
        digits=3,
    )


SECTIONS = (
    win_by_seat,
    flingo_or_jingo,
    bisk_types,
    win_given_type,
    jack_reversal,
    swap_value,
    when_to_swap,
    tuck_placement,
    recommended_edge,
    recommended_departures,
    cheat_sheet,
    reviewed_deal,
    every_departure,
)


def report(scale: float = 1.0, seed: int = 2026, progress: bool = True) -> tuple[str, str, list[Section]]:
    from ..games import bisko_bobo as B

    r = runs(scale, seed, progress)
    heuristic = B.rules().strategies["heuristic"]["doc"]
    intro = (
        f"Bisko-Bobo (seeds/bisko-bobo.md, default variants), simulated with cardlab's numba kernels. "
        f"Seed {seed}; {r['main_trials']:,} deals per player count for the main tables. Every figure is a "
        f"measurement with a 95% interval; the exact tables are enumerations. Unless a section says otherwise, "
        f"every seat plays the heuristic, the baseline of every comparison. The heuristic, "
        f"{heuristic[0].lower()}{heuristic[1:].rstrip('.')} (seeds/bisko-bobo.toml lists every built-in strategy)."
        "\n\nThe words (seeds/bisko-bobo.md; the rules' numbers in brackets): each player is dealt two HIGH cards "
        "face up (the HIGH deck is each suit's top ranks, more of them with more players; BB-1). Two of one suit "
        "are an opening Bisko and stay upright; otherwise the player has a Tuck: the first card stays upright and "
        "the second is tucked, sideways (BB-4). A face-down card in the middle is the Wet Bisk. In the Risky-Bisk "
        "(BB-5) a Tuck player chooses: a Flingo, a card dealt face up into the upright row (and one more when it "
        "matches the upright card's suit), or a Jingo, a card dealt face down (an opening Bisko must take the "
        "Jingo). In the Bingo-Bango (BB-6) the Jingo players, ranked by a LOW card each, may swap their face-down "
        "card blind with a lower-ranked one. The Jingo card then goes upright or, when it matches the tucked "
        "card's suit (a Bobo: two tucked cards of one suit), may be tucked (BB-7). Bedtime cards go upright "
        "(BB-9). Then the Wet Bisk is turned (BB-10): each hand is its upright cards and the Wet Bisk, but if the "
        "Wet Bisk is a Jack (Jack mode), its tucked cards and the Wet Bisk instead. Hands are ranked by their "
        "Bisk, groups of one suit (BB-12): a Bisko is a pair, a Two Bisk two pairs, a Tri Bisk three of a suit, a "
        "Full Bisk three and two, a Quad Bisk four, a Three Bisk three pairs, and so on up to the Hex Bisk. A "
        "card fits a suit (an upright suit: of a card in your upright row) when it is of that suit."
    )
    sections = [section(r) for section in SECTIONS]
    return "Bisko-Bobo: strategy report", intro, [s for s in sections if s is not None]
