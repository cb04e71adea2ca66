"""Biscuits combinations in plain Python, from rules.md section 2 (BI-2, BI-6, BI-7).

Cards are codes ``rank * 4 + suit`` (rank 0 = '2' .. 12 = 'A'; suits unranked). Kinds as in kernels/biscuits/.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

from .search import halving, ucb1

PLAIN = {1: "Single", 2: "Pair", 3: "Triple"}


def classify(codes, v=None):
    """(kind, key) or None."""
    v = {"flush_compare": "top_card_only", "ace_low_straight": "false", **(v or {})}
    codes = list(codes)
    ranks = Counter(c // 4 for c in codes)
    suits = {c % 4 for c in codes}
    n = len(codes)
    if len(ranks) == 1 and n <= 3:
        return n, codes[0] // 4  # Single, Pair, Triple by rank
    if n != 5:
        return None  # no 4-card combination
    shape = sorted(ranks.values(), reverse=True)
    if shape[0] == 4:
        return 14, next(r for r, k in ranks.items() if k == 4)
    if shape == [3, 2]:
        return 13, next(r for r, k in ranks.items() if k == 3)
    if len(ranks) == 5:
        rs = sorted(ranks)
        high = None
        if rs[-1] - rs[0] == 4:
            high = rs[-1]
        elif v["ace_low_straight"] == "true" and rs == [0, 1, 2, 3, 12]:
            high = 3  # A-2-3-4-5: its highest card is the 5
        if high is not None:
            return (15 if len(suits) == 1 else 11), high
        if len(suits) == 1:
            if v["flush_compare"] == "lexicographic":
                key = 0
                for r in sorted(ranks, reverse=True):
                    key = key * 16 + r
                return 12, key
            return 12, max(ranks)
    return None


def beats(current, new):
    if new is None:
        return False
    if current is None:
        return True
    (ck, ckey), (k, key) = current, new
    if k // 10 != ck // 10:
        return False
    if k % 10 != ck % 10:
        return k % 10 > ck % 10
    return key >= ckey


def legal_plays(hand, current=None, v=None):
    out = set()
    hand = list(hand)
    for size in (1, 2, 3, 5):
        for sub in combinations(hand, size):
            if beats(current, classify(sub, v)):
                out.add(frozenset(sub))
    return out


# ---- a hand (BI-4 .. BI-11), restated from the rules -------------------------------------------------------


def _lowest(hand, k, avoid_pairs=False):
    cards = sorted(hand)
    first = [c for c in cards if avoid_pairs and sum(1 for d in hand if d // 4 == c // 4) == 1]
    rest = [c for c in cards if c not in first]
    return set((first + rest)[:k])


def _random(hand, k, below):
    out = set()
    for _ in range(k):
        rest = sorted(set(hand) - out)
        out.add(rest[below(len(rest))])
    return out


def play_hand(
    hands, starter, strategies, legal, below, v=None, do_pass=True, scores=(0, 0), target=None, forced=None
):  # fmt: skip
    """Returns (points per team, first out, second out). strategies[s] = (play, pass, plain action, handover).
    ``forced``: ``(seat, cards)``, that seat passes these two cards instead of its policy's (the advisor).

    Variants: pass_locks_out (a pass takes you out of the trick); ``do_pass`` False skips the partner pass
    (pass_every_hand=false after the first hand); game_end_check=immediate stops the hand once a team's game
    score (``scores`` before the hand, plus this hand's points) reaches ``target``.
    """
    v = v or {}
    hands = [set(h) for h in hands]
    give = []
    for s in range(4):
        pol = strategies[s][1]
        if not do_pass:
            give.append(set())
        elif forced is not None and s == forced[0]:
            give.append(set(forced[1]))
        elif pol == 0:
            give.append(_random(hands[s], 2, below))
        elif pol == 3:
            give.append(_keep_combos(hands[s], v))
        elif pol == 4:  # a pair: the lowest rank held twice or more
            multi = sorted(c for c in hands[s] if sum(1 for d in hands[s] if d // 4 == c // 4) >= 2)
            give.append(set(sorted(c for c in multi if c // 4 == multi[0] // 4)[:2]) if multi else _lowest(hands[s], 2))
        elif pol == 5:  # suited connectors: c and c + 4 (next rank, same suit)
            conn = sorted(c for c in hands[s] if c + 4 in hands[s])
            give.append({conn[0], conn[0] + 4} if conn else _lowest(hands[s], 2))
        else:
            give.append(_lowest(hands[s], 2, pol == 2))
    for s in range(4):
        hands[s] = (hands[s] - give[s]) | give[(s + 2) % 4]  # BI-4, simultaneously
    return play_from(hands, starter, strategies, legal, below, v, scores=scores, target=target)


def play_from(
    hands, turn, strategies, legal, below, v=None, *, points=(0, 0), outs=(), current=None, last=None,
    passes=0, out_of_trick=(), phase="turn", force=None, scores=(0, 0), target=None,
):  # fmt: skip
    """A hand played on from a state (BI-5 .. BI-11): ``hands`` now, this hand's ``points`` so far, the seats
    ``outs`` already out, the trick (``current`` (kind, key) made by ``last``, ``passes`` in a row since,
    ``out_of_trick`` under pass_locks_out); ``phase``: ``"turn"`` (``turn`` acts), ``"trick_end"`` (the trick
    ``last`` won is over: BI-10, BI-11) or ``"return"`` (the Plain exchange's card was sent: its receiver gives
    one back). ``force``: ``(what, value)``, the first decision's action: ``("play", cards or None)``,
    ``("handover", bool)``, ``("send", card or None)``, ``("return", card)``. Returns (points, first out,
    second out)."""
    v = v or {}
    locks = v.get("pass_locks_out") == "true"
    immediate = v.get("game_end_check") == "immediate" and target is not None
    hands = [set(h) for h in hands]
    points = list(points)
    outs = list(outs)
    out_of_trick = set(out_of_trick)
    last = turn if last is None else last

    def forced(what):
        nonlocal force
        if force is not None and force[0] == what:
            value, force = force[1], None
            return True, value
        return False, None

    while True:
        if phase == "turn":
            me = hands[turn]
            options = sorted(legal(me, current), key=lambda p: sum(1 << c for c in p))
            pick = None
            done, value = forced("play")
            if done:
                pick = None if value is None else tuple(sorted(value))
            elif options:
                if strategies[turn][0] == 0:
                    if current is None:
                        pick = options[below(len(options))]
                    else:
                        i = below(len(options) + 1)
                        pick = None if i == 0 else options[i - 1]
                elif strategies[turn][0] == 2:
                    opp = [len(hands[o]) for o in ((turn + 1) % 4, (turn + 3) % 4) if hands[o]]
                    pick = _planning(
                        options,
                        me,
                        current,
                        current is not None and last == (turn + 2) % 4,
                        len(hands[(turn + 2) % 4]),
                        min(opp, default=99),
                        v,
                    )
                else:
                    pick = _greedy(options, me, current, current is not None and last == (turn + 2) % 4, v)
            if not done and current is None and pick is None:
                pick = options[0]
            if pick is not None:
                hands[turn] -= set(pick)
                current = classify(pick, v)
                last = turn
                passes = 0
                if not hands[turn]:
                    points[turn % 2] += max(len(hands[(turn + 1) % 4]), len(hands[(turn + 3) % 4]))  # BI-8
                    outs.append(turn)
                    if len(outs) == 2:
                        return points, outs[0], outs[1]  # BI-9
                    if immediate and max(scores[0] + points[0], scores[1] + points[1]) >= target:
                        return points, outs[0], None  # the game is over at once
            else:
                passes += 1
                out_of_trick.add(turn)
            holding = [s for s in range(4) if hands[s]]
            others = [s for s in holding if s != last]
            if not (all(s in out_of_trick for s in others) if locks else passes >= len(others)):
                turn = (turn + 1) % 4
                while not hands[turn] or (locks and turn in out_of_trick):
                    turn = (turn + 1) % 4
                continue
        winner, partner = last, (last + 2) % 4
        nxt = None
        if current[0] // 10 == 1:  # Fancy: may hand the lead over
            if hands[partner]:
                done, value = forced("handover")
                if done:
                    over = bool(value)
                else:
                    pol = strategies[winner][3]
                    over = (
                        (below(2) == 1)
                        if pol == 1
                        else (pol == 2 and (not hands[winner] or len(hands[partner]) < len(hands[winner])))
                    )
                if over:
                    nxt = partner
        else:  # Plain: the exchange at the winner's left
            a, b = (winner + 1) % 4, (winner + 3) % 4
            if phase == "return" or (hands[a] and hands[b]):  # the sender may have sent its last card
                sent = None
                if phase != "return":
                    done, value = forced("send")
                    if done:
                        sent = None if value is None else {value}
                    else:
                        pol = strategies[a][2]
                        act = (below(2) == 1) if pol == 1 else pol == 2
                        if act:
                            sent = _random(hands[a], 1, below) if pol == 1 else _lowest(hands[a], 1)
                    if sent:
                        hands[a] -= sent
                        hands[b] |= sent
                if phase == "return" or sent:
                    done, value = forced("return")
                    if done:
                        back = {value}
                    else:
                        pb = strategies[b][2]
                        back = _random(hands[b], 1, below) if pb == 1 else _lowest(hands[b], 1)
                    hands[b] -= back
                    hands[a] |= back
        if nxt is None:
            nxt = winner
            while not hands[nxt]:
                nxt = (nxt + 1) % 4
        current = None
        passes = 0
        out_of_trick = set()
        turn = last = nxt
        phase = "turn"


def _greedy(options, hand, current, partner_last, v):
    for p in options:
        if len(p) == len(hand):
            return p
    if current is not None and partner_last:
        return None
    if current is None:
        return min(options, key=lambda p: (5 - len(p)) * 64 + max(p))
    return min(options, key=lambda p: (classify(p, v)[0] % 10, classify(p, v)[1]))


# ---- the planning player (kernels/biscuits/ PLAY_PLANNING), restated ---------------------------------


def plan_hand(hand, v=None):
    """The fewest-plays split: fours apart; straights first, flushes first or neither; triples with the lowest
    pair (full houses), pairs, singles; each four takes the lowest single as kicker. Fewest plays wins, ties to
    the earlier attempt."""
    v = {"ace_low_straight": "false", **(v or {})}
    best = None
    for attempt in range(3):
        rest = set(hand)
        elems = []
        for r in range(13):
            four = {c for c in rest if c // 4 == r}
            if len(four) == 4:
                elems.append(four)
                rest -= four
        n_fours = len(elems)
        if attempt == 0:
            while True:
                ranks = {c // 4 for c in rest}
                runs = []
                if v["ace_low_straight"] == "true":
                    runs.append([12, 0, 1, 2, 3])
                runs += [list(range(lo, lo + 5)) for lo in range(9)]
                run = next((r for r in runs if all(x in ranks for x in r)), None)
                if run is None:
                    break
                e = {min(c for c in rest if c // 4 == r) for r in run}
                elems.append(e)
                rest -= e
        elif attempt == 1:
            for su in range(4):
                while len([c for c in rest if c % 4 == su]) >= 5:
                    e = set(sorted(c for c in rest if c % 4 == su)[:5])
                    elems.append(e)
                    rest -= e
        triples = []
        for r in range(13):
            t = {c for c in rest if c // 4 == r}
            if len(t) == 3:
                triples.append(t)
                rest -= t
        for t in triples:
            for r in range(13):
                pair = {c for c in rest if c // 4 == r}
                if len(pair) == 2:
                    t |= pair
                    rest -= pair
                    break
        elems += triples
        for r in range(13):
            pair = {c for c in rest if c // 4 == r}
            if len(pair) == 2:
                elems.append(pair)
                rest -= pair
        elems += [{c} for c in sorted(rest)]
        for i in range(n_fours):
            singles = [e for e in elems if len(e) == 1]
            if singles:
                low = min(singles, key=lambda e: min(e))
                elems.remove(low)
                elems[i] = elems[i] | low
        if best is None or len(elems) < len(best):
            best = elems
    return [frozenset(e) for e in best]


def _planning(options, hand, current, partner_last, partner_count, min_opp, v, threshold=3):
    for p in options:
        if len(p) == len(hand):
            return p
    if current is not None and partner_last:
        return None
    plan = set(plan_hand(hand, v))
    whole = [p for p in options if p in plan]
    cheap = lambda p: (classify(p, v)[0] % 10, classify(p, v)[1])  # noqa: E731
    if current is None:
        singles = [p for p in options if len(p) == 1]
        if partner_count == 1:
            return min(singles, key=lambda p: min(p))
        if whole:
            return min(whole, key=lambda p: (5 - len(p)) * 64 + max(p))
        return min(singles, key=lambda p: min(p))
    if whole:
        return min(whole, key=cheap)
    if min_opp <= threshold:
        return min(options, key=cheap)
    return None


def _keep_combos(hand, v):
    singles = sorted(min(e) for e in plan_hand(hand, v) if len(e) == 1)
    rest = [c for c in sorted(hand) if c not in singles]
    return set((singles + rest)[:2])


# ---------------------------------------------------------------------------------------------------
# The search player (kernels/biscuits/search.py)
# ---------------------------------------------------------------------------------------------------

SEARCH_POINTS_SPAN = 13.0  # the team points a hand counted as a full reward or loss


def search_play(hands, turn, legal, roll, draw, budget, c, below, v=None, *, fork=None, current=None, **state):
    """The search player's play in plain Python (``None`` a pass): a play that empties its hand at once; else the
    candidates (the pass first when following, then the legal plays in the order of their card masks), each
    rollout a layout from ``draw()`` on which the candidate is played and the hand finished by the players
    ``roll`` (the kernel's rows, planning play); the reward 1/2 + 1/2 of the team's point lead in the hand over
    SEARCH_POINTS_SPAN, clipped. ``state``: :func:`play_from`'s position keywords. ``c`` None: sequential halving
    (:func:`tests.reference.search.halving`), each candidate's rollout drawing from ``fork()`` (the rollouts'
    draws as they stand after the layout's, the same for every candidate); else UCB1 with constant ``c``
    (:func:`tests.reference.search.ucb1`), a layout a rollout, the rollouts drawing from ``below``."""
    options = sorted(legal(hands[turn], current), key=lambda p: sum(1 << x for x in p))
    for p in options:
        if len(p) == len(hands[turn]):
            return tuple(sorted(p))
    order = ([None] if current else []) + [tuple(sorted(p)) for p in options]
    assert len(order) <= 48, "the kernel's cheapest-of-each-kind cut is not modelled here"
    if len(order) == 1:
        return order[0]
    team = turn % 2

    def reward(i, layout, draws):
        points, _f, _s = play_from(layout, turn, roll, legal, draws, v, current=current, force=("play", order[i]),
                                   **state)  # fmt: skip
        d = points[team] - points[1 - team]
        return 0.5 + 0.5 * min(max(d / SEARCH_POINTS_SPAN, -1.0), 1.0)

    if c is None:
        return order[halving(len(order), budget, draw, lambda i, layout: reward(i, layout, fork()))]
    return order[ucb1(len(order), budget, c, draw, lambda i, layout: reward(i, layout, below))]
