"""What the page needs to know of each game's position fields, and the request models built from them.

The fields are the advisor's own options (``Game.odds_options``: the flags of ``cardlab odds``), so the page,
the API schema and the command line cannot drift apart. Each field gets a ``kind`` that tells the page how a
person enters it (a card picker, a number per seat, a tick per seat, a list of tricks, ...) and the JSON type of
its value in a position document (``../shared/design/positions.md``). The request models only describe the
documents for the schema page and refuse an unknown field; the values are checked by the same code the
command line uses.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, create_model

from ..cards import JOKERS, RANKS, SUITS
from ..games.base import Game, Option

#: fields whose value is a string of cards
CARD_FIELDS = frozenset(
    {"hand", "current", "played", "passed", "received", "exchange_received", "upright", "tucked", "jingo_card",
     "seen", "shown", "discards"}
)  # fmt: skip
#: fields that are a list of tricks (each a string of cards from its leader, or {"leader", "cards"})
TRICK_FIELDS = frozenset({"tricks"})

Kind = Literal["cards", "seat_cards", "seat_number", "seat_seat", "seats", "number", "choice", "flag", "tricks", "text"]


def field_kind(o: Option) -> Kind:
    """How a person enters the option's value on the page (and its JSON type in a position document)."""
    metavar = o.metavar or ""
    if o.name in TRICK_FIELDS:
        return "tricks"
    if o.action == "store_true":
        return "flag"
    if o.action == "append" and o.type is int:
        return "seats"
    if metavar.endswith("=CARDS") or metavar.endswith("=CARD"):
        return "seat_cards"
    if metavar == "SEAT=SEAT":
        return "seat_seat"
    if metavar.endswith("=N"):
        return "seat_number"
    if o.choices:
        return "choice"
    if o.type is int:
        return "number"
    if o.name in CARD_FIELDS:
        return "cards"
    return "text"


def describe_fields(game: Game) -> list[dict]:
    """The position fields of ``game``'s advisor, in the order of ``cardlab odds --help``."""
    out = []
    for o in game.odds_options:
        if o.name == "position":
            continue
        kind = field_kind(o)
        d: dict[str, Any] = {"name": o.name, "flag": o.flag, "kind": kind, "help": o.help}
        if o.choices:
            d["choices"] = list(o.choices)
        if kind in ("seat_number", "seat_cards", "seat_seat"):
            d["keys"] = "teams" if (o.metavar or "").startswith("TEAM") else "seats"
        if kind in ("cards", "seat_cards"):
            d["one_card"] = (o.metavar or "").endswith("CARD")  # a click replaces the card instead of adding one
        out.append(d)
    return out


def deck(game: Game) -> list[str]:
    """The cards the page's picker offers, suit by suit, high to low in the game's order (the jokers where the game
    has them)."""
    ranks = list(reversed(RANKS))
    if game.id == "zheng-shangyou":  # ZS-2: twos are high, threes low; the jokers above every card
        ranks = ["2", *ranks[:-1]]
    cards = [r + s for s in reversed(SUITS) for r in ranks]
    return list(JOKERS)[::-1] + cards if game.id == "zheng-shangyou" else cards


_JSON_TYPES: dict[str, Any] = {
    "cards": str,
    "text": str,
    "choice": str,
    "number": int,
    "flag": bool,
    "seats": list[int] | int,
    "seat_cards": dict[str, str],
    "seat_seat": dict[str, int | str],
    "seat_number": dict[str, int | str],
    "tricks": list[str | dict[str, Any]],
}


class _Document(BaseModel):
    model_config = ConfigDict(extra="forbid")


_FLAG = re.compile(r"--([a-z][a-z0-9-]*)")


def _as_fields(text: str) -> str:
    """A flag's help in the document's words: ``--cards-left`` is the field ``cards_left`` (``--strategy``, the
    field ``models``, ``--variant`` the field ``variants``)."""
    named = {"strategy": "models", "variant": "variants"}
    return _FLAG.sub(lambda m: named.get(m[1], m[1].replace("-", "_")), text)


def position_model(game: Game) -> type[BaseModel]:
    """The request body of ``POST /api/odds/<game>``: a position document of the game (positions.md)."""
    fields: dict[str, Any] = {
        "game": (str | None, Field(None, description=f'"{game.id}" if given')),
        "players": (int | None, Field(None, description="the player count (the game's default if omitted)")),
        "variants": (dict[str, str] | None, Field(None, description='named variants, e.g. {"NAME": "VALUE"}')),
        "models": (
            str | dict[str, str] | None,
            Field(None, description='the players the hand is played on with: "NAME" or {"SEAT": "NAME"}'),
        ),
    }
    for d in describe_fields(game):
        fields[d["name"]] = (_JSON_TYPES[d["kind"]] | None, Field(None, description=_as_fields(d["help"])))
    for extra, what in game.position_document_fields.items():  # the document's own forms (ZS's "trick")
        fields[extra] = (dict[str, Any] | None, Field(None, description=what))
    name = "".join(w.capitalize() for w in game.id.split("-")) + "Position"
    return create_model(name, __base__=_Document, **fields)


def record_model(game: Game) -> type[BaseModel]:
    """The request body of ``POST /api/record/<game>``: what ``cardlab record`` takes besides ``--out``."""
    fields: dict[str, Any] = {
        "seed": (int, Field(0, ge=0, description="the seed (the record is trial 0 of simulate --seed SEED)")),
        "players": (int | None, Field(None, description="the player count (the game's default if omitted)")),
        "variants": (dict[str, str] | None, Field(None, description='named variants, e.g. {"NAME": "VALUE"}')),
        "strategies": (
            str | list[str] | None,
            Field(None, description='the players: "NAME" for every seat or ["SEAT=NAME", ...]'),
        ),
    }
    for o in game.record_options:
        fields[o.name] = (int | None, Field(None, description=o.help))
    name = "".join(w.capitalize() for w in game.id.split("-")) + "RecordRequest"
    return create_model(name, __base__=_Document, **fields)
