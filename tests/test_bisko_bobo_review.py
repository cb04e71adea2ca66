"""Bisko-Bobo records and reviews (analysis/games/bisko_bobo_review.py): the record is simulate's deal and the
reference's, the replay refuses illegal events naming BB-5 .. BB-7, and the review's advisor reads only what the
seat saw, held against exact enumeration of the unseen cards."""

from __future__ import annotations

import copy
import itertools
import json

import numpy as np
import pytest

from analysis import cli
from analysis.driver import run, run_chunks, split_seed
from analysis.errors import CardlabError
from analysis.games import bisko_bobo as bb
from analysis.games import bisko_bobo_review as br
from analysis.rules import seeds_dir
from kernels import bisko_bobo as K
from kernels.advise import A_SAMPLES
from tests.reference import bisko_bobo as ref

EXAMPLE = seeds_dir() / "records" / "bisko-bobo-example.json"


@pytest.mark.parametrize("seed, players, strategy", [(7, 4, "heuristic"), (3, 2, "heuristic"), (11, 6, "random")])
def test_the_record_is_simulates_deal_and_the_references(seed, players, strategy):
    """Trial 0 of simulate --seed N (trace_deal), written as events; replayed by the plain-Python reference with
    the record's decisions forced, it gives the same actions and winners."""
    doc = br.record(seed, players=players, strategies=[strategy])
    spec = bb.simulation_spec(players, strategies=[strategy])
    P, hid, lod, var, pj, ps, tgt, pt, pack = spec.args
    key0, key1 = split_seed(seed)
    n_win, _r, rec, _keys, trace, hi, lo = K.trace_deal(
        P, hid, lod, var, pj, ps, tgt, pt, pack, np.full(3 * P, -1, dtype=np.int64), key0, key1, 0
    )
    assert doc["result"]["win_share"] == {str(s): round(int(rec[s, K.R_WIN]) / 60, 4) for s in range(P)}
    assert doc["high"].split() == [str(bb.DECK.card(c)) for c in hi[: trace[3 * P + 1]]]
    forced = {}
    for ev in doc["events"]:
        if "take" in ev:
            forced[("action", ev["seat"])] = 1 if ev["take"] == "jingo" else 0
        elif "swap" in ev:
            forced[("swap", ev["seat"])] = -1 if ev["swap"] is None else ev["swap"]
        else:
            forced[("tuck", ev["seat"])] = 1 if ev["place"] == "tucked" else 0
    deal = br.replay(json.loads(json.dumps(doc)))
    seats, winners, _k, wet = ref.play(
        P, list(deal.hi), list(deal.lo), spec.describe["variants"], pj, ps, tgt, pt, None, None, forced
    )
    assert [s for s in range(P) if doc["result"]["win_share"][str(s)] > 0] == winners
    assert [st.action for st in seats] == [1 if ev["take"] == "jingo" else 0 for ev in doc["events"][:P]]
    assert doc["result"]["wet_bisk"] == str(bb.DECK.card(wet))
    assert deal.result() == doc["result"]


def _doc() -> dict:
    return json.loads(EXAMPLE.read_text())


def _with(doc: dict, i: int, **change) -> dict:
    d = copy.deepcopy(doc)
    d["events"][i] = {"seat": d["events"][i]["seat"], **change}
    return d


def test_illegal_events_are_refused_with_the_rule():
    doc = _doc()  # seed 7, 4 players: every seat takes a Jingo; seat 3 declines, seat 2 swaps with seat 1
    deal = br.replay(doc)
    assert not deal.rec[3, K.R_BUCKET_TUCK] >= 0  # seat 3's card cannot be tucked
    cases = [
        (_with(doc, 5, swap=3), "event 5: seat 2 cannot swap with seat 3: .* \\(BB-6\\)"),
        (_with(doc, 9, place="tucked"), "event 9: seat 3 cannot tuck its Jingo card: .* \\(BB-7"),
        ({**doc, "events": doc["events"][:4] + doc["events"][5:]}, "event 4: expected seat 3's swap turn .*BB-6"),
        ({**doc, "events": doc["events"][1:]}, "event 0: expected seat 0's Flingo or Jingo .*BB-5"),
        ({**doc, "events": doc["events"] + [doc["events"][-1]]}, "event 10: the deal is over"),
        ({**doc, "high": " ".join(doc["high"].split()[:12])}, "high gives 12 cards, but seat 3's jingo"),
        ({**doc, "low": "2S"}, "low gives 1 card; each of the 4 Jingo players gets one"),
        ({**doc, "high": doc["high"].replace("KD", "2D", 1)}, "2D is not a HIGH card for 4 players \\(BB-1\\)"),
        (_with(doc, 0, take="maybe"), "events/0/take: 'maybe' is not one of \\['flingo', 'jingo'\\]"),
        ({**doc, "players": 7}, "players"),
    ]
    for bad, message in cases:
        with pytest.raises(CardlabError, match=message):
            br.replay(bad)
    # seed 3 at 2 players: seat 0 holds an opening Bisko (QD JD); the dealer must follow its Jingo (never exactly
    # one Jingo)
    two = br.record(3, players=2)
    assert [e["take"] for e in two["events"][:2]] == ["jingo", "jingo"]
    with pytest.raises(CardlabError, match="event 0: seat 0 holds an opening Bisko \\(QD JD\\) and must take a Jingo"):
        br.replay(_with(two, 0, take="flingo"))
    with pytest.raises(CardlabError, match="Jingo-count rule leaves seat 1 only a jingo .*\\(BB-5\\)"):
        br.replay(_with(two, 1, take="flingo"))


