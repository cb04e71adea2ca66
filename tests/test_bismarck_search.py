"""The Bismarck search player (issue 37; kernels/bismarck/search.py): the kernel against the plain-Python reference
(its candidates, its rollouts, its choice on the same layouts), complete and reproducible hands, stronger than
the heuristic in the misere round on the same deals, its strategy syntax, and its use as a model."""

from __future__ import annotations

import random

import numpy as np
import pytest

from analysis import driver
from analysis.driver import split_seed
from analysis.errors import CardlabError
from analysis.games import bismarck as bm
from analysis.jackknife import chunk_size_for
from kernels import bismarck as K
from kernels import rng, ucb
from kernels.bismarck.search import _rollout
from tests.reference import bismarck as ref
from tests.same_counts import assert_same_counts

FULL = np.uint64(sum(1 << (16 * s + r) for s in range(4) for r in range(13)))


def _mask(cards) -> np.uint64:
    return np.uint64(sum(1 << c for c in cards))


def _position(rnd: random.Random, round_no: int):
    """A random mid-hand position (BM-4): 16 cards each dealt from the pack, some tricks played by random legal
    cards, and 0-2 cards of the current trick; the voids the play showed."""
    deck = [s * 16 + r for s in range(4) for r in range(13)]
    rnd.shuffle(deck)
    hands = [set(deck[16 * i : 16 * i + 16]) for i in range(3)]
    known_out = {deck[48]} if round_no == 2 else set()
    trump = -1 if round_no in (1, 4) else rnd.randrange(4)
    dealer = rnd.randrange(3)
    leader = (dealer + 1) % 3
    played: set[int] = set()
    tricks = [0, 0, 0]
    voids = [0, 0, 0]
    row: list[int] = []
    n_tricks, k = rnd.randrange(0, 13), rnd.randrange(3)
    for t in range(n_tricks + 1):
        row = []
        for i in range(3 if t < n_tricks else k):
            q = (leader + i) % 3
            c = rnd.choice(ref.legal(hands[q], ref.suit(row[0]) if row else None, trump))
            if row and ref.suit(c) != ref.suit(row[0]):
                voids[q] |= 1 << ref.suit(row[0])
            hands[q].remove(c)
            row.append(c)
        if t < n_tricks:
            leader = (leader + ref.winner_pos(row, trump)) % 3
            tricks[leader] += 1
            played |= set(row)
    return hands, dealer, trump, leader, row, played, tricks, voids, known_out


def test_candidates_are_one_card_of_each_run_of_equivalent_cards():
    # 6C 8C TC JC QC KC 3H 5H with the 7C and 9C seen played: the six clubs are one run (nothing unseen between
    # them); the 3H and 5H are two, the 4H unseen between them
    hand = [4, 6, 8, 9, 10, 11, 33, 35]
    unseen = (set(range(13)) - {5, 7} - set(hand)) | {34}
    cand = np.zeros(16, dtype=np.int64)
    n = K.candidate_cards(_mask(hand), _mask(hand), _mask(unseen), cand)
    assert sorted(cand[:n]) == sorted(ref.search_candidates(hand, unseen)) == [4, 33, 35]


@pytest.mark.parametrize("round_no, want", [(1, 56), (4, 54)])
@pytest.mark.parametrize("explore", [-1, 700])  # sequential halving; UCB1
def test_a_card_on_the_table_separates_two_of_ours(round_no, want, explore):
    """Last to a trick of 5S then 9S, holding 8S and TS (the 9S lies between them, on the table): the search
    weighs both and takes the trick with the ten in no trumps, ducks with the eight in the misere (BM-4, BM-5)."""
    hands = np.array([_mask([54, 56]), _mask([0]), _mask([1]), 0], dtype=np.uint64)
    row = np.array([51, 55, 0, 0], dtype=np.int64)  # seat 1 led the 5S, seat 2 played the 9S
    out_of_play = [16, 17, 18, 19]
    seen = _mask([54, 56, 51, 55])
    played = FULL & ~(seen | _mask([0, 1] + out_of_play))
    unseen = FULL & ~(played | seen)
    st = rng.new_state()
    rng.seed_state(st, np.uint64(1), np.uint64(2), np.uint64(0), np.uint64(0))
    cand = np.zeros(16, dtype=np.int64)
    assert K.candidate_cards(_mask([54, 56]), _mask([54, 56]), unseen | _mask([51, 55]), cand) == 2
    got = K.search_card(
        0, hands, 1, row, 2, -1, round_no == 4, 0, unseen, np.zeros(4, dtype=np.int64), np.uint64(0),
        np.uint64(0), 0, played, 0, round_no - 1, 0, bm.variant_array({}), 20, explore, st, np.zeros((5, 17, 17)),
        np.zeros(2, dtype=np.uint64),
    )  # fmt: skip
    assert got == want


