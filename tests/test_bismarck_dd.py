"""The double-dummy solver (kernels/dd/): against brute-force minimax on thousands of small endings (3 and
4 hands, trumps and no trumps, mid-trick, misère goals, must-trump), against Bo Haglund's DDS (through
endplay) on random bridge endings, the `solve` command, and the PIMC sampler."""

from __future__ import annotations

import json
from itertools import combinations

import numpy as np
import pytest

from analysis.cli import main
from kernels import bismarck as K
from kernels import dd, rng
from tests.reference import bismarck as ref


def _mask(cards):
    m = np.uint64(0)
    for c in cards:
        m |= np.uint64(1) << np.uint64(c)
    return m


def _array(hands):
    h = np.zeros(4, dtype=np.uint64)
    for q, x in enumerate(hands):
        h[q] = _mask(x)
    return h


def _leader_side(r, nh, leader):
    """The leader's side: a bridge partnership, or with 3 hands the leader alone or with one of the others."""
    if nh == 4:
        return (1 << leader) | (1 << ((leader + 2) % 4))
    return 1 << leader if r.random() < 0.5 else 7 ^ (1 << int(r.choice([q for q in range(3) if q != leader])))


def _random_ending(r, nh, m):
    cards = r.choice(52, nh * m, replace=False)
    cards = [int((c // 13) * 16 + c % 13) for c in cards]
    return [set(cards[i * m : (i + 1) * m]) for i in range(nh)]


def _solve(hands, trump, leader, played, maxteam, countteam, must, tables):
    ttk, ttg, bufs = tables
    h = _array(hands)
    p = np.zeros(4, dtype=np.int64)
    p[: len(played)] = played
    return int(dd.solve(h, len(hands), trump, int(must), leader, p, len(played), maxteam, countteam, ttk, ttg, bufs))


@pytest.fixture(scope="module")
def tables():
    ttk, ttg = dd.new_tt(16)
    return ttk, ttg, dd.new_buffers()


def _small_ending(r, i, below3, below4, trumps_from):
    """The i-th position of a bound's test: 3 hands when i is odd, 4 otherwise, of 2 to ``below3 - 1`` or
    ``below4 - 1`` cards; a trump suit from ``trumps_from`` (-1: no trumps too); a leader."""
    nh = 3 if i % 2 else 4
    m = int(r.integers(2, below3 if nh == 3 else below4))
    hands = _random_ending(r, nh, m)
    trump = int(r.integers(trumps_from, 4))
    leader = int(r.integers(nh))
    return nh, m, hands, trump, leader


def _endings(seed, n):
    r = np.random.default_rng(seed)
    for _ in range(n):
        nh = int(r.choice([3, 4]))
        m = int(r.integers(1, 5 if nh == 4 else 6))
        hands = _random_ending(r, nh, m)
        trump = int(r.integers(-1, 4))
        leader = int(r.integers(nh))
        must = bool(r.random() < 0.2)
        k = int(r.integers(0, nh)) if m > 1 else 0
        played = []
        for i in range(k):  # some cards of the current trick already on the table
            p = (leader + i) % nh
            opts = ref.legal(hands[p], played[0] >> 4 if played else None, trump, must)
            c = int(r.choice(opts))
            hands[p].discard(c)
            played.append(c)
        if nh == 3:
            player = int(r.integers(3))
            count = 1 << player
            maxteam = count if r.random() < 0.5 else 7 ^ count  # most tricks, or misère: fewest
        else:
            count = maxteam = 5 if r.random() < 0.5 else 10
        yield hands, trump, leader, played, maxteam, count, must


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_solver_matches_brute_force(seed, tables):
    n = 0
    for hands, trump, leader, played, maxteam, count, must in _endings(seed, 700):
        want = ref.minimax(hands, trump, leader, played, maxteam, count, must)
        got = _solve(hands, trump, leader, played, maxteam, count, must, tables)
        assert got == want, (hands, trump, leader, played, maxteam, count, must)
        n += 1
    assert n == 700


@pytest.mark.slow
def test_solver_matches_brute_force_many(tables):
    for hands, trump, leader, played, maxteam, count, must in _endings(99, 20000):
        assert _solve(hands, trump, leader, played, maxteam, count, must, tables) == ref.minimax(
            hands, trump, leader, played, maxteam, count, must
        )


@pytest.mark.parametrize("n", [600, pytest.param(3000, marks=pytest.mark.slow)])
def test_later_tricks_bound_holds_by_brute_force(n):
    """dd._runs_short: when it says the leader's side cannot take every trick left, brute-force minimax agrees
    (3 hands with a side of one or two seats, trumps or not; bridge partnerships in no trumps), and it does say
    so on a good share of the positions (``n`` of them: the default run's share, the slow run's more)."""
    r = np.random.default_rng(8)
    fired = 0
    for i in range(n):
        nh = 3 if i % 2 else 4
        m = int(r.integers(1, 6 if nh == 3 else 5))
        hands = _random_ending(r, nh, m)
        trump = int(r.integers(-1, 4)) if nh == 3 else -1
        leader = int(r.integers(nh))
        side = _leader_side(r, nh, leader)
        h = _array(hands)
        short, _ = dd._runs_short(h, nh, trump, side, m)
        if short:
            fired += 1
            assert ref.minimax(hands, trump, leader, [], side, side) < m, (hands, trump, leader, side)
    assert fired > n // 5  # 495 of the first 1500


def test_trump_tricks_bound_holds_by_brute_force():
    """dd._trump_tricks (BM-4): a hand's top i trumps take at least i minus the other side's trumps above its
    i-th, whoever leads. The most tricks it promises each side, against brute-force minimax (3 hands with a
    side of one or two seats, bridge partnerships; must-trump or not); it also promises tricks to a side that
    lacks the top trump (a guarded second trump), which the top sequence alone never does."""
    r = np.random.default_rng(16)
    fired = below_top = 0
    for i in range(400):
        nh, m, hands, trump, leader = _small_ending(r, i, 6, 4, 0)
        must = bool(r.random() < 0.3)
        if nh == 4:
            side = 5 if r.random() < 0.5 else 10
        else:
            side = 1 << leader if r.random() < 0.5 else 7 ^ (1 << int(r.integers(3)))
        h = _array(hands)
        ours = max((w for w in range(1, m + 1) if dd._trump_tricks(h, nh, trump, side, w, 99)[0] == 1), default=0)
        theirs = max((w for w in range(1, m + 1) if dd._trump_tricks(h, nh, trump, side, 99, w)[0] == 0), default=0)
        if ours == theirs == 0:
            continue
        fired += 1
        tricks = ref.minimax(hands, trump, leader, [], side, side, must)
        assert tricks >= ours and m - tricks >= theirs, (hands, trump, leader, side, must, ours, theirs)
        top = max(c for x in hands for c in x if c >> 4 == trump)
        holder = next(q for q in range(nh) if top in hands[q])
        below_top += (theirs if (side >> holder) & 1 else ours) > 0
    assert fired > 300 and below_top > 25, (fired, below_top)


@pytest.mark.parametrize("n", [300, pytest.param(1500, marks=pytest.mark.slow)])
def test_quick_tricks_bound_holds_by_brute_force(n):
    """dd._quick_tricks (BM-4): the leader's side takes at least the tricks it counts, the leader's alone or with a
    partner reached by an entry (dd._side_rounds), against brute-force minimax (3 hands with a side of one or
    two seats, bridge partnerships; trumps or not, must-trump or not), on ``n`` positions."""
    r = np.random.default_rng(17)
    fired = together = 0
    for i in range(n):
        nh, m, hands, trump, leader = _small_ending(r, i, 6, 5, -1)
        must = int(r.random() < 0.3)
        side = _leader_side(r, nh, leader)
        h = _array(hands)
        qt, used, info = dd._rounds(h, nh, trump, must, leader, side)
        best = qt
        for q in range(nh):  # with a partner reached by an entry (dd._side_rounds)
            if q != leader and (side >> q) & 1:
                best = max(best, dd._side_rounds(h, nh, trump, must, leader, q, side, np.uint64(used), info)[0])
        if best:
            fired += 1
            together += best > qt
            assert ref.minimax(hands, trump, leader, [], side, side, must) >= best, (hands, trump, leader, side, best)
    assert fired > n * 5 // 12 and together > n // 10, (fired, together)  # 420 and 135 of the first 600


def test_second_hand_bound_holds_by_brute_force():
    """dd._second_hand (BM-4; no trumps, mid-trick): a side that surely takes the trick and whose winner then cashes
    its rounds takes at least that many tricks, against brute-force minimax (3 and 4 hands)."""
    fired = 0
    for hands, trump, leader, played, _maxteam, count, must in _endings(21, 3000):
        if trump >= 0 or not played:
            continue
        nh, k = len(hands), len(played)
        h = _array(hands)
        row = np.zeros(4, dtype=np.int64)
        row[:k] = played
        for side in (count, ((1 << nh) - 1) & ~count):
            most = max(
                (w for w in range(1, len(hands[leader]) + 2) if dd._second_hand(h, nh, row, 0, k, leader, side, w)[0]),
                default=0,
            )
            if most:
                fired += 1
                assert ref.minimax(hands, -1, leader, played, side, side, must) >= most, (hands, leader, played, side)
    assert fired > 250, fired  # 337 of the 3000 endings


def test_quick_tricks_count_past_the_top_sequence():
    """A falling honour leaves the leader's next card on top (BM-4: the others must follow suit): A K J 9 7
    of clubs against Q 4 and T 5 3 cash five tricks, which minimax confirms. In bridge endings of 4-9 cards
    the count goes past the top sequences (whole suits when as long as any other holding) on some leads."""
    c = lambda rank, suit: suit * 16 + "23456789TJQKA".index(rank)  # noqa: E731
    hands = [
        {c(x, 0) for x in "AKJ97"},
        {c("Q", 0), c("4", 0)} | {c(x, 1) for x in "234"},
        {c(x, 0) for x in "T53"} | {c(x, 2) for x in "23"},
    ]
    h = _array(hands)
    assert dd._quick_tricks(h, 3, -1, 0, 0, 1, 99)[0] == 5 == ref.minimax(hands, -1, 0, [], 1, 1)
    r = np.random.default_rng(18)
    past = 0
    for _ in range(400):
        hands = _random_ending(r, 4, int(r.integers(4, 10)))
        h = _array(hands)
        seq = 0
        for s in range(4):
            mine = [x for x in hands[0] if x >> 4 == s]
            others = [x for q in range(1, 4) for x in hands[q] if x >> 4 == s]
            top = sum(1 for x in mine if all(x > o for o in others))
            longest = max(sum(1 for x in hands[q] if x >> 4 == s) for q in range(1, 4))
            seq += len(mine) if top and top >= longest else top
        qt = dd._quick_tricks(h, 4, -1, 0, 0, 5, 99)[0]
        assert qt >= seq
        past += qt > seq
    assert past > 5, past  # 11 of the 400


def _same_owners(r, hands, kept):
    """The hands with every card below each suit's lowest card in ``kept`` dealt again at random (the whole suit
    where it keeps none), each hand keeping its suit lengths: a position that a stored bound resting on
    ``kept`` also speaks for (dd._store: the same owners of the cards at or above the lowest relevant card of
    each suit)."""
    out = [set(x) for x in hands]
    for s in range(4):
        low = min((c for c in range(16 * s, 16 * s + 16) if (int(kept) >> c) & 1), default=16 * s + 16)
        free = [c for x in hands for c in x if c >> 4 == s and c < low]
        counts = [sum(1 for c in x if c >> 4 == s and c < low) for x in hands]
        for x in out:
            x.difference_update(free)
        r.shuffle(free)
        for x, n in zip(out, counts):
            x.update(free[:n])
            free = free[n:]
    return _array(out)


def test_cut_offs_rest_on_the_cards_they_keep():
    """The cut-offs at a trick's start keep only the cards their bound needs (dd._fewer_quick, _trump_tricks,
    _fewer_tops): every position with the same suit lengths and the same owners of those cards has the bound
    too (the cards of the other ranks dealt again; the bounds rest on following suit and the trick's winner,
    BM-4), and they do keep fewer cards on a good share of them."""
    r = np.random.default_rng(15)
    fewer = {"quick": 0, "trumps": 0, "short": 0}
    for i in range(600):
        nh = 3 if i % 2 else 4
        m = int(r.integers(4, 14))
        hands = _random_ending(r, nh, m)
        trump = int(r.integers(-1, 4))
        leader = int(r.integers(nh))
        side = (1 << leader) | (1 << ((leader + 2) % 4)) if nh == 4 else 1 << leader
        must = int(r.random() < 0.3)
        h = _array(hands)
        q_all, used_all, _ = dd._quick_tricks(h, nh, trump, must, leader, side, 99)
        for want in range(1, q_all):
            q, used, _ = dd._quick_tricks(h, nh, trump, must, leader, side, want)
            assert q == q_all and used & ~used_all == 0
            fewer["quick"] += used != used_all
            for _ in range(4):
                assert dd._quick_tricks(_same_owners(r, hands, used), nh, trump, must, leader, side, 99)[0] >= want
        if trump >= 0:
            trumps = _mask(c for x in hands for c in x if c >> 4 == trump)
            for want1, want0 in [(w, 99) for w in range(1, m + 1)] + [(99, w) for w in range(1, m + 1)]:
                who, kept = dd._trump_tricks(h, nh, trump, side, want1, want0)
                if who < 0:
                    continue
                assert kept & ~trumps == 0
                fewer["trumps"] += kept != trumps
                for _ in range(4):
                    assert dd._trump_tricks(_same_owners(r, hands, kept), nh, trump, side, want1, want0)[0] == who
        short, rel = dd._runs_short(h, nh, trump if nh == 3 else -1, side, m)
        if short:
            for _ in range(4):
                assert dd._runs_short(_same_owners(r, hands, rel), nh, trump if nh == 3 else -1, side, m)[0] == 1
            theirs = 0  # suits whose top card the other side holds: the untrimmed set
            for s in range(4):
                top = max((c for x in hands for c in x if c >> 4 == s), default=None)
                if top is not None and not any(top in hands[q] for q in range(nh) if (side >> q) & 1):
                    theirs += 1
            fewer["short"] += bin(int(rel)).count("1") < theirs
    assert min(fewer.values()) > 20, fewer


def test_clear_tt_empties_the_table():
    """dd.clear_tt: after a new generation, a solve searches exactly the nodes it searches on a new table (every
    entry of the old generation counts as empty, even those of the same deal); the entries are whole cache
    lines; the generation counter starting over zeroes the table."""
    r = np.random.default_rng(5)
    deals = [(_random_ending(r, 3, 8), int(r.integers(-1, 4))) for _ in range(4)]
    used, bufs = dd.new_tt(12), dd.new_buffers()
    assert used[0].shape[1] == 8 and used[0].ctypes.data % 64 == 0
    for i, (hands, trump) in enumerate(deals):
        found = []
        for ttk, ttg in (dd.new_tt(12), used, used):  # the same deal again on the used table, cleared
            dd.clear_tt(ttk, ttg)
            bufs.stats[:] = 0
            value = _solve(hands, trump, 0, [], 1, 1, False, (ttk, ttg, bufs))
            found.append((value, int(bufs.stats[dd.STAT_NODES])))
        assert found[0] == found[1] == found[2], (i, found)
    ttk, ttg = used
    assert ttg[0] == 1 + 2 * len(deals) and ttk.any()
    ttg[0] = (1 << 31) - 1
    dd.clear_tt(ttk, ttg)
    assert ttg[0] == 1 and not ttk.any()


def test_solver_takes_three_or_four_hands(tables):
    """The search is compiled for 3 hands and for 4 (dd.at_least); any other count is refused, not solved with
    the wrong loops."""
    ttk, ttg, bufs = tables
    h = np.zeros(4, dtype=np.uint64)
    h[0], h[1] = _mask([0]), _mask([1])
    with pytest.raises(ValueError, match="3 or 4 hands"):
        dd.solve(h, 2, -1, 0, 0, np.zeros(4, dtype=np.int64), 0, 1, 1, ttk, ttg, bufs)


def test_card_values_match_brute_force(tables):
    ttk, ttg, bufs = tables
    r = np.random.default_rng(4)
    for _ in range(60):
        hands = _random_ending(r, 3, 4)
        trump = int(r.integers(-1, 4))
        h = _array(hands[:3])
        played = np.zeros(4, dtype=np.int64)
        cards = np.zeros(16, dtype=np.int64)
        values = np.zeros(16, dtype=np.int64)
        n = dd.card_values(h, 3, trump, 0, 0, played, 0, 1, 1, ttk, ttg, bufs, cards, values)
        for c, v in zip(cards[:n], values[:n]):
            rest = [hands[0] - {int(c)}, hands[1], hands[2]]
            assert v == ref.minimax(rest, trump, 0, [int(c)], 1, 1)


def test_card_values_mid_trick_match_brute_force(tables):
    """card_values with 0-2 cards of the trick played, no trumps, a trump suit and the misère (the other two
    seats maximising the count seat's tricks), against full minimax: every legal card and its value."""
    ttk, ttg, bufs = tables
    r = np.random.default_rng(41)
    checked = 0
    for i in range(90):
        hands = _random_ending(r, 3, 4)
        trump = int(r.integers(-1, 4))
        leader = int(r.integers(0, 3))
        k = i % 3
        row: list[int] = []
        for j in range(k):
            q = (leader + j) % 3
            c = int(r.choice(ref.legal(hands[q], ref.suit(row[0]) if row else None, trump)))
            hands[q].discard(c)
            row.append(c)
        p = (leader + k) % 3
        misere = i % 2 == 1
        countteam = 1 << p
        maxteam = 7 ^ countteam if misere else countteam
        h = _array(hands)
        played = np.zeros(4, dtype=np.int64)
        played[:k] = row
        cards = np.zeros(16, dtype=np.int64)
        values = np.zeros(16, dtype=np.int64)
        n = dd.card_values(h, 3, trump, 0, leader, played, k, maxteam, countteam, ttk, ttg, bufs, cards, values)
        assert sorted(cards[:n].tolist()) == ref.legal(hands[p], ref.suit(row[0]) if row else None, trump)
        for c, v in zip(cards[:n], values[:n]):
            rest = [set(x) for x in hands]
            rest[p].discard(int(c))
            if k == 2:  # the card completes the trick
                w = (leader + ref.winner_pos((*row, int(c)), trump)) % 3
                want = ((countteam >> w) & 1) + ref.minimax(rest, trump, w, [], maxteam, countteam)
            else:
                want = ref.minimax(rest, trump, leader, [*row, int(c)], maxteam, countteam)
            assert v == want, (hands, row, int(c))
            checked += 1
    assert checked > 150


def test_card_values_near_any_guess_gives_the_same_values(tables):
    """card_values_near (the advisor's, searching the position's value from the last layout's) returns every
    card's exact value whatever the guess, below the value, at it or above every trick left: positions of 6
    cards a hand, mid-trick ones and the misère among them, against card_values from a fresh table."""
    ttk, ttg, bufs = tables
    r = np.random.default_rng(43)
    for i in range(24):
        hands = _random_ending(r, 3, 6)
        trump = int(r.integers(-1, 4))
        leader = int(r.integers(0, 3))
        k = i % 3
        played = np.zeros(4, dtype=np.int64)
        for j in range(k):
            q = (leader + j) % 3
            c = int(r.choice(ref.legal(hands[q], ref.suit(int(played[0])) if j else None, trump)))
            hands[q].discard(c)
            played[j] = c
        p = (leader + k) % 3
        countteam = 1 << p
        maxteam = 7 ^ countteam if i % 2 else countteam
        want_c = np.zeros(16, dtype=np.int64)
        want_v = np.zeros(16, dtype=np.int64)
        dd.clear_tt(ttk, ttg)
        n = dd.card_values(_array(hands), 3, trump, 0, leader, played, k, maxteam, countteam, ttk, ttg, bufs, want_c,
                           want_v)  # fmt: skip
        for guess in (0, 2, 7):
            cards = np.zeros(16, dtype=np.int64)
            values = np.zeros(16, dtype=np.int64)
            dd.clear_tt(ttk, ttg)
            m = dd.card_values_near(_array(hands), 3, trump, 0, leader, played, k, maxteam, countteam, ttk, ttg,
                                    bufs, cards, values, guess)  # fmt: skip
            assert m == n and (cards[:n] == want_c[:n]).all() and (values[:n] == want_v[:n]).all(), (i, guess)


def test_solve_from_its_estimate_gives_the_value_from_every_trick():
    """With 3 hands and one seat for itself against the other two, solve starts at an estimate of the seat's
    tricks from its high cards and trumps (12 cards a hand or more; dd.first_guess) instead of every trick left:
    the same values as the search down from the top, on 12-card deals (no trumps and trumps, either seat counted),
    and the estimate follows the hand (all the top cards and trumps against none of them)."""
    ttk, ttg = dd.new_tt(18)
    bufs = dd.new_buffers()
    r = np.random.default_rng(46)
    played = np.zeros(4, dtype=np.int64)
    estimated = set()
    for i in range(12):
        h = _array(_random_ending(r, 3, 12))
        trump, leader, seat = int(r.integers(-1, 4)), i % 3, (i // 3) % 3
        me = 1 << seat
        guess = int(dd.first_guess(h, 3, trump, leader, 0, me, me))
        assert 0 <= guess <= 12
        estimated.add(guess)
        dd.clear_tt(ttk, ttg)
        v = dd.solve(h.copy(), 3, trump, 0, leader, played, 0, me, me, ttk, ttg, bufs)
        dd.clear_tt(ttk, ttg)
        assert v == dd.solve_near(h.copy(), 3, trump, 0, leader, played, 0, me, me, ttk, ttg, bufs, 12), i
    assert len(estimated) > 2 and max(estimated) < 12  # an estimate, not every trick left
    top = _array([{s * 16 + r for s in range(4) for r in ranks} for ranks in ((12, 11, 10), (0, 1, 2), (3, 4, 5))])
    assert dd.first_guess(top, 3, 3, 0, 0, 1, 1) >= 9 and dd.first_guess(top, 3, -1, 0, 0, 2, 2) == 0
    # the misère (the others push tricks on the seat: maxteam 7 ^ me, countteam me): every trick left, as before
    assert dd.first_guess(top, 3, -1, 0, 0, 6, 1) == 12


# --- against DDS -------------------------------------------------------------------------------------

SUITS_PBN = (3, 2, 1, 0)  # PBN order S H D C; our suit indices C D H S = 0..3
RANKS = "23456789TJQKA"


def _pbn(hands):
    parts = []
    for h in hands:
        parts.append(
            ".".join(
                "".join(RANKS[c & 15] for c in sorted((c for c in h if c >> 4 == s), reverse=True)) for s in SUITS_PBN
            )
        )
    return "N:" + " ".join(parts)


def _dds_bridge_endings(n_deals, m, seed, tables):
    pytest.importorskip("endplay")
    from endplay.dds import solve_board
    from endplay.types import Deal, Denom, Player

    denoms = {-1: Denom.nt, 0: Denom.clubs, 1: Denom.diamonds, 2: Denom.hearts, 3: Denom.spades}
    r = np.random.default_rng(seed)
    checked = 0
    for _ in range(n_deals):
        hands = _random_ending(r, 4, m)
        for trump in (-1, 0, 1, 2, 3):
            for leader in range(4):
                d = Deal.from_pbn(_pbn(hands))
                d.first = Player(leader)
                d.trump = denoms[trump]
                theirs = max(t for _, t in solve_board(d))  # the side on lead, best card
                side = 5 if leader % 2 == 0 else 10
                ours = _solve(hands, trump, leader, [], side, side, False, tables)
                assert ours == theirs, (_pbn(hands), trump, leader)
                checked += 1
    return checked


def test_bridge_endings_match_dds(tables):
    # 100 random bridge endings of 6 cards a hand, every strain and every leader: 2,000 positions
    assert _dds_bridge_endings(100, 6, 12, tables) == 2000


@pytest.mark.slow
def test_bridge_deeper_endings_match_dds(tables):
    assert _dds_bridge_endings(100, 9, 13, tables) == 2000


def _dds_every_card(n_positions, m, seed):
    """Per-card values against DDS's (``solve_board``, every card) on random bridge positions of ``m`` cards a
    hand, a quarter at each point of a trick (0 to 3 cards already played, random legal cards): the values of
    ``cardlab solve bridge`` (analysis.games.bismarck.solve_table) for the side to play."""
    pytest.importorskip("endplay")
    from endplay.dds import solve_board
    from endplay.types import Card, Deal, Denom, Player, Rank

    from analysis.games.bismarck import solve_table

    denoms = {-1: Denom.nt, 0: Denom.clubs, 1: Denom.diamonds, 2: Denom.hearts, 3: Denom.spades}
    trumps = {-1: "NT", 0: "C", 1: "D", 2: "H", 3: "S"}
    r = np.random.default_rng(seed)
    checked = cards = 0
    for i in range(n_positions):
        hands = _random_ending(r, 4, m)
        trump = int(r.integers(-1, 4))
        leader = int(r.integers(0, 4))
        d = Deal.from_pbn(_pbn(hands))
        d.first = Player(leader)
        d.trump = denoms[trump]
        trick = []
        for k in range(i % 4):  # cards already played to the trick: legal (BM-4), at random
            s = (leader + k) % 4
            follow = [c for c in hands[s] if trick and c >> 4 == trick[0] >> 4]
            c = int(r.choice(sorted(follow or hands[s])))
            hands[s].discard(c)
            trick.append(c)
            d.play(Card(suit=Denom(3 - (c >> 4)), rank=Rank[f"R{'23456789TJQKA'[c & 15]}"]))
        theirs = {(3 - int(c.suit)) * 16 + "23456789TJQKA".index(c.rank.abbr): t for c, t in solve_board(d)}
        text = "|".join(" ".join(f"{'23456789TJQKA'[c & 15]}{'CDHS'[c >> 4]}" for c in h) for h in hands)
        trick_text = " ".join(f"{'23456789TJQKA'[c & 15]}{'CDHS'[c >> 4]}" for c in trick)
        df = solve_table("bridge", text, trumps[trump], leader, None, "max", trick_text)
        ours = {}
        for row in df.itertuples():
            for c in f"{row.card} {row.equals}".split():
                ours[(("CDHS".index(c[1])) * 16 + "23456789TJQKA".index(c[0]))] = row.tricks
        assert ours == theirs, (text, trumps[trump], leader, trick_text)
        checked += 1
        cards += len(ours)
    return checked, cards


def test_every_card_matches_dds():
    # 200 random bridge positions of 5 cards a hand, a quarter at each point of a trick: zero mismatches
    checked, cards = _dds_every_card(200, 5, 21)
    assert checked == 200 and cards > 400


@pytest.mark.slow
def test_every_card_matches_dds_deeper():
    checked, _ = _dds_every_card(300, 8, 22)
    assert checked == 300


# --- the command -------------------------------------------------------------------------------------


def test_solve_command(capsys):
    assert (
        main(
            [
                "solve",
                "bismarck",
                "--hands",
                "AS KS 2H|QS JS 3H|TS 9S AH",
                "--trump",
                "NT",
                "--leader",
                "0",
                "--player",
                "0",
                "--format",
                "json",
            ]
        )
        == 0
    )
    rows = json.loads(capsys.readouterr().out)["rows"]
    assert rows[0]["tricks"] == 2
    # misère: the fewest tricks the player can be held to
    assert (
        main(
            [
                "solve",
                "bismarck",
                "--hands",
                "AS 2H|KS 3H|QS 4H",
                "--leader",
                "1",
                "--player",
                "0",
                "--goal",
                "min",
                "--format",
                "json",
            ]
        )
        == 0
    )
    rows = json.loads(capsys.readouterr().out)["rows"]
    assert rows[0]["tricks"] == ref.minimax([{60, 32}, {59, 33}, {58, 34}], -1, 1, [], 6, 1)
    assert main(["solve", "bridge", "--hands", "AS|KS|QS|JS", "--player", "1", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["rows"][0]["tricks"] == 0


@pytest.mark.parametrize(
    "argv, fragment",
    [
        (["solve", "chess", "--hands", "AS|KS|QS"], "accepted: bismarck, bridge"),
        (["solve", "bismarck", "--hands", "AS|KS"], "3 hands"),
        (["solve", "bismarck", "--hands", "AS|KS|KS"], "two hands"),
        (["solve", "bismarck", "--hands", "AS|KS QS|JS"], "same number of cards; found seat 0 1, seat 1 2, seat 2 1"),
        (["solve", "bismarck", "--hands", "AS|KS|QS", "--trump", "X"], "bad --trump"),
        (["solve", "bismarck", "--hands", "AS|KS|QS", "--leader", "3"], "seats are 0..2"),
        (["solve", "bismarck", "--hands", "AS|KS|QS", "--goal", "most"], "accepted: max, min"),
        (["solve", "bismarck", "--hands", "AS|KS|Q"], "bad card"),
        (["solve", "bismarck", "--hands", "AS|KS|QS", "--trick", "2X"], "bad card"),
        (["solve", "bismarck", "--hands", "AS|KS|QS", "--trick", "AS"], "a hand and the --trick"),
        (["solve", "bismarck", "--hands", "AS|KS|QS", "--trick", "2H"], "hold one fewer"),
        (["solve", "bismarck", "--hands", "AS|KS|QS", "--trick", "2H 3H 4H"], "at most 2 cards"),
        (["solve", "bismarck", "--hands", "AS|5H|QS 4H", "--trick", "2H 3S", "--leader", "0"], "BM-4"),
        (["solve", "bismarck", "--hands", "AS|KS|QS", "--player", "-1"], "seats are 0..2"),
        (["solve", "bismarck", "--hands", "AS|KS|QS", "--every-card", "--value-only"], "not allowed with"),
    ],
)
def test_solve_bad_input(argv, fragment, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert fragment in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


# --- the PIMC sampler --------------------------------------------------------------------------------


def _sample(unknown, void_a, void_b, n_a, n_b, seed, trial=0):
    st = rng.new_state()
    rng.seed_state(st, np.uint64(seed), np.uint64(0), np.uint64(trial), np.uint64(1))
    ways = np.zeros((5, 17, 17))
    out = np.zeros(2, dtype=np.uint64)
    ok = K.sample_hidden(np.uint64(unknown), void_a, void_b, n_a, n_b, st, ways, out)
    return ok, int(out[0]), int(out[1])


def test_sampler_is_consistent():
    r = np.random.default_rng(0)
    dealt = 0
    for trial in range(300):
        cards = [int((c // 13) * 16 + c % 13) for c in r.choice(52, 14, replace=False)]
        unknown = int(_mask(cards))
        void_a, void_b = int(r.integers(16)), int(r.integers(16))
        ok, a, b = _sample(unknown, void_a, void_b, 5, 5, 3, trial)
        # a consistent layout exists iff (Hall) A and B can each hold 5 of the cards their voids allow, and
        # together 10 of the cards allowed to at least one of them
        fit_a = sum(bin((unknown >> (16 * s)) & 0x1FFF).count("1") for s in range(4) if not (void_a >> s) & 1)
        fit_b = sum(bin((unknown >> (16 * s)) & 0x1FFF).count("1") for s in range(4) if not (void_b >> s) & 1)
        both = sum(
            bin((unknown >> (16 * s)) & 0x1FFF).count("1")
            for s in range(4)
            if not ((void_a >> s) & 1 and (void_b >> s) & 1)
        )
        assert ok == (fit_a >= 5 and fit_b >= 5 and both >= 10)
        if not ok:
            continue
        dealt += 1
        assert a & b == 0 and (a | b) & ~unknown == 0
        assert bin(a).count("1") == 5 and bin(b).count("1") == 5
        assert all(not ((a >> (16 * s)) & 0x1FFF) for s in range(4) if (void_a >> s) & 1)
        assert all(not ((b >> (16 * s)) & 0x1FFF) for s in range(4) if (void_b >> s) & 1)
    assert dealt > 100


def test_sampler_is_uniform_over_consistent_deals():
    # 6 unknown cards: 2 to A (void in clubs), 2 to B, 2 out of play; every consistent deal equally likely
    cards = [0, 1, 16, 17, 32, 48]  # 2C 3C 2D 3D 2H 2S
    unknown = int(_mask(cards))
    deals = []
    for a in combinations(cards, 2):
        if any(c >> 4 == 0 for c in a):
            continue
        rest = [c for c in cards if c not in a]
        for b in combinations(rest, 2):
            deals.append((int(_mask(a)), int(_mask(b))))
    index = {d: i for i, d in enumerate(deals)}
    n = 12000
    counts = np.zeros(len(deals))
    for t in range(n):
        ok, a, b = _sample(unknown, 1, 0, 2, 2, 7, t)
        assert ok
        counts[index[(a, b)]] += 1
    expected = n / len(deals)
    chi2 = float(((counts - expected) ** 2 / expected).sum())
    df = len(deals) - 1
    # chi-square with df degrees of freedom: mean df, sd sqrt(2 df); 5 sd above the mean is never reached by chance
    assert chi2 < df + 5 * np.sqrt(2 * df), chi2


def test_pimc_never_reads_hidden_cards():
    """Two deals that differ only in cards the deciding seat cannot see give the same PIMC card, with the same
    draws: the decision depends on the information set alone."""
    r = np.random.default_rng(8)
    ttk, ttg, bufs, ways, scratch = K.new_solver_state(np.array([K.S_PIMC]))
    for trial in range(8):
        deck = [int((c // 13) * 16 + c % 13) for c in r.permutation(52)]
        mine, others = deck[:5], deck[5:15]
        alt = others[5:] + others[:5]  # the other two hands exchanged
        picks = []
        for a, b in ((others[:5], others[5:]), (alt[:5], alt[5:])):
            hands = np.array([_mask(mine), _mask(a), _mask(b), 0], dtype=np.uint64)
            st = rng.new_state()
            rng.seed_state(st, np.uint64(1), np.uint64(0), np.uint64(trial), np.uint64(1))
            unseen = int(_mask(deck[5:]))
            c = K.choose_card(
                K.S_PIMC,
                0,
                hands,
                0,
                np.zeros(4, dtype=np.int64),
                0,
                -1,
                False,
                0,
                np.uint64(unseen),
                np.zeros(3, dtype=np.int64),
                np.uint64(0),
                6,  # PIMC samples
                st,
                ttk,
                ttg,
                bufs,
                ways,
                np.zeros(2, dtype=np.uint64),
                np.zeros(56, dtype=np.int64),  # the hand's cards so far (pimc-infer's; none here)
                0,
                0,
                -1,
            )
            picks.append((int(c), tuple(st)))
        assert picks[0] == picks[1]


def test_dd_player_card_is_a_best_card():
    """kernels.bismarck.pimc.choose_card (the dd player here: the layout known, so its values are card_values'):
    the card has the best value (the most tricks; the fewest in the misère), the lowest such card on ties."""
    r = np.random.default_rng(37)
    ttk, ttg, bufs, ways, scratch = K.new_solver_state(np.array([K.S_DD]))
    cards = np.zeros(16, dtype=np.int64)
    values = np.zeros(16, dtype=np.int64)
    tied = 0
    for trial in range(40):
        deck = [int((c // 13) * 16 + c % 13) for c in r.permutation(52)]
        hands = np.array([_mask(deck[:5]), _mask(deck[5:10]), _mask(deck[10:15]), 0], dtype=np.uint64)
        trump = int(r.integers(-1, 4))
        misere = trial % 4 == 3
        unseen = np.uint64(_mask(deck[5:]))
        st = rng.new_state()
        c = int(K.choose_card(K.S_DD, 0, hands.copy(), 0, np.zeros(4, dtype=np.int64), 0, trump, misere, 0, unseen,
                              np.zeros(3, dtype=np.int64), np.uint64(0), 1, st, ttk, ttg, bufs, ways, scratch,
                              np.zeros(56, dtype=np.int64), 0, 0, -1))  # fmt: skip
        maxteam = 6 if misere else 1
        n = dd.card_values(hands.copy(), 3, trump, 0, 0, np.zeros(4, dtype=np.int64), 0, maxteam, 1, ttk, ttg, bufs,
                           cards, values)  # fmt: skip
        value = dict(zip(cards[:n].tolist(), values[:n].tolist()))
        best = (min if misere else max)(value.values())
        assert c == min(x for x, v in value.items() if v == best), (trial, value, c)
        tied += sum(v == best for v in value.values()) > 1
    assert tied  # some positions have several best cards


def test_best_card_is_the_card_of_the_summed_values():
    """kernels.bismarck.pimc.best_card (the pimc and dd players' card) picks what adding up every legal card's exact
    double-dummy value over the layouts (dd.card_values) picks: the most tricks, the fewest in the misère (BM-5),
    the lowest card among equal sums. Positions at the lead and in the middle of a trick (the last card of the trick
    too), with and without trumps, one layout and several."""
    r = np.random.default_rng(3535)
    ttk, ttg, bufs, ways, scratch = K.new_solver_state(np.array([K.S_PIMC]))
    cards = np.zeros(16, dtype=np.int64)
    values = np.zeros(16, dtype=np.int64)
    tied = several = 0
    seen = set()
    for trial in range(90):
        size = int(r.integers(3, 7))
        deck = [int((c // 13) * 16 + c % 13) for c in r.permutation(52)]
        hands = [deck[i * size : (i + 1) * size] for i in range(3)]
        trump = int(r.integers(-1, 4))
        misere = bool(r.integers(0, 2))
        must_trump = int(trump >= 0 and r.integers(0, 2))  # the variant must_trump_when_void
        k = trial % 3  # cards already in the trick
        p = int(r.integers(0, 3))
        leader = (p - k) % 3
        played = np.zeros(4, dtype=np.int64)
        for i in range(k):  # the seats before p play a legal card
            q = (leader + i) % 3
            led = -1 if i == 0 else played[0] >> 4
            legal = [
                c for c in hands[q] if (dd.legal_cards(_mask(hands[q]), led, trump, must_trump) >> np.uint64(c)) & 1
            ]
            played[i] = legal[int(r.integers(0, len(legal)))]
            hands[q].remove(int(played[i]))
        a, b = (p + 1) % 3, (p + 2) % 3
        rest = hands[a] + hands[b]
        n = int(r.integers(1, 6))
        layouts = np.zeros((n, 4), dtype=np.uint64)
        for j in range(n):  # the other two seats' cards dealt again between them, their counts kept
            shuffled = [rest[i] for i in r.permutation(len(rest))]
            layouts[j, p] = _mask(hands[p])
            layouts[j, a] = _mask(shuffled[: len(hands[a])])
            layouts[j, b] = _mask(shuffled[len(hands[a]) :])
        me = 1 << p
        maxteam = 7 ^ me if misere else me
        total: dict[int, int] = {}
        for j in range(n):
            m = dd.card_values(layouts[j].copy(), 3, trump, must_trump, leader, played.copy(), k, maxteam, me, ttk, ttg,
                               bufs, cards, values)  # fmt: skip
            for c, v in zip(cards[:m].tolist(), values[:m].tolist()):
                total[c] = total.get(c, 0) + v
        best = (min if misere else max)(total.values())
        want = min(c for c, v in total.items() if v == best)
        led = -1 if k == 0 else played[0] >> 4
        legal_mask = dd.legal_cards(_mask(hands[p]), led, trump, must_trump)
        got = int(K.best_card(layouts.copy(), n, p, leader, played, k, trump, must_trump, misere, legal_mask, ttk, ttg,
                              bufs))  # fmt: skip
        assert got == want, (trial, total, got)
        seen.add((misere, k))
        tied += sum(v == best for v in total.values()) > 1
        several += n > 1 and len(set(total.values())) > 1
    assert tied and several  # ties broken, and sums over several layouts that differ between cards
    assert len(seen) == 6  # the misère and not, at each place in the trick


def test_new_tt_is_empty_and_aligned():
    """The table's layout (kernels/dd/table.py new_tt): rows of one cache line, all zero before use (new_tt no longer
    takes zeroed memory from numpy: it zeroes after asking for huge pages); from 4 MiB aligned to a huge page."""
    from kernels._jit import HUGE_PAGE

    for log2, align in ((12, 64), (15, 64), (16, HUGE_PAGE)):  # 2**16 rows: 4 MiB
        ttk, ttg = dd.new_tt(log2)
        assert ttk.shape == (1 << log2, 8) and ttk.dtype == np.uint64 and ttk.flags.c_contiguous
        assert ttk.ctypes.data % align == 0 and not ttk.any() and int(ttg[0]) == 1


def test_the_solve_answer_says_whose_best_it_is():
    """`cardlab solve`'s answer names the best card of the seat to play, which aims at its own goal: in a misère
    goal the others push tricks on the player, and an opponent holds it down."""
    from analysis.games.bismarck import solve_table

    hands = "AS 2S|KS 3H|QH 4D"
    cases = [
        (1, "min", "best 2S (2 tricks for seat 1 from here; seat 0 pushing tricks on seat 1)"),
        (0, "min", "best 2S (0 tricks for seat 0 from here; seat 0 taking as few as it can)"),
        (1, "max", "best AS (0 tricks for seat 1 from here; seat 0 holding seat 1 to as few as it can)"),
        (0, "max", "best AS (2 tricks for seat 0 from here)"),
    ]
    for player, goal, words in cases:
        assert solve_table("bismarck", hands, "NT", 0, player, goal, None).attrs["answer"] == (
            f"Seat 0 to play: {words}"
        ), (player, goal)
    # --value-only: the value in a line too (a new user found the table alone)
    value = solve_table("bismarck", hands, "NT", 0, 1, "min", None, every_card=False)
    assert value.attrs["answer"] == "Seat 1 takes 2 tricks from here (seat 0 to play, pushing tricks on seat 1)"
    assert int(value["tricks"].iloc[0]) == 2
    mid = solve_table("bismarck", "2S|KS 3H|QH 4D", "NT", 0, 0, "max", "AS", every_card=False)
    assert mid.attrs["answer"].startswith("Seat 0 takes 2 tricks from here, the current trick included (seat 1 to play")


def test_the_solve_text_names_the_position_once_and_a_best_card_s_equals(capsys):
    """The text view: the position's columns (the same in every row) in the header, not beside each card; the
    answer names a best card's equals ("AS (or KS)": the row stands for both, and a new user missed KS); csv keeps
    every column in every row."""
    hands = "AS KS 2H|QS 3H 4H|JS 5H 6H"
    assert main(["solve", "bismarck", "--hands", hands, "--leader", "0"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("Seat 0 to play: best AS (or KS)")
    assert "trump=NT" in out[1] and "leader=0" in out[1] and "to_play=0" in out[1] and "trick=" not in out[1]
    assert out[2].split() == ["card", "equals", "tricks", "best"]
    assert main(["solve", "bismarck", "--hands", hands, "--leader", "0", "--format", "csv"]) == 0
    assert capsys.readouterr().out.splitlines()[0].startswith("game,trump,leader,trick,to_play,player,goal,side,card")


def test_a_misere_solve_above_the_cards_it_can_finish_is_refused_in_a_line(capsys):
    """--goal min with three seats is the misere (the two others pushing tricks on the seat, BM-5): no bound cuts
    that search, and a 16-card deal ran for many minutes without a word, deaf to Ctrl-C. Above MISERE_DD_CARDS
    cards a hand it is refused in one line, exit 2; at that size it answers; --goal max at 16 cards is untouched."""
    from analysis.games.bismarck import MISERE_DD_CARDS

    deck = [r + s for s in "SHDC" for r in "AKQJT98765432"][:48]
    hands = "|".join(" ".join(deck[i::3]) for i in range(3))  # 16 cards a hand
    assert main(["solve", "bismarck", "--hands", hands, "--goal", "min", "--value-only"]) == 2
    err = capsys.readouterr().err
    assert "--goal min with 16 cards a hand" in err and f"above {MISERE_DD_CARDS} cards a hand" in err
    assert "Traceback" not in err and err.count("\n") == 1
    small = "|".join(" ".join(deck[i : 3 * MISERE_DD_CARDS : 3]) for i in range(3))
    assert main(["solve", "bismarck", "--hands", small, "--goal", "min", "--value-only"]) == 0
