"""Double-dummy solver, cut-offs: a trick one side surely takes, the second hand's cash-out in no trumps, a lead
that loses the lead, too few top cards for every trick left.
"""

from __future__ import annotations

import numpy as np

from .._jit import jit, jit_inline
from ..bits import high_index, popcount
from .bounds import _rounds
from .cards import LANE, ONE, _seat, lane, trick_winner_pos


@jit
def _takes_trick(hands, nh, trump, row, at, k, leader, side):
    """Whether the seats of ``side`` take the current trick (BM-4), ``row[at:at + k]`` played (k >= 1),
    however everybody plays: their best card of the led suit tops every card the others can still play to it
    and nobody else can ruff, or they have ruffed and nobody else can overruff, or one of them can ruff and
    nobody else can. Returns (1, the card whose rank that rests on, or 0) or (0, 0)."""
    ss = row[at] >> 4
    bp = trick_winner_pos(row, k, trump, at)  # the card winning so far
    best = row[at + bp]
    ours = (side >> _seat(leader + bp, nh)) & 1
    cross = trump >= 0 and ss != trump
    if cross and (best >> 4) == trump:
        # ruffed: sure if it is ours and no one else still to play can overruff (a player of the led suit
        # must follow, BM-4)
        if not ours:
            return 0, np.uint64(0)
        for j in range(k, nh):
            q = _seat(leader + j, nh)
            if not (side >> q) & 1 and lane(hands[q], ss) == 0:
                t = lane(hands[q], trump)
                if t and high_index(t) > (best & 15):
                    return 0, np.uint64(0)
        return 1, ONE << np.uint64(best)
    top = best if ours else -1
    theirs = -1 if ours else best
    we_ruff = False
    for j in range(k, nh):
        q = _seat(leader + j, nh)
        f = lane(hands[q], ss)
        if (side >> q) & 1:
            if f:
                top = max(top, ss * 16 + high_index(f))
            elif cross and lane(hands[q], trump):
                we_ruff = True
        elif f:
            theirs = max(theirs, ss * 16 + high_index(f))
        elif cross and lane(hands[q], trump):
            return 0, np.uint64(0)  # they can ruff
    if top > theirs:
        return 1, ONE << np.uint64(top)
    if we_ruff:
        return 1, np.uint64(0)
    return 0, np.uint64(0)


@jit
def _second_hand(hands, nh, row, at, k, leader, side, wants):
    """Whether the seats of ``side`` take ``wants`` tricks from here, in no trumps, mid-trick (BM-4): they surely
    take this one (:func:`_takes_trick`), and the hand that wins it, on lead, then cashes the rest (its rounds,
    :func:`_rounds`, counted with the cards of the hands still to play to this trick: they lose one card each
    first, which stops no round). DDS has such a cut-off for the second hand (QuickTricksSecondHand); at the third
    and fourth hands it costs more time than it saves. Returns (1, the cards it rests on) or (0, 0)."""
    ok, rel = _takes_trick(hands, nh, -1, row, at, k, leader, side)
    if not ok or not rel:
        return 0, np.uint64(0)
    hh = -1  # the winner: the holder of the card it rests on, or the seat that played it
    held = np.uint64(0)
    for q in range(nh):
        if hands[q] & rel:
            hh = q
            held = rel
    if hh < 0:
        for i in range(k):
            if ONE << np.uint64(row[at + i]) == rel:
                hh = _seat(leader + i, nh)
    hands[hh] ^= held
    qn, used, info = _rounds(hands, nh, -1, 0, hh, side)  # (no trumps: no ruffer, so no side to ask)
    hands[hh] ^= held
    if 1 + qn >= wants:
        return 1, rel | used
    return 0, np.uint64(0)


@jit_inline
def _loses_lead(hands, nh, trump, leader, side):
    """Whether the leader's side (``side``, the leader among it) loses the trick it leads however it plays (BM-4): in
    every suit the leader holds, the top card is the other side's, and in a side suit no partner of the leader
    can ruff it. Returns (1, the top cards it rests on) or (0, 0)."""
    allh = np.uint64(0)
    for p in range(nh):
        allh |= hands[p]
    rel = np.uint64(0)
    for s in range(4):
        if lane(hands[leader], s) == 0:
            continue
        topbit = ONE << np.uint64(16 * s + high_index(lane(allh, s)))
        for q in range(nh):
            if (side >> q) & 1:
                if hands[q] & topbit:
                    return 0, np.uint64(0)
                if trump >= 0 and s != trump and q != leader and lane(hands[q], s) == 0 and lane(hands[q], trump):
                    return 0, np.uint64(0)
        rel |= topbit
    return 1, rel


@jit_inline
def _runs_short(hands, nh, trump, side, remaining):
    """Whether the seats of ``side`` (the leader among them) fail to take every one of the ``remaining``
    tricks. Taking them all, they lead every trick, and never a suit whose top card the other side holds (its
    holder, following suit, may play it and win the trick: BM-4); each trick led in a suit takes a card of it
    from every hand of the side that holds one. So they take at most, in each suit whose top card they hold,
    as many tricks as their longest hand in it. With trumps left this holds for a side of one seat only (a
    partner may ruff a lead).
    Returns (1, the other side's top cards it rests on: those the bound needs, :func:`_fewer_tops`) or (0, 0).
    DDS has the same bound in no trumps ("later tricks")."""
    if trump >= 0 and side & (side - 1):
        for p in range(nh):
            if lane(hands[p], trump):
                return 0, np.uint64(0)
    allh = np.uint64(0)
    for p in range(nh):
        allh |= hands[p]
    room = 0
    lens = 0  # per suit, 8 bits: the side's longest hand in a suit whose top card it lacks
    rel = np.uint64(0)
    for s in range(4):
        x = lane(allh, s)
        if x == 0:
            continue
        topbit = ONE << np.uint64(16 * s + high_index(x))
        longest = 0
        ours = False
        for q in range(nh):
            if (side >> q) & 1:
                longest = max(longest, popcount(lane(hands[q], s)))
                if hands[q] & topbit:
                    ours = True
        if ours:
            room += longest
        else:
            rel |= topbit
            lens |= longest << (8 * s)
    if room < remaining:
        return 1, _fewer_tops(rel, lens, room, remaining)
    return 0, np.uint64(0)


@jit
def _fewer_tops(rel, lens, room, remaining):
    """Of the other side's top cards ``rel`` that :func:`_runs_short` rests on, those that keep the bound: a
    suit may go free (a position with the same lengths may give its top card to the side: at most the side's
    longest hand in it, ``lens``, more tricks), the shortest first."""
    for ln in range(14):
        for s in range(4):
            if lane(rel, s) and ((lens >> (8 * s)) & 255) == ln:
                if room + ln >= remaining:
                    return rel
                room += ln
                rel &= ~(LANE << np.uint64(16 * s))
    return rel
