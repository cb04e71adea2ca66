"""Bismarck (rules.md section 3): deal, the four round types, play, scoring, 12-hand games, players.

Cards are ``suit * 16 + rank`` (rank 0 = 2 .. 12 = A; suits C D H S = 0..3), hands uint64 sets (the solver's
encoding, :mod:`kernels.dd`). Seats 0..2 clockwise; the dealer's left leads the first trick (BM-4). Roles
are relative to the dealer: 0 = dealer, 1 = left (forehand), 2 = right.
"""

from __future__ import annotations

import numpy as np

from . import dd, rng
from ._jit import borrowed, jit, jit_inline, pjit, prange
from .bits import high_index, low_index, nth_bit, popcount
from .dd import LANE, ONE, beats, lane, legal_cards

# strategies (BM-9: card play, round-3 trump naming, the widow discard)
S_RANDOM = 0
S_HEURISTIC = 1
S_PIMC = 2
S_DD = 3

# variant slots (analysis/games/bismarck.py fills them from seeds/bismarck.toml)
V_SCORING = 0  # 0 original, 1 simplified                                   BM-6
V_SCHEDULE = 1  # 0 block_of_four, 1 rotate_each_hand                        BM-3, 3(c)1
V_ROUND4 = 2  # 0 blog (6/4, floor 0), 1 classic (4/6), 2 simplified (4)   3(c)2
V_ROUND3 = 3  # 0 before_deal (blind), 1 after_seeing_hand                 3(c)3
V_ROUND2 = 4  # 0 draw_from_leftover, 1 cut_pack                           3(c)4
V_WIDOW = 5  # 0 none, 1 dealer_takes_4_discards_4, 2 swedish (forehand)  3(c)5
V_MUST_TRUMP = 6  # 3(c)6
V_PENALTY = 7  # below_quota_penalty                                        3(c)7
V_LENGTH = 8  # 0: 12 hands, 1: 4 hands, 2: to a target                     BM-7
V_TARGET = 9
V_PIMC_FROM = 10  # PIMC / DD play from this many cards in hand (heuristic before)
V_SAMPLES = 11  # PIMC samples per decision
V_RULESET = 12  # 0 blog, 1 swedish                                          3(c)10
V_FREE_ORDER = 13  # fixed_round_order: 0 true, 1 false (the dealer picks)      3(c)9
N_VARIANTS = 14

# Swedish Bismarck (3(c)10): forehand's contracts, as round types 0..3 so that the counts keep their layout
SPEL = 0  # no trumps, win tricks
SPADER = 1  # spades are trumps
VALFRI = 2  # forehand names trumps
PASS = 3  # no trumps, avoid tricks
SPADES = 3
ALL_ROUNDS = 15  # the round types (or contracts) still to play in a cycle, one bit each

