"""Bismarck records and reviews (analysis/games/bismarck_review.py): the record is simulate's hand, the replay
refuses illegal events naming BM-4, the review reads only what the seat knew and marks a card that throws a trick
away."""

from __future__ import annotations

import copy
import json

import numpy as np
import pandas as pd
import pytest

from analysis import cli
from analysis.driver import run_chunks, split_seed
from analysis.errors import CardlabError
from analysis.games import bismarck as B
from analysis.games import bismarck_odds as bo
from analysis.games import bismarck_review as br
from analysis.rules import seeds_dir
from kernels import bismarck as K

EXAMPLE = seeds_dir() / "records" / "bismarck-example.json"


@pytest.mark.parametrize("seed, round_no, strategy", [(1, 1, "heuristic"), (2, 2, "random"), (3, 4, "heuristic")])
def test_the_record_is_simulates_hand(seed, round_no, strategy):
    """Trial 0 of simulate --unit hand --round R --seed N: the same tricks by role (the kernel's counts)."""
    doc = br.record(seed, strategies=[strategy], round=round_no)
    key0, key1 = split_seed(seed)
    spec = B.simulation_spec(strategies=[strategy], unit="hand", round=round_no)
    row = run_chunks(spec.kernel, spec.args, np.zeros(1, dtype=np.int64), 1, 1, key0, key1, spec.n_counts)[0]
    tricks = doc["result"]["tricks"]
    for s in range(3):
        role = (s - doc["dealer"]) % 3
        b = ((round_no - 1) * 3 + role) * K.ROLE_FIELDS
        assert row[b + K.R_N] == 1 and row[b + K.R_TRICKS] == tricks[str(s)]
    assert sum(tricks.values()) == 16 and len(doc["events"]) == 48
    assert br.replay(json.loads(json.dumps(doc))).result() == doc["result"]


def _bad(doc: dict, i: int, **change) -> dict:
    d = copy.deepcopy(doc)
    d["events"][i].update(change)
    return d


def test_illegal_events_are_refused_with_the_rule():
    doc = json.loads(EXAMPLE.read_text())
    hands = {s: doc["hands"][str(s)].split() for s in range(3)}
    first = doc["events"][0]
    led = first["play"]
    # the second seat holds the led suit (a revoke is a card of another suit)
    s1 = doc["events"][1]["seat"]
    other = next(c for c in hands[s1] if c[1] != led[1])
    cases = [
        (_bad(doc, 0, seat=(first["seat"] + 1) % 3), "event 0: seat .* it is seat .*'s turn \\(BM-4\\)"),
        (_bad(doc, 0, play=hands[(first["seat"] + 1) % 3][0]), "does not hold"),
        (_bad(doc, 1, play=other), "BM-4: follow suit"),
        (_bad(doc, 0, play="AS KS"), "one card a turn"),
    ]
    assert any(c[1] == led[1] for c in hands[s1])  # the premise: seat s1 could follow
    for d, fragment in cases:
        with pytest.raises(CardlabError, match=fragment):
            br.replay(d)
    d = copy.deepcopy(doc)
    d["hands"]["0"] = " ".join(d["hands"]["0"].split()[:15])
    with pytest.raises(CardlabError, match="16 \\(BM-2\\)"):
        br.replay(d)


def test_a_whole_hand_recorded_without_its_hands_is_the_same_hand():
    """BM-2: every dealt card is played by the end, so a record of the 48 cards in the order played gives each
    seat's hand (what a player writes down after a hand at a table); the replay and the review's table are the
    record's with the hands. Without the hands, a hand in progress, a card played twice or a seat playing out of
    turn are refused in one line."""
    doc = json.loads(EXAMPLE.read_text())
    bare = {k: v for k, v in doc.items() if k != "hands"}
    full, derived = br.replay(copy.deepcopy(doc)), br.replay(copy.deepcopy(bare))
    assert derived.hands == full.hands and derived.events == full.events and derived.result() == full.result()
    a = br.review(doc, seat=0, precision=0.5, max_trials=64).table
    b = br.review(bare, seat=0, precision=0.5, max_trials=64).table
    pd.testing.assert_frame_equal(a, b)
    short = dict(bare, events=bare["events"][:20])
    twice = copy.deepcopy(bare)
    twice["events"][5]["play"] = twice["events"][2]["play"]
    moved = copy.deepcopy(bare)
    moved["events"][5]["seat"] = (moved["events"][5]["seat"] + 1) % 3
    two = copy.deepcopy(bare)
    two["events"][7]["play"] += " " + two["events"][8]["play"]
    for d, fragment in [
        (short, "no hands and 20 events: give every seat's dealt cards as hands, or all 48 cards"),
        (twice, "event 5: .* was played already at event 2 \\(BM-2\\)"),
        (moved, "event 5: seat . plays, but it is seat .'s turn \\(BM-4\\)"),
        (two, "event 7: one card a turn \\(BM-4\\)"),
    ]:
        with pytest.raises(CardlabError, match=fragment):
            br.replay(d)


