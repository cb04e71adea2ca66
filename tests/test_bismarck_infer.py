"""pimc-infer (issue 37; kernels/bismarck/pimc.py ``infer_layouts``): PIMC whose layouts are drawn from those in
which the other seats' cards so far are the ones the heuristic would have chosen. The layout actually dealt always
qualifies when the others play the heuristic; the mismatch count and the layouts kept agree with the plain-Python
reference on the same draws; the player runs wherever a strategy name does, the advisor's play on included."""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np
import pytest

from analysis import driver
from analysis.errors import CardlabError
from analysis.games import bismarck as bm
from analysis.games import bismarck_odds as bo
from analysis.jackknife import chunk_size_for
from kernels import bismarck as K
from kernels import rng
from kernels.bismarck import pimc as P
from tests.reference import bismarck as ref
from tests.same_counts import assert_same_counts

FULL = np.uint64(sum(1 << (16 * s + r) for s in range(4) for r in range(13)))


def _mask(cards) -> np.uint64:
    return np.uint64(sum(1 << c for c in cards))


def _played_hand(rnd: random.Random, round_no: int, strategies, n: int, must_trump=False, exchanger=None):
    """A hand dealt from the pack and played (BM-4) for its first ``n`` cards by ``strategies`` (the reference's
    heuristic or random legal cards). With ``exchanger``, that seat knows the 4 cards left after the deal to be
    out of play (as the widow's discards); in round 2 one of them is the shown trump card. Returns the hands now,
    the cards in order, the first leader, trump, the known card, the widow and the voids shown."""
    deck = [s * 16 + r for s in range(4) for r in range(13)]
    rnd.shuffle(deck)
    hands = [set(deck[16 * i : 16 * i + 16]) for i in range(3)]
    widow = set(deck[48:])
    known_out = {deck[48]} if round_no == 2 else set()
    trump = -1 if round_no in (1, 4) else (deck[48] >> 4 if round_no == 2 else rnd.randrange(4))
    first = rnd.randrange(3)
    full = {s * 16 + r for s in range(4) for r in range(13)}
    leader, order, played, voids = first, [], set(), [0, 0, 0]
    while len(order) < n:
        row: list[int] = []
        for i in range(3):
            if len(order) == n:
                break
            q = (leader + i) % 3
            options = ref.legal(hands[q], ref.suit(row[0]) if row else None, trump, must_trump)
            if strategies[q] == "random" or len(options) == 1:
                c = rnd.choice(options)
            else:
                unseen = full - played - hands[q] - set(row) - known_out - (widow if q == exchanger else set())
                c = ref.heuristic(hands[q], options, row, trump, round_no == 4, unseen)
            if row and ref.suit(c) != ref.suit(row[0]):
                voids[q] |= 1 << ref.suit(row[0])
                if must_trump and trump >= 0 and ref.suit(c) != trump:
                    voids[q] |= 1 << trump
            hands[q].remove(c)
            row.append(c)
            order.append(c)
        if len(row) == 3:
            leader = (leader + ref.winner_pos(row, trump)) % 3
            played |= set(row)
    return hands, order, first, trump, known_out, widow, voids


def _kernel_count(p, hands, order, first, trump, round_no, known_out, must_trump, exchanger, widow, cap=99):
    trace = np.zeros(56, dtype=np.int64)
    trace[: len(order)] = order
    seat = np.zeros(max(len(order), 1), dtype=np.int64)
    P._history_seats(trace, len(order), first, trump, seat)
    a, b = (p + 1) % 3, (p + 2) % 3
    return P._mismatches(
        p, _mask(hands[a]), _mask(hands[b]), _mask(widow), -1 if exchanger is None else exchanger, trace,
        len(order), seat, trump, round_no == 4, int(must_trump), _mask(known_out), cap,
    )  # fmt: skip


CASES = [  # round, must-trump (3(c)6), the seat that knows the widow (3(c)5)
    (1, False, None),
    (2, False, None),
    (3, False, None),
    (4, False, None),
    (3, True, None),
    (2, False, 1),
]


