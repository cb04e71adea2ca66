"""Bismarck kernels, the solver players: hidden cards sampled consistently with what a seat has seen (PIMC), and the
card of the PIMC and double-dummy seats from the solver's card values.
"""

from __future__ import annotations

import numpy as np
from numba import types

from .. import dd, rng
from .._extern import extern
from .._jit import jit, jit_inline
from ..bits import low_index, nth_bit, popcount
from ..dd import LANE, ONE, lane, legal_cards
from .layout import S_DD, S_PIMC_INFER
from .players import heuristic_card
from .rules import trick_winner_of

#: pimc-infer: candidate layouts drawn per layout wanted, at most (the best-matching ones are kept) ...
INFER_TRIES = 512


#: ... and at most this many a decision, whatever --pimc-samples asks (16 samples reach it)
INFER_MAX_TRIES = 8192


#: pimc-infer: the most mismatches counted for a candidate; beyond it every candidate is as unlikely
INFER_CAP = 8


@jit
def sample_hidden(unknown, void_a, void_b, n_a, n_b, st, ways, out):
    """Deal the ``unknown`` cards uniformly at random among hole A (``n_a`` cards), hole B (``n_b``) and the
    rest (out of play), given suits that A and B cannot hold (bit masks over suits). Exact: a dynamic
    programme over suits counts the consistent deals, and suits are split in proportion to those counts.
    Writes A's and B's cards to ``out[0]``, ``out[1]``; returns False if no deal is consistent.

    Everything it reads is what the deciding seat knows (the unknown set, the voids, the hand sizes)."""
    if not hidden_ways(unknown, void_a, void_b, n_a, n_b, ways):
        return False
    draw_hidden(unknown, void_a, void_b, n_a, n_b, st, ways, out)
    return True


@jit_inline
def hidden_ways(unknown, void_a, void_b, n_a, n_b, ways):
    """The counting half of :func:`sample_hidden`: ``ways[s, a, b]``, the number of ways for suits s..3 of
    ``unknown`` to give exactly a cards to A and b to B (the rest out of play); False if no deal is consistent.
    It depends on the decision only, so a player drawing many layouts counts once."""
    n_w = -(n_a + n_b)
    for s in range(4):
        n_w += popcount(lane(unknown, s))
    if n_w < 0:
        return False
    for a in range(n_a + 1):
        for b in range(n_b + 1):
            ways[4, a, b] = 1.0 if (a == 0 and b == 0) else 0.0
    for s in range(3, -1, -1):
        k = popcount(lane(unknown, s))
        for a in range(n_a + 1):
            for b in range(n_b + 1):
                w = 0.0
                for x in range(min(a, k) + 1):
                    if x > 0 and (void_a >> s) & 1:
                        break
                    for y in range(min(b, k - x) + 1):
                        if y > 0 and (void_b >> s) & 1:
                            break
                        w += _binom(k, x) * _binom(k - x, y) * ways[s + 1, a - x, b - y]
                ways[s, a, b] = w
    return ways[0, n_a, n_b] > 0.0


@jit_inline
def draw_hidden(unknown, void_a, void_b, n_a, n_b, st, ways, out):
    """The drawing half of :func:`sample_hidden`, from the counts of :func:`hidden_ways` (which must have
    returned True): each suit's split in proportion to the deals it leaves, then which cards, uniformly."""
    a = n_a
    b = n_b
    out[0] = np.uint64(0)
    out[1] = np.uint64(0)
    for s in range(4):
        k = popcount(lane(unknown, s))
        u = rng.uniform(st) * ways[s, a, b]
        chosen_x = -1
        chosen_y = -1
        acc = 0.0
        for x in range(min(a, k) + 1):
            if x > 0 and (void_a >> s) & 1:
                break
            for y in range(min(b, k - x) + 1):
                if y > 0 and (void_b >> s) & 1:
                    break
                w = _binom(k, x) * _binom(k - x, y) * ways[s + 1, a - x, b - y]
                if w > 0.0:
                    chosen_x = x
                    chosen_y = y
                    acc += w
                    if u < acc:
                        break
            if u < acc:
                break
        x = chosen_x
        y = chosen_y
        # which cards: a uniformly random ordering of the suit's unknown cards, first x to A, next y to B
        cards = lane(unknown, s)
        for i in range(x + y):
            c = nth_bit(cards, rng.below(st, popcount(cards)))
            bit = ONE << np.uint64(c)
            cards ^= bit
            if i < x:
                out[0] |= bit << np.uint64(16 * s)
            else:
                out[1] |= bit << np.uint64(16 * s)
        a -= x
        b -= y


