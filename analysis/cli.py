"""The ``cardlab`` command line (also ``python -m analysis``).

Every command that takes bad input prints one line on stderr naming the problem and what is accepted,
exits with code 2, and leaves no partial output file behind.

The parser is built from the game registry (:mod:`analysis.games`): each command that works on a game has
one sub-parser per game that has the command's capability, holding the shared options and the game's own
(:class:`~analysis.games.base.Option` data), so ``cardlab simulate bismarck --help`` shows what Bismarck
takes. A game without the capability is refused in the user's words before anything else is read.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import re
import sys
from collections.abc import Sequence
from typing import Any, cast

from . import __version__, compile_ahead, driver
from . import games as registry
from .driver import BACKENDS, DEFAULT_CHUNK_SIZE, NEED_SIZE, PRECISION_GROUPS, run
from .errors import BackendFailed, CardlabError, Interrupted, PrecisionNotReached, SaveFailed, Terminated, accepted
from .games.base import CAPABILITIES, Game, RunOptions, SolveRequest, positive_int
from .outputs import check_file
from .rules import parse_variant_options, with_forms
from .strong_field import DEFAULT_CHECKPOINT_DIR
from .tables import (
    ADVISOR_ROWS,
    FORMATS,
    VERDICT_WORDS,
    Result,
    measure_alias,
    note,
    precision_rule,
    prose,
    prose_width,
    terminal_columns,
    write_text_atomic,
)

EXIT_USAGE = 2
EXIT_INTERRUPTED = 130
EXIT_TERMINATED = 143
EXIT_PRECISION = 3  # precision mode stopped at the trial cap short of its target (the result is written)
EXIT_IO = 74  # writing failed after work had started (EX_IOERR)
EXIT_BACKEND = 75  # a backend lost its workers or scheduler; resumable from the checkpoint (EX_TEMPFAIL)


class _Once(argparse._StoreAction):
    """A single-valued option given twice is refused (argparse would silently keep the last)."""

    def __call__(self, parser, namespace, values, option_string=None):
        seen = namespace.__dict__.setdefault("_given", set())
        if self.dest in seen:
            raise CardlabError(f"{option_string} given twice; give it once (repeatable options say so in --help)")
        seen.add(self.dest)
        super().__call__(parser, namespace, values, option_string)


#: the options whose items are NAME=VALUE variants (keyed by the name), not strategies (keyed by the seat)
VARIANT_FLAGS = ("--variant", "--challenger-variant")


class _AppendKeyed(argparse._AppendAction):
    """A repeatable option whose items each set one thing (``--variant NAME=VALUE``: a variant; ``--strategy
    SEAT=NAME``: a seat, a bare ``NAME``: the seats no SEAT=NAME sets, in either order,
    :func:`analysis.rules.seat_assignments`): the same thing set twice is refused, where argparse keeps every item
    and the later silently wins."""

    def __call__(self, parser, namespace, values, option_string=None):
        text = str(values)
        keys = namespace.__dict__.setdefault("_keys", {}).setdefault(self.dest, set())
        if "=" not in text:
            if option_string in VARIANT_FLAGS:  # malformed: refused with its own message where it is read
                return super().__call__(parser, namespace, values, option_string)
            key = "*"
        else:
            key = text.partition("=")[0].strip()
            if option_string not in VARIANT_FLAGS:
                try:
                    key = str(int(key))  # "00" and "0" are the same seat
                except ValueError:
                    pass  # refused where it is read
        if key in keys:
            what = "every seat (a NAME without SEAT=)" if key == "*" else f"{key!r}"
            raise CardlabError(f"{option_string} sets {what} twice; give each once")
        keys.add(key)
        super().__call__(parser, namespace, values, option_string)


def _shown(text: str) -> str:
    """A refused value as the user typed it, quoted where it would not read as one word."""
    return text if re.fullmatch(r"\S+", text) else repr(text)


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors (no usage dump) and exit code 2; a game that a command does not take
    is refused in the user's words (see :class:`_GameParsers`); a single-valued option given twice too."""

    _argv: list[str] = []  # the command line being parsed (for the refusal of an unknown option's value)

    def __init__(self, *args, **kwargs):
        # no abbreviated options: --challenger revolution=true in compare-variants had been taken as
        # --challenger-variant (a typo accepted as another option)
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)
        self.register("action", None, _Once)
        self.register("action", "store", _Once)

    def error(self, message: str):
        # a value refused by its type ("argument --round: invalid int value: 'x'", "argument --trials: expected a
        # positive integer, got '-5'") in the words of the other refusals: "bad --trials -5: expected ..."
        m = re.fullmatch(r"argument (\S+): invalid (int|float) value: '(.*)'", message, re.S)
        if m:
            what = "a whole number" if m[2] == "int" else "a number"
            raise CardlabError(f"bad {m[1]} {_shown(m[3])}: expected {what}")
        m = re.fullmatch(r"argument (\S+): (expected .*), got '(.*)'", message, re.S)
        if m:
            raise CardlabError(f"bad {m[1]} {_shown(m[3])}: {m[2]}")
        m = re.fullmatch(r"argument (\S+): (bad card .*)", message, re.S)  # a card-list option (games.base.cards_arg)
        if m:
            raise CardlabError(f"{m[1]}: {m[2]}")
        m = re.fullmatch(r"the following arguments are required: (.*)", message, re.S)
        if m:
            # "give --field; accepted: random, greedy, ..." where the option has a list of values, else where the
            # help says its form
            flags = m[1].split(", ")
            action = self._option_string_actions.get(flags[0].partition("/")[0])
            if len(flags) == 1 and action is not None and action.choices is not None:
                raise CardlabError(f"give {flags[0]}; accepted: {accepted(_shown_choices(action.choices))}")
            each = "each takes" if len(flags) > 1 else "it takes"
            raise CardlabError(f"give {' and '.join(flags)} ({self.prog} --help says what {each})")
        raise CardlabError(message)

    def parse_args(self, args=None, namespace=None):
        _Parser._argv = list(sys.argv[1:] if args is None else args)
        ns, extras = self.parse_known_args(args, namespace)
        if extras:
            flag = next((e.partition("=")[0] for e in extras if e.startswith("--")), None)
            game = getattr(ns, "game", None)
            others = self._games_taking(ns.command, flag) if flag and game else []
            if flag and game and others:
                raise CardlabError(
                    f"{ns.command} {game} does not take {flag}; games whose {ns.command} takes it: {accepted(others)}"
                )
            raise CardlabError(f"unrecognized arguments: {' '.join(extras)}")
        return ns

    def _games_taking(self, command: str, flag: str) -> list[str]:
        """The games whose sub-parser of ``command`` takes the option ``flag`` (read only on this error)."""
        commands = next(a for a in self._actions if isinstance(a, argparse._SubParsersAction))
        games = next((a for a in commands.choices[command]._actions if isinstance(a, _GameParsers)), None)
        return [gid for gid, gp in (games.choices.items() if games else ()) if flag in gp._option_string_actions]

    def _check_value(self, action, value):
        if action.choices is None or value in action.choices:
            return
        if isinstance(action, _GameParsers):
            action.refuse(value)
        if not action.option_strings:
            # an option this parser does not know, followed by a value: argparse left both to the positionals
            argv = _Parser._argv
            i = argv.index(value) if value in argv else -1
            prev = argv[i - 1] if i > 0 else ""
            if prev.startswith("-") and prev.partition("=")[0] not in self._option_string_actions:
                raise CardlabError(f"unrecognized arguments: {prev} {value}")
        if action.option_strings:
            what = f"bad {action.option_strings[0]}"
        else:
            noun = "command" if isinstance(action, argparse._SubParsersAction) else action.dest.replace("_", " ")
            what = f"unknown {_NOUNS.get(noun, noun)}"
        raise CardlabError(f"{what} {value!r}; accepted: {accepted(_shown_choices(action.choices))}")


