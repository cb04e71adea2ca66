"""Bismarck kernels, one hand: the deal with the round type, trumps and the widow (BM-2, BM-3, BM-5), the 16
tricks (BM-4) and the hand's record, and the solver state and buffers a thread keeps.
"""

from __future__ import annotations

import numpy as np
from numba import types

from .. import dd, rng
from .._extern import extern
from .._jit import jit, jit_inline
from ..bits import low_index, nth_bit, popcount
from ..dd import LANE, ONE, lane, legal_cards
from .layout import (
    ALL_ROUNDS,
    BASE_FEAT,
    DECK,
    FEAT_FIELDS,
    H_FIELDS,
    H_HCP,
    H_SCORE,
    H_TRICKS,
    H_TRUMPS,
    H_VOIDS,
    N_HCP,
    P_BUDGET,
    P_EXPLORE,
    P_PIMC_FROM,
    P_SAMPLES,
    R_HIST,
    R_MADE,
    R_N,
    R_SCORE,
    R_SCORE_SQ,
    R_TRICKS,
    R_TRICKS_SQ,
    ROLE_FIELDS,
    S_HEURISTIC,
    S_PIMC,
    S_PIMC_INFER,
    S_RANDOM,
    S_SEARCH,
    SPADER,
    SPADES,
    V_MUST_TRUMP,
    V_ROUND2,
    V_ROUND3,
    V_RULESET,
    V_WIDOW,
    VALFRI,
)
from .pimc import choose_card
from .players import SEEN_HAND, SEEN_NOTHING, SEEN_WIDOW, choose_round, discard, heuristic_card, name_trump
from .rules import _follow, hand_score, hcp, made_quota, trick_winner, trick_winner_of
from .search import search_card

# The solver players are reached through cells bound on a run's first call (kernels/_extern.py): a run compiles the
# players it uses, and the hand loops above them do not carry their code (the double-dummy search) again.
search_card_x = extern(search_card, types.int64)
choose_card_x = extern(choose_card, types.int64)


@jit_inline
def deal_hand(st_deal, deck, hands, rtype, dealer, bv, strat, st_plays, out):
    """:func:`deal_round` for a given round type: returns (trump, known_out)."""
    rtype, trump, known_out = deal_round(st_deal, deck, hands, rtype, ALL_ROUNDS, dealer, bv, strat, st_plays, out)
    return trump, known_out


