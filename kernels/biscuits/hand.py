"""Biscuits kernels, a hand and a game: the deal, the play of one hand (BI-8 .. BI-10), the next starter and the
end of a game (BI-11, BI-12).
"""

from __future__ import annotations

import numpy as np
from numba import types
from numba.extending import overload

from .. import rng
from .._jit import JIT_OPTIONS, chunk_jit, jit, jit_inline
from ..advise import add_action, add_sample
from ..bits import copy_rows, sort_prefix
from ..bits import popcount as _popcount
from ..bits import rank_bits as _rank_bits
from .combinations import K_NONE, MAX_MOVES, V_END_IMMEDIATE, V_PASS_LOCKS_OUT, V_STARTER_RULE, classify, generate_moves
from .players import (
    ACT_LOWEST,
    ACT_RANDOM,
    H_FIELDS,
    H_HCP,
    H_OUT_FIRST,
    H_OUT_SECOND,
    H_PLAYS,
    H_POINTS,
    H_STARTER,
    MAX_PLAN,
    MAX_TURNS,
    PASS_CONNECTORS,
    PASS_KEEP_COMBOS,
    PASS_PAIR,
    PASS_RANDOM,
    PASS_SINGLES,
    PLAY_PLANNING,
    PLAY_SEARCH,
    _choose_play,
    _connectors_pass,
    _keep_combos_pass,
    _lowest_cards,
    _pair_pass,
    _planning_play,
    _random_cards,
    plan_hand,
)

# what the forced first action of :func:`play_from` is (the advisor's action at the position's decision)
F_NONE = 0
F_PLAY = 1  # a play (a bit set of cards) or a pass (0) by ``turn``
F_HANDOVER = 2  # BI-10 Fancy: the trick winner hands the lead to its partner (1) or keeps it (0)
F_SEND = 3  # BI-10 Plain: the opponent at the winner's left sends this card (a bit set; 0 = no exchange)
F_RETURN = 4  # BI-10 Plain: its partner gives this card back (a bit set)

# where :func:`play_from` starts
PH_TURN = 0  # ``turn`` acts in the trick (``cur_kind == K_NONE``: it leads)
PH_TRICK_END = 1  # the trick ``last`` won (of ``cur_kind``) is over: BI-10's action, then BI-11's leader
PH_RETURN = 2  # BI-10 Plain: the card is sent; the partner of the sender gives one back, then BI-11

# an event log's rows (record writing): (kind, seat, value)
E_GIVE = 0  # BI-4: the two cards passed to the partner
E_PLAY = 1  # a play (its cards) or a pass (0)
E_SEND = 2  # BI-10 Plain, offered: the card sent (0 = declined)
E_RETURN = 3  # BI-10 Plain: the card given back
E_HANDOVER = 4  # BI-10 Fancy, offered: 1 = the lead handed to the partner, 0 = kept


@jit
def _log(log, kind, seat, value):
    """One event into ``log`` (rows ``1 ..``; their number in ``log[0, 0]``); an empty log records nothing."""
    if log.shape[0] > 0 and log[0, 0] + 1 < log.shape[0]:
        log[0, 0] += 1
        log[log[0, 0], 0] = kind
        log[log[0, 0], 1] = seat
        log[log[0, 0], 2] = np.int64(value)


@jit
def play_hand(hands, counts, starter, strat, st, rec, moves, bv):
    """One hand from dealt ``hands`` (BI-4 .. BI-11) with the partner pass; fills ``rec[4, H_FIELDS]``; returns
    (team 0 points, team 1 points)."""
    return play_hand_in_game(hands, counts, starter, strat, st, rec, moves, bv, True, 0, 0, 1 << 40, -1, 0, rec[:0])


@jit
def play_hand_in_game(
    hands, counts, starter, strat, st, rec, moves, bv, do_pass, score0, score1, target, fseat, fgive, log
):  # fmt: skip
    """:func:`_play_hand_in_game` without the search player."""
    return _play_hand_in_game(
        hands, counts, starter, strat, st, rec, moves, bv, do_pass, score0, score1, target, fseat, fgive, log, 0
    )  # fmt: skip