@pytest.mark.parametrize("explore", [-1, 700])  # sequential halving; UCB1
def test_the_card_does_not_depend_on_the_hidden_hands(explore):
    """No leak: the same position with the hidden cards dealt otherwise among the other two seats and the cards
    out of play (the same sizes) gives the same card from the same stream."""
    rnd = random.Random(5)
    bv = bm.variant_array({})
    for round_no in (1, 4):
        for trial in range(12):
            hands, dealer, trump, leader, row, played, tricks, voids, known_out = _position(rnd, round_no)
            p = (leader + len(row)) % 3
            a, b = (p + 1) % 3, (p + 2) % 3
            unseen = FULL & ~(_mask(played | hands[p] | known_out | set(row)))
            hidden = sorted(unseen_set(unseen) | set(row))
            cards = []
            for _ in range(2):
                rnd.shuffle(hidden)
                h = [set(), set(), set()]
                h[p] = hands[p]
                h[a], h[b] = set(hidden[: len(hands[a])]), set(hidden[len(hands[a]) : len(hands[a]) + len(hands[b])])
                st = rng.new_state()
                rng.seed_state(st, np.uint64(trial), np.uint64(9), np.uint64(0), np.uint64(0))
                r = np.zeros(4, dtype=np.int64)
                r[: len(row)] = row
                cards.append(K.search_card(
                    p, np.array([_mask(x) for x in h] + [0], dtype=np.uint64), leader, r, len(row), trump,
                    round_no == 4, 0, unseen, np.array(voids + [0], dtype=np.int64), _mask(known_out),
                    np.uint64(0), dealer, _mask(played), tricks[p], round_no - 1, (p - dealer) % 3, bv, 30, explore, st,
                    np.zeros((5, 17, 17)), np.zeros(2, dtype=np.uint64),
                ))  # fmt: skip
            assert cards[0] == cards[1]


@pytest.mark.parametrize("round_no", [1, 2, 3, 4])
def test_rollouts_match_the_reference_hand(round_no):
    """The rollout (the card, then heuristic players at every seat) takes the tricks the reference's play_from
    gives on the same layout."""
    rnd = random.Random(round_no)
    for _ in range(60):
        hands, dealer, trump, leader, row, played, tricks, _v, known_out = _position(rnd, round_no)
        p = (leader + len(row)) % 3
        c = rnd.choice(ref.legal(hands[p], ref.suit(row[0]) if row else None, trump))
        want, _s, _o = ref.play_from(
            hands, dealer, round_no, trump, ["heuristic"] * 3, None, leader, row, played, tricks, known_out, forced=c
        )
        h = np.array([_mask(x) for x in hands] + [0], dtype=np.uint64)
        r = np.zeros(4, dtype=np.int64)
        r[: len(row)] = row
        got = _rollout(
            h, p, leader, r, len(row), c, trump, round_no == 4, 0, _mask(played | known_out), np.uint64(0),
            dealer, FULL,
        )  # fmt: skip
        assert got == want[p] - tricks[p]


