"""Zheng Shangyou kernels, the game loop: one game to the Loser (ZS-3, ZS-4, ZS-7), the score (ZS-8), the
loser's exchange and the next leader, and the simulation kernel with its count-row layout (``S_*``, ``M_*``).
"""

from __future__ import annotations

import numpy as np
from numba import types
from numba.extending import overload

from .. import rng
from .._extern import extern
from .._jit import JIT_OPTIONS, borrowed, chunk_jit, jit, jit_inline
from ..bits import copy_rows, nth_bit
from ..bits import high_index as _high_index
from ..bits import low_index as _low_index
from ..bits import popcount as _popcount
from ..bits import rank_bits as _rank_bits
from .classifier import _single_key, classify
from .layout import (
    K_BOMB,
    K_NONE,
    K_PAIR,
    K_SINGLE,
    K_STRAIGHT,
    K_TRIPLE,
    RED_JOKER,
    V_AUTO_RESTART,
    V_CURRENT,
    V_LATER_LEADER,
    V_LOSER_EXCHANGE,
    V_MIN_STRAIGHT,
    V_REVOLUTION,
    V_SCORE_TIMING,
    V_THREE_MULT,
    _next_seat,
    has_bomb,
    has_straight_flush,
)
from .leads import follow_same_kind, follow_straight, random_lead
from .moves import _no_bomb_or_straight_flush, _singles_above, add_card, make_scratch, moves_into, new_moves, take
from .players import (
    BOMB_STOP,
    G_BOMBS_PLAYED,
    G_CARDS_LEFT,
    G_FIELDS,
    G_HAS_BOMB,
    G_HAS_SF,
    G_HOLDS_3D,
    G_JOKERS,
    G_NEVER_PLAYED,
    G_PLACE,
    G_SCORE,
    G_SCORE_SQ,
    G_TWOS,
    G_WIN,
    MAX_PLAN,
    MAX_TURNS,
    POLICY_GREEDY,
    POLICY_PLANNING,
    POLICY_RANDOM,
    POLICY_SEARCH,
    _planning_play,
    _special,
    choose,
    deal_hands,
    plan_hand,
)

# The planning player and the random leader are reached through cells bound when such a seat first plays
# (kernels/_extern.py): a run of greedy and search seats (the search's rollouts included) compiles neither.
_planning_play_x = extern(_planning_play, types.UniTuple(types.uint64, 2))
plan_hand_x = extern(plan_hand, types.int64)
random_lead_x = extern(random_lead, types.uint64)


@jit
def _multiplier(P, c, never_played, zv):
    """ZS-8 multipliers: 4 players x3 never played, x2 with 10 or more, else x1; 3 players x3 never played,
    x2 from 12 cards, else x1 (variant literal_17: x3 only with 17 or more cards held)."""
    if P == 3:
        if zv[V_THREE_MULT] == 1:
            return 3 if c >= 17 else (2 if c >= 12 else 1)
        return 3 if never_played else (2 if c >= 12 else 1)
    return 3 if never_played else (2 if c >= 10 else 1)


@jit
def score_first_out(P, winner, counts, rec, zv):
    """ZS-8, at the moment the Winner goes out: every other player pays per card held (see
    :func:`_multiplier`), and the Winner gains the total. Uses rec's G_NEVER_PLAYED."""
    gain = 0
    for s in range(P):
        if s != winner:
            c = counts[s]
            mult = _multiplier(P, c, rec[s, G_NEVER_PLAYED], zv)
            rec[s, G_SCORE] = -c * mult
            rec[s, G_CARDS_LEFT] = c
            gain += c * mult
    rec[winner, G_SCORE] = gain


@jit
def play_game(P, hands, counts, leader, strat, st, rec, moves, scratch, zv):
    """:func:`_play_game` with every built-in player but search (flavour 1)."""
    return _play_game(P, hands, counts, leader, strat, st, rec, moves, scratch, zv, 1)


