"""Zheng Shangyou kernels, paired experiments on the same deals: strategy comparisons and the value of holding
a card (a given card, a bomb, a straight flush).
"""

from __future__ import annotations

import numpy as np

from .. import rng
from .._jit import chunk_jit, jit, jit_inline
from ..bits import copy_rows
from ..bits import rank_bits as _rank_bits
from .classifier import rank_of_position
from .game import _play_game, _remove_card, first_leader
from .moves import add_card, make_scratch, new_moves
from .players import G_CARDS_LEFT, G_FIELDS, G_SCORE, G_WIN, deal_hands

# =============================================================================================
# Paired experiments on the same deals: strategy comparisons and the value of holding a card
# =============================================================================================
PAIR_STATS = 25  # n, wins A, wins B, sum dwin, sum dwin^2, score A, score B, sum dscore, sum dscore^2, then
# where the score comes from, each as (sum A, sum B, sum d, sum d^2) from PAIR_PARTS on: the score in games won,
# the score in games lost (ZS-8: the cards held when the Winner goes out, times the multiplier), a loss
# multiplied (x2 or x3), the cards held when the Winner went out
PAIR_PARTS = 9
N_PARTS = 4

FEATURE_CARD = 0  # a given card (code in `target`)
FEATURE_BOMB = 1  # one card of a four of a kind
FEATURE_SF = 2  # the middle card of a five-card straight flush


@jit_inline
def _play_dealt(
    P, hands0, counts0, leader, strat, key0, key1, t, rec, moves, scratch, hands, counts, st_play, zv, flavour
):  # fmt: skip
    copy_rows(hands, hands0)
    for s in range(P):
        counts[s] = counts0[s]
    rng.seed_state(st_play, key0, key1, np.uint64(t), np.uint64(rng.STREAM_STRATEGY))
    return _play_game(P, hands, counts, leader, strat, st_play, rec, moves, scratch, zv, flavour)


@jit
def _add_paired(row, base, rec_a, rec_b, s):
    wa = rec_a[s, G_WIN]
    wb = rec_b[s, G_WIN]
    sa = rec_a[s, G_SCORE]
    sb = rec_b[s, G_SCORE]
    row[base] += 1
    row[base + 1] += wa
    row[base + 2] += wb
    row[base + 3] += wb - wa
    row[base + 4] += (wb - wa) * (wb - wa)
    row[base + 5] += sa
    row[base + 6] += sb
    row[base + 7] += sb - sa
    row[base + 8] += (sb - sa) * (sb - sa)
    ca = rec_a[s, G_CARDS_LEFT]
    cb = rec_b[s, G_CARDS_LEFT]
    for k in range(N_PARTS):
        if k == 0:
            xa, xb = sa * wa, sb * wb
        elif k == 1:
            xa, xb = sa * (1 - wa), sb * (1 - wb)
        elif k == 2:  # a loser pays more than a point a card: x2 or x3 (ZS-8)
            xa = 1 if wa == 0 and sa < -ca else 0
            xb = 1 if wb == 0 and sb < -cb else 0
        else:
            xa, xb = ca, cb
        b = base + PAIR_PARTS + 4 * k
        row[b] += xa
        row[b + 1] += xb
        row[b + 2] += xb - xa
        row[b + 3] += (xb - xa) * (xb - xa)


@jit
def paired_buffers(P):
    """One thread's buffers for replaying a deal: dealt hands and counts, working copies, two records,
    the move list and the generator's scratch."""
    return (
        np.zeros((P, 2), dtype=np.uint64),
        np.zeros(P, dtype=np.int64),
        np.zeros((P, 2), dtype=np.uint64),
        np.zeros(P, dtype=np.int64),
        np.zeros((P, G_FIELDS), dtype=np.int64),
        np.zeros((P, G_FIELDS), dtype=np.int64),
        new_moves(),
        make_scratch(),
    )


@chunk_jit
def compare_chunks(chunk_ids, chunk_size, n_trials, key0, key1, P, deck, n_deal, strat_a, strat_b, zv, out):
    """Seat by seat, on the same deal: the seat plays B (others A) against everyone on A.

    ``out[chunk]`` is ``[seat][PAIR_STATS]`` (A = the field's result for that seat, B = the challenger's). The greedy
    players only (flavour 0; any other seat: :func:`compare_full_chunks`).
    """
    for ci in range(chunk_ids.shape[0]):
        _compare_chunk(chunk_ids[ci], chunk_size, n_trials, key0, key1, P, deck, n_deal, strat_a, strat_b, zv,
                       out[ci], 0)  # fmt: skip


@chunk_jit
def compare_full_chunks(chunk_ids, chunk_size, n_trials, key0, key1, P, deck, n_deal, strat_a, strat_b, zv, out):
    """:func:`compare_chunks` with every player compiled in (flavour 2: random, planning, search)."""
    for ci in range(chunk_ids.shape[0]):
        _compare_chunk(chunk_ids[ci], chunk_size, n_trials, key0, key1, P, deck, n_deal, strat_a, strat_b, zv,
                       out[ci], 2)  # fmt: skip


