"""Double-dummy solver for plain trick-taking (whist, Bismarck, bridge): 3 or 4 hands, all visible.

Cards are ``suit * 16 + rank`` (rank 0 = 2 .. 12 = A; suits 0..3 = C D H S), a hand is a uint64 set, so
the cards of one suit are one 16-bit lane. ``trump`` is a suit index or -1 for no trumps.

The game value is the number of future tricks won by the *count* side (a bit set of seats) when the *max*
side (a bit set) tries to make it large and everybody else tries to make it small:

- most tricks a player can take against two defenders: ``maxteam = countteam = {player}``;
- fewest tricks a player can be held to in a misère round: ``countteam = {player}``, ``maxteam`` = the others
  (they try to push tricks on the player, who ducks);
- bridge: ``maxteam = countteam = {0, 2}`` or ``{1, 3}``.

Method (what good bridge solvers do, kept small):

- null-window searches "can the max side make at least ``t``?" (boolean alpha-beta), and a search on ``t``
  around them (down from all the tricks left with 3 hands, binary with 4: :func:`solve`);
- a transposition table at trick boundaries keyed by *relative ranks*: each suit's remaining cards are
  renumbered from the top, so positions that differ only by cards already played share one entry; the entry
  keeps a lower and an upper bound on the value, and is valid for any deal with the same trump, sides and
  rules, so it is shared across the searches of one solve and across solves (PIMC samples); an entry is one
  cache line, and :func:`clear_tt` empties the table at no cost (a new generation);
- equivalent cards (touching once the played cards are removed) are tried once;
- move ordering: on lead, suits in which the other side holds few cards first (fewer replies: a smaller
  tree), masters, then low cards to a partner's master, and with 4 hands the killer lead first (the last
  lead that cut the search at that depth), and in bridge no trumps three terms from DDS (``PARTNER_VOID``,
  ``RHO_HONOUR``, ``SEQ_LEAD``); following, a sure winner (cheapest first), then a winner that can
  still be beaten (as a low card if a hand still to play must top it), low when a partner still to play tops
  the trick, over a partner's card that an opponent still to play could beat the cheapest card no such
  opponent can beat, discards from long suits; duck in misère;
- cut-offs on arriving at a trick: quick tricks (the rounds of a suit the leader wins from the top, with the
  others following low: top sequences, cards left on top by a falling honour, long cards; capped by ruffing
  opponents' lengths; in bridge also a partner's, reached by an entry: :func:`_quick_tricks`), sure trump
  tricks for either side (a hand's top i trumps take i minus the other side's trumps above its i-th:
  :func:`_trump_tricks`), a trick the leader's
  side cannot win, and, when the leader's side needs every trick left, too few suits whose top card it holds
  (``_runs_short``); mid-trick, a trick one side surely takes, when the count side needs one more trick or
  all that are left, and in no trumps at the second hand, that trick and the winner's rounds after it
  (:func:`_second_hand`). At a trick boundary these come before the table probe (their relevant cards
  generalise better than a stored entry's), and the probed bucket is prefetched while
  they run.
  Each keeps only the cards its bound needs (``_fewer_quick``, ``_trump_tricks``, ``_fewer_tops``), so stored
  bounds fit more positions.

Speed per node: the search loop works on borrowed views of its buffers (``kernels._jit.borrowed``), so numba
counts no references in it (those atomic operations were a large share of the time). The table lies on huge pages
where the platform gives them (:func:`new_tt`): a probe at a random place in 64 MiB had missed the TLB.

The search is compiled for a constant hand count (``numba.literally``; :func:`at_least` calls a form for 3
hands and one for 4), so its loops over the hands unroll.

Compile time: helpers called at two places are compiled functions, not inlined (``_quick_tricks``,
``_takes_trick``), and so is the long walk of ``_trump_tricks``. Every figure behind these choices (nodes,
time, compile time) is in docs/performance.md; how to profile the compiled code, docs/profiling.md.
"""

from __future__ import annotations

import numba
import numpy as np

from ._jit import HUGE_PAGE, advise_huge, borrowed, jit, jit_inline, prefetch
from .bits import FAST_PDEP, compress, expand, high_index, low_index, popcount  # noqa: F401  (re-exported for bismarck)

LANE = np.uint64(0x1FFF)
MAX_DEPTH = 68  # cards in a position: 4 x 16 at most, plus slack
MAX_TRICKS = 18
ONE = np.uint64(1)
# hash multipliers (odd 64-bit constants)
H0 = np.uint64(0x9E3779B97F4A7C15)
H1 = np.uint64(0xC2B2AE3D27D4EB4F)
H4 = np.uint64(0xFF51AFD7ED558CCD)


@jit_inline
def _seat(a, nh):
    """``a % nh`` for ``0 <= a < 2 * nh`` (a seat a few places after another), without a division: the
    divisions by the run-time hand count took ~5% of a 3x16 solve (perf, by source line)."""
    return a - nh if a >= nh else a


@jit_inline
def lane(h, s):
    """The 13-bit rank set of suit ``s`` in hand ``h``."""
    return (h >> np.uint64(16 * s)) & LANE


@jit_inline
def beats(c, best, trump):
    """Whether card ``c`` beats the card ``best`` that is winning the trick so far (BM-4)."""
    cs = c >> 4
    bs = best >> 4
    if cs == bs:
        return c > best
    return cs == trump


@jit_inline
def trick_winner_pos(row, nh, trump, at=0):
    """Position (0 = leader) of the card that wins a complete trick ``row[at:at + nh]`` (or is winning the
    first ``nh`` cards of one)."""
    best = row[at]
    pos = 0
    for i in range(1, nh):
        if beats(row[at + i], best, trump):
            best = row[at + i]
            pos = i
    return pos


@jit_inline
def legal_cards(h, led, trump, must_trump):
    """Legal cards from hand ``h`` when suit ``led`` was led (-1: on lead): follow suit if able (BM-4);
    with ``must_trump`` a void player holding trumps must trump (3(c)6)."""
    if led < 0:
        return h
    f = h & (LANE << np.uint64(16 * led))
    if f:
        return f
    if must_trump and trump >= 0:
        t = h & (LANE << np.uint64(16 * trump))
        if t:
            return t
    return h