@jit_inline
def _history_seats(trace, n_hist, leader0, trump, seat):
    """``seat[i]``: who played the hand's ``i``-th card (``trace[i]``), the first trick led by ``leader0`` and
    each later one by the last trick's winner (BM-4)."""
    leader = leader0
    for i in range(n_hist):
        if i > 0 and i % 3 == 0:
            leader = trick_winner_of(trace[i - 3], trace[i - 2], trace[i - 1], leader, trump)
        seat[i] = (leader + i % 3) % 3


@jit_inline
def _mismatches(p, ha, hb, widow, exch, trace, n_hist, seat, trump, misere, must_trump, known_out, cap):
    """How many of the other seats' cards among the hand's first ``n_hist`` (``trace``, played by ``seat``) the
    heuristic (:func:`heuristic_card`) would not have chosen, holding what those seats hold in a layout: ``ha``,
    ``hb`` now (seats p + 1 and p + 2), plus the cards each played since; at most ``cap``. Only choices count
    (more than one legal card). ``widow``: the layout's unplayed cards outside the three hands, which seat
    ``exch`` knows (it exchanged them; -1: none; when it is p, ``widow`` is empty and p is never replayed)."""
    a = (p + 1) % 3
    full = np.uint64(0)
    for s in range(4):
        full |= LANE << np.uint64(16 * s)
    ga = ha
    gb = hb
    for i in range(n_hist):
        if seat[i] != p:
            if seat[i] == a:
                ga |= ONE << np.uint64(trace[i])
            else:
                gb |= ONE << np.uint64(trace[i])
    played = np.uint64(0)
    on_table = np.uint64(0)
    mm = 0
    for i in range(n_hist):
        c = trace[i]
        bit = ONE << np.uint64(c)
        q = seat[i]
        k = i % 3
        if q != p:
            hq = ga if q == a else gb
            legal = legal_cards(hq, -1 if k == 0 else trace[i - k] >> 4, trump, must_trump)
            if legal & (legal - ONE):
                seen = played | hq | known_out | on_table
                if q == exch:
                    seen |= widow
                if heuristic_card(hq, legal, trace[i - k :], k, trump, misere, full & ~seen) != c:
                    mm += 1
                    if mm >= cap:
                        return mm
            if q == a:
                ga ^= bit
            else:
                gb ^= bit
        on_table |= bit
        if k == 2:
            played |= on_table
            on_table = np.uint64(0)
    return mm


@jit
def infer_layouts(p, h, unknown, void_a, void_b, n_a, n_b, trace, n_hist, leader0, trump, misere, must_trump,
                  known_out, exch, samples, st, ways, scratch, layouts):  # fmt: skip
    """pimc-infer's layouts: ``samples`` deals of the ``unknown`` cards (as :func:`sample_hidden`) among those in
    which the other two seats' cards so far (the hand's first ``n_hist``, ``trace``, the first trick led by
    ``leader0``) are the ones the heuristic would have chosen holding them: when the others play the heuristic,
    the posterior of the uniform deal given the card play (not given the choices made before it: round, trumps,
    discards), drawn by rejection. Draws stop once ``samples`` layouts match every card, or after
    ``samples * INFER_TRIES`` (at most INFER_MAX_TRIES); the layouts with the fewest mismatches are then taken,
    in the order drawn (then not the posterior: players who are not the heuristic still leave the likeliest
    layouts first). Writes
    ``layouts[:samples]`` (seat p gets ``h``); returns how many (0: no consistent deal)."""
    if not hidden_ways(unknown, void_a, void_b, n_a, n_b, ways):
        return 0
    a = (p + 1) % 3
    b = (p + 2) % 3
    seat = np.empty(max(n_hist, 1), dtype=np.int64)
    _history_seats(trace, n_hist, leader0, trump, seat)
    tries = min(samples * INFER_TRIES, INFER_MAX_TRIES)
    ca = np.empty(tries, dtype=np.uint64)
    cb = np.empty(tries, dtype=np.uint64)
    cm = np.empty(tries, dtype=np.int64)
    hist = np.zeros(INFER_CAP + 1, dtype=np.int64)  # candidates by their mismatches
    # counting stops at ``cap`` mismatches: once it is lowered (below), a candidate reaching it cannot be among
    # the layouts taken; at INFER_CAP, candidates with that many or more are taken last, in the order drawn
    cap = INFER_CAP
    t = 0
    while t < tries and hist[0] < samples:
        draw_hidden(unknown, void_a, void_b, n_a, n_b, st, ways, scratch)
        widow = unknown & ~(scratch[0] | scratch[1])
        m = _mismatches(p, scratch[0], scratch[1], widow, exch, trace, n_hist, seat, trump, misere, must_trump,
                        known_out, cap)  # fmt: skip
        ca[t] = scratch[0]
        cb[t] = scratch[1]
        cm[t] = m
        hist[m] += 1
        # the layouts taken are the ``samples`` with the fewest mismatches: once that many have fewer than ``cap``,
        # counting stops at the worst of them
        acc = 0
        for j in range(cap):
            acc += hist[j]
            if acc >= samples:
                cap = j + 1
                break
        t += 1
    n = 0
    for m in range(INFER_CAP + 1):
        for i in range(t):
            if cm[i] == m and n < samples:
                layouts[n, p] = h
                layouts[n, a] = ca[i]
                layouts[n, b] = cb[i]
                n += 1
        if n == samples:
            break
    return n


