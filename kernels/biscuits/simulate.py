"""Biscuits kernels, the kernels the analysis layer runs: the count-row layout (``C_*``, ``T_*``, ``M_*``), the
simulation, the paired strategy comparison and the win table.
"""

from __future__ import annotations

import numpy as np

from .. import rng
from .._jit import borrowed, chunk_jit, jit, jit_inline
from ..bits import copy_rows
from .combinations import MAX_MOVES, V_PASS_FIRST_ONLY
from .hand import _game_over, _play_hand_in_game, deal, next_starter_rule
from .players import H_FIELDS, H_HCP, H_OUT_FIRST, H_PLAYS, H_POINTS, H_STARTER, MAX_HCP, MAX_PLAYS

# count rows: per seat C_FIELDS, then per team, then game fields
C_POINTS = 0  # team points credited to this seat's team in hands (sum, and sum of squares)
C_POINTS_SQ = 1
C_OUT_FIRST = 2
C_STARTER = 3
C_OUT_FIRST_AS_STARTER = 4
C_FIELDS = 5
T_GAMES_WON = 0
T_FIELDS = 1
M_HANDS = 0
M_GAMES = 1
M_STARTER_NET = 2  # a hand's points of the Starter's team minus the other team's (sum, and sum of squares; BI-3)
M_STARTER_NET_SQ = 3
M_FIELDS = 4


def counts_width() -> int:
    return 4 * C_FIELDS + 2 * T_FIELDS + M_FIELDS + 2 * (MAX_HCP + 1) * (MAX_PLAYS + 1)


@jit_inline
def _deal_and_play(
    st_deal, deck, hands, counts, starter, strat, st_play, rec, moves, bv, n_hands, score0, score1, target, search
):
    """Deal hand number ``n_hands`` of a game (0 = the first) and play it: the points of each team (``search``:
    whether the search player is compiled in, a constant)."""
    for i in range(52):
        deck[i] = i
    deal(st_deal, deck, hands, counts, starter)
    do_pass = n_hands == 0 or bv[V_PASS_FIRST_ONLY] == 0
    return _play_hand_in_game(
        hands, counts, starter, strat, st_play, rec, moves, bv, do_pass, score0, score1, target, -1, 0, rec[:0], search
    )


@chunk_jit
def simulate_chunks(chunk_ids, chunk_size, n_trials, key0, key1, strat, unit_game, target, max_hands, bv, out):
    """Each trial is one game to ``target`` points or ``max_hands`` hands (BI-12; ties play on), or one hand
    (``unit_game = 0``) with a random Starter. No seat searches (:func:`simulate_search_chunks`)."""
    for ci in range(chunk_ids.shape[0]):
        _simulate_chunk(chunk_ids[ci], chunk_size, n_trials, key0, key1, strat, unit_game, target, max_hands, bv,
                        out[ci], 0)  # fmt: skip


@chunk_jit
def simulate_search_chunks(chunk_ids, chunk_size, n_trials, key0, key1, strat, unit_game, target, max_hands, bv, out):
    """:func:`simulate_chunks` with the search player compiled in."""
    for ci in range(chunk_ids.shape[0]):
        _simulate_chunk(chunk_ids[ci], chunk_size, n_trials, key0, key1, strat, unit_game, target, max_hands, bv,
                        out[ci], 1)  # fmt: skip


@jit_inline
def _simulate_chunk(c, chunk_size, n_trials, key0, key1, strat, unit_game, target, max_hands, bv, row, search):
    start = c * chunk_size
    stop = min(start + chunk_size, n_trials)
    hands = np.zeros(4, dtype=np.uint64)
    counts = np.zeros(4, dtype=np.int64)
    rec = np.zeros((4, H_FIELDS), dtype=np.int64)
    moves = np.zeros(MAX_MOVES, dtype=np.uint64)
    deck = np.arange(52, dtype=np.int64)
    last_start = np.zeros(2, dtype=np.int64)
    st_deal = rng.new_state()
    st_play = rng.new_state()
    _simulate_range(
        start, stop, key0, key1, strat, unit_game, target, max_hands, bv, row,
        (hands, counts, rec, moves, deck, last_start, st_deal, st_play), search,
    )  # fmt: skip


