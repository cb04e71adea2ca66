"""Bisko-Bobo's advisor for the swap with whom (issue 36, BB-6): the LOW cards and earlier swaps as input, each
eligible partner its own row; the kernel against the reference game on the same sampled decks, the swap order
from the LOW cards, and refusals naming the rule."""

from __future__ import annotations

import numpy as np
import pytest

from analysis import driver
from analysis.errors import CardlabError
from analysis.games import bisko_bobo as bb
from analysis.games import bisko_bobo_swap as bs
from kernels import rng
from kernels.advise import A_FIELDS, A_SAMPLES, A_SCORE, A_WIN
from kernels.bisko_bobo import decisions as D
from tests.reference import bisko_bobo as ref

BASE = dict(upright="KS", tucked="9H", jingo_card="9D", decision="swap")


def _ref_forced(P: int, forced: np.ndarray) -> dict:
    out = {}
    for s in range(P):
        if forced[s] >= 0:
            out[("action", s)] = int(forced[s])
        f = int(forced[P + s])
        if f >= 1:
            out[("swap", s)] = f - 1
        elif f == 0:
            out[("swap", s)] = -1
    return out


@pytest.mark.parametrize(
    "P, seat, position",
    [
        (4, 0, {"low": ["0=4S", "2=4H", "3=3S"]}),
        (4, 2, {"low": ["0=4S", "2=4H", "3=3S"], "declined": [0], "opening": ["0=AH KD", "1=AC KH"], "flingo": ["1=QD"],
                "upright": "KC", "tucked": "9S", "jingo_card": "QC"}),
        (5, 1, {"low": ["1=5S", "2=2C", "3=3D", "4=4H"], "opening": ["0=AH KD"], "flingo": ["0=QD"]}),
        (4, 0, {"low": ["0=4S", "2=4H", "3=3S"], "opening": ["1=AC KH"], "flingo": ["1=QC JD"]}),
    ],
)  # fmt: skip
def test_the_swap_advisor_equals_the_reference_game_on_each_sample(P, seat, position):
    """Per sample: the decks dealt as the kernel deals them; a sample counts when its Jingo players are the ones
    given; each action (no swap, each partner) replayed by the reference game (heuristic players: every choice
    is a table of 0s and 1s, so no draw is needed) to the same win share, summed."""
    pos = {**BASE, **position}
    spec = bs.swap_targets_spec(P, seat, **pos)
    (
        _P,
        hid,
        lod,
        vv,
        pj,
        ps,
        tgt,
        pt,
        _pack,
        template,
        pool,
        lo_template,
        lo_pool,
        forced,
        _s,
        _dec,
        mask,
        _ms,
        acts,
    ) = spec.args
    n = 60
    row = driver.run_chunks(spec.kernel, spec.args, np.zeros(1, dtype=np.int64), n, n, np.uint64(3), np.uint64(0),
                            spec.n_counts)[0]  # fmt: skip
    variants = bb.rules().resolve_variants({})
    st = rng.new_state()
    hi = np.zeros(len(template), dtype=np.int64)
    lo = np.zeros(len(lo_template), dtype=np.int64)
    kept = 0
    sums = np.zeros(len(acts))
    outright = np.zeros(len(acts))
    for t in range(n):
        D._sample_decks(st, np.uint64(3), np.uint64(0), t, template, pool, pool.copy(), hi, lo_template, lo_pool,
                        lo_pool.copy(), lo)  # fmt: skip
        assert all(hi[i] == template[i] for i in range(len(template)) if template[i] >= 0)
        base, *_ = ref.play(P, hi.tolist(), lo.tolist(), variants, pj, ps, tgt, pt, coin=lambda p: p >= 1.0,
                            below=lambda k: 0, forced=_ref_forced(P, forced))  # fmt: skip
        if [1 if s.jingo_card is not None or s.action == 1 else 0 for s in base] != [
            (int(mask) >> s) & 1 for s in range(P)
        ]:
            continue
        kept += 1
        for a, act in enumerate(acts):
            f = forced.copy()
            f[P + seat] = act
            _, winners, _, _ = ref.play(P, hi.tolist(), lo.tolist(), variants, pj, ps, tgt, pt,
                                        coin=lambda p: p >= 1.0, below=lambda k: 0, forced=_ref_forced(P, f))  # fmt: skip
            sums[a] += 60 // len(winners) if seat in winners else 0
            outright[a] += 1 if winners == [seat] else 0
    assert row[0] == n and row[1 + A_SAMPLES] == kept and kept > 0
    A = len(acts)
    per = row[2 : 2 + A_FIELDS * A].reshape(A, A_FIELDS)
    assert per[:, A_SCORE].tolist() == sums.tolist()
    assert per[:, A_WIN].tolist() == outright.tolist()


