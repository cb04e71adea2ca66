"""Bismarck's advisor (``cardlab odds bismarck``): every card the deciding seat may play (BM-9 1), or every
trump it may name (BM-9 2, round 3 with ``round3_trump_timing=after_seeing_hand``), tried on the same sampled
layouts of the hidden cards (``../shared/design/positions.md``; the fields are listed in ``seeds/bismarck.md``).

The position (what the deciding seat knows): its ``hand``; the ``round`` (1-4; with ``ruleset=swedish`` the
contract) and the ``trumps``; the ``dealer``; the completed ``tricks`` in order (each trick's cards from its
leader: the leaders follow from BM-4, the first from the dealer, the others from the winners, and so do the
suits a seat showed out of); the ``current`` trick's cards; the round-2 card ``shown``; the widow
``discards`` (known to the seat that exchanged); cards ``known`` to be in a seat's hand (the Swedish face-up
widow, in forehand's hand until played). Instead of ``tricks``, ``played`` (the cards out, order forgotten:
no voids are known) with ``won`` (tricks won per seat) and ``leader`` (who led the current trick).

The layouts: the unseen cards dealt uniformly among the other two hands (their sizes follow from the tricks)
and the cards out of play, never giving a seat a suit it showed out of (:func:`kernels.bismarck.sample_hidden`,
exact). The models: ``heuristic`` (the default) plays the hand on with heuristic players from the card, each
playing for itself; any other strategy name, or one per seat, plays it on with those; ``pimc`` for every seat
values each card double dummy on each sampled layout, as a PIMC player does (every card seen, the other two seats
together against the deciding one: they defend perfectly and as one, which real players do not, while the seat
plays each layout seen whole, so its tricks and quota are neither a lower nor an upper bound and may read above
or below a model that plays the hand on; the ranking of the cards less affected).

When another seat is to play, the one "action" is the hand played on from the position (the seat's chances
before its turn: will it make its quota?).

The answer, per action: ``win`` (P(the seat makes its quota), BM-6), ``score`` (its round score), ``tricks`` (its
tricks in the hand: won so far and from here), each with a 95% interval, and the paired differences to the best
action (``diff_*``); ranked by round score, then the quota, then tricks (fewest in a misere round).
"""

from __future__ import annotations

import time
from dataclasses import replace
from functools import partial
from typing import Any

import numpy as np
import pandas as pd

from kernels import bismarck as K
from kernels import dd as DD
from kernels.advise import advise_width

from ..advisor import (
    VERDICT_ORDER,
    advisor_spec,
    answer_line,
    position_kwargs,
    position_label,
    read_position,
    seat_counts,
    seat_map,
    tabulate_actions,
)
from ..driver import KernelSpec
from ..driver import run as run_spec
from ..errors import CardlabError
from ..tables import Result
from .bismarck import (
    CONTRACT_NAMES,
    DECK,
    GAME,
    MISERE_DD_CARDS,
    ROLES,
    ROUND_NAMES,
    SOLVER_CHUNK,
    SOLVER_NAMES,
    SUITS,
    TRUMPS,
    bad_round,
    check_misere_search,
    equal_classes,
    expect_dd,
    labels,
    player_array,
    rules,
    seat_strategies,
    uses_solvers,
    variant_array,
)

FULL = sum(1 << (16 * s + r) for s in range(4) for r in range(13))
DECISIONS = ("play", "name_trumps", "choose_round", "discard", "contract")
FIELDS = (
    "seat", "hand", "decision", "round", "trumps", "dealer", "tricks", "current", "played", "won", "leader",
    "shown", "discards", "known", "pimc_from", "pimc_samples", "remaining", "widow", "try_discard",
)  # fmt: skip
#: the discard advisor: every distinct discard is first valued on SCREEN[0] layouts with heuristic players, the
#: best SCREEN[1] of them on SCREEN[2] more; the best SHOWN, the heuristic's discard and any the user names to
#: --try-discard are then valued on the run's own layouts (another random stream: the figures shown are not the ones
#: that chose them)
SCREEN = (96, 40, 768)
SHOWN = 8
SCREEN_KEY = np.uint64(0x5C4EE4)


def _mask(text: str | None, what: str) -> int:
    if not text or not str(text).strip():
        return 0
    try:
        return DECK.mask(text)
    except CardlabError as e:
        raise CardlabError(f"{what}: {e}") from None


def _cards(text: str | None, what: str) -> list[int]:
    if not text or not str(text).strip():
        return []
    try:
        return DECK.indices(text)
    except CardlabError as e:
        raise CardlabError(f"{what}: {e}") from None


def _text(cards) -> str:
    return " ".join(str(DECK.card(c)) for c in cards)


def _contract(round_no: int | None, trumps: str | None, bv: np.ndarray) -> tuple[int, int]:
    """(round type 0..3, trump index or -1) from the round (or Swedish contract) and the trumps named."""
    swedish = bool(bv[K.V_RULESET])
    names = CONTRACT_NAMES if swedish else ROUND_NAMES
    if round_no is None:
        raise CardlabError(
            "give --round: " + ", ".join(f"{k} {v}" for k, v in names.items()) + (" (the contract)" if swedish else "")
        )
    if round_no not in names:
        raise bad_round(round_no, names)
    rtype = round_no - 1
    t = None if trumps is None else str(trumps).strip().upper()
    fixed = {0: -1, 3: -1} if not swedish else {K.SPEL: -1, K.SPADER: K.SPADES, K.PASS: -1}
    if t is not None and t not in TRUMPS:
        # the values this round takes: its fixed trumps (NT or S), else a suit
        ok = ("NT" if fixed[rtype] < 0 else "S") if rtype in fixed else "C, D, H, S"
        raise CardlabError(f"bad --trumps {trumps!r}; accepted in round {round_no} ({names[round_no]}): {ok}")
    if rtype in fixed:
        if t is not None and TRUMPS[t] != fixed[rtype]:
            has = "no trump suit: leave --trumps out" if fixed[rtype] < 0 else "spades as trumps: --trumps S"
            raise CardlabError(f"--trumps {t}: round {round_no} ({names[round_no]}) has {has} (BM-5)")
        return rtype, fixed[rtype]
    if t is None or t == "NT":
        raise CardlabError(f"give --trumps C, D, H or S: {names[round_no]} has a trump suit (BM-5)")
    return rtype, TRUMPS[t]


def _showed_out(voids: list[int], cards: list[int], leader: int, trump: int, must_trump: bool) -> None:
    """The suits the followers of one trick showed out of (BM-4), into ``voids``; with must-trump (3(c)6) a
    follower that neither followed nor trumped holds no trump either."""
    if not cards:
        return
    led = cards[0] >> 4
    for j, c in enumerate(cards[1:], start=1):
        s = (leader + j) % 3
        if c >> 4 != led:
            voids[s] |= 1 << led
            if must_trump and trump >= 0 and c >> 4 != trump:
                voids[s] |= 1 << trump


def _leader_and_voids(tricks: list[list[int]], current: list[int], first: int, trump: int, must_trump: bool):
    """BM-4 over the completed tricks and the current one (the first led by ``first``, each next one by the
    winner): the current trick's leader, the tricks each seat won, the suits each seat showed out of, and each
    trick's leader (the current one's last). A card of a suit its seat showed out of earlier is refused (it held
    none)."""
    won, voids, leaders = [0, 0, 0], [0, 0, 0], []
    leader = first
    for t, cards in enumerate([*tricks, current]):
        leaders.append(leader)
        for j, c in enumerate(cards):
            s = (leader + j) % 3
            if (voids[s] >> (c >> 4)) & 1:
                raise CardlabError(
                    f"trick {t + 1}: seat {s} plays {_text([c])} but showed out of {SUITS[c >> 4]} earlier "
                    "(BM-4: it held none)"
                )
        _showed_out(voids, cards, leader, trump, must_trump)
        if t < len(tricks):
            leader = (leader + winner_pos(cards, trump)) % 3
            won[leader] += 1
    return leader, won, voids, leaders


