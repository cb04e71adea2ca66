"""Zheng Shangyou games: the kernel against the plain-Python reference on the same deals and draws."""

from __future__ import annotations

import numpy as np
import pytest

from kernels import rng
from kernels import zheng_shangyou as K
from kernels._jit import jit
from tests.reference import zheng_shangyou as ref


def kernel_legal_for(zv):
    def legal(hand, current, revolution=False):
        out = K.new_moves()
        ck, cn, ckey = current if current else (0, 0, 0)
        n = K.generate_moves(
            *(np.uint64(m) for m in ref.to_masks(hand.elements())), ck, cn, ckey, out, zv, int(revolution)
        )
        return [ref.from_masks(int(x), int(y)) for x, y in out[:n]]

    return legal


@jit
def _one_game(P, deck, n_deal, strat, key0, trial, dealer, zv):
    st_deal = rng.new_state()
    st_play = rng.new_state()
    rng.seed_state(st_deal, key0, np.uint64(0), np.uint64(trial), np.uint64(0))
    rng.seed_state(st_play, key0, np.uint64(0), np.uint64(trial), np.uint64(1))
    d = deck.copy()
    hands = np.zeros((P, 2), dtype=np.uint64)
    counts = np.zeros(P, dtype=np.int64)
    K.deal_hands(st_deal, P, dealer, d, hands, counts, n_deal)
    leader = K.first_leader(P, hands)
    rec = np.zeros((P, K.G_FIELDS), dtype=np.int64)
    w, l = K.play_game(P, hands.copy(), counts, leader, strat, st_play, rec, K.new_moves(), K.make_scratch(), zv)
    return d, leader, w, l, rec


@pytest.mark.parametrize(
    "strategies, variants",
    [
        ([(0, 0, 0)] * 4, {}),
        ([(1, 0, 0)] * 4, {}),
        ([(1, 1, 0)] * 4, {}),
        ([(1, 2, 3)] * 4, {}),
        ([(0, 0, 0), (1, 0, 0), (1, 1, 0), (1, 2, 5)], {}),
        ([(2, 2, 3)] * 4, {}),
        ([(2, 2, 3), (1, 0, 0), (0, 0, 0), (2, 2, 5)], {}),
        ([(1, 0, 0)] * 4, {"auto_restart_after_unbeatable": "true"}),
        ([(1, 0, 0)] * 4, {"revolution": "true"}),
        ([(0, 0, 0)] * 4, {"revolution": "true"}),
        ([(2, 2, 3)] * 4, {"revolution": "true", "bare_four_is_bomb": "beats_all"}),
        ([(0, 0, 0)] * 4, {"score_timing": "at_end"}),
        ([(1, 0, 0)] * 4, {"bare_four_is_bomb": "beats_all", "bomb_kicker_may_be_joker": "true"}),
        ([(1, 0, 0)] * 4, {"deck": "4p_52"}),
        ([(1, 0, 0)] * 3, {"deck": "3p_54"}),
        ([(0, 0, 0)] * 3, {"deck": "3p_52", "three_player_multiplier": "literal_17"}),
        ([(0, 0, 0)] * 4, {"ruleset": "legacy_wiki"}),
        ([(2, 2, 3)] * 4, {"ruleset": "legacy_wiki"}),
        ([(1, 0, 0), (2, 2, 3), (1, 2, 3)], {"ruleset": "legacy_wiki", "deck": "3p_54"}),
        # two decks (4(c)1): 5 to 8 players, each card twice
        ([(0, 0, 0)] * 5, {"deck": "5to8p_108"}),
        ([(1, 0, 0)] * 6, {"deck": "5to8p_108"}),
        ([(2, 2, 3)] * 7, {"deck": "5to8p_108"}),
        (
            [(0, 0, 0), (1, 0, 0), (1, 1, 0), (1, 2, 3), (2, 2, 3), (2, 2, 5), (0, 0, 0), (1, 0, 0)],
            {"deck": "5to8p_108"},
        ),
        ([(1, 0, 0), (2, 2, 3)] * 3, {"deck": "5to8p_108", "revolution": "true", "bare_four_is_bomb": "beats_all"}),
        ([(2, 2, 3)] * 5, {"deck": "5to8p_108", "score_timing": "at_end", "bomb_kicker_may_be_joker": "true"}),
        # the current article (ruleset current_wiki) and no suit order
        ([(0, 0, 0)] * 4, {"ruleset": "current_wiki"}),
        ([(2, 2, 3), (1, 0, 0), (1, 1, 0), (2, 2, 5)], {"ruleset": "current_wiki"}),
        ([(2, 2, 3)] * 4, {"ruleset": "current_wiki", "triple_is_bomb": "true"}),
        # a bomb of three turns nothing over (variant 7 is "a four of a kind"); one of four or more does
        ([(1, 0, 0), (2, 2, 3)] * 2, {"ruleset": "current_wiki", "triple_is_bomb": "true", "revolution": "true"}),
        ([(1, 2, 3), (2, 2, 3)] * 3, {"ruleset": "current_wiki", "deck": "5to8p_108", "revolution": "true"}),
        ([(1, 0, 0), (2, 2, 3), (0, 0, 0), (1, 1, 0)], {"suit_order": "false"}),
    ],
)
def test_kernel_games_match_reference(strategies, variants):
    from analysis.games import zheng_shangyou as zs

    P, deck, n_deal, zv, full = zs._table(len(strategies), variants)
    strat = np.array([list(s) + [0] for s in strategies], dtype=np.int64)
    legal = kernel_legal_for(zv)
    for trial in range(40):
        d, leader, w, l, rec = _one_game(P, deck, n_deal, strat, np.uint64(11), trial, 0, zv)
        hands = ref.deal([int(c) for c in d], P, 0, int(n_deal))
        lowest = min(c for h in hands for c in h)
        assert leader == next(s for s in range(P) if lowest in hands[s])  # ZS-3: 3 of diamonds leads
        st = rng.new_state()
        rng.seed_state(st, np.uint64(11), np.uint64(0), np.uint64(trial), np.uint64(1))
        rw, rl, scores, places, turns = ref.play_game(
            hands, leader, strategies, legal, lambda n: int(rng.below(st, n)), full
        )
        assert (w, l) == (rw, rl), trial
        assert [int(x) for x in rec[:, K.G_SCORE]] == scores, trial
        assert [int(x) for x in rec[:, K.G_PLACE]] == places, trial
        assert sum(scores) == 0


