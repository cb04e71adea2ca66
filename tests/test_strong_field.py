"""`cardlab strong-field`: the report's findings re-measured with a strong field, checkpointed run by run and
stored with their provenance (analysis/strong_field.py). The stored tables of the real, searching fields are
rendered by every game's report (test_games_conformance); here the machinery runs with the built-in players as
the "strong" field, which keeps it to seconds."""

import json

import pandas as pd
import pytest

import analysis.driver
from analysis import strong_field as SF
from analysis.errors import CardlabError, Interrupted
from analysis.sections import module

CHEAP = {"zheng-shangyou": "greedy", "biscuits": "planning", "bismarck": "heuristic"}


def _compute(game, tmp_path, name="sf.json", **kw):
    path = SF.compute(
        game, field=CHEAP[game], scale=1e-6, seed=7, checkpoint_dir=tmp_path / "ck", write=tmp_path / name,
        progress=False, **kw,
    )  # fmt: skip
    return path, json.loads(path.read_text())


def _runs_from(game: str, doc: dict) -> dict:
    """The report's runs for the strong-field section, taken from the stored tables themselves: the section
    then compares each figure with itself."""
    R = {k: pd.DataFrame(v["table"]) for k, v in doc["runs"].items()}
    if game == "zheng-shangyou":
        values = pd.concat([t for k, t in R.items() if k.startswith("value-")], ignore_index=True)
        compare = pd.concat([t for k, t in R.items() if k.startswith("policy-")], ignore_index=True)
        return {"values": values, "main": R["seats"], "compare": compare}
    if game == "biscuits":
        compare = pd.concat([t for k, t in R.items() if k.startswith("team-")], ignore_index=True)
        return {"games": {"planning": R["games"]}, "compare": compare}
    return {"hands": {int(k.split("-")[1]): t for k, t in R.items()}}


@pytest.mark.parametrize("game", list(CHEAP))
def test_compute_stores_every_run_with_its_provenance(game, tmp_path, monkeypatch):
    path, doc = _compute(game, tmp_path)
    plan = [r for r in module(game).strong_field_runs(CHEAP[game]) if not r.long]  # --long not given
    assert list(doc["runs"]) == [r.key for r in plan]
    assert doc["game"] == game and doc["field"] == CHEAP[game] and doc["seed"] == 7 and doc["cardlab"]
    assert doc["command"].startswith(f"cardlab strong-field {game} --field {CHEAP[game]}")
    for r, stored in zip(plan, doc["runs"].values()):
        assert stored["trials"] == r.chunk and stored["seconds"] >= 0 and stored["table"]
        assert stored["seed"] == 7 + r.seed_offset  # the seed of the report's run it re-measures
    # runs that compare policies share their deals (one seed), so that their differences are paired
    shared = [v["seed"] for k, v in doc["runs"].items() if k.startswith(("policy-", "team-"))]
    assert len(set(shared)) <= 1
    assert list((tmp_path / "ck").iterdir()) == []  # the checkpoints are removed once the tables are stored
    # the report's section renders the stored tables; compared with themselves nothing changes
    monkeypatch.setattr(SF, "stored_path", lambda g: path)
    runs = {**_runs_from(game, doc), "strong": SF.stored(game)}
    section = module(game).strong_field(runs)
    assert doc["command"] in section.text and len(section.table)
    changes = section.table["changes"]
    assert set(changes.dropna()) <= {""}


def test_an_interrupted_computation_resumes_to_the_same_tables(tmp_path, monkeypatch):
    game = "zheng-shangyou"
    _, whole = _compute(game, tmp_path, "whole.json")
    real = analysis.driver.run
    calls = {"n": 0}

    def stopping(spec, **kw):
        calls["n"] += 1
        if calls["n"] == 3:
            raise Interrupted("interrupted")
        return real(spec, **kw)

    monkeypatch.setattr(analysis.driver, "run", stopping)
    with pytest.raises(Interrupted, match="the 2 before it are in .*; run the same command to resume"):
        _compute(game, tmp_path, "resumed.json")
    # the two finished runs are stored (the file is written run by run) and their checkpoints gone; the third
    # stopped before its first chunk
    assert list(json.loads((tmp_path / "resumed.json").read_text())["runs"]) == ["seats", "value-3D"]
    assert list((tmp_path / "ck").rglob("*.ckpt")) == []
    (seconds,) = (tmp_path / "ck").rglob("seconds.json")
    before = json.loads(seconds.read_text())
    assert set(before) == {"seats", "value-3D", "value-RJ"}
    _, resumed = _compute(game, tmp_path, "resumed.json")
    # a run's seconds add up over the invocations: the first one's time is not lost with the resumption
    assert before["seats"] > 0 and resumed["runs"]["seats"]["seconds"] >= round(before["seats"], 1)
    assert sorted(p.name for p in tmp_path.iterdir() if p.is_file()) == ["resumed.json", "whole.json"]
    assert {k: v["table"] for k, v in resumed["runs"].items()} == {k: v["table"] for k, v in whole["runs"].items()}


