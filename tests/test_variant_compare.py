"""compare-variants: two rule sets on the same deals (analysis/variant_compare.py).

The values are the two simulations' own figures; the difference's interval is a jackknife over groups of chunks,
held here against the analytic standard errors of a single run and against the spread of the difference over
independent seeds; a change the rules cannot feel gives zero-width zeros; the pairing narrows the interval.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from analysis import driver, games
from analysis.cli import main
from analysis.games.base import RunOptions
from analysis.jackknife import chunk_trials, column_of, groups_of, jackknife_se, key_columns, replicates, row_keys
from analysis.stats import t_value

# one variant each that changes play (the kernels of these specs are compiled by the files before this one)
CHANGES = {
    "bisko-bobo": ({"exact_tie": "no_winner"}, {}),
    "zheng-shangyou": ({"score_timing": "at_end"}, {}),
    "biscuits": ({"pass_locks_out": "true"}, {}),
    "bismarck": ({"must_trump_when_void": "true"}, {"unit": "hand", "round": 2}),
}


def test_t_value_against_tables():
    """Student's t, two-sided 95% and 99% (the printed tables' values)."""
    for conf, df, want in ((0.95, 1, 12.706), (0.95, 4, 2.776), (0.95, 31, 2.040), (0.99, 10, 3.169)):
        assert t_value(conf, df) == pytest.approx(want, abs=6e-4)
    assert t_value(0.95, 100_000) == pytest.approx(1.95996, abs=1e-4)


@pytest.mark.parametrize("gid", list(CHANGES))
def test_values_are_the_two_simulations_on_the_same_seed(gid):
    """field_value and challenger_value are simulate's estimates under each rule set (same seed, same trials),
    the estimate their difference; every row of either table is there."""
    game = games.get(gid)
    change, opts = CHANGES[gid]
    trials = 600
    res = game.compare_variants(change, run=RunOptions(trials=trials, seed=3, progress=False), **opts)
    a = driver.run(game.simulation_spec(**opts), trials=trials, seed=3, progress=False).table
    b = driver.run(game.simulation_spec(variants=change, **opts), trials=trials, seed=3, progress=False).table
    t = res.table
    cols = key_columns(a)
    order = {k: i for i, k in enumerate(row_keys(t, cols))}
    # every row of either table (a score only one rule set reaches: no value on the other side, no difference)
    assert len(order) == len(t) and set(order) == set(row_keys(a, cols)) | set(row_keys(b, cols))
    np.testing.assert_array_equal(t["field_value"].to_numpy(), column_of(a, "estimate", order, cols))
    np.testing.assert_array_equal(t["challenger_value"].to_numpy(), column_of(b, "estimate", order, cols))
    d = t["challenger_value"].to_numpy() - t["field_value"].to_numpy()
    np.testing.assert_array_equal(t["estimate"].to_numpy(), d)
    ok = np.isfinite(t["std_error"].to_numpy(dtype=float))
    common = np.isfinite(d) & (t["trials"].fillna(0).to_numpy() >= 100)  # rows of both, not rare
    assert ok[common].mean() > 0.8
    assert (t["ci_low"][ok] <= t["estimate"][ok]).all() and (t["estimate"][ok] <= t["ci_high"][ok]).all()
    assert res.meta["challenger_variants"] == change and res.meta["command"] == "compare-variants"
    assert res.meta["trials"] == trials and res.meta["chunks"] >= 32  # a short run is cut for the jackknife


def test_a_change_the_rules_cannot_feel_is_zero_in_every_row():
    """ZS's three-player multiplier at 4 players: the same deals and play both ways, so every difference is 0
    with an interval of no width, the verdict says so and the meta names the inert variant."""
    zs = games.get("zheng-shangyou")
    res = zs.compare_variants(
        {"three_player_multiplier": "literal_17"}, run=RunOptions(trials=2000, seed=1, progress=False)
    )
    t = res.table
    ok = np.isfinite(t["estimate"].to_numpy(dtype=float))
    assert (t["estimate"][ok] == 0).all()
    # a rare conditional row may have no interval (a group left out leaves it no trials): NaN, never a width
    ci = np.isfinite(t["ci_low"].to_numpy(dtype=float))
    assert ci.sum() > 0.8 * ok.sum() and (t["ci_low"][ci] == 0).all() and (t["ci_high"][ci] == 0).all()
    assert "three_player_multiplier" in res.meta["variants_without_effect"]
    assert "every figure the same on all 2,000 games (the rule changed nothing here)" in res.meta["verdict"]


def test_the_pairing_narrows_the_interval():
    """Bisko-Bobo's exact_tie=no_winner only touches the rare exact ties: on the same deals the pooled win's
    difference is known to a small fraction of the unpaired interval from the two runs' own errors."""
    bb = games.get("bisko-bobo")
    res = bb.compare_variants({"exact_tie": "no_winner"}, run=RunOptions(trials=64_000, seed=2, progress=False))
    t = res.table
    win = t[(t["measure"] == "sole_win") & t["seat"].notna()]
    paired = (win["ci_high"] - win["ci_low"]).to_numpy() / 2
    a = driver.run(bb.simulation_spec(), trials=64_000, seed=2, progress=False).table
    a = a[(a["measure"] == "sole_win") & a["seat"].notna()]
    unpaired = 1.96 * np.sqrt(2) * a["std_error"].to_numpy()
    assert (paired < unpaired / 10).all(), (paired, unpaired)
    assert "lowers win (pooled)" in res.meta["verdict"]


