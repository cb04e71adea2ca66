"""Bisko-Bobo records and reviews (``cardlab record`` / ``cardlab review``; ``../shared/design/positions.md``, the
event vocabulary in ``seeds/bisko-bobo.md``).

A **record** is one deal: the ``high`` cards in the order they were dealt (BB-4's two rounds of opening cards,
seat 0 first, the Wet Bisk, then each seat's Risky-Bisk card(s) in seat order, BB-5, then the Bedtime cards,
BB-9), the ``low`` cards in the order the Jingo players got them (seat order, BB-6) and the ``events``: every
seat's Flingo or Jingo (``{"seat": S, "take": "flingo"}``, in seat order, forced ones too), each swap turn in
the swap order (``{"seat": S, "swap": T}``, ``null`` for no swap) and each Jingo player's placement
(``{"seat": S, "place": "tucked"}``, in seat order). Loading replays it under BB-4 .. BB-9 and refuses the first
illegal event in one line naming its index and rule.

A **review** takes, at each free decision of a seat, only what that seat saw (BB-14: every opening card, the
earlier Flingo cards and choices; at the swap the LOW cards, the later seats' Flingo cards and the swaps made;
at the placement its own Jingo card, and its swap partner's), samples the rest (the Wet Bisk, the other Jingo
cards, the cards to come) uniformly, plays every action of the decision on the same deals with the models, and
reports the action taken against the best: the win share of the deal (``win``, as in every Bisko-Bobo table;
split wins count their share, BB-12.6; the review's ``score`` is the same) and the chance to win it outright
(``sole_win``), with 95% intervals.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from kernels import bisko_bobo as K

from .. import __version__
from ..advisor import advisor_spec
from ..driver import KernelSpec, compile_note, split_seed
from ..errors import CardlabError
from ..review import check_shape, judge, review_models
from ..review import result as review_result
from ..review import sections as review_sections
from ..review import summary as review_summary
from ..rules import seat_assignments, strategy_items
from ..tables import Result
from .bisko_bobo import (
    DECK,
    DEFAULT_STRATEGY,
    GAME,
    STRATEGIES,
    high_deck,
    low_deck,
    rules,
    seat_strategies,
    stack,
    variant_array,
)
from .bisko_bobo_swap import _order, share_table

EVENT_FORMS = (
    '{"seat": S, "take": "flingo" or "jingo"}, {"seat": S, "swap": T or null} or '
    '{"seat": S, "place": "upright" or "tucked"}'
)
_SEAT = {"type": "integer", "minimum": 0, "maximum": 5}
SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["game", "players", "high", "events"],
    "additionalProperties": False,
    "properties": {
        "game": {"const": GAME},
        "players": {"type": "integer", "minimum": 2, "maximum": 6},
        "variants": {"type": "object", "additionalProperties": {"type": ["string", "integer", "boolean"]}},
        "seed": {"type": ["integer", "null"]},
        "strategies": {"type": "object", "additionalProperties": {"type": "string"}},
        "high": {"type": "string"},
        "low": {"type": "string"},
        "events": {
            "type": "array",
            "items": {
                "oneOf": [
                    {"type": "object", "required": ["seat", "take"], "additionalProperties": False,
                     "properties": {"seat": _SEAT, "take": {"enum": ["flingo", "jingo"]}}},
                    {"type": "object", "required": ["seat", "swap"], "additionalProperties": False,
                     "properties": {"seat": _SEAT, "swap": {"type": ["integer", "null"]}}},
                    {"type": "object", "required": ["seat", "place"], "additionalProperties": False,
                     "properties": {"seat": _SEAT, "place": {"enum": ["upright", "tucked"]}}},
                ]
            },
        },
        "result": {"type": "object"},
        "version": {"type": "string"},
    },
}  # fmt: skip

#: an event's kind, the decision it is (the kernels' DEC_* and the review's words) and its two-valued actions
KINDS = {"take": K.DEC_FLINGO, "swap": K.DEC_SWAP, "place": K.DEC_TUCK}
DECISION_WORDS = {"take": "flingo", "swap": "swap", "place": "tuck"}
TWO_WAY = {"take": ("flingo", "jingo"), "place": ("upright", "tucked")}


def _text(cards) -> str:
    return " ".join(str(DECK.card(c)) for c in cards)


# ---------------------------------------------------------------------------------------------
# Recording
# ---------------------------------------------------------------------------------------------


def record(seed: int = 0, players: int | None = None, variants: dict | None = None, strategies=None) -> dict:
    """The record of one simulated deal: trial 0 of ``cardlab simulate bisko-bobo --seed SEED`` with the same
    players (the same cards and draws; under ``exact_tie=redeal`` the deal finally played)."""
    P = rules().check_players(players)
    full = rules().resolve_variants(variants)
    strats = seat_strategies(strategy_items(strategies), P)
    key0, key1 = split_seed(seed)
    forced = np.full(3 * P, -1, dtype=np.int64)
    compile_note(GAME, K.trace_deal)  # a first record compiles its kernel: not in silence
    _n_win, _redeals, rec, _keys, trace, hi, lo = K.trace_deal(
        np.int64(P), high_deck(P), low_deck(P), variant_array(full), *stack(strats), K.RANK_PACK, forced, key0, key1,
        np.int64(0),
    )  # fmt: skip
    jingo = [s for s in range(P) if trace[3 * s] == 1]
    events: list[dict] = [{"seat": s, "take": "jingo" if trace[3 * s] == 1 else "flingo"} for s in range(P)]
    lows = {s: int(lo[i]) for i, s in enumerate(jingo)}
    done: set[int] = set()
    order = _order(lows)
    for i, s in enumerate(order):
        if s in done or not [t for t in order[i + 1 :] if t not in done]:
            continue
        t = int(trace[3 * s + 1])
        events.append({"seat": s, "swap": t if t >= 0 else None})
        done |= {s, t} if t >= 0 else {s}
    events += [{"seat": s, "place": "tucked" if trace[3 * s + 2] else "upright"} for s in jingo]
    doc: dict[str, Any] = {
        "game": GAME,
        "players": P,
        "variants": {k: v for k, v in full.items() if v != rules().variants[k]["default"]},
        "seed": int(seed),
        "strategies": {str(s): st.name for s, st in enumerate(strats)},
        "high": _text(hi[: int(trace[3 * P + 1])]),
        "low": _text(lo[: len(jingo)]),
        "events": events,
    }
    doc["result"] = replay(doc).result()
    doc["version"] = __version__
    return doc


# ---------------------------------------------------------------------------------------------
# Replaying
# ---------------------------------------------------------------------------------------------


@dataclass
class Deal:
    """A replayed record: the rules, the decks, the events and what the kernel's replay of them did."""

    P: int
    variants: dict  # every variant, resolved
    hi: np.ndarray  # the HIGH deck in deal order (the record's cards, then the rest unused)
    lo: np.ndarray  # the LOW cards of the Jingo players in seat order, then the rest unused
    events: list[tuple[str, int, Any]]  # (kind, seat, value): take 0/1, swap partner or -1, place 0/1
    strategies: list[str] | None
    rec: np.ndarray = field(default_factory=lambda: np.zeros(0))
    trace: np.ndarray = field(default_factory=lambda: np.zeros(0))
    n_win: int = 0
    spans: dict[int, tuple[int, int]] = field(default_factory=dict)  # a seat's Risky-Bisk cards: hi[a:b]
    order: list[int] = field(default_factory=list)  # the swap order (BB-6), once every seat has chosen
    # each swap turn (BB-6): the seat's eligible partners, and whether it must swap (bingo_swap_optional=false)
    turns: dict[int, tuple[list[int], bool]] = field(default_factory=dict)

    @property
    def over(self) -> bool:
        jingo = sum(1 for k, _s, v in self.events if k == "take" and v == 1)
        return sum(1 for k, *_ in self.events if k == "take") == self.P and (
            sum(1 for k, *_ in self.events if k == "place") == jingo
        )

    def result(self) -> dict:
        out: dict[str, Any] = {"jingo": [s for k, s, v in self.events if k == "take" and v == 1]}
        if self.over:
            wet = int(self.trace[3 * self.P])
            out["wet_bisk"] = _text([wet])
            out["win_share"] = {str(s): round(int(self.rec[s, K.R_WIN]) / 60, 4) for s in range(self.P)}
            out["winners"] = [s for s in range(self.P) if self.rec[s, K.R_WIN] > 0]
        return out


