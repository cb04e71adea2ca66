"""Biscuits' advisor (issue 34, BI-13): the pass (BI-4) and the decisions inside a hand (the play, BI-5; the
Plain exchange and the Fancy handover, BI-10): the kernels against the reference on the same sampled layouts and
draws, the samplers (exact uniformity by enumeration), positions whose answer follows from the rules, the answer
table and the CLI."""

from __future__ import annotations

import itertools
import json
import math
import subprocess
import sys
from collections import Counter

import numpy as np
import pandas as pd
import pytest

from analysis import cli
from analysis.driver import run_chunks
from analysis.errors import CardlabError
from analysis.games import biscuits_odds as bo
from analysis.games.biscuits_odds import DECK
from kernels import biscuits as K
from kernels import rng
from kernels.advise import A_SAMPLES
from tests.reference import biscuits as ref
from tests.test_biscuits_game import legal_for

HAND = "2C 3D 4H 5S 7C 8D 9H TS JC QD KH AS 6C"


@pytest.mark.parametrize("models, seat, starter", [(["greedy"], 0, 0), (["random"], 1, 3), (["planning"], 2, 1)])
def test_the_advisor_equals_the_reference_on_each_sample(models, seat, starter):
    """Per sample: the 39 unseen cards dealt 13 to each other seat, every pass of the 78 tried with the same
    draws; the reference plays each hand (the other seats passing by their policies) to the same points."""
    spec = bo.pass_spec(hand=HAND, seat=seat, starter=starter, strategies=models)
    _seat, mask, pool, gives, _starter, strat, bv = spec.args
    assert len(gives) == 78 and len(set(gives.tolist())) == 78
    n = 6
    rows = run_chunks(spec.kernel, spec.args, np.zeros(1, dtype=np.int64), n, n, np.uint64(5), np.uint64(0),
                      spec.n_counts)[0]  # fmt: skip
    legal = legal_for(bv)
    st = rng.new_state()
    strategies = [tuple(int(x) for x in r) for r in strat]
    score = Counter()
    wins = Counter()
    for t in range(n):
        rng.seed_state(st, np.uint64(5), np.uint64(0), np.uint64(t), np.uint64(rng.STREAM_DEAL))
        deck = pool.copy()
        rng.partial_shuffle(st, deck, deck.shape[0])
        others = [s for s in range(4) if s != seat]
        hands = [set() for _ in range(4)]
        hands[seat] = {c for c in range(52) if (int(mask) >> c) & 1}
        for k, s in enumerate(others):
            hands[s] = set(int(c) for c in deck[13 * k : 13 * k + 13])
        assert set().union(*hands) == set(range(52)) and all(len(h) == 13 for h in hands)
        for a, g in enumerate(gives):
            rng.seed_state(st, np.uint64(5), np.uint64(0), np.uint64(t), np.uint64(rng.STREAM_STRATEGY))
            cards = {c for c in range(52) if (int(g) >> c) & 1}
            points, _, _ = ref.play_hand(
                hands, starter, strategies, legal, lambda k: int(rng.below(st, k)), forced=(seat, cards)
            )
            net = points[seat % 2] - points[1 - seat % 2]
            score[a] += net
            wins[a] += 1 if net > 0 else 0
    assert rows[A_SAMPLES] == n
    per = rows[1 : 1 + 4 * 78].reshape(78, 4)
    assert per[:, 1].tolist() == [score[a] for a in range(78)]
    assert per[:, 0].tolist() == [wins[a] for a in range(78)]


