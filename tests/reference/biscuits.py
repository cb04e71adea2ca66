"""Biscuits combinations in plain Python, from rules.md section 2 (BI-2, BI-6, BI-7).

Cards are codes ``rank * 4 + suit`` (rank 0 = '2' .. 12 = 'A'; suits unranked). Kinds as in kernels/biscuits.py.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

PLAIN = {1: "Single", 2: "Pair", 3: "Triple"}


def classify(codes, v=None):
    """(kind, key) or None."""
    v = {"flush_compare": "top_card_only", "ace_low_straight": "false", **(v or {})}
    codes = list(codes)
    ranks = Counter(c // 4 for c in codes)
    suits = {c % 4 for c in codes}
    n = len(codes)
    if len(ranks) == 1 and n <= 3:
        return n, codes[0] // 4                       # Single, Pair, Triple by rank
    if n != 5:
        return None                                   # no 4-card combination
    shape = sorted(ranks.values(), reverse=True)
    if shape[0] == 4:
        return 14, next(r for r, k in ranks.items() if k == 4)
    if shape == [3, 2]:
        return 13, next(r for r, k in ranks.items() if k == 3)
    if len(ranks) == 5:
        rs = sorted(ranks)
        high = None
        if rs[-1] - rs[0] == 4:
            high = rs[-1]
        elif v["ace_low_straight"] == "true" and rs == [0, 1, 2, 3, 12]:
            high = 3                                  # A-2-3-4-5: its highest card is the 5
        if high is not None:
            return (15 if len(suits) == 1 else 11), high
        if len(suits) == 1:
            if v["flush_compare"] == "lexicographic":
                key = 0
                for r in sorted(ranks, reverse=True):
                    key = key * 16 + r
                return 12, key
            return 12, max(ranks)
    return None


def beats(current, new):
    if new is None:
        return False
    if current is None:
        return True
    (ck, ckey), (k, key) = current, new
    if k // 10 != ck // 10:
        return False
    if k % 10 != ck % 10:
        return k % 10 > ck % 10
    return key >= ckey


def legal_plays(hand, current=None, v=None):
    out = set()
    hand = list(hand)
    for size in (1, 2, 3, 5):
        for sub in combinations(hand, size):
            if beats(current, classify(sub, v)):
                out.add(frozenset(sub))
    return out