def _cards(doc: dict, key: str, deck: np.ndarray, what: str) -> list[int]:
    try:
        cards = DECK.indices(doc.get(key) or "")
    except CardlabError as e:
        raise CardlabError(f"bad record: {key}: {e}") from None
    allowed = set(deck.tolist())
    for c in cards:
        if c not in allowed:
            raise CardlabError(f"bad record: {key}: {_text([c])} is not {what} (BB-1)")
    return cards


def _full(given: list[int], deck: np.ndarray) -> np.ndarray:
    """The given cards in order, then the rest of the deck (cards the record does not need)."""
    rest = [c for c in deck.tolist() if c not in set(given)]
    return np.array(given + rest, dtype=np.int64)


def replay(doc: dict) -> Deal:
    """Check a record (its shape, its cards, then BB-5 .. BB-7 event by event) and return the replayed deal."""
    check_shape(doc, GAME, SCHEMA, EVENT_FORMS)
    g = rules()
    P = g.check_players(doc["players"])
    try:
        full = g.resolve_variants(doc.get("variants") or {})
    except CardlabError as e:
        raise CardlabError(f"bad record: variants: {e}") from None
    hid, lod = high_deck(P), low_deck(P)
    high = _cards(doc, "high", hid, f"a HIGH card for {P} players")
    low = _cards(doc, "low", lod, f"a LOW card for {P} players")
    if len(high) < 2 * P + 1:
        raise CardlabError(
            f"bad record: high gives {len(high)} cards; the deal begins with {2 * P + 1} (two opening cards a seat "
            "and the Wet Bisk, BB-4)"
        )
    strategies = doc.get("strategies")
    if strategies is not None:
        bad = [f"{k}={v}" for k, v in strategies.items() if v not in STRATEGIES or not k.isdigit() or int(k) >= P]
        if bad or len(strategies) != P:
            raise CardlabError(
                f'bad record: strategies: give every seat\'s, {{"0": NAME, ..., "{P - 1}": NAME}}, NAME one of '
                f"{', '.join(STRATEGIES)}" + (f" (not {bad[0]})" if bad else "")
            )
    deal = Deal(
        P=P, variants=full, hi=_full(high, hid), lo=_full(low, lod), events=[],
        strategies=[strategies[str(s)] for s in range(P)] if strategies else None,
    )  # fmt: skip
    evs = doc["events"]
    for i, ev in enumerate(evs):
        if ev["seat"] >= P:
            raise CardlabError(f"event {i}: seat {ev['seat']}: seats are 0..{P - 1}")
        kind = next(k for k in KINDS if k in ev)
        v = ev[kind]
        value = TWO_WAY[kind].index(v) if kind in TWO_WAY else (-1 if v is None else int(v))
        deal.events.append((kind, ev["seat"], value))
    forced = np.full(3 * P, -1, dtype=np.int64)
    for kind, s, value in deal.events:
        forced[KINDS[kind] * P + s] = value if kind != "swap" else value + 1
    pv = variant_array(full)
    base = seat_strategies(None, P)  # the decisions are all forced: the strategies' coins are never drawn
    n_win, rec, _keys, trace = K.play_fixed(
        np.int64(P), deal.hi, deal.lo, pv, *stack(base), K.RANK_PACK, forced, np.uint64(0), np.uint64(0), np.int64(0)
    )
    deal.rec, deal.trace, deal.n_win = rec, trace, int(n_win)
    _check_events(deal, len(high), len(low))
    return deal