def test_records_under_the_variants_replay_and_review():
    """bingo_swap_optional=false: the highest unswapped player's turn lists its partners only and is judged;
    flingo_reward_chain=true: a chained reward is dealt and replayed; a bad strategies field is refused."""
    for seed in range(1, 40):
        doc = br.record(seed, players=3, variants={"bingo_swap_optional": "false"})
        if any(e.get("swap") is not None for e in doc["events"] if "swap" in e):
            break
    deal = br.replay(doc)
    i = next(j for j, (k, _s, v) in enumerate(deal.events) if k == "swap")
    spec, taken = br.decision_spec(deal, i, ["heuristic"])
    assert "no swap" not in spec.describe["actions"] and taken.startswith("swap with seat")
    if len(spec.describe["actions"]) > 1:
        t = run(spec, trials=200, chunk_size=100, progress=False).table
        assert (t[t.measure == "score"].trials == 200).all()
    with pytest.raises(CardlabError, match="must swap"):
        br.replay(_with(doc, i, swap=None))
    chained = br.record(1, players=2, variants={"flingo_reward_chain": "true"}, strategies=["always-flingo"])
    assert br.replay(chained).result() == chained["result"]
    with pytest.raises(CardlabError, match="bad record: strategies: .*not 0=nope"):
        br.replay({**_doc(), "strategies": {"0": "nope", "1": "heuristic", "2": "heuristic", "3": "heuristic"}})


def test_a_partial_record_replays_and_reviews_its_decisions():
    doc = _doc()
    part = {**doc, "events": doc["events"][:3]}
    part.pop("result")
    deal = br.replay(part)
    assert not deal.over and "win_share" not in deal.result()
    res = br.review(part, seat=1, precision=0.05)
    assert list(res.table["event"]) == [1] and not res.meta["over"]


def test_every_review_position_matches_every_sample():
    """The review forces the past as the record has it: every sampled deal reaches the decision (no rejection),
    and the known cards sit where the record dealt them."""
    deal = br.replay(_doc())
    assert br.position_at(deal, 7)["hand"] == "AD up, 9H tucked, Jingo AH (swapped, was QS)"
    assert br.position_at(deal, 4)["hand"] == "9D up, KH tucked, Jingo JD"  # its own card only, before the swaps
    for i, (kind, s, _v) in enumerate(deal.events):
        if len(br.decision_spec(deal, i, ["heuristic"])[0].describe["actions"]) < 2:
            continue
        spec, taken = br.decision_spec(deal, i, ["heuristic"])
        template = spec.args[9]
        known = template >= 0
        assert (template[known] == deal.hi[known]).all()
        if kind == "take":  # nothing of seat s's own Risky-Bisk card, nor any Jingo card, is known
            assert not known[deal.spans[s][0]]
        row = run_chunks(spec.kernel, spec.args, np.arange(2), 256, 512, np.uint64(1), np.uint64(2), spec.n_counts)
        attempts, samples = row[:, 0].sum(), row[:, 1 + A_SAMPLES].sum()
        assert attempts == samples == 512, (i, kind, attempts, samples)
        assert taken in spec.describe["actions"]