@jit_inline
def _play_hand_in_game(
    hands, counts, starter, strat, st, rec, moves, bv, do_pass, score0, score1, target, fseat, fgive, log, search
):  # fmt: skip
    """:func:`play_hand` inside a game: ``do_pass`` says whether the partners pass (variant pass_every_hand),
    and under variant game_end_check=immediate the hand stops as soon as a team's game score (``score0``,
    ``score1`` before the hand, plus this hand's points) reaches ``target``. With ``fseat >= 0`` that seat
    passes the two cards ``fgive`` (a bit set) instead of its player's choice (the advisor). ``log``: the
    hand's events (:func:`_log`; ``rec[:0]`` for none)."""
    for s in range(4):
        for f in range(H_FIELDS):
            rec[s, f] = 0
    rec[starter, H_STARTER] = 1
    # BI-4: both partners pass two cards at the same time
    give = np.zeros(4, dtype=np.uint64)
    plan = np.zeros(MAX_PLAN, dtype=np.uint64)
    alt = np.zeros(MAX_PLAN, dtype=np.uint64)
    for s in range(4):
        pol = strat[s, 1]
        if not do_pass:
            give[s] = 0
        elif s == fseat:
            give[s] = np.uint64(fgive)
        elif pol == PASS_RANDOM:
            give[s] = _random_cards(st, hands[s], 2)
        elif pol == PASS_KEEP_COMBOS:
            give[s] = _keep_combos_pass(hands[s], plan, alt, bv)
        elif pol == PASS_PAIR:
            give[s] = _pair_pass(hands[s])
        elif pol == PASS_CONNECTORS:
            give[s] = _connectors_pass(hands[s])
        else:
            give[s] = _lowest_cards(hands[s], 2, pol == PASS_SINGLES)
        if do_pass:
            _log(log, E_GIVE, s, give[s])
    for s in range(4):
        hands[s] = (hands[s] & ~give[s]) | give[(s + 2) % 4]
    for s in range(4):
        hcp = 0
        for r in range(9, 13):  # J, Q, K, A
            hcp += (r - 8) * _popcount(_rank_bits(hands[s], r))
        rec[s, H_HCP] = hcp
        rec[s, H_PLAYS] = plan_hand(hands[s], plan, alt, bv)
    points = np.zeros(2, dtype=np.int64)
    # np.int64, not plain constants: typed as literals, they would compile the loop once more (kernels/_jit.py)
    zero = np.int64(0)
    return _bi_loop_for(
        hands, counts, points, zero, starter, starter, np.int64(K_NONE), zero, zero, zero, np.int64(PH_TURN),
        np.int64(F_NONE), np.uint64(0),
        strat, st, rec, moves, bv, score0, score1, target, log, search,
    )  # fmt: skip


@jit
def play_from(
    hands, counts, points, out_count, turn, last, cur_kind, cur_key, passes, locked, phase, fkind, fval,
    strat, st, rec, moves, bv, score0, score1, target, log,
):  # fmt: skip
    """:func:`_play_from_loop` without the search player (the advisor, records, and the search's rollouts)."""
    return _bi_loop_for(
        hands, counts, points, out_count, turn, last, cur_kind, cur_key, passes, locked, phase, fkind, fval, strat,
        st, rec, moves, bv, score0, score1, target, log, 0,
    )  # fmt: skip


def _bi_search_hook(search, hands, counts, points, out_count, turn, last, cur_kind, cur_key, passes, locked, strat, st, rec, moves, bv, score0, score1, target):  # fmt: skip
    """The search player's play (kernels.biscuits.search), compiled in only where ``search`` is the constant 1.
    Compiled code only (see its overload)."""
    raise NotImplementedError


@overload(_bi_search_hook, prefer_literal=True)
def _bi_search_hook_overload(search, hands, counts, points, out_count, turn, last, cur_kind, cur_key, passes, locked, strat, st, rec, moves, bv, score0, score1, target):  # fmt: skip
    if isinstance(search, types.IntegerLiteral) and search.literal_value == 1:
        from .search import search_play_x

        def searching(search, hands, counts, points, out_count, turn, last, cur_kind, cur_key, passes, locked, strat, st, rec, moves, bv, score0, score1, target):  # fmt: skip
            return search_play_x(hands, counts, points, out_count, turn, last, cur_kind, cur_key, passes, locked, strat, st, rec, moves, bv, score0, score1, target)  # fmt: skip

        return searching

    def stub(search, hands, counts, points, out_count, turn, last, cur_kind, cur_key, passes, locked, strat, st, rec, moves, bv, score0, score1, target):  # fmt: skip
        if counts[turn] > 0:  # always: the raise, behind a test, leaves a typed return
            raise ValueError("a search seat needs the kernels compiled with the search player")
        return np.uint64(0)

    return stub


