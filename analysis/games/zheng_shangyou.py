"""Zheng Shangyou (rules.md section 4): the combination engine's Python face (eval, beats, moves).

The kernels implement the default rules; full games, players and analyses are the rest of issue 6.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from kernels import zheng_shangyou as K

from ..cards import Card, parse_cards
from ..errors import CardlabError
from ..rules import GameRules, load_game

GAME = "zheng-shangyou"
RANKS = ("3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "2")
SUITS = ("D", "C", "H", "S")


def rules() -> GameRules:
    return load_game(GAME)


def code(card: Card) -> int:
    """The kernel code of a card: rank * 4 + suit (twos high, D < C < H < S); jokers 52 (BJ), 53 (RJ)."""
    if card.is_joker:
        return 52 if card.rank == "BJ" else 53
    return RANKS.index(card.rank) * 4 + SUITS.index(card.suit)


def card(c: int) -> Card:
    if c >= 52:
        return Card("BJ" if c == 52 else "RJ", "")
    return Card(RANKS[c // 4], SUITS[c % 4])


def to_mask(text: str) -> int:
    """A card list to the kernel's bit set (duplicates are an error with one deck)."""
    mask = 0
    for c in parse_cards(text, jokers=True):
        mask |= 1 << code(c)
    return mask


def cards_of(mask: int) -> str:
    """Cards of a bit set, lowest first."""
    return " ".join(str(card(i)) for i in range(54) if (mask >> i) & 1)


def _check_variants(variants: dict | None) -> dict:
    full = rules().resolve_variants(variants)
    defaults = rules().resolve_variants({})
    changed = [f"{k}={v}" for k, v in full.items() if v != defaults[k]]
    if changed:
        raise CardlabError(f"variant {', '.join(changed)} is not implemented yet for {GAME}: the engine "
                           "implements the default rules only")
    return full


def classify_mask(mask: int) -> tuple[int, int, int]:
    kind, length, key = K.classify(np.uint64(mask))
    return int(kind), int(length), int(key)


def _describe(mask: int) -> dict:
    kind, length, key = classify_mask(mask)
    return {"cards": cards_of(mask), "type": K.KIND_NAMES[kind] if kind else "not a combination",
            "type_index": kind, "length": length, "key": key if kind else None}


def evaluate(sets: list[str], variants: dict | None = None) -> pd.DataFrame:
    """Type (ZS-5), number of cards and comparison key of each card set."""
    _check_variants(variants)
    if not sets:
        raise CardlabError("give at least one card set, e.g. \"3D 3S\"")
    df = pd.DataFrame([_describe(to_mask(t)) for t in sets])
    df["key"] = df["key"].astype("Int64")
    return df


def beats_table(current: str, play: str, variants: dict | None = None) -> pd.DataFrame:
    """Whether ``play`` may be played on ``current`` (ZS-4, ZS-6), with the reason."""
    _check_variants(variants)
    cur = _describe(to_mask(current))
    new = _describe(to_mask(play))
    if cur["type_index"] == 0:
        raise CardlabError(f"the current play {current!r} is not a combination")
    ck, cn, ckey = classify_mask(to_mask(current))
    k, n, key = classify_mask(to_mask(play))
    ok = bool(K.beats(ck, cn, ckey, k, n, key))
    if k == 0:
        reason = "the play is not a combination"
    elif k == K.K_STRAIGHT_FLUSH:
        reason = ("a straight flush beats anything but a higher straight flush of the same length" if ok else
                  "a straight flush beats another only with the same length and a higher lowest card")
    elif k == K.K_BOMB:
        reason = ("a bomb beats any play but a higher bomb or a straight flush" if ok else
                  "a bomb cannot beat a straight flush or a higher bomb")
    elif ck in (K.K_BOMB, K.K_STRAIGHT_FLUSH):
        reason = f"only a higher bomb or a straight flush beats a {K.KIND_NAMES[ck]}"
    elif k != ck or n != cn:
        reason = "a play must be of the same type and number of cards"
    else:
        reason = "higher" if ok else "not higher (equal does not beat)"
    return pd.DataFrame([{"current": cur["cards"], "current_type": cur["type"], "play": new["cards"],
                          "play_type": new["type"], "beats": ok, "reason": reason}])


def moves(hand: str, current: str | None = None, variants: dict | None = None) -> pd.DataFrame:
    """Every legal play from ``hand``, on lead or over ``current``."""
    _check_variants(variants)
    h = to_mask(hand)
    ck = cn = ckey = 0
    if current:
        m = to_mask(current)
        if m & h:
            raise CardlabError("the current play shares cards with the hand")
        ck, cn, ckey = classify_mask(m)
        if ck == 0:
            raise CardlabError(f"the current play {current!r} is not a combination")
    out = np.zeros(K.MAX_MOVES, dtype=np.uint64)
    n = int(K.generate_moves(np.uint64(h), ck, cn, ckey, out))
    if n >= K.MAX_MOVES:
        raise CardlabError(f"more than {K.MAX_MOVES} legal plays: give a smaller hand")
    rows = [_describe(int(x)) for x in out[:n]]
    return pd.DataFrame(rows, columns=["cards", "type", "type_index", "length", "key"])
