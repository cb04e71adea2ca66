"""Bismarck's advisor (``cardlab odds bismarck``, analysis/games/bismarck_odds.py): the kernel against the
reference on each sampled layout (the hand played on by heuristic players, BM-4; each layout solved double dummy
by brute force), the sampler (exactly uniform, never against a void, BM-4), positions with known answers, trump
naming (BM-9 2) and bad positions refused in one line."""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest

from analysis import cli
from analysis.driver import run_chunks
from analysis.errors import CardlabError
from analysis.games import bismarck_odds as bo
from kernels import bismarck as K
from kernels import rng
from kernels.advise import A_SAMPLES, advise_width
from kernels.bismarck.rules import made_quota
from tests.reference import bismarck as ref

SUITS = "CDHS"
RANKS = "23456789TJQKA"


def _codes(mask: int) -> set[int]:
    return {c for c in range(64) if (int(mask) >> c) & 1}


def _code(card: str) -> int:
    return SUITS.index(card[1]) * 16 + RANKS.index(card[0])


def _layouts(spec, key0: int, n: int):
    """The hands of samples 0..n-1 as the kernel draws them, each checked against the position: sizes, known
    cards, no suit a seat showed out of, nothing dealt twice or from outside the unseen cards."""
    seat, _d, _r, _t, hand, unknown, voids, need, known = (int(x) if np.ndim(x) == 0 else x for x in spec.args[:9])
    a, b = (seat + 1) % 3, (seat + 2) % 3
    st = rng.new_state()
    ways = np.zeros((5, 17, 17))
    out = np.zeros(2, dtype=np.uint64)
    for t in range(n):
        rng.seed_state(st, np.uint64(key0), np.uint64(0), np.uint64(t), np.uint64(rng.STREAM_DEAL))
        assert K.sample_hidden(np.uint64(unknown), voids[a], voids[b], need[a], need[b], st, ways, out)
        hands = [set(), set(), set()]
        hands[seat] = _codes(hand)
        hands[a] = _codes(out[0]) | _codes(known[a])
        hands[b] = _codes(out[1]) | _codes(known[b])
        for s in (a, b):
            assert len(_codes(out[0 if s == a else 1])) == need[s]
            assert not any((int(voids[s]) >> (c >> 4)) & 1 for c in hands[s])  # never against a void
        assert _codes(out[0]) | _codes(out[1]) <= _codes(unknown) and not _codes(out[0]) & _codes(out[1])
        yield t, hands


def _run(spec, n: int, key0: int = 5) -> np.ndarray:
    return run_chunks(
        spec.kernel, spec.args, np.zeros(1, dtype=np.int64), n, n, np.uint64(key0), np.uint64(0), spec.n_counts
    )[0]


def _sums(row: np.ndarray, A: int):
    W = advise_width(A)
    per = row[1 : 1 + 4 * A].reshape(A, 4)
    tricks = row[W + 1 : W + 1 + 4 * A].reshape(A, 4)[:, 1]
    return per[:, 0].tolist(), per[:, 1].tolist(), tricks.tolist()


# positions: the first lead; mid-hand on a trick in progress (voids shown); a misere round; round 2 with the
# drawn card shown; the order of the tricks forgotten (--played, --won, --leader)
HAND0 = "AS KS 2H 3H 4C 5C 6C 7C 8D 9D TD JD QH KH AH 2S"
POSITIONS = [
    dict(hand=HAND0, round=1, dealer=2),
    dict(
        seat=1,
        hand="AS 3S 4S 5S 2H 3H 4C 5C 8D 9D TD JD QH KH",
        round=2,
        trumps="H",
        dealer=0,
        shown="7H",
        tricks=["2C 9C AC", "QS 6S 2S"],
        current="JH",
    ),
    dict(
        seat=0,
        hand="2S 5S 9S 3H 6H TH 2C 7C JC 4D 8D QD KD",
        round=4,
        dealer=0,
        tricks=["3S 4S AS", "KS 6S 3C", "7S 8S 5C"],
        current="AD TD",
    ),
    dict(
        seat=2,
        hand="4S 5S 6S 7S 2H 3H 4H 5H 2D 3D 4D 5D",
        round=3,
        trumps="S",
        dealer=1,
        played="AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C",
        won=["0=2", "1=1", "2=1"],
        leader=2,
    ),
]


def _reference_heuristic(spec, n: int, key0: int = 5, variants: dict | None = None):
    """Per action, the sums over samples of (quota made, round score, tricks) by the reference's play_from."""
    args = spec.args
    dealer, rtype, trump = int(args[1]), int(args[2]), int(args[3])
    leader, trick = int(args[9]), [int(c) for c in args[10][: int(args[11])]]
    played, known_out, won, actions = _codes(args[12]), _codes(args[15]), [int(x) for x in args[17]], args[18]
    seat = int(args[0])
    role = ref.ROLES[(seat - dealer) % 3]
    variants = dict(variants or {})
    full = {**ref.DEFAULTS, **variants}
    out = Counter(), Counter(), Counter()
    for _t, hands in _layouts(spec, key0, n):
        for a, c in enumerate(actions):
            tricks, scores, _ = ref.play_from(
                hands, dealer, rtype + 1, trump, ["heuristic"] * 3, None, leader, trick,
                played, won, known_out, variants, forced=int(c) if c >= 0 else None,
            )  # fmt: skip
            q = ref.quota(rtype + 1, role, full)
            made = tricks[seat] >= q if rtype < 3 else tricks[seat] <= q
            out[0][a] += int(made)
            out[1][a] += scores[seat]
            out[2][a] += tricks[seat]
    return out


VARIANTS = [
    {},
    {"must_trump_when_void": "true", "below_quota_penalty": "true"},
    {"scoring": "simplified", "round4_start": "classic"},
]


@pytest.mark.parametrize("variants", VARIANTS)
@pytest.mark.parametrize("i", range(len(POSITIONS)))
def test_the_advisor_equals_the_reference_on_each_sample(i, variants):
    """Heuristic players play the hand on from each card (kernels.bismarck.play_from against the reference's
    play_from), on the same sampled layouts; the scoring variants of BM-6 and must-trump (3(c)6) too."""
    spec = bo.play_spec(strategies=["heuristic"], variants=variants, **POSITIONS[i])
    n = 6
    row = _run(spec, n)
    A = len(spec.describe["actions"])
    assert row[A_SAMPLES] == n
    made, score, tricks = _reference_heuristic(spec, n, variants=variants)
    assert _sums(row, A) == ([made[a] for a in range(A)], [score[a] for a in range(A)], [tricks[a] for a in range(A)])