def test_bad_requests_are_refused_before_any_work(tmp_path):
    with pytest.raises(CardlabError, match="no long measurements for 'biscuits'; --long is for: bismarck"):
        SF.compute("biscuits", long=True, checkpoint_dir=tmp_path / "ck", write=tmp_path / "x.json")
    with pytest.raises(CardlabError, match="unknown strategy 'nosuch'"):
        SF.compute("zheng-shangyou", field="nosuch", checkpoint_dir=tmp_path / "ck", write=tmp_path / "x.json")
    with pytest.raises(CardlabError, match="bad --scale"):
        SF.compute("biscuits", scale=float("nan"), checkpoint_dir=tmp_path / "ck", write=tmp_path / "x.json")
    with pytest.raises(CardlabError, match="no strong-field measurements for 'bisko-bobo'"):
        SF.compute("bisko-bobo", checkpoint_dir=tmp_path / "ck")
    with pytest.raises(CardlabError, match="--write"):
        SF.compute("bismarck", field="heuristic", checkpoint_dir=tmp_path / "ck", write=tmp_path)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("game", list(CHEAP))
def test_a_report_without_stored_tables_says_how_to_make_them(game):
    section = module(game).strong_field({"strong": None})
    assert f"cardlab strong-field {game}" in section.text and section.table is None


def test_stored_runs_are_kept_and_fresh_computes_them_again(tmp_path, monkeypatch):
    game = "biscuits"
    _, first = _compute(game, tmp_path)
    real = analysis.driver.run

    def refusing(spec, **kw):
        raise AssertionError("a stored run was computed again")

    monkeypatch.setattr(analysis.driver, "run", refusing)
    _, again = _compute(game, tmp_path)  # every run is in the file: nothing runs
    assert {k: v["table"] for k, v in again["runs"].items()} == {k: v["table"] for k, v in first["runs"].items()}
    calls = []

    def counting(spec, **kw):
        calls.append(kw["seed"])
        return real(spec, **kw)

    monkeypatch.setattr(analysis.driver, "run", counting)
    # a stored run without a fingerprint (a file from before them) is computed again, whatever its describe says:
    # a describe can name a player whose meaning has changed since (search:250 before and after halving)
    doc = json.loads((tmp_path / "sf.json").read_text())
    key = next(iter(doc["runs"]))
    del doc["runs"][key]["fingerprint"]
    (tmp_path / "sf.json").write_text(json.dumps(doc))
    _, again = _compute(game, tmp_path)
    assert (
        len(calls) == 1
        and again["runs"][key]["fingerprint"]
        and again["runs"][key]["table"] == first["runs"][key]["table"]
    )
    calls.clear()
    _, fresh = _compute(game, tmp_path, fresh=True)
    assert len(calls) == len(first["runs"])
    assert {k: v["table"] for k, v in fresh["runs"].items()} == {k: v["table"] for k, v in first["runs"].items()}
    # another seed is another computation: the file is not replaced (its runs may have taken hours)
    calls.clear()
    before = (tmp_path / "sf.json").read_bytes()
    with pytest.raises(CardlabError, match="holds the tables of another computation .*seed 7.*--write FILE"):
        SF.compute(game, field=CHEAP[game], scale=1e-6, seed=8, checkpoint_dir=tmp_path / "ck",
                   write=tmp_path / "sf.json", progress=False)  # fmt: skip
    assert not calls and (tmp_path / "sf.json").read_bytes() == before


