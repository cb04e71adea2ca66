"""The search players' sequential halving in plain Python (kernels/ucb.py), shared by the games' references."""

from __future__ import annotations

import math


def halving(A, budget, draw, reward):
    """Sequential halving over candidates ``0 .. A-1`` (A >= 2): ceil(log2 A) rounds of ``budget // (rounds x
    candidates in)`` layouts (at least one), each layout from ``draw()`` played by every candidate in
    (``reward(i, layout)``), the worse half by mean out after each round; returns the best mean's candidate. Ties:
    the earlier candidate stays and is chosen."""
    visits = [0] * A
    value = [0.0] * A
    alive = list(range(A))
    rounds = math.ceil(math.log2(A))
    for rnd in range(rounds):
        for _ in range(max(1, budget // (rounds * len(alive)))):
            layout = draw()
            for i in alive:
                visits[i] += 1
                value[i] += reward(i, layout)
        if rnd < rounds - 1:
            alive = sorted(sorted(alive, key=lambda j: (-value[j] / visits[j], j))[: (len(alive) + 1) // 2])
    return min(alive, key=lambda j: (-value[j] / visits[j], j))
