"""Bisko-Bobo (rules.md section 1): rules to arrays, strategies as data, tables.

Seats are numbered in playing order: seat 0 sits at the dealer's left and chooses first in Risky-Bisk
(BB-5); seat P-1 is the dealer, who chooses last.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
import pandas as pd

from kernels import bisko_bobo as K

from ..cards import RANKS, Deck
from ..driver import KernelSpec
from ..errors import CardlabError, accepted
from ..rules import GameRules, load_game, seeds_dir
from ..tables import frame, mean_row, proportion_row

GAME = "bisko-bobo"
TYPE_NAMES = ["No Bisk", "Bisko", "Two Bisk", "Tri Bisk", "Full Bisk", "Quad Bisk", "Three Bisk",
              "Double Tri Bisk", "Big Full Bisk", "Quinn Bisk", "Hex Bisk"]
DECK = Deck(ranks=RANKS, suits=("C", "H", "D", "S"))
STRATEGIES = ("heuristic", "always-flingo", "always-jingo", "random", "recommended")
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
    p_jingo: np.ndarray      # JINGO_SHAPE
    p_swap: np.ndarray       # (N_FIT, 2)
    swap_target: int
    p_tuck: np.ndarray       # (N_REL,)


def _base_swap_tuck() -> tuple[np.ndarray, int, np.ndarray]:
    p_swap = np.zeros((K.N_FIT, 2))
    p_swap[0, :] = 1.0          # swap a Jingo card that fits nothing of mine
    p_tuck = np.array([1.0, 0.0, 0.0])  # tuck only to make a Bobo
    return p_swap, 3, p_tuck


def builtin_strategy(name: str, players: int) -> Strategy:
    k = ranks_per_suit(players)
    p_swap, target, p_tuck = _base_swap_tuck()
    if name == "heuristic":
        unseen = np.arange(9)
        p = np.where(unseen * 2 >= k, 0.0, 1.0)     # Flingo while at least half the suit is unseen
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
    elif name == "recommended":
        return recommended_strategy(players)
    else:
        raise CardlabError(f"unknown strategy {name!r} for {GAME}; accepted: {accepted(STRATEGIES)}")
    return Strategy(name, p_jingo, p_swap, target, p_tuck)


def recommended_path() -> Path:
    return seeds_dir() / RECOMMENDED_FILE


@lru_cache(maxsize=None)
def _recommended_tables() -> dict:
    path = recommended_path()
    if not path.exists():
        return {}
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def recommended_strategy(players: int) -> Strategy:
    tables = _recommended_tables().get("players", {}).get(str(players))
    if tables is None:
        raise CardlabError(f"no recommended strategy stored for {players} players in {recommended_path()}; "
                           "compute it with 'cardlab improve bisko-bobo'")
    return strategy_from_dict("recommended", tables)


def strategy_to_dict(s: Strategy) -> dict:
    return {"p_jingo": s.p_jingo.tolist(), "p_swap": s.p_swap.tolist(), "swap_target": int(s.swap_target),
            "p_tuck": s.p_tuck.tolist()}


def strategy_from_dict(name: str, d: dict) -> Strategy:
    return Strategy(name, np.array(d["p_jingo"], dtype=float).reshape(K.JINGO_SHAPE),
                    np.array(d["p_swap"], dtype=float).reshape(K.N_FIT, 2), int(d["swap_target"]),
                    np.array(d["p_tuck"], dtype=float).reshape(K.N_REL))


def seat_strategies(spec: list[str] | None, players: int) -> list[Strategy]:
    """``["heuristic"]`` for every seat, or ``["random", "0=always-jingo", ...]`` per seat."""
    names = ["heuristic"] * players
    for item in spec or []:
        seat, eq, name = item.partition("=")
        if eq:
            try:
                s = int(seat)
            except ValueError:
                raise CardlabError(f"bad --strategy {item!r}: expected NAME or SEAT=NAME") from None
            if not 0 <= s < players:
                raise CardlabError(f"bad seat {s} in --strategy {item!r}: seats are 0..{players - 1}")
            names[s] = name
        else:
            names = [item] * players
    for n in names:
        if n not in STRATEGIES:
            raise CardlabError(f"unknown strategy {n!r} for {GAME}; accepted: {accepted(STRATEGIES)}")
    return [builtin_strategy(n, players) for n in names]


def stack(strats: list[Strategy]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    return (np.stack([s.p_jingo for s in strats]).astype(np.float64),
            np.stack([s.p_swap for s in strats]).astype(np.float64),
            np.array([s.swap_target for s in strats], dtype=np.int64),
            np.stack([s.p_tuck for s in strats]).astype(np.float64))


# ---------------------------------------------------------------------------------------------
# Simulation spec and tables
# ---------------------------------------------------------------------------------------------

def simulation_spec(players: int | None = None, variants: dict[str, str] | None = None,
                    strategies: list[str] | None = None) -> KernelSpec:
    g = rules()
    P = g.check_players(players)
    full = g.resolve_variants(variants)
    strats = seat_strategies(strategies, P)
    args = (np.int64(P), high_deck(P), low_deck(P), variant_array(full), *stack(strats), K.RANK_PACK)
    return KernelSpec(game=GAME, kernel="kernels.bisko_bobo:simulate_chunks", args=args,
                      n_counts=K.n_counts(P), tabulate=tabulate,
                      describe={"players": P, "variants": full, "strategies": [s.name for s in strats]},
                      precision_measures=("win",))


def _seat_block(counts: np.ndarray, P: int) -> np.ndarray:
    return counts[: P * K.SEAT_FIELDS].reshape(P, K.SEAT_FIELDS)


def tabulate(counts: np.ndarray, trials: int, spec: KernelSpec) -> pd.DataFrame:
    """Merged counts to the tidy table (measures per seat and overall, seat = None)."""
    P = int(spec.describe["players"])
    seat = _seat_block(np.asarray(counts), P)
    deal = np.asarray(counts)[P * K.SEAT_FIELDS:]
    n = int(deal[K.D_DEALS])
    rows: list[dict] = []
    groups = [(s, seat[s], n) for s in range(P)] + [(None, seat.sum(axis=0), n * P)]
    for s, r, n_obs in groups:
        rows.append(mean_row("win", s, r[K.R_WIN], r[K.R_WIN_SQ], n_obs, scale=60.0))
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
    rows.append(proportion_row("wet_bisk_jack", None, deal[K.D_WET_JACK], n))
    rows.append(proportion_row("shared_win", None, deal[K.D_SHARED], n))
    rows.append(proportion_row("no_winner", None, deal[K.D_NO_WINNER], n))
    rows.append(proportion_row("bingo_bango_phase", None, deal[K.D_BINGO_PHASE], n))
    rows.append(mean_row("swaps_per_deal", None, deal[K.D_SWAPS], np.nan, n))
    rows.append(mean_row("redeals_per_deal", None, deal[K.D_REDEALS], np.nan, n))
    df = frame(rows)
    if "bisk" in df.columns:
        df["bisk"] = df["bisk"].astype(object).where(df["bisk"].notna(), None)
    return df


def _wilson_fractional(successes: float, trials: int) -> dict:
    from ..stats import wilson
    p, se, lo, hi = wilson(successes, trials)
    return {"successes": float(successes), "estimate": float(p), "std_error": float(se),
            "ci_low": float(lo), "ci_high": float(hi)}


# ---------------------------------------------------------------------------------------------
# Evaluation and exact enumeration
# ---------------------------------------------------------------------------------------------

def _eval_flags(variants: dict[str, str] | None) -> tuple[int, int, int]:
    v = variant_array(variants or {})
    return int(v[K.V_SUIT_ORDER]), int(v[K.V_DEPTH]), int(v[K.V_SPLIT])


def evaluate(sets: list[str], variants: dict[str, str] | None = None) -> pd.DataFrame:
    """Type and key of each evaluation set (BB-12). Keys compare across sets and calls."""
    if not sets:
        raise CardlabError("give at least one card set, e.g. \"KC JC TC\"")
    flags = _eval_flags(variants)
    rows = []
    for text in sets:
        idx = DECK.indices(text)
        arr = np.array(idx, dtype=np.int64)
        key = int(K.bisk_key(arr, len(arr), *flags, K.RANK_PACK))
        t = key >> 59
        rows.append({"cards": " ".join(str(DECK.card(i)) for i in idx), "bisk": TYPE_NAMES[t],
                     "type_index": t, "key": key})
    return pd.DataFrame(rows)


def exact_bisk_types(players: int, cards: int, variants: dict[str, str] | None = None) -> pd.DataFrame:
    """Count and probability of each Bisk type over all ``cards``-card sets of the HIGH deck."""
    P = rules().check_players(players)
    deck = high_deck(P)
    if not 1 <= cards <= len(deck):
        raise CardlabError(f"bad --cards {cards}: the HIGH deck for {P} players has {len(deck)} cards (1..{len(deck)})")
    out = np.zeros(len(TYPE_NAMES), dtype=np.int64)
    K.exact_type_counts(deck, cards, *_eval_flags(variants), K.RANK_PACK, out)
    total = int(out.sum())
    return pd.DataFrame({"bisk": TYPE_NAMES, "type_index": range(len(TYPE_NAMES)), "count": out,
                         "probability": out / total})
