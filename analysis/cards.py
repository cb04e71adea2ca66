"""Parsing and formatting cards.

A token is a rank and a suit in either order of case, with the suit as a letter or a symbol, or a joker:

>>> parse_card("KS"), parse_card("K♠"), parse_card("Ks"), parse_card("10h"), parse_card("Th")
(Card(rank='K', suit='S'), Card(rank='K', suit='S'), Card(rank='K', suit='S'), Card(rank='T', suit='H'), Card(rank='T', suit='H'))
>>> parse_card("bj", jokers=True)
Card(rank='BJ', suit='')
>>> format_cards(parse_cards("AS 10d,9c"))
'AS TD 9C'

Nothing here knows a suit order or a rank order: each game states its own deck (:class:`Deck`), and
:meth:`Deck.index` / :meth:`Deck.card` convert between cards and that game's integer encoding.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Sequence

from .errors import CardlabError, accepted

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A")
SUITS = ("C", "D", "H", "S")
JOKERS = ("BJ", "RJ")
_SUIT_ALIASES = {
    "C": "C", "D": "D", "H": "H", "S": "S",
    "♣": "C", "♦": "D", "♥": "H", "♠": "S",
    "♧": "C", "♢": "D", "♡": "H", "♤": "S",
}
_SUIT_SYMBOL = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
_TOKEN = re.compile(r"^(10|[2-9TJQKA])(.)$", re.IGNORECASE)


@dataclass(frozen=True, order=False)
class Card:
    """A card: a rank in ``RANKS`` and a suit letter in ``SUITS``, or a joker (``BJ``/``RJ``, suit ``''``)."""

    rank: str
    suit: str

    @property
    def is_joker(self) -> bool:
        return self.rank in JOKERS

    def __str__(self) -> str:
        return self.rank if self.is_joker else self.rank + self.suit

    def symbol(self) -> str:
        """The card with a suit symbol, e.g. ``K♠``."""
        return self.rank if self.is_joker else self.rank + _SUIT_SYMBOL[self.suit]


def parse_card(token: str, *, jokers: bool = False) -> Card:
    """Parse one card token; raise :class:`CardlabError` naming the token if it is not a card."""
    t = token.strip()
    if jokers and t.upper() in JOKERS:
        return Card(t.upper(), "")
    m = _TOKEN.match(t)
    suit = _SUIT_ALIASES.get(m.group(2).upper()) if m else None
    if m is None or suit is None:
        hint = "rank 2-9, 10 or T, J, Q, K, A then suit C D H S or ♣ ♦ ♥ ♠"
        if jokers:
            hint += ", or a joker BJ / RJ"
        raise CardlabError(f"bad card {token!r}: expected {hint} (e.g. KS, K♠, 10h, Th)")
    rank = m.group(1).upper()
    return Card("T" if rank == "10" else rank, suit)


def parse_cards(text: str | Sequence[str], *, jokers: bool = False, allow_duplicates: bool = False) -> list[Card]:
    """Parse a card list separated by spaces or commas; a duplicate card is an error unless allowed."""
    tokens = re.split(r"[\s,]+", text.strip()) if isinstance(text, str) else list(text)
    cards = [parse_card(t, jokers=jokers) for t in tokens if t]
    if not allow_duplicates:
        seen: set[Card] = set()
        for c in cards:
            if c in seen:
                raise CardlabError(f"duplicate card {c} in {' '.join(tokens)!r}")
            seen.add(c)
    return cards


def format_cards(cards: Iterable[Card], *, symbols: bool = False) -> str:
    """Format cards separated by spaces (``symbols=True`` for ``K♠``)."""
    return " ".join(c.symbol() if symbols else str(c) for c in cards)


@dataclass(frozen=True)
class Deck:
    """One game's deck: its ranks and suits in ascending order, and its jokers.

    The integer encoding is ``suit_index * len(ranks) + rank_index`` with both indices ascending in
    the game's own orders; jokers follow the suited cards.

    >>> d = Deck(ranks=RANKS, suits=("C", "H", "D", "S"))
    >>> d.index(parse_card("2C")), d.index(parse_card("AS")), str(d.card(12))
    (0, 51, 'AC')
    """

    ranks: tuple[str, ...]
    suits: tuple[str, ...]
    jokers: tuple[str, ...] = ()

    @property
    def size(self) -> int:
        return len(self.ranks) * len(self.suits) + len(self.jokers)

    def index(self, card: Card) -> int:
        if card.is_joker:
            if card.rank not in self.jokers:
                raise CardlabError(f"card {card} is not in this deck (it has no jokers)")
            return len(self.ranks) * len(self.suits) + self.jokers.index(card.rank)
        if card.rank not in self.ranks or card.suit not in self.suits:
            raise CardlabError(
                f"card {card} is not in this deck: ranks {accepted(self.ranks)}; suits {accepted(self.suits)}")
        return self.suits.index(card.suit) * len(self.ranks) + self.ranks.index(card.rank)

    def card(self, index: int) -> Card:
        n = len(self.ranks) * len(self.suits)
        if index >= n:
            return Card(self.jokers[index - n], "")
        return Card(self.ranks[index % len(self.ranks)], self.suits[index // len(self.ranks)])

    def indices(self, text: str | Sequence[str], **kw) -> list[int]:
        return [self.index(c) for c in parse_cards(text, jokers=bool(self.jokers), **kw)]