def test_the_order_and_the_rows_follow_the_low_cards_and_earlier_swaps():
    """BB-6: the highest LOW card swaps first (on equal rank S > D > H > C); a partner already swapped is no
    row; the answer ranks the rest."""
    assert bs._order({0: bb.DECK.indices("3H")[0], 1: bb.DECK.indices("3S")[0], 2: bb.DECK.indices("4C")[0]}) == [
        2,
        1,
        0,
    ]
    spec = bs.swap_targets_spec(5, 2, **BASE, low=["0=5S", "1=4D", "2=3C", "3=2S", "4=2H"], swapped=["0=3"],
                                declined=[1], opening=["0=AH KD", "1=AD KC"], jingo=[0, 1])  # fmt: skip
    assert spec.describe["actions"] == ["no swap", "swap with seat 4"]
    r = driver.run(spec, trials=4000, seed=1, progress=False)
    t = r.table
    assert set(t.measure) == {"win", "sole_win", "diff_win", "diff_sole_win", "acceptance"}
    assert t[t.measure == "win"].estimate.between(0, 1).all()
    line = bs.answer(t)
    w = t[t.measure == "win"]
    if w.verdict.isin(["uncertain", "equal"]).any():  # not separated from the best: the answer names no winner
        assert line.startswith("No clear difference between ")
    else:
        assert line.split(":")[0] in ("No swap", "Swap with seat 4") and "clearly worse" in line


def test_later_flingo_cards_are_seen_and_the_compulsory_swap_keeps_with_whom():
    """At the swap every seat has chosen (BB-5 before BB-6): a later seat's Flingo cards sit where they were dealt
    (seat 1's QC and its reward JD after seat 0's Jingo card, 4 players: HIGH positions 10 and 11); under
    bingo_swap_optional=false the highest unswapped player must swap: each partner is a row, 'no swap' is not."""
    pos = {**BASE, "low": ["0=4S", "2=4H", "3=3S"], "opening": ["1=AC KH"], "flingo": ["1=QC JD"]}
    spec = bs.swap_targets_spec(4, 0, **pos)
    template, pool = spec.args[9], spec.args[10]
    assert template[10] == bb.DECK.indices("QC")[0] and template[11] == bb.DECK.indices("JD")[0]
    assert not set(bb.DECK.indices("QC JD")) & set(pool.tolist())
    must = bs.swap_targets_spec(4, 0, **pos, variants={"bingo_swap_optional": "false"})
    assert must.describe["actions"] == ["swap with seat 2", "swap with seat 3"]
    # the kernel keeps the samples where the seat starts the swap it must start (it has no free choice to bucket)
    t = driver.run(must, trials=300, seed=2, progress=False).table
    assert t[t.measure == "acceptance"].estimate.iloc[0] > 0.5
    assert (t[t.measure == "win"].trials > 100).all()
    with pytest.raises(CardlabError, match="seat 0 is the highest unswapped player and must swap, and seat 3"):
        bs.swap_targets_spec(4, 0, **{**BASE, "low": ["0=4S", "3=3S"]}, variants={"bingo_swap_optional": "false"})
    with pytest.raises(CardlabError, match="give every later seat's Flingo cards with --flingo \\(seats 1, 2"):
        bs.swap_targets_spec(4, 0, **{**pos, "low": ["0=4S", "3=3S"]})
    with pytest.raises(CardlabError, match="earns one reward card"):
        bs.swap_targets_spec(4, 0, **{**pos, "flingo": ["1=QC"]})


@pytest.mark.parametrize(
    "position, msg",
    [
        ({"low": ["2=4H", "3=3S"]}, "give the deciding seat's own LOW card"),
        ({"low": ["0=2C", "2=4H"]}, "give --swapped 2=SEAT or --declined 2"),
        ({"low": ["0=4S", "2=4H"], "swapped": ["2=0"]}, "has not chosen yet"),
        ({"low": ["0=AS", "2=4H"]}, "not a LOW card for 4 players (those are 2 to 8 of each suit, BB-1)"),
        ({"low": ["0=4S"]}, "no Jingo player comes after seat 0"),
        ({"low": ["0=4S", "2=4H"], "swapped": ["2=2"]}, "bad --swapped"),
        ({"low": ["0=4S", "2=4H"], "jingo": [2]}, "--jingo names the Jingos of the seats before the deciding seat 0"),
    ],
)
def test_bad_swap_positions_are_refused_in_one_line(position, msg):
    with pytest.raises(CardlabError) as e:
        bs.swap_targets_spec(4, 0, **BASE, **position)
    assert msg in str(e.value) and "\n" not in str(e.value)