def _exact_shares(spec) -> list[float]:
    """The win share of each action averaged over every ordering of the unseen HIGH cards at the positions the
    deal uses (the LOW cards are all known here): the expectation the advisor samples."""
    (P, hid, lod, var, pj, ps, tgt, pt, pack, template, pool, lo_template, lo_pool, forced, seat, dec, _m, _ms,
     actions) = spec.args  # fmt: skip
    assert (lo_template[: int(P)] >= 0).sum() == sum(1 for c in lo_template if c >= 0)
    lo = lo_template.copy()
    lo[lo < 0] = lo_pool[: (lo < 0).sum()]
    slot = int(dec) * int(P) + int(seat)
    hi = template.copy()
    hi[hi < 0] = pool
    f = forced.copy()
    _n, _rec, _keys, trace = K.play_fixed(P, hi, lo, var, pj, ps, tgt, pt, pack, f, np.uint64(0), np.uint64(0), 0)
    used = [i for i in range(int(trace[3 * int(P) + 1])) if template[i] < 0]
    rest = [i for i in range(len(template)) if template[i] < 0 and i not in used]
    totals = np.zeros(len(actions))
    n = 0
    for combo in itertools.permutations(pool.tolist(), len(used)):
        hi[used] = combo
        hi[rest] = [c for c in pool.tolist() if c not in set(combo)]
        for a, act in enumerate(actions):
            f[slot] = act
            _n, rec, _keys, _t = K.play_fixed(P, hi, lo, var, pj, ps, tgt, pt, pack, f, np.uint64(0), np.uint64(0), 0)
            totals[a] += rec[int(seat), K.R_WIN] / 60
        n += 1
    return list(totals / n)


def test_a_placement_judged_against_exact_enumeration():
    """Seed 3 at 2 players: seat 1 swapped with seat 0 and may tuck its card (BB-7); both Jingo cards are known to
    it, so only the Wet Bisk and the Bedtime cards are unseen: 24,024 orderings, enumerated. The advisor's win
    shares (heuristic models, no coin drawn) within 4.5 standard errors of the exact ones, each action and the
    paired difference."""
    doc = br.record(3, players=2)
    deal = br.replay(doc)
    i = next(j for j, (k, s, _v) in enumerate(deal.events) if k == "place" and deal.rec[s, K.R_BUCKET_TUCK] >= 0)
    spec, _taken = br.decision_spec(deal, i, ["heuristic"])
    exact = _exact_shares(spec)
    res = run(spec, trials=20_000, chunk_size=2_000, seed=5, progress=False)
    t = res.table
    names = spec.describe["actions"]
    for a, name in enumerate(names):
        row = t[(t.measure == "score") & (t.action == name)].iloc[0]
        assert abs(row.estimate - exact[a]) <= 4.5 * row.std_error + 1e-12, (name, row.estimate, exact[a])
    best = t[(t.measure == "score") & (t.verdict == "best")].action.iloc[0]
    other = next(n for n in names if n != best)
    d = t[(t.measure == "diff_score") & (t.action == other)].iloc[0]
    want = exact[names.index(other)] - exact[names.index(best)]
    assert abs(d.estimate - want) <= 4.5 * d.std_error + 1e-12


def test_review_of_the_example_through_the_cli(tmp_path, capsys):
    out = tmp_path / "review.csv"
    rc = cli.main(["review", "bisko-bobo", str(EXAMPLE), "--precision", "0.03", "--format", "csv", "--out", str(out),
                   "--quiet"])  # fmt: skip
    assert rc in (0, None)
    import pandas as pd

    t = pd.read_csv(out, comment="#")
    assert set(t["decision"]) == {"flingo", "swap", "tuck"}
    assert (t["loss_score"] >= 0).all() and set(t["verdict"]) <= {"best", "worse", "uncertain"}
    swap = t[t["decision"] == "swap"]
    assert "swap with seat 1" in set(swap["taken"]) and (swap["actions"] >= 2).all()
    rc = cli.main(["review", "bisko-bobo", str(EXAMPLE), "--seat", "1", "--precision", "0.05", "--quiet"])
    text = capsys.readouterr().out
    assert text.startswith("seat 1: ") and "forced choices not counted" in text
    # the table view leaves out a column that repeats the win share in every row (the review's score is that share;
    # the outright win nearly always is): csv and --all keep them
    assert (t["score_taken"] == t["win_taken"]).all() and (t["loss_score"] == t["loss_win"]).all()
    assert "score_taken" not in text and "loss_score" not in text
    assert (
        cli.main(["review", "bisko-bobo", str(EXAMPLE), "--seat", "1", "--precision", "0.05", "--quiet", "--all"]) == 0
    )
    assert "sole_win_taken" in capsys.readouterr().out


def test_record_through_the_cli(tmp_path, capsys):
    out = tmp_path / "r.json"
    assert cli.main(["record", "bisko-bobo", "--seed", "7", "--out", str(out)]) in (0, None)
    assert json.loads(out.read_text())["events"] == _doc()["events"]
    assert "won by seat 3" in capsys.readouterr().err
    assert cli.main(["record", "bisko-bobo", "--players", "7"]) == 2
    assert "players" in capsys.readouterr().err