@pytest.mark.parametrize(
    "round_no, c, widow",
    [(1, None, False), (3, None, False), (4, None, False), (1, 0.7, False), (3, 0.7, False), (4, 0.7, False),
     (1, None, True), (4, None, True)],
)  # fmt: skip
def test_the_kernel_chooses_the_reference_card_on_the_same_layouts(round_no, c, widow):
    """Same position, same stream: the kernel's search and the reference's (sequential halving, or UCB1 with
    constant ``c``; the rollouts by the reference hand, the layouts by the kernel's exact sampler on the rollout
    stream) choose the same card. ``widow``: the dealer's widow exchange (BM 3(c)5), where the cards out of play
    are the dealer's discards: the dealer searching knows them (not hidden from it); another seat's layouts leave
    the cards no hand holds out of play, and its rollouts' dealer sees those as its discards."""
    variants = {"widow_exchange": "dealer_takes_4_discards_4"} if widow else {}
    rnd = random.Random(10 + round_no + 10 * widow)
    bv = bm.variant_array(variants)
    ways = np.zeros((5, 17, 17))
    scratch = np.zeros(2, dtype=np.uint64)
    chosen = dealers = 0
    for trial in range(25):
        hands, dealer, trump, leader, row, played, tricks, voids, known_out = _position(rnd, round_no)
        p = (leader + len(row)) % 3
        a, b = (p + 1) % 3, (p + 2) % 3
        left = frozenset(unseen_set(FULL) - played - hands[0] - hands[1] - hands[2] - set(row) - known_out)
        discards = left if widow else frozenset()  # what the dealer knows to be out of play
        st = rng.new_state()
        rng.seed_state(st, np.uint64(trial), np.uint64(round_no), np.uint64(widow), np.uint64(0))
        unseen = FULL & ~(_mask(played | hands[p] | known_out | set(row) | (discards if p == dealer else set())))
        unknown = unseen & ~_mask(known_out)
        st_roll = rng.new_state()
        ucb.rollout_stream(st.copy(), st_roll)
        out = np.zeros(2, dtype=np.uint64)
        sizes = (len(hands[a]), len(hands[b]))

        def draw(_a=a, _b=b, _st=st_roll, _u=unknown, _v=voids, _n=sizes):
            assert K.sample_hidden(_u, _v[_a], _v[_b], _n[0], _n[1], _st, ways, out)
            return (unseen_set(out[i]) for i in (0, 1))

        hidden = unseen_set(unknown)

        def widow_seen(layout, _p=p, _a=a, _b=b, _d=dealer, _left=discards, _u=hidden):
            if not widow or _p == _d:
                return _left
            return frozenset(_u - layout[_a] - layout[_b])

        want = ref.search_card(
            hands, p, dealer, round_no, trump, leader, row, played, tricks, known_out, draw, 40, c, variants,
            exchanger=dealer, widow_seen=widow_seen,
        )  # fmt: skip
        h = np.array([_mask(x) for x in hands] + [0], dtype=np.uint64)
        r = np.zeros(4, dtype=np.int64)
        r[: len(row)] = row
        got = K.search_card(
            p, h, leader, r, len(row), trump, round_no == 4, 0, unseen, np.array(voids + [0], dtype=np.int64),
            _mask(known_out), _mask(discards), dealer, _mask(played), tricks[p], round_no - 1, (p - dealer) % 3, bv,
            40, -1 if c is None else round(c * 1000), st, ways, scratch,
        )  # fmt: skip
        assert got == want, (trial, p == dealer, hands, row)
        dealers += p == dealer
        chosen += (
            len(
                ref.search_candidates(
                    ref.legal(hands[p], ref.suit(row[0]) if row else None, trump), unseen_set(unseen) | set(row)
                )
            )
            > 1
        )  # noqa: E501
    assert chosen >= 10  # most positions were real choices, not a forced card
    assert 0 < dealers < 25  # the dealer searching and the others


def unseen_set(mask) -> set[int]:
    return {c for c in range(64) if int(mask) >> c & 1}


@pytest.mark.parametrize("round_no", [1, 4])
def test_hands_with_search_seats_are_complete_and_reproducible(round_no):
    """Round 4 searches to the end; round 1 searches while a hand holds more than --pimc-from cards (here 4),
    then plays as pimc (kernels/bismarck/hand.py)."""
    spec = bm.simulation_spec(strategies=["1=search:50"], unit="hand", round=round_no, pimc_from=4)
    assert spec.describe["strategies"] == ["heuristic", "search:50", "heuristic"]
    assert spec.describe["pimc_from"] == 4
    a = driver.run(spec, trials=60, seed=3, chunk_size=60, progress=False, threads=1)
    # two threads, each on chunks of the spec's size (small with a search or solver seat): the same counts
    b = driver.run(spec, trials=60, seed=3, progress=False, threads=2)
    assert b.meta["chunk_size"] == chunk_size_for(60, bm.SOLVER_CHUNK["hand"]) < 60  # a short run: 32 chunks or more
    assert_same_counts(a.table, b.table)
    t = a.table
    tricks = t[t.measure == "tricks"]
    assert (tricks.trials == 60).all() and tricks.estimate.sum() == pytest.approx(16)


