"""Bisko-Bobo (rules.md section 1): rules to arrays, strategies as data, tables.

Seats are numbered in playing order: seat 0 sits at the dealer's left and chooses first in Risky-Bisk
(BB-5); seat P-1 is the dealer, who chooses last.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import NamedTuple, cast

import numpy as np
import pandas as pd

from kernels import bisko_bobo as K
from kernels._extern import expect

from ..compile_ahead import wait_for
from ..driver import KernelSpec
from ..errors import CardlabError, accepted
from ..rules import GameRules, load_game, seeds_dir, strategy_items
from ..tables import frame, mean_row, proportion_row
from .base import Game, Option, positive_int

# Every Bisko-Bobo kernel reaches the called deal (kernels.bisko_bobo.deal.play_deal_x): a first run's helper compiles
# it beside the command (kernels/_extern.py)
expect(K.deal.play_deal)

GAME = "bisko-bobo"
TYPE_NAMES = [
    "No Bisk",
    "Bisko",
    "Two Bisk",
    "Tri Bisk",
    "Full Bisk",
    "Quad Bisk",
    "Three Bisk",
    "Double Tri Bisk",
    "Big Full Bisk",
    "Quinn Bisk",
    "Hex Bisk",
]
DECK = load_game(GAME).deck  # code = suit * 13 + rank, C < H < D < S (BB-2)
#: the strategy of every seat not given one (``--strategy``)
DEFAULT_STRATEGY = "heuristic"
STRATEGIES = ("heuristic", "always-flingo", "always-jingo", "random", "no-swap", "recommended", "cheat-sheet")
RECOMMENDED_FILE = "bisko-bobo-recommended.json"

_VARIANT_CODES = {
    "bisk_suit_order": (K.V_SUIT_ORDER, {"suit_rank": 0, "component_first": 1}),
    "tiebreak_depth": (K.V_DEPTH, {"full_lexicographic": 0, "first_card_only": 1}),
    "exact_tie": (K.V_EXACT_TIE, {"split": 0, "no_winner": 1, "redeal": 2}),
    "jingo_tuck_rule": (K.V_TUCK_RULE, {"bobo_only": 0, "free": 1}),
    "allow_same_suit_split": (K.V_SPLIT, {"false": 0, "true": 1}),
    "flingo_reward_chain": (K.V_REWARD_CHAIN, {"false": 0, "true": 1}),
    "bedtime_double_trigger": (K.V_BEDTIME, {"opening_bisko_only": 0, "any_bisko_before_bedtime": 1}),
    "enforce_jingo_constraint": (K.V_JINGO_RULE, {"false": 0, "true": 1}),
    "bingo_swap_optional": (K.V_SWAP_OPTIONAL, {"false": 0, "true": 1}),
    "jingo_placement_order": (K.V_PLACEMENT, {"simultaneous": 0, "clockwise_sequential": 1}),
}


def rules() -> GameRules:
    return load_game(GAME)


def ranks_per_suit(players: int) -> int:
    """k, the HIGH ranks per suit (BB-1)."""
    return len(rules().data["deck"]["high_ranks"][str(players)])


def high_deck(players: int) -> np.ndarray:
    """The HIGH deck for ``players`` as 52-card codes (BB-1), ascending."""
    k = ranks_per_suit(players)
    return np.array([s * 13 + r for s in range(4) for r in range(13 - k, 13)], dtype=np.int64)


def low_deck(players: int) -> np.ndarray:
    k = ranks_per_suit(players)
    return np.array([s * 13 + r for s in range(4) for r in range(0, 13 - k)], dtype=np.int64)


def variant_array(variants: dict[str, str]) -> np.ndarray:
    full = rules().resolve_variants(variants)
    arr = np.zeros(K.N_VARIANTS, dtype=np.int64)
    for name, value in full.items():
        slot, codes = _VARIANT_CODES[name]
        arr[slot] = codes[value]
    return arr


# ---------------------------------------------------------------------------------------------
# Strategies as data (BB-15)
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Strategy:
    """One seat's parameters: the arrays the kernel reads (see kernels.bisko_bobo)."""

    name: str
    p_jingo: np.ndarray  # JINGO_SHAPE
    p_swap: np.ndarray  # (N_FIT, 2)
    swap_target: int
    p_tuck: np.ndarray  # (N_REL,)


def _base_swap_tuck() -> tuple[np.ndarray, int, np.ndarray]:
    p_swap = np.zeros((K.N_FIT, 2))
    p_swap[0, :] = 1.0  # swap a Jingo card that fits nothing of mine
    p_tuck = np.array([1.0, 0.0, 0.0])  # tuck only to make a Bobo
    return p_swap, 3, p_tuck


def builtin_strategy(name: str, players: int, seat: int = 0) -> Strategy:
    """A named strategy's parameters for ``seat`` (only ``recommended`` differs from seat to seat)."""
    k = ranks_per_suit(players)
    p_swap, target, p_tuck = _base_swap_tuck()
    if name == "heuristic":
        unseen = np.arange(9)
        p = np.where(unseen * 2 >= k, 0.0, 1.0)  # Flingo while at least half the suit is unseen
        p_jingo = np.broadcast_to(p, K.JINGO_SHAPE).copy()
    elif name == "always-flingo":
        p_jingo = np.zeros(K.JINGO_SHAPE)
    elif name == "always-jingo":
        p_jingo = np.ones(K.JINGO_SHAPE)
    elif name == "random":
        p_jingo = np.full(K.JINGO_SHAPE, 0.5)
        p_swap = np.full((K.N_FIT, 2), 0.5)
        target = 2
        p_tuck = np.full(K.N_REL, 0.5)
    elif name == "no-swap":
        p_swap = np.zeros((K.N_FIT, 2))
        unseen = np.arange(9)
        p_jingo = np.broadcast_to(np.where(unseen * 2 >= k, 0.0, 1.0), K.JINGO_SHAPE).copy()
    elif name == "recommended":
        return recommended_strategy(players)[seat]
    elif name == "cheat-sheet":
        from .bisko_bobo_sheet import sheet_strategy, stored_sheet

        return sheet_strategy(stored_sheet(players))
    else:
        raise CardlabError(f"unknown strategy {name!r} for {GAME}; accepted: {accepted(STRATEGIES)}")
    return Strategy(name, p_jingo, p_swap, target, p_tuck)


def recommended_path() -> Path:
    return seeds_dir() / RECOMMENDED_FILE


@cache
def recommended_tables() -> dict:
    path = recommended_path()
    if not path.exists():
        return {}
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def recommended_strategy(players: int) -> list[Strategy]:
    """The stored recommended strategy for ``players``: one table per seat."""
    tables = recommended_tables().get("players", {}).get(str(players))
    if tables is None:
        raise CardlabError(
            f"no recommended strategy stored for {players} players in {recommended_path()}; "
            f"compute it with 'cardlab improve bisko-bobo --players {players} --write {recommended_path()}'"
        )
    return [strategy_from_dict("recommended", t) for t in tables["seats"]]


def strategy_to_dict(s: Strategy) -> dict:
    return {
        "p_jingo": s.p_jingo.tolist(),
        "p_swap": s.p_swap.tolist(),
        "swap_target": int(s.swap_target),
        "p_tuck": s.p_tuck.tolist(),
    }


def strategy_from_dict(name: str, d: dict) -> Strategy:
    return Strategy(
        name,
        np.array(d["p_jingo"], dtype=float).reshape(K.JINGO_SHAPE),
        np.array(d["p_swap"], dtype=float).reshape(K.N_FIT, 2),
        int(d["swap_target"]),
        np.array(d["p_tuck"], dtype=float).reshape(K.N_REL),
    )


def seat_strategies(spec: list[str] | None, players: int) -> list[Strategy]:
    """``["heuristic"]`` for every seat, or ``["random", "0=always-jingo", ...]`` per seat."""
    from ..rules import seat_assignments

    names = seat_assignments(spec, players, DEFAULT_STRATEGY, STRATEGIES)
    return [builtin_strategy(n, players, s) for s, n in enumerate(names)]


class KernelArgs(NamedTuple):
    """What the simulation and decision kernels take after the chunk and key arguments, in their order
    (``*args`` passes them on; tests and tools read them by name)."""

    players: np.int64
    high_deck: np.ndarray
    low_deck: np.ndarray
    variants: np.ndarray
    p_jingo: np.ndarray  # per seat: the chance of taking a Jingo, by situation (JINGO_SHAPE)
    p_swap: np.ndarray  # per seat: the chance of a Bingo-Bango swap, by fit
    swap_target: np.ndarray  # per seat: the swap target rule
    p_tuck: np.ndarray  # per seat: the chance of tucking, by relation
    pack: np.ndarray  # the rank packing table (K.RANK_PACK)