def _play_from_loop(
    hands, counts, points, out_count, turn, last, cur_kind, cur_key, passes, locked, phase, fkind, fval,
    strat, st, rec, moves, bv, score0, score1, target, log, search,
):  # fmt: skip
    """Play a hand on from a state to its end (BI-5 .. BI-11): ``hands``/``counts`` now, ``points`` this hand's
    team points so far (updated), ``out_count`` the seats out; the trick: ``last`` made its last play
    (``cur_kind``, ``cur_key``; ``K_NONE`` = ``turn`` leads), ``passes`` in a row since, ``locked`` the seats
    out of it by a pass (variant pass_locks_out, a bit set); ``phase`` where to start (``PH_*``). The first
    decision is ``fkind``'s action ``fval`` (``F_*``) where ``fkind != F_NONE``, the players' choices after.
    Marks who went out in ``rec`` and the hand's points (``rec``'s other fields are the caller's); returns
    (team 0 points, team 1 points). ``search`` (a constant, 0 or 1) compiles the search player in or not."""
    alt = np.zeros(MAX_PLAN, dtype=np.uint64)
    # each seat's plan (plan_hand) is kept until its hand changes: plan_of[s] is the hand it was made for
    plans = np.zeros((4, MAX_PLAN), dtype=np.uint64)
    plan_n = np.zeros(4, dtype=np.int64)
    plan_of = np.zeros(4, dtype=np.uint64)
    active = 0
    for s in range(4):
        if counts[s] > 0 or (phase == PH_RETURN and s == (last + 1) % 4):  # a sender holding 0 gets a card back
            active += 1
    locks = bv[V_PASS_LOCKS_OUT] == 1
    trick_over = phase != PH_TURN
    for _ in range(MAX_TURNS):
        if not trick_over:
            hand = hands[turn]
            partner_last = cur_kind != K_NONE and last == (turn + 2) % 4
            play = np.uint64(0)  # 0 = pass
            if fkind == F_PLAY:
                play = np.uint64(fval)
                fkind = F_NONE
            elif strat[turn, 0] == PLAY_SEARCH:
                play = _bi_search_hook(
                    search, hands, counts, points, out_count, turn, last, cur_kind, cur_key, passes, locked, strat,
                    st, rec, moves, bv, score0, score1, target,
                )  # fmt: skip
            elif strat[turn, 0] == PLAY_PLANNING:
                min_opp = 99
                for o in ((turn + 1) % 4, (turn + 3) % 4):
                    if 0 < counts[o] < min_opp:
                        min_opp = counts[o]
                if plan_of[turn] != hand or plan_n[turn] == 0:
                    plan_n[turn] = plan_hand(hand, plans[turn], alt, bv)
                    plan_of[turn] = hand
                play = _planning_play(
                    hand,
                    counts[turn],
                    cur_kind,
                    cur_key,
                    partner_last,
                    counts[(turn + 2) % 4],
                    min_opp,
                    moves,
                    bv,
                    plans[turn],
                    plan_n[turn],
                )
            else:
                n = generate_moves(hand, cur_kind, cur_key, moves, bv)
                sort_prefix(moves, n)
                pick = -1
                if n > 0:
                    pick = _choose_play(
                        st, strat[turn, 0], hand, counts[turn], cur_kind, cur_key, partner_last, moves, n, bv
                    )
                if cur_kind == K_NONE and pick < 0:
                    pick = 0
                if pick >= 0:
                    play = moves[pick]
            _log(log, E_PLAY, turn, play)
            if play:
                kind, key = classify(play, bv)
                hands[turn] = hand & ~play
                counts[turn] -= _popcount(play)
                cur_kind = kind
                cur_key = key
                last = turn
                passes = 0
                if counts[turn] == 0:
                    # BI-8: the team scores 1 per card of the opponent holding more
                    opp = max(counts[(turn + 1) % 4], counts[(turn + 3) % 4])
                    points[turn % 2] += opp
                    out_count += 1
                    active -= 1
                    rec[turn, H_OUT_FIRST if out_count == 1 else H_OUT_SECOND] = 1
                    if out_count == 2:
                        break  # BI-9: the hand ends at once
                    if bv[V_END_IMMEDIATE] == 1 and (score0 + points[0] >= target or score1 + points[1] >= target):
                        break  # variant game_end_check=immediate: the game is over
            else:
                passes += 1
                if locks:
                    locked |= 1 << turn
            if locks:
                # variant pass_locks_out: the trick ends when every other player holding cards has passed once
                trick_over = True
                for s in range(4):
                    if s != last and counts[s] > 0 and not (locked >> s) & 1:
                        trick_over = False
            else:
                trick_over = passes >= active - (1 if counts[last] > 0 else 0)
            if not trick_over:
                turn = (turn + 1) % 4
                while counts[turn] == 0 or (locked >> turn) & 1:
                    turn = (turn + 1) % 4
                continue
        # the trick is over: `last` won it; BI-10 special action, then BI-11 the next leader
        winner = last
        partner = (winner + 2) % 4
        nxt = -1
        if cur_kind // 10 == 1:
            if counts[partner] > 0:
                hand_over = False
                if fkind == F_HANDOVER:
                    hand_over = fval == 1
                    fkind = F_NONE
                else:
                    pol = strat[winner, 3]
                    if pol == ACT_RANDOM:
                        hand_over = rng.below(st, 2) == 1
                    elif pol == ACT_LOWEST:
                        hand_over = counts[winner] == 0 or counts[partner] < counts[winner]
                _log(log, E_HANDOVER, winner, 1 if hand_over else 0)
                if hand_over:
                    nxt = partner
        else:
            a = (winner + 1) % 4  # the opponent at the winner's left
            b = (a + 2) % 4
            if phase == PH_RETURN or (counts[a] > 0 and counts[b] > 0):  # the sender may have sent its last card
                if phase != PH_RETURN:
                    sent = np.uint64(0)
                    if fkind == F_SEND:
                        sent = np.uint64(fval)
                        fkind = F_NONE
                    else:
                        pol = strat[a, 2]
                        act = False
                        if pol == ACT_RANDOM:
                            act = rng.below(st, 2) == 1
                        elif pol == ACT_LOWEST:
                            act = True
                        if act:
                            sent = (
                                _random_cards(st, hands[a], 1)
                                if pol == ACT_RANDOM
                                else _lowest_cards(hands[a], 1, False)
                            )
                    _log(log, E_SEND, a, sent)
                    if sent:
                        hands[a] &= ~sent
                        hands[b] |= sent
                        counts[a] -= 1
                        counts[b] += 1
                        phase = PH_RETURN
                if phase == PH_RETURN:
                    if fkind == F_RETURN:
                        back = np.uint64(fval)
                        fkind = F_NONE
                    else:
                        pb = strat[b, 2]
                        back = _random_cards(st, hands[b], 1) if pb == ACT_RANDOM else _lowest_cards(hands[b], 1, False)
                    _log(log, E_RETURN, b, back)
                    hands[b] &= ~back
                    hands[a] |= back
                    counts[b] -= 1
                    counts[a] += 1
        phase = PH_TURN
        if nxt < 0:
            nxt = winner
            while counts[nxt] == 0:
                nxt = (nxt + 1) % 4
        cur_kind = K_NONE
        cur_key = 0
        passes = 0
        locked = 0
        turn = nxt
        last = nxt
        trick_over = False
    for s in range(4):
        rec[s, H_POINTS] = points[s % 2]
    return points[0], points[1]