@jit_inline
def deal_round(st_deal, deck, hands, rtype, remaining, dealer, bv, strat, st_plays, out):
    """Shuffle, choose trumps (BM-5), deal 16 each (BM-2), the optional widow exchange. Returns
    (round type, trump, known_out): known_out = the round-2 indicator when it is out of play (public). The
    exchanging seat's discards are written to ``out[0]`` (known to it only). ``deck`` (52 ints) is laid out here:
    the card codes of :data:`DECK` in order, then shuffled (codes, not 0..51, so a hand is one shift a card and
    no division by 13).

    ``rtype < 0``: the round type is chosen among ``remaining`` (:func:`choose_round`). With the blog's rules
    (``fixed_round_order = false``, 3(c)9) the dealer chooses when it names round-3 trumps: before the deal,
    blind (``round3_trump_timing = before_deal``), or after seeing its hand. Swedish Bismarck (3(c)10): the 4
    leftover cards are face up, forehand (the dealer's left) chooses the contract from them (naming trumps in
    Valfri), takes them and discards 4."""
    for i in range(52):  # element by element: an array assigned to a slice compiles numba's shape message
        deck[i] = DECK[i]
    # the loop, not an unrolled shuffle: that compiled seconds longer in every cold first run for a few per cent
    # of throughput (docs/performance.md)
    rng.partial_shuffle(st_deal, deck, 52)
    trump = -1
    swedish = bv[V_RULESET] == 1
    fore = (dealer + 1) % 3
    leftover = np.uint64(0)  # the 4 cards left after the deal (Swedish: face up, the widow)
    for i in range(48, 52):
        leftover |= ONE << np.uint64(deck[i])
    if swedish:
        if rtype < 0:
            rtype = choose_round(leftover, remaining, SEEN_WIDOW, strat[fore], st_plays[fore])
        if rtype == SPADER:
            trump = SPADES
        elif rtype == VALFRI:
            trump = name_trump(leftover, strat[fore], st_plays[fore])
    elif bv[V_ROUND3] == 0:
        if rtype < 0:  # 3(c)9 with blind trumps: the round is chosen before the deal too
            rtype = choose_round(np.uint64(0), remaining, SEEN_NOTHING, strat[dealer], st_plays[dealer])
        if rtype == 2:
            # round 3: named by the dealer; blind (before the deal) is a draw from the dealer's own stream
            trump = rng.below(st_plays[dealer], 4)
    for j in range(3):  # 16 cards each, the dealer's left first (in a register, not memory)
        h = np.uint64(0)
        for i in range(16 * j, 16 * j + 16):
            h |= ONE << np.uint64(deck[i])
        hands[(dealer + 1 + j) % 3] = h
    if rtype < 0:  # 3(c)9, the dealer having seen its hand
        rtype = choose_round(hands[dealer], remaining, SEEN_HAND, strat[dealer], st_plays[dealer])
    known_out = np.uint64(0)
    if rtype == 1 and not swedish:
        if bv[V_ROUND2] == 0:
            c = deck[48]  # drawn blind from the leftover, shown, out
            trump = c >> 4
            known_out = ONE << np.uint64(c)
            leftover ^= known_out
        else:
            j = rng.below(st_deal, 52)  # cut from the pack, then dealt as usual
            trump = deck[j] >> 4
    if rtype == 2 and bv[V_ROUND3] == 1 and not swedish:
        trump = name_trump(hands[dealer], strat[dealer], st_plays[dealer])
    out[0] = np.uint64(0)
    if bv[V_WIDOW] != 0:
        ex = dealer if bv[V_WIDOW] == 1 else fore  # the dealer, or forehand (swedish)
        n = popcount(leftover)
        h, thrown = discard(hands[ex] | leftover, n, trump, rtype == 3, strat[ex], st_plays[ex])
        hands[ex] = h
        out[0] = thrown
    return rtype, trump, known_out


@jit_inline
def _random_follow(hands, p, led_lane, st_plays):
    """A random seat's card when ``led_lane`` (the led suit's lane mask; 0 on lead) was led: a uniform draw
    among the legal cards, following suit if able (BM-4)."""
    h = hands[p]
    f = h & led_lane
    legal = f if f != 0 else h
    c = nth_bit(legal, rng.pool_choice(st_plays[p], popcount(legal)))
    hands[p] = h ^ (ONE << np.uint64(c))
    return c


@jit_inline
def _random_tricks(hands, leader, trump, st_plays, rec, trace):
    """The 16 tricks (BM-4) of :func:`_play_hand` when all three seats play random legal cards and must-trump
    (3(c)6) is off: the same draws and cards, with the trick in registers and none of the bookkeeping the other
    players need (seen cards, voids): random hands ~1.15M -> ~1.23M/s back to back."""
    for t in range(16):
        p1 = leader + 1 if leader < 2 else 0
        p2 = p1 + 1 if p1 < 2 else 0
        c0 = _random_follow(hands, leader, np.uint64(0), st_plays)
        led_lane = LANE << np.uint64(c0 & 48)
        c1 = _random_follow(hands, p1, led_lane, st_plays)
        c2 = _random_follow(hands, p2, led_lane, st_plays)
        trace[3 * t] = c0
        trace[3 * t + 1] = c1
        trace[3 * t + 2] = c2
        leader = trick_winner_of(c0, c1, c2, leader, trump)
        rec[leader, H_TRICKS] += 1


