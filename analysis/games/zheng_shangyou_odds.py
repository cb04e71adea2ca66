"""Zheng Shangyou's advisor (``cardlab odds zheng-shangyou``): every legal play and the pass of one position,
tried on the same sampled layouts of the unseen cards and the same random draws, each game played on to its
end by the chosen models (``../shared/design/positions.md``; the fields are listed in ``seeds/zheng-shangyou.md``).

The position (what the deciding seat knows): its ``hand``; ``cards_left`` for every other seat still in play;
the ``current`` play on the table and the seat that made it (``by``; the seats between it and the deciding seat
passed); the seats ``finished`` (in order); cards ``played`` (out of play; optional: cards not named anywhere may
be in any hand or out of play); cards ``known`` to be in a seat's hand; ``revolution`` (in force, variant 7).
``never_played`` names the seats that have not played a card yet (ZS-8's x3); without it a seat is taken to have
never played while it holds at least the smaller dealt hand size.

The answer: per action the deciding seat's chance to go out first (``win``), its score (ZS-8), its chance to be
the Loser (``last``), and the paired differences to the best action (``diff_win``, ``diff_score``,
``diff_last``) with 95% intervals and a verdict (``best``, ``worse``: the interval of the ranking measure's
difference lies below zero, or, once the Winner is out and the scores taken, ``diff_last``'s above it,
``uncertain``, ``equal``: the best's outcome on every layout, each measure paired).
"""

from __future__ import annotations

from collections import Counter
from functools import partial
from typing import Any

import numpy as np
import pandas as pd

from kernels import zheng_shangyou as K

from ..advisor import (
    advisor_spec,
    answer_line,
    position_kwargs,
    read_position,
    say_unseen,
    seat_counts,
    seat_map,
    the_others,
)
from ..driver import KernelSpec
from ..driver import run as run_spec
from ..errors import CardlabError
from ..tables import Result
from .zheng_shangyou import (
    DECK,
    GAME,
    _encode,
    _table,
    cards_of,
    chunk_for,
    classify_mask,
    copies,
    max_hand,
    needs_full,
    play_text,
    strategy_table,
)


def _codes(ms: tuple[int, int]) -> list[int]:
    mask, dup = ms
    return [c for c in range(54) if (mask >> c) & 1 for _ in range(1 + ((dup >> c) & 1))]