@pytest.mark.parametrize(
    "deck, P, sizes, copies",
    [
        ("4p_54", None, [14, 14, 13, 13], 1),
        ("4p_52", None, [13] * 4, 1),
        ("3p_54", None, [18] * 3, 1),
        ("3p_52", None, [17] * 3, 1),
        ("5to8p_108", 5, [22, 22, 22, 21, 21], 2),
        ("5to8p_108", 6, [18] * 6, 2),
        ("5to8p_108", 7, [16, 16, 16, 15, 15, 15, 15], 2),
        ("5to8p_108", 8, [14] * 4 + [13] * 4, 2),
    ],
)
def test_deal_sizes(deck, P, sizes, copies):
    from analysis.games import zheng_shangyou as zs

    P, d0, n_deal, zv, full = zs._table(P, {"deck": deck})
    strat = np.array([[1, 0, 0, 0]] * P, dtype=np.int64)
    d, leader, w, l, rec = _one_game(P, d0, n_deal, strat, np.uint64(2), 0, 0, zv)
    hands = ref.deal([int(c) for c in d], P, 0, int(n_deal))
    assert [ref.size(h) for h in hands] == sizes  # ZS-1, 4(c)1
    dealt = sum(hands, ref.Counter())
    assert ref.size(dealt) == sum(sizes) and max(dealt.values()) == copies and set(dealt) <= set(range(54))


def test_V_Z19_scoring():
    # winner seat 0; the others hold 3, 10 and 14 cards, the last never played: -3, -20, -42; Winner +65
    rec = np.zeros((4, K.G_FIELDS), dtype=np.int64)
    rec[3, K.G_NEVER_PLAYED] = 1
    counts = np.array([0, 3, 10, 14], dtype=np.int64)
    K.score_first_out(4, 0, counts, rec, np.zeros(K.N_VARIANTS, dtype=np.int64))
    assert rec[:, K.G_SCORE].tolist() == [65, -3, -20, -42]


