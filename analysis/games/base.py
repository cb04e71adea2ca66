"""What a game provides: the one interface the CLI, the reports, the advisors and the tests are written on.

A game is a subclass of :class:`Game` registered in :mod:`analysis.games` (the registry is explicit; the
TOML files under ``seeds/`` stay data). Every game has rules, a deck, strategies and a simulation
(:meth:`Game.simulation_spec`, whose kernel spec carries its ``tabulate``). The rest are optional
capabilities (:data:`CAPABILITIES`): a game has one exactly when its class overrides the method, and the
base class refuses the others in the user's words, naming the games that do have it::

    Bismarck has no exact tables; games with them: biscuits, bisko-bobo, zheng-shangyou

Every method takes typed arguments (never an argparse Namespace). The options a game adds to a command
(``--round`` for Bismarck's simulation, the odds calculator's position fields) are declared as
:class:`Option` data, so the CLI builds each game's parser from the class and a game's ``--help`` shows
only the options it takes.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

import pandas as pd

from ..cards import Deck
from ..driver import KernelSpec
from ..errors import CardlabError
from ..rules import GameRules, load_game, strategy_items
from ..tables import Result, bare_measure

if TYPE_CHECKING:  # pragma: no cover
    from ..report import Section


@dataclass(frozen=True)
class Capability:
    """An optional capability: its method on :class:`Game`, the CLI command that reaches it (None: the
    Python API only, for now) and how a person names it ("Bismarck has no {noun}; games with {pronoun}")."""

    name: str
    method: str
    command: str | None
    noun: str
    pronoun: str = "it"


CAPABILITIES: dict[str, Capability] = {
    c.name: c
    for c in (
        Capability("evaluate", "evaluate", "eval", "card-set evaluation"),
        Capability("beats", "beats", "beats", "beating rule to test"),
        Capability("moves", "moves", "moves", "move lister"),
        Capability("exact", "exact", "exact", "exact tables", "them"),
        Capability("odds", "odds", "odds", "odds calculator"),
        Capability("compare", "compare_spec", "compare", "paired strategy comparison"),
        Capability("improve", "improve", "improve", "strategy improvement"),
        Capability("solve", "solve", "solve", "double-dummy solver"),
        Capability("record", "record", "record", "game records", "them"),
        Capability("review", "review", "review", "game review"),
        Capability("report", "report_sections", "report", "strategy report"),
    )
}


class Unsupported(CardlabError):
    """A capability the game does not have (a plain one-line refusal, exit code 2 at the CLI)."""


# ---------------------------------------------------------------------------------------------------
# Option values, checked where they are read (argparse types: a bad value is one line naming it)
# ---------------------------------------------------------------------------------------------------


def positive_int(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}") from None
    if v <= 0:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}")
    return v


def cards_arg(deck: Deck) -> Callable[[str], str]:
    """The argparse type of a card-list option (each value of a repeated one): the text unchanged once every token
    reads as a card of ``deck`` (repeats allowed: the game checks what the position makes of them). A mistyped
    card is named while the options are read, before a run asks for --trials or builds its position (which may
    compile kernels)."""

    def check(text: str) -> str:
        try:
            deck.indices(text, allow_duplicates=True)
        except CardlabError as e:  # argparse words it "argument --hand: bad card ...": the parser's error rewords it
            raise argparse.ArgumentTypeError(str(e)) from None
        return text

    return check


@dataclass(frozen=True)
class Option:
    """A command-line option a game adds to one of its commands. ``dest`` (the keyword its value is passed
    as) defaults to the flag's name with dashes as underscores; an option left out is not passed at all,
    so the game's own default applies."""

    flag: str
    help: str
    type: Callable[[str], Any] | None = None
    choices: tuple | None = None
    action: str | None = None
    metavar: str | None = None
    required: bool = False
    default: Any = None
    dest: str = ""

    @property
    def name(self) -> str:
        return self.dest or self.flag.lstrip("-").replace("-", "_")

    def add_to(self, parser: argparse.ArgumentParser) -> None:
        kw: dict[str, Any] = {"help": self.help, "dest": self.name}
        if self.action:
            kw["action"] = self.action
        if self.type is not None:
            kw["type"] = self.type
        if self.choices is not None:
            kw["choices"] = self.choices
        if self.metavar:
            kw["metavar"] = self.metavar
        if self.required:
            kw["required"] = True
        kw["default"] = self.default
        parser.add_argument(self.flag, **kw)