@jit_inline
def _play_game(P, hands, counts, leader, strat, st, rec, moves, scratch, zv, flavour):
    """Play one game from dealt ``hands[P, 2]`` (cards, dups) with ``leader`` to lead; fills
    ``rec[P, G_FIELDS]``; ``flavour`` as in :func:`_loop_for`.

    Returns (winner, loser). Scores are taken when the Winner goes out (ZS-8).
    """
    for s in range(P):
        for f in range(G_FIELDS):
            rec[s, f] = 0
        h = hands[s, 0]
        hd = hands[s, 1]
        rec[s, G_HOLDS_3D] = 1 if h & np.uint64(1) else 0
        rec[s, G_HAS_BOMB] = 1 if has_bomb(h, hd) else 0
        rec[s, G_HAS_SF] = 1 if has_straight_flush(h, zv[V_MIN_STRAIGHT]) else 0
        rec[s, G_JOKERS] = _popcount(h >> np.uint64(52)) + _popcount(hd >> np.uint64(52))
        rec[s, G_TWOS] = _popcount(_rank_bits(h, 12)) + _popcount(_rank_bits(hd, 12))
        rec[s, G_NEVER_PLAYED] = 1
    # np.int64, not plain constants: passed on while still literal, they would compile moves_into, beats and
    # _planning_play once more each for Literal[int](0) (kernels/_jit.py)
    zero = np.int64(0)
    # no event log: an empty int64 view (rec[:0]: no allocation, the same array type as a real log)
    return _loop_for(
        P, hands, counts, leader, np.int64(K_NONE), zero, zero, leader, zero, zero, np.int64(-1), zero,
        np.bool_(False), np.uint64(0), np.uint64(0), strat, st, rec, moves, scratch, zv, rec[:0], flavour,
    )  # fmt: skip


@jit
def play_on(
    P, hands, counts, turn, cur_kind, cur_len, cur_key, last, passes, place, winner, rev,
    forced, fplay, fdup, strat, st, rec, moves, scratch, zv, log,
):  # fmt: skip
    """:func:`_play_loop` with every built-in player but search (flavour 1), for calls from Python."""
    return _loop_for(
        P, hands, counts, turn, cur_kind, cur_len, cur_key, last, passes, place, winner, rev, forced, fplay, fdup,
        strat, st, rec, moves, scratch, zv, log, 1,
    )  # fmt: skip


# The play loop is compiled for a constant ``flavour`` (:func:`_loop_for`): which players' code it holds.
#   0: the greedy players only (greedy, greedy-hold, greedy-stop): most runs;
#   1: every built-in player but search (random, planning): the Python entry points play_game and play_on, and
#      the search's rollouts (greedy players; the greedy-only loop ran them slower, docs/performance.md);
#   2: every player, search included (the *_full_chunks kernels).
# The planning player, the random leader and the search are called through cells (kernels/_extern.py), compiled
# when such a seat first plays; flavours 1 and 2 hold the calls (and the planning player's buffers), flavour 0 not.
# A seat whose player the loop does not hold stops the run with a ValueError (the analysis layer picks the kernel).


def _search_hook(
    flavour, P, hands, counts, turn, cur_kind, cur_len, cur_key, last, passes, place, winner, rev, strat, st, rec,
    moves, scratch, zv, n,
):  # fmt: skip
    """The search player's action (kernels.zheng_shangyou.search), compiled in only where ``flavour`` is the
    constant 2. Compiled code only (see its overload)."""
    raise NotImplementedError


@overload(_search_hook, prefer_literal=True)
def _search_hook_overload(
    flavour, P, hands, counts, turn, cur_kind, cur_len, cur_key, last, passes, place, winner, rev, strat, st, rec,
    moves, scratch, zv, n,
):  # fmt: skip
    """``flavour`` a constant 2: the search (whose rollouts run :func:`_loop_for` with the constant 1, so numba
    never compiles a call cycle); otherwise a stub."""
    if isinstance(flavour, types.IntegerLiteral) and flavour.literal_value == 2:
        from .search import search_play_x

        def searching(flavour, P, hands, counts, turn, cur_kind, cur_len, cur_key, last, passes, place, winner, rev, strat, st, rec, moves, scratch, zv, n):  # fmt: skip
            return search_play_x(P, hands, counts, turn, cur_kind, cur_len, cur_key, last, passes, place, winner, rev, strat, st, rec, moves, scratch, zv, n)  # fmt: skip

        return searching

    def stub(flavour, P, hands, counts, turn, cur_kind, cur_len, cur_key, last, passes, place, winner, rev, strat, st, rec, moves, scratch, zv, n):  # fmt: skip
        return moves[0, 0], moves[0, 1]  # never reached: _check_players refused the search seat before the game

    return stub


