"""The Zheng Shangyou strategy report: its simulations (:func:`runs`) and its sections, one function each."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ..report import Section

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
EXTRA_VARIANTS = [{"deck": d} for d in ("4p_52", "3p_54", "3p_52")] + [
    {"ruleset": "legacy_wiki"},
    {"ruleset": "current_wiki"},
    {"ruleset": "current_wiki", "triple_is_bomb": "true"},
    {"ruleset": "current_wiki", "suit_order": "false"},
]
VARIANT_MEASURES = ("winner_given_3D", "winner_gain")
#: the advisor's worked position (README's example): seat 0 over a 5 of spades, three opponents in play
WORKED_POSITION: dict[str, Any] = {
    "hand": "4D 6C 7H 8S 9D TC JH QS KD 2C",
    "cards_left": {"1": 9, "2": 11, "3": 7},
    "current": "5S",
    "by": 3,
}
REVIEWED_SEED, REVIEWED_SEAT = 1, 2  # seeds/records/zheng-shangyou-example.json, the seat with a clear error


def runs(scale: float = 1.0, seed: int = 2026, progress: bool = True) -> dict:
    """Every simulation the report shows: ``main`` (4 greedy players, default rules), ``values`` (what holding
    a card is worth), ``compare`` (policies, pooled over seats), ``variants`` ((label, table) per variant) and
    ``two_decks`` (table per player count)."""
    from ..driver import run
    from ..games import zheng_shangyou as Z

    def n(x):
        return max(500, int(x * scale))

    main = run(Z.simulation_spec(), trials=n(200_000), seed=seed, progress=progress)
    values = pd.concat(
        [
            run(Z.card_value_spec(feature), trials=n(30_000), seed=seed + 1, progress=progress).table
            for feature in FEATURES
        ],
        ignore_index=True,
    )
    compare = []
    for field, challenger in COMPARISONS:
        res = run(Z.compare_spec(field, challenger), trials=n(20_000), seed=seed + 2, progress=progress).table
        compare.append(res[res.seat.isna()])
    variants = []
    defaults = Z.rules().resolve_variants({})
    for name, (_slot, codes) in Z.VARIANT_CODES.items():
        for value in codes:
            if value == defaults[name] or name in SKIPPED_VARIANTS:
                continue
            spec = Z.simulation_spec(variants={name: value}, games_per_match=4 if name in MATCH_VARIANTS else 1)
            variants.append((f"{name}={value}", run(spec, trials=n(40_000), seed=seed + 4, progress=progress).table))
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
    return {
        "seed": seed,
        "advice": advice,
        "review": review,
        "main": main.table,
        "main_trials": main.meta["trials"],
        "values": values,
        "compare": pd.concat(compare, ignore_index=True),
        "variants": variants,
        "two_decks": two_decks,
    }


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
            "Scores are taken when the Winner goes out (ZS-8); 95% intervals."
        ),
        by_seat[["measure", "seat", "trials", "estimate", "ci_low", "ci_high"]],
        [draw],
    )


def three_of_diamonds(runs: dict) -> Section:
    t = runs["main"]
    return Section(
        "Is the 3 of diamonds an advantage? Observed",
        (
            "The 3 of diamonds' holder leads the first trick. Observed over all games: P(Winner) and the expected "
            "score of its holder (compare 0.25 and 0)."
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
            title="Value of holding a card, paired on the same deals",
            ylabel="P(Winner) with - without",
            xlabel="card or combination held",
            reference=0.0,
        )

    return Section(
        "What holding a card is worth (paired)",
        (
            "Each deal is played twice: as dealt, and with the holder's card swapped for a random card of a random "
            "other player (for a bomb, one card of the four; for a straight flush, its middle card). The rest of "
            "the deal and the players' random draws are the same, so the difference isolates the card. estimate = "
            "with - without, for the holder; 'accepted_share' is the share of deals where someone held it."
        ),
        vt[["measure", "feature", "trials", "with", "without", "estimate", "ci_low", "ci_high", "accepted_share"]],
        [draw],
    )


def policies(runs: dict) -> Section:
    ct = runs["compare"]
    return Section(
        "When to spend a bomb, and how to plan: policies compared (paired)",
        (
            "One seat at a time switches to the challenger while the others keep the field's policy, on the same "
            "deals. estimate = challenger - field for that seat (win probability, and score), pooled over seats. "
            "greedy bombs early, greedy-hold keeps bombs to go out, greedy-stop bombs when an opponent holds 3 "
            "cards or fewer; planning plays whole parts of a split of its hand."
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
            "values; the straight flush has no exact value here)."
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


def variants(runs: dict) -> Section:
    from ..games.zheng_shangyou import TWO_DECKS

    rows = _variant_rows("defaults", runs["main"])[::-1]
    for label, table in runs["variants"]:
        rows += _variant_rows(label, table)
    for P, table in runs["two_decks"].items():
        rows += _variant_rows(f"deck={TWO_DECKS} ({P} players)", table)
    return Section(
        "The effect of each variant",
        (
            "Greedy players under each implemented variant of rules.md 4(c), one at a time (later_game_leader and "
            "loser_exchange over matches of 4 games, where they matter): P(Winner) of the player holding the 3 of "
            "diamonds in the first game, and the Winner's mean gain. ruleset=legacy_wiki is the older article: 52 "
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
            "dealer holding a 3 of diamonds; scoring as ZS-8 for 4 players. Compare each seat with 'fair_share'."
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

    return Section(
        "The distribution of scores",
        "Per seat and game: the Winner's gain is the others' total loss (1, 2 or 3 per card, ZS-8).",
        None,
        [draw],
    )


def worked_position(runs: dict) -> Section:
    res = runs["advice"]
    t = res.table
    win = t[t.measure == "win"].set_index("action")
    diff = t[t.measure == "diff_win"].set_index("action")
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
            f"--cards-left 3=7 --current 5S --by 3 --precision 0.01 --seed {runs['seed'] + 6}`: seat 0 holds {pos['hand']}, seat 3 led "
            "the 5 of spades. Every legal play and the pass on the same sampled layouts of the unseen cards, each "
            "game played on by greedy players (positions.md); diff_win is the paired difference to the best "
            f"({res.meta['trials']:,} layouts).\n\n{res.meta['answer']}"
        ),
        table,
        [draw],
        digits=3,
    )


def reviewed_game(runs: dict) -> Section:
    from ..games import zheng_shangyou_review as ZR

    res = runs["review"]
    cols = ["event", "on_table", "actions", "taken", "best", "verdict", "win_taken", "loss_win", "loss_win_low",
            "loss_win_high", "loss_score"]  # fmt: skip
    return Section(
        f"A reviewed game: seat {REVIEWED_SEAT} of the example record",
        (
            f"`cardlab review zheng-shangyou seeds/records/zheng-shangyou-example.json --seat {REVIEWED_SEAT} "
            f"--seed {runs['seed'] + 7}` "
            f"(the record is `cardlab record zheng-shangyou --seed {REVIEWED_SEED}`, four greedy players): each "
            "decision judged on what the seat knew then, to ±0.02 on the paired differences. loss_win is the best "
            "action's chance to go out first minus the taken action's (0 where they are not separated at 95%)."
            f"\n\n{res.meta['summary']}."
        ),
        res.table[cols],
        [lambda: ZR.win_figure(res)],
        digits=3,
    )


SECTIONS = (
    who_wins,
    three_of_diamonds,
    card_values,
    policies,
    exact_features,
    simulated_features,
    variants,
    two_decks,
    two_deck_bombs,
    score_distribution,
    worked_position,
    reviewed_game,
)


def report(scale: float = 1.0, seed: int = 2026, progress: bool = True) -> tuple[str, str, list[Section]]:
    r = runs(scale, seed, progress)
    intro = (
        f"Zheng Shangyou (rules.md section 4, default rules: 4 players, 54 cards), simulated with cardlab. "
        f"Seed {seed}; {r['main_trials']:,} games for the main table."
    )
    return "Zheng Shangyou: strategy report", intro, [section(r) for section in SECTIONS]