def _bi_loop_for(hands, counts, points, out_count, turn, last, cur_kind, cur_key, passes, locked, phase, fkind, fval, strat, st, rec, moves, bv, score0, score1, target, log, search):  # fmt: skip
    """The play loop (:func:`_play_from_loop`) for the constant ``search``: 1 with the search player compiled in,
    0 without it (every other caller, and the search's own rollouts). Compiled code only (see its overload)."""
    raise NotImplementedError


@overload(_bi_loop_for, prefer_literal=True, jit_options=JIT_OPTIONS)
def _bi_loop_for_overload(hands, counts, points, out_count, turn, last, cur_kind, cur_key, passes, locked, phase, fkind, fval, strat, st, rec, moves, bv, score0, score1, target, log, search):  # fmt: skip
    """The loop itself is the implementation, compiled once per constant (as kernels.zheng_shangyou.game._loop_for:
    no wrapper around a dispatcher of its own)."""
    if isinstance(search, types.IntegerLiteral) and search.literal_value in (0, 1):
        return _play_from_loop
    return None


@jit
def deal(st, deck, hands, counts, starter):
    """BI-2, BI-3: the deck shuffled and dealt round from ``starter``, 13 cards each. The shuffle is the loop, not
    an unrolled one: that compiled much longer for no faster games (docs/performance.md)."""
    rng.partial_shuffle(st, deck, 52)
    for s in range(4):
        hands[s] = 0
        counts[s] = 13
    for i in range(52):
        s = (starter + i) % 4
        hands[s] |= np.uint64(1) << np.uint64(deck[i])