@jit_inline
def _compare_chunk(c, chunk_size, n_trials, key0, key1, P, deck, n_deal, strat_a, strat_b, zv, row, flavour):
    start = c * chunk_size
    stop = min(start + chunk_size, n_trials)
    hands0, counts0, hands, counts, rec_a, rec_b, moves, scratch = paired_buffers(P)
    mixed = strat_a.copy()
    d = deck.copy()
    st_deal = rng.new_state()
    st_play = rng.new_state()
    for t in range(start, stop):
        rng.seed_state(st_deal, key0, key1, np.uint64(t), np.uint64(rng.STREAM_DEAL))
        copy_rows(d, deck)
        deal_hands(st_deal, P, np.int64(0), d, hands0, counts0, n_deal)
        leader = first_leader(P, hands0)
        _play_dealt(
            P, hands0, counts0, leader, strat_a, key0, key1, t, rec_a, moves, scratch, hands, counts, st_play, zv,
            flavour,
        )  # fmt: skip
        for s in range(P):
            copy_rows(mixed[s], strat_b[s])  # a loop: no slice assignment (bits.copy_rows)
            _play_dealt(
                P, hands0, counts0, leader, mixed, key0, key1, t, rec_b, moves, scratch, hands, counts, st_play, zv,
                flavour,
            )  # fmt: skip
            copy_rows(mixed[s], strat_a[s])
            _add_paired(row, s * PAIR_STATS, rec_a, rec_b, s)


@chunk_jit
def card_value_chunks(chunk_ids, chunk_size, n_trials, key0, key1, P, deck, n_deal, strat, feature, target, zv, out):
    """The value of holding a card (or a bomb, or a straight flush), paired on the same deal.

    Game A: as dealt. Game B: the holder's card X is swapped with a random card of a random other player.
    ``out[chunk]`` = [attempts, accepted, PAIR_STATS...] with A = with X, B = without it, for the holder;
    differences are B - A, so the value of holding X is minus the mean difference. The greedy
    players only (flavour 0; any other seat: :func:`card_value_full_chunks`).
    """
    for ci in range(chunk_ids.shape[0]):
        _card_value_chunk(chunk_ids[ci], chunk_size, n_trials, key0, key1, P, deck, n_deal, strat, feature, target,
                          zv, out[ci], 0)  # fmt: skip


@chunk_jit
def card_value_full_chunks(
    chunk_ids, chunk_size, n_trials, key0, key1, P, deck, n_deal, strat, feature, target, zv, out
):  # fmt: skip
    """:func:`card_value_chunks` with every player compiled in (flavour 2: random, planning, search)."""
    for ci in range(chunk_ids.shape[0]):
        _card_value_chunk(chunk_ids[ci], chunk_size, n_trials, key0, key1, P, deck, n_deal, strat, feature, target,
                          zv, out[ci], 2)  # fmt: skip


@jit_inline
def _card_value_chunk(c, chunk_size, n_trials, key0, key1, P, deck, n_deal, strat, feature, target, zv, row, flavour):
    start = c * chunk_size
    stop = min(start + chunk_size, n_trials)
    hands0, counts0, hands, counts, rec_a, rec_b, moves, scratch = paired_buffers(P)
    d = deck.copy()
    st_deal = rng.new_state()
    st_play = rng.new_state()
    for t in range(start, stop):
        row[0] += 1
        rng.seed_state(st_deal, key0, key1, np.uint64(t), np.uint64(rng.STREAM_DEAL))
        copy_rows(d, deck)
        deal_hands(st_deal, P, np.int64(0), d, hands0, counts0, n_deal)
        holder = -1
        x = -1
        if feature == FEATURE_CARD:
            for s in range(P):
                if (hands0[s, 0] >> np.uint64(target)) & np.uint64(1):
                    holder = s
                    x = target
        elif feature == FEATURE_BOMB:
            for s in range(P):
                if holder < 0:
                    for r in range(13):
                        if holder < 0 and _rank_bits(hands0[s, 0], r) == np.uint64(15):
                            holder = s
                            x = 4 * r + rng.below(st_deal, 4)
        else:
            for s in range(P):
                for suit in range(4):
                    run = 0
                    for p in range(14):
                        if (hands0[s, 0] >> np.uint64(4 * rank_of_position(p) + suit)) & np.uint64(1):
                            run += 1
                            if run == 5 and holder < 0:
                                holder = s
                                x = 4 * rank_of_position(p - 2) + suit
                        else:
                            run = 0
        if holder < 0:
            continue
        row[1] += 1
        other = (holder + 1 + rng.below(st_deal, P - 1)) % P
        k = rng.below(st_deal, counts0[other])
        y = -1
        for cc in range(54):
            held = ((hands0[other, 0] >> np.uint64(cc)) & np.uint64(1)) + (
                (hands0[other, 1] >> np.uint64(cc)) & np.uint64(1)
            )
            if k < held:
                y = cc
                break
            k -= held
        leader = first_leader(P, hands0)
        _play_dealt(
            P, hands0, counts0, leader, strat, key0, key1, t, rec_a, moves, scratch, hands, counts, st_play, zv, flavour
        )
        _remove_card(hands0, holder, x)
        hands0[holder, 0], hands0[holder, 1] = add_card(hands0[holder, 0], hands0[holder, 1], y)
        _remove_card(hands0, other, y)
        hands0[other, 0], hands0[other, 1] = add_card(hands0[other, 0], hands0[other, 1], x)
        leader = first_leader(P, hands0)
        _play_dealt(
            P, hands0, counts0, leader, strat, key0, key1, t, rec_b, moves, scratch, hands, counts, st_play, zv, flavour
        )
        _add_paired(row, 2, rec_a, rec_b, holder)
