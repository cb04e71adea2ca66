"""Zheng Shangyou combinations in plain Python, from rules.md section 4 (ZS-2, ZS-5, ZS-6).

Cards are (rank, suit) with ranks '3' .. 'K', 'A', '2' as 0 .. 12 and suits D < C < H < S as 0 .. 3, or
'BJ' / 'RJ'. The kernel's code of a suited card is rank * 4 + suit; jokers are 52 and 53.

A play is a sorted tuple of codes and a hand a Counter of codes: with two decks (4(c)1) a card can be held
twice, and a play may hold it twice.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

from .search import halving, ucb1


def to_masks(play) -> tuple[int, int]:
    """A multiset of codes as the kernel's (cards held at least once, cards held twice)."""
    c = Counter(play)
    return sum(1 << x for x in c), sum(1 << x for x, k in c.items() if k == 2)


def from_masks(cards: int, dups: int = 0) -> tuple:
    """The kernel's (cards, dups) as a sorted tuple of codes."""
    return tuple(i for i in range(54) for _ in range(((cards >> i) & 1) + ((dups >> i) & 1)))


def size(hand: Counter) -> int:
    return sum(hand.values())


SINGLE, PAIR, PAIR_STRAIGHT, TRIPLE, TRIPLE_STRAIGHT, FULL_HOUSE, STRAIGHT, BOMB, STRAIGHT_FLUSH = range(1, 10)
# sequence order: A low, 2, 3 .. K, A high (ZS-5); rank index of each position
SEQ = [11, 12] + list(range(0, 11)) + [11]


def sequence_low(ranks: set[int]) -> int | None:
    """Lowest position of a run of consecutive positions holding exactly these ranks, if any."""
    n = len(ranks)
    for low in range(0, 15 - n):
        window = SEQ[low : low + n]
        if len(window) == n and len(set(window)) == n and set(window) == ranks:
            return low
    return None


DEFAULTS = {
    "revolution": "false",
    "loser_exchange": "none",
    "straight_suit_tiebreak": "false",
    "bare_four_is_bomb": "false",
    "sf_vs_sf": "same_length",
    "sequence_rules": "as_straights",
    "pair_straight_tiebreak": "none",
    "bomb_kicker_may_be_joker": "false",
    "auto_restart_after_unbeatable": "false",
    "later_game_leader": "previous_winner",
    "score_timing": "at_first_out",
    "three_player_multiplier": "default",
    "ruleset": "seed",
    "suit_order": "true",
    "triple_is_bomb": "false",
}