def odds_spec(
    *,
    hand: str,
    seat: int = 0,
    players: int | None = None,
    variants: dict | None = None,
    strategies: list[str] | None = None,
    cards_left: Any = None,
    current: str | None = None,
    by: int | None = None,
    played: str | None = None,
    known: Any = None,
    finished: list[int] | None = None,
    revolution: bool = False,
    never_played: list[int] | None = None,
) -> KernelSpec:
    """The advisor's kernel spec for one position (see the module docstring)."""
    P, deck, n_deal, zv, full = _table(players, variants)
    n_copies = copies(variants)
    if not 0 <= seat < P:
        raise CardlabError(f"bad --seat {seat}: seats are 0..{P - 1}")
    finished = list(finished or [])
    if len(set(finished)) != len(finished) or any(not 0 <= s < P for s in finished):
        raise CardlabError(f"bad --finished {finished}: distinct seats 0..{P - 1}, in the order they went out")
    if seat in finished:
        raise CardlabError(f"seat {seat} is finished: it has no decision")
    if len(finished) >= P - 1:
        raise CardlabError("the game is over: at most players - 2 seats may be finished")
    if revolution and full["revolution"] != "true":
        raise CardlabError("--revolution needs the variant revolution=true")
    mine = _encode(hand, variants)
    n_mine = len(_codes(mine))
    if n_mine == 0:
        raise CardlabError('--hand is empty: give its cards, e.g. "3D 4C 4H"')
    most = max_hand(variants)
    if n_mine > most:
        raise CardlabError(f"a hand of {n_mine} cards: a dealt hand holds at most {most} here (ZS-1)")
    left = seat_counts(cards_left, "--cards-left", P, "a number of cards")
    if left.get(seat, n_mine) != n_mine:
        raise CardlabError(
            f"--cards-left {seat}={left[seat]}: seat {seat} is the deciding seat, whose --hand holds {n_mine} cards"
        )
    counts = np.zeros(P, dtype=np.int64)
    counts[seat] = n_mine
    for s in range(P):
        if s == seat or s in finished:
            if s in left and s != seat and left[s] != 0:
                raise CardlabError(f"seat {s} is finished: it holds no cards")
            continue
        if s not in left:
            raise CardlabError(f"give --cards-left {s}=N: how many cards seat {s} holds")
        n = left[s]
        if not 1 <= n <= most:
            out = f" (a seat that is out: --finished {s})" if n == 0 else ""
            raise CardlabError(f"bad --cards-left {s}={n}: a seat in play holds 1 to {most} cards{out}")
        counts[s] = n
    hands = np.zeros((P, 2), dtype=np.uint64)
    hands[seat] = mine
    out_of_pool: Counter[int] = Counter(_codes(mine))
    named_in: dict[int, list[str]] = {}  # the options that name each card, for the refusal of one named too often

    def name_in(codes, option: str) -> None:
        for c in codes:
            named_in.setdefault(int(c), []).append(option)

    name_in(_codes(mine), "--hand")
    need = counts.copy()
    need[seat] = 0
    for s, text in seat_map(known, "--known", P).items():
        if s == seat or counts[s] == 0:
            raise CardlabError(f"--known {s}=...: name cards of another seat still in play")
        ms = _encode(text, variants)
        cs = _codes(ms)
        if len(cs) > counts[s]:
            raise CardlabError(f"--known {s}: {len(cs)} cards, but seat {s} holds {counts[s]}")
        hands[s] = ms
        need[s] -= len(cs)
        out_of_pool.update(cs)
        name_in(cs, f"--known {s}")
    state = np.zeros(K.P_FIELDS, dtype=np.int64)
    state[K.P_LAST] = seat
    state[K.P_PLACE] = len(finished)
    state[K.P_WINNER] = finished[0] if finished else -1
    state[K.P_REV] = 1 if revolution else 0
    if current:
        if by is None:
            raise CardlabError(f"give --by SEAT: who made the current play (another seat, 0..{P - 1})")
        if not 0 <= by < P or by == seat:
            what = "the deciding seat itself" if by == seat else f"not a seat here (0..{P - 1})"
            raise CardlabError(f"bad --by {by}: {what}; the current play was made by another seat (ZS-4)")
        cur = _encode(current, variants)
        ck, cn, ckey = classify_mask(cur, zv, revolution)
        if ck == 0:
            raise CardlabError(f"the current play {current!r} is not a combination")
        state[K.P_CUR_KIND], state[K.P_CUR_LEN], state[K.P_CUR_KEY], state[K.P_LAST] = ck, cn, ckey, by
        s = (by + 1) % P
        while s != seat:  # the seats in play between the player and the deciding seat passed (ZS-4)
            state[K.P_PASSES] += 1 if counts[s] > 0 else 0
            s = (s + 1) % P
        out_of_pool.update(_codes(cur))
        name_in(_codes(cur), "--current")
    elif by is not None:
        raise CardlabError("--by names who made the --current play: give --current too")
    if played:
        out_of_pool.update(_codes(_encode(played, variants)))
        name_in(_codes(_encode(played, variants)), "--played")
    pool: Counter[int] = Counter(int(c) for c in deck)
    for c, k in out_of_pool.items():
        if pool[c] < k:
            many = "once" if n_copies == 1 else "twice"
            where = " and ".join(dict.fromkeys(named_in.get(c, [])))
            raise CardlabError(
                f"{DECK.card(c)} is named more often than the deck holds it ({many}): in {where}; a card is in one "
                "place (a hand, the current play or the played cards)"
            )
        pool[c] -= k
    pool_arr = np.array(sorted(pool.elements()), dtype=np.int64)
    if need.sum() > len(pool_arr):
        raise CardlabError(
            f"the other hands need {int(need.sum())} unseen cards but only {len(pool_arr)} are left: "
            "check --cards-left, --played and --known"
        )
    if never_played is None:
        never = (counts >= n_deal // P).astype(np.int64)
    else:
        if any(not 0 <= s < P for s in never_played):
            raise CardlabError(f"bad --never-played {never_played}: seats are 0..{P - 1}")
        never = np.array([1 if s in never_played else 0 for s in range(P)], dtype=np.int64)
        fewest = int(n_deal) // P  # the smallest dealt hand: a seat that has not played holds all of its
        for s in never_played:
            if current and s == by:
                raise CardlabError(f"--never-played {s}: seat {s} made the current play (--by {by})")
            if counts[s] < fewest:
                raise CardlabError(
                    f"--never-played {s}: seat {s} holds {int(counts[s])} cards, but a seat that has not played "
                    f"still holds the {fewest} or more it was dealt (ZS-1)"
                )
    moves = K.new_moves()
    n = int(
        K.generate_moves(
            np.uint64(mine[0]), np.uint64(mine[1]), state[K.P_CUR_KIND], state[K.P_CUR_LEN], state[K.P_CUR_KEY],
            moves, zv, state[K.P_REV],
        )
    )  # fmt: skip
    acts = [(int(x), int(y)) for x, y in moves[:n]]
    if current:
        acts.append((0, 0))  # the pass (ZS-4); on lead a seat must play
    actions = np.array(acts, dtype=np.uint64).reshape(-1, 2)
    names = ["pass" if a == (0, 0) else play_text(a, zv) for a in acts]
    strat, models = strategy_table(strategies, P)
    args = (np.int64(P), np.int64(seat), hands, counts, pool_arr, need, state, never, actions, strat, zv)
    # Once the Winner is out no action changes the chance to go out first (0 for every action). Under ZS-8's
    # default (score_timing=at_first_out) the scores were taken then, so nothing moves them either: what is left
    # is the chance to end last (the Loser), which then ranks the actions. Otherwise the score ranks them.
    settled = bool(finished) and full.get("score_timing", "at_first_out") == "at_first_out"
    on = "last" if settled else "score" if finished else "win"
    return advisor_spec(
        GAME, "kernels.zheng_shangyou:" + ("advise_full_chunks" if needs_full(strat) else "advise_chunks"), args, names,
        on=on, rank_by=on, players=P, variants=full, strategies=models, seat=seat, hand=cards_of(*mine),
        winner=finished[0] if finished else None, settled=settled, chunk_size=chunk_for(strat),
        notes={"unseen_cards": len(pool_arr), "left_over": len(pool_arr) - int(need.sum()),
               "undealt": len(deck) - int(n_deal)},
    )  # fmt: skip


def exchange_spec(
    *,
    hand: str,
    seat: int = 0,
    loser: int | None = None,
    received: str | None = None,
    players: int | None = None,
    variants: dict | None = None,
    strategies: list[str] | None = None,
) -> KernelSpec:
    """The Loser's exchange (variant 8, 4(c)8) before a later game: ``seat`` (the Winner) holds its dealt cards
    and ``received``, the Loser's highest single; which card should it give back? Under ``winner_gives_one``
    each card of the hand is an action; under ``offer_two`` the Winner offers two and the Loser takes the higher
    [OURS], so an offer is worth the card the Loser takes: one row per card that has a lower one to pair with.
    The Loser deals (ZS-7); the other hands are dealt uniformly, the Loser's from the cards not above the one it
    gave; the first lead follows ``later_game_leader``."""
    P, deck, n_deal, zv, full = _table(players, variants)
    mode = full["loser_exchange"]
    if mode == "none":
        raise CardlabError(
            "the exchange decision needs the variant loser_exchange=offer_two or loser_exchange=winner_gives_one"
        )
    if not 0 <= seat < P:
        raise CardlabError(f"bad --seat {seat}: seats are 0..{P - 1}")
    if loser is None:
        raise CardlabError(f"give --loser SEAT: the previous game's Loser (another seat, 0..{P - 1})")
    if not 0 <= loser < P or loser == seat:
        raise CardlabError(
            f"bad --loser {loser}: in the exchange the deciding seat (--seat {seat}) is the Winner, who gives a card "
            f"back (the Loser's card is forced: its highest single); the Loser is another seat, 0..{P - 1}"
        )
    if not received:
        raise CardlabError("give --received CARD: the Loser's highest single, now in --hand")
    got = _codes(_encode(received, variants))
    if len(got) != 1:
        raise CardlabError(f"bad --received {received!r}: one card, the Loser's highest single")
    cap = got[0]
    mine = _encode(hand, variants)
    codes = _codes(mine)
    if cap not in codes:
        raise CardlabError(f"--received {received} is not in --hand: the hand holds it after the exchange's first half")
    n = n_deal // P
    extra = n_deal % P
    sizes = [n + (1 if (s - loser) % P < extra else 0) for s in range(P)]  # the Loser deals (ZS-1, ZS-7)
    if len(codes) != sizes[seat] + 1:
        raise CardlabError(
            f"a hand of {len(codes)} cards: the Winner holds its {sizes[seat]} dealt cards and the Loser's card "
            f"({sizes[seat] + 1}) when the Loser deals"
        )
    pool: Counter[int] = Counter(int(c) for c in deck)
    pool.subtract(Counter(codes))
    if any(k < 0 for k in pool.values()):
        raise CardlabError("--hand names a card more often than the deck holds it")
    pool_arr = np.array(sorted(pool.elements()), dtype=np.int64)
    need = np.array([0 if s == seat else sizes[s] - (1 if s == loser else 0) for s in range(P)], dtype=np.int64)
    below = int((pool_arr <= cap).sum())
    if below < need[loser]:
        raise CardlabError(
            f"the Loser cannot have given {received}: it holds {need[loser]} other cards, none above it, "
            f"but only {below} such cards are unseen"
        )
    counts = need.copy()  # the layout fills the hands; the counts are the position's
    counts[seat] = len(codes)
    hands = np.zeros((P, 2), dtype=np.uint64)
    hands[seat] = mine
    held = Counter(codes)
    if mode == "winner_gives_one":
        gives = sorted(held)
        names = [f"give {DECK.card(c)}" for c in gives]
    else:  # offer_two: the card taken is the higher of the two offered; it needs a lower one (or its twin)
        gives = [c for c in sorted(held) if held[c] > 1 or any(d < c for d in held)]
        names = [f"offer {DECK.card(c)} with any lower card (the Loser takes {DECK.card(c)})" for c in gives]
    strat, models = strategy_table(strategies, P)
    args = (
        np.int64(P), np.int64(seat), np.int64(loser), np.int64(cap), hands, counts, pool_arr, need,
        np.array(gives, dtype=np.int64), strat, zv,
    )  # fmt: skip
    return advisor_spec(
        GAME,
        "kernels.zheng_shangyou:" + ("advise_exchange_full_chunks" if needs_full(strat) else "advise_exchange_chunks"),
        args, names,
        players=P, variants=full, strategies=models, seat=seat, hand=cards_of(*mine), decision="exchange",
        chunk_size=chunk_for(strat),
    )  # fmt: skip


FIELDS = (
    "players", "seat", "hand", "cards_left", "current", "by", "played", "known", "finished", "revolution",
    "never_played", "decision", "loser", "received",
)  # fmt: skip
EXCHANGE_FIELDS = ("players", "seat", "hand", "loser", "received")  # the fields of decision: exchange


def position_fields(given: dict, variants: dict | None, strategies) -> dict:
    """The advisor's keywords from a position document (``position``: a JSON file) and the flags given (which
    override it); a document's ``variants`` and ``models`` are used unless flags name them."""
    doc: dict = {}
    path = given.pop("position", None)
    if path:
        doc = read_position(path, GAME, (*FIELDS, "trick"))
        trick = doc.pop("trick", None) or {}
        doc.setdefault("current", trick.get("current"))
        doc.setdefault("by", trick.get("by"))
    return position_kwargs(doc, given, FIELDS, variants, strategies)


def _score_disagrees(table: pd.DataFrame) -> str:
    """Where the actions are ranked by the chance to go out first and another action scores clearly more than the
    best (its paired score difference clear of 0), a sentence that says so: going out first less often but
    while the others hold more cards can be worth more points (ZS-8). A player judging by the points (a match is
    won on them) should read it; '' otherwise."""
    d = table[(table["measure"] == "diff_score") & (table["ci_low"] > 0)]
    if not len(d):
        return ""
    r = d.loc[d["estimate"].idxmax()]
    score = table[table["measure"] == "score"].set_index("action")["estimate"]
    win = table[table["measure"] == "win"].set_index("action")["estimate"]
    best = table[(table["measure"] == "score") & (table["verdict"] == "best")]["action"].iloc[0]
    a = r["action"]
    return (
        f". By the score, {a} is clearly better: {score[a]:+.2f} a game against {score[best]:+.2f} "
        f"({r['estimate']:+.2f}, 95% interval {r['ci_low']:+.2f} to {r['ci_high']:+.2f}), going out first "
        f"{100 * win[a]:.1f}% of the time: the better choice where the points are kept (a match adds them up)"
    )


def runner_up_words(table: pd.DataFrame, runner: str, how: str) -> str:
    """The answer's words for a runner-up (``answer_line``'s ``runner_up``) that the chances to go out first do not
    separate from the best and the score does: near a game's end, when every chance is a fraction of a per cent,
    no run separates them, and "not separated" alone had read as a second choice as good as the first (a new
    user's runner-up cost 1.6 points a game and raised the chance to end last by 12 points)."""
    d = table[(table["measure"] == "diff_score") & (table["action"] == runner)]
    if how != "not separated" or not len(d) or not d["ci_high"].iloc[0] < 0:
        return how
    d = d.iloc[0]
    return (
        f"not separated in the chance to go out first but clearly lower in score: {d['estimate']:+.2f} a game, 95% "
        f"interval {d['ci_low']:+.2f} to {d['ci_high']:+.2f}"
    )


def odds(run: dict, variants: dict | None = None, strategies: list[str] | None = None, **position) -> Result:
    """Run the advisor on one position; the table has a row per action and measure (module docstring)."""
    decision = position.pop("decision", None) or "play"
    if decision == "exchange":
        stray = sorted(k for k in position if k not in EXCHANGE_FIELDS)
        if stray:
            raise CardlabError(
                f"--{stray[0].replace('_', '-')} is not part of the exchange decision (it comes before the game); "
                f"it takes: {', '.join(EXCHANGE_FIELDS)}"
            )
        spec = exchange_spec(variants=variants, strategies=strategies, **position)
    elif decision == "play":
        for k in ("loser", "received"):
            if k in position:
                raise CardlabError(f"--{k} belongs to --decision exchange (the Loser's exchange)")
        spec = odds_spec(variants=variants, strategies=strategies, **position)
    else:
        raise CardlabError(f"unknown decision {decision!r}; accepted: play, exchange")
    result = run_spec(spec, **run)
    winner = spec.describe.get("winner")
    if winner is None:
        words = partial(runner_up_words, result.table)
        result.meta["answer"] = answer_line(result.table, runner_up=words) + _score_disagrees(result.table)
        result.meta["ranked_by"] = "the chance to go out first, then the score"
        result.meta["verdict_then"] = "diff_score"
        # the score beside the chance to go out first: it ranks where the chances tie, and near a game's end,
        # where every chance is a fraction of a per cent, it is what the actions still differ in
        result.headline = ("win", "score", "diff_win")
        result.meta["ranked_measure"] = "win"
    elif not spec.describe.get("settled"):
        result.meta["answer"] = answer_line(result.table, by_score=True)
        result.meta["ranked_by"] = "the score (the Winner is out)"
        result.meta["ranked_measure"] = "score"
    else:
        result.meta["answer"] = _after_the_winner(result.table, winner, spec.describe.get("variants") or {})
        result.meta["ranked_by"] = "the chance to end last (the scores are settled)"
        result.meta["ranked_measure"] = "last"
        # the chance to end last, what is left to play for; the score rows (no action moves them: all 0) are in the
        # full table
        result.headline = ("last", "diff_last")
    result.meta["models"] = spec.describe["strategies"]
    say_unseen(result, spec)
    return result


def _after_the_winner(table, winner: int, variants: dict) -> str:
    """The answer once the Winner (seat ``winner``) is out and the scores were taken then (ZS-8's default):
    what is left, the chance to end last."""
    last = table[table["measure"] == "last"].reset_index(drop=True)  # best first (tabulate_actions, rank_by="last")
    a = str(last["action"].iloc[0])
    verb = "Pass" if a == "pass" else f"Play {a}"
    text = (
        f"No play changes this game's score: seat {winner} went out first and the scores were taken then (ZS-8). "
        "Left to play for: not ending last (the Loser deals the next game"
        + ("" if variants.get("loser_exchange", "none") == "none" else " and gives the Winner its highest single")
        + ")."
    )
    p = 100 * last["estimate"].iloc[0]
    if len(last) == 1:
        return text + f" {verb}: the only legal action, ending last {p:.1f}%"
    b = last.iloc[1]
    how = {"worse": "clearly more often", "equal": "the same on every layout"}.get(b["verdict"], "not separated")
    return (
        text
        + f" {verb} ends last least often, {p:.1f}% (next {b['action']}: {100 * b['estimate']:.1f}%, {how})"
        + the_others(last.iloc[1:])
    )