def test_the_cli_answers_first(capsys):
    from analysis import cli

    code = cli.main(["odds", "bisko-bobo", "--players", "4", "--seat", "0", "--decision", "swap", "--upright", "KS",
                     "--tucked", "9H", "--jingo-card", "9D", "--low", "0=4S", "--low", "2=4H", "--low", "3=3S",
                     "--trials", "2000", "--quiet"])  # fmt: skip
    out = capsys.readouterr().out
    first = out.splitlines()[0]
    assert code == 0 and (first.startswith("No clear difference between ") or first.split(":")[0] in (
        "Swap with seat 2", "Swap with seat 3", "No swap"))  # fmt: skip
    assert "swap with seat 2" in out and "swap with seat 3" in out
    # seat 1, given no LOW card, took the Flingo (BB-5, BB-6): the header says so, and that its cards were drawn
    assert "assumed: seat 1 took the Flingo (no --low card: --low names every Jingo player); its Flingo cards not " \
        "given (--flingo): drawn on each sampled deal" in " ".join(out.split())  # fmt: skip
    # without --low the swap is whether, not with whom: the answer says who chooses the partner and how to rank them
    code = cli.main(["odds", "bisko-bobo", "--players", "4", "--seat", "1", "--decision", "swap", "--upright", "KS",
                     "--tucked", "9H", "--jingo-card", "QD", "--jingo", "0", "--trials", "500", "--quiet"])  # fmt: skip
    out = " ".join(capsys.readouterr().out.split())
    assert (
        code == 0
        and (
            "With whom: the models' own choice of partner here; --low SEAT=CARD for every Jingo player ranks each partner "
            "bisko-bobo, 4 players"  # the answer's end, then the header
        )
        in out
    )
    code = cli.main(["odds", "bisko-bobo", "--players", "4", "--seat", "0", "--upright", "KS", "--tucked", "9H",
                     "--low", "0=4S", "--trials", "20"])  # fmt: skip
    assert code == 2 and "give --decision swap" in capsys.readouterr().err


def test_the_tuck_advisor_keeps_only_deals_where_the_dealt_card_is_still_held():
    """--jingo-card is the card dealt; at the placement (BB-7) the seat must still hold it: a deal where a swap
    replaced it (even by another card of the tucked suit) is set aside. The kernel keeps exactly the samples the
    reference game says so of, on the same decks."""
    spec = bb.odds_spec(4, 0, decision="tuck", upright="KS", tucked="9H", jingo_card="TH")
    assert spec.args[13][4 + 0] == 0  # the seat kept its card: its own swap is "no swap", whatever the strategy
    (P, hid, lod, vv, pj, ps, tgt, pt, _pack, template, pool, lo_template, lo_pool, forced, *_r) = spec.args
    n = 300
    row = driver.run_chunks(spec.kernel, spec.args, np.zeros(1, dtype=np.int64), n, n, np.uint64(4), np.uint64(0),
                            spec.n_counts)[0]  # fmt: skip
    variants = bb.rules().resolve_variants({})
    st = rng.new_state()
    hi = np.zeros(len(template), dtype=np.int64)
    lo = np.zeros(len(lo_template), dtype=np.int64)
    th = bb.DECK.indices("TH")[0]
    kept = changed = 0
    for t in range(n):
        D._sample_decks(st, np.uint64(4), np.uint64(0), t, template, pool, pool.copy(), hi, lo_template, lo_pool,
                        lo_pool.copy(), lo)  # fmt: skip
        seats, *_ = ref.play(P, hi.tolist(), lo.tolist(), variants, pj, ps, tgt, pt, coin=lambda p: p >= 1.0,
                             below=lambda k: 0, forced=_ref_forced(P, forced))  # fmt: skip
        card = seats[0].jingo_card
        kept += card == th
        changed += card != th and card // 13 == th // 13  # swapped for another heart: tuckable, but not the card
    assert row[1] == kept and changed > 0


