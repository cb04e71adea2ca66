"""Bismarck kernels, the search player (``S_SEARCH``): determinized Monte Carlo search at the root, with rollouts by
players who do not see the hidden cards.

At its turn the player lists its candidate cards (the legal cards, one of each run of equivalent cards: cards of a
suit with nothing between them but its own cards and cards of completed tricks), then spends its budget of
rollouts on them. A rollout deals the hidden cards, exactly as the PIMC player's samples are drawn
(:func:`.pimc.hidden_ways` / :func:`.pimc.draw_hidden`: hand sizes, the suits each seat showed out of, the cards
out of play), plays the candidate and then the rest of the hand with the heuristic player (BM-9) at every seat,
each seeing only what it would see at the table.

How the budget is spent (``search:BUDGET``, the default): sequential halving on common layouts. In rounds of
equal budget every candidate still in is played on the same layouts, and after each round the worse half drops
out; it plays the best mean. The heuristic rollouts are deterministic, so on a common layout two candidates differ
only by the card played (a paired comparison, where a layout of its own for each rollout adds the spread between
layouts to every comparison), and one draw serves every candidate. ``search:BUDGET:C`` spends it by UCB1 with
exploration constant C instead, each rollout on a layout of its own, and plays the candidate tried most often
(ties: the higher mean); at equal budget it gained fewer tricks and took longer (docs/performance.md).

Why rollouts and not the solver: PIMC values each card as if every later card were chosen knowing the layout
(strategy fusion). In the misere round (BM-5, round 4) that flatters a seat badly: double dummy it can always
duck under the right card, at the table it cannot. A rollout's players choose every later card from what they
know, so the value of a card includes the mistakes the seat cannot avoid. It also has no solver cost: a
whole hand from the first trick, misere included (where the double-dummy search does not finish above 12 cards).

Where the solver is the better judge: in rounds 1-3 the heuristic rollouts miss the lines a double-dummy search
finds (long suits established, finesses, endplays), and there strategy fusion costs little; rollout search
alone took 0.2 tricks a hand fewer than PIMC from 12 cards (docs/performance.md). So in rounds 1-3 the player
searches while its hand holds more than ``P_PIMC_FROM`` cards (where PIMC plays the heuristic) and plays as PIMC
from there (:func:`.hand._tricks_from` switches); in the misere it searches to the end.

The reward of a rollout, in [0, 1]: half for meeting the quota (BM-6; in the misere: staying within the
allowance), half for the share of the remaining tricks taken (in the misere: avoided). Its draws come from the
seat's strategy stream, so a hand with a searching seat is reproducible from its seed.

Player settings (``pv``): ``P_BUDGET`` rollouts a decision, ``P_EXPLORE`` UCB1's exploration constant x 1000, or
-1 for sequential halving.
"""

from __future__ import annotations

import numpy as np

from .. import rng
from .._jit import jit, jit_inline
from ..bits import low_index, popcount
from ..dd import LANE, ONE, lane, legal_cards
from ..ucb import best_mean, drop_worse_half, halving_layouts, halving_rounds, most_visited, rollout_stream, ucb_pick
from .layout import V_WIDOW
from .pimc import draw_hidden, hidden_ways
from .players import heuristic_card
from .rules import made_quota, trick_winner


@jit_inline
def candidate_cards(legal, hand, live, cand):
    """One card of each run of equivalent legal cards into ``cand`` (the lowest of the run); returns how many.
    Two cards of a suit are equivalent when every rank between them is in ``hand`` or gone (not ``live``: the
    cards unseen and the cards of the current trick): whichever is played, the tricks to come are the same up to
    renaming the cards."""
    n = 0
    for s in range(4):
        x = lane(legal, s)
        gap = lane(live, s)  # a card still in play separates two of ours
        prev = -1
        while x:
            r = low_index(x)
            x &= x - ONE
            if prev >= 0:
                between = ((ONE << np.uint64(r)) - ONE) & ~((ONE << np.uint64(prev + 1)) - ONE)
                if between & gap == 0:
                    prev = r
                    continue
            cand[n] = s * 16 + r
            n += 1
            prev = r
    return n


@jit_inline
def _rollout(h, p, leader, row, k, c, trump, misere, must_trump, seen_all, widow_seen, exchanger, full):
    """Seat ``p`` plays ``c`` as the ``k``-th card of the trick ``row[:k]`` led by ``leader``; the rest of the
    hand is played by heuristic players on the layout ``h`` (changed in place), each seat seeing the cards of
    the completed tricks and out of play (``seen_all``), its hand, the table, and the exchanger the widow's
    discards (``widow_seen``). Returns p's tricks from here, the current trick included."""
    on_table = np.uint64(0)
    for i in range(k):
        on_table |= ONE << np.uint64(row[i])
    bit = ONE << np.uint64(c)
    h[p] ^= bit
    row[k] = c
    on_table |= bit
    k += 1
    got = 0
    while True:
        while k < 3:
            q = leader + k
            q = q - 3 if q >= 3 else q
            legal = legal_cards(h[q], -1 if k == 0 else row[0] >> 4, trump, must_trump)
            if legal & (legal - ONE) == 0:
                card = low_index(legal)
            else:
                seen = seen_all | h[q] | on_table
                if q == exchanger:
                    seen |= widow_seen
                card = heuristic_card(h[q], legal, row, k, trump, misere, full & ~seen)
            bit = ONE << np.uint64(card)
            h[q] ^= bit
            row[k] = card
            on_table |= bit
            k += 1
        w = trick_winner(row, leader, trump)
        got += w == p
        seen_all |= on_table
        on_table = np.uint64(0)
        leader = w
        k = 0
        if h[w] == 0:
            return got


