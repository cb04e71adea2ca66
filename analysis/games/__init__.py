"""The registry of games: every game the CLI, the reports and the tests know, by id.

Adding a game is registering its :class:`~analysis.games.base.Game` subclass here (see the README's
"Adding a game"); the rules file ``seeds/<id>.toml`` holds its data.
"""

from __future__ import annotations

from ..errors import CardlabError, accepted
from .base import CAPABILITIES, Game, Registry, Unsupported
from .biscuits import Biscuits
from .bisko_bobo import BiskoBobo
from .bismarck import Bismarck
from .zheng_shangyou import ZhengShangyou

REGISTRY = Registry()
for _game in (BiskoBobo(), Biscuits(), Bismarck(), ZhengShangyou()):
    REGISTRY.add(_game)

__all__ = ["CAPABILITIES", "Game", "REGISTRY", "Unsupported", "all_games", "game_ids", "games_with", "get", "require"]


def game_ids() -> list[str]:
    """The registered game ids, sorted."""
    return sorted(REGISTRY.games)


def all_games() -> list[Game]:
    return [REGISTRY.games[g] for g in game_ids()]


def get(game_id: str) -> Game:
    """The game of an id; an unknown id is a plain error listing the games."""
    try:
        return REGISTRY.games[game_id]
    except KeyError:
        raise CardlabError(f"unknown game {game_id!r}; accepted: {accepted(game_ids())}") from None


def games_with(capability: str) -> list[str]:
    """The ids of the games that have ``capability`` (for solve: the deals it takes, bridge included)."""
    if capability not in CAPABILITIES:
        raise ValueError(f"unknown capability {capability!r}")
    if capability == "solve":
        return sorted({d for g in all_games() if g.has("solve") for d in g.solve_deals})
    return [g.id for g in all_games() if g.has(capability)]


def require(game_id: str, capability: str) -> Game:
    """The game of an id, if it has ``capability``; otherwise the refusal in the user's words."""
    game = get(game_id)
    if not game.has(capability):
        raise game.refuse(capability)
    return game


def solver_for(deal: str) -> Game:
    """The game whose solver takes ``deal`` (a game id, or ``bridge``)."""
    for g in all_games():
        if g.has("solve") and deal in g.solve_deals:
            return g
    if deal in REGISTRY.games:
        raise REGISTRY.games[deal].refuse("solve")
    raise CardlabError(f"unknown deal {deal!r} for solve; accepted: {accepted(games_with('solve'))}")
