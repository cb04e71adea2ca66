"""Bismarck records and reviews (``cardlab record`` / ``cardlab review``; ``../shared/design/positions.md``, the
event vocabulary in ``seeds/bismarck.md``).

A **record** is one hand (BM-2 .. BM-6): the ``dealer``, the ``round``, the ``trumps``, every seat's ``hands`` as
play begins (after any widow exchange), the card ``shown`` in round 2, the exchanging seat's ``discards`` and
the ``events``: the 48 cards in the order played (``{"seat": S, "play": "AS"}``). A whole hand's record may
leave ``hands`` out: each seat's cards are then the ones it played. Loading replays it under BM-4
(the seat to play, a card it holds, following suit, must-trump) and refuses the first illegal event in one line
naming its index and rule.

A **review** takes, at each card of a seat, only what that seat knew (its own cards, the tricks so far in order,
the current trick, the shown card, its own discards: :func:`position_at`), runs the advisor on it (the record's
players by default) and reports the card played against the best, what the
choice cost in round score (``loss_score``) and in the chance to make the quota (``loss_win``), with 95%
intervals, beside the double-dummy value of every card on the *actual* layout (``dd_taken``, ``dd_best``: the
tricks the seat takes from there with every hand seen, DDS's AnalysePlay view): a card that loses a trick on
the actual layout while being the best on what the seat knew is bad luck, not an error.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any

import numpy as np
import pandas as pd

from kernels import bismarck as K
from kernels import dd as DD

from .. import __version__
from ..driver import compile_note, split_seed
from ..errors import CardlabError
from ..review import check_shape, judge, review_models
from ..review import result as review_result
from ..review import sections as review_sections
from ..review import summary as review_summary
from ..review import win_figure as review_figure
from ..tables import Result
from .bismarck import (
    DECK,
    DEFAULT_STRATEGY,
    GAME,
    PIMC_FROM,
    PIMC_SAMPLES,
    SUITS,
    check_misere_search,
    expect_dd,
    labels,
    player_array,
    round_index,
    rules,
    seat_strategies,
    uses_solvers,
    variant_array,
)
from .bismarck_odds import (
    DEFAULT_MODEL,
    MISERE_DD_CARDS,
    _contract,
    _models,
    discard_spec,
    model_words,
    play_spec,
    quota_words,
    trump_spec,
    winner_pos,
)

EVENT_FORMS = '{"seat": S, "play": "CARD"}'
SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["game", "dealer", "round", "events"],
    "additionalProperties": False,
    "properties": {
        "game": {"const": GAME},
        "players": {"const": 3},
        "variants": {"type": "object", "additionalProperties": {"type": ["string", "integer", "boolean"]}},
        "seed": {"type": ["integer", "null"]},
        "strategies": {"type": "object", "additionalProperties": {"type": "string"}},
        "dealer": {"type": "integer", "minimum": 0, "maximum": 2},
        "round": {"type": "integer", "minimum": 1, "maximum": 4},
        "trumps": {"type": "string"},
        "shown": {"type": ["string", "null"]},
        "discards": {"type": "object", "additionalProperties": {"type": "string"}},
        "hands": {"type": "object", "additionalProperties": {"type": "string"}},
        "events": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["seat", "play"],
                "additionalProperties": False,
                "properties": {"seat": {"type": "integer", "minimum": 0, "maximum": 2}, "play": {"type": "string"}},
            },
        },
        "pimc": {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "from": {"type": "integer", "minimum": 0, "maximum": 16},
                "samples": {"type": "integer", "minimum": 1, "maximum": 1000},
            },
        },
        "result": {"type": "object"},
        "version": {"type": "string"},
    },
}


def _text(cards) -> str:
    return " ".join(str(DECK.card(c)) for c in cards)


def _cards_of_mask(m: int) -> list[int]:
    return [c for c in range(64) if (m >> c) & 1]


# ---------------------------------------------------------------------------------------------
# Recording
# ---------------------------------------------------------------------------------------------


def record(
    seed: int = 0,
    players: int | None = None,
    variants: dict | None = None,
    strategies: list[str] | None = None,
    round: int | None = None,
    pimc_from: int | None = None,
    pimc_samples: int | None = None,
) -> dict:
    """The record of one simulated hand: trial 0 of ``cardlab simulate bismarck --unit hand --round R --seed
    SEED`` with the same players (the same dealer, deal and draws)."""
    rules().check_players(players)
    full = rules().resolve_variants(variants)
    bv = variant_array(variants)
    names, strat = seat_strategies(strategies, DEFAULT_STRATEGY)
    names = labels(names)
    r = round_index(round) + 1
    pimc_from = PIMC_FROM if pimc_from is None else pimc_from
    pimc_samples = PIMC_SAMPLES if pimc_samples is None else pimc_samples
    check_misere_search(names, pimc_from, r == 4)
    pv = player_array(pimc_from, pimc_samples, names)
    key0, key1 = split_seed(seed)
    hands0 = np.zeros(4, dtype=np.uint64)
    trace = np.zeros(56, dtype=np.int64)
    info = np.zeros(6, dtype=np.int64)
    # the plain kernel where no seat searches or solves: half the compiling on a first run
    kernel = K.record_hand if uses_solvers(strat) else K.record_hand_plain
    compile_note(GAME, kernel)  # a first record compiles its kernel: not in silence
    kernel(key0, key1, np.int64(0), strat, pv, np.int64(r - 1), bv, hands0, trace, info)
    dealer, rtype, trump = int(info[0]), int(info[1]), int(info[2])
    hands = [int(h) for h in hands0[:3]]
    events = []
    leader = (dealer + 1) % 3
    for t in range(16):
        row = [int(c) for c in trace[3 * t : 3 * t + 3]]
        for j, c in enumerate(row):
            events.append({"seat": (leader + j) % 3, "play": _text([c])})
        leader = (leader + winner_pos(row, trump)) % 3
    doc: dict[str, Any] = {
        "game": GAME,
        "players": 3,
        "variants": {k: v for k, v in full.items() if v != rules().variants[k]["default"]},
        "seed": int(seed),
        "strategies": {str(s): n for s, n in enumerate(names)},
        "dealer": dealer,
        "round": rtype + 1,
        "trumps": "NT" if trump < 0 else SUITS[trump],
        "hands": {str(s): _text(_cards_of_mask(hands[s])) for s in range(3)},
        "events": events,
        # the PIMC, pimc-infer, dd and search players' settings (--pimc-from, --pimc-samples): a review's models
        # play with them
        "pimc": {"from": int(pimc_from), "samples": int(pimc_samples)},
    }
    if info[3]:
        doc["shown"] = _text(_cards_of_mask(int(info[3])))
    if info[4]:
        ex = dealer if bv[K.V_WIDOW] == 1 else (dealer + 1) % 3
        doc["discards"] = {str(ex): _text(_cards_of_mask(int(info[4])))}
    doc["result"] = replay(doc).result()
    doc["version"] = __version__
    return doc


# ---------------------------------------------------------------------------------------------
# Replaying
# ---------------------------------------------------------------------------------------------


@dataclass
class Hand:
    """A replayed record: the rules, and the state before every event."""

    variants: dict
    dealer: int
    rtype: int
    trump: int
    hands: list[int]  # as play begins
    shown: int  # the round-2 card out of play (a mask), 0 if none
    discards: dict[int, int]  # the exchanging seat's discards
    events: list[tuple[int, int]]  # (seat, card)
    strategies: list[str] | None
    pimc_from: int | None = None  # the record's PIMC settings (None: the defaults)
    pimc_samples: int | None = None
    leaders: list[int] = field(default_factory=list)  # each trick's leader (the next trick's is its winner)
    won: list[int] = field(default_factory=lambda: [0, 0, 0])

    @property
    def over(self) -> bool:
        return len(self.events) == 48

    def result(self) -> dict:
        bv = variant_array(self.variants)
        out: dict[str, Any] = {"tricks": {str(s): self.won[s] for s in range(3)}}
        if self.over:
            out["scores"] = {
                str(s): int(K.hand_score(self.rtype, (s - self.dealer) % 3, self.won[s], bv)) for s in range(3)
            }
        return out


def _turns(events: list[dict], dealer: int, trump: int):
    """The events in playing order (BM-4: the dealer's left leads the first trick, each trick's winner the next):
    per event its index, seat, card, the suit led (-1 on lead) and, where it completes a trick, the winner (else
    -1). A seat out of turn, a bad card or more than one card an event is refused, naming the event; whether the
    seat holds the card and may play it is the caller's to check."""
    leader, row = (dealer + 1) % 3, list[int]()
    for i, ev in enumerate(events):
        s = (leader + len(row)) % 3
        if ev["seat"] != s:
            raise CardlabError(f"event {i}: seat {ev['seat']} plays, but it is seat {s}'s turn (BM-4)")
        try:
            cs = DECK.indices(ev["play"])
        except CardlabError as e:
            raise CardlabError(f"event {i}: {e}") from None
        if len(cs) != 1:
            raise CardlabError(f"event {i}: one card a turn (BM-4), got {ev['play']!r}")
        led = row[0] >> 4 if row else -1
        row.append(cs[0])
        w = -1
        if len(row) == 3:
            w = (leader + winner_pos(row, trump)) % 3
            leader, row = w, []
        yield i, s, cs[0], led, w


