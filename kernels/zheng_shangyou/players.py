"""Zheng Shangyou kernels, players: the deal (ZS-1), the hand planner and the three policies (random, greedy,
planning) with their bomb policies; a strategy is data, ``strat[seat] = (policy, bomb policy, threshold, 0)``.
"""

from __future__ import annotations

import numpy as np

from .. import rng
from .._jit import jit, jit_inline
from ..bits import high_index as _high_index
from ..bits import low_index as _low_index
from ..bits import popcount as _popcount
from ..bits import rank_bits as _rank_bits
from ..bits import rank_counts, ranks_with_count
from .classifier import beats, classify, rank_of_position
from .layout import K_BOMB, K_NONE, K_STRAIGHT_FLUSH, V_CURRENT, _next_seat, _positions, ranks_at_least
from .moves import add_card, moves_into, pair_less, take

# =============================================================================================
# Whole games (ZS-1, ZS-3, ZS-4, ZS-7, ZS-8)
# =============================================================================================
# Seats are numbered clockwise; the dealer deals one card at a time starting with himself (ZS-1).
# Strategies are data: strat[seat] = (policy, bomb policy, bomb threshold, 0).


POLICY_RANDOM = 0  # uniform over the legal actions (passing included when following)
POLICY_GREEDY = 1  # go out if possible; lead the play with the lowest top card among the longest plays;
# follow with the cheapest play of the same kind; bombs by the bomb policy
POLICY_PLANNING = 2  # split the hand into few plays (plan_hand); play only whole plan elements, lowest
# first; break combinations or bomb only when an opponent is close to going out
# (<= threshold cards) or when the bomb leaves at most one plan element
POLICY_SEARCH = 3  # determinized Monte Carlo search at the root with greedy rollouts (search.py); its row is
# (POLICY_SEARCH, 0, budget, exploration * 1000)
BOMB_EARLY = 0  # bombs and straight flushes are ordinary plays (the cheapest beating play is used)
BOMB_HOLD = 1  # only to go out, or on lead when nothing else is left
BOMB_STOP = 2  # also when an opponent holds at most `threshold` cards

# per-seat record of one game
G_WIN = 0
G_SCORE = 1
G_SCORE_SQ = 2
G_HOLDS_3D = 3
G_PLACE = 4  # 1-based finishing place (the Loser is last)
G_HAS_BOMB = 5  # the dealt hand holds a four of a kind
G_HAS_SF = 6  # the dealt hand holds a straight flush (5 in a row, one suit)
G_JOKERS = 7
G_TWOS = 8
G_BOMBS_PLAYED = 9
G_CARDS_LEFT = 10  # when the Winner went out
G_NEVER_PLAYED = 11
G_FIELDS = 12

MAX_TURNS = 2000

# The greedy player's order among its bombs and straight flushes, cheapest first: every bomb before a straight
# flush, then by key, then by length. GREEDY_KEY_STEP exceeds the longest play (13 cards); GREEDY_SF_CLASS
# exceeds every bomb's key * GREEDY_KEY_STEP + length where straight flushes exist (bomb keys are ranks < 13;
# under current_wiki bomb keys reach 92 but there is no straight-flush class).
GREEDY_SF_CLASS = 1000
GREEDY_KEY_STEP = 20
# The planning player breaking combinations near an opponent's going out, cheapest first: plain plays, then
# bombs, then straight flushes (class * PLAN_CLASS_STEP), each by key, then length; PLAN_CLASS_STEP exceeds
# every key * PLAN_KEY_STEP + length and PLAN_KEY_STEP exceeds any length.
PLAN_CLASS_STEP = 1 << 20
PLAN_KEY_STEP = 32


@jit
def deal_hands(st, P, dealer, deck, hands, counts, n_deal):
    """Shuffle ``deck`` (card codes; two decks: each code twice) and deal ``n_deal`` cards one at a time,
    clockwise from the dealer (ZS-1), into ``hands[P, 2]`` (cards, dups); with 3 players and 52 cards one card
    is left over, out of play."""
    n = deck.shape[0]
    # the loop, not an unrolled shuffle: that compiled seconds longer in every cold first run (docs/performance.md)
    rng.partial_shuffle(st, deck, n)
    for s in range(P):
        hands[s, 0] = 0
        hands[s, 1] = 0
        counts[s] = 0
    s = dealer
    for i in range(n_deal):
        hands[s, 0], hands[s, 1] = add_card(hands[s, 0], hands[s, 1], deck[i])
        counts[s] += 1
        s = _next_seat(s, P)


