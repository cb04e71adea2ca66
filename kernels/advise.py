"""The advisors' count row, shared by every game: every action of one position tried on the same samples.

Layout (``advise_width(A)`` int64s per chunk): ``A_SAMPLES``; per action ``a`` at ``1 + A_FIELDS * a``:
``A_WIN`` (the deciding seat's win event), ``A_SCORE`` (its payoff), ``A_SCORE_SQ``, ``A_LAST`` (a game's
losing event: Zheng Shangyou's Loser; 0 where a game has none); then per pair ``a < b`` (:func:`pair_index`) at
``1 + A_FIELDS * A + A_PAIR * p``: the sums of ``win_a * win_b``, of ``score_a * score_b`` and of
``last_a * last_b``, from which the paired differences' variances follow (analysis.advisor tabulates them).
"""

from __future__ import annotations

from ._jit import jit

A_SAMPLES = 0
A_WIN = 0
A_SCORE = 1
A_SCORE_SQ = 2
A_LAST = 3
A_FIELDS = 4
A_PAIR = 3  # per pair of actions: the cross sums of the win events, the payoffs and the losing events


def advise_width(n_actions: int) -> int:
    return 1 + A_FIELDS * n_actions + A_PAIR * (n_actions * (n_actions - 1) // 2)


@jit
def pair_index(a, b, A):
    """The index of the pair ``a < b`` among the ``A * (A - 1) / 2`` pairs, row by row."""
    return a * A - a * (a + 1) // 2 + (b - a - 1)


@jit
def add_action(row, a, w, sc, last, wins, scores):
    """Action ``a``'s outcome on one sample (win 0/1, payoff, losing event 0/1) into the count row, and into
    ``wins``/``scores`` for the pair sums of :func:`add_sample` (``wins[a]`` holds both events: the win in bit
    0, the losing event in bit 1)."""
    wins[a] = w | (last << 1)
    scores[a] = sc
    b = 1 + A_FIELDS * a
    row[b + A_WIN] += w
    row[b + A_SCORE] += sc
    row[b + A_SCORE_SQ] += sc * sc
    row[b + A_LAST] += last


@jit
def add_sample(row, A, wins, scores):
    """One sample done: its count, and the cross sums of every pair of actions (the paired variances)."""
    row[A_SAMPLES] += 1
    pb = 1 + A_FIELDS * A
    for a in range(A):
        for b2 in range(a + 1, A):
            p = pb + A_PAIR * pair_index(a, b2, A)
            both = wins[a] & wins[b2]  # bit 0: both won; bit 1: both had the losing event
            row[p] += both & 1
            row[p + 1] += scores[a] * scores[b2]
            row[p + 2] += both >> 1
