"""Double-dummy solver, the search: the stack's columns, the working buffers, arriving at a node (cut-offs and
the table probe) and the null-window alpha-beta loop over an explicit stack.
"""

from __future__ import annotations

from typing import NamedTuple

import numba
import numpy as np

from .._jit import borrowed, jit, jit_inline, prefetch
from ..bits import low_index, popcount
from .bounds import SIDE_QT, _quick_tricks, _side_rounds, _trump_tricks
from .cards import MAX_DEPTH, MAX_TRICKS, ONE, _seat, lane, trick_winner_pos
from .cutoffs import _loses_lead, _runs_short, _second_hand, _takes_trick
from .moves import _gen_moves, _with_skipped
from .table import META_BITS, _bucket, _lengths_key, _probe, _rel_key, _store, _top_cards

# the search stack's columns (one row per depth, :func:`_search`)
ST_LEADER = 0  # the seat that led the current trick


ST_TRICK = 1  # the trick's number (its cards are tricks[4t .. 4t + 3])


ST_IN_TRICK = 2  # cards played to the trick so far


ST_WON = 3  # tricks the count side has won so far


ST_NEXT = 4  # the next move to try (index into moves[d])


ST_N_MOVES = 5


ST_VALUE = 6  # the node's result so far (1: the max side makes the target)


ST_SEARCHED = 7  # 1 when the node was searched, not decided on arrival (only those are stored)


ST_FLOOR = 8  # 4 columns, one per suit: cards of the suit below this rank are not tried (one small card a suit)


ST_KILLER = 12  # the lead that last cut the search at this depth (kept from search to search)


ST_COLS = 13


# the solver's counters (Buffers.stats)
STAT_NODES = 0


STAT_TT_HITS = 1


STAT_CUTOFFS = 2  # positions decided on arrival by a bound (quick tricks, sure trumps, ...)


STAT_SEARCHES = 3  # null-window searches (at_least calls)


N_STATS = 4


class Buffers(NamedTuple):
    """The solver's working arrays (:func:`new_buffers`); one set per thread."""

    moves: np.ndarray  # (MAX_DEPTH, 16) candidate cards per depth, best first
    scores: np.ndarray  # (MAX_DEPTH, 16) their ordering scores
    keybuf: np.ndarray  # (MAX_DEPTH, 4) the relative-rank key per depth
    tricks: np.ndarray  # (MAX_TRICKS * 4,) trick t's cards at 4t .. 4t + 3
    stats: np.ndarray  # (N_STATS,) counters, STAT_*
    stack: np.ndarray  # (MAX_DEPTH, ST_COLS) the search stack, ST_*
    relevant: np.ndarray  # (MAX_DEPTH,) the cards whose ranks the result at each depth rests on
    skipped: np.ndarray  # (MAX_DEPTH,) cards left out as equivalent to a tried one


@jit
def new_buffers():
    moves = np.zeros((MAX_DEPTH, 16), dtype=np.int64)
    scores = np.zeros((MAX_DEPTH, 16), dtype=np.int64)
    keybuf = np.zeros((MAX_DEPTH, 4), dtype=np.uint64)
    tricks = np.zeros(MAX_TRICKS * 4, dtype=np.int64)
    stats = np.zeros(N_STATS, dtype=np.int64)
    stack = np.zeros((MAX_DEPTH, ST_COLS), dtype=np.int64)
    stack[:, ST_KILLER] = -1
    relevant = np.zeros(MAX_DEPTH, dtype=np.uint64)
    skipped = np.zeros(MAX_DEPTH, dtype=np.uint64)
    return Buffers(moves, scores, keybuf, tricks, stats, stack, relevant, skipped)