def winner_pos(cards: list[int], trump: int) -> int:
    """The position (0 = the leader) of the card that wins a complete trick (BM-4; the kernels' rule)."""
    return int(DD.trick_winner_pos(np.array(cards, dtype=np.int64), len(cards), trump))


def _position(
    seat: int,
    hand: str,
    round: int | None,
    trumps: str | None,
    dealer: int | None,
    tricks: Any,
    current: Any,
    played: str | None,
    won: Any,
    leader: int | None,
    shown: str | None,
    discards: str | None,
    known: Any,
    variants: dict | None,
) -> dict:
    """The checked position of a card to play: every derived quantity the kernel needs."""
    bv = variant_array(variants)
    full = rules().resolve_variants(variants)
    must = bool(bv[K.V_MUST_TRUMP])
    if dealer is None:
        raise CardlabError("give --dealer SEAT: who dealt this hand (0..2); the seat at its left led first (BM-4)")
    for name, v in (("seat", seat), ("dealer", dealer)):
        if not 0 <= v <= 2:
            raise CardlabError(f"bad --{name} {v}: seats are 0..2")
    rtype, trump = _contract(round, trumps, bv)
    mine = _cards(hand, "--hand")
    trick_list = [_cards(t, f"--tricks {i + 1}") for i, t in enumerate(tricks or [])]
    cur = _cards(current, "--current")
    for i, t in enumerate(trick_list):
        if len(t) != 3:
            raise CardlabError(f"--tricks {i + 1}: a completed trick has 3 cards, from its leader on; got {len(t)}")
    if len(cur) > 2:
        raise CardlabError(f"--current holds {len(cur)} cards: a trick in progress has at most 2 (3 complete it)")
    if trick_list and played:
        raise CardlabError("give --tricks (in order) or --played (order forgotten), not both")
    first = (dealer + 1) % 3
    if played:
        out = _cards(played, "--played")
        if len(out) % 3:
            raise CardlabError(f"--played holds {len(out)} cards: the completed tricks' cards, 3 a trick")
        n_tricks = len(out) // 3
        won_map = seat_counts(won, "--won", 3, "a number of tricks")
        if sorted(won_map) != [0, 1, 2] or sum(won_map.values()) != n_tricks or min(won_map.values()) < 0:
            raise CardlabError(
                f"with --played give --won for every seat (--won 0=N --won 1=N --won 2=N): the tricks each won, "
                f"{n_tricks} in all"
            )
        won_list = [won_map[s] for s in range(3)]
        if leader is None:
            raise CardlabError("with --played give --leader SEAT: who led the current trick (it won the last one)")
        if not 0 <= leader <= 2:
            raise CardlabError(f"bad --leader {leader}: seats are 0..2")
        if n_tricks == 0 and leader != first:
            raise CardlabError(f"--leader {leader}: the first trick is led by the dealer's left, seat {first} (BM-4)")
        if n_tricks and won_list[leader] == 0:
            raise CardlabError(
                f"--leader {leader}: the winner of the last trick leads (BM-4), but --won gives seat {leader} no trick"
            )
        cur_leader = leader
        voids = [0, 0, 0]
        done = out
    else:
        if won:
            raise CardlabError("--won goes with --played; with --tricks the tricks won follow from the cards (BM-4)")
        cur_leader, won_list, voids, _leaders = _leader_and_voids(trick_list, cur, first, trump, must)
        if leader is not None and leader != cur_leader:
            raise CardlabError(
                f"--leader {leader}: by the tricks given seat {cur_leader} won the last trick and leads (BM-4)"
                if trick_list
                else f"--leader {leader}: the dealer's left, seat {first}, leads the first trick (BM-4); the seats "
                "are numbered clockwise, in playing order (--leader is needed only with --played)"
            )
        n_tricks = len(trick_list)
        done = [c for t in trick_list for c in t]
    if played:
        _showed_out(voids, cur, cur_leader, trump, must)  # the current trick's followers (done above with --tricks)
    if n_tricks >= 16:
        raise CardlabError("the hand is over: 16 tricks were played (BM-4)")
    to_play = (cur_leader + len(cur)) % 3
    if cur:
        why = f"seat {cur_leader} led the current trick and {len(cur)} card{'s are' if len(cur) > 1 else ' is'} on it"
    elif n_tricks:
        why = f"seat {cur_leader} won the last trick and leads the next"
    else:
        why = f"the dealer's left, seat {cur_leader}, leads the first trick"
    sizes = [16 - n_tricks - (1 if (s - cur_leader) % 3 < len(cur) else 0) for s in range(3)]
    for gone, where in ((done, "--played" if played else "--tricks"), (cur, "--current")):
        both = [c for c in mine if c in set(gone)]
        if both:  # named before the count check below, which would give only the counts
            raise CardlabError(
                f"{_text(both)} in --hand and in {where}: a card played has left the hand; --hand gives the cards "
                "the seat holds now"
            )
    if not mine and sizes[seat]:  # (empty only after the seat played its last card, to the last trick)
        raise CardlabError('--hand is empty: give the cards the seat holds now, e.g. "AS KS 2H"')
    if len(mine) != sizes[seat]:
        # one card off: most likely the current trick read from the wrong seat; say whose cards they are
        hint = ""
        first_words = (
            " (the dealer's left leads the first trick, BM-4; seats are numbered clockwise, in playing order)"
            if not n_tricks
            else ""
        )
        on_trick = (seat - cur_leader) % 3 < len(cur)
        if on_trick and len(mine) == sizes[seat] + 1:
            verb = "led" if seat == cur_leader else "played"
            hint = f": it {verb} {_text([cur[(seat - cur_leader) % 3]])} to the current trick"
            hint += first_words if seat == cur_leader else ""
        elif cur and not on_trick and len(mine) == sizes[seat] - 1:
            hint = f": it has not played to the current trick, which seat {cur_leader} led with {_text(cur[:1])}"
            hint += first_words
        raise CardlabError(
            f"--hand holds {len(mine)} cards, but after {n_tricks} trick(s) seat {seat} holds {sizes[seat]} (BM-2)"
            + hint
        )
    shown_cards = _cards(shown, "--shown")
    if shown_cards and (rtype != 1 or bv[K.V_RULESET]):
        raise CardlabError("--shown is the round-2 trump card (BM-5): give it only in round 2")
    if len(shown_cards) > 1:
        raise CardlabError(
            f"--shown holds {len(shown_cards)} cards: give the one card drawn for trumps in round 2 (BM-5)"
        )
    if shown_cards and shown_cards[0] >> 4 != trump:
        raise CardlabError(
            f"--shown {_text(shown_cards)} is not a trump: the card drawn for trumps in round 2 is of the trump suit, "
            f"{SUITS[trump]} here (BM-5)"
        )
    disc = _cards(discards, "--discards")
    exchanger = -1 if not bv[K.V_WIDOW] else (dealer if bv[K.V_WIDOW] == 1 else first)
    # the exchange takes the leftover cards: 4, or 3 in round 2 when the trump card was drawn from them (BM-5)
    n_widow = 3 if rtype == 1 and not bv[K.V_RULESET] and not bv[K.V_ROUND2] else 4
    if disc and (seat != exchanger or len(disc) != n_widow):
        raise CardlabError(
            f"--discards: the {n_widow} cards the seat itself discarded in the widow exchange (3(c)5)"
            + (f"; here seat {exchanger} exchanges" if exchanger >= 0 else "; no widow exchange in these variants")
        )
    known_map = {s: _cards(v, f"--known {s}") for s, v in seat_map(known, "--known", 3).items()}
    for s, cs in known_map.items():
        if s == seat:
            raise CardlabError(f"--known {s}: name cards of another seat (the seat's own are --hand)")
        if len(cs) > sizes[s]:
            raise CardlabError(f"--known {s}: {len(cs)} cards, but seat {s} holds {sizes[s]}")
        for c in cs:
            if (voids[s] >> (c >> 4)) & 1:
                raise CardlabError(f"--known {s}: {_text([c])}, but seat {s} showed out of {SUITS[c >> 4]} (BM-4)")
    named = [
        ("--hand", mine), ("--tricks" if trick_list else "--played", done), ("--current", cur),
        ("--shown", shown_cards if not bv[K.V_ROUND2] else []), ("--discards", disc),
        *((f"--known {s}", cs) for s, cs in known_map.items()),
    ]  # fmt: skip
    seen: dict[int, str] = {}
    for what, cs in named:
        for c in cs:
            if c in seen:
                raise CardlabError(f"{_text([c])} is named twice ({seen[c]} and {what})")
            seen[c] = what
    for c in mine:
        if (voids[seat] >> (c >> 4)) & 1:
            raise CardlabError(f"--hand holds {_text([c])}, but seat {seat} showed out of {SUITS[c >> 4]} (BM-4)")
    unknown = FULL
    for c in seen:
        unknown &= ~(1 << c)
    known_masks = [sum(1 << c for c in known_map.get(s, [])) for s in range(3)]
    need = [0 if s == seat else sizes[s] - len(known_map.get(s, [])) for s in range(3)]
    return {
        "bv": bv,
        "full": full,
        "rtype": rtype,
        "trump": trump,
        "dealer": dealer,
        "seat": seat,
        "mine": mine,
        "cur": cur,
        "leader": cur_leader,
        "played_mask": sum(1 << c for c in done),
        # every card played so far in order, the current trick's included, and who led the first trick: known
        # from --tricks (or on the first trick), not from --played (pimc-infer players read it)
        "history": None if played and n_tricks else [*done, *cur],
        "first": first,
        # the seat to play and why (BM-4): another seat's turn is answered as the hand played on (play_spec)
        "to_play": to_play,
        "turn": f"seat {to_play} is to play ({why}; BM-4)",
        "known_out": (1 << shown_cards[0]) if shown_cards and not bv[K.V_ROUND2] else 0,
        "widow_out": sum(1 << c for c in disc),
        "won": won_list,
        "voids": voids,
        "sizes": sizes,
        "need": need,
        "known": known_masks,
        "unknown": unknown,
    }


