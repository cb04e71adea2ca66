"""Bismarck (rules.md section 3): hands, 12-hand games, players, the double-dummy solver's Python face.

Seats 0..2 clockwise. Roles are relative to the dealer of a hand: dealer, left (forehand: leads the first
trick, BM-4) and right. Whole-game results are by seat relative to the *first* dealer.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from kernels import bismarck as K
from kernels import dd as DD

from ..driver import KernelSpec
from ..errors import CardlabError, accepted
from ..rules import GameRules, load_game, seat_assignments
from ..tables import frame, mean_row, proportion_row
from .base import Game, Option, SolveRequest

GAME = "bismarck"
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A")
SUITS = ("C", "D", "H", "S")
ROLES = ("dealer", "left", "right")
ROUND_NAMES = {1: "no trumps", 2: "drawn trumps", 3: "named trumps", 4: "misere"}
#: the strategy of every seat not given one (``--strategy``)
DEFAULT_STRATEGY = "heuristic"
STRATEGIES = {"random": K.S_RANDOM, "heuristic": K.S_HEURISTIC, "pimc": K.S_PIMC, "dd": K.S_DD}
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
code = DECK.index
to_mask = DECK.mask
cards_of = DECK.text


def player_array(pimc_from: int = PIMC_FROM, samples: int = PIMC_SAMPLES) -> np.ndarray:
    """The settings of the PIMC and double-dummy seats, as the kernel reads them (``K.P_*``)."""
    if not 0 <= pimc_from <= 16:
        raise CardlabError(f"bad --pimc-from {pimc_from}: accepted 0 to 16 (cards in hand)")
    if not 1 <= samples <= 1000:
        raise CardlabError(f"bad --pimc-samples {samples}: accepted 1 to 1000")
    pv = np.zeros(K.N_PLAYER, dtype=np.int64)
    pv[K.P_PIMC_FROM] = pimc_from
    pv[K.P_SAMPLES] = samples
    return pv


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


def _strategy_codes(strategies, default=None):
    names = seat_assignments(strategies, 3, default or DEFAULT_STRATEGY, STRATEGIES)
    return names, np.array([STRATEGIES[n] for n in names], dtype=np.int64)


def _round_index(round_no) -> int:
    r = 1 if round_no is None else int(round_no)
    if r not in ROUND_NAMES:
        raise CardlabError(f"bad --round {round_no}: accepted 1, 2, 3, 4")
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
    pv = player_array(pimc_from, pimc_samples)
    bv = variant_array(variants)
    unit = unit or "game"
    if unit not in ("game", "hand"):
        raise CardlabError(f"bad --unit {unit!r} for {GAME}; accepted: game, hand")
    if unit == "game" and round is not None:
        raise CardlabError("--round goes with --unit hand")
    r = _round_index(round)
    names, strat = _strategy_codes(strategies)
    args = (strat, pv, np.int64(1 if unit == "game" else 0), np.int64(r), bv)
    describe = {"players": 3, "variants": full, "strategies": names, "unit": unit}
    if any(n in ("pimc", "dd") for n in names):
        describe.update(pimc_from=pimc_from, pimc_samples=pimc_samples)
    if unit == "hand":
        describe["round"] = r + 1
    return KernelSpec(
        game=GAME,
        kernel="kernels.bismarck:simulate_chunks",
        args=args,
        n_counts=K.counts_width(),
        tabulate=tabulate,
        describe=describe,
        precision_measures=("made_quota",) if unit == "hand" else ("game_won",),
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
    for name in (field, challenger):
        if name not in STRATEGIES:
            raise CardlabError(f"unknown strategy {name!r} for {GAME}; accepted: {accepted(STRATEGIES)}")
    r = _round_index(round)
    pv = player_array(pimc_from, samples)
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

    return KernelSpec(
        game=GAME,
        kernel="kernels.bismarck:compare_chunks",
        args=(np.int64(STRATEGIES[field]), np.int64(STRATEGIES[challenger]), pv, np.int64(r), bv),
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
    )


# ---------------------------------------------------------------------------------------------------
# The double-dummy solver
# ---------------------------------------------------------------------------------------------------

TRUMPS = {"C": 0, "D": 1, "H": 2, "S": 3, "NT": -1}


def _parse_hands(text: str, n: int) -> np.ndarray:
    parts = text.split("|")
    if len(parts) != n:
        raise CardlabError(f"--hands takes {n} hands separated by '|', got {len(parts)}")
    hands = np.zeros(4, dtype=np.uint64)
    seen = 0
    for i, p in enumerate(parts):
        m = to_mask(p) if p.strip() else 0
        if m & seen:
            raise CardlabError(f"a card appears in two hands: {cards_of(m & seen)}")
        seen |= m
        hands[i] = np.uint64(m)
    sizes = {bin(int(h)).count("1") for h in hands[:n]}
    if len(sizes) != 1:
        raise CardlabError("--hands: every hand must hold the same number of cards")
    size = sizes.pop()
    if not 1 <= size <= 16:
        raise CardlabError(f"--hands: 1 to 16 cards a hand, got {size}")
    return hands


def solve_position(
    hands: str,
    trump: str = "NT",
    leader: int = 0,
    player: int = 0,
    goal: str = "max",
    seats: int = 3,
    must_trump: bool = False,
) -> int:
    """Double-dummy value: the most tricks ``player`` (with ``seats=4``: its partnership, 0+2 or 1+3) takes
    against best defence, or with ``goal='min'`` the fewest it can be held to. ``hands``: "H0|H1|H2"."""
    h = _parse_hands(hands, seats)
    t = str(trump).upper()
    if t not in TRUMPS:
        raise CardlabError(f"bad --trump {trump!r}; accepted: {accepted(TRUMPS)}")
    for name, v in (("leader", leader), ("player", player)):
        if not 0 <= v < seats:
            raise CardlabError(f"bad --{name} {v}: seats are 0..{seats - 1}")
    if goal not in ("max", "min"):
        raise CardlabError(f"bad --goal {goal!r}; accepted: max, min")
    full = (1 << seats) - 1
    count = (5 if player % 2 == 0 else 10) if seats == 4 else 1 << player
    maxteam = count if goal == "max" else full ^ count
    ttk, ttg = DD.new_tt(20)
    bufs = DD.new_buffers()
    played = np.zeros(4, dtype=np.int64)
    return int(DD.solve(h, seats, TRUMPS[t], int(must_trump), leader, played, 0, maxteam, count, ttk, ttg, bufs))


SOLVE_DEALS = {"bismarck": 3, "bridge": 4}


def solve_table(
    deal: str, hands: str, trump: str = "NT", leader: int = 0, player: int = 0, goal: str = "max"
) -> pd.DataFrame:
    """``cardlab solve bismarck|bridge``: the double-dummy value as a one-row table."""
    seats = SOLVE_DEALS[deal]
    tricks = solve_position(hands, trump, leader, player, goal, seats)
    return pd.DataFrame(
        [
            {
                "game": deal,
                "trump": trump.upper(),
                "leader": leader,
                "player": player,
                "goal": goal,
                "side": ("0+2" if player % 2 == 0 else "1+3") if seats == 4 else str(player),
                "tricks": tricks,
            }
        ]
    )


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


def _cycle_values(t: pd.DataFrame) -> dict:
    """Mean score of each role summed over the four round types: what a player expects from one cycle as
    dealer, as left and as right."""
    s = t[t.measure == "score"]
    out = {}
    for role in ROLES:
        x = s[s.role == role]
        out[role] = float(x.estimate.sum())
        out[role + "_se"] = float(np.sqrt((x.std_error**2).sum()))
    return out


def report_sections(scale: float = 1.0, seed: int = 2026, progress: bool = True):
    import matplotlib.pyplot as plt

    from ..driver import run
    from ..plots import STYLE, new_figure, yerr
    from ..report import Section

    def n(x, least=200):
        return max(least, int(x * scale))

    sections = []
    # -- per round type and role
    hand_tables = {}
    for rnd in range(1, 5):
        hand_tables[rnd] = run(
            simulation_spec(unit="hand", round=rnd, strategies=["heuristic"]),
            trials=n(100_000),
            seed=seed + rnd,
            progress=progress,
        ).table
    rows = []
    for rnd, t in hand_tables.items():
        for role in ROLES:
            sub = t[t.role == role]
            get = {m: sub[sub.measure == m].iloc[0] for m in ("tricks", "score", "made_quota")}
            rows.append(
                {
                    "round": rnd,
                    "round_type": ROUND_NAMES[rnd],
                    "role": role,
                    "quota": ("<= " if rnd == 4 else ">= ")
                    + str(K.quota(rnd - 1, ROLES.index(role), variant_array({}))),
                    "hands": int(get["tricks"].trials),
                    "tricks": get["tricks"].estimate,
                    "tricks_ci": f"{get['tricks'].ci_low:.3f}-{get['tricks'].ci_high:.3f}",
                    "score": get["score"].estimate,
                    "score_ci": f"{get['score'].ci_low:.3f}-{get['score'].ci_high:.3f}",
                    "P(quota)": get["made_quota"].estimate,
                    "P(quota)_ci": f"{get['made_quota'].ci_low:.4f}-{get['made_quota'].ci_high:.4f}",
                }
            )
    per_role = pd.DataFrame(rows)
    with plt.rc_context(STYLE):
        fig, axes = plt.subplots(1, 4, figsize=(12, 3.2), sharey=True)
        for ax, (rnd, t) in zip(axes, hand_tables.items()):
            for role in ROLES:
                h = t[(t.measure == "tricks_taken") & (t.role == role)]
                ax.plot(h.tricks.astype(int), h.estimate, marker="o", ms=3, label=role)
            ax.set_title(f"round {rnd}: {ROUND_NAMES[rnd]}")
            ax.set_xlabel("tricks taken")
        axes[0].set_ylabel("probability")
        axes[0].legend(fontsize=7)
    sections.append(
        Section(
            "Each round type, by role",
            (
                "Single hands of each round type (BM-5), every seat on the heuristic player, the default rules. "
                "P(quota): the role takes at least its quota in rounds 1-3 (dealer 8, others 4: it scores as soon as "
                "it passes it), at most its allowance in the misère round 4 (blog: dealer 6, others 4). Score: BM-6, "
                "original scheme. 95% intervals (Wilson for probabilities, normal for means)."
            ),
            per_role,
            [fig],
        )
    )

    # -- hand features
    rows = []
    for rnd, t in hand_tables.items():
        f = t[(t.measure == "tricks_by_feature") & (t.trials >= 100)]
        rows.append(f.assign(round=rnd))
    feats = pd.concat(rows)
    with plt.rc_context(STYLE):
        fig, axes = plt.subplots(1, 3, figsize=(12, 3.2))
        for rnd in range(1, 5):
            h = feats[(feats["round"] == rnd) & (feats.feature == "hcp")]
            axes[0].errorbar(
                h.value.astype(int),
                h.estimate,
                yerr=yerr(h.estimate, h.ci_low, h.ci_high),
                fmt="o-",
                ms=3,
                capsize=2,
                label=f"round {rnd}",
            )
            if rnd in (2, 3):
                h = feats[(feats["round"] == rnd) & (feats.feature == "trump_length")]
                axes[1].errorbar(
                    h.value.astype(int),
                    h.estimate,
                    yerr=yerr(h.estimate, h.ci_low, h.ci_high),
                    fmt="o-",
                    ms=3,
                    capsize=2,
                    label=f"round {rnd}",
                )
            h = feats[(feats["round"] == rnd) & (feats.feature == "voids")]
            axes[2].errorbar(
                h.value.astype(int),
                h.estimate,
                yerr=yerr(h.estimate, h.ci_low, h.ci_high),
                fmt="o-",
                ms=3,
                capsize=2,
                label=f"round {rnd}",
            )
        axes[0].set_xlabel("high-card points (A 4, K 3, Q 2, J 1)")
        axes[1].set_xlabel("trump length")
        axes[2].set_xlabel("void suits")
        axes[0].set_ylabel("mean tricks taken")
        for ax in axes:
            ax.legend(fontsize=7)
    coarse = feats[(feats.feature != "hcp") | (feats.value % 4 == 0)]
    sections.append(
        Section(
            "How hand features map to tricks",
            (
                "Mean tricks taken by a hand with a given feature (all roles pooled; heuristic players; cells with at "
                "least 100 hands). Round 4 is the misère round: there a strong hand takes tricks it does not want. The "
                "table shows every fourth high-card point count; the chart shows them all."
            ),
            coarse[["round", "feature", "value", "trials", "estimate", "ci_low", "ci_high"]],
            [fig],
        )
    )

    # -- whole games
    games = run(simulation_spec(strategies=["heuristic"]), trials=n(20_000), seed=seed + 10, progress=progress)
    gt = games.table
    gsum = gt[gt.measure.isin(["game_won", "game_shared_first", "game_total"])]
    hist = gt[gt.measure == "final_total"]
    fig, ax = new_figure()
    for s in range(3):
        h = hist[hist.seat == s]
        ax.plot(h.total_points.astype(int), h.estimate, marker=".", label=["first dealer", "its left", "its right"][s])
    ax.set_xlabel("final total after 12 hands")
    ax.set_ylabel("probability")
    ax.set_title("Final scores (heuristic players, default rules)")
    ax.legend(fontsize=7)
    sections.append(
        Section(
            "Who wins a 12-hand game",
            (
                "Complete games (BM-7): each player deals a cycle of four, block_of_four schedule. Seats relative to "
                "the first dealer. game_won = the sole highest total; game_shared_first = tied for the highest total. "
                "Totals below -40 or above 99 fall in the end bins of the final_total rows."
            ),
            gsum[["measure", "seat", "trials", "estimate", "ci_low", "ci_high"]],
            [fig],
        )
    )

    # -- fairness of scoring schemes and variants
    rows = []
    for label, variants in FAIRNESS_VARIANTS:
        t = run(
            simulation_spec(variants=variants, strategies=["heuristic"]),
            trials=n(6_000),
            seed=seed + 20,
            progress=progress,
        ).table
        cv = _cycle_values(t)
        won = t[t.measure == "game_won"].set_index("seat")
        r3 = t[(t.measure == "score") & (t["round"] == 3) & (t.role == "dealer")].iloc[0]
        rows.append(
            {
                "variant": label,
                "games": int(won.trials.iloc[0]),
                "cycle_dealer": cv["dealer"],
                "cycle_left": cv["left"],
                "cycle_right": cv["right"],
                "dealer_minus_mean_other": cv["dealer"] - (cv["left"] + cv["right"]) / 2,
                "se": float(np.sqrt(cv["dealer_se"] ** 2 + (cv["left_se"] ** 2 + cv["right_se"] ** 2) / 4)),
                "round3_dealer_score": r3.estimate,
                "P(first dealer wins)": won.loc[0, "estimate"],
                "P(its left wins)": won.loc[1, "estimate"],
                "P(its right wins)": won.loc[2, "estimate"],
            }
        )
    fair = pd.DataFrame(rows)
    fig, ax = new_figure(7.0, 3.6)
    ax.barh(fair.variant, fair.dealer_minus_mean_other, xerr=1.96 * fair.se, capsize=2)
    ax.axvline(0, color="grey", lw=0.8)
    ax.set_xlabel("dealer's cycle score minus a non-dealer's (points per cycle of 4 hands)")
    ax.invert_yaxis()
    sections.append(
        Section(
            "Is the deal fair? Scoring schemes and variants",
            (
                "For each variant (one change from the defaults), 12-hand games with heuristic players. cycle_<role>: "
                "the mean score of a role summed over the four round types, i.e. what one cycle is worth to the dealer "
                "and to each non-dealer; dealer_minus_mean_other and its standard error measure how far the deal is "
                "from fair (0 = fair). Each player deals one cycle in a 12-hand game, so the game as a whole is fair "
                "by symmetry; the P(win) columns check that. round3_dealer_score: blind against seen trumps."
            ),
            fair,
            [fig],
            digits=3,
        )
    )

    # -- Swedish Bismarck (3(c)10)
    sw_variants = {"ruleset": "swedish"}
    sw = run(
        simulation_spec(variants=sw_variants, strategies=["heuristic"]),
        trials=n(6_000),
        seed=seed + 40,
        progress=progress,
    ).table
    rows = []
    for rnd, contract in CONTRACT_NAMES.items():
        for role in ROLES:
            sub = sw[(sw["round"] == rnd) & (sw.role == role)]
            get = {m: sub[sub.measure == m].iloc[0] for m in ("tricks", "score", "made_quota")}
            rows.append(
                {
                    "contract": contract,
                    "role": "forehand" if role == "left" else role,
                    "quota": ("<= " if rnd == 4 else ">= ")
                    + str(K.quota(rnd - 1, ROLES.index(role), variant_array(sw_variants))),
                    "hands": int(get["tricks"].trials),
                    "tricks": get["tricks"].estimate,
                    "score": get["score"].estimate,
                    "score_ci_low": get["score"].ci_low,
                    "score_ci_high": get["score"].ci_high,
                    "P(quota)": get["made_quota"].estimate,
                }
            )
    swedish = pd.DataFrame(rows)
    won = sw[sw.measure == "game_won"].set_index("seat")
    fig, ax = new_figure(7.0, 3.2)
    for i, role in enumerate(("dealer", "forehand", "right")):
        x = swedish[swedish.role == role]
        ax.errorbar(
            np.arange(4) + (i - 1) * 0.12,
            x.score,
            yerr=yerr(x.score, x.score_ci_low, x.score_ci_high),
            fmt="o",
            capsize=2,
            label=role,
        )
    ax.set_xticks(range(4), [c.split()[0] for c in CONTRACT_NAMES.values()])
    ax.axhline(0, color="grey", lw=0.8)
    ax.set_ylabel("mean score of a hand")
    ax.set_title("Swedish Bismarck: score by contract and role (heuristic players)")
    ax.legend(fontsize=7)
    p_win = ", ".join(
        f"{who} {won.loc[s_, 'estimate']:.3f} ({won.loc[s_, 'ci_low']:.3f}-{won.loc[s_, 'ci_high']:.3f})"
        for s_, who in enumerate(("first dealer", "its left", "its right"))
    )
    sections.append(
        Section(
            "Swedish Bismarck for comparison",
            (
                "ruleset=swedish (rules.md 3(c)10): the deal passes left every hand, forehand (the dealer's left) chooses "
                "the contract from the 4 face-up widow cards alone, each contract once in its four turns, takes the widow, "
                "discards 4 and leads; quotas forehand 8, others 4 (Pass: at most 4 and 6); one point a trick above the "
                "quota, minus one below, so every hand sums to 0. 12-hand games, heuristic players (their contract rules "
                "are in seeds/bismarck.md). Every player is forehand once in each contract, so the game is fair by "
                f"symmetry; the table shows where the points come from. P(sole highest total) by seat: {p_win}."
            ),
            swedish,
            [fig],
            digits=3,
        )
    )

    # -- players on the same deals: the value of information
    rows = []
    for rnd in (1, 2, 3, 4):
        for challenger, size in (("dd", 1000), ("pimc", 150)):
            if challenger == "pimc" and rnd in (2, 3):
                continue
            t = run(
                compare_spec("heuristic", challenger, round=rnd),
                trials=n(size, least=60),
                seed=seed + 30,
                progress=progress,
            ).table
            rows.append(t[t.role.isna()])
    cmp = pd.concat(rows, ignore_index=True)
    sections.append(
        Section(
            "Heuristic, PIMC and double dummy on the same deals",
            (
                f"One seat at a time switches from the heuristic player to a challenger on the same deal (the others "
                f"stay heuristic); pooled over the three seats. The PIMC and double-dummy players take over once a hand "
                f"holds {PIMC_FROM} cards (the last {PIMC_FROM} tricks), heuristic before: the solver is exact but not "
                f"yet fast enough for whole 16-card hands in volume. PIMC samples {PIMC_SAMPLES} layouts of the hidden "
                f"cards per decision. dd sees every hand: the difference dd - pimc is what perfect information is worth "
                f"in those tricks. In round 4 (misère) fewer tricks is better; PIMC there minimises expected tricks, "
                f"which is not the floored score, and shares PIMC's known weakness of assuming it will see the cards "
                f"later (strategy fusion)."
            ),
            cmp[
                [
                    "measure",
                    "round",
                    "challenger",
                    "trials",
                    "field_value",
                    "challenger_value",
                    "estimate",
                    "ci_low",
                    "ci_high",
                ]
            ],
        )
    )
    intro = (
        f"Bismarck (rules.md section 3, default rules unless a section says otherwise), simulated with "
        f"cardlab. Seed {seed}. Roles: dealer, left (leads the first trick) and right."
    )
    return "Bismarck: what each seat and round is worth", intro, sections


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
        f"0-16 (default {PIMC_FROM}, 16 = the whole hand)",
        type=int,
    ),
    Option(
        "--pimc-samples", f"PIMC samples of the hidden cards per card played, 1-1000 (default {PIMC_SAMPLES})", type=int
    ),
)


class Bismarck(Game):
    id = GAME
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
    }

    def strategies(self):
        return tuple(STRATEGIES)

    def default_strategy(self):
        return DEFAULT_STRATEGY

    def simulation_spec(self, players=None, variants=None, strategies=None, **options):
        return simulation_spec(players, variants, list(strategies) if strategies else None, **options)

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

    def solve(self, request):
        return solve_table(request.deal, request.hands, request.trump, request.leader, request.player, request.goal)

    def report_sections(self, scale=1.0, seed=2026, progress=True):
        return report_sections(scale=scale, seed=seed, progress=progress)