# late positions (4 cards a hand) where brute force is quick: no trumps, a trump suit mid-trick, misere
_LATE_PLAYED = (
    "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD 2H 3H 4H 5H 6H 7H 8H 9H TH JH"
)
LATE = [
    dict(hand="AS 2S QH 3S", round=1, dealer=2, played=_LATE_PLAYED, won=["0=4", "1=4", "2=4"], leader=0),
    dict(seat=1, hand="AS 2S KH 3S", round=3, trumps="H", dealer=2, played=_LATE_PLAYED, won=["0=5", "1=4", "2=3"],
         leader=0, current="5S"),
    dict(seat=2, hand="AS 2S QH 3S", round=4, dealer=2, played=_LATE_PLAYED, won=["0=4", "1=4", "2=4"], leader=2),
]  # fmt: skip


# the same positions asked for a seat that is not to play (BM-4): the seat to play is 1, 0 and 0; and the last
# trick, which seat 0 led with its last card (its hand empty)
NOT_TO_PLAY = [
    dict(LATE[0], leader=1), dict(LATE[1], leader=2), dict(LATE[2], leader=0),
    dict(hand="", round=1, dealer=2, played=_LATE_PLAYED + " QH KH AH 2S 3S 4S 5S 6S 7S", won=["0=5", "1=5", "2=5"],
         leader=0, current="AS"),
]  # fmt: skip


@pytest.mark.parametrize("pos", [*LATE, *NOT_TO_PLAY])
def test_the_pimc_model_equals_brute_force_on_each_sample(pos):
    """The pimc model: each sampled layout solved double dummy (kernels.dd.card_values), against the reference's
    full minimax (the seat alone against the other two; in misere the two push tricks on it); when another seat
    is to play, the position's value (kernels.dd.solve_near)."""
    spec = bo.play_spec(strategies=["pimc"], **pos)
    n = 8
    row = _run(spec, n)
    args = spec.args
    seat, dealer, rtype, trump = (int(x) for x in args[:4])
    leader, trick = int(args[9]), [int(c) for c in args[10][: int(args[11])]]
    won, actions = [int(x) for x in args[17]], [int(c) for c in args[18]]
    me = 1 << seat
    maxteam = me if rtype < 3 else 7 ^ me
    role = ref.ROLES[(seat - dealer) % 3]
    made, score, tricks = Counter(), Counter(), Counter()
    for _t, hands in _layouts(spec, 5, n):
        for a, c in enumerate(actions):
            rest = [set(h) for h in hands]
            rest[seat].discard(c)
            # -1: another seat is to play, the position itself is valued
            t = won[seat] + ref.minimax(rest, trump, leader, [*trick, c] if c >= 0 else trick, maxteam, me)
            q = ref.quota(rtype + 1, role, ref.DEFAULTS)
            made[a] += int(t >= q if rtype < 3 else t <= q)
            score[a] += ref.score(rtype + 1, role, t, ref.DEFAULTS)
            tricks[a] += t
    A = len(actions)
    assert _sums(row, A) == ([made[a] for a in range(A)], [score[a] for a in range(A)], [tricks[a] for a in range(A)])


@pytest.mark.parametrize("pos", [dict(hand=HAND0, round=1, dealer=1), *NOT_TO_PLAY])
def test_another_seats_turn_is_answered_with_the_hand_played_on(pos):
    """ "Will I make my quota?" before the seat's turn: one row, the hand played on from the position by the
    heuristic players (the seat to play choosing its own card), against the reference's play_from; the answer
    names whose turn it is (BM-4) and gives the seat's chances, with no paired differences."""
    spec = bo.play_spec(strategies=["heuristic"], **pos)
    assert spec.describe["actions"][0].startswith("play on (seat ") and list(spec.args[18]) == [-1]
    n = 6
    row = _run(spec, n)
    made, score, tricks = _reference_heuristic(spec, n)
    assert _sums(row, 1) == ([made[0]], [score[0]], [tricks[0]])
    res = bo.odds({"trials": 8, "seed": 3}, strategies=["heuristic"], **pos)
    seat = pos.get("seat", 0)
    assert res.meta["answer"].startswith(f"Not seat {seat}'s turn: seat {res.meta['not_to_play'][5]} is to play (")
    assert f"seat {seat} makes its quota" in res.meta["answer"]
    assert set(res.table["measure"]) == {"win", "score", "tricks"} and set(res.table["verdict"]) == {""}
    # --precision holds the score's interval (there is no paired difference to hold): more than one look
    res = bo.odds({"precision": 0.1, "seed": 3, "chunk_size": 16}, strategies=["heuristic"], **pos)
    assert res.meta["precision_reached"] and res.meta["precision_measures"] == ["score"]
    s = res.table[res.table.measure == "score"].iloc[0]
    assert 1.96 * s.std_error <= 0.1 and (res.meta["trials"] > 16 or s.std_error == 0)


def test_the_not_to_play_header_says_how_the_layouts_were_valued(capsys):
    """The size line of a one-row answer before the seat's turn names the model's way: played on, or (pimc) each
    layout solved double dummy; no 'turn:' line (the answer says whose turn it is)."""
    pos = NOT_TO_PLAY[0]
    argv = ["odds", "bismarck", "--hand", pos["hand"], "--round", "1", "--dealer", "2", "--played", pos["played"],
            *[x for w in pos["won"] for x in ("--won", w)], "--leader", "1", "--trials", "8"]  # fmt: skip
    for model, words in (("heuristic", "each played on from the position"), ("pimc", "each solved double dummy")):
        assert cli.main([*argv, "--strategy", model]) == 0
        out = capsys.readouterr().out
        assert out.startswith("Not seat 0's turn") and f"8 sampled layouts, {words}" in out and "\nturn:" not in out


def test_score_intervals_stay_within_what_a_hand_can_score():
    """A misere hand whose round score is near 0 (BM-6: never below it by default): the normal interval of the
    mean would dip below 0; the table's is cut to 0 .. 4 (the dealer's left's allowance), tricks to 0 .. 16, while
    the standard error (what --precision holds) stays the uncut one's."""
    hand = "AS KS QS 7S AH JH 5H 2H KD TD 6D 3D QC 9C 4C 3C"
    res = bo.odds({"trials": 100, "seed": 0}, strategies=["heuristic"], hand=hand, round=4, dealer=2)
    t = res.table
    assert res.meta["score_bounds"] == [0, 4] or tuple(res.meta["score_bounds"]) == (0, 4)
    s = t[t.measure == "score"]
    assert ((s.estimate - 1.96 * s.std_error) < 0).any()  # the uncut interval would dip below 0
    assert (s.ci_low >= 0).all() and (s.ci_high <= 4).all()
    tr = t[t.measure == "tricks"]
    assert (tr.ci_low >= 0).all() and (tr.ci_high <= 16).all()


def _note_table(runner_verdict: str, win_interval: tuple[float, float], score_hi: float = 0.01) -> pd.DataFrame:
    """A two-action table as _tabulate leaves it: KC best, 4C the runner-up with its diff_win interval (the tricks
    not separated)."""
    rows = [("KC", "best", "diff_win", 0.0, 0.0), ("4C", runner_verdict, "diff_win", *win_interval)]
    rows += [("KC", "best", "diff_score", 0.0, 0.0), ("4C", runner_verdict, "diff_score", -0.09, score_hi)]
    rows += [("KC", "best", "diff_tricks", 0.0, 0.0), ("4C", runner_verdict, "diff_tricks", -0.3, 0.1)]
    return pd.DataFrame(
        [{"action": a, "verdict": v, "measure": m, "ci_low": lo, "ci_high": hi} for a, v, m, lo, hi in rows]
    )