def test_bismarck_long_runs_feed_the_players_section(tmp_path, monkeypatch):
    """``--long``: the heuristic, pimc, pimc-infer and dd comparison with the solver players from the first trick (issue 35),
    here from 4 cards a hand so that it takes seconds, and the rollout search from the first trick (no solver:
    pimc_from 0); stored beside the field's runs, which are kept, and shown by
    the report's players section beside the rows the report computes (from PIMC_FROM cards)."""
    from analysis.games.bismarck import PIMC_FROM, labels
    from analysis.sections import bismarck as S

    monkeypatch.setattr(S, "SOLVER_FROM", {1: 4, 2: 4, 3: 4, 4: 4})
    path, short = _compute("bismarck", tmp_path)
    assert not any(k.startswith("from-first-") for k in short["runs"]) and "--long" not in short["command"]
    _, doc = _compute("bismarck", tmp_path, long=True)
    keys = [f"from-first-{m}-round-{r}" for r in (1, 2, 3, 4) for m in S.SOLVER_MODELS]
    assert list(doc["runs"]) == [k for k in short["runs"]] + keys and doc["command"].endswith("--long")
    for k in short["runs"]:
        assert doc["runs"][k] == short["runs"][k]  # kept, not computed again
        assert not doc["runs"][k]["command"].endswith("--long")  # each run says the command that computed it
    for k in keys:
        run = doc["runs"][k]
        model = k.removeprefix("from-first-").partition("-round-")[0]
        solver_from = 0 if model == S.FIRST_SEARCH else 4
        assert run["seed"] == 7 + 30 and run["describe"]["pimc_from"] == solver_from  # the report's comparison deals
        assert (run["describe"]["field"], run["describe"]["challenger"]) == ("heuristic", *labels([model]))
        assert run["command"].endswith("--long") and run["machine"] and run["fingerprint"]
    monkeypatch.setattr(SF, "stored_path", lambda g: path)
    live = pd.DataFrame(doc["runs"]["from-first-dd-round-1"]["table"]).assign(trials=5)
    runs = {"compare": live[live.role.isna()], "strong": SF.stored("bismarck")}
    section = S.players(runs)
    t = section.table
    assert set(t[t.source == "report"].solver_from) == {PIMC_FROM} and set(t[t.source == "stored"].solver_from) == {
        0,
        4,
    }
    assert len(t[t.source == "stored"]) == 2 * len(S.SOLVER_MODELS) * 4  # two measures, each model, four rounds
    assert "round 4, pimc" in section.text  # the sentence names every stored row, the misère's too
    assert "cardlab strong-field bismarck" in section.text and "Not computed yet" not in section.text
    # --fresh without --long computes the field's runs again and keeps the long ones
    _, fresh = _compute("bismarck", tmp_path, fresh=True)
    assert list(fresh["runs"]) == list(doc["runs"]) and fresh["command"].endswith("--long")
    assert all(fresh["runs"][k] == doc["runs"][k] for k in keys)
    # without the long runs the section says how to compute them
    section = S.players({"compare": live[live.role.isna()], "strong": short})
    assert "--long" in section.text and "Not computed yet" in section.text
    assert set(section.table.source) == {"report"}


def test_a_running_measurement_saves_its_seconds_as_it_goes(tmp_path, monkeypatch):
    """A computation killed outright (no chance to save) keeps the time its runs took so far, up to the last
    tick: the provenance's seconds add up every invocation."""
    import time

    monkeypatch.setattr(SF, "TICK_SECONDS", 0.05)
    seen = []

    def slow(spec, **kw):
        time.sleep(0.4)
        (path,) = (tmp_path / "ck").rglob("seconds.json")
        seen.append(json.loads(path.read_text()))
        raise Interrupted("interrupted")

    monkeypatch.setattr(analysis.driver, "run", slow)
    with pytest.raises(Interrupted):
        _compute("biscuits", tmp_path)
    assert list(seen[0]) == ["games"] and seen[0]["games"] > 0.1  # written while the run was going on