# buckets of 64 entries (an entry is a cache line): against 32, 3x16 nodes -5% (41 deals) and -9% (the 9 deals the
# bench used to time), time likewise; bridge and 3x13 within 0.5%; 128 searched fewer nodes but took longer
BUCKET_BITS = 6
# tricks left from which the bucket key has each suit's three top owners, not two. With buckets of 64, 11 against
# 9 on three sets of 3x16 deals (41, 25, 41): total nodes -1.6%, +4.1%, -2.6%; median nodes -10%, -3%, -5.6%
DEEP_KEY = 11
# move-ordering weights (_gen_moves; scores: a master led ~100 + rank, a low lead ~20 - rank). Measured on
# 3x13/3x16/bridge deals by nodes searched: LEAD_LEN_W from 6 to 40 all helped, 16-40 a plateau; the others
# moved nodes by a few per cent to ~15%, within a plateau around these values. ALLY_TOP 60 -> 90 once the cut-offs
# kept fewer cards (nodes, two sets of 40 deals each): bridge -4.3%, -5.8%; 3x16 -2.6%, -4.8% (the bench's 201:
# -2.2%). 150 did better on bridge (-10%, -6%) but not on 3x16 (+2%, -7.5%); 40: +3% and +4%.
LEAD_LEN_W = 20  # on lead: per card the other side holds in the suit (a void: the hand size + 1)
DISC_W = 4  # following with another suit: per card of that suit held (discard from length)
ALLY_TOP = 90  # on lead: a low card to a partner's top card (other low cards: 20; a master: 100 + rank)
OVERTAKEN = 50  # following: a card that wins now but an opponent still to play can beat (sure: 100)
# following, a card that wins now but that a hand still to play must top (its lowest card of the suit is higher)
# is ordered as a low card (DDS's "card can make no difference"): the bench's 201 3x16 deals -3% nodes (median deal
# -10%), bridge +1% and -3% on two sets of 40 (median deal -2%, -7%). A bonus for a card heading a sequence (split
# honours) instead: bridge -3%, 3x16 +4% (40 deals each)
# bridge in no trumps, on lead (from DDS's WeightAllocNT0): a suit in which the partner is void; a suit in which the
# right-hand opponent (who plays last) holds the top or second card and more than one card; the second-highest
# card of the suit from a sequence below an opponent's top card (K from K Q against the A). 200 bridge deals (5
# sets of 40): nodes -9.2% in all, the geometric mean of the per-deal ratio 0.928 (se 0.017), fewer nodes on 72% of
# the deals. Tried beside them as bonuses and not kept (each within 1% on those deals): the LHO holding the second
# card of a suit we top, the partner holding the 2nd and 3rd cards, the LHO's top card with the partner's second,
# an opponent's singleton top card, the second card on our side; a killer bonus of 200 (+4% nodes); killers at the
# 2nd-4th hands (x2.4 nodes with a bonus of 30)
PARTNER_VOID = 40
RHO_HONOUR = 40
SEQ_LEAD = 60
BUCKET = 1 << BUCKET_BITS
# by hand count: whether quick tricks also count a partner's rounds (:func:`_side_rounds`). With 3 hands (two
# defenders) the bench's 201 3x16 deals searched 1.4% fewer nodes but took 5% longer
SIDE_QT = (False, False, False, False, True)


GEN_SHIFT = np.uint64(32)  # an entry's generation sits above its meta (which takes 24 bits)
META_BITS = np.uint64(0xFFFFFFFF)


