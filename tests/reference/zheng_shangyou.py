"""Zheng Shangyou combinations in plain Python, from rules.md section 4 (ZS-2, ZS-5, ZS-6).

Cards are (rank, suit) with ranks '3' .. 'K', 'A', '2' as 0 .. 12 and suits D < C < H < S as 0 .. 3, or
'BJ' / 'RJ'. The kernel's code of a suited card is rank * 4 + suit; jokers are 52 and 53.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

SINGLE, PAIR, PAIR_STRAIGHT, TRIPLE, TRIPLE_STRAIGHT, FULL_HOUSE, STRAIGHT, BOMB, STRAIGHT_FLUSH = range(1, 10)
# sequence order: A low, 2, 3 .. K, A high (ZS-5); rank index of each position
SEQ = [11, 12] + list(range(0, 11)) + [11]


def sequence_low(ranks: set[int]) -> int | None:
    """Lowest position of a run of consecutive positions holding exactly these ranks, if any."""
    n = len(ranks)
    for low in range(0, 15 - n):
        window = SEQ[low:low + n]
        if len(window) == n and len(set(window)) == n and set(window) == ranks:
            return low
    return None


def classify(codes) -> tuple[int, int, int] | None:
    """(kind, number of cards, key) or None. Kinds and keys as in kernels/zheng_shangyou.py."""
    codes = list(codes)
    n = len(codes)
    if any(c >= 52 for c in codes):
        return (SINGLE, 1, codes[0]) if n == 1 else None
    ranks = Counter(c // 4 for c in codes)
    suits = {c % 4 for c in codes}
    if n == 1:
        return SINGLE, 1, codes[0]
    shape = sorted(ranks.values(), reverse=True)
    if shape == [2]:
        return PAIR, 2, max(codes)                 # rank, then the higher-suited card
    if shape == [3]:
        return TRIPLE, 3, codes[0] // 4
    if shape == [4, 1]:
        return BOMB, 5, next(r for r, k in ranks.items() if k == 4)
    if shape == [3, 2]:
        return FULL_HOUSE, 5, next(r for r, k in ranks.items() if k == 3)
    if len(set(shape)) == 1:
        width = shape[0]
        low = sequence_low(set(ranks))
        if low is None:
            return None
        if width == 1 and len(ranks) >= 5:
            return (STRAIGHT_FLUSH if len(suits) == 1 else STRAIGHT), n, low
        if width == 2 and len(ranks) >= 2:
            return PAIR_STRAIGHT, n, low
        if width == 3 and len(ranks) >= 2:
            return TRIPLE_STRAIGHT, n, low
    return None


def beats(current, new) -> bool:
    """ZS-4 / ZS-6: may ``new`` be played on ``current`` (None = on lead)?"""
    if new is None:
        return False
    if current is None:
        return True
    ck, cn, ckey = current
    k, n, key = new
    if k == STRAIGHT_FLUSH:
        return ck != STRAIGHT_FLUSH or (n == cn and key > ckey)
    if k == BOMB:
        if ck == STRAIGHT_FLUSH:
            return False
        return ck != BOMB or key > ckey
    if ck in (BOMB, STRAIGHT_FLUSH):
        return False
    return k == ck and n == cn and key > ckey


def legal_plays(hand, current=None) -> set[frozenset]:
    """Brute force: every subset of the hand that is a combination and beats ``current``."""
    out = set()
    hand = list(hand)
    for size in range(1, len(hand) + 1):
        for sub in combinations(hand, size):
            if beats(current, classify(sub)):
                out.add(frozenset(sub))
    return out