#: the advisor's models when none are named: heuristic players play each for themselves, as Bismarck's players
#: do, so the chances are realistic against them; pimc is the stronger card ranking but its chances usually on
#: the low side (it lets the other two play together), and slow on whole hands
DEFAULT_MODEL = "heuristic"


def _models(strategies: list[str] | None) -> tuple[int, np.ndarray, list[str]]:
    """(model code, the players' codes, their names): ``pimc`` for every seat is the double-dummy valuation of
    each sampled layout; anything else plays the hand on with the players named."""

    names, codes = seat_strategies(strategies, DEFAULT_MODEL)
    if all(n == "dd" for n in names):
        raise CardlabError(
            "models dd: the layout would be known; for a known layout use `cardlab solve bismarck --hands ... "
            "--trick ...`; here the hidden cards are sampled: use pimc (each sampled layout solved double dummy)"
        )
    if all(n == "pimc" for n in names):
        return K.M_DD_EACH_LAYOUT, codes, names
    return 0, codes, labels(names)


def _idle_player_options(strategies: list[str] | None, position: dict) -> dict[str, str]:
    """``pimc_from`` and ``pimc_samples`` given where no seat plays them (the CLI says so on stderr): they set
    when solver seats playing the hand on take over, and how many layouts they sample; the pimc model values each
    layout double dummy from the position, and the heuristic plays no solver."""
    given = [k for k in ("pimc_from", "pimc_samples") if position.get(k) is not None]
    if not given:
        return {}
    names, _ = seat_strategies(strategies, DEFAULT_MODEL)
    if all(n == "pimc" for n in names):
        why = (
            "the pimc model solves each sampled layout double dummy from the position; it sets the pimc seats "
            "that play the hand on among other players (--strategy 0=pimc --strategy 1=heuristic ...)"
        )
        return {k: why for k in given}
    plays = {n.partition(":")[0] for n in names}
    # the seats that take over at --pimc-from cards (dd among them), and those that sample layouts (not dd)
    users = {"pimc_from": (*SOLVER_NAMES, "search"), "pimc_samples": ("pimc", "pimc-infer", "search")}
    return {
        k: f"no seat plays {' or '.join(', '.join(users[k]).rsplit(', ', 1))}"
        for k in given
        if not plays & set(users[k])
    }


def model_words(names: list[str], pimc_hint: bool = False) -> str:
    """The model in words, for the output's header; ``pimc_hint``: a card to play that the pimc model would also
    take, where the default model's header names it as the other way to rank the cards (the two may differ)."""
    if all(n == "pimc" for n in names):
        return (
            "pimc, each sampled layout solved double dummy: every card seen, the other two seats together against "
            "the seat: they defend perfectly and as one, the seat sees each layout whole, so its tricks and quota are "
            "no bound either way and may read above or below the heuristic model's (--strategy heuristic plays the "
            "hand on instead)"
        )
    if pimc_hint and all(n == DEFAULT_MODEL for n in names):
        # the two models answer different questions and may name different cards: said where the answer is read
        return (
            "the hand played on by the players named (each for itself): the chances against players like "
            "cardlab's heuristic; --strategy pimc ranks the cards another way (each sampled layout solved double "
            "dummy, every card seen) and may name another card"
        )
    return "the hand played on by the players named (each for itself)"


def _tabulate(counts: np.ndarray, trials: int, spec: KernelSpec) -> pd.DataFrame:
    """Two count rows side by side (kernels.bismarck.advisor): the quota and round score, then the tricks; ranked
    by round score, then the quota, then tricks (fewest in a misere round)."""
    A = len(spec.describe["actions"])
    W = advise_width(A)
    c = np.asarray(counts, dtype=np.float64)
    per = c[1 : 1 + 4 * A].reshape(A, 4)
    tricks = c[W + 1 : W + 1 + 4 * A].reshape(A, 4)[:, 1]
    sign = -1 if spec.describe.get("misere") else 1
    ranking = sorted(range(A), key=lambda a: (-per[a, 1], -per[a, 0], -sign * tricks[a], a))
    main = tabulate_actions(c[:W], trials, spec, ranking)
    extra = tabulate_actions(c[W:], trials, spec, ranking)
    extra = extra[extra["measure"].isin(["score", "diff_score"])].copy()
    extra["measure"] = extra["measure"].map({"score": "tricks", "diff_score": "diff_tricks"})
    verdict = main.drop_duplicates("action").set_index("action")["verdict"]
    extra["verdict"] = extra["action"].map(verdict)
    order = {m: i for i, m in enumerate(["win", "score", "tricks", "diff_win", "diff_score", "diff_tricks"])}
    rank = {spec.describe["actions"][a]: i for i, a in enumerate(ranking)}  # the ranking's order within a group
    df = pd.concat([main, extra], ignore_index=True)
    # the verdict: worse when the round score is clearly lower, or no higher and the quota or the tricks clearly
    # worse (under the quota every card scores 0: the tricks still separate them)
    d = {m: df[df["measure"] == m].set_index("action") for m in ("diff_score", "diff_win", "diff_tricks")}
    verdicts = {}
    for action, v in verdict.items():
        if v == "best":
            verdicts[action] = v
            continue
        s_hi = d["diff_score"].loc[action, "ci_high"]
        w_hi = d["diff_win"].loc[action, "ci_high"]
        t = d["diff_tricks"].loc[action]
        if v == "equal" and t["estimate"] == 0 and t["ci_low"] == t["ci_high"]:
            verdicts[action] = v  # the best's quota, score and tricks on every layout
            continue
        verdicts[action] = "worse" if _worse_on(s_hi, w_hi, t, sign < 0) else "uncertain"
    df["verdict"] = df["action"].map(verdicts)
    # grouped by these verdicts as tabulate_actions groups by its own (the best, equal, uncertain, then worse)
    place = {a: VERDICT_ORDER[verdicts[a]] * len(rank) + i for a, i in rank.items()}
    df = df.sort_values(by=["action", "measure"], key=lambda col: col.map(place if col.name == "action" else order))
    return df.reset_index(drop=True)