@jit_inline
def _binom(n, k):
    if k < 0 or k > n:
        return 0.0
    r = 1.0
    for i in range(k):
        r = r * (n - i) / (i + 1)
    return r


@jit
def _child_at_least(hands, p, trump, must_trump, leader, played, k, c, t, maxteam, countteam, ttk, ttg, bufs):
    """Whether seat ``p`` (to play the ``k``-th card of the trick) playing ``c`` leaves the count side at least
    ``t`` tricks, the current trick included (the question :func:`dd.card_values` asks of each card)."""
    bit = ONE << np.uint64(c)
    hands[p] ^= bit
    played[k] = c
    if k == 2:
        w = (leader + dd.trick_winner_pos(played, 3, trump)) % 3
        t -= (countteam >> w) & 1
        if t <= 0:
            ok = True
        elif t > popcount(hands[p]):
            ok = False
        else:
            # np.int64(0), not 0: a literal compiles the chain down to the search again (kernels/_jit.py)
            ok = dd.at_least(hands, 3, trump, must_trump, w, played, np.int64(0), t, maxteam, countteam, ttk, ttg, bufs)
    else:
        ok = dd.at_least(hands, 3, trump, must_trump, leader, played, k + 1, t, maxteam, countteam, ttk, ttg, bufs)
    hands[p] |= bit
    return ok


@jit
def best_card(layouts, n, p, leader, row, k, trump, must_trump, misere, legal, ttk, ttg, bufs):
    """The card of seat ``p`` with the most double-dummy tricks summed over the ``n`` layouts (the fewest in the
    misere), the lowest card among equals: the card that adding up every card's exact value in every layout
    (:func:`dd.card_values`) picks, found with fewer searches.

    Each card holds a bound per layout on its value, first the layout's value (the best card's: no card of p's
    makes more, in the misere fewer); ``tot`` sums them. The card leading on its bounds (the lowest among
    equals) has one of its inexact bounds tested by one search: either it is the value (exact) or the bound
    moves by a trick. Once the leading card is exact in every layout no other card can beat it, since their
    sums are bounds; a card that falls behind is never searched again, where adding up exact values would have
    searched every card to its value in every layout."""
    me = 1 << p
    maxteam = me if not misere else 7 ^ me
    played = np.zeros(4, dtype=np.int64)
    for i in range(k):
        played[i] = row[i]
    cards = np.zeros(16, dtype=np.int64)
    m = 0
    x = legal
    while x:
        low = x & (~x + ONE)
        x ^= low
        cards[m] = low_index(low)
        m += 1
    if m == 1:
        return cards[0]
    bound = np.zeros((m, n), dtype=np.int64)
    exact = np.zeros((m, n), dtype=np.bool_)
    tot = np.zeros(m, dtype=np.int64)
    # each layout's value, searched from the last layout's (layouts of one decision differ little; the first from
    # where dd.solve starts, dd.first_guess)
    most = popcount(layouts[0, p])  # p's tricks from here (the current trick included) are at most this
    v = dd.first_guess(layouts[0], 3, trump, leader, k, maxteam, me)
    for j in range(n):
        # a literal 3: the solver's chain is compiled for three hands only (dd.solve._search_for)
        v = dd.solve_near(layouts[j], 3, trump, must_trump, leader, played, k, maxteam, me, ttk, ttg, bufs, v)
        for i in range(m):
            bound[i, j] = v
            tot[i] += v
            # a bound at the end of the range is the value already: none below 0, none above ``most``
            exact[i, j] = v == (most if misere else 0)
    while True:
        lead = 0
        for i in range(1, m):
            if (tot[i] > tot[lead]) if not misere else (tot[i] < tot[lead]):
                lead = i
        j = 0
        while j < n and exact[lead, j]:
            j += 1
        if j == n:
            return cards[lead]
        b = bound[lead, j]
        if not misere:  # p maximises: b bounds the value from above
            if _child_at_least(layouts[j], p, trump, must_trump, leader, played, k, cards[lead], b, maxteam, me,
                               ttk, ttg, bufs):  # fmt: skip
                exact[lead, j] = True
            else:
                bound[lead, j] = b - 1
                tot[lead] -= 1
                exact[lead, j] = b - 1 == 0
        else:  # the others maximise p's tricks: b bounds them from below
            if _child_at_least(layouts[j], p, trump, must_trump, leader, played, k, cards[lead], b + 1, maxteam, me,
                               ttk, ttg, bufs):  # fmt: skip
                bound[lead, j] = b + 1
                tot[lead] += 1
                exact[lead, j] = b + 1 == most
            else:
                exact[lead, j] = True