def test_a_position_document_and_the_flags_agree(tmp_path, capsys):
    """positions.md: the same position as a JSON document (seat-keyed fields as objects) and as flags gives the
    same rows; flags override the document; bad field types are one line."""
    import json

    from analysis import cli

    doc = {"game": "bisko-bobo", "players": 4, "seat": 0, "decision": "swap", "upright": "KS", "tucked": "9H",
           "jingo_card": "9D", "low": {"0": "4S", "2": "4H", "3": "3S"}, "models": "heuristic"}  # fmt: skip
    f = tmp_path / "pos.json"
    f.write_text(json.dumps(doc))
    common = ["--trials", "500", "--quiet", "--format", "json"]
    assert cli.main(["odds", "bisko-bobo", "--position", str(f), *common]) == 0
    a = json.loads(capsys.readouterr().out)["rows"]
    flags = ["--players", "4", "--seat", "0", "--decision", "swap", "--upright", "KS", "--tucked", "9H",
             "--jingo-card", "9D", "--low", "0=4S", "--low", "2=4H", "--low", "3=3S"]  # fmt: skip
    assert cli.main(["odds", "bisko-bobo", *flags, *common]) == 0
    b = json.loads(capsys.readouterr().out)["rows"]
    assert a == b and any(r["action"] == "swap with seat 3" for r in a)
    f.write_text(json.dumps({**doc, "low": ["0=4S"]}))
    assert cli.main(["odds", "bisko-bobo", "--position", str(f), *common]) == 2
    assert '\'low\' is an object, e.g. {"2": "4H"}' in capsys.readouterr().err
    assert cli.main(["odds", "bisko-bobo", "--upright", "KS", "--tucked", "9H", "--trials", "10"]) == 2
    assert "give --seat SEAT" in capsys.readouterr().err


@pytest.mark.parametrize(
    "P, seat, position, msg",
    [
        (4, 1, {"upright": "KS", "tucked": "TC", "jingo": [0], "flingo": ["0=QD"], "decision": "flingo"},
         "both --flingo and --jingo"),
        (4, 1, {"upright": "KS", "tucked": "TC", "jingo": [0, 0], "decision": "flingo"}, "--jingo names a seat twice"),
        (4, 1, {"upright": "KS", "tucked": "TC", "opening": ["1=AH KD"], "decision": "flingo"}, "own cards once"),
        (4, 1, {"upright": "KS", "tucked": "TC", "jingo_card": "AC", "decision": "flingo"}, "--jingo-card is for"),
        (4, 1, {**BASE, "low": ["0=4C", "1=8C"], "flingo": ["0=QD"], "opening": ["0=AH KD"]}, "holds a LOW card"),
        (4, 1, {**BASE, "low": ["0=8S", "1=6H"], "declined": [0]}, "no Jingo player comes after seat 1"),
        (4, 1, {**BASE, "low": ["0=8S", "1=6H", "3=2C"], "swapped": ["3=0"]}, "has not chosen yet"),
    ],
)  # fmt: skip
def test_contradictory_positions_are_refused(P, seat, position, msg):
    from analysis.games.bisko_bobo import odds

    with pytest.raises(CardlabError) as e:
        odds({"trials": 10, "progress": False}, players=P, seat=seat, **position)
    assert msg in str(e.value) and "\n" not in str(e.value), str(e.value)


def test_a_swap_position_no_deal_can_match_is_refused():
    """Seat 2's opening Bisko forces a Jingo (BB-5), but it holds no LOW card: no deal matches; one line, exit 2."""
    from analysis import cli

    code = cli.main(["odds", "bisko-bobo", "--players", "4", "--seat", "1", "--decision", "swap", "--upright", "KS",
                     "--tucked", "TC", "--jingo-card", "9D", "--low", "0=4C", "--low", "1=8C", "--opening", "2=AS QS",
                     "--opening", "0=AH KD", "--jingo", "0", "--trials", "500", "--quiet"])  # fmt: skip
    assert code == 2


def test_a_swap_without_the_earlier_choices_says_which_seats_and_that_its_own_jingo_is_implied():
    """A new user gave --decision swap without --jingo for the earlier seats and wondered whether its own Jingo was
    wanted too: the refusal names the earlier seats and says the seat's own Jingo follows from --jingo-card."""
    with pytest.raises(CardlabError, match=r"seats 0\.\.1\) with --flingo/--jingo; seat 2's own Jingo is implied "
                                           r"by --jingo-card"):  # fmt: skip
        bb.odds_spec(4, 2, upright="KS", tucked="9H", jingo_card="9D", decision="swap")
    with pytest.raises(CardlabError, match=r"choice \(seat 0\) with --flingo/--jingo; seat 1's own Jingo"):
        bb.odds_spec(4, 1, upright="KS", tucked="9H", jingo_card="9D", decision="tuck")