def _answer(table: pd.DataFrame, misere: bool = False) -> str:
    """The answer line of a _note_table-like table with Bismarck's runner-up words (its win and score rows added)."""
    from functools import partial

    from analysis.advisor import answer_line

    extra = [
        {"action": a, "verdict": v, "measure": m, "estimate": e, "ci_low": e, "ci_high": e}
        for a, v in table.drop_duplicates("action")[["action", "verdict"]].itertuples(index=False)
        for m, e in (("win", 0.415 if v == "best" else 0.285), ("score", 0.12 if v == "best" else 0.09))
    ]
    full = pd.concat([table, pd.DataFrame(extra)], ignore_index=True)
    words = partial(bo.runner_up_words, full, misere=misere)
    return answer_line(full, "makes the quota", "round score", by_score=True, runner_up=words)


@pytest.mark.parametrize(
    "verdict, interval, ending",
    [
        ("uncertain", (-0.20, -0.06), "not separated on the round score but clearly less likely to make the quota)"),
        ("uncertain", (0.05, 0.20), "not separated on the round score but clearly more likely to make the quota)"),
        ("uncertain", (-0.20, 0.02), "28.5%, not separated)"),  # the quota not separated either: the plain words
    ],
)
def test_the_runner_up_words_say_what_the_quota_shows(verdict, interval, ending):
    """A runner-up not separated on the round score (the verdict's measure) but clearly apart on the quota: the
    answer line says which way (a new user read "not separated" alone as "it does not matter")."""
    line = _answer(_note_table(verdict, interval))
    assert line.startswith("Play KC: round score +0.12, makes the quota 41.5% (best; next 4C: +0.09, 28.5%, not")
    assert line.endswith(f"{ending}. More trials may change which of the two is best")


def test_the_runner_up_words_stay_off_where_the_line_says_more():
    """An 'equal' runner-up has its own words in the line; the note adds nothing there. A 'worse' one whose round
    score is not clearly lower says what separates it (the next test)."""
    assert _answer(_note_table("worse", (-0.2, -0.06), score_hi=0.0)).endswith(
        "clearly worse: less likely to make the quota, the round score not separated)"
    )
    assert _answer(_note_table("equal", (0.0, 0.0))).endswith("28.5%, the same on every layout)")


@pytest.mark.parametrize(
    "score_hi, win_hi, misere, ending",
    [
        (-0.01, -0.1, False, "28.5%, clearly worse)"),  # worse by the round score: the plain words
        (0.0, -0.1, False, "clearly worse: less likely to make the quota, the round score not separated)"),
        (0.0, 0.0, False, "fewer tricks (4.50 against 5.50), the round score and the quota not separated)"),
        (0.0, 0.0, True, "more tricks (6.50 against 5.50), the round score and the quota not separated)"),
    ],
)
def test_a_clearly_worse_runner_up_says_what_separates_it(score_hi, win_hi, misere, ending):
    """The verdict goes by the round score, then the quota, then the tricks (_tabulate). A new user read "name C:
    +0.00, 0.0%, clearly worse" (every suit under the quota scores 0) as a contradiction: where the score does not
    separate the runner-up, the line says what did (in the misere, the runner-up takes more tricks)."""
    d = 1 if misere else -1
    rows = [("KC", "best", m, 0.0, 0.0, 0.0) for m in ("diff_score", "diff_win", "diff_tricks")]
    rows += [("KC", "best", "tricks", 5.5, 5.0, 6.0), ("4C", "worse", "tricks", 5.5 + d, 5.0 + d, 6.0 + d)]
    rows += [("4C", "worse", "diff_score", 0.0, -0.2, score_hi), ("4C", "worse", "diff_win", 0.0, -0.2, win_hi)]
    rows += [("4C", "worse", "diff_tricks", float(d), min(0.2 * d, 1.8 * d), max(0.2 * d, 1.8 * d))]
    table = pd.DataFrame(
        [{"action": a, "verdict": v, "measure": m, "estimate": e, "ci_low": lo, "ci_high": hi} for a, v, m, e, lo, hi in rows]
    )  # fmt: skip
    assert _answer(table, misere).endswith(ending)


def test_the_runner_up_note_on_a_real_position_and_not_for_a_cycle():
    """On a misere position (BM-6: the score 0 on most layouts) the note appears exactly when the runner-up's
    quota interval is clear of 0 while its verdict is 'uncertain'; choose_round, whose actions are contracts
    with quotas of their own, never gets it."""
    hand = "AS 3S 4S 5S 2H 3H 4C 5C 8D 9D TD JD QH KH KC 7D"
    res = bo.odds({"trials": 200, "seed": 0}, strategies=["heuristic"], seat=2, hand=hand, round=4, dealer=0,
                  current="2C")  # fmt: skip
    t = res.table
    runner = t[t.verdict != "best"].action.iloc[0]
    d = t[(t.action == runner) & (t.measure == "diff_win")].iloc[0]
    clear = d.verdict == "uncertain" and (d.ci_high < 0 or d.ci_low > 0)
    assert ("but clearly" in res.meta["answer"]) == clear
    variants = {"fixed_round_order": "false", "round3_trump_timing": "after_seeing_hand"}
    res = bo.odds({"trials": 40, "seed": 1}, variants=variants, strategies=["heuristic"], decision="choose_round",
                  seat=2, dealer=2, hand=HAND0)  # fmt: skip
    assert "but clearly" not in res.meta["answer"]


def test_the_sampler_is_exactly_uniform_and_keeps_the_voids():
    """Every layout of the unseen cards consistent with the position is equally likely (chi-square), and none
    gives a seat a suit it showed out of: 8 unseen cards (2S 3S 4S 2H 3H 4H 2D 3D), seats 1 and 2 hold 2 each, 4
    are out of play, seat 1 showed out of hearts: C(5, 2) ways for seat 1, then C(6, 2) for seat 2 = 150."""
    unseen = "2S 3S 4S 2H 3H 4H 2D 3D".split()
    pos = dict(
        hand="AS KS", round=1, dealer=2, won=["0=5", "1=5", "2=4"], leader=0,
        played=" ".join(c for c in bo.DECK.text(bo.FULL).split() if c not in ["AS", "KS", *unseen]),
    )  # fmt: skip
    spec = bo.play_spec(**pos)
    args = list(spec.args)
    args[6] = np.array([0, 1 << 2, 0], dtype=np.int64)  # seat 1 showed out of hearts
    spec = replace(spec, args=tuple(args))
    n = 15000
    cells = Counter((frozenset(h[1]), frozenset(h[2])) for _, h in _layouts(spec, 11, n))
    assert len(cells) == 150
    expected = n / 150
    chi2 = sum((k - expected) ** 2 / expected for k in cells.values())
    assert chi2 < 208  # about the 0.999 quantile of chi-square with 149 degrees of freedom (Wilson-Hilferty)