def test_V_Z21_three_player_scoring():
    # 3p_52: one player never played and holds 17, the others 16 and 11: -51, -32, -11 (rules.md 4(e))
    zv = np.zeros(K.N_VARIANTS, dtype=np.int64)
    rec = np.zeros((4, K.G_FIELDS), dtype=np.int64)
    rec[1, K.G_NEVER_PLAYED] = 1
    counts = np.array([0, 17, 16, 11], dtype=np.int64)
    K.score_first_out(4, 0, counts, rec, zv)  # 4 players: 17 unplayed x3, 16 x2, 11 x2
    assert rec[1:, K.G_SCORE].tolist() == [-51, -32, -22]
    rec3 = np.zeros((3, K.G_FIELDS), dtype=np.int64)
    rec3[1, K.G_NEVER_PLAYED] = 1
    K.score_first_out(3, 0, np.array([0, 17, 16], dtype=np.int64), rec3, zv)
    assert rec3[1:, K.G_SCORE].tolist() == [-51, -32]
    rec3 = np.zeros((3, K.G_FIELDS), dtype=np.int64)
    K.score_first_out(3, 0, np.array([0, 11, 12], dtype=np.int64), rec3, zv)
    assert rec3[1:, K.G_SCORE].tolist() == [-11, -24]


def test_plan_hand_matches_reference_and_covers_the_hand():
    import random

    from analysis.games import zheng_shangyou as zs

    rnd = random.Random(5)
    plan = np.zeros((K.MAX_PLAN, 2), dtype=np.uint64)
    alt = np.zeros((K.MAX_PLAN, 2), dtype=np.uint64)
    for _ in range(300):
        hand = rnd.sample(range(54), rnd.choice([8, 13, 14, 18]))
        n = K.plan_hand(np.uint64(sum(1 << c for c in hand)), np.uint64(0), plan, alt)
        got = [ref.from_masks(int(x), int(y)) for x, y in plan[:n]]
        assert got == ref.plan_hand(hand)
        assert sorted(c for e in got for c in e) == sorted(hand)  # a partition of the hand
        zv = zs.variant_array({})
        for e in got:  # every element is a combination, except a four of a kind (its kicker comes later)
            assert zs.classify_mask(ref.to_masks(e), zv)[0] or len(e) == 4


def test_plan_hand_on_run_rich_hands():
    """The planning split on hands full of runs (of singles, pairs, triples; every rank held; the ace at
    either end), and with 3-card straights (ruleset legacy_wiki), against the reference."""
    import random

    rnd = random.Random(8)
    plan = np.zeros((K.MAX_PLAN, 2), dtype=np.uint64)
    alt = np.zeros((K.MAX_PLAN, 2), dtype=np.uint64)
    for trial in range(400):
        cards = set()
        for _ in range(rnd.randint(1, 3)):
            width, length = rnd.choice([1, 2, 3]), rnd.randint(2, 13)
            low = rnd.randint(0, 13 - length)
            for r in range(low, low + length):
                rank = 11 if r in (0, 13) else (12 if r == 1 else r - 2)  # position -> rank
                cards |= set(rnd.sample([rank * 4 + s for s in range(4)], width))
        if trial % 10 == 0:
            cards |= {rnd.randrange(4) + 4 * r for r in range(13)}  # every rank held
        cards |= set(rnd.sample(range(54), rnd.randint(0, 3)))
        hand = sorted(cards)
        for v, min_straight in (({}, 5), ({"ruleset": "legacy_wiki"}, 3)):
            n = K.plan_hand(np.uint64(sum(1 << c for c in hand)), np.uint64(0), plan, alt, min_straight)
            got = [ref.from_masks(int(x), int(y)) for x, y in plan[:n]]
            assert got == ref.plan_hand(hand, v), (hand, v)


@pytest.mark.parametrize("mode", ["offer_two", "winner_gives_one"])
def test_loser_exchange_matches_reference(mode):
    import random

    from analysis.games import zheng_shangyou as zs

    zv = zs.variant_array({"loser_exchange": mode})
    rnd = random.Random(mode)
    for _ in range(200):
        cards = rnd.sample(range(54), 54)
        hands = [ref.Counter(cards[i::4]) for i in range(4)]
        w, l = rnd.sample(range(4), 2)
        masks = np.array([ref.to_masks(h.elements()) for h in hands], dtype=np.uint64)
        K.loser_exchange(masks, w, l, zv[K.V_LOSER_EXCHANGE])
        ref.loser_exchange(hands, w, l, mode)
        assert [ref.to_masks(h.elements()) for h in hands] == [tuple(int(x) for x in m) for m in masks]


