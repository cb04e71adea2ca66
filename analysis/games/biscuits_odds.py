"""Biscuits' advisor (``cardlab odds biscuits``), for every decision of BI-13 (``../shared/design/positions.md``;
the fields are listed in ``seeds/biscuits.md``): every action tried on the same sampled layouts of the unseen
cards and the same random draws, the hand played to its end by the chosen models.

- ``pass`` (BI-4): which two of the 13 dealt cards to pass to the partner (the 78 pairs). The position is the
  seat's ``hand`` and the hand's ``starter``; the other seats pass by their models at the same time.
- ``play`` (BI-5): every legal play, and the pass when a play is on the table (``current``, made by ``by``).
- ``exchange_send`` (BI-10, after a Plain trick, the seat at the winner's left): no exchange, or each card sent.
- ``exchange_return`` (BI-10): the partner of the sender gives one card back (``exchange_received`` names the
  card it got, which is in its ``hand``; it may be given back).
- ``handover`` (BI-10, after a Fancy trick the seat won): hand the lead to the partner, or keep it.

A position inside the hand (every decision but the pass) gives ``cards_left`` for the other seats holding
cards, the seat ``finished`` (the first out, if any) and this hand's ``hand_points`` so far, cards ``played``
(optional: cards named nowhere may be in any hand), cards ``known`` in a seat's hand and the two cards the seat
``passed`` to its partner (the partner holds those it has not played). The unseen cards are dealt exactly and
uniformly to fill every hand.

The answer: per action, the chance that the seat's team scores more points this hand than the other (``win``),
the team's points minus the other team's (``score``, BI-8), and the paired differences to the best action
(``diff_win``, ``diff_score``) with 95% intervals and a verdict. The best is the action with the highest
``score`` (the points are what the game counts, BI-12); ``--precision P`` holds the differences in points to
±P or clear of zero.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np

from kernels import biscuits as K

from ..advisor import advisor_spec, answer_line, position_kwargs, read_position, say_unseen, seat_counts, seat_map
from ..driver import KernelSpec
from ..driver import run as run_spec
from ..errors import CardlabError
from ..rules import search_label, seat_assignments
from ..tables import Result
from .biscuits import (
    DECK,
    GAME,
    SEARCH_BUDGET,
    SEARCH_CHUNK,
    STRATEGIES,
    cards_of,
    classify_mask,
    rules,
    searches,
    strategy_rows,
    variant_array,
)

#: the advisor's default models: the strongest built-in player (positions.md; Biscuits.advisor_model)
DEFAULT_MODEL = "planning"
SEATS = "0 = N, 1 = E, 2 = S, 3 = W; N-S (0, 2) and E-W (1, 3) are partners"
FIELDS = (
    "seat", "hand", "starter", "decision", "cards_left", "current", "by", "played", "known", "passed", "received",
    "finished", "hand_points", "exchange_received", "score", "trick_passed",
)  # fmt: skip
DECISIONS = ("pass", "play", "exchange_send", "exchange_return", "handover")
#: the handover declined, by whether the winner is out (BI-11: then the next seat holding cards leads)
HANDOVER_NO = {False: "keep the lead", True: "let the next seat lead"}
TEAMS = ("NS", "EW")
TARGET = 30  # BI-12: the short game's target (variant game_end_check=immediate stops a hand there)


def pass_spec(
    *,
    hand: str,
    players: int | None = None,
    seat: int = 0,
    starter: int = 0,
    variants: dict | None = None,
    strategies: list[str] | None = None,
) -> KernelSpec:
    """The advisor's kernel spec for the pass of one dealt hand (see the module docstring)."""
    rules().check_players(players)
    full = rules().resolve_variants(variants)
    for s, what in ((seat, "--seat"), (starter, "--starter")):
        if not 0 <= s < 4:
            raise CardlabError(f"bad {what} {s}: seats are 0..3 ({SEATS})")
    mask = DECK.mask(hand)
    cards = [c for c in range(52) if (mask >> c) & 1]
    if len(cards) != 13:
        raise CardlabError(f"--hand holds {len(cards)} cards: the pass is made from the 13 dealt cards (BI-4)")
    pool = np.array([c for c in range(52) if not (mask >> c) & 1], dtype=np.int64)
    pairs = list(combinations(cards, 2))
    gives = np.array([(1 << a) | (1 << b) for a, b in pairs], dtype=np.uint64)
    names = [f"pass {cards_of((1 << a) | (1 << b))}" for a, b in pairs]
    models = seat_assignments(strategies, 4, DEFAULT_MODEL, STRATEGIES, parameterized=("search",))
    strat = strategy_rows(models)
    models = [search_label(n, SEARCH_BUDGET) for n in models]
    args = (np.int64(seat), np.uint64(mask), pool, gives, np.int64(starter), strat, variant_array(variants))
    return advisor_spec(
        GAME, "kernels.biscuits:" + ("advise_pass_search_chunks" if searches(strat) else "advise_pass_chunks"), args,
        names, on="score",
        players=4, variants=full, strategies=models, seat=seat, hand=cards_of(mask), decision="pass",
        has_last=False, rank_by="score", chunk_size=SEARCH_CHUNK if searches(strat) else None,
    )  # fmt: skip


