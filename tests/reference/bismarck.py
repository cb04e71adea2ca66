"""Bismarck in plain Python, from rules.md section 3 (BM-1 .. BM-9): trick winner, legal cards, scoring,
the dealer schedule, the heuristic and random players, a whole hand, and brute-force double-dummy minimax.

Cards are codes ``suit * 16 + rank`` (rank 0 = '2' .. 12 = 'A'; suits 0..3 = C D H S), hands Python sets.
"""

from __future__ import annotations

import functools

from .search import halving, ucb1

ROLES = ("dealer", "left", "right")
HCP = {9: 1, 10: 2, 11: 3, 12: 4}


def suit(c):
    return c >> 4


def rank(c):
    return c & 15


def winner_pos(row, trump):
    """BM-4: the highest trump, else the highest card of the suit led."""
    best = 0
    for i, c in enumerate(row):
        b = row[best]
        if (suit(c) == suit(b) and rank(c) > rank(b)) or (suit(c) == trump and suit(b) != trump):
            best = i
    return best


def legal(hand, led, trump, must_trump=False):
    """BM-4: follow suit if able; 3(c)6: with must_trump a void player holding trumps must trump."""
    if led is None:
        return sorted(hand)
    f = [c for c in hand if suit(c) == led]
    if f:
        return sorted(f)
    if must_trump and trump >= 0:
        t = [c for c in hand if suit(c) == trump]
        if t:
            return sorted(t)
    return sorted(hand)


def quota(round_no, role, v):
    if v.get("ruleset") == "swedish":  # 3(c)10: forehand (left) 8 / others 4; Pass: 4 / 6
        if round_no < 4:
            return 8 if role == "left" else 4
        return 4 if role == "left" else 6
    if round_no < 4:
        return 8 if role == "dealer" else 4
    return {"blog": {"dealer": 6}, "classic": {"dealer": 4}, "simplified": {}}[v["round4_start"]].get(
        role, {"blog": 4, "classic": 6, "simplified": 4}[v["round4_start"]]
    )


def score(round_no, role, t, v):
    """BM-6 with the variants of 3(c)2 and 3(c)7; Swedish (3(c)10): +1 a trick above the quota, -1 below."""
    if v.get("ruleset") == "swedish":
        q = quota(round_no, role, v)
        return t - q if round_no < 4 else q - t
    if v["scoring"] == "simplified":
        return t if round_no < 4 else 4 - t
    q = quota(round_no, role, v)
    if round_no < 4:
        return t - q if v["below_quota_penalty"] == "true" else max(0, t - q)
    return max(0, q - t) if v["round4_start"] == "blog" else q - t