def _risky_span(deal: Deal, s: int) -> tuple[int, int]:
    """Seat ``s``'s Risky-Bisk cards (BB-5) as positions in the HIGH deck: its Jingo card, or its Flingo card and
    any reward cards (a flung card of the opening upright card's suit earns one more; under flingo_reward_chain
    a reward does too)."""
    a = int(deal.rec[s, K.R_PTR])
    if deal.trace[3 * s] == 1:
        return a, a + 1
    b = a + 1
    chain = deal.variants["flingo_reward_chain"] == "true"
    while deal.hi[b - 1] // 13 == deal.hi[s] // 13 and b < len(deal.hi):
        b += 1
        if not chain:
            break
    return a, b


def _check_events(deal: Deal, n_high: int, n_low: int) -> None:
    """Each event in its phase and turn, and legal (BB-5 .. BB-7); the cards the events deal are in the record."""
    P, rec, trace = deal.P, deal.rec, deal.trace
    evs = deal.events
    i = 0
    # BB-5: every seat's Flingo or Jingo, in seat order
    for s in range(P):
        if i == len(evs):
            return
        kind, seat, value = evs[i]
        if kind != "take" or seat != s:
            raise CardlabError(
                f'event {i}: expected seat {s}\'s Flingo or Jingo ({{"seat": {s}, "take": ...}}): Risky-Bisk goes '
                "in seat order, every seat, before the swaps (BB-5)"
            )
        if trace[3 * s] != value:
            if rec[s, K.R_OPENING_BISKO]:
                why = f"seat {s} holds an opening Bisko ({_text(deal.hi[[s, P + s]])}) and must take a Jingo"
            else:
                why = (
                    f"the Jingo-count rule leaves seat {s} only a {TWO_WAY['take'][int(trace[3 * s])]} "
                    "(never exactly one Jingo)"
                )
            raise CardlabError(f"event {i}: {why} (BB-5)")
        deal.spans[s] = _risky_span(deal, s)
        if deal.spans[s][1] > n_high:
            raise CardlabError(
                f"bad record: high gives {n_high} cards, but seat {s}'s {TWO_WAY['take'][value]} is dealt card "
                f"{deal.spans[s][1]} (the cards in deal order, BB-4 .. BB-5)"
            )
        i += 1
    jingo = [s for s in range(P) if trace[3 * s] == 1]
    if not jingo:
        if i < len(evs):
            raise CardlabError(f"event {i}: no seat took a Jingo, so there is no swap and no placement (BB-6, BB-7)")
        if n_high < int(trace[3 * P + 1]):
            raise CardlabError(f"bad record: high gives {n_high} cards; the deal dealt {int(trace[3 * P + 1])}")
        return
    if i == len(evs):
        return
    if n_low < len(jingo):
        raise CardlabError(
            f"bad record: low gives {n_low} card{'s' if n_low != 1 else ''}; each of the {len(jingo)} Jingo players gets one, in seat order "
            "(BB-6)"
        )
    lows = {s: int(deal.lo[j]) for j, s in enumerate(jingo)}
    deal.order = order = _order(lows)
    must_variant = deal.variants["bingo_swap_optional"] == "false"
    # BB-6: the swap turns in the swap order
    done: set[int] = set()
    for j, s in enumerate(order):
        elig = [t for t in order[j + 1 :] if t not in done]
        if s in done or not elig:
            continue
        if i == len(evs):
            return
        kind, seat, value = evs[i]
        if kind != "swap" or seat != s:
            order_words = " ".join(f"{q} ({_text([lows[q]])})" for q in order)
            raise CardlabError(
                f'event {i}: expected seat {s}\'s swap turn ({{"seat": {s}, "swap": SEAT or null}}); the swap '
                f"order by LOW card is {order_words} (BB-6)"
            )
        if value >= 0 and value not in elig:
            raise CardlabError(
                f"event {i}: seat {s} cannot swap with seat {value}: the partner is a Jingo player after it in the "
                f"order who has not swapped ({', '.join(map(str, elig))}) (BB-6)"
            )
        must = must_variant and all(q in done for q in order[:j])
        deal.turns[s] = (elig, must)
        if value < 0 and must:
            raise CardlabError(
                f"event {i}: seat {s} is the highest unswapped player and must swap (BB-6, bingo_swap_optional=false)"
            )
        done |= {s, value} if value >= 0 else {s}
        i += 1
    # BB-7: each Jingo player places its card, in seat order
    for s in jingo:
        if i == len(evs):
            return
        kind, seat, value = evs[i]
        if kind != "place" or seat != s:
            raise CardlabError(
                f'event {i}: expected seat {s}\'s placement ({{"seat": {s}, "place": ...}}): after the swaps each '
                "Jingo player places its card, in seat order (BB-7)"
            )
        if value == 1 and rec[s, K.R_BUCKET_TUCK] < 0 and rec[s, K.R_OPENING_BISKO]:
            raise CardlabError(
                f"event {i}: seat {s} opened with a Bisko, so it has no tucked card: its Jingo card goes upright (BB-7)"
            )
        if value == 1 and rec[s, K.R_BUCKET_TUCK] < 0:
            raise CardlabError(
                f"event {i}: seat {s} cannot tuck its Jingo card: it is tucked only to make a Bobo, matching the "
                "tucked card's suit (BB-7, jingo_tuck_rule=bobo_only)"
            )
        i += 1
    if i < len(evs):
        raise CardlabError(f"event {i}: the deal is over after the placements (BB-7); the Bedtime cards are dealt")
    if n_high < int(trace[3 * P + 1]):
        raise CardlabError(
            f"bad record: high gives {n_high} cards; the deal dealt {int(trace[3 * P + 1])} (the Bedtime cards "
            "too, BB-9)"
        )


