"""Biscuits engine: rules.md 2(e) vectors, classification and moves against brute force (BI-6, BI-7)."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

from analysis.games import biscuits as bi
from kernels import biscuits as K
from tests.inprocess import cli
from tests.reference import biscuits as ref

BV = bi.variant_array({})


def kind(text, bv=BV):
    return bi.classify_mask(bi.to_mask(text), bv)


def beats(current, new, bv=BV):
    return bool(K.beats(*kind(current, bv), *kind(new, bv)))


@pytest.mark.parametrize(
    "vid, current, new, legal",
    [
        ("V-B1", "5C", "5D", True),
        ("V-B1", "5C", "TD", True),
        ("V-B1", "5C", "2D 2H", True),
        ("V-B1", "5C", "2D 2H 2S", True),
        ("V-B2", "5C", "4D", False),
        ("V-B3", "2C 3D 4H 5S 6C", "2D 3H 4S 5C 6D", True),
        ("V-B3", "2C 3D 4H 5S 6C", "2H 5H 7H 9H TH", True),
        ("V-B4", "3C", "9D TH JS QC KD", False),
    ],
)
def test_rule_vectors(vid, current, new, legal):
    assert beats(current, new) is legal, vid


def test_V_B3_every_fancy_type_beats_a_straight():
    cur = "2C 3D 4H 5S 6C"
    for play in ("2D 3H 4S 5C 6D", "2H 5H 7H 9H TH", "2D 2H 2S 5C 5D", "2D 2H 2S 2C 5D", "2S 3S 4S 5S 6S"):
        assert beats(cur, play), play


def test_V_B9_no_ace_low_straight_by_default():
    assert kind("AC 2D 3H 4S 5C")[0] == K.K_NONE
    assert kind("AC 2D 3H 4S 5C", bi.variant_array({"ace_low_straight": "true"}))[0] == K.K_STRAIGHT


def test_equal_beats_and_plain_types_across_sizes():
    assert beats("KC KD", "KH KS")  # equal rank beats (2(c)4)
    assert beats("AC AD", "2C 2D 2H")  # a Triple beats any Pair
    assert not beats("2C 2D 2H", "AC AD")
    assert kind("5C 5D 5H 5S")[0] == K.K_NONE  # no 4-card combination
    assert not beats("2C 3D 4H 5S 6C", "AS")  # Plain never beats Fancy


def test_flush_comparison_variants():
    a, b = "2H 5H 7H 9H KH", "3S 4S 6S 8S KS"  # K 9 7 5 2 against K 8 6 4 3
    assert beats(a, b) and beats(b, a)  # top card only (default): K = K, and equal beats
    bv = bi.variant_array({"flush_compare": "lexicographic"})
    assert beats(b, a, bv) and not beats(a, b, bv)  # lexicographic: 9 > 8 decides


def _check_moves_against_brute_force(rnd, variants, n_hands):
    """Random hands of 6-13 cards, on lead and over four random current plays each: the generated plays are
    exactly the subsets (of 1, 2, 3 or 5 cards) that are combinations beating the current play."""
    from itertools import combinations

    bv = bi.variant_array(variants)
    out = np.zeros(K.MAX_MOVES, dtype=np.uint64)
    situations = 0
    for _ in range(n_hands):
        hand = rnd.sample(range(52), rnd.randint(6, 13))
        mask = sum(1 << c for c in hand)
        rest = [c for c in range(52) if c not in hand]
        kinds = [
            (frozenset(sub), ref.classify(sub, variants)) for size in (1, 2, 3, 5) for sub in combinations(hand, size)
        ]
        currents = [None] + [ref.classify(rnd.sample(rest, rnd.choice([1, 2, 3, 5])), variants) for _ in range(4)]
        for cur in currents:
            ck, ckey = cur if cur else (0, 0)
            n = K.generate_moves(np.uint64(mask), ck, ckey, out, bv)
            got = [frozenset(i for i in range(52) if (int(x) >> i) & 1) for x in out[:n]]
            assert len(got) == len(set(got))
            assert set(got) == {sub for sub, k in kinds if ref.beats(cur, k)}, (hand, cur)
            situations += 1
    return situations


@pytest.mark.parametrize("seed", range(25))
@pytest.mark.parametrize("variants", [{}, {"ace_low_straight": "true", "flush_compare": "lexicographic"}])
def test_moves_match_brute_force(seed, variants):
    """BI-6/BI-7 move sets: 25 x 2 x 40 = 2,000 random hands, 10,000 situations in the default run."""
    assert _check_moves_against_brute_force(random.Random(seed), variants, 40) == 200


@pytest.mark.slow
@pytest.mark.parametrize("variants", [{}, {"ace_low_straight": "true", "flush_compare": "lexicographic"}])
def test_moves_match_brute_force_many(variants):
    """The same on 5,000 more hands per variant set (25,000 situations)."""
    assert _check_moves_against_brute_force(random.Random(str(variants)), variants, 5000) == 25000


@pytest.mark.parametrize("seed", range(10))
def test_classification_matches_reference(seed):
    rnd = random.Random(100 + seed)
    for variants in ({}, {"ace_low_straight": "true", "flush_compare": "lexicographic"}):
        bv = bi.variant_array(variants)
        for _ in range(300):
            cards = rnd.sample(range(52), rnd.choice([1, 2, 3, 4, 5, 5, 5]))
            got = bi.classify_mask(sum(1 << c for c in cards), bv)
            assert (got if got[0] else None) == ref.classify(cards, variants), cards


def test_cli_eval_beats_moves():
    code, out, err = cli("eval", "biscuits", "5S 5H", "--format", "json")
    row = json.loads(out)["rows"][0]
    assert (row["type"], row["group"], row["key"]) == ("Pair", "Plain", 3)
    code, out, err = cli("beats", "biscuits", "--current", "5C", "--play", "2D 2H", "--format", "json")
    row = json.loads(out)["rows"][0]
    assert row["beats"] is True and "higher type" in row["reason"]
    code, out, err = cli("moves", "biscuits", "--hand", "5C 5D 6H 7S 8C 9D", "--current", "4H", "--format", "json")
    rows = json.loads(out)["rows"]
    assert {r["type"] for r in rows} == {"Single", "Pair"} and len(rows) == 7
    code, out, err = cli("moves", "biscuits", "--hand", "5C 5C")
    assert code == 2 and "duplicate card 5C" in err


def _rich_hand(rnd):
    """A 13-card hand built to hold what random hands rarely do (BI-6): a one-suit run (straight flush, or a
    flush with a gap), a four of a kind at times, a triple, and loose cards."""
    suit = rnd.randrange(4)
    low = rnd.randint(0, 8)
    run = [(low + i) * 4 + suit for i in range(5)]
    if rnd.random() < 0.5:
        run[rnd.randrange(1, 4)] = min(12, low + 6) * 4 + suit  # a flush with a gap, or a longer run
    cards = set(run)
    if rnd.random() < 0.5:
        r = rnd.randrange(13)
        cards |= {r * 4 + s for s in range(4)}
    r = rnd.randrange(13)
    cards |= set(rnd.sample([r * 4 + s for s in range(4)], 3))
    cards.add(rnd.randrange(52))  # the lowest and the highest cards matter to kickers and keys
    while len(cards) < 13:
        cards.add(rnd.randrange(52))
    return sorted(cards)[:13]


@pytest.mark.parametrize("variants", [{}, {"ace_low_straight": "true", "flush_compare": "lexicographic"}])
def test_moves_on_rich_hands_over_every_kind(variants):
    """BI-6/BI-7 move sets on hands rich in flushes, straight flushes, quads and full houses, over current
    plays of every kind taken from another such hand."""
    from itertools import combinations

    bv = bi.variant_array(variants)
    rnd = random.Random("rich" + str(variants))
    out = np.zeros(K.MAX_MOVES, dtype=np.uint64)
    for _ in range(16):
        hand = _rich_hand(rnd)
        other = [c for c in _rich_hand(rnd) if c not in hand]
        other_plays = sorted(ref.legal_plays(other, None, variants), key=sorted)
        picked = rnd.sample(other_plays, min(10, len(other_plays)))
        currents = [None] + [ref.classify(sorted(p), variants) for p in picked]
        kinds = [
            (frozenset(sub), ref.classify(sub, variants)) for size in (1, 2, 3, 5) for sub in combinations(hand, size)
        ]
        for cur in currents:
            ck, ckey = cur if cur else (0, 0)
            n = K.generate_moves(np.uint64(sum(1 << c for c in hand)), ck, ckey, out, bv)
            got = [frozenset(i for i in range(52) if (int(x) >> i) & 1) for x in out[:n]]
            assert len(got) == len(set(got))
            assert set(got) == {sub for sub, k in kinds if ref.beats(cur, k)}, (hand, cur)