def test_a_sure_trick_must_be_cashed():
    """Two cards each, no trumps, seat 0 on lead with AS 2C: AS wins whenever it is led, and then 2C may still
    win; led second it may be lost (thrown on a suit seat 0 cannot follow, BM-4). So AS is at least as good on
    every layout (brute force) and strictly better on some: the advisor says AS, 2C clearly worse."""
    unseen = "3D 4D KC 5D 6H 7H 8H 9H".split()
    pos = dict(
        hand="AS 2C", round=1, dealer=2, won=["0=5", "1=5", "2=4"], leader=0,
        played=" ".join(c for c in bo.DECK.text(bo.FULL).split() if c not in ["AS", "2C", *unseen]),
    )  # fmt: skip
    spec = bo.play_spec(**pos)
    better = 0
    for _t, hands in _layouts(spec, 5, 64):
        v = {}
        for c in (_code("AS"), _code("2C")):
            rest = [set(h) for h in hands]
            rest[0].discard(c)
            v[c] = ref.minimax(rest, -1, 0, [c], 1, 1)
        assert v[_code("AS")] >= v[_code("2C")]
        better += v[_code("AS")] > v[_code("2C")]
    assert better > 0
    res = bo.odds({"trials": 64, "seed": 5}, strategies=["pimc"], **pos)
    t = res.table
    assert res.meta["answer"].startswith("Play AS")
    d = t[(t.measure == "diff_tricks") & (t.action == "2C")].iloc[0]
    assert d.verdict == "worse" and d.ci_high < 0


def test_naming_the_long_suit():
    """Round 3 with trumps named after seeing the hand (3(c)3): ten spades from the ace down: naming spades is
    best, clearly, in tricks and round score."""
    variants = {"round3_trump_timing": "after_seeing_hand"}
    hand = "AS KS QS JS TS 9S 8S 7S 6S 5S AH KH AD KD AC 2C"
    res = bo.odds({"trials": 16, "seed": 2}, variants=variants, decision="name_trumps", seat=1, dealer=1, hand=hand,
                  strategies=["heuristic"])  # fmt: skip
    t = res.table
    assert res.meta["answer"].startswith("Name S")
    for s in "CDH":
        d = t[(t.measure == "diff_tricks") & (t.action == f"name {s}")].iloc[0]
        assert d.verdict == "worse" and d.ci_high < 0
    # --dealer alone: the dealer is the seat that names trumps (a new user's --dealer 2 had been refused as
    # "--seat 0 is not the --dealer 2", a --seat never typed); a widow's discard goes to its taker likewise
    res2 = bo.odds({"trials": 2, "seed": 2}, variants=variants, decision="name_trumps", dealer=2, hand=hand,
                   strategies=["heuristic"])  # fmt: skip
    assert any("seat 2 (the dealer)" in line for line in res2.header_lines())
    swedish_widow = {"widow_exchange": "swedish"}  # forehand, the dealer's left, takes the widow
    res3 = bo.odds({"trials": 2, "seed": 2}, variants=swedish_widow, decision="discard", dealer=0, round=1,
                   hand=DISCARD_POS["hand"], widow=DISCARD_POS["widow"], strategies=["heuristic"])  # fmt: skip
    assert res3.meta["seat"] == 1


