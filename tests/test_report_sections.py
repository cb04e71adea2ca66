"""Report sections are functions of the runs: their numbers are built and checked without matplotlib, and the
figures are drawn only when a report is written (analysis/sections/)."""

import json
import subprocess
import sys

import pandas as pd

from analysis.report import write_report
from analysis.sections import biscuits as S

PROBE = """
import json, sys
from analysis.sections import biscuits as S
r = S.runs(scale=0.001, seed=1, progress=False)
sections = [f(r) for f in S.SECTIONS]
out = {"matplotlib": "matplotlib" in sys.modules, "titles": [s.title for s in sections]}
print(json.dumps(out))
"""


def test_sections_build_without_matplotlib():
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True)
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["matplotlib"] is False
    assert len(out["titles"]) == len(S.SECTIONS) and all(out["titles"])


def test_section_numbers_and_figures(tmp_path):
    runs = S.runs(scale=0.001, seed=1, progress=False)
    # exactly one player goes out first in each hand (BI-8): the seats' shares add up to 1 for every strategy
    seats = S.points_by_seat(runs).table
    first = seats[seats.measure == "out_first"].groupby("strategy").estimate.sum()
    assert set(first.index) == set(S.FIELD_STRATEGIES)
    assert all(abs(v - 1.0) < 1e-12 for v in first)
    # one Starter row per strategy, each over every hand its run played (the Starter is in every hand, BI-3)
    starter = S.starter_advantage(runs).table.set_index("strategy")
    hands = {k: t[(t.measure == "out_first") & t.seat.notna()].trials.iloc[0] for k, t in runs["games"].items()}
    assert {k: int(v) for k, v in starter.trials.items()} == {k: int(v) for k, v in hands.items()}
    # the exact section is the exact table itself
    from analysis.games.biscuits import exact_hand_combinations

    pd.testing.assert_frame_equal(S.exact_odds(runs).table, exact_hand_combinations(13))
    # figures are drawn when the report is written: one PNG per draw function
    sections = [f(runs) for f in S.SECTIONS]
    folder = write_report("biscuits", "t", "i", sections, tmp_path)
    assert len(list(folder.glob("fig*.png"))) == sum(len(s.figures) for s in sections) > 0


def test_the_worked_position_and_the_reviewed_hand():
    """The advisor's section ranks the leads best first (the best's difference is 0, every other at or below
    it) and the review's section reports non-negative losses, positive exactly where a decision is clearly
    worse (the answer's rules, positions.md)."""
    runs = S.runs(scale=0.001, seed=1, progress=False)
    t = S.worked_position(runs).table
    assert t.iloc[0]["verdict"] == "best" and t.iloc[0]["diff_points"] == 0
    assert (t["diff_points"] <= 0).all() and t["net_points"].is_monotonic_decreasing
    r = S.reviewed_hand(runs).table
    assert len(r) and (r["loss_score"] >= 0).all()
    assert ((r["loss_score"] > 0) == (r["verdict"] == "worse")).all()


def test_the_computed_sentences_hold_to_their_intervals():
    """Sentences the sections compute from their tables say only what the intervals allow: no 14-card-seat
    sentence on a gap within chance, the seats' spread judged for the extreme pair of three, the Bisko-Bobo edge
    bounded by the intervals' upper ends, and which policy to play said only where the interval excludes 0."""
    import numpy as np

    from analysis.sections import bisko_bobo as BB
    from analysis.sections import bismarck as BM
    from analysis.sections import zheng_shangyou as ZS

    def winners(w, n):
        return pd.DataFrame({"seat": [0, 1, 2, 3], "estimate": w, "trials": [n] * 4})

    values = pd.DataFrame({"measure": ["value_of_holding_win"], "feature": ["3D"], "estimate": [0.092]})
    runs = {"values": values}
    assert "14-card seats win 0.030" in ZS._fourteen_cards(winners([0.262, 0.268, 0.238, 0.232], 200_000), runs)
    assert ZS._fourteen_cards(winners([0.262, 0.268, 0.238, 0.232], 500), runs) == ""  # ±0.044: within chance
    assert ZS._fourteen_cards(winners([0.24, 0.24, 0.26, 0.26], 200_000), runs) == ""  # the other way

    def games(p, n):
        return pd.DataFrame({"measure": ["game_won"] * 3, "seat": [0, 1, 2], "estimate": p, "trials": [n] * 3})

    # 0.011 apart on 20,000 games: more than 1.96 sigma (0.0109) but within the extreme pair's 2.394 (0.0133)
    assert "within the ±0.0133" in BM._seat_spread(games([0.301, 0.312, 0.308], 20_000))
    assert "more than" in BM._seat_spread(games([0.28, 0.34, 0.31], 20_000))
    assert "only just more than" not in BM._seat_spread(games([0.28, 0.34, 0.31], 20_000))
    # 0.0134 against ±0.0133 at 95% but within 99% (2.94 sigma: 0.0163): clear only at 95%, said so
    close = BM._seat_spread(games([0.301, 0.3144, 0.308], 20_000))
    assert "only just more than the ±0.0133" in close and "within the ±0.0163 of 99%" in close
    assert BM._seat_spread(games([np.nan] * 3, 0)) == ""

    def edges(est, lo, hi):
        return pd.DataFrame({"players": [4, 5], "field": ["heuristic"] * 2, "estimate": est, "ci_low": lo,
                             "ci_high": hi})  # fmt: skip

    assert "at most 0.14 percentage points" in BB._edge_size(
        edges([0.0011, 0.0004], [0.0009, 0.0002], [0.0014, 0.0005])
    )
    assert "nothing measurable" in BB._edge_size(edges([0.0011, 0.0004], [-0.0001, -0.0002], [0.0023, 0.001]))

    def compare(rows):
        return pd.DataFrame(rows, columns=["measure", "field", "challenger", "estimate", "ci_low", "ci_high"])

    both = ZS._both_ways(compare([
        ("challenger_minus_field_win", "greedy", "planning", 0.009, 0.006, 0.013),
        ("challenger_minus_field_win", "planning", "greedy", 0.027, 0.024, 0.031),
        ("challenger_minus_field_score", "greedy", "planning", -2.79, -2.89, -2.69),
        ("challenger_minus_field_score", "planning", "greedy", 1.2, 1.0, 1.4),
    ]))  # fmt: skip
    assert "among greedy players, planning rather than greedy (though one planning seat there scores -2.79" in both
    assert "among planning players, greedy rather than planning" in both
    unclear = ZS._both_ways(compare([
        ("challenger_minus_field_win", "greedy", "greedy-hold", -0.001, -0.004, 0.002),
        ("challenger_minus_field_win", "greedy-hold", "greedy", 0.002, -0.001, 0.005),
    ]))  # fmt: skip
    assert "greedy-hold or greedy (not told apart)" in unclear


