"""Bisko-Bobo's advisor for the Bingo-Bango swap with whom (BB-6): ``cardlab odds bisko-bobo --decision swap
--low SEAT=CARD ...``.

At the swap a player sees every Jingo player's LOW card (face up: they set the swap order, highest first, S > D >
H > C on equal rank) and the swaps already made. Given those (``low``: every Jingo player's LOW card; ``swapped``:
``A=B`` for each earlier swap, A the initiator; ``declined``: the earlier players in the order who did not swap),
the seats still eligible to swap with are known, and each is one action beside "no swap": the rows of the answer
table. The rest of the position is the two-action advisor's (:func:`analysis.games.bisko_bobo.odds_spec`: the
seat's opening cards, every earlier seat's Flingo or Jingo, the seat's Jingo card); the later seats took a Jingo
exactly when they hold a LOW card, and their Flingo cards, given, sit where they were dealt. Hidden cards are sampled uniformly given all that; a sample whose dealt
opening Biskos (which force a Jingo) or BB-5 choices contradict the Jingo players given is set aside, and the
answer says what share was kept.

The answer per action: the seat's win share of the deal (``win``, as everywhere in Bisko-Bobo: shared wins count
their share, BB-12.6)
and the chance to win it outright (``win``), with the paired differences to the best action on the same deals.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from kernels.bisko_bobo import DEC_SWAP, DEC_TUCK

from ..advisor import tabulate_actions
from ..driver import KernelSpec
from ..errors import CardlabError
from ..tables import and_list
from .bisko_bobo import DECK, GAME, _seat_cards, check_flingo, high_deck, low_deck, odds_spec, rules


def _order(low: dict[int, int]) -> list[int]:
    """The swap order (BB-6): the Jingo players by LOW card, highest first; on equal rank S > D > H > C."""
    return sorted(low, key=lambda s: -((low[s] % 13) * 4 + low[s] // 13))


def swap_targets_spec(
    players: int,
    seat: int,
    *,
    low: list[str],
    swapped: list[str] | None = None,
    declined: list[int] | None = None,
    jingo: list[int] | None = None,
    variants: dict | None = None,
    decision: str = "swap",
    received: str | None = None,
    **position,
) -> KernelSpec:
    """The advisor's kernel spec for the swap with whom, or (``decision="tuck"``) for the placement after every
    swap is made (BB-7; ``received``: the Jingo card the seat got in its swap); see the module docstring."""
    tuck = decision == "tuck"
    P = rules().check_players(players)
    full = rules().resolve_variants(variants)
    low_cards = {s: cs for s, cs in _seat_cards(low, P, "low").items()}
    for s, cs in low_cards.items():
        if len(cs) != 1:
            raise CardlabError(f"--low {s}=...: one LOW card per Jingo player (BB-6)")
    lows = {s: cs[0] for s, cs in low_cards.items()}
    in_low = set(low_deck(P).tolist())
    for s, c in lows.items():
        if c not in in_low:
            raise CardlabError(
                f"--low {s}={DECK.card(c)}: not a LOW card for {P} players (those are "
                f"{str(DECK.card(min(in_low)))[:-1]} to {str(DECK.card(max(in_low)))[:-1]} of each suit, BB-1)"
            )
    if len(set(lows.values())) != len(lows):
        raise CardlabError("--low: a LOW card is named twice")
    if seat not in lows:
        raise CardlabError(f"--low: give the deciding seat's own LOW card (seat {seat} took a Jingo to swap)")
    flingos = _seat_cards(position.get("flingo"), P, "flingo")
    flung = sorted(s for s in flingos if s in lows)
    if flung:
        raise CardlabError(f"seat {flung[0]} holds a LOW card, so it took a Jingo: it has no --flingo (BB-5, BB-6)")
    # at the swap every seat has chosen: the later seats' Flingo cards are on the table too
    later = {s: cs for s, cs in flingos.items() if s > seat}
    later_free = [s for s in range(seat + 1, P) if s not in lows]
    if later and sorted(later) != later_free:
        raise CardlabError(
            f"give every later seat's Flingo cards with --flingo (seats {', '.join(map(str, later_free))}: no LOW "
            "card, so they took a Flingo), or none"
        )
    if later:
        position["flingo"] = [x for x in position["flingo"] if int(str(x).partition("=")[0]) < seat]
    assumed = _flingo_seats_words(P, seat, lows, flingos)
    if jingo and any(s >= seat for s in jingo):
        raise CardlabError(
            f"--jingo {min(s for s in jingo if s >= seat)}: --jingo names the Jingos of the seats before the deciding "
            f"seat {seat} only; the later seats' Jingos are their --low cards (leave --jingo out: --low says it all)"
        )
    if jingo and set(jingo) != {s for s in lows if s < seat}:
        raise CardlabError("--jingo disagrees with --low: the earlier seats holding a LOW card are the Jingo players")
    order = _order(lows)
    partner: dict[int, int] = {}
    for item in swapped or []:
        a, eq, b = str(item).partition("=")
        try:
            x, y = int(a), int(b)
        except ValueError:
            raise CardlabError(f"bad --swapped {item!r}: expected SEAT=SEAT (who swapped, with whom)") from None
        if x not in lows or y not in lows or x == y:
            raise CardlabError(f"bad --swapped {item!r}: both seats are Jingo players (--low), and differ")
        if not tuck and x in order and order.index(x) > order.index(seat):
            raise CardlabError(
                f"--swapped {item!r}: seat {x} comes after seat {seat} in the swap order (LOW cards, BB-6), so it has "
                "not chosen yet"
            )
        if x in partner or y in partner:
            raise CardlabError(f"--swapped {item!r}: a player swaps at most once (BB-6)")
        partner[x], partner[y] = y, x
    declined_set = set(declined or [])
    if position.get("seen"):
        raise CardlabError(
            "--seen is not taken with --low (swap with whom): give every seat's Flingo cards with --flingo, the later "
            "seats' too (each sits where it was dealt)"
        )
    for s in declined_set:
        if s not in lows or (s == seat and not tuck):
            raise CardlabError(f"--declined {s}: name a Jingo player (--low) before seat {seat} in the swap order")
        if s in partner:
            raise CardlabError(f"seat {s} is given both as --swapped and --declined")
    forced_swap: dict[int, int] = {}
    pos = order.index(seat)
    done: set[int] = set()
    # the turns taken before the decision: before the seat's own (the swap), or all of them (the placement)
    for i, s in enumerate(order if tuck else order[:pos]):
        if s in done:
            continue
        elig = [t for t in order[i + 1 :] if t not in done]
        if s in partner and order.index(partner[s]) > i:
            if partner[s] not in elig:
                raise CardlabError(f"--swapped {s}={partner[s]}: seat {partner[s]} had already swapped (BB-6)")
            forced_swap[s] = 1 + partner[s]
            done |= {s, partner[s]}
        elif s in declined_set or not elig:
            forced_swap[s] = 0
            done.add(s)
        else:
            when = "before the placement" if tuck else f"before seat {seat} in the swap order (LOW cards, BB-6)"
            raise CardlabError(f"seat {s} chose {when}: give --swapped {s}=SEAT or --declined {s}")
    if tuck:
        spec = _tuck_spec(P, seat, full, lows, order, partner, forced_swap, flingos, later, received, variants,
                          position)  # fmt: skip
        spec.describe["assumed"] = assumed
        return spec
    if seat in done or seat in partner:
        raise CardlabError(f"seat {seat} has already swapped: there is no swap decision left (BB-6)")
    extra = (set(partner) | declined_set) - set(order[:pos]) - {partner.get(s, -1) for s in order[:pos]}
    if extra:
        raise CardlabError(
            f"--swapped/--declined name seat {sorted(extra)[0]}, which comes after seat {seat} in the order"
        )
    targets = [t for t in order[pos + 1 :] if t not in done]
    if not order[pos + 1 :]:
        raise CardlabError(
            f"no one to swap with: no Jingo player comes after seat {seat} in the swap order (its LOW card is the "
            "lowest, BB-6)"
        )
    if not targets:
        raise CardlabError(f"no one is left to swap with: every Jingo player after seat {seat} in the order swapped")
    # variant bingo_swap_optional=false: the highest unswapped player must swap; with whom is still its choice
    must = full["bingo_swap_optional"] == "false" and all(s in done for s in order[:pos])
    if must and len(targets) == 1:
        raise CardlabError(
            f"bingo_swap_optional=false: seat {seat} is the highest unswapped player and must swap, and seat "
            f"{targets[0]} is the only partner left: there is no choice"
        )
    position.pop("decision", None)
    base = odds_spec(
        P, seat, decision="swap", jingo=sorted(s for s in lows if s < seat), variants=variants, **position
    )  # fmt: skip
    (P_, hid, lod, vv, pj, ps, tgt, pt, pack, template, pool, lo_template, lo_pool, forced, *_rest) = base.args
    forced = forced.copy()
    for s in range(seat + 1, P):
        forced[s] = 1 if s in lows else 0
    if later:
        template = _place_later(P, seat, template, forced, flingos, full["flingo_reward_chain"] == "true")
        pool = np.array([c for c in hid if c not in set(template.tolist())], dtype=np.int64)
    for s, f in forced_swap.items():
        forced[P + s] = f
    lo_template = lo_template.copy()
    for i, s in enumerate(sorted(lows)):  # the LOW cards go to the Jingo players in seat order (BB-6)
        lo_template[i] = lows[s]
    lo_pool = np.array([c for c in lod if c not in set(lows.values())], dtype=np.int64)
    mask = sum(1 << s for s in lows)
    actions = np.array(([] if must else [0]) + [1 + t for t in targets], dtype=np.int64)
    names = ([] if must else ["no swap"]) + [f"swap with seat {t}" for t in targets]
    args = (P_, hid, lod, vv, pj, ps, tgt, pt, pack, template, pool, lo_template, lo_pool, forced, np.int64(seat),
            np.int64(DEC_SWAP), np.int64(mask), np.int64((1 << P) - 1), actions)  # fmt: skip
    describe = {
        **base.describe,
        "actions": names,
        "rank_by": "score",
        "has_last": False,
        "swap_order": order,
        "analysis": "advisor",
        "assumed": assumed,
    }
    return KernelSpec(
        game=GAME,
        kernel="kernels.bisko_bobo:odds_actions_chunks",
        args=args,
        n_counts=1 + _width(len(names)),
        tabulate=tabulate_targets,
        describe=describe,
        precision_measures=("win", "diff_win"),
        precision_done=_done,
    )


def _flingo_seats_words(P: int, seat: int, lows: dict, flingos: dict) -> str:
    """The other seats given no LOW card took the Flingo (BB-5, BB-6), in words, and whether their Flingo cards
    are given (--flingo) or drawn on each sampled deal; "" where there are none (a new user left two seats out and
    read nothing of what was taken for them)."""
    took = [s for s in range(P) if s != seat and s not in lows]
    if not took:
        return ""
    unknown = [s for s in took if s not in flingos]

    def seats(ss: list[int]) -> str:
        return f"seat{'s' if len(ss) > 1 else ''} {and_list([str(s) for s in ss])}"

    text = f"{seats(took)} took the Flingo (no --low card: --low names every Jingo player)"
    if unknown:
        some = "" if len(unknown) == len(took) else f" ({seats(unknown)})"
        whose = "their" if len(took) > 1 else "its"
        text += f"; {whose} Flingo cards{some} not given (--flingo): drawn on each sampled deal"
    return text


def _tuck_spec(P, seat, full, lows, order, partner, forced_swap, flingos, later, received, variants, position):
    """The placement after every swap (BB-7): the seat's final Jingo card is its own or, after a swap, the one it
    received, which sits where its partner was dealt it; upright or tucked are the two actions."""
    position.pop("decision", None)
    me = partner.get(seat, -1)
    if me >= 0 and not received:
        raise CardlabError(f"seat {seat} swapped with seat {me}: give --received CARD, the Jingo card it got (BB-6)")
    if me < 0 and received:
        raise CardlabError(f"--received: seat {seat} did not swap (--swapped names its swaps)")
    base = odds_spec(
        P, seat, decision="swap", jingo=sorted(s for s in lows if s < seat), variants=variants, **position
    )  # fmt: skip
    (P_, hid, lod, vv, pj, ps, tgt, pt, pack, template, pool, lo_template, lo_pool, forced, *_rest) = base.args
    forced = forced.copy()
    for s in range(seat + 1, P):
        forced[s] = 1 if s in lows else 0
    chain = full["flingo_reward_chain"] == "true"
    if later:
        template = _place_later(P, seat, template, forced, flingos, chain)
    mine = DECK.indices(base.describe["cards"][f"seat {seat}"])  # upright, tucked
    final = int(template[2 * P + 1 + sum(1 if forced[s] == 1 else len(flingos[s]) for s in range(seat))])
    if me >= 0:
        if me > seat and sorted(later) != [s for s in range(seat + 1, P) if s not in lows]:
            raise CardlabError(
                f"seat {seat} swapped with a later seat ({me}): give every later seat's Flingo cards with --flingo, "
                "so its Jingo card's place in the deal is known"
            )
        got = DECK.indices(received)
        if len(got) != 1:
            raise CardlabError("--received: one card, the Jingo card received in the swap")
        template = template.copy()
        where = 2 * P + 1 + sum(1 if forced[s] == 1 else len(flingos[s]) for s in range(me))
        if got[0] in set(template.tolist()):
            raise CardlabError(
                f"--received {DECK.card(got[0])}: the card is given elsewhere too (the upright or tucked card, an "
                "opening or a Flingo): a card is in one place"
            )
        if got[0] not in set(hid.tolist()):
            raise CardlabError(f"--received {DECK.card(got[0])}: not a HIGH card for {P} players")
        template[where] = got[0]
        final = got[0]
    if full["jingo_tuck_rule"] == "bobo_only":
        if mine[0] // 13 == mine[1] // 13:
            raise CardlabError(
                "an opening Bisko has no tucked card, so its Jingo card goes upright (BB-7): no tuck decision"
            )
        if final // 13 != mine[1] // 13:
            raise CardlabError(
                f"{DECK.card(final)} cannot be tucked on {DECK.card(mine[1])}: a Jingo card is tucked only to make a "
                "Bobo (BB-7, jingo_tuck_rule=bobo_only): it goes upright, so there is no tuck decision"
            )
    pool = np.array([c for c in hid if c not in set(template.tolist())], dtype=np.int64)
    for s, f in forced_swap.items():
        forced[P + s] = f
    lo_template = lo_template.copy()
    for i, s in enumerate(sorted(lows)):  # the LOW cards go to the Jingo players in seat order (BB-6)
        lo_template[i] = lows[s]
    lo_pool = np.array([c for c in lod if c not in set(lows.values())], dtype=np.int64)
    mask = sum(1 << s for s in lows)
    names = ["upright", "tucked"]
    args = (P_, hid, lod, vv, pj, ps, tgt, pt, pack, template, pool, lo_template, lo_pool, forced, np.int64(seat),
            np.int64(DEC_TUCK), np.int64(mask), np.int64((1 << P) - 1), np.array([0, 1], dtype=np.int64))  # fmt: skip
    describe = {**base.describe, "decision": "tuck", "actions": names, "rank_by": "score", "has_last": False,
                "swap_order": order, "analysis": "advisor"}  # fmt: skip
    return KernelSpec(
        game=GAME, kernel="kernels.bisko_bobo:odds_actions_chunks", args=args, n_counts=1 + _width(2),
        tabulate=tabulate_targets, describe=describe, precision_measures=("win", "diff_win"),
        precision_done=_done,
    )  # fmt: skip


def _place_later(P: int, seat: int, template: np.ndarray, forced: np.ndarray, flingos: dict, chain: bool) -> np.ndarray:
    """The later seats' Flingo cards at their places in the HIGH deck (BB-5: in seat order after the opening cards
    and the Wet Bisk, a Jingo one card, a Flingo its card and any reward card)."""
    template = template.copy()
    ptr = 2 * P + 1 + sum(1 if forced[s] == 1 else len(flingos[s]) for s in range(seat))
    ptr += 1  # the deciding seat's Jingo card
    in_high = {int(c) for c in high_deck(P)}
    used = {int(c) for c in template if c >= 0}
    for s in range(seat + 1, P):
        if forced[s] == 1:
            ptr += 1
            continue
        cards = flingos[s]
        if template[s] < 0:
            raise CardlabError(f"give seat {s}'s opening cards (--opening {s}=...) with its Flingo")
        check_flingo(s, cards, int(template[s]), chain)
        for c in cards:
            if c not in in_high:
                raise CardlabError(f"card {DECK.card(c)} (seat {s}'s Flingo) is not in the HIGH deck for {P} players")
            if c in used:
                raise CardlabError(f"duplicate card {DECK.card(c)}: seat {s}'s Flingo is given elsewhere too")
            used.add(c)
            template[ptr] = c
            ptr += 1
    return template


def _width(A: int) -> int:
    from kernels.advise import advise_width

    return advise_width(A)


def share_table(row: np.ndarray, trials: int, spec: KernelSpec) -> pd.DataFrame:
    """The advisor's table (:func:`analysis.advisor.tabulate_actions`) of one :mod:`kernels.advise` row in
    Bisko-Bobo's words: ``win`` is the win share of the deal, as in every Bisko-Bobo table (a split win counts its
    share, BB-12.6; the kernel counts it in 60ths as the score), ``sole_win`` the chance to win outright."""
    t = tabulate_actions(row, trials, spec)
    names = {"win": "sole_win", "diff_win": "diff_sole_win", "score": "win", "diff_score": "diff_win"}
    share = t.measure.isin(["score", "diff_score"])
    t.loc[share, ["estimate", "std_error", "ci_low", "ci_high"]] /= 60.0
    t["measure"] = t["measure"].map(names)
    return t


def tabulate_targets(counts: np.ndarray, trials: int, spec: KernelSpec) -> pd.DataFrame:
    """:func:`share_table` and the share of samples kept (``acceptance``)."""
    c = np.asarray(counts)
    t = share_table(c[1:], trials, spec)
    attempts = float(c[0])
    kept = float(c[1])
    acc = pd.DataFrame([{"measure": "acceptance", "seat": None, "action": None, "verdict": None,
                         "trials": int(attempts), "estimate": kept / attempts if attempts else float("nan"),
                         "std_error": float("nan"), "ci_low": float("nan"), "ci_high": float("nan")}])  # fmt: skip
    out = pd.concat([t, acc], ignore_index=True)
    out["seat"] = out["seat"].astype("Int64")
    return out


def _done(table: pd.DataFrame, precision: float) -> bool:
    d = table[(table.measure == "diff_win") & (table.verdict != "best")]
    half = (d.ci_high - d.ci_low) / 2
    return bool(((half <= precision) | (d.ci_high < 0) | (d.ci_low > 0)).all())


def answer(table: pd.DataFrame) -> str:
    """One line: the best action's win share, the runner-up's and whether it is clearly worse."""
    w = table[table.measure == "win"].reset_index(drop=True)
    acc = table[table.measure == "acceptance"].iloc[0]
    if not len(w) or not w.trials.iloc[0]:
        return "too few sampled deals matched the position to answer"
    best = w[w.verdict == "best"].iloc[0]
    rest = w[w.verdict != "best"]
    tied = rest[rest.verdict != "worse"]
    if len(tied):
        # the best is not separated from these: name them all, as the two-action advisor's "No clear difference"
        names = [best.action, *tied.action]
        shares = [best.estimate, *tied.estimate]
        same = bool((tied.verdict == "equal").all())  # the same outcome on every deal: no more deals would part them
        text = ("The same on every sampled deal: " if same else "No clear difference between ") + " and ".join(
            f"{a} ({100 * e:.1f}%)" for a, e in zip(names, shares)
        )
        worse = rest[rest.verdict == "worse"]
        if len(worse):
            text += f"; {worse.action.iloc[0]}: {100 * worse.estimate.iloc[0]:.1f}%, clearly worse"
        if not same:
            text += "; more deals (--trials, --precision) could separate them"
    else:
        verb = {"upright": "Place it upright", "tucked": "Tuck it"}.get(
            best.action, best.action[0].upper() + best.action[1:]
        )
        text = f"{verb}: win share {100 * best.estimate:.1f}% (best"
        if len(rest):
            r = rest.iloc[0]
            text += f"; next {r.action}: {100 * r.estimate:.1f}%, clearly worse"
        text += ")"
    if acc.estimate < 1:
        text += f"; {100 * acc.estimate:.1f}% of the sampled deals matched the position (the rows count those)"
    return text