def test_in_rounds_1_to_3_a_search_seat_plays_as_pimc_from_pimc_from_cards():
    """With --pimc-from 16 a search seat in round 1 never searches: its hands are a pimc seat's, card for card."""

    def rows(name):
        spec = bm.simulation_spec(strategies=[f"1={name}"], unit="hand", round=1, pimc_from=16, pimc_samples=2)
        return driver.run(spec, trials=3, seed=8, chunk_size=3, progress=False).rows()

    assert rows("search") == rows("pimc")


def test_the_search_player_takes_fewer_misere_tricks_than_the_heuristic_on_the_same_deals():
    """Round 4 (BM-5): one seat switched from heuristic to search on the same deals, each role in turn. Measured
    on 1,000 deals at the default budget: 1.13 fewer tricks (95% -1.21 to -1.05); here 120 deals at budget 100,
    where the difference is several standard errors."""
    t = driver.run(
        bm.compare_spec("heuristic", "search:100", round=4), trials=120, seed=2, progress=False, chunk_size=40
    ).table
    pooled = t[(t.measure == "tricks_challenger_minus_field") & t.role.isna()].iloc[0]
    assert pooled.ci_high < 0


def test_the_plain_comparison_kernel_is_the_full_one_without_its_players():
    """A comparison of heuristic and random players runs compare_plain_chunks (no search or solver player
    compiled): the same counts as compare_chunks, whose full flavour the search comparison above compiled, on
    the same trials, misère included; a search, pimc or dd side runs the full kernel."""
    for r in (1, 4):
        spec = bm.compare_spec("heuristic", "random", round=r)
        assert spec.kernel == "kernels.bismarck:compare_plain_chunks"
        rows = [
            driver.run_chunks(f"kernels.bismarck:{k}", spec.args, np.arange(2), 6, 12, np.uint64(3), np.uint64(0),
                              spec.n_counts)
            for k in ("compare_chunks", "compare_plain_chunks")
        ]  # fmt: skip
        assert rows[0][:, 0].sum() > 0 and (rows[0] == rows[1]).all()
    for field, challenger in (("heuristic", "search:100"), ("pimc", "heuristic"), ("random", "dd")):
        assert bm.compare_spec(field, challenger, round=1).kernel == "kernels.bismarck:compare_chunks"


@pytest.mark.parametrize("name", ["search:0", "search:x", "search:10:-1", "search:1:2:3"])
def test_bad_search_names_are_refused(name):
    with pytest.raises(CardlabError, match="bad strategy"):
        bm.simulation_spec(strategies=[name])


def test_search_seats_of_one_run_share_their_settings():
    with pytest.raises(CardlabError, match="share one setting"):
        bm.simulation_spec(strategies=["0=search:10", "1=search:20"])
    with pytest.raises(CardlabError, match="share one setting"):
        bm.compare_spec("search:10", "search:20")
    bm.simulation_spec(strategies=["0=search", "1=search:400"])  # the same settings spelled twice
    with pytest.raises(CardlabError, match="share one setting"):  # sequential halving, and UCB1
        bm.simulation_spec(strategies=["0=search:10", "1=search:10:0.7"])
    spec = bm.simulation_spec(strategies=["search:10"])
    assert spec.describe["strategies"][0] == "search:10" and spec.args[1][K.P_EXPLORE] == -1
    # the exploration constant as the kernels read it (thousandths), in the label and in the players' settings
    spec = bm.simulation_spec(strategies=["search:10:0.0004"])
    assert spec.describe["strategies"][0] == "search:10:0" and spec.args[1][K.P_EXPLORE] == 0