@jit_inline
def _reward(p, h, scratch, a, b, leader, row, r, k, c, trump, misere, must_trump, seen_all, widow_seen, exchanger,
            full, work, remaining, t0, rtype, role, bv):  # fmt: skip
    """One rollout of card ``c`` on the layout ``scratch`` (the hands of ``a`` and ``b``), in [0, 1]: half for
    meeting the quota (BM-6; in the misere staying within it), half for the share of the remaining tricks taken
    (in the misere avoided)."""
    work[p] = h
    work[a] = scratch[0]
    work[b] = scratch[1]
    for j in range(k):
        r[j] = row[j]
    got = _rollout(work, p, leader, r, k, c, trump, misere, must_trump, seen_all, widow_seen, exchanger, full)
    share = got / remaining
    return 0.5 * made_quota(rtype, role, t0 + got, bv) + 0.5 * (1.0 - share if misere else share)


@jit
def search_card(
    p, hands, leader, row, k, trump, misere, must_trump, unseen_of_p, voids, known_out, widow_out, exchanger,
    played, t0, rtype, role, bv, budget, explore, st_play, ways, scratch,
):  # fmt: skip
    """The search player's card at seat ``p`` (the position as :func:`.hand._tricks_from` holds it; ``t0``: the
    tricks p won so far, ``role`` its role for the quota). Everything it reads besides its own hand is what it
    has seen: ``unseen_of_p``, the seats' ``voids``, the hand sizes. ``explore`` below 0: sequential halving on
    common layouts; else UCB1 with the constant ``explore / 1000``, a layout of its own for each rollout."""
    h = hands[p]
    full = np.uint64(0)
    for s in range(4):
        full |= LANE << np.uint64(16 * s)
    legal = legal_cards(h, -1 if k == 0 else row[0] >> 4, trump, must_trump)
    # the cards of the current trick separate two of ours as unseen cards do: 8 and 10 over a 9 on the table differ
    live = unseen_of_p
    for j in range(k):
        live |= ONE << np.uint64(row[j])
    cand = np.zeros(16, dtype=np.int64)
    A = candidate_cards(legal, h, live, cand)
    if A == 1:
        return cand[0]
    a = (p + 1) % 3
    b = (p + 2) % 3
    n_a = popcount(hands[a])
    n_b = popcount(hands[b])
    unknown = unseen_of_p & ~known_out
    if not hidden_ways(unknown, voids[a], voids[b], n_a, n_b, ways):
        return heuristic_card(h, legal, row, k, trump, misere, unseen_of_p)
    # what the exchanger saw of the widow (BM 3(c)5): known to p if p exchanged, else the cards a layout leaves
    # out of play (with a widow those are the discards)
    widow = bv[V_WIDOW] != 0
    st_roll = rng.new_state()
    rollout_stream(st_play, st_roll)
    visits = np.zeros(A, dtype=np.int64)
    value = np.zeros(A, dtype=np.float64)
    work = np.zeros(4, dtype=np.uint64)
    r = np.zeros(4, dtype=np.int64)
    remaining = popcount(h)
    seen_all = played | known_out
    widow_seen = widow_out
    if explore < 0:
        # sequential halving on common layouts (kernels/ucb.py). A rollout's players are deterministic, so two
        # candidates on one layout differ only by the card: the comparison is paired, and a draw serves every
        # candidate
        alive = np.ones(A, dtype=np.bool_)
        S = A
        R = halving_rounds(A)
        for rnd in range(R):
            for _ in range(halving_layouts(budget, R, S)):
                draw_hidden(unknown, voids[a], voids[b], n_a, n_b, st_roll, ways, scratch)
                if p != exchanger:
                    widow_seen = unknown & ~scratch[0] & ~scratch[1] if widow else np.uint64(0)
                for i in range(A):
                    if alive[i]:
                        visits[i] += 1
                        value[i] += _reward(p, h, scratch, a, b, leader, row, r, k, cand[i], trump, misere,
                                            must_trump, seen_all, widow_seen, exchanger, full, work, remaining, t0,
                                            rtype, role, bv)  # fmt: skip
            if rnd < R - 1:
                S = drop_worse_half(alive, A, S, visits, value)
        return cand[best_mean(alive, A, visits, value)]
    c = explore / 1000.0
    for it in range(max(budget, A)):
        i = ucb_pick(it, A, visits, value, c)
        draw_hidden(unknown, voids[a], voids[b], n_a, n_b, st_roll, ways, scratch)
        if p != exchanger:
            widow_seen = unknown & ~scratch[0] & ~scratch[1] if widow else np.uint64(0)
        visits[i] += 1
        value[i] += _reward(p, h, scratch, a, b, leader, row, r, k, cand[i], trump, misere, must_trump, seen_all,
                            widow_seen, exchanger, full, work, remaining, t0, rtype, role, bv)  # fmt: skip
    return cand[most_visited(A, visits, value)]