@pytest.mark.parametrize("round_no,must_trump,exchanger", CASES)
def test_the_layout_dealt_matches_every_card_of_heuristic_seats(round_no, must_trump, exchanger):
    # BM-4 play by three heuristic seats: from any point of the hand, the true layout of the other two seats
    # accounts for every card they chose, in the kernel and in the reference
    rnd = random.Random(7000 + 10 * round_no + must_trump)
    for _ in range(8):
        n = rnd.randrange(1, 48)
        hands, order, first, trump, known_out, widow, _ = _played_hand(
            rnd, round_no, ["heuristic"] * 3, n, must_trump, exchanger
        )
        for p in range(3):
            w = widow if exchanger is not None and exchanger != p else set()
            assert _kernel_count(p, hands, order, first, trump, round_no, known_out, must_trump, exchanger, w) == 0
            assert ref.mismatches(p, hands, order, first, trump, round_no, known_out, must_trump, exchanger, w) == 0


@pytest.mark.parametrize("round_no,must_trump,exchanger", CASES)
def test_mismatches_agree_with_the_reference(round_no, must_trump, exchanger):
    # other layouts, and seats that play at random: the kernel counts what the reference counts, and the count
    # is not always 0 (the test can fail)
    rnd = random.Random(8000 + 10 * round_no + must_trump)
    seen_nonzero = False
    for _ in range(25):
        n = rnd.randrange(1, 48)
        strategies = [rnd.choice(("heuristic", "random")) for _ in range(3)]
        hands, order, first, trump, known_out, widow, _ = _played_hand(
            rnd, round_no, strategies, n, must_trump, exchanger
        )
        p = rnd.randrange(3)
        a, b = (p + 1) % 3, (p + 2) % 3
        # another layout: the two other hands' cards dealt again at random, the sizes kept (voids ignored: the count
        # is defined for any layout)
        pool = sorted(hands[a] | hands[b])
        rnd.shuffle(pool)
        other = [set(), set(), set()]
        other[p] = hands[p]
        other[a] = set(pool[: len(hands[a])])
        other[b] = set(pool[len(hands[a]) :])
        for layout in (hands, other):
            w = widow if exchanger is not None and exchanger != p else set()
            got = _kernel_count(p, layout, order, first, trump, round_no, known_out, must_trump, exchanger, w)
            want = ref.mismatches(p, layout, order, first, trump, round_no, known_out, must_trump, exchanger, w)
            assert got == want
            seen_nonzero |= want > 0
    assert seen_nonzero


@pytest.mark.parametrize("round_no", [1, 3])
def test_layouts_kept_agree_with_the_reference_on_the_same_draws(round_no):
    # infer_layouts against the reference's choice among the same candidates (the kernel's sampler drawn from a
    # copy of the same stream): the fewest mismatches first, in the order drawn
    rnd = random.Random(9000 + round_no)
    samples = 8
    for case in range(10):
        n = rnd.randrange(3, 40)
        strategies = ["heuristic"] * 3 if case % 2 == 0 else ["random", "heuristic", "random"]
        hands, order, first, trump, known_out, _, voids = _played_hand(rnd, round_no, strategies, n)
        p = rnd.randrange(3)
        a, b = (p + 1) % 3, (p + 2) % 3
        played = set(order[: len(order) - len(order) % 3])
        unknown = FULL & ~(_mask(played | set(order)) | _mask(hands[p]) | _mask(known_out))
        st = rng.new_state()
        rng.seed_state(st, np.uint64(5), np.uint64(6), np.uint64(case), np.uint64(0))
        st_ref = st.copy()
        trace = np.zeros(56, dtype=np.int64)
        trace[: len(order)] = order
        layouts = np.zeros((samples, 4), dtype=np.uint64)
        ways = np.zeros((5, 17, 17))
        scratch = np.zeros(2, dtype=np.uint64)
        got = P.infer_layouts(
            p, _mask(hands[p]), unknown, voids[a], voids[b], len(hands[a]), len(hands[b]), trace, len(order), first,
            trump, round_no == 4, 0, _mask(known_out), -1, samples, st, ways, scratch, layouts,
        )  # fmt: skip
        assert got == samples
        ways_ref = np.zeros((5, 17, 17))
        assert P.hidden_ways(unknown, voids[a], voids[b], len(hands[a]), len(hands[b]), ways_ref)

        def draw():
            P.draw_hidden(unknown, voids[a], voids[b], len(hands[a]), len(hands[b]), st_ref, ways_ref, scratch)
            return int(scratch[0]), int(scratch[1])

        def count(candidate):
            layout = [set(), set(), set()]
            layout[p] = hands[p]
            layout[a] = {c for c in range(64) if (candidate[0] >> c) & 1}
            layout[b] = {c for c in range(64) if (candidate[1] >> c) & 1}
            return min(P.INFER_CAP, ref.mismatches(p, layout, order, first, trump, round_no, known_out))

        tries = min(samples * P.INFER_TRIES, P.INFER_MAX_TRIES)
        want = ref.infer_layouts(draw, count, samples, tries)
        assert [(int(layouts[i, a]), int(layouts[i, b])) for i in range(samples)] == want
        assert all(int(layouts[i, p]) == int(_mask(hands[p])) for i in range(samples))


