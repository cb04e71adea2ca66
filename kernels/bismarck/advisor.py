"""Bismarck kernels, the advisor (``cardlab odds bismarck``): every action of one position tried on the same
sampled layouts of the hidden cards (common random numbers), valued either double dummy on each layout (the
``pimc`` model: what a PIMC player computes) or by playing the hand on with built-in players.

Each trial is one layout, drawn exactly (:func:`kernels.bismarck.sample_hidden`: hand sizes, the suits each seat
showed out of, the cards out of play). Two count rows of :mod:`kernels.advise` side by side: the first with the
win event "makes the quota" and the payoff the round score (BM-6), the second with the payoff the deciding seat's
tricks in the hand (won so far and from here).
"""

from __future__ import annotations

import numpy as np

from .. import dd, rng
from .._jit import chunk_jit, jit, jit_inline
from ..advise import add_action, add_sample
from ..bits import nth_bit, popcount
from .hand import deal_round, new_solver_state, play_from, play_from_plain
from .layout import ALL_ROUNDS, H_FIELDS, H_TRICKS, S_DD, V_MUST_TRUMP
from .pimc import sample_hidden
from .players import discard
from .rules import hand_score, made_quota

#: the valuation models (the ``model`` argument); a built-in player's code plays the hand on instead
M_DD_EACH_LAYOUT = -1


@jit
def _solver_seats(model, strat):
    """The strategies that size the solver's table: a real one when the model or a seat uses the solver."""
    out = strat.copy()
    if model == M_DD_EACH_LAYOUT:
        out[0] = S_DD
    return out


@jit
def _buffers(A):
    """One chunk's working arrays: the sampled layout and the hands played, the hand's record and trace, the
    solver's card list, each action's outcome on the sample (quota, score; tricks) and the random streams."""
    return (
        np.zeros(4, dtype=np.uint64),
        np.zeros(4, dtype=np.uint64),
        np.zeros((3, H_FIELDS), dtype=np.int64),
        np.zeros(56, dtype=np.int64),
        np.zeros(4, dtype=np.int64),
        np.zeros(A, dtype=np.int64),
        np.zeros(A, dtype=np.int64),
        np.zeros(A, dtype=np.int64),
        np.zeros(A, dtype=np.int64),
        rng.new_state(),
        np.zeros((3, rng.STATE_SIZE), dtype=np.uint64),
    )


@jit
def _add(row, a, made, score, got, wins, scores, twins, tricks):
    """Action ``a``'s outcome on one sample into both count rows (quota and round score; tricks)."""
    W = row.shape[0] // 2
    add_action(row[:W], a, made, score, 0, wins, scores)
    add_action(row[W:], a, 0, got, 0, twins, tricks)


@jit
def _sample_done(row, A, wins, scores, twins, tricks):
    """One sample done, in both count rows."""
    W = row.shape[0] // 2
    add_sample(row[:W], A, wins, scores)
    add_sample(row[W:], A, twins, tricks)


@jit_inline
def _check_model(model, dd_only):
    """The pimc model (:data:`M_DD_EACH_LAYOUT`) runs on the ``dd_only`` kernels, every other model on the rest."""
    if (model == M_DD_EACH_LAYOUT) != dd_only:
        raise ValueError("the pimc model runs on the advise_*_dd_chunks kernels, and only it")