@jit_inline
def _special(kind):
    return kind == K_BOMB or kind == K_STRAIGHT_FLUSH


@jit
def _top_card(play):
    return _high_index(play)


MAX_PLAN = 32


@jit_inline
def _lowest_of_rank(rest, rdup, r, k):
    """The ``k`` lowest cards of rank ``r`` in the multiset ``(rest, rdup)`` (suits ascending, a doubled card
    twice), as ``(cards, dups)``."""
    bits = _rank_bits(rest, r)
    dbits = _rank_bits(rdup, r)
    ea = np.uint64(0)
    ed = np.uint64(0)
    if dbits == np.uint64(0):  # one copy of each: the k lowest bits
        for _ in range(k):
            low = bits & (~bits + np.uint64(1))
            ea |= low
            bits &= ~low
        return ea << np.uint64(4 * r), ed
    for sb in range(4):
        one = np.uint64(1) << np.uint64(sb)
        if k > 0 and bits & one:
            ea |= one
            k -= 1
            if k > 0 and dbits & one:
                ed |= one
                k -= 1
    return ea << np.uint64(4 * r), ed << np.uint64(4 * r)


@jit
def _take_runs(rest, rdup, width, min_len, plan, n_plan):
    """Repeatedly remove the longest run (>= min_len positions; the earliest of equal ones) of ranks holding
    >= width cards, taking the lowest ``width`` cards of each rank; returns (rest, rdup, n_plan). A run
    cannot hold the ace at both ends: with every rank held the run is A(low) .. K."""
    while True:
        pos = _positions(ranks_at_least(rank_counts(rest) + rank_counts(rdup), width))  # bit 4p: >= width cards
        runs = pos
        length = 0
        start = 0
        while runs:  # runs of length + 1 start at the set bits
            start = _low_index(runs) // 4
            length += 1
            runs &= pos >> np.uint64(4 * length)
        if length == 14:
            length = 13
            start = 0
        if length < min_len:
            return rest, rdup, n_plan
        elem = np.uint64(0)
        edup = np.uint64(0)
        for p in range(start, start + length):
            ea, ed = _lowest_of_rank(rest, rdup, rank_of_position(p), width)
            elem |= ea
            edup |= ed
        plan[n_plan, 0] = elem
        plan[n_plan, 1] = edup
        n_plan += 1
        rest, rdup = take(rest, rdup, elem, edup)


@jit_inline
def _move_rank(rest, rdup, r4, buf, i):
    """Move every card of the rank at bit ``r4`` (= 4 * rank) from the multiset ``(rest, rdup)`` into row
    ``i`` of ``buf`` (added to what the row holds); returns what is left."""
    mask = np.uint64(15) << np.uint64(r4)
    pa = rest & mask
    pd = rdup & mask
    buf[i, 0] |= pa
    buf[i, 1] |= pd
    return take(rest, rdup, pa, pd)


@jit
def _split_sets(rest, rdup, buf, n):
    """Append to ``buf[n:]`` the plain sets of a multiset whose ranks hold at most three cards: triples,
    each joined to the lowest remaining pair (a full house), then pairs, then singles (lowest code first, a
    doubled card twice; jokers last). Returns the new count. :func:`kernels.bits.split_sets` is the
    one-deck form (Biscuits)."""
    first = n
    cnt = rank_counts(rest) + rank_counts(rdup)
    triples = ranks_with_count(cnt, 3)
    pairs = ranks_with_count(cnt, 2)
    while triples:
        r = _low_index(triples)  # = 4 * rank
        triples &= triples - np.uint64(1)
        buf[n, 0] = 0
        buf[n, 1] = 0
        rest, rdup = _move_rank(rest, rdup, r, buf, n)
        n += 1
    for i in range(first, n):  # each triple takes the lowest pair left
        if pairs == np.uint64(0):
            break
        q = _low_index(pairs)
        pairs &= pairs - np.uint64(1)
        rest, rdup = _move_rank(rest, rdup, q, buf, i)
    while pairs:
        q = _low_index(pairs)
        pairs &= pairs - np.uint64(1)
        buf[n, 0] = 0
        buf[n, 1] = 0
        rest, rdup = _move_rank(rest, rdup, q, buf, n)
        n += 1
    while rest:
        low = rest & (~rest + np.uint64(1))
        buf[n, 0] = low
        buf[n, 1] = 0
        n += 1
        if rdup & low:
            buf[n, 0] = low
            buf[n, 1] = 0
            n += 1
        rest &= rest - np.uint64(1)
    return n


