"""Double-dummy solver, the entry points: ``at_least`` (a null-window search), ``solve`` and ``solve_near`` (the
exact value) and ``card_values`` (every card's value).
"""

from __future__ import annotations

import numpy as np
from numba import types
from numba.extending import overload

from .._extern import extern
from .._jit import jit, jit_inline
from ..bits import low_index, popcount
from .cards import ONE, _seat, lane, legal_cards, trick_winner_pos
from .search import STAT_SEARCHES, _search
from .table import GEN_SHIFT

# The search is called through a cell bound on first use (kernels/_extern.py): its code is compiled once, in its own
# library, not again inside every solver function and kernel above it; the hand count stays a constant (literal).
_search_x = extern(_search, types.boolean, literal=True)


@jit_inline
def _meta(nh, trump, must_trump, maxteam, countteam):
    return np.uint64(((trump + 1) << 4) | (maxteam << 8) | (countteam << 12) | (must_trump << 16) | (nh << 20))


@jit
def at_least(hands, nh, trump, must_trump, leader, played, k, target, maxteam, countteam, ttk, ttg, bufs):
    """Whether the count side takes at least ``target`` of the remaining tricks (the current one included)
    with the max side maximising. ``played[:k]`` are the cards already in the current trick, led by
    ``leader``."""
    moves, scores, keybuf, tricks, stats, stack, relevant, skipped = bufs
    for i in range(k):
        tricks[i] = played[i]
    stats[STAT_SEARCHES] += 1
    tmask = np.uint64(ttk.shape[0] - 1)
    meta = _meta(nh, trump, must_trump, maxteam, countteam) | (ttg[0] << GEN_SHIFT)
    # the search is compiled for a constant hand count: its loops over the hands unroll (docs/performance.md)
    return _search_for(
        hands, nh, trump, must_trump, leader, k, target, maxteam, countteam, meta, ttk, tmask, moves, scores, keybuf,
        tricks, stats, stack, relevant, skipped,
    )  # fmt: skip


def _search_for(
    hands, nh, trump, must_trump, leader, k, target, maxteam, countteam, meta, ttk, tmask, moves, scores, keybuf, tricks, stats, stack, relevant, skipped
):  # fmt: skip
    """``_search`` for ``nh`` hands (3 or 4), as a constant. Compiled code only (see its overload)."""
    raise NotImplementedError


@overload(_search_for, prefer_literal=True)
def _search_for_overload(
    hands, nh, trump, must_trump, leader, k, target, maxteam, countteam, meta, ttk, tmask, moves, scores, keybuf, tricks, stats, stack, relevant, skipped
):  # fmt: skip
    """With ``nh`` a constant (Bismarck passes 3 down the chain) only that count's search is compiled; otherwise
    both, chosen at run time (numba does not prune ``if nh == 3`` on a constant argument below the entry: each
    search is ~10 s of compiling)."""
    if isinstance(nh, types.IntegerLiteral):
        n = nh.literal_value
        if n not in (3, 4):
            return None

        def one(hands, nh, trump, must_trump, leader, k, target, maxteam, countteam, meta, ttk, tmask, moves, scores, keybuf, tricks, stats, stack, relevant, skipped):  # fmt: skip
            return _search_x(hands, n, trump, must_trump, leader, k, target, maxteam, countteam, meta, ttk, tmask, moves, scores, keybuf, tricks, stats, stack, relevant, skipped)  # fmt: skip

        return one

    def either(hands, nh, trump, must_trump, leader, k, target, maxteam, countteam, meta, ttk, tmask, moves, scores, keybuf, tricks, stats, stack, relevant, skipped):  # fmt: skip
        if nh == 3:
            return _search_x(hands, 3, trump, must_trump, leader, k, target, maxteam, countteam, meta, ttk, tmask, moves, scores, keybuf, tricks, stats, stack, relevant, skipped)  # fmt: skip
        if nh != 4:
            raise ValueError("the double-dummy solver takes 3 or 4 hands")
        return _search_x(hands, 4, trump, must_trump, leader, k, target, maxteam, countteam, meta, ttk, tmask, moves, scores, keybuf, tricks, stats, stack, relevant, skipped)  # fmt: skip

    return either


