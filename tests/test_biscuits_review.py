"""Biscuits records and reviews (issue 34, positions.md): the record writer against the simulator and the rules,
the replay's refusals (BI-4, BI-5, BI-7, BI-9, BI-10), positions that hold only what their seat knew, the review's
no-peeking property and a known answer, the CLI round trip."""

from __future__ import annotations

import copy
import json
import subprocess
import sys

import pytest

from analysis import cli
from analysis.driver import run
from analysis.errors import CardlabError
from analysis.games import biscuits as bi
from analysis.games import biscuits_odds as bo
from analysis.games import biscuits_review as br

STRATEGIES = [["greedy"], ["planning"], ["random"], ["greedy-actions"], ["0=planning", "1=random", "2=greedy-actions"]]


@pytest.mark.parametrize("strategies", STRATEGIES, ids=lambda s: "-".join(s))
@pytest.mark.parametrize("seed", [1, 5])
def test_a_record_is_the_first_hand_of_simulate_with_the_same_seed(seed, strategies):
    """The record's points are the ones simulate counts for trial 0 of the same seed (one hand), and every
    event is legal under the rules (the replay checks BI-4 .. BI-10)."""
    doc = br.record(seed=seed, strategies=strategies)
    hand = br.replay(doc)
    assert hand.over and doc["result"] == hand.result()
    sim = run(bi.simulation_spec(strategies=strategies, unit="hand"), trials=1, seed=seed, progress=False).table
    by = {(m, s): e for m, s, e in zip(sim["measure"], sim["seat"], sim["estimate"])}
    assert (by[("team_points_per_hand", 0)], by[("team_points_per_hand", 1)]) == (
        doc["result"]["points"]["NS"],
        doc["result"]["points"]["EW"],
    )
    assert by[("out_first", doc["result"]["first_out"])] == 1.0 and by[("starter", doc["starter"])] == 1.0
    kinds = {next(k for k in br.KINDS if k in e) for e in doc["events"]}
    assert {"give", "play", "pass"} <= kinds
    if strategies == ["random"]:
        assert {"send", "handover"} & kinds  # random players take BI-10's offers half the time


@pytest.fixture(scope="module")
def example() -> dict:
    return br.record(seed=1, strategies=["greedy-actions"])


def _bad(doc: dict, change) -> str:
    d = copy.deepcopy(doc)
    change(d)
    with pytest.raises(CardlabError) as e:
        br.replay(d)
    msg = str(e.value)
    assert "\n" not in msg
    return msg


def test_illegal_events_are_refused_naming_the_event_and_rule(example):
    ev = example["events"]
    first_play = next(i for i, e in enumerate(ev) if "play" in e)
    m = _bad(example, lambda d: d["events"].insert(0, {"seat": 0, "play": "2C"}))
    assert m.startswith("bad record: event 0: ") and "give" in m and "(BI-4)" in m
    m = _bad(example, lambda d: d["events"][0].update(give=d["hands"][str(ev[0]["seat"])].split()[0]))
    assert "gives 1 cards; two (BI-4)" in m
    m = _bad(example, lambda d: d["events"].__setitem__(first_play, {"seat": ev[first_play]["seat"], "pass": True}))
    assert "passes on lead" in m and "(BI-5)" in m
    wrong = (ev[first_play]["seat"] + 1) % 4
    m = _bad(example, lambda d: d["events"][first_play].update(seat=wrong))
    assert f"event {first_play}: seat {wrong}" in m and "(BI-5)" in m
    hand = br.replay(example)
    # a single on the table and a card of a lower rank in the hand (BI-7: it cannot beat)
    i, low = next(
        (i, (st.hands[st.seat] & -st.hands[st.seat]).bit_length() - 1)
        for i, st in enumerate(hand.states)
        if st.kind == "play" and st.current.bit_count() == 1
        and ((st.hands[st.seat] & -st.hands[st.seat]).bit_length() - 1) // 4 < (st.current.bit_length() - 1) // 4
    )  # fmt: skip
    m = _bad(example, lambda d: d["events"][i].update(play=bi.cards_of(1 << low)))
    assert m.startswith(f"bad record: event {i}: ") and "does not beat" in m and "(BI-7)" in m
    assert "the hand is over" in _bad(example, lambda d: d["events"].append({"seat": 0, "pass": True}))
    offer = next(i for i, e in enumerate(ev) if "send" in e or "handover" in e)
    m = _bad(example, lambda d: d["events"].pop(offer))
    assert f"event {offer}: " in m and "(BI-10)" in m