@jit_inline
def _enter(
    hands,
    nh,
    trump,
    must_trump,
    leader,
    k,
    won,
    target,
    maxteam,
    countteam,
    meta0,
    ttk,
    tmask,
    key,
    stats,
    relevant,
    d,
    row,
    at,
):
    """Cut-offs on arriving at a node: 1 (the max side makes it), 0 (it does not), or -1 (search on). When
    decided, ``relevant[d]`` gets the cards whose ranks the decision rests on (partition search)."""
    stats[STAT_NODES] += 1
    relevant[d] = np.uint64(0)
    allseats = (1 << nh) - 1
    if k != 0:
        # mid-trick: a trick that one side surely takes decides it when the count side needs one more trick,
        # or every trick left (both sides want tricks: not in a misère goal, where nobody does)
        if maxteam != countteam:
            return -1
        need = target - won
        if need == 1:
            ok, rel = _takes_trick(hands, nh, trump, row, at, k, leader, countteam)
            if ok:
                stats[STAT_CUTOFFS] += 1
                relevant[d] = rel
                return 1
        elif need == popcount(hands[leader]) + 1:
            ok, rel = _takes_trick(hands, nh, trump, row, at, k, leader, allseats & ~countteam)
            if ok:
                stats[STAT_CUTOFFS] += 1
                relevant[d] = rel
                return 0
        elif trump < 0 and k == 1:
            # second hand, no trumps: a side that surely takes this trick and then cashes enough rounds
            left = popcount(hands[leader]) + 1
            for x in range(2):
                wants = need if x == 0 else left - need + 1
                if wants <= 3:
                    ok, rel = _second_hand(
                        hands, nh, row, at, k, leader, countteam if x == 0 else allseats & ~countteam, wants
                    )
                    if ok:
                        stats[STAT_CUTOFFS] += 1
                        relevant[d] = rel
                        return 1 - x
        return -1
    remaining = popcount(hands[leader])
    if won >= target:
        return 1
    if won + remaining < target:
        return 0
    need = target - won
    _rel_key(hands, nh, key, d)
    meta = meta0 | np.uint64(leader)
    lenkey = _lengths_key(hands, nh)
    bucket = _bucket(lenkey, meta & META_BITS, key, d, nh, tmask)
    # the table is probed after the cut-offs below: its memory on the way meanwhile. A probe reads most of the
    # bucket's first eight slots, a cache line each: four are asked for, the hardware brings each line's neighbour
    for j in range(0, 8, 2):
        prefetch(ttk, bucket + j)
    # the leader's side surely loses the trick it leads: decides it when the count side needs one more trick
    # (leading from the other side) or every trick left (leading itself)
    counting = (countteam >> leader) & 1
    if maxteam == countteam and ((need == 1 and not counting) or (need == remaining and counting)):
        side = countteam if counting else allseats & ~countteam
        ok, rel = _loses_lead(hands, nh, trump, leader, side)
        if not ok:
            ok, rel = _runs_short(hands, nh, trump, side, remaining)
        if ok:
            stats[STAT_CUTOFFS] += 1
            relevant[d] = rel
            return 1 - counting
    if maxteam == countteam:
        # quick tricks: the leader's, and in bridge the leader's and a partner's together (``SIDE_QT``)
        side = (maxteam >> leader) & 1
        # the tricks that decide it: ``need`` for the max side on lead, one more than it can spare otherwise
        want = need if side else remaining - need + 1
        qt, used, info = _quick_tricks(hands, nh, trump, must_trump, leader, maxteam, want)
        if qt < want and SIDE_QT[nh]:
            for q in range(nh):
                if q == leader or ((maxteam >> q) & 1) != side:
                    continue
                # every card of both hands' rounds (the entry's among them): not fewer
                qt2, used2 = _side_rounds(hands, nh, trump, must_trump, leader, q, maxteam, used, info)
                if qt2 > qt:
                    qt, used = qt2, used2
        if qt >= need if side else remaining - qt < need:
            stats[STAT_CUTOFFS] += 1
            relevant[d] = used
            return side
        if trump >= 0:
            # sure trump tricks, whoever leads: enough for the max side, or for the other side to hold it below
            who, cards = _trump_tricks(hands, nh, trump, maxteam, need, remaining - need + 1)
            if who >= 0:
                stats[STAT_CUTOFFS] += 1
                relevant[d] = cards
                return who
    v, tm = _probe(ttk, bucket, lenkey, meta, key, d, nh, need)
    if v >= 0:
        stats[STAT_TT_HITS] += 1
        allh = np.uint64(0)
        for p in range(nh):
            allh |= hands[p]
        relevant[d] = _top_cards(allh, tm)
        return v
    return -1