def test_the_variants_sentence_names_only_single_game_four_player_rule_sets_below_a_fair_share():
    """ZS-1, 4(c): the 3 of diamonds leads every single game; a rule set is named as a disadvantage where its
    holder's win interval lies wholly below 1/4, and only among 4-player runs of single games, both read from the
    table (its seats; match_top rows mark a run of matches), not from the label: not a 3-player deck, not matches
    (their later games are led by the previous Winner)."""
    from analysis.sections import zheng_shangyou as Z

    def table(players, high, matches=False):
        rows = [{"measure": "winner", "seat": s, "trials": 100, "estimate": 0.2, "ci_low": 0.1, "ci_high": 0.3}
                for s in range(players)]  # fmt: skip
        rows += [
            {"measure": "winner", "seat": None, "trials": 100, "estimate": 1.0, "ci_low": 1.0, "ci_high": 1.0},
            {"measure": "winner_given_3D", "seat": None, "trials": 100, "estimate": high - 0.02,
             "ci_low": high - 0.04, "ci_high": high},
            {"measure": "winner_gain", "seat": None, "trials": 100, "estimate": 3.0, "ci_low": 2.9, "ci_high": 3.1},
        ]  # fmt: skip
        if matches:
            rows.append({"measure": "match_top", "seat": 0, "trials": 25, "estimate": 0.3, "ci_low": 0.1,
                         "ci_high": 0.5})  # fmt: skip
        return pd.DataFrame(rows)

    runs = {
        "variants": [
            ("defaults", table(4, 0.33)),
            ("ruleset=old", table(4, 0.21)),  # below: named
            ("edge=1", table(4, 0.25)),  # touching 1/4: not wholly below
            ("later_game_leader=winner", table(4, 0.2, matches=True)),
            ("deck=odd", table(3, 0.2)),  # a 3-player deck: its fair share is 1/3
        ],
        "two_decks": {},
    }
    # the sentence lists the rule sets in the rows' order: any other one named would stand beside ruleset=old
    assert (
        "Under ruleset=old the holder of the 3 of diamonds wins less often than a fair share" in Z.variants(runs).text
    )
    runs["variants"][2] = ("edge=1", table(4, 0.24))
    assert "Under ruleset=old, edge=1 the holder" in Z.variants(runs).text


def test_the_departures_section_counts_every_bucket_and_the_appendix_lists_them():
    """Bisko-Bobo report: the departures from the heuristic in counts per player count and decision (their sum
    is every bucket), the gain quoted from the edge runs' largest upper end with a heuristic field (not from
    another field's), and every bucket in the last section, the table as stored."""
    from analysis.games.bisko_bobo import recommended_differences
    from analysis.sections import bisko_bobo as S

    def pooled(high):
        return pd.DataFrame([{"seat": None, "ci_high": high}])

    runs = {"edge": {(2, "heuristic"): pooled(0.0066), (3, "heuristic"): pooled(0.0048),
                     (2, "always-jingo"): pooled(0.0114)}}  # fmt: skip
    d = recommended_differences()
    sec = S.recommended_departures(runs)
    assert sec.table.departures.sum() == len(d) and f"in {len(d)} situation buckets" in sec.text
    assert "at most 0.66 percentage points" in sec.text
    for row in sec.table.itertuples():
        g = d[(d.players == row.players) & (d.decision == row.decision)]
        assert sum(int(x.split()[-1]) for x in row.recommended.split(", ")) == len(g) == row.departures
    assert S.SECTIONS[-1] is S.every_departure and S.every_departure(runs).table.equals(d)
    assert S.recommended_departures({"edge": {}}) is None and S.every_departure({"edge": {}}) is None


