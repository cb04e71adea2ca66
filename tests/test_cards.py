import pytest

from analysis.cards import RANKS, Card, Deck, format_cards, parse_card, parse_cards
from analysis.errors import CardlabError


@pytest.mark.parametrize("token", ["KS", "K♠", "Ks", "ks", "k♤"])
def test_king_of_spades_forms(token):
    assert parse_card(token) == Card("K", "S")


@pytest.mark.parametrize(
    "token, rank, suit", [("10h", "T", "H"), ("Th", "T", "H"), ("10♥", "T", "H"), ("2c", "2", "C"), ("A♦", "A", "D")]
)
def test_ranks_and_suits(token, rank, suit):
    assert parse_card(token) == Card(rank, suit)


def test_jokers_only_where_the_game_has_them():
    assert parse_card("BJ", jokers=True).is_joker
    assert parse_card("rj", jokers=True) == Card("RJ", "")
    with pytest.raises(CardlabError, match="'BJ': this deck has no jokers"):
        parse_card("BJ")


def test_a_jokerless_deck_does_not_offer_jokers():
    """A bad card of a game without jokers (Bismarck, Biscuits, Bisko-Bobo) does not list jokers as accepted."""
    deck = Deck(ranks=RANKS, suits=("C", "D", "H", "S"))
    with pytest.raises(CardlabError) as e:
        deck.indices("AS 1H")
    assert "'1H'" in str(e.value) and "joker" not in str(e.value)
    with pytest.raises(CardlabError, match="no jokers"):
        deck.indices("AS BJ")
    jokers = Deck(ranks=RANKS, suits=("C", "D", "H", "S"), jokers=("BJ", "RJ"))
    with pytest.raises(CardlabError, match="or a joker BJ / RJ"):
        jokers.indices("AS 1H")


@pytest.mark.parametrize("bad", ["KX", "1S", "11H", "", "KSS", "ZZ"])
def test_bad_tokens_are_named(bad):
    with pytest.raises(CardlabError) as e:
        parse_card(bad)
    assert repr(bad) in str(e.value)


def test_duplicates_are_rejected():
    with pytest.raises(CardlabError, match="duplicate card KS"):
        parse_cards("KS QS K♠")
    assert len(parse_cards("KS KS", allow_duplicates=True)) == 2


def test_lists_and_format():
    assert format_cards(parse_cards("AS, 10d 9c")) == "AS TD 9C"
    assert format_cards(parse_cards("AS"), symbols=True) == "A♠"


def test_deck_encoding_follows_the_games_own_orders():
    bisko = Deck(ranks=RANKS, suits=("C", "H", "D", "S"))  # Bisko-Bobo: C < H < D < S
    zheng = Deck(
        ranks=("3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "2"),
        suits=("D", "C", "H", "S"),
        jokers=("BJ", "RJ"),
    )  # Zheng Shangyou: D < C < H < S, twos high
    assert bisko.index(Card("A", "H")) < bisko.index(Card("2", "D"))
    assert zheng.index(Card("2", "D")) == 12 and zheng.index(Card("RJ", "")) == 53
    for i in range(zheng.size):
        assert zheng.index(zheng.card(i)) == i
    with pytest.raises(CardlabError, match="not in this deck"):
        Deck(ranks=("A", "K"), suits=("S",)).index(Card("Q", "S"))