def _make_play_hand(solvers):
    """:func:`_play_hand`, with the search and solver players (``solvers``) or without them (their code is never
    compiled: see :func:`_make_tricks_from`)."""

    def _play_hand(
        hands,
        dealer,
        rtype,
        trump,
        known_out,
        widow_out,
        strat,
        pv,
        bv,
        st_plays,
        ttk,
        ttg,
        bufs,
        ways,
        scratch,
        rec,
        trace,
    ):
        """Play 16 tricks (BM-4); ``rec[seat]`` gets tricks, score and hand features, ``trace`` the 48 cards in
        the order played (``trace[48:]`` is scratch space: the current trick and the seats' voids). ``widow_out``:
        the cards the widow exchange discarded, which only the exchanging seat knows (:func:`deal_round`)."""
        for s in range(3):
            rec[s, H_TRICKS] = 0
            rec[s, H_HCP] = hcp(hands[s])
            rec[s, H_TRUMPS] = popcount(lane(hands[s], trump)) if trump >= 0 else -1
            v = 0
            for q in range(4):
                v += lane(hands[s], q) == 0
            rec[s, H_VOIDS] = v
        solver = False
        for s in range(3):
            solver |= strat[s] >= S_PIMC
            if strat[s] == S_RANDOM:  # random seats draw from pools: the same draws, computed ahead
                rng.pool_fill(st_plays[s])
        if solver and solvers:
            dd.clear_tt(ttk, ttg)  # the solver's entries of earlier hands (other deals) count as empty
        played = np.uint64(0)
        for i in range(52, 55):  # the seats' voids (a loop: a slice assignment compiles an error path, seconds)
            trace[i] = 0
        leader = (dealer + 1) % 3
        n_played = 0
        if not bv[V_MUST_TRUMP] and strat[0] == S_RANDOM and strat[1] == S_RANDOM and strat[2] == S_RANDOM:
            _random_tricks(hands, leader, trump, st_plays, rec, trace)
            n_played = 48  # the general loop is skipped
        if solvers:
            _tricks_from(
                hands, dealer, rtype, trump, known_out, widow_out, strat, pv, bv, st_plays, ttk, ttg, bufs, ways,
                scratch, rec, trace, leader, 0, played, n_played, -1, leader,
            )  # fmt: skip
        else:
            _tricks_plain(
                hands, dealer, rtype, trump, known_out, widow_out, strat, pv, bv, st_plays, ttk, ttg, bufs, ways,
                scratch, rec, trace, leader, 0, played, n_played, -1, leader,
            )  # fmt: skip

    return _play_hand


