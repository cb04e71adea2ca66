"""Double-dummy solver, bounds at a trick boundary: quick tricks (the leader's rounds, a partner's by an entry)
and sure trump tricks, each with the cards its bound rests on.
"""

from __future__ import annotations

import numpy as np

from .._jit import jit
from ..bits import high_index, popcount
from .cards import LANE, ONE, lane

# by hand count: whether quick tricks also count a partner's rounds (:func:`_side_rounds`): with 4 hands (a
# partnership) only; with 3 the extra work costs more than the nodes it saves
SIDE_QT = (False, False, False, False, True)


@jit
def _quick_tricks(hands, nh, trump, must_trump, leader, maxteam, want):
    """Tricks the leader can cash at once, leading a suit round after round from the top. Every other hand
    follows suit while it can (BM-4), and its best defence is to play its lowest cards and keep its top card:
    so the leader's r-th highest card wins the r-th round when it beats the top card of every other hand that
    holds r cards or more of the suit (a shorter holding has run out). The rounds count while they are won:
    a top sequence, then cards that an opponent's falling honour leaves on top (A K J 9 7 against Q 4 and
    T 5 3: five tricks; the top sequence alone counted two), then long cards. A partner counts as another
    hand (its top card above the leader's would take the lead away). Capped in a side suit by the length of
    every opponent who could ruff (with ``must_trump``, of every other player holding trumps: a partner forced
    to ruff takes the lead away); capped rounds are followed by every possible ruffer, so nobody who could
    ruff a later suit discards on the way. Returns (tricks, the cards used: per suit the leader's cards of the
    rounds that had another hand's card to beat, which is all the ranks the count rests on: the rest is
    lengths). With more than ``want`` tricks the cards are only those that ``want`` tricks rest on
    (:func:`_fewer_quick`); with fewer, ``info`` (per suit 8 bits: the tricks counted) lets a partner's
    rounds join them (:func:`_side_rounds`). Returns (tricks, cards, info)."""
    q, used, info = _rounds(hands, nh, trump, must_trump, leader, maxteam)
    if q > want:
        used = _fewer_quick(used, info, want)
    return q, used, info


@jit
def _rounds(hands, nh, trump, must_trump, leader, maxteam):
    """:func:`_quick_tricks` before trimming (it rests on following suit and the trick's winner, BM-4): (tricks,
    the cards used, per suit 8 bits: the tricks counted)."""
    side = (maxteam >> leader) & 1
    q = 0
    used = np.uint64(0)
    info = 0  # per suit, 8 bits: the tricks counted (the top cards they use are used's)
    for s in range(4):
        mine = lane(hands[leader], s)
        if mine == 0:
            continue
        # a hand of n cards of the suit whose top card is below the leader's a highest ones stops the rounds
        # after the a-th if a < n (its top card is still there then), and never otherwise
        t = popcount(mine)  # rounds won
        longest = 0
        for o in range(nh):
            if o != leader:
                lo = lane(hands[o], s)
                if lo:
                    n = popcount(lo)
                    a = popcount(mine >> np.uint64(high_index(lo) + 1))
                    if a < n:
                        t = min(t, a)
                    longest = max(longest, n)
        top = min(t, longest)  # the rounds that had another hand's card to beat
        if t and trump >= 0 and s != trump:
            for o in range(nh):
                if o != leader and (must_trump or ((maxteam >> o) & 1) != side) and lane(hands[o], trump) != 0:
                    lo = popcount(lane(hands[o], s))
                    if lo < t:
                        t = lo
        if t:
            x = mine
            n = popcount(mine)
            keep = min(t, top)
            while n > keep:  # the cards of the rounds that beat another hand's
                x &= x - ONE
                n -= 1
            used |= x << np.uint64(16 * s)
            info |= t << (8 * s)
        q += t
    return q, used, info