MAX_HANDS = 120
#: The pack in the order it is shuffled from: card ``i`` (0..51, suit-major) as its code ``suit * 16 + rank``.
DECK = np.array([(i // 13) * 16 + i % 13 for i in range(52)], dtype=np.int64)
#: ``rng.partial_shuffle(st, deck, 52)`` unrolled for the 52-card pack (same result).
_shuffle_pack = rng.unrolled_shuffle(52, 52)

# per-hand record, per seat
H_TRICKS = 0
H_SCORE = 1
H_HCP = 2
H_TRUMPS = 3
H_VOIDS = 4
H_FIELDS = 5

# counts layout: per round type (4) and role (3), ROLE_FIELDS each
R_N = 0
R_TRICKS = 1
R_TRICKS_SQ = 2
R_SCORE = 3
R_SCORE_SQ = 4
R_MADE = 5
R_HIST = 6  # 17 bins: tricks 0..16
ROLE_FIELDS = R_HIST + 17
N_HCP = 38
# features per round type: hcp bins, trump-length bins, void-count bins, each (n, tricks, tricks^2)
FEAT_FIELDS = (N_HCP + 17 + 4) * 3
# games, per seat: outright wins, shared first places, total, total^2; then games; then score histogram
G_FIELDS = 4
SCORE_LO = -40
SCORE_BINS = 140


def counts_width():
    return 4 * 3 * ROLE_FIELDS + 4 * FEAT_FIELDS + 3 * G_FIELDS + 1 + 3 * SCORE_BINS


BASE_FEAT = 4 * 3 * ROLE_FIELDS
BASE_GAME = BASE_FEAT + 4 * FEAT_FIELDS
BASE_HIST = BASE_GAME + 3 * G_FIELDS + 1


# ---------------------------------------------------------------------------------------------------
# Rules
# ---------------------------------------------------------------------------------------------------


@jit_inline
def quota(rtype, role, bv):
    """Rounds 1-3: the tricks a role must pass to score (dealer 8, others 4); round 4: the allowance.
    Swedish (3(c)10): forehand (role 1) 8, the others 4 in Spel, Spader and Valfri; in Pass forehand at most 4,
    the others at most 6."""
    if bv[V_RULESET] == 1:
        if rtype < 3:
            return 8 if role == 1 else 4
        return 4 if role == 1 else 6
    if rtype < 3:
        return 8 if role == 0 else 4
    r4 = bv[V_ROUND4]
    if r4 == 0:
        return 6 if role == 0 else 4
    if r4 == 1:
        return 4 if role == 0 else 6
    return 4


@jit_inline
def hand_score(rtype, role, tricks, bv):
    """BM-6: one role's score for one hand of round type ``rtype`` (0..3 = rounds 1..4). Swedish (3(c)10): one
    point a trick above the quota, minus one a trick below it (in Pass a trick below the allowance scores), so
    that every hand's scores add up to 0."""
    if bv[V_RULESET] == 1:
        q = quota(rtype, role, bv)
        return tricks - q if rtype < 3 else q - tricks
    if bv[V_SCORING] == 1:  # simplified
        return tricks if rtype < 3 else 4 - tricks
    q = quota(rtype, role, bv)
    if rtype < 3:
        s = tricks - q
        if s < 0 and bv[V_PENALTY] == 0:
            s = 0
        return s
    s = q - tricks
    if s < 0 and bv[V_ROUND4] == 0:  # the blog's "down to zero points for the round"
        s = 0
    return s


@jit_inline
def made_quota(rtype, role, tricks, bv):
    q = quota(rtype, role, bv)
    if rtype < 3:
        return tricks >= q
    return tricks <= q


@jit_inline
def schedule(first_dealer, h, bv):
    """BM-3 / 3(c)1: the dealer and round type (0..3) of hand ``h`` of a game. Where the round type is chosen
    (``fixed_round_order = false``, or forehand's contract in Swedish Bismarck) it is the fixed order's, and the
    deal replaces it (:func:`deal_round`). Swedish Bismarck passes the deal left every hand."""
    if bv[V_SCHEDULE] == 0 and bv[V_RULESET] == 0:
        return (first_dealer + h // 4) % 3, h % 4
    return (first_dealer + h) % 3, h % 4


@jit_inline
def _follow(h, lead_card, k):
    """Legal cards without the must-trump rule (BM-4), without branches: the led suit's cards if any. The
    simulated hand's form of :func:`kernels.dd.legal_cards` (which the solver uses, and the hand when
    must_trump is on) is slower here (docs/performance.md, Bismarck), so the two are kept and a test holds
    them equal."""
    f = h & ((LANE << np.uint64(16 * (lead_card >> 4))) & (np.uint64(0) - np.uint64(k > 0)))
    return f if f != 0 else h


@jit_inline
def trick_winner(row, leader, trump):
    """The seat that wins a complete 3-card trick ``row[:3]`` (BM-4): :func:`trick_winner_of`."""
    return trick_winner_of(row[0], row[1], row[2], leader, trump)


@jit_inline
def trick_winner_of(c0, c1, c2, leader, trump):
    """The seat that wins the trick ``c0 c1 c2`` led by ``leader`` (BM-4), by comparing rank keys without
    branches: trumps over the led suit over the rest, then rank."""
    led = c0 >> 4
    k0 = (c0 & 15) | 16 | (np.int64(led == trump) << 5)
    k1 = (c1 & 15) | (np.int64((c1 >> 4) == led) << 4) | (np.int64((c1 >> 4) == trump) << 5)
    k2 = (c2 & 15) | (np.int64((c2 >> 4) == led) << 4) | (np.int64((c2 >> 4) == trump) << 5)
    pos = np.int64(k1 > k0)
    kb = max(k0, k1)
    pos = 2 if k2 > kb else pos
    w = leader + pos
    return w - 3 if w >= 3 else w


@jit_inline
def _highest_ranked(x):
    """The card of ``x`` with the highest rank (ties: the lower suit index)."""
    best = -1
    for s in range(4):
        y = lane(x, s)
        if y:
            c = s * 16 + high_index(y)
            if best < 0 or (c & 15) > (best & 15):
                best = c
    return best


@jit_inline
def _lowest_ranked(x, skip_suit):
    """The card of ``x`` outside ``skip_suit`` with the lowest rank (ties: the lower suit index); -1 if none."""
    best = -1
    for s in range(4):
        y = lane(x, s)
        if y and s != skip_suit:
            c = s * 16 + low_index(y)
            if best < 0 or (c & 15) < (best & 15):
                best = c
    return best


RANK_J = np.uint64(sum(1 << (16 * s + 9) for s in range(4)))  # the jacks of all four lanes


@jit_inline
def hcp(h):
    """High-card points (J Q K A = 1 2 3 4) of a set, in any lanes: one count per rank, no
    branches (a bit-by-bit loop mispredicts on random hands; docs/performance.md)."""
    return (
        popcount(h & RANK_J)
        + 2 * popcount(h & (RANK_J << ONE))
        + 3 * popcount(h & (RANK_J << np.uint64(2)))
        + 4 * popcount(h & (RANK_J << np.uint64(3)))
    )


# ---------------------------------------------------------------------------------------------------
# Players
# ---------------------------------------------------------------------------------------------------


@jit_inline
def _is_master(c, unseen):
    """No unseen card of the same suit ranks above ``c``."""
    s = c >> 4
    above = lane(unseen, s) & ~((ONE << np.uint64((c & 15) + 1)) - ONE)
    return above == 0


@jit_inline
def heuristic_card(h, legal, row, k, trump, misere, unseen):
    """Sensible whist for the seat holding ``h`` (``unseen``: cards it has not seen, its own excluded)."""
    if misere:
        if k == 0:
            return _lowest_ranked(legal, -1)  # lead the lowest card
        cur = row[0]
        for i in range(1, k):
            if beats(row[i], cur, trump):
                cur = row[i]
        led = row[0] >> 4
        if h & (LANE << np.uint64(16 * led)):
            under = np.uint64(0)
            x = legal
            while x:
                low = x & (~x + ONE)
                x ^= low
                c = low_index(low)
                if not beats(c, cur, trump):
                    under |= low
            if under:
                return high_index(under)  # duck with the highest card that loses
            return high_index(legal)  # forced to win: win high
        return _highest_ranked(legal)  # void: throw the highest card
    if k == 0:
        # cash a master (in the longest suit holding one), else lead low from the longest side suit
        best = -1
        blen = -1
        for s in range(4):
            x = lane(legal, s)
            if x:
                c = s * 16 + high_index(x)
                if _is_master(c, unseen) and popcount(x) > blen:
                    best = c
                    blen = popcount(x)
        if best >= 0:
            return best
        for s in range(4):
            x = lane(legal, s)
            if x and s != trump and popcount(x) > blen:
                best = s * 16 + low_index(x)
                blen = popcount(x)
        if best >= 0:
            return best
        return low_index(legal)
    cur = row[0]
    for i in range(1, k):
        if beats(row[i], cur, trump):
            cur = row[i]
    led = row[0] >> 4
    following = (h & (LANE << np.uint64(16 * led))) != 0
    winners = np.uint64(0)
    x = legal
    while x:
        low = x & (~x + ONE)
        x ^= low
        if beats(low_index(low), cur, trump):
            winners |= low
    if following:
        if winners:
            if k == 2:
                return low_index(winners)  # last: win as cheaply as possible
            top = high_index(winners)
            if _is_master(top, unseen):
                return lowest_master(winners, unseen)
        return low_index(legal)  # second hand low
    if trump >= 0 and winners:
        return low_index(winners)  # ruff (or over-ruff) as cheaply as possible
    # discard: the lowest side card, from the shortest suit on equal ranks
    best = -1
    for s in range(4):
        x = lane(legal, s)
        if x and s != trump:
            c = s * 16 + low_index(x)
            if (
                best < 0
                or (c & 15) < (best & 15)
                or ((c & 15) == (best & 15) and popcount(x) < popcount(lane(legal, best >> 4)))
            ):
                best = c
    if best >= 0:
        return best
    return low_index(legal)


@jit_inline
def lowest_master(x, unseen):
    """The lowest card of ``x`` (one suit) that no unseen card beats."""
    y = x
    while y:
        low = y & (~y + ONE)
        y ^= low
        c = low_index(low)
        if _is_master(c, unseen):
            return c
    return high_index(x)


@jit
def name_trump(h, strat, st_play):
    """Round 3 after seeing the hand (3(c)3): the longest suit, ties to more high-card points, then the
    higher suit index; random players pick a suit at random."""
    if strat == S_RANDOM:
        return rng.below(st_play, 4)
    best = 0
    bkey = -1
    for s in range(4):
        x = lane(h, s)
        key = popcount(x) * 100 + hcp(x) * 4 + s  # hcp of a lane: that suit's points
        if key > bkey:
            bkey = key
            best = s
    return best


@jit
def discard(h, n, trump, misere, strat, st_play):
    """The widow discard (3(c)5): ``n`` cards out of ``h``. Heuristic: the lowest side cards (highest cards in
    the misère round); random: uniformly."""
    out = np.uint64(0)
    for _ in range(n):
        if strat == S_RANDOM:
            c = nth_bit(h, rng.below(st_play, popcount(h)))
        elif misere:
            c = _highest_ranked(h)
        else:
            c = _lowest_ranked(h, trump)
            if c < 0:
                c = low_index(h)
        bit = ONE << np.uint64(c)
        h ^= bit
        out |= bit
    return h, out


#: choose_round's modes: what the chooser has seen when it picks a round type or contract
SEEN_NOTHING = 0  # free order, the choice made before the deal (round3_trump_timing = before_deal)
SEEN_HAND = 1  # free order, the dealer's 16 cards (round3_trump_timing = after_seeing_hand)
SEEN_WIDOW = 2  # Swedish: forehand's contract, from the 4 face-up cards alone


@jit
def choose_round(seen, remaining, mode, strat, st):
    """The round type (0..3) that a dealer (free order, 3(c)9) or forehand (the Swedish contract, 3(c)10) picks
    among ``remaining`` (bit r: type r not yet played in this cycle, at least one bit set), from the cards
    ``seen`` under ``mode`` (SEEN_*).

    Random players pick uniformly (no draw when one type is left). The others:

    * ``SEEN_NOTHING``: the lowest type left (a blind choice cannot use the cards, so any order is as good);
    * ``SEEN_HAND`` (16 cards; the dealer needs 8 tricks in rounds 1-3, and may take 6 in the misère round):
      round 4 with at most 9 high-card points (a hand averages 12.3), round 3 with a suit of 6 or more,
      round 1 with 15 points or more, round 2 with a suit of 5 or more; else the lowest type left;
    * ``SEEN_WIDOW`` (forehand takes the 4 cards into the hand): Pass with at most 1 point among them, Valfri
      with 3 cards of a suit or 2 holding 3 points or more, Spader with 2 spades, Spel with 6 points or more;
      else the lowest contract left.

    Each rule applies only while its type is left."""
    n = popcount(np.uint64(remaining))
    if strat == S_RANDOM:
        pick = rng.below(st, n) if n > 1 else 0
        for r in range(4):
            if (remaining >> r) & 1:
                if pick == 0:
                    return r
                pick -= 1
    lowest = 0
    while not (remaining >> lowest) & 1:
        lowest += 1
    if mode == SEEN_NOTHING:
        return lowest
    points = hcp(seen)
    longest = 0
    pair_points = False
    for s in range(4):
        k = popcount(lane(seen, s))
        longest = max(longest, k)
        pair_points |= k >= 2 and hcp(lane(seen, s)) >= 3  # hcp counts in any lane
    if mode == SEEN_HAND:
        if (remaining >> 3) & 1 and points <= 9:
            return 3
        if (remaining >> 2) & 1 and longest >= 6:
            return 2
        if remaining & 1 and points >= 15:
            return 0
        if (remaining >> 1) & 1 and longest >= 5:
            return 1
        return lowest
    if (remaining >> PASS) & 1 and points <= 1:
        return PASS
    if (remaining >> VALFRI) & 1 and (longest >= 3 or pair_points):
        return VALFRI
    if (remaining >> SPADER) & 1 and popcount(lane(seen, SPADES)) >= 2:
        return SPADER
    if (remaining >> SPEL) & 1 and points >= 6:
        return SPEL
    return lowest


# ---------------------------------------------------------------------------------------------------
# PIMC: sampling hidden cards consistent with what a seat has seen
# ---------------------------------------------------------------------------------------------------


@jit
def sample_hidden(unknown, void_a, void_b, n_a, n_b, st, ways, out):
    """Deal the ``unknown`` cards uniformly at random among hole A (``n_a`` cards), hole B (``n_b``) and the
    rest (out of play), given suits that A and B cannot hold (bit masks over suits). Exact: a dynamic
    programme over suits counts the consistent deals, and suits are split in proportion to those counts.
    Writes A's and B's cards to ``out[0]``, ``out[1]``; returns False if no deal is consistent.

    Everything it reads is what the deciding seat knows (the unknown set, the voids, the hand sizes)."""
    cnt = np.zeros(4, dtype=np.int64)
    for s in range(4):
        cnt[s] = popcount(lane(unknown, s))
    n_w = 0
    for s in range(4):
        n_w += cnt[s]
    n_w -= n_a + n_b
    if n_w < 0:
        return False
    # ways[s, a, b]: number of ways for suits s..3 to give exactly a cards to A and b to B (rest to the widow)
    for a in range(n_a + 1):
        for b in range(n_b + 1):
            ways[4, a, b] = 1.0 if (a == 0 and b == 0) else 0.0
    tot_after = 0
    for s in range(3, -1, -1):
        k = cnt[s]
        tot_after += k
        for a in range(n_a + 1):
            for b in range(n_b + 1):
                w = 0.0
                for x in range(min(a, k) + 1):
                    if x > 0 and (void_a >> s) & 1:
                        break
                    for y in range(min(b, k - x) + 1):
                        if y > 0 and (void_b >> s) & 1:
                            break
                        w += _binom(k, x) * _binom(k - x, y) * ways[s + 1, a - x, b - y]
                ways[s, a, b] = w
    if ways[0, n_a, n_b] <= 0.0:
        return False
    a = n_a
    b = n_b
    out[0] = np.uint64(0)
    out[1] = np.uint64(0)
    for s in range(4):
        k = cnt[s]
        u = rng.uniform(st) * ways[s, a, b]
        chosen_x = -1
        chosen_y = -1
        acc = 0.0
        for x in range(min(a, k) + 1):
            if x > 0 and (void_a >> s) & 1:
                break
            for y in range(min(b, k - x) + 1):
                if y > 0 and (void_b >> s) & 1:
                    break
                w = _binom(k, x) * _binom(k - x, y) * ways[s + 1, a - x, b - y]
                if w > 0.0:
                    chosen_x = x
                    chosen_y = y
                    acc += w
                    if u < acc:
                        break
            if u < acc:
                break
        x = chosen_x
        y = chosen_y
        # which cards: a uniformly random ordering of the suit's unknown cards, first x to A, next y to B
        cards = lane(unknown, s)
        for i in range(x + y):
            c = nth_bit(cards, rng.below(st, popcount(cards)))
            bit = ONE << np.uint64(c)
            cards ^= bit
            if i < x:
                out[0] |= bit << np.uint64(16 * s)
            else:
                out[1] |= bit << np.uint64(16 * s)
        a -= x
        b -= y
    return True


@jit_inline
def _binom(n, k):
    if k < 0 or k > n:
        return 0.0
    r = 1.0
    for i in range(k):
        r = r * (n - i) / (i + 1)
    return r


@jit
def solver_card(hands, p, leader, row, k, trump, must_trump, misere, ttk, ttg, bufs, cards, values, acc, nacc):
    """Double-dummy values (tricks of seat ``p``) of each legal card of ``p`` in the position ``hands``, added to
    ``acc`` (indexed by card); returns nothing. ``nacc`` counts the samples."""
    me = 1 << p
    maxteam = me if not misere else 7 ^ me
    played = np.zeros(4, dtype=np.int64)
    for i in range(k):
        played[i] = row[i]
    # np.int64(3), not 3: a literal compiles the solver's chain a second time (kernels/_jit.py)
    n = dd.card_values(
        hands, np.int64(3), trump, must_trump, leader, played, k, maxteam, me, ttk, ttg, bufs, cards, values
    )
    for i in range(n):
        acc[cards[i]] += values[i]
    nacc[0] += 1


@jit
def choose_card(
    strat,
    p,
    hands,
    leader,
    row,
    k,
    trump,
    misere,
    must_trump,
    unseen_of_p,
    voids,
    known_out,
    bv,
    st_play,
    ttk,
    ttg,
    bufs,
    ways,
    scratch,
):
    """The card of a solver player (S_PIMC or S_DD) at seat ``p``. ``unseen_of_p``: the cards p has not
    seen; ``voids[q]``: suits q showed out of. ``play_hand`` handles forced cards, random and heuristic play
    and the heuristic opening of the solver players."""
    h = hands[p]
    led = -1 if k == 0 else row[0] >> 4
    legal = legal_cards(h, led, trump, must_trump)
    acc = np.zeros(64, dtype=np.float64)
    nacc = np.zeros(1, dtype=np.int64)
    cards = np.zeros(16, dtype=np.int64)
    values = np.zeros(16, dtype=np.int64)
    if strat == S_DD:
        work = hands.copy()
        solver_card(work, p, leader, row, k, trump, must_trump, misere, ttk, ttg, bufs, cards, values, acc, nacc)
    else:
        a = (p + 1) % 3
        b = (p + 2) % 3
        n_a = popcount(hands[a])
        n_b = popcount(hands[b])
        unknown = unseen_of_p & ~known_out
        work = np.zeros(4, dtype=np.uint64)
        for _ in range(bv[V_SAMPLES]):
            if not sample_hidden(unknown, voids[a], voids[b], n_a, n_b, st_play, ways, scratch):
                continue
            work[p] = h
            work[a] = scratch[0]
            work[b] = scratch[1]
            solver_card(work, p, leader, row, k, trump, must_trump, misere, ttk, ttg, bufs, cards, values, acc, nacc)
    if nacc[0] == 0:
        return heuristic_card(h, legal, row, k, trump, misere, unseen_of_p)
    best = -1
    x = legal
    while x:
        low = x & (~x + ONE)
        x ^= low
        c = low_index(low)
        if best < 0 or (acc[c] > acc[best] if not misere else acc[c] < acc[best]):
            best = c
    return best


# ---------------------------------------------------------------------------------------------------
# A hand
# ---------------------------------------------------------------------------------------------------


@jit_inline
def deal_hand(st_deal, deck, hands, rtype, dealer, bv, strat, st_plays, out):
    """:func:`deal_round` for a given round type: returns (trump, known_out)."""
    rtype, trump, known_out = deal_round(st_deal, deck, hands, rtype, ALL_ROUNDS, dealer, bv, strat, st_plays, out)
    return trump, known_out


@jit_inline
def deal_round(st_deal, deck, hands, rtype, remaining, dealer, bv, strat, st_plays, out):
    """Shuffle, choose trumps (BM-5), deal 16 each (BM-2), the optional widow exchange. Returns
    (round type, trump, known_out): known_out = the round-2 indicator when it is out of play (public). The
    exchanging seat's discards are written to ``out[0]`` (known to it only). ``deck`` (52 ints) is laid out here:
    the card codes of :data:`DECK` in order, then shuffled (codes, not 0..51, so a hand is one shift a card and
    no division by 13).

    ``rtype < 0``: the round type is chosen among ``remaining`` (:func:`choose_round`). With the blog's rules
    (``fixed_round_order = false``, 3(c)9) the dealer chooses when it names round-3 trumps: before the deal,
    blind (``round3_trump_timing = before_deal``), or after seeing its hand. Swedish Bismarck (3(c)10): the 4
    leftover cards are face up, forehand (the dealer's left) chooses the contract from them (naming trumps in
    Valfri), takes them and discards 4."""
    deck[:] = DECK
    _shuffle_pack(st_deal, deck)
    trump = -1
    swedish = bv[V_RULESET] == 1
    fore = (dealer + 1) % 3
    leftover = np.uint64(0)  # the 4 cards left after the deal (Swedish: face up, the widow)
    for i in range(48, 52):
        leftover |= ONE << np.uint64(deck[i])
    if swedish:
        if rtype < 0:
            rtype = choose_round(leftover, remaining, SEEN_WIDOW, strat[fore], st_plays[fore])
        if rtype == SPADER:
            trump = SPADES
        elif rtype == VALFRI:
            trump = name_trump(leftover, strat[fore], st_plays[fore])
    elif bv[V_ROUND3] == 0:
        if rtype < 0:  # 3(c)9 with blind trumps: the round is chosen before the deal too
            rtype = choose_round(np.uint64(0), remaining, SEEN_NOTHING, strat[dealer], st_plays[dealer])
        if rtype == 2:
            # round 3: named by the dealer; blind (before the deal) is a draw from the dealer's own stream
            trump = rng.below(st_plays[dealer], 4)
    for j in range(3):  # 16 cards each, the dealer's left first (in a register, not memory)
        h = np.uint64(0)
        for i in range(16 * j, 16 * j + 16):
            h |= ONE << np.uint64(deck[i])
        hands[(dealer + 1 + j) % 3] = h
    if rtype < 0:  # 3(c)9, the dealer having seen its hand
        rtype = choose_round(hands[dealer], remaining, SEEN_HAND, strat[dealer], st_plays[dealer])
    known_out = np.uint64(0)
    if rtype == 1 and not swedish:
        if bv[V_ROUND2] == 0:
            c = deck[48]  # drawn blind from the leftover, shown, out
            trump = c >> 4
            known_out = ONE << np.uint64(c)
            leftover ^= known_out
        else:
            j = rng.below(st_deal, 52)  # cut from the pack, then dealt as usual
            trump = deck[j] >> 4
    if rtype == 2 and bv[V_ROUND3] == 1 and not swedish:
        trump = name_trump(hands[dealer], strat[dealer], st_plays[dealer])
    out[0] = np.uint64(0)
    if bv[V_WIDOW] != 0:
        ex = dealer if bv[V_WIDOW] == 1 else fore  # the dealer, or forehand (swedish)
        n = popcount(leftover)
        h, thrown = discard(hands[ex] | leftover, n, trump, rtype == 3, strat[ex], st_plays[ex])
        hands[ex] = h
        out[0] = thrown
    return rtype, trump, known_out


@jit_inline
def _random_follow(hands, p, led_lane, st_plays):
    """A random seat's card when ``led_lane`` (the led suit's lane mask; 0 on lead) was led: a uniform draw
    among the legal cards, following suit if able (BM-4)."""
    h = hands[p]
    f = h & led_lane
    legal = f if f != 0 else h
    c = nth_bit(legal, rng.pool_choice(st_plays[p], popcount(legal)))
    hands[p] = h ^ (ONE << np.uint64(c))
    return c


@jit_inline
def _random_tricks(hands, leader, trump, st_plays, rec, trace):
    """The 16 tricks (BM-4) of :func:`_play_hand` when all three seats play random legal cards and must-trump
    (3(c)6) is off: the same draws and cards, with the trick in registers and none of the bookkeeping the other
    players need (seen cards, voids): random hands ~1.15M -> ~1.23M/s back to back."""
    for t in range(16):
        p1 = leader + 1 if leader < 2 else 0
        p2 = p1 + 1 if p1 < 2 else 0
        c0 = _random_follow(hands, leader, np.uint64(0), st_plays)
        led_lane = LANE << np.uint64(c0 & 48)
        c1 = _random_follow(hands, p1, led_lane, st_plays)
        c2 = _random_follow(hands, p2, led_lane, st_plays)
        trace[3 * t] = c0
        trace[3 * t + 1] = c1
        trace[3 * t + 2] = c2
        leader = trick_winner_of(c0, c1, c2, leader, trump)
        rec[leader, H_TRICKS] += 1


def _play_hand(
    hands, dealer, rtype, trump, known_out, widow_out, strat, bv, st_plays, ttk, ttg, bufs, ways, scratch, rec, trace
):
    """Play 16 tricks (BM-4); ``rec[seat]`` gets tricks, score and hand features, ``trace`` the 48 cards in
    the order played (``trace[48:]`` is scratch space: the current trick and the seats' voids). ``widow_out``:
    the cards the widow exchange discarded, which only the exchanging seat knows (:func:`deal_round`)."""
    misere = rtype == 3
    must_trump = bv[V_MUST_TRUMP]
    exchanger = dealer if bv[V_WIDOW] != 2 else (dealer + 1) % 3  # who knows the discards
    for s in range(3):
        rec[s, H_TRICKS] = 0
        rec[s, H_HCP] = hcp(hands[s])
        rec[s, H_TRUMPS] = popcount(lane(hands[s], trump)) if trump >= 0 else -1
        v = 0
        for q in range(4):
            v += lane(hands[s], q) == 0
        rec[s, H_VOIDS] = v
    full = np.uint64(0)
    for s in range(4):
        full |= LANE << np.uint64(16 * s)
    sampling = False  # the voids are tracked only for sampling (PIMC) players, who read them
    solver = False
    for s in range(3):
        sampling |= strat[s] == S_PIMC
        solver |= strat[s] >= S_PIMC
        if strat[s] == S_RANDOM:  # random seats draw from pools: the same draws, computed ahead
            rng.pool_fill(st_plays[s])
    if solver:
        dd.clear_tt(ttk, ttg)  # the solver's entries of earlier hands (other deals) count as empty
    played = np.uint64(0)
    row = trace[48:52]
    voids = trace[52:55]
    voids[:] = 0
    leader = (dealer + 1) % 3
    n_played = 0
    if not must_trump and strat[0] == S_RANDOM and strat[1] == S_RANDOM and strat[2] == S_RANDOM:
        _random_tricks(hands, leader, trump, st_plays, rec, trace)
        n_played = 48  # the general loop below is skipped
    while n_played < 48:
        on_table = np.uint64(0)
        for k in range(3):
            p = (leader + k) % 3
            sp = strat[p]
            if must_trump:
                legal = legal_cards(hands[p], -1 if k == 0 else row[0] >> 4, trump, must_trump)
            else:
                legal = _follow(hands[p], row[0], k)
            n = popcount(legal)
            if sp == S_RANDOM:  # a forced card draws nothing, without a branch
                c = nth_bit(legal, rng.pool_choice(st_plays[p], n))
            elif n == 1:
                c = low_index(legal)
            else:
                seen = played | hands[p] | known_out | on_table
                if p == exchanger:
                    seen |= widow_out
                if sp == S_HEURISTIC or popcount(hands[p]) > bv[V_PIMC_FROM]:
                    c = heuristic_card(hands[p], legal, row, k, trump, misere, full & ~seen)
                else:
                    c = choose_card(
                        sp,
                        p,
                        hands,
                        leader,
                        row,
                        k,
                        trump,
                        misere,
                        must_trump,
                        full & ~seen,
                        voids,
                        known_out,
                        bv,
                        st_plays[p],
                        ttk,
                        ttg,
                        bufs,
                        ways,
                        scratch,
                    )
            on_table |= ONE << np.uint64(c)
            if sampling:  # showed out of the led suit (which cards those are is data)
                out_of_led = (k > 0) & ((c >> 4) != (row[0] >> 4))
                voids[p] |= np.int64(out_of_led) << (row[0] >> 4)
                if must_trump and trump >= 0 and out_of_led and (c >> 4) != trump:
                    voids[p] |= 1 << trump
            hands[p] ^= ONE << np.uint64(c)
            row[k] = c
            trace[n_played] = c
            n_played += 1
        w = trick_winner(row, leader, trump)
        rec[w, H_TRICKS] += 1
        played |= on_table
        leader = w
    for s in range(3):
        role = (s - dealer) % 3
        rec[s, H_SCORE] = hand_score(rtype, role, rec[s, H_TRICKS], bv)
        if strat[s] == S_RANDOM:
            rng.pool_commit(st_plays[s])


#: A hand as a called kernel (paired runs, tests), and inlined into the serial simulation loop, where the
#: call's reference counting of a dozen arrays is a measurable share of a hand (docs/performance.md;
#: inlining it into the parallel loops themselves made their compilation minutes longer).
play_hand = jit(_play_hand)
_play_hand_inline = jit_inline(_play_hand)


@jit_inline
def _record_hand(row, rec, dealer, rtype, bv):
    for s in range(3):
        role = (s - dealer) % 3
        b = (rtype * 3 + role) * ROLE_FIELDS
        t = rec[s, H_TRICKS]
        sc = rec[s, H_SCORE]
        row[b + R_N] += 1
        row[b + R_TRICKS] += t
        row[b + R_TRICKS_SQ] += t * t
        row[b + R_SCORE] += sc
        row[b + R_SCORE_SQ] += sc * sc
        row[b + R_MADE] += made_quota(rtype, role, t, bv)
        row[b + R_HIST + t] += 1
        f = BASE_FEAT + rtype * FEAT_FIELDS
        hb = f + 3 * min(rec[s, H_HCP], N_HCP - 1)
        row[hb] += 1
        row[hb + 1] += t
        row[hb + 2] += t * t
        if rec[s, H_TRUMPS] >= 0:
            tb = f + 3 * N_HCP + 3 * rec[s, H_TRUMPS]
            row[tb] += 1
            row[tb + 1] += t
            row[tb + 2] += t * t
        vb = f + 3 * (N_HCP + 17) + 3 * rec[s, H_VOIDS]
        row[vb] += 1
        row[vb + 1] += t
        row[vb + 2] += t * t


@jit
def new_solver_state(strat):
    """Solver tables for a chunk: a real transposition table only where some seat uses the solver."""
    big = False
    for s in range(strat.shape[0]):
        if strat[s] >= S_PIMC:
            big = True
    ttk, ttg = dd.new_tt(18 if big else 1)
    bufs = dd.new_buffers()
    ways = np.zeros((5, 17, 17), dtype=np.float64)
    scratch = np.zeros(2, dtype=np.uint64)
    return ttk, ttg, bufs, ways, scratch


@jit
def _chunk_buffers():
    """Per-chunk buffers: hands, deck, per-seat records, trace (+ scratch), the dealer's discards, the deal
    stream and the three seats' streams."""
    return (
        np.zeros(4, dtype=np.uint64),
        np.zeros(52, dtype=np.int64),
        np.zeros((3, H_FIELDS), dtype=np.int64),
        np.zeros(56, dtype=np.int64),
        np.zeros(1, dtype=np.uint64),
        rng.new_state(),
        np.zeros((3, rng.STATE_SIZE), dtype=np.uint64),
    )


@pjit
def simulate_chunks(chunk_ids, chunk_size, n_trials, key0, key1, strat, unit_game, round_type, bv, out):
    """Each trial: one game (``unit_game``: 12 hands, 4, or to a target; BM-7) or one hand of
    ``round_type`` (0..3) with a random dealer."""
    for ci in prange(chunk_ids.shape[0]):
        c = chunk_ids[ci]
        start = c * chunk_size
        stop = min(start + chunk_size, n_trials)
        _simulate_range(start, stop, key0, key1, strat, unit_game, round_type, bv, out[ci])


@jit
def _simulate_range(start, stop, key0, key1, strat, unit_game, round_type, bv, row):
    """Trials ``start .. stop-1`` of :func:`simulate_chunks` into one count row (a serial loop, with the hand
    inlined: :func:`_simulate_loop`)."""
    _simulate_loop(
        start,
        stop,
        key0,
        key1,
        strat,
        unit_game,
        round_type,
        bv,
        row,
        new_solver_state(strat),
        _chunk_buffers(),
        np.zeros(3, dtype=np.int64),
        np.zeros(3, dtype=np.int64),
    )


@jit
def _simulate_loop(start, stop, key0, key1, strat, unit_game, round_type, bv, row, solver, bufs, totals, remaining):
    """:func:`_simulate_range`'s loop, on borrowed views of the arguments: no reference counting in the loop
    (kernels._jit.borrowed). ``remaining[seat]``: the round types (Swedish: contracts) a seat has still to choose
    in its cycle, where the round type is chosen (3(c)9, 3(c)10): each is chosen once a cycle."""
    strat, bv, row, solver, bufs, totals, remaining = borrowed((strat, bv, row, solver, bufs, totals, remaining))
    chosen = unit_game != 0 and (bv[V_FREE_ORDER] == 1 or bv[V_RULESET] == 1)
    ttk, ttg, dd_bufs, ways, scratch = solver
    hands, deck, rec, trace, dout, st_deal, st_plays = bufs
    for t in range(start, stop):
        rng.seed_state(st_deal, key0, key1, np.uint64(t), np.uint64(rng.STREAM_DEAL))
        for s in range(3):
            rng.seed_state(st_plays[s], key0, key1, np.uint64(t), np.uint64(rng.STREAM_STRATEGY + s))
        first = rng.below(st_deal, 3)
        totals[:] = 0
        remaining[:] = ALL_ROUNDS
        n_hands = 1 if unit_game == 0 else (12 if bv[V_LENGTH] == 0 else (4 if bv[V_LENGTH] == 1 else MAX_HANDS))
        for h in range(n_hands):
            if unit_game == 0:
                dealer, rtype = first, round_type  # one hand of the chosen round, a random dealer
            else:
                dealer, rtype = schedule(first, h, bv)
            # where the round type is chosen, the chooser (Swedish: forehand) picks it among those it has left
            chooser = (dealer + 1) % 3 if bv[V_RULESET] == 1 else dealer
            rtype, trump, known = deal_round(
                st_deal, deck, hands, -1 if chosen else rtype, remaining[chooser], dealer, bv, strat, st_plays, dout
            )
            if chosen:
                remaining[chooser] ^= 1 << rtype
                if remaining[chooser] == 0:
                    remaining[chooser] = ALL_ROUNDS
            _play_hand_inline(
                hands,
                dealer,
                rtype,
                trump,
                known,
                dout[0],
                strat,
                bv,
                st_plays,
                ttk,
                ttg,
                dd_bufs,
                ways,
                scratch,
                rec,
                trace,
            )
            _record_hand(row, rec, dealer, rtype, bv)
            for s in range(3):
                totals[s] += rec[s, H_SCORE]
            if bv[V_LENGTH] == 2 and max(totals[0], max(totals[1], totals[2])) >= bv[V_TARGET]:
                break
        if unit_game != 0:
            _record_game(row, totals, first)


@jit
def _record_game(row, totals, first):
    """Game results by seat *relative to the first dealer* (0 = first dealer, 1 = left, 2 = right)."""
    top = max(totals[0], max(totals[1], totals[2]))
    n_top = 0
    for s in range(3):
        if totals[s] == top:
            n_top += 1
    for s in range(3):
        rel = (s - first) % 3
        b = BASE_GAME + rel * G_FIELDS
        if totals[s] == top:
            if n_top == 1:
                row[b] += 1
            else:
                row[b + 1] += 1
        row[b + 2] += totals[s]
        row[b + 3] += totals[s] * totals[s]
        hb = BASE_HIST + rel * SCORE_BINS + min(max(totals[s] - SCORE_LO, 0), SCORE_BINS - 1)
        row[hb] += 1
    row[BASE_GAME + 3 * G_FIELDS] += 1


@pjit
def compare_chunks(chunk_ids, chunk_size, n_trials, key0, key1, field, challenger, round_type, bv, out):
    """Paired: each trial is one hand of ``round_type`` dealt once and played three more times, once with
    each seat switched from ``field`` to ``challenger`` (the others stay on ``field``). Per role of the
    switching seat: n, field tricks, challenger tricks, sum and sum of squares of the trick difference, and the
    same for the score. The deal (with the dealer's widow discard and blind trump) is made once, by the field
    strategy; the switch is in the card play."""
    for ci in prange(chunk_ids.shape[0]):
        c = chunk_ids[ci]
        start = c * chunk_size
        stop = min(start + chunk_size, n_trials)
        _compare_range(start, stop, key0, key1, field, challenger, round_type, bv, out[ci])


@jit
def _compare_range(start, stop, key0, key1, field, challenger, round_type, bv, row):
    """:func:`compare_chunks`' trials ``start .. stop-1`` into one count row: a serial function of its own, as in the
    other kernels. With the trials inlined into the prange loop, numba found "more than one entry to or exit
    from the loop" and ran the chunks one at a time (a NumbaPerformanceWarning); the deal's unrolled shuffle,
    whose deck-size check can raise, is the likely second exit."""
    ttk, ttg, bufs, ways, scratch = new_solver_state(np.array([field, challenger], dtype=np.int64))
    hands, deck, rec, trace, dout, st_deal, st_plays = _chunk_buffers()
    dealt = np.zeros(4, dtype=np.uint64)
    base_rec = np.zeros((3, H_FIELDS), dtype=np.int64)
    strat = np.zeros(3, dtype=np.int64)
    for t in range(start, stop):
        rng.seed_state(st_deal, key0, key1, np.uint64(t), np.uint64(rng.STREAM_DEAL))
        dealer = rng.below(st_deal, 3)
        for s in range(3):
            rng.seed_state(st_plays[s], key0, key1, np.uint64(t), np.uint64(rng.STREAM_STRATEGY + s))
            strat[s] = field
        trump, known = deal_hand(st_deal, deck, dealt, round_type, dealer, bv, strat, st_plays, dout)
        for sw in range(-1, 3):
            for s in range(3):
                rng.seed_state(st_plays[s], key0, key1, np.uint64(t), np.uint64(rng.STREAM_STRATEGY + s))
                strat[s] = challenger if s == sw else field
            for s in range(3):
                hands[s] = dealt[s]
            play_hand(
                hands,
                dealer,
                round_type,
                trump,
                known,
                dout[0],
                strat,
                bv,
                st_plays,
                ttk,
                ttg,
                bufs,
                ways,
                scratch,
                rec,
                trace,
            )
            if sw < 0:
                base_rec[:, :] = rec
                continue
            role = (sw - dealer) % 3
            b = role * 8
            dt = rec[sw, H_TRICKS] - base_rec[sw, H_TRICKS]
            dsc = rec[sw, H_SCORE] - base_rec[sw, H_SCORE]
            row[b] += 1
            row[b + 1] += base_rec[sw, H_TRICKS]
            row[b + 2] += rec[sw, H_TRICKS]
            row[b + 3] += dt
            row[b + 4] += dt * dt
            row[b + 5] += base_rec[sw, H_SCORE]
            row[b + 6] += dsc
            row[b + 7] += dsc * dsc
