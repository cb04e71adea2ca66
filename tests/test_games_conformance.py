"""Every registered game keeps the one interface (analysis/games/base.py): the same checks, run over each.

A new game registered in analysis/games/__init__.py is checked here without a line added: its variants,
strategies, tidy table, thread independence, and each capability it declares (called with the game's own
``examples``) or lacks (refused in one line, naming the games that have it).
"""

from __future__ import annotations

import json
import re

import pandas as pd
import pytest

from analysis import games as registry
from analysis.driver import run
from analysis.errors import CardlabError
from analysis.games.base import CAPABILITIES, Game, RunOptions, Unsupported
from analysis.tables import Result
from tests.inprocess import cli

GAMES = registry.all_games()
IDS = [g.id for g in GAMES]
STANDARD_COLUMNS = ("measure", "seat", "trials", "estimate", "std_error", "ci_low", "ci_high")


def _small(spec, trials=64, **kw):
    return run(spec, trials=trials, chunk_size=32, seed=3, progress=False, **kw)


def test_registry_is_explicit_and_matches_the_rules_files():
    from analysis.rules import game_ids

    assert registry.game_ids() == game_ids()
    for g in GAMES:
        assert registry.get(g.id) is g and g.rules.id == g.id
    with pytest.raises(CardlabError, match="unknown game 'nogame'; accepted: biscuits"):
        registry.get("nogame")


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_strategy_lists_agree_between_rules_file_and_code(game: Game):
    assert sorted(game.strategies()) == sorted(game.rules.strategies)
    assert len(set(game.strategies())) == len(game.strategies())
    assert game.default_strategy() in game.strategies()
    assert set(game.slow_strategies) <= set(game.strategies())  # the review's note names players of this game
    spec = game.simulation_spec()  # a seat given no strategy plays the default
    assert set(spec.describe["strategies"]) == {game.default_strategy()}


def _accepted(game: Game, variants: dict[str, str]) -> bool:
    try:
        game.simulation_spec(variants=variants)
    except CardlabError:
        return False
    return True


def _variant_cases(game: Game):
    """(name, value, companions): each value of each variant, with the variants it needs when it is refused
    alone (the first single other variant value that makes it acceptable; None when none does)."""
    variants = game.rules.variants
    for name, v in variants.items():
        for value in map(str, v["values"]):
            candidates = [{}] + [{o: str(x)} for o, ov in variants.items() if o != name for x in ov["values"]]
            companions = next((c for c in candidates if _accepted(game, {name: value, **c})), None)
            yield name, value, companions


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_every_variant_value_encodes_and_runs(game: Game):
    seen = 0
    for name, value, companions in _variant_cases(game):
        assert companions is not None, f"{game.id}: {name}={value} is refused in every combination"
        variants = {name: value, **companions}
        spec = game.simulation_spec(variants=variants)
        res = _small(spec, trials=16)
        assert len(res.table) and res.meta["trials"] == 16, (name, value)
        seen += 1
    assert seen == sum(len(v["values"]) for v in game.rules.variants.values())


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_a_refused_variant_combination_is_one_plain_line(game: Game):
    name = next(iter(game.rules.variants))
    with pytest.raises(CardlabError, match=f"bad value 'no-such-value' for variant {name}"):
        game.simulation_spec(variants={name: "no-such-value"})
    with pytest.raises(CardlabError, match="unknown variant 'no_such_variant'"):
        game.simulation_spec(variants={"no_such_variant": "1"})


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_tidy_table_has_the_standard_columns(game: Game):
    res = _small(game.simulation_spec())
    assert isinstance(res, Result) and len(res.table)
    for col in STANDARD_COLUMNS:
        assert col in res.table.columns, col
    assert res.meta["game"] == game.id and res.meta["trials"] == 64


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_one_and_two_threads_agree(game: Game):
    spec = game.simulation_spec()
    one, two = (_small(spec, trials=96, threads=t).table for t in (1, 2))
    pd.testing.assert_frame_equal(one, two)


def _call(game: Game, capability: str):
    kw = dict(game.examples[capability])
    if capability == "odds":
        kw["run"] = RunOptions(progress=False, **kw["run"])
    if capability in ("improve", "report"):
        kw["progress"] = False
    out = getattr(game, CAPABILITIES[capability].method)(**kw)
    if capability == "compare":
        out = _small(out)
    return out