def _make_tricks_from(solvers):
    """:func:`_tricks_from` with the search and solver players (``solvers``: ``search_card``, ``choose_card``),
    or without them: then their branch is pruned before typing (a constant of the closure), so numba never
    compiles it, about half of a cold ``simulate bismarck`` with heuristic players. The caller chooses by the
    strategies; without ``solvers`` a search, PIMC or DD seat would play as the heuristic (callers refuse it)."""
    plain = not solvers

    def _tricks_from(
        hands, dealer, rtype, trump, known_out, widow_out, strat, pv, bv, st_plays, ttk, ttg, bufs, ways, scratch,
        rec, trace, leader, k0, played, n_played, forced, hist_leader,
    ):  # fmt: skip
        """The tricks of a hand (BM-4) from any point: ``leader`` led the current trick, whose first ``k0`` cards are
        ``trace[48:48 + k0]``; ``played`` holds the cards of the completed tricks, ``n_played`` counts every card
        played (those of the current trick included), ``trace[52:55]`` the suits each seat showed out of and
        ``rec[s, H_TRICKS]`` the tricks won so far. ``forced >= 0``: the next card to play (the advisor's action).
        ``hist_leader``: the seat that led the hand's first trick when ``trace[:n_played]`` holds every card played
        so far in order (pimc-infer reads them), -1 when the order is not known (it then samples as pimc).
        Then each seat's score (BM-6) into ``rec[s, H_SCORE]``."""
        misere = rtype == 3
        must_trump = bv[V_MUST_TRUMP]
        exchanger = dealer if bv[V_WIDOW] != 2 else (dealer + 1) % 3  # who knows the discards
        full = np.uint64(0)
        for s in range(4):
            full |= LANE << np.uint64(16 * s)
        sampling = False  # the voids are tracked only for sampling (PIMC, search) players, who read them
        for s in range(3):
            sampling |= (strat[s] == S_PIMC) | (strat[s] == S_SEARCH) | (strat[s] == S_PIMC_INFER)
        exch = exchanger if bv[V_WIDOW] != 0 else -1
        row = trace[48:52]
        voids = trace[52:55]
        k_start = k0
        on_table = np.uint64(0)
        for i in range(k0):
            on_table |= ONE << np.uint64(row[i])
        while n_played < 48:
            for k in range(k_start, 3):
                p = (leader + k) % 3
                sp = strat[p]
                if must_trump:
                    legal = legal_cards(hands[p], -1 if k == 0 else row[0] >> 4, trump, must_trump)
                else:
                    legal = _follow(hands[p], row[0], k)
                n = popcount(legal)
                if forced >= 0:  # the advisor's action (checked legal by the caller)
                    c = forced
                    forced = -1
                elif sp == S_RANDOM:  # a forced card draws nothing, without a branch
                    c = nth_bit(legal, rng.pool_choice(st_plays[p], n))
                elif n == 1:
                    c = low_index(legal)
                else:
                    seen = played | hands[p] | known_out | on_table
                    if p == exchanger:
                        seen |= widow_out
                    if plain:  # a heuristic seat (the caller's check: no search or solver seat here)
                        c = heuristic_card(hands[p], legal, row, k, trump, misere, full & ~seen)
                    elif sp == S_SEARCH and (misere or popcount(hands[p]) > pv[P_PIMC_FROM]):
                        c = search_card_x(
                            p, hands, leader, row, k, trump, misere, must_trump, full & ~seen, voids, known_out,
                            widow_out, exchanger, played, rec[p, H_TRICKS], rtype, (p - dealer) % 3, bv, pv[P_BUDGET],
                            pv[P_EXPLORE], st_plays[p], ways, scratch,
                        )  # fmt: skip
                    elif sp == S_HEURISTIC or (sp != S_SEARCH and popcount(hands[p]) > pv[P_PIMC_FROM]):
                        c = heuristic_card(hands[p], legal, row, k, trump, misere, full & ~seen)
                    else:
                        c = choose_card_x(
                            sp,
                            p,
                            hands,
                            leader,
                            row,
                            k,
                            trump,
                            misere,
                            must_trump,
                            full & ~seen,
                            voids,
                            known_out,
                            pv[P_SAMPLES],
                            st_plays[p],
                            ttk,
                            ttg,
                            bufs,
                            ways,
                            scratch,
                            trace,
                            n_played if hist_leader >= 0 else 0,
                            hist_leader,
                            exch,
                        )
                on_table |= ONE << np.uint64(c)
                if sampling:  # showed out of the led suit (which cards those are is data)
                    out_of_led = (k > 0) & ((c >> 4) != (row[0] >> 4))
                    voids[p] |= np.int64(out_of_led) << (row[0] >> 4)
                    if must_trump and trump >= 0 and out_of_led and (c >> 4) != trump:
                        voids[p] |= 1 << trump
                hands[p] ^= ONE << np.uint64(c)
                row[k] = c
                trace[n_played] = c
                n_played += 1
            k_start = 0
            w = trick_winner(row, leader, trump)
            rec[w, H_TRICKS] += 1
            played |= on_table
            on_table = np.uint64(0)
            leader = w
        for s in range(3):
            role = (s - dealer) % 3
            rec[s, H_SCORE] = hand_score(rtype, role, rec[s, H_TRICKS], bv)
            if strat[s] == S_RANDOM:
                rng.pool_commit(st_plays[s])

    return jit_inline(_tricks_from)


_tricks_from = _make_tricks_from(True)
_tricks_plain = _make_tricks_from(False)