def _check_players(flavour, P, strat):
    """Refuse (ValueError) a seat whose player the loop of this ``flavour`` does not hold. Compiled code only."""
    raise NotImplementedError


@overload(_check_players, prefer_literal=True)
def _check_players_overload(flavour, P, strat):
    # once a game, before the loop: a raise on the per-turn path slows the whole loop (docs/performance.md). The
    # rule is the analysis layer's (analysis.games.zheng_shangyou.needs_full): flavour 0 holds the greedy players
    # only, flavour 1 every player but search
    if not isinstance(flavour, types.IntegerLiteral) or flavour.literal_value == 2:
        return lambda flavour, P, strat: None
    if flavour.literal_value == 0:

        def check(flavour, P, strat):
            for s in range(P):
                if strat[s, 0] != POLICY_GREEDY:
                    raise ValueError(
                        "a random, planning or search seat needs the kernels with every player (*_full_chunks)"
                    )

    else:

        def check(flavour, P, strat):
            for s in range(P):
                if strat[s, 0] == POLICY_SEARCH:
                    raise ValueError("a search seat needs the kernels with the search player (*_full_chunks)")

    return check


def _make_play_loop(every):
    """The play loop with the random and planning players compiled in (``every``) or the greedy players only (a
    constant of the closure: numba prunes the branches before typing, and their code is never compiled)."""

    def _play_loop(
        P, hands, counts, turn, cur_kind, cur_len, cur_key, last, passes, place, winner, rev,
        forced, fplay, fdup, strat, st, rec, moves, scratch, zv, log, flavour,
    ):  # fmt: skip
        """Play a game on to its end from a state: ``hands[P, 2]`` and ``counts`` (0 for the seats out),
        ``turn`` to act, the play on the table (``cur_kind`` .. ``cur_key``, K_NONE on lead; ``last`` played it;
        ``passes`` since), ``place`` seats out so far, ``winner`` (-1 while nobody is out), ``rev`` (1 while a
        revolution is in force, variant 7). With ``forced``, the first action is ``(fplay, fdup)`` (0 = pass)
        instead of the player's choice. ``rec`` must hold each seat's G_NEVER_PLAYED; the rest is filled here.
        ``log`` (``[n, 3]`` int64, or an empty one): each turn's ``(seat, cards, dups)`` (0, 0 = a pass) in rows
        ``1 ..``, their number in ``log[0, 0]``; a game longer than the log keeps its first rows.

        ``flavour`` (a constant, 0 to 2) is which players' code is compiled in (:func:`_loop_for`).

        Returns (winner, loser). Scores are taken when the Winner goes out (ZS-8)."""
        _check_players(flavour, P, strat)
        # the planning players' buffers (one allocation, only when one plays): for seat s, rows [0, MAX_PLAN) of
        # pbuf[s] its plan, row MAX_PLAN the hand it was made for, row MAX_PLAN + 1 (column 0) its length;
        # pbuf[P] the plan maker's work area
        planners = 0
        for s in range(P):
            if strat[s, 0] == POLICY_PLANNING:
                planners = P + 1
        pbuf = np.zeros((planners, MAX_PLAN + 2, 2), dtype=np.uint64)
        # bit s: seat s's hand can make no bomb and no straight flush (once true it stays true as cards leave)
        plain = 0
        for s in range(P):
            if _no_bomb_or_straight_flush(hands[s, 0], hands[s, 1], zv):
                plain |= 1 << s
        active = 0
        for s in range(P):
            if counts[s] > 0:
                active += 1
        loser = -1
        for _ in range(MAX_TURNS):
            hand = hands[turn, 0]
            dup = hands[turn, 1]
            min_opp = np.int64(99)  # the fewest cards an opponent holds: only the players that look at it
            if strat[turn, 0] == POLICY_PLANNING or strat[turn, 1] == BOMB_STOP:
                for s in range(P):
                    if s != turn and counts[s] > 0 and counts[s] < min_opp:
                        min_opp = counts[s]
            play = np.uint64(0)  # 0 = pass
            pdup = np.uint64(0)
            single = -1  # the card, when the play is known to be a single (no classify needed)
            if forced:
                forced = False
                play = fplay
                pdup = fdup
            elif strat[turn, 0] == POLICY_SEARCH:
                n = moves_into(hand, dup, cur_kind, cur_len, cur_key, moves, scratch, zv, rev)
                if n > 0:
                    play, pdup = _search_hook(
                        flavour, P, hands, counts, turn, cur_kind, cur_len, cur_key, last, passes, place, winner, rev,
                        strat, st, rec, moves, scratch, zv, n,
                    )  # fmt: skip
            elif strat[turn, 0] == POLICY_PLANNING:
                if every:  # a closure constant: numba prunes the branch before typing where it is False
                    # each seat's plan is kept until its hand changes
                    mine = pbuf[turn]
                    if mine[MAX_PLAN, 0] != hand or mine[MAX_PLAN, 1] != dup or mine[MAX_PLAN + 1, 0] == 0:
                        mine[MAX_PLAN + 1, 0] = plan_hand_x(
                            hand, dup, mine[:MAX_PLAN], pbuf[P, :MAX_PLAN], zv[V_MIN_STRAIGHT]
                        )
                        mine[MAX_PLAN, 0] = hand
                        mine[MAX_PLAN, 1] = dup
                    play, pdup = _planning_play_x(
                        strat[turn, 2], hand, dup, counts[turn], cur_kind, cur_len, cur_key, moves, scratch, min_opp, zv,
                        mine[:MAX_PLAN], np.int64(mine[MAX_PLAN + 1, 0]), rev,
                    )  # fmt: skip
            elif cur_kind == K_SINGLE and rev == 0 and (plain >> turn) & 1:
                # following a single from a hand without bombs or straight flushes (most turns): the legal plays
                # are the higher singles, whose order as plays is the cards' order, so the random player's r-th
                # play is the r-th such card and the greedy player's cheapest the lowest (same draws as below)
                cand = _singles_above(hand, cur_key, zv)
                n = _popcount(cand)
                if n > 0:
                    k = rng.below(st, n + 1) - 1 if strat[turn, 0] == POLICY_RANDOM else 0
                    if k >= 0:
                        single = nth_bit(cand, k)
                        play = np.uint64(1) << np.uint64(single)
            elif (cur_kind == K_PAIR or cur_kind == K_TRIPLE) and rev == 0 and (plain >> turn) & 1 and dup == 0:
                # following a pair or three of a kind from such a hand: only higher plays of that kind (the
                # greedy player's cheapest is the first, as for singles)
                w = 2 if cur_kind == K_PAIR else 3
                n = np.int64(follow_same_kind(hand, w, cur_key, zv, -1))
                if n > 0:
                    k = rng.below(st, n + 1) - 1 if strat[turn, 0] == POLICY_RANDOM else 0
                    if k >= 0:
                        play = follow_same_kind(hand, w, cur_key, zv, k)
            elif cur_kind == K_STRAIGHT and rev == 0 and (plain >> turn) & 1 and dup == 0:
                # following a straight from such a hand: only higher straights of its length (greedy: the first)
                n = np.int64(follow_straight(hand, cur_len, cur_key, zv, -1))
                if n > 0:
                    k = rng.below(st, n + 1) - 1 if strat[turn, 0] == POLICY_RANDOM else 0
                    if k >= 0:
                        play = follow_straight(hand, cur_len, cur_key, zv, k)
            elif cur_kind == K_NONE and strat[turn, 0] == POLICY_RANDOM and dup == 0 and zv[V_CURRENT] == 0:
                # the random leader with a one-deck hand: count the plays, draw one, decode it (no list)
                if every:
                    play = random_lead_x(st, hand, zv)
                    if play & (play - np.uint64(1)) == 0 and rev == 0:
                        single = _low_index(play)  # a single in the normal order: its key is its code
            else:
                n = moves_into(hand, dup, cur_kind, cur_len, cur_key, moves, scratch, zv, rev)
                pick = -1
                if n > 0:
                    pick = choose(
                        st,
                        strat[turn, 0],
                        strat[turn, 1],
                        strat[turn, 2],
                        hand,
                        counts[turn],
                        cur_kind,
                        cur_len,
                        cur_key,
                        moves,
                        n,
                        min_opp,
                        zv,
                        rev,
                    )
                if cur_kind == K_NONE and pick < 0:
                    pick = 0  # a leader must play (cannot happen with a non-empty hand)
                if pick >= 0:
                    play = moves[pick, 0]
                    pdup = moves[pick, 1]
            if log.shape[0] > 0 and log[0, 0] + 1 < log.shape[0]:
                log[0, 0] += 1
                log[log[0, 0], 0] = turn
                log[log[0, 0], 1] = np.int64(play)
                log[log[0, 0], 2] = np.int64(pdup)
            if play:
                if single >= 0:
                    kind, length, key = K_SINGLE, 1, _single_key(single, zv)
                else:
                    kind, length, key = classify(play, pdup, zv, rev)
                if _special(kind):
                    rec[turn, G_BOMBS_PLAYED] += 1
                if zv[V_REVOLUTION] == 1 and kind == K_BOMB and length >= 4:
                    # variant 7: a four of a kind turns the rank order over until the next one or the game's end;
                    # the bomb on the table is read again in the new order. A bomb of three (triple_is_bomb) holds
                    # no four of a kind and leaves the order as it is
                    rev = 1 - rev
                    kind, length, key = classify(play, pdup, zv, rev)
                hands[turn, 0], hands[turn, 1] = take(hand, dup, play, pdup)
                if not (plain >> turn) & 1 and _no_bomb_or_straight_flush(hands[turn, 0], hands[turn, 1], zv):
                    plain |= 1 << turn
                counts[turn] -= length
                rec[turn, G_NEVER_PLAYED] = 0
                cur_kind = kind
                cur_len = length
                cur_key = key
                last = turn
                passes = 0
                if counts[turn] == 0:
                    place += 1
                    rec[turn, G_PLACE] = place
                    active -= 1
                    if winner < 0:
                        winner = turn
                        if zv[V_SCORE_TIMING] == 0:
                            score_first_out(P, turn, counts, rec, zv)
                    if active == 1:
                        for s in range(P):
                            if counts[s] > 0:
                                loser = s
                                rec[s, G_PLACE] = P
                        if zv[V_SCORE_TIMING] == 1:
                            # variant at_end: only the Loser still holds cards, and pays the Winner
                            mult = _multiplier(P, counts[loser], rec[loser, G_NEVER_PLAYED], zv)
                            rec[loser, G_SCORE] = -counts[loser] * mult
                            rec[loser, G_CARDS_LEFT] = counts[loser]
                            rec[winner, G_SCORE] = counts[loser] * mult
                        break
                # variant 9: the red joker single, or a pair of twos with the 2 of spades, ends the trick at once
                if zv[V_AUTO_RESTART] == 1 and (
                    (kind == K_SINGLE and key == RED_JOKER) or (kind == K_PAIR and key == 12 * 4 + 3)
                ):
                    passes = P
            else:
                passes += 1
            # ZS-4: the trick ends when every other player still holding cards has passed in a row
            need = active - (1 if counts[last] > 0 else 0)
            if passes >= need:
                cur_kind = K_NONE
                cur_len = 0
                cur_key = 0
                passes = 0
                turn = last
                if counts[turn] == 0:  # the last player went out: the next player with cards leads
                    turn = _next_seat(turn, P)
                    while counts[turn] == 0:
                        turn = _next_seat(turn, P)
                continue
            turn = _next_seat(turn, P)
            while counts[turn] == 0:
                turn = _next_seat(turn, P)
        rec[winner, G_WIN] = 1
        for s in range(P):
            rec[s, G_SCORE_SQ] = rec[s, G_SCORE] * rec[s, G_SCORE]
        return winner, loser

    return _play_loop


