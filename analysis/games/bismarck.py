"""Bismarck (rules.md section 3): hands, 12-hand games, players, the double-dummy solver's Python face.

Seats 0..2 clockwise. Roles are relative to the dealer of a hand: dealer, left (forehand: leads the first
trick, BM-4) and right. Whole-game results are by seat relative to the *first* dealer.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from numba import types

from kernels import bismarck as K
from kernels import dd as DD
from kernels._extern import expect, prefetch

from ..driver import KernelSpec, compile_note
from ..errors import CardlabError, accepted
from ..rules import (
    HALVING_HELP,
    GameRules,
    load_game,
    search_explore,
    search_label,
    seat_assignments,
    seeds_dir,
    strategy_items,
)
from ..rules import search_setting as rules_search_setting
from ..tables import frame, mean_row, proportion_row
from .base import Game, Option, SolveRequest, cards_arg

GAME = "bismarck"
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A")
SUITS = ("C", "D", "H", "S")
ROLES = ("dealer", "left", "right")
ROUND_NAMES = {1: "no trumps", 2: "drawn trumps", 3: "named trumps", 4: "misere"}
#: the strategy of every seat not given one (``--strategy``)
DEFAULT_STRATEGY = "heuristic"
STRATEGIES = {
    "random": K.S_RANDOM,
    "heuristic": K.S_HEURISTIC,
    "pimc": K.S_PIMC,
    "pimc-infer": K.S_PIMC_INFER,
    "dd": K.S_DD,
    "search": K.S_SEARCH,
}
#: the players that solve layouts double dummy (from --pimc-from cards a hand)
SOLVER_NAMES = ("pimc", "pimc-infer", "dd")
#: the search player's rollouts a card by default (kernels/bismarck/search.py): ``search:BUDGET`` spends them by
#: sequential halving on common layouts, ``search:BUDGET:C`` by UCB1 with exploration constant C
SEARCH_BUDGET = 400


def search_setting(name: str) -> tuple[int, float | None]:
    """A search player's name to (rollouts a card, UCB1's exploration constant, or None: sequential halving);
    refused in one line when malformed."""
    return rules_search_setting(name, SEARCH_BUDGET, unit="card")


#: variant -> (slot, value codes); game_length/target_score are filled separately
ENGINE_VARIANTS = {
    "scoring": (K.V_SCORING, {"original": 0, "simplified": 1}),
    "dealer_schedule": (K.V_SCHEDULE, {"block_of_four": 0, "rotate_each_hand": 1}),
    "round4_start": (K.V_ROUND4, {"blog": 0, "classic": 1, "simplified": 2}),
    "round3_trump_timing": (K.V_ROUND3, {"before_deal": 0, "after_seeing_hand": 1}),
    "round2_trump_method": (K.V_ROUND2, {"draw_from_leftover": 0, "cut_pack": 1}),
    "widow_exchange": (K.V_WIDOW, {"none": 0, "dealer_takes_4_discards_4": 1, "swedish": 2}),
    "must_trump_when_void": (K.V_MUST_TRUMP, {"false": 0, "true": 1}),
    "below_quota_penalty": (K.V_PENALTY, {"false": 0, "true": 1}),
    "game_length": (K.V_LENGTH, {"12": 0, "4": 1, "target": 2}),
    "ruleset": (K.V_RULESET, {"blog": 0, "swedish": 1}),
    "fixed_round_order": (K.V_FREE_ORDER, {"true": 0, "false": 1}),
}
#: The blog's rules that Swedish Bismarck (3(c)10) replaces with its own: the deal passes left every hand,
#: forehand chooses the contract, takes the face-up widow and discards 4, and the quotas and scores are Swedish.
#: Setting one of them with ruleset=swedish is refused: it would not be played.
BLOG_ONLY = (
    "scoring",
    "dealer_schedule",
    "round4_start",
    "round3_trump_timing",
    "round2_trump_method",
    "widow_exchange",
    "below_quota_penalty",
    "fixed_round_order",
)
#: Swedish contracts as the kernel's round types 0..3 (kernels.bismarck.SPEL .. PASS)
CONTRACT_NAMES = {
    1: "spel (no trumps)",
    2: "spader (spades trumps)",
    3: "valfri (forehand names trumps)",
    4: "pass (avoid tricks)",
}
#: PIMC and double-dummy players take over when a hand holds at most this many cards (heuristic before):
#: the solver is exact but not yet fast enough for whole 16-card hands at simulation volume (issue 4 note)
PIMC_FROM = 8
PIMC_SAMPLES = 16


def rules() -> GameRules:
    return load_game(GAME)


# the card codes (suit * 16 + rank, BM-1), from seeds/bismarck.toml's [deck]
DECK = rules().deck
CARDS = cards_arg(DECK)  # the argparse type of a card-list option
code = DECK.index
to_mask = DECK.mask
cards_of = DECK.text


def player_array(pimc_from: int | None = PIMC_FROM, samples: int | None = PIMC_SAMPLES, names=()) -> np.ndarray:
    """The settings of the PIMC, double-dummy and search seats, as the kernel reads them (``K.P_*``; None: the
    default); the search players' budget and way of spending it from their names (``search:BUDGET``: sequential
    halving, explore -1; ``search:BUDGET:C``: UCB1, C x 1000), one setting a run."""
    pimc_from = PIMC_FROM if pimc_from is None else pimc_from
    samples = PIMC_SAMPLES if samples is None else samples
    if not 0 <= pimc_from <= 16:
        raise CardlabError(f"bad --pimc-from {pimc_from}: accepted 0 to 16 (cards in hand)")
    if not 1 <= samples <= 1000:
        raise CardlabError(f"bad --pimc-samples {samples}: accepted 1 to 1000")
    settings = {search_setting(n) for n in names if n.partition(":")[0] == "search"}
    if len(settings) > 1:
        given = sorted({search_label(n, SEARCH_BUDGET, "card") for n in names if n.partition(":")[0] == "search"})
        raise CardlabError(
            "bad strategies: the Bismarck search seats of one run (--strategy, --field, --challenger) share one "
            f"setting, its budget and way of spending it; got {', '.join(given)} (to weigh two settings, compare "
            "each against the same field)"
        )
    # without a search seat the settings are read by nobody: they keep the values (400, UCB1's 0.7) that the
    # stored runs' fingerprints were taken with (analysis/strong_field.py), so those runs stay valid
    budget, c = settings.pop() if settings else (SEARCH_BUDGET, 0.7)
    pv = np.zeros(K.N_PLAYER, dtype=np.int64)
    pv[K.P_PIMC_FROM] = pimc_from
    pv[K.P_SAMPLES] = samples
    pv[K.P_BUDGET] = budget
    pv[K.P_EXPLORE] = search_explore(c)
    return pv


def strategy_code(name: str) -> int:
    """A strategy name (``search:BUDGET[:C]`` included) to its kernel code; unknown or malformed names refused."""
    base = name.partition(":")[0]
    if base == "search":
        search_setting(name)
    elif name not in STRATEGIES:
        raise CardlabError(f"unknown strategy {name!r} for {GAME}; accepted: {accepted(STRATEGIES)}")
    return STRATEGIES[base]


def seat_strategies(strategies, default: str) -> tuple[list[str], np.ndarray]:
    """``--strategy`` values to (one name per seat as given, their kernel codes)."""
    names = seat_assignments(strategies, 3, default, STRATEGIES, parameterized=("search",))
    return names, np.array([strategy_code(n) for n in names], dtype=np.int64)


def expect_dd(hands: int) -> None:
    """Hand the double-dummy search for ``hands`` hands (3: Bismarck, 4: bridge) to the compile helper now, where the
    command has one (kernels/_extern.py): it is below every solver player, the pimc model and ``solve``, and takes
    about 10 s to compile on its own, beside the command's other kernels."""
    prefetch(DD.search._search, DD.search.search_argtypes(hands), types.boolean)