VARIANTS = [  # the hand's trace as the kernels record it, in every variant that changes what a seat has seen
    ({}, 2),  # the drawn trump card, shown and out of play
    ({"widow_exchange": "dealer_takes_4_discards_4"}, 1),
    ({"widow_exchange": "swedish"}, 3),  # forehand exchanges
    ({"ruleset": "swedish"}, 3),  # Valfri: forehand takes the face-up widow
    ({"must_trump_when_void": "true"}, 3),
]


@pytest.mark.parametrize("variants,round_no", VARIANTS)
def test_the_recorded_hand_matches_from_what_the_seat_knows(variants, round_no):
    # end to end: record_hand's cards of three heuristic seats, and at every card of each seat the unknown cards,
    # the exchanging seat and the widow built as _tricks_from and infer_layouts build them: the true layout of
    # the other two seats never mismatches
    bv = bm.variant_array(variants)
    strat = np.array([K.S_HEURISTIC] * 3, dtype=np.int64)
    pv = bm.player_array(16, 16, ["heuristic"] * 3)
    exchanged = 0
    for t in range(6):
        hands0 = np.zeros(4, dtype=np.uint64)
        trace = np.zeros(56, dtype=np.int64)
        info = np.zeros(8, dtype=np.int64)
        K.record_hand_plain(np.uint64(3), np.uint64(4), np.uint64(t), strat, pv, np.int64(round_no - 1), bv, hands0,
                            trace, info)  # fmt: skip
        dealer, rtype, trump = int(info[0]), int(info[1]), int(info[2])
        known_out, widow_out = np.uint64(info[3]), np.uint64(info[4])
        exchanger = dealer if bv[K.V_WIDOW] != 2 else (dealer + 1) % 3  # as _tricks_from
        exch = exchanger if bv[K.V_WIDOW] != 0 else -1
        exchanged += widow_out != 0
        seat = np.zeros(48, dtype=np.int64)
        P._history_seats(trace, 48, (dealer + 1) % 3, trump, seat)
        hands = hands0.copy()
        played = np.uint64(0)
        for n in range(48):
            p = int(seat[n])
            on_table = np.uint64(sum(1 << int(c) for c in trace[n - n % 3 : n]))
            seen = played | hands[p] | known_out | on_table | (widow_out if p == exchanger else np.uint64(0))
            unknown = FULL & ~seen
            a, b = (p + 1) % 3, (p + 2) % 3
            widow = unknown & ~(hands[a] | hands[b])
            assert P._mismatches(p, hands[a], hands[b], widow, exch, trace, n, seat, trump, rtype == 3,
                                 int(bv[K.V_MUST_TRUMP]), known_out, 99) == 0  # fmt: skip
            hands[p] ^= np.uint64(1) << np.uint64(trace[n])
            if n % 3 == 2:
                played |= on_table | (np.uint64(1) << np.uint64(trace[n]))
    assert exchanged == (6 if bv[K.V_WIDOW] != 0 else 0)


def test_pimc_infer_plays_hands_apart_from_pimc_and_reproducibly():
    # a short compare (PIMC from 6 cards keeps it quick): it runs and pairs; the hand's cards so far reach the
    # player (its table is not pimc's on the same deals); one thread or two, chunks of 24 trials or of the spec's
    # size, give the same table
    spec = bm.compare_spec("heuristic", "pimc-infer", round=3, pimc_from=6, samples=8)
    t1 = driver.run(spec, trials=24, seed=11, progress=False, chunk_size=24, threads=1).table
    r2 = driver.run(spec, trials=24, seed=11, progress=False, threads=2)
    assert r2.meta["chunk_size"] == chunk_size_for(24, bm.SOLVER_CHUNK["paired"]) < 24  # a short run: 32 chunks or more
    assert_same_counts(t1, r2.table)  # the pooled rows' jackknife comes from the chunks
    assert spec.describe["pimc_from"] == 6 and spec.describe["challenger"] == "pimc-infer"
    plain = driver.run(
        bm.compare_spec("heuristic", "pimc", round=3, pimc_from=6, samples=8), trials=24, seed=11, progress=False,
        chunk_size=4, threads=1,
    ).table  # fmt: skip
    assert not t1.challenger_value.equals(plain.challenger_value)