@jit
def plan_hand(hand, dup, plan, alt, min_straight=5):
    """Split a hand into few plays (rows ``(cards, dups)`` of ``plan``): bombs (four of a kind, kicker chosen
    when played; two decks: the lowest four cards of a rank, again while four are left) kept apart; then
    either straights, triple straights and pair straights first, or no sequences; triples with the lowest
    spare pair, pairs, singles. The split with fewer elements wins (ties: sequences first). Returns the count."""
    n_best = 0
    for attempt in range(2):
        buf = plan if attempt == 0 else alt
        n_plan = 0
        rest = hand
        rdup = dup
        fours = ranks_at_least(rank_counts(hand) + rank_counts(dup), 4)
        while fours:
            r = _low_index(fours) // 4
            fours &= fours - np.uint64(1)
            while _popcount(_rank_bits(rest, r)) + _popcount(_rank_bits(rdup, r)) >= 4:
                ea, ed = _lowest_of_rank(rest, rdup, r, 4)
                buf[n_plan, 0] = ea
                buf[n_plan, 1] = ed
                n_plan += 1
                rest, rdup = take(rest, rdup, ea, ed)
        if attempt == 0:
            rest, rdup, n_plan = _take_runs(rest, rdup, 1, min_straight, buf, n_plan)
            rest, rdup, n_plan = _take_runs(rest, rdup, 3, 2, buf, n_plan)
            rest, rdup, n_plan = _take_runs(rest, rdup, 2, 3, buf, n_plan)
        n_plan = _split_sets(rest, rdup, buf, n_plan)  # triples (+ lowest pair), pairs, singles, jokers
        if attempt == 0:
            n_best = n_plan
        elif n_plan < n_best:
            for i in range(n_plan):
                plan[i, 0] = alt[i, 0]
                plan[i, 1] = alt[i, 1]
            n_best = n_plan
    return n_best