DECLARED = [pytest.param(g, c, id=f"{g.id}-{c}") for g in GAMES for c in g.capabilities()]
UNDECLARED = [pytest.param(g, c, id=f"{g.id}-{c}") for g in GAMES for c in CAPABILITIES if not g.has(c)]


@pytest.mark.parametrize("game, capability", DECLARED)
def test_every_declared_capability_answers_a_small_call(game: Game, capability: str):
    assert capability in game.examples, f"{game.id} declares {capability} but gives no example call"
    out = _call(game, capability)
    if capability == "report":
        title, intro, sections = out
        assert title and intro and sections and all(s.title for s in sections)
    elif capability == "record":
        # every seat's cards: as hands, or (Bisko-Bobo, dealt from one deck through the deal) the deck in deal order
        assert out["game"] == game.id and (out.get("hands") or out.get("high")) and out["events"]
    elif capability == "improve":  # the tables found (meta) and where they depart from the heuristic (rows; maybe none)
        assert isinstance(out.table, pd.DataFrame) and out.meta["tables"]["players"] and out.meta["answer"]
    else:
        table = out.table if isinstance(out, Result) else out
        assert isinstance(table, pd.DataFrame) and len(table)
        if capability == "compare":  # a new user could not read a measure its help did not name
            named = set(re.findall(r"\w+", game.compare_epilog or ""))
            assert not {m for m in table.measure if m not in named and m.removeprefix("challenger_minus_field_")
                        not in named}, f"{game.id} compare --help names no such measure"  # fmt: skip


@pytest.mark.parametrize("game, capability", UNDECLARED)
def test_every_undeclared_capability_is_refused_cleanly(game: Game, capability: str):
    method = getattr(game, CAPABILITIES[capability].method)
    with pytest.raises(Unsupported) as e:
        method(*_dummy(capability))
    msg = str(e.value)
    assert msg.startswith(f"{game.name} has no {CAPABILITIES[capability].noun}") and "\n" not in msg
    others = registry.games_with(capability)
    assert (", ".join(others) in msg) if others else ";" not in msg
    command = CAPABILITIES[capability].command
    if command and command != "report":
        code, out, err = cli(command, game.id)
        assert code == 2 and out == "" and err == f"cardlab: error: {msg}\n"


def _dummy(capability: str) -> tuple:
    """Positional arguments for a refused method (never read: the refusal comes first)."""
    return {
        "evaluate": (["x"],),
        "beats": ("x", "y"),
        "moves": ("x",),
        "exact": ("x",),
        "odds": (RunOptions(trials=1),),
        "compare": ("x", "y"),
        "solve": (None,),
        "review": ({},),
    }.get(capability, ())


def test_games_lists_every_capability_by_game():
    rows = {r["game"]: r for r in json.loads(cli("games", "--format", "json")[1])["rows"]}
    assert list(rows) == IDS
    for g in GAMES:
        assert rows[g.id]["capabilities"] == {c: g.has(c) for c in CAPABILITIES}


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_the_python_api_reads_its_arguments_as_a_user_writes_them(game: Game):
    """From Python: a player count must be a whole number (4.5 had run as 4, "4" failed in a comparison); one
    strategy name may be a string and seats a dict; two bare names are refused (["a", "b"] had given b to every
    seat, silently); variants are a dict, True and False their "true" and "false"."""
    p = game.rules.players
    names = list(game.strategies())
    a, b = names[0], names[1]
    for bad in (p["min"] + 0.5, str(p["min"]), True):
        with pytest.raises(CardlabError, match="bad player count"):
            game.simulation_spec(players=bad)
    assert game.simulation_spec(players=float(p["default"])).describe == game.simulation_spec().describe
    with pytest.raises(CardlabError, match=f"--strategy '{b}' after '{a}'"):
        game.simulation_spec(strategies=[a, b])
    assert game.simulation_spec(strategies=a).describe == game.simulation_spec(strategies=[a]).describe
    assert game.simulation_spec(strategies={1: b}).describe == game.simulation_spec(strategies=["1=" + b]).describe
    # a bare name for the seats a SEAT=NAME does not set, in either order
    assert (
        game.simulation_spec(strategies=[f"1={b}", a]).describe
        == game.simulation_spec(strategies=[a, f"1={b}"]).describe
    )
    with pytest.raises(CardlabError, match="variants: expected a dict"):
        game.simulation_spec(variants=["x=y"])
    flag = next((k for k, v in game.rules.variants.items() if [str(x) for x in v["values"]] == ["false", "true"]), None)
    if flag is not None:
        assert game.rules.resolve_variants({flag: True})[flag] == "true"
