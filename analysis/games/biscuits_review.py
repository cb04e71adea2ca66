"""Biscuits records and reviews (``cardlab record`` / ``cardlab review``; ``../shared/design/positions.md``, the
event vocabulary in ``seeds/biscuits.md``).

A **record** is one hand from the deal to its end (or to where it was left off): the ``starter``, every seat's
dealt ``hands`` and the ``events`` in order: the partner passes (``{"seat": S, "give": "C C"}``, BI-4), the
plays and passes (``{"seat": S, "play": "5S 5H"}``, ``{"seat": S, "pass": true}``, BI-5), the Plain exchange
(``{"seat": S, "send": "3C"}`` or ``"send": null`` when declined, then ``{"seat": S, "return": "9H"}``) and the
Fancy handover (``{"seat": S, "handover": true}`` or ``false``) (BI-10), each offered action recorded whether
taken or not. Loading replays it under the rules and refuses the first illegal event in one line naming its
index and rule.

A **review** takes, at each decision of a seat, only what that seat knew (its own cards, the cards it passed
and sent to its partner, everything played, the play on the table, the hand sizes, who is out and the points
scored: :func:`position_at`), runs the advisor on it and reports the action taken, the best action and what the
choice cost in points (``loss_score``) and in the chance to be ahead this hand (``loss_win``), with 95%
intervals; zero where the taken action is not separated from the best.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from kernels import biscuits as K

from .. import __version__
from ..driver import compile_note, split_seed
from ..errors import CardlabError
from ..review import check_shape, judge, review_models
from ..review import result as review_result
from ..review import sections as review_sections
from ..review import summary as review_summary
from ..review import win_figure as review_figure
from ..rules import search_label, seat_assignments
from ..tables import Result
from .biscuits import (
    DEFAULT_STRATEGY,
    GAME,
    SEARCH_BUDGET,
    STRATEGIES,
    cards_of,
    classify_mask,
    rules,
    searches,
    strategy_rows,
    to_mask,
    variant_array,
)
from .biscuits_odds import DEFAULT_MODEL, HANDOVER_NO, pass_spec, state_spec

KINDS = ("give", "play", "pass", "send", "return", "handover")
EVENT_FORMS = (
    '{"seat": S, "give": "C C"}, {"seat": S, "play": "CARDS"}, {"seat": S, "pass": true}, '
    '{"seat": S, "send": "CARD" or null}, {"seat": S, "return": "CARD"} or {"seat": S, "handover": true or false}'
)
#: the record document's shape (checked first; the rules are checked by the replay)
SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["game", "starter", "hands", "events"],
    "additionalProperties": False,
    "properties": {
        "game": {"const": GAME},
        "players": {"const": 4},
        "variants": {"type": "object", "additionalProperties": {"type": ["string", "integer", "boolean"]}},
        "seed": {"type": ["integer", "null"]},
        "strategies": {"type": "object", "additionalProperties": {"type": "string"}},
        "starter": {"type": "integer", "minimum": 0, "maximum": 3},
        "hands": {"type": "object", "additionalProperties": {"type": "string"}},
        "events": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["seat"],
                "additionalProperties": False,
                "properties": {
                    "seat": {"type": "integer", "minimum": 0, "maximum": 3},
                    "give": {"type": "string"},
                    "play": {"type": "string"},
                    "pass": {"const": True},
                    "send": {"type": ["string", "null"]},
                    "return": {"type": "string"},
                    "handover": {"type": "boolean"},
                },
                "oneOf": [{"required": [k]} for k in KINDS],
            },
        },
        "result": {"type": "object"},
        "version": {"type": "string"},
    },
}
TEAM = ("NS", "EW")


# ---------------------------------------------------------------------------------------------
# Recording
# ---------------------------------------------------------------------------------------------


def record(
    seed: int = 0, players: int | None = None, variants: dict | None = None, strategies: list[str] | None = None
) -> dict:
    """The record of one simulated hand: the first hand of trial 0 of ``cardlab simulate biscuits --seed SEED``
    with the same players (the same Starter, deal and draws)."""
    return _record(seed, 0, players, variants, strategies)


def _record(seed: int, trial: int, players, variants, strategies) -> dict:
    """:func:`record` of trial ``trial`` of ``simulate biscuits --unit hand --seed SEED`` (the tests hold the
    simulation's sums to such hands); the document's seed alone reproduces trial 0 only."""
    rules().check_players(players)
    full = rules().resolve_variants(variants)
    names = seat_assignments(strategies, 4, DEFAULT_STRATEGY, STRATEGIES, parameterized=("search",))
    strat = strategy_rows(names)
    names = [search_label(n, SEARCH_BUDGET) for n in names]
    key0, key1 = split_seed(seed)
    hands0 = np.zeros(4, dtype=np.uint64)
    log = np.zeros((3 * K.MAX_TURNS, 3), dtype=np.int64)
    play = K.record_search_hand if searches(strat) else K.record_hand
    compile_note(GAME, play)  # a first record compiles its kernel: not in silence
    starter = int(play(key0, key1, np.int64(trial), strat, variant_array(variants), hands0, log))
    if log[0, 0] + 1 >= log.shape[0]:  # the kernel's log keeps its first rows only: a full log lost events
        raise CardlabError(f"the hand ran past {log.shape[0] - 1} events (MAX_TURNS): the record would be cut")
    events: list[dict] = []
    for kind, seat, value in log[1 : 1 + int(log[0, 0])]:
        s, v = int(seat), int(value)
        if kind == K.E_GIVE:
            events.append({"seat": s, "give": cards_of(v)})
        elif kind == K.E_PLAY:
            events.append({"seat": s, "play": cards_of(v)} if v else {"seat": s, "pass": True})
        elif kind == K.E_SEND:
            events.append({"seat": s, "send": cards_of(v) if v else None})
        elif kind == K.E_RETURN:
            events.append({"seat": s, "return": cards_of(v)})
        else:
            events.append({"seat": s, "handover": v == 1})
    defaults = {k: v["default"] for k, v in rules().variants.items()}
    doc = {
        "game": GAME,
        "players": 4,
        "variants": {k: v for k, v in full.items() if v != defaults.get(k)},
        "seed": int(seed),
        "strategies": {str(s): n for s, n in enumerate(names)},
        "starter": starter,
        "hands": {str(s): cards_of(int(hands0[s])) for s in range(4)},
        "events": events,
    }
    hand = replay(doc)
    doc["result"] = hand.result()
    doc["version"] = __version__
    return doc


# ---------------------------------------------------------------------------------------------
# Replaying (validation, and the state before every event)
# ---------------------------------------------------------------------------------------------


@dataclass
class State:
    """The hand before one event: what is public, every hand (the replay's own view), and what each seat
    knows of its partner's hand."""

    kind: str  # the decision due: give, play, send, return, handover
    seat: int  # who acts
    hands: list[int]  # bit sets
    current: int  # the play on the table (0: none)
    by: int
    played: int  # cards out of play, the current play not included
    finished: list[int]
    points: list[int]  # this hand's points, N-S and E-W
    gave: list[int]  # per seat, the cards it gave its partner (partner pass and exchange)
    passed: list[int]  # per seat, the two cards of its partner pass (0 before it)
    received: list[int]
    exchange_card: int = 0  # return: the card the seat got
    trick_passed: list[int] = field(default_factory=list)  # who passed in this trick (variant pass_locks_out)


@dataclass
class Hand:
    variants: dict
    strategies: list[str] | None
    starter: int
    hands: list[int]
    events: list[dict]
    states: list[State] = field(default_factory=list)  # the state before each event
    finished: list[int] = field(default_factory=list)
    points: list[int] = field(default_factory=lambda: [0, 0])
    over: bool = False

    def result(self) -> dict:
        out: dict[str, Any] = {"finished": list(self.finished), "over": self.over}
        out["points"] = {TEAM[t]: self.points[t] for t in range(2)}
        if self.finished:
            out["first_out"] = self.finished[0]
        return out


def _mask(text: str, i: int, what: str) -> int:
    try:
        return to_mask(text)
    except CardlabError as e:
        raise CardlabError(f"bad record: event {i}: {what}: {e}") from None


def replay(doc: dict) -> Hand:
    """Replay a record under the rules; the first illegal event is refused in one line (its index, the rule)."""
    check_shape(doc, GAME, SCHEMA, EVENT_FORMS)
    variants = {k: str(v).lower() for k, v in (doc.get("variants") or {}).items()}
    rules().resolve_variants(variants)
    names = None
    if doc.get("strategies"):
        names = [f"{s}={n}" for s, n in doc["strategies"].items()]
        try:  # names (a search player's parameters too) and seats checked
            strategy_rows(seat_assignments(names, 4, DEFAULT_STRATEGY, STRATEGIES, parameterized=("search",)))
        except CardlabError as e:
            raise CardlabError(f"bad record: strategies: {e}") from None
    hands = []
    for s in range(4):
        if str(s) not in doc["hands"]:
            raise CardlabError(
                f"bad record: hands: give seat {s}'s dealt cards (a Biscuits record holds every seat's: the replay "
                "checks each play against its hand; a record of your own hand alone is for zheng-shangyou)"
            )
        try:
            h = to_mask(doc["hands"][str(s)])
        except CardlabError as e:
            raise CardlabError(f"bad record: hands: seat {s}: {e}") from None
        if h.bit_count() != 13:
            raise CardlabError(f"bad record: hands: seat {s} is dealt {h.bit_count()} cards; the deal gives 13 (BI-3)")
        hands.append(h)
    extra = sorted(set(doc["hands"]) - {"0", "1", "2", "3"})
    if extra:
        raise CardlabError(f"bad record: hands: seat {extra[0]} (seats are 0..3)")
    if sum(h.bit_count() for h in hands) != (hands[0] | hands[1] | hands[2] | hands[3]).bit_count():
        raise CardlabError("bad record: hands: a card is dealt twice (one 52-card deck, BI-2)")
    hand = Hand(variants, names, int(doc["starter"]), hands, doc["events"])
    _play(hand, variant_array(variants))
    stated = doc.get("result")
    if stated is not None and stated != hand.result():
        raise CardlabError(
            f"bad record: result {json.dumps(stated)} is not what its events give: {json.dumps(hand.result())}"
        )
    return hand


def _play(hand: Hand, bv: np.ndarray) -> None:
    """The state machine of BI-4 .. BI-11 over the events: each event must be the decision due, by the seat due."""
    hands = list(hand.hands)
    gave, passed, received = [0] * 4, [0] * 4, [0] * 4
    played = current = 0
    cur_kind, cur_key = K.K_NONE, 0
    by = turn = hand.starter
    passes = 0
    locked: set[int] = set()
    locks = hand.variants.get("pass_locks_out") == "true"
    finished, points = hand.finished, hand.points
    due: list[tuple[str, int]] = [("give", s) for s in range(4)]  # BI-4: the four passes, in any order
    gives: dict[int, int] = {}
    exchange = (0, -1, -1)  # the card sent, sender, receiver
    moves = np.zeros(K.MAX_MOVES, dtype=np.uint64)

    def after_trick() -> list[tuple[str, int]]:
        """BI-10's offer after the trick ``by`` won, or nothing."""
        partner = (by + 2) % 4
        if cur_kind // 10 == 1:
            return [("handover", by)] if hands[partner] else []
        a, b = (by + 1) % 4, (by + 3) % 4
        return [("send", a)] if hands[a] and hands[b] else []

    def next_leader(start: int) -> int:
        s = start
        while not hands[s]:
            s = (s + 1) % 4
        return s

    for i, ev in enumerate(hand.events):
        kind = next(k for k in KINDS if k in ev)
        kind = "play" if kind == "pass" else kind
        seat = ev["seat"]
        if hand.over:
            raise CardlabError(f"bad record: event {i}: the hand is over (the second player went out, BI-9)")
        if not due:
            due = [("play", turn)]
        want = [d for d in due if d[0] == kind and d[1] == seat]
        if not want:
            kinds = sorted({d[0] for d in due})
            seats = sorted({d[1] for d in due})
            rule = {"give": "BI-4", "play": "BI-5", "send": "BI-10", "return": "BI-10", "handover": "BI-10"}[due[0][0]]
            raise CardlabError(
                f"bad record: event {i}: seat {seat} {'passes' if 'pass' in ev else kind}s, but the hand is waiting "
                f"for {' or '.join(kinds)} by seat {' or '.join(map(str, seats))} ({rule})"
            )
        due.remove(want[0])
        hand.states.append(
            State(kind, seat, list(hands), current, by, played, list(finished), list(points), list(gave),
                  list(passed), list(received), exchange[0] if kind == "return" else 0, sorted(locked))
        )  # fmt: skip
        if kind == "give":
            g = _mask(ev["give"], i, "give")
            if g.bit_count() != 2:
                raise CardlabError(f"bad record: event {i}: seat {seat} gives {g.bit_count()} cards; two (BI-4)")
            if g & ~hands[seat]:
                raise CardlabError(f"bad record: event {i}: seat {seat} does not hold {cards_of(g & ~hands[seat])}")
            gives[seat] = g
            if len(gives) == 4:  # all at once
                for s in range(4):
                    hands[s] = (hands[s] & ~gives[s]) | gives[(s + 2) % 4]
                    passed[s] = gave[s] = gives[s]
                    received[s] = gives[(s + 2) % 4]
            continue
        if kind == "send":
            a, b = seat, (seat + 2) % 4
            if ev["send"] is None:
                turn = next_leader(by)
                current, cur_kind, cur_key = 0, K.K_NONE, 0
                continue
            c = _mask(ev["send"], i, "send")
            if c.bit_count() != 1 or c & ~hands[a]:
                raise CardlabError(
                    f"bad record: event {i}: seat {a} sends one card it holds (BI-10), not {ev['send']!r}"
                )
            hands[a] &= ~c
            hands[b] |= c
            gave[a] |= c
            exchange = (c, a, b)
            due = [("return", b)]
            continue
        if kind == "return":
            c = _mask(ev["return"], i, "return")
            if c.bit_count() != 1 or c & ~hands[seat]:
                raise CardlabError(
                    f"bad record: event {i}: seat {seat} gives back one card it holds (BI-10), not {ev['return']!r}"
                )
            hands[seat] &= ~c
            hands[exchange[1]] |= c
            gave[seat] |= c
            exchange = (0, -1, -1)
            turn = next_leader(by)
            current, cur_kind, cur_key = 0, K.K_NONE, 0
            continue
        if kind == "handover":
            turn = (by + 2) % 4 if ev["handover"] else next_leader(by)
            current, cur_kind, cur_key = 0, K.K_NONE, 0
            continue
        # a play or a pass (BI-5)
        if "pass" in ev:
            if cur_kind == K.K_NONE:
                raise CardlabError(f"bad record: event {i}: seat {seat} passes on lead; a leader must play (BI-5)")
            passes += 1
            locked.add(seat)
        else:
            p = _mask(ev["play"], i, "play")
            if p & ~hands[seat]:
                raise CardlabError(f"bad record: event {i}: seat {seat} does not hold {cards_of(p & ~hands[seat])}")
            n = int(K.generate_moves(np.uint64(hands[seat]), cur_kind, cur_key, moves, bv))
            if p not in {int(x) for x in moves[:n]}:
                if classify_mask(p, bv)[0] == K.K_NONE:
                    raise CardlabError(f"bad record: event {i}: {ev['play']!r} is not a combination (BI-6)")
                raise CardlabError(f"bad record: event {i}: {ev['play']!r} does not beat {cards_of(current)!r} (BI-7)")
            played |= current
            hands[seat] &= ~p
            current, by, passes = p, seat, 0
            cur_kind, cur_key = classify_mask(p, bv)
            if not hands[seat]:
                opp = max(hands[(seat + 1) % 4].bit_count(), hands[(seat + 3) % 4].bit_count())
                points[seat % 2] += opp  # BI-8
                finished.append(seat)
                if len(finished) == 2:
                    played |= current
                    hand.over = True  # BI-9
                    continue
        holding = [s for s in range(4) if hands[s]]
        others = [s for s in holding if s != by]
        if all(s in locked for s in others) if locks else passes >= len(others):
            # the trick is over (BI-5): BI-10's offer is due, else BI-11's leader leads
            played |= current
            locked = set()
            passes = 0
            due = after_trick()
            current = 0
            if not due:
                turn = next_leader(by)
                cur_kind, cur_key = K.K_NONE, 0
        else:
            turn = (turn + 1) % 4
            while not hands[turn] or (locks and turn in locked):
                turn = (turn + 1) % 4


# ---------------------------------------------------------------------------------------------
# Reviewing
# ---------------------------------------------------------------------------------------------

DECISION = {"give": "pass", "play": "play", "send": "exchange_send", "return": "exchange_return",
            "handover": "handover"}  # fmt: skip


ON_TABLE = {"pass": "the deal", "exchange_send": "a Plain trick won", "exchange_return": "a card received",
            "handover": "a Fancy trick won"}  # fmt: skip


def position_at(hand: Hand, i: int) -> dict:
    """The advisor's keywords for the decision before event ``i``: only what its seat knew then (its cards,
    the cards it gave its partner, the public play)."""
    st = hand.states[i]
    seat = st.seat
    pos: dict[str, Any] = {"seat": seat, "decision": DECISION[st.kind]}
    if st.kind == "give":
        pos.update(hand=cards_of(st.hands[seat]), starter=hand.starter)
        return pos
    partner = (seat + 2) % 4
    pos["hand"] = cards_of(st.hands[seat])
    # the sender of a Plain exchange may have sent its last card: it still takes part (it gets one back)
    pos["cards_left"] = {
        str(s): st.hands[s].bit_count()
        for s in range(4)
        if s != seat and (st.hands[s] or (st.kind == "return" and s == partner))
    }
    if st.finished:
        pos["finished"] = list(st.finished)
        pos["hand_points"] = {TEAM[t]: st.points[t] for t in range(2)}
    if st.current:
        pos["current"], pos["by"] = cards_of(st.current), st.by
        if hand.variants.get("pass_locks_out") == "true" and st.trick_passed:
            pos["trick_passed"] = list(st.trick_passed)
    if st.played:
        pos["played"] = cards_of(st.played)
    # the cards the seat gave its partner are the partner's until played or given back (the seat sees both)
    at_partner = st.gave[seat] & st.hands[partner]
    if at_partner:
        pos["known"] = {str(partner): cards_of(at_partner)}
    if st.passed[seat]:
        pos["passed"], pos["received"] = cards_of(st.passed[seat]), cards_of(st.received[seat])
    if st.kind == "return":
        pos["exchange_received"] = cards_of(st.exchange_card)
    return pos


def _action(hand: Hand, i: int) -> str:
    """Event ``i`` in the advisor's action words."""
    ev = hand.events[i]
    if "give" in ev:
        return f"pass {cards_of(to_mask(ev['give']))}"
    if "pass" in ev:
        return "pass"
    if "play" in ev:
        return cards_of(to_mask(ev["play"]))
    if "send" in ev:
        return "no exchange" if ev["send"] is None else f"send {cards_of(to_mask(ev['send']))}"
    if "return" in ev:
        return f"return {cards_of(to_mask(ev['return']))}"
    return "hand over the lead" if ev["handover"] else HANDOVER_NO[not hand.states[i].hands[ev["seat"]]]


def review(
    doc: dict,
    *,
    seat: int | None = None,
    strategies: list[str] | None = None,
    precision: float = 0.25,
    seed: int = 0,
    max_trials: int = 200_000,
    chunk_size: int = 512,
    threads: int | None = None,
    progress: bool = False,
) -> Result:
    """Every decision of ``seat`` (every seat when None) in the record, judged by the advisor to ±``precision``
    points on the paired differences (or at ``max_trials`` sampled layouts); the models are ``strategies``, else
    the record's, else the advisor's default (planning)."""
    hand = replay(doc)
    if seat is not None and not 0 <= seat < 4:
        raise CardlabError(f"bad --seat {seat}: seats are 0..3")
    models = review_models(strategies, hand.strategies, DEFAULT_MODEL)
    it = [i for i, st in enumerate(hand.states) if seat is None or st.seat == seat]

    def decisions():
        for i in it:
            pos = dict(position_at(hand, i))
            kw = {k: v for k, v in pos.items() if k != "decision"}
            spec = (
                pass_spec(variants=hand.variants, strategies=models, **kw)
                if pos["decision"] == "pass"
                else state_spec(decision=pos["decision"], variants=hand.variants, strategies=models, **kw)
            )
            yield i, pos, _action(hand, i), spec

    rows, forced, trials = judge(
        decisions(), len(it), precision=precision, seed=seed, max_trials=max_trials, chunk_size=chunk_size,
        threads=threads, progress=progress,
    )  # fmt: skip
    for row in rows:  # the decisions after a trick have no play on the table
        row["on_table"] = ON_TABLE.get(row["decision"], row["on_table"])
        if row["decision"] == "exchange_return":
            row["on_table"] = f"received {cards_of(hand.states[row['event']].exchange_card)}"
    names = seat_assignments(models, 4, DEFAULT_MODEL, STRATEGIES, parameterized=("search",))
    result = review_result(
        GAME, rows, players=4, variants=rules().resolve_variants(hand.variants), strategies=names, seat=seat,
        forced=forced, events=len(hand.events), over=hand.over, outcome=hand.result(), precision=precision,
        trials=trials, seed=seed, unit_word="hand",
    )  # fmt: skip
    result.meta["summary"] = summary(result)
    result.meta["verdict_measure"] = "score"  # the verdicts and the best go by the net points
    return result


def summary(result: Result) -> str:
    """One line: how many decisions, how many clearly worse than the best, and what they cost in points."""
    return review_summary(result, "turns with one legal action", cost="score", score_unit="net points")


WIN_LABEL = "chance the team is ahead this hand (%)"


def win_figure(result: Result):
    """The seat's chance that its team scores more this hand, through the hand: best and taken actions."""
    return review_figure(result, WIN_LABEL)


def sections(result: Result, record_name: str):
    """The review as report sections (README.md, review.html and the chart, as ``cardlab report`` writes)."""
    m = result.meta
    intro = (
        f"{record_name}: one hand of Biscuits, models {', '.join(m['strategies'])}; each decision (the partner "
        "pass, plays, the Plain exchange, the Fancy handover) judged on what its seat knew then, every action on "
        f"the same sampled layouts, to ±{m['precision_target']:g} points on the paired differences. loss_score is "
        "the best action's net points this hand (the team's minus the other team's, BI-8) minus the taken "
        "action's (0 where the two are not separated at 95%); loss_win the same for the chance that the team "
        "scores more this hand."
    )
    cols = ["event", "seat", "decision", "on_table", "taken", "best", "verdict", "win_taken", "loss_score",
            "loss_score_low", "loss_score_high", "loss_win"]  # fmt: skip
    return intro, review_sections(result, summary(result), "Chance to be ahead through the hand", WIN_LABEL, cols)
