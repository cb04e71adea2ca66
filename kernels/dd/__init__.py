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
  ``RHO_HONOUR``, ``SEQ_LEAD``, ``LHO_TOP_PARTNER_SECOND``); with 3 hands the lone seat and the pair lead by
  weights of their own, and bridge in no trumps by its own base weights, each tuned on the search's node counts
  (``SOLO_*``, ``PAIR_*``, ``NT_*``); following, a sure winner (cheapest first), then a winner that can
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

The package by concern: :mod:`.cards`, :mod:`.table` (the transposition table), :mod:`.bounds` (quick and
sure trump tricks), :mod:`.moves` (generation and ordering), :mod:`.cutoffs`, :mod:`.search`, :mod:`.solve`
(the entry points). This module re-exports what the Bismarck kernels, the analysis layer, the tests and the
benchmarks use.
"""

from __future__ import annotations

from .bounds import _fewer_quick, _quick_tricks, _rounds, _side_rounds, _trump_tricks
from .cards import LANE, ONE, beats, lane, legal_cards, trick_winner_pos
from .cutoffs import _runs_short, _second_hand
from .search import STAT_NODES, Buffers, new_buffers
from .solve import (
    at_least,
    card_values,
    card_values_3,
    card_values_4,
    card_values_near,
    first_guess,
    solve,
    solve_3,
    solve_4,
    solve_near,
)
from .table import _store, clear_tt, new_tt

__all__ = [
    "LANE",
    "ONE",
    "STAT_NODES",
    "Buffers",
    "_fewer_quick",
    "_quick_tricks",
    "_rounds",
    "_runs_short",
    "_second_hand",
    "_side_rounds",
    "_store",
    "_trump_tricks",
    "at_least",
    "beats",
    "card_values",
    "card_values_3",
    "card_values_4",
    "card_values_near",
    "clear_tt",
    "first_guess",
    "lane",
    "legal_cards",
    "new_buffers",
    "new_tt",
    "solve",
    "solve_3",
    "solve_4",
    "solve_near",
    "trick_winner_pos",
]