def _team_points(given, what: str) -> tuple[int, int]:
    """``{"NS": 3, "EW": 0}`` (or ``["NS=3", "EW=0"]``) to (N-S, E-W)."""
    if given is None:
        return 0, 0
    items = given.items() if isinstance(given, dict) else (str(x).partition("=")[::2] for x in given)
    out = {"NS": 0, "EW": 0}
    seen: set[str] = set()
    for team, value in items:
        t = str(team).strip().upper().replace("-", "")
        if t not in out:
            raise CardlabError(f"bad {what} {team}={value}: teams are NS (seats 0, 2) and EW (seats 1, 3)")
        if t in seen:
            raise CardlabError(f"{what}: team {t} given twice")
        seen.add(t)
        try:
            out[t] = int(str(value).strip())
        except ValueError:
            raise CardlabError(f"bad {what} {team}={value}: expected a number of points") from None
        if out[t] < 0:
            raise CardlabError(f"bad {what} {team}={value}: points are not negative")
    return out["NS"], out["EW"]


def _one_card(text: str, what: str) -> int:
    m = DECK.mask(text)
    if m.bit_count() != 1:
        raise CardlabError(f"{what} {text!r}: name one card")
    return m


def state_spec(
    *,
    hand: str,
    decision: str = "play",
    seat: int = 0,
    players: int | None = None,
    variants: dict | None = None,
    strategies: list[str] | None = None,
    cards_left=None,
    current: str | None = None,
    by: int | None = None,
    played: str | None = None,
    known=None,
    passed: str | None = None,
    received: str | None = None,
    finished: list[int] | None = None,
    hand_points=None,
    exchange_received: str | None = None,
    score=None,
    trick_passed: list[int] | None = None,
) -> KernelSpec:
    """The advisor's kernel spec for a decision inside a hand: ``play``, ``exchange_send``, ``exchange_return``
    or ``handover`` (see the module docstring)."""
    rules().check_players(players)
    full = rules().resolve_variants(variants)
    bv = variant_array(variants)
    if not 0 <= seat < 4:
        raise CardlabError(f"bad --seat {seat}: seats are 0..3 ({SEATS})")
    partner = (seat + 2) % 4
    finished = list(finished or [])
    if len(set(finished)) != len(finished) or any(not 0 <= s < 4 for s in finished):
        raise CardlabError(f"bad --finished {finished}: distinct seats 0..3")
    if len(finished) > 1:
        raise CardlabError("the hand is over: it ends when a second player goes out (BI-9)")
    mine = DECK.mask(hand) if hand else 0
    out_now = seat in finished
    if out_now and not (decision == "handover" and mine == 0):
        raise CardlabError(f"seat {seat} is finished: its only decision is the handover after a Fancy trick it won")
    if mine == 0 and not out_now:
        raise CardlabError('--hand is empty: give its cards, e.g. "3C 3D 7H"')
    most = 14 if decision == "exchange_return" else 13  # a card received and not yet given back
    if mine.bit_count() > most:
        raise CardlabError(f"a hand of {mine.bit_count()} cards: a Biscuits hand holds at most {most} here (BI-3)")
    left = seat_counts(cards_left, "--cards-left", 4, "a number of cards")
    if left.get(seat, mine.bit_count()) != mine.bit_count():
        raise CardlabError(
            f"--cards-left {seat}={left[seat]}: seat {seat} is the deciding seat, whose --hand holds "
            f"{mine.bit_count()} cards"
        )
    counts = np.zeros(4, dtype=np.int64)
    counts[seat] = mine.bit_count()
    for s in range(4):
        if s == seat:
            continue
        if s in finished:
            if s in left and left[s] != 0:
                raise CardlabError(f"seat {s} is finished: it holds no cards")
            continue
        if s not in left:
            raise CardlabError(f"give --cards-left {s}=N: how many cards seat {s} holds (or --finished {s})")
        n = left[s]
        low = 0 if decision == "exchange_return" and s == partner else 1  # the sender may have sent its last card
        if not low <= n <= 13:
            raise CardlabError(f"bad --cards-left {s}={n}: a seat in play holds {low} to 13 cards")
        counts[s] = n
    h0, h1 = _team_points(hand_points, "--hand-points")
    if finished and hand_points is None:
        name = "NS" if finished[0] % 2 == 0 else "EW"
        raise CardlabError(
            f"give --hand-points {name}=N: the points seat {finished[0]}'s team ({name}) scored when it went out, 1 per "
            "card of the fuller opponent hand then (BI-8); they count in who is ahead this hand"
        )
    if not finished and (h0 or h1):
        raise CardlabError("--hand-points: nobody is out yet, so no points are scored this hand (BI-8)")
    if finished:
        team = finished[0] % 2
        mine_pts, other_pts = (h0, h1) if team == 0 else (h1, h0)
        if other_pts or not 1 <= mine_pts <= 13:
            raise CardlabError(
                f"--hand-points: only seat {finished[0]}'s team has scored this hand, 1 point per card of the fuller "
                "opponent hand when it went out (BI-8): 1 to 13 points, and 0 for the other team"
            )
        # the opponents held at least the cards they hold now when it went out (hands only shrink in play; in
        # the Plain exchange's return the deciding seat holds its partner's card, sent since)
        now = counts.copy()
        if decision == "exchange_return":
            now[seat] -= 1
            now[partner] += 1
        fuller = max(int(now[s]) for s in range(4) if s % 2 != team)
        if mine_pts < fuller:
            raise CardlabError(
                f"--hand-points: seat {finished[0]}'s team scored 1 point per card of the fuller opponent hand when "
                f"it went out (BI-8), and an opponent still holds {fuller} cards: at least {fuller} points, not "
                f"{mine_pts}"
            )
    s0, s1 = _team_points(score, "--score")
    # the trick state the decision implies
    cur_kind = K.K_NONE
    cur_key = 0
    passes = 0
    locked = 0
    last = seat
    turn = seat
    phase = K.PH_TURN
    fixed = mine  # cards whose place the seat knows: its hand, the table, the played cards, the known ones
    if decision == "play":
        if out_now:
            raise CardlabError(f"seat {seat} is finished: it has no play")
        if current:
            if by is None:
                raise CardlabError("give --by SEAT: who made the current play (another seat, 0..3)")
            if not 0 <= by < 4:
                raise CardlabError(f"bad --by {by}: seats are 0..3 ({SEATS})")
            if by == seat:
                raise CardlabError(
                    f"--by {by} is the deciding seat: the trick comes back to a seat's own play only "
                    "when all others passed, and then it has ended (BI-5)"
                )
            cur = DECK.mask(current)
            if cur & mine:
                raise CardlabError("the current play shares cards with --hand")
            cur_kind, cur_key = classify_mask(cur, bv)
            if cur_kind == K.K_NONE:
                raise CardlabError(f"the current play {current!r} is not a combination (BI-6)")
            fixed |= cur
            last = by
            s = (by + 1) % 4
            while s != seat:  # the seats holding cards between the player and the deciding seat passed (BI-5)
                if counts[s] > 0:
                    passes += 1
                    locked |= 1 << s
                s = (s + 1) % 4
            if full["pass_locks_out"] != "true":
                locked = 0
            elif trick_passed:
                # variant pass_locks_out: earlier passes in this trick (public) keep those seats out too
                for t in trick_passed:
                    if not 0 <= t < 4 or t == seat or t == by:
                        raise CardlabError(f"bad --trick-passed {t}: a seat other than the deciding seat and --by")
                    locked |= 1 << t
        elif by is not None:
            raise CardlabError("--by names who made the --current play: give --current too")
    else:
        if current or by is not None:
            raise CardlabError(f"--current and --by describe a trick in progress; the {decision} comes after one")
        phase = K.PH_TRICK_END
        cur_kind = 1  # a Plain trick (BI-10 reads only the group)
        if decision == "handover":
            cur_kind = K.K_STRAIGHT  # a Fancy trick
            last = seat
            if counts[partner] == 0:
                raise CardlabError(f"no handover: the partner (seat {partner}) holds no cards (BI-10)")
        elif decision == "exchange_send":
            last = (seat + 3) % 4  # the trick winner: the seat is at its left
        else:
            last = (seat + 1) % 4  # the sender is the partner, at the winner's left
            phase = K.PH_RETURN
        if decision in ("exchange_send", "exchange_return") and partner in finished:
            raise CardlabError(f"no Plain exchange: the partner (seat {partner}) is out (BI-10)")
        if decision == "exchange_send" and counts[partner] == 0:
            raise CardlabError(f"no Plain exchange: the partner (seat {partner}) holds no cards (BI-10)")
    if exchange_received and decision != "exchange_return":
        raise CardlabError("--exchange-received is the card the partner sent: give --decision exchange_return")
    if decision == "exchange_return":
        if not exchange_received:
            raise CardlabError("give --exchange-received CARD: the card the partner sent (it is in --hand)")
        if not _one_card(exchange_received, "--exchange-received") & mine:
            raise CardlabError(
                f"--exchange-received {exchange_received} is not in --hand: the card received belongs in the hand"
            )
    for text, what in ((played, "--played"),):
        m = DECK.mask(text) if text else 0
        if m & fixed:
            raise CardlabError(f"{what} names {DECK.text(m & fixed)}, already in --hand or --current")
        fixed |= m
    known_at = np.zeros(4, dtype=np.uint64)
    for s, text in seat_map(known, "--known", 4).items():
        if s == seat or counts[s] == 0:
            raise CardlabError(f"--known {s}=...: name cards of another seat holding cards")
        m = DECK.mask(text)
        if m & fixed:
            raise CardlabError(
                f"--known {s}: {DECK.text(m & fixed)} named twice (in --hand, --current, --played or --known)"
            )
        known_at[s] = m
        fixed |= m
    if passed:
        m = DECK.mask(passed)
        if m.bit_count() != 2:
            raise CardlabError(f"--passed {passed!r}: name exactly the two cards passed to the partner (BI-4)")
        elsewhere = m & int(sum(int(known_at[s]) for s in range(4) if s != partner))
        if elsewhere:
            raise CardlabError(
                f"--passed {cards_of(elsewhere)} went to the partner, but --known puts it in another hand"
            )
        at_partner = m & ~fixed  # not played, not back in the seat's hand
        if at_partner and counts[partner] == 0:
            raise CardlabError(f"--passed: the partner is out, so it played {cards_of(at_partner)}: add to --played")
        known_at[partner] |= np.uint64(at_partner)
        fixed |= at_partner
    if received:
        m = DECK.mask(received)
        if m.bit_count() != 2:
            raise CardlabError(f"--received {received!r}: name exactly the two cards the partner passed (BI-4)")
        if played and m & ~fixed:  # without --played a card received may have been played unnoticed
            raise CardlabError(
                f"--received {cards_of(m & ~fixed)}: a card received is in --hand or was played (--played, --current)"
            )
        fixed |= m  # one not in the hand the seat has played: out of play, in no hidden hand
    for s in range(4):
        if int(known_at[s]).bit_count() > counts[s]:
            n_known = int(known_at[s]).bit_count()
            raise CardlabError(
                f"seat {s} holds {counts[s]} card{'s' if counts[s] != 1 else ''} but {n_known} are known there"
            )
    known_at[seat] = np.uint64(mine)
    pool = np.array([c for c in range(52) if not (fixed >> c) & 1], dtype=np.int64)
    need = int(counts.sum()) - sum(int(k).bit_count() for k in known_at)
    if need > len(pool):
        raise CardlabError(
            f"the other hands need {need} unseen cards but only {len(pool)} are left: check --cards-left, --played "
            "and --known"
        )
    if len(pool) + int(sum(int(k).bit_count() for k in known_at)) < int(counts.sum()) or int(counts.sum()) > 52:
        raise CardlabError("more cards in the hands than the deck holds: check --cards-left")
    # the actions
    if decision == "play":
        out = np.zeros(K.MAX_MOVES, dtype=np.uint64)
        n = int(K.generate_moves(np.uint64(mine), cur_kind, cur_key, out, bv))
        vals = sorted(int(x) for x in out[:n])
        names = [cards_of(v) for v in vals]
        if current:
            vals.append(0)
            names.append("pass")
        fkind = K.F_PLAY
    elif decision == "handover":
        # BI-11: a winner who went out and does not hand over leaves the lead to the next seat holding cards
        vals, names, fkind = [1, 0], ["hand over the lead", HANDOVER_NO[out_now]], K.F_HANDOVER
    else:
        cards = [1 << c for c in range(52) if (mine >> c) & 1]
        if decision == "exchange_send":
            vals, names, fkind = [0, *cards], ["no exchange", *(f"send {cards_of(c)}" for c in cards)], K.F_SEND
        else:
            vals, names, fkind = cards, [f"return {cards_of(c)}" for c in cards], K.F_RETURN
    models = seat_assignments(strategies, 4, DEFAULT_MODEL, STRATEGIES, parameterized=("search",))
    strat = strategy_rows(models)
    models = [search_label(n, SEARCH_BUDGET) for n in models]
    args = (
        np.int64(seat), known_at, pool, counts, np.array([h0, h1], dtype=np.int64), np.int64(len(finished)),
        np.int64(turn), np.int64(last), np.int64(cur_kind), np.int64(cur_key), np.int64(passes), np.int64(locked),
        np.int64(phase), np.int64(fkind), np.array(vals, dtype=np.uint64), strat, bv, np.int64(s0), np.int64(s1),
        np.int64(TARGET),
    )  # fmt: skip
    return advisor_spec(
        GAME, "kernels.biscuits:" + ("advise_state_search_chunks" if searches(strat) else "advise_state_chunks"), args,
        names, on="score",
        players=4, variants=full, strategies=models, seat=seat, hand=cards_of(mine), decision=decision,
        has_last=False, rank_by="score", chunk_size=SEARCH_CHUNK if searches(strat) else None,
        notes={"unseen_cards": len(pool), "left_over": len(pool) - need,
               "placed_by": "--hand, on the table, --played, --known or --passed",
               # a passed card back in the hand: only a Plain exchange returns it (BI-10); a typo looks the same
               "passed_back": cards_of(DECK.mask(passed) & mine) if passed else ""},
        **({"passed": cards_of(DECK.mask(passed))} if passed else {}),
        **({"received": cards_of(DECK.mask(received))} if received else {}),
    )  # fmt: skip