def test_jackknife_standard_errors_match_the_analytic_ones():
    """One Bisko-Bobo run: the jackknife over 32 groups of chunks gives each seat's proportion's standard error
    to within its own sampling error (relative sd about 1/sqrt(2 * 31) = 0.13 a row; the median over the table's
    rows far closer). Seat rows only: a pooled row counts seat-deals, which are not independent within a deal, so
    its binomial standard error is not the truth the jackknife estimates."""
    bb = games.get("bisko-bobo")
    spec = bb.simulation_spec()
    trials, size = 64 * 1024, 2048
    res = driver.run(spec, trials=trials, seed=5, chunk_size=size, progress=False)
    t = res.table
    cols = key_columns(t)
    order = {k: i for i, k in enumerate(row_keys(t, cols))}
    se = jackknife_se(replicates(spec, res.chunk_counts, trials, size, order, cols))
    want = t["std_error"].to_numpy(dtype=float)
    use = np.isfinite(want) & (want > 0) & t["successes"].notna().to_numpy() & (t["trials"].to_numpy() >= 1000)
    use &= t["seat"].notna().to_numpy()
    ratio = se[use] / want[use]
    assert use.sum() >= 50
    assert 0.85 < np.median(ratio) < 1.15, np.median(ratio)
    assert (ratio > 0.4).all() and (ratio < 1.8).all()


def test_the_difference_spreads_over_seeds_as_its_interval_says():
    """The paired difference's jackknife standard error against the standard deviation of the difference over 16
    independent seeds (that sd has a relative error of about 1/sqrt(30) = 0.18), for the per-seat rows of a
    measure the change moves."""
    bb = games.get("bisko-bobo")
    est, ses = [], []
    for seed in range(16):
        t = bb.compare_variants(
            {"exact_tie": "no_winner"}, run=RunOptions(trials=8192, seed=100 + seed, progress=False)
        )
        t = t.table
        rows = t[(t["measure"] == "win") & t["seat"].notna()]
        est.append(rows["estimate"].to_numpy())
        ses.append(rows["std_error"].to_numpy())
    sd = np.std(np.array(est), axis=0, ddof=1)
    se = np.mean(np.array(ses), axis=0)
    assert (sd > 0).all()
    ratio = se / sd
    assert 0.6 < np.median(ratio) < 1.6, ratio


def test_chunks_and_groups():
    assert list(chunk_trials(3, 10, 25)) == [10, 10, 5]
    g = groups_of(100)
    assert len(g) == 32 and sorted(np.concatenate(g)) == list(range(100)) and {len(x) for x in g} == {3, 4}
    assert len(groups_of(5)) == 5


def test_command_line_and_checkpoint_resume(tmp_path, capsys):
    """The command's json carries the rows and meta; with --checkpoint the two runs keep FILE.field and
    FILE.challenger, and running again resumes to the same rows."""
    ck = tmp_path / "ck"
    argv = [
        "compare-variants", "bisko-bobo", "--challenger-variant", "exact_tie=no_winner", "--trials", "4000",
        "--seed", "4", "--format", "json", "--quiet",
    ]  # fmt: skip
    assert main(argv) == 0
    plain = json.loads(capsys.readouterr().out)
    assert main([*argv, "--checkpoint", str(ck)]) == 0
    first = json.loads(capsys.readouterr().out)
    assert (tmp_path / "ck.field").exists() and (tmp_path / "ck.challenger").exists()
    assert main([*argv, "--checkpoint", str(ck)]) == 0
    again = json.loads(capsys.readouterr().out)
    assert plain["rows"] == first["rows"] == again["rows"]
    assert again["meta"]["resumed_chunks"] == again["meta"]["challenger_resumed_chunks"] == again["meta"]["chunks"]
    assert plain["meta"]["challenger_variants"] == {"exact_tie": "no_winner"}
    assert "jackknife over 32 groups" in plain["meta"]["interval"]
    assert main(argv[:-3] + ["--quiet"]) == 0
    out = capsys.readouterr().out
    assert "challenger: exact_tie=no_winner" in out and "field_value" in out and "exact_tie=no_winner instead of" in out