_play_loop = _make_play_loop(True)
_play_loop_greedy = _make_play_loop(False)


def _loop_for(
    P, hands, counts, turn, cur_kind, cur_len, cur_key, last, passes, place, winner, rev,
    forced, fplay, fdup, strat, st, rec, moves, scratch, zv, log, flavour,
):  # fmt: skip
    """The play loop (:func:`_play_loop`) for the constant ``flavour``: 0 with the greedy players only, 1 with
    every built-in player but search, 2 with every player (the comment above :func:`_search_hook`). Compiled code
    only (see its overload)."""
    raise NotImplementedError


@overload(_loop_for, prefer_literal=True, jit_options=JIT_OPTIONS)
def _loop_for_overload(
    P, hands, counts, turn, cur_kind, cur_len, cur_key, last, passes, place, winner, rev,
    forced, fplay, fdup, strat, st, rec, moves, scratch, zv, log, flavour,
):  # fmt: skip
    """The loop itself is the implementation, compiled once per constant: not a wrapper around a dispatcher of
    its own, which LLVM optimized and numba compiled to machine code once more with the whole loop in it (2 s of
    every cold first run). Overload implementations are not cached apart: the compiled callers hold them."""
    if isinstance(flavour, types.IntegerLiteral) and flavour.literal_value in (1, 2):
        return _play_loop
    if isinstance(flavour, types.IntegerLiteral) and flavour.literal_value == 0:
        return _play_loop_greedy
    return None