# ---------------------------------------------------------------------------------------------
# Reviewing
# ---------------------------------------------------------------------------------------------


def _swap_turns(deal: Deal, upto: int) -> dict[int, int]:
    """The swap turns among the first ``upto`` events: seat -> partner, or -1 for no swap."""
    return {s: v for k, s, v in deal.events[:upto] if k == "swap"}


def _partner(deal: Deal, s: int) -> int:
    """The seat that ``s`` swapped Jingo cards with (either side of the swap), or -1."""
    for k, a, v in deal.events:
        if k == "swap" and v >= 0 and s in (a, v):
            return v if a == s else a
    return -1


def position_at(deal: Deal, i: int) -> dict:
    """What the seat deciding event ``i`` saw then (BB-14), in words: its cards, the table, the choices so far."""
    kind, s, _v = deal.events[i]
    P = deal.P
    pos: dict[str, Any] = {"seat": s, "decision": DECISION_WORDS[kind]}
    up_or_tucked = "up" if deal.rec[s, K.R_OPENING_BISKO] else "tucked"
    pos["hand"] = f"{_text([deal.hi[s]])} up, {_text([deal.hi[P + s]])} {up_or_tucked}"
    if kind != "take":
        a, b = deal.spans[s]
        if deal.trace[3 * s] == 0:
            pos["hand"] += f", Flingo {_text(deal.hi[a:b])}"
        else:
            p = _partner(deal, s)
            if kind == "place" and p >= 0:  # both partners know both cards (BB-6)
                pos["hand"] += f", Jingo {_text([deal.hi[deal.spans[p][0]]])} (swapped, was {_text([deal.hi[a]])})"
            else:
                pos["hand"] += f", Jingo {_text([deal.hi[a]])}"
    jingos_before = sum(1 for t in range(s) if deal.trace[3 * t] == 1)
    if kind == "take":
        pos["current"] = f"{jingos_before} Jingo{'s' if jingos_before != 1 else ''} before"
    elif kind == "swap":
        pos["current"] = f"swap order {' '.join(map(str, deal.order))}"
    else:
        pos["current"] = "placement"
    pos["by"] = None
    return pos