def test_round_2_records_give_the_drawn_trump_card():
    """BM-5: in round 2 the dealer draws one of the 4 leftover cards for trumps, and every seat sees it: a record
    without it (a hand written down from its tricks may forget it) would have the review take it for a card someone
    may hold, so it is refused; so is a shown card of another suit than the trumps, or one in play."""
    doc = br.record(5, round=2)
    assert doc.get("shown") and br.replay(copy.deepcopy(doc))
    played = {e["play"] for e in doc["events"]}
    leftover = [c for c in (r + s for s in "CDHS" for r in "23456789TJQKA") if c not in played and c != doc["shown"]]
    other = next(c for c in leftover if c[1] != doc["trumps"])  # seed 5: trumps S, 3C among the leftover
    for change, fragment in [
        ({"shown": None}, 'round 2 needs "shown", the leftover card drawn for trumps'),
        ({"shown": doc["events"][0]["play"]}, "shown is round 2's drawn trump card, out of play"),
        ({"shown": other}, f"shown {other} is not of the trump suit {doc['trumps']}"),
    ]:
        bad = {k: v for k, v in {**doc, **change}.items() if v is not None}
        with pytest.raises(CardlabError, match=fragment):
            br.replay(bad)


def test_the_review_reads_only_what_the_seat_knew():
    """At a decision of seat 0 the other two hands' unseen cards are swapped between them (keeping the suits each
    showed out of): the advisor's side of the review is identical; the actual layout's double-dummy value may
    differ (it sees every hand)."""
    doc = json.loads(EXAMPLE.read_text())
    hand = br.replay(doc)
    i = 13  # seat 0 on trick 5
    assert hand.events[i][0] == 0
    pos = br.position_at(hand, i)
    played = {c for _, c in hand.events[:i]}
    a = [c for c in br._cards_of_mask(hand.hands[1]) if c not in played]
    b = [c for c in br._cards_of_mask(hand.hands[2]) if c not in played]
    pair = next((x, y) for x in a for y in b if x >> 4 == y >> 4 and x not in dict(hand.events[i:]).values())
    swapped = copy.deepcopy(doc)
    for s, (old, new) in ((1, pair), (2, pair[::-1])):
        cards = swapped["hands"][str(s)].split()
        cards[cards.index(br._text([old]))] = br._text([new])
        swapped["hands"][str(s)] = " ".join(cards)
    swapped["events"] = swapped["events"][: i + 1]  # the record stops at the decision
    doc["events"] = doc["events"][: i + 1]
    assert br.position_at(br.replay(swapped), i) == pos
    mine = br.review(doc, seat=0, precision=0.5, max_trials=64)
    theirs = br.review(swapped, seat=0, precision=0.5, max_trials=64)
    keep = [c for c in mine.table.columns if not c.startswith("dd_")]
    assert mine.table[keep].equals(theirs.table[keep])


