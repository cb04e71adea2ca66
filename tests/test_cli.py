"""The command line: output formats, and one plain line with exit code 2 for every bad input."""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from analysis.cli import main
from tests.inprocess import cli as run


def console(*args):
    """Through a new interpreter (``python -m analysis``), as the console script runs; :func:`run` is the same
    ``main`` in this process."""
    p = subprocess.run([sys.executable, "-m", "analysis", *args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def test_version_and_console_script():
    code, out, _ = console("--version")
    assert code == 0 and out.startswith("cardlab ")


def test_games_lists_variants_and_strategies():
    code, out, _ = run("games", "--format", "json")
    info = json.loads(out)["rows"]
    bb = next(g for g in info if g["game"] == "bisko-bobo")
    assert bb["players"] == {"min": 2, "max": 6, "default": 4}
    assert bb["variants"]["bisk_suit_order"]["default"] == "suit_rank"
    assert {"heuristic", "always-flingo", "always-jingo", "random", "recommended"} <= set(bb["strategies"])


def test_simulate_json_shape(capsys):
    assert main(["simulate", "bisko-bobo", "--players", "3", "--trials", "2000", "--format", "json", "--quiet"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["meta"]["players"] == 3 and doc["meta"]["trials"] == 2000
    row = doc["rows"][0]
    for col in ("measure", "seat", "trials", "estimate", "std_error", "ci_low", "ci_high"):
        assert col in row
    assert "elapsed_s" not in row


def test_simulate_csv_and_out_file(tmp_path, capsys):
    out = tmp_path / "r.csv"
    assert main(["simulate", "bisko-bobo", "--trials", "1000", "--format", "csv", "--out", str(out), "--quiet"]) == 0
    assert out.read_text().startswith("measure,seat,bisk,trials")


def test_eval_json_rows():
    code, out, _ = run("eval", "bisko-bobo", "KC JC TC", "AS KS AH KH", "--format", "json")
    rows = json.loads(out)["rows"]
    assert [r["bisk"] for r in rows] == ["Tri Bisk", "Two Bisk"]
    assert rows[0]["type_index"] == 3 and rows[0]["key"] > rows[1]["key"]


def test_eval_ranks_several_sets_and_says_which_wins():
    # issue 36: BB-11/BB-12, the highest key wins; a one-line answer first in table output
    code, out, _ = run("eval", "bisko-bobo", "QH QD", "KC JC TC", "AS KS AH KH")
    assert code == 0 and out.splitlines()[0].startswith("'KC JC TC' wins with a Tri Bisk; then 'AS KS AH KH'")
    code, out, _ = run("eval", "bisko-bobo", "QH QD", "KC JC TC", "AS KS AH KH", "--format", "json")
    rows = json.loads(out)["rows"]
    assert [r["rank"] for r in rows] == [3, 1, 2]
    assert sorted(rows, key=lambda r: -r["key"]) == sorted(rows, key=lambda r: r["rank"])
    code, out, _ = run("eval", "bisko-bobo", "AS KS", "AS KS")
    assert out.startswith("Tie: 'AS KS' and 'AS KS'")


def test_improve_prints_the_tables_found_and_writes_only_where_told(tmp_path):
    # issue 36: the tables found as departures from the heuristic; written only to the path given
    from analysis.games import bisko_bobo as bb

    stored = bb.recommended_path().read_bytes()
    argv = ["improve", "bisko-bobo", "--players", "3", "--trials", "200000", "--rounds", "1", "--quiet"]
    code, out, _ = run(*argv, "--format", "json", "--write", str(tmp_path / "rec.json"))
    doc = json.loads(out)
    assert code == 0 and doc["meta"]["answer"].startswith("3 players: ")
    assert doc["meta"]["history"] and set(doc["meta"]["tables"]["players"]) == {"3"}
    assert doc["rows"] and all(
        set(r) == {"players", "seat", "decision", "situation", "recommended"} for r in doc["rows"]
    )
    assert doc["meta"]["answer"].startswith(f"3 players: {len(doc['rows'])} departures from the heuristic")
    written = json.loads((tmp_path / "rec.json").read_text())
    assert written["players"] == doc["meta"]["tables"]["players"]
    assert [bb.strategy_from_dict("x", t).p_tuck.shape for t in written["players"]["3"]["seats"]] == [(3,)] * 3
    code, out, _ = run(*argv)
    assert code == 0 and " ".join(out.split()).startswith(" ".join(doc["meta"]["answer"].split()))  # wrapped
    assert bb.recommended_path().read_bytes() == stored and sorted(p.name for p in tmp_path.iterdir()) == ["rec.json"]
    # writing into a file of tables keeps the player counts not recomputed; any other file is refused first
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"players": {"4": {"seats": "kept as it was"}}}))
    assert run(*argv, "--write", str(other))[0] == 0
    assert set(json.loads(other.read_text())["players"]) == {"3", "4"}
    assert json.loads(other.read_text())["players"]["4"] == {"seats": "kept as it was"}
    (tmp_path / "notes.txt").write_text("my notes")
    code, _, err = run(*argv, "--write", str(tmp_path / "notes.txt"))
    assert code == 2 and "holds something else than strategy tables" in err
    assert (tmp_path / "notes.txt").read_text() == "my notes"


def test_exact_bisk_types():
    code, out, _ = run("exact", "bisko-bobo", "bisk-types", "--players", "4", "--cards", "2", "--format", "json")
    rows = {r["bisk"]: r for r in json.loads(out)["rows"]}
    assert rows["Bisko"]["count"] == 4 * 15 and rows["No Bisk"]["count"] == 276 - 60


def test_exact_zheng_shangyou_takes_a_hand_size():
    from math import comb

    code, out, _ = run("exact", "zheng-shangyou", "hand-features", "--cards", "10", "--format", "json")
    rows = json.loads(out)["rows"]
    assert code == 0 and {r["hand_size"] for r in rows} == {10}
    no_two = next(r for r in rows if r["feature"] == "exactly 0 twos")
    assert no_two["probability"] == pytest.approx(comb(50, 10) / comb(54, 10), rel=1e-12)  # 54 cards, 4 twos


#: a dealt Bismarck hand (16 cards)
BM_HAND = "AS KS 2H 3H 4C 5C 6C 7C 8D 9D TD JD QH KH AH 2S"


#: a compare-variants command line that is fine so far (the bad inputs below add to it)
VARY = ["compare-variants", "bisko-bobo", "--challenger-variant", "exact_tie=redeal"]

BAD = [
    (["simulate", "nogame", "--trials", "10"], "unknown game 'nogame'"),
    (["simulate", "bisko-bobo", "--variant", "exact_tie=maybe", "--trials", "10"], "bad value 'maybe'"),
    (["simulate", "bisko-bobo", "--variant", "colour=red", "--trials", "10"], "unknown variant 'colour'"),
    (["simulate", "bisko-bobo", "--variant", "exact_tie", "--trials", "10"], "expected NAME=VALUE"),
    (["simulate", "bisko-bobo", "--strategy", "greedy", "--trials", "10"], "unknown strategy 'greedy'"),
    (["simulate", "bisko-bobo", "--strategy", "9=random", "--trials", "10"], "bad seat 9"),
    (
        ["simulate", "bisko-bobo", "--strategy", "0=random", "--strategy", "0=heuristic", "--trials", "10"],
        "--strategy sets '0' twice",
    ),
    (
        ["simulate", "bisko-bobo", "--strategy", "random", "--strategy", "heuristic", "--trials", "10"],
        "--strategy sets every seat",
    ),
    (
        ["simulate", "bisko-bobo", "--variant", "exact_tie=split", "--variant", "exact_tie=redeal", "--trials", "10"],
        "--variant sets 'exact_tie' twice",
    ),
    (["simulate", "bisko-bobo", "--precision", "inf"], "--precision"),
    (
        ["simulate", "bisko-bobo", "--strategy", "0=random", "--strategy", "00=heuristic", "--trials", "10"],
        "--strategy sets '0' twice",
    ),
    (
        ["simulate", "bisko-bobo", "--variant", "exact_tie", "--variant", "exact_tie", "--trials", "10"],
        "expected NAME=VALUE",
    ),
    (["simulate", "bisko-bobo", "--players", "7", "--trials", "10"], "2 to 6 players"),
    (["simulate", "bisko-bobo", "--players", "1", "--trials", "10"], "2 to 6 players"),
    (["simulate", "bisko-bobo", "--trials", "-5"], "--trials"),
    (["simulate", "bisko-bobo", "--trials", "0"], "--trials"),
    (["simulate", "bisko-bobo", "--precision", "-0.1"], "--precision"),
    (["simulate", "bisko-bobo", "--precision", "0"], "--precision"),
    (["simulate", "bisko-bobo"], "--trials"),
    (["simulate", "bisko-bobo", "--trials", "10", "--format", "xml"], "--format"),
    (["simulate", "bisko-bobo", "--trials", "10", "--backend", "gpu"], "--backend"),
    (["eval", "bisko-bobo", "KC JX"], "bad card 'JX'"),
    # a mistyped card is named before --trials is asked for (the options are read first: games.base.cards_arg)
    (["odds", "bismarck", "--hand", "AS KX", "--round", "1", "--dealer", "2"], "--hand: bad card 'KX'"),
    (["odds", "biscuits", "--hand", "3C KX", "--decision", "play"], "--hand: bad card 'KX'"),
    (["odds", "zheng-shangyou", "--hand", "3C 4C", "--current", "5Z"], "--current: bad card '5Z'"),
    (["eval", "bisko-bobo", "KC KC"], "duplicate card KC"),
    (["exact", "bisko-bobo", "bisk-types", "--players", "4", "--cards", "25"], "bad --cards 25"),
    (["exact", "bisko-bobo", "hands", "--players", "4", "--cards", "2"], "unknown table 'hands'"),
    (["exact", "zheng-shangyou", "hand-features", "--cards", "55"], "bad --cards 55: the deck has 54 cards"),
    (["improve", "bisko-bobo", "--players", "3", "--write", "/dev/null/r.json"], "--write"),
    (["nocommand"], "unknown command 'nocommand'"),
    (["exact", "bismarck", "hands"], "Bismarck has no exact tables; games with them: biscuits, bisko-bobo"),
    (["odds", "bismarck", "--trials", "10"], "give --hand"),
    (
        [
            "odds",
            "bismarck",
            "--hand",
            BM_HAND,
            "--round",
            "1",
            "--dealer",
            "2",
            "--tricks",
            f"{BM_HAND[:2]} 3S 4S",
            "--trials",
            "10",
        ],
        f"{BM_HAND[:2]} in --hand and in --tricks: a card played has left the hand",
    ),  # fmt: skip
    (["odds", "bismarck", "--hand", "AS", "--round", "0", "--dealer", "2", "--trials", "10"], "bad --round 0"),
    (["odds", "bismarck", "--hand", "AS", "--round", "1", "--dealer", "3", "--trials", "10"], "bad --dealer 3"),
    (
        ["odds", "bismarck", "--hand", "AS", "--round", "2", "--trumps", "X", "--dealer", "2", "--trials", "10"],
        "bad --trumps 'X'",
    ),
    (
        [
            "odds",
            "bismarck",
            "--hand",
            "AS KS",
            "--round",
            "1",
            "--dealer",
            "2",
            "--tricks",
            "2C 3C 4X",
            "--trials",
            "10",
        ],
        "--tricks: bad card '4X'",
    ),
    (
        ["odds", "bismarck", "--hand", "AS", "--round", "1", "--dealer", "2", "--played", "2C", "--trials", "10"],
        "--played holds 1 cards",
    ),
    (
        [
            "odds",
            "bismarck",
            "--hand",
            "AS",
            "--round",
            "1",
            "--dealer",
            "2",
            "--played",
            "2C 3C 4C",
            "--won",
            "0=1 1=0 2=0",
            "--leader",
            "0",
            "--trials",
            "10",
        ],
        "one SEAT=VALUE each time; repeat --won",
    ),
    (
        [
            "odds",
            "bismarck",
            "--hand",
            "AS",
            "--round",
            "1",
            "--dealer",
            "2",
            "--played",
            "2C 3C 4C",
            "--won",
            "0=x",
            "--leader",
            "0",
            "--trials",
            "10",
        ],
        "bad --won 0=x: expected a number of tricks",
    ),
    (
        [
            "odds",
            "zheng-shangyou",
            "--hand",
            "4D 6C 7H",
            "--finished",
            "1",
            "--cards-left",
            "1=x",
            "--cards-left",
            "2=3",
            "--cards-left",
            "3=4",
            "--trials",
            "10",
        ],
        "bad --cards-left 1=x: expected a number of cards",
    ),
    (
        [
            "odds",
            "bismarck",
            "--hand",
            "AS",
            "--round",
            "1",
            "--dealer",
            "2",
            "--played",
            "2C 3C 4C",
            "--won",
            "0=1",
            "--trials",
            "10",
        ],
        "give --won for every seat",
    ),
    (
        [
            "odds",
            "bismarck",
            "--hand",
            "AS",
            "--round",
            "1",
            "--dealer",
            "2",
            "--played",
            "2C 3C 4C",
            "--won",
            "0=1",
            "--won",
            "1=0",
            "--won",
            "2=0",
            "--leader",
            "5",
            "--trials",
            "10",
        ],
        "bad --leader 5",
    ),
    (
        [
            "odds",
            "bismarck",
            "--hand",
            BM_HAND,
            "--round",
            "2",
            "--trumps",
            "H",
            "--shown",
            "7C",
            "--dealer",
            "2",
            "--trials",
            "10",
        ],
        "--shown 7C is not a trump: the card drawn for trumps in round 2 is of the trump suit, H here (BM-5)",
    ),
    (
        [
            "odds",
            "bismarck",
            "--hand",
            BM_HAND,
            "--round",
            "1",
            "--dealer",
            "2",
            "--discards",
            "2C 3C 4C 5C",
            "--trials",
            "10",
        ],
        "no widow exchange",
    ),
    (
        ["odds", "bismarck", "--hand", BM_HAND, "--round", "1", "--dealer", "2", "--known", "0=3C", "--trials", "10"],
        "--known 0",
    ),
    (
        [
            "odds",
            "bismarck",
            "--hand",
            "KS 2H 3H 4C 5C 6C 7C 8D 9D TD JD QH KH AH 2S",
            "--round",
            "1",
            "--dealer",
            "2",
            "--played",
            "AS 3S 4S",
            "--won",
            "0=1",
            "--won",
            "1=0",
            "--won",
            "2=0",
            "--leader",
            "0",
            "--strategy",
            "pimc-infer",
            "--trials",
            "10",
        ],
        "pimc-infer reads the layouts from the order",
    ),
    (
        [
            "odds",
            "bismarck",
            "--hand",
            "AS",
            "--round",
            "1",
            "--dealer",
            "2",
            "--current",
            "2C 3C 4C",
            "--trials",
            "10",
        ],
        "at most 2",
    ),
    (
        ["odds", "bismarck", "--hand", "AS", "--round", "1", "--dealer", "2", "--seat", "3", "--trials", "10"],
        "bad --seat 3",
    ),
    (
        ["odds", "bismarck", "--hand", "AS", "--round", "1", "--dealer", "2", "--decision", "bid", "--trials", "10"],
        "bad --decision 'bid'; accepted: play, name_trumps",
    ),
    (
        [
            "odds",
            "bismarck",
            "--hand",
            BM_HAND,
            "--round",
            "1",
            "--dealer",
            "2",
            "--strategy",
            "1=heuristic",
            "--pimc-from",
            "17",
            "--trials",
            "10",
        ],
        "bad --pimc-from 17",
    ),
    (
        [
            "odds",
            "bismarck",
            "--hand",
            BM_HAND,
            "--round",
            "1",
            "--dealer",
            "2",
            "--strategy",
            "1=heuristic",
            "--pimc-samples",
            "0",
            "--trials",
            "10",
        ],
        "bad --pimc-samples 0",
    ),
    (["odds", "bismarck", "--position", "/nonexistent.json", "--trials", "10"], "cannot read --position"),
    # the widow discard and the Swedish contract (3(c)5, 3(c)10)
    (
        [
            "odds",
            "bismarck",
            "--decision",
            "discard",
            "--hand",
            BM_HAND,
            "--widow",
            "2C 3X",
            "--round",
            "1",
            "--variant",
            "widow_exchange=dealer_takes_4_discards_4",
            "--trials",
            "10",
        ],
        "--widow: ",
    ),
    (
        [
            "odds",
            "bismarck",
            "--decision",
            "discard",
            "--hand",
            BM_HAND,
            "--widow",
            "3S 9C JC 4H",
            "--round",
            "1",
            "--variant",
            "widow_exchange=dealer_takes_4_discards_4",
            "--try-discard",
            "2C",
            "--trials",
            "10",
        ],
        "--try-discard '2C'",
    ),
    (
        [
            "odds",
            "bismarck",
            "--decision",
            "contract",
            "--seat",
            "1",
            "--widow",
            "AS KS QS JS",
            "--remaining",
            "spel",
            "--variant",
            "ruleset=swedish",
            "--trials",
            "10",
        ],
        "bad --remaining 'spel'",
    ),
    (["solve", "bisko-bobo", "--hands", "AS|KS|QS"], "Bisko-Bobo has no double-dummy solver"),
    (["compare", "bisko-bobo", "--field", "heuristic", "--challenger", "nosuch", "--trials", "10"], "--challenger"),
    (["simulate", "bisko-bobo", "--trials", "10", "--format", "xml"], "bad --format 'xml'; accepted: table, csv, json"),
    # issue 32: inputs that were accepted
    (["moves", "zheng-shangyou", "--hand", " ".join(f"{r}{s}" for r in "34567" for s in "CDHS")], "at most 14"),
    (["moves", "zheng-shangyou", "--hand", ""], "--hand is empty"),
    (
        ["simulate", "zheng-shangyou", "--players", "3", "--trials", "10"],
        "use --variant deck=3p_54 or --variant deck=3p_52 (18 cards each, or 17 and one left over",
    ),
    (["simulate", "zheng-shangyou", "--players", "6", "--trials", "10"], "use --variant deck=5to8p_108"),
    (["moves", "biscuits", "--hand", ""], "--hand is empty"),
    (["eval", "bisko-bobo", "AH KH QH JH TH 9H 8H 7H AS KS QS JS TS"], "at most 6 (BB-13)"),
    (["eval", "bisko-bobo", ""], "an empty card set"),
    (["eval", "bisko-bobo", "2H 7H"], "2H is a LOW card"),
    (["beats", "zheng-shangyou", "--current", "3H", "--play", "3H"], "both hold 3H"),
    (["beats", "zheng-shangyou", "--current", "3H", "--play", ""], "--play is empty"),
    (["beats", "biscuits", "--current", "3H", "--play", "3H"], "both hold 3H"),
    (["exact", "biscuits", "--players", "3", "hand-combinations"], "--players"),
    (
        ["odds", "bisko-bobo", "--seat", "2", "--opening", "2=AH KS", "--jingos-so-far", "-1", "--trials", "10"],
        "0 to 2",
    ),
    (["simulate", "bisko-bobo", "--trials", "10", "--trials", "20"], "--trials given twice"),
    (["simulate", "bisko-bobo", "--trials", "10", "--measure", "nosuch"], "unknown measure 'nosuch'; accepted: win"),
    (["simulate", "bisko-bobo", "--trials", "10", "--scheduler", "tcp://h:1"], "--scheduler is for the dask backend"),
    (["simulate", "bisko-bobo", "--trials", "10", "--backend", "dask", "--scheduler", "garbage://x"], "--scheduler"),
    (["compare", "biscuits", "--field", "greedy", "--challenger", "planning", "--team", "X", "--trials", "9"], "N-S"),
    (
        ["compare", "bisko-bobo", "--field", "heuristic", "--challenger", "random", "--seat", "9", "--trials", "9"],
        "seats are 0..3",
    ),
    (["report", "bisko-bobo", "--scale", "nan"], "bad --scale nan"),
    (["compare-variants"], "give a game after compare-variants; accepted: biscuits, bisko-bobo, bismarck, zheng"),
    # compare-variants: the challenger's rules must differ, name known variants and run a fixed size
    (["compare-variants", "bisko-bobo", "--trials", "9"], "--challenger-variant"),
    # no abbreviated options: a typo of one option is not taken as another
    (
        ["compare-variants", "bisko-bobo", "--challenger", "exact_tie=redeal", "--trials", "64"],
        "give --challenger-variant",
    ),
    (["simulate", "bisko-bobo", "--tri", "9"], "unrecognized arguments: --tri 9"),
    ([*VARY[:3], "exact_tie", "--trials", "9"], "bad --challenger-"),
    ([*VARY[:3], "nosuch=1", "--trials", "9"], "unknown variant 'nos"),
    ([*VARY[:3], "exact_tie=x", "--trials", "9"], "accepted: split,"),
    ([*VARY, "--variant", "exact_tie=redeal", "--trials", "9"], "are the field's: nothing to compare"),
    (
        [*VARY, "--challenger-variant", "exact_tie=split", "--trials", "9"],
        "--challenger-variant sets 'exact_tie' twice",
    ),
    ([*VARY, "--precision", "0.01"], "give --trials N (--precision is for simulate and compare)"),
    (VARY, "give --trials N"),
    ([*VARY, "--trials", "9"], "at least 32"),
    (
        [*VARY, "--trials", "100", "--chunk-size", "50"],
        "--chunk-size 50 leaves 2 chunks of the 100 trials; the intervals need 32 or more: give at most --chunk-size 3",
    ),
    ([*VARY, "--trials", "64", "--checkpoint", "/tmp"], "--checkpoint '/tmp' is a directory"),
    ([*VARY, "--trials", "64", "--measure", "nosuch"], "unknown measure 'nosuch'"),
    ([*VARY, "--players", "9", "--trials", "9"], "takes 2 to 6 players, not 9"),
    (["report", "bisko-bobo", "--scale", "inf"], "bad --scale inf"),
    (["strong-field"], "give a game; accepted: biscuits, bismarck, zheng-shangyou"),
    (["simulate", "bismarck", "--strategy", "pimc", "--pimc-from", "16", "--trials", "5"], "bad --pimc-from 16"),
    (["simulate", "bismarck", "--strategy", "search:0", "--trials", "5"], "bad strategy 'search:0'"),
    (
        ["compare", "bismarck", "--field", "search:10", "--challenger", "search:20", "--trials", "5"],
        "share one setting",
    ),
    (
        [
            "compare",
            "bismarck",
            "--field",
            "heuristic",
            "--challenger",
            "dd",
            "--round",
            "4",
            "--pimc-from",
            "13",
            "--trials",
            "5",
        ],
        "does not finish above 12 cards",
    ),
    (["strong-field", "bisko-bobo"], "no strong-field measurements for 'bisko-bobo'"),
    (["strong-field", "zheng-shangyou", "--scale", "nan"], "bad --scale nan"),
    (["strong-field", "biscuits", "--field", "nosuch"], "bad --field: unknown strategy 'nosuch'"),
    # a number that does not parse, in the words of the other refusals (argparse said "invalid int value")
    (["odds", "bismarck", "--round", "x"], "bad --round x: expected a whole number"),
    # a bad option is named before the missing size (not "give --trials" first, then the option once it is given)
    (["simulate", "zheng-shangyou", "--players", "11"], "takes 3 to 8 players, not 11"),
    (["compare", "bismarck", "--field", "heuristic", "--challenger", "random", "--round", "5"], "bad --round 5"),
    (["compare", "biscuits", "--field", "planning", "--challenger", "greedy", "--team", "3"], "bad --team '3'"),
    (["simulate", "bismarck"], "give --trials N or --precision P"),
    (
        ["odds", "bismarck", "--decision", "name_trumps", "--dealer", "3", "--hand", "AS", "--trials", "2"],
        "bad --dealer 3: seats are 0..2",
    ),
    # a strategy that takes parameters is listed with their form (a new user tried SEARCH:100)
    (["compare", "bismarck", "--field", "heuristic", "--challenger", "SEARCH:100"], "dd, search, search:BUDGET[:C]"),
    (["simulate", "bismarck", "--strategy", "SEARCH:100", "--trials", "5"], "dd, search, search:BUDGET[:C]"),
    # a required option left out: its values where it has a list of them, else where its form is said
    (["compare", "biscuits", "--challenger", "planning"], "give --field; accepted: random, greedy,"),
    (["solve", "bridge"], "give --hands (cardlab solve bridge --help says what it takes)"),
    (["compare", "biscuits"], "give --field and --challenger (cardlab compare biscuits --help says what each"),
    (["compare", "zheng-shangyou", "--field", "greedy", "--challenger", "planning"], "give --trials N or --precision"),
    (
        ["strong-field", "zheng-shangyou", "--long"],
        "no long measurements for 'zheng-shangyou'; --long is for: bismarck",
    ),
]


@pytest.mark.parametrize("args, msg", BAD)
def test_bad_input_gets_one_line_and_exit_2(args, msg, tmp_path, capsys):
    """In this process (``cli.main``, as the console script calls it: an exception that escaped it would fail the
    test); a subprocess each would spend ~2 s a case importing the package."""
    from analysis.cli import main

    out = tmp_path / "out.json"
    code = main([*args, *(["--out", str(out)] if args[0] in ("simulate",) else [])])
    stdout, stderr = capsys.readouterr()
    assert code == 2
    # a case that must run kernels to check its input (--measure: the table's names) may first say it compiles
    # them, on a cold cache only
    stderr = "".join(line for line in stderr.splitlines(True) if not line.startswith("cardlab: compiling "))
    assert stderr.count("\n") == 1 and stderr.startswith("cardlab: error: ") and msg in stderr
    assert "Traceback" not in stderr and stdout == ""
    assert not out.exists() and list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("args, msg", BAD[:4])
def test_bad_input_from_the_console_script(args, msg):
    """The same through a new interpreter (``python -m analysis``): one line, exit 2, no traceback."""
    code, stdout, stderr = console(*args)
    assert code == 2 and stderr.count("\n") == 1 and msg in stderr and stdout == ""


def test_unreadable_checkpoint_exit_2(tmp_path):
    ck = tmp_path / "c.npz"
    ck.write_bytes(b"garbage")
    code, _, err = run("simulate", "bisko-bobo", "--trials", "100", "--checkpoint", str(ck), "--quiet")
    assert code == 2 and "is unreadable" in err and err.count("\n") == 1


def test_json_rows_identical_across_threads_and_backends():
    base = [
        "simulate",
        "bisko-bobo",
        "--players",
        "4",
        "--trials",
        "20000",
        "--chunk-size",
        "1000",
        "--seed",
        "5",
        "--format",
        "json",
        "--quiet",
    ]
    outs = []
    for extra in (
        ["--threads", "1"],
        ["--threads", "2"],
        ["--backend", "processes", "--workers", "2"],
        ["--backend", "dask", "--workers", "2"],
    ):
        code, out, err = run(*base, *extra)
        assert code == 0, err
        outs.append(json.dumps(json.loads(out)["rows"]))
    assert len(set(outs)) == 1


def test_spaces_around_a_seat_strategy_are_accepted(capsys):
    from analysis.cli import main

    assert main(["simulate", "bisko-bobo", "--trials", "50", "--strategy", "0 = random", "--quiet"]) == 0
    assert "strategies 0=random, 1=heuristic" in capsys.readouterr().out


def _typed_options():
    """Every option of every command and game whose value argparse checks (a type or a list of choices)."""
    from analysis.cli import build_parser

    def subparsers(p):
        return [a for a in p._actions if isinstance(a, argparse._SubParsersAction)]

    seen = []
    for sp in subparsers(build_parser()):
        for command, cp in sp.choices.items():
            games = subparsers(cp)
            for gid, gp in games[0].choices.items() if games else [(None, cp)]:
                for a in gp._actions:
                    if a.option_strings and a.nargs != 0 and (a.choices or a.type not in (None, str)):
                        seen.append(
                            pytest.param(
                                [command, *([gid] if gid else [])],
                                a.option_strings[0],
                                id=f"{command}-{gid}-{a.option_strings[0]}",
                            )
                        )
    return seen


@pytest.mark.parametrize("prefix, option", _typed_options())
def test_every_checked_option_refuses_a_bad_value(prefix, option, capsys):
    """The rule of the CLI: every option that takes a checked value refuses a bad one in one line, exit 2."""
    from analysis.cli import main

    code = main([*prefix, option, "not-a-value"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and err.startswith("cardlab: error: "), err
    assert option in err or "not-a-value" in err, err


def test_a_name_for_every_seat_then_one_seat_changed_is_accepted(capsys):
    """--strategy NAME then --strategy SEAT=NAME: the second sets one seat over the first (not a repeat)."""
    argv = ["simulate", "bisko-bobo", "--players", "3", "--trials", "64", "--format", "json", "--quiet"]
    assert main([*argv, "--strategy", "always-jingo", "--strategy", "1=random"]) == 0
    meta = json.loads(capsys.readouterr().out)["meta"]
    assert meta["strategies"] == ["always-jingo", "random", "always-jingo"]


def test_the_paired_verdict_gives_the_signed_difference_beside_its_interval():
    """A verdict says which way in words and the difference challenger - field with its sign, so the interval
    reads with it (a size of 0.10 beside an interval of -0.19 to -0.01 read as a contradiction)."""
    import pandas as pd

    from analysis.games.base import paired_verdict

    t = pd.DataFrame(
        [{"measure": "challenger_minus_field", "seat": None, "estimate": -0.001, "ci_low": -0.0019, "ci_high": -0.0001}]
    )
    line = paired_verdict(t, "challenger_minus_field", "heuristic", "always-jingo", None, None)
    assert line.startswith("always-jingo is worse than heuristic (pooled over the seats) by 0.10 percentage points")
    # the figures in brackets as fractions, the table's unit, and said so: 0.10 percentage points beside a table's
    # -0.0010 had read as two different results
    assert "(challenger - field -0.0010, 95% interval -0.0019 to -0.0001, as fractions)" in line
    # the words read off the fraction's digits: 0.00215 had read "by 0.21 percentage points" beside +0.0022
    t2 = t.assign(estimate=0.00215, ci_low=0.0011, ci_high=0.0032)
    assert "by 0.22 percentage points of win probability (challenger - field +0.0022, 95%" in (
        paired_verdict(t2, "challenger_minus_field", "heuristic", "recommended", None, None)
    )
    # a bound clear of 0 is not rounded to it: "worse ... -0.0018 to -0.0000" had read as touching 0
    t3 = t.assign(estimate=-0.0009, ci_low=-0.0018, ci_high=-0.00001)
    assert "95% interval -0.00180 to -0.00001, as fractions)" in paired_verdict(
        t3, "challenger_minus_field", "h", "x", None, None
    )
    t.loc[0, "ci_high"] = 0.0005
    assert "no clear difference in percentage points of win probability (challenger - field -0.0010, 95%" in (
        paired_verdict(t, "challenger_minus_field", "heuristic", "always-jingo", None, None)
    )
    # no spread at all (a new user's cheat-sheet seat that plays as the heuristic there): said so
    t.loc[0, ["estimate", "ci_low", "ci_high"]] = 0.0
    t["std_error"] = 0.0
    t["trials"] = 20000
    assert "the same outcome on all 20,000 trials, the two play alike there" in (
        paired_verdict(t, "challenger_minus_field", "heuristic", "cheat-sheet", None, None)
    )


def test_out_with_a_csv_or_json_suffix_takes_that_format(tmp_path, capsys):
    """--out FILE.csv or FILE.json without --format writes that format; --format, where given, wins."""
    base = ["simulate", "bisko-bobo", "--players", "3", "--trials", "64", "--quiet"]
    # a file written is said on stderr, once, unless --quiet
    assert main([*base[:-1], "--out", str(tmp_path / "a.csv")]) == 0
    assert capsys.readouterr().err == f"cardlab: wrote {tmp_path / 'a.csv'}\n"
    assert main([*base, "--out", str(tmp_path / "a.csv")]) == 0
    assert capsys.readouterr().err == ""
    assert (tmp_path / "a.csv").read_text().startswith("measure,seat,")
    assert main([*base, "--out", str(tmp_path / "a.JSON")]) == 0
    assert json.loads((tmp_path / "a.JSON").read_text())["meta"]["game"] == "bisko-bobo"
    assert main([*base, "--out", str(tmp_path / "a.txt")]) == 0
    assert (tmp_path / "a.txt").read_text().startswith("bisko-bobo, 3 players")
    assert main([*base, "--out", str(tmp_path / "b.csv"), "--format", "table"]) == 0
    assert (tmp_path / "b.csv").read_text().startswith("bisko-bobo, 3 players")


def test_a_measure_shown_only_where_counted_can_be_asked_for(capsys, monkeypatch):
    """--measure takes a name that a table of zero counts lacks (Biscuits' game_won, Zheng Shangyou's
    score_distribution): the simulation specs name those rows (KernelSpec.counted_measures), so a mistyped name
    is refused before any kernel runs or compiles (a new user's `--measure wins` had waited for a compile first);
    a spec that does not name them looks in a small run's table."""
    from analysis import driver

    assert main(["simulate", "biscuits", "--trials", "64", "--measure", "game_won", "--quiet"]) == 0
    assert "game_won" in capsys.readouterr().out

    def no_run(*a, **kw):
        raise AssertionError("a kernel ran before the measure was refused")

    monkeypatch.setattr(driver, "run_chunks", no_run)
    assert main(["simulate", "biscuits", "--trials", "64", "--measure", "nosuch", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "unknown measure 'nosuch'" in err and "game_won" in err
    assert main(["simulate", "zheng-shangyou", "--trials", "64", "--measure", "wins", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "unknown measure 'wins'" in err and "score_distribution" in err and "compiling" not in err


@pytest.mark.parametrize(
    "game, options",
    [
        ("bisko-bobo", {"players": 3}),
        ("biscuits", {}),
        ("biscuits", {"unit": "hand"}),
        ("bismarck", {"unit": "hand"}),
        ("zheng-shangyou", {"games_per_match": 2}),
    ],
)
def test_the_measures_a_spec_names_are_those_a_run_shows(game, options):
    """KernelSpec.counted_measures with the zero-count table's rows are exactly the rows of a small run's table:
    the list that refuses a mistyped --measure before anything runs leaves no real one out."""
    from analysis.games import get

    spec = get(game).simulation_spec(**options)
    _same_measures(spec)


@pytest.mark.parametrize("which", ["biscuits", "bisko-bobo", "bismarck", "zheng-shangyou", "zheng-shangyou-value"])
def test_the_compare_specs_name_their_measures_too(which):
    """The paired comparisons (compare, simulate --value-of) say their zero-count table has every row."""
    from analysis.games import biscuits, bisko_bobo, bismarck, zheng_shangyou

    spec = {
        "biscuits": lambda: biscuits.compare_spec("greedy", "planning"),
        "bisko-bobo": lambda: bisko_bobo.compare_spec(4, "heuristic", "always-jingo"),
        "bismarck": lambda: bismarck.compare_spec("heuristic", "random"),
        "zheng-shangyou": lambda: zheng_shangyou.compare_spec("greedy", "planning"),
        "zheng-shangyou-value": lambda: zheng_shangyou.card_value_spec("3D"),
    }[which]()
    assert spec.counted_measures == ()
    _same_measures(spec)


def _same_measures(spec):
    from analysis import driver

    k0, k1 = np.uint64(1), np.uint64(2)
    declared = driver._measure_names(spec, k0, k1, False) + list(spec.counted_measures)
    shown = driver._measure_names(spec, k0, k1, False, zero=False)
    assert sorted(set(declared)) == sorted(set(shown))


def test_an_interval_of_no_width_is_not_called_clear(capsys):
    """Two trials that agree give an interval of width 0 around a difference: the verdict says that is too few to
    tell, and the second measure is not called "clearly" lower (a new user read a 2-trial run as a clear result)."""
    import pandas as pd

    from analysis.games.base import paired_verdict

    t = pd.DataFrame([{"measure": "tricks_challenger_minus_field", "role": None, "trials": 6, "estimate": -3.333,
                       "ci_low": -3.333, "ci_high": -3.333, "std_error": 0.0}])  # fmt: skip
    v = paired_verdict(t, "tricks_challenger_minus_field", "heuristic", "random", None, None, "2 hands", None, True)
    assert "3.333 fewer tricks on all 2 hands, too few for an interval (its width is 0" in v
    # on many trials an interval of width 0 is a difference that never varies: said as it is
    v = paired_verdict(t.assign(trials=600), "tricks_challenger_minus_field", "heuristic", "random", None, None,
                       "200 hands", None, False)  # fmt: skip
    assert "3.333 fewer tricks (challenger - field" in v and "too few" not in v
    from analysis.cli import main

    assert main(["compare", "bismarck", "--field", "heuristic", "--challenger", "random", "--trials", "2"]) == 0
    out = " ".join(capsys.readouterr().out.split())  # the verdict wraps as a paragraph
    assert "clearly" not in out and "too few for an interval" in out


def test_a_misere_verdict_says_fewer_tricks_is_better_and_the_score_decides():
    """Bismarck's verdict goes by the tricks; in the misère (round 4) fewer is better and the round score (floored
    at 0 by default, BM-6) says who played better: a new user read "0.69 fewer tricks" beside an unchanged score
    as a gain."""
    from analysis.games import get
    from analysis.games.base import RunOptions

    bm = get("bismarck")
    opts = RunOptions(trials=64, seed=1, progress=False)
    v = bm.compare("heuristic", "random", round=4, run=opts).meta["verdict"]
    assert "more tricks a hand" in v and v.endswith(
        "in the misere fewer tricks is better, and the round score (BM-6) says which played better"
    )
    assert "misere" not in bm.compare("heuristic", "random", round=1, run=opts).meta["verdict"]
    # Swedish Bismarck's fourth round is another contract
    swedish = bm.compare("heuristic", "random", round=4, variants={"ruleset": "swedish"}, run=opts)
    assert "misere" not in swedish.meta["verdict"]


def test_the_compare_verdict_says_when_the_win_and_the_score_disagree():
    """Zheng Shangyou's verdict goes by the win; where the score is clear the other way, the line says so
    (planning wins more games than greedy and loses points a game: the report's finding)."""
    from analysis.games import get
    from analysis.games.base import RunOptions

    r = get("zheng-shangyou").compare("greedy", "planning", run=RunOptions(trials=20000, seed=1, progress=False))
    v = r.meta["verdict"]
    # not "better" (a new user read that as the verdict): which is better depends on what one plays for
    assert (
        v.startswith("planning wins more often than greedy")
        and "score clearly lower: -" in v
        and "better than" not in v
    )
    assert v.endswith(
        "they disagree: planning wins more often, greedy gains more points a game, so which is better depends on "
        "whether one plays for wins or for points"
    )
    # judged by the score (--measure score): the win is the second clause, and the disagreement is said the same
    by_score = (
        get("zheng-shangyou")
        .compare("greedy", "planning", run=RunOptions(trials=20000, seed=1, progress=False, measures=("score",)))
        .meta["verdict"]
    )
    assert (
        by_score.startswith("planning against greedy (pooled over the seats): ") and " fewer points a game " in by_score
    )
    assert (
        "; win probability clearly higher: +" in by_score
        and by_score.count("win probability") == 1
        and by_score.endswith(v[v.index("; they disagree") :])
    )


@pytest.mark.parametrize(
    "game, given, named, words",
    [
        ("zheng-shangyou", "score", "challenger_minus_field_score", "points a game"),
        ("zheng-shangyou", "cards_left", "challenger_minus_field_cards_left", "cards left"),
        ("bismarck", "score", "score_challenger_minus_field", "points of round score a hand"),
    ],
)
def test_compare_takes_a_measure_by_its_bare_name_and_its_verdict_judges_the_first(game, given, named, words):
    """compare --measure NAME: a paired measure by its table name or without challenger_minus_field (odds and
    simulate name theirs so), shown and held to --precision; the verdict judges the first --measure given (its
    help says so), in the game's words for it; an unknown name is refused naming both forms."""
    field, challenger = ("greedy", "planning") if game == "zheng-shangyou" else ("heuristic", "random")
    base = ["compare", game, "--field", field, "--challenger", challenger, "--quiet"]
    code, out, err = run(*base, "--trials", "64", "--measure", given, "--format", "json")
    doc = json.loads(out)
    assert code == 0 and {r["measure"] for r in doc["rows"]} >= {named}
    verdict = doc["meta"]["verdict"]
    assert f" {words} (challenger - field " in verdict or f"no clear difference in {words}" in verdict, verdict
    code, out, err = run(*base, "--trials", "64", "--measure", given)
    # the table's rows: from its column names (the verdict above it is prose) to the notes under it
    body = out[out.index("\n", out.index(" measure ")) :].split("\n(more")[0]
    assert code == 0 and named in body and {ln.split()[0] for ln in body.strip().splitlines()} == {named}
    code, out, err = run(*base, "--precision", "5", "--measure", given, "--format", "json")
    assert code == 0 and json.loads(out)["meta"]["precision_measures"] == [named]
    code, out, err = run(*base, "--trials", "64", "--measure", "nosuch")
    assert code == 2 and "accepted: " in err and "(or by the bare name: " in err and given in err
    # several: the first is judged; one measure in both forms is one
    code, out, err = run(*base, "--trials", "64", "--measure", given, "--measure", named, "--format", "json")
    doc = json.loads(out)
    assert code == 0 and {r["measure"] for r in doc["rows"]} >= {named} and doc["meta"]["verdict"] == verdict
    headline = "challenger_minus_field_win" if game == "zheng-shangyou" else "tricks_challenger_minus_field"
    code, out, err = run(*base, "--trials", "64", "--measure", headline, "--measure", given, "--format", "json")
    assert code == 0 and json.loads(out)["meta"]["verdict"] != verdict


def test_the_full_table_prints_plain_decimals(capsys):
    """--all: pandas switches a whole column to 2.4e-01 notation when one cell is small (issue 32); the full table
    prints plain decimals, and a bound's rounding noise (2.8e-17) as 0."""
    import re

    assert main(["simulate", "biscuits", "--trials", "2000", "--all", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert not re.search(r"\d[eE][+-]\d", out.split("\n", 1)[1]) and "0.0000000000" not in out


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "bismarck", "--trials", "50"],
        ["compare", "biscuits", "--field", "greedy", "--challenger", "planning", "--trials", "50"],
    ],
)
def test_the_full_table_leaves_missing_cells_blank(argv, capsys):
    """--all in table output: a cell a row has no value for is blank, and a column blank in every row is left out
    (a new user read <NA>, None and NaN as errors); csv keeps every column."""
    import re

    assert main([*argv, "--all", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert not re.search(r"<NA>|\bNone\b|\bNaN\b", out)
    assert main([*argv, "--format", "csv", "--quiet"]) == 0
    assert capsys.readouterr().out.splitlines()[0].split(",")[1] == "seat"  # every column, the empty ones too


def test_the_summary_lines_up_each_measures_decimals_and_never_prints_minus_zero():
    """The summary (issue 32): every row of a measure to the same decimals, the most its intervals warrant (an
    interval of no width, the best action's difference to itself, warrants none), never -0.00: a bound that rounds
    to 0 but is not shows the decimal that tells it from 0 (a new user read "worse ... -0.24 to 0.00" as an interval
    touching 0), and noise at 1e-17 reads 0."""
    import pandas as pd

    from analysis.tables import summary_table

    t = pd.DataFrame({
        "measure": ["win", "win", "diff_score", "diff_score"],
        "estimate": [0.5, 0.981, 0.0, -0.04],
        "ci_low": [0.4, 0.97, 0.0, -0.0801],
        "ci_high": [0.6, 0.99, 0.0, -0.0004],
    })  # fmt: skip
    s = summary_table(t, ["win", "diff_score"])
    assert list(s["estimate"]) == ["0.500", "0.981", "0.000", "-0.040"]
    assert list(s["95% interval"]) == ["0.400 to 0.600", "0.970 to 0.990", "0.000 to 0.000", "-0.080 to -0.0004"]
    noise = summary_table(t.assign(ci_high=[0.6, 0.99, 0.0, -1e-17]), ["diff_score"])
    assert list(noise["95% interval"]) == ["0.000 to 0.000", "-0.080 to 0.000"]
    # a small rate without an interval is not printed as 0.00 (a designer read redeals_per_deal 0.00 as none)
    rare = pd.DataFrame({"measure": ["redeals_per_deal", "swaps_per_deal", "none"], "estimate": [0.00038, 0.576, 0.0],
                         "ci_low": [float("nan")] * 3, "ci_high": [float("nan")] * 3})  # fmt: skip
    assert list(summary_table(rare, ["redeals_per_deal", "swaps_per_deal", "none"])["estimate"]) == [
        "0.00038",
        "0.58",
        "0.00",
    ]


def _two_cards():
    """An advisor's table of two Bismarck cards (8D best, KS clearly worse by the round score), its quota chance
    the same."""
    import pandas as pd

    return pd.DataFrame({
        "measure": ["score", "score", "win", "win", "diff_score", "diff_score"],
        "action": ["8D", "KS", "8D", "KS", "8D", "KS"],
        "verdict": ["best", "worse"] * 3,
        "estimate": [2.19, 1.77, 1.0, 1.0, 0.0, -0.42],
        "ci_low": [2.08, 1.65, 0.985, 0.985, 0.0, -0.53],
        "ci_high": [2.29, 1.88, 1.0, 1.0, 0.0, -0.31],
    })  # fmt: skip


def test_the_summary_shows_an_advisors_verdict_on_the_ranking_measures_rows_only():
    """An advisor's verdict is the action's, by the measure that ranks (Bismarck: the round score): beside a quota
    chance of 1.000 a "worse" had read as a contradiction. csv and json keep it on every row."""
    from analysis.tables import summary_table

    t = _two_cards()
    s = summary_table(t, ["score", "win", "diff_score"], {"ranked_measure": "score"})
    assert list(s["verdict"]) == ["best", "worse", "", "", "best", "worse"]
    assert list(summary_table(t, ["score", "win"])["verdict"]) == ["best", "worse"] * 2  # no ranking measure named
    assert "verdict" not in summary_table(t, ["win"], {"ranked_measure": "score"})  # none of its rows shown


def test_the_advisor_table_is_one_row_per_action_where_its_rows_fit():
    """The default view of an advisor: one row per action (as the page), the verdict and every headline measure
    with its interval side by side; several seats or a key besides the action keep the long form, and so do the
    measures asked for by name."""
    from analysis.tables import Result, advisor_wide

    t = _two_cards()
    t.insert(1, "seat", 1)
    meta = {"ranked_measure": "score"}
    w = advisor_wide(t, ["score", "win", "diff_score"], meta)
    assert list(w.columns) == ["seat", "action", "verdict"] + [c for m in ("score", "win", "diff_score")
                                                               for c in (m, "95% interval")]  # fmt: skip
    assert w.values.tolist() == [
        [1, "8D", "best", "2.19", "2.08 to 2.29", "1.000", "0.985 to 1.000", "0.00", "0.00 to 0.00"],
        [1, "KS", "worse", "1.77", "1.65 to 1.88", "1.000", "0.985 to 1.000", "-0.42", "-0.53 to -0.31"],
    ]
    two_seats = t.assign(seat=[0, 1] * 3)
    assert advisor_wide(two_seats, ["score", "win", "diff_score"], meta) is None
    assert advisor_wide(t.assign(event=1), ["score"], meta) is None
    r = Result(t, {**meta, "game": "bismarck"}, headline=("score", "win", "diff_score"))
    text = r.to_text()
    assert "action  verdict  score  95% interval" in text and "the diff_score column" in text
    assert "seat: 1 (the deciding seat)" in text.splitlines()  # the seat once, not a column
    assert text.count(" KS ") == 1
    long = r.to_text(measures=["score", "diff_score"])  # asked for by name: the long form, a row per measure
    assert long.count(" KS ") == 2 and "the diff_score rows" in long


def test_a_pooled_row_reads_all_in_the_summary_and_in_the_full_table():
    """A row pooled over the roles (seats, teams) reads "all" in its first key, in the summary and in the --all
    table alike (a new user found it "all" in one and blank in the other); a measure never split keeps its blank;
    csv and json keep the missing value."""
    import pandas as pd

    from analysis.tables import Result

    t = pd.DataFrame({
        "measure": ["tricks", "tricks", "tricks", "hands"],
        "role": ["dealer", "left", None, None],
        "estimate": [1.5, 2.5, 2.0, 9.0],
        "ci_low": [1.0, 2.0, 1.7, 9.0],
        "ci_high": [2.0, 3.0, 2.3, 9.0],
    })  # fmt: skip
    r = Result(table=t, meta={"game": "bismarck"}, headline=("tricks",))
    for text in (r.to_text(), r.to_text(full=True)):
        lines = [line.split() for line in text.splitlines() if line.lstrip().startswith("tricks")]
        assert [w[1] for w in lines] == ["dealer", "left", "all"]
    full = [line.split() for line in r.to_text(full=True).splitlines() if line.lstrip().startswith("hands")]
    assert full == [["hands", "9", "9", "9"]]
    assert r.rows()[2]["role"] is None


def test_record_quiet_writes_the_record_and_says_nothing(tmp_path, capsys, monkeypatch):
    """A first record says that it compiles (a new user's first record took 7.5 s in silence); --quiet says
    nothing, not even that."""
    import kernels._jit

    monkeypatch.setattr(kernels._jit, "is_cached", lambda f: False)  # as on a first run
    out = tmp_path / "g.json"
    assert main(["record", "zheng-shangyou", "--seed", "3", "--out", str(out)]) == 0
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("cardlab: compiling the zheng-shangyou kernels") and err[1].startswith("cardlab: wrote")
    assert main(["record", "zheng-shangyou", "--seed", "3", "--out", str(out), "--quiet"]) == 0
    assert capsys.readouterr().err == "" and json.loads(out.read_text())["events"]


def test_the_full_table_keeps_the_header_in_words(capsys):
    """--all prints the same header as the summary (game, players, strategies, variants, size), then every row."""
    assert main(["simulate", "bisko-bobo", "--players", "3", "--trials", "64", "--all", "--quiet"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "bisko-bobo, 3 players, strategies heuristic at every seat" and lines[1].startswith("variants:")
    assert lines[3].split()[:3] == ["measure", "seat", "bisk"]


def test_a_review_whose_models_search_says_so(capsys):
    """The review's models are the record's players: a search player among them makes a long review, which one
    line on stderr says (with the way to a quicker one); a record without one gets no line."""
    from analysis import games
    from analysis.cli import _note_search_models

    zs, bm = games.get("zheng-shangyou"), games.get("bismarck")

    rec = {"strategies": {"0": "greedy", "1": "search:200:0.7", "2": "greedy"}}
    _note_search_models(zs, rec)
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "include search:200:0.7" in err and "--strategy NAME" in err
    _note_search_models(zs, rec, ["1=greedy"])  # the search seat replaced: quick
    _note_search_models(zs, rec, ["greedy"])
    assert capsys.readouterr().err == ""
    _note_search_models(zs, rec, ["0=planning"])  # another seat replaced: the search seat stays
    assert "include search:200:0.7" in capsys.readouterr().err
    _note_search_models(bm, {"strategies": {"0": "heuristic", "1": "pimc", "2": "heuristic"}})  # Bismarck's solvers too
    assert "include pimc" in capsys.readouterr().err
    _note_search_models(zs, {"strategies": {"0": "greedy", "1": "planning"}})
    _note_search_models(zs, {"strategies": {"0": "pimc"}})  # not a slow player of this game
    for malformed in ({"strategies": 5}, {"strategies": {"x": "search"}}, []):  # the review refuses them itself
        _note_search_models(zs, malformed)
    assert capsys.readouterr().err == ""


def test_a_review_reads_its_record_once_and_refuses_a_malformed_one_in_a_line(tmp_path, capsys):
    """A record may come through a pipe (`review GAME <(cat game.json)`), readable once: the review's note on
    slow models had read it first and left the review nothing. A malformed record is one line, exit 2."""
    import os
    import threading

    from analysis.review import example_record

    doc = json.dumps(example_record("zheng-shangyou-example.json"))
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    writer = threading.Thread(target=lambda: fifo.write_text(doc))
    writer.start()
    argv = ["review", "zheng-shangyou", str(fifo), "--seat", "2", "--precision", "0.4", "--format", "json"]
    assert main(argv) == 0
    writer.join()
    assert json.loads(capsys.readouterr().out)["rows"]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**json.loads(doc), "strategies": 5}))
    assert main(["review", "zheng-shangyou", str(bad), "--seat", "2"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cardlab: error: bad record: strategies") and "Traceback" not in err


def test_a_position_may_be_given_as_json_text(tmp_path, capsys):
    """--position takes a file or the JSON itself (the help's example is JSON text, which a new user typed);
    both give the same answer, and a field that is not one is refused naming every accepted one."""
    doc = '{"seat": 1, "upright": "9H", "tucked": "KS"}'
    f = tmp_path / "p.json"
    f.write_text(doc)
    argv = ["odds", "bisko-bobo", "--trials", "2000", "--format", "json", "--quiet"]
    assert main([*argv, "--position", str(f)]) == 0
    from_file = json.loads(capsys.readouterr().out)["rows"]
    assert main([*argv, "--position", doc]) == 0
    assert json.loads(capsys.readouterr().out)["rows"] == from_file
    assert main([*argv, "--position", '{"seat": 1, "tuckd": "KS"}']) == 2
    err = capsys.readouterr().err
    assert "--position (the JSON given): unknown field 'tuckd'" in err and "players, variants, models" in err


def test_the_review_table_shows_the_hand_and_the_best_chance_and_all_shows_every_column(capsys):
    """A new user answering 'where did I go wrong' needed the seat's hand and the best action's chance, which
    only csv and json had; --all prints every column."""
    rec = str(Path(__file__).parents[1] / "seeds" / "records" / "bisko-bobo-example.json")
    assert main(["review", "bisko-bobo", rec, "--seat", "2", "--quiet"]) == 0

    def columns(out: str) -> set[str]:
        return set(
            next(line for line in out.splitlines() if line.split()[:1] == ["event"] and "verdict" in line).split()
        )

    out = capsys.readouterr().out
    head = columns(out)
    assert {"hand", "win_taken", "win_best", "loss_win"} <= head and "trials" not in head
    # each loss with its interval in words beside it, not two bare columns of bounds; one seat's: no seat column
    assert "loss_win_low" not in head and "seat" not in head
    assert re.search(r"loss_win +loss_win 95%", out) and re.search(r"\d\.\d{3} to -?\d\.\d{3}", out)
    assert main(["review", "bisko-bobo", rec, "--seat", "2", "--quiet", "--all"]) == 0
    assert {"hand", "trials", "precision_reached", "loss_win_low", "seat"} <= columns(capsys.readouterr().out)


def test_on_a_terminal_the_review_table_fits_its_width_and_says_what_it_left_out(capsys, monkeypatch):
    """A review's table ran to 180-250 characters and wrapped on a terminal into a block no one could read: on a
    terminal the least needed columns go first (the hand, the estimates behind the losses), one line names
    them; the decisions, verdicts and losses with their intervals stay. A file or a pipe keeps the whole view."""
    rec = str(Path(__file__).parents[1] / "seeds" / "records" / "zheng-shangyou-example.json")
    argv = ["review", "zheng-shangyou", rec, "--seat", "1", "--quiet"]
    assert main(argv) == 0
    piped = capsys.readouterr().out
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    monkeypatch.setenv("COLUMNS", "120")
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert max(map(len, piped.splitlines())) > 200 and max(map(len, out.splitlines())) <= 120
    head = next(line for line in out.splitlines() if line.split()[:1] == ["event"] and "verdict" in line).split()
    # every loss stays (its interval goes first: a loss reads 0 where it is not separated from the best)
    assert {"taken", "best", "verdict", "loss_win", "loss_score", "loss_last"} <= set(head)
    gone = {"hand", "score_taken", "score_best", "loss_win 95%"}
    assert "95%" not in head and not gone & set(head)
    said = " ".join(out.splitlines()[-3:])
    assert "left out to fit the terminal's width" in said and all(c in said for c in gone)
    # the columns kept in the order of the whole view
    whole = next(line for line in piped.splitlines() if line.split()[:1] == ["event"] and "verdict" in line).split()
    assert list(dict.fromkeys(c for c in whole if c in head)) == head  # ("loss_win 95%" splits in two words)
    # on 80 columns the loss the verdicts do not go by (the score's, here) is the last to go
    monkeypatch.setenv("COLUMNS", "80")
    assert main(argv) == 0
    out = capsys.readouterr().out
    head = next(line for line in out.splitlines() if line.split()[:1] == ["event"] and "verdict" in line).split()
    assert {"loss_win", "loss_last"} <= set(head) and "loss_score" not in head
    assert max(map(len, out.splitlines())) <= 80
    # the rows are the same decisions with the same verdicts
    verdicts = [line.split()[:1] + [w for w in line.split() if w in ("best", "worse", "uncertain", "equal")][-1:]
                for line in out.splitlines() if re.match(r" *\d+ ", line)]  # fmt: skip
    assert verdicts and verdicts == [
        line.split()[:1] + [w for w in line.split() if w in ("best", "worse", "uncertain", "equal")][-1:]
        for line in piped.splitlines()
        if re.match(r" *\d+ ", line)
    ]


def test_a_bismarck_round_simulation_names_the_round_and_each_quota(capsys):
    """`simulate bismarck --unit hand --round 4`: made_quota there is taking at most so many tricks (BM-6), which
    the table alone does not say (a new user read 'made_quota dealer 0.72' with nothing naming the round)."""
    assert main(["simulate", "bismarck", "--unit", "hand", "--round", "4", "--trials", "100", "--quiet"]) == 0
    out = capsys.readouterr().out.splitlines()
    # the header line wraps at tables.PROSE_WIDTH, its continuation indented
    assert (
        out[1].startswith("quota: round 4")
        and out[2].startswith("  ")
        and " ".join(" ".join(out[1:3]).split())
        == (
            "quota: round 4, misere: made_quota counts tricks taken, dealer at most 6, left at most 4, right at most 4 "
            "(BM-6)"
        )
    )
    argv = ["simulate", "bismarck", "--unit", "hand", "--round", "4", "--variant", "ruleset=swedish", "--trials", "100"]
    assert main([*argv, "--quiet"]) == 0
    assert "contract pass (avoid tricks): made_quota counts tricks taken, dealer at most 6, left (forehand) at most " \
           "4, right at most 6 (3(c)10)" in " ".join(capsys.readouterr().out.split())  # fmt: skip
    assert main(["simulate", "bismarck", "--trials", "100", "--quiet"]) == 0  # whole games: every round, no line
    assert "quota:" not in capsys.readouterr().out


def test_every_compare_header_names_its_variants(capsys):
    """The header's variants line in every game's compare (Biscuits' had none: its spec's describe does not
    carry them, and it must not, being the fingerprint stored runs are kept by)."""
    argv = ["compare", "biscuits", "--field", "planning", "--challenger", "greedy", "--trials", "50", "--quiet"]

    def variants_line(out: str) -> str:  # under the verdict (prose first) and the header's first line
        return next(line for line in out.splitlines() if line.startswith("variants:"))

    assert main([*argv, "--variant", "pass_locks_out=true"]) == 0
    assert "variants: pass_locks_out=true" in variants_line(capsys.readouterr().out)
    assert main(argv) == 0
    assert variants_line(capsys.readouterr().out) == "variants: the defaults"


def test_the_precision_line_says_an_interval_may_be_wider_only_where_one_is(capsys):
    """The advisor's rule holds each difference to ±P or clear of zero: the stderr line says that an interval may
    be wider than ±P only where one is (a new user read it beside widths all within ±P as a contradiction)."""
    from types import SimpleNamespace

    import pandas as pd

    from analysis.cli import _precision_note
    from analysis.tables import Result

    def line(widths):
        meta = {"analysis": "advisor", "precision_target": 0.5, "precision_achieved_by_measure": widths,
                "precision_reached": True, "trials": 4096, "looks": 3}  # fmt: skip
        _precision_note(Result(table=pd.DataFrame(), meta=meta), SimpleNamespace(format="table"))
        return capsys.readouterr().err

    assert "may be wider" not in line({"score": 0.24, "diff_score": 0.25}) and "widest score ±0.24" in line(
        {"score": 0.24, "diff_score": 0.25}
    )
    assert "where clear, an interval may be wider than ±P: widest score ±0.7" in line({"score": 0.7, "diff_score": 0.4})


INERT = [
    (["simulate", "zheng-shangyou", "--trials", "300"], "three_player_multiplier=literal_17", "3 players, not 4"),
    (["simulate", "zheng-shangyou", "--trials", "300"], "loser_exchange=offer_two", "--games-per-match 2"),
    (["simulate", "zheng-shangyou", "--trials", "300"], "later_game_leader=dealer", "--games-per-match 2"),
    (["simulate", "bismarck", "--trials", "20"], "target_score=50", "game_length=target only"),
    (["simulate", "bismarck", "--unit", "hand", "--round", "2", "--trials", "200"], "game_length=4", "one hand"),
    (
        ["compare", "bismarck", "--field", "heuristic", "--challenger", "random", "--trials", "100"],
        "target_score=10",
        "one hand",
    ),  # fmt: skip
    (["simulate", "bismarck", "--unit", "hand", "--trials", "300"], "round3_trump_timing=after_seeing_hand", "round 3"),
    (["simulate", "bismarck", "--unit", "hand", "--round", "3", "--trials", "300"], "round4_start=classic", "round 4"),
    (
        ["compare", "bismarck", "--field", "heuristic", "--challenger", "random", "--round", "4", "--trials", "60"],
        "round2_trump_method=cut_pack",
        "applies to round 2",
    ),  # fmt: skip
    (["simulate", "bisko-bobo", "--players", "6", "--trials", "4000"], "allow_same_suit_split=true", "at most 6"),
    (["simulate", "bisko-bobo", "--trials", "4000"], "jingo_placement_order=clockwise_sequential", "placements"),
]


@pytest.mark.parametrize("argv, variant, why", INERT)
def test_a_variant_without_effect_here_is_said_and_changes_nothing(argv, variant, why):
    """A variant that cannot change this run's figures (Game.inert_variants) is named in a note on stderr and in
    the meta; and the figures are those of the defaults (a designer had read the same figures as "this rule
    does not matter")."""
    code, base, _ = run(*argv, "--format", "csv", "--quiet")
    code2, out, err = run(*argv, "--variant", variant, "--format", "csv", "--quiet")
    assert code == code2 == 0
    assert out == base
    name = variant.partition("=")[0]
    assert f"cardlab: note: --variant {variant} has no effect here: " in err and why in err
    _, out, _ = run(*argv, "--variant", variant, "--format", "json", "--quiet")
    assert name in json.loads(out)["meta"]["variants_without_effect"]


def test_a_variant_that_applies_gets_no_note():
    for argv in (
        ["simulate", "zheng-shangyou", "--variant", "deck=3p_54", "--variant", "three_player_multiplier=literal_17"],
        ["simulate", "zheng-shangyou", "--games-per-match", "2", "--variant", "loser_exchange=offer_two"],
        ["simulate", "bismarck", "--variant", "game_length=target", "--variant", "target_score=10"],
        [
            "simulate",
            "bismarck",
            "--unit",
            "hand",
            "--round",
            "3",
            "--variant",
            "round3_trump_timing=after_seeing_hand",
        ],
        ["simulate", "bismarck", "--unit", "hand", "--round", "4", "--variant", "round4_start=classic"],
    ):
        code, _, err = run(*argv, "--trials", "20", "--quiet")
        assert code == 0 and "no effect" not in err, argv


def test_a_name_for_every_seat_may_come_after_a_seat_name():
    """--strategy NAME fills the seats no SEAT=NAME sets, in either order (it had been refused after one)."""
    argv = ["simulate", "bisko-bobo", "--trials", "2000", "--format", "csv", "--quiet"]
    a = run(*argv, "--strategy", "0=random", "--strategy", "heuristic")
    b = run(*argv, "--strategy", "heuristic", "--strategy", "0=random")
    assert a[0] == b[0] == 0 and a[1] == b[1]


def _commands_taking_a_game():
    from analysis.cli import build_parser

    out = []
    for sp in (a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)):
        for command, cp in sp.choices.items():
            if any(isinstance(a, argparse._SubParsersAction) for a in cp._actions):
                out.append(command)
    return out


@pytest.mark.parametrize("command", _commands_taking_a_game())
def test_every_command_without_a_game_names_the_games(command, capsys):
    """``cardlab COMMAND`` with no game: one line naming the games that have the command (compare-variants, new,
    had escaped with a traceback)."""
    code = main([command])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and f"give a game after {command}; accepted: " in err, err