@jit_inline
def _remove_card(hands, s, c):
    """Take one card of code ``c`` out of seat ``s``'s hand (a doubled card keeps its other copy)."""
    hands[s, 0], hands[s, 1] = take(hands[s, 0], hands[s, 1], np.uint64(1) << np.uint64(c), np.uint64(0))


@jit
def loser_exchange(hands, winner, loser, mode):
    """Variant 8 before a later game: the Loser gives their highest single to the Winner; then (offer_two) the
    Winner offers their two lowest cards and the Loser takes the higher, or (winner_gives_one) the Winner
    gives their lowest card. Card order is the single order (ZS-2): the code, jokers highest; with two decks
    a doubled card is two cards of that order."""
    if mode == 0 or winner == loser:
        return
    top = _high_index(hands[loser, 0])
    _remove_card(hands, loser, top)
    hands[winner, 0], hands[winner, 1] = add_card(hands[winner, 0], hands[winner, 1], top)
    low = _low_index(hands[winner, 0])
    give = low
    if mode == 1:
        if not (hands[winner, 1] >> np.uint64(low)) & np.uint64(1):
            give = _low_index(hands[winner, 0] & ~(np.uint64(1) << np.uint64(low)))
        # the Loser takes the higher of the two offered (a doubled lowest card: the same card)
    _remove_card(hands, winner, give)
    hands[loser, 0], hands[loser, 1] = add_card(hands[loser, 0], hands[loser, 1], give)


