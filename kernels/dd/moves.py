"""Double-dummy solver, move generation and ordering: one card per group of equivalent cards, best first (the
weights below), and the ranks that make skipped cards equivalent.
"""

from __future__ import annotations

import numpy as np

from .._jit import jit_inline
from ..bits import high_index, low_index, popcount
from .cards import ONE, _seat, beats, lane, legal_cards

# move-ordering weights (_gen_moves). A move's score (4 hands in a suit contract; 3 hands and bridge in no trumps
# lead by their own base weights, below): a master led ~100 + rank, a low lead ~20 - rank, plus:
LEAD_LEN_W = 20  # on lead: per card the other side holds in the suit (a void: the hand size + 1); fewer replies


DISC_W = 4  # following with another suit: per card of that suit held (discard from length)


ALLY_TOP = 90  # on lead: a low card to a partner's top card (other low cards: 20; a master: 100 + rank)


OVERTAKEN = 50  # following: a card that wins now but an opponent still to play can beat (sure: 100)


# following, a card that wins now but that a hand still to play must top (its lowest card of the suit is higher)
# is ordered as a low card (DDS's "card can make no difference").
# Bridge in no trumps, on lead (from DDS's WeightAllocNT0): a suit in which the partner is void; a suit in which
# the right-hand opponent (who plays last) holds the top or second card and more than one card; the
# second-highest card of the suit from a sequence below an opponent's top card (K from K Q against the A).
PARTNER_VOID = 60


MIS_PUSH = 8  # misere, a pusher on lead: per rank the ducking seat's lowest card of the suit lies above the lead


MIS_DUCK = 8  # misere, the ducking seat on lead: per card of the others above the lead


MIS_SHORT = 64  # misere, the ducking seat on lead: per card it holds in the suit (its shortest suit first)


RHO_HONOUR = 40


# With 3 hands (one seat against two), on lead, each side by its own weights: the seat playing alone (the counting
# seat; ``SOLO_*``) and either of the two playing together (``PAIR_*``), tuned on the double-dummy search's own
# node counts (docs/performance.md, "Lead weights for three hands"): a suit's top card (plus rank), a low card to a
# partner's top, another low card (minus rank); an opponent who can ruff the suit (a penalty), a partner who can;
# a trump lead; the top card with the second beside it; for the pair, a suit whose top card the solo seat holds and
# plays last to. LEAD_LEN_W as with 4 hands.
SOLO_TOP, SOLO_LOW, SOLO_RUFF, SOLO_TRUMP, SOLO_TOP2 = 130, 20, 30, 20, 30
PAIR_TOP, PAIR_ALLY_TOP, PAIR_LOW, PAIR_RUFF, PAIR_ALLY_RUFF = 70, 120, 35, 50, -10
PAIR_TRUMP, PAIR_TOP_LAST = -20, 40


SEQ_LEAD = 60


# Bridge in no trumps, on lead, tuned on the search's node counts as the 3-hand weights (docs/performance.md): a
# suit's top card (plus rank) and another low card (minus rank), per card the other side holds in the suit, and
# DDS's "LHO holds the top card and partner the second" (partner not a singleton)
NT_TOP, NT_LOW, NT_LEN_W, LHO_TOP_PARTNER_SECOND = 40, 35, 14, 20