def schedule(first, h, v):
    """BM-3 / 3(c)1: (dealer, round number 1..4) of hand h; Swedish Bismarck passes the deal every hand."""
    if v["dealer_schedule"] == "block_of_four" and v.get("ruleset", "blog") == "blog":
        return (first + h // 4) % 3, h % 4 + 1
    return (first + h) % 3, h % 4 + 1


def hcp_of(cards):
    return sum(HCP.get(rank(c), 0) for c in cards)


def choose_round(seen, remaining, mode, strategy, below):
    """kernels.bismarck.choose_round as its docstring says it: the round type 0..3 (Swedish: Spel, Spader,
    Valfri, Pass) among ``remaining`` (a set), from the cards ``seen``; mode 0 blind, 1 the dealer's hand, 2 the
    Swedish widow. ``below(n)`` draws for a random player."""
    left = sorted(remaining)
    if strategy == "random":
        return left[below(len(left))] if len(left) > 1 else left[0]
    if mode == 0:
        return left[0]
    points = hcp_of(seen)
    by_suit = [[c for c in seen if suit(c) == s] for s in range(4)]
    longest = max(len(x) for x in by_suit)
    rules = (
        [(3, points <= 9), (2, longest >= 6), (0, points >= 15), (1, longest >= 5)]
        if mode == 1
        else [
            (3, points <= 1),
            (2, longest >= 3 or any(len(x) >= 2 and hcp_of(x) >= 3 for x in by_suit)),
            (1, len(by_suit[3]) >= 2),
            (0, points >= 6),
        ]
    )
    for r, ok in rules:
        if r in remaining and ok:
            return r
    return left[0]


def name_trump(cards):
    """Round 3 after seeing the hand, and Valfri from the widow: the longest suit, ties to more high-card points,
    then the higher suit index."""
    return max(
        range(4), key=lambda s: (sum(1 for c in cards if suit(c) == s), hcp_of(c for c in cards if suit(c) == s), s)
    )


DEFAULTS = {
    "scoring": "original",
    "round4_start": "blog",
    "below_quota_penalty": "false",
    "dealer_schedule": "block_of_four",
    "must_trump_when_void": "false",
}


# ---------------------------------------------------------------------------------------------------
# Players
# ---------------------------------------------------------------------------------------------------


def is_master(c, unseen):
    return not any(suit(u) == suit(c) and rank(u) > rank(c) for u in unseen)


def current_best(row, trump):
    return row[winner_pos(row, trump)]


def beats(c, best, trump):
    return (suit(c) == suit(best) and rank(c) > rank(best)) or (suit(c) == trump and suit(best) != trump)


def heuristic(hand, options, row, trump, misere, unseen):
    """The heuristic player as seeds/bismarck.toml describes it."""
    by_suit = {s: sorted(c for c in options if suit(c) == s) for s in range(4)}
    by_suit = {s: cs for s, cs in by_suit.items() if cs}
    if misere:
        if not row:
            return min(options, key=lambda c: (rank(c), suit(c)))
        best = current_best(row, trump)
        if any(suit(c) == suit(row[0]) for c in hand):
            under = [c for c in options if not beats(c, best, trump)]
            return max(under) if under else max(options)
        return max(options, key=lambda c: (rank(c), -suit(c)))
    if not row:
        masters = [(len(cs), -s, cs[-1]) for s, cs in by_suit.items() if is_master(cs[-1], unseen)]
        if masters:
            return max(masters)[2]
        side = [(len(cs), -s, cs[0]) for s, cs in by_suit.items() if s != trump]
        if side:
            return max(side)[2]
        return min(options)
    best = current_best(row, trump)
    winners = [c for c in options if beats(c, best, trump)]
    if any(suit(c) == suit(row[0]) for c in hand):
        if winners:
            if len(row) == 2:
                return min(winners)
            if is_master(max(winners), unseen):
                return min(c for c in winners if is_master(c, unseen))
        return min(options)
    if trump >= 0 and winners:
        return min(winners)
    side = [(rank(cs[0]), len(cs), s, cs[0]) for s, cs in by_suit.items() if s != trump]
    if side:
        return min(side)[3]
    return min(options)


def play_hand(
    hands,
    dealer,
    round_no,
    trump,
    strategies,
    below,
    known_out=frozenset(),
    variants=None,
    private_out=(None, frozenset()),
):
    """One hand from dealt ``hands`` (3 sets): returns (tricks per seat, scores per seat, cards in order).
    ``strategies[seat]`` is "random" or "heuristic"; ``below(seat, n)`` draws from that seat's stream.
    ``private_out``: (seat, cards) that seat alone knows to be out of play (its widow discards)."""
    return play_from(
        hands, dealer, round_no, trump, strategies, below, (dealer + 1) % 3, [], set(), [0, 0, 0], known_out,
        variants, private_out,
    )  # fmt: skip


def play_from(
    hands,
    dealer,
    round_no,
    trump,
    strategies,
    below,
    leader,
    row,
    played,
    tricks,
    known_out=frozenset(),
    variants=None,
    private_out=(None, frozenset()),
    forced=None,
):
    """The hand played on from any point (the advisor's "play on from a state"): ``hands`` now, ``leader`` led
    the current trick ``row`` (cards so far), ``played`` the cards of the completed tricks, ``tricks`` won so
    far; ``forced``: the next card to play. Returns (tricks, scores, cards in order from here)."""
    v = {**DEFAULTS, **(variants or {})}
    must = v["must_trump_when_void"] == "true"
    hands = [set(h) for h in hands]
    misere = round_no == 4
    played = set(played)
    tricks = list(tricks)
    order = []
    full = {s * 16 + r for s in range(4) for r in range(13)}
    row = list(row)
    while any(hands):
        for k in range(len(row), 3):
            p = (leader + k) % 3
            options = legal(hands[p], suit(row[0]) if row else None, trump, must)
            if forced is not None:
                assert forced in options
                c, forced = forced, None
            elif len(options) == 1:
                c = options[0]
            elif strategies[p] == "random":
                c = options[below(p, len(options))]
            else:
                unseen = full - played - hands[p] - set(row) - set(known_out)
                if p == private_out[0]:
                    unseen -= set(private_out[1])
                c = heuristic(hands[p], options, row, trump, misere, unseen)
            hands[p].remove(c)
            row.append(c)
            order.append(c)
        w = (leader + winner_pos(row, trump)) % 3
        tricks[w] += 1
        played |= set(row)
        leader = w
        row = []
    scores = [score(round_no, ROLES[(s - dealer) % 3], tricks[s], v) for s in range(3)]
    return tricks, scores, order


# ---------------------------------------------------------------------------------------------------
# pimc-infer's layouts (kernels/bismarck/pimc.py infer_layouts)
# ---------------------------------------------------------------------------------------------------


def mismatches(p, hands_now, order, first_leader, trump, round_no, known_out=frozenset(), must_trump=False,
               exchanger=None, widow=frozenset()):  # fmt: skip
    """How many cards of ``order`` (the hand's cards so far, the first trick led by ``first_leader``) played by
    the two seats other than ``p`` are not the heuristic's choice for the cards that seat held then: its cards
    in ``hands_now`` plus those it played since. Only choices count (more than one legal card). ``exchanger``
    knows ``widow`` (its discards) to be out of play."""
    seats = []
    leader = first_leader
    for i in range(len(order)):
        if i and i % 3 == 0:
            leader = (leader + winner_pos(order[i - 3 : i], trump)) % 3
        seats.append((leader + i % 3) % 3)
    held = [set(h) for h in hands_now]
    for c, q in zip(order, seats):
        held[q].add(c)
    full = {s * 16 + r for s in range(4) for r in range(13)}
    played = set()
    count = 0
    for i, (c, q) in enumerate(zip(order, seats)):
        row = order[i - i % 3 : i]
        if q != p:
            options = legal(held[q], suit(row[0]) if row else None, trump, must_trump)
            if len(options) > 1:
                unseen = full - played - held[q] - set(row) - set(known_out)
                if q == exchanger:
                    unseen -= set(widow)
                count += heuristic(held[q], options, row, trump, round_no == 4, unseen) != c
        held[q].discard(c)
        if i % 3 == 2:
            played |= set(order[i - 2 : i + 1])
    return count


def infer_layouts(draw, count, samples, tries):
    """pimc-infer's layouts from a stream of candidates: ``draw()`` gives the next candidate, ``count(c)`` its
    mismatches (up to the kernel's INFER_CAP); drawing stops once ``samples`` candidates have none, or after
    ``tries``; then :func:`infer_pick`."""
    candidates, counts = [], []
    while len(candidates) < tries and counts.count(0) < samples:
        candidates.append(draw())
        counts.append(count(candidates[-1]))
    return infer_pick(candidates, counts, samples)


def infer_pick(candidates, counts, samples):
    """The layouts pimc-infer keeps of ``candidates`` (in the order drawn) with their mismatch ``counts`` (counted
    up to the kernel's INFER_CAP): the ``samples`` with the fewest mismatches, in the order drawn among equals.
    The kernel stops drawing once ``samples`` candidates match every card."""
    exact = [i for i, m in enumerate(counts) if m == 0]
    if len(exact) >= samples:
        candidates = candidates[: exact[samples - 1] + 1]
        counts = counts[: len(candidates)]
    order = sorted(range(len(candidates)), key=lambda i: (counts[i], i))
    return [candidates[i] for i in order[:samples]]


# ---------------------------------------------------------------------------------------------------
# The search player (kernels/bismarck/search.py)
# ---------------------------------------------------------------------------------------------------


def search_candidates(options, live):
    """One card of each run of equivalent legal cards, the lowest: neighbours in a suit with no card of ``live``
    (unseen, or on the table in the current trick) between them."""
    out = []
    for s in range(4):
        cs = sorted(c for c in options if suit(c) == s)
        for i, c in enumerate(cs):
            if i and not any(suit(u) == s and rank(cs[i - 1]) < rank(u) < rank(c) for u in live):
                continue
            out.append(c)
    return out


def search_card(
    hands, p, dealer, round_no, trump, leader, row, played, tricks, known_out, draw, budget, c, variants=None,
    exchanger=None, widow_seen=frozenset(),
):  # fmt: skip
    """The search player's card at seat ``p``: rollouts on layouts from ``draw()`` (the other two hands, (p + 1)
    % 3's then (p + 2) % 3's), on which the card is played and the hand finished by heuristic players; the reward
    half quota met (BM-6), half the share of the remaining tricks taken (avoided in the misere).
    ``widow_seen(layout)``: what the exchanger knows to be out of play on that layout. ``c`` None: sequential
    halving (:func:`tests.reference.search.halving`); else UCB1 with constant ``c`` (:func:`.search.ucb1`)."""
    v = {**DEFAULTS, **(variants or {})}
    misere = round_no == 4
    full = {s * 16 + r for s in range(4) for r in range(13)}
    unseen = full - set(played) - set(hands[p]) - set(row) - set(known_out)
    if exchanger == p:
        unseen -= set(widow_seen(None))
    options = legal(hands[p], suit(row[0]) if row else None, trump, v["must_trump_when_void"] == "true")
    cand = search_candidates(options, unseen | set(row))  # a card on the table separates two of ours
    if len(cand) == 1:
        return cand[0]
    role = ROLES[(p - dealer) % 3]
    q = quota(round_no, role, v)

    def layout_of(a, b):
        layout = [None, None, None]
        layout[p], layout[(p + 1) % 3], layout[(p + 2) % 3] = set(hands[p]), set(a), set(b)
        return layout

    def reward(layout, card):
        t, _s, _o = play_from(
            layout, dealer, round_no, trump, ["heuristic"] * 3, None, leader, row, played, tricks, known_out,
            variants, (exchanger, widow_seen(layout)), forced=card,
        )  # fmt: skip
        got = t[p] - tricks[p]
        made = t[p] <= q if misere else t[p] >= q
        share = got / len(hands[p])
        return 0.5 * made + 0.5 * (1.0 - share if misere else share)

    if c is None:
        return cand[halving(len(cand), budget, lambda: layout_of(*draw()), lambda i, layout: reward(layout, cand[i]))]
    return cand[ucb1(len(cand), budget, c, lambda: layout_of(*draw()), lambda i, layout: reward(layout, cand[i]))]


# ---------------------------------------------------------------------------------------------------
# Double dummy by brute force
# ---------------------------------------------------------------------------------------------------


def minimax(hands, trump, leader, played, maxteam, countteam, must_trump=False):
    """Exact game value by full minimax (memoised on the position): tricks of the seats in ``countteam``
    (a bit set) when the seats in ``maxteam`` maximise it and the others minimise it."""
    nh = len(hands)

    @functools.cache
    def go(hs, lead, row):
        k = len(row)
        p = (lead + k) % nh
        if k == 0 and not hs[lead]:
            return 0
        vals = []
        for c in legal(hs[p], suit(row[0]) if row else None, trump, must_trump):
            nxt = list(hs)
            nxt[p] = hs[p] - {c}
            r = row + (c,)
            if k == nh - 1:
                w = (lead + winner_pos(r, trump)) % nh
                vals.append(((countteam >> w) & 1) + go(tuple(nxt), w, ()))
            else:
                vals.append(go(tuple(nxt), lead, r))
        return max(vals) if (maxteam >> p) & 1 else min(vals)

    return go(tuple(frozenset(h) for h in hands), leader, tuple(played))