@jit
def _side_rounds(hands, nh, trump, must_trump, leader, q, maxteam, used_l, info_l):
    """Quick tricks of the leader and a partner ``q`` together: the leader cashes its rounds (``used_l``,
    ``info_l``: :func:`_rounds`) in some suits, then leads a suit in which the partner's first round is won
    (an entry: its top card, and nobody can ruff it), and the partner cashes its rounds in the others, each
    suit counted for whichever of the two wins more rounds in it, at most a trick a card. Sound for the same
    reasons as the leader's own rounds: the partner keeps the cards of its rounds and plays its others to the
    leader's rounds, which the cap on the count leaves enough of (the leader cashing fewer); opponents who
    could ruff follow every capped round, so they discard nothing (and keep the entry's suit); other discards
    only shorten holdings, which stops no round. Returns (tricks, the cards used) or (0, 0) without an
    entry."""
    qp, used_p, info_p = _rounds(hands, nh, trump, must_trump, q, maxteam)
    tot = 0
    used = np.uint64(0)
    entry = False
    for s in range(4):
        tl = (info_l >> (8 * s)) & 255
        tp = (info_p >> (8 * s)) & 255
        if tp > tl:
            tot += tp
            used |= used_p & (LANE << np.uint64(16 * s))
            if lane(hands[leader], s):
                entry = True
        else:
            tot += tl
            used |= used_l & (LANE << np.uint64(16 * s))
    if not entry:
        return 0, np.uint64(0)
    # the partner keeps the cards of its rounds and plays others to the leader's: so at most a trick a card
    # (the leader then cashes fewer rounds)
    return min(tot, popcount(hands[leader])), used


@jit
def _fewer_quick(used, info, want):
    """Of the quick tricks' cards ``used`` (per suit: the top cards of the tricks that ``info`` counts), the
    fewest that still make ``want`` tricks: suits taken whole, at most one of them in part (its top cards; the
    long cards count only with every card used). Every relevant card kept is one more owner that a
    stored bound asks of a position, and one more rank below which small cards are not equivalent."""
    best_cost = 99
    best_sub = 15
    best_u = -1
    best_r = 0
    for sub in range(16):
        tr = 0
        cost = 0
        for s in range(4):
            if (sub >> s) & 1:
                tr += (info >> (8 * s)) & 255
                cost += popcount(lane(used, s))
        if tr >= want:
            if cost < best_cost:
                best_cost, best_sub, best_u, best_r = cost, sub, -1, 0
            continue
        r = want - tr
        for u in range(4):
            if not (sub >> u) & 1 and ((info >> (8 * u)) & 255) > r:
                c = cost + min(r, popcount(lane(used, u)))
                if c < best_cost:
                    best_cost, best_sub, best_u, best_r = c, sub, u, r
    out = np.uint64(0)
    for s in range(4):
        x = lane(used, s)
        if (best_sub >> s) & 1:
            out |= x << np.uint64(16 * s)
        elif s == best_u:
            n = popcount(x)
            keep = min(best_r, n)
            while n > keep:  # its top cards: the lowest go
                x &= x - ONE
                n -= 1
            out |= x << np.uint64(16 * s)
    return out


@jit
def _trump_tricks(hands, nh, trump, side, want1, want0):
    """Trump tricks a side must take, whoever leads and however everyone plays. Every card is played by the
    end, one a trick from each hand, and a trick with a trump in it goes to its highest trump (BM-4): so a
    hand's i-th highest trump loses only to a higher trump of the other side played to the same trick, and
    each such card beats one of them at most; the hand's top i trumps take at least i minus the other side's
    trumps above its i-th (a partner's trump above it wins that trick for the side too). The best of that over
    a side's hands and i is a lower bound on its tricks: the top unbroken sequence of the side that holds the
    top trump is one case; a guarded second trump (K x against a lone A) is another, for either side.

    Walks the trumps from the top and returns, at the first card where it holds: (1, the trumps walked) when
    ``side``'s bound reaches ``want1``; (0, the trumps walked) when the other seats' reaches ``want0``; (-1, 0)
    when neither does. A position with the same suit lengths and owners of the trumps walked has the same
    bound (the cards walked are its top trumps)."""
    t = np.uint64(0)
    for p in range(nh):
        t |= lane(hands[p], trump)
    cnt = 0  # per hand, 8 bits: its trumps walked
    ours = 0  # trumps of ``side`` walked, and of the other seats
    theirs = 0
    x = t
    while x:
        b = ONE << np.uint64(high_index(x))
        x ^= b
        for p in range(nh):  # no break once the owner is found: the test of every hand unrolls
            if lane(hands[p], trump) & b:
                cnt += 1 << (8 * p)
                mine = (cnt >> (8 * p)) & 255
                if (side >> p) & 1:
                    ours += 1
                    if mine - theirs >= want1:
                        return 1, (t & ~(b - ONE)) << np.uint64(16 * trump)
                else:
                    theirs += 1
                    if mine - ours >= want0:
                        return 0, (t & ~(b - ONE)) << np.uint64(16 * trump)
    return -1, np.uint64(0)