@jit
def _simulate_range(start, stop, key0, key1, strat, unit_game, target, max_hands, bv, row, bufs, search):
    """Trials ``start .. stop-1`` of :func:`simulate_chunks` into one count row, on borrowed views of the
    arguments: no reference counting in the loop (kernels._jit.borrowed)."""
    strat, bv, row, bufs = borrowed((strat, bv, row, bufs))
    hands, counts, rec, moves, deck, last_start, st_deal, st_play = bufs
    base = 4 * C_FIELDS
    for t in range(start, stop):
        rng.seed_state(st_deal, key0, key1, np.uint64(t), np.uint64(rng.STREAM_DEAL))
        rng.seed_state(st_play, key0, key1, np.uint64(t), np.uint64(rng.STREAM_STRATEGY))
        starter = rng.below(st_deal, 4)  # BI-3: the first Starter at random
        score0 = 0
        score1 = 0
        n_hands = 0
        last_start[:] = -1
        last_start[starter % 2] = starter
        while True:
            p0, p1 = _deal_and_play(
                st_deal,
                deck,
                hands,
                counts,
                starter,
                strat,
                st_play,
                rec,
                moves,
                bv,
                n_hands,
                score0,
                score1,
                target if unit_game == 1 else 1 << 40,
                search,
            )
            score0 += p0
            score1 += p1
            n_hands += 1
            row[base + 2 * T_FIELDS + M_HANDS] += 1
            for s in range(4):
                b = s * C_FIELDS
                row[b + C_POINTS] += rec[s, H_POINTS]
                row[b + C_POINTS_SQ] += rec[s, H_POINTS] * rec[s, H_POINTS]
                row[b + C_OUT_FIRST] += rec[s, H_OUT_FIRST]
                row[b + C_STARTER] += rec[s, H_STARTER]
                row[b + C_OUT_FIRST_AS_STARTER] += rec[s, H_OUT_FIRST] * rec[s, H_STARTER]
                # (seat-hands, first out) by (high-card points, plays of the fewest-plays split)
                cell = min(rec[s, H_HCP], MAX_HCP) * (MAX_PLAYS + 1) + min(rec[s, H_PLAYS], MAX_PLAYS)
                hb = base + 2 * T_FIELDS + M_FIELDS + 2 * cell
                row[hb] += 1
                row[hb + 1] += rec[s, H_OUT_FIRST]
                if rec[s, H_STARTER] == 1:  # one Starter a hand: its team's points against the other's
                    net = rec[s, H_POINTS] - rec[(s + 1) % 4, H_POINTS]
                    row[base + 2 * T_FIELDS + M_STARTER_NET] += net
                    row[base + 2 * T_FIELDS + M_STARTER_NET_SQ] += net * net
            if unit_game == 0 or _game_over(score0, score1, n_hands, target, max_hands):
                break
            starter = next_starter_rule(starter, score0, score1, last_start, bv)
        if unit_game == 1:
            row[base + 2 * T_FIELDS + M_GAMES] += 1
            if score0 > score1:
                row[base + T_GAMES_WON] += 1
            elif score1 > score0:
                row[base + T_FIELDS + T_GAMES_WON] += 1


PAIR_STATS = 7  # n, points A, points B, sum d, sum d^2, first out A, first out B (for the switching team)


@chunk_jit
def compare_chunks(chunk_ids, chunk_size, n_trials, key0, key1, strat_a, strat_b, bv, out):
    """One hand per trial, played three times from the same deal and draws: everyone on A; team N-S on B;
    team E-W on B. ``out[chunk]`` = ``[team][PAIR_STATS]`` for the team that switched. No seat searches
    (:func:`compare_search_chunks`)."""
    for ci in range(chunk_ids.shape[0]):
        _compare_chunk(chunk_ids[ci], chunk_size, n_trials, key0, key1, strat_a, strat_b, bv, out[ci], 0)


@chunk_jit
def compare_search_chunks(chunk_ids, chunk_size, n_trials, key0, key1, strat_a, strat_b, bv, out):
    """:func:`compare_chunks` with the search player compiled in."""
    for ci in range(chunk_ids.shape[0]):
        _compare_chunk(chunk_ids[ci], chunk_size, n_trials, key0, key1, strat_a, strat_b, bv, out[ci], 1)