def _make_advisor(solvers, dd_only=False):
    """The advisor's kernels with the search and solver players and the pimc model (``solvers``), or without
    them: their code is then never compiled (:func:`.hand._make_tricks_from`), so a cold first run with the
    heuristic models compiles about half as much. ``dd_only``: the pimc model alone (each sampled layout solved
    double dummy), with no hand played on, so no player's play loop is compiled: the solver's search, the sampler
    and the built-in choices a fresh deal needs (trumps, round, discards). Each body picks its callees by the constants ``solvers`` and ``dd_only`` (the ``*_full``,
    ``*_dd`` and ``*_plain`` globals below): a closure holding a compiled function would not be cached."""

    def advise_play_chunks(
        chunk_ids, chunk_size, n_trials, key0, key1, seat, dealer, rtype, trump, hand, unknown, voids, sizes, known,
        leader, trick, k, played, history, hist_leader, known_out, widow_out, won, actions, model, strat, pv, bv, out,
    ):  # fmt: skip
        """The driver's kernel for a card to play (BM-9 1): seat ``seat`` holds ``hand`` and is to play the
        ``k``-th card of the trick led by ``leader`` (``trick[:k]`` so far); ``played``: the cards of the completed
        tricks; ``history``: every card played so far in order, the current trick's included, when
        ``hist_leader >= 0`` (who led the first trick; -1: the order is not known; pimc-infer players read it);
        ``won[s]``: tricks won so far; ``unknown``: the cards the seat has not seen (in the other hands or
        out of play), ``sizes[s]`` cards of each other hand to deal from them, ``known[s]`` cards known to be in a
        hand besides, ``voids[s]`` the suits a seat showed out of. Each action is
        a card of ``actions``; -1, the only action, when another seat is to play (``leader + k``): the seat's
        chances with the hand played on from here, nothing of its own chosen yet. ``model``:
        :data:`M_DD_EACH_LAYOUT` or play on with ``strat``'s players."""
        _check_model(model, dd_only)
        A = actions.shape[0]
        a_seat = (seat + 1) % 3
        b_seat = (seat + 2) % 3
        role = (seat - dealer) % 3
        misere = rtype == 3
        for ci in range(chunk_ids.shape[0]):
            c = chunk_ids[ci]
            start = c * chunk_size
            stop = min(start + chunk_size, n_trials)
            row = out[ci]
            ttk, ttg, bufs, ways, scratch = new_solver_state(_solver_seats(model, strat))
            base, hands, rec, trace, work, wins, scores, twins, tricks, st_deal, st_plays = _buffers(A)
            cards = np.zeros(16, dtype=np.int64)
            values = np.zeros(16, dtype=np.int64)
            value_of = np.zeros(64, dtype=np.int64)
            guess = -1  # the first layout's value searched from where dd.solve starts (dd.first_guess)
            whole = 0  # the position's value on this layout when another seat is to play (action -1)
            # the cards so far, in order: a play on writes only the cards after them (and trace[48:])
            for i in range(history.shape[0]):
                trace[i] = history[i]
            for t in range(start, stop):
                rng.seed_state(st_deal, key0, key1, np.uint64(t), np.uint64(rng.STREAM_DEAL))
                na, nb = sizes[a_seat], sizes[b_seat]
                if not sample_hidden(unknown, voids[a_seat], voids[b_seat], na, nb, st_deal, ways, scratch):
                    continue  # no layout fits the position (refused before the run: the analysis layer checks)
                base[seat] = hand
                base[a_seat] = scratch[0] | known[a_seat]
                base[b_seat] = scratch[1] | known[b_seat]
                if dd_only:  # the pimc model runs on these kernels only (the analysis layer picks the kernel)
                    if model == M_DD_EACH_LAYOUT:
                        for i in range(4):
                            hands[i] = base[i]
                            work[i] = trick[i]
                        me = 1 << seat
                        maxteam = me if not misere else 7 ^ me  # misere: the others push tricks on the seat (BM-5)
                        # each layout from an empty table (a new generation): another layout's entries are rarely
                        # found, and a probe reads through a bucket of them (docs/performance.md)
                        dd.clear_tt(ttk, ttg)
                        # a literal 3: the solver's chain is compiled for three hands only (dd.solve._search_for);
                        # the position's value searched from the last layout's (the values do not depend on it)
                        if guess < 0:
                            guess = dd.first_guess(hands, 3, trump, leader, k, maxteam, me)
                        if (leader + k) % 3 != seat:  # another seat is to play: the position's value alone
                            guess = dd.solve_near(
                                hands, 3, trump, bv[V_MUST_TRUMP], leader, work, k, maxteam, me, ttk, ttg, bufs, guess
                            )
                            whole = guess
                        else:
                            n = dd.card_values_near(
                                hands, 3, trump, bv[V_MUST_TRUMP], leader, work, k, maxteam, me, ttk, ttg, bufs,
                                cards, values, guess,
                            )  # fmt: skip
                            guess = values[0]
                            for i in range(n):
                                value_of[cards[i]] = values[i]
                                # the seat's best card: the most tricks, in the misere the fewest (BM-5)
                                if (values[i] < guess) if misere else (values[i] > guess):
                                    guess = values[i]
                for a in range(A):
                    if model == M_DD_EACH_LAYOUT:
                        got = won[seat] + (value_of[actions[a]] if actions[a] >= 0 else whole)
                    else:
                        for i in range(4):
                            hands[i] = base[i]
                        for s in range(3):
                            rec[s, H_TRICKS] = won[s]
                            rng.seed_state(st_plays[s], key0, key1, np.uint64(t), np.uint64(rng.STREAM_STRATEGY + s))
                        for i in range(4):
                            trace[48 + i] = trick[i]
                        for s in range(3):
                            trace[52 + s] = voids[s]
                        if dd_only:
                            pass  # never reached: the pimc model plays nothing on
                        elif solvers:
                            play_from(
                                hands, dealer, rtype, trump, known_out, widow_out, strat, pv, bv, st_plays, ttk, ttg, bufs,
                                ways, scratch, rec, trace, leader, k, played, actions[a], hist_leader,
                            )  # fmt: skip
                        else:
                            play_from_plain(
                                hands, dealer, rtype, trump, known_out, widow_out, strat, pv, bv, st_plays, ttk, ttg, bufs,
                                ways, scratch, rec, trace, leader, k, played, actions[a], hist_leader,
                            )  # fmt: skip
                        got = rec[seat, H_TRICKS]
                    made = np.int64(made_quota(rtype, role, got, bv))
                    _add(row, a, made, hand_score(rtype, role, got, bv), got, wins, scores, twins, tricks)
                _sample_done(row, A, wins, scores, twins, tricks)

    def _value_hand(hands, dealer, rtype, trump, known_out, widow_out, seat, model, strat, pv, bv, st_plays, key0, key1,
                    t, stream, ttk, ttg, bufs, ways, scratch, rec, trace):  # fmt: skip
        """The tricks ``seat`` takes in a whole hand dealt as ``hands`` (the dealer's left leads; ``widow_out``: the
        cards a widow exchange discarded, known to the exchanger): double dummy (the other two together against it;
        in the misere round pushing tricks on it) or played by ``strat``."""
        me = 1 << seat
        leader = (dealer + 1) % 3
        _check_model(model, dd_only)
        if dd_only:
            if model == M_DD_EACH_LAYOUT:
                work = np.zeros(4, dtype=np.int64)
                maxteam = me if rtype != 3 else 7 ^ me
                # np.int64(0), not 0: a literal compiles the solver's search once more for Literal[int](0) (12 s)
                return dd.solve(
                    hands, 3, trump, bv[V_MUST_TRUMP], leader, work, np.int64(0), maxteam, me, ttk, ttg, bufs
                )
        for s in range(3):
            rec[s, H_TRICKS] = 0
            rng.seed_state(st_plays[s], key0, key1, np.uint64(t), np.uint64(stream + s))
        for i in range(52, 55):
            trace[i] = 0
        if dd_only:
            pass  # never reached: the pimc model plays nothing on
        elif solvers:
            play_from(
                hands, dealer, rtype, trump, known_out, widow_out, strat, pv, bv, st_plays, ttk, ttg, bufs, ways,
                scratch, rec, trace, leader, 0, np.uint64(0), -1, leader,
            )  # fmt: skip
        else:
            play_from_plain(
                hands, dealer, rtype, trump, known_out, widow_out, strat, pv, bv, st_plays, ttk, ttg, bufs, ways,
                scratch, rec, trace, leader, 0, np.uint64(0), -1, leader,
            )  # fmt: skip
        return rec[seat, H_TRICKS]

    def advise_round_chunks(
        chunk_ids, chunk_size, n_trials, key0, key1, seat, dealer, hand, widow, unknown, rtypes, trumps, remaining,
        model, strat, pv, bv, out,
    ):  # fmt: skip
        """The driver's kernel for the choices made before the first lead: the round type (3(c)9) and round-3
        trumps (3(c)3), by the dealer ``seat == dealer`` having seen its ``hand``; or the Swedish contract (3(c)10),
        by forehand ``seat`` having seen the face-up ``widow`` alone (``hand`` is then 0: its cards are dealt from
        ``unknown`` too, and it takes the widow and discards as ``strat`` does). Action ``a`` plays round type
        ``rtypes[a]`` now with trumps ``trumps[a]`` (-1 none, -2 drawn from the 4 leftover cards, BM-5, else the
        suit named). The score counted is the cycle's: this hand's, plus, for every other type still in
        ``remaining``, the seat's score on a fresh deal of that type (each valued once a sample, the same for every
        action: the choice now decides which of them is played later); ``remaining = 0`` (naming trumps): this
        hand's alone."""
        for ci in range(chunk_ids.shape[0]):
            c = chunk_ids[ci]
            start = c * chunk_size
            stop = min(start + chunk_size, n_trials)
            if dd_only:
                _round_range_dd(start, stop, key0, key1, seat, dealer, hand, widow, unknown, rtypes, trumps, remaining, model,
                             strat, pv, bv, out[ci])  # fmt: skip
            elif solvers:
                _round_range_full(start, stop, key0, key1, seat, dealer, hand, widow, unknown, rtypes, trumps, remaining, model,
                             strat, pv, bv, out[ci])  # fmt: skip
            else:
                _round_range_plain(start, stop, key0, key1, seat, dealer, hand, widow, unknown, rtypes, trumps, remaining, model,
                             strat, pv, bv, out[ci])  # fmt: skip

    def _round_range(start, stop, key0, key1, seat, dealer, hand, widow, unknown, rtypes, trumps, remaining, model,
                     strat, pv, bv, row):  # fmt: skip
        """:func:`advise_round_chunks`' trials ``start .. stop-1`` into one count row."""
        A = rtypes.shape[0]
        a_seat = (seat + 1) % 3
        b_seat = (seat + 2) % 3
        role = (seat - dealer) % 3
        ttk, ttg, bufs, ways, scratch = new_solver_state(_solver_seats(model, strat))
        base, hands, rec, trace, _work, wins, scores, twins, tricks, st_deal, st_plays = _buffers(A)
        deck = np.zeros(52, dtype=np.int64)
        dout = np.zeros(1, dtype=np.uint64)
        fresh = np.zeros(4, dtype=np.int64)
        for t in range(start, stop):
            if dd_only:
                dd.clear_tt(ttk, ttg)  # each sample's solves from an empty table (see advise_play_chunks)
            rng.seed_state(st_deal, key0, key1, np.uint64(t), np.uint64(rng.STREAM_DEAL))
            if not sample_hidden(unknown, 0, 0, 16, 16, st_deal, ways, scratch):
                continue
            base[a_seat] = scratch[0]
            base[b_seat] = scratch[1]
            rest = unknown & ~scratch[0] & ~scratch[1]
            shown = 0
            if widow == 0:
                base[seat] = hand
                shown = nth_bit(rest, rng.below(st_deal, popcount(rest)))  # round 2's card (BM-5)
            else:
                base[seat] = rest  # the Swedish contract: forehand's own 16 cards are unseen when it chooses
            # the later hands of the cycle: one fresh deal of each other type left, the seat's score on it
            total_fresh = 0
            for r in range(4):
                fresh[r] = 0
                if (remaining >> r) & 1:
                    for s in range(3):
                        rng.seed_state(st_plays[s], key0, key1, np.uint64(t), np.uint64(rng.STREAM_STRATEGY + 3 + s))
                    _rt, ftrump, fknown = deal_round(
                        st_deal, deck, hands, r, ALL_ROUNDS, dealer, bv, strat, st_plays, dout
                    )  # fmt: skip
                    if dd_only:
                        got = _value_hand_dd(
                            hands, dealer, r, ftrump, fknown, dout[0], seat, model, strat, pv, bv, st_plays, key0, key1, t,
                            rng.STREAM_STRATEGY + 6 + 3 * r, ttk, ttg, bufs, ways, scratch, rec, trace,
                        )  # fmt: skip
                    elif solvers:
                        got = _value_hand_full(
                            hands, dealer, r, ftrump, fknown, dout[0], seat, model, strat, pv, bv, st_plays, key0, key1, t,
                            rng.STREAM_STRATEGY + 6 + 3 * r, ttk, ttg, bufs, ways, scratch, rec, trace,
                        )  # fmt: skip
                    else:
                        got = _value_hand_plain(
                            hands, dealer, r, ftrump, fknown, dout[0], seat, model, strat, pv, bv, st_plays, key0, key1, t,
                            rng.STREAM_STRATEGY + 6 + 3 * r, ttk, ttg, bufs, ways, scratch, rec, trace,
                        )  # fmt: skip
                    fresh[r] = hand_score(r, role, got, bv)
                    total_fresh += fresh[r]
            for a in range(A):
                for i in range(4):
                    hands[i] = base[i]
                rt = rtypes[a]
                tr = trumps[a]
                known = np.uint64(0)
                thrown = np.uint64(0)
                if tr == -2:
                    tr = shown >> 4
                    known = np.uint64(1) << np.uint64(shown)
                if widow != 0:  # forehand takes the widow and discards as its player does (3(c)10)
                    rng.seed_state(st_plays[seat], key0, key1, np.uint64(t), np.uint64(rng.STREAM_STRATEGY + 18))
                    hands[seat], thrown = discard(
                        hands[seat] | widow, popcount(widow), tr, rt == 3, strat[seat], st_plays[seat]
                    )  # fmt: skip
                if dd_only:
                    got = _value_hand_dd(
                        hands, dealer, rt, tr, known, thrown, seat, model, strat, pv, bv, st_plays, key0, key1, t,
                        rng.STREAM_STRATEGY, ttk, ttg, bufs, ways, scratch, rec, trace,
                    )  # fmt: skip
                elif solvers:
                    got = _value_hand_full(
                        hands, dealer, rt, tr, known, thrown, seat, model, strat, pv, bv, st_plays, key0, key1, t,
                        rng.STREAM_STRATEGY, ttk, ttg, bufs, ways, scratch, rec, trace,
                    )  # fmt: skip
                else:
                    got = _value_hand_plain(
                        hands, dealer, rt, tr, known, thrown, seat, model, strat, pv, bv, st_plays, key0, key1, t,
                        rng.STREAM_STRATEGY, ttk, ttg, bufs, ways, scratch, rec, trace,
                    )  # fmt: skip
                made = np.int64(made_quota(rt, role, got, bv))
                cycle = hand_score(rt, role, got, bv) + total_fresh - fresh[rt]
                _add(row, a, made, cycle, got, wins, scores, twins, tricks)
            _sample_done(row, A, wins, scores, twins, tricks)

    def advise_discard_chunks(
        chunk_ids, chunk_size, n_trials, key0, key1, seat, dealer, rtype, trump, held, unknown, known_out, discards,
        model, strat, pv, bv, screen, out,
    ):  # fmt: skip
        """The driver's kernel for the widow discard (3(c)5, 3(c)10): ``seat`` holds ``held`` (its 16 dealt cards
        and the widow) before the first lead; action ``a`` discards the cards ``discards[a]`` (out of play, known to
        the seat alone) and the hand is played (or solved) from the first lead. The other two hands are dealt from
        ``unknown``, 16 each; ``known_out``: round 2's card when it is out of play. ``screen`` (the advisor's first
        look at every distinct discard, before the best few are valued on fresh layouts): no pair sums, only per
        action the sums of the quota made, the round score and the tricks at ``out[ci, 3a .. 3a+2]``."""
        for ci in range(chunk_ids.shape[0]):
            c = chunk_ids[ci]
            start = c * chunk_size
            stop = min(start + chunk_size, n_trials)
            if dd_only:
                _discard_range_dd(start, stop, key0, key1, seat, dealer, rtype, trump, held, unknown, known_out, discards,
                               model, strat, pv, bv, out[ci], screen)  # fmt: skip
            elif solvers:
                _discard_range_full(start, stop, key0, key1, seat, dealer, rtype, trump, held, unknown, known_out, discards,
                               model, strat, pv, bv, out[ci], screen)  # fmt: skip
            else:
                _discard_range_plain(start, stop, key0, key1, seat, dealer, rtype, trump, held, unknown, known_out, discards,
                               model, strat, pv, bv, out[ci], screen)  # fmt: skip

    def _discard_range(start, stop, key0, key1, seat, dealer, rtype, trump, held, unknown, known_out, discards, model,
                       strat, pv, bv, row, screen):  # fmt: skip
        """:func:`advise_discard_chunks`' trials ``start .. stop-1`` into one row: the advisor's two count rows, or
        with ``screen`` the plain sums."""
        A = discards.shape[0]
        a_seat = (seat + 1) % 3
        b_seat = (seat + 2) % 3
        role = (seat - dealer) % 3
        ttk, ttg, bufs, ways, scratch = new_solver_state(_solver_seats(model, strat))
        base, hands, rec, trace, _work, wins, scores, twins, tricks, st_deal, st_plays = _buffers(A)
        for t in range(start, stop):
            if dd_only:
                dd.clear_tt(ttk, ttg)  # each sample's solves from an empty table (see advise_play_chunks)
            rng.seed_state(st_deal, key0, key1, np.uint64(t), np.uint64(rng.STREAM_DEAL))
            if not sample_hidden(unknown, 0, 0, 16, 16, st_deal, ways, scratch):
                continue
            base[a_seat] = scratch[0]
            base[b_seat] = scratch[1]
            for a in range(A):
                for i in range(4):
                    hands[i] = base[i]
                hands[seat] = held & ~discards[a]
                if dd_only:
                    got = _value_hand_dd(
                        hands, dealer, rtype, trump, known_out, discards[a], seat, model, strat, pv, bv, st_plays, key0,
                        key1, t, rng.STREAM_STRATEGY, ttk, ttg, bufs, ways, scratch, rec, trace,
                    )  # fmt: skip
                elif solvers:
                    got = _value_hand_full(
                        hands, dealer, rtype, trump, known_out, discards[a], seat, model, strat, pv, bv, st_plays, key0,
                        key1, t, rng.STREAM_STRATEGY, ttk, ttg, bufs, ways, scratch, rec, trace,
                    )  # fmt: skip
                else:
                    got = _value_hand_plain(
                        hands, dealer, rtype, trump, known_out, discards[a], seat, model, strat, pv, bv, st_plays, key0,
                        key1, t, rng.STREAM_STRATEGY, ttk, ttg, bufs, ways, scratch, rec, trace,
                    )  # fmt: skip
                made = np.int64(made_quota(rtype, role, got, bv))
                score = hand_score(rtype, role, got, bv)
                if screen:
                    row[3 * a] += made
                    row[3 * a + 1] += score
                    row[3 * a + 2] += got
                else:
                    _add(row, a, made, score, got, wins, scores, twins, tricks)
            if not screen:
                _sample_done(row, A, wins, scores, twins, tricks)

    return (
        chunk_jit(advise_play_chunks), jit(_value_hand), chunk_jit(advise_round_chunks), jit(_round_range),
        chunk_jit(advise_discard_chunks), jit(_discard_range),
    )  # fmt: skip


(
    advise_play_chunks, _value_hand_full, advise_round_chunks, _round_range_full, advise_discard_chunks,
    _discard_range_full,
) = _make_advisor(True)  # fmt: skip
#: the pimc model's kernels (every sampled layout solved double dummy, no hand played on: no player compiled)
(
    advise_play_dd_chunks, _value_hand_dd, advise_round_dd_chunks, _round_range_dd, advise_discard_dd_chunks,
    _discard_range_dd,
) = _make_advisor(True, dd_only=True)  # fmt: skip
#: the same kernels for heuristic, random and other non-solver players (the analysis layer picks them)
(
    advise_play_plain_chunks, _value_hand_plain, advise_round_plain_chunks, _round_range_plain,
    advise_discard_plain_chunks, _discard_range_plain,
) = _make_advisor(False)  # fmt: skip