def test_provenance_names_each_runs_own_command_and_machine():
    """A file gathers runs of several sittings: the sentence names each run's command, date and machine (a run
    stored before runs carried their own lends the file's), and only of the runs asked for."""
    doc = {
        "game": "bismarck", "command": "cardlab strong-field bismarck --long", "computed": "2026-12-04",
        "cardlab": "0.1.0", "machine": "m1",
        "runs": {
            "round-1": {"seconds": 60.0},  # written before runs carried their provenance: the file's
            "from-first-dd-round-1": {"seconds": 7200.0, "command": "cardlab strong-field bismarck", "machine": "m2",
                                      "computed": "2026-12-05", "cardlab": "0.1.0"},
        },
    }  # fmt: skip
    both = SF.provenance(doc)
    assert "`cardlab strong-field bismarck`" in both and "`cardlab strong-field bismarck --long`" in both
    assert "on m1; and on m2" in both and "2026-12-04 and 2026-12-05" in both and "2.0 h" in both
    one = SF.provenance(doc, ["round-1"])
    assert "m2" not in one and "1 min: round-1 60 s" in one


@pytest.mark.parametrize("game", SF.games())
def test_every_stored_run_is_still_the_current_plans_spec(game):
    """A stored run is kept only while its spec's describe and fingerprint match the current plan's
    (compute): a key added to a describe for display alone (a review found 'unit' added to the compare specs)
    would have the long runs, hours each, computed again and their checkpoints refused. Every stored run has a
    fingerprint: one kept on its describe alone had outlived the player its describe named (``search:250``)."""
    doc = json.loads(SF.stored_path(game).read_text())
    plan = {r.key: r for r in SF._sections(game).strong_field_runs(doc["field"])}
    for key, kept in doc["runs"].items():
        spec = plan[key].spec
        assert kept["describe"] == SF._plain(spec.describe), key
        assert kept.get("fingerprint") == spec.fingerprint(), key


def test_show_prints_a_stored_computation_and_the_cli_does_not_advise_replacing_the_reports(
    tmp_path, capsys, monkeypatch
):
    """`strong-field GAME --show [FILE]` prints the tables and provenance, computing nothing (a new user found no
    way to see them but the report); a run written elsewhere is not advised over the report's stored computation
    (the old line said to move a 64-deal quick look over the scale-1 file). On a copy of the stored Biscuits file;
    the CLI's computation is stood in for (its runs: the tests above)."""
    from analysis import cli

    path = tmp_path / "sf.json"
    doc = json.loads(SF.stored_path("biscuits").read_text())
    path.write_text(json.dumps(doc))
    text = SF.show("biscuits", path)
    assert text.startswith(f"{path}: biscuits, field {doc['field']}, seed {doc['seed']}") and "Stored by" in text
    for key, run in doc["runs"].items():
        assert f"{key}: {run['trials']:,} trials, seed {run['seed']}" in text
    assert "total_sq" not in text and "NaN" not in text
    assert SF.show("biscuits").startswith(str(SF.stored_path("biscuits")))  # the report's file
    with pytest.raises(CardlabError, match="not a stored zheng-shangyou strong field"):
        SF.show("zheng-shangyou", path)
    with pytest.raises(CardlabError, match="no stored strong field at"):
        SF.show("biscuits", tmp_path / "none.json")
    monkeypatch.setattr(SF, "compute", lambda *a, **kw: path)
    capsys.readouterr()
    assert cli.main(["strong-field", "biscuits", "--scale", "0.05", "--write", str(path), "--quiet"]) == 0
    out = capsys.readouterr().out
    assert f"--show {path}' prints its tables" in out and "copy this file over it only to report this one" in out
    assert "move it there" not in out
    assert cli.main(["strong-field", "biscuits", "--show", str(path)]) == 0
    assert capsys.readouterr().out.strip() == text


def test_show_with_a_computing_option_is_refused_by_name(capsys):
    """`--show` computes nothing, so an option that only shapes a computation would be ignored without a word (a
    new user's `--show --scale 0.05` printed the scale-1 file): one line naming those given, exit 2."""
    from analysis import cli

    assert cli.main(["strong-field", "biscuits", "--show", "--scale", "0.05", "--fresh", "--quiet"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.endswith("--show prints a stored computation and computes nothing: --scale, --fresh would have no "
                        "effect (drop --show to compute; --show FILE prints another file)"), err  # fmt: skip
    assert "\n" not in err and "Traceback" not in err
