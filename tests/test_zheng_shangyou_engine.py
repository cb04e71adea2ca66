"""Zheng Shangyou engine: rules.md 4(e) vectors, classification and the move generator against brute force."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

from analysis.errors import CardlabError
from analysis.games import zheng_shangyou as zs
from kernels import zheng_shangyou as K
from tests.inprocess import cli
from tests.reference import zheng_shangyou as ref

ZV = zs.variant_array({})


def play(text, zv=ZV):
    return zs.classify_mask(zs.to_mask(text), zv)


def beats(current, new, zv=ZV):
    return bool(K.beats(*play(current, zv), *play(new, zv), zv))


# ---- rules.md 4(e) vectors (default variants) ---------------------------------------------------
@pytest.mark.parametrize(
    "vid, current, new, legal",
    [
        ("V-Z1", "AS", "2D", True),  # rank before suit
        ("V-Z2", "2H", "2S", True),
        ("V-Z3a", "2S", "BJ", True),
        ("V-Z3b", "BJ", "RJ", True),
        ("V-Z4", "KH KD", "KS KC", True),  # higher-suited card
        ("V-Z6", "AS 2D 3C 4H 5S", "2C 3D 4S 5H 6D", True),
        ("V-Z7", "4D 5C 6H 7S 8D", "4C 5H 6S 7D 8C", False),  # not strictly higher
        ("V-Z8", "5D 6C 7H 8S 9D", "3D 4C 5H 6S 7D 8C", False),  # length differs
        ("V-Z11", "7D 7C 7H AS AD", "8D 8C 8H 3S 3D", True),
        ("V-Z12", "RJ", "3D 3C 3H 3S KD", True),  # a bomb on any trick
        ("V-Z13", "3D 3C 3H 3S KD", "4D 4C 4H 4S 5D", True),
        ("V-Z14", "2D 2C 2H 2S 3D", "AC 2C 3C 4C 5C", True),  # straight flush beats a bomb
        ("V-Z15", "3D 4D 5D 6D 7D", "2D 2C 2H 2S AD", False),  # bomb cannot beat a straight flush
        ("V-Z17", "9D 9C", "TD TC TH 4S 4D", False),  # type and size differ
    ],
)
def test_rule_vectors(vid, current, new, legal):
    assert beats(current, new) is legal, vid


def test_V_Z5_single_order():
    assert play("AS")[2] > play("AD")[2] > play("KS")[2]


def test_V_Z9_no_wrap_around():
    assert play("JD QC KH AS 2D")[0] == K.K_NONE


def test_V_Z14_ace_low_straight_flush_with_a_two():
    assert play("AC 2C 3C 4C 5C")[0] == K.K_STRAIGHT_FLUSH and play("AC 2C 3C 4C 5C")[2] == 0


def test_V_Z18_any_lead():
    assert bool(K.beats(K.K_NONE, 0, 0, *play("8S"), ZV))


# ---- classification beyond the vectors -------------------------------------------------------------
@pytest.mark.parametrize(
    "text, kind",
    [
        ("5D 5H 6C 6S 7D 7H", K.K_PAIR_STRAIGHT),
        ("AD AH 2C 2S", K.K_PAIR_STRAIGHT),
        ("KD KH AC AS", K.K_PAIR_STRAIGHT),
        ("KD KH AC AS 2D 2C", K.K_NONE),  # K-A-2 wraps
        ("5D 5H 5C 6C 6S 6D", K.K_TRIPLE_STRAIGHT),
        ("5D 5H 5C 7C 7S 7D", K.K_NONE),
        ("TD JC QH KS AD", K.K_STRAIGHT),
        ("9D TD JD QD KD AD", K.K_STRAIGHT_FLUSH),
        ("3D 3C 3H 3S", K.K_NONE),  # a bare four is no play by default
        ("3D 3C 3H 3S BJ", K.K_NONE),  # no joker as a bomb's kicker by default
        ("BJ RJ", K.K_NONE),
        ("5D 5H 5C 6C", K.K_NONE),
        ("3D 4D 5D 6D", K.K_NONE),
    ],
)
def test_classification(text, kind):
    assert play(text)[0] == kind


def _random_hand(rnd, size):
    return rnd.sample(range(54), size)


@pytest.mark.parametrize("seed", range(40))
def test_kernel_classifies_like_the_reference(seed):
    rnd = random.Random(seed)
    for _ in range(200):
        cards = _random_hand(rnd, rnd.choice([1, 2, 3, 4, 5, 5, 5, 6, 7, 8]))
        mask = sum(1 << c for c in cards)
        got = zs.classify_mask(mask)
        want = ref.classify(cards)
        assert (got if got[0] else None) == want, (cards, got, want)


def _kernel_moves(hand, current, zv=ZV, revolution=False):
    out = K.new_moves()
    ck, cn, ckey = current if current else (0, 0, 0)
    n = K.generate_moves(*(np.uint64(m) for m in ref.to_masks(hand)), ck, cn, ckey, out, zv, int(revolution))
    plays = [ref.from_masks(int(x), int(y)) for x, y in out[:n]]
    assert len(plays) == len(set(plays)), "a play was generated twice"
    return set(plays)


@pytest.mark.parametrize("seed", range(30))
def test_move_generator_matches_brute_force(seed):
    """Every legal play generated and every generated play legal, on lead and over random plays."""
    rnd = random.Random(1000 + seed)
    for _ in range(6):
        hand = _random_hand(rnd, rnd.randint(5, 11))
        rest = [c for c in range(54) if c not in hand]
        assert _kernel_moves(hand, None) == ref.legal_plays(hand, None)
        # over a random current play made of other cards
        for _ in range(3):
            cur = ref.classify(rnd.sample(rest, rnd.choice([1, 2, 3, 4, 5, 5, 6])))
            if cur is None:
                continue
            assert _kernel_moves(hand, cur) == ref.legal_plays(hand, cur), (hand, cur)


VARIANTS = [
    {"straight_suit_tiebreak": "true"},
    {"bare_four_is_bomb": "beats_all"},
    {"bare_four_is_bomb": "below_straight_flush"},
    {"sf_vs_sf": "longer_beats_shorter"},
    {"sequence_rules": "no_twos_in_sequences"},
    {"pair_straight_tiebreak": "top_pair_suit"},
    {"bomb_kicker_may_be_joker": "true"},
    {"ruleset": "legacy_wiki"},
    {"ruleset": "current_wiki"},
    {"ruleset": "current_wiki", "triple_is_bomb": "true"},
    {"suit_order": "false"},
    {"ruleset": "current_wiki", "suit_order": "false", "revolution": "true"},
]


@pytest.mark.parametrize("variants", VARIANTS, ids=lambda v: "-".join(f"{k}={x}" for k, x in v.items()))
def test_variants_classify_and_generate_like_the_reference(variants):
    zv = zs.variant_array(variants)
    rnd = random.Random(str(variants))
    for _ in range(300):
        cards = _random_hand(rnd, rnd.choice([4, 5, 5, 6, 7]))
        got = zs.classify_mask(sum(1 << c for c in cards), zv)
        assert (got if got[0] else None) == ref.classify(cards, variants), cards
    for _ in range(12):
        hand = _random_hand(rnd, rnd.randint(6, 10))
        # make four of a kind and straight flushes likely enough to matter
        hand = sorted(set(hand) | {0, 1, 2, 3})
        rest = [c for c in range(54) if c not in hand]
        assert _kernel_moves(hand, None, zv) == ref.legal_plays(hand, None, variants)
        for _ in range(3):
            cur = ref.classify(rnd.sample(rest, rnd.choice([1, 2, 4, 5, 6])), variants)
            if cur is not None:
                assert _kernel_moves(hand, cur, zv) == ref.legal_plays(hand, cur, variants), (hand, cur)


@pytest.mark.parametrize(
    "variants, current, new, legal",
    [
        ({"straight_suit_tiebreak": "true"}, "4D 5C 6H 7S 8D", "4C 5H 6S 7D 8C", True),  # top card 8C > 8D
        ({"straight_suit_tiebreak": "true"}, "4D 5C 6H 7S 8S", "4C 5H 6S 7D 8C", False),
        ({"bare_four_is_bomb": "beats_all"}, "3D 4D 5D 6D 7D", "9D 9C 9H 9S", True),  # literal: beats anything
        ({"bare_four_is_bomb": "below_straight_flush"}, "3D 4D 5D 6D 7D", "9D 9C 9H 9S", False),
        ({"bare_four_is_bomb": "below_straight_flush"}, "KD KC", "9D 9C 9H 9S", True),
        ({"sf_vs_sf": "longer_beats_shorter"}, "9D TD JD QD KD", "3C 4C 5C 6C 7C 8C", True),
        ({}, "9D TD JD QD KD", "3C 4C 5C 6C 7C 8C", False),
        ({"pair_straight_tiebreak": "top_pair_suit"}, "5D 5C 6D 6C", "5H 5S 6H 6S", True),
        ({}, "5D 5C 6D 6C", "5H 5S 6H 6S", False),
        ({"bomb_kicker_may_be_joker": "true"}, "KD KC", "9D 9C 9H 9S RJ", True),
        # ruleset legacy_wiki (4(c)14): straights and straight flushes of 3 or more cards
        ({"ruleset": "legacy_wiki"}, "3D 4C 5H", "4D 5C 6H", True),
        ({"ruleset": "legacy_wiki"}, "4D 5C 6H", "3C 4H 5S", False),
        ({"ruleset": "legacy_wiki"}, "9D 9C 9H 9S 3D", "3C 4C 5C", True),  # a 3-card straight flush
        ({"ruleset": "legacy_wiki"}, "3D 4C 5H", "3C 4C 5C 6H", False),  # same length only
        # ruleset current_wiki (4(a), 4(c)14): only the bomb (n of a kind alone) beats another type
        ({"ruleset": "current_wiki"}, "RJ", "3D 3C 3H 3S", True),
        ({"ruleset": "current_wiki"}, "3D 4D 5D 6D 7D", "3D 3C 3H 3S", True),  # one suit: a plain straight
        ({"ruleset": "current_wiki"}, "3D 4C 5H 6S 7D", "4D 5D 6D 7D 8D", True),
        ({"ruleset": "current_wiki"}, "KD KC", "4D 5D 6D 7D 8D", False),
        ({"ruleset": "current_wiki"}, "AD AC AH AS", "3D 3C 3H 3S", False),
        ({"ruleset": "current_wiki"}, "3D 3C 3H 3S", "KD KC KH", False),  # three of a kind is no bomb
        ({"ruleset": "current_wiki", "triple_is_bomb": "true"}, "KD KC", "3D 3C 3H", True),
        ({"ruleset": "current_wiki", "triple_is_bomb": "true"}, "2D 2C 2H", "3D 3C 3H 3S", True),  # four > three
        ({"ruleset": "current_wiki", "deck": "5to8p_108"}, "2D 2C 2H 2S", "3D 3C 3H 3S 3D", True),  # five > four
        # suit_order=false (the current article's option): equal ranks do not beat
        ({"suit_order": "false"}, "AD", "AS", False),
        ({"suit_order": "false"}, "AS", "2D", True),
        ({"suit_order": "false"}, "KH KD", "KS KC", False),
        ({"suit_order": "false"}, "BJ", "RJ", True),
    ],
)
def test_variant_vectors(variants, current, new, legal):
    zv = zs.variant_array(variants)
    cur, new = (zs.classify_mask(zs.to_mask(t, zs.copies(variants)), zv) for t in (current, new))
    assert bool(K.beats(*cur, *new, zv)) is legal


def test_current_wiki_shapes():
    zv = zs.variant_array({"ruleset": "current_wiki"})
    assert play("9D 9C 9H 9S 3D", zv)[0] == K.K_NONE and play("9D 9C 9H 9S 3D")[0] == K.K_BOMB
    assert play("9D 9C 9H 9S", zv)[:2] == (K.K_BOMB, 4) and play("9D 9C 9H 9S")[0] == K.K_NONE
    assert play("3D 4D 5D 6D 7D", zv)[0] == K.K_STRAIGHT and play("3D 4D 5D 6D 7D")[0] == K.K_STRAIGHT_FLUSH
    assert play("9D 9C 9H 3S 3D", zv)[0] == K.K_FULL_HOUSE


@pytest.mark.parametrize(
    "variants, msg",
    [
        ({"ruleset": "current_wiki", "bare_four_is_bomb": "beats_all"}, "does not apply under ruleset=current_wiki"),
        ({"ruleset": "current_wiki", "sf_vs_sf": "longer_beats_shorter"}, "does not apply"),
        ({"triple_is_bomb": "true"}, "belongs to ruleset=current_wiki"),
        ({"ruleset": "current_wiki", "triple_is_bomb": "true", "deck": "5to8p_108"}, "for one deck"),
        ({"suit_order": "false", "straight_suit_tiebreak": "true"}, "needs a suit order"),
        ({"suit_order": "false", "auto_restart_after_unbeatable": "true"}, "needs a suit order"),
    ],
)
def test_variant_combinations_refused(variants, msg):
    with pytest.raises(CardlabError, match=msg):
        zs.variant_array(variants)


def test_legacy_wiki_sequences_of_three():
    zv = zs.variant_array({"ruleset": "legacy_wiki"})
    assert play("AS 2D 3C", zv)[:2] == (K.K_STRAIGHT, 3) and play("AS 2D 3C")[0] == K.K_NONE
    assert play("QS KD AC", zv)[0] == K.K_STRAIGHT and play("KS AD 2C", zv)[0] == K.K_NONE  # no wrap-around
    assert play("7H 8H 9H", zv)[0] == K.K_STRAIGHT_FLUSH and play("7H 8H", zv)[0] == K.K_NONE


def test_no_twos_in_pair_straights_variant():
    zv = zs.variant_array({"sequence_rules": "no_twos_in_sequences"})
    assert play("AD AC 2D 2C", zv)[0] == K.K_NONE and play("AD AC 2D 2C")[0] == K.K_PAIR_STRAIGHT
    assert play("AS 2D 3C 4H 5S", zv)[0] == K.K_STRAIGHT  # straights keep their twos


def test_rich_hand_with_every_kind():
    hand = zs.DECK.indices("3D 3C 3H 3S 4D 4C 4H 5D 5C 6D 7D 8D 2S")
    assert _kernel_moves(hand, None) == ref.legal_plays(hand, None)


# ---- the command line --------------------------------------------------------------------------------
def test_cli_moves_beats_eval_json():
    code, out, err = cli("moves", "zheng-shangyou", "--hand", "3D 3S 4D 5D 6D 7D", "--format", "json")
    rows = json.loads(out)["rows"]
    assert code == 0 and {"cards", "type"} <= set(rows[0])
    assert any(r["type"] == "straight flush" for r in rows)
    code, out, err = cli("beats", "zheng-shangyou", "--current", "KH KD", "--play", "KS KC", "--format", "json")
    row = json.loads(out)["rows"][0]
    assert row["beats"] is True and row["reason"]
    code, out, err = cli("eval", "zheng-shangyou", "RJ", "2S 2H", "--format", "json")
    assert [r["type"] for r in json.loads(out)["rows"]] == ["single", "pair"]


@pytest.mark.parametrize(
    "args, msg",
    [
        (["moves", "zheng-shangyou", "--hand", "3D 3D"], "duplicate card 3D"),
        (["moves", "zheng-shangyou", "--hand", "3D 4X"], "bad card '4X'"),
        (["beats", "zheng-shangyou", "--current", "3D 5S", "--play", "4D 4S"], "not a combination"),
        (["moves", "zheng-shangyou", "--hand", "3D 3D 3D", "--variant", "deck=5to8p_108"], "appears three times"),
        (
            ["moves", "zheng-shangyou", "--hand", "3D 3D", "--current", "3D", "--variant", "deck=5to8p_108"],
            "three times",
        ),
        (
            ["simulate", "zheng-shangyou", "--trials", "10", "--players", "4", "--variant", "deck=5to8p_108"],
            "5 to 8 players",
        ),
        (["simulate", "zheng-shangyou", "--trials", "10", "--players", "6"], "deck=5to8p_108"),
        (["simulate", "zheng-shangyou", "--trials", "10", "--players", "3"], "deck=3p_54"),
        (["odds", "zheng-shangyou", "--seat", "0", "--trials", "10"], "give --hand"),
    ],
)
def test_cli_bad_input(args, msg):
    code, out, err = cli(*args)
    assert code == 2 and msg in err and err.count("\n") == 1


def _structured_hand(rnd):
    """A hand built to hold what random hands rarely do (ZS-5): a one-suit run of 5 to 7 positions (ace low
    or high included), a pair or triple straight, a four of a kind at times, and a few loose cards."""
    pos_rank = [11, 12] + list(range(11)) + [11]  # position -> rank, A(low) 2 3 .. K A(high)
    suit = rnd.randrange(4)
    length = rnd.randint(5, 7)
    low = rnd.randint(0, 14 - length)
    cards = {pos_rank[p] * 4 + suit for p in range(low, low + length)}
    width = rnd.choice([2, 3])
    start = rnd.randint(0, 11)
    for r in (start, start + 1):
        cards |= set(rnd.sample([r * 4 + s for s in range(4)], width))
    if rnd.random() < 0.4:
        r = rnd.randrange(13)
        cards |= {r * 4 + s for s in range(4)}
    cards |= set(rnd.sample(range(54), rnd.randint(0, 2)))
    return sorted(cards)[:13]


@pytest.mark.parametrize(
    "variants", [{}] + VARIANTS, ids=lambda v: "-".join(f"{k}={x}" for k, x in v.items()) or "default"
)
def test_move_generator_on_sequence_rich_hands(variants):
    """ZS-5/ZS-6 move sets on hands rich in straight flushes, pair/triple straights and bombs, on lead and over
    every kind of current play (taken from another such hand), in both rank orders (variant 7)."""
    from itertools import combinations

    rnd = random.Random("rich" + str(variants))
    for _trial in range(8):
        hand = _structured_hand(rnd)
        other = [c for c in _structured_hand(rnd) if c not in hand]
        other_plays = sorted(ref.legal_plays(other, None, variants), key=sorted)
        chosen = rnd.sample(other_plays, min(6, len(other_plays)))
        subsets = [sub for size in range(1, len(hand) + 1) for sub in combinations(hand, size)]
        for revolution in (False, True):
            zv = zs.variant_array(variants)
            kinds = [(tuple(sorted(sub)), ref.classify(sub, variants, revolution)) for sub in subsets]
            for cur in [None] + [ref.classify(sorted(p), variants, revolution) for p in chosen]:
                want = {sub for sub, k in kinds if ref.beats(cur, k, variants)}
                assert _kernel_moves(hand, cur, zv, revolution) == want, (hand, cur, revolution)


# ---- two decks (deck=5to8p_108, rules.md 4(c)1): identical cards in a hand and in a play ------------------
TWO = {"deck": "5to8p_108"}
ZV2 = zs.variant_array(TWO)


def play2(text, zv=ZV2):
    return zs.classify_mask(zs.to_mask(text, 2), zv)


def beats2(current, new, zv=ZV2):
    return bool(K.beats(*play2(current, zv), *play2(new, zv), zv))


@pytest.mark.parametrize(
    "text, kind, length",
    [
        ("7S 7S", K.K_PAIR, 2),
        ("7S 7S 7H", K.K_TRIPLE, 3),
        ("RJ RJ", K.K_NONE, 2),
        ("BJ BJ", K.K_NONE, 2),
        ("7S 7S 7H 7D 3C", K.K_BOMB, 5),  # a four of a kind may hold identical cards
        ("7S 7S 7H 7H 7D", K.K_BOMB, 5),  # five of a kind: a four + one card [OURS]
        ("7S 7S 7H 7H 7D 7D", K.K_NONE, 6),
        ("7S 7S 7H 7H", K.K_NONE, 4),
        ("7S 7S 7H 3D 3D", K.K_FULL_HOUSE, 5),
        ("5S 5S 6H 6H", K.K_PAIR_STRAIGHT, 4),
        ("5S 5S 5D 6H 6H 6C", K.K_TRIPLE_STRAIGHT, 6),
        ("3D 4D 5D 6D 7D", K.K_STRAIGHT_FLUSH, 5),
        ("3D 4D 5D 6D 7D 7D", K.K_NONE, 6),
        ("3D 3D 4C 5H 6S 7D", K.K_NONE, 6),
    ],
)
def test_two_deck_classification(text, kind, length):
    assert play2(text)[:2] == (kind, length)
    want = ref.classify(zs.DECK.indices(text, allow_duplicates=True))
    assert (want[:2] if want else (K.K_NONE, length)) == (kind, length)


@pytest.mark.parametrize(
    "current, new, legal",
    [
        ("7S", "7S", False),  # equal plays do not beat (4(c)1)
        ("7H 7H", "7S 7D", True),
        ("7S 7D", "7S 7S", False),
        ("7S 7S", "7S 7H", False),
        ("9S 9S 9H 9D 3C", "9S 9H 9H 9D 3D", False),  # a bomb of the same rank is not higher
        ("9S 9S 9H 9D 3C", "TD TD TC TC 3D", True),
        ("9S 9S 9H 9H 9D", "3D 4D 5D 6D 7D", True),  # a straight flush beats a five-of-a-kind bomb
        ("2S 2S", "3C 3C 3D 3D 4H", True),
    ],
)
def test_two_deck_beating(current, new, legal):
    assert beats2(current, new) is legal


def _random_multiset(rnd, n):
    """n cards of two decks, doubled cards and crowded ranks likely."""
    ranks = rnd.sample(range(13), rnd.randint(2, 5))
    pool = [r * 4 + s for r in ranks for s in range(4)] * 2 + [52, 53, 52, 53]
    return sorted(rnd.sample(pool, n))


@pytest.mark.parametrize("seed", range(15))
def test_two_deck_move_generator_matches_brute_force(seed):
    """ZS-5/ZS-6 move sets of two-deck hands (each card up to twice) against every sub-multiset, on lead
    and over plays made of the cards left, in both rank orders, under a few variants."""
    rnd = random.Random(7000 + seed)
    variants = [
        TWO,
        {**TWO, "bare_four_is_bomb": "beats_all"},
        {**TWO, "bomb_kicker_may_be_joker": "true"},
        {**TWO, "pair_straight_tiebreak": "top_pair_suit"},
        {**TWO, "ruleset": "current_wiki"},
    ][seed % 5]
    for _ in range(4):
        hand = _random_multiset(rnd, rnd.randint(6, 11))
        left = list((ref.Counter({c: 2 for c in range(54)}) - ref.Counter(hand)).elements())
        for revolution in (False, True):
            zv = zs.variant_array(variants)
            assert _kernel_moves(hand, None, zv, revolution) == ref.legal_plays(hand, None, variants, revolution)
            for _ in range(3):
                cur = ref.classify(_random_multiset(rnd, rnd.choice([1, 2, 3, 4, 5, 6])), variants, revolution)
                if cur is not None and left:
                    assert _kernel_moves(hand, cur, zv, revolution) == ref.legal_plays(
                        hand, cur, variants, revolution
                    ), (hand, cur)


def test_two_deck_cli():
    code, out, err = cli(
        "moves", "zheng-shangyou", "--hand", "7S 7S 7H 7D 3C", "--variant", "deck=5to8p_108", "--format", "json"
    )
    rows = json.loads(out)["rows"]
    assert code == 0
    assert {r["cards"] for r in rows if r["type"] == "bomb"} == {"3C 7D 7H 7S 7S"}
    assert {r["cards"] for r in rows if r["type"] == "pair"} == {"7D 7H", "7D 7S", "7H 7S", "7S 7S"}
    code, out, err = cli(
        "beats",
        "zheng-shangyou",
        "--current",
        "7H 7S",
        "--play",
        "7S 7H",
        "--variant",
        "deck=5to8p_108",
        "--format",
        "json",
    )
    row = json.loads(out)["rows"][0]
    assert code == 0 and row["beats"] is False and "equal" in row["reason"]


def _ordered_kernel_moves(hand, current, zv):
    out = K.new_moves()
    ck, cn, ckey = current if current else (0, 0, 0)
    n = K.generate_moves(*(np.uint64(m) for m in ref.to_masks(hand)), ck, cn, ckey, out, zv, 0)
    return [ref.from_masks(int(x), int(y)) for x, y in out[:n]]


def _crowded_hand(rnd, n, copies):
    """n cards from a few neighbouring ranks (and the jokers): bombs, straights and straight flushes likely."""
    low = rnd.randint(0, 8)  # six neighbouring sequence positions (A low .. A high)
    ranks = {ref.SEQ[p] for p in range(low, low + 6)}
    pool = [r * 4 + s for r in ranks for s in range(4)] * copies + [52, 53] * copies
    return sorted(rnd.sample(pool, n))


@pytest.mark.parametrize(
    "variants",
    [
        {},
        {"ruleset": "legacy_wiki"},
        {"ruleset": "current_wiki"},
        {"ruleset": "current_wiki", "triple_is_bomb": "true"},
        {"bare_four_is_bomb": "beats_all", "bomb_kicker_may_be_joker": "true"},
        TWO,
        {**TWO, "ruleset": "current_wiki"},
        {**TWO, "bare_four_is_bomb": "below_straight_flush"},
    ],
    ids=["seed", "legacy", "current", "triple-bomb", "bare-four", "two-decks", "two-current", "two-bare-four"],
)
def test_move_list_order_is_the_stated_order(variants):
    """The random player draws an index into the generator's list: its order is the one the reference states
    (ref.option_order), on lead and over current plays of every kind, straights included."""
    rnd = random.Random("order" + str(variants))
    copies = 2 if variants.get("deck") == "5to8p_108" else 1
    v = {**ref.DEFAULTS, **variants}
    zv = zs.variant_array(variants)
    for _ in range(60):
        hand = _crowded_hand(rnd, rnd.randint(6, 13), copies)
        currents = [None] + [ref.classify(_crowded_hand(rnd, k, copies), v) for k in (1, 2, 3, 4, 5, 5, 6, 8)]
        for cur in currents:
            moves = _ordered_kernel_moves(hand, cur, zv)
            keys = [ref.option_order(p, cur, v) for p in moves]
            assert len(set(keys)) == len(keys)  # a total order: no ties left to the generator
            assert keys == sorted(keys), (hand, cur)


@pytest.mark.parametrize(
    "variants",
    [
        {},
        {"ruleset": "legacy_wiki"},
        {"bare_four_is_bomb": "beats_all"},
        {"bomb_kicker_may_be_joker": "true", "bare_four_is_bomb": "below_straight_flush"},
        {"sequence_rules": "no_twos_in_sequences", "straight_suit_tiebreak": "true"},
        {"ruleset": "legacy_wiki", "sequence_rules": "no_twos_in_sequences"},
    ],
    ids=["seed", "legacy", "bare-four", "kicker-joker", "no-twos", "legacy-no-twos"],
)
def test_random_leader_decodes_the_kth_play(variants):
    """The random leader's play without a list (lead_play: count each class, decode the k-th) is the k-th
    play of the generator's list, for every k, on crowded hands and on dealt-like hands."""
    rnd = random.Random("lead" + str(variants))
    zv = zs.variant_array(variants)
    out = K.new_moves()
    for i in range(300):
        hand = _crowded_hand(rnd, rnd.randint(1, 14), 1) if i % 2 else sorted(rnd.sample(range(54), rnd.randint(1, 18)))
        mask = np.uint64(ref.to_masks(hand)[0])
        n = K.lead_plays(mask, zv, out)
        assert [tuple(r) for r in out[:n].tolist()] == [ref.to_masks(p) for p in _ordered_kernel_moves(hand, None, zv)]