def _worse_on(score_hi: float, win_hi: float, tricks: pd.Series, misere: bool) -> str | None:
    """The measure on which an action is clearly worse than the best, in the verdict's order: the round score, then
    (the score no higher) the quota, then (neither higher) the tricks, fewer being better in the misere; None where
    it is not (uncertain). From the upper bounds of the paired differences and the row of ``diff_tricks``."""
    if score_hi < 0:
        return "score"
    if score_hi <= 0 and win_hi < 0:
        return "quota"
    if score_hi <= 0 and win_hi <= 0 and (tricks["ci_low"] > 0 if misere else tricks["ci_high"] < 0):
        return "tricks"
    return None


def runner_up_words(table: pd.DataFrame, runner: str, how: str, misere: bool = False) -> str:
    """The answer line's words for the runner-up (``answer_line``'s ``runner_up``), where the verdict's words alone
    mislead. For decisions of one hand (a card, trumps, discards), where every action has the same quota.
    - "not separated" on the round score, but clearly less or more likely to make the quota: said so. The verdict
      goes by the round score, which in the misere is 0 on most layouts (BM-6), so a card can differ clearly on the
      quota and not on the score; "not separated" alone reads as "it does not matter".
    - "clearly worse", the round score not clearly lower: what separates it (:func:`_worse_on`), the quota or the
      tricks. Under the quota every action may score 0, and "+0.00, 0.0%, clearly worse" read as a contradiction."""
    rows = table[table["action"] == runner].set_index("measure")
    if how == "clearly worse":
        on = _worse_on(
            rows.loc["diff_score", "ci_high"], rows.loc["diff_win", "ci_high"], rows.loc["diff_tricks"], misere
        )
        if on == "quota":
            return f"{how}: less likely to make the quota, the round score not separated"
        if on == "tricks":
            best = table[(table["verdict"] == "best") & (table["measure"] == "tricks")]["estimate"].iloc[0]
            return (
                f"{how}: {'more' if misere else 'fewer'} tricks ({rows.loc['tricks', 'estimate']:.2f} against "
                f"{best:.2f}), the round score and the quota not separated"
            )
        return how
    if how != "not separated" or "diff_win" not in rows.index:
        return how
    lo, hi = rows.loc["diff_win", "ci_low"], rows.loc["diff_win", "ci_high"]
    if hi >= 0 and lo <= 0:
        return how
    return f"not separated on the round score but clearly {'less' if hi < 0 else 'more'} likely to make the quota"


#: the pimc model refused a misere hand above MISERE_DD_CARDS cards (play and discard decisions)
_MISERE_PIMC = (
    f"pimc in the misere round needs hands of at most {MISERE_DD_CARDS} cards (the double-dummy search explodes "
    "above); use another model (heuristic, or search, which plays the misere to the end)"
)


def _cut_to_bounds(table: pd.DataFrame, bounds: dict) -> None:
    """The intervals of each measure cut to the least and most one sample can be (the round score never below 0
    by default, BM-6): the mean lies within them, so no coverage is lost. Done on the finished table: precision
    mode held the uncut half-width (z standard errors) to the target."""
    for m, b in bounds.items():
        if b is None:
            continue
        rows = table["measure"] == m
        for c in ("ci_low", "ci_high"):
            table.loc[rows, c] = table.loc[rows, c].clip(*b)


def _kernel(name: str, model: int, strat: np.ndarray) -> str:
    """The advisor kernel ``name`` (play, round, discard): for the pimc model the solver alone (no player: no hand
    is played on), else compiled with the search and solver players where a seat needs them, else the plain one
    (about half the compiling on a first run)."""
    if model == K.M_DD_EACH_LAYOUT:
        expect_dd(3)
        return f"kernels.bismarck:advise_{name}_dd_chunks"
    if uses_solvers(strat):
        return f"kernels.bismarck:advise_{name}_chunks"
    return f"kernels.bismarck:advise_{name}_plain_chunks"


def _spec(kernel: str, args: tuple, actions: list[str], names: list[str], pos_describe: dict) -> KernelSpec:
    # small chunks where a layout solves or searches (the pimc model, solver or search seats), so that a run of a
    # few hundred layouts is spread over the threads; the heuristic's layouts are quick
    slow = not kernel.endswith("_plain_chunks")
    spec = advisor_spec(
        GAME, kernel, args, actions, on="score", rank_by="score", has_last=False, players=3,
        strategies=names, chunk_size=SOLVER_CHUNK["layout"] if slow else None, **pos_describe,
    )  # fmt: skip
    return replace(spec, n_counts=2 * advise_width(len(actions)), tabulate=_tabulate)


def play_spec(
    *, seat: int = 0, hand: str, variants: dict | None = None, strategies: list[str] | None = None,
    pimc_from: int | None = None, pimc_samples: int | None = None, **fields: Any,
) -> KernelSpec:  # fmt: skip
    """The advisor's kernel spec for a card to play (module docstring)."""
    pos = _position(seat, hand, variants=variants, **{k: fields.get(k) for k in _POSITION_KEYS})
    model, strat, names = _models(strategies)
    if pos["history"] is None and "pimc-infer" in names:
        raise CardlabError(
            "pimc-infer reads the layouts from the order in which the cards were played: give the completed "
            "tricks with --tricks (each in the order played), not --played"
        )
    if model == K.M_DD_EACH_LAYOUT and pos["rtype"] == 3 and max(pos["sizes"]) > MISERE_DD_CARDS:
        raise CardlabError(_MISERE_PIMC)
    if model != K.M_DD_EACH_LAYOUT:  # solver seats playing on take over at --pimc-from cards, if they hold more
        check_misere_search(names, pimc_from, pos["rtype"] == 3 and max(pos["sizes"]) > MISERE_DD_CARDS)
    pv = player_array(pimc_from, pimc_samples, names)
    mine = sum(1 << c for c in pos["mine"])
    k = len(pos["cur"])
    led = pos["cur"][0] >> 4 if k else -1
    if pos["to_play"] == seat:
        legal = int(DD.legal_cards(np.uint64(mine), led, pos["trump"], int(pos["bv"][K.V_MUST_TRUMP])))
        # equal cards (touching once the cards out of play are set aside) share a row: the lowest is played
        separators = pos["unknown"] | sum(1 << c for c in pos["cur"]) | sum(pos["known"])
        classes = [sorted(cls) for cls in equal_classes([c for c in range(64) if (legal >> c) & 1], separators)]
        classes.sort()
        actions = [cls[0] for cls in classes]
        labels = [_text(cls[:1]) + (f" (or {_text(cls[1:])})" if len(cls) > 1 else "") for cls in classes]
        turn: dict[str, Any] = {"legal_cards": legal.bit_count()}
    else:
        # not the seat's turn: "will I make my quota?" answered with the hand played on from here (action -1)
        actions = [-1]
        labels = [f"play on (seat {pos['to_play']} to play)"]
        turn = {"not_to_play": pos["turn"]}
    trick = np.zeros(4, dtype=np.int64)
    trick[:k] = pos["cur"]
    _check_layout(pos)
    args = (
        np.int64(seat), np.int64(pos["dealer"]), np.int64(pos["rtype"]), np.int64(pos["trump"]), np.uint64(mine),
        np.uint64(pos["unknown"]), np.array(pos["voids"], dtype=np.int64), np.array(pos["need"], dtype=np.int64),
        np.array(pos["known"], dtype=np.uint64), np.int64(pos["leader"]), trick, np.int64(k),
        np.uint64(pos["played_mask"]), np.array(pos["history"] or [], dtype=np.int64),
        np.int64(-1 if pos["history"] is None else pos["first"]), np.uint64(pos["known_out"]),
        np.uint64(pos["widow_out"]),
        np.array(pos["won"], dtype=np.int64), np.array(actions, dtype=np.int64), np.int64(model), strat, pv,
        pos["bv"],
    )  # fmt: skip
    spec = _spec(
        _kernel("play", model, strat), args, labels, names,
        _describe(pos, hand=_text(pos["mine"]), decision="play", **turn),
    )  # fmt: skip
    if "not_to_play" in turn:  # one row, no paired difference: precision holds the round score's interval
        spec = replace(spec, precision_measures=("score",), precision_done=None)
    return spec