def uses_solvers(strat: np.ndarray) -> bool:
    """Whether a seat plays with the search or the double-dummy solver (search, pimc, pimc-infer, dd): then the kernels
    compiled with those players run; else the plain ones, which compile in about half the time (tests hold
    each plain kernel to its full one). Also tells the kernels which solver players the run will reach, so that a
    first run can compile them ahead in a helper process (kernels/_extern.py)."""
    codes = set(np.asarray(strat).ravel().tolist())
    if codes & {K.S_PIMC, K.S_DD, K.S_PIMC_INFER, K.S_SEARCH}:  # search plays as pimc in short hands (BM rounds 1-3)
        expect(K.choose_card)
        expect_dd(3)
    if K.S_SEARCH in codes:
        expect(K.search_card)
    if K.S_PIMC_INFER in codes:
        expect(K.infer_layouts)
    return bool((np.asarray(strat) >= K.S_PIMC).any())


#: trials per chunk where a seat plays with the search or the solver (KernelSpec.chunk_size): such a hand takes
#: tens of milliseconds to seconds, and the default 4,096 would leave every thread but one idle. A game is 12
#: hands, a paired trial 4; the advisor's layout (every action played on, or valued double dummy) about a hand
SOLVER_CHUNK = {"hand": 16, "game": 2, "paired": 4, "layout": 8}


def labels(names) -> list[str]:
    """The names as outputs print them: a search player's budget spelled out (``search`` -> ``search:400``), and
    UCB1's constant where given."""
    return [search_label(n, SEARCH_BUDGET, "card") for n in names]


def variant_array(variants: dict | None) -> np.ndarray:
    full = rules().resolve_variants(variants)
    if full["ruleset"] == "swedish":
        clash = [name for name in BLOG_ONLY if name in (variants or {})]
        if clash:
            raise CardlabError(
                f"variant {clash[0]} does not apply with ruleset=swedish (3(c)10 sets it); "
                f"with swedish only these apply: must_trump_when_void, game_length, target_score"
            )
    bv = np.zeros(K.N_VARIANTS, dtype=np.int64)
    for name, (slot, codes) in ENGINE_VARIANTS.items():
        bv[slot] = codes[full[name]]
    if full["ruleset"] == "swedish":
        bv[K.V_WIDOW] = 2  # forehand takes the face-up widow (3(c)10)
    bv[K.V_TARGET] = int(full["target_score"])
    return bv


def score(round_no: int, role: str, tricks: int, variants: dict | None = None) -> int:
    """BM-6: the score of one role for one hand (``round_no`` 1..4)."""
    if round_no not in ROUND_NAMES or role not in ROLES or not 0 <= tricks <= 16:
        raise CardlabError("bad scoring query: round 1-4, role dealer|left|right, tricks 0-16")
    return int(K.hand_score(round_no - 1, ROLES.index(role), tricks, variant_array(variants)))


def schedule_table(variants: dict | None = None, first_dealer: int = 0, hands: int = 12) -> pd.DataFrame:
    """BM-3: who deals each hand and its round type; where the round type is chosen in play (3(c)9, and the
    Swedish contract, 3(c)10) the ``round`` column is empty and ``chooser`` names who chooses it."""
    bv = variant_array(variants)
    chosen = bool(bv[K.V_FREE_ORDER] or bv[K.V_RULESET])
    rows = []
    for h in range(hands):
        d, r = K.schedule(first_dealer, h, bv)
        row = {"hand": h, "dealer": int(d), "round": pd.NA if chosen else int(r) + 1}
        if chosen:
            row["chooser"] = (int(d) + 1) % 3 if bv[K.V_RULESET] else int(d)
        rows.append(row)
    df = pd.DataFrame(rows)
    df["round"] = df["round"].astype("Int64")
    return df


# ---------------------------------------------------------------------------------------------------
# Simulation
# ---------------------------------------------------------------------------------------------------


#: the most cards a hand may hold for double-dummy search in the misere round (pimc, the review's actual-layout
#: values): the others pushing tricks on the seat make the search explode above it (a 3x15 misere deal took 42 s,
#: 3x12 0.06 s)
MISERE_DD_CARDS = 12


def check_misere_search(names, pimc_from: int | None, misere: bool) -> None:
    """Refuse PIMC or double-dummy players taking over a misere hand above MISERE_DD_CARDS cards (BM-5's
    round 4): the double-dummy search does not finish there. ``pimc_from`` None: PIMC_FROM."""
    pimc_from = PIMC_FROM if pimc_from is None else pimc_from
    if misere and pimc_from > MISERE_DD_CARDS and any(n in SOLVER_NAMES for n in names):
        raise CardlabError(
            f"bad --pimc-from {pimc_from}: pimc, pimc-infer and dd players solve the misere round (round 4, BM-5) double dummy, "
            f"which does not finish above {MISERE_DD_CARDS} cards a hand; give --pimc-from {MISERE_DD_CARDS} or "
            "less, or a round other than the misere (--round 1, 2 or 3; simulate: with --unit hand)"
        )