#: advise_play_chunks' arguments: the cards played so far in order, then who led the first trick (-1: unknown)
HISTORY, HIST_LEADER = 13, 14


def _advisor_position(seed: int, n: int):
    """A position after ``n`` cards of a round-1 hand played by heuristic seats, as ``odds``' flags: the seat to
    play, its hand, the completed tricks in order and the current one; with the cards in order, the first
    leader and every seat's cards now."""
    hands, order, first, trump, _known, _widow, _voids = _played_hand(random.Random(seed), 1, ["heuristic"] * 3, n)
    done = len(order) // 3 * 3
    leader = first
    for i in range(0, done, 3):
        leader = (leader + ref.winner_pos(order[i : i + 3], trump)) % 3
    cur = order[done:]
    seat = (leader + len(cur)) % 3
    pos = {
        "seat": seat, "hand": bo._text(sorted(hands[seat])), "round": 1, "dealer": (first + 2) % 3,
        "tricks": [bo._text(order[i : i + 3]) for i in range(0, done, 3)], "current": bo._text(cur) if cur else None,
    }  # fmt: skip
    return pos, order, first, hands


def test_the_advisor_gives_pimc_infer_the_order_of_play():
    # odds (and review, which asks it at each card) with --tricks: the players play on reading every card so far in
    # order, the current trick's included; their table is not the one they play without it (sampling as pimc)
    pos, order, first, _hands = _advisor_position(5, 14)
    spec = bo.play_spec(strategies=["pimc-infer"], pimc_from=9, pimc_samples=8, **pos)
    assert list(spec.args[HISTORY]) == order and spec.args[HIST_LEADER] == first
    with_order = driver.run(spec, trials=16, seed=3, progress=False, chunk_size=8, threads=1).table
    blind = replace(spec, args=(*spec.args[:HIST_LEADER], np.int64(-1), *spec.args[HIST_LEADER + 1 :]))
    without = driver.run(blind, trials=16, seed=3, progress=False, chunk_size=8, threads=1).table
    assert not with_order.estimate.equals(without.estimate)


def test_the_advisor_plays_on_as_play_from_does_with_the_cards_so_far():
    # the advisor's play on, mid-trick, with every hidden card named (--known: one layout): each action's tricks
    # are those of play_from called directly on that layout, with the trace holding the cards so far in order and
    # the advisor's streams (trial t, one per seat). A history copied wrong (or not at all) plays otherwise.
    pos, order, first, hands = _advisor_position(11, 23)
    seat = pos["seat"]
    pos["known"] = [f"{s}={bo._text(sorted(hands[s]))}" for s in range(3) if s != seat]
    spec = bo.play_spec(strategies=["pimc-infer"], pimc_from=9, pimc_samples=8, **pos)
    n, seed = 4, 3
    table = driver.run(spec, trials=n, seed=seed, progress=False, chunk_size=n, threads=1).table
    got = table[table.measure == "tricks"].set_index("action")["estimate"]
    a = spec.args
    dealer, rtype, trump, leader, k = int(a[1]), int(a[2]), int(a[3]), int(a[9]), int(a[11])
    strat, pv, bv = a[20], a[21], a[22]
    key0, key1 = driver.split_seed(seed)
    state = K.new_solver_state(strat)
    for label, c in zip(spec.describe["actions"], a[18]):
        total = 0
        for t in range(n):
            layout = np.array([_mask(h) for h in hands] + [0], dtype=np.uint64)
            rec = np.zeros((3, K.H_FIELDS), dtype=np.int64)
            rec[:, K.H_TRICKS] = a[17]
            trace = np.zeros(56, dtype=np.int64)
            trace[: len(order)] = order
            trace[48 : 48 + k] = a[10][:k]
            trace[52:55] = a[6]
            K.play_from(layout, dealer, rtype, trump, a[15], a[16], strat, pv, bv, _streams(key0, key1, t), *state, rec,
                        trace, leader, k, a[12], int(c), first)  # fmt: skip
            total += int(rec[seat, K.H_TRICKS])
        assert got[label] == pytest.approx(total / n, abs=1e-12), label