def test_the_sentences_that_answer_a_reader_come_from_their_tables():
    """Biscuits: which two cards to pass (BI-4) named only where a pass policy's interval clears 0; Zheng Shangyou:
    the 3 of diamonds over matches (ZS-1) said only where the match row lies wholly below a fair share; Bismarck:
    the reviewed events where the card played has more tricks than the best by round score (BM-6) named from
    the review's table."""
    from analysis.sections import biscuits as BI
    from analysis.sections import bismarck as BM
    from analysis.sections import zheng_shangyou as ZS

    ct = pd.DataFrame(
        [("greedy", "greedy-pass-singles", 1.64, 1.61, 1.67), ("greedy", "greedy-pass-pair", 0.58, 0.55, 0.61),
         ("greedy", "greedy-exchange", 2.0, 1.9, 2.1),  # not a pass policy: never the answer
         ("planning", "planning-pass-pair", -1.13, -1.16, -1.09)],
        columns=["field", "challenger", "estimate", "ci_low", "ci_high"],
    )  # fmt: skip
    said = BI._pass_answer(ct)
    assert "for a greedy team, passing singles beats its own pass (its two lowest cards) by 1.64" in said
    assert "for a planning team, no other pass policy clearly beats its own" in said

    def row(variant, est, lo, hi):
        return {"variant": variant, "measure": "winner_given_3D", "estimate": est, "ci_low": lo, "ci_high": hi}

    below = ZS._over_matches([row("defaults", 0.3141, 0.31, 0.32), row("defaults (matches of 4 games)", 0.2332,
                                                                       0.2312, 0.2352)])  # fmt: skip
    # (4 x 0.2332 - 0.3141) / 3: the later games' share
    assert "wins 0.2332 of the games" in below and "about 0.206 of those games" in below
    assert ZS._over_matches([row("defaults", 0.31, 0.30, 0.32), row("defaults (matches of 4 games)", 0.26, 0.24,
                                                                     0.27)]) == ""  # fmt: skip

    t = pd.DataFrame({"event": [0, 30, 33], "tricks_taken": [2.8, 4.31, 4.27], "tricks_best": [3.6, 4.13, 3.91]})
    assert BM._more_tricks_not_best(t) == " (events 30, 33: the card played has more tricks on average than the best)"
    assert BM._more_tricks_not_best(t.iloc[:1]) == ""


def test_a_sections_command_line_gives_its_figures():
    """A reader who acts on a figure can run it again: the section names its command (seed and size included), and
    that command gives the section's rows (a new user could not reproduce a report's figures from its text)."""
    import re
    import shlex

    from tests.inprocess import cli

    runs = S.runs(scale=0.001, seed=1, progress=False)
    sec = S.strategy_values(runs)
    command = re.search(r"`(cardlab compare biscuits [^`]*)`", sec.text).group(1)
    row = sec.table.iloc[0]
    argv = shlex.split(command.replace("FIELD", row.field).replace("CHALLENGER", row.challenger))[1:]
    code, out, _ = cli(*argv, "--format", "json", "--quiet")
    assert code == 0
    rows = pd.DataFrame(json.loads(out)["rows"])
    pooled = rows[(rows.measure == "team_points_challenger_minus_field") & rows.team.isna()].iloc[0]
    assert (pooled.estimate, pooled.ci_low, pooled.ci_high) == (row.estimate, row.ci_low, row.ci_high)


def test_clear_of_names_the_rows_whose_interval_misses_the_fair_value():
    """The sections' "is it fair?" answers: a row is clear of the fair value where its 95% interval lies wholly
    above or below it (a number, or a column per row); a row whose interval holds it is not named."""
    import pandas as pd

    from analysis.report import clear_of

    t = pd.DataFrame({"ci_low": [0.26, 0.20, 0.24, 0.30], "ci_high": [0.28, 0.24, 0.26, 0.32],
                      "fair": [0.25, 0.25, 0.25, 0.33]})  # fmt: skip
    assert clear_of(t, 0.25).index.tolist() == [0, 1, 3] and clear_of(t, 0.25)["side"].tolist() == [
        "above", "below", "above"]  # fmt: skip
    assert clear_of(t, "fair")["side"].tolist() == ["above", "below", "below"]
    assert clear_of(t.iloc[2:3], 0.25).empty