def test_the_unseen_cards_are_dealt_uniformly():
    """Each unseen card lands in each other seat with probability 1/3: chi-square over 39 x 3 cells."""
    spec = bo.pass_spec(hand=HAND, strategies=["greedy"])
    pool = spec.args[2]
    st = rng.new_state()
    cells = Counter()
    n = 3000
    for t in range(n):
        rng.seed_state(st, np.uint64(7), np.uint64(0), np.uint64(t), np.uint64(rng.STREAM_DEAL))
        deck = pool.copy()
        rng.partial_shuffle(st, deck, deck.shape[0])
        for i, c in enumerate(deck):
            cells[(int(c), i // 13)] += 1
    expected = n / 3
    chi2 = sum((cells[(int(c), k)] - expected) ** 2 / expected for c in pool for k in range(3))
    dof = 39 * 2  # each card's three cells sum to n
    limit = dof * (1 - 2 / (9 * dof) + 3.09 * math.sqrt(2 / (9 * dof))) ** 3  # the 99.9% point
    assert chi2 < limit, chi2


def test_the_answer_ranks_every_pass_by_points():
    r = bo.odds({"trials": 256, "chunk_size": 128, "seed": 1, "progress": False}, hand=HAND)
    t = r.table
    assert set(t.measure) == {"win", "score", "diff_win", "diff_score"}  # no Loser in Biscuits
    s = t[t.measure == "score"].reset_index(drop=True)
    assert len(s) == 78 and s.loc[0, "verdict"] == "best"
    assert s["estimate"].is_monotonic_decreasing
    d = t[(t.measure == "diff_score") & (t.verdict == "worse")]
    assert (d["ci_high"] < 0).all()
    assert r.meta["answer"].startswith(f"Pass {s.loc[0, 'action'][5:]}: net points ")
    assert r.meta["models"] == ["planning"] * 4
    # a short run leaves passes not separated from the best: the answer counts them and says the best may change
    k = int((s["verdict"] == "uncertain").sum())
    assert k > 1
    assert r.meta["answer"].endswith(
        f". {k} other actions are not separated from it at 95%: more trials may change which is best"
    )


def test_the_table_shows_the_passes_not_clearly_worse_and_the_best_of_the_others():
    """78 passes scrolled the answer off the screen: the table shows every pass not clearly worse than the best,
    then the best of the others up to ADVISOR_ROWS, and says how many it left out; --all and json keep all 78."""
    from analysis.tables import ADVISOR_ROWS

    r = bo.odds({"trials": 256, "chunk_size": 128, "seed": 1, "progress": False}, hand=HAND)
    s = r.table[r.table.measure == "score"].reset_index(drop=True)
    close = s.loc[s["verdict"] != "worse", "action"].tolist()
    shown = list(dict.fromkeys(close + s["action"].tolist()[:ADVISOR_ROWS]))
    text = r.to_text()
    lines = text.splitlines()
    head = next(i for i, line in enumerate(lines) if line.split()[:2] == ["action", "verdict"])
    # the rows end where the notes under the table begin (each a paragraph in parentheses)
    rows = [line.strip() for line in itertools.takewhile(lambda x: not x.startswith("("), lines[head + 1 :])]
    listed = [a for a in s["action"] if any(row.startswith(a + " ") for row in rows)]
    assert sorted(listed) == sorted(shown) and len(shown) < 78
    assert f"({78 - len(shown)} more actions, each clearly worse than the best, are left out" in text
    # those left out are each clearly worse and rank below the first ADVISOR_ROWS (the table is best first)
    hidden = s[~s["action"].isin(shown)]
    assert s["estimate"].is_monotonic_decreasing
    assert (hidden["verdict"] == "worse").all() and hidden["estimate"].max() <= s["estimate"].iloc[ADVISOR_ROWS - 1]
    assert all(f" {a} " in r.to_text(full=True) for a in s["action"])
    # measures asked for by name (not the ranking's verdicts): every action
    asked = r.to_text(measures=["win"])
    assert all(f" {a} " in asked for a in s["action"]) and "more actions" not in asked
    # the verdicts go by the paired difference, which a reader of overlapping intervals above it may miss: said
    assert "(a verdict goes by the paired difference, the diff_score column" in text
    # one row per action, as on the page: the estimate, the paired difference and the verdict side by side; the
    # seat once above the table
    assert lines[head].split()[2:] == [
        "score",
        "95%",
        "interval",
        "win",
        "95%",
        "interval",
        "diff_score",
        "95%",
        "interval",
    ]
    assert "seat: 0 (the deciding seat)" in lines[:head]
    assert len(rows) == len(shown)
    best = s.loc[0, "action"]
    cells = rows[0].split()
    n = len(best.split())
    assert cells[: n + 1] == [*best.split(), "best"] and abs(float(cells[n + 1]) - s.loc[0, "estimate"]) < 0.01
    assert "a verdict goes by" not in asked  # no diff rows shown there


def test_the_answer_counts_the_actions_not_separated_from_the_best():
    """The second sentence appears only where some action is 'uncertain' ('worse' and 'equal' are verdicts)."""
    from analysis.advisor import answer_line

    def table(verdicts):
        rows = []
        for i, v in enumerate(verdicts):
            a = f"{i + 2}C"
            rows += [{"measure": "win", "action": a, "verdict": v, "estimate": 0.5 - i / 10},
                     {"measure": "score", "action": a, "verdict": v, "estimate": 1.0 - i}]  # fmt: skip
        return pd.DataFrame(rows)

    assert answer_line(table(["best", "worse"])).endswith("clearly worse)")
    # every action the same as the best on every layout is named, the runner-up or not
    assert answer_line(table(["best", "equal", "equal"])).endswith(
        "the same on every layout). The same as the best on every layout as well: 4C"
    )
    assert answer_line(table(["best", "worse", "equal"])).endswith(
        "clearly worse). The same as the best on every layout: 4C"
    )
    runner_up = answer_line(table(["best", "uncertain", "worse"]))
    assert runner_up.endswith("not separated). More trials may change which of the two is best")
    assert answer_line(table(["best", "worse", "uncertain"])).endswith(
        "clearly worse). 1 other action is not separated from it at 95%: more trials may change which is best"
    )
    assert answer_line(table(["best", "worse", "uncertain", "uncertain"])).endswith(
        "clearly worse). 2 other actions are not separated from it at 95%: more trials may change which is best"
    )


def test_precision_holds_the_point_differences():
    r = bo.odds({"precision": 0.5, "chunk_size": 256, "seed": 2, "progress": False}, hand=HAND, strategies=["greedy"])
    d = r.table[(r.table.measure == "diff_score") & (r.table.verdict != "best")]
    half = (d.ci_high - d.ci_low) / 2
    assert ((half <= 0.5) | (d.ci_high < 0) | (d.ci_low > 0)).all()
    assert r.meta["precision_reached"]
    # the header names that rule: a row's interval may be wider than ±P where its difference is clear of zero
    assert "precision ±0.5 on the differences to the best, or clear of zero (reached)" in r.header_lines()[-1]
    # and the JSON says so too, where precision_achieved may be above the target (a new user read a contradiction)
    meta = json.loads(r.to_json())["meta"]
    assert meta["precision_rule"] == "±precision_target on the differences to the best, or clear of zero"


@pytest.mark.parametrize(
    "position, msg",
    [
        ({"hand": "2C 3D"}, "--hand holds 2 cards"),
        ({"hand": HAND, "seat": 4}, "bad --seat 4"),
        ({"hand": HAND, "starter": -1}, "bad --starter -1"),
        ({"hand": HAND, "decision": "discard"}, "unknown decision 'discard'"),
        ({"hand": HAND, "current": "5C", "by": 1}, "give --cards-left 1=N"),
        ({"hand": HAND, "decision": "pass", "cards_left": {"1": 3}}, "describes a position inside the hand"),
        ({"hand": HAND, "starter": 1, "cards_left": {"1": 3}}, "--starter is for the pass"),
        ({"hand": HAND, "strategies": ["nobody"]}, "unknown strategy 'nobody'"),
        # the card named twice is named (a new user had to find it)
        (
            {
                "hand": HAND,
                "decision": "play",
                "cards_left": {"1": 13, "2": 13, "3": 13},
                "known": {"1": "5C " + HAND[:2]},
            },
            f"--known 1: {HAND[:2]} named twice",
        ),
        (
            {"hand": HAND, "decision": "play", "cards_left": {"1": 13, "2": 13, "3": 12}, "played": HAND[:2]},
            f"--played names {HAND[:2]}, already in --hand",
        ),
    ],
)
def test_bad_positions_are_refused_in_one_line(position, msg):
    with pytest.raises(CardlabError) as e:
        bo.odds({"trials": 8, "progress": False}, **position)
    assert msg in str(e.value) and "\n" not in str(e.value)


def test_cli_flags_and_position_file_agree(tmp_path, capsys):
    doc = {"game": "biscuits", "seat": 1, "hand": HAND, "starter": 2, "models": "greedy"}
    f = tmp_path / "pos.json"
    f.write_text(json.dumps(doc))
    common = ["--trials", "64", "--chunk-size", "64", "--quiet", "--format", "json"]
    assert cli.main(["odds", "biscuits", "--position", str(f), *common]) == 0
    a = json.loads(capsys.readouterr().out)
    flags = ["--seat", "1", "--hand", HAND, "--starter", "2", "--strategy", "greedy"]
    assert cli.main(["odds", "biscuits", *flags, *common]) == 0
    b = json.loads(capsys.readouterr().out)
    assert a["rows"] == b["rows"] and len(a["rows"]) == 78 * 4
    p = subprocess.run([sys.executable, "-m", "analysis", "odds", "biscuits", "--help"], capture_output=True, text=True)
    assert "(default planning)" in p.stdout


# ---------------------------------------------------------------------------------------------------------
# Decisions inside a hand
# ---------------------------------------------------------------------------------------------------------

PHASES = {0: "turn", 1: "trick_end", 2: "return"}


def _codes(mask: int) -> set[int]:
    return {c for c in range(52) if (int(mask) >> c) & 1}


def _layouts(spec, key0: int, n: int):
    """The sampled hands of samples 0..n-1, dealt as the kernel deals them (a shuffle of the pool, dealt in
    seat order to fill each hand), each checked against the position."""
    (_seat, known, pool, counts, *_rest) = spec.args
    st = rng.new_state()
    for t in range(n):
        rng.seed_state(st, np.uint64(key0), np.uint64(0), np.uint64(t), np.uint64(rng.STREAM_DEAL))
        deck = pool.copy()
        rng.partial_shuffle(st, deck, deck.shape[0])
        i = 0
        hands = []
        for s in range(4):
            k = int(counts[s]) - int(known[s]).bit_count()
            hands.append(_codes(known[s]) | {int(c) for c in deck[i : i + k]})
            i += k
        # no sampled layout contradicts the position: sizes, known cards, nothing dealt twice or from outside
        assert [len(h) for h in hands] == [int(c) for c in counts]
        assert all(_codes(known[s]) <= hands[s] for s in range(4))
        assert sum(len(h) for h in hands) == len(set().union(*hands))
        assert set().union(*hands) <= set(pool.tolist()) | set().union(*(_codes(k) for k in known))
        yield t, hands


def test_a_card_received_and_not_in_the_hand_is_out_of_play():
    """--received without --played: a card the partner passed that is not in --hand was played by the seat, so
    no sampled layout deals it to another hand (a new user's --received "AC KD" had left KD among the hidden
    cards)."""
    pos = {"hand": "AC 5S 5H", "cards_left": {"1": 4, "2": 3, "3": 6}, "received": "AC KD"}
    spec = bo.state_spec(**pos)
    kd = DECK.mask("KD").bit_length() - 1
    assert kd not in spec.args[2].tolist()
    for _t, hands in _layouts(spec, 5, 50):
        assert not any(kd in h for h in hands)
    assert DECK.mask("AC").bit_length() - 1 not in spec.args[2].tolist()  # in the hand: not hidden either
    # unless --known places it: sent on to the partner in a Plain exchange (BI-10), every layout deals it there
    for _t, hands in _layouts(bo.state_spec(**pos, known={"2": "KD"}), 5, 50):
        assert kd in hands[2] and not any(kd in h for s, h in enumerate(hands) if s != 2)


def _force(fkind: int, value: int):
    if fkind == K.F_PLAY:
        return ("play", None if value == 0 else _codes(value))
    if fkind == K.F_HANDOVER:
        return ("handover", value == 1)
    if fkind == K.F_SEND:
        return ("send", None if value == 0 else min(_codes(value)))
    return ("return", min(_codes(value)))


def _reference_rows(spec, n: int, key0: int = 5):
    """Per action, the sums of win and net points over samples 0..n-1, by the reference's play_from."""
    (seat, _known, _pool, _counts, points0, out_count, turn, last, cur_kind, cur_key, passes, locked, phase,
     fkind, fvals, strat, bv, score0, score1, target) = spec.args  # fmt: skip
    legal = legal_for(bv)
    names = {K.V_PASS_LOCKS_OUT: "pass_locks_out", K.V_END_IMMEDIATE: "game_end_check"}
    v = {"pass_locks_out": "true" if bv[K.V_PASS_LOCKS_OUT] else "false",
         "game_end_check": "immediate" if bv[K.V_END_IMMEDIATE] else "end_of_hand"}  # fmt: skip
    assert set(names.values()) == set(v)
    strategies = [tuple(int(x) for x in r) for r in strat]
    st = rng.new_state()
    wins, score = Counter(), Counter()
    for t, hands in _layouts(spec, key0, n):
        for a, val in enumerate(fvals):
            rng.seed_state(st, np.uint64(key0), np.uint64(0), np.uint64(t), np.uint64(rng.STREAM_STRATEGY))
            points, _, _ = ref.play_from(
                hands, int(turn), strategies, legal, lambda k: int(rng.below(st, k)), v,
                points=tuple(int(x) for x in points0), outs=[-1] * int(out_count),
                current=None if cur_kind == 0 else (int(cur_kind), int(cur_key)), last=int(last),
                passes=int(passes), out_of_trick=_codes(locked), phase=PHASES[int(phase)],
                force=_force(int(fkind), int(val)), scores=(int(score0), int(score1)), target=int(target),
            )  # fmt: skip
            net = points[seat % 2] - points[1 - seat % 2]
            score[a] += net
            wins[a] += 1 if net > 0 else 0
    return wins, score


IN_HAND = [
    # the play: on lead, then over a Plain and a Fancy play, a partner out, the pass_locks_out variant
    dict(decision="play", hand="2C 5D 5H 9S JC KD", cards_left={"1": 7, "2": 6, "3": 8}),
    dict(
        decision="play",
        hand="2C 5D 5H 9S JC KD QS",
        cards_left={"1": 5, "2": 6, "3": 8},
        current="4C 4S",
        by=3,
        played="3D 3H",
        passed="AC AD",
    ),
    dict(
        decision="play",
        seat=2,
        hand="3C 4D 5H 6S 7C 9D 9H",
        cards_left={"0": 5, "1": 4},
        current="2S 3S 4S 5C 6C",
        by=1,
        finished=[3],
        hand_points={"NS": 0, "EW": 7},  # seat 2 still holds 7: it held at least that many when seat 3 went out
    ),
    dict(
        decision="play",
        seat=3,
        hand="7C 8C 9C 2D",
        cards_left={"0": 3, "1": 6, "2": 5},
        current="6D",
        by=1,
        variants={"pass_locks_out": "true"},
    ),
    # the Plain exchange: sent (or not), then given back; the Fancy handover
    dict(decision="exchange_send", seat=1, hand="2C 7H 9D QS", cards_left={"0": 4, "2": 3, "3": 5}),
    dict(
        decision="exchange_return",
        seat=3,
        hand="2C 7H 9D AS",
        cards_left={"0": 4, "1": 3, "2": 5},
        exchange_received="AS",
        known={"1": "KH"},
    ),
    dict(
        decision="handover",
        seat=0,
        hand="",
        finished=[0],
        hand_points={"NS": 6, "EW": 0},
        cards_left={"1": 4, "2": 2, "3": 6},
    ),
    dict(decision="handover", seat=1, hand="8C 8D 4S", cards_left={"0": 4, "2": 3, "3": 6}),
    # pass_locks_out with an earlier pass in the trick (seat 2 passed before seat 1's play): seats 2 and 3 are out
    dict(
        decision="play",
        seat=0,
        hand="7C 8C 9C 2D",
        cards_left={"1": 6, "2": 5, "3": 4},
        current="9D",
        by=1,
        trick_passed=[2],
        variants={"pass_locks_out": "true"},
    ),
    # the sender sent its last card: it holds none until the card comes back
    dict(
        decision="exchange_return",
        seat=3,
        hand="2C 7H 9D AS",
        cards_left={"0": 4, "1": 0, "2": 5},
        exchange_received="AS",
    ),
]


@pytest.mark.parametrize("models", [["greedy"], ["random"], ["planning"], ["greedy-actions"]])
@pytest.mark.parametrize("k", range(len(IN_HAND)))
def test_the_state_advisor_equals_the_reference_on_each_sample(k, models):
    """Per sample: the unseen cards dealt as the kernel deals them, each action forced first and the hand played
    on by the reference (tests/reference/biscuits.py play_from) to the kernel's win and points."""
    pos = dict(IN_HAND[k])
    spec = bo.state_spec(strategies=models, **pos)
    n = 5
    rows = run_chunks(spec.kernel, spec.args, np.zeros(1, dtype=np.int64), n, n, np.uint64(5), np.uint64(0),
                      spec.n_counts)[0]  # fmt: skip
    wins, score = _reference_rows(spec, n)
    A = len(spec.describe["actions"])
    per = rows[1 : 1 + 4 * A].reshape(A, 4)
    assert rows[A_SAMPLES] == n
    assert per[:, 1].tolist() == [score[a] for a in range(A)]
    assert per[:, 0].tolist() == [wins[a] for a in range(A)]


def test_the_in_hand_sampler_is_exactly_uniform():
    """Every layout of the unseen cards consistent with the position is equally likely: 6 unseen cards to fill
    seats 1, 2 and 3 (1, 2 and 3 of them, one card of seat 3 known): 6! / (1! 2! 3!) = 60 layouts, chi-square
    on the counts of each."""
    hand = "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC"
    unseen = "2D 3D 4D 5D 6D 7D"
    played = " ".join(c for c in bo.DECK.text((1 << 52) - 1).split() if c not in (hand + " " + unseen + " AS").split())
    spec = bo.state_spec(hand=hand, played=played, cards_left={"1": 1, "2": 2, "3": 4}, known={"3": "AS"})
    assert sorted(spec.args[2].tolist()) == sorted(bo.DECK.mask(c).bit_length() - 1 for c in unseen.split())
    n = 6000
    cells = Counter(tuple(frozenset(h) for h in hands[1:]) for _, hands in _layouts(spec, 11, n))
    assert len(cells) == 60
    expected = n / 60
    chi2 = sum((k - expected) ** 2 / expected for k in cells.values())
    dof = 59
    limit = dof * (1 - 2 / (9 * dof) + 3.09 * math.sqrt(2 / (9 * dof))) ** 3  # the 99.9% point
    assert chi2 < limit, chi2


RUN = {"trials": 256, "chunk_size": 128, "seed": 4, "progress": False}


def _rows(r):
    t = r.table
    return {(m, a): row for m, a, row in zip(t.measure, t.action, t.itertuples(index=False))}


def _exact(r, action: str, score: float, win: float):
    """The action's value is the same on every sample: no spread, the stated points and win."""
    by = _rows(r)
    assert by[("score", action)].estimate == score and by[("score", action)].std_error == 0
    assert by[("win", action)].estimate == win


def _best_and_clear(r, best: str):
    """``best`` ranks first and every other action is clearly worse (its paired interval below zero)."""
    by = _rows(r)
    assert by[("score", best)].verdict == "best"
    for (m, a), row in by.items():
        if m == "diff_score" and a != best:
            assert row.ci_high < 0, (a, row)


# the rest of the deck when every card but these is out of play (a fully known layout)
def _played_but(*cards: str) -> str:
    keep = set(" ".join(cards).split())
    return " ".join(c for c in bo.DECK.text((1 << 52) - 1).split() if c not in keep)


KNOWN = {
    # BI-8/BI-9: the partner is out; the pair is the seat's whole hand, so it goes out second and ends the hand:
    # N-S score 7 (so far: the fuller opponent hand when the partner went out, at least the 7 it holds now) + the
    # larger opponent hand (7) on every layout; splitting it can only do worse
    "pair_goes_out_second": (
        dict(decision="play", hand="5S 5H", finished=[2], hand_points={"NS": 7, "EW": 0}, cards_left={"1": 7, "3": 5}),
        "5H 5S",
        14.0,
        1.0,
    ),
    # BI-7 "same rank also beats": 7H on 7C goes out second (partner out): 6 + max(4, 6)
    "equal_rank_beats_and_ends_the_hand": (
        dict(
            decision="play",
            hand="7H",
            current="7C",
            by=1,
            finished=[2],
            hand_points={"NS": 6, "EW": 0},
            cards_left={"1": 4, "3": 6},
        ),
        "7H",
        12.0,
        1.0,
    ),
    # BI-7 (ii): a Triple beats a Pair (higher type in the group) whatever the count: out second, 9 + 9
    "triple_beats_a_pair": (
        dict(
            decision="play",
            hand="3C 3D 3H",
            current="KC KD",
            by=3,
            finished=[2],
            hand_points={"NS": 9, "EW": 0},
            cards_left={"1": 9, "3": 4},
        ),
        "3C 3D 3H",
        18.0,
        1.0,
    ),
    # BI-6/BI-7: a Straight Flush is the highest Fancy type: it beats the Straight and goes out: 8 + 8
    "straight_flush_over_a_straight": (
        dict(
            decision="play",
            hand="2C 3C 4C 5C 6C",
            current="9D TH JS QD KC",
            by=1,
            finished=[2],
            hand_points={"NS": 8, "EW": 0},
            cards_left={"1": 8, "3": 3},
        ),
        "2C 3C 4C 5C 6C",
        16.0,
        1.0,
    ),
    # BI-6: a Quad (four and any fifth card) beats a Full House of any rank: out second, 5 + 5
    "quad_over_a_full_house": (
        dict(
            decision="play",
            seat=1,
            hand="4C 4D 4H 4S 9C",
            current="AC AD AH KC KD",
            by=0,
            finished=[3],
            hand_points={"NS": 0, "EW": 5},
            cards_left={"0": 5, "2": 3},
        ),
        "4C 4D 4H 4S 9C",
        10.0,
        1.0,
    ),
    # BI-10 Fancy: the winner went out with its Fancy play; its partner holds one card and, handed the lead,
    # plays it and goes out second: 6 + max(4, 6); keeping the lead gives it to seat 1 (BI-11)
    "handover_to_a_partner_with_one_card": (
        dict(
            decision="handover",
            seat=0,
            hand="",
            finished=[0],
            hand_points={"NS": 6, "EW": 0},
            cards_left={"1": 4, "2": 1, "3": 6},
        ),
        "hand over the lead",
        12.0,
        1.0,
    ),
}


@pytest.mark.parametrize("name", sorted(KNOWN))
def test_positions_with_a_known_answer(name):
    """The best action's value is exact on every sampled layout; no other action scores more on any sample, so
    none is ranked above it (where the others lose often enough, their intervals clear zero)."""
    pos, best, score, win = KNOWN[name]
    r = bo.odds(dict(RUN), strategies=["greedy"], **pos)
    _exact(r, best, score, win)
    by = _rows(r)
    assert by[("score", best)].verdict == "best"
    for (m, a), row in by.items():
        if m == "diff_score" and a != best:
            assert row.estimate < 0 or row.ci_high == row.ci_low == 0, (a, row)
    if name != "triple_beats_a_pair":  # after a pass the seat mostly gets the lead back and goes out anyway
        _best_and_clear(r, best)


def test_a_lead_that_cannot_be_beaten_then_goes_out():
    """Every card known (the rest played): N-S's partner is out (3 points). The Ace cannot be beaten (E holds KD,
    W 3H): the seat wins the trick (no exchange under greedy), leads 2C and goes out second: 3 + 1 = +4. Leading
    2C first lets E play KD and go out second: E-W score max(1, 0) = 1, so +2."""
    pos = dict(decision="play", hand="AS 2C", finished=[2], hand_points={"NS": 3, "EW": 0},
               cards_left={"1": 1, "3": 1}, known={"1": "KD", "3": "3H"}, played=_played_but("AS 2C KD 3H"))  # fmt: skip
    r = bo.odds(dict(RUN), strategies=["greedy"], **pos)
    _exact(r, "AS", 4.0, 1.0)
    _exact(r, "2C", 2.0, 1.0)
    _best_and_clear(r, "AS")


def test_an_action_that_hands_the_opponents_the_hand_loses():
    """As above with N-S at 1 point: leading 2C lets E go out second and E-W level at 1 (not ahead: win 0); the
    Ace keeps the lead and the seat goes out: +2, ahead."""
    pos = dict(decision="play", hand="AS 2C", finished=[2], hand_points={"NS": 1, "EW": 0},
               cards_left={"1": 1, "3": 1}, known={"1": "KD", "3": "3H"}, played=_played_but("AS 2C KD 3H"))  # fmt: skip
    r = bo.odds(dict(RUN), strategies=["greedy"], **pos)
    _exact(r, "AS", 2.0, 1.0)
    _exact(r, "2C", 0.0, 0.0)
    _best_and_clear(r, "AS")


def test_a_plain_play_cannot_beat_a_fancy_one():
    """BI-7 (i): over a Straight, a hand of Plain cards has one action, the pass; the answer says so."""
    r = bo.odds(dict(RUN), strategies=["greedy"], decision="play", hand="AS AH AD KC", current="5C 6D 7H 8S 9C",
                by=1, cards_left={"1": 6, "2": 5, "3": 7})  # fmt: skip
    assert r.table[r.table.measure == "score"].action.tolist() == ["pass"]
    assert "the only legal action" in r.meta["answer"]


@pytest.mark.parametrize("compare, legal", [("top_card_only", True), ("lexicographic", False)])
def test_an_equal_top_flush_beats_only_under_top_card_only(compare, legal):
    """2(c)2: K-high flushes; under top_card_only the seat's (K 9 7 4 3) beats (K Q J 9 2) with its top card
    equal, and goes out second (6 + 6); under lexicographic it is lower, so the seat can only pass."""
    pos = dict(decision="play", hand="3H 4H 7H 9H KH", current="2S 9S JS QS KS", by=3, finished=[2],
               hand_points={"NS": 6, "EW": 0}, cards_left={"1": 6, "3": 4}, variants={"flush_compare": compare})  # fmt: skip
    r = bo.odds(dict(RUN), strategies=["greedy"], **pos)
    actions = r.table[r.table.measure == "score"].action.tolist()
    if legal:
        _exact(r, "3H 4H 7H 9H KH", 12.0, 1.0)
        _best_and_clear(r, "3H 4H 7H 9H KH")
    else:
        assert actions == ["pass"]


def test_the_exchange_return_that_gives_the_partner_a_pair():
    """BI-10 Plain, every card known: E (1) won the Plain trick and went out with it (E-W 4 points); S (2), at
    E's left, sent 9H to its partner N (0, the seat), keeping 9D; S leads next (BI-11: the next seat with cards).
    Giving 9H back makes S's 9D 9H a pair, which S leads and goes out with, second: N-S score max(N's 2, W's 2) =
    2 against 4: -2, behind. Giving back a 7 leaves S a single to lead; N does not beat its partner (greedy) and
    W's pair 8S 8C beats the single (a Pair beats a Single, BI-7) and goes out second: E-W score max(2, 1) = 2
    more: -6."""
    pos = dict(decision="exchange_return", seat=0, hand="7C 7D 9H", exchange_received="9H", finished=[1],
               hand_points={"NS": 0, "EW": 4}, cards_left={"2": 1, "3": 2}, known={"2": "9D", "3": "8S 8C"},
               played=_played_but("7C 7D 9H 9D 8S 8C"))  # fmt: skip
    r = bo.odds(dict(RUN), strategies=["greedy"], **pos)
    _exact(r, "return 9H", -2.0, 0.0)
    _exact(r, "return 7C", -6.0, 0.0)
    _exact(r, "return 7D", -6.0, 0.0)
    _best_and_clear(r, "return 9H")


def test_an_exchange_that_gives_the_partner_the_winning_card():
    """BI-10 Plain, every card known: N (0) won a Plain trick and leads next with 2C KC; S is out (N-S 2 points);
    the seat E (1) holds AS 4C, its partner W (3) holds 3H. Without an exchange N leads 2C, E plays 4C (greedy:
    the lowest that beats), W cannot beat it, N's KC does and goes out second: N-S 2 + max(1, 1) = 3, so -3 for
    E-W. Sending either card, W gives back its lowest, 3H, and keeps a card above it; N leads 2C, E plays 3H, W
    beats it and goes out second: E-W score max(N's 1, S's 0) = 1: -1."""
    pos = dict(decision="exchange_send", seat=1, hand="AS 4C", finished=[2], hand_points={"NS": 2, "EW": 0},
               cards_left={"0": 2, "3": 1}, known={"0": "2C KC", "3": "3H"}, played=_played_but("AS 4C 2C KC 3H"))  # fmt: skip
    r = bo.odds(dict(RUN), strategies=["greedy"], **pos)
    _exact(r, "send AS", -1.0, 0.0)
    _exact(r, "send 4C", -1.0, 0.0)
    _exact(r, "no exchange", -3.0, 0.0)
    by = _rows(r)
    assert by[("diff_score", "no exchange")].ci_high < 0 and by[("diff_score", "no exchange")].verdict == "worse"
    # tied exactly: the same outcome on every layout, said as such (not "uncertain", as if more trials could part them)
    assert {by[("score", a)].verdict for a in ("send AS", "send 4C")} == {"best", "equal"}
    assert r.meta["answer"].endswith("the same on every layout)")


@pytest.mark.parametrize(
    "position, msg",
    [
        ({"hand": "5S 5H", "cards_left": {"0": 5, "1": 4, "2": 3, "3": 6}}, "deciding seat, whose --hand holds 2 cards"),
        ({"hand": "5S 5H", "cards_left": {"1": 14, "2": 3, "3": 6}}, "holds 1 to 13 cards"),
        ({"hand": "5S 5H", "cards_left": {"1": 4, "3": 6}, "finished": [2], "hand_points": ["NS=7", "EW=500"]},
         "0 for the other team"),
        ({"hand": "5S 5H", "cards_left": {"1": 4, "3": 6}, "finished": [2], "hand_points": ["NS=7", "NS=3"]},
         "team NS given twice"),
        ({"hand": "5S 5H", "cards_left": {"1": 4, "2": 3, "3": 6}, "passed": "2C 3C", "known": {"1": "2C"}},
         "--known puts it in another hand"),
        ({"hand": "5S 5H", "cards_left": {"1": 4, "2": 3, "3": 6}, "received": "AS AH", "played": "2C"},
         "a card received is in"),
        ({"hand": "5S 5H", "cards_left": {"1": 4, "2": 3, "3": 6}, "passed": "2C"}, "name exactly the two cards"),
        ({"hand": "5S 5H", "cards_left": {"1": 4, "2": 3, "3": 6}, "current": "4C", "by": 0}, "is the deciding seat"),
        ({"hand": "5S 5H", "cards_left": {"1": 4, "2": 3, "3": 6}, "current": "4C", "by": 5}, "bad --by 5"),
        ({"hand": "5S 5H 2C", "decision": "exchange_return", "exchange_received": "AS", "cards_left": {"1": 4,
          "2": 3, "3": 6}}, "is not in --hand"),
        ({"hand": "5S 5H", "players": 5, "cards_left": {"1": 4, "2": 3, "3": 6}}, "players"),
    ],
)  # fmt: skip
def test_impossible_positions_inside_a_hand_are_refused(position, msg):
    with pytest.raises(CardlabError) as e:
        bo.odds({"trials": 8, "progress": False}, **position)
    assert msg in str(e.value) and "\n" not in str(e.value), str(e.value)


def test_players_4_is_accepted_for_every_decision():
    run = {"trials": 8, "chunk_size": 8, "progress": False}
    left = {"cards_left": {"1": 4, "2": 3, "3": 6}}
    for kw in (
        {"hand": HAND},
        {"hand": "5S 5H 9C", **left},
        {"hand": "5S 5H 9C", "decision": "handover", **left},
        {"hand": "5S 5H 9C", "decision": "exchange_send", "seat": 1, "cards_left": {"0": 4, "2": 3, "3": 6}},
        {"hand": "5S 5H 9C", "decision": "exchange_return", "exchange_received": "9C", **left},
    ):
        assert len(bo.odds(run, players=4, strategies=["greedy"], **kw).table)


def test_a_winner_out_of_cards_lets_the_next_seat_lead():
    """BI-11: a winner that went out and does not hand over leaves the lead to the next seat holding cards."""
    r = bo.odds({"trials": 8, "progress": False}, decision="handover", seat=0, hand="", finished=[0],
                hand_points={"NS": 6}, cards_left={"1": 4, "2": 1, "3": 6}, strategies=["greedy"])  # fmt: skip
    assert set(r.table.action) == {"hand over the lead", "let the next seat lead"}


@pytest.mark.parametrize(
    "field, msg",
    [
        ({"finished": "2"}, "'finished' is a list of seats"),
        ({"seat": "0"}, "'seat' is a seat or count number"),
        ({"by": "E", "current": "4C"}, "'by' is a seat or count number"),
        ({"hand": 42}, "'hand' is a string of cards"),
        ({"seat": True}, "'seat' is a seat or count number"),
        ({"cards_left": [9, 10, 7]}, "'cards_left' is an object"),
        ({"known": "1=AS"}, "'known' is an object"),
    ],
)
def test_position_fields_of_the_wrong_type_are_refused_in_one_line(tmp_path, field, msg):
    doc = {"game": "biscuits", "hand": "5S 5H 9C", "cards_left": {"1": 4, "2": 3, "3": 6}, **field}
    f = tmp_path / "pos.json"
    f.write_text(json.dumps(doc))
    with pytest.raises(CardlabError) as e:
        bo.odds({"trials": 8, "progress": False}, **bo.position_fields({"position": str(f)}, None, None))
    assert msg in str(e.value) and "\n" not in str(e.value), str(e.value)


def test_a_single_finished_seat_in_a_position_file_is_a_list(tmp_path):
    doc = {"game": "biscuits", "hand": "5S 5H", "cards_left": {"1": 4, "3": 6}, "finished": 2,
           "hand_points": {"NS": 6, "EW": 0}, "models": "greedy"}  # fmt: skip
    f = tmp_path / "pos.json"
    f.write_text(json.dumps(doc))
    r = bo.odds({"trials": 16, "progress": False}, **bo.position_fields({"position": str(f)}, None, None))
    assert r.meta["answer"].startswith("Play 5H 5S: net points +12.00")


def test_the_points_of_the_first_out_must_fit_the_hands_left():
    """BI-8: the first seat out scored 1 point per card of the fuller opponent hand then, and hands only shrink in
    play: fewer points than an opponent still holds cannot be; a missing --hand-points names the team it needs."""
    pos = dict(decision="play", seat=2, hand="3C 4D 5H 6S 7C 9D 9H", cards_left={"0": 5, "1": 4},
               current="2S 3S 4S 5C 6C", by=1, finished=[3])  # fmt: skip
    with pytest.raises(CardlabError, match="an opponent still holds 7 cards: at least 7 points, not 5"):
        bo.odds({"trials": 8, "progress": False}, hand_points={"EW": 5}, **pos)
    with pytest.raises(CardlabError, match=r"give --hand-points EW=N: the points seat 3's team \(EW\) scored"):
        bo.odds({"trials": 8, "progress": False}, **pos)
    assert bo.odds({"trials": 8, "progress": False}, hand_points={"EW": 7}, **pos).meta["answer"]


def test_a_passed_card_back_in_the_hand_is_said_in_the_header():
    """A card named in both --passed and --hand can only have come back in a Plain exchange (BI-10): accepted, as
    seeds/biscuits.md allows, but the header says what was assumed (a typo had gone unflagged); a pass with both
    cards at the partner says nothing."""
    pos = dict(decision="play", hand="2C 5D 5H 9S JC KD QS", cards_left={"1": 5, "2": 6, "3": 8}, current="4C 4S",
               by=3, played="3D 3H")  # fmt: skip
    back = bo.odds({"trials": 8, "progress": False}, strategies=["greedy"], passed="5H AD", **pos)
    assert back.meta["assumed"].startswith("--passed 5H is in --hand too: taken to have come back")
    assert "assumed: --passed 5H" in "\n".join(back.header_lines())
    away = bo.odds({"trials": 8, "progress": False}, strategies=["greedy"], passed="AC AD", **pos)
    assert "assumed" not in away.meta