@jit
def next_starter(prev, score0, score1):
    """BI-3: clockwise from the previous Starter, the first player of a team that is behind or level."""
    for k in range(1, 5):
        s = (prev + k) % 4
        mine = score0 if s % 2 == 0 else score1
        theirs = score1 if s % 2 == 0 else score0
        if mine <= theirs:
            return s
    return (prev + 1) % 4


@jit
def next_starter_rule(prev, score0, score1, last_start, bv):
    """The next hand's Starter under the variant in force; ``last_start[team]`` is that team's last Starter
    (-1 before it has had one) and is updated.

    Variant starter_rule=trailing_team_alternates [OURS reading of 2(c)5]: the team that starts is the one
    BI-3 picks (behind, or on level scores the team clockwise next to the previous Starter); inside it the two
    players take turns, "from the last Starter in the partnership"; a team's first Starter is the one BI-3 picks.
    """
    s = next_starter(prev, score0, score1)
    if bv[V_STARTER_RULE] == 1 and last_start[s % 2] >= 0:
        s = (last_start[s % 2] + 2) % 4
    last_start[s % 2] = s
    return s


@jit_inline
def _game_over(score0, score1, n_hands, target, max_hands):
    """BI-12: a team has reached the target or the hands are played, and the scores are not level (ties play
    on; a safety stop after many extra hands, never reached in practice)."""
    done = score0 >= target or score1 >= target or n_hands >= max_hands
    return (done and score0 != score1) or n_hands >= 4 * max_hands + 40


@jit
def _deal_unseen(st_deal, key0, key1, t, pool, deck, known, sizes, base):
    """Sample ``t``'s layout: each seat holds its ``known`` cards, and a shuffle of ``pool`` fills the hands to
    ``sizes`` in seat order (uniform over the layouts consistent with them); into ``base``."""
    rng.seed_state(st_deal, key0, key1, np.uint64(t), np.uint64(rng.STREAM_DEAL))
    copy_rows(deck, pool)
    rng.partial_shuffle(st_deal, deck, deck.shape[0])
    i = 0
    for s in range(4):
        base[s] = known[s]
        for _ in range(sizes[s] - _popcount(known[s])):
            base[s] |= np.uint64(1) << np.uint64(deck[i])
            i += 1


@chunk_jit
def advise_pass_chunks(chunk_ids, chunk_size, n_trials, key0, key1, seat, hand, pool, gives, starter, strat, bv, out):
    """The driver's kernel for the pass (BI-4) of a freshly dealt hand: ``seat`` holds ``hand`` (13 cards, a bit
    set), the 39 cards of ``pool`` are dealt uniformly to the other seats (13 each); each action passes the two
    cards ``gives[a]`` and the hand is played by ``strat``'s players (the other passes theirs), every action on
    the same layout and draws. Win: the seat's team scores more this hand; payoff: its points minus the other
    team's (BI-8); the row is :mod:`kernels.advise`'s. No seat searches (:func:`advise_pass_search_chunks`)."""
    for ci in range(chunk_ids.shape[0]):
        _pass_chunk(chunk_ids[ci], chunk_size, n_trials, key0, key1, seat, hand, pool, gives, starter, strat, bv,
                    out[ci], 0)  # fmt: skip