@dataclass(frozen=True)
class RunOptions:
    """How a simulation runs (:func:`analysis.driver.run`'s keywords): never part of a result but the
    trial count, seed and chunk size."""

    trials: int | None = None
    precision: float | None = None
    seed: int = 0
    chunk_size: int | None = None  # None: the spec's (small for search and solver players), else 4,096
    backend: str = "threads"
    threads: int | None = None
    workers: int | None = None
    scheduler: str | None = None
    progress: bool = True
    checkpoint: str | None = None
    #: the measures precision mode holds to ±precision (default: the game's headline measures); named
    #: measures are checked against the table before any work
    measures: tuple[str, ...] | None = None

    def kwargs(self) -> dict:
        return dataclasses.asdict(self)


@dataclass(frozen=True)
class SolveRequest:
    """A fully known position for the double-dummy solver: ``hands`` by seat separated by ``|``."""

    deal: str
    hands: str
    trump: str = "NT"
    leader: int = 0
    player: int | None = None  # whose tricks are counted; None: the seat to play's
    goal: str = "max"
    trick: str = ""  # cards already played to the current trick, in order, led by ``leader``
    every_card: bool = True  # one row per legal card of the seat to play; False: the position's value alone


# ---------------------------------------------------------------------------------------------------
# The interface
# ---------------------------------------------------------------------------------------------------