@jit
def solve(hands, nh, trump, must_trump, leader, played, k, maxteam, countteam, ttk, ttg, bufs):
    """The game value: tricks of the count side from here (the current trick included), exactly.

    Each search asks "can the count side make t?". The searches that cost are those near the value (the proof
    at it and the failure one above are always needed); those far from it are cheaper, the more so the farther.
    The searches step one trick at a time from a first guess (:func:`_first_guess`): a seat's tricks estimated
    from its high cards and trumps where one seat plays for itself against the other two, with 3 hands (Bismarck)
    and at least ``ESTIMATE_FROM`` cards; else all the tricks left with 3 hands (a single seat's value is small
    beside them, the failures above it are cheap, and the one proof comes last); with 4 hands (bridge) just above
    half the tricks (7 of 13), where a binary search would spend two more searches near the value."""
    guess = _first_guess(hands, nh, trump, leader, k, maxteam, countteam)
    return solve_near(hands, nh, trump, must_trump, leader, played, k, maxteam, countteam, ttk, ttg, bufs, guess)


# The estimate of a seat's double-dummy tricks against two others (3 hands, each its own cards, at least
# ESTIMATE_FROM of them): in thousandths of a trick, a constant, per ace, king and queen held, per trump held,
# for a trump suit at all, and per card in the hand. A least-squares fit to 900 random deals of 12 to 16 cards a
# hand (none of make bench's), rounded to the nearest trick: exact on about a third of them and within a trick on
# about four in five (docs/performance.md, the double-dummy table).
EST_BASE, EST_ACE, EST_KING, EST_QUEEN = 1456, 1357, 810, 533
EST_TRUMP, EST_TRUMP_SUIT, EST_CARD = 858, -2737, -117
ESTIMATE_FROM = 12
RANK_A = np.uint64(0x1000100010001000)  # every suit's ace (rank 12), king and queen below it
RANK_K = np.uint64(0x0800080008000800)
RANK_Q = np.uint64(0x0400040004000400)