def test_the_advisor_refuses_pimc_infer_without_the_order_of_play():
    # --played gives the completed tricks' cards without their order
    pos = dict(seat=0, hand="KS 2H 3H 4C 5C 6C 7C 8D 9D TD JD QH KH AH 2S", round=1, dealer=2, played="AS 3S 4S",
               won=["0=1", "1=0", "2=0"], leader=0)  # fmt: skip
    with pytest.raises(CardlabError, match="pimc-infer reads the layouts from the order"):
        bo.play_spec(strategies=["pimc-infer"], **pos)
    assert bo.play_spec(strategies=["pimc"], **pos).args[HIST_LEADER] == -1


def _streams(key0=7, key1=0, t=0):
    """The three seats' strategy streams of trial ``t``, seeded as the kernels seed them."""
    st = np.zeros((3, rng.STATE_SIZE), dtype=np.uint64)
    for s in range(3):
        rng.seed_state(st[s], np.uint64(key0), np.uint64(key1), np.uint64(t), np.uint64(rng.STREAM_STRATEGY + s))
    return st


def test_play_from_reads_the_order_of_play_as_the_whole_hand_does():
    # kernels.bismarck.play_from (the advisor's play on) given the hand's cards so far in order and the first
    # leader: pimc-infer seats play on from the 22nd card exactly as in the hand played from its first card (they
    # play the heuristic above 9 cards, drawing nothing, so their streams start where they stood). Without the
    # order (-1) they sample as pimc, and play otherwise somewhere. The first of those cards is the one the player
    # picks when asked directly with the hand's first leader (the whole hand passes it down).
    bv = bm.variant_array(None)
    strat = np.full(3, K.S_PIMC_INFER, dtype=np.int64)
    pv = bm.player_array(9, 8, ["pimc-infer"])
    n = 21
    blind_differs = 0
    for trial in range(3):
        r = np.random.default_rng(trial)
        deck = [int((c // 13) * 16 + c % 13) for c in r.permutation(52)]
        dealt = np.array([_mask(deck[16 * i : 16 * i + 16]) for i in range(3)] + [0], dtype=np.uint64)
        dealer = trial % 3
        first = (dealer + 1) % 3
        state = K.new_solver_state(strat)
        rec = np.zeros((3, K.H_FIELDS), dtype=np.int64)
        trace = np.zeros(56, dtype=np.int64)
        K.play_hand(dealt.copy(), dealer, 0, -1, np.uint64(0), np.uint64(0), strat, pv, bv, _streams(), *state, rec,
                    trace)  # fmt: skip
        order = [int(c) for c in trace[:48]]
        hands, leader, won, voids, played = dealt.copy(), first, [0, 0, 0], [0, 0, 0], 0
        for i in range(0, n, 3):  # the position after n cards (BM-4)
            row = order[i : i + 3]
            for j, c in enumerate(row):
                q = (leader + j) % 3
                hands[q] ^= np.uint64(1 << c)
                played |= 1 << c
                if j and c >> 4 != row[0] >> 4:
                    voids[q] |= 1 << (row[0] >> 4)
            leader = (leader + ref.winner_pos(row, -1)) % 3
            won[leader] += 1
        # the first pimc decision, asked directly with the first leader: what the whole hand played
        ttk, ttg, bufs, ways, scratch = state
        hist = np.zeros(56, dtype=np.int64)
        hist[:n] = order[:n]
        unseen = np.uint64(int(FULL) & ~(played | int(hands[leader])))
        c = K.choose_card(K.S_PIMC_INFER, leader, hands.copy(), leader, np.zeros(4, dtype=np.int64), 0, -1, False, 0,
                          unseen, np.array(voids, dtype=np.int64), np.uint64(0), 8, _streams()[leader], ttk, ttg, bufs,
                          ways, scratch, hist, n, first, -1)  # fmt: skip
        assert c == order[n]
        for hist_leader in (first, -1):
            rec2 = np.zeros((3, K.H_FIELDS), dtype=np.int64)
            rec2[:, K.H_TRICKS] = won
            trace2 = np.zeros(56, dtype=np.int64)
            trace2[:n] = order[:n]
            trace2[52:55] = voids
            K.play_from(hands.copy(), dealer, 0, -1, np.uint64(0), np.uint64(0), strat, pv, bv, _streams(), *state,
                        rec2, trace2, leader, 0, np.uint64(played), -1, hist_leader)  # fmt: skip
            if hist_leader >= 0:
                assert [int(c) for c in trace2[n:48]] == order[n:]
                assert list(rec2[:, K.H_TRICKS]) == list(rec[:, K.H_TRICKS])
            else:
                blind_differs += [int(c) for c in trace2[n:48]] != order[n:]
    assert blind_differs > 0