class Game:
    """One game. Subclasses set :attr:`id` and implement :meth:`simulation_spec` and :meth:`strategies`;
    each optional capability is the override of its method (see :data:`CAPABILITIES`)."""

    id: ClassVar[str]
    #: options the game adds to ``simulate`` (and passes to :meth:`simulation_spec` by keyword)
    simulate_options: ClassVar[tuple[Option, ...]] = ()
    #: options of ``exact`` (passed to :meth:`exact`), of ``odds`` (to :meth:`odds`) and of ``compare``
    exact_options: ClassVar[tuple[Option, ...]] = ()
    odds_options: ClassVar[tuple[Option, ...]] = ()
    #: what ``simulate GAME --help`` says after the options: its measures, where they need words
    simulate_epilog: ClassVar[str | None] = None
    #: the game's card order in a sentence (ranks, suits, jokers): ``odds --help`` opens its text with it
    card_notes: ClassVar[str] = ""
    #: what ``odds --help`` says after the options (the models, where a game has more than one kind)
    odds_epilog: ClassVar[str | None] = None
    #: what `cardlab compare GAME --help` says after the options: the measures of its table, where they need words
    compare_epilog: ClassVar[str | None] = None
    #: what one compare trial is, where the game's trial noun does not say it (the header counts them); output
    #: only, never in a spec's describe (its fingerprint is what stored runs and checkpoints are kept by)
    compare_unit: ClassVar[str | None] = None
    #: a second paired measure the compare verdict quotes after the headline one, and its unit (a game whose win
    #: and score can disagree: Zheng Shangyou; Bismarck's round score beside its tricks), or None
    compare_also: ClassVar[tuple[str, str] | None] = None
    #: whether the headline and ``compare_also`` clear of zero in opposite directions means "they disagree: one
    #: wins more often, the other gains more points" (a win and a score); False where the two measures may
    #: rightly move apart (Bismarck: in the misère fewer tricks score more)
    compare_disagree: ClassVar[bool] = True
    #: options of ``record`` beyond seed, players, variants and strategies (passed to :meth:`record`)
    record_options: ClassVar[tuple[Option, ...]] = ()
    compare_options: ClassVar[tuple[Option, ...]] = ()
    #: the models the advisor (odds) plays with when none are named (None: the game's default strategy)
    advisor_model: str | None = None
    #: what one row of a paired comparison is about: "seat" (the seat that switches), "team" or "role"; and,
    #: for a team or role, its names (``compare --team`` / ``--role`` accepts them)
    compare_by: ClassVar[str] = "seat"
    #: what a record holds ("game"; Biscuits records one "hand"), and a review's default precision and its unit
    record_unit: ClassVar[str] = "game"
    review_precision: ClassVar[float] = 0.02
    review_precision_unit: ClassVar[str] = "of the win chance"
    #: whether the review's precision measure is a probability (a half-width of 1 or more is then refused)
    review_precision_probability: ClassVar[bool] = True
    #: what ``--strategy``'s help adds for this game (a strategy's parameters, where it plays)
    strategy_notes: ClassVar[str] = ""
    #: strategy names that take parameters after a colon (``search:2000``)
    parameterized_strategies: ClassVar[tuple[str, ...]] = ()
    #: the players that search or solve at every turn: a review played on by them takes a while (``review`` says so)
    slow_strategies: ClassVar[tuple[str, ...]] = ()
    #: what ``review --help`` adds for this game (its score, its own columns)
    review_notes: ClassVar[str] = ""
    #: a record may give some seats' hands only (yours, to review your play): the review's --seat help says so
    partial_records: ClassVar[bool] = False
    #: what review's RECORD help says of the hands, where the game says it otherwise than "every seat's dealt cards"
    record_hands_words: ClassVar[str | None] = None
    #: fields a position document may hold beside the odds options' (the HTTP API's schema takes them too), with
    #: what each is
    position_document_fields: ClassVar[dict[str, str]] = {}
    #: what one trial of its simulation is, in the plural (table headers: "20,000 deals")
    trial_noun: ClassVar[str] = "trials"
    compare_who: ClassVar[tuple[str, ...]] = ()
    #: the exact tables by name (``cardlab exact GAME NAME``)
    exact_tables: ClassVar[tuple[str, ...]] = ()
    #: the deals ``solve`` takes (Bismarck's solver also solves bridge deals)
    solve_deals: ClassVar[tuple[str, ...]] = ()
    #: one small call of each capability the game has (its method's keywords; ``run`` for odds is a
    #: RunOptions' keywords): what ``tests/test_games_conformance.py`` calls, and a newcomer's example
    examples: ClassVar[dict[str, dict[str, Any]]] = {}

    # --- always there -----------------------------------------------------------------------------

    @property
    def rules(self) -> GameRules:
        return load_game(self.id)

    @property
    def name(self) -> str:
        return self.rules.name

    @property
    def deck(self) -> Deck:
        return self.rules.deck

    def strategies(self) -> tuple[str, ...]:
        """The strategy names the code plays (the rules file documents the same names)."""
        raise NotImplementedError

    def default_strategy(self) -> str:
        raise NotImplementedError

    def simulation_spec(
        self,
        players: int | None = None,
        variants: dict[str, str] | None = None,
        strategies: Sequence[str] | None = None,
        **options: Any,
    ) -> KernelSpec:
        """The kernel spec of ``cardlab simulate``; ``options`` are :attr:`simulate_options`' values."""
        raise NotImplementedError

    def inert_variants(self, given: dict[str, str], players: int, options: dict[str, Any]) -> dict[str, str]:
        """The variants among ``given`` (the ones set, not the defaults) that cannot change a ``simulate`` or
        ``compare`` result under these ``players`` and command ``options``, each with the reason: such a run's
        figures equal the defaults', which a reader would take for "this rule does not matter". None by
        default."""
        return {}

    def simulate_header(self, result: Result) -> None:
        """Adds to a simulation's meta what its header says beyond the standard lines (Bismarck: ``quota``, the
        round's quotas); nothing by default."""

    def _compare_also_clause(self, result: Result, t, headline: str, judged: str, key, few: bool, field: str,
                             challenger: str) -> None:  # fmt: skip
        """The verdict's second clause: the other of the game's two measures (:attr:`compare_also` after the
        headline; the headline where --measure judged the second), and, where the two are each clear of zero in
        opposite directions, a sentence that they disagree (which is better depends on what one plays for)."""
        assert self.compare_also is not None
        second, unit = self.compare_also
        keys = [c for c in ("seat", "team", "role") if c in t.columns]

        def row(measure: str):
            rows = t[t["measure"] == measure]
            rows = rows[rows[keys].isna().all(axis=1)] if key is None and keys else rows
            return rows.iloc[-1] if len(rows) else None

        other = headline if judged == second else second
        r = row(other)
        if r is None:
            return
        words, mult = (unit, 1.0) if other == second else _paired_unit(other)
        name = bare_measure(other)
        if mult == 100.0:  # the win: "win probability ... +1.38 percentage points", its unit not said twice
            name, words = "win probability", "percentage points"
        elif other != second and self.compare_unit:  # a mean, per hand as the verdict's own figure is
            words += f" a {self.compare_unit}"
        # clear of zero: said in words, as a reader of "no clear difference in ..." first may miss it (not where
        # the interval has no width from a few trials that agree: they say nothing clearly)
        wide = r["ci_high"] > r["ci_low"] or not few
        clear = (
            " clearly higher:" if wide and r["ci_low"] > 0 else " clearly lower:" if wide and r["ci_high"] < 0 else ""
        )
        result.meta["verdict"] += (
            f"; {name}{clear} {r['estimate'] * mult:+.2f} {words} (95% interval {r['ci_low'] * mult:+.2f} to "
            f"{r['ci_high'] * mult:+.2f})"
        )
        # the two measures each clear of zero, in opposite directions (said where the verdict names both)
        h, s = row(headline), row(second)
        if (
            judged in (headline, second)
            and h is not None
            and s is not None
            and self.compare_disagree
            and (h["ci_low"] > 0 > s["ci_high"] or h["ci_high"] < 0 < s["ci_low"])
        ):
            ahead = challenger if h["ci_low"] > 0 else field
            behind = field if ahead == challenger else challenger
            # not "better" then: which is better depends on what one plays for
            v = result.meta["verdict"]
            for word, says in (("better", "wins more often"), ("worse", "wins less often")):
                v = v.replace(f"{challenger} is {word} than {field}", f"{challenger} {says} than {field}", 1)
            result.meta["verdict"] = v + (
                f"; they disagree: {ahead} wins more often, {behind} gains more {unit}, so which is better depends "
                "on whether one plays for wins or for points"
            )

    def simulate_verdict(self, result: Result) -> str | None:
        """A line in words above ``simulate``'s table (the answer first), where its answer is one figure (none by
        default)."""
        return None

    def tabulate(self, counts, trials: int, spec: KernelSpec) -> pd.DataFrame:
        """The tidy table of a simulation's merged counts (the spec's own tabulate)."""
        return spec.tabulate(counts, trials, spec)

    def capabilities(self) -> tuple[str, ...]:
        """The optional capabilities this game has, in :data:`CAPABILITIES` order."""
        return tuple(
            c.name for c in CAPABILITIES.values() if getattr(type(self), c.method) is not getattr(Game, c.method)
        )

    def has(self, capability: str) -> bool:
        return capability in self.capabilities()

    def refuse(self, capability: str) -> Unsupported:
        """The refusal of a capability this game lacks, naming the games that have it."""
        from . import games_with

        cap = CAPABILITIES[capability]
        others = games_with(capability)
        tail = f"; games with {cap.pronoun}: {', '.join(others)}" if others else ""
        return Unsupported(f"{self.name} has no {cap.noun}{tail}")

    # --- optional capabilities (a game has one by overriding it) ------------------------------------

    def evaluate(self, sets: Sequence[str], variants: dict[str, str] | None = None) -> pd.DataFrame:
        """Type and comparison key of each card set."""
        raise self.refuse("evaluate")

    def beats(self, current: str, play: str, variants: dict[str, str] | None = None) -> pd.DataFrame:
        """Whether ``play`` may be played on ``current``, and why."""
        raise self.refuse("beats")

    def moves(self, hand: str, current: str | None = None, variants: dict[str, str] | None = None) -> pd.DataFrame:
        """Every legal play from ``hand``, on lead (``current`` None) or over ``current``."""
        raise self.refuse("moves")

    def exact(self, table: str, variants: dict[str, str] | None = None, **options: Any) -> pd.DataFrame:
        """One of :attr:`exact_tables`, computed by enumeration; ``options`` are :attr:`exact_options`."""
        raise self.refuse("exact")

    def odds(
        self,
        run: RunOptions,
        variants: dict[str, str] | None = None,
        strategies: Sequence[str] | None = None,
        **position: Any,
    ) -> Result:
        """The value of each action at a decision, from what the deciding player sees (``position``:
        :attr:`odds_options`' values)."""
        raise self.refuse("odds")

    def compare_spec(
        self,
        field: str,
        challenger: str,
        players: int | None = None,
        variants: dict[str, str] | None = None,
        **options: Any,
    ) -> KernelSpec:
        """A paired comparison on the same deals: one seat plays ``challenger`` instead of ``field``."""
        raise self.refuse("compare")

    def compare(
        self,
        field: str,
        challenger: str,
        *,
        players: int | None = None,
        variants: dict[str, str] | None = None,
        run: RunOptions | None = None,
        who: str | int | None = None,
        **options: Any,
    ) -> Result:
        """Run :meth:`compare_spec` (same deals and draws both ways) and say what it found: the rows of one
        seat, team or role (``who``, by :attr:`compare_by`; every row if None) and ``meta["verdict"]``, one
        line about the headline measure of ``who`` (pooled over all when None)."""
        from ..driver import run as run_spec

        spec = self.compare_spec(field, challenger, players=players, variants=variants, **options)
        key, value = self._compare_key(who, spec)
        result = run_spec(spec, **(run or RunOptions()).kwargs())
        t = result.table
        if key is not None:
            t = t[t[key].astype(object).astype(str) == str(value)].reset_index(drop=True)
            result = Result(t, result.meta, result.headline)
        noun = f"{self.compare_unit}s" if self.compare_unit else self.trial_noun
        words = f"{result.meta['trials']:,} {noun}"  # as the header counts them
        # "too few for an interval" goes by the run's trials (deals), not a row's count: a pooled row counts each
        # deal once per seat, team or role that switched, and the pooled and a role's verdict must agree
        few = result.meta["trials"] < FEW_TRIALS
        # the players as the spec labels them (a search player's budget spelled out), as the header names them
        said = spec.describe if isinstance(spec.describe, dict) else {}
        field, challenger = str(said.get("field", field)), str(said.get("challenger", challenger))
        # the verdict judges the first --measure where one was given (the run's headline), else the game's own
        judged = result.headline[0] if result.headline else spec.precision_measures[0]
        also = self.compare_also
        result.meta["verdict"] = paired_verdict(
            t, judged, field, challenger, key, value, words, self.compare_unit, few,
            unit_words=also[1] if also is not None and also[0] == judged else None,
        )  # fmt: skip
        if self.compare_unit:
            result.meta["unit"] = self.compare_unit
        # the header's variants line, where the spec's describe (its fingerprint) does not carry them (Biscuits)
        result.meta.setdefault("variants", self.rules.resolve_variants(variants))
        if self.compare_also is not None:
            self._compare_also_clause(result, t, spec.precision_measures[0], judged, key, few, field, challenger)
        return result

    def compare_variants(
        self,
        challenger: dict[str, Any],
        *,
        players: int | None = None,
        variants: dict[str, Any] | None = None,
        strategies: Any = None,
        run: RunOptions | None = None,
        **options: Any,
    ) -> Result:
        """Two rule sets on the same deals (``cardlab compare-variants``): the simulation under ``variants``
        (the field's) and under the same with ``challenger``'s changes, every seat playing ``strategies`` both
        times; each row of the simulation's table with ``field_value``, ``challenger_value`` and the paired
        difference challenger - field (``estimate``, ``ci_low``, ``ci_high``). ``options``:
        :attr:`simulate_options`' values. See :mod:`analysis.variant_compare`."""
        from ..variant_compare import compare_variants

        return compare_variants(
            self, challenger, players=players, variants=variants, strategies=strategies, run=run, **options
        )

    def _compare_key(self, who, spec: KernelSpec) -> tuple[str | None, Any]:
        if who is None:
            return None, None
        by = self.compare_by
        if by == "seat":
            P = int(spec.describe["players"])
            try:
                seat = int(who)
            except (TypeError, ValueError):
                seat = -1
            if not 0 <= seat < P:
                raise CardlabError(f"bad --seat {who if str(who).strip() else repr(who)}: seats are 0..{P - 1}")
            return "seat", seat
        names = self.compare_who
        if str(who) not in names:
            raise CardlabError(f"bad --{by} {who!r}; accepted: {', '.join(names)}")
        return by, str(who)

    def improve(
        self,
        players: Sequence[int] | None = None,
        trials: int = 400_000,
        rounds: int = 4,
        seed: int = 0,
        write: str | None = None,
        progress: bool = True,
        explain: bool = False,
    ) -> Result:
        """A recommended strategy by iterated best responses (``write``: a path to store its tables at); with
        ``explain``, a cheat sheet fitted to the stored tables and its measured edge instead."""
        raise self.refuse("improve")

    def solve(self, request: SolveRequest) -> pd.DataFrame:
        """The double-dummy value of a fully known position."""
        raise self.refuse("solve")

    def record(self, seed: int = 0, players: int | None = None, variants: dict | None = None, strategies=None) -> dict:
        """A recorded game (positions.md's record document): one simulated game with every seat's cards."""
        raise self.refuse("record")

    def review(self, record: dict, seat: int | None = None, run: RunOptions | None = None, strategies=None) -> Result:
        """Each decision of a recorded game (of ``seat``, or of every seat), judged by the advisor on what that
        seat knew; ``run``: its precision (the paired differences' half-width), seed and threads."""
        raise self.refuse("review")

    def review_inputs(self, record, run: RunOptions | None, strategies) -> tuple[dict, dict]:
        """For a game's :meth:`review`: the record document (read from a path if one is given) and the review
        function's keywords from ``run`` (a review runs to a precision, never to a trial count)."""
        from ..review import load_record

        doc = record if isinstance(record, dict) else load_record(str(record))
        run = run or RunOptions(precision=self.review_precision, progress=False)
        if run.trials is not None:
            raise CardlabError("a review runs each decision to a precision: give --precision P, not --trials")
        return doc, {
            "strategies": strategy_items(strategies),
            "precision": run.precision or self.review_precision,
            "seed": run.seed,
            "threads": run.threads,
            "progress": run.progress,
        }

    def review_sections(self, result: Result, record_name: str) -> tuple[str, list[Section]]:
        """A review as report sections (introduction, sections) for README.md and review.html."""
        raise self.refuse("review")

    def report_sections(
        self, scale: float = 1.0, seed: int = 2026, progress: bool = True
    ) -> tuple[str, str, list[Section]]:
        """The strategy report: (title, introduction, sections)."""
        raise self.refuse("report")