@jit
def first_leader(P, hands):
    """ZS-3: the holder of the 3 of diamonds (code 0) leads the first game; if it was left over (3 players,
    52 cards), the holder of the lowest card does [OURS]. Two decks: of two holders, the first from seat 0
    (the first game's dealer) clockwise [OURS]."""
    for c in range(54):
        for s in range(P):
            if (hands[s, 0] >> np.uint64(c)) & np.uint64(1):
                return s
    return 0


# count row layout of the simulation kernel: per seat S_FIELDS, then per-game fields
S_WIN = 0
S_SCORE = 1
S_SCORE_SQ = 2
S_HOLDS_3D = 3
S_WIN_3D = 4
S_SCORE_3D = 5
S_SCORE_SQ_3D = 6
S_PLACES = 7  # P slots would vary; 8 slots reserved (places 1..8)
S_FEATURE = 15  # 4 features x (n, wins): bomb, straight flush, red joker, two or more twos
S_WIN_SCORE = 23  # the Winner's gain (sum and sum of squares), in the games this seat won
S_WIN_SCORE_SQ = 24
S_MATCH_SCORE = 25  # the seat's total over a match (sum and sum of squares, one term a match)
S_MATCH_SCORE_SQ = 26
S_MATCH_TOP = 27  # matches this seat ended alone on the highest total
S_FIELDS = 28
SCORE_BINS = 201  # histogram of per-seat game scores, offset by 100 (clipped)
M_GAMES = 0
M_TURNS = 1
M_FIELDS = 2


def counts_width(players: int) -> int:
    return players * S_FIELDS + SCORE_BINS + M_FIELDS