def _hands_played(events: list[dict], dealer: int, trump: int) -> dict[str, str]:
    """A record without ``hands``: each seat's dealt cards are the cards it played, so the events must be the whole
    hand (BM-2: 16 cards a seat, every card played by the end). What a player can write down after a hand. The
    turns are walked first (:func:`_turns`), so that a seat typed wrong is named by its event, not by a hand of the
    wrong size."""
    if len(events) != 48:
        raise CardlabError(
            f"bad record: no hands and {len(events)} events: give every seat's dealt cards as hands, or all 48 "
            "cards of the hand in the order played as events (each seat's cards are then those it played)"
        )
    played: dict[str, list[str]] = {"0": [], "1": [], "2": []}
    first: dict[int, int] = {}
    for i, s, c, _, _ in _turns(events, dealer, trump):
        if c in first:
            raise CardlabError(f"event {i}: {_text([c])} was played already at event {first[c]} (BM-2)")
        first[c] = i
        played[str(s)].append(_text([c]))
    return {s: " ".join(cards) for s, cards in played.items()}


def replay(doc: dict) -> Hand:
    """Check a record (its shape, then BM-2 and BM-4 event by event) and return the replayed hand."""
    check_shape(doc, GAME, SCHEMA, EVENT_FORMS)
    variants = doc.get("variants") or {}
    bv = variant_array(variants)
    swedish = bool(bv[K.V_RULESET])
    try:
        rtype, trump = _contract(doc["round"], doc.get("trumps") if doc.get("trumps") != "NT" else None, bv)
    except CardlabError as e:
        raise CardlabError(f"bad record: {e}".replace("--round", "round").replace("--trumps", "trumps")) from None
    dealt = doc["hands"] if "hands" in doc else _hands_played(doc["events"], doc["dealer"], trump)
    if sorted(dealt) != ["0", "1", "2"]:
        raise CardlabError('bad record: hands: give the three seats\' cards, {"0": "...", "1": "...", "2": "..."}')
    hands = []
    seen = 0
    for s in range(3):
        try:
            m = DECK.mask(dealt[str(s)])
        except CardlabError as e:
            raise CardlabError(f"bad record: hands {s}: {e}") from None
        if bin(m).count("1") != 16:
            raise CardlabError(f"bad record: hands {s} holds {bin(m).count('1')} cards; each seat is dealt 16 (BM-2)")
        if m & seen:
            raise CardlabError(f"bad record: {_text(_cards_of_mask(m & seen))} dealt to two seats (BM-2)")
        seen |= m
        hands.append(m)
    shown = DECK.mask(doc["shown"]) if doc.get("shown") else 0
    drawn = rtype == 1 and bv[K.V_ROUND2] == 0 and not swedish  # round 2 draws its trumps from the leftover
    if shown and (shown & seen or not drawn):
        raise CardlabError("bad record: shown is round 2's drawn trump card, out of play (BM-5)")
    if drawn and not shown:
        # every seat saw it: without it a review would take it for a card someone may hold
        raise CardlabError(
            'bad record: round 2 needs "shown", the leftover card drawn for trumps (BM-5: every seat saw it, and it '
            "is out of play)"
        )
    if shown and bin(shown).count("1") != 1:
        raise CardlabError("bad record: shown is one card, round 2's drawn trump card (BM-5)")
    if shown and (shown.bit_length() - 1) >> 4 != trump:
        raise CardlabError(f"bad record: shown {doc['shown']} is not of the trump suit {SUITS[trump]} (BM-5)")
    discards = {int(s): DECK.mask(v) for s, v in (doc.get("discards") or {}).items()}
    for s, m in discards.items():
        if m & (seen | shown):
            where = "the shown trump card" if m & shown and not m & seen else "in play"
            raise CardlabError(f"bad record: discards {s}: {_text(_cards_of_mask(m & (seen | shown)))} {where} (BM-2)")
    strategies = doc.get("strategies")
    if strategies:
        try:  # names (with a search player's parameters) checked here: an error names the record, not a flag
            seat_strategies([f"{s}={n}" for s, n in strategies.items()], DEFAULT_STRATEGY)
        except CardlabError as e:
            raise CardlabError(f"bad record: strategies: {e}") from None
    hand = Hand(
        variants=variants, dealer=doc["dealer"], rtype=rtype, trump=trump, hands=hands, shown=shown,
        discards=discards, events=[],
        strategies=[strategies[str(s)] for s in range(3)] if strategies and len(strategies) == 3 else None,
        pimc_from=(doc.get("pimc") or {}).get("from"), pimc_samples=(doc.get("pimc") or {}).get("samples"),
    )  # fmt: skip
    must = bool(bv[K.V_MUST_TRUMP])
    now = list(hands)
    if len(doc["events"]) > 48:
        raise CardlabError(f"bad record: {len(doc['events'])} events; a hand has 48 cards (16 tricks, BM-4)")
    for i, s, c, led, w in _turns(doc["events"], hand.dealer, trump):
        if led < 0:
            hand.leaders.append(s)
        if not (now[s] >> c) & 1:
            raise CardlabError(f"event {i}: seat {s} does not hold {_text([c])}")
        legal = int(DD.legal_cards(np.uint64(now[s]), led, trump, int(must)))
        if not (legal >> c) & 1:
            rule = "must trump when void, 3(c)6" if must and c >> 4 != led and c >> 4 != trump else "follow suit"
            raise CardlabError(f"event {i}: seat {s} plays {_text([c])} on a {SUITS[led]} lead (BM-4: {rule})")
        now[s] &= ~(1 << c)
        hand.events.append((s, c))
        if w >= 0:
            hand.won[w] += 1
    return hand