@jit
def new_tt(log2size):
    """A transposition table of ``2**log2size`` entries in buckets of ``BUCKET``, and its state (the current
    generation). An entry is one 64-byte row, aligned to a cache line: the suit lengths of every hand; meta
    (sides, trump, rules, leader) with the generation it was stored in; a mask of relative ranks (per suit the
    top k); the owners of those top cards (one relative-rank mask per hand); and the bound (type << 8 | value;
    type 0: value >= b, 1: value <= b). Entries of another generation count as empty (:func:`clear_tt`).

    A table of 4 MiB or more is aligned to a huge page and asks for huge pages before its memory is first
    touched (:func:`kernels._jit.advise_huge`): a probe lands on a random page, and with 4 KiB pages nearly
    every probe missed the TLB (docs/performance.md)."""
    n = max(1 << log2size, BUCKET)
    big = n * 64 >= 2 * HUGE_PAGE
    align = HUGE_PAGE if big else 64
    raw = np.empty(n * 8 + align // 8, dtype=np.uint64)
    off = ((align - (raw.ctypes.data & (align - 1))) & (align - 1)) >> 3
    if big:
        advise_huge(raw.ctypes.data + off * 8, n * 64)
    keys = raw[off : off + n * 8].reshape((n, 8))
    keys[:] = 0
    state = np.ones(1, dtype=np.uint64)
    return keys, state


@jit
def clear_tt(ttk, ttg):
    """Empty the table at no cost: a new generation, so every stored entry counts as empty (zeroing the table,
    ``ttk[:] = 0``, also empties it)."""
    ttg[0] += ONE
    if ttg[0] >= np.uint64(1 << 31):
        ttk[:] = 0
        ttg[0] = ONE


@jit
def new_buffers():
    moves = np.zeros((MAX_DEPTH, 16), dtype=np.int64)
    scores = np.zeros((MAX_DEPTH, 16), dtype=np.int64)
    keybuf = np.zeros((MAX_DEPTH, 4), dtype=np.uint64)
    tricks = np.zeros(MAX_TRICKS * 4, dtype=np.int64)  # trick t's cards at 4t .. 4t + 3
    stats = np.zeros(4, dtype=np.int64)  # nodes, tt hits, quick-trick cut-offs, searches
    stack = np.zeros((MAX_DEPTH, 13), dtype=np.int64)
    stack[:, 12] = -1  # per depth, the lead that last cut the search there
    relevant = np.zeros(MAX_DEPTH, dtype=np.uint64)
    skipped = np.zeros(MAX_DEPTH, dtype=np.uint64)
    return moves, scores, keybuf, tricks, stats, stack, relevant, skipped


@jit_inline
def _tops(allh):
    """Per suit with ``n`` cards left, the top ``n`` of its 13 ranks: where the relative ranks of those cards lie."""
    tops = np.uint64(0)
    for s in range(4):
        n = np.uint64(popcount(lane(allh, s)))
        tops |= ((ONE << n) - ONE) << np.uint64(16 * s + 13 - n)
    return tops


@jit_inline
def _rel_key(hands, nh, out, d):
    """Relative-rank form of the hands: in each suit the remaining cards renumbered from the top (A = 12): a
    hand's cards gathered at the positions of every remaining card (``compress``), then laid down at the top
    ``n`` ranks of each suit that has ``n`` cards left (``expand``). Where ``pdep``/``pext`` are fast that is two
    instructions a hand (against a compress a suit: 3x16 time -2.5%, same nodes); elsewhere a loop a suit."""
    allh = np.uint64(0)
    for p in range(nh):
        allh |= hands[p]
    if FAST_PDEP:
        tops = _tops(allh)
        for p in range(4):
            out[d, p] = expand(compress(hands[p], allh), tops) if p < nh else np.uint64(0)
        return
    for i in range(4):
        out[d, i] = np.uint64(0)
    for s in range(4):
        x = lane(allh, s)
        shift = np.uint64(16 * s + 13 - popcount(x))
        for p in range(nh):
            out[d, p] |= compress(lane(hands[p], s), x) << shift


@jit_inline
def _lengths_key(hands, nh):
    bits = 5 if nh == 3 else 4
    key = np.uint64(0)
    for p in range(nh):
        for s in range(4):
            key |= np.uint64(popcount(lane(hands[p], s))) << np.uint64((p * 4 + s) * bits)
    return key


TOP1 = np.uint64(0x1000100010001000)  # the top relative rank of every suit
TOP2 = np.uint64(0x1800180018001800)  # the top two
TOP3 = np.uint64(0x1C001C001C001C00)  # the top three


@jit_inline
def _top_owners(rel, d, nh):
    """With 3 hands, who holds the highest and the second-highest remaining card of each suit, and with
    ``DEEP_KEY`` tricks or more left the third-highest too; with 4 hands (bridge), who holds the highest: each
    hand's top relative ranks, shifted apart (a card has one owner, so the value names them all). Bit tests per
    hand and suit had cost 3x16 5-10% of its time.

    With 4 hands the top owner alone: a stored bound is found by more positions (entries whose cards leave a
    suit's second card free), and the buckets of 64 do not thrash as they do with 3 hands. 40 bridge deals
    (concurrent runs): nodes -17%, time -15%; buckets of 128 or 256 gave the same nodes, no faster; the
    lengths alone (no owners) +13% nodes against the top owner."""
    if nh == 4:
        top = TOP1
    else:
        top = TOP3 if popcount(rel[d, 0]) >= DEEP_KEY else TOP2
    sig = np.uint64(0)
    for p in range(nh):
        sig |= (rel[d, p] & top) >> np.uint64(3 * p)
    return sig


@jit_inline
def _bucket(lenkey, meta, rel, d, nh, mask):
    """The bucket of a position: its suit lengths, meta and the owners of each suit's top cards. A stored
    bound whose cards leave one of those free is found only under the owners it was stored with (fewer hits,
    never a wrong one). Keying on the lengths alone put every position of a length pattern into one bucket,
    which thrashed: on 21 deals of 3x13, 23.3M nodes with length keys and the first slot always replaced,
    10.1M with the slot to replace picked from the position, 6.1M with the two top owners in the key and
    buckets of 32. How many top owners pays depends on the depth: the top owner alone gave fewer nodes on
    3x13 and bridge deals but thrashed on 3x16 (9 deals: 35M -> 140M nodes); three top owners once 9 tricks
    or more are left took 3x16 from 35M to 26M nodes, with 3x13 and bridge deals within 1.5% (buckets of 32;
    with 64, from 11 tricks: ``DEEP_KEY``). With 4 hands the top owner alone pays (:func:`_top_owners`)."""
    h = lenkey * H0 + meta * H4 + _top_owners(rel, d, nh) * H1
    h ^= h >> np.uint64(29)
    h *= H1
    return np.int64((h >> np.uint64(32)) & mask) & ~np.int64(BUCKET - 1)


@jit_inline
def _top_cards(allh, topmask):
    """The absolute cards that the relative-rank mask ``topmask`` (per suit the top k) stands for."""
    if FAST_PDEP:
        # relative ranks are the remaining cards in order, suit by suit, laid at the top of each suit
        return expand(compress(topmask, _tops(allh)), allh)
    out = np.uint64(0)
    for s in range(4):
        k = popcount(lane(topmask, s))
        if k == 0:
            continue
        x = lane(allh, s)
        n = popcount(x)
        while n > k:
            x &= x - ONE
            n -= 1
        out |= x << np.uint64(16 * s)
    return out


@jit_inline
def _probe(ttk, i, lenkey, meta, rel, d, nh, need):
    """A stored bound in bucket ``i`` that decides "value >= need" for this position (``meta`` with the
    generation): (1, its topmask) or (0, topmask); (-1, 0) if none."""
    gen = meta >> GEN_SHIFT
    for j in range(i, i + BUCKET):
        m = ttk[j, 1]
        if (m >> GEN_SHIFT) != gen:
            break  # a bucket fills from its first slot and never empties: none further
        if m != meta or ttk[j, 0] != lenkey:
            continue
        tm = ttk[j, 2]
        ok = True
        for p in range(nh - 1):  # the last hand's are the rest: tm's cards are present and have one owner
            if (rel[d, p] & tm) != ttk[j, 3 + p]:
                ok = False
                break
        if not ok:
            continue
        b = np.int64(ttk[j, 7])
        if b < 256:
            if b >= need:
                return 1, tm
        elif (b & 255) < need:
            return 0, tm
    return -1, np.uint64(0)


@jit_inline
def _store(ttk, lenkey, meta, rel, d, nh, allh, relevant, typ, bound, mask):
    """Store "value >= bound" (typ 0) or "value <= bound" (typ 1) for every position with these suit lengths
    and the same owners of the cards at or above the lowest relevant card of each suit."""
    topmask = np.uint64(0)
    for s in range(4):
        r = lane(relevant, s)
        if r == 0:
            continue
        low = r & (~r + ONE)
        k = popcount(lane(allh, s) & ~(low - ONE))
        topmask |= (((ONE << np.uint64(k)) - ONE) << np.uint64(13 - k)) << np.uint64(16 * s)
    i = _bucket(lenkey, meta & META_BITS, rel, d, nh, mask)
    gen = meta >> GEN_SHIFT
    # the entry to replace in a full bucket: a slot picked from the position (always the same slot thrashed;
    # keeping the entries with most tricks left kept stale ones from earlier solves and searched more nodes)
    x = (rel[d, 0] ^ (rel[d, 1] * H0) ^ (rel[d, 2] * H1) ^ (rel[d, 3] * H4)) * H0
    victim = i + np.int64(x >> np.uint64(64 - BUCKET_BITS))
    for j in range(i, i + BUCKET):
        if (ttk[j, 1] >> GEN_SHIFT) != gen:
            victim = j
            break
        b = np.int64(ttk[j, 7])
        if ttk[j, 0] == lenkey and ttk[j, 1] == meta and ttk[j, 2] == topmask and (b >> 8) == typ:
            same = True
            for p in range(nh):
                if ttk[j, 3 + p] != (rel[d, p] & topmask):
                    same = False
                    break
            if same:
                if (typ == 0 and bound > (b & 255)) or (typ == 1 and bound < (b & 255)):
                    ttk[j, 7] = np.uint64((typ << 8) | bound)
                return
    ttk[victim, 0] = lenkey
    ttk[victim, 1] = meta
    ttk[victim, 2] = topmask
    for p in range(4):
        ttk[victim, 3 + p] = (rel[d, p] & topmask) if p < nh else np.uint64(0)
    ttk[victim, 7] = np.uint64((typ << 8) | bound)


@jit
def _quick_tricks(hands, nh, trump, must_trump, leader, maxteam, want):
    """Tricks the leader can cash at once, leading a suit round after round from the top. Every other hand
    follows suit while it can (BM-4), and its best defence is to play its lowest cards and keep its top card:
    so the leader's r-th highest card wins the r-th round when it beats the top card of every other hand that
    holds r cards or more of the suit (a shorter holding has run out). The rounds count while they are won:
    a top sequence, then cards that an opponent's falling honour leaves on top (A K J 9 7 against Q 4 and
    T 5 3: five tricks; the top sequence alone counted two), then long cards. A partner counts as another
    hand (its top card above the leader's would take the lead away). Capped in a side suit by the length of
    every opponent who could ruff (with ``must_trump``, of every other player holding trumps: a partner forced
    to ruff takes the lead away); capped rounds are followed by every possible ruffer, so nobody who could
    ruff a later suit discards on the way. Returns (tricks, the cards used: per suit the leader's cards of the
    rounds that had another hand's card to beat, which is all the ranks the count rests on: the rest is
    lengths). With more than ``want`` tricks the cards are only those that ``want`` tricks rest on
    (:func:`_fewer_quick`); with fewer, ``info`` (per suit 8 bits: the tricks counted) lets a partner's
    rounds join them (:func:`_side_rounds`). Returns (tricks, cards, info). Against the top sequence alone:
    bridge nodes -22%, 3x16 -14% (40 deals each)."""
    q, used, info = _rounds(hands, nh, trump, must_trump, leader, maxteam)
    if q > want:
        used = _fewer_quick(used, info, want)
    return q, used, info


@jit
def _rounds(hands, nh, trump, must_trump, leader, maxteam):
    """:func:`_quick_tricks` before trimming (it rests on following suit and the trick's winner, BM-4): (tricks,
    the cards used, per suit 8 bits: the tricks counted)."""
    side = (maxteam >> leader) & 1
    q = 0
    used = np.uint64(0)
    info = 0  # per suit, 8 bits: the tricks counted (the top cards they use are used's)
    for s in range(4):
        mine = lane(hands[leader], s)
        if mine == 0:
            continue
        # a hand of n cards of the suit whose top card is below the leader's a highest ones stops the rounds
        # after the a-th if a < n (its top card is still there then), and never otherwise
        t = popcount(mine)  # rounds won
        longest = 0
        for o in range(nh):
            if o != leader:
                lo = lane(hands[o], s)
                if lo:
                    n = popcount(lo)
                    a = popcount(mine >> np.uint64(high_index(lo) + 1))
                    if a < n:
                        t = min(t, a)
                    longest = max(longest, n)
        top = min(t, longest)  # the rounds that had another hand's card to beat
        if t and trump >= 0 and s != trump:
            for o in range(nh):
                if o != leader and (must_trump or ((maxteam >> o) & 1) != side) and lane(hands[o], trump) != 0:
                    lo = popcount(lane(hands[o], s))
                    if lo < t:
                        t = lo
        if t:
            x = mine
            n = popcount(mine)
            keep = min(t, top)
            while n > keep:  # the cards of the rounds that beat another hand's
                x &= x - ONE
                n -= 1
            used |= x << np.uint64(16 * s)
            info |= t << (8 * s)
        q += t
    return q, used, info


@jit
def _side_rounds(hands, nh, trump, must_trump, leader, q, maxteam, used_l, info_l):
    """Quick tricks of the leader and a partner ``q`` together: the leader cashes its rounds (``used_l``,
    ``info_l``: :func:`_rounds`) in some suits, then leads a suit in which the partner's first round is won
    (an entry: its top card, and nobody can ruff it), and the partner cashes its rounds in the others, each
    suit counted for whichever of the two wins more rounds in it, at most a trick a card. Sound for the same
    reasons as the leader's own rounds: the partner keeps the cards of its rounds and plays its others to the
    leader's rounds, which the cap on the count leaves enough of (the leader cashing fewer); opponents who
    could ruff follow every capped round, so they discard nothing (and keep the entry's suit); other discards
    only shorten holdings, which stops no round. Returns (tricks, the cards used) or (0, 0) without an
    entry."""
    qp, used_p, info_p = _rounds(hands, nh, trump, must_trump, q, maxteam)
    tot = 0
    used = np.uint64(0)
    entry = False
    for s in range(4):
        tl = (info_l >> (8 * s)) & 255
        tp = (info_p >> (8 * s)) & 255
        if tp > tl:
            tot += tp
            used |= used_p & (LANE << np.uint64(16 * s))
            if lane(hands[leader], s):
                entry = True
        else:
            tot += tl
            used |= used_l & (LANE << np.uint64(16 * s))
    if not entry:
        return 0, np.uint64(0)
    # the partner keeps the cards of its rounds and plays others to the leader's: so at most a trick a card
    # (the leader then cashes fewer rounds)
    return min(tot, popcount(hands[leader])), used


@jit
def _fewer_quick(used, info, want):
    """Of the quick tricks' cards ``used`` (per suit: the top cards of the tricks that ``info`` counts), the
    fewest that still make ``want`` tricks: suits taken whole, at most one of them in part (its top cards; the
    long cards count only with every card used). Every relevant card kept is one more owner that a
    stored bound asks of a position, and one more rank below which small cards are not equivalent."""
    best_cost = 99
    best_sub = 15
    best_u = -1
    best_r = 0
    for sub in range(16):
        tr = 0
        cost = 0
        for s in range(4):
            if (sub >> s) & 1:
                tr += (info >> (8 * s)) & 255
                cost += popcount(lane(used, s))
        if tr >= want:
            if cost < best_cost:
                best_cost, best_sub, best_u, best_r = cost, sub, -1, 0
            continue
        r = want - tr
        for u in range(4):
            if not (sub >> u) & 1 and ((info >> (8 * u)) & 255) > r:
                c = cost + min(r, popcount(lane(used, u)))
                if c < best_cost:
                    best_cost, best_sub, best_u, best_r = c, sub, u, r
    out = np.uint64(0)
    for s in range(4):
        x = lane(used, s)
        if (best_sub >> s) & 1:
            out |= x << np.uint64(16 * s)
        elif s == best_u:
            n = popcount(x)
            keep = min(best_r, n)
            while n > keep:  # its top cards: the lowest go
                x &= x - ONE
                n -= 1
            out |= x << np.uint64(16 * s)
    return out


@jit
def _trump_tricks(hands, nh, trump, side, want1, want0):
    """Trump tricks a side must take, whoever leads and however everyone plays. Every card is played by the
    end, one a trick from each hand, and a trick with a trump in it goes to its highest trump (BM-4): so a
    hand's i-th highest trump loses only to a higher trump of the other side played to the same trick, and
    each such card beats one of them at most; the hand's top i trumps take at least i minus the other side's
    trumps above its i-th (a partner's trump above it wins that trick for the side too). The best of that over
    a side's hands and i is a lower bound on its tricks: the top unbroken sequence of the side that holds the
    top trump is one case; a guarded second trump (K x against a lone A) is another, for either side.

    Walks the trumps from the top and returns, at the first card where it holds: (1, the trumps walked) when
    ``side``'s bound reaches ``want1``; (0, the trumps walked) when the other seats' reaches ``want0``; (-1, 0)
    when neither does. A position with the same suit lengths and owners of the trumps walked has the same
    bound (the cards walked are its top trumps)."""
    t = np.uint64(0)
    for p in range(nh):
        t |= lane(hands[p], trump)
    cnt = 0  # per hand, 8 bits: its trumps walked
    ours = 0  # trumps of ``side`` walked, and of the other seats
    theirs = 0
    x = t
    while x:
        b = ONE << np.uint64(high_index(x))
        x ^= b
        for p in range(nh):  # (no break once the owner is found: the unrolled test of every hand ran 3x16 6% faster)
            if lane(hands[p], trump) & b:
                cnt += 1 << (8 * p)
                mine = (cnt >> (8 * p)) & 255
                if (side >> p) & 1:
                    ours += 1
                    if mine - theirs >= want1:
                        return 1, (t & ~(b - ONE)) << np.uint64(16 * trump)
                else:
                    theirs += 1
                    if mine - ours >= want0:
                        return 0, (t & ~(b - ONE)) << np.uint64(16 * trump)
    return -1, np.uint64(0)


@jit_inline
def _gen_moves(hands, nh, trump, must_trump, row, at, k, p, maxteam, countteam, out, sc, skipped, d, killer):
    """Candidate cards for seat ``p`` (one per group of equivalent cards), best-first, into ``out``;
    ``skipped[d]`` gets the cards left out as equivalent to a higher card of the same seat. The trick so far is
    ``row[at:at + k]``; the moves go to ``out[d]``, their scores to ``sc[d]``. With 4 hands, a lead of
    ``killer`` (the last lead at this depth that cut the search) comes first: bridge nodes -21% and -19% on two
    sets of 40 deals (medians -1%, -5%); with 3 hands it searched more (the bench's 3x16 deals: +9% nodes with a
    small bonus, far more when first). Bridge leads in no trumps also weigh ``PARTNER_VOID``, ``RHO_HONOUR`` and
    ``SEQ_LEAD``."""
    h = hands[p]
    led = -1 if k == 0 else row[at] >> 4
    legal = legal_cards(h, led, trump, must_trump)
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
    misere = maxteam != countteam
    mine = (maxteam >> p) & 1
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
        if k == 0 and trump >= 0 and s != trump and not misere:
            # leading into a void: an opponent who can ruff discourages the suit, a partner who can encourages it
            for q in range(nh):
                if q != p and lane(hands[q], s) == 0 and lane(hands[q], trump) != 0:
                    lead_bonus += 30 if ((maxteam >> q) & 1) == mine else -30
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
                    lead_bonus -= LEAD_LEN_W * (ln if ln else popcount(h) + 1)
        seq_lead = np.uint64(0)
        if nh == 4 and k == 0 and trump < 0 and not misere:
            lp = lane(hands[_seat(p + 2, nh)], s)
            lr = lane(hands[_seat(p + 3, nh)], s)
            a1 = ONE << np.uint64(high_index(allp))  # the suit's top card, and its second
            rest = allp ^ a1
            a2 = (ONE << np.uint64(high_index(rest))) if rest else np.uint64(0)
            if lp == 0:
                lead_bonus -= PARTNER_VOID
            if (lr & (a1 | a2)) and popcount(lr) != 1:
                lead_bonus -= RHO_HONOUR
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
                    score = -r
                elif beats(c, best, trump):
                    score = -100 + r
                else:
                    score = r
            elif k == 0:
                score = (100 + r if top else (ALLY_TOP - r if ally_top else 20 - r)) + lead_bonus
            elif ally_tops:
                score = -r - (50 if (s == trump and s != led) else 0)
            elif ally_winning and not threat:
                score = -r - (50 if (s == trump and s != led) else 0)
            elif ally_winning:
                # a partner's card is winning and an opponent still to play could beat it: cover with a card no
                # opponent still to play can beat (the cheapest), else play low. Against covering only with the
                # suit's top card: bridge nodes -10.0%, -8.7%, -7.1% (three sets of 40), 3x16 +0.2%, -1.8%
                secure = s == led and (top or (not opp_ruff and r > opp_hi))
                score = (40 - r if secure else -r) - (50 if (s == trump and s != led) else 0)
            elif beats(c, best, trump):
                if s == led and r < floor:
                    score = -r  # a hand still to play must follow above it: it cannot win
                elif s == led and (opp_ruff or r < opp_hi):
                    score = OVERTAKEN - r  # an opponent still to play can beat it
                else:
                    # a sure winner, the cheapest first. A bonus of 30 for the suit's top card had put A before
                    # J from A J over a king played second (a finesse: the ace taken, the king wins later); without
                    # it, nodes on three sets of 40 bridge deals -18.6%, -11.8%, -13.8% (median deal -17.5%, -3.9%,
                    # -6.6%), on 80 and 40 3x16 deals -21.1%, -29.3% (median -7.4%, -13.0%)
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


@jit
def _takes_trick(hands, nh, trump, row, at, k, leader, side):
    """Whether the seats of ``side`` take the current trick (BM-4), ``row[at:at + k]`` played (k >= 1),
    however everybody plays: their best card of the led suit tops every card the others can still play to it
    and nobody else can ruff, or they have ruffed and nobody else can overruff, or one of them can ruff and
    nobody else can. Returns (1, the card whose rank that rests on, or 0) or (0, 0)."""
    ss = row[at] >> 4
    bp = trick_winner_pos(row, k, trump, at)  # the card winning so far
    best = row[at + bp]
    ours = (side >> _seat(leader + bp, nh)) & 1
    cross = trump >= 0 and ss != trump
    if cross and (best >> 4) == trump:
        # ruffed: sure if it is ours and no one else still to play can overruff (a player of the led suit
        # must follow, BM-4)
        if not ours:
            return 0, np.uint64(0)
        for j in range(k, nh):
            q = _seat(leader + j, nh)
            if not (side >> q) & 1 and lane(hands[q], ss) == 0:
                t = lane(hands[q], trump)
                if t and high_index(t) > (best & 15):
                    return 0, np.uint64(0)
        return 1, ONE << np.uint64(best)
    top = best if ours else -1
    theirs = -1 if ours else best
    we_ruff = False
    for j in range(k, nh):
        q = _seat(leader + j, nh)
        f = lane(hands[q], ss)
        if (side >> q) & 1:
            if f:
                top = max(top, ss * 16 + high_index(f))
            elif cross and lane(hands[q], trump):
                we_ruff = True
        elif f:
            theirs = max(theirs, ss * 16 + high_index(f))
        elif cross and lane(hands[q], trump):
            return 0, np.uint64(0)  # they can ruff
    if top > theirs:
        return 1, ONE << np.uint64(top)
    if we_ruff:
        return 1, np.uint64(0)
    return 0, np.uint64(0)


@jit
def _second_hand(hands, nh, row, at, k, leader, side, wants):
    """Whether the seats of ``side`` take ``wants`` tricks from here, in no trumps, mid-trick (BM-4): they surely
    take this one (:func:`_takes_trick`), and the hand that wins it, on lead, then cashes the rest (its rounds,
    :func:`_rounds`, counted with the cards of the hands still to play to this trick: they lose one card each
    first, which stops no round). DDS has such a cut-off for the second hand (QuickTricksSecondHand). Bridge
    nodes -10% (40 deals), time -5% (3 concurrent pairs); also at the third and fourth hands it saved 14% of
    the nodes but cost 30% more time; tried for a side needing any number of tricks it saved 1.5% more nodes
    than for one needing 3 or fewer, and cost more time. Returns (1, the cards it rests on) or (0, 0)."""
    ok, rel = _takes_trick(hands, nh, -1, row, at, k, leader, side)
    if not ok or not rel:
        return 0, np.uint64(0)
    hh = -1  # the winner: the holder of the card it rests on, or the seat that played it
    held = np.uint64(0)
    for q in range(nh):
        if hands[q] & rel:
            hh = q
            held = rel
    if hh < 0:
        for i in range(k):
            if ONE << np.uint64(row[at + i]) == rel:
                hh = _seat(leader + i, nh)
    hands[hh] ^= held
    qn, used, info = _rounds(hands, nh, -1, 0, hh, side)  # (no trumps: no ruffer, so no side to ask)
    hands[hh] ^= held
    if 1 + qn >= wants:
        return 1, rel | used
    return 0, np.uint64(0)


@jit_inline
def _loses_lead(hands, nh, trump, leader, side):
    """Whether the leader's side (``side``, the leader among it) loses the trick it leads however it plays (BM-4): in
    every suit the leader holds, the top card is the other side's, and in a side suit no partner of the leader
    can ruff it. Returns (1, the top cards it rests on) or (0, 0)."""
    allh = np.uint64(0)
    for p in range(nh):
        allh |= hands[p]
    rel = np.uint64(0)
    for s in range(4):
        if lane(hands[leader], s) == 0:
            continue
        topbit = ONE << np.uint64(16 * s + high_index(lane(allh, s)))
        for q in range(nh):
            if (side >> q) & 1:
                if hands[q] & topbit:
                    return 0, np.uint64(0)
                if trump >= 0 and s != trump and q != leader and lane(hands[q], s) == 0 and lane(hands[q], trump):
                    return 0, np.uint64(0)
        rel |= topbit
    return 1, rel


@jit_inline
def _runs_short(hands, nh, trump, side, remaining):
    """Whether the seats of ``side`` (the leader among them) fail to take every one of the ``remaining``
    tricks. Taking them all, they lead every trick, and never a suit whose top card the other side holds (its
    holder, following suit, may play it and win the trick: BM-4); each trick led in a suit takes a card of it
    from every hand of the side that holds one. So they take at most, in each suit whose top card they hold,
    as many tricks as their longest hand in it. With trumps left this holds for a side of one seat only (a
    partner may ruff a lead).
    Returns (1, the other side's top cards it rests on: those the bound needs, :func:`_fewer_tops`) or (0, 0).
    DDS has the same bound in no trumps ("later tricks"). Measured on the node counts of the bench deals:
    3x16 -16%, bridge -18%, 3x13 -12%."""
    if trump >= 0 and side & (side - 1):
        for p in range(nh):
            if lane(hands[p], trump):
                return 0, np.uint64(0)
    allh = np.uint64(0)
    for p in range(nh):
        allh |= hands[p]
    room = 0
    lens = 0  # per suit, 8 bits: the side's longest hand in a suit whose top card it lacks
    rel = np.uint64(0)
    for s in range(4):
        x = lane(allh, s)
        if x == 0:
            continue
        topbit = ONE << np.uint64(16 * s + high_index(x))
        longest = 0
        ours = False
        for q in range(nh):
            if (side >> q) & 1:
                longest = max(longest, popcount(lane(hands[q], s)))
                if hands[q] & topbit:
                    ours = True
        if ours:
            room += longest
        else:
            rel |= topbit
            lens |= longest << (8 * s)
    if room < remaining:
        return 1, _fewer_tops(rel, lens, room, remaining)
    return 0, np.uint64(0)


@jit
def _fewer_tops(rel, lens, room, remaining):
    """Of the other side's top cards ``rel`` that :func:`_runs_short` rests on, those that keep the bound: a
    suit may go free (a position with the same lengths may give its top card to the side: at most the side's
    longest hand in it, ``lens``, more tricks), the shortest first."""
    for ln in range(14):
        for s in range(4):
            if lane(rel, s) and ((lens >> (8 * s)) & 255) == ln:
                if room + ln >= remaining:
                    return rel
                room += ln
                rel &= ~(LANE << np.uint64(16 * s))
    return rel


@jit_inline
def _enter(
    hands,
    nh,
    trump,
    must_trump,
    leader,
    k,
    won,
    target,
    maxteam,
    countteam,
    meta0,
    ttk,
    tmask,
    key,
    stats,
    relevant,
    d,
    row,
    at,
):
    """Cut-offs on arriving at a node: 1 (the max side makes it), 0 (it does not), or -1 (search on). When
    decided, ``relevant[d]`` gets the cards whose ranks the decision rests on (partition search)."""
    stats[0] += 1
    relevant[d] = np.uint64(0)
    allseats = (1 << nh) - 1
    if k != 0:
        # mid-trick: a trick that one side surely takes decides it when the count side needs one more trick,
        # or every trick left (both sides want tricks: not in a misère goal, where nobody does)
        if maxteam != countteam:
            return -1
        need = target - won
        if need == 1:
            ok, rel = _takes_trick(hands, nh, trump, row, at, k, leader, countteam)
            if ok:
                stats[2] += 1
                relevant[d] = rel
                return 1
        elif need == popcount(hands[leader]) + 1:
            ok, rel = _takes_trick(hands, nh, trump, row, at, k, leader, allseats & ~countteam)
            if ok:
                stats[2] += 1
                relevant[d] = rel
                return 0
        elif trump < 0 and k == 1:
            # second hand, no trumps: a side that surely takes this trick and then cashes enough rounds
            left = popcount(hands[leader]) + 1
            for x in range(2):
                wants = need if x == 0 else left - need + 1
                if wants <= 3:
                    ok, rel = _second_hand(
                        hands, nh, row, at, k, leader, countteam if x == 0 else allseats & ~countteam, wants
                    )
                    if ok:
                        stats[2] += 1
                        relevant[d] = rel
                        return 1 - x
        return -1
    remaining = popcount(hands[leader])
    if won >= target:
        return 1
    if won + remaining < target:
        return 0
    need = target - won
    _rel_key(hands, nh, key, d)
    meta = meta0 | np.uint64(leader)
    lenkey = _lengths_key(hands, nh)
    bucket = _bucket(lenkey, meta & META_BITS, key, d, nh, tmask)
    # the table is probed after the cut-offs below: its memory on the way meanwhile. A probe reads 6-9 slots of
    # the bucket (bridge 8.6, 3x16 6.4 on average), a cache line each: eight are asked for (the hardware brings
    # each line's neighbour). Against two: the per-deal fastest of 3 alternating runs, summed, bridge -6.4%, -6.7%,
    # 3x16 -7.9%, -2.0%
    for j in range(0, 8, 2):
        prefetch(ttk, bucket + j)
    # the leader's side surely loses the trick it leads: decides it when the count side needs one more trick
    # (leading from the other side) or every trick left (leading itself)
    counting = (countteam >> leader) & 1
    if maxteam == countteam and ((need == 1 and not counting) or (need == remaining and counting)):
        side = countteam if counting else allseats & ~countteam
        ok, rel = _loses_lead(hands, nh, trump, leader, side)
        if not ok:
            ok, rel = _runs_short(hands, nh, trump, side, remaining)
        if ok:
            stats[2] += 1
            relevant[d] = rel
            return 1 - counting
    if maxteam == countteam:
        # quick tricks: the leader's, and in bridge the leader's and a partner's together (``SIDE_QT``)
        side = (maxteam >> leader) & 1
        # the tricks that decide it: ``need`` for the max side on lead, one more than it can spare otherwise
        want = need if side else remaining - need + 1
        qt, used, info = _quick_tricks(hands, nh, trump, must_trump, leader, maxteam, want)
        if qt < want and SIDE_QT[nh]:
            for q in range(nh):
                if q == leader or ((maxteam >> q) & 1) != side:
                    continue
                # every card of both hands' rounds (the entry's among them): not fewer
                qt2, used2 = _side_rounds(hands, nh, trump, must_trump, leader, q, maxteam, used, info)
                if qt2 > qt:
                    qt, used = qt2, used2
        if qt >= need if side else remaining - qt < need:
            stats[2] += 1
            relevant[d] = used
            return side
        if trump >= 0:
            # sure trump tricks, whoever leads: enough for the max side, or for the other side to hold it below
            who, cards = _trump_tricks(hands, nh, trump, maxteam, need, remaining - need + 1)
            if who >= 0:
                stats[2] += 1
                relevant[d] = cards
                return who
    v, tm = _probe(ttk, bucket, lenkey, meta, key, d, nh, need)
    if v >= 0:
        stats[1] += 1
        allh = np.uint64(0)
        for p in range(nh):
            allh |= hands[p]
        relevant[d] = _top_cards(allh, tm)
        return v
    return -1


@jit
def _search(
    hands,
    nh,
    trump,
    must_trump,
    leader0,
    k0,
    target,
    maxteam,
    countteam,
    meta0,
    ttk,
    tmask,
    moves,
    scores,
    keybuf,
    tricks,
    stats,
    st,
    relevant,
    skipped,
):
    """Whether the max side can make the count side win at least ``target`` tricks: a boolean alpha-beta
    search written as a loop over an explicit stack (numba cannot cache recursive functions). ``st`` holds,
    per depth: leader, trick number, cards in the trick, tricks won, move index, move count, result, whether
    the node was searched (not decided on arrival), per suit the rank below which cards are not tried, and
    the killer lead (kept from search to search);
    ``relevant[d]`` the cards whose ranks the result at depth d rests on. Arriving at a node, searching it
    and storing its result each happen at one place in the loop (each is inlined once: compile time). The
    buffers are used as borrowed views: no reference counting on them in the loop."""
    numba.literally(nh)  # compiled once for 3 hands and once for 4 (see at_least)
    hands, ttk, moves, scores, keybuf, tricks, stats, st, relevant, skipped = borrowed(
        (hands, ttk, moves, scores, keybuf, tricks, stats, st, relevant, skipped)
    )
    d = 0
    st[0, 0] = leader0
    st[0, 1] = 0
    st[0, 2] = k0
    st[0, 3] = 0
    entering = True
    going_down = False
    v = 0
    while True:
        if entering:
            entering = False
            leader = st[d, 0]
            k = st[d, 2]
            v = _enter(
                hands,
                nh,
                trump,
                must_trump,
                leader,
                k,
                st[d, 3],
                target,
                maxteam,
                countteam,
                meta0,
                ttk,
                tmask,
                keybuf,
                stats,
                relevant,
                d,
                tricks,
                4 * st[d, 1],
            )
            st[d, 7] = 0
            if v < 0:
                q = _seat(leader + k, nh)
                st[d, 5] = _gen_moves(
                    hands,
                    nh,
                    trump,
                    must_trump,
                    tricks,
                    4 * st[d, 1],
                    k,
                    q,
                    maxteam,
                    countteam,
                    moves,
                    scores,
                    skipped,
                    d,
                    st[d, 12],
                )
                st[d, 4] = 0
                st[d, 6] = 1 - ((maxteam >> q) & 1)
                st[d, 7] = 1
                for j in range(8, 12):
                    st[d, j] = 0
                going_down = True
            else:
                going_down = False
            continue
        if going_down:
            leader = st[d, 0]
            t = st[d, 1]
            k = st[d, 2]
            i = st[d, 4]
            while i < st[d, 5] and (moves[d, i] & 15) < st[d, 8 + (moves[d, i] >> 4)]:
                i += 1  # a small card that a tried small card of its suit stands for
            if i < st[d, 5]:
                p = _seat(leader + k, nh)
                c = moves[d, i]
                st[d, 4] = i + 1
                hands[p] ^= ONE << np.uint64(c)
                tricks[4 * t + k] = c
                if k == nh - 1:
                    w = _seat(leader + trick_winner_pos(tricks, nh, trump, 4 * t), nh)
                    nl, nt, nk, nw = w, t + 1, 0, st[d, 3] + ((countteam >> w) & 1)
                else:
                    nl, nt, nk, nw = leader, t, k + 1, st[d, 3]
                d += 1
                st[d, 0] = nl
                st[d, 1] = nt
                st[d, 2] = nk
                st[d, 3] = nw
                entering = True
                continue
            # every move tried without a cut: the node keeps its default, resting on all children, and on the
            # ranks that made the skipped cards equivalent to the ones tried
            v = st[d, 6]
            if skipped[d]:
                relevant[d] = _with_skipped(hands, nh, tricks, 4 * t, k, relevant[d], skipped[d])
            going_down = False
            continue
        # going up with value v from depth d: a searched node at a trick boundary stores its result first
        if st[d, 7] and st[d, 2] == 0:
            leader = st[d, 0]
            need = target - st[d, 3]
            allh = np.uint64(0)
            for q in range(nh):
                allh |= hands[q]
            _store(
                ttk,
                _lengths_key(hands, nh),
                meta0 | np.uint64(leader),
                keybuf,
                d,
                nh,
                allh,
                relevant[d],
                1 - v,
                np.int8(need if v else need - 1),
                tmask,
            )
        if d == 0:
            return v == 1
        rel_child = relevant[d]
        d -= 1
        leader = st[d, 0]
        k = st[d, 2]
        p = _seat(leader + k, nh)
        if k == nh - 1:
            # the move completed a trick: the winner's rank counted if a card of its suit lost to it
            at = 4 * st[d, 1]
            wp = trick_winner_pos(tricks, nh, trump, at)
            wc = tricks[at + wp]
            for j in range(nh):
                if j != wp and (tricks[at + j] >> 4) == (wc >> 4):
                    rel_child |= ONE << np.uint64(wc)
                    break
        hands[p] |= ONE << np.uint64(moves[d, st[d, 4] - 1])
        is_max = (maxteam >> p) & 1
        if (is_max and v == 1) or (not is_max and v == 0):
            st[d, 6] = v
            if k == 0:
                st[d, 12] = moves[d, st[d, 4] - 1]  # the killer lead at this depth
            st[d, 4] = st[d, 5]  # cut: no more moves here; the result rests on this child alone
            relevant[d] = rel_child
            continue  # going up from d (storing it first if at a trick boundary)
        relevant[d] |= rel_child
        # one small card a suit: once a card below every relevant rank of its suit has failed, the other cards
        # of that suit below those ranks give the same result (they differ only in cards no result rests on)
        c = moves[d, st[d, 4] - 1]
        cs = c >> 4
        if st[d, 8 + cs] == 0:
            r = lane(relevant[d], cs)
            low = low_index(r) if r else 16
            if (c & 15) < low:
                st[d, 8 + cs] = low
        going_down = True


@jit_inline
def _meta(nh, trump, must_trump, maxteam, countteam):
    return np.uint64(((trump + 1) << 4) | (maxteam << 8) | (countteam << 12) | (must_trump << 16) | (nh << 20))


@jit
def at_least(hands, nh, trump, must_trump, leader, played, k, target, maxteam, countteam, ttk, ttg, bufs):
    """Whether the count side takes at least ``target`` of the remaining tricks (the current one included)
    with the max side maximising. ``played[:k]`` are the cards already in the current trick, led by
    ``leader``."""
    moves, scores, keybuf, tricks, stats, stack, relevant, skipped = bufs
    for i in range(k):
        tricks[i] = played[i]
    stats[3] += 1
    tmask = np.uint64(ttk.shape[0] - 1)
    meta = _meta(nh, trump, must_trump, maxteam, countteam) | (ttg[0] << GEN_SHIFT)
    # the search is compiled for a constant hand count: its loops over the hands unroll (docs/performance.md)
    if nh == 3:
        return _search(
            hands,
            3,
            trump,
            must_trump,
            leader,
            k,
            target,
            maxteam,
            countteam,
            meta,
            ttk,
            tmask,
            moves,
            scores,
            keybuf,
            tricks,
            stats,
            stack,
            relevant,
            skipped,
        )
    if nh != 4:
        raise ValueError("the double-dummy solver takes 3 or 4 hands")
    return _search(
        hands,
        4,
        trump,
        must_trump,
        leader,
        k,
        target,
        maxteam,
        countteam,
        meta,
        ttk,
        tmask,
        moves,
        scores,
        keybuf,
        tricks,
        stats,
        stack,
        relevant,
        skipped,
    )


@jit
def solve(hands, nh, trump, must_trump, leader, played, k, maxteam, countteam, ttk, ttg, bufs):
    """The game value: tricks of the count side from here (the current trick included), exactly.

    Each search asks "can the count side make t?". The searches that cost are those near the value (the proof
    at it and the failure one above are always needed); those far from it are cheap. With 3 hands the searches
    go down from all the tricks left: a single seat's value is small beside them, the failures above it are
    cheap, and the one proof comes last. Nodes against a binary search on t: 3x16 -7.5% (41 deals), -10% (9 of
    them) and -3.5% (12 others), 3x13 -1%. With 4 hands (bridge) they step one trick at a time from just above
    half the tricks (7 of 13): against a binary search, which spends two more searches near the value, -5%,
    -2% and -1.5% nodes on three sets of 40 deals (median deal -11%, -8%, -3%); a start at 5, 6 or 8 did worse,
    and so did going down from all the tricks (2% and 12% more than the binary search)."""
    remaining = popcount(hands[_seat(leader + k, nh)])
    guess = remaining if nh == 3 else remaining // 2 + 1
    return solve_near(hands, nh, trump, must_trump, leader, played, k, maxteam, countteam, ttk, ttg, bufs, guess)


@jit
def solve_near(hands, nh, trump, must_trump, leader, played, k, maxteam, countteam, ttk, ttg, bufs, guess):
    """:func:`solve` starting from a guess: steps up or down one trick at a time (cheap when the guess is
    close, as when the value of a position is known and a child is at most a little worse)."""
    remaining = popcount(hands[_seat(leader + k, nh)])
    g = min(max(guess, 0), remaining)
    if g > 0 and not at_least(hands, nh, trump, must_trump, leader, played, k, g, maxteam, countteam, ttk, ttg, bufs):
        g -= 1
        while g > 0 and not at_least(
            hands, nh, trump, must_trump, leader, played, k, g, maxteam, countteam, ttk, ttg, bufs
        ):
            g -= 1
        return g
    while g < remaining and at_least(
        hands, nh, trump, must_trump, leader, played, k, g + 1, maxteam, countteam, ttk, ttg, bufs
    ):
        g += 1
    return g


@jit
def card_values(
    hands, nh, trump, must_trump, leader, played, k, maxteam, countteam, ttk, ttg, bufs, out_cards, out_values
):
    """For the seat to play, every legal card (all of them, equivalent ones included) and the value of the
    position after it. Returns the number of cards."""
    p = _seat(leader + k, nh)
    led = -1 if k == 0 else played[0] >> 4
    legal = legal_cards(hands[p], led, trump, must_trump)
    base = solve(hands, nh, trump, must_trump, leader, played, k, maxteam, countteam, ttk, ttg, bufs)
    n = 0
    x = legal
    while x:
        low = x & (~x + ONE)
        x ^= low
        c = low_index(low)
        hands[p] ^= low
        played[k] = c
        if k == nh - 1:
            pos = trick_winner_pos(played, nh, trump)
            w = _seat(leader + pos, nh)
            gained = (countteam >> w) & 1
            # np.int64(0), not 0: a literal compiles the chain down to the search again (kernels/_jit.py)
            v = gained + solve_near(
                hands, nh, trump, must_trump, w, played, np.int64(0), maxteam, countteam, ttk, ttg, bufs, base - gained
            )
        else:
            v = solve_near(
                hands, nh, trump, must_trump, leader, played, k + 1, maxteam, countteam, ttk, ttg, bufs, base
            )
        hands[p] |= low
        out_cards[n] = c
        out_values[n] = v
        n += 1
    return n
