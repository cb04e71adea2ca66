"""Bismarck rules: the test vectors of rules.md 3(e) and more (BM-4 trick winner and legal cards, BM-6
scoring and its variants, BM-3 schedules), against the kernel and the plain-Python reference."""

from __future__ import annotations

import numpy as np
import pytest

from analysis.errors import CardlabError
from analysis.games import bismarck as B
from kernels import bismarck as K
from kernels import dd
from kernels._jit import jit
from tests.reference import bismarck as ref

TRUMP = {"NT": -1, "C": 0, "D": 1, "H": 2, "S": 3}


def codes(text):
    return B.DECK.indices(text)


def kernel_winner(cards, trump):
    row = np.array(codes(cards) + [0], dtype=np.int64)
    return int(dd.trick_winner_pos(row, 3, TRUMP[trump]))


@pytest.mark.parametrize(
    "cards, trump, pos",
    [
        ("5S KS AH", "NT", 1),  # V-M1: the off-suit ace does not count
        ("5S KS 2H", "H", 2),  # V-M2: a trump wins
        ("5S 2H 3H", "H", 2),  # V-M3: the highest trump
        ("AS 2S 3S", "NT", 0),  # the leader's ace holds
        ("5S 2D KH", "H", 2),  # a trump over a discard
        ("5S AD KD", "H", 0),  # discards in a non-trump suit never win
        ("2C 3C 4C", "NT", 2),
    ],
)
def test_trick_winner(cards, trump, pos):
    assert kernel_winner(cards, trump) == pos
    assert ref.winner_pos(codes(cards), TRUMP[trump]) == pos


def mask(text):
    return np.uint64(B.to_mask(text))


def test_V_M4_must_follow():
    h = mask("3S 9S AH KD")
    legal = int(dd.legal_cards(h, 3, -1, 0))
    assert B.cards_of(legal) == "3S 9S"


@pytest.mark.parametrize("must, expected", [(0, "AH KD 4C"), (1, "AH")])
def test_V_M5_void_may_trump_or_discard(must, expected):
    h = mask("AH KD 4C")
    assert set(B.cards_of(int(dd.legal_cards(h, 3, 2, must))).split()) == set(expected.split())
    assert set(ref.legal(set(codes("AH KD 4C")), 3, 2, bool(must))) == set(codes(expected))


