"""Biscuits (rules.md section 2): the engine's Python face (eval, beats, moves), hands and games.

Seats 0..3 clockwise; partners sit opposite (N-S = seats 0 and 2, E-W = seats 1 and 3).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from kernels import biscuits as K
from kernels._extern import expect

from ..driver import SEARCH_CHUNK, KernelSpec
from ..errors import CardlabError, accepted
from ..rules import (
    HALVING_HELP,
    GameRules,
    load_game,
    search_explore,
    search_label,
    search_setting,
    seat_assignments,
    seeds_dir,
    strategy_items,
)
from ..tables import frame, mean_row, proportion_row
from .base import Game, Option, cards_arg, positive_int

GAME = "biscuits"
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A")
SUITS = ("C", "D", "H", "S")
ENGINE_VARIANTS = {
    "flush_compare": (K.V_FLUSH_COMPARE, {"top_card_only": 0, "lexicographic": 1}),
    "ace_low_straight": (K.V_ACE_LOW, {"false": 0, "true": 1}),
    "pass_locks_out": (K.V_PASS_LOCKS_OUT, {"false": 0, "true": 1}),
    "starter_rule": (K.V_STARTER_RULE, {"next_clockwise_in_trailing_or_tied_team": 0, "trailing_team_alternates": 1}),
    "pass_every_hand": (K.V_PASS_FIRST_ONLY, {"true": 0, "false": 1}),
    "game_end_check": (K.V_END_IMMEDIATE, {"end_of_hand": 0, "immediate": 1}),
}


def rules() -> GameRules:
    return load_game(GAME)


# the card codes (rank * 4 + suit, BI-2), from seeds/biscuits.toml's [deck]
DECK = rules().deck
CARDS = cards_arg(DECK)  # the argparse type of a card-list option
code = DECK.index
to_mask = DECK.mask
cards_of = DECK.text


def variant_array(variants: dict | None) -> np.ndarray:
    full = rules().resolve_variants(variants)
    bv = np.zeros(K.N_VARIANTS, dtype=np.int64)
    for name, (slot, codes) in ENGINE_VARIANTS.items():
        bv[slot] = codes[full[name]]
    return bv


def classify_mask(mask: int, bv: np.ndarray | None = None) -> tuple[int, int]:
    kind, key = K.classify(np.uint64(mask), variant_array({}) if bv is None else bv)
    return int(kind), int(key)


def _describe(mask: int, bv) -> dict:
    kind, key = classify_mask(mask, bv)
    return {
        "cards": cards_of(mask),
        "type": K.KIND_NAMES[kind] if kind else "not a combination",
        "group": ("Plain" if kind < 10 else "Fancy") if kind else None,
        "type_index": kind % 10 if kind else 0,
        "key": key if kind else None,
    }


def evaluate(sets: list[str], variants: dict | None = None) -> pd.DataFrame:
    """Type, group and comparison key of each card set (BI-6)."""
    bv = variant_array(variants)
    if not sets:
        raise CardlabError('give at least one card set, e.g. "5S 5H"')
    df = pd.DataFrame([_describe(to_mask(t), bv) for t in sets])
    df["key"] = df["key"].astype("Int64")
    return df


def beats_table(current: str, play: str, variants: dict | None = None) -> pd.DataFrame:
    """Whether ``play`` beats ``current`` (BI-7), with the reason."""
    bv = variant_array(variants)
    for opt, text in (("--current", current), ("--play", play)):
        if not text.strip():
            raise CardlabError(f'{opt} is empty: give its cards, e.g. "5S 5H"')
    both = to_mask(current) & to_mask(play)
    if both:
        raise CardlabError(f"the play and the current play both hold {DECK.card((both & -both).bit_length() - 1)}")
    cur, new = _describe(to_mask(current), bv), _describe(to_mask(play), bv)
    ck, ckey = classify_mask(to_mask(current), bv)
    k, key = classify_mask(to_mask(play), bv)
    if ck == 0:
        raise CardlabError(f"the current play {current!r} is not a combination")
    ok = bool(K.beats(ck, ckey, k, key))
    if k == 0:
        reason = "the play is not a combination"
    elif k // 10 != ck // 10:
        reason = "Plain and Fancy never beat each other"
    elif k % 10 != ck % 10:
        reason = (
            "a higher type in the same group beats, whatever its size"
            if ok
            else "a lower type in the same group never beats"
        )
    else:
        reason = "the same type, equal or higher: equal rank also beats" if ok else "the same type, lower"
    return pd.DataFrame(
        [
            {
                "current": cur["cards"],
                "current_type": cur["type"],
                "play": new["cards"],
                "play_type": new["type"],
                "beats": ok,
                "reason": reason,
            }
        ]
    )


def moves(hand: str, current: str | None = None, variants: dict | None = None) -> pd.DataFrame:
    """Every legal play from ``hand``, on lead or over ``current``."""
    bv = variant_array(variants)
    h = to_mask(hand)
    if h == 0:
        raise CardlabError('--hand is empty: give its cards, e.g. "3C 3D 7H"')
    if h.bit_count() > 13:
        raise CardlabError(f"a hand of {h.bit_count()} cards: a Biscuits hand holds at most 13 (BI-3)")
    ck = ckey = 0
    if current:
        m = to_mask(current)
        if m & h:
            raise CardlabError("the current play shares cards with the hand")
        ck, ckey = classify_mask(m, bv)
        if ck == 0:
            raise CardlabError(f"the current play {current!r} is not a combination")
    out = np.zeros(K.MAX_MOVES, dtype=np.uint64)
    n = int(K.generate_moves(np.uint64(h), ck, ckey, out, bv))
    if n >= K.MAX_MOVES:
        raise CardlabError(f"more than {K.MAX_MOVES} legal plays: give a smaller hand")
    return pd.DataFrame(
        [_describe(int(x), bv) for x in out[:n]], columns=["cards", "type", "group", "type_index", "key"]
    )


# ---------------------------------------------------------------------------------------------
# Hands and games
# ---------------------------------------------------------------------------------------------


#: the strategy of every seat not given one (``--strategy``)
DEFAULT_STRATEGY = "greedy"
STRATEGIES = {
    "random": (K.PLAY_RANDOM, K.PASS_RANDOM, K.ACT_RANDOM, K.ACT_RANDOM),
    "greedy": (K.PLAY_GREEDY, K.PASS_LOWEST, K.ACT_NEVER, K.ACT_NEVER),
    "greedy-actions": (K.PLAY_GREEDY, K.PASS_SINGLES, K.ACT_LOWEST, K.ACT_LOWEST),
    # single-policy changes from greedy, for paired comparisons of one decision at a time
    "greedy-pass-singles": (K.PLAY_GREEDY, K.PASS_SINGLES, K.ACT_NEVER, K.ACT_NEVER),
    "greedy-pass-random": (K.PLAY_GREEDY, K.PASS_RANDOM, K.ACT_NEVER, K.ACT_NEVER),
    "greedy-pass-pair": (K.PLAY_GREEDY, K.PASS_PAIR, K.ACT_NEVER, K.ACT_NEVER),
    "greedy-pass-connectors": (K.PLAY_GREEDY, K.PASS_CONNECTORS, K.ACT_NEVER, K.ACT_NEVER),
    "greedy-exchange": (K.PLAY_GREEDY, K.PASS_LOWEST, K.ACT_LOWEST, K.ACT_NEVER),
    "greedy-handover": (K.PLAY_GREEDY, K.PASS_LOWEST, K.ACT_NEVER, K.ACT_LOWEST),
    "planning": (K.PLAY_PLANNING, K.PASS_KEEP_COMBOS, K.ACT_NEVER, K.ACT_LOWEST),
    "planning-pass-lowest": (K.PLAY_PLANNING, K.PASS_LOWEST, K.ACT_NEVER, K.ACT_LOWEST),
    "planning-no-handover": (K.PLAY_PLANNING, K.PASS_KEEP_COMBOS, K.ACT_NEVER, K.ACT_NEVER),
    "planning-exchange": (K.PLAY_PLANNING, K.PASS_KEEP_COMBOS, K.ACT_LOWEST, K.ACT_LOWEST),
    "planning-pass-pair": (K.PLAY_PLANNING, K.PASS_PAIR, K.ACT_NEVER, K.ACT_LOWEST),
    "planning-pass-connectors": (K.PLAY_PLANNING, K.PASS_CONNECTORS, K.ACT_NEVER, K.ACT_LOWEST),
    # the card play searched (kernels/biscuits/search.py); the pass and special actions as planning's
    "search": (K.PLAY_SEARCH, K.PASS_KEEP_COMBOS, K.ACT_NEVER, K.ACT_LOWEST),
}
#: the search player's rollouts a decision by default (``search:BUDGET``: spent by sequential halving on common
#: layouts; ``search:BUDGET:C``: by UCB1 with exploration constant C; kernels/ucb.py)
SEARCH_BUDGET = 400


def strategy_rows(names: list[str]) -> np.ndarray:
    """The kernels' strategy rows ``[4, 6]``: play, pass, exchange and handover policies, and the search player's
    budget and exploration (UCB1's C x 1000, -1 for sequential halving; 0 and 0 for the others)."""
    rows = []
    for name in names:
        if name.partition(":")[0] != "search":
            rows.append([*STRATEGIES[name], 0, 0])
            continue
        budget, c = search_setting(name, SEARCH_BUDGET)
        rows.append([*STRATEGIES["search"], budget, search_explore(c)])
    return np.array(rows, dtype=np.int64)


def searches(strat: np.ndarray) -> bool:
    """Whether a seat of these rows is the search player (its kernels have the search compiled in). Also tells the
    kernels that the run will reach the search, so that a first run compiles it ahead in a helper process
    (kernels/_extern.py)."""
    if (strat[:, 0] == K.PLAY_SEARCH).any():
        expect(K.search.search_play)
        return True
    return False


def refuse_search(strat: np.ndarray, where: str) -> None:
    """The Biscuits search player plays everywhere but the win table (a table of the field's own play); there it
    is refused in one line."""
    if searches(strat):
        raise CardlabError(
            f"the Biscuits search player is not available {where}: name another strategy "
            f"({', '.join(n for n in STRATEGIES if n != 'search')})"
        )


def simulation_spec(
    players: int | None = None,
    variants: dict | None = None,
    strategies: list[str] | None = None,
    unit: str | None = None,
) -> KernelSpec:
    """Whole games to 30 points or 4 hands (BI-12), or single hands (``unit='hand'``)."""
    g = rules()
    g.check_players(players)
    full = g.resolve_variants(variants)
    unit = unit or "game"
    if unit not in ("game", "hand"):
        raise CardlabError(f"bad --unit {unit!r} for {GAME}; accepted: game, hand")
    names = seat_assignments(strategies, 4, DEFAULT_STRATEGY, STRATEGIES, parameterized=("search",))
    strat = strategy_rows(names)
    names = [search_label(n, SEARCH_BUDGET) for n in names]
    args = (strat, np.int64(1 if unit == "game" else 0), np.int64(30), np.int64(4), variant_array(variants))
    return KernelSpec(
        game=GAME,
        kernel="kernels.biscuits:" + ("simulate_search_chunks" if searches(strat) else "simulate_chunks"),
        args=args,
        n_counts=K.counts_width(),
        tabulate=tabulate,
        describe={"players": 4, "variants": full, "strategies": names, "unit": unit},
        precision_measures=("game_won",) if unit == "game" else ("out_first",),
        chunk_size=SEARCH_CHUNK if searches(strat) else None,
        pooled_by_chunks=True,
        # rows per hand strength and per game: only those where a hand or a game was counted (tabulate)
        counted_measures=(
            "out_first_given_hcp",
            "plays_given_hcp",
            "out_first_given_plays",
            "out_first_given_plays_hcp",
        )
        + (("game_won", "hands_per_game") if unit == "game" else ()),
    )


def tabulate(counts: np.ndarray, trials: int, spec: KernelSpec) -> pd.DataFrame:
    c = np.asarray(counts)
    seat = c[: 4 * K.C_FIELDS].reshape(4, K.C_FIELDS)
    team = c[4 * K.C_FIELDS : 4 * K.C_FIELDS + 2 * K.T_FIELDS].reshape(2, K.T_FIELDS)
    hands = int(c[4 * K.C_FIELDS + 2 * K.T_FIELDS + K.M_HANDS])
    games = int(c[4 * K.C_FIELDS + 2 * K.T_FIELDS + K.M_GAMES])
    rows = []
    for s in range(4):
        r = seat[s]
        rows.append(mean_row("team_points_per_hand", s, r[K.C_POINTS], r[K.C_POINTS_SQ], hands))
        rows.append(proportion_row("out_first", s, r[K.C_OUT_FIRST], hands))
        rows.append(proportion_row("starter", s, r[K.C_STARTER], hands))
    tot = seat.sum(axis=0)
    rows.append(proportion_row("out_first_given_starter", None, tot[K.C_OUT_FIRST_AS_STARTER], tot[K.C_STARTER]))
    m = 4 * K.C_FIELDS + 2 * K.T_FIELDS
    rows.append(mean_row("starter_team_net", None, c[m + K.M_STARTER_NET], c[m + K.M_STARTER_NET_SQ], hands))
    # (seat-hands, first out) by high-card points and by the plays of the fewest-plays split, after the pass
    grid = c[4 * K.C_FIELDS + 2 * K.T_FIELDS + K.M_FIELDS :].reshape(K.MAX_HCP + 1, K.MAX_PLAYS + 1, 2)
    hcp, plays = grid.sum(axis=1), grid.sum(axis=0)
    k = np.arange(K.MAX_PLAYS + 1)
    for h in np.nonzero(hcp[:, 0])[0]:
        rows.append(proportion_row("out_first_given_hcp", None, hcp[h, 1], hcp[h, 0], hcp=int(h)))
        n_h = grid[h, :, 0]
        rows.append(mean_row("plays_given_hcp", None, (k * n_h).sum(), (k * k * n_h).sum(), hcp[h, 0], hcp=int(h)))
    for p in np.nonzero(plays[:, 0])[0]:
        rows.append(proportion_row("out_first_given_plays", None, plays[p, 1], plays[p, 0], plays=int(p)))
    for h, p in zip(*np.nonzero(grid[:, :, 0])):
        rows.append(
            proportion_row("out_first_given_plays_hcp", None, grid[h, p, 1], grid[h, p, 0], plays=int(p), hcp=int(h))
        )
    if games:
        for t, name in enumerate(("N-S", "E-W")):
            rows.append(proportion_row("game_won", None, team[t, K.T_GAMES_WON], games, team=name))
        rows.append(mean_row("hands_per_game", None, hands, np.nan, games))
    df = frame(rows)
    if "team" in df.columns:
        df["team"] = df["team"].astype(object).where(df["team"].notna(), None)
    for col in ("hcp", "plays"):
        if col in df.columns:
            df[col] = df[col].astype("Int64")
    # rows over every seat's hand with no seat's own row: their intervals from the jackknife (driver)
    df.attrs["pooled_measures"] = ("out_first_given_hcp", "plays_given_hcp", "out_first_given_plays",
                                   "out_first_given_plays_hcp")  # fmt: skip
    return df


# ---------------------------------------------------------------------------------------------
# Exact combination frequencies of a dealt hand
# ---------------------------------------------------------------------------------------------


def exact_hand_combinations(cards: int = 13) -> pd.DataFrame:
    """P(a dealt hand of ``cards`` cards can make each combination), exactly: a dynamic programme over the
    13 ranks (how many of each rank the hand holds, weighted by C(4, c)) and, for flushes, over the suits."""
    from math import comb

    if not 1 <= cards <= 52:
        raise CardlabError(f"bad --cards {cards}: expected 1..52")
    # state: (cards used, current run of present ranks capped at 5, ranks with >= 2 capped at 2,
    #         ranks with >= 3 capped at 2, a four of a kind, a 5-run seen)
    states = {(0, 0, 0, 0, False, False): 1}
    for _rank in range(13):  # 2 .. A: A high only, so a plain left-to-right run
        nxt: dict = {}
        for (used, run, ge2, ge3, four, straight), w in states.items():
            for c in range(0, min(4, cards - used) + 1):
                r = min(run + 1, 5) if c else 0
                key = (used + c, r, min(ge2 + (c >= 2), 2), min(ge3 + (c >= 3), 2), four or c == 4, straight or r >= 5)
                nxt[key] = nxt.get(key, 0) + w * comb(4, c)
        states = nxt
    total = comb(52, cards)
    final = {k: w for k, w in states.items() if k[0] == cards}

    def p(test):
        return sum(w for k, w in final.items() if test(k)) / total

    flush_free = 0
    for counts in ((a, b, c, cards - a - b - c) for a in range(5) for b in range(5) for c in range(5)):
        if 0 <= counts[3] <= 4:
            flush_free += comb(13, counts[0]) * comb(13, counts[1]) * comb(13, counts[2]) * comb(13, counts[3])
    rows = [
        ("Pair", p(lambda k: k[2] >= 1)),
        ("Triple", p(lambda k: k[3] >= 1)),
        ("Straight (5 ranks in a row, any suits)", p(lambda k: k[5])),
        ("Flush (5 of a suit)", 1 - flush_free / total),
        ("Full House", p(lambda k: k[3] >= 1 and k[2] >= 2)),
        ("Quad", p(lambda k: k[4])),
    ]
    return pd.DataFrame([{"cards": cards, "combination": name, "probability": prob} for name, prob in rows])


EXACT_TABLES = ("hand-combinations",)


def exact(table: str, cards: int | None = None) -> pd.DataFrame:
    """``cardlab exact biscuits hand-combinations [--cards N]``."""
    if table not in EXACT_TABLES:
        raise CardlabError(f"unknown table {table!r} for {GAME} exact; accepted: {accepted(EXACT_TABLES)}")
    return exact_hand_combinations(13 if cards is None else cards)


def compare_spec(field: str, challenger: str, variants: dict | None = None) -> KernelSpec:
    """A team (both partners) switching from ``field`` to ``challenger``, paired on the same hands: the
    difference in the team's points per hand, pooled over the two teams."""
    for name in (field, challenger):
        if name not in STRATEGIES and name.partition(":")[0] != "search":
            raise CardlabError(f"unknown strategy {name!r} for {GAME}; accepted: {accepted(STRATEGIES)}")
    a = strategy_rows([field] * 4)
    b = strategy_rows([challenger] * 4)
    field, challenger = (search_label(x, SEARCH_BUDGET) for x in (field, challenger))

    def tab(counts, trials, spec):
        from ..stats import paired_difference

        c = np.asarray(counts).reshape(2, K.PAIR_STATS)
        rows = []
        for team, r in (("N-S", c[0]), ("E-W", c[1]), (None, c.sum(axis=0))):
            n, pa, pb, sd, sd2, fa, fb = (float(x) for x in r)
            m, se, lo, hi = paired_difference(sd, sd2, n)
            rows.append(
                {
                    "measure": "team_points_challenger_minus_field",
                    "seat": None,
                    "team": team,
                    "field": field,
                    "challenger": challenger,
                    "trials": int(n),
                    "field_value": pa / n,
                    "challenger_value": pb / n,
                    "estimate": float(m),
                    "std_error": float(se),
                    "ci_low": float(lo),
                    "ci_high": float(hi),
                }
            )
        df = pd.DataFrame(rows)
        df["seat"] = df["seat"].astype("Int64")
        return df

    return KernelSpec(
        game=GAME,
        kernel="kernels.biscuits:" + ("compare_search_chunks" if searches(a) or searches(b) else "compare_chunks"),
        args=(a, b, variant_array(variants)),
        n_counts=2 * K.PAIR_STATS,
        tabulate=tab,
        describe={"players": 4, "field": field, "challenger": challenger, "analysis": "paired"},
        precision_measures=("team_points_challenger_minus_field",),
        chunk_size=SEARCH_CHUNK if searches(a) or searches(b) else None,
        pooled_by_chunks=True,  # the pooled row: each seat switching in turn on the same deal
        counted_measures=(),  # a table of zero counts has every row
    )


def win_table_spec(strategy: str = "greedy", variants: dict | None = None) -> KernelSpec:
    """P(a team wins the game) from every (its score, their score, hands played) of a 30-point, 4-hand game,
    every seat on ``strategy``. The table is symmetric in the teams, so both are pooled from N-S's view."""
    if strategy not in STRATEGIES:
        raise CardlabError(f"unknown strategy {strategy!r} for {GAME}; accepted: {accepted(STRATEGIES)}")
    target, max_hands = 30, 4
    strat = strategy_rows([strategy] * 4)
    refuse_search(strat, "in the win table")

    def tab(counts, trials, spec):
        from ..stats import wilson

        c = np.asarray(counts).reshape(max_hands, target, target, 2)  # [hands][them][us], N-S = us
        us, them, hands = np.meshgrid(np.arange(target), np.arange(target), np.arange(max_hands), indexing="ij")
        # the teams are exchangeable (random Starter, same strategy): pool (us, them) with (them, us) seen
        # from the other side, where N-S losing is the other team winning (a game cannot end tied)
        n = (c[hands, them, us, 0] + c[hands, us, them, 0]).ravel()
        w = (c[hands, them, us, 1] + c[hands, us, them, 0] - c[hands, us, them, 1]).ravel()
        p, se, lo, hi = wilson(w, n)
        df = pd.DataFrame(
            {
                "measure": "game_won",
                "seat": pd.array([None] * len(n), dtype="Int64"),
                "us": us.ravel(),
                "them": them.ravel(),
                "hands_played": hands.ravel(),
                "trials": n,
                "successes": w,
                "estimate": p,
                "std_error": se,
                "ci_low": lo,
                "ci_high": hi,
            }
        )
        return df

    return KernelSpec(
        game=GAME,
        kernel="kernels.biscuits:win_table_chunks",
        args=(strat, np.int64(target), np.int64(max_hands), variant_array(variants)),
        n_counts=2 * target * target * max_hands,
        tabulate=tab,
        describe={"players": 4, "strategy": strategy, "analysis": "game win table"},
        precision_measures=("game_won",),
    )


# ---------------------------------------------------------------------------------------------------
# The game interface (analysis.games.base)
# ---------------------------------------------------------------------------------------------------


class Biscuits(Game):
    advisor_model = "planning"
    slow_strategies = ("search",)
    simulate_epilog = (
        "Measures: game_won (by team, BI-12) and hands_per_game count games; every other row counts hands, every "
        "hand of the games played (the trials column says how many): per seat (N 0, E 1, S 2, W 3; N-S and E-W "
        "partners) team_points_per_hand (the points its team scores in a hand), out_first (the seat goes out "
        "first, BI-9) and starter (the seat is the Starter, BI-3); out_first_given_starter (the Starter goes out "
        "first: the Starter's advantage beside a fair 0.25) and starter_team_net (the Starter's team's points a "
        "hand minus the other team's); after the pass, by the seat's high-card points (A 4, "
        "K 3, Q 2, J 1) and by the plays of its fewest-plays split (BI-6): out_first_given_hcp, plays_given_hcp, "
        "out_first_given_plays and out_first_given_plays_hcp, whose trials are seat-hands. `compare biscuits` "
        "measures a team's points a hand against another player or policy on the same deals."
    )
    parameterized_strategies = ("search",)
    strategy_notes = (
        f"search:BUDGET sets the search player's rollouts a decision (default {SEARCH_BUDGET}), {HALVING_HELP}; it "
        "plays in every command (not in the report's win table); as "
        "the models of odds or review every sampled hand searches at every turn, so give a small budget there "
        "(search:50) (seeds/biscuits.md)"
    )
    compare_epilog = (
        "One trial is one hand (BI-3 to BI-9), dealt once and played three times with the same draws: every seat on "
        "the field, then N-S on the challenger (both partners) with E-W on the field, then the reverse. Rows: the "
        "switching team (N-S, E-W) and both pooled (trials count team-hands there: twice the hands); measure "
        "team_points_challenger_minus_field, the switching team's points in the hand (BI-8) with the challenger "
        "minus with the field, paired on the same hand; field_value and challenger_value the team's mean points a "
        "hand each way. Games to 30 points are simulate's (--unit game)."
    )
    card_notes = (
        "Cards: ranks 2 (low) to A (high); suits are not ranked (BI-2): they count only in flushes and straight flushes, and a play of "
        "the same type and an equal rank beats the one on the table (BI-7)."
    )
    odds_epilog = (
        "Measures, per action, every action on the same sampled layouts: score (the net points: the seat's team's "
        "points this hand minus the other team's, BI-8), win (the chance that the seat's team scores more than the "
        "other this hand), diff_score and diff_win (the action minus the best, paired, with 95% intervals). The "
        "best action has the highest net points (the points are what the game counts, BI-12); --precision P holds "
        "the differences in points to +-P or clear of zero. The table shows score and diff_score (--all: win and "
        "diff_win too). The models (--strategy) play every other decision of the hand, the seat's own later ones "
        "included; the default is planning, the strongest built-in player after search (simulate's default, "
        "greedy, is the field of its figures). A stronger model (search:50, slower) may rank the actions "
        "otherwise: where planning and search rank them alike either answer stands; where they disagree, play "
        "search's choice against strong players."
    )
    review_notes = (
        "Biscuits' verdict and best go by the net points (the precision's measure), the team's points this hand "
        "minus the other team's; loss_win is the chance to be the team ahead this hand."
    )
    record_unit = "hand"
    review_precision = 0.25
    review_precision_unit = "net points"
    review_precision_probability = False
    compare_by = "team"
    compare_unit = "hand"
    compare_who = ("N-S", "E-W")
    id = GAME
    simulate_options = (
        Option(
            "--unit",
            "what one trial is: a whole game to 30 points or 4 hands (default), or one hand",
            choices=("game", "hand"),
        ),
    )
    exact_tables = EXACT_TABLES
    examples = {
        "evaluate": {"sets": ["3C 4D 5H 6S 7C", "KD KH"]},
        "beats": {"current": "5C 5D", "play": "9H 9S"},
        "moves": {"hand": "3C 4D 5H 6S 7C KD KH", "current": "4S"},
        "exact": {"table": "hand-combinations", "cards": 5},
        "compare": {"field": "greedy", "challenger": "planning"},
        "report": {"scale": 0.002},
        "odds": {
            "run": {"trials": 16, "chunk_size": 16, "seed": 3},
            "hand": "2C 3D 4H 5S 7C 8D 9H TS JC QD KH AS 6C",
            "strategies": ["greedy"],
        },
        "record": {"seed": 1},
        "review": {"record": str(seeds_dir() / "records" / "biscuits-example.json"), "seat": 2},
    }
    exact_options = (Option("--cards", "hand size (default 13)", type=positive_int),)
    odds_options = (
        Option("--position", "a position document, a file or the JSON itself: a JSON object of the fields below, named as the flags "
               'with _ for -, e.g. {"hand": "5S 5H", "cards_left": {"1": 9}} (seeds/biscuits.md lists '
               "them); flags given override it (a SEAT=VALUE option seat by seat)"),
        Option("--decision", "the decision to advise (BI-13): pass (the 13 dealt cards; the default without a trick "
               "state), play (on lead, or over --current; the default with one), exchange_send (after a Plain trick: "
               "singles, pairs, triples; the seat at the winner's left), exchange_return (with --exchange-received), handover (after a "
               "Fancy trick, five-card plays, that the seat won)", choices=("pass", "play", "exchange_send", "exchange_return", "handover")),
        Option("--seat", "the deciding seat (default 0; 0 = N, 1 = E, 2 = S, 3 = W)", type=int),
        Option("--hand", "the seat's cards (for the pass: the 13 dealt cards)", type=CARDS),
        Option("--starter", "pass: the hand's Starter, who dealt and leads the first trick after the pass (BI-3; default "
               "0): it changes what a pass is worth", type=int, metavar="SEAT"),
        Option("--cards-left", "inside the hand: how many cards another seat holds (one per seat holding cards)",
               action="append", metavar="SEAT=N"),
        Option("--current", "play: the play on the table (omit on lead)", type=CARDS),
        Option("--by", "play: the seat that made the current play", type=int, metavar="SEAT"),
        Option("--played", "cards known to be out of play (optional: cards named nowhere may be in any hand)",
               type=CARDS),
        Option("--known", "cards known to be in another seat's hand", action="append", metavar="SEAT=CARDS"),
        Option("--passed", "the two cards the seat passed to its partner (BI-4): the partner holds those not played",
               type=CARDS),
        Option("--received", "the two cards the partner passed to the seat (BI-4; they are in --hand, or the seat "
               "has played them: such a card is taken as out of play, unless --known places it, as a card sent on to the "
               "partner in a Plain exchange, BI-10)", type=CARDS),
        Option("--finished", "the seat already out this hand (the second one out ends it, BI-9)", action="append",
               type=int, metavar="SEAT"),
        Option("--trick-passed", "play, variant pass_locks_out: a seat that passed earlier in this trick, so it is "
               "out of it (repeatable; the seats between --by and the deciding seat are taken as passed)",
               action="append", type=int, metavar="SEAT"),
        Option("--hand-points", "points scored this hand so far, per team (needed with --finished; BI-8)",
               action="append", metavar="TEAM=N"),
        Option("--exchange-received", "exchange_return: the card the partner sent (it is in --hand)", type=CARDS,
               metavar="CARD"),
        Option("--score", "the game score before this hand, per team (only variant game_end_check=immediate uses it)",
               action="append", metavar="TEAM=N"),
    )  # fmt: skip

    def odds(self, run, variants=None, strategies=None, **position):
        from .biscuits_odds import odds, position_fields

        return odds(run.kwargs(), **position_fields(position, variants, strategies))

    def record(self, seed=0, players=None, variants=None, strategies=None):
        from .biscuits_review import record

        return record(seed, players, variants, strategy_items(strategies))

    def review(self, record, seat=None, run=None, strategies=None):
        from .biscuits_review import review

        doc, kwargs = self.review_inputs(record, run, strategies)
        return review(doc, seat=seat, **kwargs)

    def review_sections(self, result, record_name):
        from .biscuits_review import sections

        return sections(result, record_name)

    def strategies(self):
        return tuple(STRATEGIES)

    def default_strategy(self):
        return DEFAULT_STRATEGY

    def simulation_spec(self, players=None, variants=None, strategies=None, **options):
        return simulation_spec(players, variants, strategy_items(strategies), **options)

    def evaluate(self, sets, variants=None):
        return evaluate(list(sets), variants)

    def beats(self, current, play, variants=None):
        return beats_table(current, play, variants)

    def moves(self, hand, current=None, variants=None):
        return moves(hand, current, variants)

    def exact(self, table, variants=None, **options):
        if variants:
            rules().resolve_variants(variants)
        return exact(table, **options)

    def compare_spec(self, field, challenger, players=None, variants=None, **options):
        rules().check_players(players)
        return compare_spec(field, challenger, variants, **options)

    def report_sections(self, scale=1.0, seed=2026, progress=True):
        from ..sections import biscuits

        return biscuits.report(scale=scale, seed=seed, progress=progress)
