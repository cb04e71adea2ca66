"""Zheng Shangyou (rules.md section 4): the combination engine's Python face (eval, beats, moves).

The kernels implement the default rules; full games, players and analyses are the rest of issue 6.
"""

from __future__ import annotations

from math import comb

import numpy as np
import pandas as pd

from kernels import zheng_shangyou as K
from kernels._extern import expect

from ..driver import SEARCH_CHUNK, KernelSpec, compile_note
from ..errors import CardlabError, accepted
from ..rules import (
    HALVING_HELP,
    GameRules,
    load_game,
    search_explore,
    search_label,
    search_setting,
    seat_assignments,
    seeds_dir,
    strategy_items,
)
from ..tables import Result, fixed_by_rules, frame, mean_row, proportion_row
from .base import Game, Option, cards_arg, positive_int

GAME = "zheng-shangyou"
RANKS = ("3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "2")
SUITS = ("D", "C", "H", "S")


def rules() -> GameRules:
    return load_game(GAME)


# the card codes (rank * 4 + suit, twos high, D < C < H < S; jokers 52 BJ and 53 RJ: ZS-2), from
# seeds/zheng-shangyou.toml's [deck]; to_mask gives the kernel's multiset (cards, dups)
DECK = rules().deck
CARDS = cards_arg(DECK)  # the argparse type of a card-list option
code = DECK.index
card = DECK.card
to_mask = DECK.multiset
cards_of = DECK.text


# ruleset current_wiki (4(a) current revision, 4(c)14): "different combinations do not beat each other, the only
# exception is the bomb", a bomb being n of a kind alone; the variants that shape the seed's bombs and straight
# flushes do not apply, and those that rest on suits need the suit order
NOT_UNDER_CURRENT = ("bare_four_is_bomb", "bomb_kicker_may_be_joker", "sf_vs_sf")
NEEDS_SUIT_ORDER = ("straight_suit_tiebreak", "pair_straight_tiebreak", "auto_restart_after_unbeatable")
# ruleset legacy_wiki (4(c)14, the older revision): a 52-card deck and straights and straight flushes of 3 or
# more cards; a 54-card deck variant is read as its 52-card counterpart for the same players
LEGACY_DECKS = {"4p_54": "4p_52", "3p_54": "3p_52"}
VARIANT_CODES = {
    "straight_suit_tiebreak": (K.V_STRAIGHT_SUIT, {"false": 0, "true": 1}),
    "bare_four_is_bomb": (K.V_BARE_FOUR, {"false": 0, "beats_all": 1, "below_straight_flush": 2}),
    "sf_vs_sf": (K.V_SF_VS_SF, {"same_length": 0, "longer_beats_shorter": 1}),
    "sequence_rules": (K.V_NO_TWOS_SEQ, {"as_straights": 0, "no_twos_in_sequences": 1}),
    "pair_straight_tiebreak": (K.V_PAIR_STRAIGHT_TIE, {"none": 0, "top_pair_suit": 1}),
    "bomb_kicker_may_be_joker": (K.V_KICKER_JOKER, {"false": 0, "true": 1}),
    "auto_restart_after_unbeatable": (K.V_AUTO_RESTART, {"false": 0, "true": 1}),
    "later_game_leader": (
        K.V_LATER_LEADER,
        {"previous_winner": 0, "holder_3D_every_game": 1, "dealer": 2, "dealer_left": 3},
    ),
    "score_timing": (K.V_SCORE_TIMING, {"at_first_out": 0, "at_end": 1}),
    "three_player_multiplier": (K.V_THREE_MULT, {"default": 0, "literal_17": 1}),
    "revolution": (K.V_REVOLUTION, {"false": 0, "true": 1}),
    "loser_exchange": (K.V_LOSER_EXCHANGE, {"none": 0, "offer_two": 1, "winner_gives_one": 2}),
    "suit_order": (K.V_SUIT_ORDER, {"true": 1, "false": 0}),
    "triple_is_bomb": (K.V_MIN_BOMB, {"false": 4, "true": 3}),
}
DECKS = {"4p_54": (4, 54, 54), "4p_52": (4, 52, 52), "3p_54": (3, 54, 54), "3p_52": (3, 52, 51)}
TWO_DECKS = "5to8p_108"  # 4(c)1: 5 to 8 players, two 54-card decks dealt out (108 cards)
TWO_DECK_PLAYERS = range(5, 9)


def copies(variants: dict | None) -> int:
    """How many copies of each card the deck variant in force holds (2 with two decks)."""
    return 2 if rules().resolve_variants(variants)["deck"] == TWO_DECKS else 1


def _check_variants(variants: dict | None) -> dict:
    """All variants with defaults; combinations that do not fit together are refused with a plain error."""
    full = rules().resolve_variants(variants)
    defaults = rules().resolve_variants({})
    if full["ruleset"] == "current_wiki":
        for name in NOT_UNDER_CURRENT:
            if full[name] != defaults[name]:
                raise CardlabError(
                    f"variant {name}={full[name]} does not apply under ruleset=current_wiki (a bomb "
                    "is n of a kind alone and there is no straight-flush class)"
                )
    elif full["triple_is_bomb"] == "true":
        raise CardlabError(
            "variant triple_is_bomb=true belongs to ruleset=current_wiki; add --variant ruleset=current_wiki"
        )
    if full["triple_is_bomb"] == "true" and full["deck"] == TWO_DECKS:
        raise CardlabError(f"variant triple_is_bomb=true is for one deck (the current article), not deck={TWO_DECKS}")
    if full["suit_order"] == "false":
        for name in NEEDS_SUIT_ORDER:
            if full[name] != defaults[name]:
                raise CardlabError(f"variant {name}={full[name]} needs a suit order; drop suit_order=false")
    return full


def variant_array(variants: dict | None) -> np.ndarray:
    full = _check_variants(variants)
    zv = np.zeros(K.N_VARIANTS, dtype=np.int64)
    for name, (slot, codes) in VARIANT_CODES.items():
        zv[slot] = codes[full[name]]
    zv[K.V_MIN_STRAIGHT] = 3 if full["ruleset"] == "legacy_wiki" else 5
    zv[K.V_CURRENT] = 1 if full["ruleset"] == "current_wiki" else 0
    return zv


def deck_for(variants: dict | None):
    """The deck of the variant in force: without jokers where its deck has none (52 cards)."""
    full = rules().resolve_variants(variants)
    if full["deck"] != TWO_DECKS and DECKS[effective_deck(full)][1] == 52:
        return DECK.without_jokers()
    return DECK


def _encode(text: str, variants: dict | None) -> tuple[int, int]:
    """Card text to the kernel's multiset under the deck variant (two copies of a card only with two decks,
    jokers only where the deck has them)."""
    return deck_for(variants).multiset(text, copies(variants))


def effective_deck(full: dict) -> str:
    """The deck variant in force: under ruleset legacy_wiki a 54-card deck becomes the 52-card one."""
    if full["ruleset"] == "legacy_wiki":
        return LEGACY_DECKS.get(full["deck"], full["deck"])
    return full["deck"]


def classify_mask(
    mask: int | tuple[int, int], zv: np.ndarray | None = None, revolution: bool = False
) -> tuple[int, int, int]:
    """(kind, length, key) of a card bit set, or a multiset ``(cards, dups)``, under the variants ``zv``
    (the defaults if None); ``revolution``: the keys in the reversed order of a revolution in force (variant 7)."""
    mask, dup = mask if isinstance(mask, tuple) else (mask, 0)
    z = variant_array({}) if zv is None else zv
    kind, length, key = K.classify(np.uint64(mask), np.uint64(dup), z, int(revolution))
    return int(kind), int(length), int(key)


def play_text(ms: tuple[int, int], zv: np.ndarray | None = None) -> str:
    """A play's cards as a player reads them: lowest first in the game's order (twos high), but a straight (of
    singles, pairs or triples; a straight flush) that runs through the two from its low end (ZS-5: A(low) 2 3 ...):
    A-2-3-4-5 as "AC 2C 3D 4H 5S", not "3D 4H 5S AC 2C". The text parses back to the same cards either way."""
    text = cards_of(*ms)
    cards = text.split()
    if not any(c.startswith("2") for c in cards):
        return text
    kind = classify_mask(ms, zv)[0]
    if not kind or "straight" not in K.KIND_NAMES[kind]:
        return text
    return " ".join(sorted(cards, key=lambda c: {"A": 0, "2": 1}.get(c[0], 2)))  # stable: the rest keep their order


def _describe(ms: tuple[int, int], zv: np.ndarray | None = None) -> dict:
    kind, length, key = classify_mask(ms, zv)
    return {
        "cards": play_text(ms, zv),
        "type": K.KIND_NAMES[kind] if kind else "not a combination",
        "type_index": kind,
        "length": length,
        "key": key if kind else None,
    }


def evaluate(sets: list[str], variants: dict | None = None) -> pd.DataFrame:
    """Type (ZS-5), number of cards and comparison key of each card set."""
    zv = variant_array(variants)
    if not sets:
        raise CardlabError('give at least one card set, e.g. "3D 3S"')
    df = pd.DataFrame([_describe(_encode(t, variants), zv) for t in sets])
    df["key"] = df["key"].astype("Int64")
    return df


def beats_table(current: str, play: str, variants: dict | None = None) -> pd.DataFrame:
    """Whether ``play`` may be played on ``current`` (ZS-4, ZS-6), with the reason."""
    zv = variant_array(variants)
    for opt, text in (("--current", current), ("--play", play)):
        if not text.strip():
            raise CardlabError(f'{opt} is empty: give its cards, e.g. "4H 4S"')
    cur_ms, play_ms = _encode(current, variants), _encode(play, variants)
    _check_disjoint(cur_ms, play_ms, copies(variants), "the play and the current play")
    cur = _describe(cur_ms, zv)
    new = _describe(play_ms, zv)
    if cur["type_index"] == 0:
        raise CardlabError(f"the current play {current!r} is not a combination")
    ck, cn, ckey = classify_mask(cur_ms, zv)
    k, n, key = classify_mask(play_ms, zv)
    ok = bool(K.beats(ck, cn, ckey, k, n, key, zv))
    if k == 0:
        reason = "the play is not a combination"
    elif k == K.K_STRAIGHT_FLUSH:
        reason = (
            "a straight flush beats anything but a higher straight flush of the same length"
            if ok
            else "a straight flush beats another only with the same length and a higher lowest card"
        )
    elif k == K.K_BOMB:
        reason = (
            "a bomb beats any play but a higher bomb or a straight flush"
            if ok
            else "a bomb cannot beat a straight flush or a higher bomb"
        )
    elif ck in (K.K_BOMB, K.K_STRAIGHT_FLUSH):
        reason = f"only a higher bomb or a straight flush beats a {K.KIND_NAMES[ck]}"
    elif k != ck or n != cn:
        reason = "a play must be of the same type and number of cards"
    else:
        reason = "higher" if ok else "not higher (equal does not beat)"
    return pd.DataFrame(
        [
            {
                "current": cur["cards"],
                "current_type": cur["type"],
                "play": new["cards"],
                "play_type": new["type"],
                "beats": ok,
                "reason": reason,
            }
        ]
    )


def _check_disjoint(a: tuple[int, int], b: tuple[int, int], n_copies: int, what: str) -> None:
    """Two card multisets from one deal: together they hold each card at most as often as the deck does."""
    (am, ad), (bm, bd) = a, b
    both = am & bm
    if both and (n_copies == 1 or (both & (ad | bd))):
        code = (both & -both).bit_length() - 1
        card = DECK.card(code)
        many = "once" if n_copies == 1 else "twice"
        raise CardlabError(f"{what} both hold {card}: the deck holds each card {many}")


def max_hand(variants: dict | None) -> int:
    """The most cards a dealt hand holds under the deck variant in force (ZS-1): the deck over its fewest
    players, rounded up (one deck, 3 players: 18; 4 players: 14; two decks, 5 players: 22)."""
    full = _check_variants(variants)
    deck = effective_deck(full)
    if deck == TWO_DECKS:
        return -(-108 // TWO_DECK_PLAYERS[0])
    P, _, n_deal = DECKS[deck]
    return -(-n_deal // P)


def moves(hand: str, current: str | None = None, variants: dict | None = None) -> pd.DataFrame:
    """Every legal play from ``hand``, on lead or over ``current``."""
    compile_note(GAME, K.generate_moves)  # the move generator compiles for about 10 s on a first run
    zv = variant_array(variants)
    n_copies = copies(variants)
    h, hd = _encode(hand, variants)
    n_hand = int(h).bit_count() + int(hd).bit_count()
    most = max_hand(variants)
    if n_hand == 0:
        raise CardlabError('--hand is empty: give its cards, e.g. "3D 4C 4H"')
    if n_hand > most:
        deck = effective_deck(_check_variants(variants))
        raise CardlabError(f"a hand of {n_hand} cards: with the deck {deck} a dealt hand holds at most {most} (ZS-1)")
    ck = cn = ckey = 0
    if current:
        m, md = _encode(current, variants)
        # a card can be in the hand and on the table only as often as the deck holds it
        if m & h if n_copies == 1 else (md & h) | (hd & m):
            raise CardlabError(
                "the current play shares cards with the hand"
                if n_copies == 1
                else "the hand and the current play hold a card three times: two decks hold two"
            )
        ck, cn, ckey = classify_mask((m, md), zv)
        if ck == 0:
            raise CardlabError(f"the current play {current!r} is not a combination")
    out = K.new_moves()
    n = int(K.generate_moves(np.uint64(h), np.uint64(hd), ck, cn, ckey, out, zv, 0))
    if n >= K.MAX_MOVES:
        raise CardlabError(f"more than {K.MAX_MOVES} legal plays: give a smaller hand")
    rows = [_describe((int(x), int(y)), zv) for x, y in out[:n]]
    return pd.DataFrame(rows, columns=["cards", "type", "type_index", "length", "key"])


# ---------------------------------------------------------------------------------------------
# Simulation (whole games), paired comparisons, the value of holding a card
# ---------------------------------------------------------------------------------------------


#: the strategy of every seat not given one (``--strategy``)
DEFAULT_STRATEGY = "greedy"
STRATEGIES = {
    "random": (K.POLICY_RANDOM, K.BOMB_EARLY, 0),
    "greedy": (K.POLICY_GREEDY, K.BOMB_EARLY, 0),
    "greedy-hold": (K.POLICY_GREEDY, K.BOMB_HOLD, 0),
    "greedy-stop": (K.POLICY_GREEDY, K.BOMB_STOP, 3),
    "planning": (K.POLICY_PLANNING, K.BOMB_STOP, 3),
    "search": (K.POLICY_SEARCH, 0, 1000),  # budget (rollouts a decision); how it is spent below (kernels/ucb.py)
}
#: the search player's rollouts a decision by default (``search:BUDGET``: spent by sequential halving on common
#: layouts; ``search:BUDGET:C``: by UCB1 with exploration constant C; kernels/ucb.py)
SEARCH_BUDGET = 1000
FEATURES = {
    "3D": (0, 0),
    "RJ": (0, 53),
    "BJ": (0, 52),
    "2S": (0, 51),
    "2H": (0, 50),
    "2C": (0, 49),
    "2D": (0, 48),
    "bomb": (1, 0),
    "straight_flush": (2, 0),
}


def _table(players: int | None, variants: dict | None):
    """(players, deck array, cards dealt, variant array) from --players and the deck variant (ZS-1, 4(c)1)."""
    full = _check_variants(variants)
    full["deck"] = effective_deck(full)
    if full["deck"] == TWO_DECKS:
        # two 54-card decks, every card dealt (ZS-1, 4(c)1): 5 players 22/22/22/21/21 ... 8 players 14 or 13
        P = TWO_DECK_PLAYERS[0] if players is None else rules().check_players(players)
        if P not in TWO_DECK_PLAYERS:
            decks = [d for d, (p, _, _) in DECKS.items() if p == P]
            raise CardlabError(f"the deck {TWO_DECKS} is for 5 to 8 players, not {P}; use --variant deck={decks[0]}")
        return P, np.tile(np.arange(54, dtype=np.int64), 2), np.int64(108), variant_array(variants), full
    P_deck, size, n_deal = DECKS[full["deck"]]
    P = P_deck if players is None else rules().check_players(players)
    if P != P_deck:
        decks = [d for d, (p, _, _) in DECKS.items() if p == P] or [TWO_DECKS]
        raise CardlabError(
            f"the deck {full['deck']} is for {P_deck} players, not {P}; use "
            + " or ".join(f"--variant deck={d}" for d in decks)
            + (" (18 cards each, or 17 and one left over: 4(c)1)" if P == 3 else "")
        )
    deck = np.arange(54 if size == 54 else 52, dtype=np.int64)
    return P, deck, np.int64(n_deal), variant_array(variants), full


def strategy_table(spec: list[str] | None, P: int) -> tuple[np.ndarray, list[str]]:
    """Per-seat strategy rows (policy, bomb policy, threshold, 0; the search player: policy, 0, budget,
    exploration: UCB1's C x 1000, -1 for sequential halving) from ``--strategy`` values."""
    names = seat_assignments(spec, P, DEFAULT_STRATEGY, STRATEGIES, parameterized=("search",))
    rows = np.array([_strategy_row(n) for n in names], dtype=np.int64)
    return rows, [search_label(n, SEARCH_BUDGET) for n in names]


def _strategy_row(name: str) -> list[int]:
    if name.partition(":")[0] != "search":
        return [*STRATEGIES[name], 0]
    budget, c = search_setting(name, SEARCH_BUDGET)
    return [K.POLICY_SEARCH, 0, budget, search_explore(c)]


def needs_full(strat: np.ndarray) -> bool:
    """Whether a seat of these strategy rows plays other than the greedy players (random, planning, search): its
    kernels are then the ``*_full`` ones, with every player compiled in. The others compile the greedy players
    only, less compiling on a first run (kernels.zheng_shangyou.game, above ``_search_hook``). A search, planning
    or random seat also tells the kernels that the run will reach that player, so that a first run compiles it
    ahead in a helper process (kernels/_extern.py)."""
    if (strat[:, 0] == K.POLICY_SEARCH).any():
        expect(K.search.search_play)
    if (strat[:, 0] == K.POLICY_PLANNING).any():
        expect(K.players._planning_play, K.players.plan_hand)
    if (strat[:, 0] == K.POLICY_RANDOM).any():
        expect(K.leads.random_lead)
    return bool((strat[:, 0] != K.POLICY_GREEDY).any())


def chunk_for(*strats: np.ndarray) -> int | None:
    """The chunk size of a spec whose seats play these strategy rows: small where one searches."""
    return SEARCH_CHUNK if any((s[:, 0] == K.POLICY_SEARCH).any() for s in strats) else None


def simulation_spec(
    players: int | None = None,
    variants: dict | None = None,
    strategies: list[str] | None = None,
    games_per_match: int = 1,
) -> KernelSpec:
    """Whole games (or matches of consecutive games, the Loser dealing) with per-seat strategies."""
    P, deck, n_deal, zv, full = _table(players, variants)
    if games_per_match < 1:
        raise CardlabError(f"bad --games-per-match {games_per_match}: expected a positive integer")
    strat, names = strategy_table(strategies, P)
    args = (np.int64(P), deck, n_deal, strat, np.int64(games_per_match), zv)
    return KernelSpec(
        game=GAME,
        kernel="kernels.zheng_shangyou:" + ("simulate_full_chunks" if needs_full(strat) else "simulate_chunks"),
        args=args,
        n_counts=K.counts_width(P),
        tabulate=tabulate,
        describe={"players": P, "variants": full, "strategies": names, "games_per_match": games_per_match},
        precision_measures=("winner", "match_top") if games_per_match > 1 else ("winner",),
        chunk_size=chunk_for(strat),
        pooled_by_chunks=True,
        counted_measures=("score_distribution",),  # a row per score that some game ended with (tabulate)
    )


def tabulate(counts: np.ndarray, trials: int, spec: KernelSpec) -> pd.DataFrame:
    P = int(spec.describe["players"])
    c = np.asarray(counts)
    seat = c[: P * K.S_FIELDS].reshape(P, K.S_FIELDS)
    hist = c[P * K.S_FIELDS : P * K.S_FIELDS + K.SCORE_BINS]
    games = int(c[P * K.S_FIELDS + K.SCORE_BINS + K.M_GAMES])
    rows = []
    for s, r, n in [(s, seat[s], games) for s in range(P)] + [(None, seat.sum(axis=0), games * P)]:
        # pooled over the seats, three rows are fixed by the rules (each game has one Winner and one player in
        # each place, ZS-7; the scores are paid from seat to seat, ZS-8): exact, not sampled
        fixed = fixed_by_rules if s is None else (lambda row: row)
        rows.append(fixed(proportion_row("winner", s, r[K.S_WIN], n)))
        rows.append(fixed(mean_row("score", s, r[K.S_SCORE], r[K.S_SCORE_SQ], n)))
        for pl in range(P):
            rows.append(fixed(proportion_row("place", s, r[K.S_PLACES + pl], n, place=pl + 1)))
    per = int(spec.describe.get("games_per_match", 1))
    if per > 1:  # matches: each seat's total over the match, and who ended alone on top (ties: nobody)
        matches = games // per
        for s, r, n in [(s, seat[s], matches) for s in range(P)] + [(None, seat.sum(axis=0), matches * P)]:
            rows.append(proportion_row("match_top", s, r[K.S_MATCH_TOP], n))
            score = mean_row("match_score", s, r[K.S_MATCH_SCORE], r[K.S_MATCH_SCORE_SQ], n)
            rows.append(fixed_by_rules(score) if s is None else score)  # a match's scores add to 0, as a game's
    tot = seat.sum(axis=0)
    rows.append(mean_row("winner_gain", None, tot[K.S_WIN_SCORE], tot[K.S_WIN_SCORE_SQ], games))
    rows.append(proportion_row("winner_given_3D", None, tot[K.S_WIN_3D], tot[K.S_HOLDS_3D]))
    rows.append(mean_row("score_given_3D", None, tot[K.S_SCORE_3D], tot[K.S_SCORE_SQ_3D], tot[K.S_HOLDS_3D]))
    for s in range(P):
        rows.append(proportion_row("holds_3D", s, seat[s, K.S_HOLDS_3D], games))
    for f, name in enumerate(("bomb", "straight_flush", "red_joker", "two_or_more_twos")):
        rows.append(proportion_row("dealt", None, tot[K.S_FEATURE + 2 * f], games * P, feature=name))
        rows.append(
            proportion_row(
                "winner_given_dealt", None, tot[K.S_FEATURE + 2 * f + 1], tot[K.S_FEATURE + 2 * f], feature=name
            )
        )
    for b in np.nonzero(hist)[0]:
        rows.append(proportion_row("score_distribution", None, hist[b], games * P, score=int(b) - 100))
    df = frame(rows)
    for col in ("place", "score"):
        if col in df.columns:
            df[col] = df[col].astype("Int64")
    if "feature" in df.columns:
        df["feature"] = df["feature"].astype(object).where(df["feature"].notna(), None)
    # rows over every seat's game with no seat's own row: their intervals from the jackknife (driver), as the
    # seats of one game are not independent (one seat holds the red joker: 0.25 exactly)
    df.attrs["pooled_measures"] = ("dealt", "winner_given_dealt", "score_distribution")
    # the games of a match are not independent (the last Winner leads the next game): every row's interval from
    # the jackknife over chunks of whole matches (a seat's score row had been 15% too narrow at 8 games a match)
    df.attrs["dependent_trials"] = per > 1
    return df


#: the parts of a paired score, after win and score (kernels.zheng_shangyou.paired, PAIR_PARTS on, in order)
SCORE_PARTS = ("score_won", "score_lost", "lost_multiplied", "cards_left")


def _paired_rows(c: np.ndarray, measure: str, seat, extra: dict) -> list[dict]:
    """The paired rows of one seat's (or the pool's) PAIR_STATS: win, score, and where the score comes from
    (SCORE_PARTS: the points of games won and of games lost, the share of games lost at x2 or x3, the cards
    held when the Winner went out), each a mean of A, of B and B - A with its interval."""
    from ..stats import paired_difference

    c = np.asarray(c, dtype=float)
    n = c[0]
    parts = [("win", c[3], c[4], c[1], c[2]), ("score", c[7], c[8], c[5], c[6])]
    for k, what in enumerate(SCORE_PARTS):
        a, b, d, d2 = c[K.PAIR_PARTS + 4 * k : K.PAIR_PARTS + 4 * k + 4]
        parts.append((what, d, d2, a, b))
    rows = []
    for what, d, d2, a, b in parts:
        m, se, lo, hi = paired_difference(d, d2, n)
        if what == "win":  # a difference of two chances: the normal interval of a few trials may pass ±1
            lo, hi = max(lo, -1.0), min(hi, 1.0)
        rows.append(
            {
                "measure": f"{measure}_{what}",
                "seat": seat,
                **extra,
                "trials": int(n),
                "field_value": a / n if n else np.nan,
                "challenger_value": b / n if n else np.nan,
                "estimate": float(m),
                "std_error": float(se),
                "ci_low": float(lo),
                "ci_high": float(hi),
            }
        )
    return rows


def compare_spec(field: str, challenger: str, players: int | None = None, variants: dict | None = None) -> KernelSpec:
    """Each seat in turn plays ``challenger`` while the others play ``field``, on the same deals."""
    P, deck, n_deal, zv, full = _table(players, variants)
    a, (field, *_) = strategy_table([field], P)  # the names as printed (a search player's budget spelled out)
    b, (challenger, *_) = strategy_table([challenger], P)

    def tab(counts, trials, spec):
        c = np.asarray(counts).reshape(P, K.PAIR_STATS)
        rows = []
        for s in list(range(P)) + [None]:
            rows += _paired_rows(
                c.sum(axis=0) if s is None else c[s],
                "challenger_minus_field",
                s,
                {"field": field, "challenger": challenger},
            )
        df = pd.DataFrame(rows)
        df["seat"] = df["seat"].astype("Int64")
        return df

    return KernelSpec(
        game=GAME,
        kernel="kernels.zheng_shangyou:"
        + ("compare_full_chunks" if needs_full(a) or needs_full(b) else "compare_chunks"),
        args=(np.int64(P), deck, n_deal, a, b, zv),
        n_counts=P * K.PAIR_STATS,
        tabulate=tab,
        describe={
            "players": P,
            "variants": full,
            "field": field,
            "challenger": challenger,
            "analysis": "paired comparison",
        },
        precision_measures=("challenger_minus_field_win",),
        chunk_size=chunk_for(a, b),
        pooled_by_chunks=True,  # the pooled row: each seat switching in turn on the same deal
        counted_measures=(),  # a table of zero counts has every row
    )


def card_value_spec(
    feature: str, strategy: str = "greedy", players: int | None = None, variants: dict | None = None
) -> KernelSpec:
    """The value of holding ``feature`` (a card such as RJ or 2S, 'bomb' or 'straight_flush'), paired."""
    P, deck, n_deal, zv, full = _table(players, variants)
    if full["deck"] == TWO_DECKS:
        raise CardlabError(
            f"the value of holding a card is measured with one deck; {TWO_DECKS} deals each card "
            "twice (accepted decks: " + ", ".join(DECKS) + ")"
        )
    if feature not in FEATURES:
        raise CardlabError(f"unknown feature {feature!r}; accepted: {accepted(FEATURES)}")
    kind, target = FEATURES[feature]
    if kind == 0 and target not in set(np.asarray(deck).tolist()):
        raise CardlabError(
            f"{feature} is not in this deck (deck={full['deck']}); features there: "
            + ", ".join(f for f, (k, t) in FEATURES.items() if k != 0 or t in set(np.asarray(deck).tolist()))
        )
    strat, names = strategy_table([strategy], P)

    def tab(counts, trials, spec):
        c = np.asarray(counts)
        rows = _paired_rows(c[2:], "without_minus_with", None, {"feature": feature})
        for r in rows:  # report the value of holding it: with - without
            r["measure"] = r["measure"].replace("without_minus_with", "value_of_holding")
            r["estimate"], r["ci_low"], r["ci_high"] = -r["estimate"], -r["ci_high"], -r["ci_low"]
        df = pd.DataFrame(rows).rename(columns={"field_value": "with", "challenger_value": "without"})
        df["seat"] = df["seat"].astype("Int64")
        df["accepted_share"] = c[1] / c[0] if c[0] else np.nan
        return df

    return KernelSpec(
        game=GAME,
        kernel="kernels.zheng_shangyou:" + ("card_value_full_chunks" if needs_full(strat) else "card_value_chunks"),
        args=(np.int64(P), deck, n_deal, strat, np.int64(kind), np.int64(target), zv),
        n_counts=2 + K.PAIR_STATS,
        tabulate=tab,
        describe={"players": P, "variants": full, "feature": feature, "strategy": names[0], "analysis": "card value"},
        precision_measures=("value_of_holding_win",),
        chunk_size=chunk_for(strat),
        counted_measures=(),  # a table of zero counts has every row
    )


def hand_sizes(P: int, n_deal: int) -> list[int]:
    """Each seat's cards (seat 0 deals): ``n_deal`` cards one at a time from the dealer (ZS-1), so the first
    ``n_deal % P`` seats hold one more."""
    return [n_deal // P + (1 if s < n_deal % P else 0) for s in range(P)]


def _hands_without_bomb(copies: int, jokers: int, size: int) -> int:
    """The hands of ``size`` cards with fewer than four cards of every rank: the coefficient of x^size in
    (sum_{k<4} C(4 copies, k) x^k)^13 (1 + x)^jokers (each rank's cards chosen apart, jokers freely)."""
    poly = [1]
    for factor in [[comb(4 * copies, k) for k in range(4)]] * 13 + [[comb(jokers, k) for k in range(jokers + 1)]]:
        out = [0] * (len(poly) + len(factor) - 1)
        for i, x in enumerate(poly):
            for j, y in enumerate(factor):
                out[i + j] += x * y
        poly = out
    return poly[size] if size < len(poly) else 0


def exact_hand_features(
    players: int | None = None, variants: dict | None = None, cards: int | None = None
) -> pd.DataFrame:
    """Exact probabilities for a dealt hand of each size the deck variant deals (ZS-1, 4(c)1), or of ``cards``
    cards when given: four or more cards of a rank (a bomb), the jokers, exactly k twos. Counted exactly (a
    generating function over the ranks for the bomb), for one deck or two."""
    P, deck, n_deal, zv, full = _table(players, variants)
    two = full["deck"] == TWO_DECKS
    n_cards, copies = len(deck), (2 if two else 1)
    jokers = n_cards - 52 * copies  # 2 per deck, or none
    if cards is not None and not 1 <= cards <= n_cards:
        raise CardlabError(f"bad --cards {cards}: the deck has {n_cards} cards (1..{n_cards})")
    sizes = [cards] if cards is not None else sorted(set(hand_sizes(P, int(n_deal))), reverse=True)
    rows = []
    for size in sizes:
        total = comb(n_cards, size)
        bomb = (total - _hands_without_bomb(copies, jokers, size)) / total  # exact integers, one rounding
        rows.append({"hand_size": size, "feature": "four of a kind (a bomb)", "probability": bomb})
        if jokers:
            red = copies  # red jokers in the pack, as many black ones
            rows.append(
                {
                    "hand_size": size,
                    "feature": "the red joker" if not two else "a red joker",
                    "probability": (total - comb(n_cards - red, size)) / total,
                }
            )
            both = (total - 2 * comb(n_cards - red, size) + comb(n_cards - 2 * red, size)) / total
            rows.append(
                {
                    "hand_size": size,
                    "feature": "both jokers" if not two else "a black and a red joker",
                    "probability": both,
                }
            )
        for k in range(4 * copies + 1):
            rows.append(
                {
                    "hand_size": size,
                    "feature": f"exactly {k} two{'' if k == 1 else 's'}",
                    "probability": comb(4 * copies, k) * comb(n_cards - 4 * copies, size - k) / total,
                }
            )
    return pd.DataFrame(rows)


EXACT_TABLES = ("hand-features",)


def exact(
    table: str, players: int | None = None, variants: dict | None = None, cards: int | None = None
) -> pd.DataFrame:
    """``cardlab exact zheng-shangyou hand-features [--players P] [--cards N]``."""
    if table not in EXACT_TABLES:
        raise CardlabError(f"unknown table {table!r} for {GAME} exact; accepted: {accepted(EXACT_TABLES)}")
    return exact_hand_features(players, variants, cards)


# ---------------------------------------------------------------------------------------------
# The report (reports/zheng-shangyou/)
# ---------------------------------------------------------------------------------------------


# ---------------------------------------------------------------------------------------------
# The game interface (analysis.games.base)
# ---------------------------------------------------------------------------------------------


class ZhengShangyou(Game):
    trial_noun = "games"
    id = GAME
    parameterized_strategies = ("search",)
    slow_strategies = ("search",)
    compare_also = ("challenger_minus_field_score", "points a game")
    position_document_fields = {
        "trick": 'the play on the table as {"current": "CARDS", "by": SEAT} (the same as current and by)'
    }
    partial_records = True
    review_notes = (
        "Zheng Shangyou's verdict and best go by the chance to go out first (the score breaks ties), so a worse "
        "action may score more (a negative loss_score). Once the Winner is out the scores are settled (ZS-8) and what "
        "is left to lose is the chance to end last (the Loser): those decisions go by it, as the advisor's do, in "
        "the columns last_taken, last_best and loss_last (the taken action's chance minus the best's, paired on the "
        "same layouts, where it is clearly worse, else 0; with its 95% interval), and the summary counts them apart. A record of a game you played may give only "
        'your own dealt hand ("hands": {"2": "3D 4C ..."}) with every play you saw: the other seats then hold '
        'unknown cards, and only your seat is reviewed; a later game of a match gives its "dealer" and '
        '"leader" (seeds/zheng-shangyou.md, Records and reviews).'
    )
    simulate_epilog = (
        "Measures, per seat (seat 0 deals the first game, ZS-1) and pooled: winner (going out first), score "
        "(ZS-8's points a game), place (the order going out); deal-wide: winner_gain (the Winner's points), "
        "winner_given_3D and score_given_3D (the holder of the 3 of diamonds, who leads the first game), holds_3D "
        "(by seat: with 4 players and 54 cards seats 0 and 1 are dealt 14 cards, the others 13, ZS-1), "
        "dealt and winner_given_dealt (a bomb, a straight flush, the red joker, two or more twos in the hand), "
        "score_distribution. With --games-per-match N every row but match_top and match_score counts every game "
        "of the matches (trials x N games; pooled rows x players): later games are led by the previous Winner "
        "(later_game_leader), so winner_given_3D there is not the first game's advantage, which one game a match "
        "measures. The rows' trials column says what each counts. The pooled winner and place rows are "
        "1/players, and the pooled score 0, by construction (one Winner a game; the points add up to 0): a seat's "
        "advantage is its row against them."
    )
    card_notes = (
        "Cards: ranks 3 (low) to A, then 2 (twos high), then the jokers BJ (black) and RJ (red) as single cards; "
        "suits D < C < H < S break ties between single cards and pairs of equal rank; straights run A (low) 2 3 "
        "... K A (high), no wrap-around, and other combinations go by rank (ZS-2, ZS-5)."
    )
    odds_epilog = (
        "Each action is played on by the models (--strategy, default greedy) at every seat, the deciding seat's "
        "own later turns included: its chances are those of the action followed by that player's play, so a "
        "stronger model (search:50) may rank the actions otherwise. Which to read: greedy's chances are those "
        "against players like cardlab's greedy ones (quick; the field of the report's figures); search's are a "
        "stronger player's (one search seat at the default budget among three greedy ones goes out first in about "
        "half the games, README; search:50 about 0.42 of them), slower. Where the two rank the actions alike, either answer stands; where they disagree, play "
        "search's choice against strong players. "
        "Measures, per action, every action on the same sampled layouts: win (the chance to go out first, the "
        "Winner), score (ZS-8's points of this game for the seat, from this position on), last (the chance to end "
        "last: the Loser, who deals the next game), diff_win, diff_score and diff_last (the action minus the best, "
        "paired, with 95% intervals). The best action goes out first most often, the score breaking ties; once the "
        "Winner is out (--finished), under score_timing=at_first_out (the default) the scores were taken then and "
        "no action moves them: the chance to end last ranks the actions (an action is worse where diff_last's 95% "
        "interval lies above zero; --precision holds it), and the answer says so; under score_timing=at_end the "
        "score ranks them."
    )
    compare_epilog = (
        "Measures (each the switching seat's mean under the field and the challenger, and their paired difference, "
        "challenger - field): win (going out first), score (ZS-8's points a game), and where the score comes "
        "from: score_won (the points of the games won, 0 in the others) plus score_lost (the points paid in the "
        "games lost, negative) make score; lost_multiplied is the share of all games that the seat lost at x2 or x3 (ZS-8: 10 "
        "cards or more held with 4 players, 12 with 3, or none played); cards_left the cards held when the Winner "
        "goes out (0 for the Winner; with score_timing=at_end, the Loser's cards at the end). "
        "Rows count seat-games: trials x players, pooled over the seats. In the rows and for --measure each "
        "name is prefixed: challenger_minus_field_win, challenger_minus_field_score, and so on."
    )
    strategy_notes = (
        f"search:BUDGET sets the search player's rollouts a decision (default {SEARCH_BUDGET}), {HALVING_HELP}; it "
        "plays in every command; as the models of odds or review every sampled "
        "game searches at every turn, so give a small budget there (search:50) (seeds/zheng-shangyou.md)"
    )
    simulate_options = (
        Option(
            "--games-per-match",
            "games per match, the Loser dealing the next (default 1); --trials then counts matches, and the "
            "measures match_top (alone on the highest total) and match_score (a seat's total) sum each match",
            type=positive_int,
        ),
        Option(
            "--value-of",
            "what holding a card is worth to its holder instead of the table of games: 3D, RJ (the red joker), BJ "
            "(the black joker), a two (2S, 2H, 2C, 2D), bomb or straight_flush (a hand that can make one). Each "
            "trial is one deal played twice with the same draws: as dealt, and with the holder's card swapped "
            "for a random card of another seat (a bomb or straight flush: a card of it); value_of_holding_win and "
            "value_of_holding_score are the holder's win chance and score with the card minus without, paired, "
            "over the deals where someone holds it (accepted_share: their share of the deals; 1 for a card always "
            "dealt, less for a bomb or a card of a deck that leaves some out); --all adds the score's parts "
            "(score_won, score_lost, lost_multiplied, cards_left: compare's help defines them). Not simulate's "
            "winner_given_3D, the 3D holder's win chance against the fair 1 / players: this is the same deal with "
            "and without the card, and the 3D's holder leads the first game (ZS-3), so its value includes that "
            "lead, and is as large as the field's play makes it. --strategy NAME plays every seat (one name)",
            choices=tuple(FEATURES),
            metavar="FEATURE",
        ),
    )
    exact_tables = EXACT_TABLES
    examples = {
        "evaluate": {"sets": ["3D 4D 5D 6D 7D", "2S 2H"]},
        "beats": {"current": "5S 5H", "play": "9C 9D"},
        "moves": {"hand": "3D 3S 4H 5C 6D 7S 2H BJ", "current": "4S"},
        "exact": {"table": "hand-features"},
        "compare": {"field": "greedy", "challenger": "planning"},
        "odds": {
            "run": {"trials": 64, "chunk_size": 32, "seed": 3},
            "hand": "3D 4D 9S 9H KC",
            "cards_left": {"1": 4, "2": 6, "3": 2},
            "current": "8S",
            "by": 3,
        },
        "report": {"scale": 0.002},
        "record": {"seed": 1},
        "review": {"record": str(seeds_dir() / "records" / "zheng-shangyou-example.json"), "seat": 2},
    }
    exact_options = (
        Option("--players", "number of players (the deck variant's if omitted)", type=positive_int),
        Option("--cards", "hand size (default: each size the deal gives at these players)", type=positive_int),
    )
    odds_options = (
        Option("--position", "a position document, a file or the JSON itself: a JSON object of the fields below, named as the flags "
               'with _ for -, e.g. {"hand": "5S 5H", "cards_left": {"1": 9}} (seeds/zheng-shangyou.md lists '
               "them); flags given override it (a SEAT=VALUE option seat by seat)"),
        Option("--decision", "play (default) or exchange: which card the Winner (--seat) gives back in the "
               "Loser's exchange, after the deal, the Winner's hand with the Loser's card (the Loser's is forced: its "
               "highest single); needs --variant loser_exchange=...; under offer_two the Winner offers two cards "
               "and the Loser takes the higher, so the row names the card taken", choices=("play", "exchange")),
        Option("--loser", "exchange: the previous game's Loser (it deals)", type=int, metavar="SEAT"),
        Option("--received", "exchange: the Loser's highest single, given to the Winner (also in --hand)", type=CARDS,
               metavar="CARD"),
        Option("--seat", "the deciding seat (default 0; seats are numbered clockwise, seat 0 the first game's dealer)", type=int),
        Option("--hand", "the deciding seat's cards", type=CARDS),
        Option("--cards-left", "how many cards another seat holds (one per seat in play)", action="append",
               metavar="SEAT=N"),
        Option("--current", "the play on the table (omit on lead)", type=CARDS),
        Option("--by", "the seat that made the current play", type=int, metavar="SEAT"),
        Option("--played", "cards known to be out of play (optional)", type=CARDS),
        Option("--known", "cards known to be in another seat's hand", action="append", metavar="SEAT=CARDS"),
        Option("--finished", "a seat already out, in the order they went out (repeatable)", action="append",
               type=int, metavar="SEAT"),
        Option("--revolution", "a revolution is in force (variant revolution=true)", action="store_true"),
        Option("--never-played", "a seat that has not played a card yet (repeatable; default: the seats holding "
               "a full dealt hand)", action="append", type=int, metavar="SEAT"),
    )  # fmt: skip

    def strategies(self):
        return tuple(STRATEGIES)

    def default_strategy(self):
        return DEFAULT_STRATEGY

    def simulation_spec(self, players=None, variants=None, strategies=None, **options):
        value_of = options.pop("value_of", None)
        if value_of is None:
            return simulation_spec(players, variants, strategy_items(strategies), **options)
        if options.get("games_per_match", 1) != 1:
            raise CardlabError("--value-of measures single games: leave out --games-per-match")
        names = strategy_items(strategies) or [DEFAULT_STRATEGY]
        if len(names) != 1 or "=" in names[0]:
            raise CardlabError(
                f"--value-of plays one strategy at every seat: give --strategy NAME, one name (got {' '.join(names)})"
            )
        return card_value_spec(value_of, strategy=names[0], players=players, variants=variants)

    def simulate_verdict(self, result: Result) -> str | None:
        """``--value-of``: one line on what holding the card is worth, with its intervals."""
        m, t = result.meta, result.table
        if m.get("analysis") != "card value":
            return None
        m["unit"] = "deal"  # each trial one deal, played with the card and without it
        w = t[t["measure"] == "value_of_holding_win"].iloc[0]
        sc = t[t["measure"] == "value_of_holding_score"].iloc[0]
        what = {"bomb": "a bomb", "straight_flush": "a straight flush"}.get(m["feature"], m["feature"])
        share = float(t["accepted_share"].iloc[0])
        dealt = int(w["trials"])  # the deals where someone held it: the rows count those
        if dealt < 2:  # none, or one (no spread to give an interval from): no value, not +nan
            how = "in none" if dealt == 0 else "in only 1"
            return (
                f"{what} was dealt {how} of the {m['trials']:,} deals: too few for a value; more --trials (a rare "
                "feature needs many: the rows count only the deals where someone holds it)"
            )
        if share < 1:  # not dealt in every deal: the rows count the deals with it
            what += f" (dealt in {100 * share:.1f}% of the deals, {round(share * m['trials']):,} here)"
        return (
            f"holding {what} is worth {100 * w['estimate']:+.2f} percentage points of win probability to its holder (95% interval "
            f"{100 * w['ci_low']:+.2f} to {100 * w['ci_high']:+.2f}) and {sc['estimate']:+.2f} points a game "
            f"({sc['ci_low']:+.2f} to {sc['ci_high']:+.2f}), every seat {m['strategy']}"
        )

    def evaluate(self, sets, variants=None):
        return evaluate(list(sets), variants)

    def beats(self, current, play, variants=None):
        return beats_table(current, play, variants)

    def moves(self, hand, current=None, variants=None):
        return moves(hand, current, variants)

    def exact(self, table, variants=None, **options):
        return exact(table, variants=variants, **options)

    def inert_variants(self, given, players, options):
        out = {}
        if "three_player_multiplier" in given and str(given["three_player_multiplier"]) != "default" and players != 3:
            out["three_player_multiplier"] = f"it applies with 3 players, not {players}"
        if int(options.get("games_per_match") or 1) == 1:
            for name, default in (("later_game_leader", "previous_winner"), ("loser_exchange", "none")):
                if str(given.get(name, default)) != default:
                    out[name] = "it applies between the games of a match: give --games-per-match 2 or more"
        return out

    def compare_spec(self, field, challenger, players=None, variants=None, **options):
        return compare_spec(field, challenger, players, variants, **options)

    def odds(self, run, variants=None, strategies=None, **position):
        from .zheng_shangyou_odds import odds, position_fields

        return odds(run.kwargs(), **position_fields(position, variants, strategies))

    def record(self, seed=0, players=None, variants=None, strategies=None):
        from .zheng_shangyou_review import record

        return record(seed, players, variants, strategy_items(strategies))

    def review(self, record, seat=None, run=None, strategies=None):
        from .zheng_shangyou_review import review

        doc, kwargs = self.review_inputs(record, run, strategies)
        return review(doc, seat=seat, **kwargs)

    def review_sections(self, result, record_name):
        from .zheng_shangyou_review import sections

        return sections(result, record_name)

    def report_sections(self, scale=1.0, seed=2026, progress=True):
        from ..sections import zheng_shangyou

        return zheng_shangyou.report(scale=scale, seed=seed, progress=progress)