def _shown_choices(choices) -> list:
    """An option's values as a refusal lists them: a strategy that takes parameters with their form too."""
    return with_forms(choices, choices.parameterized) if isinstance(choices, _StrategyNames) else list(choices)


class _StrategyNames(list):
    """A strategy option's choices: the names, and ``NAME:PARAMETERS`` for the names that take parameters (the
    game reads and checks them)."""

    def __init__(self, names, parameterized):
        super().__init__(names)
        self.parameterized = tuple(parameterized)

    def __contains__(self, value) -> bool:
        return list.__contains__(self, value) or str(value).partition(":")[0] in self.parameterized


#: how a person names a positional argument in a refusal
_NOUNS = {"field": "strategy", "challenger": "strategy"}


class _GameParsers(argparse._SubParsersAction):
    """The per-game sub-parsers of one command, for the games that have its ``capability``."""

    capability = ""

    def refuse(self, name: str) -> None:
        """An unknown game, or one without the capability: one line naming the games that have it."""
        if self.capability == "solve":
            registry.solver_for(name)
        registry.require(name, self.capability)


def _seed(text: str) -> int:
    try:
        v = int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, got {text!r}") from None
    if v < 0 or v >= 2**128:
        raise argparse.ArgumentTypeError(f"expected an integer in [0, 2**128), got {text!r}")
    return v


def _probability_precision(text: str) -> float:
    """--precision where the measure held is a probability (a chance to win): below 1."""
    v = _precision(text)
    if v >= 1.0:
        raise argparse.ArgumentTypeError(f"expected a half-width of a probability, below 1 (e.g. 0.02), got {text!r}")
    return v


def _precision(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a half-width such as 0.002, got {text!r}") from None
    if not (0.0 < v < math.inf):  # points (a score) may take a half-width of 1 or more; a probability below 1
        raise argparse.ArgumentTypeError(
            f"expected a positive half-width in the measure's unit (e.g. 0.01 for a probability, 0.5 for a score), "
            f"got {text!r}"
        )
    return v


def add_output_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--format",
        choices=FORMATS,
        help="output format (default: table; csv or json where --out names a .csv or .json file)",
    )
    p.add_argument("--out", metavar="FILE", help="write the output to FILE (atomically) instead of stdout")


def add_variant_option(p: argparse.ArgumentParser, game: Game | None = None) -> None:
    names = f": {', '.join(game.rules.variants)} (cardlab games lists their values)" if game else ""
    p.add_argument("--variant", action=_AppendKeyed, metavar="NAME=VALUE", help=f"a rule variant (repeatable){names}")


def add_players_option(p: argparse.ArgumentParser, game: Game) -> None:
    """``--players`` (for a game with a fixed count, only that count is accepted, and the help leaves out an
    option that has nothing to choose)."""
    pl = game.rules.players
    if pl["min"] == pl["max"]:
        p.add_argument("--players", type=positive_int, help=argparse.SUPPRESS)
        return
    text = f"number of players, {pl['min']} to {pl['max']} (default {pl['default']})"
    if "deck" in game.rules.variants:  # Zheng Shangyou: each deck is for some player counts (ZS-1)
        text += "; other than 4 with the deck for that count, e.g. --players 3 --variant deck=3p_54"
    p.add_argument("--players", type=positive_int, help=text)


#: what --quiet leaves out (a warning, e.g. an option without effect, is still said)
QUIET_HELP = "no progress bar, and no note of a first compile or of the file written (warnings and errors still)"


def add_run_options(
    p: argparse.ArgumentParser,
    game: Game | None = None,
    *,
    strategies: bool = True,
    default: str | None = None,
    advisor: bool = False,
    precision: bool = True,
    measure_help: str | None = None,
) -> None:
    """The options every simulation command shares (and, with ``game``, its variants and strategies); ``advisor``:
    the odds command, whose --precision may hold the advisor's rule instead (positions.md)."""
    if game is not None:
        add_players_option(p, game)
    g = p.add_mutually_exclusive_group()
    g.add_argument(
        "--trials",
        type=positive_int,
        help="number of trials (deals or games; one of --trials and --precision is needed)"
        if precision
        else "number of trials each rule set runs (deals or games; needed)",
    )
    g.add_argument(
        "--precision",
        type=_precision,
        # a command without precision mode keeps the option, unlisted, to refuse it in its own words
        help=argparse.SUPPRESS
        if not precision
        else (
            "instead of --trials: run until every row of the headline measures (or of --measure) is within +-P at "
            "95%%, or, where the header names that rule, each action's difference to the best is within +-P or "
            "clear of zero; in the measure's unit (0.01: one point of a probability; a score in its points)"
            if advisor
            else "instead of --trials: run until every row of the headline measures (or of --measure) is within +-P "
            "at 95%%, in the measure's unit (0.01: one point of a probability; a score in its points)"
        ),
    )
    p.add_argument("--seed", type=_seed, default=0, help="random seed (default 0)")
    p.add_argument(
        "--chunk-size",
        type=positive_int,
        help=f"trials per chunk, a thread's unit of work (default {DEFAULT_CHUNK_SIZE:,}; 16 or fewer with a search "
        "or solver player; a short simulate run is cut into 32 chunks or more, for the jackknife intervals of its "
        "pooled rows)",
    )
    add_variant_option(p, game)
    if strategies:
        names = (
            f"; NAME: {', '.join(game.strategies())} (default {default or game.default_strategy()})"
            + (f"; {game.strategy_notes}" if game.strategy_notes else "")
            if game
            else ""
        )
        p.add_argument(
            "--strategy",
            action=_AppendKeyed,
            metavar="NAME|SEAT=NAME",
            help=f"strategy for every seat, or SEAT=NAME for one seat (repeatable){names}",
        )
    p.add_argument("--backend", default="threads", choices=BACKENDS, help="where chunks run (default threads)")
    p.add_argument("--scheduler", metavar="ADDRESS", help="dask scheduler address (default: a LocalCluster)")
    p.add_argument("--workers", type=positive_int, help="processes or dask workers (default: CPU count)")
    p.add_argument("--threads", type=positive_int, help="numba threads for the threads backend")
    p.add_argument("--checkpoint", metavar="FILE", help="save completed chunks to FILE and resume from it")
    p.add_argument(
        "--quiet",
        action="store_true",
        help=QUIET_HELP,
    )
    add_output_options(p)
    p.add_argument(
        "--all",
        action="store_true",
        help="table output: every row and column (default: the headline measures; odds: one row per action, those "
        f"not clearly worse than the best and the best of the others up to {ADVISOR_ROWS}, where --all gives a row "
        "per measure and action)",
    )
    p.add_argument(
        "--measure",
        action="append",
        metavar="NAME",
        help=measure_help
        or (
            "table output: show this measure (repeatable); with --precision, hold these to +-P"
            if precision
            else "table output: show this measure (repeatable); the verdict judges the first"
        ),
    )


#: compare's --measure: the verdict, and the paired measures' bare names (tables.measure_alias)
COMPARE_MEASURE_HELP = (
    "table output: show this measure (repeatable), by its name or by that name without challenger_minus_field "
    "(score for challenger_minus_field_score or score_challenger_minus_field); the verdict judges the first; with "
    "--precision, hold these to +-P"
)

#: what the advisor's verdict column says, in every game's odds help
ODDS_VERDICTS = f"The verdict beside each action: {VERDICT_WORDS}."


