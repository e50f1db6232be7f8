"""RULES.md 1: cards, decks, card text both ways, the suit ranking (drawn or agreed)."""

from __future__ import annotations

import math
from collections import Counter

import pytest

from conftest import C, c1, dealer, game, kinds, passive, play, rig
from pokeroulette_tui.engine.actions import Leave, StartHand
from pokeroulette_tui.engine.cards import (BY_INDEX, JOKER, STANDARD_DECK, Card, CardError,
                                           card_from_json, card_to_json, decks_for, format_cards,
                                           make_shoe, parse_card, parse_cards)
from pokeroulette_tui.engine.game import card_zones, new_game
from pokeroulette_tui.engine.rules import RuleError, RuleSet
from pokeroulette_tui.engine.view import view_for

# -- decks ---------------------------------------------------------------------


def test_rule_1_roulette_deck_is_52_cards_plus_2_jokers():
    shoe = make_shoe(1, jokers=True)
    assert len(shoe) == 54
    assert Counter(shoe)[JOKER] == 2
    assert set(shoe) - {JOKER} == set(STANDARD_DECK)
    assert len(set(STANDARD_DECK)) == 52


def test_rule_1_draw_deck_is_52_cards_no_jokers():
    g = game(4, preset="draw")
    dealer(g)
    assert g.decks == 1
    assert Counter(g.deck) == Counter(STANDARD_DECK)
    assert JOKER not in g.deck


@pytest.mark.parametrize("players", range(2, 31))
def test_rule_1_decks_ceil_players_over_5(players):
    """One deck for 3-5 players and one more for every further 5 (2 players: one deck)."""
    assert decks_for(players) == max(1, math.ceil(players / 5))


@pytest.mark.parametrize("players", [3, 5, 6, 10, 11, 12, 16, 20])
def test_rule_1_roulette_table_deals_from_ceil_players_over_5_decks(players):
    g = game(players)
    play(g, StartHand())
    assert g.decks == math.ceil(players / 5)
    assert card_zones(g) == Counter(make_shoe(g.decks, jokers=True))
    assert sum(card_zones(g).values()) == 54 * g.decks


def test_rule_1_decks_follow_the_players_dealt_in_not_the_seats():
    """Six seats, one left: the hand has five players and one deck."""
    g = game(6)
    play(g, Leave(seat=5))
    play(g, StartHand())
    assert g.decks == 1


def test_rule_1_minimum_three_players_unless_the_table_allows_two():
    with pytest.raises(RuleError, match="at least 3"):
        new_game(RuleSet(), ["Ana", "Bo"])
    g = new_game(RuleSet(min_players=2), ["Ana", "Bo"], seed=1)
    play(g, StartHand())
    assert g.decks == 1
    assert any("Warning" in line for line in RuleSet(min_players=2).describe())


def test_rule_1_roulette_has_no_upper_player_limit():
    """The sources disagree on a maximum; the engine has none (the UI offers 10)."""
    g = game(25)
    play(g, StartHand())
    assert g.decks == 5
    assert all(len(s.stock) == 1 and len(s.actives) == 2 for s in g.seats)


def test_rule_1_draw_seats_two_to_seven():
    with pytest.raises(RuleError, match="2 to 7"):
        game(8, preset="draw")
    game(7, preset="draw")
    game(2, preset="draw")


# -- card text both ways ---------------------------------------------------------------


@pytest.mark.parametrize("card", BY_INDEX)
def test_rule_1_card_text_round_trips(card):
    assert parse_card(card.text) == card
    assert parse_card(card.symbol) == card
    assert parse_card(card.text.lower()) == card
    assert parse_card(card.text.upper()) == card
    assert card_from_json(card_to_json(card)) == card
    assert BY_INDEX[card.index] == card


@pytest.mark.parametrize("text,expected", [
    ("As", Card(14, "S")), ("ah", Card(14, "H")), ("10h", Card(10, "H")), ("Td", Card(10, "D")),
    ("2c", Card(2, "C")), ("Q♣", Card(12, "C")), ("k♡", Card(13, "H")), ("1s", Card(14, "S")),
    ("*", JOKER), ("jk", JOKER), ("Joker", JOKER), ("★", JOKER), (" 7d ", Card(7, "D")),
])
def test_rule_1_card_text_accepts_common_spellings(text, expected):
    assert parse_card(text) == expected