@jit
def _accumulate_game(row, P, rec, hands0):
    for s in range(P):
        b = s * S_FIELDS
        row[b + S_WIN] += rec[s, G_WIN]
        row[b + S_SCORE] += rec[s, G_SCORE]
        row[b + S_SCORE_SQ] += rec[s, G_SCORE_SQ]
        if rec[s, G_HOLDS_3D]:
            row[b + S_HOLDS_3D] += 1
            row[b + S_WIN_3D] += rec[s, G_WIN]
            row[b + S_SCORE_3D] += rec[s, G_SCORE]
            row[b + S_SCORE_SQ_3D] += rec[s, G_SCORE_SQ]
        if rec[s, G_WIN]:
            row[b + S_WIN_SCORE] += rec[s, G_SCORE]
            row[b + S_WIN_SCORE_SQ] += rec[s, G_SCORE_SQ]
        pl = rec[s, G_PLACE]
        if 1 <= pl <= 8:
            row[b + S_PLACES + pl - 1] += 1
        feats = (
            rec[s, G_HAS_BOMB],
            rec[s, G_HAS_SF],
            1 if (hands0[s, 0] >> np.uint64(53)) & np.uint64(1) else 0,
            1 if rec[s, G_TWOS] >= 2 else 0,
        )
        for f in range(4):
            if feats[f]:
                row[b + S_FEATURE + 2 * f] += 1
                row[b + S_FEATURE + 2 * f + 1] += rec[s, G_WIN]
        sc = min(max(rec[s, G_SCORE] + 100, 0), SCORE_BINS - 1)
        row[P * S_FIELDS + sc] += 1
    row[P * S_FIELDS + SCORE_BINS + M_GAMES] += 1


@chunk_jit
def simulate_chunks(chunk_ids, chunk_size, n_trials, key0, key1, P, deck, n_deal, strat, games_per_match, zv, out):
    """The driver's kernel: each trial is a match of ``games_per_match`` games (1 = one game, ZS-7).

    The first game's dealer is seat 0 and the 3 of diamonds leads; later games are dealt by the Loser
    and led by the previous Winner (variant ``later_game_leader``: the 3 of diamonds, the dealer, or the
    dealer's left). The greedy players only (flavour 0; any other seat: :func:`simulate_full_chunks`).
    """
    for ci in range(chunk_ids.shape[0]):
        _simulate_chunk(chunk_ids[ci], chunk_size, n_trials, key0, key1, P, deck, n_deal, strat, games_per_match, zv,
                        out[ci], 0)  # fmt: skip


@chunk_jit
def simulate_full_chunks(
    chunk_ids, chunk_size, n_trials, key0, key1, P, deck, n_deal, strat, games_per_match, zv, out
):  # fmt: skip
    """:func:`simulate_chunks` with every player compiled in (flavour 2: random, planning, search)."""
    for ci in range(chunk_ids.shape[0]):
        _simulate_chunk(chunk_ids[ci], chunk_size, n_trials, key0, key1, P, deck, n_deal, strat, games_per_match, zv,
                        out[ci], 2)  # fmt: skip


@jit_inline
def _simulate_chunk(c, chunk_size, n_trials, key0, key1, P, deck, n_deal, strat, games_per_match, zv, row, flavour):
    """Chunk ``c`` into its count row; ``flavour`` as in :func:`_loop_for`."""
    start = c * chunk_size
    stop = min(start + chunk_size, n_trials)
    hands = np.zeros((P, 2), dtype=np.uint64)
    hands0 = np.zeros((P, 2), dtype=np.uint64)
    counts = np.zeros(P, dtype=np.int64)
    rec = np.zeros((P, G_FIELDS), dtype=np.int64)
    moves = new_moves()
    scratch = make_scratch()
    d = deck.copy()
    st_deal = rng.new_state()
    st_play = rng.new_state()
    total = np.zeros(P, dtype=np.int64)
    _simulate_range(
        start, stop, key0, key1, P, deck, n_deal, strat, games_per_match, zv, row,
        (hands, hands0, counts, rec, moves, scratch, d, st_deal, st_play, total), flavour,
    )  # fmt: skip


