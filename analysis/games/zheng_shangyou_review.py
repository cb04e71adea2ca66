"""Zheng Shangyou records and reviews (``cardlab record`` / ``cardlab review``; ``../shared/design/positions.md``,
the event vocabulary in ``seeds/zheng-shangyou.md``).

A **record** is one game from the deal to its end (or to where it was left off): every seat's dealt ``hands``
and the ``events`` in order, each ``{"seat": S, "play": "5S 5H"}`` or ``{"seat": S, "pass": true}``. Loading
replays it under the rules (ZS-3 first leader, ZS-4 turn order and trick end, ZS-5/ZS-6 legal plays: the
kernel's move generator decides) and refuses the first illegal event in one line naming its index and rule.

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
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from kernels import zheng_shangyou as K

from .. import __version__
from ..driver import run as run_spec
from ..driver import split_seed
from ..errors import CardlabError
from ..tables import Result
from .zheng_shangyou import (
    DEFAULT_STRATEGY,
    GAME,
    STRATEGIES,
    _encode,
    _table,
    cards_of,
    classify_mask,
    copies,
    hand_sizes,
    strategy_table,
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
    K.record_game(key0, key1, np.int64(0), np.int64(P), deck, n_deal, strat, zv, hands0, log)
    events: list[dict] = []
    for seat, play, dup in log[1 : 1 + int(log[0, 0])]:
        if play == 0:
            events.append({"seat": int(seat), "pass": True})
        else:
            events.append({"seat": int(seat), "play": cards_of(int(play), int(dup))})
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
    states: list[State] = field(default_factory=list)  # the state before each event
    finished: list[int] = field(default_factory=list)
    over: bool = False

    def result(self) -> dict:
        out: dict[str, Any] = {"finished": list(self.finished), "over": self.over}
        if self.over:
            out["winner"] = self.finished[0]
            out["loser"] = next(s for s in range(self.players) if s not in self.finished)
        return out


def load_record(path: str) -> dict:
    """A record document from a JSON file (its shape checked; :func:`replay` checks its rules)."""
    try:
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as e:
        raise CardlabError(f"cannot read the record {path!r}: {e.strerror}") from None
    except ValueError as e:
        raise CardlabError(f"the record {path!r} is not valid JSON: {e}") from None
    return doc


def _check_shape(doc: Any) -> None:
    import jsonschema

    if isinstance(doc, dict) and doc.get("game") not in (None, GAME):
        raise CardlabError(f"this is a {doc['game']} record, not a {GAME} one")
    err = jsonschema.exceptions.best_match(jsonschema.Draft202012Validator(SCHEMA).iter_errors(doc))
    if err is not None:
        path = list(err.absolute_path)
        if len(path) == 2 and path[0] == "events" and err.validator in ("oneOf", "additionalProperties"):
            raise CardlabError(
                f'bad record: event {path[1]}: expected {{"seat": S, "play": "CARDS"}} or '
                f'{{"seat": S, "pass": true}}, got {json.dumps(err.instance)}'
            )
        where = "/".join(str(p) for p in path) or "the document"
        raise CardlabError(f"bad record: {where}: {err.message}")


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
        for s, n in strategies.items():
            if n not in STRATEGIES:
                raise CardlabError(f"bad record: strategy {n!r} of seat {s}; accepted: {', '.join(STRATEGIES)}")
        names = [f"{s}={n}" for s, n in strategies.items()]
        strategy_table(names, P)  # seats checked
    hands: list[Counter] = []
    seen: Counter[int] = Counter()
    for s in range(P):
        if str(s) not in doc["hands"]:
            raise CardlabError(f"bad record: hands: give seat {s}'s dealt cards")
        try:
            h = _codes(_encode(doc["hands"][str(s)], variants))
        except CardlabError as e:
            raise CardlabError(f"bad record: hands: seat {s}: {e}") from None
        hands.append(h)
        seen.update(h)
    extra = sorted(set(doc["hands"]) - {str(s) for s in range(P)})
    if extra:
        raise CardlabError(f"bad record: hands: seat {extra[0]} in a {P}-player game (seats 0..{P - 1})")
    pool = Counter(int(c) for c in deck)
    over = [c for c, k in seen.items() if k > pool[c]]
    if over:
        many = "once" if n_copies == 1 else "twice"
        raise CardlabError(
            f"bad record: hands: {cards_of(1 << over[0])} is dealt more often than the deck holds it ({many})"
        )
    sizes = [sum(h.values()) for h in hands]
    if sizes != hand_sizes(P, int(n_deal)):
        raise CardlabError(f"bad record: hands of {sizes} cards; the deal gives {hand_sizes(P, int(n_deal))} (ZS-1)")
    game = Game(P, variants, names, [Counter(h) for h in hands], doc["events"], full)
    _play(game, zv, full)
    stated = doc.get("result")
    if stated is not None and stated != game.result():
        raise CardlabError(
            f"bad record: result {json.dumps(stated)} is not what its events give: {json.dumps(game.result())}"
        )
    return game


def _play(game: Game, zv: np.ndarray, full: dict) -> None:
    P = game.players
    hands = [Counter(h) for h in game.hands]
    masks = [_masks(h) for h in hands]
    leader = int(K.first_leader(np.int64(P), np.array(masks, dtype=np.uint64).reshape(P, 2)))
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
            why = "leads the first game: it holds the lowest card, ZS-3" if i == 0 else "ZS-4"
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
            try:
                ms = _encode(ev["play"], game.variants)
            except CardlabError as e:
                raise CardlabError(f"bad record: event {i}: {e}") from None
            cs = _codes(ms)
            if cs - hands[seat]:
                raise CardlabError(f"bad record: event {i}: seat {seat} does not hold {_text(cs - hands[seat])}")
            hm = _masks(hands[seat])
            n = int(
                K.generate_moves(np.uint64(hm[0]), np.uint64(hm[1]), *map(np.int64, cur_kind), moves, zv, np.int64(rev))
            )
            if (int(ms[0]), int(ms[1])) not in {(int(a), int(b)) for a, b in moves[:n]}:
                if classify_mask(ms, zv, rev)[0] == 0:
                    raise CardlabError(f"bad record: event {i}: {ev['play']!r} is not a combination (ZS-5)")
                raise CardlabError(
                    f"bad record: event {i}: {ev['play']!r} does not beat {_text(current or Counter())!r} (ZS-6)"
                )
            kind = classify_mask(ms, zv, rev)
            if full["revolution"] == "true" and kind[0] == K.K_BOMB:
                rev = not rev  # variant 7: a four of a kind turns the order over
                kind = classify_mask(ms, zv, rev)
            if current is not None:
                played.update(current)
            hands[seat] -= cs
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
    return "pass" if "pass" in ev else cards_of(*_encode(ev["play"], variants))


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
    models = list(strategies) if strategies else (game.strategies or [DEFAULT_STRATEGY])
    rows = []
    forced = 0
    trials = 0
    it = [i for i, st in enumerate(game.states) if seat is None or st.turn == seat]
    bar = _progress(len(it), progress)
    for i in it:
        pos = position_at(game, i)
        spec = odds_spec(variants=game.variants, strategies=models, **pos)
        taken = _action(game.events[i], game.variants)
        names = spec.describe["actions"]
        bar.update(1)
        if len(names) == 1:
            forced += 1
            continue
        res = run_spec(
            spec, precision=precision, seed=seed, chunk_size=chunk_size, threads=threads, progress=False,
            max_trials=max_trials,
        )  # fmt: skip
        t = res.table
        trials += int(res.meta["trials"])
        rows.append(_decision_row(i, pos, taken, t, len(names), bool(res.meta["precision_reached"])))
    bar.close()
    table = pd.DataFrame(rows, columns=COLUMNS)
    meta = {
        "game": GAME,
        "command": "review",
        "players": P,
        "variants": game.full,
        "strategies": strategy_table(models, P)[1],
        "seat": seat,
        "decisions": len(rows),
        "forced": forced,
        "events": len(game.events),
        "over": game.over,
        "result": game.result(),
        "precision_target": precision,
        "precision_reached": all(r["precision_reached"] for r in rows),
        "trials": trials,
        "seed": seed,
        "version": __version__,
    }
    result = Result(table, meta)
    result.meta["summary"] = summary(result)
    return result


COLUMNS = [
    "event", "seat", "hand", "on_table", "actions", "taken", "best", "verdict", "win_taken", "win_best",
    "loss_win", "loss_win_low", "loss_win_high", "loss_score", "loss_score_low", "loss_score_high",
    "trials", "precision_reached",
]  # fmt: skip


def _decision_row(i: int, pos: dict, taken: str, t: pd.DataFrame, n_actions: int, reached: bool) -> dict:
    by = {(m, a): r for m, a, r in zip(t["measure"], t["action"], t.itertuples(index=False))}
    best = t[(t["measure"] == "win") & (t["verdict"] == "best")]["action"].iloc[0]
    if all(by[(m, taken)].estimate == by[(m, best)].estimate for m in ("win", "score")):
        best = taken  # tied in both sums: the taken action is as good as the first-listed best

    def loss(measure: str) -> tuple[float, float, float]:
        r = by[(measure, taken)]
        lo, hi = 0.0 - float(r.ci_high), 0.0 - float(r.ci_low)  # 0.0 - x: no -0.0 in the output
        est = 0.0 - float(r.estimate)
        return (0.0 if lo <= 0 <= hi else est), lo, hi  # not separated from the best: no loss

    lw, ls = loss("diff_win"), loss("diff_score")
    return {
        "event": i,
        "seat": pos["seat"],
        "hand": pos["hand"],
        "on_table": f"{pos['current']} by {pos['by']}" if "current" in pos else "lead",
        "actions": n_actions,
        "taken": taken,
        "best": best,
        "verdict": "best" if best == taken else by[("win", taken)].verdict,
        "win_taken": float(by[("win", taken)].estimate),
        "win_best": float(by[("win", best)].estimate),
        "loss_win": lw[0],
        "loss_win_low": lw[1],
        "loss_win_high": lw[2],
        "loss_score": ls[0],
        "loss_score_low": ls[1],
        "loss_score_high": ls[2],
        "trials": int(by[("win", taken)].trials),
        "precision_reached": reached,
    }


def _progress(total: int, on: bool):
    from tqdm.auto import tqdm

    return tqdm(total=total, desc="decisions", unit="decision", disable=not on, leave=False)


def summary(result: Result) -> str:
    """One line: how many decisions, how many clearly worse than the best, and what they cost."""
    t, m = result.table, result.meta
    who = "every seat" if m["seat"] is None else f"seat {m['seat']}"
    worse = t[t["verdict"] == "worse"]
    text = f"{who}: {len(t)} decisions ({m['forced']} forced passes not counted)"
    if len(worse):
        text += (
            f"; {len(worse)} clearly worse than the best, costing {100 * worse['loss_win'].sum():.1f} points of "
            f"win chance in all (largest at event {int(worse.loc[worse['loss_win'].idxmax(), 'event'])})"
        )
    else:
        text += "; none clearly worse than the best"
    end = "" if m["over"] else "; the record stops before the game's end"
    return text + f"; against {', '.join(sorted(set(m['strategies'])))} models{end}"


def win_figure(result: Result):
    """The seat's chance to go out first through the game: the best action's and the taken action's."""
    from ..plots import new_figure

    t = result.table
    fig, ax = new_figure(7.0, 3.4)
    for s, part in t.groupby("seat"):
        label = f"seat {s}" if t["seat"].nunique() > 1 else "best action"
        # markers only: the chances are measured at the seat's decisions, not between them
        ax.plot(part["event"], 100 * part["win_best"], marker="o", ms=4, ls="none", label=label)
        if t["seat"].nunique() == 1:
            ax.plot(part["event"], 100 * part["win_taken"], marker="x", ms=5, ls="none", label="action taken")
    worse = t[t["verdict"] == "worse"]
    if len(worse):
        ax.scatter(worse["event"], 100 * worse["win_taken"], color="crimson", zorder=3, label="clearly worse")
    ax.set_xlabel("event in the record")
    ax.set_ylabel("chance to go out first (%)")
    ax.set_ylim(-2, 102)
    who = "every seat" if result.meta["seat"] is None else f"seat {result.meta['seat']}"
    ax.set_title(f"{who}, against {', '.join(sorted(set(result.meta['strategies'])))} models")
    ax.legend(loc="best", fontsize=8)
    return fig


def sections(result: Result, record_name: str):
    """The review as report sections (README.md, review.html and the chart, as ``cardlab report`` writes)."""
    from ..report import Section

    m = result.meta
    intro = (
        f"{record_name}: {m['players']} players, models {', '.join(m['strategies'])}; each decision judged on "
        f"what its seat knew then, every action on the same sampled layouts, to ±{m['precision_target']:g} on the "
        "paired differences. loss_win is the best action's chance to go out first minus the taken action's "
        "(0 where the two are not separated at 95%); loss_score the same for the score (ZS-8)."
    )
    cols = ["event", "seat", "on_table", "taken", "best", "verdict", "win_taken", "loss_win", "loss_win_low",
            "loss_win_high", "loss_score"]  # fmt: skip
    secs = [
        Section("Summary", summary(result)),
        Section("Chance to go out first through the game", figures=[lambda: win_figure(result)]),
        Section("Decisions", table=result.table[cols], digits=3),
    ]
    return intro, secs
