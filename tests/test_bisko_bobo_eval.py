"""The Bisk evaluator (BB-12): rules.md vectors, ranking cases beyond them, exact type counts."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.games import bisko_bobo as bb
from kernels import bisko_bobo as K
from tests.reference import bisko_bobo as ref

DECK = bb.DECK


def key(text, **variants):
    return int(bb.evaluate([text], variants=variants)["key"][0])


def bisk(text, **variants):
    return bb.evaluate([text], variants=variants)["bisk"][0]


# ---- rules.md 1(e): comparison vectors V-E1..V-E4 (SRC:pagat) --------------------------------
@pytest.mark.parametrize(
    "vid, a, b",
    [
        ("V-E1", "KC JC TC", "AS KS AH KH"),
        ("V-E2", "QS TS", "KD QD"),
        ("V-E3", "JD TD QH JH", "AD QD AC KC"),
        ("V-E4", "AH TH JC TC", "KH QH AC KC"),
    ],
)
@pytest.mark.parametrize("order", ["suit_rank", "component_first"])
def test_comparison_vectors(vid, a, b, order):
    assert key(a, bisk_suit_order=order) > key(b, bisk_suit_order=order), vid


# ---- rules.md 1(e): types of larger sets given as suit counts [OURS] -------------------------
@pytest.mark.parametrize(
    "counts, expected",
    [
        ((3, 2, 2), "Three Bisk"),
        ((4, 3), "Big Full Bisk"),
        ((5, 2), "Quinn Bisk"),
        ((3, 3, 1), "Double Tri Bisk"),
        ((6, 1), "Hex Bisk"),
        ((2, 2, 2, 1), "Three Bisk"),
        ((4, 1, 1, 1), "Quad Bisk"),
    ],
)
def test_type_of_suit_counts(counts, expected):
    suits = "SDHC"
    cards = [f"{r}{suits[i]}" for i, c in enumerate(counts) for r in "AKQJT98"[:c]]
    assert bisk(" ".join(cards)) == expected


def test_three_bisk_uses_top_two_of_the_three_card_suit():
    # (3,2,2): the Bisk's spades are A K, the 9 of spades does not count (BB-12 step 2 and 4)
    assert key("AS KS 9S QD JD QH JH") == key("AS KS QD JD QH JH")
    assert key("AS KS 9S QD JD QH JH") > key("AS QS 9S QD JD QH JH")


# ---- ranking cases beyond rules.md -------------------------------------------------------------
def test_type_beats_suit_and_rank():
    assert key("TC 9C 8C") > key("AS KS AH KH")  # Tri > Two
    assert key("AS KS QD JD QH JH") > key("AS KS QS JS")  # Three Bisk ranks above Quad (BB-12 note)
    assert key("9C 8C") > key("AS KD QH JC")  # any Bisk beats no Bisk (step 5)


def test_tie_break_order_within_type():
    assert key("9S 8S") > key("AD KD")  # suit before rank
    assert key("AS 9S") > key("KS QS")  # then the highest card
    assert key("AS 9S") < key("AS TS")  # then the next card (full_lexicographic)
    assert key("AS 9S", tiebreak_depth="first_card_only") == key("AS TS", tiebreak_depth="first_card_only")


def test_no_bisk_comparison_and_more_cards():
    assert key("AS") > key("KS")
    assert key("2S") > key("AD")  # highest suit first (step 5)
    assert key("JS AD") > key("JS")  # more cards win an otherwise equal comparison
    assert key("JS KD") > key("JS QD 9H")  # element by element before length


def test_full_bisk_suit_order_variant():
    # Full Bisk: tri in hearts + bisko in spades vs tri in spades + bisko in hearts
    a = "AH KH QH 9S 8S"
    b = "9S 8S 7S AH KH"
    # suit_rank: suits (S, H) both; then the spade lists: [9, 8] < [9, 8, 7] (an equal prefix loses)
    assert key(a) < key(b)
    # component_first: the tri's suit first: S (b) > H (a)
    assert key(a, bisk_suit_order="component_first") < key(b, bisk_suit_order="component_first")
    c = "AD KD QD 9S 8S"  # tri in diamonds, bisko in spades
    d = "AS KS QS 9H 8H"  # tri in spades, bisko in hearts
    assert key(c) > key(d)  # suit_rank: (S, D) > (S, H)
    assert key(c, bisk_suit_order="component_first") < key(d, bisk_suit_order="component_first")


def test_same_suit_split_variant_changes_only_big_sets():
    assert bisk("AS KS QS JS") == "Quad Bisk"
    assert bisk("AS KS QS JS", allow_same_suit_split="true") == "Quad Bisk"
    # seven spades: default a Hex Bisk; split allows nothing higher than Hex either
    assert bisk("AS KS QS JS TS 9S 8S", allow_same_suit_split="true") == "Hex Bisk"
    # 4+2 with split can be read as Three Bisk [2,2,2] (rank 6) but Big Full (8) is higher: unchanged
    assert bisk("AS KS QS JS AH KH", allow_same_suit_split="true") == "Big Full Bisk"
    # four spades + two hearts + two diamonds: Three Bisk vs Big Full: Big Full
    assert bisk("AS KS QS JS AH KH AD KD") == "Big Full Bisk"


def test_keys_compare_across_calls_and_card_order():
    a = bb.evaluate(["KC JC TC", "TC KC JC"])
    assert a["key"][0] == a["key"][1]
    assert key("K♣ J♣ 10♣") == key("kc jc tc")


# ---- kernel vs the brute-force reference on random sets, every evaluator variant ---------------
@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.integers(0, 51), min_size=1, max_size=12, unique=True),
    st.lists(st.integers(0, 51), min_size=1, max_size=12, unique=True),
    st.sampled_from(["suit_rank", "component_first"]),
    st.sampled_from(["full_lexicographic", "first_card_only"]),
    st.booleans(),
)
def test_kernel_orders_sets_like_reference(a, b, order, depth, split):
    flags = (1 if order == "component_first" else 0, 1 if depth == "first_card_only" else 0, int(split))
    ka = int(K.bisk_key(np.array(a), len(a), *flags, K.RANK_PACK))
    kb = int(K.bisk_key(np.array(b), len(b), *flags, K.RANK_PACK))
    ra = ref.evaluate(a, order=order, depth=depth, split=split)
    rb = ref.evaluate(b, order=order, depth=depth, split=split)
    assert ka >> 59 == ra[0] and kb >> 59 == rb[0]
    assert (ka > kb) == (ra > rb) and (ka == kb) == (ra == rb)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=1, max_size=10, unique=True), st.randoms())
def test_key_invariant_under_card_order(cards, rnd):
    shuffled = cards[:]
    rnd.shuffle(shuffled)
    k1 = K.bisk_key(np.array(cards), len(cards), 0, 0, 0, K.RANK_PACK)
    k2 = K.bisk_key(np.array(shuffled), len(cards), 0, 0, 0, K.RANK_PACK)
    assert k1 == k2


# ---- the batch forms (eight sets at a time in SIMD lanes) against the single-set key ------------------------
@pytest.mark.parametrize("split", [0, 1])
@pytest.mark.parametrize("order_mode, depth", [(0, 0), (0, 1), (1, 0), (1, 1)])
def test_batch_keys_equal_single_keys(order_mode, depth, split):
    """eval_batch (card lists) and eval_masks (suit masks) give bisk_key's key for every set: sizes 0..13 (the
    lanes evaluate sets of at most 6 cards, larger ones and allow_same_suit_split fall back to the scalar
    search), a batch length that is not a multiple of 8 (the tail is scalar)."""
    r = np.random.default_rng(7 + 4 * order_mode + 2 * depth + split)
    n = 3_003
    lengths = r.integers(0, 14, n)
    lengths[:64] = 6  # whole lane batches of table-sized sets
    sets = np.full((n, 13), 51, dtype=np.int64)  # past a set's length: a card that must not be read
    masks = np.zeros((n, 4), dtype=np.int64)
    for i in range(n):
        sets[i, : lengths[i]] = r.choice(52, lengths[i], replace=False)
        for c in sets[i, : lengths[i]]:
            masks[i, c // 13] |= 1 << (c % 13)
    want = np.array([K.bisk_key(sets[i], lengths[i], order_mode, depth, split, K.RANK_PACK) for i in range(n)])
    got = np.zeros(n, dtype=np.int64)
    K.eval_batch(sets, lengths, order_mode, depth, split, K.RANK_PACK, got)
    assert np.array_equal(got, want)
    got[:] = 0
    K.eval_masks(masks, order_mode, depth, split, K.RANK_PACK, got)
    assert np.array_equal(got, want)
    assert len(np.unique(want >> 59)) == 11  # every Bisk type among the sets


# ---- exact type counts against an independent enumeration over suit-count shapes -------------
def independent_type_counts(k: int, m: int) -> np.ndarray:
    """Count m-card sets of a 4 x k deck by suit counts: sum over (c0..c3) of prod C(k, ci)."""
    out = np.zeros(11, dtype=np.int64)
    for counts in itertools.product(range(min(k, m) + 1), repeat=4):
        if sum(counts) != m:
            continue
        ways = math.prod(math.comb(k, c) for c in counts)
        cards = [s * 13 + r for s, c in enumerate(counts) for r in range(13 - c, 13)]
        out[ref.evaluate(cards)[0]] += ways
    return out


@pytest.mark.parametrize("players", [2, 4, 5, 6])
@pytest.mark.parametrize("cards", [1, 2, 3, 4, 5, 6, 7])
def test_exact_type_counts(players, cards):
    got = bb.exact_bisk_types(players, cards)
    k = bb.ranks_per_suit(players)
    want = independent_type_counts(k, cards)
    assert got["count"].tolist() == want.tolist()
    assert got["count"].sum() == math.comb(4 * k, cards)
    assert got["probability"].sum() == pytest.approx(1.0)
