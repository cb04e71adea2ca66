"""Loading and validating the games' rule files (``seeds/<game>.toml``).

The TOML files are the single source of the deck facts, the named variants (each with its rule id,
its default and its accepted values) and the strategy names. Everything a user types is checked here,
with errors that name the bad value and list what is accepted.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

from .cards import Deck
from .errors import CardlabError, accepted


def seeds_dir() -> Path:
    """The seeds/ folder: ``$CARDLAB_SEEDS`` or the one beside the installed packages."""
    env = os.environ.get("CARDLAB_SEEDS")
    return Path(env) if env else Path(__file__).resolve().parents[1] / "seeds"


@dataclass(frozen=True)
class GameRules:
    id: str
    name: str
    data: dict

    @property
    def players(self) -> dict:
        return self.data["game"]["players"]

    @property
    def deck(self) -> Deck:
        return Deck.from_toml(self.data["deck"])

    @property
    def variants(self) -> dict[str, dict]:
        return self.data.get("variants", {})

    @property
    def strategies(self) -> dict[str, dict]:
        return self.data.get("strategies", {})

    def check_players(self, players: int | None) -> int:
        p = self.players
        if players is None:
            return int(p["default"])
        # a whole number (4 or 4.0; not 4.5, which int() made 4, nor True or "4", which failed in a comparison)
        whole = isinstance(players, (int, np.integer)) and not isinstance(players, (bool, np.bool_))
        if isinstance(players, (float, np.floating)) and float(players).is_integer():
            players, whole = int(players), True
        if not whole:
            raise CardlabError(f"bad player count {players!r}: expected a whole number from {p['min']} to {p['max']}")
        if not (p["min"] <= players <= p["max"]):
            span = f"exactly {p['min']}" if p["min"] == p["max"] else f"{p['min']} to {p['max']}"
            raise CardlabError(f"{self.name} takes {span} players, not {players}")
        return int(players)

    def resolve_variants(self, given: dict[str, str] | None) -> dict[str, str]:
        """All variants with defaults filled in; unknown names or values are errors."""
        out = {name: str(v["default"]) for name, v in self.variants.items()}
        if given is not None and not isinstance(given, dict):
            raise CardlabError(
                f"variants: expected a dict of name to value (e.g. {{{next(iter(self.variants), 'name')!r}: ...}}), "
                f"not a {type(given).__name__}"
            )
        for name, value in (given or {}).items():
            if isinstance(value, (bool, np.bool_)):  # True from Python is the value "true" (the rules' words)
                value = str(bool(value)).lower()
            if name not in self.variants:
                raise CardlabError(f"unknown variant {name!r} for {self.id}; accepted: {accepted(self.variants)}")
            values = [str(x) for x in self.variants[name]["values"]]
            if str(value) not in values:
                raise CardlabError(f"bad value {value!r} for variant {name}; accepted: {accepted(values)}")
            out[name] = str(value)
        return out

    def check_strategy(self, name: str) -> str:
        if name not in self.strategies:
            raise CardlabError(f"unknown strategy {name!r} for {self.id}; accepted: {accepted(self.strategies)}")
        return name


@cache
def _load(path: str) -> GameRules:
    with open(path, "rb") as f:
        data = tomllib.load(f)
    return GameRules(id=data["game"]["id"], name=data["game"]["name"], data=data)


def game_ids() -> list[str]:
    return sorted(p.stem for p in seeds_dir().glob("*.toml"))


def load_game(game: str) -> GameRules:
    ids = game_ids()
    if game not in ids:
        raise CardlabError(f"unknown game {game!r}; accepted: {accepted(ids)}")
    return _load(str(seeds_dir() / f"{game}.toml"))


def parse_variant_options(items: list[str] | None, flag: str = "--variant") -> dict[str, str]:
    """``["name=value", ...]`` (the values of ``flag``) to a dict; a malformed item is an error."""
    out: dict[str, str] = {}
    for item in items or []:
        name, eq, value = item.partition("=")
        if not eq or not name or not value:
            raise CardlabError(f"bad {flag} {item!r}: expected NAME=VALUE")
        out[name.strip()] = value.strip()
    return out


def with_forms(names, parameterized) -> list[str]:
    """Strategy names as a refusal lists them: those that take parameters with their form too (``search``,
    ``search:BUDGET[:C]``)."""
    return [*names, *(f"{p}:BUDGET[:C]" for p in parameterized)]


#: what a search player without C does (kernels/ucb.py), as refusals and help say it
HALVING = "sequential halving on common layouts"
#: the help's words for it: a halving round plays every candidate still in at least once, so a small budget is
#: spent as about two rollouts a candidate (1 + 1/2 + 1/4 ...)
HALVING_HELP = (
    f"spent by {HALVING} (at least one layout a halving round: at the least about two rollouts a candidate, "
    "whatever the budget); search:BUDGET:C spends it by UCB1 with exploration constant C instead (rewards in "
    "[0, 1]; 0.7 was the default before halving), a layout a rollout, at least one rollout a candidate"
)


def search_setting(name: str, budget: int, unit: str = "decision") -> tuple[int, float | None]:
    """A search player's name (``search``, ``search:BUDGET`` or ``search:BUDGET:C``) to (rollouts a ``unit``, UCB1's
    exploration constant, or None: sequential halving, the default, kernels/ucb.py), the game's default
    ``budget`` where not given; refused in one line when malformed."""
    parts = name.partition(":")[2].split(":") if ":" in name else []
    try:
        b = int(parts[0]) if parts else budget
        x = float(parts[1]) if len(parts) > 1 else 0.0
    except ValueError:
        b, x = -1, -1.0
    if len(parts) > 2 or not 1 <= b <= 1_000_000 or not 0 <= x <= 100:
        raise CardlabError(
            f"bad strategy {name!r}: expected search, search:BUDGET or search:BUDGET:C (rollouts a {unit}, 1 to "
            f"1000000, default {budget}; UCB1's exploration constant C, 0 to 100, without it {HALVING})"
        )
    return b, (x if len(parts) > 1 else None)


def search_explore(c: float | None) -> int:
    """The kernels' exploration setting: UCB1's constant in thousandths, -1 for sequential halving."""
    return -1 if c is None else round(c * 1000)


def search_label(name: str, budget: int, unit: str = "decision") -> str:
    """A strategy's name as outputs print it: a search player's with its budget spelled out (``search`` ->
    ``search:1000``) and UCB1's constant as the kernels read it (thousandths), so every figure says against whom
    it was measured."""
    if name.partition(":")[0] != "search":
        return name
    b, c = search_setting(name, budget, unit)
    return f"search:{b}" if c is None else f"search:{b}:{round(c * 1000) / 1000:g}"


def strategy_items(strategies: Sequence[str] | str | dict | None) -> list[str] | None:
    """Strategies as given from Python, as the ``--strategy`` items they stand for: one name (a string) for every
    seat, ``{seat: name}``, or a list of ``NAME`` / ``SEAT=NAME`` items (None or empty: the defaults). A string
    is one name, not a list of letters."""
    if not strategies:
        return None
    if isinstance(strategies, str):
        return [strategies]
    if isinstance(strategies, dict):
        return [f"{k}={v}" for k, v in strategies.items()]
    return list(strategies)


def seat_assignments(
    items: Sequence[str] | str | dict | None,
    players: int,
    default: str,
    accepted_names,
    parameterized: tuple[str, ...] = (),
) -> list[str]:
    """``--strategy`` values to one name per seat: ``NAME`` for every seat not named otherwise (at most one such
    item), ``SEAT=NAME`` for one seat (a later item for the same seat wins); the order of the two kinds does not
    matter. From Python, ``items`` may also be one name (a string) or ``{seat: name}``. Unknown names and seats
    are errors listing what is accepted, and so is a second bare name (``["greedy", "random"]`` had silently
    given ``random`` to every seat). A name of ``parameterized`` may carry parameters after a colon
    (``search:2000``), which the game reads."""
    items = strategy_items(items)
    every: str | None = None
    seats: dict[int, str] = {}
    for item in items or []:
        if not isinstance(item, str):
            raise CardlabError(f"bad --strategy {item!r}: expected NAME or SEAT=NAME")
        seat, eq, name = (x.strip() for x in item.partition("="))
        if eq:
            try:
                s = int(seat)
            except ValueError:
                raise CardlabError(f"bad --strategy {item!r}: expected NAME or SEAT=NAME") from None
            if not 0 <= s < players:
                raise CardlabError(f"bad seat {s} in --strategy {item!r}: seats are 0..{players - 1}")
            seats[s] = name
        elif every is not None:
            raise CardlabError(
                f"--strategy {seat!r} after {every!r}: one NAME is for every seat; give SEAT=NAME for each seat "
                f"that plays another (e.g. --strategy {every} --strategy 1={seat})"
            )
        else:
            every = seat
    names = [seats.get(s, every or default) for s in range(players)]
    for n in names + ([every] if every else []):  # a NAME every seat overrides is checked all the same
        if n not in accepted_names and n.partition(":")[0] not in parameterized:
            raise CardlabError(
                f"unknown strategy {n!r}; accepted: {accepted(with_forms(accepted_names, parameterized))}"
            )
    return names