@chunk_jit
def advise_pass_search_chunks(
    chunk_ids, chunk_size, n_trials, key0, key1, seat, hand, pool, gives, starter, strat, bv, out
):  # fmt: skip
    """:func:`advise_pass_chunks` with the search player compiled in (models that search)."""
    for ci in range(chunk_ids.shape[0]):
        _pass_chunk(chunk_ids[ci], chunk_size, n_trials, key0, key1, seat, hand, pool, gives, starter, strat, bv,
                    out[ci], 1)  # fmt: skip


@jit_inline
def _pass_chunk(c, chunk_size, n_trials, key0, key1, seat, hand, pool, gives, starter, strat, bv, row, search):
    A = gives.shape[0]
    start = c * chunk_size
    stop = min(start + chunk_size, n_trials)
    deck = pool.copy()
    base = np.zeros(4, dtype=np.uint64)
    hands = np.zeros(4, dtype=np.uint64)
    counts = np.zeros(4, dtype=np.int64)
    rec = np.zeros((4, H_FIELDS), dtype=np.int64)
    moves = np.zeros(MAX_MOVES, dtype=np.uint64)
    wins = np.zeros(A, dtype=np.int64)
    scores = np.zeros(A, dtype=np.int64)
    st_deal = rng.new_state()
    st_play = rng.new_state()
    known = np.zeros(4, dtype=np.uint64)
    known[seat] = hand
    sizes = np.full(4, 13, dtype=np.int64)
    for t in range(start, stop):
        _deal_unseen(st_deal, key0, key1, t, pool, deck, known, sizes, base)
        for a in range(A):
            copy_rows(hands, base)
            counts[:] = 13
            rng.seed_state(st_play, key0, key1, np.uint64(t), np.uint64(rng.STREAM_STRATEGY))
            p0, p1 = _play_hand_in_game(
                hands, counts, starter, strat, st_play, rec, moves, bv, True, 0, 0, 1 << 40, seat, gives[a], rec[:0],
                search,
            )  # fmt: skip
            mine = p0 if seat % 2 == 0 else p1
            theirs = p1 if seat % 2 == 0 else p0
            add_action(row, a, 1 if mine > theirs else 0, mine - theirs, 0, wins, scores)
        add_sample(row, A, wins, scores)


@chunk_jit
def advise_state_chunks(
    chunk_ids, chunk_size, n_trials, key0, key1, seat, known, pool, counts0, points0, out_count, turn, last,
    cur_kind, cur_key, passes, locked, phase, fkind, fvals, strat, bv, score0, score1, target, out,
):  # fmt: skip
    """The driver's kernel for a decision inside a hand (BI-5, BI-10): each seat holds its ``known`` cards (the
    deciding seat its whole hand) and the cards of ``pool`` are dealt uniformly to fill every seat to
    ``counts0`` (exact: a shuffle of the pool, dealt in seat order); each action plays ``fkind``'s ``fvals[a]``
    first (:func:`play_from` from the given trick state and ``phase``), the hand then played to its end by
    ``strat``'s players, every action on the same layout and draws. Win: the seat's team scores more this hand
    (``points0`` included); payoff: its points minus the other team's (BI-8); the row is :mod:`kernels.advise`'s. No seat searches (:func:`advise_state_search_chunks`)."""
    for ci in range(chunk_ids.shape[0]):
        _state_chunk(chunk_ids[ci], chunk_size, n_trials, key0, key1, seat, known, pool, counts0, points0, out_count, turn, last, cur_kind, cur_key, passes, locked, phase, fkind, fvals, strat, bv, score0, score1, target, out[ci], 0)  # fmt: skip