def test_the_placement_after_a_swap_through_odds_is_the_reviews():
    """The example's event 8: seat 2 (QD up, KS tucked) swapped its AH with seat 1 for QS and may tuck it. The same
    position given to `odds --decision tuck` as flags (every opening, the Jingos, the LOW cards, each swap turn, the
    card received) samples the same deals: the same table."""
    deal = br.replay(_doc())
    spec, _ = br.decision_spec(deal, 8, ["heuristic"])
    from analysis.games import bisko_bobo_swap as bs

    flags = bs.swap_targets_spec(
        4, 2, decision="tuck", upright="QD", tucked="KS", jingo_card="AH", received="QS",
        opening=["0=KD JS", "1=AD 9H", "3=9D KH"], jingo=[0, 1], low=["0=2S", "1=2C", "2=3C", "3=4S"],
        declined=[3], swapped=["2=1"],
    )  # fmt: skip
    assert (flags.args[9] == spec.args[9]).all() and (flags.args[11] == spec.args[11]).all()
    a = run(spec, trials=1000, chunk_size=500, seed=3, progress=False).table
    b = run(flags, trials=1000, chunk_size=500, seed=3, progress=False).table
    share_a = a[a.measure == "score"].set_index("action").estimate
    share_b = b[b.measure == "win"].set_index("action").estimate
    assert share_a.to_dict() == share_b.to_dict()
    with pytest.raises(CardlabError, match="give --received CARD"):
        bs.swap_targets_spec(
            4, 2, decision="tuck", upright="QD", tucked="KS", jingo_card="AH",
            opening=["0=KD JS", "1=AD 9H", "3=9D KH"], jingo=[0, 1], low=["0=2S", "1=2C", "2=3C", "3=4S"],
            declined=[3], swapped=["2=1"],
        )  # fmt: skip


def test_review_models_apply_over_the_records_players():
    """--strategy in a review: SEAT=NAME replaces that seat's model only, the others stay the record's players; a
    bare NAME replaces every seat (a new-user trial found the record's players silently dropped)."""
    from analysis.review import review_models

    recorded = ["heuristic", "random", "heuristic", "heuristic"]
    names = bb.seat_strategies(review_models(["0=always-jingo"], recorded, "heuristic"), 4)
    assert [s.name for s in names] == ["always-jingo", "random", "heuristic", "heuristic"]
    names = bb.seat_strategies(review_models(["no-swap"], recorded, "heuristic"), 4)
    assert [s.name for s in names] == ["no-swap"] * 4
    assert review_models(None, None, "heuristic") == ["heuristic"]
    assert review_models(None, ["0=greedy", "1=planning"], "x") == ["0=greedy", "1=planning"]


def test_the_summary_of_every_seat_gives_each_seats_losses_in_its_unit():
    """Without --seat the losses add up per seat (different seats' chances do not add): each seat's sum, named
    with its unit, each loss against the best action at its turn."""
    import pandas as pd

    from analysis.review import summary
    from analysis.tables import Result

    rows = [
        {"event": 1, "seat": 0, "verdict": "worse", "loss_score": 0.02},
        {"event": 2, "seat": 1, "verdict": "worse", "loss_score": 0.05},
        {"event": 3, "seat": 1, "verdict": "worse", "loss_score": 0.01},
        {"event": 4, "seat": 2, "verdict": "best", "loss_score": 0.0},
    ]
    meta = {"seat": None, "forced": 2, "strategies": ["heuristic"] * 3, "over": True}
    line = summary(Result(pd.DataFrame(rows), meta), "forced choices", cost="share")
    assert (
        "3 clearly worse than the best, their losses summing to 2.0 percentage points of win share for seat 0, 6.0 "
        "percentage points of win share for seat 1 (largest at event 2; each against the best action at its own "
        "turn, so the sum measures the errors, not what the game lost)"
    ) in line


def test_the_reports_compile_ahead_job_makes_the_reviews_spec():
    """The report's helper compiles the review's advisor kernel from the reviewed deal's first free decision
    (analysis.sections.bisko_bobo.COMPILE_AHEAD): the kernel its job names."""
    from analysis.compile_ahead import _spec
    from analysis.sections.bisko_bobo import COMPILE_AHEAD

    job = next(j for j in COMPILE_AHEAD if j[2] == "reviewed_spec")
    assert _spec(job).kernel == job[0]