def test_the_verdict_names_what_moved_beyond_the_headline():
    """A rule may leave the headline alone and move the rest (ZS score_timing=at_end moves no winner, but the
    scores): the verdict says the headline is unchanged without "the rule changed nothing", and names the measures
    with rows clear of zero; --measure picks the measure it judges. A run of another round than the variant's
    (Bismarck round3_trump_timing in round 1) is all zeros, said so, with the note in the meta."""
    zs = games.get("zheng-shangyou")
    res = zs.compare_variants({"score_timing": "at_end"}, run=RunOptions(trials=3000, seed=1, progress=False))
    line = res.meta["verdict"]
    assert "winner the same in every row on all 3,000 games" in line and "changed nothing" not in line
    assert "rows clear of zero in other measures: " in line and "winner_gain 1 of 1" in line
    asked = zs.compare_variants(
        {"score_timing": "at_end"}, run=RunOptions(trials=3000, seed=1, progress=False, measures=("winner_gain",))
    )
    assert asked.meta["verdict"].startswith(
        "score_timing=at_end instead of score_timing=at_first_out lowers winner_gain"
    )
    bm = games.get("bismarck")
    res = bm.compare_variants(
        {"round3_trump_timing": "after_seeing_hand"}, run=RunOptions(trials=300, seed=1, progress=False), unit="hand"
    )
    assert "every figure the same on all 300 hands (the rule changed nothing here)" in res.meta["verdict"]
    assert "round 3" in res.meta["variants_without_effect"]["round3_trump_timing"]
    assert res.meta["quota"].startswith("round 1")
    t = res.table
    assert (t["challenger_trials"] == t["trials"]).all()


def test_swedish_bismarck_and_rows_only_one_rule_set_has():
    """ruleset=swedish is Bismarck's main switch: it runs as a challenger (a resolved dict of every variant had
    been refused) and its table's extra contract column is left out of the keys; a ZS score only one rule set
    reaches is a row with the other side blank, not dropped; an event neither run saw has no interval (not one
    of no width); a share of 0 or 1 in a small run is not taken for a row the rules fix."""
    bm = games.get("bismarck")
    res = bm.compare_variants({"ruleset": "swedish"}, run=RunOptions(trials=64, seed=1, progress=False))
    assert res.meta["challenger_variants"] == {"ruleset": "swedish"} and len(res.table)
    zs = games.get("zheng-shangyou")
    t = zs.compare_variants({"ruleset": "legacy_wiki"}, run=RunOptions(trials=600, seed=1, progress=False)).table
    dist = t[t["measure"] == "score_distribution"]
    one_side = dist["field_value"].isna() ^ dist["challenger_value"].isna()
    assert one_side.any() and dist[one_side]["estimate"].isna().all()
    bb = games.get("bisko-bobo")
    res = bb.compare_variants({"exact_tie": "redeal"}, run=RunOptions(trials=64, seed=1, progress=False))
    t = res.table
    unseen = t[(t["measure"] == "final_type") & (t["field_value"] == 0) & (t["challenger_value"] == 0)]
    assert len(unseen) and unseen["ci_low"].isna().all()
    assert "fixed by the rules" not in res.meta["verdict"]


def test_a_challenger_checkpoint_of_another_run_is_refused_before_any_work(tmp_path, capsys):
    """FILE.challenger of another challenger: refused at once (it had been found only after the field's whole run),
    and the field's run has not started (no FILE.field made)."""
    ck = tmp_path / "ck"
    base = ["compare-variants", "bisko-bobo", "--trials", "640", "--checkpoint", str(ck), "--quiet"]
    assert main([*base, "--challenger-variant", "exact_tie=redeal"]) == 0
    (tmp_path / "ck.field").unlink()
    capsys.readouterr()
    assert main([*base, "--challenger-variant", "exact_tie=no_winner"]) == 2
    err = capsys.readouterr().err
    assert "ck.challenger' belongs to a different run" in err and err.count("\n") == 1
    assert not (tmp_path / "ck.field").exists()


def test_an_interruption_says_whose_run_it_stopped(monkeypatch):
    """Ctrl-C in the challenger's run: the message names that run and that the field's had finished (a bare
    'interrupted after 52 chunks' left a user guessing which half, and whether anything was kept)."""
    import analysis.variant_compare as vc
    from analysis.errors import Interrupted

    real, calls = vc.run_spec, []

    def run_then_stop(spec, **kw):
        calls.append(kw.get("checkpoint"))
        if len(calls) == 2:
            raise Interrupted("interrupted after 3 chunks", 130)
        return real(spec, **kw)

    monkeypatch.setattr(vc, "run_spec", run_then_stop)
    with pytest.raises(Interrupted) as e:
        games.get("bisko-bobo").compare_variants({"exact_tie": "redeal"}, run=RunOptions(trials=640, progress=False))
    assert str(e.value) == (
        "the challenger's run (the field's run had finished): interrupted after 3 chunks; without --checkpoint "
        "nothing is kept"
    )
    assert e.value.exit_code == 130