@jit_inline
def _gen_moves(hands, nh, trump, must_trump, row, at, k, p, maxteam, countteam, out, sc, skipped, d, killer):
    """Candidate cards for seat ``p`` (one per group of equivalent cards), best-first, into ``out``;
    ``skipped[d]`` gets the cards left out as equivalent to a higher card of the same seat. The trick so far is
    ``row[at:at + k]``; the moves go to ``out[d]``, their scores to ``sc[d]``. With 4 hands, a lead of
    ``killer`` (the last lead at this depth that cut the search) comes first; with 3 hands it does not pay. Leads
    with 3 hands score by ``SOLO_*`` and ``PAIR_*``; bridge leads in no trumps by ``NT_*`` and also weigh
    ``PARTNER_VOID``, ``RHO_HONOUR``, ``LHO_TOP_PARTNER_SECOND`` and ``SEQ_LEAD``."""
    h = hands[p]
    led = -1 if k == 0 else row[at] >> 4
    legal = legal_cards(h, led, trump, must_trump)
    if (legal & (legal - ONE)) == 0:
        # one legal card (a singleton followed, the last card): nothing to order or leave out
        out[d, 0] = low_index(legal)
        sc[d, 0] = 0
        skipped[d] = np.uint64(0)
        return 1
    po = np.uint64(0)
    for q in range(nh):
        if q != p:
            po |= hands[q]
    best = -1
    best_pos = 0
    for i in range(k):
        po |= ONE << np.uint64(row[at + i])
        if i == 0 or beats(row[at + i], best, trump):
            best = row[at + i]
            best_pos = i
    lo, hi = low_index(legal), high_index(legal)
    if (lo >> 4) == (hi >> 4) and (po & ((ONE << np.uint64(hi)) - (ONE << np.uint64(lo)))) == 0:
        # the legal cards are one run of one suit (no other card present between them): the top card stands for
        # all, as the loop below would find, with the others left out as equivalent
        out[d, 0] = hi
        sc[d, 0] = 0
        skipped[d] = legal ^ (ONE << np.uint64(hi))
        return 1
    misere = maxteam != countteam
    mine = (maxteam >> p) & 1
    three = nh == 3 and k == 0 and not misere  # a lead with 3 hands: the solo or pair weights
    bridge_nt = nh == 4 and k == 0 and trump < 0 and not misere  # a bridge lead in no trumps: the NT_* weights
    ally_winning = False
    if k > 0:
        leader = _seat(p - k + nh, nh)
        ally_winning = ((maxteam >> _seat(leader + best_pos, nh)) & 1) == mine
    # an opponent still to play in this trick who could beat the card winning now (then a partner's card is
    # not safe, and covering it can be right)
    threat = False
    opp_hi = -1  # the highest card of the led suit an opponent still to play holds
    opp_ruff = False  # an opponent still to play can ruff
    floor = -1  # the highest of the lowest cards of the led suit of the hands still to play
    if k > 0 and not misere:
        for j in range(1, nh - k):
            q = _seat(p + j, nh)
            fq = lane(hands[q], led)
            if fq:
                floor = max(floor, low_index(fq))
            if ((maxteam >> q) & 1) == mine:
                continue
            fol = fq
            if fol:
                opp_hi = max(opp_hi, high_index(fol))
                if (best >> 4) == led and high_index(fol) > (best & 15):
                    threat = True
            elif trump >= 0 and lane(hands[q], trump):
                opp_ruff = led != trump
                if (best >> 4) != trump or high_index(lane(hands[q], trump)) > (best & 15):
                    threat = True
    # a partner still to play tops the trick in the led suit whatever the opponents do: play low
    ally_tops = False
    if k > 0 and not misere and not opp_ruff and (best >> 4) == led:
        for j in range(1, nh - k):
            q = _seat(p + j, nh)
            if ((maxteam >> q) & 1) == mine:
                fol = lane(hands[q], led)
                if fol and high_index(fol) > max(opp_hi, best & 15):
                    ally_tops = True
    n = 0
    skip = np.uint64(0)
    for s in range(4):
        x = lane(legal, s)
        if x == 0:
            continue
        allp = x | lane(po, s)
        others = lane(po, s)
        lead_bonus = 0
        # on lead, the suit's top card and its second (lane bits; 0 where none)
        a1 = a2 = np.uint64(0)
        if k == 0:
            a1 = ONE << np.uint64(high_index(allp))
            if allp ^ a1:
                a2 = ONE << np.uint64(high_index(allp ^ a1))
        if k == 0 and trump >= 0 and s != trump and not misere:
            # leading into a void: an opponent who can ruff discourages the suit, a partner who can encourages it
            for q in range(nh):
                if q != p and lane(hands[q], s) == 0 and lane(hands[q], trump) != 0:
                    if ((maxteam >> q) & 1) == mine:
                        lead_bonus += PAIR_ALLY_RUFF if three else 30
                    else:
                        lead_bonus -= (SOLO_RUFF if mine else PAIR_RUFF) if three else 30
        top2 = False  # three hands: the leader holds the suit's top two cards
        if three and others:
            if s == trump:
                lead_bonus += SOLO_TRUMP if mine else PAIR_TRUMP
            last = _seat(p + 2, nh)  # the seat that plays last to this trick
            if not mine and (lane(hands[last], s) & a1) and ((maxteam >> last) & 1) != mine:
                lead_bonus += PAIR_TOP_LAST
            top2 = bool(lane(h, s) & a1) and bool(lane(h, s) & a2)
        ally_top = False  # on lead: a partner holds the suit's top card (lead low to it)
        if k == 0 and not misere and others:
            tb = ONE << np.uint64(high_index(others) + 16 * s)
            for q in range(nh):
                if q != p and ((maxteam >> q) & 1) == mine and (hands[q] & tb):
                    ally_top = True
        if k == 0 and not misere:
            # a suit in which the other side holds few cards gives them few replies: a smaller tree (a void
            # opponent may play any card, counted as many)
            for q in range(nh):
                if ((maxteam >> q) & 1) != mine:
                    ln = popcount(lane(hands[q], s))
                    lead_bonus -= (NT_LEN_W if bridge_nt else LEAD_LEN_W) * (ln if ln else popcount(h) + 1)
        seq_lead = np.uint64(0)
        if bridge_nt:
            lp = lane(hands[_seat(p + 2, nh)], s)
            lr = lane(hands[_seat(p + 3, nh)], s)
            rest = allp ^ a1
            if lp == 0:
                lead_bonus -= PARTNER_VOID
            if (lr & (a1 | a2)) and popcount(lr) != 1:
                lead_bonus -= RHO_HONOUR
            if (lane(hands[_seat(p + 1, nh)], s) & a1) and (lp & a2) and popcount(lp) != 1:
                lead_bonus += LHO_TOP_PARTNER_SECOND
            rest ^= a2
            if not ((x | lp) & a1) and (x & a2) and rest and (x >> np.uint64(high_index(rest))) & ONE:
                seq_lead = a2  # and the third card is ours too
        while x:
            low = x & (~x + ONE)
            x ^= low
            above = allp & ~((low << ONE) - ONE)  # present cards higher than this one
            nxt = above & (~above + ONE)
            if nxt and (nxt & lane(h, s)):
                skip |= low << np.uint64(16 * s)
                continue  # a touching higher card of ours stands for it
            r = low_index(low)
            c = s * 16 + r
            top = (others & ~((low << ONE) - ONE)) == 0  # no other present card above it
            if misere:
                if k == 0:
                    if mine:
                        # a pusher leads: a suit whose every card in the ducking seat's hand is above this one
                        # forces it to win unless a partner must go higher
                        sl = lane(hands[low_index(np.uint64(countteam))], s)
                        score = (MIS_PUSH * (low_index(sl) - r) if sl else -MIS_PUSH * 16) - r
                    else:
                        # the ducking seat leads from its shortest suit (void, it may throw its dangerous cards
                        # later), there the card with the most of the others' cards above it
                        score = (
                            MIS_DUCK * popcount(others & ~((low << ONE) - ONE)) - r - MIS_SHORT * popcount(lane(h, s))
                        )
                elif beats(c, best, trump):
                    score = -100 + r
                else:
                    score = r
            elif three and mine:
                score = (
                    SOLO_TOP + r + (SOLO_TOP2 if top2 else 0) if top else (ALLY_TOP - r if ally_top else SOLO_LOW - r)
                )
                score += lead_bonus
            elif three:
                score = (PAIR_TOP + r if top else (PAIR_ALLY_TOP - r if ally_top else PAIR_LOW - r)) + lead_bonus
            elif bridge_nt:
                score = (NT_TOP + r if top else (ALLY_TOP - r if ally_top else NT_LOW - r)) + lead_bonus
            elif k == 0:
                score = (100 + r if top else (ALLY_TOP - r if ally_top else 20 - r)) + lead_bonus
            elif ally_tops:
                score = -r - (50 if (s == trump and s != led) else 0)
            elif ally_winning and not threat:
                score = -r - (50 if (s == trump and s != led) else 0)
            elif ally_winning:
                # a partner's card is winning and an opponent still to play could beat it: cover with a card no
                # opponent still to play can beat (the cheapest), else play low
                secure = s == led and (top or (not opp_ruff and r > opp_hi))
                score = (40 - r if secure else -r) - (50 if (s == trump and s != led) else 0)
            elif beats(c, best, trump):
                if s == led and r < floor:
                    score = -r  # a hand still to play must follow above it: it cannot win
                elif s == led and (opp_ruff or r < opp_hi):
                    score = OVERTAKEN - r  # an opponent still to play can beat it
                else:
                    # a sure winner, the cheapest first (no bonus for the suit's top card: it would put A before
                    # J from A J over a king played second, where the J wins and the A takes the king later)
                    score = 100 - r
            else:
                score = -r
            if k > 0 and s != led and not misere:
                score += DISC_W * popcount(lane(h, s))  # a discard or ruff: from a long suit first
            if low == seq_lead:
                score += SEQ_LEAD
            if nh == 4 and k == 0 and c == killer:
                score += 1000
            j = n
            while j > 0 and sc[d, j - 1] < score:
                out[d, j] = out[d, j - 1]
                sc[d, j] = sc[d, j - 1]
                j -= 1
            out[d, j] = c
            sc[d, j] = score
            n += 1
    skipped[d] = skip
    return n


@jit_inline
def _with_skipped(hands, nh, row, at, k, rel, skipped):
    """The relevant set of a node whose every move was tried, widened so that each card skipped as
    equivalent to a higher card of the same seat stays equivalent in every position the stored result is
    claimed for: needed when that higher card is at or above the suit's lowest relevant card (from high to
    low, since each addition lowers the threshold)."""
    present = np.uint64(0)
    for q in range(nh):
        present |= hands[q]
    for i in range(k):
        present |= ONE << np.uint64(row[at + i])
    out = rel
    for s in range(4):
        x = lane(skipped, s)
        if x == 0:
            continue
        r = lane(rel, s)
        allp = lane(present, s)
        while x:
            b = ONE << np.uint64(high_index(x))
            x ^= b
            above = allp & ~((b << ONE) - ONE)
            a = above & (~above + ONE)
            if r != 0 and (r & (~r + ONE)) <= a:
                r |= b
        out |= r << np.uint64(16 * s)
    return out