def _check_layout(pos: dict) -> None:
    """One layout fits the position, or the position is refused naming why (the sampler is exact: it then
    fits every sample)."""
    from kernels import rng

    seat = pos["seat"]
    a, b = (seat + 1) % 3, (seat + 2) % 3
    st = rng.new_state()
    ways = np.zeros((5, 17, 17))
    out = np.zeros(2, dtype=np.uint64)
    ok = K.sample_hidden(
        np.uint64(pos["unknown"]), pos["voids"][a], pos["voids"][b], pos["need"][a], pos["need"][b], st, ways, out
    )
    if not ok:
        raise CardlabError(
            f"no layout fits this position: seats {a} and {b} hold {pos['need'][a]} and {pos['need'][b]} unseen "
            f"cards, but the {bin(pos['unknown']).count('1')} unseen cards and the suits they showed out of do not "
            "allow it: check --tricks, --played and --hand"
        )


def _describe(pos: dict, **extra: Any) -> dict:
    r = pos["rtype"] + 1
    # a hand's score (BM-6, 3(c)10): its least and most, for the intervals (_cut_to_bounds)
    if pos["rtype"] >= 0 and pos["seat"] is not None:
        role = np.int64((pos["seat"] - pos["dealer"]) % 3)
        scores = [int(K.hand_score(np.int64(pos["rtype"]), role, np.int64(t), pos["bv"])) for t in range(17)]
        extra = {"score_bounds": (min(scores), max(scores)), **extra}
    return {
        "variants": pos["full"],
        "seat": pos["seat"],
        "round": r,
        "trumps": "NT" if pos["trump"] < 0 else SUITS[pos["trump"]],
        "dealer": pos["dealer"],
        "role": ROLES[(pos["seat"] - pos["dealer"]) % 3],
        "misere": pos["rtype"] == 3,
        # whether the pimc model takes this position's card play (the misere only from MISERE_DD_CARDS cards)
        "pimc_plays": "sizes" in pos and not (pos["rtype"] == 3 and max(pos["sizes"]) > MISERE_DD_CARDS),
        "quota": quota_words(pos),
        **({"turn": pos["turn"]} if "turn" in pos else {}),
        **extra,
    }


def _role_words(role: int) -> str:
    return "the dealer" if role == 0 else f"the dealer's {ROLES[role]}"


def quota_words(pos: dict) -> str:
    """The deciding seat's quota in words (BM-6; Swedish 3(c)10), for the answer's header: a player asking "will
    I make it?" should not have to work out the number from the role. Making the quota is what ``win`` counts
    (``made_quota``: at least the quota, at most in the misere or Pass); what a hand scores depends on the scoring
    variant, so the line does not say. ``rtype`` -1: the round type is the choice, so the quota of each kind of
    round among ``remaining`` (round numbers; all when absent); ``trump`` -2: the trumps are the choice; ``seat``
    None (a review of every seat): each role's."""
    seat, dealer, rtype, bv = pos["seat"], pos["dealer"], pos["rtype"], pos["bv"]
    swedish = bool(bv[K.V_RULESET])
    low, rule = ("Pass", "3(c)10") if swedish else ("misere", "BM-6")
    trumps = {-1: "no trumps", -2: "trumps as named"}.get(pos["trump"]) or f"trumps {SUITS[pos['trump']]}"
    where = (
        ""
        if rtype < 0
        else f"the contract {CONTRACT_NAMES[rtype + 1]}"
        if swedish
        else f"round {rtype + 1} ({low}), {trumps}"  # the misere named: fewer tricks is the aim there
        if rtype == 3
        else f"round {rtype + 1}, {trumps}"
    )
    left = pos.get("remaining") or [1, 2, 3, 4]

    def needs(role: int) -> str:
        up, down = int(K.quota(0, role, bv)), int(K.quota(3, role, bv))
        if rtype < 0:
            parts = ([f"{up} tricks or more"] if any(r < 4 for r in left) else []) + (
                [f"in the {low} at most {down}"] if 4 in left else []
            )
            return ", ".join(parts)
        return f"at most {down} tricks" if rtype == 3 else f"{up} tricks or more"

    if seat is None:
        roles = [f"{_role_words(r)} (seat {(dealer + r) % 3}) {needs(r)}" for r in range(3)]
        return f"{where}; each seat makes its quota with: " + ", ".join(roles) + f" ({rule})"
    role = (seat - dealer) % 3
    who = f"seat {seat} ({_role_words(role)}" + (f"; the dealer is seat {dealer})" if role else ")")
    return f"{who} makes its quota with {needs(role)} ({rule})" + (f"; {where}" if where else "")


_POSITION_KEYS = (
    "round",
    "trumps",
    "dealer",
    "tricks",
    "current",
    "played",
    "won",
    "leader",
    "shown",
    "discards",
    "known",
)


def _dealers_hand(seat: int, dealer: int | None, hand: str, fields: dict, decision: str, what: str):
    """The checked inputs of a decision the dealer takes holding its 16 dealt cards, before the first lead:
    (its cards, the dealer); no field of the play may be given."""
    stray = sorted(k for k, v in fields.items() if v)
    if stray:
        raise CardlabError(
            f"--{stray[0].replace('_', '-')} does not go with {decision}: it is decided before the first lead"
        )
    if not 0 <= seat <= 2:
        raise CardlabError(f"bad --seat {seat}: seats are 0..2")
    if dealer is None:
        dealer = seat
    if dealer != seat:
        raise CardlabError(f"the dealer {what}: --seat {seat} is not the --dealer {dealer}")
    mine = _cards(hand, "--hand")
    if len(mine) != 16:
        raise CardlabError(f"--hand holds {len(mine)} cards: the dealer decides holding its 16 dealt cards (BM-2)")
    return mine, dealer


def trump_spec(
    *, seat: int = 0, hand: str, variants: dict | None = None, strategies: list[str] | None = None,
    pimc_from: int | None = None, pimc_samples: int | None = None, round: int | None = None,
    dealer: int | None = None, **fields: Any,
) -> KernelSpec:  # fmt: skip
    """Naming trumps having seen the hand (BM-9 2): round 3 with round3_trump_timing=after_seeing_hand, the
    dealer before the first lead; every suit an action."""
    bv = variant_array(variants)
    full = rules().resolve_variants(variants)
    if bv[K.V_RULESET]:
        raise CardlabError("name_trumps is the blog's round 3; in Swedish Bismarck forehand names trumps in Valfri")
    if full["round3_trump_timing"] != "after_seeing_hand":
        raise CardlabError(
            "name_trumps needs the variant round3_trump_timing=after_seeing_hand: by default trumps are named "
            "blind, before the deal (BM-5), where no hand can tell which is better"
        )
    if bv[K.V_WIDOW]:
        raise CardlabError(
            "name_trumps with a widow exchange is not advised: the dealer names trumps before taking the widow, "
            "and the advisor does not play the exchange; use widow_exchange=none"
        )
    if round not in (None, 3):
        raise CardlabError("name_trumps is round 3's decision (BM-5): give --round 3 or omit it")
    mine, dealer = _dealers_hand(seat, dealer, hand, fields, "name_trumps", "names trumps in round 3 (BM-5)")
    mask = sum(1 << c for c in mine)
    model, strat, names = _models(strategies)
    pv = player_array(pimc_from, pimc_samples, names)
    # the round kernel with round 3 for every action and no other type counted: this hand's score alone
    args = (
        np.int64(seat), np.int64(dealer), np.uint64(mask), np.uint64(0), np.uint64(FULL & ~mask),
        np.full(4, 2, dtype=np.int64),
        np.arange(4, dtype=np.int64), np.int64(0), np.int64(model), strat, pv, bv,
    )  # fmt: skip
    pos = {
        "full": full,
        "seat": seat,
        "rtype": 2,
        "trump": -2,
        "dealer": dealer,
        "bv": bv,
    }  # -2: the trumps are the choice
    d = _describe(pos, hand=_text(mine), decision="name_trumps")
    d.pop("trumps")
    return _spec(_kernel("round", model, strat), args, [f"name {s}" for s in SUITS], names, d)