# pimc-infer's sampler, compiled when a pimc-infer seat first plays (kernels/_extern.py)
infer_layouts_x = extern(infer_layouts, types.int64)


@jit
def choose_card(
    strat,
    p,
    hands,
    leader,
    row,
    k,
    trump,
    misere,
    must_trump,
    unseen_of_p,
    voids,
    known_out,
    samples,
    st_play,
    ttk,
    ttg,
    bufs,
    ways,
    scratch,
    trace,
    n_hist,
    leader0,
    exch,
):
    """The card of a solver player at seat ``p``: S_DD sees the layout, any other code samples it (S_PIMC, and
    S_SEARCH once its hand is small enough in rounds 1-3; S_PIMC_INFER by :func:`infer_layouts` from the hand's
    first ``n_hist`` cards, ``trace``, led first by ``leader0``; ``exch``: the seat that exchanged the widow, or
    -1). ``unseen_of_p``: the cards p has not seen; ``voids[q]``: suits q showed out of; ``samples``: the PIMC
    samples (deals of the hidden cards). ``play_hand`` handles forced cards, random and heuristic play and the
    heuristic opening of the solver players."""
    h = hands[p]
    led = -1 if k == 0 else row[0] >> 4
    legal = legal_cards(h, led, trump, must_trump)
    if strat == S_DD:
        layouts = np.zeros((1, 4), dtype=np.uint64)
        for s in range(4):  # element by element: a row assignment compiles numba's shape message
            layouts[0, s] = hands[s]
        # np.int64: a literal 1 would compile best_card once more (kernels/_jit.py)
        return best_card(layouts, np.int64(1), p, leader, row, k, trump, must_trump, misere, legal, ttk, ttg, bufs)
    # a sampled decision starts from an empty table (a new generation, at no cost): the entries of earlier
    # decisions' layouts are rarely found again, and a probe reads through a bucket of them (docs/performance.md)
    dd.clear_tt(ttk, ttg)
    a = (p + 1) % 3
    b = (p + 2) % 3
    n_a = popcount(hands[a])
    n_b = popcount(hands[b])
    unknown = unseen_of_p & ~known_out
    layouts = np.zeros((samples, 4), dtype=np.uint64)
    n = 0
    if strat == S_PIMC_INFER and n_hist > 0:
        n = infer_layouts_x(p, h, unknown, voids[a], voids[b], n_a, n_b, trace, n_hist, leader0, trump, misere,
                          must_trump, known_out, exch, samples, st_play, ways, scratch, layouts)  # fmt: skip
        if n == 0:
            return heuristic_card(h, legal, row, k, trump, misere, unseen_of_p)
        return best_card(layouts, n, p, leader, row, k, trump, must_trump, misere, legal, ttk, ttg, bufs)
    for _ in range(samples):
        if not sample_hidden(unknown, voids[a], voids[b], n_a, n_b, st_play, ways, scratch):
            continue
        layouts[n, p] = h
        layouts[n, a] = scratch[0]
        layouts[n, b] = scratch[1]
        n += 1
    if n == 0:
        return heuristic_card(h, legal, row, k, trump, misere, unseen_of_p)
    return best_card(layouts, n, p, leader, row, k, trump, must_trump, misere, legal, ttk, ttg, bufs)