@jit
def _simulate_range(start, stop, key0, key1, P, deck, n_deal, strat, games_per_match, zv, row, bufs, flavour):
    """Trials ``start .. stop-1`` of :func:`simulate_chunks` into one count row, on borrowed views of the
    arguments: no reference counting in the loop (kernels._jit.borrowed)."""
    deck, strat, zv, row, bufs = borrowed((deck, strat, zv, row, bufs))
    hands, hands0, counts, rec, moves, scratch, d, st_deal, st_play, total = bufs
    for t in range(start, stop):
        rng.seed_state(st_deal, key0, key1, np.uint64(t), np.uint64(rng.STREAM_DEAL))
        rng.seed_state(st_play, key0, key1, np.uint64(t), np.uint64(rng.STREAM_STRATEGY))
        dealer = np.int64(0)  # not a literal 0: deal_hands would compile once more for it
        leader = -1
        total[:] = 0
        for g in range(games_per_match):
            copy_rows(d, deck)
            deal_hands(st_deal, P, dealer, d, hands, counts, n_deal)
            copy_rows(hands0, hands)
            if g > 0:
                loser_exchange(hands, leader, dealer, zv[V_LOSER_EXCHANGE])
            rule = zv[V_LATER_LEADER]
            if leader < 0 or rule == 1:
                leader = first_leader(P, hands)
            elif rule == 2:
                leader = dealer
            elif rule == 3:
                leader = (dealer + 1) % P
            winner, loser = _play_game(P, hands, counts, leader, strat, st_play, rec, moves, scratch, zv, flavour)
            _accumulate_game(row, P, rec, hands0)
            for s in range(P):
                total[s] += rec[s, G_SCORE]
            dealer = loser
            leader = winner
        _accumulate_match(row, P, total)


@jit
def _accumulate_match(row, P, total):
    """A match's totals into the count row: each seat's total score, its square, and the seat (if one) that
    ended alone on the highest total. With one game a match these repeat the game's score and winner-by-score."""
    top = total[0]
    n_top = 0
    for s in range(P):
        b = s * S_FIELDS
        row[b + S_MATCH_SCORE] += total[s]
        row[b + S_MATCH_SCORE_SQ] += total[s] * total[s]
        if total[s] > top:
            top = total[s]
    for s in range(P):
        if total[s] == top:
            n_top += 1
    if n_top == 1:
        for s in range(P):
            if total[s] == top:
                row[s * S_FIELDS + S_MATCH_TOP] += 1


@jit
def record_game(key0, key1, trial, P, deck, n_deal, strat, zv, hands0, log):
    """One game with its event log: the first game of trial ``trial`` of :func:`simulate_chunks` (the same
    deal, leader and draws), its dealt hands in ``hands0[P, 2]`` and each turn in ``log`` (:func:`play_on`).
    Returns (leader, winner, loser). The greedy players only (any other seat: :func:`record_full_game`)."""
    return _record_game(key0, key1, trial, P, deck, n_deal, strat, zv, hands0, log, 0)


@jit
def record_full_game(key0, key1, trial, P, deck, n_deal, strat, zv, hands0, log):
    """:func:`record_game` with every player compiled in (:func:`simulate_full_chunks`' first game)."""
    return _record_game(key0, key1, trial, P, deck, n_deal, strat, zv, hands0, log, 2)


@jit_inline
def _record_game(key0, key1, trial, P, deck, n_deal, strat, zv, hands0, log, flavour):
    st_deal = rng.new_state()
    st_play = rng.new_state()
    rng.seed_state(st_deal, key0, key1, np.uint64(trial), np.uint64(rng.STREAM_DEAL))
    rng.seed_state(st_play, key0, key1, np.uint64(trial), np.uint64(rng.STREAM_STRATEGY))
    d = deck.copy()
    hands = np.zeros((P, 2), dtype=np.uint64)
    counts = np.zeros(P, dtype=np.int64)
    deal_hands(st_deal, P, np.int64(0), d, hands, counts, n_deal)
    copy_rows(hands0, hands)
    leader = first_leader(P, hands)
    rec = np.zeros((P, G_FIELDS), dtype=np.int64)
    for s in range(P):
        rec[s, G_NEVER_PLAYED] = 1
    log[0, 0] = 0
    zero = np.int64(0)
    winner, loser = _loop_for(
        P, hands, counts, leader, np.int64(K_NONE), zero, zero, leader, zero, zero, np.int64(-1), zero,
        np.bool_(False), np.uint64(0), np.uint64(0), strat, st_play, rec, new_moves(), make_scratch(), zv, log, flavour,
    )  # fmt: skip
    return leader, winner, loser
