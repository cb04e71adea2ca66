"""Bisko-Bobo in plain Python, written from rules.md section 1 (BB-1 .. BB-15).

Cards are (rank, suit) with rank 0 = '2' .. 12 = 'A' and suit 0 = C < 1 = H < 2 = D < 3 = S (BB-2).
The 52-card code used by the kernels is ``suit * 13 + rank``; :func:`play` takes the same shuffled deck
orders and the same strategy tables as the kernel, and a ``coin(p)`` / ``below(n)`` source that
consumes random numbers by the same rule (a coin with p in {0, 1} draws nothing).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

PATTERNS = {1: [2], 2: [2, 2], 3: [3], 4: [3, 2], 5: [4], 6: [2, 2, 2], 7: [3, 3], 8: [4, 2], 9: [5], 10: [6]}
JACK = 9


def card(code: int) -> tuple[int, int]:
    return code % 13, code // 13


def evaluate(codes, *, order="suit_rank", depth="full_lexicographic", split=False):
    """BB-12 by brute force. Returns a tuple key (type, suits, ranks); bigger tuples win."""
    cards = [card(c) for c in codes]
    by_suit = {s: sorted((r for r, su in cards if su == s), reverse=True) for s in range(4)}
    for t in range(10, 0, -1):
        pattern = PATTERNS[t]
        best = None
        suit_choices = (
            itertools.product(range(4), repeat=len(pattern))
            if split
            else itertools.permutations(range(4), len(pattern))
        )
        for suits in suit_choices:
            need = {s: 0 for s in range(4)}
            for s, z in zip(suits, pattern):
                need[s] += z
            if any(need[s] > len(by_suit[s]) for s in range(4)):
                continue
            comps = list(zip(suits, pattern))
            if order == "component_first":
                comps.sort(key=lambda c: (c[1], c[0]), reverse=True)
            else:
                comps.sort(key=lambda c: (c[0], c[1]), reverse=True)
            used = {s: 0 for s in range(4)}
            ranks = []  # one list per component, compared component by component
            for s, z in comps:
                ranks.append(by_suit[s][used[s] : used[s] + z])
                used[s] += z
            if depth == "first_card_only":
                ranks = [ranks[0][:1]]
            key = (t, [s for s, _ in comps], ranks)
            if best is None or key > best:
                best = key
        if best is not None:
            return best
    cs = sorted(((s, r) for r, s in cards), reverse=True)
    if depth == "first_card_only":
        cs = cs[:1]
    return (0, cs, [])


@dataclass
class Seat:
    upright: list = field(default_factory=list)
    tucked: list = field(default_factory=list)
    bisko: bool = False
    jingo_card: int | None = None
    action: int = -1  # 0 Flingo, 1 Jingo
    partner: int = -1  # swap partner if this seat started a swap
    tucked_jingo: bool = False


def play(P, hi, lo, variants, p_jingo, p_swap, swap_target, p_tuck, coin, below, forced=None):
    """Play one deal. Returns (seats, winners, evaluation keys, wet card). See module docstring."""
    v = variants
    k = len(hi) // 4
    forced = forced or {}
    seats = [Seat() for _ in range(P)]
    deck = list(hi)
    pos = 0

    def deal():
        nonlocal pos
        c = deck[pos]
        pos += 1
        return c

    suit = lambda c: c // 13  # noqa: E731
    # BB-4: two rounds face up (dealer = seat P-1 last), then the Wet Bisk.
    first = [deal() for _ in range(P)]
    second = [deal() for _ in range(P)]
    wet = deal()
    for s in range(P):
        seats[s].upright.append(first[s])
        if suit(first[s]) == suit(second[s]):
            seats[s].bisko = True
            seats[s].upright.append(second[s])
        else:
            seats[s].tucked.append(second[s])
    public = first + second
    # BB-5
    jingos = 0
    for s in range(P):
        me = seats[s]
        F = sum(1 for t in range(s + 1, P) if seats[t].bisko)
        R = sum(1 for t in range(s + 1, P) if not seats[t].bisko)
        if me.bisko:
            take = 1
        else:

            def legal(c):
                if v["enforce_jingo_constraint"] != "true":
                    return True
                return not (R == 0 and jingos + c + F == 1)

            options = [c for c in (0, 1) if legal(c)]
            if len(options) == 1:
                take = options[0]
            elif ("action", s) in forced:
                take = forced[("action", s)]
            else:
                us = suit(me.upright[0])
                unseen = min(max(k - sum(1 for c in public if suit(c) == us), 0), 8)
                take = 1 if coin(p_jingo[s][min(jingos, 2)][1 if R > 0 else 0][us][unseen]) else 0
        me.action = take
        if take == 1:
            jingos += 1
            me.jingo_card = deal()
        else:
            c = deal()
            me.upright.append(c)
            public.append(c)
            while suit(c) == suit(me.upright[0]) and pos < len(deck):
                c = deal()
                me.upright.append(c)
                public.append(c)
                if v["flingo_reward_chain"] != "true":
                    break
    # BB-6
    jingo_seats = [s for s in range(P) if seats[s].jingo_card is not None]
    if jingo_seats:
        low = {s: lo[i] for i, s in enumerate(jingo_seats)}
        order = sorted(jingo_seats, key=lambda s: (low[s] % 13, low[s] // 13), reverse=True)
        done = set()
        for i, s in enumerate(order):
            if s in done:
                continue
            elig = [t for t in order[i + 1 :] if t not in done]
            if not elig:
                continue
            me = seats[s]
            ms = suit(me.jingo_card)
            fit = 2 if any(suit(c) == ms for c in me.upright) else (1 if any(suit(c) == ms for c in me.tucked) else 0)
            partner = None
            if ("swap", s) in forced:
                f = forced[("swap", s)]
                partner = None if f < 0 else f
            else:
                first_open = next(t for t in order if t not in done)
                if v["bingo_swap_optional"] == "false" and s == first_open:
                    want = True  # variant: must swap (no decision, so no coin is drawn)
                else:
                    want = coin(p_swap[s][fit][1 if me.bisko else 0])
                if want:
                    rule = swap_target[s]
                    if rule == 1:
                        partner = elig[0]
                    elif rule == 2:
                        partner = elig[below(len(elig))]
                    elif rule == 3:
                        ok = [t for t in elig if not any(suit(c) == ms for c in seats[t].upright)]
                        partner = ok[-1] if ok else elig[-1]
                    else:
                        partner = elig[-1]
            if partner is not None:
                me.jingo_card, seats[partner].jingo_card = seats[partner].jingo_card, me.jingo_card
                done.update((s, partner))
                me.partner = partner
    # BB-7 / BB-8
    for s in range(P):
        me = seats[s]
        c = me.jingo_card
        if c is None:
            continue
        matches_tucked = any(suit(x) == suit(c) for x in me.tucked)
        rel = 0 if matches_tucked else (1 if any(suit(x) == suit(c) for x in me.upright) else 2)
        tuck = False
        if matches_tucked or v["jingo_tuck_rule"] == "free":
            if ("tuck", s) in forced:
                tuck = forced[("tuck", s)] == 1
            else:
                tuck = coin(p_tuck[s][rel])
        if tuck:
            me.tucked.append(c)
            me.tucked_jingo = True
        else:
            me.upright.append(c)
    # BB-9
    if v["bedtime_double_trigger"] == "opening_bisko_only":
        double = [seats[s].bisko for s in range(P)]
    else:
        double = [any(sum(1 for c in seats[s].upright if suit(c) == u) >= 2 for u in range(4)) for s in range(P)]
    for rnd in range(2):
        for s in range(P):
            if (rnd == 0 or double[s]) and pos < len(deck):
                seats[s].upright.append(deal())
    # BB-10 .. BB-12
    jack = wet % 13 == JACK
    ev = dict(order=v["bisk_suit_order"], depth=v["tiebreak_depth"], split=v["allow_same_suit_split"] == "true")
    keys = [evaluate((seats[s].tucked if jack else seats[s].upright) + [wet], **ev) for s in range(P)]
    best = max(keys)
    winners = [s for s in range(P) if keys[s] == best]
    return seats, winners, keys, wet
