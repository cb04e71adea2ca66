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
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

import pandas as pd

from ..cards import Deck
from ..driver import DEFAULT_CHUNK_SIZE, KernelSpec
from ..errors import CardlabError
from ..rules import GameRules, load_game

if TYPE_CHECKING:  # pragma: no cover
    from ..report import Section
    from ..tables import Result


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
        Capability("record", "record", None, "game records", "them"),
        Capability("review", "review", None, "game review"),
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
    chunk_size: int = DEFAULT_CHUNK_SIZE
    backend: str = "threads"
    threads: int | None = None
    workers: int | None = None
    scheduler: str | None = None
    progress: bool = True
    checkpoint: str | None = None

    def kwargs(self) -> dict:
        return dataclasses.asdict(self)


@dataclass(frozen=True)
class SolveRequest:
    """A fully known position for the double-dummy solver: ``hands`` by seat separated by ``|``."""

    deal: str
    hands: str
    trump: str = "NT"
    leader: int = 0
    player: int = 0
    goal: str = "max"


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
    compare_options: ClassVar[tuple[Option, ...]] = ()
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

    def improve(
        self,
        players: Sequence[int] | None = None,
        trials: int = 400_000,
        rounds: int = 4,
        seed: int = 0,
        write: bool = False,
        progress: bool = True,
    ) -> Result:
        """A recommended strategy by iterated best responses (``write``: store it in seeds/)."""
        raise self.refuse("improve")

    def solve(self, request: SolveRequest) -> pd.DataFrame:
        """The double-dummy value of a fully known position."""
        raise self.refuse("solve")

    def record(self, seed: int = 0, **options: Any) -> dict:
        """A recorded game (positions.md's record document)."""
        raise self.refuse("record")

    def review(self, record: dict, run: RunOptions | None = None) -> pd.DataFrame:
        """Each decision of a recorded game, judged by the advisor."""
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
