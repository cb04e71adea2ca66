"""The search players' two ways of spending a budget in plain Python (kernels/ucb.py), shared by the games'
references: sequential halving on common layouts and UCB1."""

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


def ucb1(A, budget, c, draw, reward):
    """UCB1 over candidates ``0 .. A-1``: ``max(budget, A)`` rollouts, each candidate once in turn, then the highest
    mean + c sqrt(ln it / visits) (ties: the first), each rollout on a layout of its own from ``draw()``
    (``reward(i, layout)``); returns the candidate tried most (ties: the higher mean, then the first)."""
    visits = [0] * A
    value = [0.0] * A
    for it in range(max(budget, A)):
        if it < A:
            i = it
        else:
            ucb = [value[j] / visits[j] + c * math.sqrt(math.log(it) / visits[j]) for j in range(A)]
            i = max(range(A), key=lambda j: (ucb[j], -j))
        visits[i] += 1
        value[i] += reward(i, draw())
    return max(range(A), key=lambda j: (visits[j], value[j] / visits[j], -j))