def test_bad_record_documents_are_refused(example):
    assert "dealt 1 cards" in _bad(example, lambda d: d["hands"].update({"0": "3D"}))
    h0 = example["hands"]["0"].split()
    assert "dealt twice" in _bad(
        example, lambda d: d["hands"].update({"1": h0[0] + " " + d["hands"]["1"].split(" ", 1)[1]})
    )
    assert "not a biscuits one" in _bad(example, lambda d: d.update(game="bismarck"))
    m = _bad(example, lambda d: d["events"][5].update(play="3D", **{"pass": True}))
    assert m.startswith("bad record: event 5: expected") and "oneOf" not in m
    m = _bad(example, lambda d: d["result"]["points"].update(NS=99))
    assert m.startswith("bad record: result ") and "is not what its events give" in m
    assert "strategy 'nobody'" in _bad(example, lambda d: d["strategies"].update({"0": "nobody"}))
    assert "bad record" in _bad(example, lambda d: d.pop("starter"))


def test_a_position_holds_only_what_its_seat_knew(example):
    """Each position: the seat's own cards, the sizes of the others, the public play, and of the partner's hand
    only the cards the seat gave it; every one is a position the advisor takes."""
    hand = br.replay(example)
    for i, st in enumerate(hand.states):
        pos = br.position_at(hand, i)
        assert pos["seat"] == st.seat and pos["hand"] == bi.cards_of(st.hands[st.seat])
        if st.kind == "give":
            assert set(pos) == {"seat", "decision", "hand", "starter"}
            continue
        partner = (st.seat + 2) % 4
        assert set(pos.get("known", {})) <= {str(partner)}
        if "known" in pos:
            assert bi.to_mask(pos["known"][str(partner)]) & ~st.gave[st.seat] == 0
        kw = {k: v for k, v in pos.items() if k != "decision"}
        bo.state_spec(decision=pos["decision"], strategies=["greedy"], **kw)


def _prefix_and_swap(doc: dict, k: int, seat: int) -> tuple[dict, dict]:
    """The record up to event ``k`` (a decision of ``seat``), and the same with cards of two other seats that no
    event before ``k`` names swapped (what ``seat`` could not see)."""
    a = copy.deepcopy(doc)
    a["events"] = a["events"][: k + 1]
    a.pop("result")
    named = 0
    for e in a["events"][:k]:
        for key in ("give", "play", "send", "return"):
            if isinstance(e.get(key), str):
                named |= bi.to_mask(e[key])
    others = [s for s in range(4) if s != seat]
    hidden = {s: [c for c in range(52) if (bi.to_mask(a["hands"][str(s)]) & ~named) >> c & 1] for s in others}
    x, y = [s for s in others if hidden[s]][:2]
    b = copy.deepcopy(a)
    hx, hy = bi.to_mask(b["hands"][str(x)]), bi.to_mask(b["hands"][str(y)])
    for cx, cy in list(zip(hidden[x], hidden[y]))[:3]:
        hx, hy = (hx & ~(1 << cx)) | (1 << cy), (hy & ~(1 << cy)) | (1 << cx)
    b["hands"][str(x)], b["hands"][str(y)] = bi.cards_of(hx), bi.cards_of(hy)
    assert b["hands"] != a["hands"]
    return a, b