@jit
def _search(
    hands,
    nh,
    trump,
    must_trump,
    leader0,
    k0,
    target,
    maxteam,
    countteam,
    meta0,
    ttk,
    tmask,
    moves,
    scores,
    keybuf,
    tricks,
    stats,
    st,
    relevant,
    skipped,
):
    """Whether the max side can make the count side win at least ``target`` tricks: a boolean alpha-beta
    search written as a loop over an explicit stack (numba cannot cache recursive functions). ``st`` holds,
    per depth: leader, trick number, cards in the trick, tricks won, move index, move count, result, whether
    the node was searched (not decided on arrival), per suit the rank below which cards are not tried, and
    the killer lead (kept from search to search);
    ``relevant[d]`` the cards whose ranks the result at depth d rests on. Arriving at a node, searching it
    and storing its result each happen at one place in the loop (each is inlined once: compile time). The
    buffers are used as borrowed views: no reference counting on them in the loop."""
    numba.literally(nh)  # compiled once for 3 hands and once for 4 (see at_least)
    hands, ttk, moves, scores, keybuf, tricks, stats, st, relevant, skipped = borrowed(
        (hands, ttk, moves, scores, keybuf, tricks, stats, st, relevant, skipped)
    )
    d = 0
    st[0, ST_LEADER] = leader0
    st[0, ST_TRICK] = 0
    st[0, ST_IN_TRICK] = k0
    st[0, ST_WON] = 0
    entering = True
    going_down = False
    v = 0
    while True:
        if entering:
            entering = False
            leader = st[d, ST_LEADER]
            k = st[d, ST_IN_TRICK]
            v = _enter(
                hands,
                nh,
                trump,
                must_trump,
                leader,
                k,
                st[d, ST_WON],
                target,
                maxteam,
                countteam,
                meta0,
                ttk,
                tmask,
                keybuf,
                stats,
                relevant,
                d,
                tricks,
                4 * st[d, ST_TRICK],
            )
            st[d, ST_SEARCHED] = 0
            if v < 0:
                q = _seat(leader + k, nh)
                st[d, ST_N_MOVES] = _gen_moves(
                    hands,
                    nh,
                    trump,
                    must_trump,
                    tricks,
                    4 * st[d, ST_TRICK],
                    k,
                    q,
                    maxteam,
                    countteam,
                    moves,
                    scores,
                    skipped,
                    d,
                    st[d, ST_KILLER],
                )
                st[d, ST_NEXT] = 0
                st[d, ST_VALUE] = 1 - ((maxteam >> q) & 1)
                st[d, ST_SEARCHED] = 1
                for j in range(ST_FLOOR, ST_FLOOR + 4):
                    st[d, j] = 0
                going_down = True
            else:
                going_down = False
            continue
        if going_down:
            leader = st[d, ST_LEADER]
            t = st[d, ST_TRICK]
            k = st[d, ST_IN_TRICK]
            i = st[d, ST_NEXT]
            while i < st[d, ST_N_MOVES] and (moves[d, i] & 15) < st[d, ST_FLOOR + (moves[d, i] >> 4)]:
                i += 1  # a small card that a tried small card of its suit stands for
            if i < st[d, ST_N_MOVES]:
                p = _seat(leader + k, nh)
                c = moves[d, i]
                st[d, ST_NEXT] = i + 1
                hands[p] ^= ONE << np.uint64(c)
                tricks[4 * t + k] = c
                if k == nh - 1:
                    w = _seat(leader + trick_winner_pos(tricks, nh, trump, 4 * t), nh)
                    nl, nt, nk, nw = w, t + 1, 0, st[d, ST_WON] + ((countteam >> w) & 1)
                else:
                    nl, nt, nk, nw = leader, t, k + 1, st[d, ST_WON]
                d += 1
                st[d, ST_LEADER] = nl
                st[d, ST_TRICK] = nt
                st[d, ST_IN_TRICK] = nk
                st[d, ST_WON] = nw
                entering = True
                continue
            # every move tried without a cut: the node keeps its default, resting on all children, and on the
            # ranks that made the skipped cards equivalent to the ones tried
            v = st[d, ST_VALUE]
            if skipped[d]:
                relevant[d] = _with_skipped(hands, nh, tricks, 4 * t, k, relevant[d], skipped[d])
            going_down = False
            continue
        # going up with value v from depth d: a searched node at a trick boundary stores its result first
        if st[d, ST_SEARCHED] and st[d, ST_IN_TRICK] == 0:
            leader = st[d, ST_LEADER]
            need = target - st[d, ST_WON]
            allh = np.uint64(0)
            for q in range(nh):
                allh |= hands[q]
            _store(
                ttk,
                _lengths_key(hands, nh),
                meta0 | np.uint64(leader),
                keybuf,
                d,
                nh,
                allh,
                relevant[d],
                1 - v,
                np.int8(need if v else need - 1),
                tmask,
            )
        if d == 0:
            return v == 1
        rel_child = relevant[d]
        d -= 1
        leader = st[d, ST_LEADER]
        k = st[d, ST_IN_TRICK]
        p = _seat(leader + k, nh)
        if k == nh - 1:
            # the move completed a trick: the winner's rank counted if a card of its suit lost to it
            at = 4 * st[d, ST_TRICK]
            wp = trick_winner_pos(tricks, nh, trump, at)
            wc = tricks[at + wp]
            for j in range(nh):
                if j != wp and (tricks[at + j] >> 4) == (wc >> 4):
                    rel_child |= ONE << np.uint64(wc)
                    break
        hands[p] |= ONE << np.uint64(moves[d, st[d, ST_NEXT] - 1])
        is_max = (maxteam >> p) & 1
        if (is_max and v == 1) or (not is_max and v == 0):
            st[d, ST_VALUE] = v
            if k == 0:
                st[d, ST_KILLER] = moves[d, st[d, ST_NEXT] - 1]  # the killer lead at this depth
            st[d, ST_NEXT] = st[d, ST_N_MOVES]  # cut: no more moves here; the result rests on this child alone
            relevant[d] = rel_child
            continue  # going up from d (storing it first if at a trick boundary)
        relevant[d] |= rel_child
        # one small card a suit: once a card below every relevant rank of its suit has failed, the other cards
        # of that suit below those ranks give the same result (they differ only in cards no result rests on)
        c = moves[d, st[d, ST_NEXT] - 1]
        cs = c >> 4
        if st[d, ST_FLOOR + cs] == 0:
            r = lane(relevant[d], cs)
            low = low_index(r) if r else 16
            if (c & 15) < low:
                st[d, ST_FLOOR + cs] = low
        going_down = True


def search_argtypes(nh: int) -> tuple:
    """The numba types :func:`_search` is called with by :func:`kernels.dd.solve.at_least` for ``nh`` hands (a
    constant there), so that a first run can compile it ahead in a helper (``kernels._extern.prefetch``); a test
    holds them to the types a solver run binds."""
    u1, u2 = numba.types.Array(numba.types.uint64, 1, "C"), numba.types.Array(numba.types.uint64, 2, "C")
    i1, i2 = numba.types.Array(numba.types.int64, 1, "C"), numba.types.Array(numba.types.int64, 2, "C")
    i, u = numba.types.int64, numba.types.uint64
    return (u1, numba.types.literal(nh), i, i, i, i, i, i, i, u, u2, u, i2, i2, u2, i1, i1, i2, u1, u1)