def test_revolution_reverses_the_order():
    from analysis.games import zheng_shangyou as zs

    zv = zs.variant_array({"revolution": "true"})

    def key(text, revolution):
        return zs.classify_mask(zs.to_mask(text), zv, revolution)

    assert key("3D", True)[2] > key("2D", True)[2] and key("3D", False)[2] < key("2D", False)[2]
    assert key("RJ", True)[2] > key("3S", True)[2]  # jokers stay highest
    assert key("3D 4C 5H 6S 7D", True)[2] > key("9D TC JH QS KD", True)[2]


def test_legacy_wiki_deals_52_cards():
    """4(c)14: the older revision plays with 52 cards (a 54-card deck variant becomes its 52-card one)."""
    from analysis.games import zheng_shangyou as zs

    for deck, P, n in (("4p_54", 4, 52), ("3p_54", 3, 51)):
        P_, d0, n_deal, zv, full = zs._table(None, {"ruleset": "legacy_wiki", "deck": deck})
        assert (P_, len(d0), int(n_deal), int(zv[K.V_MIN_STRAIGHT])) == (P, 52, n, 3)


def test_two_deck_plan_and_exchange_match_reference():
    """The planning split and the Loser's exchange on hands of two decks (doubled cards, 5+ of a rank)."""
    import random

    rnd = random.Random(108)
    plan = np.zeros((K.MAX_PLAN, 2), dtype=np.uint64)
    alt = np.zeros((K.MAX_PLAN, 2), dtype=np.uint64)
    two = list(range(54)) * 2
    for trial in range(300):
        hand = sorted(rnd.sample(two, rnd.choice([13, 18, 22])))
        if trial % 3 == 0:
            r = rnd.randrange(13)
            hand = sorted(hand[:14] + rnd.sample([4 * r + s for s in range(4)] * 2, rnd.randint(5, 8)))
            hand = [c for c in hand if hand.count(c) <= 2]
        cards, dups = ref.to_masks(hand)
        n = K.plan_hand(np.uint64(cards), np.uint64(dups), plan, alt)
        got = [ref.from_masks(int(x), int(y)) for x, y in plan[:n]]
        assert got == ref.plan_hand(hand), hand
        assert sorted(c for e in got for c in e) == sorted(hand)
    for mode in ("offer_two", "winner_gives_one"):
        zv = np.zeros(K.N_VARIANTS, dtype=np.int64)
        for _ in range(200):
            cards = rnd.sample(two, 108)
            hands = [ref.Counter(cards[i::6]) for i in range(6)]
            w, l = rnd.sample(range(6), 2)
            masks = np.array([ref.to_masks(h.elements()) for h in hands], dtype=np.uint64)
            zv[K.V_LOSER_EXCHANGE] = 1 if mode == "offer_two" else 2
            K.loser_exchange(masks, w, l, zv[K.V_LOSER_EXCHANGE])
            ref.loser_exchange(hands, w, l, mode)
            assert [ref.to_masks(h.elements()) for h in hands] == [tuple(int(x) for x in m) for m in masks]


def test_two_deck_move_lists_fit():
    """The move buffer (MAX_MOVES rows) holds every lead of a dealt two-deck hand (5 players, 22 cards): the
    largest count over many deals stays far below it, so no play is ever cut off."""
    from analysis.games import zheng_shangyou as zs

    P, d0, n_deal, zv, full = zs._table(5, {"deck": "5to8p_108"})
    most = _most_leads(P, d0, n_deal, zv, 2000)
    assert 0 < most < K.MAX_MOVES // 4, most


@jit
def _most_leads(P, deck, n_deal, zv, n):
    st = rng.new_state()
    hands = np.zeros((P, 2), dtype=np.uint64)
    counts = np.zeros(P, dtype=np.int64)
    out = K.new_moves()
    scratch = K.make_scratch()
    most = 0
    d = deck.copy()
    # np.int64 zeros and a copy by a loop: literal zeros compiled moves_into and deal_hands once more for
    # Literal[int](0), and a slice assignment compiles numba's shape-mismatch message (12.9 s in all, cold)
    zero = np.int64(0)
    for t in range(n):
        rng.seed_state(st, np.uint64(5), np.uint64(0), np.uint64(t), np.uint64(0))
        for i in range(len(deck)):
            d[i] = deck[i]
        K.deal_hands(st, P, zero, d, hands, counts, n_deal)
        for s in range(P):
            most = max(most, K.moves_into(hands[s, 0], hands[s, 1], zero, zero, zero, out, scratch, zv, zero))
    return most