def _type_actions(left: list[int], trump_of: dict, label) -> tuple[list[int], list[int], list[str]]:
    """Each round type (contract) left an action with its trumps (``trump_of``; round 3 and Valfri once per
    suit named): the round types 0..3, the trumps and ``label(r, trump)``."""
    rtypes, trumps, labels = [], [], []
    for r in left:
        for t in range(4) if r == 3 else [trump_of[r]]:
            rtypes.append(r - 1)
            trumps.append(t)
            labels.append(label(r, t))
    return rtypes, trumps, labels


def _remaining(remaining: str | None, names: dict, words: str) -> list[int]:
    """``--remaining "1 3 4"``: the types (or contracts) left in the cycle, all four by default."""
    if not remaining:
        return [1, 2, 3, 4]
    parts = str(remaining).replace(",", " ").split()
    if not parts or not all(p.isdigit() and int(p) in names for p in parts):
        raise CardlabError(f"bad --remaining {remaining!r}: {words}")
    return sorted({int(p) for p in parts})


def round_spec(
    *, seat: int = 0, hand: str, variants: dict | None = None, strategies: list[str] | None = None,
    pimc_from: int | None = None, pimc_samples: int | None = None, dealer: int | None = None,
    remaining: str | None = None, **fields: Any,
) -> KernelSpec:  # fmt: skip
    """Choosing the round type having seen the hand (3(c)9 with ``fixed_round_order=false`` and
    ``round3_trump_timing=after_seeing_hand``): the dealer's 16 cards; every type still ``remaining`` in its
    cycle an action (round 3 once per suit named); valued over the cycle (this hand, plus the other types
    left on fresh deals, the dealer's score on each)."""
    bv = variant_array(variants)
    full = rules().resolve_variants(variants)
    if bv[K.V_RULESET]:
        raise CardlabError(
            "choose_round is the blog's free round order (3(c)9); in Swedish Bismarck forehand chooses the contract "
            "from the widow: --decision contract"
        )
    if full["fixed_round_order"] != "false" or full["round3_trump_timing"] != "after_seeing_hand":
        raise CardlabError(
            "choose_round needs the variants fixed_round_order=false and round3_trump_timing=after_seeing_hand: "
            "otherwise the round is fixed or chosen blind, before the deal (3(c)9), where no hand can tell"
        )
    if bv[K.V_WIDOW]:
        raise CardlabError(
            "choose_round with a widow exchange is not advised: the advisor does not play the exchange; use "
            "widow_exchange=none"
        )
    mine, dealer = _dealers_hand(seat, dealer, hand, fields, "choose_round", "chooses the round (3(c)9)")
    left = _remaining(remaining, ROUND_NAMES, 'the round types not yet played this cycle, e.g. "1 3 4"')
    mask = sum(1 << c for c in mine)
    model, strat, names = _models(strategies)
    if model == K.M_DD_EACH_LAYOUT and 4 in left:
        raise CardlabError(
            "choose_round with pimc values whole misere hands double dummy, which is far too slow; use the "
            "heuristic models (or --remaining without 4)"
        )
    check_misere_search(names, pimc_from, 4 in left)
    pv = player_array(pimc_from, pimc_samples, names)
    rtypes, trumps, labels = _type_actions(
        left, {1: -1, 2: -2, 4: -1},
        lambda r, t: f"round 3, name {SUITS[t]}" if r == 3 else "round 2 (trumps drawn)" if r == 2
        else f"round {r} ({ROUND_NAMES[r]})",
    )  # fmt: skip
    args = (
        np.int64(seat), np.int64(dealer), np.uint64(mask), np.uint64(0), np.uint64(FULL & ~mask),
        np.array(rtypes, dtype=np.int64),
        np.array(trumps, dtype=np.int64), np.int64(sum(1 << (r - 1) for r in left)), np.int64(model), strat, pv, bv,
    )  # fmt: skip
    pos = {"full": full, "seat": seat, "rtype": -1, "trump": -1, "dealer": dealer, "bv": bv, "remaining": left}
    d = _describe(pos, hand=_text(mine), decision="choose_round", remaining=left)
    for k in ("trumps", "round", "misere"):
        d.pop(k)
    return _spec(_kernel("round", model, strat), args, labels, names, d)


def _exchanger(bv: np.ndarray, dealer: int) -> int:
    """The seat that takes the widow (3(c)5, 3(c)10), or -1 without an exchange."""
    if not bv[K.V_WIDOW]:
        return -1
    return dealer if bv[K.V_WIDOW] == 1 else (dealer + 1) % 3


def _dealer_of(seat: int, dealer: int | None, bv: np.ndarray, decision: str) -> int:
    """The dealer of a decision that the widow's taker makes (the dealer, or forehand at the dealer's left)."""
    if not 0 <= seat <= 2:
        raise CardlabError(f"bad --seat {seat}: seats are 0..2")
    forehand = bv[K.V_WIDOW] == 2
    if dealer is None:
        dealer = (seat - 1) % 3 if forehand else seat
    if not 0 <= dealer <= 2:
        raise CardlabError(f"bad --dealer {dealer}: seats are 0..2")
    taker = _exchanger(bv, dealer)
    if taker != seat:
        who = "forehand, the dealer's left" if forehand else "the dealer"
        raise CardlabError(
            f"{decision}: {who} takes the widow (3(c)5); with --dealer {dealer} that is seat {taker}, not --seat {seat}"
        )
    return dealer


def _distinct_discards(held: list[int], n: int, others: int) -> list[int]:
    """Every discard of ``n`` of the ``held`` cards, one for each set of equal cards (touching once the cards
    of ``others`` are set aside: which of them goes makes no difference to the seat), lowest first."""
    classes = [sorted(cls) for cls in equal_classes(held, others)]
    out: list[int] = []

    def walk(i: int, left: int, mask: int) -> None:
        if left == 0:
            out.append(mask)
            return
        if i == len(classes):
            return
        for k in range(min(left, len(classes[i])), -1, -1):
            walk(i + 1, left - k, mask | sum(1 << c for c in classes[i][:k]))

    walk(0, n, 0)
    return out