# ---------------------------------------------------------------------------------------------
# Reviewing
# ---------------------------------------------------------------------------------------------


def position_at(hand: Hand, i: int) -> dict:
    """What the seat to play event ``i`` knew then: its cards, the tricks so far in order, the current trick, the
    round, trumps and dealer, the shown card, its own discards. Nothing of the other hands."""
    s = hand.events[i][0]
    before = [c for _, c in hand.events[:i]]
    n_done = len(before) // 3
    mine = hand.hands[s] & ~sum(1 << c for c in before)
    r = hand.rtype + 1
    pos: dict[str, Any] = {
        "seat": s,
        "hand": _text(_cards_of_mask(mine)),
        "round": r,
        "trumps": None if hand.trump < 0 else SUITS[hand.trump],
        "dealer": hand.dealer,
        "tricks": [_text(before[3 * t : 3 * t + 3]) for t in range(n_done)],
        "current": _text(before[3 * n_done :]),
    }
    if hand.shown:
        pos["shown"] = _text(_cards_of_mask(hand.shown))
    if s in hand.discards:
        pos["discards"] = _text(_cards_of_mask(hand.discards[s]))
    return pos


def _label(spec, card: int) -> str:
    """The advisor's row of a card (equal cards share one: ``QH (or KH AH)``)."""
    name = _text([card])
    for label in spec.describe["actions"]:
        if name in label.replace("(or ", "").replace(")", "").split():
            return label
    raise CardlabError(f"the card played ({name}) is not among the advisor's actions")