@pytest.mark.parametrize(
    "variants",
    [
        {},
        {"suit_order": "false"},
        {"ruleset": "current_wiki"},
        {"ruleset": "legacy_wiki"},
        {"straight_suit_tiebreak": "true"},
    ],
    ids=["seed", "no-suit-order", "current", "legacy", "straight-suit"],
)
def test_following_without_a_list(variants):
    """follow_same_kind and follow_straight (the game's paths for a hand that makes no bomb or straight
    flush) give the generator's list over a pair, a three of a kind or a straight, in its order."""
    rnd = random.Random("follow" + str(variants))
    zv = zs.variant_array(variants)
    v = {**ref.DEFAULTS, **variants}
    checked = nonempty = 0
    kinds = set()
    while checked < 600:
        hand = _crowded_hand(rnd, rnd.randint(2, 12), 1) if checked % 2 else sorted(rnd.sample(range(54), 9))
        mask = np.uint64(ref.to_masks(hand)[0])
        if not K._no_bomb_or_straight_flush(mask, np.uint64(0), zv):
            continue
        cur = ref.classify(_crowded_hand(rnd, rnd.choice([2, 3, 5, 5, 6]), 1), v)
        if cur is None or cur[0] not in (ref.PAIR, ref.TRIPLE, ref.STRAIGHT):
            continue
        if cur[0] == ref.STRAIGHT:
            n = int(K.follow_straight(mask, cur[1], cur[2], zv, -1))
            got = [ref.from_masks(int(K.follow_straight(mask, cur[1], cur[2], zv, k))) for k in range(n)]
        else:
            w = 2 if cur[0] == ref.PAIR else 3
            n = int(K.follow_same_kind(mask, w, cur[2], zv, -1))
            got = [ref.from_masks(int(K.follow_same_kind(mask, w, cur[2], zv, k))) for k in range(n)]
        assert got == _ordered_kernel_moves(hand, cur, zv), (hand, cur)
        checked += 1
        if n > 0:
            nonempty += 1
            kinds.add(cur[0])
    assert nonempty > 100 and kinds == {ref.PAIR, ref.TRIPLE, ref.STRAIGHT}