def test_the_search_player_as_a_model_in_records_and_reviews():
    """Everywhere a strategy name is: a record (the hand of simulate with the same seed and players), a review
    of it, and the advisor's model playing the hand on."""
    from analysis.games import bismarck_odds as bo
    from analysis.games import bismarck_review as br

    doc = br.record(seed=4, round=4, strategies=["2=search:30"])
    assert doc["strategies"]["2"] == "search:30"
    spec = bm.simulation_spec(strategies=["2=search:30"], unit="hand", round=4)
    row = driver.run_chunks(spec.kernel, spec.args, np.zeros(1, dtype=np.int64), 1, 1, *split_seed(4), spec.n_counts)
    for s in range(3):
        b = (3 * 3 + (s - doc["dealer"]) % 3) * K.ROLE_FIELDS
        assert row[0][b + K.R_N] == 1 and row[0][b + K.R_TRICKS] == doc["result"]["tricks"][str(s)]
    res = br.review(doc, seat=2, precision=0.3, max_trials=16, chunk_size=8)
    assert res.meta["strategies"][2] == "search:30" and len(res.table) > 0
    spec = bo.play_spec(seat=1, hand="AS 3S 4S 5S 2H 3H 4C 5C 8D 9D TD JD QH KH 2C 3C", round=4, dealer=0,
                        strategies=["search:20"])  # fmt: skip
    assert spec.describe["strategies"] == ["search:20"] * 3
    t = driver.run(spec, trials=16, chunk_size=8, seed=1, progress=False).table
    assert (t[t.measure == "made_quota"].trials == 16).all()


# ---- the kernels with the search and solver players (compiled in this file anyway) against the plain ones ----
@pytest.mark.parametrize(
    "strategies, variants",
    [(["heuristic"], {}), (["random"], {"ruleset": "swedish"}),
     (["0=random"], {"widow_exchange": "dealer_takes_4_discards_4", "must_trump_when_void": "true"})],
)  # fmt: skip
def test_the_plain_kernel_is_the_full_one_without_its_players(strategies, variants):
    """Heuristic and random seats run simulate_plain_chunks (compiled without the search and solver players):
    the same counts as simulate_chunks on the same trials; a pimc, dd or search seat runs the full kernel."""
    spec = bm.simulation_spec(strategies=strategies, variants=variants)
    assert spec.kernel == "kernels.bismarck:simulate_plain_chunks"
    key0, key1 = np.uint64(7), np.uint64(1)
    rows = [
        driver.run_chunks(f"kernels.bismarck:{k}", spec.args, np.arange(2), 8, 16, key0, key1, spec.n_counts)
        for k in ("simulate_chunks", "simulate_plain_chunks")
    ]
    assert rows[0].sum() > 0 and (rows[0] == rows[1]).all()
    for s in ("pimc", "dd", "search", "1=search:10"):
        assert bm.simulation_spec(strategies=[s]).kernel == "kernels.bismarck:simulate_chunks"


def test_the_plain_record_kernel_is_the_full_one():
    """record_hand_plain gives record_hand's record on the same trial, heuristic players."""
    rec = [np.zeros(n, dtype=dt) for n, dt in ((4, np.uint64), (56, np.int64), (6, np.int64))]
    again = [x.copy() for x in rec]
    spec = bm.simulation_spec(strategies=["heuristic"])
    strat, pv, bv = spec.args[0], spec.args[1], spec.args[4]
    K.record_hand(np.uint64(3), np.uint64(0), np.int64(0), strat, pv, np.int64(1), bv, *rec)
    K.record_hand_plain(np.uint64(3), np.uint64(0), np.int64(0), strat, pv, np.int64(1), bv, *again)
    assert rec[1].any() and all((a == b).all() for a, b in zip(rec, again))


def test_pimc_parameters_reach_the_players():
    """--pimc-from 0 keeps the PIMC player heuristic to the last card (a one-card hand is forced): the same table
    as the heuristic's; from 3 cards on it solves, and the hands differ; the meta names the parameters."""

    def table(strategy, **kw):
        r = driver.run(
            bm.simulation_spec(unit="hand", round=1, strategies=[strategy], **kw), trials=60, seed=2, progress=False
        )
        return r

    heur = table("heuristic")
    zero = table("pimc", pimc_from=0, pimc_samples=4)
    assert zero.meta["pimc_from"] == 0 and zero.meta["pimc_samples"] == 4 and "pimc_from" not in heur.meta
    assert zero.table.equals(heur.table)
    assert not table("pimc", pimc_from=3, pimc_samples=4).table.equals(heur.table)