def bad_round(round_no, names: dict | None = None) -> CardlabError:
    """The error for a --round outside 1..4, each accepted value named (the blog's rounds, or Swedish contracts)."""
    names = ROUND_NAMES if names is None else names
    return CardlabError(f"bad --round {round_no}; accepted: " + ", ".join(f"{k} ({v})" for k, v in names.items()))


def round_index(round_no) -> int:
    """The round type 0..3 of a --round 1..4 (default 1); a bad one refused (:func:`bad_round`)."""
    r = 1 if round_no is None else int(round_no)
    if r not in ROUND_NAMES:
        raise bad_round(round_no)
    return r - 1


def simulation_spec(
    players: int | None = None,
    variants: dict | None = None,
    strategies: list[str] | None = None,
    unit: str | None = None,
    round: int | None = None,
    pimc_from: int | None = None,
    pimc_samples: int | None = None,
) -> KernelSpec:
    """Complete games (``unit='game'``, BM-7) or single hands of one round type (``unit='hand'``). ``pimc_from``
    and ``pimc_samples``: the PIMC and double-dummy players' parameters (defaults PIMC_FROM, PIMC_SAMPLES)."""
    g = rules()
    g.check_players(players)
    full = g.resolve_variants(variants)
    pimc_from = PIMC_FROM if pimc_from is None else pimc_from
    pimc_samples = PIMC_SAMPLES if pimc_samples is None else pimc_samples
    bv = variant_array(variants)
    unit = unit or "game"
    if unit not in ("game", "hand"):
        raise CardlabError(f"bad --unit {unit!r} for {GAME}; accepted: game, hand")
    if unit == "game" and round is not None:
        raise CardlabError("--round goes with --unit hand")
    r = round_index(round)
    names, strat = seat_strategies(strategies, DEFAULT_STRATEGY)
    pv = player_array(pimc_from, pimc_samples, names)
    check_misere_search(names, pimc_from, unit == "game" or r == 3)
    args = (strat, pv, np.int64(1 if unit == "game" else 0), np.int64(r), bv)
    describe = {"players": 3, "variants": full, "strategies": labels(names), "unit": unit}
    if any(n.partition(":")[0] in (*SOLVER_NAMES, "search") for n in names):
        describe.update(pimc_from=pimc_from, pimc_samples=pimc_samples)
    if unit == "hand":
        describe["round"] = r + 1
    return KernelSpec(
        game=GAME,
        kernel="kernels.bismarck:" + ("simulate_chunks" if uses_solvers(strat) else "simulate_plain_chunks"),
        args=args,
        n_counts=K.counts_width(),
        tabulate=tabulate,
        describe=describe,
        precision_measures=("made_quota",) if unit == "hand" else ("game_won",),
        chunk_size=SOLVER_CHUNK[unit] if uses_solvers(strat) else None,
        pooled_by_chunks=True,
        counted_measures=(),  # a table of zero counts has every row
    )