@jit_inline
def _first_guess(hands, nh, trump, leader, k, maxteam, countteam):
    """Where :func:`solve` starts its searches (its docstring): an estimate of the count seat's tricks where one
    seat plays for itself against the other two with ``ESTIMATE_FROM`` cards or more, all the tricks left
    otherwise with 3 hands, just above half with 4. The value does not depend on the guess, only the time."""
    remaining = popcount(hands[_seat(leader + k, nh)])
    if nh != 3:
        return remaining // 2 + 1
    if maxteam != countteam or popcount(np.uint64(countteam)) != 1:
        return remaining
    h = hands[low_index(np.uint64(countteam))]
    m = popcount(h)
    if m < ESTIMATE_FROM:
        return remaining
    est = EST_BASE + EST_ACE * popcount(h & RANK_A) + EST_KING * popcount(h & RANK_K)
    est += EST_QUEEN * popcount(h & RANK_Q) + EST_CARD * m
    if trump >= 0:
        est += EST_TRUMP_SUIT + EST_TRUMP * popcount(lane(h, trump))
    return min(remaining, max(0, (est + 500) // 1000))


@jit
def first_guess(hands, nh, trump, leader, k, maxteam, countteam):
    """Where :func:`solve` starts its searches for this position (:func:`_first_guess`): for callers that search
    one layout after another from the last one's value, the first layout's start."""
    return _first_guess(hands, nh, trump, leader, k, maxteam, countteam)


@jit
def solve_near(hands, nh, trump, must_trump, leader, played, k, maxteam, countteam, ttk, ttg, bufs, guess):
    """:func:`solve` starting from a guess: steps up or down one trick at a time (cheap when the guess is
    close, as when the value of a position is known and a child is at most a little worse)."""
    remaining = popcount(hands[_seat(leader + k, nh)])
    return solve_within(
        hands, nh, trump, must_trump, leader, played, k, maxteam, countteam, ttk, ttg, bufs, guess, 0, remaining
    )


@jit
def solve_within(hands, nh, trump, must_trump, leader, played, k, maxteam, countteam, ttk, ttg, bufs, guess, lo, hi):
    """:func:`solve_near` when the value is known to lie in ``lo .. hi``: no search at or beyond a bound (a
    failing search just above the value costs about as much as the proof at it)."""
    remaining = popcount(hands[_seat(leader + k, nh)])
    hi = min(hi, remaining)
    lo = max(lo, 0)
    g = min(max(guess, lo), hi)
    if g > lo and not at_least(hands, nh, trump, must_trump, leader, played, k, g, maxteam, countteam, ttk, ttg, bufs):
        g -= 1
        while g > lo and not at_least(
            hands, nh, trump, must_trump, leader, played, k, g, maxteam, countteam, ttk, ttg, bufs
        ):
            g -= 1
        return g
    while g < hi and at_least(
        hands, nh, trump, must_trump, leader, played, k, g + 1, maxteam, countteam, ttk, ttg, bufs
    ):
        g += 1
    return g


@jit
def card_values(
    hands, nh, trump, must_trump, leader, played, k, maxteam, countteam, ttk, ttg, bufs, out_cards, out_values
):
    """For the seat to play, every legal card (all of them, equivalent ones included) and the value of the
    position after it. Returns the number of cards."""
    return card_values_near(
        hands, nh, trump, must_trump, leader, played, k, maxteam, countteam, ttk, ttg, bufs, out_cards, out_values,
        _first_guess(hands, nh, trump, leader, k, maxteam, countteam),
    )  # fmt: skip


@jit
def card_values_near(
    hands, nh, trump, must_trump, leader, played, k, maxteam, countteam, ttk, ttg, bufs, out_cards, out_values, guess
):
    """:func:`card_values` with the position's value searched from ``guess`` (:func:`solve_near`): sampled
    layouts of one decision differ little, and a guess at the last one's value spares the failing searches that
    :func:`solve` makes from all the tricks left down to it. The values do not depend on the guess."""
    p = _seat(leader + k, nh)
    led = -1 if k == 0 else played[0] >> 4
    legal = legal_cards(hands[p], led, trump, must_trump)
    base = solve_near(hands, nh, trump, must_trump, leader, played, k, maxteam, countteam, ttk, ttg, bufs, guess)
    # base is the best card's value: no card of a seat of the max side is worth more, none of the other side less
    on_max = (maxteam >> p) & 1
    lo = 0 if on_max else base
    hi = base if on_max else 64
    n = 0
    x = legal
    while x:
        low = x & (~x + ONE)
        x ^= low
        c = low_index(low)
        hands[p] ^= low
        played[k] = c
        if k == nh - 1:
            pos = trick_winner_pos(played, nh, trump)
            w = _seat(leader + pos, nh)
            gained = (countteam >> w) & 1
            # np.int64(0), not 0: a literal compiles the chain down to the search again (kernels/_jit.py)
            v = gained + solve_within(
                hands, nh, trump, must_trump, w, played, np.int64(0), maxteam, countteam, ttk, ttg, bufs,
                base - gained, lo - gained, hi - gained,
            )  # fmt: skip
        else:
            v = solve_within(
                hands, nh, trump, must_trump, leader, played, k + 1, maxteam, countteam, ttk, ttg, bufs, base, lo, hi
            )
        hands[p] |= low
        out_cards[n] = c
        out_values[n] = v
        n += 1
    return n


# Entry points for a fixed hand count. From Python the count is a variable, and the chain then compiles the search
# for 3 hands and for 4 (~20 s each from a cold cache); here it is the constant each one passes down
# (_search_for), so `cardlab solve bismarck` compiles the 3-hand search only. np.int64 counts stay variables
# (kernels/_jit.py): the literal is the point here.


@jit
def solve_3(hands, trump, must_trump, leader, played, k, maxteam, countteam, ttk, ttg, bufs):
    """:func:`solve` for 3 hands (Bismarck)."""
    return solve(hands, 3, trump, must_trump, leader, played, k, maxteam, countteam, ttk, ttg, bufs)


@jit
def solve_4(hands, trump, must_trump, leader, played, k, maxteam, countteam, ttk, ttg, bufs):
    """:func:`solve` for 4 hands (bridge)."""
    return solve(hands, 4, trump, must_trump, leader, played, k, maxteam, countteam, ttk, ttg, bufs)


@jit
def card_values_3(hands, trump, must_trump, leader, played, k, maxteam, countteam, ttk, ttg, bufs, out_cards, out_values):  # fmt: skip
    """:func:`card_values` for 3 hands (Bismarck)."""
    return card_values(
        hands, 3, trump, must_trump, leader, played, k, maxteam, countteam, ttk, ttg, bufs, out_cards, out_values
    )


@jit
def card_values_4(hands, trump, must_trump, leader, played, k, maxteam, countteam, ttk, ttg, bufs, out_cards, out_values):  # fmt: skip
    """:func:`card_values` for 4 hands (bridge)."""
    return card_values(
        hands, 4, trump, must_trump, leader, played, k, maxteam, countteam, ttk, ttg, bufs, out_cards, out_values
    )
