"""Parsing and formatting cards.

A token is a rank and a suit in either order of case, with the suit as a letter or a symbol, or a joker:

>>> parse_card("KS"), parse_card("K♠"), parse_card("Ks"), parse_card("10h"), parse_card("Th")
(Card(rank='K', suit='S'), Card(rank='K', suit='S'), Card(rank='K', suit='S'), Card(rank='T', suit='H'), Card(rank='T', suit='H'))
>>> parse_card("bj", jokers=True)
Card(rank='BJ', suit='')
>>> format_cards(parse_cards("AS 10d,9c"))
'AS TD 9C'

Nothing here knows a suit order or a rank order: each game states its own deck (:class:`Deck`, its orders and
code layout read from ``seeds/<game>.toml``), and :meth:`Deck.index` / :meth:`Deck.card` / :meth:`Deck.mask` /
:meth:`Deck.text` convert between cards and that game's integer encoding. This is the one card encoder.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .errors import CardlabError, accepted

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A")
SUITS = ("C", "D", "H", "S")
JOKERS = ("BJ", "RJ")
_SUIT_ALIASES = {
    "C": "C",
    "D": "D",
    "H": "H",
    "S": "S",
    "♣": "C",
    "♦": "D",
    "♥": "H",
    "♠": "S",
    "♧": "C",
    "♢": "D",
    "♡": "H",
    "♤": "S",
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
    if t.upper() in JOKERS:
        if not jokers:
            raise CardlabError(f"bad card {token!r}: this deck has no jokers")
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


LAYOUTS = ("suit-major", "rank-major")


@dataclass(frozen=True)
class Deck:
    """One game's deck and its integer encoding, as data: ranks and suits in ascending order, jokers, and
    the layout of the codes.

    - ``suit-major``: ``code = suit_index * stride + rank_index`` (``stride`` defaults to the number of
      ranks; Bismarck's kernels use 16 so that a suit is one 16-bit field of a 64-bit mask);
    - ``rank-major``: ``code = rank_index * stride + suit_index`` (``stride`` defaults to the number of
      suits: Zheng Shangyou and Biscuits, whose masks order cards by rank first).

    Jokers follow the suited cards' rows: ``joker_base + joker_index``, ``joker_base`` = rows * stride.
    A card set is a bit mask over the codes (:meth:`mask`), or with two decks a multiset ``(cards, dups)``
    (:meth:`multiset`); :meth:`text` turns either back into card text, lowest code first.

    >>> d = Deck(ranks=RANKS, suits=("C", "H", "D", "S"))
    >>> d.index(parse_card("2C")), d.index(parse_card("AS")), str(d.card(12))
    (0, 51, 'AC')
    >>> b = Deck(ranks=RANKS, suits=SUITS, layout="suit-major", stride=16)
    >>> b.mask("2C AD"), b.text(b.mask("AD 2C"))
    (268435457, '2C AD')
    >>> z = Deck(ranks=RANKS[1:] + RANKS[:1], suits=("D", "C", "H", "S"), jokers=JOKERS, layout="rank-major")
    >>> z.index(parse_card("2S")), z.index(parse_card("RJ", jokers=True)), z.text(*z.multiset("3D 3D BJ", copies=2))
    (51, 53, '3D 3D BJ')
    """

    ranks: tuple[str, ...]
    suits: tuple[str, ...]
    jokers: tuple[str, ...] = ()
    layout: str = "suit-major"
    stride: int = 0  # 0: the natural stride (ranks for suit-major, suits for rank-major)

    def __post_init__(self):
        if self.layout not in LAYOUTS:
            raise ValueError(f"unknown deck layout {self.layout!r}; accepted: {', '.join(LAYOUTS)}")
        natural = len(self.ranks) if self.layout == "suit-major" else len(self.suits)
        if self.stride == 0:
            object.__setattr__(self, "stride", natural)
        elif self.stride < natural:
            raise ValueError(f"stride {self.stride} is below the {natural} cards of a {self.layout} row")

    @property
    def size(self) -> int:
        """The number of distinct cards."""
        return len(self.ranks) * len(self.suits) + len(self.jokers)

    @property
    def joker_base(self) -> int:
        """The first joker's code: after every row of suited codes."""
        rows = len(self.suits) if self.layout == "suit-major" else len(self.ranks)
        return rows * self.stride

    @property
    def codes_width(self) -> int:
        """One more than the highest code: the bits a mask of this deck needs."""
        return self.joker_base + len(self.jokers)

    def without_jokers(self) -> Deck:
        return Deck(self.ranks, self.suits, (), self.layout, self.stride)

    def index(self, card: Card) -> int:
        """The code of ``card``; a card outside the deck (a joker where there is none) is an error."""
        if card.is_joker:
            if card.rank not in self.jokers:
                raise CardlabError(f"card {card} is not in this deck (it has no jokers)")
            return self.joker_base + self.jokers.index(card.rank)
        if card.rank not in self.ranks or card.suit not in self.suits:
            raise CardlabError(
                f"card {card} is not in this deck: ranks {accepted(self.ranks)}; suits {accepted(self.suits)}"
            )
        r, s = self.ranks.index(card.rank), self.suits.index(card.suit)
        return s * self.stride + r if self.layout == "suit-major" else r * self.stride + s

    code = index

    def card(self, index: int) -> Card:
        """The card of a code (the inverse of :meth:`index`)."""
        if not self.is_code(index):
            raise CardlabError(f"{index} is not a card code of this deck")
        if index >= self.joker_base:
            return Card(self.jokers[index - self.joker_base], "")
        major, minor = divmod(index, self.stride)
        if self.layout == "suit-major":
            return Card(self.ranks[minor], self.suits[major])
        return Card(self.ranks[major], self.suits[minor])

    def is_code(self, index: int) -> bool:
        """Whether ``index`` is the code of a card of this deck (strides leave gaps)."""
        if not 0 <= index < self.codes_width:
            return False
        if index >= self.joker_base:
            return True
        major, minor = divmod(index, self.stride)
        if self.layout == "suit-major":
            return minor < len(self.ranks) and major < len(self.suits)
        return minor < len(self.suits) and major < len(self.ranks)

    def indices(self, text: str | Sequence[str], *, allow_duplicates: bool = False) -> list[int]:
        """The codes of a card list, in the order given (jokers are read, and refused if the deck has none)."""
        cards = parse_cards(text, jokers=bool(self.jokers), allow_duplicates=allow_duplicates)
        return [self.index(c) for c in cards]

    def mask(self, text: str | Sequence[str]) -> int:
        """A card list (no card twice) to a bit mask over the codes."""
        m = 0
        for i in self.indices(text):
            m |= 1 << i
        return m

    def multiset(self, text: str | Sequence[str], copies: int = 1) -> tuple[int, int]:
        """A card list to ``(cards, dups)``: the codes held at least once, and those held twice. With one
        deck (``copies=1``) a repeated card is an error; with two, a third copy is."""
        mask = dup = 0
        for c in parse_cards(text, jokers=bool(self.jokers), allow_duplicates=copies > 1):
            bit = 1 << self.index(c)
            if dup & bit:
                raise CardlabError(f"card {c} appears three times in {text!r}: two decks hold two of each card")
            if mask & bit:
                dup |= bit
            mask |= bit
        return mask, dup

    def text(self, mask: int, dup: int = 0) -> str:
        """The cards of a mask (and a doubled card twice), lowest code first."""
        return " ".join(
            str(self.card(i)) for i in range(self.codes_width) if (mask >> i) & 1 for _ in range(1 + ((dup >> i) & 1))
        )

    @classmethod
    def from_toml(cls, d: dict) -> Deck:
        """The ``[deck]`` table of a rules file: ranks, suits, jokers, layout and stride."""
        return cls(
            ranks=tuple(d["ranks"]),
            suits=tuple(d["suits"]),
            jokers=tuple(d.get("jokers", ())),
            layout=d.get("layout", "suit-major"),
            stride=int(d.get("stride", 0)),
        )