@dataclass
class Registry:
    """The registered games by id, in the order they were registered."""

    games: dict[str, Game] = field(default_factory=dict)

    def add(self, game: Game) -> Game:
        if game.id in self.games:
            raise ValueError(f"game {game.id!r} registered twice")
        self.games[game.id] = game
        return game


def _paired_unit(measure: str) -> tuple[str, float]:
    """How a paired difference is said: a win probability in percentage points, anything else in its unit."""
    if measure == "challenger_minus_field" or measure.endswith("_win"):
        return "percentage points of win probability", 100.0
    return bare_measure(measure).replace("_", " "), 1.0


#: below this many trials (a run's, as its header counts them) an interval of width 0 is too few trials agreeing,
#: not a difference that never varies (a count every trial changes alike)
FEW_TRIALS = 30


def _nonzero_digits(values, digits: int, most: int = 6) -> int:
    """``digits``, or more (up to ``most``) until no value other than 0 rounds to 0: a verdict of "worse" beside an
    interval "-0.0018 to -0.0000" had read as touching 0."""
    while digits < most and any(v != 0 and round(abs(v), digits) == 0 for v in values):
        digits += 1
    return digits


def paired_verdict(
    table: pd.DataFrame,
    measure: str,
    field: str,
    challenger: str,
    key,
    value,
    trials_words: str | None = None,
    per: str | None = None,
    few: bool = False,
    unit_words: str | None = None,
) -> str:
    """One line on the headline paired difference: which way, by how much, with its 95% interval; "no clear
    difference" when the interval holds 0. ``trials_words``: the run's trials as its header counts them ("100
    hands"), where a pooled row's count adds up the seats, teams or roles that switched; ``per``: what a mean
    measure is per ("0.43 more team points a hand"), where the game's trial is not a game; ``few``: whether the
    run had fewer than :data:`FEW_TRIALS` trials (the run's, not a row's: a pooled row counts each deal once per
    seat, team or role), where an interval of width 0 is too few trials agreeing; ``unit_words``: the measure's
    unit in words where the game names it (``points a game``), instead of the measure's name."""
    rows = table[table["measure"] == measure]
    keys = [c for c in ("seat", "team", "role") if c in rows.columns]
    if key is None:  # the row pooled over every seat, team and role: all of those empty
        pooled = rows[rows[keys].isna().all(axis=1)] if keys else rows
        rows = pooled if len(pooled) else rows
        # the unit that switched: a team (Biscuits), a role (Bismarck) or a seat
        unit = "teams" if "team" in keys else ("roles" if "role" in keys else ("seats" if "seat" in keys else None))
        who = f"pooled over the {unit}" if unit else "pooled over all"
    else:
        who = f"{key} {value}"
    if not len(rows):
        return f"no rows for {measure}"
    r = rows.iloc[-1]
    unit, mult = _paired_unit(measure)
    if unit_words:
        unit = unit_words
    elif per and mult != 100.0:
        unit += f" a {per}"
    est, lo, hi = float(r["estimate"]) * mult, float(r["ci_low"]) * mult, float(r["ci_high"]) * mult
    d = min(3, max(2, -math.floor(math.log10(max(hi - lo, 1e-9))) + 1))
    if mult == 100.0:  # the words in percentage points, the figures as fractions, the table's unit
        # rounded as fractions first and the percentage points read off them, so the two agree digit for digit
        # (0.00215 had read 0.21 percentage points beside +0.0022)
        raw = (float(r["estimate"]), float(r["ci_low"]), float(r["ci_high"]))
        f = _nonzero_digits(raw, d + 2)
        fr = [f"{x:+.{f}f}" for x in raw]
        size = abs(float(fr[0])) * mult
        interval = f"challenger - field {fr[0]}, 95% interval {fr[1]} to {fr[2]}, as fractions"
    else:
        size = abs(est)
        d = _nonzero_digits((est, lo, hi), d)
        interval = f"challenger - field {est:+.{d}f}, 95% interval {lo:+.{d}f} to {hi:+.{d}f}"
    n = f"all {trials_words or format(int(r['trials']), ',') + ' trials'}" if "trials" in r else "every trial"
    if est == lo == hi == 0.0 and float(r.get("std_error", math.nan)) == 0.0:  # no spread at all
        return f"{challenger} against {field} ({who}): the same outcome on {n}, the two play alike there ({interval})"
    if lo == hi and few:  # a few trials that agree: no interval to be clear of 0
        word = "more" if est > 0 else "fewer"
        return (
            f"{challenger} against {field} ({who}): {size:.{d}f} {word} {unit} on {n}, too few for an "
            f"interval (its width is 0: run more trials) ({interval})"
        )
    if lo <= 0.0 <= hi:
        return f"{challenger} against {field} ({who}): no clear difference in {unit} ({interval})"
    if mult == 100.0:
        word = "better" if est > 0 else "worse"
        return f"{challenger} is {word} than {field} ({who}) by {size:.{d}f} {unit} ({interval})"
    word = "more" if est > 0 else "fewer"
    return f"{challenger} against {field} ({who}): {size:.{d}f} {word} {unit} ({interval})"