def test_the_command_answers_first(capsys):
    argv = ["odds", "bismarck", "--hand", HAND0, "--round", "1", "--dealer", "2", "--trials", "8"]
    assert cli.main(argv) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].startswith("Play ") and "round score" in out.splitlines()[0]
    assert "model: the hand played on by the players named" in out
    # the default model's chances are against heuristic players; pimc may name another card (said where it is read)
    assert "--strategy pimc ranks the cards another way" in " ".join(out.split())
    # the verdict's measures in order, then the one that decides where the round score cannot be higher
    assert "the diff_score column, then diff_win, then diff_tricks, where it cannot be higher" in " ".join(out.split())
    assert "turn: seat 0 is to play (the dealer's left, seat 0, leads the first trick; BM-4)" in out
    assert cli.main([*argv, "--strategy", "pimc"]) == 0
    assert "model: pimc, each sampled layout solved double dummy: every card seen" in capsys.readouterr().out
    assert cli.main([*argv, "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert {r["measure"] for r in doc["rows"]} == {"win", "score", "tricks", "diff_win", "diff_score", "diff_tricks"}


DISCARD_POS = dict(decision="discard", seat=0, hand=HAND0, widow="3S 9C JC 4H", round=1)
WIDOW_VARIANT = {"widow_exchange": "dealer_takes_4_discards_4"}
SWEDISH = {"ruleset": "swedish"}
BAD = [
    (dict(hand=HAND0, round=1), "give --dealer"),
    (dict(hand=HAND0, dealer=2), "give --round"),
    (dict(hand=HAND0, round=5, dealer=2), "bad --round 5"),
    (dict(hand=HAND0, round=1, dealer=2, trumps="H"), "no trumps"),
    (dict(hand=HAND0, round=2, dealer=2), "give --trumps"),
    (dict(hand=HAND0, round=1, dealer=2, trumps="X"), "bad --trumps 'X'; accepted in round 1 (no trumps): NT"),
    (dict(hand=HAND0, round=2, dealer=2, trumps="NT"), "give --trumps C, D, H or S"),
    (dict(hand=HAND0, round=2, dealer=2, trumps="X"), "accepted in round 2 (drawn trumps): C, D, H, S"),
    (dict(hand="AS KS", round=1, dealer=2), "seat 0 holds 16"),
    (dict(hand=HAND0, round=1, dealer=2, current="3D"), "it led 3D to the current trick (the dealer's left leads"),
    (dict(hand=HAND0, round=1, dealer=2, current="3D 4D"), "it led 3D to the current trick (the dealer's left leads"),
    (dict(seat=1, hand=HAND0.rsplit(" ", 1)[0], round=1, dealer=2, current="3D"),
     "it has not played to the current trick, which seat 0 led with 3D (the dealer's left leads the first"),
    (dict(hand="AS KS 2H", round=1, dealer=2, current="3D"), "seat 0 holds 15 (BM-2)"),
    (dict(hand="", round=1, dealer=2), "--hand is empty"),
    (dict(hand=HAND0, round=1, dealer=2, leader=1), "(--leader is needed only with --played)"),
    (dict(hand=HAND0, round=1, dealer=2, tricks=["3D 4D"]), "a completed trick has 3 cards"),
    (dict(hand="AS KS 2H 3H 4C 5C 6C 7C 8D 9D TD JD QH KH AH", round=1, dealer=2, tricks=["2S 3S 4D", "5S 6S 7D", "4S 5D 8S"]), "showed out of S"),
    (dict(hand=HAND0, round=1, dealer=1, current="AS"), "AS in --hand and in --current: a card played has left the hand"),
    # 3(c)6: seat 2 neither followed nor trumped in trick 1, so it holds no trump; a trump from it later is refused
    (dict(hand="AS KS QS JS TS 9S 8S 7S 6S 5D 6D 7D 8D 9D", round=2, trumps="H", dealer=2,
          tricks=["2S 3S 4D", "5C 2H 6C"], variants={"must_trump_when_void": "true"}), "showed out of H earlier"),
    (dict(hand=HAND0, round=1, dealer=2, won=["0=1"]), "--won goes with --played"),
    (dict(hand=HAND0, round=1, dealer=2, shown="2D"), "round-2 trump card"),
    (dict(hand=HAND0, round=2, trumps="D", dealer=2, shown="2D 3D"), "--shown holds 2 cards: give the one card"),
    (dict(hand=HAND0, round=1, dealer=2, strategies=["dd"]), "models dd"),
    (dict(hand=HAND0, round=1, dealer=2, decision="bid"), "unknown decision"),
    (dict(hand=HAND0, decision="name_trumps", seat=2, dealer=2), "round3_trump_timing=after_seeing_hand"),
    (dict(hand=HAND0, decision="choose_round", seat=2, dealer=2), "fixed_round_order=false"),
    (dict(hand=HAND0, round=4, dealer=2, strategies=["pimc"]), "at most 12 cards"),
    (dict(hand=HAND0, decision="choose_round", seat=2, dealer=2, strategies=["pimc"],
          variants={"fixed_round_order": "false", "round3_trump_timing": "after_seeing_hand"}), "without 4"),
    (dict(hand="AS", round=1, dealer=2, played="2C 3C 4C", won=["0=0", "1=1", "2=0"], leader=2), "no trick"),
    (dict(DISCARD_POS), "needs a widow exchange"),
    (dict(DISCARD_POS, seat=1, dealer=0, variants=WIDOW_VARIANT), "that is seat 0, not --seat 1"),
    (dict(DISCARD_POS, widow="3S 9C JC", variants=WIDOW_VARIANT), "--widow holds 3 cards: give the 4"),
    (dict(DISCARD_POS, widow="3S 9C JC AS", variants=WIDOW_VARIANT), "named twice"),
    (dict(DISCARD_POS, tricks=["2C 3C 4C"], variants=WIDOW_VARIANT), "--tricks does not go with discard"),
    (dict(DISCARD_POS, round=2, trumps="D", variants=WIDOW_VARIANT), "give --shown"),
    (dict(DISCARD_POS, try_discard=["AS KS"], variants=WIDOW_VARIANT), "--try-discard 'AS KS': 4 different"),
    (dict(DISCARD_POS, round=4, strategies=["pimc"], variants=WIDOW_VARIANT), "at most 12 cards"),
    (dict(decision="contract", seat=1, widow="AS KS QS JS"), "ruleset=swedish"),
    (dict(decision="contract", seat=1, widow="AS KS QS JS", hand="2C", variants=SWEDISH), "face-up cards alone"),
    (dict(decision="contract", seat=1, widow="AS KS QS", variants=SWEDISH), "--widow holds 3 cards"),
    (dict(decision="contract", seat=1, widow="AS KS QS JS", remaining="5", variants=SWEDISH), "bad --remaining"),
    (dict(decision="contract", seat=1, dealer=1, widow="AS KS QS JS", variants=SWEDISH), "that is seat 2"),
    (dict(decision="contract", seat=1, widow="AS KS QS JS", strategies=["pimc"], variants=SWEDISH), "without 4"),
]  # fmt: skip


@pytest.mark.parametrize("pos, fragment", BAD)
def test_bad_positions_are_refused(pos, fragment):
    with pytest.raises(CardlabError, match=re.escape(fragment)):
        bo.odds({"trials": 4}, **pos)


def test_choosing_the_round():
    """3(c)9 with trumps named after seeing the hand: ten spades from the ace down. Naming spades in round 3 or
    playing no trumps takes nearly every trick; the misere round is the worst choice now (the dealer may take at
    most 6, BM-6), and the answer is the cycle's score (this hand and the types left on fresh deals)."""
    variants = {"fixed_round_order": "false", "round3_trump_timing": "after_seeing_hand"}
    hand = "AS KS QS JS TS 9S 8S 7S 6S 5S AH KH AD KD AC 2C"
    res = bo.odds({"trials": 32, "seed": 4}, variants=variants, decision="choose_round", seat=1, dealer=1,
                  hand=hand, remaining="1 3 4")  # fmt: skip
    t = res.table
    assert set(t.action) == {"round 1 (no trumps)", "round 4 (misere)", *(f"round 3, name {s}" for s in "CDHS")}
    assert "cycle score" in res.meta["answer"]
    d = t[(t.measure == "diff_score") & (t.action == "round 4 (misere)")].iloc[0]
    assert d.verdict == "worse" and d.ci_high < 0
    tr = t[t.measure == "tricks"].set_index("action")["estimate"]
    assert tr["round 3, name S"] >= 14 and tr["round 4 (misere)"] >= 10


# ---------------------------------------------------------------------------------------------------
# The widow discard (3(c)5, 3(c)10) and the Swedish contract (3(c)10)
# ---------------------------------------------------------------------------------------------------
DEALER_WIDOW = {"widow_exchange": "dealer_takes_4_discards_4"}
DISCARD = dict(decision="discard", seat=0, hand=HAND0, widow="3S 9C JC 4H", round=1)


def _hidden(unknown: int, key0: int, t: int, n: int = 16):
    """Sample ``t``'s two other hands (16 each, no voids) as the widow kernels draw them, and the cards left."""
    st = rng.new_state()
    rng.seed_state(st, np.uint64(key0), np.uint64(0), np.uint64(t), np.uint64(rng.STREAM_DEAL))
    out = np.zeros(2, dtype=np.uint64)
    assert K.sample_hidden(np.uint64(unknown), 0, 0, n, n, st, np.zeros((5, 17, 17)), out)
    return _codes(out[0]), _codes(out[1]), _codes(unknown) - _codes(out[0]) - _codes(out[1])


@pytest.mark.parametrize(
    "variants, pos",
    [
        (DEALER_WIDOW, DISCARD),
        # forehand takes the blog's face-up widow; round 2 with the trump card drawn from the leftover: 3 cards
        ({"widow_exchange": "swedish"}, dict(DISCARD, seat=1, round=2, trumps="D", widow="3S 9C JC", shown="2D")),
        # Swedish Bismarck's Pass: forehand throws its high cards (the heuristic's discard)
        ({"ruleset": "swedish"}, dict(DISCARD, seat=2, dealer=1, round=4)),
    ],
)
def test_the_discard_advisor_equals_the_reference_on_each_sample(variants, pos):
    """Each discard out of the seat's 20 (or 19) cards, the hand then played by heuristic players from the first
    lead (the kernel against the reference's play_hand, the seat alone knowing its discards); the screening
    kernel's sums are the same outcomes."""
    spec = bo.discard_spec(
        variants=variants, strategies=["heuristic"], **{k: v for k, v in pos.items() if k != "decision"}
    )
    seat, dealer, rtype, trump, held, unknown, known_out, discards = (spec.args[i] for i in range(8))
    seat, dealer, rtype, trump = int(seat), int(dealer), int(rtype), int(trump)
    A = len(discards)
    assert A >= bo.SHOWN and any("(the heuristic's)" in a for a in spec.describe["actions"])
    n = 5
    row = _run(spec, n)
    assert row[A_SAMPLES] == n
    full = {**ref.DEFAULTS, **variants}
    role = ref.ROLES[(seat - dealer) % 3]
    want = [[0] * A for _ in range(3)]
    for t in range(n):
        a_hand, b_hand, _ = _hidden(int(unknown), 5, t)
        for a, d in enumerate(discards):
            hands = [set(), set(), set()]
            hands[(seat + 1) % 3], hands[(seat + 2) % 3] = a_hand, b_hand
            hands[seat] = _codes(held) - _codes(d)
            assert len(hands[seat]) == 16 and _codes(d) <= _codes(held)
            tricks, scores, _ = ref.play_hand(
                hands, dealer, rtype + 1, trump, ["heuristic"] * 3, None, _codes(known_out), variants,
                private_out=(seat, _codes(d)),
            )  # fmt: skip
            q = ref.quota(rtype + 1, role, full)
            want[0][a] += int(tricks[seat] >= q if rtype < 3 else tricks[seat] <= q)
            want[1][a] += scores[seat]
            want[2][a] += tricks[seat]
    assert _sums(row, A) == tuple(want)
    screen = run_chunks(
        spec.kernel, (*spec.args[:-1], np.True_), np.zeros(1, dtype=np.int64), n, n, np.uint64(5), np.uint64(0), 3 * A
    )[0].reshape(A, 3)  # fmt: skip
    assert [screen[:, i].tolist() for i in range(3)] == want


def test_every_distinct_discard_once():
    """The screened discards: one for each way of choosing how many cards of each run of equal cards go (cards
    touching once the seat's own are set aside), so every 4 of the 20 cards is one of them, up to equal cards."""
    held = [_code(c) for c in (HAND0 + " 3S 9C JC 4H").split()]
    others = sum(1 << c for c in range(64) if (c & 15) < 13 and c not in held)
    classes = [set(c) for c in bo.equal_classes(held, others)]

    def shape(cards) -> tuple:
        return tuple(len(cls & set(cards)) for cls in classes)

    from itertools import combinations

    got = bo._distinct_discards(held, 4, others)
    assert len({shape(_codes(m)) for m in got}) == len(got)
    assert {shape(c) for c in combinations(held, 4)} == {shape(_codes(m)) for m in got}


def test_the_discard_answer_and_its_candidates():
    """The best discards found, the heuristic's and one the user tries, on the run's layouts; throwing the
    master spades is clearly worse than the heuristic's low cards."""
    res = bo.odds({"trials": 64, "seed": 3}, variants=DEALER_WIDOW, strategies=["heuristic"],
                  try_discard=["AS KS AH KH"], **DISCARD)  # fmt: skip
    actions = list(dict.fromkeys(res.table.action))
    assert len(actions) >= bo.SHOWN + 1 and "discard KH AH KS AS (tried)" in actions
    assert res.meta["answer"].startswith("Discard ")
    assert "distinct ones" in res.meta["model"]
    d = res.table[(res.table.measure == "diff_tricks") & (res.table.action == "discard KH AH KS AS (tried)")].iloc[0]
    assert d.verdict == "worse" and d.ci_high < -1


def test_the_contract_kernel_equals_the_reference_on_each_sample():
    """The Swedish contract with one contract left: forehand's 16 cards dealt from the unseen ones, the widow
    taken and 4 discarded by the heuristic (kernels.bismarck.discard, tested in test_bismarck_engine), the hand
    played by the reference; the score is the hand's alone."""
    variants = {"ruleset": "swedish"}
    full = {**ref.DEFAULTS, **variants}
    for remaining, label in (("3", "valfri, name H"), ("4", "pass")):
        spec = bo.contract_spec(variants=variants, strategies=["heuristic"], seat=1, widow="AH KH 2C 3D",
                                remaining=remaining)  # fmt: skip
        actions = spec.describe["actions"]
        assert label in actions
        n = 4
        row = _run(spec, n)
        unknown = int(spec.args[4])
        want = [[0] * len(actions) for _ in range(3)]
        for t in range(n):
            a_hand, b_hand, rest = _hidden(unknown, 5, t)
            for a, (rt, tr) in enumerate(zip(spec.args[5], spec.args[6])):
                h = np.uint64(sum(1 << c for c in rest) | int(spec.args[3]))
                kept, thrown = K.discard(h, 4, int(tr), rt == 3, K.S_HEURISTIC, rng.new_state())
                hands = [set(), _codes(kept), set()]
                hands[2], hands[0] = a_hand, b_hand
                tricks, scores, _ = ref.play_hand(
                    hands, 0, int(rt) + 1, int(tr), ["heuristic"] * 3, None, set(), variants,
                    private_out=(1, _codes(thrown)),
                )  # fmt: skip
                q = ref.quota(int(rt) + 1, "left", full)
                want[0][a] += int(tricks[1] >= q if rt < 3 else tricks[1] <= q)
                want[1][a] += scores[1]
                want[2][a] += tricks[1]
        assert _sums(row, len(actions)) == tuple(want)


def test_choosing_the_contract():
    """Swedish Bismarck (3(c)10): four top spades face up. Pass is clearly worse than spader now (forehand
    would take the four spades into its hand), and so is valfri naming clubs; spader and valfri naming spades
    play the same hand (the same tricks on every layout) and differ only in the contracts left for later."""
    res = bo.odds({"trials": 64, "seed": 4}, variants={"ruleset": "swedish"}, decision="contract", seat=1,
                  widow="AS KS QS JS")  # fmt: skip
    t = res.table
    assert set(t.action) == {"spel", "spader", "pass", *(f"valfri, name {s}" for s in SUITS)}
    assert "cycle score" in res.meta["answer"]
    est = t.set_index(["measure", "action"])["estimate"]
    assert (
        est["tricks", "spader"] == est["tricks", "valfri, name S"]
        and est["win", "spader"] == est["win", "valfri, name S"]
    )
    assert est["score", "spader"] - est["score", "pass"] > 2
    for worse in ("pass", "valfri, name C"):
        d = t[
            (t.measure == "diff_tricks" if worse == "valfri, name C" else t.measure == "diff_score")
            & (t.action == worse)
        ]
        assert d.iloc[0].verdict == "worse"


def test_equal_cards_as_the_only_choice():
    """BM-4: following a spade lead with only KS and AS, touching, is one row and one choice; the answer says the
    cards are equal rather than that one card is legal."""
    hand = "KS AS 2H 3H 4H 5H 6H 7C 8C 9C TC 2D 3D 4D 5D 6D"
    r = bo.odds({"trials": 8, "seed": 1, "progress": False}, seat=1, hand=hand, round=1, dealer=2, current="2S")
    assert r.table[r.table.measure == "score"].action.tolist() == ["KS (or AS)"]
    assert "Play KS (or AS): the only choice, its cards being equal" in r.meta["answer"]


def test_pimc_infer_values_the_choices_before_the_first_lead():
    """Naming trumps (3(c)3) plays whole hands from their first card, so pimc-infer players read the hand as it is
    played (no order is missing there): the model is taken, every suit valued."""
    variants = {"round3_trump_timing": "after_seeing_hand"}
    hand = "AS KS QS JS TS 9S 8S 7S 6S 5S AH KH AD KD AC 2C"
    res = bo.odds({"trials": 4, "seed": 2, "progress": False}, variants=variants, decision="name_trumps", seat=1,
                  dealer=1, hand=hand, strategies=["pimc-infer"], pimc_from=4, pimc_samples=4)  # fmt: skip
    assert sorted(res.table[res.table.measure == "score"].action) == [f"name {s}" for s in "CDHS"]
    assert res.meta["models"] == ["pimc-infer"] * 3


def test_a_document_trick_names_its_leader_as_bm4_has_it():
    """A position document's trick may name its leader; BM-4 fixes it (the dealer's left, then each winner), so a
    wrong one is refused rather than read past."""
    doc = {"hand": "KS 2H 3H 4C 5C 6C 7C 8D 9D TD JD QH KH AH 2S", "round": 1, "dealer": 2,
           "tricks": [{"leader": 1, "cards": "AS 3S 4S"}]}  # fmt: skip
    with pytest.raises(CardlabError, match="tricks\\[0\\] names leader 1, but seat 0 led it"):
        bo.position_fields({"position": dict(doc)}, None, None)
    doc["tricks"] = [{"leader": 0, "cards": "AS 3S 4S"}]
    assert bo.position_fields({"position": doc}, None, None)["tricks"] == ["AS 3S 4S"]


def test_the_header_says_the_deciding_seats_quota():
    """A player asking "will I make my quota?" reads the number in the header (BM-6), not from the role: forehand's
    4 in round 1, the dealer's 8, at most 4 in the misere (the blog's allowance), each kind of round where the
    round is the choice (the misere only while it is left to play); a review of every seat gives each role's. The
    quota is what ``win`` counts (``made_quota``), checked here against the kernel's own rule."""
    run = {"trials": 4}
    r = bo.odds(run, hand=HAND0, round=1, dealer=2)
    assert r.meta["quota"] == (
        "seat 0 (the dealer's left; the dealer is seat 2) makes its quota with 4 tricks or more (BM-6); round 1, "
        "no trumps"
    )
    assert "quota: seat 0 (the dealer's left" in r.to_text()
    bv = bo.variant_array({})
    assert made_quota(0, 1, 4, bv) and not made_quota(0, 1, 3, bv)  # the 4 the line names
    r = bo.odds(run, hand=HAND0, round=4, dealer=2)
    assert "makes its quota with at most 4 tricks (BM-6); round 4" in r.meta["quota"]
    assert made_quota(3, 1, 4, bv) and not made_quota(3, 1, 5, bv)
    variants = {"fixed_round_order": "false", "round3_trump_timing": "after_seeing_hand"}
    r = bo.odds(run, hand=HAND0, decision="choose_round", seat=2, dealer=2, variants=variants)
    assert (
        r.meta["quota"] == "seat 2 (the dealer) makes its quota with 8 tricks or more, in the misere at most 6 (BM-6)"
    )
    r = bo.odds(run, hand=HAND0, decision="choose_round", seat=2, dealer=2, variants=variants, remaining="1 3")
    assert r.meta["quota"] == "seat 2 (the dealer) makes its quota with 8 tricks or more (BM-6)"
    words = bo.quota_words({"seat": None, "dealer": 1, "rtype": 1, "trump": 0, "bv": bv})
    assert words == (
        "round 2, trumps C; each seat makes its quota with: the dealer (seat 1) 8 tricks or more, the dealer's left "
        "(seat 2) 4 tricks or more, the dealer's right (seat 0) 4 tricks or more (BM-6)"
    )
    swedish = bo.quota_words({"seat": 1, "dealer": 0, "rtype": 3, "trump": -1, "bv": bo.variant_array(SWEDISH)})
    assert (
        swedish
        == "seat 1 (the dealer's left; the dealer is seat 0) makes its quota with at most 4 tricks (3(c)10); the contract pass (avoid tricks)"
    )


def test_cards_with_the_best_outcome_on_every_layout_are_equal_not_uncertain():
    """A card whose quota, score and tricks are the best card's on every sampled layout is "equal" (no more
    trials would part them), not "uncertain"; every other verdict rests on a difference somewhere."""
    hand = "AS KS QS 7S AH JH 5H 2H KD TD 6D 3D QC 9C 4C 3C"
    t = bo.odds({"trials": 64, "seed": 0}, hand=hand, round=1, dealer=2).table
    diffs = t[t["measure"].isin(["diff_win", "diff_score", "diff_tricks"])]
    flat = diffs.groupby("action").apply(
        lambda g: bool((g["estimate"] == 0).all() and (g["ci_low"] == g["ci_high"]).all()), include_groups=False
    )
    verdict = t.drop_duplicates("action").set_index("action")["verdict"]
    assert (verdict == "equal").any()
    for action, v in verdict.items():
        if v != "best":
            assert (v == "equal") == flat[action], (action, v)


def test_the_pimc_model_runs_on_kernels_of_its_own_and_only_there():
    """The pimc model (no hand played on) has kernels without any player compiled (advise_*_dd_chunks); players
    that search or solve take the full ones, the others the plain ones; a kernel given the other's model refuses."""
    spec = bo.play_spec(strategies=["pimc"], hand=HAND0, round=1, dealer=2)
    assert spec.kernel == "kernels.bismarck:advise_play_dd_chunks"
    assert bo.play_spec(hand=HAND0, round=1, dealer=2).kernel == "kernels.bismarck:advise_play_plain_chunks"
    plain = bo.play_spec(hand=HAND0, round=1, dealer=2)
    with pytest.raises(ValueError, match="pimc model"):
        run_chunks(spec.kernel, plain.args, np.zeros(1, dtype=np.int64), 1, 1, np.uint64(1), np.uint64(2),
                   plain.n_counts)  # fmt: skip
    variants = {"round3_trump_timing": "after_seeing_hand"}
    assert bo.odds({"trials": 2}, variants=variants, strategies=["pimc"], hand=HAND0, decision="name_trumps",
                   seat=2, dealer=2).meta["trials"] == 2  # fmt: skip


def test_slow_models_spread_their_layouts_over_the_threads():
    """A layout with the pimc model (every card valued double dummy) or with solver or search seats playing on
    takes tens of milliseconds: such specs ask for small chunks (a run of 64 layouts had been one chunk, one
    thread); the heuristic's keep the default. The counts do not depend on the chunk size or the threads."""
    from analysis import driver
    from analysis.games.bismarck import SOLVER_CHUNK

    pos = {"hand": "AS KS 2H 3H 4C 5C 6C 7C 8D 9D TD JD QH KH AH 2S", "round": 1, "dealer": 2, "tricks": []}
    assert bo.play_spec(**pos).chunk_size is None
    assert bo.play_spec(**pos, strategies=["search:20"]).chunk_size == SOLVER_CHUNK["layout"]
    spec = bo.play_spec(**pos, strategies=["pimc"])  # its kernel compiled by the tests above: run here
    assert spec.chunk_size == SOLVER_CHUNK["layout"] < 16
    small = driver.run(spec, trials=20, seed=3, progress=False, threads=2)
    one = driver.run(spec, trials=20, seed=3, progress=False, threads=1, chunk_size=4096)
    assert small.meta["chunks"] == 3 and one.meta["chunks"] == 1
    assert small.rows() == one.rows()


PLAIN_HAND = "AS KS 2H 3H 4C 5C 6C 7C 8D 9D TD JD QH KH AH 2S"


def _plain_spec(name):
    if name == "play":
        return bo.play_spec(hand=PLAIN_HAND, round=1, dealer=2, strategies=["heuristic"])
    if name == "round":
        return bo.round_spec(
            hand=PLAIN_HAND,
            seat=1,
            dealer=1,
            strategies=["heuristic"],
            variants={"fixed_round_order": "false", "round3_trump_timing": "after_seeing_hand"},
        )
    return bo.discard_spec(hand=PLAIN_HAND, widow="3S 9C JC 4H", round=1, strategies=["heuristic"],
                           variants={"widow_exchange": "dealer_takes_4_discards_4"})  # fmt: skip


@pytest.mark.parametrize("name", ["play", "round", pytest.param("discard", marks=pytest.mark.slow)])
def test_the_plain_advisor_kernels_are_the_full_ones(name):
    """The advisor's plain kernels give the full kernels' counts on the same trials, heuristic players (the two
    flavours come from one factory, ``solvers`` on or off). The full card and round kernels are compiled in this
    file anyway (the pimc-infer model runs them: test_pimc_infer_values_the_choices_before_the_first_lead); the
    discard kernel's full flavour, which no other test of the default run compiles, is compared in the slow
    run."""
    spec = _plain_spec(name)
    assert spec.kernel.endswith("_plain_chunks")
    rows = [
        run_chunks(k, spec.args, np.zeros(1, dtype=np.int64), 6, 6, np.uint64(5), np.uint64(0), spec.n_counts)
        for k in (spec.kernel.replace("_plain_chunks", "_chunks"), spec.kernel)
    ]
    assert rows[0][0, 0] == 6 and (rows[0] == rows[1]).all()


def test_pimc_options_where_no_seat_uses_them_are_named():
    """--pimc-from and --pimc-samples set the solver seats that play a hand on; with the pimc model (each layout
    valued double dummy) or heuristic seats alone they change nothing, and a new user saw the same answer for
    every --pimc-from with no word: the CLI prints a note from these."""
    idle = bo._idle_player_options
    assert set(idle(["pimc"], {"pimc_from": 4, "pimc_samples": None})) == {"pimc_from"}
    assert "double dummy" in idle(["pimc"], {"pimc_from": 4})["pimc_from"]
    assert set(idle(None, {"pimc_samples": 8})) == {"pimc_samples"}  # the heuristic, the default model
    assert idle(["0=pimc", "1=heuristic", "2=heuristic"], {"pimc_from": 4}) == {}
    assert idle(["search:50"], {"pimc_from": 4}) == {}
    assert idle(["pimc"], {}) == {}
    # dd seats take over at --pimc-from cards but sample no layouts
    assert idle(["0=dd", "1=heuristic", "2=heuristic"], {"pimc_from": 4, "pimc_samples": 8}) == {
        "pimc_samples": "no seat plays pimc, pimc-infer or search"
    }


def test_the_note_on_an_idle_pimc_option_names_a_flag_or_the_position_field(capsys):
    """The note names the flag and its value, or the --position document's field (a reviewer's KeyError: the
    note had read the value from the flags only)."""
    doc = {"hand": "AS KS 2H 3H 4C 5C 6C 7C 8D 9D TD JD QH KH AH 2S", "round": 1, "dealer": 2, "pimc_from": 4}
    assert cli.main(["odds", "bismarck", "--position", json.dumps(doc), "--trials", "16", "--quiet"]) == 0
    assert "note: pimc_from in --position has no effect here: no seat plays" in capsys.readouterr().err
    argv = ["odds", "bismarck", "--hand", doc["hand"], "--round", "1", "--dealer", "2", "--pimc-samples", "8"]
    assert cli.main([*argv, "--trials", "16", "--quiet"]) == 0
    assert (
        "note: --pimc-samples 8 has no effect here: no seat plays pimc, pimc-infer or search" in capsys.readouterr().err
    )


def test_on_a_terminal_the_advisor_table_fits_its_width_and_says_what_it_left_out(capsys, monkeypatch):
    """A Bismarck answer's rows ran to 122 characters and wrapped on a terminal: there the headline measures go,
    the last first (tricks, then the quota's chance), until the table fits; the ranked measure (the round score)
    and the paired difference its verdicts go by stay, and one note says what was left out. A pipe keeps them."""
    import sys

    argv = ["odds", "bismarck", "--hand", "AS QS 5S 2H 3H KH 4C 9C JC 8D 9D TD JD QD AH 2S", "--round", "1",
            "--dealer", "2", "--trials", "32", "--quiet"]  # fmt: skip
    assert cli.main(argv) == 0
    piped = capsys.readouterr().out
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    for width, gone in ((120, ["tricks"]), (80, ["win", "tricks"])):
        monkeypatch.setenv("COLUMNS", str(width))
        assert cli.main(argv) == 0
        out = capsys.readouterr().out
        assert max(map(len, out.splitlines())) <= width < max(map(len, piped.splitlines()))
        head = next(line for line in out.splitlines() if line.split()[:2] == ["action", "verdict"]).split()
        assert "score" in head and "diff_score" in head and not set(gone) & set(head)
        assert f"({' and '.join(gone)} left out to fit the terminal's width" in out
        # the same actions in the same order with the same verdicts
        rows = [line.split()[:2] for line in out.splitlines() if line.split()[1:2] in (["best"], ["worse"])]
        assert rows and rows == [line.split()[:2] for line in piped.splitlines()
                                 if line.split()[1:2] in (["best"], ["worse"])]  # fmt: skip