def _dd_values(hand: Hand, i: int) -> dict[int, int] | None:
    """Every legal card's double-dummy value on the actual layout (the seat's tricks from there, the current
    trick included, the two others against it; in a misere round the two push tricks on it); None in a misere
    round while a hand holds more than MISERE_DD_CARDS cards (the search explodes there)."""
    s = hand.events[i][0]
    before = [c for _, c in hand.events[:i]]
    if hand.rtype == 3 and 16 - len(before) // 3 > MISERE_DD_CARDS:
        return None
    now = np.zeros(4, dtype=np.uint64)
    for q in range(3):
        now[q] = np.uint64(hand.hands[q] & ~sum(1 << c for c in before))
    n_done = len(before) // 3
    row = np.zeros(4, dtype=np.int64)
    cur = before[3 * n_done :]
    row[: len(cur)] = cur
    leader = hand.leaders[n_done]
    me = 1 << s
    maxteam = me if hand.rtype != 3 else 7 ^ me
    ttk, ttg, bufs = _solver()
    out_cards = np.zeros(16, dtype=np.int64)
    out_values = np.zeros(16, dtype=np.int64)
    must = int(variant_array(hand.variants)[K.V_MUST_TRUMP])
    n = DD.card_values_3(
        now, hand.trump, must, leader, row, len(cur), maxteam, me, ttk, ttg, bufs, out_cards, out_values
    )
    return {int(c): int(v) for c, v in zip(out_cards[:n], out_values[:n])}