@dataclass
class _Forced:
    """A decision with one legal action (an opening Bisko's Jingo, BB-5's count rule, an untuckable card): the
    review counts it as forced and runs nothing."""

    describe: dict


def decision_spec(deal: Deal, i: int, models: list[str]) -> tuple[KernelSpec, str]:
    """The advisor's spec for event ``i`` from what its seat saw (BB-14), and the name of the action taken (a
    :class:`_Forced` in place of the spec where the seat had one legal action).

    Known HIGH cards stay at their deck positions (every opening card; the Flingo cards of the seats that have
    chosen; at the swap and the placement the seat's own Jingo card, and at the placement its swap partner's);
    the other positions are filled from the unseen cards, uniformly. The seats' earlier actions are forced, the
    later ones are the models'."""
    kind, s, value = deal.events[i]
    if kind != "swap" and deal.rec[s, K.R_BUCKET_FLINGO + KINDS[kind]] < 0:
        return _Forced({"actions": [TWO_WAY[kind][value]], "seat": s}), TWO_WAY[kind][value]  # type: ignore[return-value]
    P = deal.P
    hid, lod = high_deck(P), low_deck(P)
    template = np.full(len(hid), -1, dtype=np.int64)
    template[: 2 * P] = deal.hi[: 2 * P]
    forced = np.full(3 * P, -1, dtype=np.int64)
    chosen = range(s) if kind == "take" else range(P)
    for t in chosen:
        forced[t] = deal.trace[3 * t]
        a, b = deal.spans[t]
        if deal.trace[3 * t] == 0:
            template[a:b] = deal.hi[a:b]
    lo_template = np.full(len(lod), -1, dtype=np.int64)
    jingo_mask = sum(1 << t for t in range(P) if deal.trace[3 * t] == 1)
    if kind != "take":
        template[deal.spans[s][0]] = deal.hi[deal.spans[s][0]]
        n_j = bin(jingo_mask).count("1")
        lo_template[:n_j] = deal.lo[:n_j]
        for t, v in _swap_turns(deal, i).items():
            forced[P + t] = v + 1
    if kind == "place":
        p = _partner(deal, s)
        if p >= 0:
            template[deal.spans[p][0]] = deal.hi[deal.spans[p][0]]
        if deal.variants["jingo_placement_order"] == "clockwise_sequential":
            for k, t, v in deal.events[:i]:
                if k == "place":
                    forced[2 * P + t] = v
    if kind == "swap":
        targets, must = deal.turns[s]
        actions = ([] if must else [0]) + [1 + t for t in targets]
        names = ([] if must else ["no swap"]) + [f"swap with seat {t}" for t in targets]
        taken = "no swap" if value < 0 else f"swap with seat {value}"
    else:
        actions = [0, 1]
        names = list(TWO_WAY[kind])
        taken = names[value]
    known = set(int(c) for c in template if c >= 0)
    pool = np.array([c for c in hid if c not in known], dtype=np.int64)
    lo_known = set(int(c) for c in lo_template if c >= 0)
    lo_pool = np.array([c for c in lod if c not in lo_known], dtype=np.int64)
    strats = seat_strategies(models, P)
    args = (
        np.int64(P), hid, lod, variant_array(deal.variants), *stack(strats), K.RANK_PACK, template, pool, lo_template,
        lo_pool, forced, np.int64(s), np.int64(KINDS[kind]), np.int64(jingo_mask),
        np.int64(0 if kind == "take" else (1 << P) - 1), np.array(actions, dtype=np.int64),
    )  # fmt: skip
    spec = advisor_spec(
        GAME, "kernels.bisko_bobo:odds_actions_chunks", args, names, on="score", players=P, variants=deal.variants,
        strategies=[x.name for x in strats], seat=s, decision=DECISION_WORDS[kind], rank_by="score", has_last=False,
    )  # fmt: skip
    spec = dataclasses.replace(spec, n_counts=1 + spec.n_counts, tabulate=tabulate_shares)
    return spec, taken