def _game_parsers(sub, command: str, capability: str, help: str, description: str | None = None):
    """A command with one sub-parser per game that has ``capability``; yields (game, its parser)."""
    p = sub.add_parser(command, help=help, description=description or help)
    ids = registry.games_with(capability)
    gp = p.add_subparsers(
        dest="game", metavar="GAME", parser_class=_Parser, action=_GameParsers, help=f"one of: {', '.join(ids)}"
    )
    cast(_GameParsers, gp).capability = capability
    if capability == "solve":
        for deal in ids:
            cards = "three hands, one seat against the other two" if deal == "bismarck" else "four hands, two sides"
            yield (
                registry.solver_for(deal),
                deal,
                gp.add_parser(
                    deal,
                    help=f"a {deal} deal",
                    description=(
                        f"The double-dummy value of a {deal} position ({cards}, every card seen): by default one row "
                        "per legal card of the seat to play with the tricks the player's side takes from here if "
                        "everybody plays perfectly from then on (equal cards share a row), the current trick "
                        "included (--trick); --value-only gives the position's value alone. An exact search: it "
                        "answers for a known layout"
                        + (
                            "; for hidden cards use cardlab odds bismarck (sampled layouts)."
                            if deal == "bismarck"
                            else "."
                        )
                    ),
                ),
            )
        return
    for game in registry.all_games():
        if game.has(capability):
            yield game, game.id, gp.add_parser(game.id, help=game.name, description=f"{game.name}: {help}")


def _every_game(sub, command: str, help: str):
    """A command every game has (its sub-parsers are added by the caller, one a game)."""
    gp = sub.add_parser(command, help=help, description=help[0].upper() + help[1:] + ".").add_subparsers(
        dest="game",
        metavar="GAME",
        parser_class=_Parser,
        action=_GameParsers,
        help=f"one of: {', '.join(registry.game_ids())}",
    )
    cast(_GameParsers, gp).capability = "simulate"
    return gp


#: strong-field's options that only shape a computation, with their defaults (the parser's; --show refuses any other
#: value, which it would ignore)
_SF_COMPUTING = {"field": None, "scale": 1.0, "seed": 2026, "checkpoint_dir": DEFAULT_CHECKPOINT_DIR, "write": None,
                 "long": False, "fresh": False}  # fmt: skip