def kernel_args(P: int, full: dict[str, str], strats: list[Strategy]) -> KernelArgs:
    return KernelArgs(np.int64(P), high_deck(P), low_deck(P), variant_array(full), *stack(strats), K.RANK_PACK)


def stack(strats: list[Strategy]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    return (
        np.stack([s.p_jingo for s in strats]).astype(np.float64),
        np.stack([s.p_swap for s in strats]).astype(np.float64),
        np.array([s.swap_target for s in strats], dtype=np.int64),
        np.stack([s.p_tuck for s in strats]).astype(np.float64),
    )


# ---------------------------------------------------------------------------------------------
# Simulation spec and tables
# ---------------------------------------------------------------------------------------------


def simulation_spec(
    players: int | None = None, variants: dict[str, str] | None = None, strategies: list[str] | None = None
) -> KernelSpec:
    g = rules()
    P = g.check_players(players)
    full = g.resolve_variants(variants)
    strats = seat_strategies(strategies, P)
    args = kernel_args(P, full, strats)
    # the lanes' kernel where the lanes play these settings, else the scalar deal's (the same counts either way;
    # each compiles its own loop alone: kernels/bisko_bobo/simulate.py)
    lanes = bool(K.lanes_apply(*args[:8]))
    return KernelSpec(
        game=GAME,
        kernel="kernels.bisko_bobo:" + ("simulate_chunks" if lanes else "simulate_scalar_chunks"),
        args=args,
        n_counts=K.n_counts(P),
        tabulate=tabulate,
        describe={"players": P, "variants": full, "strategies": [s.name for s in strats]},
        precision_measures=("win",),
        pooled_by_chunks=True,
        counted_measures=(),  # a table of zero counts has every row
    )


def _seat_block(counts: np.ndarray, P: int) -> np.ndarray:
    return counts[: P * K.SEAT_FIELDS].reshape(P, K.SEAT_FIELDS)


def tabulate(counts: np.ndarray, trials: int, spec: KernelSpec) -> pd.DataFrame:
    """Merged counts to the tidy table (measures per seat and overall, seat = None)."""
    P = int(spec.describe["players"])
    seat = _seat_block(np.asarray(counts), P)
    deal = np.asarray(counts)[P * K.SEAT_FIELDS :]
    n = int(deal[K.D_DEALS])
    rows: list[dict] = []
    groups = [(s, seat[s], n) for s in range(P)] + [(None, seat.sum(axis=0), n * P)]
    for s, r, n_obs in groups:
        win = mean_row("win", s, r[K.R_WIN], r[K.R_WIN_SQ], n_obs, scale=60.0)
        if s is None:
            win = _pooled_win(win, deal, n, P, spec)
        rows.append(win)
        rows.append(proportion_row("sole_win", s, r[K.R_SOLE_WIN], n_obs))
        rows.append(proportion_row("opening_bisko", s, r[K.R_OPENING_BISKO], n_obs))
        rows.append(proportion_row("free_choice", s, r[K.R_FREE_CHOICE], n_obs))
        rows.append(proportion_row("flingo", s, r[K.R_FLINGO], n_obs))
        rows.append(proportion_row("jingo", s, r[K.R_JINGO], n_obs))
        rows.append(proportion_row("flingo_when_free", s, r[K.R_FREE_FLINGO], r[K.R_FREE_CHOICE]))
        rows.append(proportion_row("reward_given_flingo", s, r[K.R_REWARD], r[K.R_FLINGO]))
        rows.append(proportion_row("swap_started", s, r[K.R_SWAP_INIT], n_obs))
        rows.append(proportion_row("swapped_given_jingo", s, r[K.R_SWAPPED], r[K.R_JINGO]))
        rows.append(proportion_row("jingo_tucked_given_jingo", s, r[K.R_TUCKED_JINGO], r[K.R_JINGO]))
        for t, name in enumerate(TYPE_NAMES):
            rows.append(proportion_row("final_type", s, r[K.C_TYPE + t], n_obs, bisk=name))
        for t, name in enumerate(TYPE_NAMES):
            # P(win | final type): win shares are multiples of 1/60; split wins are rare (Jack-alone ties)
            wins = r[K.C_TYPE_WIN + t] / 60.0
            row = proportion_row("win_given_type", s, 0, r[K.C_TYPE + t], bisk=name)
            row.update(_wilson_fractional(wins, r[K.C_TYPE + t]))
            rows.append(row)
    # the Jack reversal (BB-10): win shares with and without a Jack, for opening-Bisko and Tuck players
    tot = seat.sum(axis=0)
    ob, ob_jack, jack = tot[K.R_OPENING_BISKO], tot[K.C_OB_JACK], deal[K.D_WET_JACK] * P
    tuck_jack = jack - ob_jack
    tuck_all = n * P - ob
    for name, wins, count in (
        ("win_opening_bisko_jack", tot[K.C_OB_JACK_WIN], ob_jack),
        ("win_opening_bisko_no_jack", tot[K.C_OB_WIN] - tot[K.C_OB_JACK_WIN], ob - ob_jack),
        ("win_tuck_jack", tot[K.C_JACK_WIN] - tot[K.C_OB_JACK_WIN], tuck_jack),
        (
            "win_tuck_no_jack",
            tot[K.R_WIN] - tot[K.C_OB_WIN] - (tot[K.C_JACK_WIN] - tot[K.C_OB_JACK_WIN]),
            tuck_all - tuck_jack,
        ),
        ("win_when_free_flingo", tot[K.C_FREE_FLINGO_WIN], tot[K.R_FREE_FLINGO]),
        ("win_when_free_jingo", tot[K.C_FREE_JINGO_WIN], tot[K.R_FREE_CHOICE] - tot[K.R_FREE_FLINGO]),
    ):
        row = proportion_row(name, None, 0, count)
        row.update(_wilson_fractional(wins / 60.0, count))
        rows.append(row)
    rows.append(proportion_row("wet_bisk_jack", None, deal[K.D_WET_JACK], n))
    rows.append(proportion_row("shared_win", None, deal[K.D_SHARED], n))
    rows.append(proportion_row("no_winner", None, deal[K.D_NO_WINNER], n))
    rows.append(proportion_row("bingo_bango_phase", None, deal[K.D_BINGO_PHASE], n))
    rows.append(mean_row("swaps_per_deal", None, deal[K.D_SWAPS], np.nan, n))
    rows.append(mean_row("redeals_per_deal", None, deal[K.D_REDEALS], np.nan, n))
    df = frame(rows)
    if "bisk" in df.columns:
        df["bisk"] = df["bisk"].astype(object).where(df["bisk"].notna(), None)
    df.attrs["pooled_by_rules"] = ("win",)  # its pooled row's interval is q's (_pooled_win), not the jackknife's
    # rows over every seat's deal with no seat's own row: their intervals from the jackknife (driver)
    df.attrs["pooled_measures"] = tuple(f"win_{w}" for w in ("opening_bisko_jack", "opening_bisko_no_jack",
                                        "tuck_jack", "tuck_no_jack", "when_free_flingo", "when_free_jingo"))  # fmt: skip
    return df


def _pooled_win(row: dict, deal: np.ndarray, n: int, P: int, spec: KernelSpec) -> dict:
    """The pooled win row: a deal's win shares add to 1 (BB-12 step 6: split wins share it, a redeal plays again),
    or to 0 where exact_tie=no_winner leaves it without a winner; so the pooled share is (1 - q) / players, q the
    chance of a deal without a winner, and its interval is q's, not that of independent seat-deals."""
    from ..stats import wilson
    from ..tables import fixed_by_rules

    if spec.describe["variants"].get("exact_tie") != "no_winner":
        return fixed_by_rules(row)
    q, se, lo, hi = wilson(deal[K.D_NO_WINNER], n)
    row.update(std_error=float(se) / P, ci_low=(1 - float(hi)) / P, ci_high=(1 - float(lo)) / P)
    return row


def _wilson_fractional(successes: float, trials: int) -> dict:
    from ..stats import wilson

    p, se, lo, hi = wilson(successes, trials)
    return {
        "successes": float(successes),
        "estimate": float(p),
        "std_error": float(se),
        "ci_low": float(lo),
        "ci_high": float(hi),
    }


# ---------------------------------------------------------------------------------------------
# Evaluation and exact enumeration
# ---------------------------------------------------------------------------------------------


def _eval_flags(variants: dict[str, str] | None) -> tuple[int, int, int]:
    v = variant_array(variants or {})
    return int(v[K.V_SUIT_ORDER]), int(v[K.V_DEPTH]), int(v[K.V_SPLIT])


MAX_EVAL_CARDS = 6  # BB-13: the most cards an evaluation set can hold (normal mode)
LOW_EVERYWHERE = ("2", "3", "4", "5", "6")  # BB-1: below the HIGH deck of every player count (6 players: A..7)


def _check_game_set(text: str, idx: list[int]) -> None:
    """Refuse a set no player can hold at evaluation (BB-13, BB-1)."""
    if not idx:
        raise CardlabError('an empty card set: give 1 to 6 cards per set, e.g. "KC JC TC"')
    if len(idx) > MAX_EVAL_CARDS:
        raise CardlabError(f"{text!r} has {len(idx)} cards: an evaluation set has at most {MAX_EVAL_CARDS} (BB-13)")
    low = [DECK.card(i) for i in idx if DECK.card(i).rank in LOW_EVERYWHERE]
    if low:
        raise CardlabError(
            f"{low[0]} is a LOW card with any number of players: evaluation sets hold HIGH cards, 7 to A (BB-1)"
        )


def evaluate(sets: list[str], variants: dict[str, str] | None = None, game_sets: bool = False) -> pd.DataFrame:
    """Type and key of each card set (BB-12). Keys compare across sets and calls. ``game_sets``: refuse what
    no deal can give a player (more than 6 cards, BB-13; LOW cards, BB-1; an empty set), as ``cardlab eval``
    does; without it any set is evaluated, as the rules' tables of larger sets need."""
    if not sets:
        raise CardlabError('give at least one card set, e.g. "KC JC TC"')
    flags = _eval_flags(variants)
    rows = []
    for text in sets:
        idx = DECK.indices(text)
        if game_sets:
            _check_game_set(text, idx)
        arr = np.array(idx, dtype=np.int64)
        key = int(K.bisk_key(arr, len(arr), *flags, K.RANK_PACK))
        t = key >> 59
        rows.append(
            {"cards": " ".join(str(DECK.card(i)) for i in idx), "bisk": TYPE_NAMES[t], "type_index": t, "key": key}
        )
    df = pd.DataFrame(rows)
    if len(df) > 1:  # BB-11/BB-12: the highest key wins; equal keys tie (variant exact_tie says what follows)
        df.insert(0, "rank", df["key"].rank(method="min", ascending=False).astype(int))
        df.attrs["answer"] = _eval_answer(df)
    return df


def _eval_answer(df: pd.DataFrame) -> str:
    """One line: which set wins (BB-11), over what, or which tie."""
    top = df[df["rank"] == 1]
    rest = df[df["rank"] > 1]
    if len(top) > 1:
        sets = " and ".join(f"{c!r}" for c in top["cards"])
        head = f"Tie: {sets} ({top['bisk'].iloc[0]}, equal keys: variant exact_tie decides)"
    else:
        bisk = top["bisk"].iloc[0]
        head = f"{top['cards'].iloc[0]!r} wins" + (
            " with no Bisk (the highest card)" if bisk == "No Bisk" else f" with a {bisk}"
        )
    if len(rest):
        head += "; then " + ", ".join(
            f"{r.cards!r} ({r.bisk}, rank {r.rank})" for r in rest.sort_values("rank").itertuples()
        )
    return head


def exact_bisk_types(players: int, cards: int, variants: dict[str, str] | None = None) -> pd.DataFrame:
    """Count and probability of each Bisk type over all ``cards``-card sets of the HIGH deck."""
    P = rules().check_players(players)
    deck = high_deck(P)
    if not 1 <= cards <= len(deck):
        raise CardlabError(f"bad --cards {cards}: the HIGH deck for {P} players has {len(deck)} cards (1..{len(deck)})")
    out = np.zeros(len(TYPE_NAMES), dtype=np.int64)
    wait_for("kernels.bisko_bobo:exact_type_counts")  # where a report's helper compiles it (analysis.compile_ahead)
    K.exact_type_counts(deck, cards, *_eval_flags(variants), K.RANK_PACK, out)
    total = int(out.sum())
    return pd.DataFrame(
        {"bisk": TYPE_NAMES, "type_index": range(len(TYPE_NAMES)), "count": out, "probability": out / total}
    )


EXACT_TABLES = ("bisk-types",)


def exact(
    table: str, players: int | None = None, cards: int | None = None, variants: dict[str, str] | None = None
) -> pd.DataFrame:
    """``cardlab exact bisko-bobo bisk-types --players P --cards M``."""
    if table not in EXACT_TABLES:
        raise CardlabError(f"unknown table {table!r} for {GAME} exact; accepted: {accepted(EXACT_TABLES)}")
    if cards is None:
        raise CardlabError("give --cards M, the set size")
    return exact_bisk_types(rules().check_players(players), cards, variants)


# ---------------------------------------------------------------------------------------------
# Decision values (Flingo vs Jingo by situation, swaps, tucks), strategy comparisons, improvement
# ---------------------------------------------------------------------------------------------

DECISIONS = ("flingo", "swap", "tuck")
ACTIONS = {"flingo": ("Flingo", "Jingo"), "swap": ("no swap", "swap"), "tuck": ("upright", "tucked")}
SUIT_NAMES = ("C", "H", "D", "S")
FIT_NAMES = ("fits nothing", "fits tucked suit", "fits an upright suit")
REL_NAMES = ("matches tucked suit", "matches an upright suit", "matches neither")


def bucket_labels(decision: str, bucket: int) -> dict:
    """The situation a bucket index stands for (see kernels.bisko_bobo)."""
    if decision == "flingo":
        unseen = bucket % 9
        us = (bucket // 9) % 4
        lf = (bucket // 36) % 2
        jb = bucket // 72
        return {
            "jingos_so_far": ("0", "1", "2+")[jb],
            "later_free": bool(lf),
            "upright_suit": SUIT_NAMES[us],
            "unseen_of_suit": unseen,
        }
    if decision == "swap":
        return {"fit": FIT_NAMES[bucket // 2], "opening_bisko": bool(bucket % 2)}
    return {"placement": REL_NAMES[bucket]}


def decision_spec(
    players: int,
    variants: dict | None = None,
    strategies: list[str] | list[Strategy] | None = None,
) -> KernelSpec:
    g = rules()
    P = g.check_players(players)
    full = g.resolve_variants(variants)
    strats = (
        strategies
        if strategies and isinstance(strategies[0], Strategy)
        else seat_strategies(cast("list[str] | None", strategies), P)
    )
    args = kernel_args(P, full, strats)
    return KernelSpec(
        game=GAME,
        kernel="kernels.bisko_bobo:decision_chunks",
        args=args,
        n_counts=K.decision_counts(P),
        tabulate=tabulate_decisions,
        describe={
            "players": P,
            "variants": full,
            "strategies": [s.name for s in strats],
            "analysis": "decision values",
        },
        precision_measures=(),
    )


def tabulate_decisions(counts: np.ndarray, trials: int, spec: KernelSpec, min_n: int = 1) -> pd.DataFrame:
    """One row per (decision, seat, bucket) seen: both actions' win shares and their paired difference."""
    from ..stats import paired_difference

    P = int(spec.describe["players"])
    c = np.asarray(counts).reshape(3, P, K.N_BUCKETS, K.DEC_STATS)
    rows = []
    for d, name in enumerate(DECISIONS):
        for s in range(P):
            for b in np.nonzero(c[d, s, :, 0] >= min_n)[0]:
                n, w0, w1, sd, sd2 = (float(x) for x in c[d, s, b])
                m0 = w0 / 60.0 / n
                m1 = w1 / 60.0 / n
                diff, se, lo, hi = paired_difference(sd / 60.0, sd2 / 3600.0, n)
                rows.append(
                    {
                        "measure": f"{name}_value",
                        "seat": s,
                        "decision": name,
                        "bucket": int(b),
                        **{k: v for k, v in bucket_labels(name, int(b)).items()},
                        "trials": int(n),
                        "win_action0": m0,
                        "win_action1": m1,
                        "action0": ACTIONS[name][0],
                        "action1": ACTIONS[name][1],
                        "estimate": float(diff),
                        "std_error": float(se),
                        "ci_low": float(lo),
                        "ci_high": float(hi),
                    }
                )
    df = pd.DataFrame(rows)
    if len(df):
        df["seat"] = df["seat"].astype("Int64")
    return df


def compare_spec(
    players: int, field: str | list[Strategy], challenger: str | list[Strategy], variants: dict | None = None
) -> KernelSpec:
    """Each seat in turn plays ``challenger`` against a field on ``field``, on the same deals."""
    g = rules()
    P = g.check_players(players)
    full = g.resolve_variants(variants)
    a = field if isinstance(field, list) else seat_strategies([field], P)
    b = challenger if isinstance(challenger, list) else seat_strategies([challenger], P)
    args = (np.int64(P), high_deck(P), low_deck(P), variant_array(full), *stack(a), *stack(b), K.RANK_PACK)
    return KernelSpec(
        game=GAME,
        kernel="kernels.bisko_bobo:compare_chunks",
        args=args,
        n_counts=P * K.DEC_STATS,
        tabulate=tabulate_compare,
        describe={
            "players": P,
            "variants": full,
            "field": a[0].name,
            "challenger": b[0].name,
            "analysis": "paired comparison",
        },
        precision_measures=("challenger_minus_field",),
        pooled_by_chunks=True,  # the pooled row: each seat switching in turn on the same deal
        counted_measures=(),  # a table of zero counts has every row
    )


def tabulate_compare(counts: np.ndarray, trials: int, spec: KernelSpec) -> pd.DataFrame:
    from ..stats import paired_difference

    P = int(spec.describe["players"])
    c = np.asarray(counts).reshape(P, K.DEC_STATS)
    rows = []
    for s in list(range(P)) + [None]:
        n, w0, w1, sd, sd2 = (float(x) for x in (c.sum(axis=0) if s is None else c[s]))
        if n == 0:
            continue
        diff, se, lo, hi = paired_difference(sd / 60.0, sd2 / 3600.0, n)
        rows.append(
            {
                "measure": "challenger_minus_field",
                "seat": s,
                "field": spec.describe["field"],
                "challenger": spec.describe["challenger"],
                "trials": int(n),
                "field_value": w0 / 60.0 / n,
                "challenger_value": w1 / 60.0 / n,
                "estimate": float(diff),
                "std_error": float(se),
                "ci_low": float(lo),
                "ci_high": float(hi),
            }
        )
    df = pd.DataFrame(rows)
    df["seat"] = df["seat"].astype("Int64")
    return df


def improve(
    players: int,
    *,
    trials: int = 400_000,
    rounds: int = 4,
    seed: int = 0,
    start: str = "heuristic",
    z: float = 3.0,
    min_n: int = 200,
    progress: bool = False,
    variants: dict | None = None,
):
    """Iterated best responses on common random numbers (the recommended strategy).

    Each round measures, for every seat, decision and situation bucket, the paired win-share difference
    between the two actions with every seat on the current strategy, and switches a bucket to the better
    action where the difference is at least ``z`` standard errors from zero (and seen ``min_n`` times).
    Stops when a round changes nothing. Returns (strategies per seat, history DataFrame, last decision table).
    """
    from ..driver import run

    P = rules().check_players(players)
    strats = [builtin_strategy(start, P, s) for s in range(P)]
    history = []
    table = None
    for r in range(rounds):
        spec = decision_spec(P, variants, strats)
        res = run(spec, trials=trials, seed=seed + r, progress=progress, chunk_size=4096)
        table = res.table
        changes = 0
        new = [
            Strategy("recommended", s.p_jingo.copy(), s.p_swap.copy(), s.swap_target, s.p_tuck.copy()) for s in strats
        ]
        for row in table.itertuples(index=False):
            if row.trials < min_n or not row.std_error > 0:
                continue
            zscore = row.estimate / row.std_error
            if abs(zscore) < z:
                continue
            better = 1.0 if zscore > 0 else 0.0
            st = new[int(row.seat)]
            b = int(row.bucket)
            if row.decision == "flingo":
                idx = np.unravel_index(b, K.JINGO_SHAPE)
                cur = st.p_jingo[idx]
                if cur != better:
                    st.p_jingo[idx] = better
                    changes += 1
            elif row.decision == "swap":
                pair = (b // 2, b % 2)
                if st.p_swap[pair] != better:
                    st.p_swap[pair] = better
                    changes += 1
            else:
                if st.p_tuck[b] != better:
                    st.p_tuck[b] = better
                    changes += 1
        sig = table[(table.trials >= min_n) & (np.abs(table.estimate) >= z * table.std_error)]
        history.append(
            {
                "players": P,
                "round": r + 1,
                "trials": trials,
                "buckets": len(table),
                "significant": len(sig),
                "changes": changes,
            }
        )
        strats = new
        if changes == 0:
            break
    return strats, pd.DataFrame(history), table


def improve_tables(
    players: list[int] | None = None,
    *,
    trials: int = 400_000,
    rounds: int = 4,
    seed: int = 0,
    write: str | None = None,
    progress: bool = True,
):
    """``cardlab improve bisko-bobo``: :func:`improve` for each player count (default 2-6). The Result's rows are
    the tables found, as departures from the heuristic (:func:`departures`); its meta holds each round's history
    and the tables themselves. ``write``: a path to store the tables at, in the format the ``recommended``
    strategy reads (seeds/bisko-bobo-recommended.json); nothing is written without it."""
    from ..outputs import check_file, write_text
    from ..tables import Result

    players = list(players or range(2, 7))
    for P in players:
        rules().check_players(P)
    if write is not None:
        check_file(write, "--write")
        _stored_tables(write)
    hist = []
    found: dict = {"players": {}}
    for P in players:
        strats, h, _ = improve(P, trials=trials, rounds=rounds, seed=seed, progress=progress)
        hist.append(h)
        found["players"][str(P)] = {
            "seats": [strategy_to_dict(s) for s in strats],
            "trials_per_round": trials,
            "rounds": int(h["round"].max()),
            "converged": bool(h["changes"].iloc[-1] == 0),
            "seed": seed,
        }
    history = pd.concat(hist, ignore_index=True)
    if write is not None:
        kept = _stored_tables(write)  # the other player counts of the file written to are kept
        stored = {
            "about": (
                "Bisko-Bobo strategy tables (one per seat, seat 0 = dealer's left), computed by 'cardlab improve "
                "bisko-bobo': iterated best responses on common random numbers; a bucket switches action when the "
                "paired difference is at least 3 standard errors from zero."
            ),
            "players": {**kept.get("players", {}), **found["players"]},
        }
        write_text(write, json.dumps(stored, indent=1, sort_keys=True) + "\n")
        if Path(write).resolve() == recommended_path().resolve():
            recommended_tables.cache_clear()
    found_rows = departures(found)
    meta = {
        "game": GAME,
        "command": "improve",
        "players": players,
        "written": str(write) if write is not None else None,
        "answer": _improve_answer(found, found_rows),
        "history": history.to_dict(orient="records"),
        "tables": found,
    }
    return Result(found_rows, meta)


def _stored_tables(path) -> dict:
    """The tables already in ``path`` (so that --write keeps the player counts not recomputed), or none; a file
    that is there but holds something else is refused, not overwritten."""
    p = Path(path)
    if not p.is_file():
        return {}
    try:
        doc = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        doc = None
    if not isinstance(doc, dict) or not isinstance(doc.get("players"), dict):
        raise CardlabError(f"--write {str(path)!r} holds something else than strategy tables; give another file")
    return doc


def _improve_answer(found: dict, rows: pd.DataFrame) -> str:
    parts = []
    none = False
    for P_text, entry in found["players"].items():
        n = int((rows["players"] == int(P_text)).sum()) if len(rows) else 0
        none |= n == 0
        state = "converged" if entry["converged"] else f"not converged after {entry['rounds']} rounds"
        parts.append(f"{P_text} players: {n} departures from the heuristic ({state})")
    text = "; ".join(parts)
    if none:  # a bucket departs only where its paired difference is 3 standard errors from zero: small runs find few
        text += (
            " (none means none this many --trials separate from the heuristic by 3 standard errors, not that the "
            "heuristic is best; the recommended tables took 2,000,000 trials a round)"
        )
    return text


# ---------------------------------------------------------------------------------------------
# The odds calculator
# ---------------------------------------------------------------------------------------------


def _seat_cards(items: list[str] | None, P: int, what: str) -> dict[int, list[int]]:
    out: dict[int, list[int]] = {}
    for item in items or []:
        seat, eq, cards = item.partition("=")
        try:
            s = int(seat)
        except ValueError:
            raise CardlabError(f'bad --{what} {item!r}: expected SEAT=CARDS, e.g. 1="AH KD"') from None
        if not eq or not 0 <= s < P:
            raise CardlabError(f"bad --{what} {item!r}: expected SEAT=CARDS with a seat in 0..{P - 1}")
        if s in out:
            raise CardlabError(f"seat {s} given twice in --{what}")
        out[s] = DECK.indices(cards)
    return out


def check_flingo(seat: int, cards: list[int], upright: int, chain: bool) -> None:
    """A Flingo's cards (BB-5): the flung card, then a reward card when it is of the upright card's suit; under
    flingo_reward_chain=true each reward of that suit earns one more (1(c)6). Refused in one line otherwise."""
    if not cards:
        raise CardlabError(
            f"seat {seat}'s Flingo names no card: give the flung card, then its reward card if it earned one "
            f'(--flingo {seat}="CARD" or "CARD REWARD", BB-5)'
        )
    n = 1
    while n <= len(cards) and cards[n - 1] // 13 == upright // 13 and (chain or n == 1):
        n += 1
    if len(cards) != n:
        words = " ".join(str(DECK.card(c)) for c in cards)
        rule = (
            "earns a reward card, and each reward of that suit one more (BB-5, flingo_reward_chain=true)"
            if chain
            else "earns one reward card (BB-5), otherwise none"
        )
        # the fix, spelt out: the cards the rule asks for, or the hint to add a reward card
        hint = (
            f"; give {' '.join(str(DECK.card(c)) for c in cards[:n])}"
            if len(cards) > n
            else f'; add the reward card after the flung one: --flingo {seat}="{words} CARD"'
        )
        raise CardlabError(
            f"seat {seat}'s Flingo {words}: a flung card of the upright card's suit ({DECK.card(upright)}) {rule}"
            + hint
        )


def odds_spec(
    players: int,
    seat: int,
    *,
    decision: str = "flingo",
    upright: str | None = None,
    tucked: str | None = None,
    jingo_card: str | None = None,
    opening: list[str] | None = None,
    flingo: list[str] | None = None,
    jingo: list[int] | None = None,
    jingos_so_far: int | None = None,
    seen: str | None = None,
    variants: dict | None = None,
    strategies: list[str] | None = None,
) -> KernelSpec:
    """Build the odds calculator's kernel spec from what the deciding player can see (BB-14)."""
    g = rules()
    P = g.check_players(players)
    if not 0 <= seat < P:
        raise CardlabError(f"bad --seat {seat}: seats are 0 (dealer's left) .. {P - 1} (dealer)")
    if decision not in DECISIONS:
        raise CardlabError(f"unknown decision {decision!r}; accepted: {accepted(DECISIONS)}")
    full = g.resolve_variants(variants)
    strats = seat_strategies(strategies, P)
    hid, lod = high_deck(P), low_deck(P)
    in_high = set(hid.tolist())
    template = np.full(len(hid), -1, dtype=np.int64)
    used: dict[int, str] = {}

    def place(pos: int, card: int, why: str):
        if card not in in_high:
            raise CardlabError(
                f"card {DECK.card(card)} ({why}) is not in the HIGH deck for {P} players "
                f"(ranks {', '.join(g.data['deck']['high_ranks'][str(P)])})"
            )
        if card in used:
            raise CardlabError(f"duplicate card {DECK.card(card)}: {used[card]} and {why}")
        used[card] = why
        template[pos] = card

    openings = _seat_cards(opening, P, "opening")
    if upright is not None and seat in openings:
        raise CardlabError(f"give seat {seat}'s own cards once: --upright/--tucked or --opening {seat}=..., not both")
    if upright is None:
        if seat not in openings:
            raise CardlabError("give the deciding player's cards: --upright CARD --tucked CARD")
    else:
        mine = DECK.indices(upright) + (DECK.indices(tucked) if tucked else [])
        if len(mine) != 2:
            raise CardlabError('give one --upright card and one --tucked card (or --opening SEAT="C1 C2")')
        openings[seat] = mine
    for s, cards in openings.items():
        if len(cards) != 2:
            raise CardlabError(f"--opening {s}= needs exactly two cards, the first upright")
        own = upright is not None and s == seat  # named by --upright/--tucked: the message names those flags
        place(s, cards[0], "--upright" if own else f"seat {s}'s first opening card (--opening {s}=)")
        place(P + s, cards[1], "--tucked" if own else f"seat {s}'s second opening card (--opening {s}=)")
    me = openings[seat]
    if decision == "flingo" and me[0] // 13 == me[1] // 13:
        raise CardlabError("an opening Bisko must take a Jingo (BB-5): there is no Flingo/Jingo decision")
    flingos = _seat_cards(flingo, P, "flingo")
    if len(set(jingo or [])) != len(jingo or []):
        raise CardlabError("--jingo names a seat twice")
    jingo_seats = set(jingo or [])
    both = sorted(set(flingos) & jingo_seats)
    if both:
        raise CardlabError(f"seat {both[0]} is given both --flingo and --jingo: a seat takes one (BB-5)")
    if jingo_card and decision == "flingo":
        raise CardlabError("--jingo-card is for the swap and tuck decisions; the Flingo/Jingo choice comes before it")
    given = set(flingos) | jingo_seats
    if any(s >= seat for s in given):
        later = min(s for s in given if s >= seat)
        when = "is the deciding seat" if later == seat else f"chooses after the deciding seat {seat}"
        raise CardlabError(
            f"--flingo/--jingo {later}: seat {later} {when} (seats choose in order "
            f"from 0, BB-5); give the choices of the earlier seats only"
            + (f" (0..{seat - 1})" if seat > 0 else ", and seat 0 has none")
        )
    if given and given != set(range(seat)):
        raise CardlabError(f"give every earlier seat's choice (seats 0..{seat - 1}) with --flingo/--jingo, or none")
    if jingos_so_far is not None and not 0 <= jingos_so_far <= seat:
        raise CardlabError(f"bad --jingos-so-far {jingos_so_far}: seat {seat} has {seat} earlier seats, so 0 to {seat}")
    if given and jingos_so_far is not None and jingos_so_far != len(jingo_seats):
        raise CardlabError("--jingos-so-far disagrees with the --jingo seats given")
    J = len(jingo_seats) if given else jingos_so_far  # the Jingos before the deciding seat, where known
    if decision == "flingo" and seat == P - 1 and full["enforce_jingo_constraint"] == "true":
        # BB-5's Jingo-count rule at the last seat to choose (no later seat, R = F = 0): exactly one Jingo in all
        # is illegal, so with J Jingos before it the dealer takes a Flingo if J = 0 and a Jingo if J = 1
        if J is None and seat == 1:
            raise CardlabError(
                "with 2 players the dealer (seat 1) never chooses: never exactly one Jingo (BB-5), so it takes a "
                "Flingo after seat 0's Flingo and a Jingo after its Jingo"
            )
        if J is not None and J <= 1:
            must = "a Flingo" if J == 0 else "a Jingo"
            raise CardlabError(
                f"seat {seat} chooses last and {J} Jingo{'s' if J != 1 else ''} came before it: never exactly one "
                f"Jingo (BB-5), so it must take {must}; there is no decision"
            )
    after = range(seat + 1, P)
    if (
        decision == "flingo"
        and seat < P - 1
        and J is not None
        and all(s in openings for s in after)
        and full["enforce_jingo_constraint"] == "true"
    ):
        # BB-5's rule where every later seat's opening is given and none of them is free (R = 0): the later seats
        # holding an opening Bisko (F) must take Jingos, so exactly one Jingo in all is illegal for this seat's
        # choice when J + c + F = 1
        F = sum(openings[s][0] // 13 == openings[s][1] // 13 for s in after)
        if F == len(after) and J + F == 1:  # J = 0, one later seat: a Flingo would leave exactly its one Jingo
            raise CardlabError(
                f"seat {seat}: no Jingo came before it and the one later seat holds an opening Bisko (a forced "
                "Jingo): never exactly one Jingo (BB-5), so it must take a Jingo; there is no decision"
            )
    forced = np.full(3 * P, -1, dtype=np.int64)
    ptr = 2 * P + 1
    if given:
        for s in range(seat):
            if s in jingo_seats:
                forced[s] = 1
                ptr += 1
                continue
            if s in openings and openings[s][0] // 13 == openings[s][1] // 13:
                raise CardlabError(f"seat {s} holds an opening Bisko and must have taken a Jingo (BB-5)")
            cards = flingos[s]
            if s not in openings:
                raise CardlabError(f"give seat {s}'s opening cards (--opening {s}=...) with its Flingo")
            check_flingo(s, cards, openings[s][0], full["flingo_reward_chain"] == "true")
            forced[s] = 0
            for i, c in enumerate(cards):
                place(ptr + i, c, f"seat {s}'s Flingo")
            ptr += len(cards)
    if decision in ("swap", "tuck"):
        if not jingo_card:
            raise CardlabError(f"the {decision} decision needs --jingo-card")
        if not given and seat > 0:
            raise CardlabError(
                "for swap and tuck decisions give every earlier seat's choice "
                f"({'seat 0' if seat == 1 else f'seats 0..{seat - 1}'}) with --flingo/--jingo; seat {seat}'s own Jingo "
                "is implied by --jingo-card (BB-5)"
            )
        forced[seat] = 1
        if decision == "tuck":
            forced[P + seat] = 0  # the seat kept its card: it did not swap it away (BB-6)
        jc = DECK.indices(jingo_card)[0]
        if decision == "tuck" and full["jingo_tuck_rule"] == "bobo_only":
            if me[0] // 13 == me[1] // 13:
                raise CardlabError(
                    "an opening Bisko has no tucked card, so its Jingo card goes upright (BB-7): no tuck decision"
                )
            if jc // 13 != me[1] // 13:
                raise CardlabError(
                    f"{DECK.card(jc)} cannot be tucked on {DECK.card(me[1])}: a Jingo card is tucked only to make a "
                    "Bobo, matching the tucked card's suit (BB-7, jingo_tuck_rule=bobo_only); it goes upright, so "
                    "there is no tuck decision"
                )
        place(ptr, jc, "the Jingo card")
    seen_cards = np.array(DECK.indices(seen) if seen else [], dtype=np.int64)
    for c in seen_cards:
        if int(c) in used:
            raise CardlabError(f"seen card {DECK.card(int(c))} is already placed ({used[int(c)]})")
        if int(c) not in in_high:
            raise CardlabError(f"seen card {DECK.card(int(c))} is not in the HIGH deck for {P} players")
    pool = np.array([c for c in hid if c not in used], dtype=np.int64)
    lo_template = np.full(len(lod), -1, dtype=np.int64)
    dec = DECISIONS.index(decision)
    args = (
        np.int64(P),
        hid,
        lod,
        variant_array(full),
        *stack(strats),
        K.RANK_PACK,
        template,
        pool,
        lo_template,
        lod.copy(),
        forced,
        np.int64(seat),
        np.int64(dec),
        np.int64(-1 if jingos_so_far is None or given else jingos_so_far),
        seen_cards,
    )
    known = {
        "seat": seat,
        "decision": decision,
        "cards": {f"seat {s}": " ".join(str(DECK.card(c)) for c in cs) for s, cs in openings.items()},
    }
    return KernelSpec(
        game=GAME,
        kernel="kernels.bisko_bobo:odds_chunks",
        args=args,
        n_counts=K.ODDS_FIELDS,
        tabulate=tabulate_odds,
        describe={"players": P, "variants": full, "strategies": [s.name for s in strats], "analysis": "odds", **known},
        precision_measures=("win",),
    )


def tabulate_odds(counts: np.ndarray, trials: int, spec: KernelSpec) -> pd.DataFrame:
    from ..stats import mean_interval, paired_difference

    c = np.asarray(counts, dtype=float)
    attempts, accepted_n, n, w0, w1, sd, sd2 = c
    name = spec.describe["decision"]
    a0, a1 = ACTIONS[name]
    rows = []
    # second moments of each action's win share are not kept; its interval uses p(1-p) (shares are 0/1
    # except on rare split wins, where this is conservative)
    for action, total in ((a0, w0), (a1, w1)):
        p = total / 60.0 / n if n else float("nan")
        m, se, lo, hi = mean_interval(total / 60.0, total / 60.0, n)
        rows.append(
            {
                "measure": "win",
                "seat": spec.describe["seat"],
                "action": action,
                "trials": int(n),
                "estimate": p,
                "std_error": float(se),
                "ci_low": float(lo),
                "ci_high": float(hi),
            }
        )
    diff, se, lo, hi = paired_difference(sd / 60.0, sd2 / 3600.0, n)
    rows.append(
        {
            "measure": "difference",
            "seat": spec.describe["seat"],
            "action": f"{a1} - {a0}",
            "trials": int(n),
            "estimate": float(diff),
            "std_error": float(se),
            "ci_low": float(lo),
            "ci_high": float(hi),
        }
    )
    rows.append(
        {
            "measure": "acceptance",
            "seat": None,
            "action": None,
            "trials": int(attempts),
            "estimate": accepted_n / attempts if attempts else float("nan"),
            "std_error": float("nan"),
            "ci_low": float("nan"),
            "ci_high": float("nan"),
        }
    )
    df = pd.DataFrame(rows)
    df["seat"] = df["seat"].astype("Int64")
    # the verdict beside each action (odds --help): the paired difference decides; the same win on every deal
    # (no spread) is "equal"
    best, other = (a1, a0) if (diff > 0 or (diff == 0 and w1 >= w0)) else (a0, a1)
    if n and sd2 == 0:
        says = "equal"
    elif n and (lo > 0 or hi < 0):
        says = "worse"
    else:
        says = "uncertain"
    df["verdict"] = df["action"].map({best: "best", other: says})
    if best == a1:  # best first, as every advisor's table (the rows come in the decision's own order: Flingo, Jingo)
        df = df.iloc[[1, 0, 2, 3]].reset_index(drop=True)
    return df


#: the position document's fields (positions.md; seeds/bisko-bobo.md): seat-keyed objects become SEAT=VALUE flags
POSITION_FIELDS = ("seat", "decision", "upright", "tucked", "jingo_card", "opening", "flingo", "jingo",
                   "jingos_so_far", "seen", "low", "swapped", "declined", "received")  # fmt: skip
_SEAT_MAPS = ("opening", "flingo", "low", "swapped")


def position_fields(given: dict, variants: dict | None, strategies) -> tuple[dict, dict | None, list | None]:
    """The advisor's keywords from a ``--position`` document (``given["position"]``: a JSON file) and the flags
    given, which override it; the document's ``players``, ``variants`` and ``models`` unless flags name them."""
    from ..advisor import override, position_label, read_position

    path = given.pop("position", None)
    if not path:
        if given.get("seat") is None:
            raise CardlabError("give --seat SEAT (the deciding seat, 0 = dealer's left), or a --position document")
        return given, variants, strategies
    doc = read_position(path, GAME, POSITION_FIELDS)
    out: dict = {}
    for k in POSITION_FIELDS:  # types are checked by read_position; seat-keyed objects become SEAT=VALUE flags
        if k in doc:
            out[k] = [f"{s}={v}" for s, v in doc[k].items()] if k in _SEAT_MAPS else doc[k]
    override(out, given)
    if out.get("seat") is None:
        raise CardlabError(f'{position_label(path)}: give the deciding seat ("seat": 0 is the dealer\'s left)')
    if "players" not in out and "players" in doc:
        out["players"] = doc["players"]
    return out, variants if variants else doc.get("variants"), strategy_items(strategies) or doc.get("models")


def odds(
    run_options: dict,
    players: int | None = None,
    seat: int = 0,
    variants: dict | None = None,
    strategies: list[str] | None = None,
    **position,
):
    """``cardlab odds bisko-bobo``: :func:`odds_spec` run by the driver (``run_options``: its keywords)."""
    from ..driver import run

    swap_state = {k: position.pop(k) for k in ("low", "swapped", "declined", "received") if position.get(k)}
    if swap_state:
        decision = position.get("decision")
        if decision not in ("swap", "tuck"):
            raise CardlabError(
                "--low, --swapped, --declined and --received describe the Bingo-Bango swap: give --decision swap (with "
                "whom), or --decision tuck (the placement after the swaps)"
            )
        from .bisko_bobo_swap import answer, swap_targets_spec

        position.pop("decision")
        swap_state["decision"] = decision
        if not swap_state.get("low"):
            raise CardlabError("give --low SEAT=CARD for every Jingo player (their LOW cards set the swap order, BB-6)")
        spec = swap_targets_spec(
            rules().check_players(players), seat, variants=variants, strategies=strategies, **swap_state, **position
        )
        res = run(spec, **run_options)
        acc = res.table[res.table.measure == "acceptance"].iloc[0]
        if not acc.estimate > 0:
            raise CardlabError(
                "no sampled deal matched the position: the Jingo players must be exactly the seats given --low (a seat "
                "dealt an opening Bisko, as in --opening, must take a Jingo, BB-5; BB-5's count rule may force others)"
            )
        res.meta["answer"] = answer(res.table)
        if acc.estimate < 1:  # the header's count is of the deals drawn; say how many the rows count
            res.meta["matched"] = int(round(acc.estimate * acc.trials))
        res.meta["assumed"] = spec.describe["assumed"]  # the seats taken to have chosen the Flingo
        return res
    spec = odds_spec(rules().check_players(players), seat, variants=variants, strategies=strategies, **position)
    res = run(spec, **run_options)
    acc = res.table[res.table.measure == "acceptance"].iloc[0]
    matched = 0 if np.isnan(acc.estimate) else round(acc.estimate * acc.trials)
    if 0 < matched < MIN_MATCHED and acc.estimate < 0.01:
        raise CardlabError(
            f"only {matched} of {int(acc.trials):,} sampled deals matched the position: too rare to answer (is it "
            "possible? the earlier seats' cards and choices, --flingo/--jingo, pin it down better than --seen)"
        )
    if acc.estimate == 0 or np.isnan(acc.estimate):
        raise CardlabError(
            "no sampled deal matched what was given (is the situation possible? a seat with no free seat after it "
            "may be left no choice by the Jingo-count rule, BB-5); give the earlier seats' choices with "
            "--flingo/--jingo instead of --seen"
        )
    res.meta["answer"] = odds_answer(res.table, spec.describe.get("decision", "flingo"))
    if spec.describe.get("decision") == "swap":  # whether, not with whom (a new user looked for the partner)
        res.meta["answer"] += (
            ". With whom: the models' own choice of partner here; --low SEAT=CARD for every Jingo player ranks "
            "each partner"
        )
    # the table as the answer reads it: each action's win and the paired difference its verdict goes by (the two
    # win intervals may overlap where the difference is clear)
    res.headline = ("win", "difference")
    res.meta.update(ranked_measure="win", verdict_by="difference", paired_on="deals")
    if acc.estimate < 1:  # the header's count is of the deals drawn; say how many the rows count
        res.meta["matched"] = int(matched)
    return res


#: fewer matching deals than this, at under 1% of those sampled, are too few to answer from (and a precision run
#: could stop on them with intervals of zero width)
MIN_MATCHED = 100

#: How the one-line answer names taking each action (by decision, the two actions of ACTIONS).
_TAKE = {
    "flingo": ("Take the Flingo", "Take the Jingo"),
    "swap": ("Do not swap", "Swap"),
    "tuck": ("Place it upright", "Tuck it"),
}


def odds_answer(table: pd.DataFrame, decision: str) -> str:
    """The advisor's one line (positions.md): the action to take, both win chances, the paired difference in
    percentage points with its 95% interval; "no clear difference" when the interval holds zero. Where only some
    sampled deals matched the position, says what share did (the rows' counts are those deals)."""
    win = table[table.measure == "win"].set_index("action")["estimate"]
    d = table[table.measure == "difference"].iloc[0]
    a0, a1 = ACTIONS[decision]
    if np.isnan(d.std_error) or np.isnan(win[a0]) or np.isnan(win[a1]):
        return f"Too few matching deals ({int(d.trials)}) to compare {a1} with {a0}: give more --trials"
    pts = f"{100 * d.estimate:+.2f} percentage points for {a1} (95% interval {100 * d.ci_low:+.2f} to {100 * d.ci_high:+.2f})"
    chances = f"win {100 * win[a1]:.1f}% with {a1}, {100 * win[a0]:.1f}% with {a0}"
    if d.ci_low > 0 or d.ci_high < 0:
        better = 1 if d.ci_low > 0 else 0
        if not better:  # said for the action recommended: its chance first, its difference positive
            chances = f"win {100 * win[a0]:.1f}% with {a0}, {100 * win[a1]:.1f}% with {a1}"
            pts = (
                f"{-100 * d.estimate:+.2f} percentage points for {a0} (95% interval {-100 * d.ci_high:+.2f} to "
                f"{-100 * d.ci_low:+.2f})"
            )
        text = f"{_TAKE[decision][better]}: {chances}, {pts}"
    else:
        text = f"No clear difference: {chances}, {pts}; more deals (--trials, --precision) could separate them"
    acc = table[table.measure == "acceptance"].iloc[0]
    if acc.estimate < 1:
        text += (
            f". {100 * acc.estimate:.1f}% of the {int(acc.trials):,} sampled deals matched the position"
            " (the others were set aside); the rows count those"
        )
    return text


# ---------------------------------------------------------------------------------------------
# The strategy report (reports/bisko-bobo/)
# ---------------------------------------------------------------------------------------------


def pooled_pairs(df: pd.DataFrame, by: list[str]) -> pd.DataFrame:
    """Pool decision-value rows over everything but ``by`` (sums of paired statistics)."""
    from ..stats import paired_difference

    d = df.assign(
        _sd=df.estimate * df.trials,
        _w0=df.win_action0 * df.trials,
        _w1=df.win_action1 * df.trials,
        _sd2=(df.std_error**2 * df.trials * (df.trials - 1) + df.trials * df.estimate**2),
    )
    g = d.groupby(by, observed=True)[["trials", "_sd", "_sd2", "_w0", "_w1"]].sum().reset_index()
    m, se, lo, hi = paired_difference(g["_sd"], g["_sd2"], g["trials"])
    return g.assign(
        win_action0=g["_w0"] / g["trials"],
        win_action1=g["_w1"] / g["trials"],
        estimate=m,
        std_error=se,
        ci_low=lo,
        ci_high=hi,
    ).drop(columns=["_sd", "_sd2", "_w0", "_w1"])


def recommended_differences() -> pd.DataFrame:
    """Where the stored recommended tables depart from the heuristic, per player count and seat."""
    return departures(recommended_tables())


def departures(tables: dict) -> pd.DataFrame:
    """Where strategy tables (``{"players": {"4": {"seats": [...]}}}``, as stored) depart from the heuristic:
    one row per player count, seat, decision and situation, with the action the tables take there."""
    rows = []
    for P_text, entry in sorted(tables.get("players", {}).items()):
        P = int(P_text)
        base = builtin_strategy("heuristic", P)
        for s, d in enumerate(entry["seats"]):
            rec = strategy_from_dict("recommended", d)
            for idx in zip(*np.nonzero(rec.p_jingo != base.p_jingo)):
                b = int(np.ravel_multi_index(idx, K.JINGO_SHAPE))
                rows.append(
                    {
                        "players": P,
                        "seat": s,
                        "decision": "flingo",
                        "situation": ", ".join(f"{k}={v}" for k, v in bucket_labels("flingo", b).items()),
                        "recommended": "Jingo" if rec.p_jingo[idx] else "Flingo",
                    }
                )
            for idx in zip(*np.nonzero(rec.p_swap != base.p_swap)):
                b = int(idx[0] * 2 + idx[1])
                rows.append(
                    {
                        "players": P,
                        "seat": s,
                        "decision": "swap",
                        "situation": ", ".join(f"{k}={v}" for k, v in bucket_labels("swap", b).items()),
                        "recommended": "swap" if rec.p_swap[idx] else "no swap",
                    }
                )
            for b in map(int, np.nonzero(rec.p_tuck != base.p_tuck)[0]):
                rows.append(
                    {
                        "players": P,
                        "seat": s,
                        "decision": "tuck",
                        "situation": REL_NAMES[int(b)],
                        "recommended": "tucked" if rec.p_tuck[b] else "upright",
                    }
                )
    return pd.DataFrame(rows, columns=["players", "seat", "decision", "situation", "recommended"])


# ---------------------------------------------------------------------------------------------
# The game interface (analysis.games.base)
# ---------------------------------------------------------------------------------------------


class BiskoBobo(Game):
    trial_noun = "deals"
    id = GAME
    compare_epilog = (
        "One trial is one deal (BB-1 to BB-12), dealt once and played again with the same draws for each seat in "
        "turn: every seat on the field, then that seat alone on the challenger. Rows: by the switching seat (seat 0 "
        "is the dealer's left, the last seat the dealer) and pooled over the seats (trials count seat-deals there: "
        "the players times the deals). Measure challenger_minus_field: the switching seat's share of the deal's win "
        "(a tie splits it) with the challenger minus with the field, on the same deal; field_value and "
        "challenger_value its mean share each way (a fair seat's is 1/players). The verdict gives the pooled "
        "difference in percentage points of win probability."
    )
    card_notes = (
        "Cards: ranks A (high) to 2, suits C < H < D < S (clubs, hearts, diamonds, spades: not the bridge order; "
        "BB-2); the hands come from the HIGH deck, the top ranks by player count (2-3 players A to T, 4 A to 9, 5 A "
        "to 8, 6 A to 7), the Bingo-Bango cards from the LOW deck of the other ranks (BB-1)."
    )
    odds_epilog = (
        "Measures, per action, every action on the same sampled deals (those that fit what the seat has seen): win, "
        "the seat's share of the deal's win (BB-11; an exact tie splits it, exact_tie) with the rest of the deal played by the models "
        "(--strategy); for the Flingo and the tuck, difference: the second action's win minus the first's, paired, "
        "with its 95% interval, and for the swap without --low likewise (swap minus no swap, the partner the models' "
        "own choice); for the swap with --low, each partner's win, sole_win (the chance to win outright), and "
        "diff_win and diff_sole_win (the partner minus the best, paired); acceptance: the share of the deals drawn "
        "that fit the position (the others are set aside: --trials counts every deal drawn, the rows only those that fit; "
        "a small share is a rare position, for which --precision draws longer)."
    )
    simulate_epilog = (
        "Measures, per seat (seat 0 is the dealer's left, the last seat the dealer) and pooled over the seats: "
        "win, the seat's share of the deal's win (a tie splits it); sole_win; opening_bisko (BB-4); free_choice, a Tuck player choosing "
        "between Flingo and Jingo with both allowed (BB-5: an opening Bisko must take a Jingo, and the Jingo "
        "constraint may force a choice), flingo_when_free the share of those choices that took the Flingo; flingo, jingo, reward_given_flingo, "
        "swap_started, swapped_given_jingo, jingo_tucked_given_jingo (BB-5 to BB-8); final_type and win_given_type "
        "by the final Bisk type. Deal-wide: win_opening_bisko_jack/_no_jack and win_tuck_jack/_no_jack (the win "
        "share of opening-Bisko and Tuck players with and without a Jack in the Wet Bisk, BB-10), win_when_free_"
        "flingo and win_when_free_jingo (the win share of the free choices that took each), wet_bisk_jack, "
        "shared_win, no_winner, bingo_bango_phase, swaps_per_deal, redeals_per_deal. Every figure is of these "
        "players' play: win_when_free_flingo and _jingo compare the deals where the strategies chose each (the "
        "choice follows the cards), not the choices themselves; for that, switch one seat on the same deals "
        "(cardlab compare bisko-bobo --field heuristic --challenger always-jingo, then always-flingo): what a choice "
        "is worth depends on what the other seats take, and against another field (always-flingo) it may change "
        "sign. The pooled win is "
        "1/players by construction (the shares of a deal add to 1, less the deals without a winner); a seat's "
        "advantage is its row against that."
    )
    record_unit = "deal"
    review_precision = 0.01
    review_precision_unit = "of the win share"
    review_notes = (
        "Here the win is the seat's win share of the deal, as in every Bisko-Bobo table (a split win counts its "
        "share, BB-12.6; the score is the same), sole_win_taken the chance to win it outright; each swap partner is "
        "its own action. seeds/bisko-bobo.md "
        "describes the record (the cards in deal order, the events)."
    )
    exact_tables = EXACT_TABLES
    examples = {
        "evaluate": {"sets": ["KC JC TC", "AS KS AH KH"]},
        "exact": {"table": "bisk-types", "players": 4, "cards": 2},
        "odds": {
            "run": {"trials": 400, "chunk_size": 200},
            "seat": 1,
            "decision": "flingo",
            "upright": "9H",
            "tucked": "KS",
        },
        "compare": {"field": "heuristic", "challenger": "always-jingo"},
        "improve": {"players": [3], "trials": 2000, "rounds": 1},
        "report": {"scale": 0.002},
        "record": {"seed": 1},
        "review": {"record": str(seeds_dir() / "records" / "bisko-bobo-example.json"), "seat": 1},
    }
    exact_options = (
        Option("--players", "number of players (the game's default if omitted)", type=positive_int),
        Option("--cards", "set size", type=positive_int),
    )
    odds_options = (
        Option("--position", "a position document, a file or the JSON itself: a JSON object of the fields below, named as the flags with _ for "
               '-, seat-keyed ones as objects, e.g. {"seat": 1, "upright": "9H", "tucked": "KS", "opening": {"0": '
               '"AH KD"}, "flingo": {"0": "QD"}} (seeds/bisko-bobo.md lists them); flags given override it (a SEAT=VALUE option seat by seat)'),
        Option("--seat", "the deciding seat (0 = dealer's left; required, here or in --position)", type=int),
        Option("--decision", "the decision: flingo (Risky-Bisk, BB-5: take a Flingo or a Jingo; the default), swap "
               "(Bingo-Bango, BB-6: whether and with whom to swap Jingo cards), tuck (BB-7: the Jingo card upright or "
               "tucked)",
               choices=DECISIONS),
        Option("--upright", "the player's opening upright card", metavar="CARD"),
        Option("--tucked", "the player's tucked card", metavar="CARD"),
        Option("--jingo-card", "the player's Jingo card as dealt, a card of the HIGH deck (BB-5; swap and tuck decisions; for tuck, the card dealt "
               "and still held at placement: sampled deals where a swap changes it are set aside, and the answer "
               "line says what share was kept; after the swaps give --low, each swap turn and --received)",
               metavar="CARD"),
        Option(
            "--opening",
            "another seat's two opening cards, the upright first (both dealt face up, BB-4: the tucked card is seen "
            "too), e.g. 0=\"AH KD\"",
            action="append",
            metavar="SEAT=CARDS",
        ),
        Option(
            "--flingo",
            "an earlier seat that took a Flingo, with the card(s) it got (at the swap with --low, the later seats "
            "too: they have all chosen)",
            action="append",
            metavar="SEAT=CARDS",
        ),
        Option("--jingo", "an earlier seat that took a Jingo", action="append", type=int, metavar="SEAT"),
        Option("--jingos-so-far", "Jingos taken by earlier seats when their choices are not given", type=int),
        Option("--seen", "other cards seen on the table (Flingo cards of unnamed seats)"),
        Option("--low", "swap with whom: a Jingo player's LOW card, face up (one per Jingo player, the deciding "
               "seat's too; they set the swap order, BB-6); each eligible partner is then its own row",
               action="append", metavar="SEAT=CARD"),
        Option("--swapped", "swap with whom: an earlier swap in the order (who swapped, with whom)", action="append",
               metavar="SEAT=SEAT"),
        Option("--declined", "swap with whom: an earlier player in the order who did not swap", action="append",
               type=int, metavar="SEAT"),
        Option("--received", "the placement after the swaps (--decision tuck with --low and every swap turn as "
               "--swapped/--declined): the Jingo card the seat got in its swap", metavar="CARD"),
    )  # fmt: skip

    def strategies(self):
        return STRATEGIES

    def default_strategy(self):
        return DEFAULT_STRATEGY

    def inert_variants(self, given, players, options):
        out = {}
        if (
            str(given.get("allow_same_suit_split", "false")) == "true"
            and str(given.get("flingo_reward_chain")).lower() != "true"
        ):
            # without the reward chain no set in play passes 6 cards (with it, no claim is made)
            out["allow_same_suit_split"] = (
                "every set in play holds at most 6 cards, and such a set has the same best type either way "
                "(rules.md 1(c)5)"
            )
        if str(given.get("jingo_placement_order", "simultaneous")) != "simultaneous":
            out["jingo_placement_order"] = "the built-in strategies never look at the others' placements"
        return out

    def simulation_spec(self, players=None, variants=None, strategies=None, **options):
        return simulation_spec(players, variants, strategy_items(strategies), **options)

    def evaluate(self, sets, variants=None):
        return evaluate(list(sets), variants, game_sets=True)

    def exact(self, table, variants=None, **options):
        return exact(table, variants=variants, **options)

    def odds(self, run, variants=None, strategies=None, **position):
        position, variants, strategies = position_fields(position, variants, strategies)
        return odds(run.kwargs(), variants=variants, strategies=strategy_items(strategies), **position)

    def compare_spec(self, field, challenger, players=None, variants=None, **options):
        return compare_spec(rules().check_players(players), field, challenger, variants, **options)

    def improve(self, players=None, trials=400_000, rounds=4, seed=0, write=None, progress=True, explain=False):
        if explain:
            from .bisko_bobo_sheet import explain as explain_sheet

            return explain_sheet(
                list(players) if players else None, trials=trials, compare_trials=5 * trials, seed=seed, write=write,
                progress=progress,
            )  # fmt: skip
        return improve_tables(
            list(players) if players else None, trials=trials, rounds=rounds, seed=seed, write=write, progress=progress
        )

    def record(self, seed=0, players=None, variants=None, strategies=None, **options):
        from .bisko_bobo_review import record

        return record(seed, players, variants, strategy_items(strategies))

    def review(self, record, seat=None, run=None, strategies=None):
        from .bisko_bobo_review import review

        doc, kwargs = self.review_inputs(record, run, strategies)
        return review(doc, seat=seat, **kwargs)

    def review_sections(self, result, record_name):
        from .bisko_bobo_review import sections

        return sections(result, record_name)

    def report_sections(self, scale=1.0, seed=2026, progress=True):
        from ..sections import bisko_bobo

        return bisko_bobo.report(scale=scale, seed=seed, progress=progress)