@chunk_jit
def advise_state_search_chunks(
    chunk_ids, chunk_size, n_trials, key0, key1, seat, known, pool, counts0, points0, out_count, turn, last,
    cur_kind, cur_key, passes, locked, phase, fkind, fvals, strat, bv, score0, score1, target, out,
):  # fmt: skip
    """:func:`advise_state_chunks` with the search player compiled in (models that search)."""
    for ci in range(chunk_ids.shape[0]):
        _state_chunk(chunk_ids[ci], chunk_size, n_trials, key0, key1, seat, known, pool, counts0, points0, out_count, turn, last, cur_kind, cur_key, passes, locked, phase, fkind, fvals, strat, bv, score0, score1, target, out[ci], 1)  # fmt: skip


@jit_inline
def _state_chunk(c, chunk_size, n_trials, key0, key1, seat, known, pool, counts0, points0, out_count, turn, last, cur_kind, cur_key, passes, locked, phase, fkind, fvals, strat, bv, score0, score1, target, row, search):  # fmt: skip
    A = fvals.shape[0]
    start = c * chunk_size
    stop = min(start + chunk_size, n_trials)
    deck = pool.copy()
    base = np.zeros(4, dtype=np.uint64)
    hands = np.zeros(4, dtype=np.uint64)
    counts = np.zeros(4, dtype=np.int64)
    points = np.zeros(2, dtype=np.int64)
    rec = np.zeros((4, H_FIELDS), dtype=np.int64)
    moves = np.zeros(MAX_MOVES, dtype=np.uint64)
    wins = np.zeros(A, dtype=np.int64)
    scores = np.zeros(A, dtype=np.int64)
    st_deal = rng.new_state()
    st_play = rng.new_state()
    for t in range(start, stop):
        _deal_unseen(st_deal, key0, key1, t, pool, deck, known, counts0, base)
        for a in range(A):
            copy_rows(hands, base)
            copy_rows(counts, counts0)
            copy_rows(points, points0)
            rng.seed_state(st_play, key0, key1, np.uint64(t), np.uint64(rng.STREAM_STRATEGY))
            p0, p1 = _bi_loop_for(
                hands, counts, points, out_count, turn, last, cur_kind, cur_key, passes, locked, phase,
                fkind, fvals[a], strat, st_play, rec, moves, bv, score0, score1, target, rec[:0], search,
            )  # fmt: skip
            mine = p0 if seat % 2 == 0 else p1
            theirs = p1 if seat % 2 == 0 else p0
            add_action(row, a, 1 if mine > theirs else 0, mine - theirs, 0, wins, scores)
        add_sample(row, A, wins, scores)


@jit
def record_hand(key0, key1, trial, strat, bv, hands0, log):
    """One hand with its event log: the first hand of trial ``trial`` of :func:`simulate_chunks` (the same
    Starter, deal and draws); its dealt hands into ``hands0[4]``, its events into ``log`` (:func:`_log`);
    returns the Starter. No seat searches (:func:`record_search_hand`)."""
    return _record_hand(key0, key1, trial, strat, bv, hands0, log, 0)


@jit
def record_search_hand(key0, key1, trial, strat, bv, hands0, log):
    """:func:`record_hand` with the search player compiled in (:func:`simulate_search_chunks`' first hand)."""
    return _record_hand(key0, key1, trial, strat, bv, hands0, log, 1)


@jit_inline
def _record_hand(key0, key1, trial, strat, bv, hands0, log, search):
    st_deal = rng.new_state()
    st_play = rng.new_state()
    rng.seed_state(st_deal, key0, key1, np.uint64(trial), np.uint64(rng.STREAM_DEAL))
    rng.seed_state(st_play, key0, key1, np.uint64(trial), np.uint64(rng.STREAM_STRATEGY))
    starter = rng.below(st_deal, 4)  # BI-3: the first Starter at random
    deck = np.arange(52, dtype=np.int64)
    hands = np.zeros(4, dtype=np.uint64)
    counts = np.zeros(4, dtype=np.int64)
    deal(st_deal, deck, hands, counts, starter)
    copy_rows(hands0, hands)
    rec = np.zeros((4, H_FIELDS), dtype=np.int64)
    moves = np.zeros(MAX_MOVES, dtype=np.uint64)
    log[0, 0] = 0
    _play_hand_in_game(hands, counts, starter, strat, st_play, rec, moves, bv, True, 0, 0, 1 << 40, -1, 0, log, search)
    return starter