@cache
def _solver():
    """One transposition table (16 MiB) and buffers for the review's double-dummy values, made on first use."""
    ttk, ttg = DD.new_tt(18)
    return ttk, ttg, DD.new_buffers()


def review(
    doc: dict,
    *,
    seat: int | None = None,
    strategies: list[str] | None = None,
    precision: float = 0.25,
    seed: int = 0,
    max_trials: int = 1024,
    chunk_size: int = 64,
    threads: int | None = None,
    progress: bool = False,
) -> Result:
    """Every card of ``seat`` (every seat when None) in the record, judged by the advisor to ±``precision``
    points of round score on the paired differences (or at ``max_trials`` sampled layouts); the models are
    ``strategies``, else the record's, else heuristic players."""
    hand = replay(doc)
    if seat is not None and not 0 <= seat <= 2:
        raise CardlabError(f"bad --seat {seat}: seats are 0..2")
    expect_dd(3)  # the double-dummy values of every card
    models = review_models(strategies, hand.strategies, DEFAULT_MODEL)
    _models(models)  # a model the advisor refuses is refused before the first decision
    it = [i for i, (s, _c) in enumerate(hand.events) if seat is None or s == seat]
    before, skipped = _before_play(hand, seat, models, seed)

    def decisions():
        yield from before
        for i in it:
            pos = position_at(hand, i)
            spec = play_spec(variants=hand.variants, strategies=models, pimc_from=hand.pimc_from,
                             pimc_samples=hand.pimc_samples, **pos)  # fmt: skip
            yield i, {**pos, "current": pos["current"], "by": None}, _label(spec, hand.events[i][1]), spec

    rows, forced, trials = judge(
        decisions(), len(before) + len(it), precision=precision, seed=seed, max_trials=max_trials, chunk_size=chunk_size,
        threads=threads, progress=progress,
    )  # fmt: skip
    for r in rows:
        i = r["event"]
        if i < 0:  # a choice before the first lead: no trick, no double-dummy view of it here
            r["on_table"] = "before play: " + ("the widow discard" if r["taken"].startswith("discard") else "trumps")
            r["dd_taken"] = r["dd_best"] = None
            continue
        pos = position_at(hand, i)
        r["on_table"] = f"{pos['current']} (trick {len(pos['tricks']) + 1})" if pos["current"] else (
            f"lead (trick {len(pos['tricks']) + 1})"
        )  # fmt: skip
        dd = _dd_values(hand, i)
        card = hand.events[i][1]
        r["taken"] = _text([card])  # the card itself; best names its row (equal cards share one)
        if dd is None:
            r["dd_taken"] = r["dd_best"] = None
            continue
        best_dd = max(dd.values()) if hand.rtype != 3 else min(dd.values())
        r["dd_taken"] = dd[card] + _won_before(hand, i)
        r["dd_best"] = best_dd + _won_before(hand, i)
    names = labels(seat_strategies(models, DEFAULT_MODEL)[0])
    result = review_result(
        GAME, rows, players=3, variants=rules().resolve_variants(hand.variants), strategies=names, seat=seat,
        forced=forced, events=len(hand.events), over=hand.over, outcome=hand.result(), precision=precision,
        trials=trials, seed=seed, unit_word="hand",
    )  # fmt: skip
    for c in ("dd_taken", "dd_best"):  # whole tricks, blank where not solved (before play; a long misère hand)
        if c in result.table:
            result.table[c] = result.table[c].astype("Int64")
    result.meta["model"] = model_words(names)
    quota = quota_words({"seat": seat, "dealer": hand.dealer, "rtype": hand.rtype, "trump": hand.trump,
                         "bv": variant_array(hand.variants)})  # fmt: skip
    result.meta["quota"] = quota + (f"; {_text(_cards_of_mask(hand.shown))} shown" if hand.shown else "")
    if skipped:
        result.meta["not_reviewed"] = "; ".join(skipped)
    result.meta["summary"] = summary(result, misere=hand.rtype == 3)
    result.meta["verdict_measure"] = "score"  # the verdicts and the best go by the round score
    return result