def tabulate(counts: np.ndarray, trials: int, spec: KernelSpec) -> pd.DataFrame:
    c = np.asarray(counts)
    rows = []
    per = c[: K.BASE_FEAT].reshape(4, 3, K.ROLE_FIELDS)
    for r in range(4):
        for role in range(3):
            x = per[r, role]
            n = int(x[K.R_N])
            if n == 0:
                continue
            kw: dict[str, Any] = {"round": r + 1, "role": ROLES[role]}
            rows.append(mean_row("tricks", None, x[K.R_TRICKS], x[K.R_TRICKS_SQ], n, **kw))
            rows.append(mean_row("score", None, x[K.R_SCORE], x[K.R_SCORE_SQ], n, **kw))
            rows.append(proportion_row("made_quota", None, x[K.R_MADE], n, **kw))
            for t in range(17):
                if x[K.R_HIST + t]:
                    rows.append(proportion_row("tricks_taken", None, x[K.R_HIST + t], n, tricks=t, **kw))
    feat = c[K.BASE_FEAT : K.BASE_GAME].reshape(4, K.FEAT_FIELDS // 3, 3)
    for r in range(4):
        for i in range(K.FEAT_FIELDS // 3):
            n, s, s2 = feat[r, i]
            if n == 0:
                continue
            if i < K.N_HCP:
                kw = {"feature": "hcp", "value": i}
            elif i < K.N_HCP + 17:
                kw = {"feature": "trump_length", "value": i - K.N_HCP}
            else:
                kw = {"feature": "voids", "value": i - K.N_HCP - 17}
            rows.append(mean_row("tricks_by_feature", None, s, s2, int(n), round=r + 1, **kw))
    games = int(c[K.BASE_GAME + 3 * K.G_FIELDS])
    if games:
        g = c[K.BASE_GAME : K.BASE_GAME + 3 * K.G_FIELDS].reshape(3, K.G_FIELDS)
        for s in range(3):
            rows.append(proportion_row("game_won", s, g[s, 0], games))
            rows.append(proportion_row("game_shared_first", s, g[s, 1], games))
            rows.append(mean_row("game_total", s, g[s, 2], g[s, 3], games))
        h = c[K.BASE_HIST : K.BASE_HIST + 3 * K.SCORE_BINS].reshape(3, K.SCORE_BINS)
        for s in range(3):
            for i in map(int, np.nonzero(h[s])[0]):
                rows.append(proportion_row("final_total", s, h[s, i], games, total_points=i + K.SCORE_LO))
    df = frame(rows)
    for col in ("round", "tricks", "value", "total_points"):
        if col in df.columns:
            df[col] = df[col].astype("Int64")
    for col in ("role", "feature"):
        if col in df.columns:
            df[col] = df[col].astype(object).where(df[col].notna(), None)
    if spec.describe.get("variants", {}).get("ruleset") == "swedish" and "round" in df.columns:
        # 3(c)10: the round types are forehand's contracts
        names = {r: name.split()[0] for r, name in CONTRACT_NAMES.items()}
        df.insert(
            int(df.columns.get_loc("round")) + 1,
            "contract",
            [names.get(int(r)) if pd.notna(r) else None for r in df["round"]],
        )
    # rows over every role's hand (the three roles' tricks add to the hand's): intervals from the jackknife (driver)
    df.attrs["pooled_measures"] = ("tricks_by_feature",)
    return df


def compare_spec(
    field: str,
    challenger: str,
    round: int = 1,
    variants: dict | None = None,
    pimc_from: int = PIMC_FROM,
    samples: int = PIMC_SAMPLES,
) -> KernelSpec:
    """One seat switched from ``field`` to ``challenger`` on the same deals (the others stay on ``field``):
    the switching seat's tricks and score, challenger minus field, by role."""
    codes = [strategy_code(name) for name in (field, challenger)]
    r = round_index(round)
    check_misere_search((field, challenger), pimc_from, r == 3)
    pv = player_array(pimc_from, samples, (field, challenger))
    field, challenger = labels((field, challenger))
    bv = variant_array(variants)

    def tab(counts, trials, spec):
        from ..stats import paired_difference

        c = np.asarray(counts, dtype=float).reshape(3, 8)
        rows = []
        for role, x in list(zip(ROLES, c)) + [(None, c.sum(axis=0))]:
            n = x[0]
            for measure, fv, d, d2 in (("tricks", x[1], x[3], x[4]), ("score", x[5], x[6], x[7])):
                m, se, lo, hi = paired_difference(d, d2, n)
                rows.append(
                    {
                        "measure": f"{measure}_challenger_minus_field",
                        "seat": None,
                        "round": r + 1,
                        "role": role,
                        "field": field,
                        "challenger": challenger,
                        "trials": int(n),
                        "field_value": fv / n,
                        "challenger_value": fv / n + m,
                        "estimate": float(m),
                        "std_error": float(se),
                        "ci_low": float(lo),
                        "ci_high": float(hi),
                    }
                )
        df = pd.DataFrame(rows)
        df["seat"] = df["seat"].astype("Int64")
        return df

    solvers = uses_solvers(np.array(codes))
    return KernelSpec(
        game=GAME,
        kernel="kernels.bismarck:" + ("compare_chunks" if solvers else "compare_plain_chunks"),
        args=(np.int64(codes[0]), np.int64(codes[1]), pv, np.int64(r), bv),
        n_counts=24,
        tabulate=tab,
        describe={
            "players": 3,
            "field": field,
            "challenger": challenger,
            "round": r + 1,
            "analysis": "paired",
            "pimc_from": pimc_from,
            "samples": samples,
        },
        precision_measures=("tricks_challenger_minus_field",),
        chunk_size=SOLVER_CHUNK["paired"] if solvers else None,
        pooled_by_chunks=True,  # the pooled row: each seat switching in turn on the same deal
        counted_measures=(),  # a table of zero counts has every row
    )


# ---------------------------------------------------------------------------------------------------
# The double-dummy solver
# ---------------------------------------------------------------------------------------------------

TRUMPS = {"C": 0, "D": 1, "H": 2, "S": 3, "NT": -1}


def _parse_hands(text: str, n: int, trick: list[int] | None = None, leader: int = 0) -> np.ndarray:
    """The hands as they are now: with ``trick`` (cards already played to the current trick, led by
    ``leader``) the seats that played to it hold one card fewer than the others."""
    trick = trick or []
    parts = text.split("|")
    if len(parts) != n:
        raise CardlabError(f"--hands takes {n} hands separated by '|', got {len(parts)}")
    hands = np.zeros(4, dtype=np.uint64)
    seen = 0
    for c in trick:
        seen |= 1 << c
    for i, p in enumerate(parts):
        m = to_mask(p) if p.strip() else 0
        if m & seen:
            where = "two hands" if not any((m >> c) & 1 for c in trick) else "a hand and the --trick"
            raise CardlabError(f"a card appears in {where}: {cards_of(m & seen)}")
        seen |= m
        hands[i] = np.uint64(m)
    played = {(leader + j) % n for j in range(len(trick))}
    # every hand's size with the trick's cards given back: equal, as in a trick-taking deal
    held = [bin(int(h)).count("1") for h in hands[:n]]
    sizes = {k + (1 if i in played else 0) for i, k in enumerate(held)}
    if len(sizes) != 1:
        found = "; found " + ", ".join(f"seat {i} {k}" for i, k in enumerate(held))
        if trick:
            raise CardlabError(
                "--hands: every hand holds the same number of cards, except that the seats which played to the "
                f"--trick (led by seat {leader}) hold one fewer{found}"
            )
        raise CardlabError(f"--hands: every hand must hold the same number of cards{found}")
    size = sizes.pop()
    if not 1 <= size <= 16:
        raise CardlabError(f"--hands: 1 to 16 cards a hand, got {size}")
    return hands


def _parse_trick(text: str | None, n: int) -> list[int]:
    """``--trick "KD 2D"``: the cards already played to the current trick, in order (at most ``n - 1``)."""
    if not text or not text.strip():
        return []
    cards = DECK.indices(text)
    if len(cards) > n - 1:
        raise CardlabError(f"bad --trick {text!r}: at most {n - 1} cards are played before the trick is complete")
    return cards


def _solve_setup(deal: str, hands: str, trump: str, leader: int, player: int | None, goal: str, trick: str | None):
    """The checked inputs of a solve: (hands array, seats, trump index, the trick's cards, the seat to play, the
    count side's seat, maxteam, countteam)."""
    seats = SOLVE_DEALS[deal]
    t = str(trump).upper()
    if t not in TRUMPS:
        raise CardlabError(f"bad --trump {trump!r}; accepted: {accepted(TRUMPS)}")
    if not 0 <= leader < seats:
        raise CardlabError(f"bad --leader {leader}: seats are 0..{seats - 1}")
    played = _parse_trick(trick, seats)
    to_play = (leader + len(played)) % seats
    if player is None:
        player = to_play
    if not 0 <= player < seats:
        raise CardlabError(f"bad --player {player}: seats are 0..{seats - 1}")
    if goal not in ("max", "min"):
        raise CardlabError(f"bad --goal {goal!r}; accepted: max, min")
    h = _parse_hands(hands, seats, played, leader)
    most = max(int(h[s]).bit_count() for s in range(seats))
    if seats == 3 and goal == "min" and most > MISERE_DD_CARDS:
        # the two others pushing tricks on the seat (the misere, BM-5): no quick-trick bound cuts that search, and a
        # solve of 16 cards a hand runs for many minutes without a word (Ctrl-C is only seen when it returns)
        raise CardlabError(
            f"--goal min with {most} cards a hand: the misere search (the others pushing tricks on the seat, BM-5) "
            f"does not finish in reasonable time above {MISERE_DD_CARDS} cards a hand (a 3x15 deal took 42 s); "
            f"give a position of {MISERE_DD_CARDS} cards or fewer (--trick and fewer cards in --hands)"
        )
    lead_suit = played[0] >> 4 if played else -1
    for j, c in enumerate(played[1:], start=1):  # BM-4: a seat that showed out holds none of the led suit
        s = (leader + j) % seats
        if c >> 4 != lead_suit and DD.lane(h[s], lead_suit):
            raise CardlabError(
                f"--trick: seat {s} played {cards_of(1 << c)} on a {SUITS[lead_suit]} lead while holding "
                f"{cards_of(int(DD.lane(h[s], lead_suit)) << (16 * lead_suit))} (BM-4: follow suit)"
            )
    if not int(h[to_play]):
        raise CardlabError(f"seat {to_play} is to play and holds no card")
    full = (1 << seats) - 1
    count = (5 if player % 2 == 0 else 10) if seats == 4 else 1 << player
    maxteam = count if goal == "max" else full ^ count
    return h, seats, TRUMPS[t], played, to_play, player, maxteam, count


def solve_position(
    hands: str,
    trump: str = "NT",
    leader: int = 0,
    player: int = 0,
    goal: str = "max",
    seats: int = 3,
    must_trump: bool = False,
    trick: str | None = None,
) -> int:
    """Double-dummy value: the most tricks ``player`` (with ``seats=4``: its partnership, 0+2 or 1+3) takes
    from here (the current ``trick`` included) against best defence, or with ``goal='min'`` the fewest it can be
    held to. ``hands``: "H0|H1|H2"."""
    deal = "bridge" if seats == 4 else "bismarck"
    h, n, tr, played, _, _, maxteam, count = _solve_setup(deal, hands, trump, leader, player, goal, trick)
    ttk, ttg = DD.new_tt(20)
    bufs = DD.new_buffers()
    row = np.zeros(4, dtype=np.int64)
    row[: len(played)] = played
    solve = DD.solve_3 if n == 3 else DD.solve_4  # the hand count a constant: one search compiled
    expect_dd(n)
    return int(solve(h, tr, int(must_trump), leader, row, len(played), maxteam, count, ttk, ttg, bufs))


def equal_classes(cards: list[int], others: int) -> list[list[int]]:
    """The seat's cards in classes of equal cards: same suit, touching once the cards out of play are removed
    (no card of ``others``, the other hands and the trick, lies between them). Equal cards have equal values."""
    classes: list[list[int]] = []
    for c in sorted(cards, key=lambda c: (c >> 4, -(c & 15))):
        last = classes[-1][-1] if classes else None
        if last is not None and last >> 4 == c >> 4:
            between = sum(1 << x for x in range(c + 1, last))
            if not between & others:  # the seat's own cards between are of the suit: among ``cards`` too
                classes[-1].append(c)
                continue
        classes.append([c])
    return classes


SOLVE_DEALS = {"bismarck": 3, "bridge": 4}


def solve_table(
    deal: str,
    hands: str,
    trump: str = "NT",
    leader: int = 0,
    player: int | None = None,
    goal: str = "max",
    trick: str | None = None,
    every_card: bool = True,
) -> pd.DataFrame:
    """``cardlab solve bismarck|bridge``: one row per legal card of the seat to play (equal cards share a row
    and say so), best first, each with the tricks of ``player``'s side (default: the seat to play's) from the
    current position, the current trick included; ``every_card=False``: the position's value as one row."""
    h, n, tr, played, to_play, player, maxteam, count = _solve_setup(deal, hands, trump, leader, player, goal, trick)
    side = ("0+2" if player % 2 == 0 else "1+3") if n == 4 else str(player)
    base = {
        "game": deal,
        "trump": str(trump).upper(),
        "leader": leader,
        "trick": " ".join(str(DECK.card(c)) for c in played),
        "to_play": to_play,
        "player": player,
        "goal": goal,
        "side": side,
    }
    # the hand count a constant: one search compiled
    position = list(base)  # the columns that say the position (cli's text view shows them once, in the header)
    if every_card:
        kernel = DD.card_values_3 if n == 3 else DD.card_values_4
    else:
        kernel = DD.solve_3 if n == 3 else DD.solve_4
    expect_dd(n)
    compile_note(deal, kernel)  # a cold first solve compiles for about 20 s: not in silence
    ttk, ttg = DD.new_tt(20)
    bufs = DD.new_buffers()
    row = np.zeros(4, dtype=np.int64)
    row[: len(played)] = played
    maximise = (maxteam >> to_play) & 1
    who = f"seat {player}" if n == 3 else f"side {side}"
    # "best" is the seat to play's: what it aims at, where that is not plainly the most tricks for itself
    if n == 3 and goal == "min":
        aim = "taking as few as it can" if to_play == player else f"pushing tricks on seat {player}"
    elif not maximise:
        aim = f"holding {who} to as few as it can"
    else:
        aim = ""
    current = ", the current trick included" if played else ""
    if not every_card:
        v = int(kernel(h, tr, 0, leader, row, len(played), maxteam, count, ttk, ttg, bufs))
        df = pd.DataFrame([{**base, "tricks": v}])
        df.attrs["position"] = position
        df.attrs["answer"] = (
            f"{who[0].upper()}{who[1:]} takes {v} trick{'s' if v != 1 else ''} from here{current} "
            f"(seat {to_play} to play{', ' + aim if aim else ''})"
        )
        return df
    out_cards = np.zeros(16, dtype=np.int64)
    out_values = np.zeros(16, dtype=np.int64)
    k = kernel(h, tr, 0, leader, row, len(played), maxteam, count, ttk, ttg, bufs, out_cards, out_values)
    value = {int(c): int(v) for c, v in zip(out_cards[:k], out_values[:k])}
    others = sum(int(h[s]) for s in range(n) if s != to_play) | sum(1 << c for c in played)
    rows = []
    for cls in equal_classes(list(value), others):
        vals = {value[c] for c in cls}
        groups = [cls] if len(vals) == 1 else [[c] for c in cls]  # never merged unless their values agree
        for g in groups:
            rows.append(
                {
                    **base,
                    "card": cards_of(1 << g[0]),
                    "equals": cards_of(sum(1 << c for c in g[1:])) if len(g) > 1 else "",
                    "tricks": value[g[0]],
                }
            )
    best = max(r["tricks"] for r in rows) if maximise else min(r["tricks"] for r in rows)
    for r in rows:
        r["best"] = r["tricks"] == best
    rows.sort(key=lambda r: -r["tricks"] if maximise else r["tricks"])
    df = pd.DataFrame(rows)
    df.attrs["position"] = position
    # a best card's equals named beside it ("AH (or KH)"): the table's row stands for both
    cards = ", ".join(r["card"] + (f" (or {r['equals']})" if r["equals"] else "") for r in rows if r["best"])
    df.attrs["answer"] = (
        f"Seat {to_play} to play: best {cards} ({best} trick{'s' if best != 1 else ''} for {who} from here"
        f"{current}{'; seat ' + str(to_play) + ' ' + aim if aim else ''})"
    )
    return df


# ---------------------------------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------------------------------

FAIRNESS_VARIANTS: tuple[tuple[str, dict[str, str]], ...] = (
    ("default (original scoring)", {}),
    ("simplified scoring", {"scoring": "simplified"}),
    ("round4_start=classic", {"round4_start": "classic"}),
    ("round4_start=simplified", {"round4_start": "simplified"}),
    ("round3 trump after seeing hand", {"round3_trump_timing": "after_seeing_hand"}),
    ("round2 trump cut from the pack", {"round2_trump_method": "cut_pack"}),
    ("widow: dealer takes 4, discards 4", {"widow_exchange": "dealer_takes_4_discards_4"}),
    ("widow face up: forehand takes 4, discards 4", {"widow_exchange": "swedish"}),
    (
        "dealer picks each round after seeing the hand",
        {"fixed_round_order": "false", "round3_trump_timing": "after_seeing_hand"},
    ),
    ("must trump when void", {"must_trump_when_void": "true"}),
    ("below-quota penalty", {"below_quota_penalty": "true"}),
)


def cycle_values(t: pd.DataFrame) -> dict:
    """Mean score of each role summed over the four round types: what a player expects from one cycle as
    dealer, as left and as right."""
    s = t[t.measure == "score"]
    out = {}
    for role in ROLES:
        x = s[s.role == role]
        out[role] = float(x.estimate.sum())
        out[role + "_se"] = float(np.sqrt((x.std_error**2).sum()))
    return out


# ---------------------------------------------------------------------------------------------------
# The game interface (analysis.games.base)
# ---------------------------------------------------------------------------------------------------

_ROUND = Option(
    "--round", "round type 1-4 (with ruleset=swedish the contract: 1 Spel, 2 Spader, 3 Valfri, 4 Pass)", type=int
)
_PIMC = (
    Option(
        "--pimc-from",
        f"PIMC and double-dummy players take over when a hand holds at most this many cards, "
        f"0-16 (default {PIMC_FROM}, 16 = the whole hand); search players too in rounds 1-3",
        type=int,
    ),
    Option(
        "--pimc-samples", f"PIMC samples of the hidden cards per card played, 1-1000 (default {PIMC_SAMPLES})", type=int
    ),
)


_PIMC_ADVISOR = (
    Option("--pimc-from", f"with --strategy naming pimc seats among others: they take over at this many cards "
           f"(0-16, default {PIMC_FROM})", type=int),
    Option("--pimc-samples", f"... and sample this many layouts a card (1-1000, default {PIMC_SAMPLES})", type=int),
)  # fmt: skip


def hand_quota_words(round_number: int, variants: dict | None) -> str:
    """What ``made_quota`` counts in a simulation of one round type (``--unit hand --round R``), each role's quota
    in words (BM-6; Swedish 3(c)10): in the misère (Pass) it is taking at most so many tricks, which a reader of
    "made_quota dealer 0.72" cannot tell from the table."""
    bv = variant_array(variants)
    swedish = bool(bv[K.V_RULESET])
    r = round_number - 1
    what = (
        f"contract {CONTRACT_NAMES[round_number]}" if swedish else f"round {round_number}, {ROUND_NAMES[round_number]}"
    )
    low = r == 3
    names = ("dealer", "left (forehand)" if swedish else "left", "right")  # the table's role column
    needs = [f"{names[role]} {'at most' if low else 'at least'} {int(K.quota(r, role, bv))}" for role in range(3)]
    return f"{what}: made_quota counts tricks taken, " + ", ".join(needs) + f" ({'3(c)10' if swedish else 'BM-6'})"


class Bismarck(Game):
    advisor_model = "heuristic"
    slow_strategies = ("search", "pimc", "pimc-infer", "dd")
    record_unit = "hand"
    review_precision = 0.25
    review_precision_unit = "points of round score"
    review_precision_probability = False

    def simulate_header(self, result):
        """A simulation of one round type names it and each role's quota (the header's ``quota:`` line)."""
        m = result.meta
        if m.get("unit") == "hand" and m.get("round"):
            # the meta's variants are every one, defaults included: only those given (as the spec read them)
            d = {k: v["default"] for k, v in self.rules.variants.items()}
            given = {k: v for k, v in (m.get("variants") or {}).items() if str(d.get(k)) != str(v)}
            m["quota"] = hand_quota_words(int(m["round"]), given)

    review_notes = (
        "Bismarck's verdict and best go by the round score (the precision's measure): a card may be uncertain by "
        "score while its loss_win is separated, or the reverse. tricks_taken and tricks_best are the seat's "
        "tricks in the whole hand (those won so far included), sampled as the verdict is (win is making the "
        "quota, score the round score, BM-6); dd_taken is the seat's tricks in the whole hand double dummy on the "
        "actual layout (every seat playing perfectly from there, the others together against it, with cards the "
        "seat could not see) after the card taken, dd_best after the card best on that layout, which may differ "
        "from the best column's card (judged on what the seat knew): dd_taken below dd_best (above it in the "
        "misere, round 4) is tricks lost on the actual layout (the summary counts them), and dd_taken moves "
        "through the hand where the others' cards give tricks away. A record of a hand you played may leave out the hands: the 48 cards in the "
        "order played give them (seeds/bismarck.md has the record's fields). The models play "
        "with the record's --pimc-from and --pimc-samples (the defaults where the record has none)."
    )
    record_hands_words = (
        "it gives every seat's dealt cards, or, for a whole hand, only the 48 cards in the order played (the hands "
        "follow from them; round 2 also needs the shown trump card: seeds/bismarck.md)"
    )
    record_options = (
        Option("--round", "the round type of the hand recorded, 1-4 (default 1; ruleset=swedish: the contract)",
               type=int),
        *_PIMC,
    )  # fmt: skip
    compare_by = "role"
    compare_unit = "hand"
    # the round score is what counts (BM-6), and in the misère fewer tricks are better: the verdict quotes both
    compare_also = ("score_challenger_minus_field", "points of round score a hand")
    compare_disagree = False
    compare_who = ("dealer", "left", "right")
    id = GAME
    parameterized_strategies = ("search",)
    strategy_notes = (
        f"search:BUDGET sets the search player's rollouts a card (default {SEARCH_BUDGET}), {HALVING_HELP}; one "
        "setting for every search seat of a run; it searches from the first "
        "trick, to the end in the misere, and in rounds 1-3 plays as pimc from --pimc-from cards. pimc-infer is "
        "pimc whose sampled layouts are those in which the other two seats' cards so far are the ones the "
        "heuristic would have played (inference from play: strong against heuristic players, an assumption "
        "against others); it reads the hand from its first card, so as a model of odds it is taken on the first "
        "trick or with --tricks (the order of play), not with --played after the first trick"
    )
    simulate_options = (
        Option("--unit", "what one trial is: a complete 12-hand game (default), or one hand", choices=("game", "hand")),
        Option("--round", "with --unit hand: " + _ROUND.help, type=int),
        *_PIMC,
    )
    compare_options = (Option("--round", _ROUND.help + " (default 1)", type=int), *_PIMC)
    solve_deals = tuple(SOLVE_DEALS)
    examples = {
        "compare": {"field": "heuristic", "challenger": "random", "round": 2},
        "solve": {"request": SolveRequest(deal="bismarck", hands="AS KS|QS JS|TS 9S", trump="S")},
        "report": {"scale": 0.001},
        "record": {"seed": 1},
        "review": {"record": str(seeds_dir() / "records" / "bismarck-example.json"), "seat": 0},
        "odds": {
            "run": {"trials": 8, "chunk_size": 8, "seed": 3},
            "hand": "AS KS 2H 3H 4C 5C 6C 7C 8D 9D TD JD QH KH AH 2S",
            "round": 1,
            "dealer": 2,
        },
    }
    simulate_epilog = (
        "Measures, by round (1-4, BM-5) and role (dealer; left, who leads the first trick; right): tricks (a hand's "
        "mean, of 16), score (the round score, BM-6: by default the tricks above the quota, 0 below it; in round 4, "
        "the misère, the tricks under the allowance), made_quota (the share of hands where the role took at least "
        "its quota, by default 8 for the dealer and 4 for the others, or in round 4 at most its allowance; Swedish "
        "Bismarck's quotas are forehand's, 3(c)10), tricks_taken (the "
        "share of hands with exactly TRICKS tricks), tricks_by_feature (the mean tricks of hands dealt with a "
        "feature's VALUE: hcp, high-card points J Q K A = 1 2 3 4, the last value counting that many or more; "
        "trump_length; voids, the suits missing). Whole games (the default --unit game, BM-7) add, by seat from "
        "the first dealer: game_won (the highest total alone), game_shared_first (tied for it), game_total (the "
        "mean total) and final_total (the share of games ending at TOTAL_POINTS). Rows count role-hands or games, "
        "as their trials column says."
    )
    compare_epilog = (
        "One trial is one hand of --round (BM-5), dealt once and played four times with the same draws: every seat "
        "on the field, then each seat in turn on the challenger with the other two on the field. The choices before "
        "the play (a widow discard, trumps named after seeing the hand) are made once, by the field strategy: the "
        "switch is in the card play. Rows: by the "
        "switching seat's role (dealer; left, who leads; right) and pooled over the roles (trials count role-hands "
        "there: three times the hands). Measures: tricks_challenger_minus_field, the switching seat's tricks with "
        "the challenger minus with the field on the same hand (in round 4, the misère, fewer tricks are the aim: a "
        "negative difference is the challenger doing better); score_challenger_minus_field, the same for the "
        "round score (BM-6, by default: the tricks above the quota, 0 below it; in round 4 the tricks under the allowance), "
        "higher being better in every round; field_value and challenger_value the seat's means each way. The "
        "verdict goes by the tricks and quotes the score (with --measure score, the reverse)."
    )
    card_notes = (
        "Cards: ranks 2 (low) to A (high), no suit ranked (BM-1); a trick goes to the highest trump, else the "
        "highest card of the suit led (BM-4)."
    )
    odds_epilog = (
        "Models (--strategy): heuristic, the default, plays the hand on from each action with heuristic players, "
        "each for itself, as Bismarck's players play; pimc (for every seat) values each card double dummy on "
        "each sampled layout with the other two seats together against the deciding one: a stronger ranking of "
        "the cards, its tricks and quota no bound either way (the two others defend perfectly and as one, the seat "
        "sees each layout whole), and "
        "slow on whole hands (name_trumps, "
        "choose_round, discard, contract: seconds a layout), and in the misere (round 4) it takes hands of at "
        f"most {MISERE_DD_CARDS} cards only; search plays it on with search players (search:50 "
        "keeps it quick); pimc-infer plays it on with pimc players that read the hidden cards from the order of "
        "play (after the first trick give the tricks with --tricks, in order; --played loses the order and is "
        "refused; seconds a layout, --pimc-from 6 keeps it quicker). Which to read: the heuristic's chances are "
        "those against players like cardlab's own (quick, and what its reports measure); pimc's ranking is a "
        "stronger player's (it takes more tricks than the heuristic: the report), its tricks and quota usually on the low side (the other two seeing every card and playing together against it); where the two rank the cards alike, either answer stands; where they disagree, play pimc's card against strong players (or search's: the search player takes at least as many tricks as pimc in rounds 1-3 and fewer in the misère: docs/performance.md), the heuristic's against players like cardlab's. "
        'A card shown as "8D (or 9D TD JD)" stands for cards of equal value there (touching in rank once the cards '
        "out of play are set aside): one row, the lowest played. "
        "Seats are 0..2 clockwise; --dealer says who dealt (its left leads the first trick, "
        "BM-4). The answer: win = P(making the quota, BM-6), score = the round score (BM-6: by default the tricks "
        "above the quota, 0 below it; in round 4 the tricks under the allowance; choose_round, contract: the cycle's), tricks (the seat's in the whole hand, those won so far included); ranked by score, then the quota, then tricks (fewest in round 4). discard first "
        "screens every distinct discard with heuristic players on layouts of its own, then shows the best 8, the "
        "heuristic's and any --try-discard, valued on the run's layouts. The header's quota line says what the "
        "deciding seat needs, its turn line whose turn it is (BM-4); where the runner-up is not separated on "
        "the score but clearly is on the quota, the answer says so; rule ids (BM-4, BM-6, 3(c)10) are those of seeds/bismarck.md."
    )
    odds_options = (
        Option("--position", "a position document, a file or the JSON itself: a JSON object of the fields below, named as the flags with _ "
               'for -, e.g. {"hand": "AS KS", "round": 1, "dealer": 2, "tricks": ["2S 5S AS"]} (seeds/bismarck.md '
               "lists them); flags given override it (a SEAT=VALUE option seat by seat)"),
        Option("--decision", "the decision to advise (BM-9): play (a card; the default), name_trumps (round 3 "
               "with round3_trump_timing=after_seeing_hand: the dealer's 16 cards, before the first lead), "
               "choose_round (fixed_round_order=false with round3_trump_timing=after_seeing_hand: the dealer "
               "picks the round type, valued over its cycle), discard (a widow exchange: the seat that takes "
               "the --widow discards as many cards), contract (ruleset=swedish: forehand picks the contract from "
               "the face-up --widow alone, valued over its four turns)",
               choices=("play", "name_trumps", "choose_round", "discard", "contract")),
        Option("--seat", "the deciding seat (default 0; with --dealer and a decision before the first lead, the "
               "seat that takes it: the dealer, or the widow's taker); with --decision play and another seat to "
               "play, the answer is the seat's chances (quota, score, tricks) from the position: will it make its quota? "
               "(the hand played on by the model's players; pimc: each layout solved double dummy)", type=int),
        Option("--hand", "the seat's cards now (16 less those it played)", type=CARDS),
        Option("--round", "1 no trumps, 2 drawn trumps, 3 named trumps, 4 misere (ruleset=swedish: the contract, "
               "1 spel, 2 spader, 3 valfri, 4 pass)", type=int),
        Option("--trumps", "the trump suit in rounds 2 and 3 (and valfri): C, D, H or S", metavar="SUIT"),
        Option("--dealer", "who dealt (its left led the first trick, BM-4); discard and contract: by default the "
               "dealer of the seat that takes the widow (itself, or its right for forehand)", type=int, metavar="SEAT"),
        Option("--tricks", "a completed trick's 3 cards in the order played, from its leader (repeatable, in order; "
               "the leaders, tricks won and the suits a seat showed out of follow from them)", type=CARDS,
               action="append", metavar="CARDS"),
        Option("--current", "the cards already played to the trick in progress, from its leader (omit on lead)",
               type=CARDS),
        Option("--played", "instead of --tricks: the completed tricks' cards, order forgotten (no voids are then "
               "known; give --won and --leader)", type=CARDS),
        Option("--won", "with --played: tricks won so far, per seat", action="append", metavar="SEAT=N"),
        Option("--leader", "with --played: who led the current trick", type=int, metavar="SEAT"),
        Option("--shown", "round 2: the card drawn for trumps, shown and out of play (BM-5)", type=CARDS,
               metavar="CARD"),
        Option("--discards", "the cards the seat discarded in a widow exchange (3(c)5): 4, or 3 in round 2 when the "
               "trump card was drawn from the leftover", type=CARDS),
        Option("--remaining", 'choose_round: the round types not yet played in the dealer\'s cycle, e.g. "1 3 4"; '
               "contract: the contracts forehand has not yet played (default all four)", metavar="TYPES"),
        Option("--widow", "discard: the leftover cards the seat takes (4; 3 in round 2 when the trump card was "
               "drawn from them); contract: the 4 face-up cards", type=CARDS),
        Option("--try-discard", "discard: a discard to value beside the best ones found (repeatable)", type=CARDS,
               action="append", metavar="CARDS"),
        Option("--known", "cards known to be in another seat's hand (the Swedish face-up widow, in forehand's hand "
               "until played)", action="append", metavar="SEAT=CARDS"),
        *_PIMC_ADVISOR,
    )  # fmt: skip

    def strategies(self):
        return tuple(STRATEGIES)

    def default_strategy(self):
        return DEFAULT_STRATEGY

    def simulation_spec(self, players=None, variants=None, strategies=None, **options):
        return simulation_spec(players, variants, strategy_items(strategies), **options)

    def inert_variants(self, given, players, options):
        out = {}
        # compare, and simulate --unit hand, play single hands of one round
        hand = options.get("unit") == "hand" or options.get("command") == "compare"
        if hand:
            for name in ("game_length", "target_score"):
                if name in given:
                    out[name] = "it sets a game's length, and here a trial is one hand"
            # a variant of one round type (rules.md 3(c)2-4), where every hand is another (--round; the blog's
            # rounds: under ruleset=swedish --round names a contract)
            r = int(options.get("round") or 1)
            if given.get("ruleset", "blog") == "blog":
                for name, only in (("round2_trump_method", 2), ("round3_trump_timing", 3), ("round4_start", 4)):
                    if name in given and r != only:
                        out[name] = f"it applies to round {only}, and here every hand is round {r} (--round {only})"
        elif "target_score" in given and str(given.get("game_length", "12")) != "target":
            out["target_score"] = "it applies with --variant game_length=target only"
        return out

    def compare(self, field, challenger, **kwargs):
        """The paired comparison; in the misere (round 4) the verdict, which goes by the tricks, says that fewer
        tricks is the better side and that the round score says which player did better (BM-6: with the default
        scoring it is floored at 0, so tricks beyond the allowance cost nothing more)."""
        result = super().compare(field, challenger, **kwargs)
        # (Swedish Bismarck's fourth round is another contract, not the misere)
        if kwargs.get("round") == 4 and rules().resolve_variants(kwargs.get("variants"))["ruleset"] != "swedish":
            result.meta["verdict"] += (
                "; in the misere fewer tricks is better, and the round score (BM-6) says which played better"
            )
        return result

    def compare_spec(
        self, field, challenger, players=None, variants=None, round=None, pimc_from=None, pimc_samples=None
    ):
        rules().check_players(players)
        return compare_spec(
            field,
            challenger,
            1 if round is None else round,
            variants,
            PIMC_FROM if pimc_from is None else pimc_from,
            PIMC_SAMPLES if pimc_samples is None else pimc_samples,
        )

    def odds(self, run, variants=None, strategies=None, **position):
        from .bismarck_odds import odds, position_fields

        return odds(run.kwargs(), **position_fields(position, variants, strategies))

    def record(self, seed=0, players=None, variants=None, strategies=None, **options):
        from .bismarck_review import record

        return record(seed, players, variants, strategy_items(strategies), **options)

    def review(self, record, seat=None, run=None, strategies=None):
        from .bismarck_review import review

        doc, kwargs = self.review_inputs(record, run, strategies)
        return review(doc, seat=seat, **kwargs)

    def review_sections(self, result, record_name):
        from .bismarck_review import sections

        return sections(result, record_name)

    def solve(self, request):
        return solve_table(
            request.deal, request.hands, request.trump, request.leader, request.player, request.goal,
            request.trick, request.every_card,
        )  # fmt: skip

    def report_sections(self, scale=1.0, seed=2026, progress=True):
        from ..sections import bismarck

        return bismarck.report(scale=scale, seed=seed, progress=progress)