@jit_inline
def _compare_chunk(c, chunk_size, n_trials, key0, key1, strat_a, strat_b, bv, row, search):
    start = c * chunk_size
    stop = min(start + chunk_size, n_trials)
    hands0 = np.zeros(4, dtype=np.uint64)
    hands = np.zeros(4, dtype=np.uint64)
    counts = np.zeros(4, dtype=np.int64)
    rec = np.zeros((4, H_FIELDS), dtype=np.int64)
    moves = np.zeros(MAX_MOVES, dtype=np.uint64)
    deck = np.arange(52, dtype=np.int64)
    mixed = strat_a.copy()
    st_deal = rng.new_state()
    st_play = rng.new_state()
    for t in range(start, stop):
        rng.seed_state(st_deal, key0, key1, np.uint64(t), np.uint64(rng.STREAM_DEAL))
        starter = rng.below(st_deal, 4)
        for i in range(52):
            deck[i] = i
        deal(st_deal, deck, hands0, counts, starter)
        base_pts = np.zeros(2, dtype=np.int64)
        base_first = np.zeros(2, dtype=np.int64)
        for arm in range(3):
            for s in range(4):
                hands[s] = hands0[s]
                counts[s] = 13
                # a row copied by a loop: no slice assignment (bits.copy_rows)
                copy_rows(mixed[s], strat_b[s] if (arm > 0 and s % 2 == arm - 1) else strat_a[s])
            rng.seed_state(st_play, key0, key1, np.uint64(t), np.uint64(rng.STREAM_STRATEGY))
            p0, p1 = _play_hand_in_game(
                hands, counts, starter, mixed, st_play, rec, moves, bv, True, 0, 0, 1 << 40, -1, 0, rec[:0], search
            )
            first_team = -1
            for s in range(4):
                if rec[s, H_OUT_FIRST]:
                    first_team = s % 2
            if arm == 0:
                base_pts[0] = p0
                base_pts[1] = p1
                base_first[0] = 1 if first_team == 0 else 0
                base_first[1] = 1 if first_team == 1 else 0
            else:
                team = arm - 1
                pts = p0 if team == 0 else p1
                d = pts - base_pts[team]
                b = team * PAIR_STATS
                row[b] += 1
                row[b + 1] += base_pts[team]
                row[b + 2] += pts
                row[b + 3] += d
                row[b + 4] += d * d
                row[b + 5] += base_first[team]
                row[b + 6] += 1 if first_team == team else 0


@chunk_jit
def win_table_chunks(chunk_ids, chunk_size, n_trials, key0, key1, strat, target, max_hands, bv, out):
    """The game win table: each trial starts a game at a random state (N-S score, E-W score, hands played)
    of the grid ``0 <= score < target``, ``0 <= hands < max_hands``, with a random Starter, and plays it to
    the end (BI-12). ``out[chunk]`` = ``[state][2]``: games started there, and games N-S won."""
    for ci in range(chunk_ids.shape[0]):
        c = chunk_ids[ci]
        start = c * chunk_size
        stop = min(start + chunk_size, n_trials)
        hands = np.zeros(4, dtype=np.uint64)
        counts = np.zeros(4, dtype=np.int64)
        rec = np.zeros((4, H_FIELDS), dtype=np.int64)
        moves = np.zeros(MAX_MOVES, dtype=np.uint64)
        deck = np.arange(52, dtype=np.int64)
        last_start = np.zeros(2, dtype=np.int64)
        st_deal = rng.new_state()
        st_play = rng.new_state()
        row = out[ci]
        for t in range(start, stop):
            rng.seed_state(st_deal, key0, key1, np.uint64(t), np.uint64(rng.STREAM_DEAL))
            rng.seed_state(st_play, key0, key1, np.uint64(t), np.uint64(rng.STREAM_STRATEGY))
            state = rng.below(st_deal, target * target * max_hands)
            score0 = state % target
            score1 = (state // target) % target
            n_hands = state // (target * target)
            starter = rng.below(st_deal, 4)
            last_start[:] = -1  # the earlier Starters of a game joined midway are unknown
            last_start[starter % 2] = starter
            while True:
                p0, p1 = _deal_and_play(
                    st_deal,
                    deck,
                    hands,
                    counts,
                    starter,
                    strat,
                    st_play,
                    rec,
                    moves,
                    bv,
                    n_hands,
                    score0,
                    score1,
                    target,
                    0,
                )
                score0 += p0
                score1 += p1
                n_hands += 1
                if _game_over(score0, score1, n_hands, target, max_hands):
                    break
                starter = next_starter_rule(starter, score0, score1, last_start, bv)
            row[2 * state] += 1
            if score0 > score1:
                row[2 * state + 1] += 1