def test_a_review_does_not_peek_at_hidden_cards(example):
    """Changing other seats' cards that the reviewed seat could not see changes nothing in its review."""
    hand = br.replay(example)
    seat = 2
    ks = [i for i, st in enumerate(hand.states) if st.seat == seat and st.kind != "give"]
    k = ks[len(ks) // 2]
    a, b = _prefix_and_swap(example, k, seat)
    ra = br.review(a, seat=seat, precision=0.5, max_trials=2048, strategies=["greedy"])
    rb = br.review(b, seat=seat, precision=0.5, max_trials=2048, strategies=["greedy"])
    assert len(ra.table) >= 2
    assert ra.table.equals(rb.table)
    # the check has teeth: a seat whose cards were swapped sees its own change
    other = next(s for s in range(4) if s != seat and br.replay(a).hands[s] != br.replay(b).hands[s])
    i = next(i for i, st in enumerate(br.replay(a).states) if st.seat == other)
    assert br.position_at(br.replay(a), i) != br.position_at(br.replay(b), i)


def test_declining_a_handover_to_a_partner_who_goes_out_is_flagged():
    """BI-10, BI-11: a seat that won a Fancy trick and handed the lead to a partner holding one card (who then
    leads it and goes out) is made, in a copy of the record, to decline; the review names the handover as the
    best action and the declined one as taken, with a loss interval that does not favour declining."""
    for seed in range(1, 200):
        doc = br.record(seed=seed, strategies=["greedy-actions"])
        hand = br.replay(doc)
        found = [
            i for i, (e, st) in enumerate(zip(doc["events"], hand.states))
            if "handover" in e and st.hands[(st.seat + 2) % 4].bit_count() == 1 and e["handover"]
        ]  # fmt: skip
        if found:
            break
    else:
        pytest.skip("no hand among the seeds hands the lead to a partner holding one card")
    i = found[0]
    seat = doc["events"][i]["seat"]
    d = copy.deepcopy(doc)
    d["events"] = d["events"][:i] + [{"seat": seat, "handover": False}]
    d.pop("result")
    t = br.review(d, seat=seat, precision=0.25, strategies=["greedy-actions"]).table
    row = t[t["event"] == i].iloc[0]
    assert row["decision"] == "handover" and row["taken"] == "keep the lead" and row["best"] == "hand over the lead"
    assert row["verdict"] in ("worse", "uncertain") and row["loss_score_high"] >= 0


def test_cli_record_and_review_round_trip(tmp_path):
    rec = tmp_path / "hand.json"
    p = subprocess.run(
        [sys.executable, "-m", "analysis", "record", "biscuits", "--seed", "3", "--out", str(rec)],
        capture_output=True,
        text=True,
    )
    assert p.returncode == 0, p.stderr
    doc = json.loads(rec.read_text())
    assert doc == br.record(seed=3) | {"version": doc["version"]}
    out = tmp_path / "review"
    p = subprocess.run(
        [sys.executable, "-m", "analysis", "review", "biscuits", str(rec), "--seat", "1", "--quiet",
         "--precision", "0.5", "--report", str(out)],
        capture_output=True, text=True,
    )  # fmt: skip
    assert p.returncode == 0, p.stderr
    summary, header = p.stdout.split("\nbiscuits,", 1)  # the wrapped paragraph before the header
    assert p.stdout.startswith("seat 1: ") and "against greedy models" in summary.replace("\n", " ")

    assert "decision" in p.stdout and "the deal" in p.stdout
    assert {f.name for f in out.iterdir()} == {"README.md", "review.html", "fig01.png"}
    assert "loss_score" in (out / "README.md").read_text()
    p = subprocess.run(
        [sys.executable, "-m", "analysis", "review", "biscuits", "--help"], capture_output=True, text=True
    )
    assert "default 0.25, net points" in p.stdout


@pytest.mark.parametrize(
    "argv, msg",
    [
        (["review", "biscuits", "/nonexistent.json"], "cannot read the record"),
        (["review", "biscuits", "RECORD", "--seat", "9"], "bad --seat 9"),
        (["review", "biscuits", "RECORD", "--strategy", "nobody"], "nobody"),
        (["record", "biscuits", "--strategy", "nobody"], "nobody"),
        (["record", "biscuits", "--players", "3"], "players"),
    ],
)
def test_bad_review_and_record_input_is_one_line(argv, msg, tmp_path, capsys, example):
    rec = tmp_path / "r.json"
    rec.write_text(json.dumps(example))
    code = cli.main([str(rec) if a == "RECORD" else a for a in argv])
    err = capsys.readouterr().err
    assert code == 2 and msg in err and err.count("\n") == 1, err


def test_the_example_record_in_seeds_replays():
    doc = json.loads((bi.seeds_dir() / "records" / "biscuits-example.json").read_text())
    assert br.replay(doc).over
    assert doc["events"] == br.record(seed=1, strategies=["planning"])["events"]


def test_a_review_takes_an_exchange_where_the_sender_sent_its_last_card():
    """BI-10: a seat may send its last card in the Plain exchange and get one back; the receiver's return is
    reviewed with the sender holding none for the moment (seed 3 with greedy-actions players has one)."""
    doc = br.record(seed=3, strategies=["greedy-actions"])
    hand = br.replay(doc)
    i = next(
        i for i, st in enumerate(hand.states)
        if st.kind == "return" and st.hands[(st.seat + 2) % 4] == 0
    )  # fmt: skip
    pos = br.position_at(hand, i)
    assert pos["cards_left"][str((pos["seat"] + 2) % 4)] == 0
    t = br.review(doc, seat=hand.states[i].seat, precision=0.5, strategies=["greedy-actions"]).table
    row = t[t.event == i].iloc[0]
    assert row.decision == "exchange_return" and row.on_table.startswith("received ")


def test_a_review_under_pass_locks_out_passes_on_who_passed_in_the_trick():
    """Variant pass_locks_out: a seat that passed is out of the trick; the review's positions name the seats that
    passed earlier in the trick (public), and every position is one the advisor takes."""
    for seed in range(1, 30):
        doc = br.record(seed=seed, strategies=["greedy"], variants={"pass_locks_out": "true"})
        hand = br.replay(doc)
        found = [i for i, st in enumerate(hand.states) if "trick_passed" in br.position_at(hand, i)]
        if found:
            break
    else:
        pytest.skip("no hand among the seeds has a pass before the current play of a trick")
    i = found[0]
    pos = br.position_at(hand, i)
    assert set(pos["trick_passed"]) <= set(range(4)) - {pos["seat"], pos["by"]}
    kw = {k: v for k, v in pos.items() if k != "decision"}
    bo.state_spec(decision="play", variants={"pass_locks_out": "true"}, strategies=["greedy"], **kw)
    t = br.review(doc, seat=pos["seat"], precision=0.5, strategies=["greedy"]).table
    assert i in set(t.event) or len(bo.state_spec(decision="play", variants={"pass_locks_out": "true"}, **kw)
                                    .describe["actions"]) == 1  # fmt: skip