def _make_play_from(solvers):
    """:func:`play_from` with the search and solver players (``solvers``) or without (:func:`_make_tricks_from`)."""

    def play_from(
        hands, dealer, rtype, trump, known_out, widow_out, strat, pv, bv, st_plays, ttk, ttg, bufs, ways, scratch,
        rec, trace, leader, k0, played, forced, hist_leader,
    ):  # fmt: skip
        """A hand played on from any point by ``strat``'s players (:func:`_tricks_from`; the cards played so far
        follow from the hands left; ``hist_leader``: as there). Random seats draw from pools filled here."""
        for s in range(3):
            if strat[s] == S_RANDOM:
                rng.pool_fill(st_plays[s])
        left = 0
        for s in range(3):
            left += popcount(hands[s])
        if solvers:
            _tricks_from(
                hands, dealer, rtype, trump, known_out, widow_out, strat, pv, bv, st_plays, ttk, ttg, bufs, ways,
                scratch, rec, trace, leader, k0, played, 48 - left, forced, hist_leader,
            )  # fmt: skip
        else:
            _tricks_plain(
                hands, dealer, rtype, trump, known_out, widow_out, strat, pv, bv, st_plays, ttk, ttg, bufs, ways,
                scratch, rec, trace, leader, k0, played, 48 - left, forced, hist_leader,
            )  # fmt: skip

    return jit(play_from)


play_from = _make_play_from(True)
#: :func:`play_from` for heuristic and random players only
play_from_plain = _make_play_from(False)


#: A hand as a called kernel (paired runs, tests), and inlined into the serial simulation loop, where the
#: call's reference counting of a dozen arrays is a measurable share of a hand (docs/performance.md).
play_hand = jit(_make_play_hand(True))
_play_hand_inline = jit_inline(_make_play_hand(True))
#: the hand without the search and solver players (heuristic and random seats only), inlined and called
_play_hand_plain = jit_inline(_make_play_hand(False))
play_hand_plain = jit(_make_play_hand(False))


@jit_inline
def _record_hand(row, rec, dealer, rtype, bv):
    for s in range(3):
        role = (s - dealer) % 3
        b = (rtype * 3 + role) * ROLE_FIELDS
        t = rec[s, H_TRICKS]
        sc = rec[s, H_SCORE]
        row[b + R_N] += 1
        row[b + R_TRICKS] += t
        row[b + R_TRICKS_SQ] += t * t
        row[b + R_SCORE] += sc
        row[b + R_SCORE_SQ] += sc * sc
        row[b + R_MADE] += made_quota(rtype, role, t, bv)
        row[b + R_HIST + t] += 1
        f = BASE_FEAT + rtype * FEAT_FIELDS
        hb = f + 3 * min(rec[s, H_HCP], N_HCP - 1)
        row[hb] += 1
        row[hb + 1] += t
        row[hb + 2] += t * t
        if rec[s, H_TRUMPS] >= 0:
            tb = f + 3 * N_HCP + 3 * rec[s, H_TRUMPS]
            row[tb] += 1
            row[tb + 1] += t
            row[tb + 2] += t * t
        vb = f + 3 * (N_HCP + 17) + 3 * rec[s, H_VOIDS]
        row[vb] += 1
        row[vb + 1] += t
        row[vb + 2] += t * t


@jit
def new_solver_state(strat):
    """Solver tables for a chunk: a real transposition table only where some seat uses the solver."""
    big = False
    for s in range(strat.shape[0]):
        if strat[s] >= S_PIMC:
            big = True
    # 2**20 entries (64 MiB): a PIMC seat from the first trick searches 16-card layouts, too many positions for 2**18
    # (docs/performance.md); 2**22 was no faster
    ttk, ttg = dd.new_tt(20 if big else 1)
    bufs = dd.new_buffers()
    ways = np.zeros((5, 17, 17), dtype=np.float64)
    scratch = np.zeros(2, dtype=np.uint64)
    return ttk, ttg, bufs, ways, scratch


@jit
def _chunk_buffers():
    """Per-chunk buffers: hands, deck, per-seat records, trace (+ scratch), the dealer's discards, the deal
    stream and the three seats' streams."""
    return (
        np.zeros(4, dtype=np.uint64),
        np.zeros(52, dtype=np.int64),
        np.zeros((3, H_FIELDS), dtype=np.int64),
        np.zeros(56, dtype=np.int64),
        np.zeros(1, dtype=np.uint64),
        rng.new_state(),
        np.zeros((3, rng.STATE_SIZE), dtype=np.uint64),
    )
