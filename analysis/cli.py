"""The ``cardlab`` command line (also ``python -m analysis``).

Every command that takes bad input prints one line on stderr naming the problem and what is accepted,
exits with code 2, and leaves no partial output file behind.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Sequence

from . import __version__
from .driver import BACKENDS, DEFAULT_CHUNK_SIZE, run
from .errors import CardlabError, Interrupted, accepted
from .rules import describe_games, load_game, parse_variant_options
from .tables import FORMATS, Result, write_text_atomic

EXIT_USAGE = 2
EXIT_INTERRUPTED = 130


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors (no usage dump) and exit code 2."""

    def error(self, message: str):  # type: ignore[override]
        raise CardlabError(message)


def _positive_int(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}") from None
    if v <= 0:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}")
    return v


def _seed(text: str) -> int:
    try:
        v = int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, got {text!r}") from None
    if v < 0 or v >= 2**128:
        raise argparse.ArgumentTypeError(f"expected an integer in [0, 2**128), got {text!r}")
    return v


def _precision(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a half-width such as 0.002, got {text!r}") from None
    if not 0.0 < v < 1.0:
        raise argparse.ArgumentTypeError(f"expected a half-width in (0, 1), got {text!r}")
    return v


def add_output_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--format", default="table", choices=FORMATS, help="output format (default: table)")
    p.add_argument("--out", metavar="FILE", help="write the output to FILE (atomically) instead of stdout")


def add_run_options(p: argparse.ArgumentParser, *, players: bool = True) -> None:
    """The options every simulation command shares."""
    if players:
        p.add_argument("--players", type=_positive_int, help="number of players (the game's default if omitted)")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--trials", type=_positive_int, help="number of trials (deals or games)")
    g.add_argument("--precision", type=_precision,
                   help="instead of --trials: run until every reported cell is within +-P at 95%%")
    p.add_argument("--seed", type=_seed, default=0, help="random seed (default 0)")
    p.add_argument("--chunk-size", type=_positive_int, default=DEFAULT_CHUNK_SIZE, help="trials per chunk")
    p.add_argument("--variant", action="append", metavar="NAME=VALUE", help="a named rule variant (repeatable)")
    p.add_argument("--strategy", action="append", metavar="NAME|SEAT=NAME",
                   help="strategy for every seat, or SEAT=NAME for one seat (repeatable)")
    p.add_argument("--backend", default="threads", choices=BACKENDS, help="where chunks run (default threads)")
    p.add_argument("--scheduler", metavar="ADDRESS", help="dask scheduler address (default: a LocalCluster)")
    p.add_argument("--workers", type=_positive_int, help="processes or dask workers (default: CPU count)")
    p.add_argument("--threads", type=_positive_int, help="numba threads for the threads backend")
    p.add_argument("--checkpoint", metavar="FILE", help="save completed chunks to FILE and resume from it")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    add_output_options(p)


def build_parser() -> _Parser:
    p = _Parser(prog="cardlab", description="cardlab: a Monte Carlo strategy lab for four card games.")
    p.add_argument("--version", action="version", version=f"cardlab {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    g = sub.add_parser("games", help="list the games, their variants and strategies")
    add_output_options(g)

    s = sub.add_parser("simulate", help="simulate a game and tabulate what happened")
    s.add_argument("game")
    s.add_argument("--unit", choices=("deal", "hand", "game"), help="what one trial is (where the game has several)")
    s.add_argument("--games-per-match", type=_positive_int,
                   help="consecutive games per trial, the Loser dealing (Zheng Shangyou)")
    s.add_argument("--round", type=int, help="round type 1-4 with --unit hand (Bismarck; with ruleset=swedish the "
                   "contract: 1 Spel, 2 Spader, 3 Valfri, 4 Pass)")
    s.add_argument("--pimc-from", type=int, help="PIMC and double-dummy players take over when a hand holds at most "
                   "this many cards, 0-16 (Bismarck; default 8, 16 = the whole hand)")
    s.add_argument("--pimc-samples", type=int, help="PIMC samples of the hidden cards per card played (Bismarck; "
                   "default 16)")
    add_run_options(s)

    e = sub.add_parser("eval", help="evaluate card sets (type and comparison key)")
    e.add_argument("game")
    e.add_argument("cards", nargs="+", help="one quoted card set per argument, e.g. \"KC JC TC\"")
    e.add_argument("--variant", action="append", metavar="NAME=VALUE")
    add_output_options(e)

    b = sub.add_parser("beats", help="whether a play may be played on the current one, and why")
    b.add_argument("game")
    b.add_argument("--current", required=True, help="the play on the table")
    b.add_argument("--play", required=True, help="the play to test")
    b.add_argument("--variant", action="append", metavar="NAME=VALUE")
    add_output_options(b)

    mv = sub.add_parser("moves", help="every legal play from a hand, on lead or over the current play")
    mv.add_argument("game")
    mv.add_argument("--hand", required=True)
    mv.add_argument("--current", help="the play on the table (omit on lead)")
    mv.add_argument("--variant", action="append", metavar="NAME=VALUE")
    add_output_options(mv)

    x = sub.add_parser("exact", help="exact answers by enumeration")
    x.add_argument("game")
    x.add_argument("what", help="which table, e.g. bisk-types")
    x.add_argument("--players", type=_positive_int)
    x.add_argument("--cards", type=_positive_int, help="set size")
    x.add_argument("--variant", action="append", metavar="NAME=VALUE")
    add_output_options(x)

    o = sub.add_parser("odds", help="win probability of each action at a decision, from what a player sees")
    o.add_argument("game")
    o.add_argument("--seat", type=int, required=True, help="the deciding seat (0 = dealer's left)")
    o.add_argument("--decision", default="flingo", choices=("flingo", "swap", "tuck"))
    o.add_argument("--upright", help="the player's opening upright card")
    o.add_argument("--tucked", help="the player's tucked card")
    o.add_argument("--jingo-card", help="the player's Jingo card (swap and tuck decisions)")
    o.add_argument("--opening", action="append", metavar="SEAT=CARDS", help="another seat's two opening cards")
    o.add_argument("--flingo", action="append", metavar="SEAT=CARDS",
                   help="an earlier seat that took a Flingo, with the card(s) it got")
    o.add_argument("--jingo", action="append", type=int, metavar="SEAT", help="an earlier seat that took a Jingo")
    o.add_argument("--jingos-so-far", type=int, help="Jingos taken by earlier seats when their choices are not given")
    o.add_argument("--seen", help="other cards seen on the table (Flingo cards of unnamed seats)")
    add_run_options(o)

    i = sub.add_parser("improve", help="compute the recommended strategy by iterated best responses")
    i.add_argument("game")
    i.add_argument("--players", type=_positive_int, action="append", help="player counts (default: all)")
    i.add_argument("--trials", type=_positive_int, default=400_000, help="deals per look (default 400000)")
    i.add_argument("--rounds", type=_positive_int, default=4, help="at most this many improvement rounds")
    i.add_argument("--seed", type=_seed, default=0)
    i.add_argument("--write", action="store_true", help="store the result in seeds/ as the recommended table")
    i.add_argument("--quiet", action="store_true")
    add_output_options(i)

    so = sub.add_parser("solve", help="double-dummy value of a position (bismarck: 3 hands; bridge: 4 hands)")
    so.add_argument("game", help="bismarck or bridge")
    so.add_argument("--hands", required=True, help='hands by seat separated by "|", e.g. "AS KS|QS JS|TS 9S"')
    so.add_argument("--trump", default="NT", help="S, H, D, C or NT (default NT)")
    so.add_argument("--leader", type=int, default=0, help="the seat on lead (default 0)")
    so.add_argument("--player", type=int, default=0, help="whose tricks are counted (bridge: its side)")
    so.add_argument("--goal", default="max", help="max: most tricks against best defence; min: fewest (misere)")
    add_output_options(so)

    r = sub.add_parser("report", help="build the strategy report of one game, or of every game")
    r.add_argument("game", nargs="?")
    r.add_argument("--all", action="store_true", help="every game that has a report")
    r.add_argument("--scale", type=float, default=1.0, help="multiply the default sizes (e.g. 0.05 for a quick look)")
    r.add_argument("--seed", type=_seed, default=2026)
    r.add_argument("--out", metavar="DIR", default="reports", help="output folder (default reports/)")
    r.add_argument("--quiet", action="store_true")
    return p


def emit(text: str, out: str | None) -> None:
    if out:
        write_text_atomic(out, text)
    else:
        sys.stdout.write(text)
        sys.stdout.flush()


def emit_result(result: Result, args) -> None:
    emit(result.render(args.format), getattr(args, "out", None))


def _cmd_games(args) -> None:
    info = describe_games()
    if args.format == "json":
        emit(json.dumps({"meta": {"command": "games"}, "rows": info}, ensure_ascii=False) + "\n", args.out)
        return
    if args.format == "csv":
        lines = ["game,kind,name,default,values"]
        for g in info:
            for k, v in g["variants"].items():
                lines.append(f"{g['game']},variant,{k},{v['default']},{'|'.join(map(str, v['values']))}")
            for k in g["strategies"]:
                lines.append(f"{g['game']},strategy,{k},,")
        emit("\n".join(lines) + "\n", args.out)
        return
    parts = []
    for g in info:
        pl = g["players"]
        parts.append(f"{g['game']}  ({g['name']}; {pl['min']}-{pl['max']} players, default {pl['default']}; {g['rules']})")
        parts.append("  variants:")
        for k, v in g["variants"].items():
            parts.append(f"    {k} = {v['default']}   [{', '.join(map(str, v['values']))}]   {v['rule']}")
        parts.append("  strategies:")
        for k, doc in g["strategies"].items():
            parts.append(f"    {k}: {doc}")
    emit("\n".join(parts) + "\n", args.out)


def _game_call(game: str, name: str):
    g = load_game(game)
    fn = getattr(g.module(), name, None)
    if fn is None:
        raise CardlabError(f"{game} does not support this command yet (not implemented: {name})")
    return fn


def run_options(args) -> dict:
    return dict(trials=args.trials, precision=args.precision, seed=args.seed, chunk_size=args.chunk_size,
                backend=args.backend, threads=args.threads, workers=args.workers, scheduler=args.scheduler,
                progress=not args.quiet, checkpoint=args.checkpoint)


def _cmd_simulate(args) -> None:
    if args.trials is None and args.precision is None:
        raise CardlabError("give --trials N or --precision P")
    extra = {}
    for option in ("unit", "games_per_match", "round", "pimc_from", "pimc_samples"):
        value = getattr(args, option, None)
        if value is not None:
            extra[option] = value
    build = _game_call(args.game, "simulation_spec")
    import inspect
    unknown = [o for o in extra if o not in inspect.signature(build).parameters]
    if unknown:
        raise CardlabError(f"{args.game} does not take --{unknown[0].replace('_', '-')}")
    spec = build(players=args.players, variants=parse_variant_options(args.variant), strategies=args.strategy,
                 **extra)
    emit_result(run(spec, **run_options(args)), args)


def _cmd_eval(args) -> None:
    df = _game_call(args.game, "evaluate")(args.cards, variants=parse_variant_options(args.variant))
    emit_result(Result(df, {"game": args.game, "command": "eval", "version": __version__}), args)


def _cmd_beats(args) -> None:
    df = _game_call(args.game, "beats_table")(args.current, args.play, variants=parse_variant_options(args.variant))
    emit_result(Result(df, {"game": args.game, "command": "beats", "version": __version__}), args)


def _cmd_moves(args) -> None:
    df = _game_call(args.game, "moves")(args.hand, args.current, variants=parse_variant_options(args.variant))
    emit_result(Result(df, {"game": args.game, "command": "moves", "moves": len(df), "version": __version__}), args)


def _cmd_exact(args) -> None:
    df = _game_call(args.game, "cli_exact")(args)
    emit_result(Result(df, {"game": args.game, "command": "exact", "what": args.what,
                            "players": args.players, "cards": args.cards, "version": __version__}), args)


def _cmd_odds(args) -> None:
    if args.trials is None and args.precision is None:
        raise CardlabError("give --trials N or --precision P")
    emit_result(_game_call(args.game, "cli_odds")(args), args)


def _cmd_improve(args) -> None:
    emit_result(_game_call(args.game, "cli_improve")(args), args)


def _cmd_solve(args) -> None:
    if args.game not in ("bismarck", "bridge"):
        raise CardlabError(f"unknown game {args.game!r} for solve; accepted: bismarck, bridge")
    from .games import bismarck
    df = bismarck.cli_solve(args)
    emit_result(Result(df, {"game": args.game, "command": "solve", "version": __version__}), args)


def _cmd_report(args) -> None:
    from .report import build_reports
    if not args.all and not args.game:
        raise CardlabError("give a game, or --all for every game")
    build_reports(None if args.all else args.game, out_dir=args.out, scale=args.scale, seed=args.seed,
                  progress=not args.quiet)


COMMANDS = {"games": _cmd_games, "simulate": _cmd_simulate, "eval": _cmd_eval, "beats": _cmd_beats,
            "moves": _cmd_moves, "exact": _cmd_exact,
            "odds": _cmd_odds, "improve": _cmd_improve, "solve": _cmd_solve, "report": _cmd_report}


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if not args.command:
            raise CardlabError(f"give a command; accepted: {accepted(COMMANDS)}")
        if getattr(args, "game", None) is not None and args.command != "solve":
            load_game(args.game)  # unknown game: a plain error listing the games
        COMMANDS[args.command](args)
    except CardlabError as e:
        print(f"cardlab: error: {e}", file=sys.stderr)
        return EXIT_USAGE
    except Interrupted as e:
        print(f"cardlab: {e}", file=sys.stderr)
        return EXIT_INTERRUPTED
    except KeyboardInterrupt:
        print("cardlab: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        return 0
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