def test_simulated_hands_follow_like_the_solver():
    """BM-4: the hand kernel's branch-free _follow (must_trump off) gives the legal cards of dd.legal_cards,
    on lead and after every led suit, over random hands (voids and single suits included)."""
    rnd = np.random.default_rng(4)
    follow = jit(K._follow.py_func)
    for _ in range(2000):
        cards = rnd.choice(52, int(rnd.integers(1, 17)), replace=False)
        h = np.uint64(sum(1 << int((c // 13) * 16 + c % 13) for c in cards))
        assert follow(h, 0, 0) == dd.legal_cards(h, -1, -1, 0)
        for led in range(4):
            lead_card = led * 16 + int(rnd.integers(13))
            assert follow(h, lead_card, 1) == dd.legal_cards(h, led, int(rnd.integers(-1, 4)), 0)


def test_void_without_trumps_may_play_anything_even_if_must_trump():
    h = mask("KD 4C")
    assert int(dd.legal_cards(h, 3, 2, 1)) == int(h)


@pytest.mark.parametrize(
    "variants, round_no, tricks, expected",
    [
        ({}, 1, (10, 5, 1), (2, 1, 0)),  # V-M6
        ({}, 2, (7, 5, 4), (0, 1, 0)),  # V-M7
        ({}, 4, (2, 7, 7), (4, 0, 0)),  # V-M8: floored at 0
        ({"scoring": "simplified"}, 1, (6, 5, 5), (6, 5, 5)),  # V-M10
        ({"scoring": "simplified"}, 4, (2, 7, 7), (2, -3, -3)),  # V-M11
        ({"round4_start": "classic"}, 4, (2, 7, 7), (2, -1, -1)),  # classic: dealer 4, others 6, no floor
        ({"round4_start": "classic"}, 4, (6, 5, 5), (-2, 1, 1)),
        ({"round4_start": "simplified"}, 4, (0, 9, 7), (4, -5, -3)),
        ({"below_quota_penalty": "true"}, 3, (6, 6, 4), (-2, 2, 0)),  # 3(c)7: +-1 per trick
        ({"below_quota_penalty": "true"}, 1, (16, 0, 0), (8, -4, -4)),
        ({}, 3, (16, 0, 0), (8, 0, 0)),
        ({}, 4, (0, 0, 16), (6, 4, 0)),
    ],
)
def test_scoring(variants, round_no, tricks, expected):
    v = {**ref.DEFAULTS, **variants}
    for role, t, e in zip(B.ROLES, tricks, expected):
        assert B.score(round_no, role, t, variants) == e
        assert ref.score(round_no, role, t, v) == e


def test_everyone_at_par_scores_zero():
    # 3(d): the quotas 8/4/4 add up to 16
    assert [B.score(1, r, t) for r, t in zip(B.ROLES, (8, 4, 4))] == [0, 0, 0]


def test_V_M12_block_of_four():
    t = B.schedule_table({}, first_dealer=0)
    assert list(t.dealer) == [0] * 4 + [1] * 4 + [2] * 4
    assert list(t["round"]) == [1, 2, 3, 4] * 3


def test_V_M13_rotate_each_hand():
    t = B.schedule_table({"dealer_schedule": "rotate_each_hand"}, first_dealer=0)
    assert list(t.dealer) == [h % 3 for h in range(12)]
    assert list(t["round"]) == [h % 4 + 1 for h in range(12)]


@pytest.mark.parametrize("schedule", ["block_of_four", "rotate_each_hand"])
def test_each_player_deals_each_round_type_once(schedule):
    # 3(c)1: over 12 hands both schedules give each player each round type exactly once as dealer
    t = B.schedule_table({"dealer_schedule": schedule}, first_dealer=1)
    assert sorted(zip(t.dealer, t["round"])) == sorted((d, r) for d in range(3) for r in range(1, 5))
    assert all(
        ref.schedule(1, h, {"dealer_schedule": schedule}) == (d, r) for h, d, r in zip(t.hand, t.dealer, t["round"])
    )


SWEDISH = {"ruleset": "swedish"}


@pytest.mark.parametrize(
    "round_no, tricks, expected",
    [
        (1, (3, 10, 3), (-1, 2, -1)),  # Spel: forehand (left) needs 8, the others 4: +-1 a trick
        (2, (4, 8, 4), (0, 0, 0)),  # Spader at par
        (3, (0, 16, 0), (-4, 8, -4)),  # Valfri, every trick to forehand
        (4, (7, 2, 7), (-1, 2, -1)),  # Pass: forehand at most 4, the others at most 6
        (4, (0, 16, 0), (6, -12, 6)),
    ],
)
def test_swedish_scoring(round_no, tricks, expected):
    """3(c)10: Swedish quotas by forehand (the dealer's left), one point a trick above or below them."""
    v = {**ref.DEFAULTS, **SWEDISH}
    for role, t, e in zip(B.ROLES, tricks, expected):
        assert B.score(round_no, role, t, SWEDISH) == e
        assert ref.score(round_no, role, t, v) == e


def test_swedish_scores_add_up_to_zero():
    """The Swedish quotas add up to 16 in every contract (8 + 4 + 4, Pass 4 + 6 + 6): every split of the 16 tricks
    scores 0 in all."""
    bv = B.variant_array(SWEDISH)
    for r in range(4):
        for a in range(17):
            for b in range(17 - a):
                assert sum(K.hand_score(r, role, t, bv) for role, t in enumerate((a, b, 16 - a - b))) == 0


def test_swedish_passes_the_deal_every_hand():
    t = B.schedule_table(SWEDISH, first_dealer=2)
    assert list(t.dealer) == [(2 + h) % 3 for h in range(12)]
    assert t["round"].isna().all() and list(t.chooser) == [h % 3 for h in range(12)]  # forehand chooses
    free = B.schedule_table({"fixed_round_order": "false"}, first_dealer=0)
    assert free["round"].isna().all() and list(free.chooser) == list(free.dealer) == [0] * 4 + [1] * 4 + [2] * 4
    assert all(ref.schedule(2, h, {**ref.DEFAULTS, **SWEDISH})[0] == d for h, d in zip(t.hand, t.dealer))


@pytest.mark.parametrize(
    "variant",
    [
        "scoring=simplified",
        "dealer_schedule=block_of_four",
        "widow_exchange=none",
        "fixed_round_order=true",
        "round3_trump_timing=after_seeing_hand",
    ],
)
def test_swedish_refuses_the_blogs_own_variants(variant):
    """With ruleset=swedish the blog's dealing and scoring variants are not played: setting one is an error,
    even at its default value, rather than silently ignored."""
    name, value = variant.split("=")
    with pytest.raises(CardlabError, match=f"variant {name} does not apply with ruleset=swedish"):
        B.simulation_spec(variants={**SWEDISH, name: value})
    B.simulation_spec(variants={**SWEDISH, "must_trump_when_void": "true", "game_length": "4"})


def test_quota_table():
    bv = B.variant_array({})
    assert [K.quota(r, role, bv) for r in range(4) for role in range(3)] == [8, 4, 4] * 3 + [6, 4, 4]
    bv = B.variant_array(SWEDISH)
    assert [K.quota(r, role, bv) for r in range(4) for role in range(3)] == [4, 8, 4] * 3 + [6, 4, 6]