def build_parser() -> _Parser:
    p = _Parser(prog="cardlab", description="cardlab: a Monte Carlo strategy lab for four card games.")
    p.add_argument("--version", action="version", version=f"cardlab {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    g = sub.add_parser("games", help="list the games, their capabilities, variants and strategies")
    add_output_options(g)

    gp = _every_game(sub, "simulate", "simulate a game and tabulate what happened")
    for game in registry.all_games():
        s = gp.add_parser(game.id, help=game.name, description=f"simulate {game.name} and tabulate what happened")
        s.epilog = game.simulate_epilog
        for o in game.simulate_options:
            o.add_to(s)
        add_run_options(s, game)

    for game, _, e in _game_parsers(sub, "eval", "evaluate", "evaluate card sets (type and comparison key)"):
        e.epilog = (
            KEY_NOTE
            if game.has("moves")
            else "Columns: rank (the sets' order, 1 wins), the set's type (type_index its number) and key: the "
            "comparison key, a higher key beating a lower one."
        )
        e.add_argument("cards", nargs="+", help='one quoted card set per argument, e.g. "KC JC TC"')
        add_variant_option(e, game)
        add_output_options(e)

    for game, _, b in _game_parsers(sub, "beats", "beats", "whether a play may be played on the current one, and why"):
        b.add_argument("--current", required=True, help="the play on the table")
        b.add_argument("--play", required=True, help="the play to test")
        add_variant_option(b, game)
        add_output_options(b)

    for game, _, mv in _game_parsers(
        sub, "moves", "moves", "every legal play from a hand, on lead or over the current play"
    ):
        mv.epilog = KEY_NOTE
        mv.add_argument("--hand", required=True, help='the cards to play from, e.g. "3D 3S 4D 5D 6D"')
        mv.add_argument("--current", help="the play on the table (omit on lead)")
        add_variant_option(mv, game)
        add_output_options(mv)

    for game, _, x in _game_parsers(sub, "exact", "exact", "exact answers by enumeration"):
        x.add_argument(
            "table", choices=game.exact_tables, metavar="TABLE", help=f"which table: {', '.join(game.exact_tables)}"
        )
        for o in game.exact_options:
            o.add_to(x)
        add_variant_option(x, game)
        add_output_options(x)

    for game, _, o in _game_parsers(
        sub,
        "odds",
        "odds",
        "what each action at a decision is worth (the game's measures, below), from what a player sees",
    ):
        for opt in game.odds_options:
            opt.add_to(o)
        o.epilog = " ".join(t for t in (game.card_notes, game.odds_epilog, ODDS_VERDICTS) if t)
        add_run_options(o, game, default=game.advisor_model, advisor=True)

    for game, _, c in _game_parsers(
        sub,
        "compare",
        "compare",
        "paired comparison of two strategies on the same deals: one seat (or team) switches from FIELD to CHALLENGER",
    ):
        names = _StrategyNames(game.strategies(), game.parameterized_strategies)
        c.add_argument(
            "--field",
            required=True,
            choices=names,
            metavar="NAME",
            help=f"the strategy {'the other team' if game.compare_by == 'team' else 'every other seat'} plays: "
            f"{', '.join(game.strategies())}" + (f"; {game.strategy_notes}" if game.strategy_notes else ""),
        )
        c.add_argument(
            "--challenger",
            required=True,
            choices=names,
            metavar="NAME",
            help=f"the strategy the switching {'team' if game.compare_by == 'team' else 'seat'} plays instead (same "
            "names)",
        )
        if game.compare_by == "seat":
            c.add_argument(
                "--seat", dest="who", metavar="S", help="show only seat S switching (default: each seat, and pooled)"
            )
        else:
            c.add_argument(
                f"--{game.compare_by}",
                dest="who",
                metavar=game.compare_by.upper(),
                help=f"show only this {game.compare_by} switching: {', '.join(game.compare_who)} (default: each, and pooled)",
            )
        for opt in game.compare_options:
            opt.add_to(c)
        c.epilog = game.compare_epilog
        add_run_options(c, game, strategies=False, measure_help=COMPARE_MEASURE_HELP)

    gp = _every_game(
        sub,
        "compare-variants",
        "paired comparison of two sets of rule variants on the same deals: does this rule change the figures?",
    )
    for game in registry.all_games():
        v = gp.add_parser(
            game.id,
            help=game.name,
            description=f"{game.name}: simulate twice on the same seed, with the field's variants (--variant, else "
            "the defaults) and with the challenger's (the field's with each --challenger-variant changed), and "
            "tabulate every measure of simulate under both with the difference challenger - field and its 95% "
            "interval. The same deals both ways where the rule leaves the deal alone, so the deal-to-deal spread "
            "cancels in the difference.",
        )
        v.add_argument(
            "--challenger-variant",
            action=_AppendKeyed,
            required=True,
            metavar="NAME=VALUE",
            help=f"a variant the challenger's rules set otherwise (repeatable): {', '.join(game.rules.variants)} "
            "(cardlab games lists their values)",
        )
        for o in game.simulate_options:
            o.add_to(v)
        v.epilog = (
            "Rows: simulate's, each with field_value, challenger_value and estimate (challenger - field); the "
            "interval is a jackknife over groups of chunks (both runs' chunk i hold the same trials), t on groups - 1 "
            "degrees of freedom; a run is cut into 32 chunks or more. --trials N counts each rule set's "
            "trials (32 or more). --checkpoint FILE keeps FILE.field and FILE.challenger. The verdict judges the "
            "headline measure (or the first --measure) and names the other measures with rows clear of zero."
        )
        add_run_options(v, game, precision=False)

    for game, _, i in _game_parsers(
        sub, "improve", "improve", "compute the recommended strategy by iterated best responses"
    ):
        pl = game.rules.players
        i.add_argument(
            "--players",
            type=positive_int,
            action="append",
            help=f"player counts (repeatable; default all, {pl['min']} to {pl['max']})",
        )
        i.add_argument(
            "--trials",
            type=positive_int,
            default=400_000,
            help="deals per look (default 400000); with --explain, deals of the fit, and five times as many per "
            "paired comparison",
        )
        i.add_argument("--rounds", type=positive_int, default=4, help="at most this many improvement rounds")
        i.add_argument("--seed", type=_seed, default=0)
        i.add_argument(
            "--write",
            metavar="FILE",
            help="store the tables found at FILE (JSON, the format of seeds/bisko-bobo-recommended.json, which the "
            "'recommended' strategy reads; with --explain, the cheat sheets, which 'cheat-sheet' reads); nothing is "
            "written without it",
        )
        i.add_argument(
            "--explain",
            action="store_true",
            help="instead of improving: fit a cheat sheet a person can remember (a few thresholds per decision) to "
            "the stored recommended tables, print it, and measure its paired edge over the heuristic beside the "
            "tables' own, on other deals",
        )
        i.add_argument("--quiet", action="store_true")
        add_output_options(i)

    for _game, deal, so in _game_parsers(
        sub, "solve", "solve", "double-dummy value of a position (bismarck: 3 hands; bridge: 4 hands)"
    ):
        seats = 4 if deal == "bridge" else 3
        example = "AS KS|QS JS|TS 9S|8S 7S" if seats == 4 else "AS KS|QS JS|TS 9S"
        order = (
            "seats 0-3 in playing order (0+2 and 1+3 partners: N E S W as 0 1 2 3)"
            if seats == 4
            else "seats 0-2 in playing order"
        )
        so.add_argument(
            "--hands",
            required=True,
            help=f'{seats} hands by seat separated by "|", {order}; a card is rank then suit (AS, TD or 10D), cards '
            f'separated by spaces (not PBN\'s "AK32.K4..."), e.g. "{example}"',
        )
        so.add_argument("--trump", "--trumps", default="NT", help="S, H, D, C or NT (default NT)")
        so.add_argument("--leader", type=int, default=0, help="the seat that led the current trick (default 0)")
        so.add_argument(
            "--trick",
            default="",
            metavar="CARDS",
            help='cards already played to the current trick, in order from --leader, e.g. "KD 2D"; --hands are '
            "the hands now (those seats hold one card fewer)",
        )
        so.add_argument(
            "--player",
            type=int,
            default=None,
            help="whose tricks are counted"
            + (" (its side: 0+2 or 1+3)" if seats == 4 else "")
            + " (default: the seat to play)",
        )
        value = so.add_mutually_exclusive_group()
        value.add_argument(
            "--every-card",
            action="store_true",
            help="one row per legal card of the seat to play, best first, equal cards sharing a row (the default)",
        )
        value.add_argument("--value-only", action="store_true", help="only the position's value, one row")
        from .games.bismarck import MISERE_DD_CARDS

        so.add_argument(
            "--goal",
            default="max",
            help="max: most tricks against best defence; min: fewest (misere"
            + (f"; hands of at most {MISERE_DD_CARDS} cards" if seats == 3 else "")
            + ")",
        )
        add_output_options(so)
        so.epilog = (
            "Columns: game, the position (trump, leader, trick: the cards already on the current trick, to_play, player, "
            "goal), side (the seats whose tricks are counted: the player"
            + (", with its partner" if seats == 4 else "")
            + "), card (a legal card of the seat to play; equals: the cards equal to it, which share the row), "
            "tricks (the side's tricks from here, the current trick included, after that card with best play by "
            "everyone) and best (True for the seat to play's best cards, for its own goal); --value-only gives the "
            "position's tricks alone."
        )

    for game, _, rc in _game_parsers(
        sub, "record", "record", "write the record of one simulated game or hand (every seat's cards and every action)"
    ):
        add_players_option(rc, game)
        rc.description = f"Write the record of one simulated {game.record_unit} (every seat's cards and every action)."
        rc.add_argument(
            "--seed", type=_seed, default=0, help=f"random seed: the first {game.record_unit} of simulate --seed N"
        )
        add_variant_option(rc, game)
        rc.add_argument(
            "--strategy",
            action=_AppendKeyed,
            metavar="NAME|SEAT=NAME",
            help=f"who plays: NAME for every seat or SEAT=NAME (repeatable); NAME: {', '.join(game.strategies())} "
            f"(default {game.default_strategy()})" + (f"; {game.strategy_notes}" if game.strategy_notes else ""),
        )
        for opt in game.record_options:
            opt.add_to(rc)
        rc.add_argument("--out", metavar="FILE", help="write the record (JSON) to FILE instead of stdout")
        rc.add_argument("--quiet", action="store_true", help="no line on stderr saying what was written")

    for game, _, rv in _game_parsers(
        sub,
        "review",
        "review",
        "judge every decision of a recorded game by the advisor, on what the deciding seat knew then",
    ):
        rv.description = (
            f"{game.name}: judge every decision of a recorded {game.record_unit} by the advisor, on what the "
            "deciding seat knew then"
        )
        rv.epilog = (
            "One row per decision (a turn with more than one legal action; event: its place in the record's events, "
            "counted from 0): the action taken, the best action, "
            "verdict (best, uncertain: not separated from the best at 95%, worse), win_taken (the chance to win "
            "after the taken action), loss_win = the best's chance minus the taken's, with its 95% interval, 0 "
            "where the two are not separated; loss_score the same for the score. The rules and players are the "
            "record's; the models are named in the output." + (f" {game.review_notes}" if game.review_notes else "")
        )
        rv.add_argument(
            "record",
            metavar="RECORD",
            help="a record file (JSON; cardlab record writes one)"
            + (
                "; it may give only the hands you saw"
                if game.partial_records
                else "; " + (game.record_hands_words or "it gives every seat's dealt cards")
            ),
        )
        rv.add_argument(
            "--seat",
            type=int,
            help="review this seat's decisions only (default: "
            + ("every seat whose hand the record gives)" if game.partial_records else "every seat)"),
        )
        rv.add_argument(
            "--precision",
            type=_probability_precision if game.review_precision_probability else _precision,
            default=game.review_precision,
            help="each decision runs until every paired difference to the best is within +-P at 95%% or clear "
            f"of zero (default {game.review_precision:g}, {game.review_precision_unit})",
        )
        rv.add_argument(
            "--strategy",
            action=_AppendKeyed,
            metavar="NAME|SEAT=NAME",
            help="the models the advisor plays the game on with: the record's players, with these applied over "
            f"them (SEAT=NAME replaces one seat, NAME every seat; else {game.advisor_model or game.default_strategy()}"
            "); NAME: "
            f"{', '.join(game.strategies())}" + (f"; {game.strategy_notes}" if game.strategy_notes else ""),
        )
        rv.add_argument("--seed", type=_seed, default=0, help="random seed of the sampled layouts (default 0)")
        rv.add_argument("--threads", type=positive_int, help="numba threads")
        rv.add_argument(
            "--quiet",
            action="store_true",
            help=QUIET_HELP,
        )
        add_output_options(rv)
        rv.add_argument(
            "--all",
            action="store_true",
            help="table output: every column (default: the seat's hand, the actions, the verdict, the chances and scores of the action taken and the best, and the losses, each with its 95%% interval as 'LOW to HIGH'; --all: as two columns, loss_*_low and loss_*_high, and the columns that repeat another's values); on a terminal narrower than the table the default view leaves out the least needed columns (the hand first) and says which",
        )
        rv.add_argument(
            "--report",
            metavar="DIR",
            help="also write DIR/README.md, DIR/review.html and the chart of the seat's chances through the game",
        )

    r = sub.add_parser("report", help="build the strategy report of one game, or of every game")
    r.add_argument("game", nargs="?", help=f"one of: {', '.join(registry.games_with('report'))}")
    r.add_argument("--all", action="store_true", help="every game that has a report")
    r.add_argument("--scale", type=float, default=1.0, help="multiply the default sizes (e.g. 0.05 for a quick look)")
    r.add_argument("--seed", type=_seed, default=2026, help="random seed of every section's runs (default 2026)")
    r.add_argument("--out", metavar="DIR", default="reports", help="output folder (default reports/)")
    r.add_argument("--quiet", action="store_true", help="no progress lines")

    sf = sub.add_parser(
        "strong-field",
        help="re-measure a report's main findings with searching players in every seat (long; stored for the report)",
        description="Measure the report's main questions again with a strong field (the search player in every "
        "seat): each measurement is checkpointed, so an interrupted run resumes where it stopped with the same "
        "result; the tables are stored with their provenance (seed, sizes, players, version, seconds) in "
        "seeds/GAME-strong-field.json, which 'cardlab report GAME' shows beside the built-in players' figures. "
        "At --scale 1 on 2 cores: Zheng Shangyou about 12 minutes, Biscuits about 2, Bismarck about 8 (measured "
        "2026-12-07; --show gives each measurement's seconds). The stored "
        "file holds one computation (field, seed, scale) and is rewritten after each measurement; a measurement it "
        "already holds is kept, not computed again, and a file holding another computation is not replaced: the "
        "command stops with a line saying so (give --write FILE).",
    )
    sf.add_argument("game", nargs="?", help="one of: " + ", ".join(_strong_field_games()))
    sf.add_argument("--field", metavar="STRATEGY",
                    help="the strong players' strategy (default: " + _strong_field_defaults() + ")")  # fmt: skip
    sf.add_argument("--scale", type=float, default=_SF_COMPUTING["scale"],
                    help="multiply the default sizes, at least 64 deals a measurement (8 for the long ones; e.g. 0.05 with "
                    "--write FILE for a quick look)")  # fmt: skip
    sf.add_argument("--seed", type=_seed, default=_SF_COMPUTING["seed"],
                    help="random seed (default 2026); the measurements use it and the seeds after it")  # fmt: skip
    sf.add_argument("--checkpoint-dir", metavar="DIR", default=_SF_COMPUTING["checkpoint_dir"],
                    help="where each measurement's checkpoint is kept until the tables are stored (default "
                    f"{DEFAULT_CHECKPOINT_DIR}/)")  # fmt: skip
    sf.add_argument("--write", metavar="FILE", help="where to store the tables (default seeds/GAME-strong-field.json)")
    sf.add_argument("--show", nargs="?", const="", metavar="FILE",
                    help="print the stored tables (of FILE, default the report's seeds/GAME-strong-field.json) and "
                    "their provenance; computes nothing")  # fmt: skip
    sf.add_argument("--long", action="store_true",
                    help="also the long measurements, sixteen (four challengers x four rounds): in Bismarck one "
                    "seat plays pimc, dd or pimc-infer from the first trick (from 12 cards in the misere), or the "
                    "search player by rollouts alone (search:6400), beside two heuristic seats, whatever --field "
                    "says, paired with the all-heuristic hand; 2,000 deals a round, 500 for pimc-infer (about 15 "
                    "hours on 2 cores, the search's 11 minutes of it; stop and resume at will)")  # fmt: skip
    sf.add_argument("--fresh", action="store_true",
                    help="compute this call's measurements again from the start, even those the stored file holds "
                    "(the others, such as the long ones without --long, stay in it)")  # fmt: skip
    sf.add_argument("--quiet", action="store_true")

    sv = sub.add_parser(
        "serve",
        help="the advisor and the review in a browser (a local page and its HTTP API)",
        description="Serve a page where a person enters a position by clicking cards and reads the advisor's "
        "answer, or steps through a reviewed game; the page's HTTP API is documented at /docs. Needs the serve "
        "extra: make serve installs it (or pip install -e '.[serve]' in the clone). Ctrl-C stops it.",
    )
    sv.add_argument("--port", type=_port, default=8765, help="the port (default 8765)")
    sv.add_argument(
        "--host",
        default="127.0.0.1",
        help="the address to listen on (default 127.0.0.1: this machine only; another address lets other "
        "machines in, with no password)",
    )
    sv.add_argument("--reports", metavar="DIR", default="reports", help="the reports folder the page links to "
                    "(default reports/, what make report writes)")  # fmt: skip
    sv.add_argument("--queue", type=positive_int, default=4, metavar="N",
                    help="analyses that may wait while one runs (default 4; more are refused as busy)")  # fmt: skip
    sv.add_argument("--time-limit", type=positive_int, default=300, metavar="S",
                    help="seconds one analysis may run (default 300)")  # fmt: skip
    sv.add_argument("--max-trials", type=positive_int, default=5_000_000, metavar="N",
                    help="the most sampled layouts one request may ask for (default 5,000,000)")  # fmt: skip
    return p


def _port(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        v = -1
    if not 1 <= v <= 65535:
        raise argparse.ArgumentTypeError(f"expected a port number from 1 to 65535, got {text!r}")
    return v


def emit(text: str, out: str | None, quiet: bool = False) -> None:
    """``text`` to stdout, or to the file ``out`` (atomically), saying so on stderr unless ``quiet`` (a run that
    wrote a file had said nothing)."""
    if out:
        write_text_atomic(out, text)
        if not quiet:
            note(f"wrote {out}")
    else:
        sys.stdout.write(text)
        sys.stdout.flush()


def emit_result(result: Result, args, game: Game | None = None) -> None:
    measures = getattr(args, "measure", None)
    if measures and "measure" in result.table:
        # as the run resolved them (driver._check_measures): a paired measure's bare name to the table's
        names = set(result.table["measure"])
        measures = list(dict.fromkeys(measure_alias(m, names) for m in measures))
    # on a terminal an advisor's table fits its width and the prose wraps to it (Result.to_text)
    text = render_result(
        result, args.format, game, full=getattr(args, "all", False), measures=measures, width=_terminal_width(args)
    )
    emit(text, getattr(args, "out", None), getattr(args, "quiet", False))


def render_result(
    result: Result,
    fmt: str,
    game: Game | None = None,
    full: bool = False,
    measures: list[str] | None = None,
    width: int | None = None,
) -> str:
    """A result as the command line prints it in ``fmt`` (``cardlab serve`` answers with the same json);
    ``width``: the terminal's, where table output goes to one."""
    if game is not None:
        result.variant_defaults = {k: v["default"] for k, v in game.rules.variants.items()}
        unit = result.meta.get("unit")
        result.unit = f"{unit}s" if isinstance(unit, str) else game.trial_noun
        if result.meta.get("not_to_play"):  # one row: the hand played on, before the seat's turn
            result.unit = f"sampled layouts, {result.meta.get('layouts_are', 'each played on from the position')}"
        elif result.meta.get("analysis") == "advisor":
            result.unit = "sampled layouts, every action on each"
            if result.meta.get("ranked_by"):  # what orders the rows and gives the verdicts
                # the verdicts group the rows (advisor.VERDICT_ORDER), each group in the ranking's order
                result.unit += (
                    f"; ranked by {result.meta['ranked_by']}: the best first, then the actions not clearly worse "
                    "than it, then the clearly worse"
                )
        per = result.meta.get("games_per_match")
        if isinstance(per, int) and per > 1 and "trials" in result.meta:
            result.unit = f"matches of {per} games ({result.meta['trials'] * per:,} games)"
    text = result.render(fmt, full=full, measures=measures, width=width)
    wrap = prose_width(width)
    # the answer first: the advisor's (positions.md), a comparison's verdict (under the table and its notes it was
    # missed); the table and its header below say how it was measured
    for key in ("verdict", "answer"):
        if fmt == "table" and result.meta.get(key):
            text = prose(result.meta[key], width=wrap) + "\n" + text
    return text


def review_result(game: Game, result: Result) -> Result:
    """A review's result labelled as the command line prints it (its variants' defaults, its unit)."""
    result.variant_defaults = {k: v["default"] for k, v in game.rules.variants.items()}
    n = result.meta.get("decisions", 0)
    result.unit = f"sampled layouts in all over {n} decision{'' if n == 1 else 's'}, every action on each"
    return result


def describe_games() -> list[dict]:
    """One record per registered game: players, capabilities, variants (default and values), strategies."""
    out = []
    for game in registry.all_games():
        g = game.rules
        caps = game.capabilities()
        out.append(
            {
                "game": game.id,
                "name": g.name,
                "rules": g.data["game"].get("rules"),
                "players": g.players,
                "capabilities": {c: c in caps for c in CAPABILITIES},
                "commands": ["simulate", "compare-variants"]
                + [CAPABILITIES[c].command for c in caps if CAPABILITIES[c].command],
                "exact_tables": list(game.exact_tables),
                "solve_deals": list(game.solve_deals),
                "variants": {
                    k: {"default": v["default"], "values": v["values"], "rule": v.get("rule")}
                    for k, v in g.variants.items()
                },
                "strategies": {k: v.get("doc", "") for k, v in g.strategies.items()},
                "default_strategy": game.default_strategy(),
            }
        )
    return out


def _cmd_games(args) -> None:
    info = describe_games()
    if args.format == "json":
        emit(json.dumps({"meta": {"command": "games"}, "rows": info}, ensure_ascii=False) + "\n", args.out)
        return
    if args.format == "csv":
        lines = ["game,kind,name,default,values"]
        for g in info:
            for k in g["commands"]:
                lines.append(f"{g['game']},command,{k},,")
            for k, v in g["variants"].items():
                lines.append(f"{g['game']},variant,{k},{v['default']},{'|'.join(map(str, v['values']))}")
            for k in g["strategies"]:
                lines.append(f"{g['game']},strategy,{k},{'true' if k == g['default_strategy'] else ''},")
        emit("\n".join(lines) + "\n", args.out)
        return
    parts = []
    for g in info:
        pl = g["players"]
        count = (
            f"{pl['min']} players"
            if pl["min"] == pl["max"]
            else f"{pl['min']}-{pl['max']} players, default {pl['default']}"
        )
        parts.append(f"{g['game']}  ({g['name']}; {count}; {g['rules']})")
        parts.append(f"  commands: {', '.join(g['commands'])}")
        parts.append("  variants (default first):")
        for k, v in g["variants"].items():
            others = [str(x) for x in v["values"] if str(x) != str(v["default"])]
            parts.append(f"    {k} = {v['default']}   [{', '.join([str(v['default'])] + others)}]   {v['rule']}")
        parts.append("  strategies:")
        for k, doc in g["strategies"].items():
            mark = " (default)" if k == g["default_strategy"] else ""
            parts.append(f"    {k}{mark}: {doc}")
    # a variant's or strategy's line wraps under its text (a description ran to 400 characters)
    wrap = prose_width(_terminal_width(args))
    emit("\n".join(prose(line, indent="      ", width=wrap) for line in parts) + "\n", args.out)


def run_options(args) -> RunOptions:
    """The run options of a simulation command: every field is the option of its name but ``progress``
    (``--quiet``)."""
    skip = ("progress", "measures")
    given = {f.name: getattr(args, f.name) for f in dataclasses.fields(RunOptions) if f.name not in skip}
    measures = tuple(dict.fromkeys(args.measure)) if getattr(args, "measure", None) else None
    return RunOptions(**given, progress=not args.quiet, measures=measures)


def _given(args, options) -> dict:
    """The values of a game's own options that were given (left-out ones take the game's defaults)."""
    return {o.name: getattr(args, o.name) for o in options if getattr(args, o.name, None) is not None}


def _need_size(args) -> None:
    if args.trials is None and args.precision is None:
        raise CardlabError(NEED_SIZE)


def _cmd_simulate(game: Game, args) -> None:
    spec = game.simulation_spec(
        players=getattr(args, "players", None),
        variants=parse_variant_options(args.variant),
        strategies=args.strategy,
        **_given(args, game.simulate_options),
    )
    _need_size(args)  # after the spec: a bad option is named first, not after the user adds --trials
    inert = _inert_variants(game, args, spec.describe.get("players"), "simulate", game.simulate_options)
    result = run(spec, **run_options(args).kwargs())
    if inert:
        result.meta["variants_without_effect"] = inert
    chunks = result.meta.get("chunks", 0)
    if spec.pooled_by_chunks and chunks < PRECISION_GROUPS and not args.quiet:
        # a --chunk-size that leaves few chunks: the pooled rows' intervals come from them (docs/intervals.md)
        note(
            f"note: {chunks} chunk{'' if chunks == 1 else 's'} of {result.meta['chunk_size']:,} trials: the "
            f"pooled rows' intervals ({result.meta['pooled_intervals']}) want {PRECISION_GROUPS} or more chunks; "
            "leave --chunk-size out for 32"
        )
    game.simulate_header(result)
    line = game.simulate_verdict(result)
    if line:
        result.meta["verdict"] = line
    emit_result(result, args, game)
    _precision_note(result, args)


def _inert_variants(game: Game, args, players, command: str, options) -> dict[str, str]:
    """The variants given that cannot change this run's figures (:meth:`Game.inert_variants`), each said in a
    line on stderr: the figures equal the defaults', and a reader would take that for "this rule does not
    matter"."""
    given = parse_variant_options(args.variant)
    if not given:
        return {}
    inert = game.inert_variants(given, players, {**_given(args, options), "command": command})
    for name, why in inert.items():
        note(f"note: --variant {name}={given[name]} has no effect here: {why}")
    return inert


def _precision_note(result: Result, args) -> None:
    """Precision mode: a note on stderr saying what was held to the target (json output carries it in its
    meta); a target the trial cap kept out of reach is exit 3, never a silent exit 0."""
    meta = result.meta
    if "precision_target" not in meta:
        return
    by = meta["precision_achieved_by_measure"]
    widest = ", ".join(f"{m} ±{h:.2g}" for m, h in by.items())
    rule = precision_rule(meta)
    if meta.get("not_to_play"):  # an advisor's answer of one row (no action of the seat's): its score
        held = f"held for the round score's interval ({widest})"
    elif rule:  # the advisor's rule, not a half-width per measure: an interval clear of the mark may be wider than ±P
        wider = any(h > meta["precision_target"] for h in by.values())  # said only where one is (a user read a
        # "may be wider" beside widths all within ±P as a contradiction)
        held = f"held {rule} ({'where clear, an interval may be wider than ±P: ' if wider else ''}widest {widest})"
    else:
        held = f"held for {widest}"
    if not meta["precision_reached"]:
        raise PrecisionNotReached(
            f"precision ±{meta['precision_target']:g} not reached: the trial cap ({meta['trials']:,} trials, in whole "
            f"chunks of {meta['chunk_size']:,}; CARDLAB_MAX_TRIALS sets it) "
            f"stopped at {widest}{f' (the rule: {rule})' if rule else ''}; the result written is that of the trials run"
        )
    if args.format != "json":
        note(
            f"precision ±{meta['precision_target']:g} {held} "
            f"({meta['trials']:,} trials, {meta['looks']} look{'' if meta['looks'] == 1 else 's'})"
        )


def _meta(game: Game, command: str, **extra) -> dict:
    return {"game": game.id, "command": command, **extra, "version": __version__}


def _cmd_eval(game: Game, args) -> None:
    df = game.evaluate(args.cards, variants=parse_variant_options(args.variant))
    meta = _meta(game, "eval")
    if df.attrs.get("answer"):
        meta["answer"] = df.attrs["answer"]  # which set wins, first (table output)
    emit_result(Result(df, meta), args)


def _cmd_beats(game: Game, args) -> None:
    df = game.beats(args.current, args.play, variants=parse_variant_options(args.variant))
    emit_result(Result(df, _meta(game, "beats")), args)


def _cmd_moves(game: Game, args) -> None:
    df = game.moves(args.hand, args.current, variants=parse_variant_options(args.variant))
    emit_result(Result(df, _meta(game, "moves", moves=len(df))), args)


def _cmd_exact(game: Game, args) -> None:
    given = _given(args, game.exact_options)
    df = game.exact(args.table, variants=parse_variant_options(args.variant), **given)
    emit_result(Result(df, _meta(game, "exact", what=args.table, **given)), args)


def _cmd_odds(game: Game, args) -> None:
    # the size first: building a position can compile the move generator or screen discards, work not to do before
    # an answer that the run cannot start
    _need_size(args)
    position = _given(args, game.odds_options)
    if getattr(args, "players", None) is not None:
        position["players"] = args.players
    result = game.odds(
        run_options(args), variants=parse_variant_options(args.variant), strategies=args.strategy, **position
    )
    for name, why in result.meta.get("options_without_effect", {}).items():
        # a flag's, or a --position document's field
        given = f"--{name.replace('_', '-')} {position[name]}" if name in position else f"{name} in --position"
        note(f"note: {given} has no effect here: {why}")
    emit_result(result, args, game)
    _precision_note(result, args)


def _cmd_compare(game: Game, args) -> None:
    # no size check here: Game.compare builds and checks the spec, then the driver asks for --trials or --precision
    result = game.compare(
        args.field,
        args.challenger,
        players=getattr(args, "players", None),
        variants=parse_variant_options(args.variant),
        run=run_options(args),
        who=args.who,
        **_given(args, game.compare_options),
    )
    inert = _inert_variants(game, args, result.meta.get("players"), "compare", game.compare_options)
    if inert:
        result.meta["variants_without_effect"] = inert
    emit_result(result, args, game)
    _precision_note(result, args)


def _cmd_compare_variants(game: Game, args) -> None:
    result = game.compare_variants(
        parse_variant_options(args.challenger_variant, "--challenger-variant"),
        players=getattr(args, "players", None),
        variants=parse_variant_options(args.variant),
        strategies=args.strategy,
        run=run_options(args),
        **_given(args, game.simulate_options),
    )
    for name, why in result.meta.get("variants_without_effect", {}).items():
        value = result.meta["challenger_variants"][name]
        note(f"note: --challenger-variant {name}={value} has no effect here: {why}")
    emit_result(result, args, game)


def _cmd_improve(game: Game, args) -> None:
    emit_result(
        game.improve(
            args.players,
            trials=args.trials,
            rounds=args.rounds,
            seed=args.seed,
            write=args.write,
            progress=not args.quiet,
            explain=args.explain,
        ),
        args,
    )


def _cmd_solve(game: Game, args) -> None:
    df = game.solve(
        SolveRequest(
            deal=args.game, hands=args.hands, trump=args.trump, leader=args.leader, player=args.player,
            goal=args.goal, trick=args.trick, every_card=not args.value_only,
        )
    )  # fmt: skip
    meta: dict[str, Any] = {"game": args.game, "command": "solve"}
    if args.format == "table":
        # the position's columns (the same in every row) once in the header, not repeated beside each card
        same = [c for c in df.attrs.get("position", ()) if c in df and df[c].nunique(dropna=False) == 1]
        for c in same:
            v = df[c].iloc[0]
            if c != "game" and v != "":
                meta[c] = v.item() if hasattr(v, "item") else v  # a Python number: the header writes str, int, float
        df = df.drop(columns=same)
    meta["version"] = __version__
    if df.attrs.get("answer"):
        meta["answer"] = df.attrs["answer"]  # the best card and its value, first (table output)
    emit_result(Result(df, meta), args)


#: what eval's and moves' columns mean, where the games share them
KEY_NOTE = (
    "Columns: type (the combination, type_index its number), length (cards, where the type has lengths) and key: "
    "the combination's order among those of its type and length, a higher key beating a lower one; two plays of "
    "different lengths (a 5- and a 6-card straight) never meet, so their keys do not compare. `beats` says "
    "whether one play may follow another, and why (bombs and the other exceptions included)."
)


def _terminal_width(args) -> int | None:
    """The terminal's width in characters (``COLUMNS`` where set, at least 60) where table output goes to one (not
    to --out, not --all's every column); else None: a file or a pipe gets the whole view."""

    if getattr(args, "format", "table") != "table" or getattr(args, "out", None) or getattr(args, "all", False):
        return None
    return terminal_columns(sys.stdout) if sys.stdout.isatty() else None


def _note_search_models(game: Game, doc, given: list[str] | None = None) -> None:
    """A review's models are the record's players (``doc``, the record document) with --strategy applied over
    them: where one of the game's ``slow_strategies`` is among them, every sampled layout searches at every
    turn, a long review (a new user's took 80 s, unwarned). A note on stderr says so and how to have a quicker one."""
    from .review import review_models

    recorded = doc.get("strategies") if isinstance(doc, dict) else None
    try:
        if isinstance(recorded, dict):  # by seat
            recorded = [recorded[k] for k in sorted(recorded, key=int)]
    except ValueError:
        return
    if not isinstance(recorded, list):
        recorded = []  # none, or malformed: the review itself refuses a bad record, in one line
    seats: dict[str, str] = {}
    for item in review_models(given, [str(x) for x in recorded], "-"):
        seat, _, name = item.rpartition("=")
        if seat:
            seats[seat.strip()] = name.strip()
        else:  # a bare name: every seat
            seats = dict.fromkeys(seats or ["all"], name.strip())
    slow = sorted({n for n in seats.values() if n.partition(":")[0] in game.slow_strategies})
    if slow:
        note(
            f"the review's models (the record's players, --strategy over them) include {', '.join(slow)}: "
            "on every sampled layout such a player searches at every turn, which takes a while; --strategy NAME "
            "(or SEAT=NAME) puts faster models in their place"
        )


def _cmd_record(game: Game, args) -> None:
    if args.quiet:  # --quiet: not even the first run's compile note
        driver.silence_compile_note(game.id)
    doc = game.record(
        seed=args.seed,
        players=getattr(args, "players", None),
        variants=parse_variant_options(args.variant),
        strategies=args.strategy,
        **_given(args, game.record_options),
    )
    emit(json.dumps(doc, ensure_ascii=False, indent=1) + "\n", args.out, quiet=True)  # its own note below
    if args.out and not args.quiet:
        res = doc.get("result", {})
        note(
            f"wrote {args.out}: {len(doc['events'])} events"
            + (f", seat {res['winner']} went out first" if "winner" in res else "")
            + (f", seat {res['first_out']} went out first" if "first_out" in res else "")
            + (f", won by seat {' and '.join(map(str, res['winners']))}" if res.get("winners") else "")
        )


def _cmd_review(game: Game, args) -> None:
    from pathlib import Path

    from .outputs import check_dir

    if args.report:
        check_dir(args.report, "--report")
    run = RunOptions(precision=args.precision, seed=args.seed, threads=args.threads, progress=not args.quiet)
    from .review import load_record

    record = load_record(args.record)  # read once: a record may come through a pipe (<(...), /dev/stdin)
    if not args.quiet:
        _note_search_models(game, record, args.strategy)
    result = review_result(game, game.review(record, seat=args.seat, run=run, strategies=args.strategy))
    if args.format == "table":
        from .review import as_text

        emit(as_text(result, _terminal_width(args), args.all), args.out, args.quiet)
    else:
        emit_result(result, args)
    if args.report:
        from .report import write_folder

        intro, sections = game.review_sections(result, Path(args.record).name)
        folder = write_folder(
            Path(args.report), f"Review of {Path(args.record).name}", intro, sections,
            f"cardlab review {game.id} {Path(args.record).name}"
            + (f" --seat {args.seat}" if args.seat is not None else "")
            + f" --precision {args.precision:g} --seed {args.seed}",
            "review.html",
        )  # fmt: skip
        if not args.quiet:
            note(f"wrote {folder}/README.md and review.html")


def _cmd_serve(args) -> None:
    try:
        from .serve import serve
    except ImportError as e:
        raise CardlabError(
            f"cardlab serve needs the serve extra ({e.name} is missing): make serve, or pip install -e '.[serve]' in "
            "the clone"
        ) from None
    serve(
        host=args.host, port=args.port, reports=args.reports, max_pending=args.queue, max_seconds=args.time_limit,
        max_trials=args.max_trials,
    )  # fmt: skip


def _cmd_report(args) -> None:
    from .report import build_reports

    if not args.all and not args.game:
        raise CardlabError(
            f"give a game, or --all for every game; games with reports: {accepted(registry.games_with('report'))}"
        )
    if args.game:
        registry.require(args.game, "report")
    build_reports(
        None if args.all else args.game, out_dir=args.out, scale=args.scale, seed=args.seed, progress=not args.quiet
    )


def _strong_field_games() -> list[str]:
    from .strong_field import games

    return games()


def _strong_field_defaults() -> str:
    from .strong_field import default_field

    return ", ".join(f"{g} {default_field(g)}" for g in _strong_field_games())


def _cmd_strong_field(args) -> None:
    from .strong_field import compute

    games = _strong_field_games()
    if args.game not in games:
        what = "give a game" if not args.game else f"no strong-field measurements for {args.game!r}"
        raise CardlabError(f"{what}; accepted: {accepted(games)}")
    from .strong_field import show, stored_path

    if args.show is not None:
        given = ["--" + k.replace("_", "-") for k, default in _SF_COMPUTING.items() if getattr(args, k) != default]
        if given:
            raise CardlabError(
                f"--show prints a stored computation and computes nothing: {', '.join(given)} would have no effect "
                "(drop --show to compute; --show FILE prints another file)"
            )
        print(show(args.game, args.show or None))
        return
    path = compute(
        args.game, field=args.field, scale=args.scale, seed=args.seed, checkpoint_dir=args.checkpoint_dir,
        write=args.write, progress=not args.quiet, long=args.long, fresh=args.fresh,
    )  # fmt: skip
    shown = stored_path(args.game)
    if path.resolve() == shown.resolve():
        print(f"wrote {path}; 'cardlab report {args.game}' (and make report) shows it")
    elif shown.exists():
        # a quick look written beside the stored computation: replacing that one would lose hours of runs
        print(
            f"wrote {path}; 'cardlab strong-field {args.game} --show {path}' prints its tables. The report shows "
            f"{shown}, another computation (--show prints it): copy this file over it only to report this one"
        )
    else:
        print(f"wrote {path}; the report shows {shown}: move it there to see it in 'cardlab report {args.game}'")


GAME_COMMANDS = {
    "simulate": _cmd_simulate,
    "eval": _cmd_eval,
    "beats": _cmd_beats,
    "moves": _cmd_moves,
    "exact": _cmd_exact,
    "odds": _cmd_odds,
    "compare": _cmd_compare,
    "compare-variants": _cmd_compare_variants,
    "improve": _cmd_improve,
    "solve": _cmd_solve,
    "record": _cmd_record,
    "review": _cmd_review,
}
COMMANDS = ["games", *GAME_COMMANDS, "report", "strong-field", "serve"]


def main(argv: Sequence[str] | None = None) -> int:
    restore = _sigterm_as_interrupt()
    driver._announced.clear()  # the compile note once a game per command, not per process (tests, notebooks)
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        if getattr(args, "out", None) is not None and args.command != "report":
            check_file(args.out)
        if "format" in vars(args) and args.format is None:  # the file's suffix, else a table
            suffix = str(getattr(args, "out", None) or "").rpartition(".")[2].lower()
            args.format = suffix if suffix in ("csv", "json") else "table"
        if not args.command:
            raise CardlabError(f"give a command; accepted: {accepted(COMMANDS)}")
        if getattr(args, "backend", None) == "dask":
            _quiet_dask_logs()
        if args.command == "games":
            _cmd_games(args)
        elif args.command == "report":
            compile_ahead.install_extern_helper()
            _cmd_report(args)
        elif args.command == "serve":
            _cmd_serve(args)
        elif args.command == "strong-field":
            _cmd_strong_field(args)
        else:
            compile_ahead.install_extern_helper()  # a first run compiles the solver players on the other core
            if args.game is None:
                cap = (
                    "simulate"
                    if args.command in ("simulate", "compare-variants")
                    else next(c.name for c in CAPABILITIES.values() if c.command == args.command)
                )
                ids = registry.game_ids() if cap == "simulate" else registry.games_with(cap)
                raise CardlabError(f"give a game after {args.command}; accepted: {accepted(ids)}")
            game = registry.solver_for(args.game) if args.command == "solve" else registry.get(args.game)
            # a player compiled on first use in the middle of the command (a cell's callee) gets the compile note
            # too; a run through the driver also marks its meta (driver.CalleeCompiles)
            notes = driver.CalleeCompiles(args.game, not getattr(args, "quiet", False))
            try:
                GAME_COMMANDS[args.command](game, args)
            finally:
                notes.close()
    except CardlabError as e:
        print(f"cardlab: error: {e}", file=sys.stderr)
        return EXIT_USAGE
    except Interrupted as e:
        print(f"cardlab: {e}", file=sys.stderr)
        return e.exit_code
    except KeyboardInterrupt as e:
        term = isinstance(e, Terminated)
        print(f"cardlab: {'terminated' if term else 'interrupted'}", file=sys.stderr)
        return EXIT_TERMINATED if term else EXIT_INTERRUPTED
    except PrecisionNotReached as e:
        print(f"cardlab: {e}", file=sys.stderr)
        return EXIT_PRECISION
    except SaveFailed as e:
        print(f"cardlab: error: {e}", file=sys.stderr)
        return EXIT_IO
    except BackendFailed as e:
        print(f"cardlab: error: {e}", file=sys.stderr)
        return EXIT_BACKEND
    except BrokenPipeError:
        return 0
    finally:
        restore()
        compile_ahead.stop_extern_helper()  # called in process (notebooks, tests): no helper left idle behind it
    return 0


def _quiet_dask_logs() -> None:
    """dask.distributed logs a lost scheduler or worker, and a Ctrl-C while a cluster starts, as tracebacks on
    stderr; the command reports each failure in its own line (exit 75 or 130), so the CLI keeps only dask's
    critical messages. The Python API leaves dask's logging as dask configures it."""
    import logging

    try:
        import distributed  # noqa: F401 -- its logging is configured on import; set the levels after
    except ImportError:
        return  # the driver says in one line that the backend needs it
    roots = ("distributed", "tornado", "asyncio")
    for name in [*roots, *logging.root.manager.loggerDict]:  # dask's config gives some children levels of their own
        if name.split(".")[0] in roots:
            logging.getLogger(name).setLevel(logging.CRITICAL)


def _sigterm_as_interrupt():
    """SIGTERM unwinds like Ctrl-C (checkpoint kept, pools shut down, temporary files removed); returns the
    function that puts the previous handler back."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        return lambda: None

    def handler(signum, frame):
        # a second SIGTERM kills at once: the exception raised here is lost when the signal lands in native
        # code that calls back into Python (numba compiling a kernel), and the run would go on
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        raise Terminated()

    previous = signal.signal(signal.SIGTERM, handler)
    return lambda: signal.signal(signal.SIGTERM, previous)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