def _screen(args: tuple, discards: list[int], trials: int, seed: int, chunk_size: int) -> np.ndarray:
    """Per discard: the mean round score, quota and tricks on ``trials`` layouts of the screening stream."""
    from ..driver import run_chunks, split_seed

    key0, key1 = split_seed(seed)
    A = len(discards)
    full = (*args[:7], np.array(discards, dtype=np.uint64), *args[8:-1], np.True_)
    n_chunks = -(-trials // chunk_size)
    rows = run_chunks(
        _kernel("discard", 0, args[9]), full, np.arange(n_chunks), chunk_size, trials, key0,
        key1 ^ SCREEN_KEY, 3 * A,
    )  # fmt: skip
    return rows.sum(axis=0).reshape(A, 3) / trials


def _best(means: np.ndarray, k: int, misere: bool) -> list[int]:
    """The ``k`` best rows of :func:`_screen`: by round score, then the quota, then tricks (fewest in round 4)."""
    sign = -1 if misere else 1
    order = sorted(range(len(means)), key=lambda a: (-means[a, 1], -means[a, 0], -sign * means[a, 2], a))
    return order[:k]


def discard_spec(
    *, seat: int = 0, hand: str, widow: str | None = None, variants: dict | None = None,
    strategies: list[str] | None = None, pimc_from: int | None = None, pimc_samples: int | None = None,
    round: int | None = None, trumps: str | None = None, dealer: int | None = None, shown: str | None = None,
    seed: int = 0, chunk_size: int = 64, tried_words: str = "tried", **fields: Any,
) -> KernelSpec:  # fmt: skip
    """The widow discard (3(c)5; 3(c)10's forehand): the seat that takes the widow holds its 16 dealt cards and
    the ``widow``, and discards as many; each action a discard, the hand then played from the first lead."""
    bv = variant_array(variants)
    full = rules().resolve_variants(variants)
    if not bv[K.V_WIDOW]:
        raise CardlabError(
            "discard needs a widow exchange: the variant widow_exchange=dealer_takes_4_discards_4 or swedish, or "
            "ruleset=swedish (3(c)5, 3(c)10); by default nobody takes the leftover cards"
        )
    tries = fields.pop("try_discard", None)
    stray = sorted(k for k, v in fields.items() if v)
    if stray:
        raise CardlabError(
            f"--{stray[0].replace('_', '-')} does not go with discard: the widow is taken before the first lead"
        )
    dealer = _dealer_of(seat, dealer, bv, "discard")
    rtype, trump = _contract(round, trumps, bv)
    mine = _cards(hand, "--hand")
    if len(mine) != 16:
        raise CardlabError(f"--hand holds {len(mine)} cards: give the seat's 16 dealt cards, the widow apart (BM-2)")
    drawn = rtype == 1 and not bv[K.V_RULESET] and not bv[K.V_ROUND2]  # round 2's card came from the leftover
    shown_cards = _cards(shown, "--shown")
    if drawn:
        if len(shown_cards) != 1 or shown_cards[0] >> 4 != trump:
            raise CardlabError(
                "give --shown: in round 2 the trump card is drawn from the leftover cards, shown and out of play "
                "(BM-5), one card of the trump suit"
            )
    elif shown_cards:
        raise CardlabError("--shown is the round-2 trump card drawn from the leftover (BM-5): not in this round")
    n = 3 if drawn else 4
    cards_w = _cards(widow, "--widow")
    if len(cards_w) != n:
        raise CardlabError(
            f"--widow holds {len(cards_w)} cards: give the {n} leftover cards the seat takes"
            + (" (the 4th was drawn for trumps, BM-5)" if drawn else "")
        )
    seen: dict[int, str] = {}
    for what, cs in (("--hand", mine), ("--widow", cards_w), ("--shown", shown_cards)):
        for c in cs:
            if c in seen:
                raise CardlabError(f"{_text([c])} is named twice ({seen[c]} and {what})")
            seen[c] = what
    held = mine + cards_w
    held_mask = sum(1 << c for c in held)
    known_out = sum(1 << c for c in shown_cards)
    unknown = FULL & ~held_mask & ~known_out
    model, strat, names = _models(strategies)
    if model == K.M_DD_EACH_LAYOUT and rtype == 3:
        raise CardlabError(_MISERE_PIMC)
    check_misere_search(names, pimc_from, rtype == 3)
    pv = player_array(pimc_from, pimc_samples, names)
    from kernels import rng

    heuristic = int(K.discard(np.uint64(held_mask), n, trump, rtype == 3, K.S_HEURISTIC, rng.new_state())[1])
    picked: list[int] = []
    for i, text in enumerate(tries or []):
        cs = _cards(text, f"--try-discard {i + 1}")
        if len(cs) != n or any(c not in held for c in cs) or len(set(cs)) != n:
            raise CardlabError(f"--try-discard {text!r}: {n} different cards of the --hand and --widow, to discard")
        picked.append(sum(1 << c for c in cs))
    # every distinct discard, screened with heuristic players on their own stream (see SCREEN)
    candidates = _distinct_discards(held, n, unknown)
    head = (
        np.int64(seat), np.int64(dealer), np.int64(rtype), np.int64(trump), np.uint64(held_mask), np.uint64(unknown),
        np.uint64(known_out),
    )  # fmt: skip
    screen_args = (*head, None, np.int64(0), np.full(3, K.S_HEURISTIC, dtype=np.int64), pv, bv, np.True_)
    first = _screen(screen_args, candidates, SCREEN[0], seed, chunk_size)
    short = [candidates[a] for a in _best(first, SCREEN[1], rtype == 3)]
    second = _screen(screen_args, short, SCREEN[2], seed, chunk_size)
    chosen = [short[a] for a in _best(second, SHOWN, rtype == 3)]
    chosen += [m for m in dict.fromkeys([heuristic, *picked]) if m not in chosen]
    labels = []
    for m in chosen:
        notes = (["the heuristic's"] if m == heuristic else []) + ([tried_words] if m in picked else [])
        labels.append(
            "discard " + _text([c for c in range(64) if (m >> c) & 1]) + (f" ({', '.join(notes)})" if notes else "")
        )
    args = (*head, np.array(chosen, dtype=np.uint64), np.int64(model), strat, pv, bv, np.False_)
    pos = {"full": full, "seat": seat, "rtype": rtype, "trump": trump, "dealer": dealer, "bv": bv}
    d = _describe(
        pos, hand=_text(mine), widow=_text(cards_w), decision="discard", screened=len(candidates),
        discards=[int(m) for m in chosen],
    )  # fmt: skip
    return _spec(_kernel("discard", model, strat), args, labels, names, d)


def contract_spec(
    *, seat: int = 0, widow: str | None = None, variants: dict | None = None, strategies: list[str] | None = None,
    pimc_from: int | None = None, pimc_samples: int | None = None, dealer: int | None = None,
    remaining: str | None = None, hand: str | None = None, **fields: Any,
) -> KernelSpec:  # fmt: skip
    """The Swedish contract (3(c)10): forehand, having seen the 4 face-up leftover cards alone, picks a contract
    still ``remaining`` in its four turns (Valfri once per suit named); it then takes the widow and discards as
    its player does. Valued over the cycle, as choose_round is."""
    bv = variant_array(variants)
    full = rules().resolve_variants(variants)
    if not bv[K.V_RULESET]:
        raise CardlabError(
            "contract is Swedish Bismarck's decision (ruleset=swedish, 3(c)10); with the blog's rules see "
            "choose_round and name_trumps"
        )
    if hand:
        raise CardlabError(
            "--hand does not go with contract: forehand chooses from the 4 face-up cards alone (3(c)10), before "
            "it looks at its hand; give --widow"
        )
    stray = sorted(k for k, v in fields.items() if v)
    if stray:
        raise CardlabError(
            f"--{stray[0].replace('_', '-')} does not go with contract: it is decided before the first lead"
        )
    dealer = _dealer_of(seat, dealer, bv, "contract")
    cards_w = _cards(widow, "--widow")
    if len(cards_w) != 4 or len(set(cards_w)) != 4:
        raise CardlabError(f"--widow holds {len(cards_w)} cards: give the 4 face-up leftover cards (3(c)10)")
    w = sum(1 << c for c in cards_w)
    left = _remaining(
        remaining, CONTRACT_NAMES,
        'the contracts forehand has not yet played in its four turns, e.g. "1 3 4" ('
        + ", ".join(f"{k} {v.split()[0]}" for k, v in CONTRACT_NAMES.items()) + ")",
    )  # fmt: skip
    model, strat, names = _models(strategies)
    if model == K.M_DD_EACH_LAYOUT and 4 in left:
        raise CardlabError(
            "contract with pimc values whole pass hands double dummy, which is far too slow; use the heuristic "
            "models (or --remaining without 4)"
        )
    check_misere_search(names, pimc_from, 4 in left)
    pv = player_array(pimc_from, pimc_samples, names)
    rtypes, trumps, labels = _type_actions(
        left, {1: -1, 2: K.SPADES, 4: -1},
        lambda r, t: CONTRACT_NAMES[r].split()[0] + (f", name {SUITS[t]}" if r == 3 else ""),
    )  # fmt: skip
    args = (
        np.int64(seat), np.int64(dealer), np.uint64(0), np.uint64(w), np.uint64(FULL & ~w),
        np.array(rtypes, dtype=np.int64), np.array(trumps, dtype=np.int64), np.int64(sum(1 << (r - 1) for r in left)),
        np.int64(model), strat, pv, bv,
    )  # fmt: skip
    pos = {"full": full, "seat": seat, "rtype": -1, "trump": -1, "dealer": dealer, "bv": bv, "remaining": left}
    d = _describe(pos, widow=_text(cards_w), decision="contract", remaining=left)
    for k in ("trumps", "round", "misere"):
        d.pop(k)
    return _spec(_kernel("round", model, strat), args, labels, names, d)


def position_fields(given: dict, variants: dict | None, strategies) -> dict:
    """The advisor's keywords from a position document (``position``: a JSON file) and the flags given (which
    override it); a document's ``variants`` and ``models`` are used unless flags name them."""
    doc: dict = {}
    path = given.pop("position", None)
    leaders: dict[int, Any] = {}  # the leaders a document names, by trick
    if path:
        doc = read_position(path, GAME, FIELDS)  # (``current`` is a string there: read_position checks it)
        if isinstance(doc.get("tricks"), list):
            leaders = {i: t.get("leader") for i, t in enumerate(doc["tricks"]) if isinstance(t, dict)}
            doc["tricks"] = [_trick_text(t, path, i) for i, t in enumerate(doc["tricks"])]
    decision = given.get("decision") or doc.get("decision")
    kwargs = position_kwargs(doc, given, FIELDS, variants, strategies, needs_hand=decision != "contract")
    if any(v is not None for v in leaders.values()):
        _check_leaders(kwargs, leaders, path)
    return kwargs


def _check_leaders(kwargs: dict, leaders: dict[int, Any], path: str | dict) -> None:
    """The leaders a position document names for its tricks against BM-4's (:func:`_leader_and_voids`). A
    document whose dealer, round or tricks do not parse is left to :func:`_position`, which names what is wrong."""
    try:
        bv = variant_array(kwargs.get("variants"))
        _rtype, trump = _contract(kwargs.get("round"), kwargs.get("trumps"), bv)
        tricks = [_cards(t, "--tricks") for t in kwargs.get("tricks") or []]
        first = (int(kwargs["dealer"]) + 1) % 3
        led = _leader_and_voids(tricks, [], first, trump, bool(bv[K.V_MUST_TRUMP]))[3]
    except (CardlabError, KeyError, TypeError, ValueError):
        return
    for i, named in leaders.items():  # (flags given may replace the document's tricks: only those checked)
        if named is not None and i < len(tricks) and named != led[i]:
            raise CardlabError(
                f"{position_label(path)}: tricks[{i}] names leader {named}, but seat {led[i]} led it (BM-4: the "
                "dealer's left leads the first trick, the winner of each trick the next)"
            )


def _trick_text(t: Any, path: str | dict, i: int) -> str:
    """A trick of a position document: ``"AS 2S 5H"`` or ``{"leader": 1, "cards": "AS 2S 5H"}`` (the cards from
    the leader on; the leader, which BM-4 fixes from the dealer and the earlier tricks, is checked by
    :func:`_check_leaders`)."""
    if isinstance(t, str):
        return t
    if isinstance(t, dict) and isinstance(t.get("cards"), str):
        return t["cards"]
    raise CardlabError(f'{position_label(path)}: tricks[{i}] is "AS 2S 5H" or {{"leader": 1, "cards": "AS 2S 5H"}}')


def odds(run: dict, variants: dict | None = None, strategies: list[str] | None = None, **position) -> Result:
    """Run the advisor on one position; the table has a row per action and measure (module docstring)."""
    decision = position.pop("decision", None) or "play"
    if decision != "play" and position.get("seat") is None and position.get("dealer") is not None:
        # the seat that takes the decision, where only the dealer is given: the dealer names trumps and chooses
        # the round (BM-5, 3(c)9); the widow's taker discards and (forehand) picks the contract (3(c)5, 3(c)10)
        dealer = int(position["dealer"])
        if not 0 <= dealer <= 2:
            raise CardlabError(f"bad --dealer {dealer}: seats are 0..2")
        taker = dealer if decision in ("name_trumps", "choose_round") else _exchanger(variant_array(variants), dealer)
        if taker >= 0:  # -1: no widow taken (the decision's own check says so)
            position["seat"] = taker
    idle = _idle_player_options(strategies, position)
    if decision == "play":
        spec = play_spec(variants=variants, strategies=strategies, **position)
    elif decision == "name_trumps":
        spec = trump_spec(variants=variants, strategies=strategies, **position)
    elif decision == "choose_round":
        spec = round_spec(variants=variants, strategies=strategies, **position)
    elif decision == "discard":
        clock = time.perf_counter()  # the screen runs here, before the driver's clock starts
        spec = discard_spec(
            variants=variants, strategies=strategies, seed=run.get("seed", 0), **position
        )  # fmt: skip
        screened_s = time.perf_counter() - clock
    elif decision == "contract":
        spec = contract_spec(variants=variants, strategies=strategies, **position)
    else:
        raise CardlabError(f"unknown decision {decision!r}; accepted: {', '.join(DECISIONS)}")
    result = run_spec(spec, **run)
    if idle:
        result.meta["options_without_effect"] = idle
    result.headline = ("score", "win", "tricks", "diff_score")
    words = "cycle score" if decision in ("choose_round", "contract") else "round score"
    # one row may stand for several legal cards that are equal ("KS (or AS)")
    equal = spec.describe.get("legal_cards", 1) > 1
    only = "the only choice, its cards being equal" if equal else "the only legal action"
    cycle = decision in ("choose_round", "contract")  # the score is the cycle's; the quota and tricks this hand's
    win_words = "makes the quota this hand" if cycle else "makes the quota"
    # (a cycle's actions are contracts with quotas of their own: the cycle score weighs them, no runner-up words)
    runner = None if cycle else partial(runner_up_words, result.table, misere=bool(spec.describe.get("misere")))
    line = answer_line(
        result.table, win_words=win_words, score_words=words, by_score=True, only_words=only, runner_up=runner
    )
    t = result.table[result.table["measure"] == "tricks"].set_index("action")["estimate"]
    best = result.table[result.table["verdict"] == "best"]["action"].iloc[0]
    fewer = " (fewer is better)" if spec.describe.get("misere") else ""
    result.meta["answer"] = line.replace(" (best", f", {t[best]:.2f} tricks{fewer} (best", 1)
    if "not_to_play" in spec.describe:  # no action of the seat's own: its chances as the hand is played on
        w = result.table[result.table["measure"] == "win"].set_index("action")["estimate"]
        sc = result.table[result.table["measure"] == "score"].set_index("action")["estimate"]
        seat = spec.describe["seat"]
        dd_model = spec.kernel.endswith("_dd_chunks")
        how = (
            "every layout played double dummy from here (the other two seats together against it)"
            if dd_model
            else "the hand played on from here"
        )
        # for the header's size line (cli.render_result)
        result.meta["layouts_are"] = "each solved double dummy" if dd_model else "each played on from the position"
        result.meta["answer"] = (
            f"Not seat {seat}'s turn: {spec.describe['not_to_play']}. With {how}, seat "
            f"{seat} makes its quota {100 * w[best]:.1f}%, round score {sc[best]:+.2f}, {t[best]:.2f} tricks{fewer}"
        )
        # one row, nothing to compare it with: the paired differences (all 0) are left out, and no verdict
        result.table = result.table[~result.table["measure"].str.startswith("diff_")].reset_index(drop=True)
        result.table["verdict"] = ""
        result.headline = ("score", "win", "tricks")
    _cut_to_bounds(result.table, {"score": spec.describe.get("score_bounds"), "tricks": (0, 16)})
    # the verdicts' order too (_tabulate): under the quota every action may score 0, and the tricks decide
    result.meta["ranked_by"] = f"{words}, then the quota, then {'fewest ' if spec.describe.get('misere') else ''}tricks"
    result.meta["ranked_measure"] = "score"
    result.meta["verdict_then"] = ["diff_win", "diff_tricks"]
    result.meta["models"] = spec.describe["strategies"]
    pimc_hint = decision == "play" and bool(spec.describe.get("pimc_plays"))
    result.meta["model"] = model_words(spec.describe["strategies"], pimc_hint)
    if decision == "discard":
        result.meta["model"] += (
            f"; the discards shown: the best {SHOWN} of {spec.describe['screened']:,} distinct ones (equal cards "
            f"count once), screened with heuristic players on {SCREEN[0]} other layouts (the best {SCREEN[1]} on "
            f"{SCREEN[2]}; {screened_s:.1f} s before the run's elapsed time), and the heuristic's"
        )
    elif decision == "contract":
        result.meta["model"] += "; forehand takes the widow and discards as its player does"
    return result
