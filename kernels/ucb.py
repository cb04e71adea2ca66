"""The root of the search players (every game's): the candidate list of a crowded position, the two ways of
spending a budget of rollouts on a root's candidate actions, the rollouts' own random stream, and the final
choice. Each game's search module supplies its candidates, its determinizations and its rollouts.

The two ways (``search:BUDGET`` and ``search:BUDGET:C``):

* sequential halving on common determinizations (Karnin, Koren and Somekh 2013), the default: the budget split
  into :func:`halving_rounds` rounds of equal budget; in a round every candidate still in is played out on the
  same determinizations (and from the same rollout draws), and after it :func:`drop_worse_half`; the player takes
  :func:`best_mean`. Two candidates on one determinization differ only by the action, so each comparison is
  paired: the spread between determinizations, most of a rollout's variance, cancels, and one draw serves every
  candidate;
* UCB1 (:func:`ucb_pick`), each rollout on a determinization of its own, and :func:`most_visited` at the end.
"""

from __future__ import annotations

import math

import numpy as np

from . import rng
from ._jit import jit_inline


@jit_inline
def lowest_per_group(group, key, n, limit, picked):
    """When a position has more plays than a search can weigh: in each ``group`` (a combination type, say) the
    play with the lowest ``key``, groups in the order they first appear, at most ``limit`` of them; their indices
    go to ``picked``, their count is returned."""
    gk = np.full(limit, -1, dtype=np.int64)
    gkey = np.zeros(limit, dtype=np.int64)
    G = 0
    for i in range(n):
        j = 0
        while j < G and gk[j] != group[i]:
            j += 1
        if j == G:
            if G == limit:
                continue
            gk[G] = group[i]
            gkey[G] = key[i]
            picked[G] = i
            G += 1
        elif key[i] < gkey[j]:
            gkey[j] = key[i]
            picked[j] = i
    return G


@jit_inline
def ucb_pick(it, A, visits, value, c):
    """The candidate of rollout ``it``: each of the ``A`` once in turn, then the highest UCB1 score (the mean
    reward plus ``c * sqrt(ln it / visits)``; rewards in [0, 1])."""
    if it < A:
        return it
    a = 0
    top = -1.0
    lg = math.log(it)
    for j in range(A):
        u = value[j] / visits[j] + c * math.sqrt(lg / visits[j])
        if u > top:
            top = u
            a = j
    return a


@jit_inline
def halving_rounds(A):
    """Sequential halving's rounds for ``A`` >= 2 candidates: ceil(log2 A), a halving after each but the last
    (which leaves at most two candidates, of which :func:`best_mean` takes one)."""
    R = 1
    while (1 << R) < A:
        R += 1
    return R


@jit_inline
def halving_layouts(budget, R, S):
    """Determinizations in a round of ``R`` with ``S`` candidates in: an equal share of the budget a round, at
    least one."""
    return max(1, budget // (R * S))


@jit_inline
def drop_worse_half(alive, A, S, visits, value):
    """After a halving round with ``S`` of the ``A`` candidates ``alive``: out go the lowest means (of equal means
    the later candidate) until half (rounded up) are left; returns how many are."""
    keep = (S + 1) // 2
    while S > keep:
        worst = -1
        for i in range(A):
            if alive[i] and (worst < 0 or value[i] / visits[i] <= value[worst] / visits[worst]):
                worst = i
        alive[worst] = False
        S -= 1
    return S


@jit_inline
def best_mean(alive, A, visits, value):
    """The candidate still in with the highest mean reward (of equal means the first)."""
    best = -1
    for i in range(A):
        if alive[i] and (best < 0 or value[i] / visits[i] > value[best] / visits[best]):
            best = i
    return best


@jit_inline
def rollout_stream(st, st_roll):
    """Seed ``st_roll`` from four words of the player's stream ``st``: the rollouts' draws follow from the trial's
    strategy stream, so a game with a searching seat is reproducible from its seed."""
    k0 = (rng.next32(st) << np.uint64(32)) | rng.next32(st)
    k1 = (rng.next32(st) << np.uint64(32)) | rng.next32(st)
    rng.seed_state(st_roll, k0, k1, np.uint64(0), np.uint64(0))


@jit_inline
def most_visited(A, visits, value):
    """The candidate tried most often (ties: the higher mean reward): the robust choice at the root."""
    best = 0
    for j in range(1, A):
        if visits[j] > visits[best] or (
            visits[j] == visits[best] and value[j] / visits[j] > value[best] / visits[best]
        ):
            best = j
    return best