def position_fields(given: dict, variants: dict | None, strategies) -> dict:
    """The advisor's keywords from a position document (``position``: a JSON file) and the flags given (which
    override it); a document's ``variants`` and ``models`` are used unless flags name them."""
    path = given.pop("position", None)
    doc = read_position(path, GAME, FIELDS) if path else {}
    return position_kwargs(doc, given, FIELDS, variants, strategies)


def odds(run: dict, variants: dict | None = None, strategies: list[str] | None = None, **position) -> Result:
    """Run the advisor on one position; the table has a row per action and measure (module docstring)."""
    decision = position.pop("decision", None) or ("exchange_return" if position.get("exchange_received") else None)
    inside = {
        k for k, v in position.items() if v not in (None, False) and k not in ("seat", "hand", "starter", "players")
    }
    if decision is None:
        decision = "play" if inside else "pass"
    if decision not in DECISIONS:
        raise CardlabError(f"unknown decision {decision!r} for {GAME}; accepted: {', '.join(DECISIONS)}")
    if decision == "pass":
        if inside:
            raise CardlabError(
                f"--{sorted(inside)[0].replace('_', '-')} describes a position inside the hand; the pass (BI-4) is "
                "made from the 13 dealt cards (give --decision play, exchange_send, exchange_return or handover)"
            )
        spec = pass_spec(variants=variants, strategies=strategies, **position)
    else:
        if position.pop("starter", None) is not None:
            raise CardlabError("--starter is for the pass (BI-4); inside the hand the trick state says who acts")
        spec = state_spec(decision=decision, variants=variants, strategies=strategies, **position)
    result = run_spec(spec, **run)
    result.meta["answer"] = answer_line(result.table, "team ahead this hand", "net points", by_score=True)
    result.meta["ranked_by"] = "net points (the team's points this hand minus the other team's)"
    result.meta["ranked_measure"] = "score"
    result.meta["verdict_then"] = "diff_win"
    result.headline = ("score", "win", "diff_score")  # the chance to be ahead beside the net points it ranks by
    result.meta["models"] = spec.describe["strategies"]
    say_unseen(result, spec)
    if spec.notes.get("passed_back"):
        back = spec.notes["passed_back"]
        result.meta["assumed"] = (
            f"--passed {back} {'are' if ' ' in back else 'is'} in --hand too: taken to have come back to the seat in "
            "a Plain exchange (BI-10); if not, correct --hand or --passed"
        )
    return result