def tabulate_shares(counts: np.ndarray, trials: int, spec: KernelSpec) -> pd.DataFrame:
    """The advisor's table of a review decision (:func:`.bisko_bobo_swap.share_table`: ``win`` the win share,
    ``sole_win`` the outright win), the win share repeated as the review's ``score``; the attempt count before the
    row is set aside (every sample matches: the review forces the past)."""
    c = np.asarray(counts)
    t = share_table(c[1:], trials, spec)
    score = t[t.measure.isin(["win", "diff_win"])].assign(measure=lambda d: d.measure.str.replace("win", "score"))
    return pd.concat([t, score], ignore_index=True)


def review(
    doc: dict,
    *,
    seat: int | None = None,
    strategies: list[str] | None = None,
    precision: float = 0.01,
    seed: int = 0,
    max_trials: int = 200_000,
    chunk_size: int = 2048,
    threads: int | None = None,
    progress: bool = False,
) -> Result:
    """Every free decision of ``seat`` (every seat when None) in the record, judged to ±``precision`` of the win
    share on the paired differences (or at ``max_trials`` sampled deals); the models are ``strategies``, else the
    record's, else heuristic players."""
    deal = replay(doc)
    P = deal.P
    if seat is not None and not 0 <= seat < P:
        raise CardlabError(f"bad --seat {seat}: seats are 0..{P - 1}")
    models = review_models(strategies, deal.strategies, DEFAULT_STRATEGY)
    names = seat_assignments(models, P, DEFAULT_STRATEGY, STRATEGIES)
    it = [i for i, (_k, s, _v) in enumerate(deal.events) if seat is None or s == seat]

    def decisions():
        for i in it:
            spec, taken = decision_spec(deal, i, models)
            yield i, position_at(deal, i), taken, spec

    rows, forced, trials = judge(
        decisions(), len(it), precision=precision, seed=seed, max_trials=max_trials, chunk_size=chunk_size,
        threads=threads, progress=progress,
    )  # fmt: skip
    for r in rows:
        pos = position_at(deal, r["event"])
        r["on_table"] = pos["current"]
    res = review_result(
        GAME, rows, players=P, variants=deal.variants, strategies=names, seat=seat, forced=forced,
        events=len(deal.events), over=deal.over, outcome=deal.result(), precision=precision, trials=trials,
        seed=seed, unit_word="deal",
    )  # fmt: skip
    res.meta["summary"] = summary(res)
    res.meta["verdict_measure"] = "win"  # the verdicts and the best go by the win share
    # columns that repeat the win share by construction (the review's score is that share): the table view leaves
    # them out; csv, json and --all keep them
    res.meta["repeats_win"] = ["score_taken", "score_best", "loss_score"]
    return res