def classify(codes, v=None, revolution=False):
    """:func:`classify_normal`, read in the reversed rank order while a revolution is in force (variant 7):
    ranks swap ends (jokers stay highest, suits keep their order); a sequence is higher the lower its top."""
    c = classify_normal(codes, v)
    if c is None or not revolution:
        return c
    kind, n, key = c
    if kind in (SINGLE, PAIR):
        return c if key >= 52 else (kind, n, (12 - key // 4) * 4 + key % 4)
    if kind in (TRIPLE, FULL_HOUSE, BOMB):
        return kind, n, (key // 16) * 16 + 12 - key % 16
    ranks = len({x // 4 for x in codes})
    top = key // 4 + ranks - 1
    return kind, n, 4 * (13 - top) + key % 4


def loser_exchange(hands, winner, loser, mode):
    """Variant 8: the Loser's highest single to the Winner; the Winner's two lowest offered, the Loser takes
    the higher (offer_two), or the Winner's lowest given (winner_gives_one)."""
    if mode == "none" or winner == loser:
        return
    top = max(hands[loser])
    hands[loser] -= Counter([top])
    hands[winner][top] += 1
    low = sorted(hands[winner].elements())
    give = low[1] if mode == "offer_two" else low[0]
    hands[winner] -= Counter([give])
    hands[loser][give] += 1


def min_straight(v) -> int:
    """Fewest cards in a straight or straight flush: 5, or 3 under ruleset legacy_wiki (4(c)14)."""
    return 3 if (v or {}).get("ruleset") == "legacy_wiki" else 5


def classify_normal(codes, v=None) -> tuple[int, int, int] | None:
    """(kind, number of cards, key) or None. Kinds as in kernels/zheng_shangyou/; sequence keys are
    4 * the lowest position (+ the top card's suit under the tie-break variants)."""
    v = {**DEFAULTS, **(v or {})}
    codes = list(codes)
    n = len(codes)
    jokers = [c for c in codes if c >= 52]
    if jokers:
        if n == 1:
            return SINGLE, 1, codes[0]
        if v["bomb_kicker_may_be_joker"] == "true" and n == 5 and len(jokers) == 1:
            ranks = Counter(c // 4 for c in codes if c < 52)
            if sorted(ranks.values()) == [4]:
                return BOMB, 5, next(iter(ranks))
        return None
    ranks = Counter(c // 4 for c in codes)
    suits = {c % 4 for c in codes}
    suit_order = v["suit_order"] == "true"  # without it, equal ranks tie (and do not beat)
    current = v["ruleset"] == "current_wiki"
    if n == 1:
        return SINGLE, 1, codes[0] if suit_order else 4 * (codes[0] // 4)
    shape = sorted(ranks.values(), reverse=True)
    if current and len(shape) == 1 and n >= (3 if v["triple_is_bomb"] == "true" else 4):
        return BOMB, n, 16 * (n - 3) + codes[0] // 4  # n of a kind alone: more cards, then the higher rank
    if current and shape == [4, 1]:
        return None  # current_wiki: no four plus one
    if shape == [2]:
        return PAIR, 2, max(codes) if suit_order else 4 * (codes[0] // 4)  # rank, then the higher-suited card
    if shape == [3]:
        return TRIPLE, 3, codes[0] // 4
    if shape == [4]:
        return (BOMB, 4, codes[0] // 4) if v["bare_four_is_bomb"] != "false" else None
    if shape == [5]:
        return BOMB, 5, codes[0] // 4  # two decks: five of a kind = four + one card [OURS]
    if shape == [4, 1]:
        return BOMB, 5, next(r for r, k in ranks.items() if k == 4)
    if shape == [3, 2]:
        return FULL_HOUSE, 5, next(r for r, k in ranks.items() if k == 3)
    if len(set(shape)) == 1:
        width = shape[0]
        if width >= 2 and v["sequence_rules"] == "no_twos_in_sequences" and 12 in ranks:
            return None
        low = sequence_low(set(ranks))
        if low is None:
            return None
        top = SEQ[low + len(ranks) - 1]
        top_suit = max(c % 4 for c in codes if c // 4 == top)
        if width == 1 and len(ranks) >= min_straight(v):
            if len(suits) == 1 and not current:
                return STRAIGHT_FLUSH, n, 4 * low
            return STRAIGHT, n, 4 * low + (top_suit if v["straight_suit_tiebreak"] == "true" else 0)
        if width == 2 and len(ranks) >= 2:
            return PAIR_STRAIGHT, n, 4 * low + (top_suit if v["pair_straight_tiebreak"] == "top_pair_suit" else 0)
        if width == 3 and len(ranks) >= 2:
            return TRIPLE_STRAIGHT, n, 4 * low
    return None


def beats(current, new, v=None) -> bool:
    """ZS-4 / ZS-6 (and variants 6 and 10): may ``new`` be played on ``current`` (None = on lead)?"""
    v = {**DEFAULTS, **(v or {})}
    if new is None:
        return False
    if current is None:
        return True
    ck, cn, ckey = current
    k, n, key = new
    bare_all = v["bare_four_is_bomb"] == "beats_all"
    if k == STRAIGHT_FLUSH:
        if ck == STRAIGHT_FLUSH:
            if v["sf_vs_sf"] == "longer_beats_shorter" and n != cn:
                return n > cn
            return n == cn and key > ckey
        return not (ck == BOMB and cn == 4 and bare_all)
    if k == BOMB:
        if ck == STRAIGHT_FLUSH:
            return n == 4 and bare_all
        return ck != BOMB or key > ckey
    if ck in (BOMB, STRAIGHT_FLUSH):
        return False
    return k == ck and n == cn and key > ckey


def legal_plays(hand, current=None, v=None, revolution=False) -> set[tuple]:
    """Brute force: every sub-multiset of the hand (a list or Counter of codes) that is a combination and
    beats ``current`` (whose key is in the order in force: reversed while a revolution is, variant 7)."""
    out = set()
    hand = sorted(hand.elements() if isinstance(hand, Counter) else hand)
    for k in range(1, len(hand) + 1):
        for sub in set(combinations(hand, k)):
            if beats(current, classify(sub, v, revolution), v):
                out.add(sub)
    return out


def option_order(play, current=None, v=None):
    """The random player's order of its legal plays (it draws an index into them), as a sort key.

    Classes first: singles, pairs, three of a kind, full houses, bombs, straight flushes when following
    anything but a straight, then straights (with the straight flushes on lead or over a straight), pair
    straights and triple straights. Within a class: singles by code; pairs and triples by play
    (:func:`to_masks`); full houses by the triple's rank, the pair's rank, the triple's cards, the pair's
    cards; bombs by rank, then (current_wiki) by size and cards, or by the four's cards with the bare four
    before each kicker by code, and five of a kind last; straight flushes of that class by suit, low and high
    position; sequences by low position, high position, then the cards at each position from the low end.
    """
    kind, n, _ = classify_normal(play, v)
    count = Counter(play)
    ranks = Counter(c // 4 for c in play if c < 52)

    def part(r):  # the play's cards of one rank
        return to_masks([c for c in play if c < 52 and c // 4 == r])

    if kind == SINGLE:
        return (0, play[0])
    if kind in (PAIR, TRIPLE):
        return (1 if kind == PAIR else 2, to_masks(play))
    if kind == FULL_HOUSE:
        t = next(r for r, k in ranks.items() if k == 3)
        q = next(r for r, k in ranks.items() if k == 2)
        return (3, t, q, part(t), part(q))
    if kind == BOMB:
        r = max(ranks, key=lambda x: ranks[x])
        if (v or {}).get("ruleset") == "current_wiki":
            return (4, r, n, to_masks(play))
        if len(ranks) == 1 and n == 5:
            return (4, r, 1, to_masks(play))  # five of a kind (two decks)
        kicker = [c for c in count if c >= 52 or c // 4 != r]
        return (4, r, 0, part(r), kicker[0] if kicker else -1)
    low = sequence_low(set(ranks))
    width = n // len(ranks)
    high = low + len(ranks) - 1
    if kind == STRAIGHT_FLUSH and current is not None and current[0] != STRAIGHT:
        return (5, play[0] % 4, low, high)
    return (5 + width, low, high, tuple(part(SEQ[p]) for p in range(low, high + 1)))


# ---- a whole game (ZS-1, ZS-3, ZS-4, ZS-7, ZS-8), written from the rules -----------------------------


def deal(deck_order, players, dealer, n_deal=None):
    """ZS-1: one card at a time, clockwise, starting with the dealer (``n_deal`` cards; the rest are out)."""
    hands = [Counter() for _ in range(players)]
    for i, c in enumerate(deck_order[:n_deal]):
        hands[(dealer + i) % players][c] += 1
    return hands


def multiplier(P, n, never_played, v):
    """ZS-8 multipliers (4 players; 3 players with the three_player_multiplier variant)."""
    if P == 3:
        if v["three_player_multiplier"] == "literal_17":
            return 3 if n >= 17 else (2 if n >= 12 else 1)
        return 3 if never_played else (2 if n >= 12 else 1)
    return 3 if never_played else (2 if n >= 10 else 1)


def play_game(
    hands, leader, strategies, legal, below, v=None, *, current=None, last=None, passes=0, played=None,
    winner=None, revolution=False, first=None,
):  # fmt: skip
    """Play one game. ``legal(hand, current)`` lists the legal plays (sets); ``below(n)`` draws a uniform
    integer (the random policy); strategies[s] = (policy, bomb policy, threshold). Returns
    (winner, loser, scores, places, turns).

    From a position instead of a deal (the advisor's "play on"): ``leader`` is the seat to act, ``current`` the
    play on the table as ``classify`` gives it (made by ``last``, ``passes`` passes since), empty hands are
    seats already out (``winner`` the first of them), ``played[s]`` whether seat s has played, ``revolution``
    in force; ``first`` is the first action taken (a card tuple, or ``()`` for a pass) instead of a choice."""
    v = {**DEFAULTS, **(v or {})}
    P = len(hands)
    hands = [Counter(h) for h in hands]
    rev = [revolution]
    forced = first
    legal_ = legal

    def legal(hand, current):  # noqa: F811 -- the legal plays under the current rank order
        return legal_(hand, current, rev[0])

    played = list(played) if played is not None else [False] * P
    places = [0] * P
    scores = [0] * P
    loser = None
    # current: (kind, n, key) on the table, or None on lead
    last = leader if last is None else last
    turn = leader
    finished = sum(1 for h in hands if not h)
    turns = 0
    while True:
        turns += 1
        options = sorted(legal(hands[turn], current), key=to_masks)  # the greedy and planning ties: lowest
        policy, bomb_policy, threshold = strategies[turn]
        others = [size(hands[s]) for s in range(P) if s != turn and hands[s]]
        pick = None
        if forced is not None:
            pick = tuple(forced) or None
            forced = None
        elif options:
            if policy == 0:
                options.sort(key=lambda p: option_order(p, current, v))
                if current is None:
                    pick = options[below(len(options))]
                else:
                    i = below(len(options) + 1)
                    pick = None if i == 0 else options[i - 1]
            elif policy == 2:
                pick = planning(options, hands[turn], current, threshold, min(others) if others else 99, v, rev[0])
            else:
                pick = greedy(
                    options, hands[turn], current, bomb_policy, threshold, min(others) if others else 99, v, rev[0]
                )
        if pick is not None:
            kind = classify(pick, v, rev[0])
            if v["revolution"] == "true" and kind[0] == BOMB and kind[1] >= 4:  # a four of a kind (not a triple bomb)
                rev[0] = not rev[0]
                kind = classify(pick, v, rev[0])
            hands[turn] -= Counter(pick)
            played[turn] = True
            current = kind
            last = turn
            passes = 0
            if not hands[turn]:
                finished += 1
                places[turn] = finished
                if winner is None:
                    winner = turn
                    if v["score_timing"] == "at_first_out":
                        for s in range(P):
                            if s != turn:
                                n = size(hands[s])
                                scores[s] = -n * multiplier(P, n, not played[s], v)
                        scores[turn] = -sum(scores)
                still = [s for s in range(P) if hands[s]]
                if len(still) == 1:
                    loser = still[0]
                    places[loser] = P
                    if v["score_timing"] == "at_end":  # only the Loser pays
                        n = size(hands[loser])
                        scores[loser] = -n * multiplier(P, n, not played[loser], v)
                        scores[winner] = -scores[loser]
                    return winner, loser, scores, places, turns
            if v["auto_restart_after_unbeatable"] == "true" and (
                (kind[0] == SINGLE and kind[2] == 53) or (kind[0] == PAIR and kind[2] == 12 * 4 + 3)
            ):
                passes = P  # the red joker, or a pair of twos with the 2 of spades
        else:
            passes += 1
        holding = [s for s in range(P) if hands[s]]
        need = len([s for s in holding if s != last])
        if passes >= need:  # everyone else passed in a row: the trick is over
            current = None
            passes = 0
            turn = last
            while not hands[turn]:
                turn = (turn + 1) % P
            continue
        turn = (turn + 1) % P
        while not hands[turn]:
            turn = (turn + 1) % P


def greedy(options, hand, current, bomb_policy, threshold, min_opponent, v=None, revolution=False):
    """The greedy policy of kernels/zheng_shangyou/, stated independently."""

    def cls(p):
        return classify(p, v, revolution)

    for p in options:
        if len(p) == size(hand):
            return p  # go out
    normal = [p for p in options if cls(p)[0] not in (BOMB, STRAIGHT_FLUSH)]
    special = [p for p in options if cls(p)[0] in (BOMB, STRAIGHT_FLUSH)]
    if normal:
        if current is None:
            return min(normal, key=lambda p: (-len(p), max(p)))  # longest, then the lowest top card
        return min(normal, key=lambda p: cls(p)[2])  # the cheapest beating play
    if not special:
        return None
    cheapest = min(special, key=lambda p: (cls(p)[0] == STRAIGHT_FLUSH, cls(p)[2], len(p)))
    if bomb_policy == 0 or current is None or (bomb_policy == 2 and min_opponent <= threshold):
        return cheapest
    return None


# ---- the planning player, restated ---------------------------------------------------------------------


def _of_rank(rest: Counter, r: int) -> list:
    return sorted(c for c in rest.elements() if c // 4 == r)


def _runs(rest: Counter, width: int, min_len: int, plan: list) -> Counter:
    """Take the longest run of positions whose ranks hold >= width cards (the lowest cards), repeatedly."""
    while True:
        best = (0, None)
        run = 0
        for p in range(14):
            if len(_of_rank(rest, SEQ[p])) >= width:
                run += 1
                low = p - run + 1
                if run > best[0] and not (p == 13 and low == 0):
                    best = (run, low)
            else:
                run = 0
        length, low = best
        if length < min_len:
            return rest
        elem = []
        for p in range(low, low + length):
            elem += _of_rank(rest, SEQ[p])[:width]
        plan.append(tuple(sorted(elem)))
        rest = rest - Counter(elem)


def _sets(rest: Counter, plan: list) -> None:
    triples = []
    for r in range(13):
        cards = _of_rank(rest, r)
        if len(cards) == 3:
            triples.append(cards)
            rest = rest - Counter(cards)
    for t in triples:
        for r in range(13):
            cards = _of_rank(rest, r)
            if len(cards) == 2:
                t += cards
                rest = rest - Counter(cards)
                break
        plan.append(tuple(sorted(t)))
    for r in range(13):
        cards = _of_rank(rest, r)
        if len(cards) == 2:
            plan.append(tuple(cards))
            rest = rest - Counter(cards)
    plan.extend((c,) for c in sorted(rest.elements()))


def plan_hand(hand, v=None) -> list:
    best = None
    for sequences in (True, False):
        plan = []
        rest = Counter(hand)
        for r in range(13):
            while len(_of_rank(rest, r)) >= 4:  # two decks: again while four are left
                four = _of_rank(rest, r)[:4]
                plan.append(tuple(four))
                rest -= Counter(four)
        if sequences:
            rest = _runs(rest, 1, min_straight(v), plan)
            rest = _runs(rest, 3, 2, plan)
            rest = _runs(rest, 2, 3, plan)
        _sets(rest, plan)
        if best is None or len(plan) < len(best):
            best = plan
    return best


def planning(options, hand, current, threshold, min_opponent, v=None, revolution=False):
    """The planning player of kernels/zheng_shangyou/ (POLICY_PLANNING), restated."""

    def cls(p):
        return classify(p, v, revolution)

    for p in options:
        if len(p) == size(hand):
            return p
    plan = plan_hand(hand, v)
    alone = (v or {}).get("ruleset") == "current_wiki"  # a bomb is a plan element by itself (no kicker)
    if alone:
        fours = [e for e in plan if cls(e) and cls(e)[0] == BOMB]
    else:
        fours = [e for e in plan if len(e) == 4 and len({c // 4 for c in e}) == 1]
    singles = [min(e) for e in plan if len(e) == 1]
    lowest_single = min(singles) if singles else None
    whole = []
    bombs = []
    for p in options:
        kind = cls(p)
        if kind[0] == BOMB and (len(p) == 5 or alone):
            if alone:
                spendable = p in fours
            else:
                spendable = lowest_single is not None and any(
                    Counter(p) == Counter(f) + Counter([lowest_single]) for f in fours
                )
            if spendable and not (current is None and len(plan) > len(fours) + 1):
                if min_opponent <= threshold or len(plan) - (1 if alone else 2) <= 1:
                    bombs.append(p)
            continue
        if p in plan:
            whole.append(p)
    if whole:
        if current is None:
            return min(whole, key=lambda p: max(p))
        return min(whole, key=lambda p: cls(p)[2])
    if bombs:
        return bombs[0]
    if current is None:
        return min(options, key=lambda p: (max(p), to_masks(p)))
    if min_opponent <= threshold:

        def rank(p):
            k, n, key = cls(p)
            return ((2 if k == STRAIGHT_FLUSH else (1 if k == BOMB else 0)) << 20) + key * 32 + n

        return min(options, key=rank)
    return None


# ---------------------------------------------------------------------------------------------------
# The search player (kernels/zheng_shangyou/search.py)
# ---------------------------------------------------------------------------------------------------

SEARCH_SPAN = 40.0  # the score counted as a full reward or loss
SEARCH_MAX_CANDIDATES = 48


def search_candidates(hand, current, legal, v=None):
    """The search player's candidate actions as a set of plays (``()`` the pass): the play that empties the hand
    alone if there is one; else every legal play, and the pass when following; a lead with more plays than
    SEARCH_MAX_CANDIDATES keeps per (kind, length) the plays of the lowest key (the kernel keeps one of them)."""
    options = [tuple(sorted(p)) for p in legal(hand, current)]
    for p in options:
        if len(p) == size(hand):
            return {p}
    out = {()} if current else set()
    if len(out) + len(options) <= SEARCH_MAX_CANDIDATES:
        return out | set(options)
    groups: dict = {}
    for p in options:
        kind, length, key = classify(p, v)
        groups.setdefault((kind, length), []).append((key, p))
    for plays in groups.values():
        low = min(k for k, _ in plays)
        out |= {p for k, p in plays if k == low}
    return out


def search_play(hands, turn, order, legal, v, draw, budget, c, *, current, last, passes, played, winner):
    """The search player's action in plain Python. Each rollout a layout from ``draw()`` (every hand, the player's
    own unchanged) on which the candidate is played and the game finished by greedy players (bombs early); the
    reward half for going out first, half for the score clipped to +-SEARCH_SPAN and mapped to [0, 1].
    ``c`` None: sequential halving (:func:`tests.reference.search.halving`: every candidate still in on each layout
    drawn); else UCB1 with constant ``c`` (:func:`tests.reference.search.ucb1`), a layout a rollout."""

    def reward(i, layout):
        w, _l, scores, _p, _t = play_game(
            layout, turn, [(1, 0, 0)] * len(hands), legal, None, v, current=current, last=last, passes=passes,
            played=played, winner=winner, first=order[i],
        )  # fmt: skip
        sc = min(max(scores[turn], -SEARCH_SPAN), SEARCH_SPAN)
        return 0.5 * (w == turn) + 0.25 * (1.0 + sc / SEARCH_SPAN)

    if c is None:
        return order[halving(len(order), budget, draw, reward)]
    return order[ucb1(len(order), budget, c, draw, reward)]