def _before_play(hand: Hand, seat: int | None, models, seed: int) -> tuple[list, list[str]]:
    """The choices made before the first lead that the record shows, as review decisions (event -1): the widow
    discard of the seat that exchanged (3(c)5, 3(c)10) and round 3's trumps named after seeing the hand
    (3(c)3); and, in words, those the advisor cannot judge here."""
    out, skipped = [], []
    bv = variant_array(hand.variants)
    full = rules().resolve_variants(hand.variants)
    trumps = None if hand.trump < 0 else SUITS[hand.trump]
    shown = _text(_cards_of_mask(hand.shown)) if hand.shown else None
    for ex, thrown in sorted(hand.discards.items()):
        if seat is not None and ex != seat:
            continue
        kept = hand.hands[ex]
        try:
            spec = discard_spec(
                seat=ex, dealer=hand.dealer, hand=_text(_cards_of_mask(kept)), widow=_text(_cards_of_mask(thrown)),
                round=hand.rtype + 1, trumps=trumps, shown=shown, variants=hand.variants, strategies=models,
                seed=seed, try_discard=[_text(_cards_of_mask(thrown))], tried_words="played",
                pimc_from=hand.pimc_from, pimc_samples=hand.pimc_samples,
            )  # fmt: skip
        except CardlabError as e:
            skipped.append(f"seat {ex}'s widow discard ({e})")
            continue
        taken = spec.describe["actions"][spec.describe["discards"].index(thrown)]
        pos = {"seat": ex, "hand": _text(_cards_of_mask(kept | thrown)), "current": None, "by": None}
        out.append((-1, pos, taken, spec))
    named = hand.rtype == 2 and not bv[K.V_RULESET] and full["round3_trump_timing"] == "after_seeing_hand"
    if named and (seat is None or seat == hand.dealer):
        if bv[K.V_WIDOW]:
            skipped.append("the dealer's trumps (named before a widow exchange: not advised)")
        else:
            spec = trump_spec(
                seat=hand.dealer, dealer=hand.dealer, hand=_text(_cards_of_mask(hand.hands[hand.dealer])),
                variants=hand.variants, strategies=models, pimc_from=hand.pimc_from, pimc_samples=hand.pimc_samples,
            )  # fmt: skip
            pos = {"seat": hand.dealer, "hand": _text(_cards_of_mask(hand.hands[hand.dealer])), "current": None,
                   "by": None}  # fmt: skip
            out.append((-1, pos, f"name {trumps}", spec))
    return out, skipped