@pytest.mark.parametrize("text", ["", "Zz", "1x", "11h", "A", "s", "Ah5", "0s", "**"])
def test_rule_1_card_text_refuses_non_cards_with_a_hint(text):
    with pytest.raises(CardError, match="is not a card"):
        parse_card(text)


def test_rule_1_card_lists_round_trip_with_spaces_or_commas():
    cards = parse_cards("As, Td 10h,2c *")
    assert cards == [Card(14, "S"), Card(10, "D"), Card(10, "H"), Card(2, "C"), JOKER]
    assert format_cards(cards) == "As Td Th 2c *"
    assert parse_cards(format_cards(cards)) == cards
    assert format_cards(make_shoe(2)) and parse_cards(format_cards(make_shoe(2))) == make_shoe(2)


def test_rule_1_card_words_and_symbols():
    assert c1("As").name == "ace of spades"
    assert c1("Td").symbol == "T♦"
    assert JOKER.name == "joker" and JOKER.symbol == "★" and JOKER.is_joker
    assert card_to_json(None) is None and card_from_json(None) is None


def test_rule_1_ranks_two_lowest_ace_highest():
    ranks = sorted({c.rank for c in STANDARD_DECK})
    assert ranks == list(range(2, 15))
    assert c1("2s").rank < c1("Ks").rank < c1("As").rank


# -- suit ranking -----------------------------------------------------------------------


def test_rule_1_suit_order_drawn_turns_cards_until_every_suit_shows_jokers_ignored():
    g = game(3, suit_order="drawn")
    turned = C("* 7h 2h Kc * As 9c 4d")
    rig(g, turned, None)
    events = play(g, StartHand())
    assert kinds(events)[0] == "suit_order"
    ev = events[0]
    assert g.suit_order == "HCSD"  # first appearance, highest first; jokers ignored
    assert g.suit_draw == turned  # turned until the fourth suit showed, no further
    assert list(ev.cards) == turned
    assert not ev.private  # shown to all players
    assert "♥ > ♣ > ♠ > ♦" in ev.text


def test_rule_1_suit_draw_is_shown_to_every_seat_and_spectators():
    g = game(4, suit_order="drawn")
    events = play(g, StartHand())
    suit_event = events[0]
    for viewer in (None, 0, 1, 2, 3):
        assert view_for(g, viewer).suit_draw == tuple(g.suit_draw)
        assert view_for(g, viewer).suit_order == g.suit_order
        assert suit_event.redacted_for(viewer) == suit_event


def test_rule_1_suit_draw_cards_return_to_the_deck_which_is_reshuffled():
    """The deal uses a full shoe: no card turned in the draw is missing from it."""
    g = game(3, suit_order="drawn")
    play(g, StartHand())
    assert card_zones(g) == Counter(make_shoe(1))


def test_rule_1_suit_order_is_drawn_once_per_session():
    g = game(3, suit_order="drawn", betting="none")
    first = play(g, StartHand())
    order = g.suit_order
    passive(g)
    second = play(g, StartHand())
    assert kinds(first).count("suit_order") == 1
    assert "suit_order" not in kinds(second)
    assert g.suit_order == order


@pytest.mark.parametrize("order", ["SHDC", "HSDC", "CDHS", "dhcs"])
def test_rule_1_agreed_suit_order_is_used_and_not_drawn(order):
    g = game(3, suit_order=order)
    events = play(g, StartHand())
    assert "suit_order" not in kinds(events)
    assert g.suit_order == order.upper()
    assert g.suit_draw == []


@pytest.mark.parametrize("bad", ["SHD", "SSHD", "SHDX", "random", ""])
def test_rule_1_suit_order_must_be_drawn_or_a_permutation(bad):
    with pytest.raises(RuleError, match="Suit order must be drawn"):
        RuleSet(suit_order=bad)


def test_rule_1_draw_variant_draws_suits_only_for_the_suit_tiebreak():
    g = game(3, preset="draw", suit_order="drawn")
    assert "suit_order" not in kinds(play(g, StartHand()))
    g = game(3, preset="draw", suit_order="drawn", suit_tiebreak=True)
    events = play(g, StartHand())
    assert kinds(events)[0] == "suit_order"
    assert JOKER not in g.suit_draw  # five-card draw uses no jokers
    assert sorted(g.suit_order) == sorted("SHDC")
