"""The Zheng Shangyou strategy report: its simulations (:func:`runs`) and its sections, one function each."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ..advisor import unseen_sentence
from ..report import Section, clear_of
from ..stats import difference_half_width, z_value

FEATURES = ("3D", "RJ", "BJ", "2S", "2H", "2C", "2D", "bomb", "straight_flush")
COMPARISONS = (
    ("greedy", "greedy-hold"),
    ("greedy", "greedy-stop"),
    ("greedy-hold", "greedy"),
    ("greedy", "planning"),
    ("planning", "greedy"),
    ("greedy", "random"),
)
# variants the one-at-a-time table leaves out: the 3-player multiplier needs 3 players, and triple_is_bomb only
# applies with ruleset=current_wiki (it appears with it in EXTRA_VARIANTS)
SKIPPED_VARIANTS = ("three_player_multiplier", "triple_is_bomb")
MATCH_VARIANTS = ("later_game_leader", "loser_exchange")  # played over matches of 4 games, where they matter
OVER_MATCHES = "(matches of 4 games)"  # the mark of a variants row counted over matches
EXTRA_VARIANTS = [{"deck": d} for d in ("4p_52", "3p_54", "3p_52")] + [
    {"ruleset": "legacy_wiki"},
    {"ruleset": "current_wiki"},
    {"ruleset": "current_wiki", "triple_is_bomb": "true"},
    {"ruleset": "current_wiki", "suit_order": "false"},
]
VARIANT_MEASURES = ("winner_given_3D", "winner_gain")
#: the paired measures the card-value and policy tables show; the others (where the score comes from) have
#: their own section
HEADLINE_PAIRED = {m: (f"{m}_win", f"{m}_score") for m in ("value_of_holding", "challenger_minus_field")}
#: the advisor's worked position (README's example): seat 0 over a 5 of spades, three opponents in play
WORKED_POSITION: dict[str, Any] = {
    "hand": "4D 6C 7H 8S 9D TC JH QS KD 2C",
    "cards_left": {"1": 9, "2": 11, "3": 7},
    "current": "5S",
    "by": 3,
}
REVIEWED_SEED, REVIEWED_SEAT = 1, 2  # seeds/records/zheng-shangyou-example.json, the seat with a clear error
#: the strong field (cardlab strong-field): the search player in every seat, at a budget that keeps the
#: computation to minutes; the features and policies it re-measures
STRONG_FIELD = "search:250"
STRONG_FEATURES = ("3D", "RJ", "BJ", "2S", "bomb")
STRONG_POLICIES = ("greedy", "greedy-hold", "greedy-stop", "planning")


def runs(scale: float = 1.0, seed: int = 2026, progress: bool = True) -> dict:
    """Every simulation the report shows: ``main`` (4 greedy players, default rules), ``values`` (what holding
    a card is worth), ``compare`` (policies, pooled over seats), ``variants`` ((label, table) per variant) and
    ``two_decks`` (table per player count)."""
    from ..driver import run
    from ..games import zheng_shangyou as Z

    def n(x):
        return max(500, int(x * scale))

    # the seeds and sizes of the runs the sections name as commands (one place, so the text cannot drift from the
    # runs)
    values_seed, compare_seed = seed + 1, seed + 2
    values_trials, compare_trials = n(30_000), n(20_000)
    main = run(Z.simulation_spec(), trials=n(200_000), seed=seed, progress=progress)
    values = pd.concat(
        [
            run(Z.card_value_spec(feature), trials=values_trials, seed=values_seed, progress=progress).table
            for feature in FEATURES
        ],
        ignore_index=True,
    )
    compare = []
    for field, challenger in COMPARISONS:
        res = run(Z.compare_spec(field, challenger), trials=compare_trials, seed=compare_seed, progress=progress).table
        compare.append(res[res.seat.isna()])
    variants = []
    defaults = Z.rules().resolve_variants({})
    # the match variants change who leads the later games, so their rows count every game of 4-game matches: the
    # defaults are measured the same way beside them (a single game's figures would not compare)
    over = OVER_MATCHES
    # the defaults on the variants' own deals (the same seed and size): a variant that changes no deal and no play
    # gives the same figures, so each row compares with this one, not with the main run's other deals
    spec = Z.simulation_spec()
    variants.append(("defaults", run(spec, trials=n(40_000), seed=seed + 4, progress=progress).table))
    spec = Z.simulation_spec(games_per_match=4)
    variants.append((f"defaults {over}", run(spec, trials=n(40_000), seed=seed + 4, progress=progress).table))
    for name, (_slot, codes) in Z.VARIANT_CODES.items():
        for value in codes:
            if value == defaults[name] or name in SKIPPED_VARIANTS:
                continue
            match = name in MATCH_VARIANTS
            spec = Z.simulation_spec(variants={name: value}, games_per_match=4 if match else 1)
            label = f"{name}={value}" + (f" {over}" if match else "")
            variants.append((label, run(spec, trials=n(40_000), seed=seed + 4, progress=progress).table))
    for v in EXTRA_VARIANTS:
        res = run(Z.simulation_spec(variants=v), trials=n(40_000), seed=seed + 4, progress=progress).table
        variants.append((" ".join(f"{k}={x}" for k, x in v.items()), res))
    two_decks = {
        P: run(
            Z.simulation_spec(players=P, variants={"deck": Z.TWO_DECKS}),
            trials=n(20_000),
            seed=seed + 5,
            progress=progress,
        ).table
        for P in Z.TWO_DECK_PLAYERS
    }
    from ..games import zheng_shangyou_odds as ZO
    from ..games import zheng_shangyou_review as ZR

    # the advisor and the review run to a precision, not to a size: the scale does not change them
    advice = ZO.odds({"precision": 0.01, "seed": seed + 6, "progress": False}, **WORKED_POSITION)
    review = ZR.review(ZR.record(seed=REVIEWED_SEED), seat=REVIEWED_SEAT, precision=0.02, seed=seed + 7)
    from ..strong_field import stored

    return {
        "seed": seed,
        "strong": stored("zheng-shangyou"),
        "advice": advice,
        "review": review,
        "main": main.table,
        "main_trials": main.meta["trials"],
        "values": values,
        "values_trials": values_trials,
        "values_seed": values_seed,
        "compare": pd.concat(compare, ignore_index=True),
        "compare_trials": compare_trials,
        "compare_seed": compare_seed,
        "variants": variants,
        "two_decks": two_decks,
    }


def _main_run(runs: dict) -> str:
    """The command line that gives the main table's figures (the same deals: the report's seed and size)."""
    return f"`cardlab simulate zheng-shangyou --trials {runs['main_trials']} --seed {runs['seed']}`"


def _fourteen_cards(winners: pd.DataFrame, runs: dict) -> str:
    """How much of the 14-card seats' higher win share their higher chance of holding the 3 of diamonds explains:
    that chance's difference (1/54) times the card's paired value (the card-value section's)."""
    w = winners.set_index("seat")["estimate"]
    vt = runs.get("values")
    if vt is None or not {0, 1, 2, 3} <= set(w.index) or "feature" not in vt:
        return ""
    three = vt[(vt.measure == "value_of_holding_win") & (vt.feature == "3D")]
    if not len(three):
        return ""
    gap = (w[0] + w[1] - w[2] - w[3]) / 2
    # exactly one seat wins a game: gap = X - 1/2 with X = w0 + w1, a proportion of the games
    x, n = w[0] + w[1], float(winners.trials.iloc[0])
    half = z_value() * float(np.sqrt(max(x * (1 - x), 0.0) / n)) if n > 0 else float("inf")
    part = float(three.estimate.iloc[0]) / 54  # P(holding it): 14/54 against 13/54
    if not gap - half > 0 or not part < gap:
        return ""
    return (
        f" The 14-card seats win {gap:.3f} more often than the 13-card seats on average (95% ±{half:.3f}). Their "
        "higher chance of "
        f"holding the 3 of diamonds (14/54 against 13/54) accounts for about {part:.4f} of that, by the card's "
        f"paired value below ({float(three.estimate.iloc[0]):+.3f}); the rest goes with the 14th card itself."
    )


def who_wins(runs: dict) -> Section:
    t = runs["main"]
    by_seat = t[t.measure.isin(["winner", "score"]) & t.seat.notna()]
    winners = t[(t.measure == "winner") & t.seat.notna()].assign(seat=lambda d: d.seat.astype(int))

    def draw():
        from ..plots import bar_with_intervals

        return bar_with_intervals(
            winners,
            "seat",
            None,
            title="P(Winner) by seat (greedy players; seat 0 deals first)",
            ylabel="P(first out)",
            xlabel="seat (clockwise from the dealer)",
            reference=0.25,
        )

    return Section(
        "Who wins, by seat",
        (
            "4 players, 54 cards, default rules; every seat greedy (bombs early). Seat 0 deals, so seats 0 and 1 "
            "hold 14 cards and seats 2 and 3 hold 13 (ZS-1); the holder of the 3 of diamonds leads (ZS-3). "
            f"Scores are taken when the Winner goes out (ZS-8); 95% intervals. The games come from {_main_run(runs)}."
            + _fourteen_cards(winners, runs)
        ),
        by_seat[["measure", "seat", "trials", "estimate", "ci_low", "ci_high"]],
        [draw],
    )


def three_of_diamonds(runs: dict) -> Section:
    t = runs["main"]
    return Section(
        "Is the 3 of diamonds an advantage? Observed",
        (
            "The 3 of diamonds' holder leads the first trick. Observed over all games, 4 players, every seat "
            "greedy, the default rules: P(Winner) and the expected score of its holder (compare 0.25 and 0). The "
            "answer depends on the rules, and on whether the game opens a match (in a match's later games the "
            "previous Winner leads): the variants' section below gives it under each. The games of the section "
            f"above (from {_main_run(runs)})."
        ),
        t[t.measure.isin(["winner_given_3D", "score_given_3D"])][
            ["measure", "trials", "estimate", "ci_low", "ci_high"]
        ],
    )


def card_values(runs: dict) -> Section:
    vt = runs["values"]
    win_vals = vt[vt.measure == "value_of_holding_win"]

    def draw():
        from ..plots import bar_with_intervals

        return bar_with_intervals(
            win_vals,
            "feature",
            None,
            title="Value of holding a card, paired on the same deals (greedy players)",
            ylabel="P(Winner) with - without",
            xlabel="card or combination held",
            reference=0.0,
        )

    return Section(
        "What holding a card is worth (paired)",
        (
            "Four players, every seat greedy, the default rules (single games). Each deal is played twice: as "
            "dealt, and with the holder's card swapped for a random card of a random "
            "other player (for a bomb, one card of the four; for a straight flush, its middle card). The rest of "
            "the deal and the players' random draws are the same, so the difference isolates the card. estimate = "
            "with - without, for the holder; 'accepted_share' is the share of deals where someone held it. Each "
            f"FEATURE's rows come from `cardlab simulate zheng-shangyou --value-of FEATURE --trials {runs['values_trials']} --seed "
            f"{runs['values_seed']}` (FEATURE: {', '.join(FEATURES)})."
        ),
        vt[vt.measure.isin(HEADLINE_PAIRED["value_of_holding"])][
            ["measure", "feature", "trials", "with", "without", "estimate", "ci_low", "ci_high", "accepted_share"]
        ],
        [draw],
    )


def _both_ways(ct: pd.DataFrame) -> str:
    """Where two policies were compared each as the other's field: which goes out first more often against which
    (the win rows), with the score beside it where it points the other way."""
    win = ct[ct.measure == "challenger_minus_field_win"].set_index(["field", "challenger"])
    score = ct[ct.measure == "challenger_minus_field_score"].set_index(["field", "challenger"])["estimate"]

    def pick(row, switch: str, stay: str) -> str:
        if row.ci_low > 0:
            return f"{switch} rather than {stay}"
        if row.ci_high < 0:
            return f"{stay} rather than {switch}"
        return f"{switch} or {stay} (not told apart)"

    def against(field: str, challenger: str, row) -> str:
        text = f"among {field} players, {pick(row, challenger, field)}"
        sc = score.get((field, challenger))
        if sc is not None and row.ci_low > 0 and sc < 0:
            text += f" (though one {challenger} seat there scores {sc:+.2f} points a game)"
        return text

    out = []
    for (f, c), r in win.iterrows():
        if f < c and (c, f) in win.index:
            back = win.loc[(c, f)]
            one, two = pick(r, c, f), pick(back, f, c)
            a1, a2 = against(f, c, r), against(c, f, back)
            # the same answer among either field, with no score to add: said once
            same = one == two and "not told apart" not in one and "(though" not in a1 + a2
            advice = f"{one}, whichever of the two the others play" if same else f"{a1}; {a2}"
            out.append(
                f"One {c} seat among {f} players changes its win probability by {r.estimate:+.3f} (95% "
                f"{r.ci_low:+.3f} to {r.ci_high:+.3f}), and one {f} seat among {c} players by {back.estimate:+.3f} "
                f"({back.ci_low:+.3f} to {back.ci_high:+.3f}): to go out first more often, {advice}."
            )
    return (" " + " ".join(out)) if out else ""


def policies(runs: dict) -> Section:
    ct = runs["compare"]
    ct = ct[ct.measure.isin(HEADLINE_PAIRED["challenger_minus_field"])]
    return Section(
        "When to spend a bomb, and how to plan: policies compared (paired)",
        (
            "One seat at a time switches to the challenger while the others keep the field's policy, on the same "
            "deals. estimate = challenger - field for that seat (win probability, and score), pooled over seats. "
            "greedy bombs early, greedy-hold keeps bombs to go out, greedy-stop bombs when an opponent holds 3 "
            "cards or fewer; planning plays whole parts of a split of its hand. Each pair's rows come from `cardlab compare "
            f"zheng-shangyou --field FIELD --challenger CHALLENGER --trials {runs['compare_trials']} --seed "
            f"{runs['compare_seed']}`, {runs['compare_trials']:,} games with each seat switching in turn: the trials "
            "column counts a game once per seat." + _both_ways(ct)
        ),
        ct[
            [
                "measure",
                "field",
                "challenger",
                "trials",
                "field_value",
                "challenger_value",
                "estimate",
                "ci_low",
                "ci_high",
            ]
        ],
    )


def _decomposition(rows: pd.DataFrame, prefix: str, subject: str) -> tuple[pd.DataFrame, str]:
    """The six paired rows (win, score and SCORE_PARTS) of one comparison as a table, and what they say in a
    few sentences, each written only where its figures are separated at 95% and point its way (``subject`` is
    what differs: "planning, against greedy")."""
    from ..games.zheng_shangyou import SCORE_PARTS

    names = ("win", "score") + SCORE_PARTS
    r = {n: rows[rows.measure == f"{prefix}_{n}"].iloc[0] for n in names}

    def est(n: str, digits: int, unit: str = "") -> str:
        x = r[n]
        head = f"{x.estimate:+.{digits}f}" + (f" {unit}" if unit else "")
        return f"{head} (95% {x.ci_low:+.{digits}f} to {x.ci_high:+.{digits}f})"

    def sure(n: str) -> bool:
        return bool(r[n].ci_low > 0 or r[n].ci_high < 0)

    first = (
        f"For {subject}: win probability {est('win', 3)}, score {est('score', 2, 'points a game')}. "
        f"The score splits into the games won, {est('score_won', 2, 'points')}, and the games lost, "
        f"{est('score_lost', 2, 'points')}."
    )
    win, won = r["win"], r["score_won"]
    if sure("win") and sure("score_won") and (win.estimate > 0) != (won.estimate > 0):
        a_side, b_side = won.field_value / win.field_value, won.challenger_value / win.challenger_value
        how = "the extra wins are narrow ones" if win.estimate > 0 else "the fewer wins are bigger ones"
        first += (
            f" So {how}: a won game brings {b_side:.1f} points against {a_side:.1f} (the points of a win are the "
            "cards the others still hold)."
        )
    lost = r["score_lost"].estimate
    if not sure("score_lost"):
        why = " The points paid in the games lost do not separate at 95%."
    else:
        why = f" It pays {'more' if lost < 0 else 'less'} in the games it loses ({est('score_lost', 2, 'points')})."
        causes = []
        # the causes ZS-8 gives a loss, each quoted only where it is separated and points the same way
        if sure("cards_left") and (r["cards_left"].estimate > 0) == (lost < 0):
            causes.append(
                f"it holds {'more' if lost < 0 else 'fewer'} cards when the Winner goes out "
                f"({est('cards_left', 2)} cards a game, counting 0 for the games it wins)"
            )
        if sure("lost_multiplied") and (r["lost_multiplied"].estimate > 0) == (lost < 0):
            causes.append(
                f"it is caught at x2 or x3 (10 cards or more, or none played, ZS-8) in "
                f"{'more' if lost < 0 else 'fewer'} of its games ({est('lost_multiplied', 3)} in that share)"
            )
        if causes:
            why = why[:-1] + ": " + " and ".join(causes) + "."
    table = pd.DataFrame([r[n] for n in names])
    return table, first + why


def _strong_sequel(doc: dict | None) -> str:
    """What the strong field (stored by cardlab strong-field) says of the same two comparisons, if stored."""
    if doc is None:
        return ""
    R, out = doc["runs"], []
    if "value-BJ" in R:
        t = R["value-BJ"]["table"]
        r = t[t.measure == "value_of_holding_score"].iloc[0]
        out.append(
            f"the black joker's score value is {r.estimate:+.2f} points (95% {r.ci_low:+.2f} to {r.ci_high:+.2f})"
        )
    if "policy-greedy" in R and "policy-planning" in R:
        g, p = (R[k]["table"] for k in ("policy-greedy", "policy-planning"))
        d = [float(p[p.measure == f"challenger_minus_field_{m}"].estimate.iloc[0]
                   - g[g.measure == f"challenger_minus_field_{m}"].estimate.iloc[0]) for m in ("win", "score")]  # fmt: skip
        out.append(f"planning - greedy is {d[0]:+.3f} in win probability and {d[1]:+.2f} points a game")
    if not out:
        return ""
    return (
        f"\n\nWith searching players ({doc['field']}) at the table (the last section's strong field), "
        + " and ".join(out)
        + ", against the figures above with greedy players."
    )


def where_points_come_from(runs: dict) -> Section:
    ct = runs["compare"]
    plan = ct[(ct.field == "greedy") & (ct.challenger == "planning")]
    vt = runs["values"]
    # the card's rows as a comparison: the field is the deal without the card, the challenger the deal with it
    bj = vt[vt.feature == "BJ"].rename(columns={"without": "field_value", "with": "challenger_value"})
    t1, s1 = _decomposition(
        plan, "challenger_minus_field", "one planning seat among greedy players (planning - greedy)"
    )
    t2, s2 = _decomposition(bj, "value_of_holding", "holding the black joker (with - without)")
    cols = ["measure", "trials", "estimate", "ci_low", "ci_high"]
    table = pd.concat(
        [
            t1.assign(comparison="planning - greedy", a=t1.field_value, b=t1.challenger_value),
            t2.assign(comparison="with - without the black joker", a=t2.field_value, b=t2.challenger_value),
        ],
        ignore_index=True,
    )
    table["measure"] = table.measure.str.replace(r"^(challenger_minus_field|value_of_holding)_", "", regex=True)
    return Section(
        "Win share and score: where the points come from (paired)",
        (
            "Two comparisons above, a planning seat among greedy players and the holder of the black joker, on "
            "the same paired games, split by where the points come from: "
            "score_won and score_lost are the points a game from the games won and lost (they add up to score; "
            "score_lost is negative, the points paid), "
            "lost_multiplied the share of all games lost at x2 or x3, cards_left the cards held when the Winner goes "
            "out (0 for the Winner). a and b are the two sides' means (greedy, then planning; without, then with the card)."
            f"\n\n{s1}\n\n{s2}{_strong_sequel(runs.get('strong'))}"
        ),
        table[["comparison", *cols[:2], "a", "b", *cols[2:]]],
        digits=3,
    )


def exact_features(runs: dict) -> Section:
    from ..games.zheng_shangyou import exact_hand_features

    return Section(
        "Hand features: exact odds",
        "Exact, by counting (inclusion-exclusion for four of a kind): a dealt hand of 14 or 13 cards from 54.",
        exact_hand_features(),
        digits=5,
    )


def simulated_features(runs: dict) -> Section:
    t = runs["main"]
    return Section(
        "Hand features: simulated deals",
        (
            "The same features in the simulated deals, per seat-hand (bombs: between the 14- and 13-card exact "
            "values; the straight flush has no exact value here). One seat in four holds the red joker in every "
            f"4-player deal, so its share is 1/4 exactly, with no spread. The games come from {_main_run(runs)}."
        ),
        t[t.measure == "dealt"][["feature", "trials", "estimate", "ci_low", "ci_high"]],
        digits=5,
    )


def _variant_rows(label: str, table: pd.DataFrame) -> list[dict]:
    rows = []
    for measure in VARIANT_MEASURES:
        r = table[table.measure == measure].iloc[0]
        rows.append(
            {
                "variant": label,
                "measure": measure,
                "trials": r.trials,
                "estimate": r.estimate,
                "ci_low": r.ci_low,
                "ci_high": r.ci_high,
            }
        )
    return rows


def _seats(table: pd.DataFrame) -> int:
    """The players of a run, from its table: the seats its per-seat win rows name."""
    return int(table.loc[(table.measure == "winner") & table.seat.notna(), "seat"].nunique())


def _below_fair(rows: list[dict], single_4p: set[str]) -> str:
    """A sentence naming the rule sets among ``single_4p`` (the labels of 4-player runs of single games, where the
    3 of diamonds leads every game) under which its holder wins less often than a fair share (the whole interval
    below 1/4), where its lead is a disadvantage; "" where there is none."""
    below = [
        r["variant"]
        for r in rows
        if r["measure"] == "winner_given_3D" and r["variant"] in single_4p and r["ci_high"] < 0.25
    ]
    if not below:
        return ""
    return (
        f"Under {', '.join(below)} the holder of the 3 of diamonds wins less often than a fair share (0.25 with 4 "
        "players): there, among greedy players, holding it is a disadvantage. "
    )


def _over_matches(rows: list[dict]) -> str:
    """A sentence on the 3 of diamonds over matches with the defaults (the previous Winner leads the later games),
    where its holder wins less than a fair share: it is then worth its lead alone."""
    row = next(
        (r for r in rows if r["measure"] == "winner_given_3D" and r["variant"] == "defaults (matches of 4 games)"),
        None,
    )
    single = next((r for r in rows if r["measure"] == "winner_given_3D" and r["variant"] == "defaults"), None)
    if row is None or single is None or row["ci_high"] >= 0.25:
        return ""
    # the match's first game is a single game (its holder leads); the other three make up the rest of the mean
    later = (4 * row["estimate"] - single["estimate"]) / 3
    return (
        f"Over matches of 4 games with the defaults, the holder of the 3 of diamonds wins {row['estimate']:.4f} "
        f"of the games (95% {row['ci_low']:.4f} to {row['ci_high']:.4f}), less than a fair share: from the "
        "second game on the previous Winner leads, and the 3 of diamonds is only the lowest card, with which its "
        f"holder wins about {later:.3f} of those games (the match's mean less its first game's share, "
        f"{single['estimate']:.4f}, of the single games). The 3 of diamonds is worth its first lead, not itself. "
    )


def variants(runs: dict) -> Section:
    from ..games.zheng_shangyou import TWO_DECKS

    rows = []
    single_4p = set()  # a match's later games are led by the previous Winner (4(c)), not the 3 of diamonds
    for label, table in runs["variants"]:
        rows += _variant_rows(label, table)
        if _seats(table) == 4 and not (table.measure == "match_top").any():  # match_top: a run of matches
            single_4p.add(label)
    for P, table in runs["two_decks"].items():
        rows += _variant_rows(f"deck={TWO_DECKS} ({P} players)", table)
    return Section(
        "The effect of each variant",
        (
            "Greedy players under each implemented variant of rules.md 4(c), one at a time: P(Winner) of the player "
            "holding the 3 of diamonds, and the Winner's mean gain. Every row is played with the same seed and size "
            "as the defaults row, so a variant that changes no deal and no play shows the defaults' figures (a deck "
            "or a player count of another size deals otherwise); the rows are not paired differences. The two-deck "
            "rows are the next section's runs, of their own size. "
            f"{_below_fair(rows, single_4p)}{_over_matches(rows)}With two decks there are two 3 "
            "of diamonds, and winner_given_3D counts each holder (more holders than games); with 3p_52 one card is "
            "left undealt (17 each), and a game where it is the 3 of diamonds has no holder. With "
            "score_timing=at_end the scores are taken when the game ends, when only the Loser still holds cards and "
            "pays: the Winner gains far less than at the first player out. Each row is of single games (the 3 of diamonds "
            "leads), but those marked (matches of 4 games): later_game_leader and loser_exchange matter from the "
            "second game on, so they count every game of a match, whose later games the previous Winner leads by "
            "default; compare them with the defaults row over matches, not with the single games'. ruleset=legacy_wiki is the older article: 52 "
            "cards, straights and straight flushes of 3 or more. ruleset=current_wiki is the current article: a bomb "
            "is four of a kind alone (or three, with triple_is_bomb), more cards beating fewer, and no straight-flush "
            "class; suit_order=false drops the suits' tie-break of singles and pairs. deck=5to8p_108 is two decks for "
            "5 to 8 players (below)."
        ),
        pd.DataFrame(rows),
    )


def two_decks(runs: dict) -> Section:
    from ..games.zheng_shangyou import hand_sizes

    parts = []
    for P, res in runs["two_decks"].items():
        won = res[(res.measure == "winner") & res.seat.notna()]
        parts.append(won.assign(players=P, seat=won.seat.astype(int), fair_share=1 / P, cards=hand_sizes(P, 108)))
    tt = pd.concat(parts, ignore_index=True)
    # the answer: by player count, the seats whose chance lies clear of the fair share (and their hand sizes)
    said = []
    for P, g in tt.groupby("players"):
        clear = [f"seat {r.seat} ({r.cards} cards) {r.side}" for r in clear_of(g, "fair_share").itertuples(index=False)]
        said.append(f"{P} players: " + (", ".join(clear) if clear else "no seat clear of it"))
    verdict = f"Seats clear of the fair share at 95%: {'; '.join(said)}. "

    def draw():
        from ..plots import bar_with_intervals

        return bar_with_intervals(
            tt,
            "seat",
            "players",
            title="Two decks: P(Winner) by seat and player count",
            ylabel="P(first out)",
            xlabel="seat (clockwise from the dealer, seat 0)",
        )

    return Section(
        "Two decks: 5 to 8 players",
        (
            "Two 54-card decks, all 108 cards dealt one at a time from the dealer (seat 0), so the first 108 mod P "
            "seats hold one card more (column 'cards'); greedy players. Identical cards can meet: a pair or a four "
            "of a kind may hold two of the same card, equal plays do not beat, and five cards of one rank are a "
            "bomb (cardlab's reading, seeds/zheng-shangyou.md). The first game is led by the first seat from the "
            "dealer holding a 3 of diamonds; scoring as ZS-8 for 4 players. estimate: the seat's chance to go out "
            "first (the Winner); compare it with 'fair_share'. " + verdict
        ),
        tt[["players", "seat", "cards", "trials", "estimate", "ci_low", "ci_high", "fair_share"]],
        [draw],
    )


def two_deck_bombs(runs: dict) -> Section:
    from ..games.zheng_shangyou import TWO_DECKS, exact_hand_features, hand_sizes

    rows = []
    for P, res in runs["two_decks"].items():
        ex = exact_hand_features(P, {"deck": TWO_DECKS}).set_index(["hand_size", "feature"])["probability"]
        exact = np.mean([ex[(size, "four of a kind (a bomb)")] for size in hand_sizes(P, 108)])
        dealt = res[(res.measure == "dealt") & (res.feature == "bomb")].iloc[0]
        rows.append(
            {
                "players": P,
                "exact": exact,
                "simulated": dealt.estimate,
                "ci_low": dealt.ci_low,
                "ci_high": dealt.ci_high,
                "seat_hands": dealt.trials,
            }
        )
    return Section(
        "Two decks: how often a dealt hand holds a bomb",
        (
            "Four or more cards of one rank in a dealt hand: exact (a generating function over the ranks, "
            "averaged over the seats' hand sizes; `cardlab exact zheng-shangyou hand-features --players P "
            "--variant deck=5to8p_108` gives each size and more features) beside the simulated deals above."
        ),
        pd.DataFrame(rows),
        digits=4,
    )


def score_distribution(runs: dict) -> Section:
    t = runs["main"]
    hist = t[t.measure == "score_distribution"]

    def draw():
        from ..plots import new_figure

        fig, ax = new_figure()
        ax.bar(hist["score"], hist["estimate"], width=1.0)
        ax.set_yscale("log")
        ax.set_xlabel("score of a seat in one game (clipped to -100 .. 100)")
        ax.set_ylabel("probability (log scale)")
        ax.set_title("Distribution of game scores (greedy players)")
        return fig

    # the shape in numbers: how often a seat gains (it went out first), its most likely loss, the heavy tail
    p = hist.set_index("score")["estimate"]
    losses = p[p.index < 0]
    shape = (
        f"A seat gains in {100 * p[p.index > 0].sum():.1f}% of games (it went out first); it loses 1 to 9 points (1 "
        f"a card) in {100 * p[(p.index < 0) & (p.index >= -9)].sum():.1f}%, {-int(losses.idxmax())} point"
        f"{'s' if int(losses.idxmax()) != -1 else ''} the most often ({100 * losses.max():.1f}%); 20 or more (10 cards or more, 2 a card) in "
        f"{100 * p[p.index <= -20].sum():.1f}%, 30 or more (no card played, 3 a card) in "
        f"{100 * p[p.index <= -30].sum():.2f}%. "
        if len(losses)
        else ""
    )
    return Section(
        "The distribution of scores",
        shape + "Per seat and game: the Winner's gain is the others' total loss (1, 2 or 3 per card, ZS-8). The games "
        f"come from {_main_run(runs)}.",
        None,
        [draw],
    )


def worked_position(runs: dict) -> Section:
    res = runs["advice"]
    t = res.table
    win = t[t.measure == "win"].set_index("action")
    diff = t[t.measure == "diff_win"].set_index("action")
    score = t[t.measure == "score"].set_index("action")  # the answer's second figure
    table = pd.DataFrame(
        {
            "action": win.index,
            "verdict": win["verdict"].to_numpy(),
            "win": win["estimate"].to_numpy(),
            "win_low": win["ci_low"].to_numpy(),
            "win_high": win["ci_high"].to_numpy(),
            "diff_win": diff.loc[win.index, "estimate"].to_numpy(),
            "diff_low": diff.loc[win.index, "ci_low"].to_numpy(),
            "diff_high": diff.loc[win.index, "ci_high"].to_numpy(),
            "score": score.loc[win.index, "estimate"].to_numpy(),
        }
    )
    pos = WORKED_POSITION

    def draw():
        from ..plots import bar_with_intervals

        return bar_with_intervals(
            win.reset_index(),
            "action",
            None,
            title="Seat 0's chance to go out first, by action (greedy models)",
            ylabel="P(first out)",
            xlabel="action over the 5 of spades",
        )

    return Section(
        "A worked position: what should seat 0 play?",
        (
            f'`cardlab odds zheng-shangyou --hand "{pos["hand"]}" --cards-left 1=9 --cards-left 2=11 '
            f"--cards-left 3=7 --current 5S --by 3 --precision 0.01 --seed {res.meta['seed']}`: seat 0 holds {pos['hand']}, seat 3 led "
            "the 5 of spades. Every legal play and the pass on the same sampled layouts of the unseen cards, each "
            "game played on by greedy players (positions.md); diff_win is the paired difference to the best "
            f"({res.meta['trials']:,} layouts).{unseen_sentence(res.meta)}\n\n{res.meta['answer']}"
        ),
        table,
        [draw],
        digits=3,
    )


def reviewed_game(runs: dict) -> Section:
    from ..games import zheng_shangyou_review as ZR
    from ..review import blank_settled

    res = runs["review"]
    cols = ["event", "on_table", "actions", "taken", "best", "verdict", "win_taken", "loss_win", "loss_win_low",
            "loss_win_high", "loss_score", "last_taken", "loss_last"]  # fmt: skip
    cols = [c for c in cols if c in res.table.columns]  # last_*: only where the Winner went out before a decision
    return Section(
        f"A reviewed game: seat {REVIEWED_SEAT} of the example record",
        (
            f"`cardlab review zheng-shangyou seeds/records/zheng-shangyou-example.json --seat {REVIEWED_SEAT} "
            f"--seed {res.meta['seed']}` "
            f"(the record is `cardlab record zheng-shangyou --seed {REVIEWED_SEED}`, four greedy players): each "
            "decision judged on what the seat knew then, to ±0.02 on the paired differences. win_taken is the "
            "chance to go out first with the action taken; loss_win the best action's chance minus the taken "
            "action's (0 where they are not separated at 95%); loss_score the same for the points of the game "
            "(ZS-8). "
            "After the Winner went out the scores are settled (ZS-8), and a decision is judged by the chance to end "
            "last (the Loser): last_taken, and loss_last, the taken action's chance minus the best's where clearly "
            "higher. Ending last still costs: the Loser deals the next game (ZS-7), gives its highest card to the "
            "Winner under loser_exchange, and alone pays under score_timing=at_end. At those decisions the table "
            "leaves the win and score columns blank (no action moves them), and the chart's chance to go out first "
            "is 0, marked where the action taken made ending last more likely."
            f"\n\n{res.meta['summary']}."
        ),
        blank_settled(res.table[cols]),
        [lambda: ZR.win_figure(res)],
        digits=3,
    )


def strong_field_runs(field: str) -> list:
    """What ``cardlab strong-field zheng-shangyou`` measures with ``field`` in every seat: who wins by seat, the
    value of holding each of STRONG_FEATURES, and each built-in policy as one seat among the field."""
    from ..games import zheng_shangyou as Z
    from ..strong_field import StrongRun

    def pooled(t: pd.DataFrame) -> pd.DataFrame:
        return t[t.seat.isna()]

    def seats(t: pd.DataFrame) -> pd.DataFrame:
        return t[t.measure.isin(["winner", "score", "winner_given_3D", "score_given_3D", "winner_gain"])]

    # the seeds of the report's runs (runs()): the same deals as the built-in players' figures, and the policies
    # on one set of deals, so that their differences compare policies
    plan = [StrongRun("seats", Z.simulation_spec(strategies=[field]), 4000, 0, seats)]
    plan += [StrongRun(f"value-{f}", Z.card_value_spec(f, strategy=field), 3000, 1) for f in STRONG_FEATURES]
    plan += [StrongRun(f"policy-{c}", Z.compare_spec(field, c), 1500, 2, pooled) for c in STRONG_POLICIES]
    return plan


def _changed_sentences(t: pd.DataFrame, name, unit: dict, labels: tuple[str, str]) -> list[str]:
    out = []
    a, b = labels
    for r in t[t.changes != ""].itertuples(index=False):
        r = r._asdict()
        d = unit[r["measure"]]
        how = "changes sign" if r["changes"] == "sign" else "changes (the intervals do not overlap)"
        # a signed figure for a difference, a value or a score; a plain one for a share (Seat 0's win share)
        sign = "+" if r["measure"] not in ("winner", "winner_given_3D") else ""
        out.append(
            f"{name(r)} {how}: {r[f'estimate_{a}']:{sign}.{d}f} with the built-in players, "
            f"{r[f'estimate_{b}']:{sign}.{d}f} with the strong field."
        )
    return out


def _change(r) -> str:
    from ..strong_field import change

    return change(r.ci_low_builtin, r.ci_high_builtin, r.ci_low_strong, r.ci_high_strong)


def strong_field(runs: dict) -> Section:
    from ..games.zheng_shangyou import SEARCH_BUDGET
    from ..strong_field import CHANGES_LEGEND, budget_words, not_computed, provenance, side_by_side

    doc = runs.get("strong")
    title = "The findings again, with a strong field"
    if doc is None:
        return not_computed("zheng-shangyou", title)
    field = doc["field"]
    R = doc["runs"]
    labels = ("builtin", "strong")
    # the value of holding a card: greedy players (above) against the field of searching players
    strong_values = pd.concat([R[f"value-{f}"]["table"] for f in STRONG_FEATURES if f"value-{f}" in R])
    today_values = runs["values"]
    keep = HEADLINE_PAIRED["value_of_holding"]
    values = side_by_side(
        today_values[today_values.measure.isin(keep)], strong_values[strong_values.measure.isin(keep)],
        ["feature", "measure"], labels,
    )  # fmt: skip
    # who wins by seat
    main = runs["main"]
    wins = side_by_side(
        main[(main.measure == "winner") & main.seat.notna()].assign(seat=lambda d: d.seat.astype(int)),
        R["seats"]["table"].query("measure == 'winner'").dropna(subset=["seat"]).assign(seat=lambda d: d.seat.astype(int)),
        ["measure", "seat"], labels,
    )  # fmt: skip
    # each built-in policy as one seat among the field: what it gives up against the searching players, and
    # (on the same deals) its difference to greedy, against the same policy pair among greedy players above
    pol = pd.concat([R[f"policy-{c}"]["table"] for c in STRONG_POLICIES if f"policy-{c}" in R], ignore_index=True)
    pol = pol[pol.measure.isin(HEADLINE_PAIRED["challenger_minus_field"])]
    ct = runs["compare"]
    vs_rows = []
    for r in pol[pol.challenger != "greedy"].itertuples(index=False):
        g = pol[(pol.challenger == "greedy") & (pol.measure == r.measure)]
        t = ct[(ct.field == "greedy") & (ct.challenger == r.challenger) & (ct.measure == r.measure)]
        if not (len(g) and len(t)):
            continue
        g, t = g.iloc[0], t.iloc[0]
        d = r.estimate - g.estimate
        half = difference_half_width(r.std_error, g.std_error)  # approximate: the two share their deals
        vs_rows.append({"feature": f"{r.challenger} - greedy", "measure": r.measure.rsplit("_", 1)[1],
                        "estimate_builtin": t.estimate, "ci_low_builtin": t.ci_low, "ci_high_builtin": t.ci_high,
                        "trials_strong": r.trials, "estimate_strong": d, "ci_low_strong": d - half,
                        "ci_high_strong": d + half})  # fmt: skip
    vs = pd.DataFrame(vs_rows)
    if len(vs):
        vs["changes"] = [_change(r) for r in vs.itertuples(index=False)]
    unit = {m: (3 if m.endswith("_win") else 2) for m in ("value_of_holding_win", "value_of_holding_score")}
    unit.update(winner=3, win=3, score=2)
    sentences = (
        _changed_sentences(
            values, lambda r: f"The value of holding {r['feature']} ({r['measure'].rsplit('_', 1)[1]})", unit, labels
        )
        + _changed_sentences(wins, lambda r: f"Seat {r['seat']}'s win share", unit, labels)
        + _changed_sentences(vs, lambda r: f"{r['feature']} ({r['measure']})", unit, labels)
    )
    if not sentences:
        sentences = ["No value of holding a card, seat's win share or policy difference changes at 95% between the "
                     "two fields."]  # fmt: skip
    win = pol[pol.measure == "challenger_minus_field_win"].sort_values("estimate", ascending=False)
    best, worst = win.iloc[0], win.iloc[-1]
    # the others whose estimate lies within the farthest's interval: not told apart from it
    near = [
        r.challenger
        for r in win.iloc[1:-1].itertuples()
        if abs(r.estimate - worst.estimate) <= difference_half_width(r.std_error, worst.std_error)
    ]  # approximate: the rows share their deals
    sentences.append(
        f"Among searching players the built-in policy closest to a searching seat is {best.challenger} "
        f"({best.estimate:+.3f} win probability against a searching seat, 95% {best.ci_low:+.3f} to "
        f"{best.ci_high:+.3f}), the farthest {worst.challenger} ({worst.estimate:+.3f}, 95% {worst.ci_low:+.3f} to "
        f"{worst.ci_high:+.3f}" + (f"; not told apart from {' and '.join(near)}" if near else "") + ")."
    )
    # the points too: a policy closest by the chance to go out first may cost the most points (a reader playing
    # for the score had been sent to the wrong one)
    pts = pol[pol.measure == "challenger_minus_field_score"].sort_values("estimate", ascending=False)
    if len(pts):
        p_best, p_worst = pts.iloc[0], pts.iloc[-1]
        same = p_best.challenger == best.challenger and p_worst.challenger == worst.challenger
        sentences.append(
            ("By the points a game the order is the same" if same else "By the points a game it differs")
            + f": {p_best.challenger} the closest ({p_best.estimate:+.2f}, 95% {p_best.ci_low:+.2f} to "
            f"{p_best.ci_high:+.2f}), {p_worst.challenger} the farthest ({p_worst.estimate:+.2f}, 95% "
            f"{p_worst.ci_low:+.2f} to {p_worst.ci_high:+.2f})."
        )
    text = (
        f"The questions above measured again with a strong field: {field} (the search player"
        f"{budget_words(field, SEARCH_BUDGET)}; seeds/zheng-shangyou.md) in every seat, on the same deals as the figures above (their first trials). "
        f"{provenance(doc)} The tables: the value of holding a card and the win share by seat with the built-in "
        f"players (greedy, above) and with the strong field side by side ({CHANGES_LEGEND}); then each policy's difference to greedy (the bomb policies and planning: one seat switching "
        "among greedy players above, and here the two policies' rows among searching players on the same deals, "
        "whose interval adds the two variances: an approximation, as the two share their deals); last, each built-in policy "
        "as one seat among the searching players (challenger - field, pooled over the seats).\n\n" + " ".join(sentences)
    )
    cols = ["feature", "measure", "estimate_builtin", "ci_low_builtin", "ci_high_builtin", "trials_strong",
            "estimate_strong", "ci_low_strong", "ci_high_strong", "changes"]  # fmt: skip
    wins = wins.assign(feature="seat " + wins.seat.astype(str))
    pol_rows = pol.assign(feature=pol.challenger + " - " + field, trials_strong=pol.trials,
                          estimate_strong=pol.estimate, ci_low_strong=pol.ci_low, ci_high_strong=pol.ci_high,
                          changes="", measure=pol.measure.str.rsplit("_", n=1).str[1])  # fmt: skip
    table = pd.concat([values[cols], wins[cols], vs.reindex(columns=cols), pol_rows.reindex(columns=cols)],
                      ignore_index=True)  # fmt: skip
    return Section(title, text, table.rename(columns={"feature": "what"}), digits=3)


SECTIONS = (
    who_wins,
    three_of_diamonds,
    card_values,
    policies,
    where_points_come_from,
    exact_features,
    simulated_features,
    variants,
    two_decks,
    two_deck_bombs,
    score_distribution,
    worked_position,
    reviewed_game,
    strong_field,
)


def report(scale: float = 1.0, seed: int = 2026, progress: bool = True) -> tuple[str, str, list[Section]]:
    r = runs(scale, seed, progress)
    intro = (
        f"Zheng Shangyou (seeds/zheng-shangyou.md, default rules: 4 players, 54 cards), simulated with cardlab. "
        f"Seed {seed}; {r['main_trials']:,} games for the main table."
    )
    return "Zheng Shangyou: strategy report", intro, [section(r) for section in SECTIONS]
