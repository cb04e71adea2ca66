"""Biscuits (rules.md section 2): the combination engine's Python face (eval, beats, moves).

Whole hands and games, the players and the analyses are the rest of issue 5.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from kernels import biscuits as K

from ..cards import parse_cards
from ..errors import CardlabError
from ..rules import GameRules, load_game

GAME = "biscuits"
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A")
SUITS = ("C", "D", "H", "S")
ENGINE_VARIANTS = {"flush_compare": (K.V_FLUSH_COMPARE, {"top_card_only": 0, "lexicographic": 1}),
                   "ace_low_straight": (K.V_ACE_LOW, {"false": 0, "true": 1})}


def rules() -> GameRules:
    return load_game(GAME)


def code(card) -> int:
    return RANKS.index(card.rank) * 4 + SUITS.index(card.suit)


def to_mask(text: str) -> int:
    mask = 0
    for c in parse_cards(text):
        mask |= 1 << code(c)
    return mask


def cards_of(mask: int) -> str:
    return " ".join(RANKS[i // 4] + SUITS[i % 4] for i in range(52) if (mask >> i) & 1)


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
    return {"cards": cards_of(mask), "type": K.KIND_NAMES[kind] if kind else "not a combination",
            "group": ("Plain" if kind < 10 else "Fancy") if kind else None, "type_index": kind % 10 if kind else 0,
            "key": key if kind else None}


def evaluate(sets: list[str], variants: dict | None = None) -> pd.DataFrame:
    """Type, group and comparison key of each card set (BI-6)."""
    bv = variant_array(variants)
    if not sets:
        raise CardlabError("give at least one card set, e.g. \"5S 5H\"")
    df = pd.DataFrame([_describe(to_mask(t), bv) for t in sets])
    df["key"] = df["key"].astype("Int64")
    return df


def beats_table(current: str, play: str, variants: dict | None = None) -> pd.DataFrame:
    """Whether ``play`` beats ``current`` (BI-7), with the reason."""
    bv = variant_array(variants)
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
        reason = ("a higher type in the same group beats, whatever its size" if ok else
                  "a lower type in the same group never beats")
    else:
        reason = "the same type, equal or higher: equal rank also beats" if ok else "the same type, lower"
    return pd.DataFrame([{"current": cur["cards"], "current_type": cur["type"], "play": new["cards"],
                          "play_type": new["type"], "beats": ok, "reason": reason}])


def moves(hand: str, current: str | None = None, variants: dict | None = None) -> pd.DataFrame:
    """Every legal play from ``hand``, on lead or over ``current``."""
    bv = variant_array(variants)
    h = to_mask(hand)
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
    return pd.DataFrame([_describe(int(x), bv) for x in out[:n]], columns=["cards", "type", "group", "type_index", "key"])