@jit_inline
def _is_four(m, md):
    """Whether the play ``(m, md)`` is four cards of one rank (a bomb without its kicker)."""
    return (
        _popcount(m) + _popcount(md) == 4
        and _popcount(_rank_bits(m, _top_card(m) // 4)) + _popcount(_rank_bits(md, _top_card(m) // 4)) == 4
    )


@jit
def _planning_play(
    threshold, hand, dup, n_hand, cur_kind, cur_len, cur_key, moves, scratch, min_opp, zv, plan, n_plan, rev
):
    """The planning player's play ``(cards, dups)`` (``(0, 0)`` = pass), see POLICY_PLANNING; ``plan[:n_plan]``
    is :func:`plan_hand` of the hand.

    Only what the player looks at is computed: the whole hand (going out) and the whole plan elements, each a
    combination that is legal exactly when it beats the current play (a four of a kind is played as a bomb
    with our lowest single as kicker). The legal plays are generated only for the fall-backs (nothing whole
    to lead; breaking combinations). Ties go to the lowest play, as a scan of the sorted legal plays gives.
    """
    zero = np.uint64(0)
    kind, length, key = classify(hand, dup, zv, rev)
    if beats(cur_kind, cur_len, cur_key, kind, length, key, zv):
        return hand, dup  # go out
    current_rules = zv[V_CURRENT] == 1  # current_wiki: a bomb is a plan element alone (no kicker)
    n_fours = 0
    lowest_single = -1
    for j in range(n_plan):
        if _is_four(plan[j, 0], plan[j, 1]) or (
            current_rules and classify(plan[j, 0], plan[j, 1], zv, rev)[0] == K_BOMB
        ):
            n_fours += 1
        elif _popcount(plan[j, 0]) + _popcount(plan[j, 1]) == 1 and lowest_single < 0:
            lowest_single = _top_card(plan[j, 0])
    lead = cur_kind == K_NONE
    best = zero  # the best whole plan element (not a five-card bomb)
    best_d = zero
    best_rank = 1 << 30  # lead: its top card; follow: its key
    bomb = zero  # the lowest whole bomb allowed now
    bomb_d = zero
    for j in range(n_plan):
        m = plan[j, 0]
        md = plan[j, 1]
        b = zero
        bd = zero
        if current_rules:
            b = m  # the element itself, if it is a bomb
            bd = md
        elif lowest_single >= 0 and _is_four(m, md):
            b, bd = add_card(m, md, lowest_single)
        if b:
            kind, length, key = classify(b, bd, zv, rev)
            if (
                kind == K_BOMB
                and (length == 5 or current_rules)
                and beats(cur_kind, cur_len, cur_key, kind, length, key, zv)
            ):
                # a bomb is spent only when it decides the game: an opponent is close to going out, or
                # afterwards at most one plan element is left (never as a lead while other plays remain)
                left = n_plan - (1 if current_rules else 2)
                if not (lead and n_plan > n_fours + 1) and (min_opp <= threshold or left <= 1):
                    if bomb == zero or pair_less(b, bd, bomb, bomb_d):
                        bomb = b
                        bomb_d = bd
        kind, length, key = classify(m, md, zv, rev)
        if kind == K_BOMB and (length == 5 or current_rules):
            continue
        if not beats(cur_kind, cur_len, cur_key, kind, length, key, zv):
            continue
        rank = _top_card(m) if lead else key
        if rank < best_rank or (rank == best_rank and pair_less(m, md, best, best_d)):
            best_rank = rank
            best = m
            best_d = md
    if best:
        return best, best_d
    if bomb:
        return bomb, bomb_d
    if not lead and min_opp > threshold:
        return zero, zero
    n = moves_into(hand, dup, cur_kind, cur_len, cur_key, moves, scratch, zv, rev)
    pick = zero
    pick_d = zero
    if lead:
        # nothing whole to lead (only fours without a kicker are left): the lowest legal play by its top card
        low_top = 99
        for i in range(n):
            t = _top_card(moves[i, 0])
            if t < low_top or (t == low_top and pair_less(moves[i, 0], moves[i, 1], pick, pick_d)):
                low_top = t
                pick = moves[i, 0]
                pick_d = moves[i, 1]
        return pick, pick_d
    # an opponent is close to going out: break combinations, bombs included, cheapest first
    pick_rank = 1 << 40
    for i in range(n):
        kind, length, key = classify(moves[i, 0], moves[i, 1], zv, rev)
        cls = 2 if kind == K_STRAIGHT_FLUSH else (1 if kind == K_BOMB else 0)
        rank = cls * PLAN_CLASS_STEP + key * PLAN_KEY_STEP + length
        if rank < pick_rank or (rank == pick_rank and pair_less(moves[i, 0], moves[i, 1], pick, pick_d)):
            pick_rank = rank
            pick = moves[i, 0]
            pick_d = moves[i, 1]
    return pick, pick_d


@jit
def choose(st, policy, bomb_policy, threshold, hand, n_hand, cur_kind, cur_len, cur_key, moves, n, min_opp, zv, rev):
    """The random or greedy player's move: its index in ``moves[:n]``, or -1 to pass (the planning player is
    :func:`_planning_play`). The random player draws a position in the list as :func:`moves_into` orders it;
    the greedy player's ties go to the lowest play (:func:`pair_less`), whatever the list's order."""
    if policy == POLICY_RANDOM:
        return rng.below(st, n) if cur_kind == K_NONE else rng.below(st, n + 1) - 1  # following: -1 = pass
    # greedy: going out beats everything
    for i in range(n):
        if _popcount(moves[i, 0]) + _popcount(moves[i, 1]) == n_hand:
            return i
    best = -1
    best_len = -1
    best_top = 99
    best_key = 1 << 30
    sp = -1
    sp_rank = 1 << 30
    for i in range(n):
        kind, length, key = classify(moves[i, 0], moves[i, 1], zv, rev)
        if _special(kind):
            rank = (GREEDY_SF_CLASS if kind == K_STRAIGHT_FLUSH else 0) + key * GREEDY_KEY_STEP + length
            if rank < sp_rank or (rank == sp_rank and pair_less(moves[i, 0], moves[i, 1], moves[sp, 0], moves[sp, 1])):
                sp_rank = rank
                sp = i
            continue
        if cur_kind == K_NONE:
            top = _top_card(moves[i, 0])
            if length > best_len or (
                length == best_len
                and (
                    top < best_top
                    or (top == best_top and pair_less(moves[i, 0], moves[i, 1], moves[best, 0], moves[best, 1]))
                )
            ):
                best = i
                best_len = length
                best_top = top
        else:
            if key < best_key or (
                key == best_key and pair_less(moves[i, 0], moves[i, 1], moves[best, 0], moves[best, 1])
            ):
                best = i
                best_key = key
    if best >= 0:
        return best
    if sp < 0:
        return -1
    if bomb_policy == BOMB_EARLY or cur_kind == K_NONE:
        return sp
    if bomb_policy == BOMB_STOP and min_opp <= threshold:
        return sp
    return -1