@pytest.mark.parametrize(
    "variants",
    [
        TWO,
        {**TWO, "ruleset": "current_wiki"},
        {**TWO, "suit_order": "false"},
        {**TWO, "bare_four_is_bomb": "below_straight_flush", "revolution": "true"},
    ],
    ids=["two-decks", "current_wiki", "no-suit-order", "bare-four"],
)
def test_two_deck_move_generator_matches_brute_force_many(variants):
    """150 two-deck hands of 8 to 12 cards (crowded ranks, doubled cards), on lead and over 4 random current
    plays each, under four variant sets."""
    rnd = random.Random("many" + str(variants))
    zv = zs.variant_array(variants)
    for _ in range(150):
        hand = _random_multiset(rnd, rnd.randint(8, 12))
        assert _kernel_moves(hand, None, zv) == ref.legal_plays(hand, None, variants)
        for _ in range(4):
            cur = ref.classify(_random_multiset(rnd, rnd.choice([1, 2, 3, 4, 5, 6, 8])), variants)
            if cur is not None:
                assert _kernel_moves(hand, cur, zv) == ref.legal_plays(hand, cur, variants), (hand, cur)


def test_a_straight_through_the_two_reads_from_its_low_end():
    """ZS-5's straights run A(low) 2 3 ...: one through the two prints from its low end (a new user read
    "3D 4H 5S AC 2C" as no straight), in eval, moves and the advisor's action names; other plays keep the order
    lowest first, twos high. The text parses back to the same cards."""
    t = zs.evaluate(["3D 4H 5S AC 2C", "2C 3D 4H 5S 6D", "3D 3C 2D 2C 2H", "TC JD QH KS AC"])
    assert list(t["cards"]) == ["AC 2C 3D 4H 5S", "2C 3D 4H 5S 6D", "3D 3C 2D 2C 2H", "TC JD QH KS AC"]
    assert list(t["type"][:2]) == ["straight", "straight"]
    moves = set(zs.moves("AC 2C 3D 4H 5S 6D 7C")["cards"])
    assert "AC 2C 3D 4H 5S 6D 7C" in moves and "3D 4H 5S 6D 7C" in moves
    ms = zs._encode("AC 2C 3D 4H 5S", None)
    assert zs._encode(zs.play_text(ms), None) == ms