def summary(result: Result) -> str:
    """One line: how many decisions, how many clearly worse than the best and what they cost in win share."""
    line = review_summary(result, "forced choices", cost="share")
    return line


WIN_LABEL = "win share of the deal (%)"


def sections(result: Result, record_name: str):
    """The review as report sections (README.md, review.html and the chart, as ``cardlab report`` writes)."""
    m = result.meta
    intro = (
        f"{record_name}: one deal of Bisko-Bobo at {m['players']} players, models {', '.join(m['strategies'])}; "
        "each free decision (Flingo or Jingo, the swap and with whom, the placement) judged on what its seat saw "
        "then, every action on the same sampled deals, to "
        f"±{m['precision_target']:g} of the win share on the paired differences. win_taken and win_best are the "
        "seat's win share of the deal (a split win counts its share, BB-12.6) with the action taken and the best; "
        "loss_win their difference (0 where the two are not separated at 95%); sole_win_* the chance to win "
        "outright."
    )
    cols = ["event", "seat", "decision", "hand", "on_table", "taken", "best", "verdict", "win_taken", "win_best",
            "loss_win", "loss_win_low", "loss_win_high", "sole_win_taken", "sole_win_best"]  # fmt: skip
    return intro, review_sections(result, m["summary"], "Chance to win the deal", WIN_LABEL, cols)