def test_the_review_of_the_example():
    """The double-dummy columns against brute force: at every decision of seat 0 with at most 4 cards a hand,
    dd_taken is the tricks it won before plus the full minimax value (the reference's) of the card played on the
    actual layout, the other two against it, and dd_best the most over its legal cards (BM-4)."""
    from tests.reference import bismarck as ref

    doc = json.loads(EXAMPLE.read_text())
    hand = br.replay(doc)
    res = br.review(doc, seat=0, precision=0.5, max_trials=64)
    t = res.table
    late = t[t["event"] >= 36]
    assert len(late) >= 2
    for row in late.itertuples():
        i = int(row.event)
        before = [c for _, c in hand.events[:i]]
        now = [set(br._cards_of_mask(h)) - set(before) for h in hand.hands]
        cur = before[3 * (i // 3) :]
        won = sum(1 for led in hand.leaders[1 : i // 3 + 1] if led == 0)
        legal = ref.legal(now[0], cur[0] >> 4 if cur else None, hand.trump)
        value = {}
        for c in legal:
            rest = [set(h) for h in now]
            rest[0].discard(c)
            value[c] = won + ref.minimax(rest, hand.trump, hand.leaders[i // 3], [*cur, c], 1, 1)
        assert row.dd_taken == value[hand.events[i][1]] and row.dd_best == max(value.values())
    lost = int((t["dd_best"] - t["dd_taken"]).sum())
    assert res.meta["summary"].startswith("seat 0: ") and f"lost {lost} trick" in res.meta["summary"]


def test_record_and_review_commands(tmp_path, capsys):
    out = tmp_path / "hand.json"
    assert cli.main(["record", "bismarck", "--seed", "4", "--round", "2", "--out", str(out)]) == 0
    doc = json.loads(out.read_text())
    assert doc["round"] == 2 and doc["trumps"] in "CDHS" and "shown" in doc
    capsys.readouterr()
    argv = ["review", "bismarck", str(out), "--seat", "1", "--precision", "0.5", "--quiet"]
    assert cli.main(argv) == 0
    text = capsys.readouterr().out
    assert text.startswith("seat 1: ") and "dd_taken" in text and "model: the hand played on" in text
    assert cli.main(["record", "bismarck", "--round", "5"]) == 2
    assert "bad --round 5" in capsys.readouterr().err
    # a record's unknown player is named as the record's (a new user's read as if from a flag)
    doc["strategies"]["0"] = "alphazero"
    out.write_text(json.dumps(doc))
    assert cli.main(["review", "bismarck", str(out)]) == 2
    assert "bad record: strategies: unknown strategy 'alphazero'" in capsys.readouterr().err


@pytest.mark.parametrize(
    "variants, round_no",
    [({"ruleset": "swedish"}, 3), ({"widow_exchange": "dealer_takes_4_discards_4"}, 2), ({}, 4)],
)
def test_records_and_reviews_under_the_variants(variants, round_no):
    """Swedish Bismarck (forehand's contract and widow, 3(c)10), the dealer's widow exchange in round 2 (3 cards
    taken: the drawn trump card is out, BM-5) and the misere round: the record replays, and the exchanging
    seat's review knows its own discards."""
    doc = br.record(3, variants=variants, round=round_no)
    assert br.replay(json.loads(json.dumps(doc))).result() == doc["result"]
    seat = int(next(iter(doc["discards"]))) if "discards" in doc else 0
    res = br.review(doc, seat=seat, precision=0.5, max_trials=64)
    assert res.meta["decisions"] == len(res.table) > 0
    if "discards" in doc:
        i = next(i for i, e in enumerate(doc["events"]) if e["seat"] == seat)
        assert br.position_at(br.replay(doc), i)["discards"] == doc["discards"][str(seat)]
        # a discard is out of play: one of the cards played instead is refused, naming it (BM-2)
        bad = copy.deepcopy(doc)
        played = doc["events"][0]["play"]
        bad["discards"][str(seat)] = " ".join([played, *doc["discards"][str(seat)].split()[1:]])
        with pytest.raises(CardlabError, match=f"bad record: discards {seat}: {played} in play \\(BM-2\\)"):
            br.replay(bad)
        # the discard itself is judged first (event -1), the record's cards among the advisor's actions
        first = res.table.iloc[0]
        thrown = sorted(doc["discards"][str(seat)].split())
        assert first.event == -1 and first.on_table == "before play: the widow discard"
        assert first.taken.startswith("discard ") and sorted(first.taken.split()[1 : 1 + len(thrown)]) == thrown
        assert pd.isna(first.dd_taken) and first.actions > 1
    else:
        assert (res.table["event"] >= 0).all()
    other = (seat + 1) % 3  # a seat that did not exchange has no such row
    assert (br.review(doc, seat=other, precision=0.5, max_trials=32).table["event"] >= 0).all()


def test_the_trump_named_after_seeing_the_hand_is_reviewed():
    """Round 3 with round3_trump_timing=after_seeing_hand (3(c)3): the dealer's trumps are judged before its
    cards, by the trump advisor on its 16 cards (every suit an action); the other seats have no such row."""
    variants = {"round3_trump_timing": "after_seeing_hand"}
    doc = br.record(2, variants=variants, round=3)
    dealer = doc["dealer"]
    res = br.review(doc, seat=dealer, precision=0.5, max_trials=64)
    first = res.table.iloc[0]
    assert first.event == -1 and first.on_table == "before play: trumps" and first.actions == 4
    assert first.taken == f"name {doc['trumps']}"
    assert (br.review(doc, seat=(dealer + 1) % 3, precision=0.5, max_trials=32).table["event"] >= 0).all()


def test_the_record_keeps_the_pimc_settings_and_the_review_plays_with_them(monkeypatch):
    """A record of a hand with a PIMC seat stores --pimc-from and --pimc-samples; the review's models play with
    them (a record without them, written before, loads with the defaults)."""
    doc = br.record(seed=1, round=1, strategies=["1=pimc"], pimc_from=5, pimc_samples=4)
    assert doc["pimc"] == {"from": 5, "samples": 4}
    assert (br.replay(doc).pimc_from, br.replay(doc).pimc_samples) == (5, 4)
    old = {k: v for k, v in doc.items() if k != "pimc"}
    assert br.replay(old).pimc_from is None
    seen = set()
    real = br.play_spec

    def spy(**kw):
        seen.add((kw["pimc_from"], kw["pimc_samples"]))
        return real(**kw)

    monkeypatch.setattr(br, "play_spec", spy)
    br.review(doc, seat=0, precision=0.5, max_trials=8, threads=1)
    assert seen == {(5, 4)}


def test_solver_models_are_refused_where_the_misere_search_does_not_finish():
    """BM-5's misère: the double-dummy search does not finish above 12 cards a hand (MISERE_DD_CARDS), so a
    review (or odds) whose pimc-infer or dd players would take over there is refused in one line; a record of
    heuristic seats may still carry --pimc-from 16."""
    doc = br.record(seed=1, round=4, pimc_from=16)
    with pytest.raises(CardlabError, match="bad --pimc-from 16"):
        br.review(doc, seat=0, strategies=["pimc-infer"], precision=0.5, max_trials=8, threads=1)
    hand = "AS KS QS 2S 3H 4H 9H AD 7D 2D 5C 6C JC QC KC 8D"
    for strategies in (["pimc-infer"], ["0=heuristic", "1=dd", "2=heuristic"]):
        with pytest.raises(CardlabError, match="bad --pimc-from 13"):
            bo.play_spec(strategies=strategies, pimc_from=13, hand=hand, round=4, dealer=2)
    assert bo.play_spec(strategies=["pimc-infer"], pimc_from=12, hand=hand, round=4, dealer=2)


def test_the_summary_adds_up_each_worse_cards_loss_in_round_score_and_tricks():
    """The summary's cost: the worse cards' losses, each against the best card at its turn, in points of round
    score and in the tricks the seat's samples took (the line names both units); dd is told apart."""
    import pandas as pd

    from analysis.tables import Result

    rows = [
        {"event": 3, "seat": 0, "verdict": "worse", "loss_score": 0.5, "tricks_best": 6.0, "tricks_taken": 5.25,
         "dd_best": 7, "dd_taken": 6, "taken": "KS"},
        {"event": 9, "seat": 0, "verdict": "worse", "loss_score": 0.25, "tricks_best": 5.5, "tricks_taken": 5.0,
         "dd_best": 6, "dd_taken": 6, "taken": "2H"},
        {"event": 12, "seat": 0, "verdict": "best", "loss_score": 0.0, "tricks_best": 5.0, "tricks_taken": 5.0,
         "dd_best": 6, "dd_taken": 6, "taken": "AD"},
        {"event": 15, "seat": 0, "verdict": "best", "loss_score": 0.0, "tricks_best": 5.0, "tricks_taken": 5.0,
         "dd_best": 6, "dd_taken": 4, "taken": "7C"},
    ]  # fmt: skip
    meta = {"seat": 0, "forced": 1, "strategies": ["heuristic"] * 3, "over": True}
    line = br.summary(Result(pd.DataFrame(rows), meta))
    assert "2 clearly worse than the best, their losses summing to 0.75 points of round score and 1.25 tricks " \
           "(largest at event 3; each against the best action at its own turn" in line  # fmt: skip
    # where the tricks went on the actual layout, by event: a card the advisor found best may be one (a new user
    # asked where the seat lost its trick and found no event named)
    assert line.endswith(
        "the cards played lost 3 tricks, at events 3 (KS), 15 (7C, 2 tricks): dd_taken against dd_best, on a layout "
        "the seat did not see (the verdicts go by what it knew)"
    )
    # every seat reviewed: each seat's sum with its own tricks (they had all gone to the first seat's sum)
    rows[2].update(seat=1, verdict="worse", loss_score=0.5, tricks_best=6.0, tricks_taken=4.0)
    every = br.summary(Result(pd.DataFrame(rows), {**meta, "seat": None}))
    assert "summing to 0.75 points of round score and 1.25 tricks for seat 0, 0.50 points of round score and " \
           "2.00 tricks for seat 1 (largest" in every  # fmt: skip


def test_the_summary_counts_tricks_net_and_in_the_misere_a_trick_taken_is_the_loss():
    """BM-6: in the misère a trick taken is what costs. A card worse in round score may still take fewer tricks
    than the best; the summary's tricks are the signed net, not a sum of sizes (a new user's review read 1.47
    where the rows add up to 1.12)."""
    import pandas as pd

    from analysis.tables import Result

    def line(taken: list[float], misere: bool) -> str:
        rows = [
            {"event": 3 * i, "seat": 0, "verdict": "worse", "loss_score": 0.25, "tricks_best": 2.0,
             "tricks_taken": t, "dd_best": 1, "dd_taken": 1, "taken": "2C"}
            for i, t in enumerate(taken)
        ]  # fmt: skip
        meta = {"seat": 0, "forced": 0, "strategies": ["heuristic"] * 3, "over": True}
        return br.summary(Result(pd.DataFrame(rows), meta), misere=misere)

    # the misère: +0.5 and -0.25 (a card that took fewer tricks than the best) net 0.25 tricks
    assert "0.50 points of round score and 0.25 tricks" in line([2.5, 1.75], misere=True)
    assert "0.50 points of round score and 0.25 tricks" in line([1.5, 2.25], misere=False)
    # net the other way: no loss in tricks, and the line says which way they went
    assert "(though they took 0.25 fewer tricks than the best)" in line([1.5, 2.25], misere=True)
    assert "(though they took 0.25 more tricks than the best)" in line([2.5, 1.75], misere=False)
    assert "(and as many tricks as the best, net)" in line([2.0, 2.0], misere=False)  # not "-0.00 more"


def test_the_summary_names_cards_apart_on_the_quota_chance_that_the_verdicts_do_not_rank():
    """BM-6: the verdicts go by the round score and reaching the quota scores 0, so a card may make the quota
    clearly less often (or more often) than the best by score with no verdict saying so: the summary names each
    such decision, with the sign; an interval that holds 0 is not named."""
    import pandas as pd

    from analysis.games.bismarck_review import _quota_clause

    t = pd.DataFrame({
        "event": [0, 3, 30, -1],
        "verdict": ["uncertain", "worse", "uncertain", "best"],
        "loss_win": [0.141, 0.05, -0.312, 0.0],
        "loss_win_low": [0.018, -0.02, -0.427, 0.0],
        "loss_win_high": [0.263, 0.12, -0.198, 0.0],
    })  # fmt: skip
    text = _quota_clause(t)
    assert text == (
        "; on the quota chance (the verdicts go by the score), against the best by score, the card played made the "
        "quota clearly less often at event 0 (by 14.1 percentage points); and clearly more often at event 30 (by 31.2 "
        "percentage points)"
    )
    assert _quota_clause(t.iloc[[1, 3]]) == ""
    # several decisions a side: the unit once; a decision before the first card (the widow's discard) by name
    t2 = pd.DataFrame({
        "event": [-1, 7, 11],
        "loss_win": [0.1, 0.203, 0.109],
        "loss_win_low": [0.01, 0.086, 0.032],
        "loss_win_high": [0.2, 0.32, 0.186],
    })  # fmt: skip
    assert _quota_clause(t2).endswith(
        "the card played made the quota clearly less often before play (by 10.0 percentage points) and at events 7 "
        "(20.3) and 11 (10.9)"
    )
