"""Zheng Shangyou records and reviews (``cardlab record`` / ``cardlab review``; ``../shared/design/positions.md``,
the event vocabulary in ``seeds/zheng-shangyou.md``).

A **record** is one game from the deal to its end (or to where it was left off): the dealt ``hands`` and the
``events`` in order, each ``{"seat": S, "play": "5S 5H"}`` or ``{"seat": S, "pass": true}``. Loading replays it
under the rules (ZS-3 first leader, ZS-4 turn order and trick end, ZS-5/ZS-6 legal plays: the kernel's move
generator decides) and refuses the first illegal event in one line naming its index and rule.

A record may give only some seats' hands (a game a person played, who saw their own cards): the other seats
then hold unknown cards, as many as the deal gives them (ZS-1). Their plays are checked as far as the known
cards allow: each a combination that beats the table (ZS-5, ZS-6), of no more cards than the seat holds, and of
cards that no known hand was dealt and that were not played before (the deck's copies). The first leader must
be the known seat holding the lowest card if one does (ZS-3), else a seat of unknown cards. Only a seat whose
hand is given can be reviewed, and a review needs nothing more: it reads only what the seat knew.

A **review** takes, at each decision of a seat, only what that seat knew (its own hand, the cards played, the
play on the table and who made it, the cards each seat holds, the seats out, the revolution, who has not
played yet: :func:`position_at`), runs the advisor on it and reports the action taken, the best action and
what the choice cost (``loss_win``, ``loss_score`` with 95% intervals; zero where the taken action is not
separated from the best). A turn with one legal action (a pass when nothing beats) is not a decision.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from kernels import zheng_shangyou as K

from .. import __version__
from ..driver import compile_note, split_seed
from ..errors import CardlabError
from ..review import check_shape, judge, review_models
from ..review import result as review_result  # noqa: F401  (load_record: the game's API)
from ..review import sections as review_sections
from ..review import summary as review_summary
from ..tables import Result
from .zheng_shangyou import (
    DEFAULT_STRATEGY,
    GAME,
    _encode,
    _table,
    cards_of,
    classify_mask,
    copies,
    hand_sizes,
    needs_full,
    play_text,
    strategy_table,
    variant_array,
)
from .zheng_shangyou_odds import _codes as codes_of
from .zheng_shangyou_odds import odds_spec

#: the record document's shape (checked first; the rules are checked by the replay)
SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["game", "hands", "events"],
    "additionalProperties": False,
    "properties": {
        "game": {"const": GAME},
        "players": {"type": "integer"},
        "variants": {"type": "object", "additionalProperties": {"type": ["string", "integer", "boolean"]}},
        "seed": {"type": ["integer", "null"]},
        "strategies": {"type": "object", "additionalProperties": {"type": "string"}},
        "hands": {"type": "object", "additionalProperties": {"type": "string"}},
        "dealer": {"type": "integer"},
        "leader": {"type": "integer"},
        "events": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["seat"],
                "additionalProperties": False,
                "properties": {
                    "seat": {"type": "integer"},
                    "play": {"type": "string"},
                    "pass": {"const": True},
                },
                "oneOf": [{"required": ["play"]}, {"required": ["pass"]}],
            },
        },
        "result": {"type": "object"},
        "version": {"type": "string"},
    },
}


def _codes(ms: tuple[int, int]) -> Counter[int]:
    return Counter(codes_of(ms))


#: the key under which a hand of unknown cards counts them (a record that gives only some seats' hands)
UNKNOWN = -1


def _masks(cs: Counter[int]) -> tuple[int, int]:
    return sum(1 << c for c, k in cs.items() if k > 0), sum(1 << c for c, k in cs.items() if k > 1)


def _text(cs: Counter[int]) -> str:
    return cards_of(*_masks(cs))


# ---------------------------------------------------------------------------------------------
# Recording
# ---------------------------------------------------------------------------------------------


def record(
    seed: int = 0, players: int | None = None, variants: dict | None = None, strategies: list[str] | None = None
) -> dict:
    """The record of one simulated game: the first game of trial 0 of ``cardlab simulate zheng-shangyou
    --seed SEED`` with the same players (the same deal, leader and draws)."""
    P, deck, n_deal, zv, full = _table(players, variants)
    strat, names = strategy_table(strategies, P)
    key0, key1 = split_seed(seed)
    hands0 = np.zeros((P, 2), dtype=np.uint64)
    log = np.zeros((K.MAX_TURNS + 1, 3), dtype=np.int64)
    play = K.record_full_game if needs_full(strat) else K.record_game
    compile_note(GAME, play)  # a first record compiles its kernel: not in silence
    play(key0, key1, np.int64(0), np.int64(P), deck, n_deal, strat, zv, hands0, log)
    events: list[dict] = []
    for seat, play, dup in log[1 : 1 + int(log[0, 0])]:
        if play == 0:
            events.append({"seat": int(seat), "pass": True})
        else:
            events.append({"seat": int(seat), "play": play_text((int(play), int(dup)), zv)})  # A-2-3 as read
    doc = {
        "game": GAME,
        "players": P,
        "variants": {k: v for k, v in full.items() if v != _defaults().get(k)},
        "seed": int(seed),
        "strategies": {str(s): n for s, n in enumerate(names)},
        "hands": {str(s): cards_of(int(hands0[s, 0]), int(hands0[s, 1])) for s in range(P)},
        "events": events,
    }
    game = replay(doc)
    doc["result"] = game.result()
    doc["version"] = __version__
    return doc


def _defaults() -> dict:
    from .zheng_shangyou import rules

    return {k: v["default"] for k, v in rules().variants.items()}


# ---------------------------------------------------------------------------------------------
# Replaying (validation, and the state before every event)
# ---------------------------------------------------------------------------------------------


@dataclass
class State:
    """The game before one event: everything public, and every hand (the replay's own view)."""

    turn: int
    hands: list[Counter]
    current: Counter | None  # the cards of the play on the table (None: the seat to act leads)
    by: int  # who made it
    finished: list[int]
    revolution: bool
    played: Counter  # cards out of play before the current play
    never_played: list[int]

    def counts(self) -> list[int]:
        return [sum(h.values()) for h in self.hands]


@dataclass
class Game:
    players: int
    variants: dict
    strategies: list[str] | None
    hands: list[Counter]
    events: list[dict]
    full: dict = field(default_factory=dict)  # every variant's value
    leader: int | None = None  # the record's first leader (a later game of a match), else ZS-3's
    states: list[State] = field(default_factory=list)  # the state before each event
    finished: list[int] = field(default_factory=list)
    over: bool = False

    def result(self) -> dict:
        out: dict[str, Any] = {"finished": list(self.finished), "over": self.over}
        if self.over:
            out["winner"] = self.finished[0]
            out["loser"] = next(s for s in range(self.players) if s not in self.finished)
        return out


def _check_shape(doc: Any) -> None:
    check_shape(doc, GAME, SCHEMA, '{"seat": S, "play": "CARDS"} or {"seat": S, "pass": true}')


def replay(doc: dict) -> Game:
    """Replay a record under the rules; the first illegal event is refused in one line (its index, the rule)."""
    _check_shape(doc)
    variants = doc.get("variants") or {}
    P, deck, n_deal, zv, full = _table(doc.get("players"), {k: str(v).lower() for k, v in variants.items()})
    variants = {k: str(v).lower() for k, v in variants.items()}
    n_copies = copies(variants)
    strategies = doc.get("strategies")
    names = None
    if strategies:
        names = [f"{s}={n}" for s, n in strategies.items()]
        try:
            strategy_table(names, P)  # names (with a search player's parameters) and seats checked
        except CardlabError as e:
            raise CardlabError(f"bad record: strategies: {e}") from None
    hands: list[Counter] = []
    seen: Counter[int] = Counter()
    dealer, leader = doc.get("dealer", 0), doc.get("leader")
    for name, v in (("dealer", dealer), ("leader", leader)):
        if v is not None and not 0 <= v < P:
            raise CardlabError(f"bad record: {name} {v}: seats are 0..{P - 1}")
    # the deal goes one card at a time clockwise from the dealer (ZS-1): the dealer and the seats after it hold
    # the odd cards
    dealt = [hand_sizes(P, int(n_deal))[(s - dealer) % P] for s in range(P)]
    extra = sorted(set(doc["hands"]) - {str(s) for s in range(P)})
    if extra:
        raise CardlabError(f"bad record: hands: seat {extra[0]} in a {P}-player game (seats 0..{P - 1})")
    if not doc["hands"]:
        raise CardlabError("bad record: hands: give at least one seat's dealt cards (yours, to review your play)")
    for s in range(P):
        if str(s) not in doc["hands"]:
            hands.append(Counter({UNKNOWN: dealt[s]}))  # cards the record does not name
            continue
        try:
            h = _codes(_encode(doc["hands"][str(s)], variants))
        except CardlabError as e:
            raise CardlabError(f"bad record: hands: seat {s}: {e}") from None
        hands.append(h)
        seen.update(h)
    pool = Counter(int(c) for c in deck)
    over = [c for c, k in seen.items() if k > pool[c]]
    if over:
        many = "once" if n_copies == 1 else "twice"
        raise CardlabError(
            f"bad record: hands: {cards_of(1 << over[0])} is dealt more often than the deck holds it ({many})"
        )
    sizes = [sum(h.values()) for h in hands]
    if sizes != dealt:
        bad = next(s for s in range(P) if sizes[s] != dealt[s])
        raise CardlabError(
            f"bad record: hands: seat {bad} holds {sizes[bad]} cards; the deal gives the seats {dealt} (ZS-1)"
        )
    game = Game(P, variants, names, [Counter(h) for h in hands], doc["events"], full, leader)
    _play(game, zv, full, pool, int(n_deal))
    stated = doc.get("result")
    if stated is not None and stated != game.result():
        raise CardlabError(
            f"bad record: result {json.dumps(stated)} is not what its events give: {json.dumps(game.result())}"
        )
    return game


def _play(game: Game, zv: np.ndarray, full: dict, pool: Counter, n_deal: int) -> None:
    P = game.players
    hands = [Counter(h) for h in game.hands]
    unknown = [UNKNOWN in h for h in hands]
    # where each copy of a card is known to be: a known hand, an unknown seat's play, the first leader's
    origin: dict[int, list[str]] = {}
    for s, h in enumerate(hands):
        for c in h.elements():
            if c != UNKNOWN:
                origin.setdefault(c, []).append(f"in seat {s}'s hand, as the record gives it")
    reserved: Counter[int] = Counter()  # a card the unknown first leader must hold (ZS-3): no other seat plays it
    if game.leader is not None:  # a later game of a match: the leader the variant gives, as the record says
        leader = game.leader
    elif not any(unknown):
        masks = [_masks(h) for h in hands]
        leader = int(K.first_leader(np.int64(P), np.array(masks, dtype=np.uint64).reshape(P, 2)))
    else:
        leader, reserved = _partial_leader(game, hands, unknown, pool, n_deal)
        for c in reserved:
            origin.setdefault(c, []).append(f"seat {leader}'s, which leads first and so holds the lowest card (ZS-3)")
    turn, current, cur_kind, by, passes, rev = leader, None, (0, 0, 0), leader, 0, False
    played: Counter[int] = Counter()
    never = set(range(P))
    finished = game.finished
    moves = K.new_moves()
    for i, ev in enumerate(game.events):
        if game.over:
            raise CardlabError(f"bad record: event {i}: the game is over (only seat {_last(hands)} holds cards)")
        seat = ev["seat"]
        if seat != turn:
            why = "ZS-4"
            if i == 0:
                why = "the record's leader" if game.leader is not None else "it holds the lowest card and leads, ZS-3"
            raise CardlabError(f"bad record: event {i}: seat {seat} acts, but it is seat {turn}'s turn ({why})")
        game.states.append(
            State(turn, [Counter(h) for h in hands], None if current is None else Counter(current), by,
                  list(finished), rev, Counter(played), sorted(never))
        )  # fmt: skip
        if "pass" in ev:
            if current is None:
                raise CardlabError(f"bad record: event {i}: seat {seat} passes on lead; a leader must play (ZS-4)")
            passes += 1
        else:
            if ev["play"].strip().lower() == "pass":
                raise CardlabError(f'bad record: event {i}: a pass is written {{"seat": {seat}, "pass": true}}')
            try:
                ms = _encode(ev["play"], game.variants)
            except CardlabError as e:
                raise CardlabError(f"bad record: event {i}: {e}") from None
            cs = _codes(ms)
            if unknown[seat]:
                mine = reserved & cs if seat == leader else Counter()  # the leader's own reserved card
                reserved -= mine
                _check_unknown_play(i, seat, cs - mine, sum(cs.values()), hands[seat][UNKNOWN], origin, pool)
                for c in (cs - mine).elements():
                    origin.setdefault(c, []).append(f"out: seat {seat} played it at event {i}")
                legal = _beats(ms, cur_kind if current is not None else None, zv, rev)
            else:
                if cs - hands[seat]:
                    raise CardlabError(f"bad record: event {i}: seat {seat} does not hold {_text(cs - hands[seat])}")
                hm = _masks(hands[seat])
                n = int(
                    K.generate_moves(
                        np.uint64(hm[0]), np.uint64(hm[1]), *map(np.int64, cur_kind), moves, zv, np.int64(rev)
                    )
                )
                legal = (int(ms[0]), int(ms[1])) in {(int(a), int(b)) for a, b in moves[:n]}
            if not legal:
                if classify_mask(ms, zv, rev)[0] == 0:
                    raise CardlabError(f"bad record: event {i}: {ev['play']!r} is not a combination (ZS-5)")
                raise CardlabError(
                    f"bad record: event {i}: {ev['play']!r} does not beat {_text(current or Counter())!r} (ZS-6)"
                )
            kind = classify_mask(ms, zv, rev)
            if full["revolution"] == "true" and kind[0] == K.K_BOMB and kind[1] >= 4:
                rev = not rev  # variant 7: a four of a kind turns the order over (a bomb of three does not)
                kind = classify_mask(ms, zv, rev)
            if current is not None:
                played.update(current)
            hands[seat] -= Counter({UNKNOWN: sum(cs.values())}) if unknown[seat] else cs
            never.discard(seat)
            current, cur_kind, by, passes = cs, kind, seat, 0
            if not hands[seat]:
                finished.append(seat)
                if sum(1 for h in hands if h) == 1:
                    game.over = True
                    continue
            if full["auto_restart_after_unbeatable"] == "true" and (
                (kind[0] == K.K_SINGLE and kind[2] == 53) or (kind[0] == K.K_PAIR and kind[2] == 12 * 4 + 3)
            ):
                passes = P  # variant 9: the trick ends at once
        active = sum(1 for h in hands if h)
        if passes >= active - (1 if hands[by] else 0):  # ZS-4: every other seat holding cards passed
            played.update(current or Counter())
            current, cur_kind, passes = None, (0, 0, 0), 0
            turn = by
        else:
            turn = (turn + 1) % P
        while not hands[turn]:
            turn = (turn + 1) % P


def _partial_leader(
    game: Game, hands: list[Counter], unknown: list[bool], pool: Counter, n_deal: int
) -> tuple[int, Counter]:
    """The first leader of a record that gives only some hands, and the card it must hold. ZS-3: the holder of the
    lowest card dealt leads (of two copies, the first holder from seat 0). The record's first event names it; it is
    refused only where the known hands rule it out:
    - a known leader whose lowest card is not the lowest dealt: a known hand holds a lower card (or the same, at a
      lower seat), or more copies of lower cards exist than the deal leaves out (3 players: one card undealt);
    - an unknown leader where a known hand holds every copy of the deck's lowest card, or one copy at a lower seat.
    Where every card is dealt, an unknown leader holds the deck's lowest card: one copy is reserved for it (another
    seat that plays it is refused)."""
    P = game.players
    undealt = sum(pool.values()) - n_deal
    lowest = min(c for c in pool if pool[c] > 0)
    known_cards = Counter(c for s in range(P) if not unknown[s] for c in hands[s].elements())
    if not game.events:
        return next((s for s in range(P) if hands[s][lowest] > 0), unknown.index(True)), Counter()
    first = game.events[0]["seat"]
    if not 0 <= first < P:
        return first, Counter()  # refused as a seat out of range by the replay
    if not unknown[first]:
        play = game.events[0].get("play")
        try:
            cs = _codes(_encode(play, game.variants)) if isinstance(play, str) else Counter()
        except CardlabError:
            cs = Counter()
        if cs - hands[first]:
            return first, Counter()  # a card it does not hold: the replay says so, a clearer clue than ZS-3
        low = min(hands[first])
        lower = sum(k for c, k in pool.items() if c < low)
        below = [s for s in range(P) if not unknown[s] and s != first
                 and (any(c < low for c in hands[s]) or (hands[s][low] > 0 and s < first))]  # fmt: skip
        if below or lower > undealt:
            who = (
                f"seat {below[0]} holds a lower card"
                if below
                else f"{lower} lower card{' is' if lower == 1 else 's are'} dealt to the others"
            )
            raise CardlabError(
                f"bad record: event 0: seat {first} leads with {cards_of(1 << low)} its lowest card, but {who} "
                "(ZS-3: the lowest card dealt leads)"
            )
        return first, Counter()
    free = pool[lowest] - known_cards[lowest]
    holders = [s for s in range(P) if not unknown[s] and hands[s][lowest] > 0]
    if free == 0 or (holders and holders[0] < first):
        raise CardlabError(
            f"bad record: event 0: seat {first} leads, but seat {holders[0]} holds {cards_of(1 << lowest)}, the "
            "lowest card (ZS-3)"
        )
    return first, (Counter({lowest: 1}) if undealt == 0 else Counter())


def _check_unknown_play(
    i: int, seat: int, cs: Counter, n: int, holds: int, origin: dict[int, list[str]], pool: Counter
) -> None:
    """A play of ``n`` cards by a seat whose cards the record does not give: no more cards than it holds, and each
    card of ``cs`` one the deck still has unseen (``origin``: where each copy is known to be)."""
    if n > holds:
        raise CardlabError(f"bad record: event {i}: seat {seat} plays {n} cards but holds {holds}")
    for c, k in cs.items():
        where = origin.get(c, [])
        if len(where) + k > pool[c]:
            copies = "" if pool[c] == 1 else f"the deck's {pool[c]} copies: "
            raise CardlabError(
                f"bad record: event {i}: seat {seat} plays {cards_of(1 << c)}, but {copies}{cards_of(1 << c)} is "
                f"{'; '.join(where)}"
            )


def _beats(ms: tuple[int, int], cur_kind: tuple | None, zv: np.ndarray, rev: bool) -> bool:
    """Whether the play ``ms`` may be made on the table (a combination on lead, else one that beats it:
    ZS-5, ZS-6); for a seat whose hand is unknown, where the move generator has no hand to list."""
    k, n, key = classify_mask(ms, zv, rev)
    if k == 0:
        return False
    if cur_kind is None:
        return True
    ck, cn, ckey = cur_kind
    return bool(K.beats(np.int64(ck), np.int64(cn), np.int64(ckey), np.int64(k), np.int64(n), np.int64(key), zv))


def _last(hands: list[Counter]) -> int:
    return next(s for s, h in enumerate(hands) if h)


# ---------------------------------------------------------------------------------------------
# Reviewing
# ---------------------------------------------------------------------------------------------


def position_at(game: Game, i: int) -> dict:
    """The advisor's keywords for the decision before event ``i``: only what its seat knew then."""
    st = game.states[i]
    seat = st.turn
    counts = st.counts()
    pos: dict[str, Any] = {
        "players": game.players,
        "seat": seat,
        "hand": _text(st.hands[seat]),
        "cards_left": {str(s): n for s, n in enumerate(counts) if s != seat and n > 0},
        "finished": list(st.finished),
        "revolution": st.revolution,
        "never_played": list(st.never_played),
    }
    if st.current is not None:
        pos["current"], pos["by"] = _text(st.current), st.by
    if st.played:
        pos["played"] = _text(st.played)
    return pos


def _action(ev: dict, variants: dict) -> str:
    # as the advisor names its actions (a straight through the two from its low end)
    return "pass" if "pass" in ev else play_text(_encode(ev["play"], variants), variant_array(variants))


def review(
    doc: dict,
    *,
    seat: int | None = None,
    strategies: list[str] | None = None,
    precision: float = 0.02,
    seed: int = 0,
    max_trials: int = 200_000,
    chunk_size: int = 512,
    threads: int | None = None,
    progress: bool = False,
) -> Result:
    """Every decision of ``seat`` (every seat when None) in the record, judged by the advisor to ±``precision``
    on the paired differences (or at ``max_trials`` sampled layouts); the models are ``strategies``, else the
    record's, else the game's default."""
    game = replay(doc)
    P = game.players
    if seat is not None and not 0 <= seat < P:
        raise CardlabError(f"bad --seat {seat}: seats are 0..{P - 1}")
    known = [UNKNOWN not in h for h in game.hands]
    if seat is not None and not known[seat]:
        given = ", ".join(str(s) for s in range(P) if known[s])
        raise CardlabError(f"bad --seat {seat}: the record does not give its hand (it gives seat {given}'s)")
    if seat is None and sum(known) == 1:  # a record of one seat's hand: the review is that seat's
        seat = known.index(True)
    models = review_models(strategies, game.strategies, DEFAULT_STRATEGY)
    # every seat whose hand the record gives when no seat is named
    it = [i for i, st in enumerate(game.states) if st.turn == seat or (seat is None and known[st.turn])]

    def decisions():
        for i in it:
            pos = position_at(game, i)
            # after the Winner went out (the scores taken, ZS-8) the advisor ranks by the chance to end last, and
            # so does the review (analysis.review.decision_row)
            spec = odds_spec(variants=game.variants, strategies=models, **pos)
            yield i, pos, _action(game.events[i], game.variants), spec

    rows, forced, trials = judge(
        decisions(), len(it), precision=precision, seed=seed, max_trials=max_trials, chunk_size=chunk_size,
        threads=threads, progress=progress,
    )  # fmt: skip
    result = review_result(
        GAME, rows, players=P, variants=game.full, strategies=strategy_table(models, P)[1], seat=seat, forced=forced,
        events=len(game.events), over=game.over, outcome=game.result(), precision=precision, trials=trials, seed=seed,
    )  # fmt: skip
    result.meta["summary"] = summary(result)
    # the verdicts and the best go by the chance to go out first (after the Winner is out, to end last: loss_last)
    result.meta["verdict_measure"] = "win"
    return result


def summary(result: Result) -> str:
    """One line: how many decisions, how many clearly worse than the best, and what they cost."""
    return review_summary(result)


def win_figure(result: Result):
    """The seat's chance to go out first through the game: the best action's and the taken action's."""
    from ..review import win_figure as figure

    return figure(result, "chance to go out first (%)")


def sections(result: Result, record_name: str):
    """The review as report sections (README.md, review.html and the chart, as ``cardlab report`` writes)."""

    m = result.meta
    intro = (
        f"{record_name}: {m['players']} players, models {', '.join(m['strategies'])}; each decision judged on "
        f"what its seat knew then, every action on the same sampled layouts, to ±{m['precision_target']:g} on the "
        "paired differences. loss_win is the best action's chance to go out first minus the taken action's "
        "(0 where the two are not separated at 95%); loss_score the same for the score (ZS-8). After the Winner "
        "went out the scores are settled and a decision is judged by the chance to end last (the Loser): "
        "last_taken, and loss_last, the taken action's chance minus the best's where it is clearly higher."
    )
    cols = ["event", "seat", "on_table", "taken", "best", "verdict", "win_taken", "loss_win", "loss_win_low",
            "loss_win_high", "loss_score", "last_taken", "loss_last"]  # fmt: skip
    return intro, review_sections(result, summary(result), "Chance to go out first through the game",
                                  "chance to go out first (%)", cols)  # fmt: skip