def _won_before(hand: Hand, i: int) -> int:
    """The tricks the seat to play event ``i`` won before it: the tricks whose next trick it led."""
    s = hand.events[i][0]
    return sum(1 for led in hand.leaders[1 : i // 3 + 1] if led == s)


def summary(result: Result, misere: bool = False) -> str:
    """One line: how many cards judged, how many clearly worse than the best and what they cost in round score
    and, net, in tricks (in the misère a trick taken is the loss: BM-6); and the tricks lost on the actual layout
    (double dummy)."""

    def tricks(worse: pd.DataFrame) -> str:
        # net, signed: a card worse in score may still take fewer tricks than the best (more, in the misère)
        lost = (worse["tricks_best"] - worse["tricks_taken"]).sum() * (-1 if misere else 1)
        if lost >= 0.005:
            return f" and {lost:.2f} tricks"
        if lost <= -0.005:
            return f" (though they took {-lost:.2f} {'fewer' if misere else 'more'} tricks than the best)"
        return " (and as many tricks as the best, net)"

    # each seat's sum with its own tricks (every seat reviewed: the tricks had gone to the first seat's sum)
    line = review_summary(result, "forced cards", cost="score", score_unit="points of round score", also=tricks)
    t = result.table
    line += _quota_clause(t)
    cards = t[t["event"] >= 0] if len(t) else t  # event -1: the choices before play have no double-dummy view
    known = cards.dropna(subset=["dd_taken"]) if len(cards) else cards
    if len(known):
        lost = int((known["dd_best"] - known["dd_taken"]).abs().sum())
        where = (
            "" if len(known) == len(cards) else f" (at its {len(known)} cards with at most {MISERE_DD_CARDS} in hand)"
        )
        # where, by event (the AnalysePlay view): a card that lost tricks against the layout may be the advisor's
        # best on what the seat knew, so these events need not be those judged worse above
        at = known[known["dd_best"] != known["dd_taken"]]
        events = ", ".join(
            f"{int(e)} ({c})" if abs(b - k) == 1 else f"{int(e)} ({c}, {int(abs(b - k))} tricks)"
            for e, c, b, k in zip(at["event"], at["taken"], at["dd_best"], at["dd_taken"], strict=True)
        )
        line += (
            f"; on the actual layout (double dummy) the cards played lost {lost} trick{'s' if lost != 1 else ''}{where}"
            + (f", at event{'s' if len(at) > 1 else ''} {events}" if len(at) else "")
            # a card judged best can lose a trick there, and one judged worse none (a new user read the two as one)
            + (": dd_taken against dd_best, on a layout the seat did not see (the verdicts go by what it knew)"
               if len(at) else "")
        )  # fmt: skip
    return line


def _quota_clause(t: pd.DataFrame) -> str:
    """The verdicts go by the round score, and reaching the quota scores 0 (BM-6), so the card played may make the
    quota clearly less often than the best by score, or clearly more often, while the verdict says nothing: both
    named (a new user saw "none clearly worse" beside a quota chance 14 points lower). Each interval at 95%, one
    a decision."""
    if not len(t) or "loss_win_low" not in t.columns:
        return ""
    rows = t[(t["loss_win_low"] > 0) | (t["loss_win_high"] < 0)]
    if not len(rows):
        return ""
    parts = []
    for worse in (True, False):
        side = rows[(rows["loss_win"] > 0) == worse]
        if not len(side):
            continue
        # each decision's difference in percentage points, unsigned (the words say which way; a signed "-14.1" beside
        # the table's loss_win of 0.141 read as a contradiction), the unit named once (on the first)
        figs = [f"{'by ' if i == 0 else ''}{100 * abs(lw):.1f}{'' if i else ' percentage points'}"
                for i, lw in enumerate(side["loss_win"])]  # fmt: skip
        events = side["event"].astype(int).tolist()
        said = [f"before play ({f})" for e, f in zip(events, figs, strict=True) if e < 0]
        at = [f"{e} ({f})" for e, f in zip(events, figs, strict=True) if e >= 0]
        if at:
            listed = at[0] if len(at) == 1 else ", ".join(at[:-1]) + " and " + at[-1]
            said.append(f"at event{'s' if len(at) > 1 else ''} {listed}")
        parts.append(f"clearly {'less' if worse else 'more'} often " + " and ".join(said))
    return (
        "; on the quota chance (the verdicts go by the score), against the best by score, the card played made the "
        "quota " + "; and ".join(parts)
    )


WIN_LABEL = "chance to make the quota (%)"


def win_figure(result: Result):
    """The seat's chance to make its quota through the hand: best and taken cards."""
    return review_figure(result, WIN_LABEL)


def tricks_figure(result: Result):
    """The seat's expected tricks in the hand through it, at each of its decisions: with the best card and with
    the card played (on what it knew, sampled), and double dummy on the actual layout."""
    from ..plots import new_figure

    t = result.table
    fig, ax = new_figure(7.0, 3.4)
    ax.plot(t["event"], t["tricks_best"], marker="o", ms=4, ls="none", label="best card (sampled)")
    ax.plot(t["event"], t["tricks_taken"], marker="x", ms=5, ls="none", label="card played (sampled)")
    ax.plot(t["event"], t["dd_taken"], marker="_", ms=9, ls="none", color="grey", label="card played, actual layout")
    worse = t[t["verdict"] == "worse"]
    if len(worse):
        ax.scatter(worse["event"], worse["tricks_taken"], color="crimson", zorder=3, label="clearly worse")
    ax.set_xlabel("event in the record (card played)")
    ax.set_ylabel("tricks in the hand")
    who = "every seat" if result.meta["seat"] is None else f"seat {result.meta['seat']}"
    ax.set_title(f"{who}, against {', '.join(sorted(set(result.meta['strategies'])))} models")
    ax.legend(loc="best", fontsize=8)
    return fig


def sections(result: Result, record_name: str):
    """The review as report sections (README.md, review.html and the chart, as ``cardlab report`` writes)."""
    m = result.meta
    intro = (
        f"{record_name}: one hand of Bismarck, models {', '.join(m['strategies'])}; each card judged on what its "
        "seat knew then (its cards, the tricks so far, the current trick), every card on the same sampled layouts, "
        f"to ±{m['precision_target']:g} points of round score on the paired differences. loss_score is the best "
        "card's round score minus the taken card's (0 where the two are not separated at 95%); loss_win the same "
        "for the chance to make the quota; dd_taken and dd_best are the seat's tricks in the hand with the taken "
        "and the best card on the actual layout, double dummy (where a trick was lost against every card seen)."
    )
    cols = ["event", "seat", "on_table", "taken", "best", "verdict", "tricks_taken", "tricks_best", "dd_taken",
            "dd_best", "win_taken",
            "loss_score", "loss_score_low", "loss_score_high", "loss_win"]  # fmt: skip
    from ..report import Section

    parts = review_sections(result, m["summary"], "Chance to make the quota", WIN_LABEL, cols)
    if len(result.table) and result.meta["seat"] is not None:
        parts.insert(1, Section("Expected tricks through the hand", figures=[lambda: tricks_figure(result)]))
    return intro, parts
